"""Second Sathar War (SWII): the strategic campaign of the Knight Hawks supplement.

The plugin object is ``plugin``; everything heavy is imported when first used.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.machine import Machine
from campaign_tui.core.model import State, Unit
from campaign_tui.core.procedures import ProcedureDef
from campaign_tui.core.ruleset import RuleSet
from campaign_tui.core.scenario import Scenario


class SecondSatharWar(RuleSet):
    id = "second_sathar_war"
    name = "Second Sathar War"
    version = "1.0.0"
    package = "rulesets.second_sathar_war"
    description = "The Sathar's second invasion of the Frontier, day by day on the Frontier Deployment Map."

    def machines(self) -> dict[str, Machine]:
        from .phases import MACHINE

        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        from .actions import all_actions

        return all_actions()

    def procedures(self) -> dict[str, ProcedureDef]:
        from .procedures import registry

        return registry()

    def scenarios(self) -> list[Scenario]:
        from .scenarios import SCENARIOS

        return list(SCENARIOS)

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        from .scenarios import build

        return build(self, scenario, options)

    def quick_setup_why_not(self, state: State) -> str | None:
        from .quick_setup import why_not

        return why_not(state)

    def quick_setup(self, ctx: Any, scenario: Scenario) -> None:
        from .quick_setup import run

        run(ctx)

    # -- hooks ------------------------------------------------------------------------------
    def due(self, state: State, open_actions: list[str]) -> str | None:
        from .attention import due

        return due(state, open_actions)

    def battle(self, state: State) -> str | None:
        from .attention import battle

        return battle(state)

    def resolve_actor(self, state: State, actor: str) -> str:
        if actor == "phasing":
            from .actions.common import step_side

            return step_side(state) or "gm"
        return super().resolve_actor(state, actor)

    def prompt_context(self, state: State) -> dict[str, Any]:
        from .rules import day_text

        ctx = super().prompt_context(state)
        ctx["day_text"] = day_text(int(state.clock.get("day", 0)))
        return ctx

    def redact(self, view: State, viewer: str) -> None:
        """Hide what the other side may not know beyond the engine's rules: per-ship entries
        of ships the viewer cannot see (Strike Force NOVA before it is placed)."""
        if viewer == "gm":
            return
        visible = set(view.units)
        for key in ("day_start",):
            book = view.vars.get(key)
            if isinstance(book, dict):
                view.vars[key] = {k: v for k, v in book.items() if k in visible}
        today = view.vars.get("today")
        if isinstance(today, dict):
            view.vars["today"] = {
                k: ([x for x in v if x in visible] if isinstance(v, list) else v) for k, v in today.items()
            }

    def badges(self, state: State, unit: Unit) -> list[str]:
        from .ships import cur_hp, max_hp

        out = []
        for key, text in (
            ("systems_out", "out"),
            ("flags", ""),
            ("spent", "spent"),
            ("station_repair", "station repair"),
        ):
            values = unit.status.get(key) or []
            if values:
                out.append(f"{text + ': ' if text else ''}{', '.join(str(v) for v in values)}")
        for key, fmt in (("hull_damage", "hull -{}"), ("adf_lost", "ADF -{}"), ("mr_lost", "MR -{}")):
            if unit.status.get(key):
                out.append(fmt.format(unit.status[key]))
        for key, text in (
            ("destroyed", "destroyed"),
            ("dcr_halved", "DCR halved"),
            ("deputized", "deputized"),
            ("shatter_drone", "shatter drone"),
            ("hull_station_only", "hull: station only"),
        ):
            if unit.status.get(key):
                out.append(text)
        if unit.status.get("home"):
            out.append(f"militia of {unit.status['home']}")
        if unit.status.get("aboard"):
            out.append(f"aboard {unit.status['aboard']}")
        if unit.status.get("letter"):
            out.append(f"letter {unit.status['letter']}")
        if not unit.status.get("destroyed") and 2 * (max_hp(state, unit) - cur_hp(state, unit)) > max_hp(
            state, unit
        ):
            out.append("severely damaged")
        return out

    def unit_stats(self, state: State, unit: Unit) -> str:
        from .ships import condition

        return condition(state, unit)

    def headline(self, state: State) -> dict[str, list[str]]:
        from campaign_tui.core.procedures import plural

        from .ledger import kills, losses
        from .locations import parse
        from .ships import is_fighter, is_station, loc_of

        out: dict[str, list[str]] = {}
        k = kills(state)
        for side in ("UPF", "SATHAR"):
            units = [u for u in state.units.values() if u.side == side and not is_station(u)]
            alive = [u for u in units if not u.status.get("destroyed")]
            on_map = sum(1 for u in alive if loc_of(state, u).on_map)
            lost = len(losses(state, side))
            fighters = sum(1 for u in alive if is_fighter(u))  # counted apart from ships
            on_map = sum(1 for u in alive if loc_of(state, u).on_map and not is_fighter(u))
            line = [f"{plural(len(alive) - fighters, 'ship')} ({on_map} on the map)"
                    + (f", {plural(fighters, 'fighter')}" if fighters else ""), f"{lost} lost"]
            if side == "UPF":
                standing = sum(
                    1 for u in state.units.values() if is_station(u) and not u.status.get("destroyed")
                )
                line.append(f"{standing} stations standing")
            else:
                forts = sum(1 for x in k if x["type"] == "FORTRESS")
                line.append(f"stations destroyed {len(k)}/12, fortresses {forts}/4")
            out[side] = line
        del parse
        return out

    def board(self, state: State) -> Any:
        from campaign_tui.core.board import Board
        from rulesets.second_sathar_war.fdm import Fdm

        return Board(title="Frontier Deployment Map", graph=Fdm.of(state).graph)

    def reports(self, view: State, viewer: str) -> dict[str, str]:
        from .reports import build

        return build(view, viewer)

    def validate_state(self, state: State) -> list[tuple[list[str], str]]:
        from .locations import parse

        problems: list[tuple[list[str], str]] = []
        for f in state.formations.values():
            try:
                parse(f.location)
            except Exception as exc:
                problems.append((["formations", f.id, "location"], str(exc)))
        for u in state.units.values():
            host = u.status.get("aboard")
            if host and host not in state.units:
                problems.append((["units", u.id, "status", "aboard"], f"no carrier or station {host!r}"))
        return problems

    def check(self) -> None:
        super().check()
        from .fdm import Fdm, initial_records

        routes, circles = initial_records("rounded")
        fdm = Fdm(routes, circles)
        for r in fdm.routes.values():
            fdm.system(r.a)
            fdm.system(r.b)
        for c in fdm.circles.values():
            fdm.system(c.target)
        oob = self.load_data("oob.toml")
        for st in oob["stations"].values():
            fdm.planet(st["planet"])
        for pid in oob["scc"]:
            fdm.planet(pid)
        for p in self.procedures().values():
            assert callable(p.fn)


plugin = SecondSatharWar()
