"""Every action of the rule set, by kind."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef

from . import battle, cycle, gm, moves, setup


def all_actions() -> dict[str, ActionDef]:
    out: dict[str, ActionDef] = {}
    for module in (setup, moves, battle, cycle, gm):
        for a in module.ACTIONS:
            out[a.kind] = a
    return out
