"""Helpers shared by the rule procedures: percentage checks, clamps, rounding, inputs.

Every procedure takes a :class:`~campaign_tui.core.procedures.Resolver` (the action context
in play, a free resolver in ``campaign-tui calc``) and returns a
:class:`~campaign_tui.core.procedures.Calc` whose explanation lets a player check it.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from campaign_tui.core.dice import Roll
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Resolver


def clamp(x: int, low: int = 0, high: int = 100) -> int:
    return max(low, min(high, x))


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def ceil_frac(value: Fraction | float | int) -> int:
    return math.ceil(Fraction(value) if not isinstance(value, float) else value)


def mean_up(values: list[int]) -> int:
    """The mean rounded up (toward +infinity): -1.5 gives -1."""
    if not values:
        return 0
    return math.ceil(Fraction(sum(values), len(values)))


def opt(r: Resolver, name: str, default: Any) -> Any:
    """A campaign option (the resolver carries the campaign's, or the defaults in calc)."""
    options = getattr(r, "options", None) or {}
    return options.get(name, default)


def pct(r: Resolver, chance: int, purpose: str, side: str | None = None) -> tuple[bool, Roll, int]:
    """The digest's ``pct(X)``: d100 <= X with X clamped to 0..100 (X <= 0 never succeeds)."""
    x = clamp(int(chance))
    roll = r.roll("1d100", purpose, target=x, side=side)
    ok = roll.natural <= x
    roll.result = f"{'success' if ok else 'failure'} ({roll.natural} vs {x}%)"
    if x != chance:
        roll.detail.append(f"chance {chance}% clamped to {x}%")
    return ok, roll, x


def d(r: Resolver, expr: str, purpose: str, side: str | None = None, target: int | None = None) -> int:
    roll = r.roll(expr, purpose, side=side, target=target)
    return roll.natural


def as_list(value: Any, what: str) -> list[Any]:
    """A list parameter given as a list, JSON text or comma-separated text."""
    if value is None or value == "":
        return []
    if isinstance(value, list):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith(("[", "{")):
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError as exc:
                raise InvalidInput(f"{what}: {exc.msg} at character {exc.pos}") from None
            return parsed if isinstance(parsed, list) else [parsed]
        return [v.strip() for v in text.split(",") if v.strip()]
    raise InvalidInput(f"{what}: expected a list, not {value!r}")


def as_dict(value: Any, what: str) -> dict[str, Any]:
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{what}: {exc.msg} at character {exc.pos}") from None
        if isinstance(parsed, dict):
            return parsed
    raise InvalidInput(f'{what}: expected a table such as {{"AME": 2}}, not {value!r}')


def ints(values: list[Any], what: str) -> list[int]:
    try:
        return [int(v) for v in values]
    except (TypeError, ValueError):
        raise InvalidInput(f"{what}: every value must be a whole number") from None


def signed(n: int) -> str:
    return f"{n:+d}"
