"""Hex numbering, distances and the place names used in locations (digest 5.13, G-32).

Hexes are the game's four-digit ``CCRR`` codes (column, row). The rulebook gives no geometry;
the Traveller convention is used: even-numbered columns sit half a hex lower (the engine's
``even-q`` grid, :data:`GRID`). A unit's
``location`` is one of:

* ``"2314"``              a hex (squadrons in the system, troops and admirals on the world box);
* ``"box:<box id>"``      an off-map reinforcement box;
* ``"sq:<squadron id>"``  a troop unit carried by that squadron;
* ``"pool:<group>"``      a counter not yet in play (a random group or a scheduled list);
* ``"setup"``             waiting to be placed during set-up;
* ``"arrived"``           a reinforcement waiting for its box (Imperial turn-2 draws);
* ``"eliminated"``        out of play.
"""

from __future__ import annotations

import re

from campaign_tui.core.board import HexGrid

GRID = HexGrid("even-q", first_col=1, first_row=1,
               note="Traveller numbering: even columns half a hex lower (digest 5.13)")
BOX = "box:"
POOL = "pool:"
ABOARD = "sq:"
SETUP = "setup"
ARRIVED = "arrived"
ELIMINATED = "eliminated"

BOX_IDS = ("imp_reinf", "imp_rimward", "sword_worlds", "zho_reinf", "zho_additional")
BOX_SHORT = {
    "ir": "imp_reinf",
    "irf": "imp_rimward",
    "sw": "sword_worlds",
    "zr": "zho_reinf",
    "azr": "zho_additional",
}

_HEX = re.compile(r"^\d{4}$")


def is_hex(text: str | None) -> bool:
    return bool(text) and bool(_HEX.match(str(text))) and int(str(text)[:2]) > 0 and int(str(text)[2:]) > 0


def is_box(loc: str | None) -> bool:
    return bool(loc) and str(loc).startswith(BOX)


def box_id(loc: str) -> str:
    return loc[len(BOX) :]


def normalise_place(text: str) -> str:
    """A hex (``2314``) or a box (``box:zho_reinf``, ``zho_reinf`` or its short form ``ZR``)."""
    t = str(text).strip()
    if is_hex(t):
        return t
    low = t.lower()
    if low.startswith(BOX):
        low = low[len(BOX) :]
    low = BOX_SHORT.get(low, low)
    if low in BOX_IDS:
        return BOX + low
    raise ValueError(f"{text!r} is neither a hex (four digits, e.g. 2314) nor a box ({', '.join(BOX_IDS)})")


def parse_corrections(text: str) -> dict[frozenset[str], int]:
    """``"2314-2213=1, 2307-2409=3"`` -> {pair: distance} (G-32 GM corrections)."""
    out: dict[frozenset[str], int] = {}
    for part in str(text or "").split(","):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(\d{4})\s*-\s*(\d{4})\s*=\s*(\d+)", part)
        if not m:
            raise ValueError(f"distance correction {part!r}: write it as AAAA-BBBB=n")
        out[frozenset((m.group(1), m.group(2)))] = int(m.group(3))
    return out


def jump_distance(a: str, b: str, corrections: str = "") -> int:
    """Hex distance in parsecs, with the campaign's GM corrections (G-32) applied."""
    if a == b:
        return 0
    fixes = parse_corrections(corrections) if corrections else {}
    return fixes.get(frozenset((a, b)), GRID.distance(a, b))
