"""Generic tables: every axis kind, edges, shifts, overrides, provenance."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.provenance import Provenance
from campaign_tui.core.tables import LookupRefused, Table, TableSet, parse_ratio_label


def crt(below: str = "refuse", above: str = "clamp", shift_below: str = "clamp",
        shift_above: str = "clamp") -> Table:
    return Table.from_data("crt", {
        "title": "CRT", "aliases": ["T4"], "provenance": "rulebook",
        "cells": [["a1", "b1", "c1", "d1"], ["a2", "b2", "c2", "d2"]],
        "axes": [
            {"name": "roll", "labels": ["1", "2"], "match": "exact", "die": "1d6",
             "below": "clamp", "above": "clamp"},
            {"name": "odds", "labels": ["1-2", "1-1", "3-2", "3-1"], "match": "ratio",
             "below": below, "above": above, "shift_below": shift_below,
             "shift_above": shift_above},
        ]})


def test_odds_round_in_the_defenders_favour():
    t = crt()
    assert t.lookup(roll=1, odds=(15, 5)).labels["odds"] == "3-1"
    assert t.lookup(roll=1, odds=(14, 5)).labels["odds"] == "3-2"   # 2.8 -> 3-2
    assert t.lookup(roll=1, odds=(5, 5)).labels["odds"] == "1-1"
    assert t.lookup(roll=1, odds=(5, 6)).labels["odds"] == "1-2"    # 0.83 -> 1-2
    look = t.lookup(roll=2, odds=(15, 5))
    assert look.cell == "d2"
    assert look.explanation[1] == "odds 15:5 -> 3-1 (rounded in the defender's favour)"


def test_odds_above_the_table_clamp_and_below_refuse():
    t = crt()
    assert t.lookup(roll=1, odds=(100, 1)).labels["odds"] == "3-1"
    with pytest.raises(LookupRefused, match="odds 4:9 is below 1-2: not allowed"):
        t.lookup(roll=1, odds=(4, 9))
    assert crt(below="clamp").lookup(roll=1, odds=(1, 9)).labels["odds"] == "1-2"
    none = crt(below="none").lookup(roll=1, odds=(1, 9))
    assert none.cell is None and none.explanation[-1] == "no result"
    with pytest.raises(LookupRefused):
        crt(above="refuse").lookup(roll=1, odds=(10, 1))


def test_column_shifts_and_their_edges():
    t = crt()
    assert t.lookup(roll=1, odds=(15, 5), shifts={"odds": -2}).labels["odds"] == "1-1"
    clamped = t.lookup(roll=1, odds=(15, 5), shifts={"odds": 1})
    assert clamped.labels["odds"] == "3-1"
    assert "stops at the table edge" in clamped.summary
    with pytest.raises(LookupRefused, match="off the edge of the table"):
        crt(shift_above="refuse").lookup(roll=1, odds=(15, 5), shifts={"odds": 1})
    assert crt(shift_below="none").lookup(roll=1, odds=(1, 2), shifts={"odds": -1}).cell is None


def test_die_rows_clamp_a_modified_roll():
    t = crt()
    assert t.lookup(roll=7, odds=(1, 1)).labels["roll"] == "2"
    assert t.lookup(roll=0, odds=(1, 1)).labels["roll"] == "1"


def test_zero_defence_uses_the_best_column():
    assert crt().lookup(roll=1, odds=(3, 0)).labels["odds"] == "3-1"


def test_at_most_columns_count_down_rows_and_none_past_the_bottom():
    """FFW T1/T2 style: the largest column not above the total; count along rows."""
    t = Table.from_data("t2", {
        "cells": [[80, 90, 100], [70, 80, 90], [60, 70, 80]],
        "axes": [
            {"name": "sdb", "labels": ["1", "2", "5"], "match": "at_most",
             "below": "clamp", "shift_below": "clamp", "shift_above": "none"},
            {"name": "attack", "labels": ["1", "3", "6"], "match": "at_most", "below": "none"},
        ]})
    assert t.lookup(sdb=3, attack=5).cell == 80          # row 2 (largest <= 3), column 3
    assert t.lookup(sdb=2, attack=0).cell is None        # no column at or below 0: no attack
    assert t.lookup(sdb=2, attack=3, shifts={"sdb": -5}).cell == 90   # counted up past row 1
    assert t.lookup(sdb=2, attack=3, shifts={"sdb": 5}).cell is None  # past the bottom


def test_a_value_between_two_bands_is_refused_not_sent_to_an_edge():
    """Issue 16: 50.5 between "-50 to +50" and "+51 to +100" fell to the clamped end."""
    bands = Table.from_data("b", {"cells": ["low", "mid", "high"], "axes": [
        {"name": "x", "labels": ["≤-3", "-2 to 2", "3+"], "match": "range",
         "bounds": [["", "-3"], ["-2", "2"], ["3", ""]], "below": "clamp", "above": "clamp"}]})
    for value in (Fraction(5, 2), Fraction(-5, 2)):
        with pytest.raises(LookupRefused, match="between two bands"):
            bands.lookup(x=value)
    assert bands.lookup(x=-3).cell == "low" and bands.lookup(x=3).cell == "high"
    closed = Table.from_data("c", {"cells": ["a", "b"], "axes": [
        {"name": "x", "labels": ["1-2", "4-5"], "match": "range", "below": "clamp",
         "above": "clamp"}]})
    with pytest.raises(LookupRefused, match="between two bands"):
        closed.lookup(x=3)
    assert closed.lookup(x=9).cell == "b" and closed.lookup(x=0).cell == "a"


def test_negative_half_numbers_read_as_written():
    """Issue 16: -100.5 was printed "-101½"."""
    from campaign_tui.core.tables import fmt_number

    assert [fmt_number(Fraction(n, 2)) for n in (-201, -1, 1, 201)] == [
        "-100½", "-½", "½", "100½"]


def test_range_bands_and_differential_columns():
    bands = Table.from_data("b", {"cells": ["low", "mid", "high"], "axes": [
        {"name": "x", "labels": ["0-2", "3-5", "6+"], "match": "range", "below": "clamp"}]})
    assert [bands.lookup(x=v).cell for v in (0, 2, 3, 5, 6, 99, -4)] == [
        "low", "low", "mid", "mid", "high", "high", "low"]
    diff = Table.from_data("d", {"cells": ["-", "x", "X"], "axes": [
        {"name": "diff", "labels": ["-1", "0", "+2"], "match": "difference", "below": "clamp"}]})
    assert diff.lookup(diff=(5, 5)).cell == "x"
    assert diff.lookup(diff=(9, 5)).cell == "X"
    assert diff.lookup(diff=(1, 5)).cell == "-"
    assert diff.lookup(diff=(6, 5)).explanation[0] == "6 - 5 = 1 -> column 0"


def test_two_way_cross_reference_with_exact_keys():
    t = Table.from_data("x", {"cells": [[1, 2], [3, 4]], "axes": [
        {"name": "class", "labels": ["FF", "DD"]}, {"name": "range", "labels": ["long", "short"]}]})
    assert t.lookup(**{"class": "DD", "range": "short"}).cell == 4
    with pytest.raises(LookupRefused, match="no entry for 'BB'"):
        t.lookup(**{"class": "BB", "range": "long"})


def test_overrides_are_house_rules_and_validated():
    t = crt().with_cells({"2/3-1": "ZZ"})
    look = t.lookup(roll=2, odds=(9, 3))
    assert look.cell == "ZZ" and look.provenance.grade == "house" and not t.verified
    with pytest.raises(InvalidInput, match="'4-1' is not a odds label"):
        crt().with_cells({"2/4-1": "x"})
    with pytest.raises(InvalidInput, match="row/column"):
        crt().with_cells({"2": "x"})


def test_table_set_aliases_and_symbols():
    ts = TableSet([crt()])
    assert ts.get("t4").id == "crt" and "T4" in ts
    with pytest.raises(InvalidInput, match="no table 'T9'; tables are: crt"):
        ts.get("T9")
    t = Table.from_data("s", {"symbols": {"-": 0, "d": 100}, "cells": ["-", "d"],
                              "axes": [{"name": "r", "labels": ["1", "2"]}]})
    assert [t.lookup(r=1).value, t.lookup(r=2).value] == [0, 100]


def test_cells_after_the_axes_blocks_get_a_hint():
    import tomllib

    data = tomllib.loads('[tables.t]\n[[tables.t.axes]]\nname = "r"\nlabels = ["1"]\n'
                         'cells = [1]\n')
    with pytest.raises(InvalidInput, match="put it before the"):
        TableSet.from_data(data)


def test_row_count_must_match():
    with pytest.raises(InvalidInput, match="2 roll labels but 1 rows"):
        Table.from_data("t", {"cells": [["a"]], "axes": [
            {"name": "roll", "labels": ["1", "2"]}, {"name": "c", "labels": ["x"]}]})


def test_provenance_vocabulary():
    p = Provenance.from_data({"grade": "reconstructed", "confidence": "high"})
    assert p.badge() == "RECONSTRUCTED (high confidence)" and not p.verified
    assert Provenance.from_data("rulebook").verified
    with pytest.raises(InvalidInput, match="unknown provenance grade"):
        Provenance.from_data("guess")
    with pytest.raises(InvalidInput, match="unknown trust"):
        Provenance(grade="external", trust="rumour")


@pytest.mark.parametrize(("label", "value"), [
    ("3-1", Fraction(3)), ("1:2", Fraction(1, 2)), ("1 to 2", Fraction(1, 2)),
    ("1½:1", Fraction(3, 2)), ("1:1½", Fraction(2, 3)), ("3 to 1 (or more)", Fraction(3))])
def test_ratio_labels(label, value):
    assert parse_ratio_label(label) == value


@given(a=st.integers(1, 500), d=st.integers(1, 500))
def test_the_ratio_column_is_the_largest_not_above_the_true_odds(a, d):
    t = crt(below="clamp")
    col = t.lookup(roll=1, odds=(a, d)).labels["odds"]
    ratios = {"1-2": Fraction(1, 2), "1-1": Fraction(1), "3-2": Fraction(3, 2), "3-1": Fraction(3)}
    true = Fraction(a, d)
    if true >= Fraction(1, 2):
        assert ratios[col] <= true
        assert all(r <= ratios[col] or r > true for r in ratios.values())
