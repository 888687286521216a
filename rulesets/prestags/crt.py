"""The Combat Results Table: odds columns and reading one die for one or two results.

Odds are attacker : defender as exact fractions, rounded in the defender's favour to the
highest column not above the true ratio [7.32]; below 1-2 the attack is not allowed, above
8-1 it uses 8-1 [8.1]. One d6 is rolled; +1 for the part of the target holding a disrupted
unit [8.2], so a melee on two hexes may read the same die twice [8.24]. A modified 7 is
read on row 7 of the shipped table, or as 6 (option die7_policy, G-3).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.procedures import Resolver
from campaign_tui.core.records import record
from campaign_tui.core.tables import LookupRefused, TableSet
from rulesets.prestags.common import crt_table_id, ftext


def odds_column(
    tables: TableSet, options: dict[str, Any], attack: Fraction, defence: Fraction, shift: int = 0
) -> tuple[str, list[str]]:
    """The odds column; raises ActionRejected below 1-2 [8.1]."""
    table = tables.get(crt_table_id(options))
    axis = table.axis("odds")
    try:
        index, notes = axis.locate((attack, defence))
        if index is not None and shift:
            index, more = axis.shift(index, shift, "GM column shift")
            notes.extend(more)
    except LookupRefused:
        raise ActionRejected(
            f"odds {ftext(attack)}:{ftext(defence)} are below 1-2: the attack is not allowed [8.1]"
        ) from None
    if index is None:
        raise ActionRejected("the attack has no column on the table")
    return axis.labels[index], notes


def row_for(natural: int, modifier: int, options: dict[str, Any]) -> tuple[int, str]:
    """The CRT row for a die and its modifier, under the die-7 policy (G-3)."""
    value = natural + modifier
    top = 6 if options.get("die7_policy") == "clamp6" else 7
    if value > top:
        return top, f"modified {value} read as {top} (die7_policy {options.get('die7_policy', 'row7')})"
    return max(1, value), ""


@record
class Reading:
    hexes: list[str]
    row: int
    column: str
    result: str
    disrupted: bool


def resolve(
    r: Resolver,
    options: dict[str, Any],
    attack: Fraction,
    defence: Fraction,
    targets: list[tuple[str, bool]],
    purpose: str,
    *,
    shift: int = 0,
    die_mod: int = 0,
    side: str | None = None,
    capped_mod: int = 0,
) -> tuple[str, list[Reading], Any]:
    """Roll one die and read the result for each part of the target.

    *targets*: (hex, holds a disrupted unit). *capped_mod*: a modifier that may not take the
    die above 6 or below 1 (Viking ferocity [V3.7], [V3.8]); the disruption +1 still applies
    after it. Returns the column, the readings (one per distinct modifier, usually one) and
    the roll.
    """
    column, notes = odds_column(r.tables, options, attack, defence, shift)
    for line in notes:
        r.explain(line)
    any_dis = any(d for _, d in targets)
    all_dis = all(d for _, d in targets)
    mods: list[tuple[str, int]] = []
    if all_dis:
        mods.append(("disrupted defender [8.2]", 1))
    if die_mod:
        mods.append(("GM die modifier", die_mod))
    roll = r.roll("1d6", purpose, modifiers=mods, table=crt_table_id(options), side=side)
    kept = max(1, min(6, roll.natural + capped_mod)) - roll.natural if capped_mod else 0
    if capped_mod:
        roll.modifiers.append(("exclusive rule, within 1-6", kept))
        die_mod += kept
    readings: list[Reading] = []
    groups: list[tuple[bool, list[str]]] = []
    for flag in (True, False) if any_dis and not all_dis else (all_dis,):
        groups.append((flag, [h for h, d in targets if d == flag]))
    texts = []
    for flag, hexes in groups:
        mod = (1 if flag else 0) + die_mod
        row, note = row_for(roll.natural, mod, options)
        if note:
            r.explain(note)
        look = r.lookup(
            crt_table_id(options), roll=row, odds=(attack, defence), shifts={"odds": shift} if shift else None
        )
        result = str(look.cell)
        readings.append(Reading(hexes, row, column, result, flag))
        texts.append(f"{'/'.join(hexes)}: row {row} -> {result}")
        if any_dis and not all_dis:
            r.explain(
                f"{'/'.join(hexes)}: die {roll.natural}{' +1 (disrupted unit) [8.24]' if flag else ''}"
                f" -> {result}"
            )
    if hasattr(r, "result"):
        r.result(roll, "; ".join(texts), [f"odds {ftext(attack)}:{ftext(defence)} -> {column}"])
    return column, readings, roll
