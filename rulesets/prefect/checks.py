"""The generic target-number test (digest 5.0) and the roll that goes with it.

Every detection and saving roll in Prefect is one d10 against a target: a natural 1 always
succeeds, a natural 10 always fails, otherwise the roll succeeds when it is at most the
target. The Combat Results Table roll is a plain row index and does not use this test.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign_tui.core.dice import Roll
from campaign_tui.core.procedures import Resolver
from campaign_tui.core.records import record


def target_test(natural: int, target: int) -> tuple[bool, str | None]:
    """(passed, automatic) for a natural d10 against *target* (5.0).

    *automatic* is "success" for a natural 1, "failure" for a natural 10, else None.
    """
    if natural == 1:
        return True, "success"
    if natural == 10:
        return False, "failure"
    return natural <= target, None


def fmt_mods(parts: Sequence[tuple[str, int]]) -> str:
    """'6 (defense) -1 (fatigue) +2 (CRT)': the pieces of a target, for the log."""
    out = []
    for i, (label, value) in enumerate(parts):
        out.append(f"{value}" if i == 0 else f"{value:+d}")
        out[-1] += f" ({label})"
    return " ".join(out)


@record
class Check:
    """One target-number roll and its result."""

    passed: bool
    natural: int
    target: int
    automatic: str | None
    roll: Roll

    def text(self) -> str:
        if self.automatic == "success":
            return f"natural 1 (always succeeds) vs {self.target}"
        if self.automatic == "failure":
            return f"natural 10 (always fails) vs {self.target}"
        return f"{self.natural} vs {self.target}"


def roll_check(
    r: Resolver,
    purpose: str,
    parts: Sequence[tuple[str, int]],
    *,
    side: str | None = None,
    success: str = "succeeds",
    failure: str = "fails",
    table: str | None = None,
) -> Check:
    """Roll 1d10 against the target made of *parts* ((label, value) pairs summed)."""
    target = sum(v for _, v in parts)
    roll = r.roll("1d10", purpose, target=target, side=side, table=table)
    passed, auto = target_test(roll.natural, target)
    check = Check(passed, roll.natural, target, auto, roll)
    outcome = success if passed else failure
    detail = [f"target {fmt_mods(parts)} = {target}"]
    result = getattr(r, "result", None)
    if callable(result):
        result(roll, outcome, detail)
    r.explain(f"{purpose}: {check.text()} (target {fmt_mods(parts)}) -> {outcome}")
    return check
