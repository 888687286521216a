"""Every action of the rule set, gathered from the action modules."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef


def all_actions() -> list[ActionDef]:
    from rulesets.prefect import (
        actions_campaign,
        actions_combat,
        actions_movement,
        actions_setup,
        actions_space,
        actions_space_supply,
        actions_supply,
        actions_withdraw_adjust,
        external,
    )

    modules = [
        actions_setup,
        actions_movement,
        actions_combat,
        actions_supply,
        actions_withdraw_adjust,
        actions_space,
        actions_space_supply,
        actions_campaign,
        external,
    ]
    out: dict[str, ActionDef] = {}
    for mod in modules:
        for value in vars(mod).values():
            if isinstance(value, ActionDef) and value.kind not in out:
                out[value.kind] = value
    return list(out.values())
