"""The campaign game driven through its phase machine (Invasion): the space phases, an
orbital drop that lands in the Supply Phase, the ground phases with naval ground support
and independent attacks, reinforcements, and a tempo that adds space and ground scores."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected
from rulesets.prefect.actions_space import missions_left
from tests.rulesets.prefect.helpers import act, dice, invasion


def _missions(e: Engine) -> None:
    for f in list(e.state.formations.values()):
        if f.kind != "naval_tf" or not f.location:
            continue
        if f.side == "CW":
            mission = {"cw-ntf1": "sector_defense", "cw-ntf3": "sector_defense"}.get(f.id, "supply")
        else:
            mission = "orbital_drop" if f.data.get("group") == "togsup" else "ground_support"
        params = {"tf": f.id, "mission": mission}
        if mission == "sector_defense":
            params["segment"] = 1
        act(e, "set_mission", params, by=f.side)
    act(e, "advance")


def _resolve_all(e: Engine, side: str, segment: int) -> None:
    while missions_left(e.state):
        left = missions_left(e.state)
        here = (e.state.vars.get("mission_sector") or {}).get("sector")
        tf = next((x for x in left if e.state.formations[x].location == f"sector:{here}"), left[0])
        act(e, "start_mission", {"tf": tf}, by=side)
        act(e, "commit_units", {}, by=side, answers=dice(10))
        while e.state.step.startswith("M_"):
            if e.state.step == "M_SEGMENT":
                act(e, "choose_segment", {"segment": segment}, by=side)
            elif e.state.step == "M_RESOLVE":
                act(e, "resolve_mission", {}, by=side, answers=dice(*[5] * 40))
            elif e.state.step == "M_INTERCEPT":
                act(e, "advance", by=e.status().actor)
            else:
                act(e, "advance", by=e.status().actor)


def _space_phases(e: Engine) -> None:
    _missions(e)
    tog = [
        f.id for f in e.state.formations.values() if f.kind == "naval_tf" and f.side == "TOG" and f.location
    ]
    for tf in tog:
        act(e, "enter_tspace", {"tf": tf}, by="TOG")
        act(e, "exit_tspace", {"tf": tf, "sector": "3,2"}, by="TOG", answers=dice(10))
    act(e, "advance", by="TOG")
    act(e, "advance", by="CW")  # reaction: none
    act(e, "advance", by="TOG")  # insystem
    _resolve_all(e, "TOG", 9)
    act(e, "advance", by="TOG")
    act(e, "advance", by="CW")
    if e.state.step.endswith("REACT"):
        act(e, "advance", by="TOG")
    act(e, "advance", by="CW")
    _resolve_all(e, "CW", 9)
    act(e, "advance", by="CW")
    assert e.state.step == "P_MOVE.select_tf"


def test_invasion_turn_drop_lands_and_tempo_counts_both_games() -> None:
    e = invasion()
    assert e.state.step == "S_MISSIONS"
    _space_phases(e)
    assert e.state.vars.get("bb_arrival") == 1  # the 12299th came in this turn
    dropping = [
        u
        for u in e.state.units.values()
        if u.data.get("drop_area") == 9 and u.type.endswith(("cohort", "hq"))
    ]
    assert dropping, "the carried Cohorts reached the Orbital Drop box of area 9"
    gs = [u for u in e.state.units.values() if u.data.get("gs_area") == 9]
    assert gs, "the Ground Support force reached the holding box of area 9"
    while e.state.step != "C_ADJUST.ground":
        act(e, "advance", by=e.status().actor)
    landing = [u.id for u in dropping if not u.status.get("disrupted") and not u.status.get("destroyed")]
    act(e, "form_dropped_tf", {"org": "tog786", "units": landing}, by="TOG")
    militia = next(u.id for u in e.state.units.values() if u.data.get("arrives") == 1 and u.data.get("place"))
    with pytest.raises(ActionRejected, match="neither a city nor a Legion base"):
        act(e, "place_reinforcement", {"unit": militia, "hex": "0101"}, by="CW")
    act(e, "place_reinforcement", {"unit": militia, "hex": "2002"}, by="CW")
    while e.state.step != "C_SUPPLY.drops":
        if e.state.step == "C_ADJUST.naval" and e.status().missing:
            for side in ("TOG", "CW"):
                tfs = {
                    u.formation
                    for u in e.state.units.values()
                    if u.side == side
                    and u.status.get("disrupted")
                    and u.formation
                    and e.state.formations.get(u.formation) is not None
                    and e.state.formations[u.formation].kind == "naval_tf"
                }
                tfs = sorted(t for t in tfs if t)
                for extra in tfs[1:]:
                    units = [
                        u.id
                        for u in e.state.units.values()
                        if u.formation == extra and u.status.get("disrupted")
                    ]
                    act(e, "naval_transfer", {"units": units, "to_tf": tfs[0]}, by=side)
        if e.state.step == "P_WITHDRAW.loc" and e.status().missing:
            act(e, "check_lines")
        act(e, "advance", by=e.status().actor)
    tf = next(f.id for f in e.state.formations.values() if f.status.get("drop_area"))
    with pytest.raises(ActionRejected, match="not in area 9"):
        act(e, "land_tf", {"tf": tf, "hex": "0101"}, by="TOG")
    act(e, "land_tf", {"tf": tf, "hex": "2611"}, by="TOG")
    hq = [u for u in e.state.units.values() if u.formation == tf and u.type == "legion_hq"]
    if hq:
        assert hq[0].status["supply"] == 15  # lands full
    e.state.vars["btca"] = {"TOG": 1, "CW": 0}  # a breakthrough earlier in the turn (space or ground)
    act(e, "advance", by="TOG")
    if e.state.step == "C_SUPPLY.income":
        act(e, "scenario_supply")
        act(e, "advance")
    assert e.state.clock["turn"] == 2 and e.state.step == "S_MISSIONS"
    assert e.state.vars["roles"]["attacker"] == "TOG"  # 1 > 0 keeps the Attacker


def _to_ground_combat(e: Engine) -> None:
    _space_phases(e)
    tf = "tog786-tf1"
    from campaign_tui.core.model import Formation

    e.state.formations[tf] = Formation(
        tf, "TOG", "TF 1 (786th)", "tf", "tog786", "hex:1009", {"fatigue": 0, "number": 1}, {}, "counter"
    )
    for uid in ("tog786-med1", "tog786-med2"):
        u = e.state.units[uid]
        u.formation, u.location = tf, None
        u.data.pop("carried_by", None)
        u.data.pop("drop_area", None)
    cw = (
        "cw3099-tf1"
        if e.state.formations.get("cw3099-tf1")
        else next(f.id for f in e.state.formations.values() if f.kind == "tf" and f.side == "CW")
    )
    e.state.formations[cw].location = "hex:1010"
    for u in list(e.state.units.values()):
        if u.formation == cw:
            u.formation, u.location = None, None
    e.state.units["cw3099-med1"].formation = cw
    for fid in ("tog786-tf1", cw):
        e.state.markers.pop(f"DETECTED@{fid}", None)
    act(e, "advance", by="TOG")
    act(e, "advance", by="CW")
    act(e, "advance", by="TOG")
    act(e, "advance", by="CW")
    assert e.state.step == "P_COMBAT.declare"
    return None


def test_supported_ground_combat_w32_in_play() -> None:
    """W32: TOG TF (two Medium Cohorts) supported by two Light fighter flights attacks a CW
    Medium Cohort supported by a Pursuit Squadron: 10 against 13, 2 to 3."""
    e = invasion()
    _to_ground_combat(e)
    fl = sorted(u.id for u in e.state.units.values() if u.type == "tog_fl1")[:2]
    for uid in fl:
        e.state.units[uid].data["gs_area"] = 4
        e.state.units[uid].status["disrupted"] = False
    psq = next(u.id for u in e.state.units.values() if u.type == "p_sqd" and u.side == "CW")
    e.state.units[psq].data["gs_area"] = 4
    e.state.units[psq].status["disrupted"] = False
    for fid in {e.state.units[x].formation for x in [*fl, psq]}:
        if fid in e.state.formations:
            e.state.formations[fid].status["fatigue"] = 0
    cw = next(f.id for f in e.state.formations.values() if f.location == "hex:1010")
    act(e, "declare_attack", {"attackers": ["tog786-tf1"], "target": cw}, by="TOG")
    act(e, "advance", by="TOG")
    act(e, "resolve_attack", {"attack": "a1"}, by="TOG")
    assert e.state.step == "G_SUPPORT"
    act(e, "add_ground_support", {"units": fl, "side": "TOG"}, by="TOG")
    act(e, "add_ground_support", {"units": [psq], "side": "CW"}, by="CW")
    act(e, "advance", by="TOG")
    c = e.state.vars["combat"]
    assert (c["A"], c["D"]) == (10, 13)
    out = act(e, "roll_combat", by="TOG", answers=dice(8, *[1] * 10))
    text = "\n".join(out.entry.lines)
    assert out.entry.summary.endswith("+1/-1")
    assert "support save: Light Fighter Flight" in text and "(target 3 (defense) +1 (CRT))" in text
    assert "starship, no enemy air defense: no save" in text
    assert all("gs_area" not in e.state.units[x].data for x in [*fl, psq])  # back to their task forces


def test_independent_attack_on_a_ground_base() -> None:
    e = invasion()
    _space_phases(e)
    gs = sorted(u.id for u in e.state.units.values() if u.data.get("gs_area") == 9)
    for uid in gs:
        e.state.units[uid].data["gs_area"] = 7
    while e.state.step != "C_INDEP.att":
        act(e, "advance", by=e.status().actor)
    base = "cw-gl2-1"
    out = act(e, "independent_attack", {"units": gs[:4], "base": base}, by="TOG", answers=dice(5, *[5] * 10))
    assert "independent attack on" in out.entry.summary
    assert "BT" not in out.entry.summary  # letters are ignored against a base
    with pytest.raises(ActionRejected, match="not an unused Ground Support unit"):
        act(e, "independent_attack", {"units": gs[:1], "base": base}, by="TOG")
