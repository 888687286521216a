"""The TOML writer and reader: round trips, escapes, errors that name the line."""

from __future__ import annotations

import math
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign_tui.core.errors import SaveError
from campaign_tui.store import tomlio

text_st = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)
key_st = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)
scalar_st = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1),
                      st.floats(allow_nan=False, allow_infinity=True), text_st)
value_st = st.recursive(scalar_st, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(key_st, inner, max_size=4)), max_leaves=12)
doc_st = st.dictionaries(key_st, st.one_of(value_st, st.dictionaries(
    key_st, st.dictionaries(key_st, value_st, max_size=3), max_size=3)), max_size=6)


@given(doc=doc_st, rows=st.booleans())
def test_round_trip(doc, rows):
    row_paths = [k for k, v in doc.items() if isinstance(v, dict)] if rows else []
    assert tomllib.loads(tomlio.dumps(doc, rows=row_paths)) == doc


def test_awkward_strings_survive():
    doc = {"s": 'quote " backslash \\ tab \t nl \n del \x7f nul \x00 emoji 🎲 é',
           "k": {"odd key": 1, "a.b": 2, "": 3}}
    assert tomllib.loads(tomlio.dumps(doc)) == doc


def test_infinities_and_rows_layout():
    doc = {"units": {"u1": {"side": "A", "status": {"fatigue": 1}}, "u2": {"side": "B"}},
           "x": math.inf}
    text = tomlio.dumps(doc, rows=["units"])
    assert 'u1 = {side = "A", status = {fatigue = 1}}' in text
    assert tomllib.loads(text) == doc


def test_none_is_left_out_of_tables():
    assert tomllib.loads(tomlio.dumps({"a": None, "b": {"c": None, "d": 1}})) == {"b": {"d": 1}}


def test_surrogates_are_refused():
    with pytest.raises(ValueError):
        tomlio.dumps({"s": "\ud800"})


def test_parse_errors_name_the_line(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('a = 1\nb = 2\nc = = 3\n', encoding="utf-8")
    with pytest.raises(SaveError) as exc:
        tomlio.load(p)
    assert exc.value.line == 3
    assert str(exc.value).startswith(f"{p}:3: not valid TOML")


def test_non_utf8_names_the_line(tmp_path):
    p = tmp_path / "bin.toml"
    p.write_bytes(b"a = 1\nb = \"\xff\"\n")
    with pytest.raises(SaveError, match="not UTF-8") as exc:
        tomlio.load(p)
    assert exc.value.line == 2


def test_locate_finds_keys_in_sections_and_rows():
    text = tomlio.dumps({"state": {"units": {"u1": {"side": "A"}, "u2": {"side": "B"}},
                                   "clock": {"turn": 3}}}, rows=["state.units"])
    lines = text.splitlines()
    assert lines[tomlio.locate(text, ["state", "units", "u2"]) - 1].startswith("u2 =")
    assert lines[tomlio.locate(text, ["state", "clock", "turn"]) - 1] == "turn = 3"
    assert tomlio.locate(text, ["nowhere"]) is None
