"""Star Cruiser Lite – Invasion v5.9: the refereed 2300AD campaign of the Kafer invasion.

Nations send weekly turn orders (imported from TOML files), the referee resolves the week
(mines, detection, pre-emptive attacks, facility detection, coordination, battles, specials,
movement, end-of-week bookkeeping) and issues a general report and one report per nation.
Months open with Week 0: production, colony defence, construction, resupply, politics.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.machine import Machine
from campaign_tui.core.model import State, Unit
from campaign_tui.core.procedures import ProcedureDef
from campaign_tui.core.ruleset import RuleSet
from campaign_tui.core.scenario import Scenario


class StarCruiserLite(RuleSet):
    id = "star_cruiser_lite"
    name = "Star Cruiser Lite – Invasion"
    version = "5.9.0"
    package = "rulesets.star_cruiser_lite"
    description = "Refereed campaign of the Kafer invasion of the French Arm (2300AD)."

    def machines(self) -> dict[str, Machine]:
        from rulesets.star_cruiser_lite.phases import MACHINE

        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        from rulesets.star_cruiser_lite.actions_orders import ORDER_ACTIONS
        from rulesets.star_cruiser_lite.actions_play import PLAY_ACTIONS
        from rulesets.star_cruiser_lite.actions_setup import SETUP_ACTIONS

        return {a.kind: a for a in (*SETUP_ACTIONS, *ORDER_ACTIONS, *PLAY_ACTIONS)}

    def procedures(self) -> dict[str, ProcedureDef]:
        from rulesets.star_cruiser_lite.procdefs import procedures

        return procedures()

    def scenarios(self) -> list[Scenario]:
        from rulesets.star_cruiser_lite.scenarios import SCENARIOS

        return list(SCENARIOS)

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        from rulesets.star_cruiser_lite.setup_data import BuilderSink, load

        b = self.builder(scenario, options)
        b.clock(month=1, week=0)
        data = self.load_data(scenario.data["file"])
        load(data, BuilderSink(b), self.catalog(), self.tables())
        b.meta("start_date", str(data.get("meta", {}).get("start_date", "2301")))
        b.var("relations", b.state.vars.get("relations", {}))
        return b.state

    def quick_setup_why_not(self, state: State) -> str | None:
        from rulesets.star_cruiser_lite import quick_setup

        return quick_setup.why_not(state)

    def quick_setup(self, ctx: Any, scenario: Scenario) -> None:
        from rulesets.star_cruiser_lite import quick_setup

        quick_setup.run(ctx)

    # -- hooks ----------------------------------------------------------------------------
    def redact(self, view: State, viewer: str) -> None:
        from rulesets.star_cruiser_lite.reports import redact

        redact(view, viewer)

    def board(self, state: State) -> Any:
        from campaign_tui.core.board import Board
        from rulesets.star_cruiser_lite.game import Game

        stars = Game(state, self.catalog(), self.tables()).stars
        places = {sid: {"name": rec.get("name", sid), "owner": rec.get("held_by") or ""}
                  for sid, rec in state.records("systems").items()}
        return Board(title="Star map", graph=stars, places=places)

    def reports(self, view: State, viewer: str) -> dict[str, str]:
        from rulesets.star_cruiser_lite.reports import build

        return build(
            view, viewer, self.effective_catalog(view), self.tables().with_overrides(view.table_overrides)
        )

    def _game(self, state: State) -> Any:
        from rulesets.star_cruiser_lite.game import Game

        return Game(state, self.effective_catalog(state), self.tables().with_overrides(state.table_overrides))

    def unit_stats(self, state: State, unit: Unit) -> str:
        g = self._game(state)
        if g.is_troop(unit):
            st = unit.status
            return f"{g.code(unit)} {st.get('exp', '')} BF {st.get('bf')} GF {st.get('gf')}"
        parts = [g.code(unit)]
        for s in ("bm", "sb", "mi", "sv", "df", "sc", "sn", "mv"):
            base = g.base(unit, s)
            if base:
                cur = g.cur(unit, s)
                parts.append(f"{s.capitalize()} {cur}" + (f"/{base}" if cur != base else ""))
        return " ".join(parts)

    def headline(self, state: State) -> dict[str, list[str]]:
        from rulesets.star_cruiser_lite import sp as spm

        g = self._game(state)
        out: dict[str, list[str]] = {}
        for nation in state.sides:
            from campaign_tui.core.procedures import plural

            tfs = [f for f in g.formations("task_force", nation) if g.ships(f.id)]
            hulls = [u for f in tfs for u in g.hulls(f.id)]
            wings = sum(1 for u in hulls if g.code(u) == "FTR")  # fighters are not ships
            line = [plural(len(tfs), "task force"), plural(len(hulls) - wings, "ship")]
            if wings:
                line.append(plural(wings, "fighter wing"))
            rec = g.nation(nation)
            if "qas_stock" in rec:
                line.append(f"QAS stockpile {spm.text(rec['qas_stock'])} SP")
            if state.options.get("victory_ledger"):
                held = sum(
                    1 for c in g.colonies().values() if c.get("owner") == nation and not c.get("destroyed")
                )
                lost = sum(
                    1
                    for u in state.units.values()
                    if u.side == nation and u.status.get("fate") and g.is_ship(u)
                )
                line.append(f"colonies held {held}, ships lost {lost}")
            out[nation] = line
        return out

    def validate_state(self, state: State) -> list[tuple[list[str], str]]:
        from rulesets.star_cruiser_lite import sp as spm

        problems: list[tuple[list[str], str]] = []
        systems = state.records("systems")
        for sid, rec in systems.items():
            for link in rec.get("links", []):
                if link not in systems:
                    problems.append(
                        (["records", "systems", sid, "links"], f"link to unknown system {link!r}")
                    )
        for fid, f in state.formations.items():
            if f.location and f.location not in systems:
                problems.append((["formations", fid, "location"], f"unknown system {f.location!r}"))
            if f.kind == "facility":
                try:
                    spm.sp(f.data.get("sp", 0))
                except Exception as exc:
                    problems.append((["formations", fid, "data", "sp"], str(exc)))
        for cid, c in state.records("colonies").items():
            if c.get("system") not in systems:
                problems.append(
                    (["records", "colonies", cid, "system"], f"unknown system {c.get('system')!r}")
                )
        return problems


plugin = StarCruiserLite()
