"""Hex geometry from hex numbers.

Hexes are numbered column-row (``CCRR``: ``0507`` is column 5, row 7; six digits ``CCCRRR``
on big maps). Columns are flat-topped and every other column sits half a hex lower:

* ``odd-q``  odd-numbered columns sit lower (the usual wargame numbering);
* ``even-q`` even-numbered columns sit lower (the Traveller sector numbering).

Directions are numbered 0-5 clockwise from the top hexside: 0 N, 1 NE, 2 SE, 3 S, 4 SW,
5 NW. Rows grow southward, columns eastward.

A grid may know its extent (first and last column and row) and may wrap east-west (a planet
map whose last column touches the first: ``wrap`` with a known ``width``). Where the extent is
unknown, any well-formed hex number is a hex.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

from campaign_tui.core.errors import InvalidInput

LAYOUTS = ("odd-q", "even-q")
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
# cube steps (x, y, z) for directions 0-5; z grows with the row number (south)
CUBE_STEPS = ((0, 1, -1), (1, 0, -1), (1, -1, 0), (0, -1, 1), (-1, 0, 1), (-1, 1, 0))
# (column, row) steps for directions 0-5 from a column that sits lower / higher
_LOWER_STEPS = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))
_UPPER_STEPS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_LOOSE = re.compile(r"^\s*(?:hex\s*:?\s*)?(\d{1,3})\s*[-.,/ ]\s*(\d{1,3})\s*$", re.IGNORECASE)
_LETTERED = re.compile(r"^[A-Z]{1,2}$")

Cube = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class HexGrid:
    """One numbering convention and (optionally) one map extent."""

    layout: str = "odd-q"
    first_col: int | None = None
    last_col: int | None = None
    first_row: int | None = None
    last_row: int | None = None
    wrap: bool = False  # east-west: the column after the last is the first
    digits: int = 2  # digits of the column (and of the row) in a hex number
    letters: bool = False  # lettered reference hexes ("M") are accepted as hex ids
    default: bool = False  # the numbering is a default, not read from the rulebook
    note: str = ""

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise InvalidInput(f"hex numbering {self.layout!r}: use one of {', '.join(LAYOUTS)}")
        if self.wrap:
            w = self.width
            if w is None:
                raise InvalidInput("a map that wraps east-west needs its first and last column")
            if w % 2:
                raise InvalidInput(f"a map that wraps east-west needs an even number of columns, not {w}")

    # -- numbers ---------------------------------------------------------------------------
    @property
    def width(self) -> int | None:
        if self.first_col is None or self.last_col is None:
            return None
        return self.last_col - self.first_col + 1

    def parse(self, hex_id: str) -> tuple[int, int] | None:
        """(column, row) of a well-formed hex number, None otherwise (extent not checked)."""
        h = hex_id if type(hex_id) is str else str(hex_id)
        n = len(h)
        if (n != 4 and n != 6) or not h.isdigit() or not h.isascii():
            return None
        half = n // 2
        return int(h[:half]), int(h[half:])

    def label(self, col: int, row: int) -> str:
        if self.digits == 2 and col < 100 and row < 100:
            return f"{col:02d}{row:02d}"
        d = self.digits if max(col, row) < 10**self.digits else 3
        return f"{col:0{d}d}{row:0{d}d}"

    def inside(self, col: int, row: int) -> bool:
        if col < 0 or row < 0 or col >= 1000 or row >= 1000:
            return False
        if self.first_col is not None and col < self.first_col:
            return False
        if self.last_col is not None and col > self.last_col:
            return False
        if self.first_row is not None and row < self.first_row:
            return False
        return not (self.last_row is not None and row > self.last_row)

    def is_hex(self, hex_id: str) -> bool:
        cr = self.parse(hex_id)
        return cr is not None and self.inside(*cr)

    def check(self, text: object, what: str = "hex") -> str:
        """The hex id for *text*, or InvalidInput saying why not and the nearest valid forms."""
        raw = str(text if text is not None else "").strip()
        if raw.lower().startswith("hex:"):
            raw = raw[4:].strip()
        if self.letters and _LETTERED.match(raw.upper()):
            return raw.upper()
        cr = self.parse(raw)
        if cr is not None:
            if self.inside(*cr):
                return raw
            near = self.label(*self.clamp(*cr))
            raise InvalidInput(f"{what} {raw}: not on this map ({self.extent_text()}); nearest hex {near}")
        m = _LOOSE.match(raw)
        hint = self.label(int(m.group(1)), int(m.group(2))) if m else ""
        forms = self.forms()
        if hint and self.is_hex(hint):
            raise InvalidInput(f"{what} {raw!r} is not a hex number: did you mean {hint}? ({forms})")
        if not raw:
            raise InvalidInput(f"{what}: no hex given ({forms})")
        raise InvalidInput(f"{what} {raw!r} is not a hex of this map ({forms})")

    def forms(self) -> str:
        example = self.label(self.first_col or 1, self.first_row or 1)
        text = f"write a hex as {2 * self.digits} digits, column then row, e.g. {example}"
        if self.letters:
            text += ", or a lettered hex such as M"
        return text

    def extent_text(self) -> str:
        parts = []
        if self.first_col is not None or self.last_col is not None:
            parts.append(f"columns {self.first_col or 0:0{self.digits}d}-"
                         f"{self.last_col if self.last_col is not None else '..'}")
        if self.first_row is not None or self.last_row is not None:
            parts.append(f"rows {self.first_row or 0:0{self.digits}d}-"
                         f"{self.last_row if self.last_row is not None else '..'}")
        return ", ".join(parts) or "any hex number"

    def clamp(self, col: int, row: int) -> tuple[int, int]:
        lo_c, lo_r = self.first_col or 0, self.first_row or 0
        col, row = max(col, lo_c), max(row, lo_r)
        if self.last_col is not None:
            col = min(col, self.last_col)
        if self.last_row is not None:
            row = min(row, self.last_row)
        return col, row

    # -- cube coordinates ---------------------------------------------------------------
    def cube_of(self, col: int, row: int) -> Cube:
        if self.layout == "odd-q":
            z = row - (col - (col & 1)) // 2
        else:
            z = row - (col + (col & 1)) // 2
        return col, -col - z, z

    def from_cube(self, cube: Cube) -> tuple[int, int]:
        col, z = cube[0], cube[2]
        if self.layout == "odd-q":
            return col, z + (col - (col & 1)) // 2
        return col, z + (col + (col & 1)) // 2

    def cube(self, hex_id: str) -> Cube:
        cr = self.parse(hex_id)
        if cr is None:
            raise InvalidInput(f"{hex_id!r} is not a hex number ({self.forms()})")
        return self.cube_of(*cr)

    def _wrapped(self, col: int) -> int:
        if not self.wrap or self.first_col is None:
            return col
        w = self.width or 1
        return (col - self.first_col) % w + self.first_col

    # -- queries --------------------------------------------------------------------------
    def distance_cr(self, c1: int, r1: int, c2: int, r2: int) -> int:
        """Hexes from (c1, r1) to (c2, r2), on integers (the fast path)."""
        if self.layout == "odd-q":
            dz = r2 - r1 - ((c2 - (c2 & 1)) - (c1 - (c1 & 1))) // 2
        else:
            dz = r2 - r1 - ((c2 + (c2 & 1)) - (c1 + (c1 & 1))) // 2
        dx = c2 - c1
        d = (abs(dx) + abs(dz) + abs(dx + dz)) // 2
        w = self.width if self.wrap else None
        if w and abs(dx) > w // 2:  # the short way round the planet
            return min(d, self.distance_cr(c1, r1, c2 - w if dx > 0 else c2 + w, r2))
        return d

    def distance(self, a: str, b: str) -> int:
        """Hexes from *a* to *b*, counting *b* and not *a* (adjacent hexes are 1 apart)."""
        ca, cb = self.parse(a), self.parse(b)
        if ca is None or cb is None:
            raise InvalidInput(f"no distance between {a!r} and {b!r}: {self.forms()}")
        return self.distance_cr(ca[0], ca[1], cb[0], cb[1])

    def _steps(self, col: int) -> tuple[tuple[int, int], ...]:
        lower = (col & 1) == (1 if self.layout == "odd-q" else 0)
        return _LOWER_STEPS if lower else _UPPER_STEPS

    def neighbour(self, hex_id: str, direction: int) -> str | None:
        """The hex through hexside *direction* (0-5), None off the map."""
        cr = self.parse(hex_id)
        if cr is None:
            raise InvalidInput(f"{hex_id!r} is not a hex number ({self.forms()})")
        dc, dr = self._steps(cr[0])[direction % 6]
        col, row = self._wrapped(cr[0] + dc), cr[1] + dr
        return self.label(col, row) if self.inside(col, row) else None

    def neighbours(self, hex_id: str) -> list[str]:
        """The (up to six) hexes next to *hex_id*, in direction order from north."""
        cr = self.parse(hex_id)
        if cr is None:
            raise InvalidInput(f"{hex_id!r} is not a hex number ({self.forms()})")
        c, r = cr
        steps = _LOWER_STEPS if (c & 1) == (self.layout == "odd-q") else _UPPER_STEPS
        label, inside = self.label, self.inside
        if not self.wrap:  # the common case, on every move and range check: no duplicates
            return [label(c + dc, r + dr) for dc, dr in steps if inside(c + dc, r + dr)]
        out: list[str] = []
        for dc, dr in steps:
            col, row = self._wrapped(c + dc), r + dr
            if inside(col, row):
                h = label(col, row)
                if h not in out:
                    out.append(h)
        return out

    def adjacent(self, a: str, b: str) -> bool:
        return a != b and self.distance(a, b) == 1

    def direction(self, a: str, b: str) -> int | None:
        """The hexside (0-5) of *a* that faces the adjacent hex *b*; None if not adjacent."""
        for d in range(6):
            if self.neighbour(a, d) == b:
                return d
        return None

    def bearing(self, a: str, b: str) -> float:
        """Degrees clockwise from north of the line from the centre of *a* to that of *b*."""
        xa, _, za = self.cube(a)
        xb, _, zb = self.cube(b)
        dq, dr = xb - xa, zb - za
        if self.wrap and self.width:
            w = self.width
            dq = min((dq, dq - w, dq + w), key=abs)
        x = 1.5 * dq
        y = -(math.sqrt(3) / 2 * dq + math.sqrt(3) * dr)
        return math.degrees(math.atan2(x, y)) % 360

    def in_front(self, a: str, facing: int, b: str) -> bool | None:
        """Does *b* lie through one of the three front hexsides of a unit in *a* facing
        hexside *facing*? None when *b* lies exactly on the boundary line (a ruling)."""
        d = self.direction(a, b)
        if d is not None:
            return (d - facing) % 6 in (0, 1, 5)
        off = abs((self.bearing(a, b) - facing * 60 + 180) % 360 - 180)
        if abs(off - 90) < 1e-6:
            return None
        return off < 90

    def line(self, a: str, b: str, side: int = 1) -> list[str]:
        """The hexes along the straight line from *a* to *b*, both included. A line that
        runs along a hexside touches two hexes at once: *side* = 1 or -1 picks which."""
        ca, cb = self.cube(a), self.cube(b)
        n = self.distance(a, b)
        if n == 0:
            return [a]
        out = []
        for i in range(n + 1):
            t = i / n
            fx = ca[0] + (cb[0] - ca[0]) * t + side * 1e-6
            fy = ca[1] + (cb[1] - ca[1]) * t + side * 1e-6
            fz = ca[2] + (cb[2] - ca[2]) * t - side * 2e-6
            col, row = self.from_cube(_round_cube(fx, fy, fz))
            out.append(self.label(self._wrapped(col), row))
        return out

    def within(self, hex_id: str, n: int) -> list[str]:
        """Every hex at most *n* hexes from *hex_id* (itself included), on the map."""
        x, y, z = self.cube(hex_id)
        out: list[str] = []
        seen: set[str] = set()
        for dx in range(-n, n + 1):
            for dy in range(max(-n, -dx - n), min(n, -dx + n) + 1):
                col, row = self.from_cube((x + dx, y + dy, z - dx - dy))
                col = self._wrapped(col)
                if self.inside(col, row):
                    h = self.label(col, row)
                    if h not in seen:
                        seen.add(h)
                        out.append(h)
        return out

    def edges(self, hex_id: str) -> set[str]:
        """The map edges ("N", "S", "E", "W") the hex lies on, as far as the extent is known."""
        col, row = self.parse(hex_id) or (0, 0)
        out = set()
        if self.first_row is not None and row == self.first_row:
            out.add("N")
        if self.last_row is not None and row == self.last_row:
            out.add("S")
        if not self.wrap:
            if self.first_col is not None and col == self.first_col:
                out.add("W")
            if self.last_col is not None and col == self.last_col:
                out.add("E")
        return out

    def hexes(self) -> Iterator[str]:
        """Every hex of a map whose extent is known, column by column."""
        if None in (self.first_col, self.last_col, self.first_row, self.last_row):
            return
        for col in range(self.first_col or 0, (self.last_col or 0) + 1):
            for row in range(self.first_row or 0, (self.last_row or 0) + 1):
                yield self.label(col, row)

    def describe(self) -> str:
        lower = "odd" if self.layout == "odd-q" else "even"
        text = f"column-row numbers, {lower} columns half a hex lower"
        if self.wrap:
            text += f", wrapping east-west every {self.width} columns"
        if self.default:
            text += " (DEFAULT: the printed map was not available; change it in the options)"
        return text


def _round_cube(fx: float, fy: float, fz: float) -> Cube:
    rx, ry, rz = round(fx), round(fy), round(fz)
    ex, ey, ez = abs(rx - fx), abs(ry - fy), abs(rz - fz)
    if ex > ey and ex > ez:
        rx = -ry - rz
    elif ey > ez:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return rx, ry, rz
