"""Pieces every command shares: exit codes, NAME=VALUE parsing, opening a campaign for
reading or for a change, and printing entries, decisions and JSON."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import NeedDecision

if TYPE_CHECKING:
    import argparse

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_DECIDE = 0, 1, 2, 3


class Usage(Exception):
    """Bad arguments: reported by argparse's error path with exit status 2."""


def pairs(items: Sequence[str]) -> dict[str, str]:
    """NAME=VALUE arguments; NAME=@FILE reads the value from a file (an orders file)."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise Usage(f"{item!r} is not NAME=VALUE")
        key, value = item.split("=", 1)
        if not key:
            raise Usage(f"{item!r} has no name before '='")
        if value.startswith("@"):
            value = read_value_file(key, value[1:])
        out[key.strip()] = value
    return out


MAX_VALUE_FILE = 1 << 20   # an orders file larger than 1 MiB is a mistake (or /dev/zero)


def read_value_file(key: str, name: str) -> str:
    """The text of NAME=@FILE, read with a bound (never more than MAX_VALUE_FILE bytes)."""
    try:
        with Path(name).expanduser().open("rb") as fh:
            raw = fh.read(MAX_VALUE_FILE + 1)
    except OSError as exc:
        raise Usage(f"{key}: cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_VALUE_FILE:
        raise Usage(f"{key}: {name} is larger than {MAX_VALUE_FILE // 1024} KiB; give a "
                    "smaller file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise Usage(f"{key}: {name} is not UTF-8 text") from None


def places_of(args: argparse.Namespace) -> Any:
    from campaign_tui.store.paths import places

    return places(args.home)


def ruleset(rid: str) -> Any:
    from campaign_tui.registry import load_ruleset

    return load_ruleset(rid)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str, ensure_ascii=False))


def open_rw(args: argparse.Namespace) -> Any:
    from campaign_tui.campaigns import open_path, resolve

    path = resolve(places_of(args), args.campaign)
    opened = open_path(path, read_only=False)
    for w in opened.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return opened


def open_ro(args: argparse.Namespace) -> Any:
    from campaign_tui.campaigns import open_path, resolve

    return open_path(resolve(places_of(args), args.campaign), read_only=True)


@contextlib.contextmanager
def changing(args: argparse.Namespace) -> Iterator[Any]:
    """The campaign opened for writing: saved when the block ends normally (a refused or
    previewed action leaves nothing to save), and its lock released in every case."""
    from campaign_tui.campaigns import close, save

    opened = open_rw(args)
    try:
        yield opened
        save(opened)
    finally:
        close(opened)


def emit(command: str, data: dict[str, Any]) -> None:
    """Print one command's ``--json`` object (with its ``schema`` version)."""
    from campaign_tui.cli.json_out import document, dumps

    print(dumps(document(command, data)))


def side_view(engine: Any, side: str | None) -> Any:
    """The one door for what a side receives (an unknown side is an error naming the
    sides); no side means the GM, or on a side's export that side."""
    return engine.side_view(side or engine.info.export_side or "gm")


def print_decision(exc: NeedDecision, as_json: bool = False, seat: Any = None) -> None:
    import shlex

    d, preview = (exc.decision, exc.preview) if seat is None else seat.decision(
        exc.decision, exc.preview)
    if as_json:
        from campaign_tui.cli.json_out import steps

        emit("decision", {"decision": d.to_dict(), "so_far": list(preview),
                          "steps": steps(list(preview)),
                          "answer_with": f"{d.id}=VALUE"})
        return
    who = f" ({d.side})" if d.side else ""
    print(f"Decision needed{who}: {d.prompt}")
    for line in preview:
        print(f"  so far: {line}")
    for line in d.info:
        print(f"  {line}")
    if d.options:
        print("  options: " + ", ".join(
            o.value + (f" ({o.label})" if o.label and o.label != o.value else "")
            for o in d.options))
    if d.kind == "dice":
        print(f"  type one value per die, e.g. {shlex.quote(d.id + '=3')} or "
              f"{shlex.quote(d.id + '=3,5')}; {shlex.quote(d.id + '=auto')} lets the "
              "program roll it")
    elif d.id.startswith("draw"):
        print(f"  name the items drawn (or their positions, 1 = first); "
              f"{shlex.quote(d.id + '=auto')} lets the program draw")
    if d.round and d.round_label:
        print(f"  in {d.round_label}: {shlex.quote(d.round + '=auto')} lets the program roll "
              "the rest of this round (it stops at the next round's first die)")
    if d.default is not None:
        print(f"  default: {d.default}")
    print(f"  answer with: {shlex.quote(d.id + '=VALUE')}")


def print_entry(outcome: Any, as_json: bool, engine: Any = None, seat: Any = None) -> None:
    e = outcome.entry if seat is None else seat.entry(outcome.entry)
    if e is None:
        if as_json:
            emit("act", {"hidden": True, "preview": outcome.preview})
        else:
            print("done (the details are hidden from you)")
        return
    if as_json:
        from campaign_tui.cli.json_out import steps

        emit("act", {**e.to_dict(), "steps": steps(list(e.lines)), "preview": outcome.preview,
                     "now": engine.where() if engine is not None else None})
        return
    prefix = "preview: " if outcome.preview else ""
    print(f"{prefix}{e.summary}")
    for r in e.rolls:
        print(f"  roll: {r.describe()} ({r.purpose})")
    for line in e.lines:
        print(f"  {line}")
