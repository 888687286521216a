"""Prefect (FASA, 1992): the planetary, space and campaign games of the Renegade Legion.

The plugin object is ``plugin``. Modules are imported when first needed, so listing rule
sets stays fast.
"""

from __future__ import annotations

import functools
from typing import Any

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.machine import Machine
from campaign_tui.core.model import State, Unit
from campaign_tui.core.procedures import ProcedureDef
from campaign_tui.core.ruleset import RuleSet
from campaign_tui.core.scenario import Scenario


class Prefect(RuleSet):
    id = "prefect"
    name = "Prefect"
    version = "1.0.0"
    package = "rulesets.prefect"
    description = "FASA's operational game of the Renegade Legion: planetary, space and campaign."

    @functools.cache  # noqa: B019 - one plugin object per process
    def machines(self) -> dict[str, Machine]:
        from rulesets.prefect import phases_campaign, phases_planetary, phases_space

        out = [phases_planetary.build(), phases_space.build(), phases_campaign.build()]
        return {m.id: m for m in out}

    @functools.cache  # noqa: B019
    def actions(self) -> dict[str, ActionDef]:
        from rulesets.prefect.action_index import all_actions

        return {a.kind: a for a in all_actions()}

    @functools.cache  # noqa: B019
    def procedures(self) -> dict[str, ProcedureDef]:
        from rulesets.prefect import procs_play, procs_supply
        from rulesets.prefect.procedures import PROCEDURES

        return {p.id: p for p in (*PROCEDURES, *procs_play.PROCEDURES, *procs_supply.PROCEDURES)}

    @functools.cache  # noqa: B019
    def scenarios(self) -> list[Scenario]:
        data = self.load_data("scenarios.toml")["scenarios"]
        machine = {"planetary": "prefect.planetary", "space": "prefect.space", "campaign": "prefect.campaign"}
        out = []
        for sid in ("liberation", "holding_the_line", "invasion"):
            spec = data[sid]
            sides = (spec["setup_order"][0], spec["setup_order"][1])
            out.append(
                Scenario(
                    sid,
                    spec["title"],
                    spec["description"],
                    sides,
                    f"{spec['turns']} turns",
                    machine[spec["game"]],
                    data={"notes": spec.get("notes", []), "game": spec["game"]},
                    aliases=tuple(spec.get("aliases", ())),
                    options=dict(spec.get("options", {})),
                    provenance=spec.get("reference", ""),
                )
            )
        return out

    def quick_setup_why_not(self, state: State) -> str | None:
        from rulesets.prefect import quick_setup

        return quick_setup.why_not(state)

    def quick_setup(self, ctx: Any, scenario: Scenario) -> None:
        from rulesets.prefect import quick_setup

        quick_setup.run(ctx)

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        from rulesets.prefect.scenario_build import build_state

        return build_state(self, scenario, options)

    # -- hooks ------------------------------------------------------------------------------------
    def prompt_context(self, state: State) -> dict[str, Any]:
        ctx = super().prompt_context(state)
        ctx.setdefault("attacker", "")
        ctx.setdefault("defender", "")
        return ctx

    def board(self, state: State) -> Any:
        from rulesets.prefect.board import map_board

        return map_board(state)

    def redact(self, view: State, viewer: str) -> None:
        from rulesets.prefect.views import redact

        redact(self, view, viewer)

    def badges(self, state: State, unit: Unit) -> list[str]:
        from rulesets.prefect.views import badges

        return badges(self, state, unit)

    def unit_stats(self, state: State, unit: Unit) -> str:
        from rulesets.prefect.views import unit_stats

        return unit_stats(self, state, unit)

    def headline(self, state: State) -> dict[str, list[str]]:
        from rulesets.prefect.views import headline

        return headline(self, state)

    def reports(self, view: State, viewer: str) -> dict[str, str]:
        from rulesets.prefect.views import reports

        return reports(self, view, viewer)

    def validate_state(self, state: State) -> list[tuple[list[str], str]]:
        from rulesets.prefect.views import validate_state

        return validate_state(self, state)

    def check(self) -> None:
        super().check()
        from rulesets.prefect.views import check_data

        check_data(self)


plugin = Prefect()
