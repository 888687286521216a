"""Dice expressions, physical-dice validation and the counter-based generator."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_tui.core.dice import DiceExpr, DiceStream, Roll, read_dice, read_face
from campaign_tui.core.errors import InvalidInput


@pytest.mark.parametrize(("text", "count", "sides", "constant"), [
    ("d6", 1, 6, 0), ("1d6", 1, 6, 0), ("2d6", 2, 6, 0), ("d10", 1, 10, 0),
    ("d100", 1, 100, 0), ("d%", 1, 100, 0), ("3d10+4", 3, 10, 4), ("2D6-1", 2, 6, -1),
    (" 4 d 10 + 2 ", 4, 10, 2),
])
def test_parse(text, count, sides, constant):
    e = DiceExpr.parse(text)
    assert (e.count, e.sides, e.constant) == (count, sides, constant)
    assert DiceExpr.parse(str(e)) == e


@pytest.mark.parametrize("text", ["", "6", "d", "2d", "dd6", "d6+", "d6*2", "0d6", "d1", "101d6"])
def test_parse_refuses_with_a_message(text):
    with pytest.raises(InvalidInput) as exc:
        DiceExpr.parse(text)
    assert repr(text) in str(exc.value) or "between" in str(exc.value)


def test_physical_d6_refuses_a_seven():
    with pytest.raises(InvalidInput, match="7 is not a face of a d6; it shows 1-6"):
        read_face(6, "7")


def test_d10_reads_zero_as_ten_and_d100_reads_00_as_100():
    assert read_face(10, "0") == 10
    assert read_face(10, 10) == 10
    assert read_face(100, "00") == 100
    assert read_face(100, "0") == 100
    with pytest.raises(InvalidInput, match=r"11 is not a face of a d10; it shows 1-10 \(a 0 reads as 10\)"):
        read_face(10, "11")


@pytest.mark.parametrize("raw", ["x", "-1", "2.5", "", "1e3"])
def test_non_numbers_are_refused(raw):
    with pytest.raises(InvalidInput):
        read_face(6, raw)


def test_read_dice_needs_one_value_per_die():
    assert read_dice(DiceExpr.parse("2d6"), "3,5") == [3, 5]
    assert read_dice(DiceExpr.parse("2d6"), [3, 5]) == [3, 5]
    with pytest.raises(InvalidInput, match="2d6 needs 2 die values, got 1"):
        read_dice(DiceExpr.parse("2d6"), "3")
    with pytest.raises(InvalidInput, match="7 is not a face of a d6"):
        read_dice(DiceExpr.parse("2d6"), "3 7")


def test_stream_is_deterministic_and_counter_based():
    a = DiceStream(99)
    first = [a.randint(1, 10) for _ in range(50)]
    b = DiceStream(99)
    assert [b.randint(1, 10) for _ in range(50)] == first
    c = DiceStream(99, position=10)          # resuming at a saved position
    assert c.randint(1, 10) == DiceStream(99, 10).randint(1, 10)
    assert first != [DiceStream(100).randint(1, 10) for _ in range(50)]


@given(seed=st.integers(0, 2**62), low=st.integers(-50, 50), span=st.integers(1, 1000))
def test_randint_stays_in_range(seed, low, span):
    s = DiceStream(seed)
    for _ in range(5):
        assert low <= s.randint(low, low + span - 1) <= low + span - 1


def test_d6_is_roughly_uniform():
    s = DiceStream(7)
    counts = [0] * 6
    for _ in range(6000):
        counts[s.randint(1, 6) - 1] += 1
    assert all(850 < c < 1150 for c in counts), counts


def test_roll_record_round_trip_and_description():
    r = Roll(1, "1d10", [7], "saving roll", modifiers=[("fatigue", -1)], target=8,
             result="passes", manual=True)
    assert r.natural == 7 and r.modified == 6
    assert r.describe() == "1d10 [7] -1 (fatigue) = 6 vs 8 -> passes [typed]"
    assert Roll.from_dict(r.to_dict()) == r
