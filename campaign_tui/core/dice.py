"""Dice expressions, the seeded generator and the record of one roll.

The generator is counter based: the value drawn at position *n* depends only on the seed
and *n*. Saving the position is enough to replay a campaign identically, and the position
only ever moves forward (undo never rewinds it).
"""

from __future__ import annotations

import re
from dataclasses import field
from typing import Any

from campaign_tui.core import digests
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record

_EXPR = re.compile(r"^\s*(\d{0,4})\s*[dD]\s*(%|\d{1,5})\s*(?:([+-])\s*(\d{1,9}))?\s*$")


@record(frozen=True, slots=True)
class DiceExpr:
    """``NdM+K``: *count* dice of *sides* faces plus a constant."""

    count: int
    sides: int
    constant: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        m = _EXPR.match(text)
        if not m:
            raise InvalidInput(
                f"{text!r} is not a dice expression; write it like d6, 2d6, d10, d100 or 3d10+4"
            )
        count = int(m.group(1)) if m.group(1) else 1
        sides = 100 if m.group(2) == "%" else int(m.group(2))
        constant = int(m.group(4)) if m.group(4) else 0
        if m.group(3) == "-":
            constant = -constant
        if count < 1 or count > 100:
            raise InvalidInput(f"{text!r}: the number of dice must be between 1 and 100")
        if sides < 2 or sides > 1000:
            raise InvalidInput(f"{text!r}: a die must have between 2 and 1000 faces")
        return cls(count, sides, constant)

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.constant > 0:
            text += f"+{self.constant}"
        elif self.constant < 0:
            text += str(self.constant)
        return text

    @property
    def minimum(self) -> int:
        return self.count + self.constant

    @property
    def maximum(self) -> int:
        return self.count * self.sides + self.constant


def face_range_text(sides: int) -> str:
    if sides == 10:
        return "1-10 (a 0 reads as 10)"
    if sides == 100:
        return "1-100 (00 reads as 100)"
    return f"1-{sides}"


def read_face(sides: int, raw: object) -> int:
    """Read one physical die as typed by a user; refuse values the die cannot show."""
    text = str(raw).strip()
    if not re.fullmatch(r"\d+", text):
        raise InvalidInput(f"{raw!r} is not a die value; a d{sides} shows {face_range_text(sides)}")
    value = int(text)
    if value == 0 and sides in (10, 100):
        return sides
    if not 1 <= value <= sides:
        raise InvalidInput(f"{value} is not a face of a d{sides}; it shows {face_range_text(sides)}")
    return value


def read_dice(expr: DiceExpr, raw: object) -> list[int]:
    """Read the physical dice for *expr*: one value per die, as a list or ``"3,4"``."""
    if isinstance(raw, (list, tuple)):
        values = list(raw)
    else:
        values = [v for v in re.split(r"[,\s]+", str(raw).strip()) if v]
    if len(values) != expr.count:
        raise InvalidInput(
            f"{expr} needs {expr.count} die value{'s' if expr.count > 1 else ''}, "
            f"got {len(values)}"
        )
    return [read_face(expr.sides, v) for v in values]


def read_total(expr: DiceExpr, raw: object) -> int:
    """Read a roll typed as one total (a table's ``--roll``): a single die by its faces
    (0 reads as 10 on a d10), several dice within the expression's range."""
    if expr.count == 1:
        return read_face(expr.sides, raw) + expr.constant
    text = str(raw).strip()
    if not re.fullmatch(r"[+-]?\d+", text) or not expr.minimum <= int(text) <= expr.maximum:
        raise InvalidInput(f"{raw!r} is not a {expr} roll; it gives {expr.minimum}-{expr.maximum}")
    return int(text)


def typed_values(text: str, where: str = "--dice") -> list[str]:
    """Die values typed in order (``7,3`` or ``7 3``); each is read against its die later."""
    values = [v for v in re.split(r"[,\s]+", text.strip()) if v]
    bad = [v for v in values if not v.isdigit()]
    if bad or not values:
        raise InvalidInput(f"{where}: {(bad[0] if bad else text)!r} is not a die value; "
                           "give whole numbers in the order rolled, like 7,3")
    return values


class DiceStream:
    """A seeded, counter-based generator of uniform integers."""

    __slots__ = ("_seed_bytes", "position", "seed")

    def __init__(self, seed: int, position: int = 0) -> None:
        self.seed = int(seed)
        self.position = int(position)
        self._seed_bytes = str(self.seed).encode()

    def _block(self, n: int) -> int:
        digest = digests.blake2b(
            n.to_bytes(8, "big", signed=False), key=self._seed_bytes[:64], digest_size=8
        ).digest()
        return int.from_bytes(digest, "big")

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``; advances the position (rejection sampling)."""
        span = high - low + 1
        if span <= 0:
            raise ValueError("empty range")
        limit = (1 << 64) - ((1 << 64) % span)
        while True:
            value = self._block(self.position)
            self.position += 1
            if value < limit:
                return low + value % span

    def roll(self, expr: DiceExpr) -> list[int]:
        return [self.randint(1, expr.sides) for _ in range(expr.count)]


@record
class Roll:
    """One roll (or random draw) as the die log records it."""

    n: int
    expr: str
    dice: list[int]
    purpose: str
    constant: int = 0
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    table: str | None = None
    target: int | None = None
    side: str | None = None
    manual: bool = False
    kind: str = "dice"  # "dice" or "draw"
    result: str = ""
    detail: list[str] = field(default_factory=list)
    override: dict[str, Any] | None = None
    tags: dict[str, Any] = field(default_factory=dict)

    @property
    def natural(self) -> int:
        """The sum of the dice plus the expression's constant, before modifiers."""
        return sum(self.dice) + self.constant

    @property
    def modifier_total(self) -> int:
        return sum(v for _, v in self.modifiers)

    @property
    def modified(self) -> int:
        return self.natural + self.modifier_total

    def describe(self) -> str:
        """A one-line account: ``1d10 [7] +1 (HQ) = 8 vs 9 -> pass``."""
        if self.kind == "draw":
            return f"{self.purpose}: drew {self.result}"
        text = f"{self.expr} {self.dice}"
        for label, value in self.modifiers:
            text += f" {value:+d} ({label})"
        if self.modifiers:
            text += f" = {self.modified}"
        if self.target is not None:
            text += f" vs {self.target}"
        if self.result:
            text += f" -> {self.result}"
        if self.manual:
            text += " [typed]"
        if self.override:
            text += f" [GM override: {self.override.get('value')}]"
        return text

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"n": self.n, "kind": self.kind, "expr": self.expr,
                               "dice": list(self.dice), "purpose": self.purpose}
        if self.constant:
            out["constant"] = self.constant
        if self.modifiers:
            out["modifiers"] = [[label, value] for label, value in self.modifiers]
        for key in ("table", "target", "side"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.manual:
            out["manual"] = True
        if self.result:
            out["result"] = self.result
        if self.detail:
            out["detail"] = list(self.detail)
        if self.override:
            out["override"] = dict(self.override)
        if self.tags:
            out["tags"] = dict(self.tags)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Roll:
        return cls(
            n=int(data["n"]),
            expr=str(data["expr"]),
            dice=[int(v) for v in data.get("dice", [])],
            purpose=str(data.get("purpose", "")),
            constant=int(data.get("constant", 0)),
            modifiers=[(str(a), int(b)) for a, b in data.get("modifiers", [])],
            table=data.get("table"),
            target=data.get("target"),
            side=data.get("side"),
            manual=bool(data.get("manual", False)),
            kind=str(data.get("kind", "dice")),
            result=str(data.get("result", "")),
            detail=[str(v) for v in data.get("detail", [])],
            override=data.get("override"),
            tags=dict(data.get("tags", {})),
        )
