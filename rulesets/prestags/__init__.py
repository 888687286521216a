"""PRESTAGS: SPI's Pre-Seventeenth Century Tactical Game System (1975).

One plugin for the five games that share the standard rules - Chariot, Spartan, Legion,
Viking and Yeoman: the unit types carry the games they appear in and each scenario belongs
to one game. The standard and the simultaneous sequences of play are both here, chosen at
set-up (option ``simultaneous``), with every optional rule of [12.0]-[23.3] as an option.

Modules: ``phases`` (the sequences), ``act_*`` and ``simultaneous`` (actions; ``act_chariot``
the Chariot Phase, ``act_fleet`` the Viking fleets), ``plots`` (secret orders), ``combat``,
``strength``, ``crt``, ``results``, ``panic``, ``movement``, ``carriers`` (chariots and fleets),
``exclusive`` (the games' exclusive rules), ``victory`` (rules), ``hexmap`` (what is known of
the map), ``procedures`` (formulas for ``calc``), ``scenarios`` (orders of battle), ``views``
(badges, headlines, reports).
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


class Prestags(RuleSet):
    id = "prestags"
    name = "PRESTAGS"
    version = "1.0.0"
    package = "rulesets.prestags"
    description = "SPI's tactical system for Chariot, Spartan, Legion, Viking and Yeoman."

    @functools.cache  # noqa: B019 - one plugin object per process
    def machines(self) -> dict[str, Machine]:
        from rulesets.prestags import phases

        return {m.id: m for m in (phases.standard(), phases.simultaneous())}

    @functools.cache  # noqa: B019
    def actions(self) -> dict[str, ActionDef]:
        from rulesets.prestags import (
            act_chariot,
            act_combat,
            act_fleet,
            act_game,
            act_move,
            act_setup,
            plots,
            simultaneous,
        )

        defs = (
            act_setup.map_hexes,
            act_setup.deploy,
            act_combat.fire,
            act_combat.defensive_fire,
            act_combat.melee,
            act_move.move,
            act_move.flee,
            act_chariot.chariot_move,
            act_fleet.sail,
            act_fleet.board,
            act_fleet.land,
            act_game.concede,
            act_game.concession_done,
            act_game.agree_end,
            act_game.panic_check,
            act_game.judge_victory,
            plots.plot,
            simultaneous.resolve_fire,
            simultaneous.resolve_melee,
            simultaneous.resolve_movement,
            simultaneous.resolve_df,
        )
        return {d.kind: d for d in defs}

    def procedures(self) -> dict[str, ProcedureDef]:
        from rulesets.prestags.procedures import PROCS

        return PROCS

    @functools.cache  # noqa: B019
    def scenarios(self) -> list[Scenario]:
        from rulesets.prestags import scenarios

        return scenarios.load(self)

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        from rulesets.prestags import scenarios

        return scenarios.build(self, scenario, options)

    def quick_setup_why_not(self, state: State) -> str | None:
        from rulesets.prestags import quick_setup

        return quick_setup.why_not(state)

    def quick_setup(self, ctx: Any, scenario: Scenario) -> None:
        from rulesets.prestags import quick_setup

        quick_setup.run(ctx)

    # -- hooks -------------------------------------------------------------------------------------
    def badges(self, state: State, unit: Unit) -> list[str]:
        from rulesets.prestags import views

        return views.badges(self, state, unit)

    def unit_stats(self, state: State, unit: Unit) -> str:
        from rulesets.prestags import views

        return views.unit_stats(self, state, unit)

    def headline(self, state: State) -> dict[str, list[str]]:
        from rulesets.prestags import views

        return views.headline(self, state)

    def board(self, state: State) -> Any:
        from rulesets.prestags.hexmap import board

        return board(state)

    def reports(self, view: State, viewer: str) -> dict[str, str]:
        from rulesets.prestags import views

        return views.reports(self, view, viewer)

    def validate_state(self, state: State) -> list[tuple[list[str], str]]:
        from rulesets.prestags import views

        return views.validate_state(self, state)

    def redact(self, view: State, viewer: str) -> None:
        """Plots live in each side's secrets, which the engine already withholds; until the
        game ends nothing else about them is kept in the open. The record of past plots is
        only written when the game is over [20.1]."""
        if viewer == "gm":
            return
        if not view.vars.get("outcome") and view.records("plots"):
            view.records("plots").clear()

    def check(self) -> None:
        super().check()
        from rulesets.prestags.victory import parse_alternative

        procs = self.procedures()
        seen: dict[str, str] = {}
        for p in procs.values():
            for name in (p.id, *p.aliases):
                if name.lower() in seen:
                    raise ValueError(f"procedure name {name} used twice ({seen[name.lower()]}, {p.id})")
                seen[name.lower()] = p.id
        for s in self.scenarios():
            for side in ("a", "b"):
                for alt in s.data[side].get("victory", []):
                    parse_alternative(alt)
            state = self.build(s, {o.id: o.default for o in self.options()})
            problems = self.validate_state(state)
            if problems:
                raise ValueError(f"scenario {s.id}: {problems[0]}")


plugin = Prestags()
