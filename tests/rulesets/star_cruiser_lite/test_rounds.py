"""Star Cruiser Lite marks each battle round (and the aftermath), so an automatic battle is
played a round at a time in the resolve dialog with the dice rolling it at once uses."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import NeedDecision
from campaign_tui.core.rounds import heading_label

from .helpers import battle, engine, place


def in_battle() -> Any:
    e = engine(seed=11)
    place(e, "KAF-1", "BCV")
    battle(e, ["KAF-1"], ["AME-2"], "BCV")
    return e


def test_an_automatic_battle_round_by_round_is_the_battle_fought_at_once() -> None:
    e = in_battle()
    answers: dict[str, Any] = {}
    labels = []
    while True:
        try:
            held = e.perform("cmb_auto", {}, answers, preview=True, hold_rolls=True)
            break
        except NeedDecision as exc:
            labels.append(exc.decision.round_label)
            answers[exc.decision.round] = "auto"
    assert e.state.vars["battle"]["round"] == 1
    out = e.perform("cmb_auto")
    marked = [label for line in out.entry.lines if (label := heading_label(line))]
    assert labels == marked[: len(labels)] and len(labels) >= 3
    assert marked[0] == "Round 1 of the battle at BCV" and marked[-1] == "After the battle at BCV"
    record = next(iter(e.state.records("battles").values()))
    assert len(marked) == record["rounds"] + 1                   # every round, the aftermath
    assert [r.dice for r in held.entry.rolls] == [r.dice for r in out.entry.rolls]
