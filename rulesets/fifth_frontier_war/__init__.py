"""Fifth Frontier War (GDW 1981): the campaign manager's rule-set plugin.

The plugin declares the phase machine (phases.py), the actions (actions_*.py), the
procedures of digest section 5 (procedures.py, combat_procs.py, formulas.py), the campaign
scenario (scenarios.py) and its data (data/: tables, counters, options, the map). Heavy
modules are imported only when the plugin is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core.ruleset import RuleSet

if TYPE_CHECKING:
    from campaign_tui.core.actions import ActionDef
    from campaign_tui.core.board import Board
    from campaign_tui.core.changes import Change
    from campaign_tui.core.machine import Machine
    from campaign_tui.core.model import State, Unit
    from campaign_tui.core.procedures import ProcedureDef
    from campaign_tui.core.scenario import Scenario


class FifthFrontierWar(RuleSet):
    id = "fifth_frontier_war"
    name = "Fifth Frontier War"
    version = "1.0.0"
    package = "rulesets.fifth_frontier_war"
    description = "GDW's Battles for the Spinward Marches: the Zhodani Consulate against the Imperium."

    def machines(self) -> dict[str, Machine]:
        from rulesets.fifth_frontier_war.phases import MACHINE

        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        from rulesets.fifth_frontier_war import actions_combat, actions_org, actions_setup, actions_turn

        out: dict[str, ActionDef] = {}
        for module in (actions_setup, actions_org, actions_turn, actions_combat):
            for a in module.ACTIONS:
                out[a.kind] = a
        return out

    def procedures(self) -> dict[str, ProcedureDef]:
        from rulesets.fifth_frontier_war.procedures import PROCEDURES

        return {p.id: p for p in PROCEDURES}

    def scenarios(self) -> list[Scenario]:
        from rulesets.fifth_frontier_war.scenarios import SCENARIOS

        return list(SCENARIOS)

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        from rulesets.fifth_frontier_war.scenarios import build

        return build(self, scenario, options)

    def board(self, state: State) -> Board:
        from rulesets.fifth_frontier_war.board import board

        return board(state)

    def quick_setup_why_not(self, state: State) -> str | None:
        from rulesets.fifth_frontier_war import quick_setup

        return quick_setup.why_not(state)

    def quick_setup(self, ctx: Any, scenario: Scenario) -> None:
        from rulesets.fifth_frontier_war import quick_setup

        quick_setup.run(ctx)

    def due(self, state: State, open_actions: list[str]) -> str | None:
        from rulesets.fifth_frontier_war.attention import due

        return due(state, open_actions)

    def battle(self, state: State) -> str | None:
        from rulesets.fifth_frontier_war.attention import battle

        return battle(state)

    def unit_stats(self, state: State, unit: Unit) -> str:
        from rulesets.fifth_frontier_war.reports import unit_stats

        return unit_stats(state, unit)

    def headline(self, state: State) -> dict[str, list[str]]:
        from rulesets.fifth_frontier_war.reports import headline

        return headline(state)

    def describe_change(self, view: State, change: Change) -> list[str] | None:
        from rulesets.fifth_frontier_war.change_words import describe_change

        return describe_change(view, change, self.load_data("worlds.toml").get("boxes", {}))

    def reports(self, view: State, viewer: str) -> dict[str, str]:
        from rulesets.fifth_frontier_war.reports import reports

        return reports(view, viewer)

    def prompt_context(self, state: State) -> dict[str, Any]:
        ctx = super().prompt_context(state)
        for role in ("first", "second", "first_disengager", "second_disengager", "sq_side", "sdb_side"):
            ctx.setdefault(role, role.replace("_", " "))
        return ctx

    def validate_state(self, state: State) -> list[tuple[list[str], str]]:
        problems: list[tuple[list[str], str]] = []
        worlds = state.records("worlds")
        if len(worlds) != 146:
            problems.append((["records", "worlds"], f"{len(worlds)} worlds; the map has 146"))
        for fid, f in state.formations.items():
            if f.kind == "fleet" and fid not in state.records("fleet_markers"):
                problems.append((["formations", fid], "a fleet without a fleet marker"))
        return problems


plugin = FifthFrontierWar()
