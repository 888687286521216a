"""TOML reading and writing for saves.

The writer lays a document out for people: sections for the top-level tables, and inside
the tables named in ``rows`` one line per entry (``u12 = {type = "cohort", ...}``), which is
how a record sheet reads and is also faster to parse than a section per entry.

The reader turns any problem into a :class:`SaveError` naming the file and the line.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from campaign_tui.core.errors import SaveError

_BARE = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}


def _string(text: str) -> str:
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        elif 0xD800 <= ord(ch) <= 0xDFFF:
            raise ValueError("lone surrogate characters cannot be written to TOML")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def key(name: str) -> str:
    name = str(name)
    return name if _BARE.fullmatch(name) else _string(name)


def value(v: Any) -> str:
    """One TOML value on one line (tables become inline tables)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, dict):
        items = [f"{key(k)} = {value(x)}" for k, x in v.items() if x is not None]
        return "{" + ", ".join(items) + "}" if items else "{}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(value(x) for x in v if x is not None) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to TOML")


def dumps(doc: dict[str, Any], rows: Iterable[str] = (), header: str = "") -> str:
    """Write *doc*. Tables whose dotted path is in *rows* get one line per entry.

    ``None`` values are left out (TOML has no null).
    """
    row_paths = set(rows)
    lines: list[str] = []
    if header:
        lines.extend(f"# {line}" if line else "#" for line in header.splitlines())
    _emit_table(lines, doc, [], row_paths)
    return "\n".join(lines).strip("\n") + "\n"


def _emit_table(lines: list[str], table: dict[str, Any], path: list[str],
                row_paths: set[str]) -> None:
    dotted = ".".join(path)
    subtables: list[tuple[str, dict[str, Any]]] = []
    arrays_of_tables: list[tuple[str, list[dict[str, Any]]]] = []
    as_rows = dotted in row_paths
    for k, v in table.items():
        if v is None:
            continue
        if isinstance(v, dict) and not as_rows:
            subtables.append((k, v))
        elif (isinstance(v, list) and v and all(isinstance(x, dict) for x in v)
              and f"{dotted}.{k}".lstrip(".") in row_paths):
            arrays_of_tables.append((k, v))
        else:
            lines.append(f"{key(k)} = {value(v)}")
    for k, v in subtables:
        child = [*path, k]
        lines.append("")
        lines.append("[" + ".".join(key(p) for p in child) + "]")
        _emit_table(lines, v, child, row_paths)
    for k, items in arrays_of_tables:
        child = [*path, k]
        for item in items:
            lines.append("")
            lines.append("[[" + ".".join(key(p) for p in child) + "]]")
            for ik, iv in item.items():
                if iv is not None:
                    lines.append(f"{key(ik)} = {value(iv)}")


_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_AT_END = re.compile(r"\(at end of document\)")


def loads(text: str, path: Path | str = "<text>") -> dict[str, Any]:
    import tomllib  # here: a save read through the parse cache needs no parser

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        m = _AT_LINE.search(message)
        line = int(m.group(1)) if m else None
        if line is None and _AT_END.search(message):
            line = text.count("\n") + 1
        problem = _AT_LINE.sub("", _AT_END.sub("", message)).strip()
        if m:
            problem += f" (column {m.group(2)})"
        raise SaveError(path, f"not valid TOML: {problem}", line) from None
    except RecursionError:
        raise SaveError(path, "nested too deeply to read (damaged or not a save file)") from None
    except ValueError as exc:    # e.g. an integer of thousands of digits
        raise SaveError(path, f"holds a value campaign-tui cannot read ({exc})") from None


def read_bytes(path: Path) -> bytes:
    """The bytes of a save file, or a SaveError naming it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, "file not found") from None
    except IsADirectoryError:
        raise SaveError(path, "is a folder, not a file") from None
    except OSError as exc:
        raise SaveError(path, f"cannot read: {exc.strerror or exc}") from None


def decode(data: bytes, path: Path | str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise SaveError(path, "not UTF-8 text (damaged or not a save file)", line) from None


def read_text(path: Path) -> str:
    return decode(read_bytes(path), path)


def load(path: Path) -> dict[str, Any]:
    """Read and parse a TOML file."""
    return loads(read_text(path), path)


def locate(text: str, dotted: Iterable[str]) -> int | None:
    """Best-effort line number of a key path in TOML *text* (for error messages).

    Finds the section header or dotted key for the path's leading parts, then the key line.
    """
    parts = [str(p) for p in dotted]
    if not parts:
        return None
    lines = text.splitlines()
    best: int | None = None
    start = 0
    # find the deepest section header that is a prefix of the path
    for depth in range(len(parts), 0, -1):
        header = "[" + ".".join(key(p) for p in parts[:depth]) + "]"
        for i, line in enumerate(lines):
            if line.strip() == header:
                best, start = i + 1, i + 1
                rest = parts[depth:]
                if not rest:
                    return best
                target = key(rest[0])
                for j in range(start, len(lines)):
                    stripped = lines[j].lstrip()
                    if stripped.startswith("["):
                        break
                    if stripped.startswith(f"{target} ") or stripped.startswith(f"{target}="):
                        return j + 1
                return best
    target = key(parts[-1])
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith(f"{target} ") or stripped.startswith(f"{target}="):
            return i + 1
    return best
