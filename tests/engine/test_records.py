"""``record`` behaves as ``dataclass`` does: the shared repr, eq and hash, and a frozen
record's closures instead of generated ``__setattr__``/``__delattr__``; the generated
``__init__`` compiled once and kept between runs."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

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


# -- the generated methods' compiled code, kept between runs -----------------------------------
def _fresh_records(monkeypatch: pytest.MonkeyPatch) -> object:
    """records with an empty compiled-code table (as in a new process)."""
    from campaign_tui.core import records

    monkeypatch.setattr(records, "_compiled", {})
    monkeypatch.setattr(records, "_used", set())
    monkeypatch.setattr(records, "_fresh", False)
    return records


def _make() -> type:
    @record(frozen=True)
    class Kept:
        a: int
        b: str = "b"
        c: tuple[int, ...] = ()

    return Kept


def test_kept_code_is_used_by_the_next_run_instead_of_compiling(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    records: Any = _fresh_records(monkeypatch)
    _make()
    assert records._fresh
    records.keep_compiled(tmp_path)
    kept = list(tmp_path.iterdir())
    assert [p.name for p in kept] == [records._KEPT_NAME]

    _fresh_records(monkeypatch)  # the next run
    records.use_compiled(tmp_path)
    compiled: list[str] = []
    real = compile

    def counting(source: str, *args: Any) -> Any:
        compiled.append(source)
        return real(source, *args)

    monkeypatch.setattr(records, "compile", counting, raising=False)
    cls = _make()
    assert compiled == [] and not records._fresh  # nothing compiled, nothing to write
    assert cls(1) == cls(1, "b", ()) and cls(2, "x").b == "x"  # the defaults, as generated
    with pytest.raises(TypeError):
        cls()  # the generated __init__'s own error
    before = kept[0].stat().st_mtime_ns
    records.keep_compiled(tmp_path)
    assert kept[0].stat().st_mtime_ns == before  # unchanged: not rewritten


@pytest.mark.parametrize("content", [b"garbage", b"", b"other Python\n" + b"\x00\x01"])
def test_a_damaged_or_foreign_kept_file_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes) -> None:
    records: Any = _fresh_records(monkeypatch)
    (tmp_path / records._KEPT_NAME).write_bytes(content)
    records.use_compiled(tmp_path)
    assert records._compiled == {}
    assert _make()(5).a == 5  # compiled as before
    records.keep_compiled(tmp_path)  # and the file is replaced by a good one
    _fresh_records(monkeypatch)
    records.use_compiled(tmp_path)
    assert records._compiled


def test_the_digests_are_hashlibs() -> None:
    import hashlib

    from campaign_tui.core import digests

    for data in (b"", b"abc", bytes(range(256)) * 500):
        assert digests.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
        assert digests.blake2b(data, digest_size=20, person=b"p").hexdigest() == \
            hashlib.blake2b(data, digest_size=20, person=b"p").hexdigest()
