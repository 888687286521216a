"""``record`` behaves as ``dataclass`` does: the shared repr, eq and hash, and a frozen
record's closures instead of generated ``__setattr__``/``__delattr__``."""

from __future__ import annotations

import dataclasses

import pytest

from campaign_tui.core.records import record


def _pair(**options: object) -> tuple[type, type]:
    def body() -> dict[str, object]:
        return {"__annotations__": {"x": "int", "y": "int"}, "y": 2}

    ours = record(type("Rec", (), body()), **options)
    theirs = dataclasses.dataclass(type("Rec", (), body()), **options)  # type: ignore[call-overload]
    return ours, theirs


def _outcome(fn: object) -> tuple[str, str]:
    try:
        fn()  # type: ignore[operator]
    except Exception as exc:  # the kind and message are compared, whatever they are
        return type(exc).__name__, str(exc)
    return "ok", ""


@pytest.mark.parametrize("options", [{"frozen": True}, {"frozen": True, "slots": True}, {}])
def test_a_record_refuses_and_allows_what_a_dataclass_does(options: dict[str, bool]) -> None:
    ours, theirs = _pair(**options)
    for cls in (ours, theirs):
        assert cls(1).x == 1 and cls(1, 3).y == 3
    a, b = ours(1), theirs(1)
    for action in ("set x", "set z", "del y"):
        verb, name = action.split()

        def act(obj: object, verb: str = verb, name: str = name) -> None:
            if verb == "set":
                setattr(obj, name, 5)
            else:
                delattr(obj, name)

        assert _outcome(lambda: act(a)) == _outcome(lambda: act(b)), action
    assert repr(ours(1)) == repr(theirs(1)).replace("test_records.", "")
    assert (ours(1) == ours(1), ours(1) == ours(2)) == (True, False)
    if options.get("frozen"):
        assert hash(ours(1)) == hash(ours(1))
        assert {ours(1), ours(1)} == {ours(1)}


def test_a_frozen_records_subclass_stays_frozen() -> None:
    @record(frozen=True)
    class Base:
        x: int

    @record(frozen=True)
    class Child(Base):
        y: int = 0

    c = Child(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="'x'"):
        c.x = 3  # type: ignore[misc]
    assert c == Child(1, 2) and c != Base(1)


def test_a_record_without_a_docstring_is_named_by_its_fields() -> None:
    @record
    class Plain:
        a: int
        b: str = ""

    @record
    class Told:
        """Kept as written."""

        a: int

    assert Plain.__doc__ == "Plain(a, b)"
    assert Told.__doc__ == "Kept as written."
