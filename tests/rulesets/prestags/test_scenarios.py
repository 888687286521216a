"""Scenarios of digest section 6: every order of battle builds and opens at its first
prompt; the army totals check against the printed VP; the five games stay apart; arrivals
by a map edge come by themselves; scenario terrain changes and special values apply."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, InvalidInput
from rulesets.prestags import plugin
from rulesets.prestags.scenarios import _side, computed_vp
from tests.rulesets.prestags.helpers import act

# digest 5.8: the printed totals that do not fit the [3.4] counters
VP_EXCEPTIONS = {
    ("spartan-ipsus", "b"): (96, 92),
    ("spartan-heraclea", "b"): (69, 68),
    ("yeoman-crecy", "a"): (64, 128),
    ("yeoman-crecy", "b"): (49, 61),
    ("yeoman-agincourt", "a"): (56, 112),
    ("yeoman-agincourt", "b"): (47, 59),
    ("yeoman-spanish-english", "b"): (91, 131),
}
COUNTS = {"C": 14, "S": 18, "L": 10, "V": 18, "Y": 3, "": 1}


def test_scenario_count_per_game():
    got: dict[str, int] = {}
    for s in plugin.scenarios():
        got[s.data["game"]] = got.get(s.data["game"], 0) + 1
    assert got == COUNTS


def test_army_totals_match_the_printed_vp_except_the_known_cases():
    for s in plugin.scenarios():
        for key in ("a", "b"):
            side = _side(s.data, key)
            units = " ".join(g["units"] for g in side["groups"])
            got = (computed_vp(plugin, units), side["vp"])
            if (s.id, key) in VP_EXCEPTIONS:
                assert got == VP_EXCEPTIONS[(s.id, key)], s.id
            else:
                assert got[0] == got[1], (s.id, key, got)


@pytest.mark.parametrize("simultaneous", [False, True])
def test_every_scenario_opens_at_its_first_prompt(simultaneous):
    for s in plugin.scenarios():
        e = Engine.create(plugin, s.id, {"simultaneous": simultaneous}, seed=1)
        st = e.status()
        assert st.step == "SETUP" and s.data["title"] in st.prompt, s.id
        assert e.machine.id == ("prestags.simultaneous" if simultaneous else "prestags.standard")
        game = s.data["game"]
        for u in e.state.units.values():
            assert not game or game in plugin.catalog().type(u.type).attrs["games"], (s.id, u.type)
            assert u.status["state"] == "reserve"
        assert not plugin.validate_state(e.state)


def test_unit_types_outside_the_game_are_refused():
    s = plugin.scenario("chariot-rome")
    bad = type(s)(
        s.id,
        s.title,
        s.description,
        s.sides,
        s.length,
        s.machine,
        data={**s.data, "a": {**s.data["a"], "units": "9MI 3PP"}},
    )
    with pytest.raises(InvalidInput, match="PP is not a unit of Chariot"):
        plugin.build(bad, {o.id: o.default for o in plugin.options()})


def test_ocr_abbreviations_are_read_as_the_counters_say():
    """G-28: the seed's RW and AF are BW and AE."""
    from rulesets.prestags.common import parse_units

    assert parse_units("2RW 3AF 1L4") == [("BW", 2, 0), ("AE", 3, 0), ("L", 1, 4)]


def test_case_numbers_find_scenarios():
    assert plugin.scenario("C5.4").id == "chariot-kadesh"
    assert plugin.scenario("S4.1").id == "spartan-marathon"
    assert plugin.scenario("Y11.7").id == "yeoman-spanish-english"


def test_kadesh_hittites_move_first_and_enter_by_the_map_edge():
    from rulesets.prestags.hexmap import GRIDS

    """Kadesh: Egyptians deploy first in three groups; the Hittites, moving first, come on
    from the W, N or E edge in their Movement Phase."""
    e = Engine.create(plugin, "chariot-kadesh", {}, seed=1)
    assert e.state.vars["roles"]["first"] == "A" and e.state.vars["roles"]["deploy_first"] == "B"
    e.advance()
    assert e.status().actor == "B"
    assert e.state.unit("b-mi-01").data["zone"] == "P-3" and e.state.unit("b-mi-05").data["zone"] == "E-4"
    with pytest.raises(ActionRejected, match="outside its deployment area"):
        act(e, "deploy", {"units": ["b-mi-01"], "hex": "0101"}, {"letter:P": "1010"})
    # the lettered hexes are asked once each (a map fact); range then comes from the grid
    answers = {"letter:P": "1010", "letter:E": "2010", "letter:A": "3010"}
    where = {"P": "1010", "E": "2010", "A": "3010"}
    grid = GRIDS["odd-q"]
    used: set[str] = set()
    placements = []
    for u in sorted(e.state.units.values(), key=lambda x: x.id):
        if u.side == "B":
            letter, reach = u.data["zone"].split("-")
            spot = next(h for h in grid.within(where[letter], int(reach)) if h not in used)
            used.add(spot)
            placements.append(f"{spot}: {u.id}")
    act(e, "deploy", {"placements": "; ".join(placements)}, answers)
    e.advance()
    assert e.status().actor == "A" and not e.status().missing  # nothing to deploy: they enter
    e.advance()
    assert (e.state.step, e.status().actor) == ("FIRE", "A")
    out = e.advance()
    assert "may enter this Movement Phase by the W,N,E edge" in "\n".join(out.entry.lines)
    act(
        e,
        "move",
        {"units": ["a-sd-01"] if "a-sd-01" in e.state.units else ["a-ms-01"], "path": ["from:W", "0101"]},
        {"edge:0101:W": True, "terrain:0101": "clear", "elevation:0101": "ground"},
    )
    assert e.state.unit("a-ms-01").status["state"] == "active"


def test_babylon_chariots_have_the_scenario_movement_allowances():
    e = Engine.create(plugin, "chariot-babylon", {}, seed=1)
    from rulesets.prestags.common import info

    assert info(e.state, plugin, "a-ch-01").ma == 10 and info(e.state, plugin, "b-ch-01").ma == 6


def test_terrain_modifications_apply():
    """Marathon: woods ignored, river and lake may not be entered."""
    e = Engine.create(plugin, "spartan-marathon", {"hex_grid": "odd-q"}, seed=1)
    act(e, "map_hexes", {"facts": "0505 woods; 0506 lake; H=0303; L=0309"})
    from rulesets.prestags import hexmap

    assert hexmap.effective(e.state, "woods", "ground") == ("clear", "ground")
    assert hexmap.prohibited_by_scenario(e.state, "lake", "ground")


def test_no_panic_level_means_no_panic():
    e = Engine.create(plugin, "chariot-rome", {"panic": True}, seed=1)
    assert e.state.sides["A"].data.get("panic_level") is None
    e.perform("gm.set_ledger", {"holder": "B", "resource": "vp", "value": 99})
    out = e.perform("panic_check")
    assert out.entry.summary == "No panic"


def test_type_specific_stacking():
    from rulesets.prestags.movement import stack_limit

    e = Engine.create(plugin, "spartan-mantinea", {}, seed=1)
    assert stack_limit(e.state, "B", ["PS"] * 4) == 4 and stack_limit(e.state, "B", ["PS", "MS"]) == 2


def fill(e: Engine, side: str, center: str, radius: int) -> str:
    """Placements for every unit of *side* within *radius* of *center*, two troops a hex."""
    from rulesets.prestags.hexmap import GRIDS

    spots = [
        f"{c:02d}{r:02d}"
        for c in range(1, 30)
        for r in range(1, 30)
        if GRIDS["odd-q"].distance(f"{c:02d}{r:02d}", center) <= radius
    ]
    load: dict[str, list[str]] = {}
    for u in sorted(e.state.units.values(), key=lambda x: x.id):
        if u.side != side:
            continue
        leader = u.type == "L"
        h = next(h for h in spots if leader or sum(1 for x in load.get(h, []) if "-l" not in x) < 2)
        load.setdefault(h, []).append(u.id)
    return "; ".join(f"{h}: {', '.join(ids)}" for h, ids in load.items())


def test_arrivals_on_the_second_player_turn():
    """Tabal: the Assyrians (second player) enter by the S edge on Game-Turn 1; they are
    announced when their Movement Phase begins."""
    e = Engine.create(plugin, "chariot-tabal", {"hex_grid": "odd-q"}, seed=1)
    act(e, "map_hexes", {"facts": "E=1010"})
    e.advance()
    act(e, "deploy", {"placements": fill(e, "A", "1010", 3)})
    e.advance()
    assert not e.status().missing
    e.advance()
    assert (e.state.step, e.state.clock) == ("FIRE", {"gt": 1, "pt": 1})
    for _ in range(8):
        out = e.advance()
        if e.state.clock["pt"] == 2 and e.state.step == "MOVE":
            break
    assert "may enter this Movement Phase by the S edge" in "\n".join(out.entry.lines)
    assert e.status().actor == "B"
