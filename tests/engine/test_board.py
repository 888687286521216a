"""The engine's board: hex geometry, graphs, map files, hex parameters."""

from __future__ import annotations

import pytest

from campaign_tui.core.actions import Param
from campaign_tui.core.board import Edge, GraphMap, HexGrid
from campaign_tui.core.board.mapfile import MapFileError, parse_map
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State

ODD = HexGrid("odd-q")
EVEN = HexGrid("even-q")


def test_odd_q_neighbours_follow_the_shifted_columns():
    # odd column 05 sits half a hex lower: its NE/NW neighbours share its row
    assert ODD.neighbours("0505") == ["0504", "0605", "0606", "0506", "0406", "0405"]
    # even column 06: NE/NW neighbours are one row up
    assert ODD.neighbours("0606") == ["0605", "0705", "0706", "0607", "0506", "0505"]
    assert EVEN.neighbours("0606") == ["0605", "0706", "0707", "0607", "0507", "0506"]


def test_distance_direction_and_adjacency():
    assert ODD.distance("0101", "0101") == 0
    assert ODD.distance("0505", "0606") == 1 and ODD.adjacent("0505", "0606")
    assert ODD.adjacent("0506", "0606") and not ODD.adjacent("0505", "0607")
    assert ODD.distance("0101", "0110") == 9
    assert ODD.distance("0101", "1001") == 9
    assert EVEN.distance("2314", "2513") == 2
    assert ODD.direction("0505", "0504") == 0 and ODD.direction("0505", "0606") == 2
    assert ODD.direction("0505", "0507") is None
    for d in range(6):
        n = ODD.neighbour("0808", d)
        assert n is not None and ODD.direction(n, "0808") == (d + 3) % 6


def test_distance_is_symmetric_and_matches_steps():
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]
    for a in hexes[::7]:
        for b in hexes[::5]:
            d = EVEN.distance(a, b)
            assert d == EVEN.distance(b, a)
            assert len(EVEN.line(a, b)) == d + 1
            assert all(EVEN.distance(x, y) == 1 for x, y in zip(EVEN.line(a, b), EVEN.line(a, b)[1:]))


def test_within_and_edges_and_extent():
    assert len(ODD.within("0808", 1)) == 7 and len(ODD.within("0808", 2)) == 19
    small = HexGrid("odd-q", 1, 10, 1, 8)
    assert small.neighbours("0101") == ["0201", "0202", "0102"]
    assert small.edges("0101") == {"N", "W"} and small.edges("1008") == {"S", "E"}
    assert len(list(small.hexes())) == 80
    with pytest.raises(InvalidInput, match="nearest hex 1008"):
        small.check("1209")


def test_wrap_east_west():
    planet = HexGrid("odd-q", 1, 24, 1, 16, wrap=True)
    assert planet.distance("0105", "2405") == 1
    assert "2405" in planet.neighbours("0105") or "2404" in planet.neighbours("0105")
    assert planet.edges("0105") == set()
    with pytest.raises(InvalidInput, match="even number"):
        HexGrid("odd-q", 1, 23, wrap=True)


def test_front_hexsides_facing():
    assert ODD.in_front("0505", 0, "0504") and ODD.in_front("0505", 0, "0605")
    assert not ODD.in_front("0505", 0, "0506")
    assert ODD.in_front("0505", 0, "0502") and not ODD.in_front("0505", 0, "0508")


def test_check_gives_the_reason_and_the_nearest_forms():
    assert ODD.check("hex:0707") == "0707"
    with pytest.raises(InvalidInput, match=r"'banana' is not a hex.*e\.g\. 0101"):
        ODD.check("banana")
    with pytest.raises(InvalidInput, match="did you mean 0707"):
        ODD.check("7-7")
    lettered = HexGrid(letters=True)
    assert lettered.check("m") == "M"


def test_graph_paths_and_neighbours():
    g = GraphMap({"a": {"name": "Alpha"}, "b": {}, "c": {}, "d": {}},
                 [Edge("a", "b", 2), ("b", "c", 1), ("a", "c", 5), ("c", "d")])
    assert g.neighbours("a") == ["b", "c"] and g.adjacent("c", "d") and not g.adjacent("a", "d")
    assert g.path("a", "d") == ["a", "b", "c", "d"] and g.distance("a", "d") == 4
    assert g.path("a", "d", avoid=["b"]) == ["a", "c", "d"]
    assert g.hops("a", lambda n: n == "d") == 2 and g.path("a", "zz") == []
    assert g.check("alpha") == "a"
    with pytest.raises(InvalidInput, match="not on this map"):
        g.check("omega")


def test_map_file_round_trip_and_errors():
    text = ('[map]\ntitle = "Test"\nnumbering = "even-q"\ncolumns = [1, 10]\nrows = [1, 10]\n\n'
            '[hexes."0507"]\nterrain = "woods"\nletter = "M"\n')
    mf = parse_map(text, "t.toml")
    assert mf.grid().layout == "even-q" and mf.hexes["0507"]["letter"] == "M"
    again = parse_map(mf.dumps(), "again.toml")
    assert again.hexes == mf.hexes and again.meta == mf.meta
    with pytest.raises(MapFileError, match=r"t.toml, line 7: hex 1207: not on this map"):
        parse_map(text.replace("0507", "1207"), "t.toml")
    with pytest.raises(MapFileError, match=r"t.toml, line 3: numbering 'hexes'"):
        parse_map(text.replace('"even-q"', '"hexes"'), "t.toml")
    with pytest.raises(MapFileError, match=r"bad.toml, line 2: not valid TOML"):
        parse_map("[map]\ntitle = \n", "bad.toml")


def test_hex_param_refuses_what_is_not_a_hex():
    p = Param("hex", "hex")
    assert p.coerce("0707", State()) == "0707"
    with pytest.raises(InvalidInput, match="hex 'banana' is not a hex"):
        p.coerce("banana", State())
    bounded = Param("to", "hex", board=lambda s: HexGrid(first_col=1, last_col=5, first_row=1, last_row=5))
    with pytest.raises(InvalidInput, match="nearest hex 0505"):
        bounded.coerce("0909", State())
