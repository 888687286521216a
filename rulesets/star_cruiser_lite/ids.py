"""Identifiers of task forces, facilities and ground contingents (digest E-13).

The referee names a task force ``AME-2``, a facility ``AME-F2`` and a ground contingent
``AME-G2``: the nation code, a dash, an optional kind letter and a number.
"""

from __future__ import annotations

import re

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record

_ID = re.compile(r"^([A-Z]{2,4})-([FG]?)(\d+)$")
KINDS = {"": "task_force", "F": "facility", "G": "contingent"}
LETTERS = {v: k for k, v in KINDS.items()}


@record(frozen=True)
class FormationId:
    nation: str
    kind: str  # task_force | facility | contingent
    number: int

    def __str__(self) -> str:
        return f"{self.nation}-{LETTERS[self.kind]}{self.number}"


def parse(text: str) -> FormationId:
    """``AME-2`` -> (AME, task_force, 2); ``BRI-F3`` -> (BRI, facility, 3)."""
    m = _ID.match(str(text).strip().upper())
    if not m:
        raise InvalidInput(
            f"{text!r} is not an identifier like AME-2 (task force), AME-F2 "
            "(facility) or AME-G2 (ground contingent)"
        )
    return FormationId(m.group(1), KINDS[m.group(2)], int(m.group(3)))


def make(nation: str, kind: str, number: int) -> str:
    return str(FormationId(nation.upper(), kind, number))


def next_free(existing: list[str], nation: str, kind: str) -> str:
    """The lowest unused number for this nation and kind."""
    used = set()
    for fid in existing:
        try:
            p = parse(fid)
        except InvalidInput:
            continue
        if p.nation == nation.upper() and p.kind == kind:
            used.add(p.number)
    n = 1
    while n in used:
        n += 1
    return make(nation, kind, n)
