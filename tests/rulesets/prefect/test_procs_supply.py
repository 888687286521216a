"""Supply rules play applies and ``calc`` reaches with explicit inputs: transfers (5.11.2),
scenario income (5.11.7, T15), supply drops (5.14.7) and building ground bases (5.11.8,
5.14.10)."""

from __future__ import annotations

import json

import pytest

from campaign_tui.core.errors import ActionRejected
from tests.cli_helpers import run
from tests.rulesets.prefect.helpers import act, liberation, procedure
from tests.rulesets.prefect.test_planetary import _to_supply


def test_transfer_caps_the_receiver_and_refuses_what_5_11_2_does_not_allow():
    calc, r = procedure("transfer", source="GL1", receiver="Legion HQ", amount=10, stored=10)
    assert calc.value == {"cap": 15, "stored": 15, "lost": 5}
    assert any("T5" in line for line in r.lines)
    assert procedure("transfer", source="Legion HQ", receiver="GL2", amount=5)[0].value["stored"] == 5
    for refused in (
        {"source": "Legion HQ", "receiver": "Auxilia HQ"},
        {"source": "GL2", "receiver": "Legion HQ", "source_disrupted": True},
        {"source": "GL2", "receiver": "Legion HQ", "loc": False},
        {"source": "GL2", "receiver": "Legion HQ", "received_this_turn": True},
    ):
        assert procedure("transfer", amount=5, **refused)[0].value is None, refused


def test_play_refuses_an_hq_to_hq_transfer():
    e = liberation()
    _to_supply(e)
    with pytest.raises(ActionRejected, match=r"5\.11\.2"):
        act(e, "transfer_supply", {"source": "cw199-hql1", "dest": "cw212-hqa1", "amount": 1}, by="CW")


def test_income_cities_and_liberation_roll():
    assert procedure("income", rule="cities", cities=4)[0].value == 8
    assert procedure("income", rule="cities", cities=4, cities_with_loc=3)[0].value == 6
    calc, _r = procedure("income", [2], rule="liberation_tog", hqs=3)  # T15 2: each +10
    assert calc.value == 15 + 30
    calc, _r = procedure("income", [4], rule="liberation_tog", hqs=3, has_base=False)  # one +10
    assert calc.value == 10
    assert procedure("income", [8], rule="liberation_tog", hqs=3)[0].value == 15  # none


def test_supply_drop_hands_sp_to_an_hq_within_its_cap():
    assert procedure("supply_drop", amount=10, receiver="Auxilia HQ", stored=2)[0].value == {
        "cap": 6,
        "stored": 6,
        "lost": 6,
    }
    assert procedure("supply_drop", amount=10, transport_disrupted=True)[0].value is None
    assert procedure("supply_drop", cargo="base", engineers=False)[0].value is None
    assert procedure("supply_drop", cargo="base")[0].value == "placed"


def test_base_building_needs_t7_engineers_and_sp_and_one_base_a_hex():
    assert procedure("base_building", rating=2, centuries=2, sp=15)[0].value == "placed"
    assert (
        "short of 1 Centuries and 5 SP" in procedure("base_building", rating=2, centuries=1, sp=10)[0].summary
    )
    assert procedure("base_building", rating=1, centuries=1, sp=5, base_in_hex=True)[0].value is None
    assert procedure("base_building", rating=1, centuries=1, sp=5, assigned_last_turn=False)[0].value is None
    assert procedure("base_building", rating=4, centuries=4, sp=100)[0].value is None
    assert procedure("base_building", rating=3, how="dropped", centuries=1)[0].value == "placed"
    assert procedure("base_building", rating=3, how="dropped")[0].value is None


def test_calc_reaches_them_with_options(capsys):
    base = ("calc", "prefect", "5.14.10", "rating=4", "centuries=4", "sp=100", "--json")
    code, out, _err = run(capsys, *base)
    assert code == 0 and json.loads(out)["value"] is None
    code, out, _err = run(capsys, *base, "--option", "gl4_buildable=true")
    assert code == 0 and json.loads(out)["value"] == "placed"
    code, out, _err = run(
        capsys, "calc", "prefect", "5.11.7", "rule=liberation_tog", "hqs=1", "--dice", "1", "--json"
    )
    assert "filled" in json.loads(out)["summary"]
