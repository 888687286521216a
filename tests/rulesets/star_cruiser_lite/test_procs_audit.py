"""Rules campaign play applies that ``calc`` reaches with explicit inputs after the audit of
digest sections 3 to 5: the automatic resupply order (T-32) and damage results (T-16),
taking the table's own words."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import FreeResolver
from rulesets.star_cruiser_lite import plugin


def _calc(name: str, options: dict[str, object] | None = None, **params: object) -> object:
    opts = {o.id: o.default for o in plugin.options()} | (options or {})
    return plugin.procedure(name).fn(FreeResolver(plugin.tables(), opts, dice=[]), **params)


def test_resupply_order_follows_t32_with_the_named_source_first_and_core_only_at_qas():
    out = _calc("resupply_order", available=["colony", "self", "ASB", "core", "CFR", "merchants"])
    assert out.value == ["CFR", "ASB", "merchants", "self", "colony"]
    assert _calc("resupply_order", available=["self", "core"], at_qas=True).value == ["core", "self"]
    assert _calc("resupply_order", available=["self", "FB"], named="self").value == ["self", "FB"]
    with pytest.raises(InvalidInput, match="not a T-32 source"):
        _calc("resupply_order", available=["bank"])


def test_the_campaign_resupply_order_is_t32():
    from rulesets.star_cruiser_lite.rules_logistics import RESUPPLY_WORDS
    from rulesets.star_cruiser_lite.supply import FACILITY_ORDER

    assert RESUPPLY_WORDS[1:5] == FACILITY_ORDER


def test_damage_results_in_the_tables_words():
    """T-16: Defense -1 at 1 destroys; Supply Points -10% rounds the loss per the option."""
    assert _calc("damage_result", result="Defense -1", current=1).summary == "destroyed"
    assert _calc("damage_result", result="Screens -1", current=3).value == 2
    assert _calc("damage_result", result="Sensor -1", current=0).summary == "no effect: already 0"
    assert _calc("damage_result", result="Supply Points -10%", sp="25").value == 22
    down = _calc("damage_result", {"facility_sp_loss_rounding": "down"}, result="Supply Points -10%", sp="25")
    assert down.value == 23
    with pytest.raises(InvalidInput, match="not a T-16 result"):
        _calc("damage_result", result="Hull -1")
