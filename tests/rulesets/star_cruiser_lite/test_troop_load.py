"""Troop transport (T-06, T-07): the ``troop_load`` procedure, the ``load_troops`` action and
the order-of-battle loader refuse a load that does not fit, saying why."""

from __future__ import annotations

import copy

import pytest

from campaign_tui.core.errors import ActionRejected, InvalidInput
from rulesets.star_cruiser_lite import plugin
from rulesets.star_cruiser_lite.setup_data import _check_troop_loads

from .helpers import engine, resolver, to_step


def _load(**params: object) -> dict:
    return plugin.procedure("troop_load").fn(resolver(), **params).value


def test_troop_load_counts_t07_sizes_against_t06_room():
    assert _load(ship="TT", troops="Bde(H)")["fits"] is True
    assert _load(ship="TT", troops="Bde(M),JBn") == {"fits": True, "used": 3, "room": 3, "unit": "strength"}
    assert _load(ship="TT", troops="Bde(M),Bde(L),JBn")["fits"] is False
    assert _load(ship="TT", troops="PD")["fits"] is False  # PD sites only in merchant space
    assert _load(ship="MS", troops="Bde(H),PD,PD")["used"] == 19  # 25 merchant points
    assert _load(ship="MF", troops="Bde(H)")["fits"] is False  # 15 > 10
    assert _load(ship="MQ", troops="JBn,PD")["fits"] is False  # one unit only
    assert _load(ship="BB", troops="JBn", troop_cap=2)["fits"] is True
    assert _load(ship="CG", troops="JBn")["fits"] is False  # no printed capacity given
    with pytest.raises(InvalidInput, match="T-07 codes"):
        _load(ship="TT", troops="")


def test_load_troops_refuses_what_does_not_fit_and_takes_what_does():
    e = engine()
    to_step(e, "W.ORDERS")
    extra = copy.deepcopy(e.state.units["ame-bdem-1"])
    extra.id, extra.status["carried_by"] = "ame-bdem-2", ""
    e.state.units[extra.id] = extra
    with pytest.raises(ActionRejected, match=r"ame-bdem-1 aboard: 4 strength do not fit in 3"):
        e.perform("load_troops", {"units": ["ame-bdem-2"], "ship": "ame-tt-1"})
    e.perform("load_troops", {"units": ["ame-bdem-2"], "ship": "ame-mf-1"})  # MF: 10 merchant points
    assert e.state.units["ame-bdem-2"].status["carried_by"] == "ame-mf-1"
    e.perform("load_troops", {"units": ["ame-bdem-2"], "ship": "-"})
    assert e.state.units["ame-bdem-2"].status["carried_by"] == ""
    with pytest.raises(ActionRejected, match="not a AME troop unit at QAS"):
        e.perform("load_troops", {"units": ["fra-bdel-1"], "ship": "ame-tt-1"})


def test_an_order_of_battle_cannot_overload_a_ship():
    data = {
        "task_forces": [{"id": "AME-9", "ships": [{"id": "tt", "type": "demo_tt"}]}],
        "contingents": [
            {"id": "AME-G9", "troops": [{"id": f"b{i}", "type": "bde_m", "carried_by": "tt"} for i in (1, 2)]}
        ],
    }
    with pytest.raises(InvalidInput, match="ship tt: troops Bde\\(M\\), Bde\\(M\\) aboard"):
        _check_troop_loads(data, plugin.catalog())
    data["contingents"][0]["troops"].pop()
    _check_troop_loads(data, plugin.catalog())
