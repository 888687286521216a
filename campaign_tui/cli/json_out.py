"""What ``--json`` prints: plain JSON values without glyphs, exact numbers beside their
text, explanation lines as structured steps, and the ``schema`` version every object
carries (each command's shape is described by ``campaign_tui/cli/schemas/<command>.json``).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

SCHEMA_VERSION = 1

_GLYPHS = {"½": Fraction(1, 2), "¼": Fraction(1, 4), "¾": Fraction(3, 4), "⅓": Fraction(1, 3),
           "⅔": Fraction(2, 3), "⅛": Fraction(1, 8)}
_GLYPH_NUMBER = re.compile(r"(\d*)([½¼¾⅓⅔⅛])")
_EXACT = re.compile(r"^\s*[+-]?(\d+(\.\d+)?|\d+/\d+|\d*[½¼¾⅓⅔⅛])\s*$")


def _ascii_glyph(m: re.Match[str]) -> str:
    part = _GLYPHS[m.group(2)]
    tail = f"{part.numerator}/{part.denominator}"
    return f"{m.group(1)} {tail}" if m.group(1) else tail


def plain(value: Any) -> Any:
    """*value* as JSON data: fractions as ``"7/2"``, ``"3½"`` as ``"3 1/2"``, tuples as
    lists, anything else unknown as its text."""
    if isinstance(value, str):
        return _GLYPH_NUMBER.sub(_ascii_glyph, value)
    if isinstance(value, bool | int | float) or value is None:
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    return plain(str(value))


def exact(value: Any) -> dict[str, int] | None:
    """``{"num": 7, "den": 2}`` for a value that is a number (3.5, "7/2", "3½"), else None."""
    if isinstance(value, bool):
        return None
    number: Fraction | None = None
    if isinstance(value, int | Fraction):
        number = Fraction(value)
    elif isinstance(value, float):
        number = Fraction(value).limit_denominator(1000)
    elif isinstance(value, str) and _EXACT.match(value):
        text = value.strip()
        glyph = text[-1] if text[-1] in _GLYPHS else ""
        whole = text[:-1] if glyph else text
        number = (Fraction(whole) if whole not in ("", "+", "-") else Fraction(0)) + (
            _GLYPHS[glyph] * (-1 if whole.startswith("-") else 1) if glyph else 0)
    if number is None:
        return None
    return {"num": number.numerator, "den": number.denominator}


_STEP = re.compile(r"^(?P<label>[^:=]*?)\s*(?::|=|->)\s*(?P<value>.+)$")
_RULE_REF = re.compile(r"\s*\[(?P<ref>[A-Z]{0,3}-?\d[\w.\-]*(?:,\s*[\w.\-]+)*)\]$")


def steps(lines: list[str], references: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Explanation lines as data: ``{"text", "label", "value", "value_exact", "reference"}``.
    *references* maps a line's label (a table's title) to its reference (the table id)."""
    out = []
    for line in lines:
        body = line.strip()
        ref = _RULE_REF.search(body)
        if ref:  # a rule reference at the end: "... -> 2½ [7.6]"
            body = body[:ref.start()]
        m = _STEP.match(body)
        label, value = (m.group("label").strip(), m.group("value").strip()) if m else ("", body)
        if body.endswith(":"):  # a heading: "defence of hex:"
            label, value = body[:-1], ""
        result = re.split(r"->|=", value)[-1]  # "x1/2 -> 2½": the value is what it gives
        out.append({"text": plain(line), "label": plain(label), "value": plain(value),
                    "value_exact": exact(value) or exact(result),
                    "reference": (references or {}).get(label) or (ref and ref.group("ref"))})
    return out


def with_value(data: dict[str, Any], value: Any) -> dict[str, Any]:
    """*data* with ``value`` (plain) and, when it is a number, ``value_exact`` beside it."""
    data["value"] = plain(value)
    data["value_exact"] = exact(value)
    return data


def document(command: str, data: dict[str, Any]) -> dict[str, Any]:
    """One command's JSON object: ``schema`` first, then the data (glyph-free)."""
    return {"schema": SCHEMA_VERSION, "command": command, **plain(data)}


def dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)
