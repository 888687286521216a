"""Small shared pieces: exact fractions, unit values read from the catalog, side data.

Every strength and Movement Point sum in PRESTAGS keeps its fractions ([3.37], [5.27],
[10.23], [14.12], [16.22], [23.11]), so they are ``fractions.Fraction`` throughout and are
stored in the campaign as text such as ``"5/2"``.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State, Unit
from campaign_tui.core.records import record

SIDES = ("A", "B")


def frac(value: Any) -> Fraction:
    """Read a strength: 3, "5/2", "2½", "2.5", Fraction(5, 2)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise InvalidInput(f"{value!r} is not a number")
    if isinstance(value, int):
        return Fraction(value)
    text = str(value).strip().replace(" ", "")
    if text.endswith("½"):
        head = text[:-1]
        return Fraction(int(head) if head else 0) + Fraction(1, 2)
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise InvalidInput(f"{value!r} is not a number (write 3, 5/2 or 2½)") from None


def ftext(value: Fraction | int) -> str:
    """A fraction as a player reads it: 5/2 -> "2½", 9/4 -> "2¼", 7/3 -> "7/3"."""
    f = Fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    whole, rest = divmod(f.numerator, f.denominator)
    tail = {Fraction(1, 2): "½", Fraction(1, 4): "¼", Fraction(3, 4): "¾"}.get(Fraction(rest, f.denominator))
    if tail is not None:
        return f"{whole}{tail}" if whole else tail
    return f"{f.numerator}/{f.denominator}"


def fstore(value: Fraction | int) -> str:
    """A fraction as stored in a campaign file ("5/2")."""
    return str(Fraction(value))


def other(side: str) -> str:
    return "B" if side == "A" else "A"


def hex_of(unit: Unit) -> str | None:
    loc = unit.location or ""
    return loc[4:] if loc.startswith("hex:") else None


def at(hex_id: str) -> str:
    return f"hex:{hex_id}"


# -- unit values ------------------------------------------------------------------------------
@record(frozen=True)
class Info:
    """What the rules need to know about one unit, read from the catalog and its status."""

    id: str
    label: str
    side: str
    code: str
    klass: str
    melee: int | None
    kind: str
    fire: int | None
    range: int | None
    ma: Fraction
    mounted: bool
    games: str
    hex: str | None
    state: str
    grade: int

    @property
    def is_leader(self) -> bool:
        return self.klass == "E"

    @property
    def is_fire(self) -> bool:
        return bool(self.fire)

    @property
    def active(self) -> bool:
        return self.state == "active"

    @property
    def melee_attack(self) -> int:
        """The attack strength: brackets do not reduce it [3.37]; a dot cannot attack."""
        return 0 if self.kind == "dot" or self.melee is None else self.melee

    @property
    def vp_melee(self) -> int:
        """The melee number used for victory points: a dot counts as 1 [3.36]."""
        return 1 if self.kind == "dot" or self.melee is None else self.melee


def vp_value(melee: int | None, kind: str, fire: int | None) -> int:
    """Victory points for destroying a unit [11.2], [13.0]: half the melee attack strength
    rounded up, plus the fire strength; a dot counts as 1, a bracket at face value."""
    m = 1 if kind == "dot" or melee is None else melee
    return math.ceil(Fraction(m, 2)) + (fire or 0)


def info(state: State, ruleset: Any, unit: Unit | str) -> Info:
    u = state.unit(unit) if isinstance(unit, str) else unit
    catalog = ruleset.effective_catalog(state)
    values = dict(catalog.type(u.type).attrs)
    values.update(u.attrs)
    grade = int(u.status.get("grade", 0) or 0)
    ma = frac(values.get("ma", 0))
    if values.get("klass") == "E" and grade and "ma" not in u.attrs:
        ma = frac(leader_values(state, ruleset, grade)["ma"])
    fire = values.get("fire")
    return Info(
        id=u.id,
        label=u.label,
        side=u.side,
        code=u.type,
        klass=str(values.get("klass", "")),
        melee=values.get("melee"),
        kind=str(values.get("melee_kind", "normal")),
        fire=int(fire) if fire else None,
        range=values.get("range"),
        ma=ma,
        mounted=bool(values.get("mounted", False)),
        games=str(values.get("games", "")),
        hex=hex_of(u),
        state=str(u.status.get("state", "active")),
        grade=grade,
    )


def leader_table_id(options: dict[str, Any]) -> str:
    return "leaders_placeholder" if options.get("leader_table") == "placeholder" else "leaders"


def crt_table_id(options: dict[str, Any]) -> str:
    return "crt_placeholder" if options.get("crt_table") == "placeholder" else "crt"


def tec_table_id(options: dict[str, Any]) -> str:
    return "tec_placeholder" if options.get("tec_table") == "placeholder" else "tec"


def leader_values(state: State, ruleset: Any, grade: int) -> dict[str, Any]:
    """A leader grade's combat bonus, control radius and MA from the leader table [10.4].
    A leader whose grade the GM has not set yet (0) has neither bonus nor radius."""
    if not 1 <= int(grade) <= 6:
        return {"bonus": Fraction(0), "radius": Fraction(-1), "ma": Fraction(9)}
    table = ruleset.tables().with_overrides(state.table_overrides).get(leader_table_id(state.options))
    out: dict[str, Any] = {}
    for value in ("bonus", "radius", "ma"):
        out[value] = frac(table.lookup(grade=str(grade), value=value).cell)
    return out


# -- sides ------------------------------------------------------------------------------------
def side_data(state: State, side: str) -> dict[str, Any]:
    return state.sides[side].data


def vp_scored(state: State, side: str) -> int:
    return int(state.ledger(side, "vp"))


def stamp(state: State) -> int:
    """The time stamp of this moment: the Player-Turn in the standard game, the Game-Turn
    in the simultaneous one (disruption, fire readiness)."""
    if state.options.get("simultaneous"):
        return int(state.clock.get("gt", 1))
    return int(state.clock.get("pt", 1))


def units_of(state: State, side: str | None = None, states: tuple[str, ...] = ("active",)) -> list[Unit]:
    return [
        u
        for u in state.units.values()
        if (side is None or u.side == side) and u.status.get("state", "active") in states
    ]


def units_at(state: State, hex_id: str) -> list[Unit]:
    return [
        u for u in state.units.values() if u.status.get("state", "active") == "active" and hex_of(u) == hex_id
    ]


_UNITS = re.compile(r"^(\d+)([A-Z]{2})$|^(\d+)L(\d)$")
OCR_ALIASES = {"RW": "BW", "AF": "AE"}  # the seed's OCR misreadings of [3.4] (G-28)


def parse_units(text: str) -> list[tuple[str, int, int]]:
    """ "9MI 3AX 1L2" -> [("MI", 9, 0), ("AX", 3, 0), ("L", 1, 2)]: type, count, grade."""
    out: list[tuple[str, int, int]] = []
    for token in text.replace(",", " ").split():
        m = _UNITS.match(token.strip())
        if not m:
            raise InvalidInput(f"{token!r} is not a unit entry such as 9MI or 1L2")
        if m.group(1):
            out.append((OCR_ALIASES.get(m.group(2), m.group(2)), int(m.group(1)), 0))
        else:
            out.append(("L", int(m.group(3)), int(m.group(4))))
    return out
