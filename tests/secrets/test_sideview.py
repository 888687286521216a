"""The side's view as the one door: log entries projected through it, texts naming hidden
things withheld, no generator positions, no handle on the full state."""

from __future__ import annotations

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import InvalidInput


def test_a_change_to_a_hidden_unit_is_not_shown(demo_engine: Engine) -> None:
    e = demo_engine
    e.perform("gm.set_status", {"unit": "b-tank", "field": "fatigue", "value": 2,
                                "reason": "B Tank is worn out"})
    full = e.entries()[-1]
    assert [c.key for c in full.changes] == ["b-tank"]
    seen = e.side_view("A").entries()[-1]
    assert seen.seq == full.seq
    assert seen.changes == []                       # b-tank is hidden from A
    assert seen.params == {}                        # the parameters name it
    assert "B Tank" not in seen.summary + " ".join(seen.lines)
    assert "b-tank" not in str(seen.to_dict())
    assert seen.rng == (0, 0)
    # B, whose unit it is, sees it all (but no generator position either)
    own = e.side_view("B").entries()[-1]
    assert [c.key for c in own.changes] == ["b-tank"]
    assert own.rng == (0, 0)
    # the GM's log is the log
    assert e.side_view("gm").entries()[-1] is full


def test_a_counter_shows_only_what_the_view_holds(demo_engine: Engine) -> None:
    e = demo_engine
    e.perform("gm.edit_formation", {"formation": "b1", "field": "status.orders",
                                    "value": '"hold"'})
    e.perform("gm.place", {"id": "b1", "location": "hex:0606"})
    orders, moved = e.side_view("A").entries()[-2:]
    assert orders.changes == []                     # what the counter holds is hidden...
    changes = {c.key: c for c in moved.changes}
    assert changes["b1"].after["location"] == "hex:0606"   # ...where it goes is not
    assert "status" not in changes["b1"].after
    assert "hold" not in str(e.side_view("A").entries())


def test_secret_entries_and_secret_params(demo_engine: Engine) -> None:
    e = demo_engine
    e.perform("note", {"text": "nothing secret"})
    assert e.side_view("A").entries()[-1].params == {"text": "nothing secret"}


def test_unknown_sides_are_errors_naming_the_sides(demo_engine: Engine) -> None:
    for call in (lambda: demo_engine.side_view("C"), lambda: demo_engine.view("C"),
                 lambda: demo_engine.status("C")):
        with pytest.raises(InvalidInput, match=r"unknown side 'C'.*A \(Army A\).*B \(Army B\)"):
            call()


def test_the_door_keeps_the_full_state_private(demo_engine: Engine) -> None:
    seat = demo_engine.side_view("A")
    public = {name for name in dir(seat) if not name.startswith("_")}
    assert public == {"side", "name", "state", "terms", "text", "status", "headline",
                      "reports", "entries", "last", "entry", "decision"}
    assert "b-tank" not in seat.state.units
    assert "B Tank" not in str(seat.status())
