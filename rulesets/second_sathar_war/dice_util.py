"""Small dice helpers shared by procedures and actions.

Every roll goes through the resolver (the action context in a campaign, a free resolver in
``campaign-tui calc``). With the house rule ``roll_observer_required`` each roll is tagged
with the opposing faction's observer, as named by the ``set_observer`` action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign_tui.core.dice import DiceExpr, Roll
from campaign_tui.core.procedures import Resolver

from .rules import percent_check


def _tags(r: Resolver, side: str | None) -> dict[str, Any]:
    if not r.options.get("roll_observer_required"):
        return {}
    state = getattr(r, "state", None)
    observers = state.vars.get("observers", {}) if state is not None else {}
    if side in ("UPF", "SATHAR"):
        other = "SATHAR" if side == "UPF" else "UPF"
        return {"observer": observers.get(other, f"an observer from {other}")}
    return {"observer": "an observer from the opposing faction"}


def roll(
    r: Resolver,
    expr: str,
    purpose: str,
    *,
    side: str | None = None,
    target: int | None = None,
    table: str | None = None,
    modifiers: Sequence[tuple[str, int]] = (),
) -> Roll:
    return r.roll(
        expr, purpose, modifiers=modifiers, table=table, target=target, side=side, tags=_tags(r, side) or None
    )


def d100(r: Resolver, purpose: str, target: int | None, table: str | None, side: str | None = None) -> Roll:
    """A percentile roll (00 reads 100)."""
    return roll(r, "1d100", purpose, side=side, target=target, table=table)


def percent(
    r: Resolver, purpose: str, target: int, table: str | None = None, side: str | None = None
) -> tuple[bool, Roll]:
    """A percent check with the digest's bounds: roll <= target; <= 0 fails; >= 100 succeeds."""
    die = d100(r, purpose, target, table, side)
    ok = percent_check(target, die.natural)
    note = ""
    if target <= 0:
        note = " (a target of 0 or less always fails)"
    elif target >= 100:
        note = " (a target of 100 or more always succeeds)"
    tag_table(die, ("success" if ok else "failure") + note)
    return ok, die


def roll_dice(r: Resolver, expr: str, purpose: str, side: str | None = None) -> tuple[int, int]:
    """Roll *expr*; return (sum of the dice, the expression's constant)."""
    parsed = DiceExpr.parse(expr)
    die = roll(r, expr, purpose, side=side)
    return sum(die.dice), parsed.constant


def tag_table(die: Roll, result: str, detail: Sequence[str] = ()) -> None:
    """Record a roll's outcome for the die log."""
    die.result = result
    die.detail.extend(detail)
