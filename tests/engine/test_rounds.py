"""Rounds: a held preview of a long automatic battle released a round at a time
(``round:N = auto``), with the same dice as rolling it all at once."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import InvalidInput, NeedDecision
from campaign_tui.core.procedures import FreeResolver
from campaign_tui.core.rounds import heading, heading_label, round_key, split_rounds
from tests.ui.rolling_ruleset import plugin


def fresh(dice: str = "auto", seed: int = 7) -> Engine:
    return Engine.create(plugin, "r", None, seed, dice, "Rolling")


def held(e: Engine, answers: dict[str, Any], ships: int = 60) -> NeedDecision:
    with pytest.raises(NeedDecision) as exc:
        e.perform("battle", {"ships": ships}, answers, preview=True, hold_rolls=True)
    return exc.value


def play_round_by_round(e: Engine, ships: int = 60) -> tuple[dict[str, Any], list[str]]:
    """Release one round after the other; the answers and the rounds' labels seen."""
    answers: dict[str, Any] = {}
    labels = []
    while True:
        try:
            e.perform("battle", {"ships": ships}, answers, preview=True, hold_rolls=True)
        except NeedDecision as exc:
            d = exc.decision
            labels.append(d.round_label)
            assert d.round not in answers          # each hold is at a new round
            answers[d.round] = "auto"
            continue
        return answers, labels


def test_a_held_die_names_its_round_and_the_answer_that_releases_it() -> None:
    e = fresh()
    pos = e.stream.position
    stop = held(e, {})
    d = stop.decision
    assert (d.id, d.kind, d.default) == ("roll1", "dice", "auto")
    assert (d.round, d.round_label) == ("round:1", "Round 1: 60 ships of A against 60 of B")
    assert stop.preview == [heading(d.round_label)]
    assert d.to_dict()["round"] == "round:1" and e.stream.position == pos


def test_releasing_a_round_holds_again_at_the_next_round_with_the_summary_so_far() -> None:
    e = fresh()
    stop = held(e, {"round:1": "auto"})
    d = stop.decision
    assert d.round == "round:2" and d.round_label.startswith("Round 2: ")
    assert d.id == "roll121"                       # 120 dice of round 1 rolled
    parts = split_rounds(stop.preview)
    assert [p.label for p in parts] == ["Round 1: 60 ships of A against 60 of B", d.round_label]
    assert parts[0].lines[0].startswith("A fires 60 dice: ")
    assert parts[0].lines[-1].startswith("losses so far: ")
    assert parts[1].lines == []


def test_round_by_round_ends_with_the_same_battle_as_rolling_it_all_at_once() -> None:
    e = fresh()
    answers, labels = play_round_by_round(e)
    assert len(labels) >= 3 and labels[0].startswith("Round 1")
    preview = e.perform("battle", {"ships": 60}, answers, preview=True, hold_rolls=True)
    assert sum(len(r.dice) for r in preview.entry.rolls) > 200
    real = e.perform("battle", {"ships": 60}, answers)
    other = fresh()
    at_once = other.perform("battle", {"ships": 60})
    assert [r.dice for r in real.entry.rolls] == [r.dice for r in preview.entry.rolls]
    assert [r.dice for r in real.entry.rolls] == [r.dice for r in at_once.entry.rolls]
    assert real.entry.lines == at_once.entry.lines
    assert e.state.vars["fleets"] == other.state.vars["fleets"]
    assert not any(r.manual for r in real.entry.rolls)


def test_cancelling_cannot_fish_for_other_dice() -> None:
    """Previews never move the generator: the same round shows the same dice again."""
    e = fresh()
    first = held(e, {"round:1": "auto"}).preview
    again = held(e, {"round:1": "auto"}).preview
    assert first == again


def test_dice_typed_inside_a_released_round_are_used() -> None:
    e = fresh()
    stop = held(e, {"round:1": "auto"})
    first_of_2 = stop.decision.id                  # the GM types round 2's first die
    out = e.perform("battle", {"ships": 60}, {"round:1": "auto", first_of_2: "6",
                                              "round:2": "auto"}, preview=True)
    typed = [r for r in out.entry.rolls if r.manual]
    assert [(f"roll{r.n}", r.dice) for r in typed] == [(first_of_2, [6])]


def test_physical_dice_die_by_die_in_a_round() -> None:
    e = fresh()
    stop = held(e, {"round:1": "auto", "roll121": "5"})
    assert stop.decision.id == "roll122" and stop.decision.round == "round:2"


def test_manual_dice_mode_may_release_a_round_to_the_program() -> None:
    e = fresh(dice="manual")
    with pytest.raises(NeedDecision) as exc:
        e.perform("battle", {"ships": 5}, {})
    assert exc.value.decision.default is None and exc.value.decision.round == "round:1"
    with pytest.raises(NeedDecision) as exc:
        e.perform("battle", {"ships": 5}, {"round:1": "auto"})
    assert exc.value.decision.round == "round:2"


def test_a_round_answer_other_than_auto_is_refused_clearly() -> None:
    e = fresh()
    with pytest.raises(InvalidInput, match=r"round:1 \(Round 1: .*\): '4' is not an answer"):
        e.perform("battle", {"ships": 5}, {"round:1": "4"}, preview=True, hold_rolls=True)


def test_round_answers_are_asked_for_even_when_the_program_rolls_anyway() -> None:
    """Not held: a round answer given is not an unknown parameter (the CLI refuses those)."""
    out = fresh().perform("battle", {"ships": 5}, {"round:1": "auto"}, preview=True)
    assert out.unasked == []


def test_headings_and_the_free_resolver() -> None:
    assert heading_label(heading("Round 3")) == "Round 3" and heading_label("Round 3") is None
    assert round_key(2) == "round:2"
    assert [p.label for p in split_rounds(["a", heading("R1"), "b"])] == ["", "R1"]
    assert [p.label for p in split_rounds([heading("R1"), "b"])] == ["R1"]
    free = FreeResolver(plugin.tables(), dice=[4])
    free.round("Round 1")
    assert free.lines == [heading("Round 1")]


def test_a_held_round_crosses_the_hosted_tables_wire() -> None:
    from campaign_tui.hosted.wire import error_from_wire, error_to_wire

    stop = held(fresh(), {"round:1": "auto"})
    back = error_from_wire(error_to_wire(stop))
    assert isinstance(back, NeedDecision)
    assert (back.decision.round, back.decision.round_label) == (
        stop.decision.round, stop.decision.round_label)
    assert back.preview == stop.preview
