"""Supply points (SP) as exact fractions.

Ordnance costs a quarter SP per salvo, so SP amounts are not always whole. Inside the
plugin every amount is a :class:`fractions.Fraction`. In a save (TOML) an amount is stored
as a whole number when it is whole, otherwise as text "<whole> <num>/<den>", for example
``"12 1/4"`` (or ``"1/4"`` below one). Reading accepts whole numbers, those texts, plain
fractions like ``"49/4"`` and decimals like ``12.25`` or ``"12.25"`` (read exactly from their
decimal text, never through binary floating point).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from campaign_tui.core.errors import InvalidInput

SP = Fraction
ZERO = Fraction(0)
QUARTER = Fraction(1, 4)


def sp(value: Any) -> Fraction:
    """Read an SP amount (int, Fraction, decimal, or stored text) exactly."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise InvalidInput(f"{value!r} is not an amount of supply points")
    if isinstance(value, int):
        return Fraction(value)
    if value is None or value == "":
        return ZERO
    text = str(value).strip()
    negative = text.startswith("-")
    body = text[1:].strip() if negative else text
    try:
        if " " in body:
            whole, frac = body.split(None, 1)
            amount = Fraction(int(whole)) + Fraction(frac.strip())
        else:
            amount = Fraction(body)
    except (ValueError, ZeroDivisionError):
        raise InvalidInput(
            f"{value!r} is not an amount of supply points (write 12, 12.25 or '12 1/4')"
        ) from None
    return -amount if negative else amount


def store(amount: Any) -> int | str:
    """The save form of an SP amount: an int when whole, else ``"12 1/4"``."""
    f = sp(amount)
    if f.denominator == 1:
        return int(f)
    sign = "-" if f < 0 else ""
    f = abs(f)
    whole, rest = divmod(f.numerator, f.denominator)
    frac = f"{rest}/{f.denominator}"
    return f"{sign}{whole} {frac}" if whole else f"{sign}{frac}"


def text(amount: Any) -> str:
    """An SP amount for people: ``12``, ``12 1/4``."""
    return str(store(amount))


def ceil(amount: Any) -> int:
    return math.ceil(sp(amount))


def floor(amount: Any) -> int:
    return math.floor(sp(amount))
