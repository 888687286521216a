"""``plain`` (the state's copy into plain data) and the side view's string walk take plain
dicts, lists and scalars by their exact class; anything else, subclasses too, the checked
way: the results are the same either way."""

from __future__ import annotations

import enum
from collections import OrderedDict

import pytest

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import plain
from campaign_tui.core.sideview import _strings
from tests.secrets.leakcheck import _all_strings  # the walk as first written: a call a leaf


class Level(enum.IntEnum):
    HIGH = 3


class Tag(str):
    pass


def test_plain_copies_deeply_drops_none_and_names_keys_as_text() -> None:
    inner = {"b": [1, 2.5, True, None, "x"]}
    data = {"a": inner, 7: "seven", "gone": None, "t": (1, (2, 3))}
    out = plain(data)
    assert out == {"a": {"b": [1, 2.5, True, None, "x"]}, "7": "seven", "t": [1, [2, 3]]}
    assert out["a"] is not inner and out["a"]["b"] is not inner["b"]   # a deep copy
    inner["b"].append("later")
    assert out["a"]["b"] == [1, 2.5, True, None, "x"]


def test_plain_takes_subclasses_the_checked_way() -> None:
    data = OrderedDict([("k", Level.HIGH), ("s", Tag("tag")), ("n", OrderedDict(z=None))])
    out = plain({"nested": data, "list": [Level.HIGH, [Tag("t")]]})
    assert out == {"nested": {"k": 3, "s": "tag", "n": {}}, "list": [3, ["t"]]}
    assert type(out["nested"]) is dict


@pytest.mark.parametrize("bad", [object(), {1, 2}, b"bytes"])
def test_plain_refuses_what_a_campaign_cannot_store(bad: object) -> None:
    with pytest.raises(InvalidInput, match="cannot store"):
        plain({"a": [{"b": bad}]})
    with pytest.raises(InvalidInput, match="cannot store"):
        plain(bad)


def test_strings_finds_every_key_and_string_leaf() -> None:
    out: set[str] = set()
    _strings({"a": ["x", {"y": "z", 3: 4.5}], "b": Tag("t"), "c": None, "d": [[["deep"]]]}, out)
    assert out == {"a", "x", "y", "z", "3", "b", "t", "c", "d", "deep"}


def test_state_strings_are_every_string_of_the_state(demo_engine) -> None:
    from campaign_tui.core.sideview import _ENTITY_FIELDS, state_strings

    state = demo_engine.state.copy()
    unit = next(iter(state.units.values()))
    unit.data = {"notes": ["a1", {"deep": "b2", "n": 3}], "k9": None}
    unit.known_to = ["B"]
    expected: set[str] = set()
    for coll in state.collections():
        bucket = state._c[coll]
        if coll in ("sides", "formations", "units", "markers"):
            expected.update(bucket)
            for item in bucket.values():
                for name in _ENTITY_FIELDS:
                    _all_strings(getattr(item, name, None), expected)
        else:
            _all_strings(bucket, expected)
    got = state_strings(state)
    assert got == expected
    assert {"a1", "b2", "notes", "deep", "k9", "B"} <= got
