"""A big automatic battle (two fleets, a few hundred dice, its rounds marked) played round
by round in the resolve dialog at 80x24: each round's label, the rounds so far summed up,
the same battle as rolling it all at once, and one round's dice typed from the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from campaign_tui.core.engine import Engine
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import keys, make_app, screen_text, static_text
from tests.ui.rolling_ruleset import plugin


async def press(pilot: Pilot[Any], *names: str) -> None:
    for name in names:
        await pilot.press(name)
        await pilot.pause()


def dialog(app: Any) -> ResolveDialog:
    assert isinstance(app.screen, ResolveDialog)
    return app.screen


async def open_battle(pilot: Pilot[Any], ships: int) -> ResolveDialog:
    """1: the battle's form (ships typed); ^r: held at round 1's first die."""
    await press(pilot, "1")
    box = dialog(pilot.app)
    if ships != 60:                                     # the form offers 60
        await press(pilot, "backspace", "backspace", *keys(str(ships)))
    await press(pilot, "ctrl+r")
    await pilot.pause()
    d = box.decision
    assert d is not None and d.round == "round:1"
    assert d.round_label == f"Round 1: {ships} ships of A against {ships} of B"
    return box


def battle_at_once(ships: int) -> Any:
    """The same campaign (same seed) fighting the same battle with every die at once."""
    e = Engine.create(plugin, "r", None, 1, "auto", "Rolling")
    return e, e.perform("battle", {"ships": ships})


async def test_a_big_battle_round_by_round(home_places: Places, rolling_path: Path) -> None:
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = await open_battle(pilot, 60)
        shown = screen_text(app)
        assert "Round 1: 60 ships of A against 60 of B" in shown       # the question pinned
        assert "^n: the rest of this round (120 rolls) · ^r: all the rest" in shown
        assert "Roll 1d6 for ship 1 of A fires" in shown and "^n" in shown
        assert box.query_one("#btn-round").display
        labels = [box.decision.round_label]
        while box.stage == "decide":
            await press(pilot, "ctrl+n")
            await pilot.pause()
            if box.stage != "decide":
                break
            d = box.decision
            labels.append(d.round_label)
            assert d.round == f"round:{len(labels)}" and d.round_label in screen_text(app)
            sofar = static_text(app, "#resolve-sofar")
            assert f"Played so far ({len(labels) - 1}):" in sofar
            assert f"{labels[-2]}, as played:" in sofar and "losses so far: A " in sofar
            assert all(label in sofar for label in labels)
            assert sofar.rstrip().endswith(f"Now: {d.round_label}")
            if len(labels) == 2:
                assert f"{labels[0]} · 120 rolls" in sofar and "A fires 60 dice: " in sofar
        assert len(labels) >= 3                                  # hundreds of dice, rounds
        assert box.stage == "review" and not box.query_one("#btn-round").display
        review = static_text(app, "#resolve-review")
        assert all(label in review for label in labels)
        previewed = [r.dice for r in box.preview.entry.rolls]
        assert sum(len(d) for d in previewed) > 200
        await press(pilot, "enter")                              # apply
        assert not isinstance(app.screen, ResolveDialog)
        e = app.session.engine
        entry = e.entries()[-1]
        other, at_once = battle_at_once(60)
        assert [r.dice for r in entry.rolls] == previewed == [r.dice for r in at_once.entry.rolls]
        assert entry.lines == at_once.entry.lines
        assert e.state.vars["fleets"] == other.state.vars["fleets"]


async def test_one_rounds_dice_typed_from_the_table(home_places: Places,
                                                   rolling_path: Path) -> None:
    """Round 1 by the program; round 2's dice thrown at the table and typed at once; then
    the dialog holds at round 3 and the program finishes the battle."""
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        box = await open_battle(pilot, 12)
        await press(pilot, "ctrl+n")
        d = box.decision
        assert d.round == "round:2"
        a, b = (int(w) for w in d.round_label.split() if w.isdigit())  # ships of A and B
        assert f"^n: the rest of this round ({a + b} rolls)" in screen_text(app)
        faces = " ".join("6" if i % 2 else "1" for i in range(a + b))
        await pilot.press(*keys(faces))
        await press(pilot, "enter")
        await pilot.pause()
        assert box.stage == "decide" and box.decision.round == "round:3"
        assert static_text(app, "#resolve-error") == ""
        assert f"{d.round_label} · {a + b} rolls" in static_text(app, "#resolve-sofar")
        await press(pilot, "ctrl+r")                             # the program: to the end
        assert box.stage == "review"
        await press(pilot, "enter")
        entry = app.session.engine.entries()[-1]
        typed = [r for r in entry.rolls if r.manual]
        assert len(typed) == a + b
        assert [r.dice[0] for r in typed] == [6 if i % 2 else 1 for i in range(a + b)]
        assert typed[0].purpose == "ship 1 of A fires"
        round_2 = entry.lines.index(f"── {d.round_label} ──")
        assert entry.lines[round_2 + 1] == f"A fires {a} dice: {a // 2} hits"


async def test_no_next_round_where_the_action_marks_no_rounds(home_places: Places,
                                                              rolling_path: Path) -> None:
    """The storm (advancing) rolls one die a round without marking rounds: ^n is not
    offered, and pressed anyway it rolls nothing."""
    app = make_app(home_places, rolling_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await press(pilot, "n")
        box = dialog(app)
        assert box.decision is not None and box.decision.round_label == ""
        assert not box.query_one("#btn-round").display and "^n" not in screen_text(app)
        await press(pilot, "ctrl+n")
        assert box.stage == "decide" and box.decision.id == "roll1"
        assert "Played so far" not in static_text(app, "#resolve-sofar")
