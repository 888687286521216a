"""The Combat Results Table in use: odds column (5.4), detection shifts (5.5) and reading a
cell (5.6). The table itself is data (T4, ``data/tables.toml``)."""

from __future__ import annotations

import re
from fractions import Fraction

from campaign_tui.core.records import record

COLUMNS = ("1 to 2 (or less)", "2 to 3", "1 to 1", "3 to 2", "2 to 1", "3 to 1 (or more)")
_CELL = re.compile(r"^([+-]?\d+)(AR|CA)?/([+-]?\d+)(DR|BT)?$")


def column_index(attack: int | Fraction, defense: int | Fraction) -> int:
    """The CRT column for attack:defense, rounded in the defender's favour (5.4).

    Integer-safe: 0 = '1 to 2 (or less)' ... 5 = '3 to 1 (or more)'.
    """
    a, d = Fraction(attack), Fraction(defense)
    if d <= 0:
        return 5
    if a >= d * 3:
        return 5
    if a >= d * 2:
        return 4
    if a * 2 >= d * 3:
        return 3
    if a >= d:
        return 2
    if a * 3 >= d * 2:
        return 1
    return 0


@record(frozen=True)
class Cell:
    """A CRT cell split into the modifier and letter for each side."""

    att_mod: int
    att_flag: str | None
    def_mod: int
    def_flag: str | None

    @property
    def btca(self) -> str | None:
        """'BT', 'CA' or None."""
        if self.def_flag == "BT":
            return "BT"
        if self.att_flag == "CA":
            return "CA"
        return None


def parse_cell(cell: str) -> Cell:
    """'-2CA/+3' -> Cell(-2, 'CA', 3, None) (5.6)."""
    text = str(cell).replace("−", "-").replace(" ", "")
    m = _CELL.match(text)
    if not m:
        raise ValueError(f"{cell!r} is not a combat result such as -1AR/+2")
    a, af, d, df = m.groups()
    return Cell(int(a), af, int(d), df)


def shift_choices(index: int, edge_allowed: bool = False) -> list[int]:
    """The column shifts a player may pick from column *index*: -1, 0, +1, minus any that
    would leave the table (G12: not available) unless *edge_allowed*."""
    out = []
    for s in (-1, 0, 1):
        if 0 <= index + s < len(COLUMNS) or edge_allowed:
            out.append(s)
    return out


def planetary_shifter(attacker_detected: bool, defender_detected: bool) -> str | None:
    """Who may shift in a ground combat (5.5): the one undetected side, else nobody."""
    if attacker_detected == defender_detected:
        return None
    return "defender" if attacker_detected else "attacker"
