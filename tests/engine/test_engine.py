"""The engine on the demo rule set: actions, decisions, dice, undo/redo, views, GM edits."""

from __future__ import annotations

import pytest

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import (
    ActionRejected,
    AdvanceRefused,
    CampaignError,
    InvalidInput,
    NeedConfirmation,
    NeedDecision,
    ParamProblem,
)

ADJ = {"adj:b-inf": "yes"}


def to_combat(e: Engine) -> None:
    """Set-up -> move -> declare an attack on b-inf -> the combat sub-machine."""
    e.advance()
    e.perform("move", {"unit": "a-inf", "to": "hex:0404"})
    e.advance()
    e.perform("declare", {"attackers": ["a-inf", "a-tank"], "target": "b-inf"}, ADJ)
    e.advance()
    assert e.state.step == "combat_start"


def test_creation_starts_at_the_first_step_with_a_bookmark(demo_engine):
    e = demo_engine
    assert e.state.step == "setup" and e.state.clock == {"turn": 1}
    assert len(e.history) == 1 and e.history.get(1).kind == "start"
    assert [b.seq for b in e.info.bookmarks] == [1]
    assert e.initial is not None and e.state_at(0) == e.initial


def test_actions_outside_their_step_are_refused_with_what_is_allowed(demo_engine):
    with pytest.raises(ActionRejected, match=r"Move a unit is not allowed now \(Set up\); "
                                             "allowed: plot"):
        demo_engine.perform("move", {"unit": "a-inf", "to": "x"})
    with pytest.raises(ActionRejected, match="unknown action 'fly'"):
        demo_engine.perform("fly")


def test_bad_parameters_are_refused_and_change_nothing(demo_engine):
    e = demo_engine
    e.advance()
    before = e.state.to_dict()
    with pytest.raises(InvalidInput, match="no unit 'ghost' in this campaign"):
        e.perform("move", {"unit": "ghost", "to": "x"})
    with pytest.raises(ParamProblem, match=r"Move a unit, A Infantry: give the hex \(To\)\.") as missing:
        e.perform("move", {"unit": "a-inf"})
    assert missing.value.details == {"action": "move", "param": "to", "problem": "missing"}
    with pytest.raises(InvalidInput, match="unknown parameter"):
        e.perform("move", {"unit": "a-inf", "to": "x", "speed": 3})
    with pytest.raises(ActionRejected, match="does not belong to the phasing side"):
        e.perform("move", {"unit": "b-inf", "to": "x"})
    assert e.state.to_dict() == before and len(e.history) == 2


def test_a_ruling_is_asked_as_a_decision_and_logged(demo_engine):
    e = demo_engine
    e.advance()
    e.advance()
    with pytest.raises(NeedDecision) as exc:
        e.perform("declare", {"attackers": ["a-inf"], "target": "b-inf"})
    d = exc.value.decision
    assert (d.id, d.kind, d.side) == ("adj:b-inf", "ruling", "gm")
    out = e.perform("declare", {"attackers": ["a-inf"], "target": "b-inf"}, ADJ)
    assert out.entry.answers == {"adj:b-inf": True}
    assert out.entry.tags["rulings"] == ["adj:b-inf"]
    assert "GM ruling" in out.entry.lines[0]


def test_advance_is_refused_with_the_missing_requirement(demo_engine):
    to_combat(demo_engine)
    with pytest.raises(AdvanceRefused) as exc:
        demo_engine.advance()
    assert exc.value.missing == ["resolve the remaining attacks"]
    st = demo_engine.status()
    adv = next(c for c in st.choices if c.kind == "advance")
    assert not adv.available and adv.reason == "resolve the remaining attacks"


def test_a_decision_stops_the_action_without_touching_state_or_dice(demo_engine):
    e = demo_engine
    to_combat(e)
    before, pos = e.state.to_dict(), e.stream.position
    with pytest.raises(NeedDecision) as exc:
        e.perform("resolve")
    assert exc.value.decision.id == "shift"
    assert e.state.to_dict() == before and e.stream.position == pos


def test_preview_shows_exactly_the_dice_the_real_run_uses(demo_engine):
    e = demo_engine
    to_combat(e)
    pos = e.stream.position
    preview = e.perform("resolve", answers={"shift": "0"}, preview=True)
    assert e.stream.position == pos and preview.preview
    real = e.perform("resolve", answers={"shift": "0"})
    assert [r.dice for r in real.entry.rolls] == [r.dice for r in preview.entry.rolls]
    assert real.entry.summary == preview.entry.summary
    assert real.entry.rng == (pos, e.stream.position)


def test_undo_past_a_roll_needs_confirmation_and_never_rewinds_the_dice(demo_engine):
    e = demo_engine
    to_combat(e)
    first = e.perform("resolve", answers={"shift": "0"})
    with pytest.raises(NeedConfirmation, match="discards its die rolls"):
        e.undo()
    undo = e.undo(confirm=True)
    assert undo.entry.kind == "undo" and undo.entry.target == first.entry.seq
    assert undo.entry.tags["discarded_rolls"]
    assert e.state.vars["attacks"]                     # the attack waits again
    pos = e.stream.position
    again = e.perform("resolve", answers={"shift": "0"})  # a new, explicit re-roll
    assert again.entry.rng[0] == pos == first.entry.rng[1]
    kinds = [x.kind for x in e.entries()]
    assert kinds[-3:] == ["resolve", "undo", "resolve"]


def test_redo_reuses_the_logged_results(demo_engine):
    e = demo_engine
    to_combat(e)
    first = e.perform("resolve", answers={"shift": "0"})
    after = e.state.to_dict()
    e.undo(confirm=True)
    pos = e.stream.position
    redo = e.redo()
    assert e.state.to_dict() == after and e.stream.position == pos
    assert redo.entry.target == first.entry.seq
    with pytest.raises(ActionRejected, match="nothing to redo"):
        e.redo()


def test_a_new_action_clears_redo(demo_engine):
    e = demo_engine
    e.advance()
    e.perform("move", {"unit": "a-inf", "to": "hex:0202"})
    e.undo()
    assert e.redo_target() is not None
    e.perform("move", {"unit": "a-tank", "to": "hex:0303"})
    assert e.redo_target() is None


def test_undo_walks_back_to_the_start_and_stops(demo_engine):
    e = demo_engine
    e.advance()
    e.perform("move", {"unit": "a-inf", "to": "hex:0202"})
    e.undo()
    e.undo()
    assert e.state == e.initial
    with pytest.raises(ActionRejected, match="nothing to undo"):
        e.undo()


def test_manual_dice_are_asked_checked_and_marked_typed(demo):
    e = Engine.create(demo, seed=3, dice="manual")
    to_combat(e)
    with pytest.raises(NeedDecision) as exc:
        e.perform("resolve", answers={"shift": "0"})
    d = exc.value.decision
    assert d.kind == "dice" and d.expr == "1d6" and d.id == "roll1"
    with pytest.raises(InvalidInput, match="7 is not a face of a d6"):
        e.perform("resolve", answers={"shift": "0", "roll1": "7", "roll2": "1"})
    out = e.perform("resolve", answers={"shift": "0", "roll1": "6", "roll2": "1"})
    assert [r.dice for r in out.entry.rolls] == [[6], [1]]
    assert all(r.manual for r in out.entry.rolls)
    assert e.stream.position == 0                  # the generator was never used


def test_gm_overrides_of_a_roll_and_a_lookup_are_logged(demo_engine):
    e = demo_engine
    to_combat(e)
    out = e.perform("resolve", answers={"shift": "0", "override:roll1": "1",
                                        "override:lookup1": "+3/-3"})
    roll = out.entry.rolls[0]
    assert roll.dice == [1] and roll.override == {"value": [1]}
    assert out.entry.tags["override"] is True
    assert any("GM override: " in line for line in out.entry.lines)


def test_bookmarks_and_history_views(demo_engine):
    e = demo_engine
    e.advance()
    e.perform("move", {"unit": "a-inf", "to": "hex:0202"})
    e.advance()
    labels = [b.label for b in e.info.bookmarks]
    assert labels == ["Turn 1 · SETUP", "Turn 1 · MOVE", "Turn 1 · COMBAT"]
    move_bm = e.info.bookmarks[1]
    then = e.state_at(move_bm.seq)
    assert then.step == "move" and then.unit("a-inf").location == "hex:0101"
    assert e.state.unit("a-inf").location == "hex:0202"


def test_hidden_information_in_views(demo_engine):
    e = demo_engine
    a_view = e.view("A")
    assert set(a_view.units) == {"a-inf", "a-tank"}       # B's units are in a counter formation
    assert a_view.formations["b1"].status == {}
    b_view = e.view("B")
    assert "b-tank" in b_view.units and "a-inf" in b_view.units
    e.perform("gm.reveal", {"id": "b1", "side": "A"})
    assert "b-inf" in e.view("A").units and "b-tank" not in e.view("A").units
    e.perform("plot", {"side": "B", "text": "hold the ford"})
    assert e.view("A").secrets == {} and e.view("B").secrets == {"B": {"plot": "hold the ford"}}
    plot_entry = e.history.get(len(e.history))
    assert plot_entry.visibility == "B"
    assert not plot_entry.visible_to("A") and plot_entry.visible_to("gm")


def test_gm_edits_are_checked_logged_and_undoable(demo_engine):
    e = demo_engine
    with pytest.raises(InvalidInput, match="unit a-inf: fatigue must be at most 3, not 7"):
        e.perform("gm.set_status", {"unit": "a-inf", "field": "fatigue", "value": "7"})
    e.perform("gm.set_status", {"unit": "a-inf", "field": "fatigue", "value": "2",
                                "reason": "fought off-table"})
    assert e.state.unit("a-inf").status["fatigue"] == 2
    entry = e.history.get(len(e.history))
    assert entry.tags["override"] and "reason: fought off-table" in entry.lines
    e.undo()
    assert e.state.unit("a-inf").status["fatigue"] == 0
    with pytest.raises(InvalidInput, match="no unit type 'dragon'"):
        e.perform("gm.add_unit", {"type": "dragon", "side": "A"})
    e.perform("gm.add_unit", {"type": "tank", "side": "A", "formation": "a1", "id": "a-tank2"})
    assert e.state.unit("a-tank2").status == {"fatigue": 0, "disrupted": False, "destroyed": False}
    e.perform("gm.move_unit", {"unit": "a-tank2", "formation": "-"})
    assert e.state.unit("a-tank2").formation is None
    with pytest.raises(ActionRejected, match="belongs to B"):
        e.perform("gm.move_unit", {"unit": "a-tank2", "formation": "b1"})


def test_table_and_catalog_overrides_change_lookups_and_show_as_house_rules(demo_engine):
    e = demo_engine
    e.perform("gm.edit_table", {"table": "T1", "cell": "6/3-1", "value": "+9/-9"})
    assert e.state.table_overrides == {"crt": {"6/3-1": "+9/-9"}}
    look = e.tables.get("crt").lookup(roll=6, odds=(3, 1))
    assert look.cell == "+9/-9" and look.provenance.grade == "house"
    assert e.ruleset.tables().get("crt").lookup(roll=6, odds=(3, 1)).cell == "+3/-3"
    with pytest.raises(InvalidInput, match="is not a odds label"):
        e.perform("gm.edit_table", {"table": "crt", "cell": "6/9-1", "value": "x"})
    e.perform("gm.edit_catalog", {"type": "tank", "attr": "attack", "value": "9"})
    assert e.catalog.type("tank").attrs["attack"] == 9
    assert e.ruleset.attr(e.state, "a-tank", "attack") == 9
    with pytest.raises(InvalidInput, match="must be a whole number"):
        e.perform("gm.edit_catalog", {"type": "tank", "attr": "attack", "value": "lots"})


def test_options_are_checked(demo_engine):
    with pytest.raises(InvalidInput, match="option turns: must be at most 20"):
        demo_engine.perform("gm.set_option", {"option": "turns", "value": "99"})
    with pytest.raises(InvalidInput, match="unknown option 'speed'"):
        demo_engine.perform("gm.set_option", {"option": "speed", "value": "1"})


def test_create_refuses_unknown_scenarios_and_options(demo):
    with pytest.raises(InvalidInput, match="no scenario 'zzz'; scenarios: skirmish, long"):
        Engine.create(demo, "zzz")
    with pytest.raises(InvalidInput, match="unknown option"):
        Engine.create(demo, options={"nope": 1})
    e = Engine.create(demo, "S1", seed=1)          # by alias
    assert e.info.scenario == "skirmish"
    assert Engine.create(demo, "long", seed=1).state.options["turns"] == 5


def test_a_full_game_reaches_the_end_and_replays_identically(demo):
    e = Engine.create(demo, seed=11)
    e.advance()
    while not e.step.final:
        if e.state.step == "declare" and e.state.vars["roles"]["phasing"] == "A" \
                and not e.state.unit("b-inf").status["destroyed"]:
            e.perform("declare", {"attackers": ["a-inf", "a-tank"], "target": "b-inf"}, ADJ)
        if e.state.step == "combat_start":
            e.perform("resolve", answers={"shift": "0"})
        e.advance()
    assert e.state.vars["outcome"]["winner"] in ("A", "B", "draw")
    with pytest.raises(ActionRejected, match="the campaign is over"):
        e.advance()
    replayed = Engine.replay(demo, e.initial, e.info, e.entries())
    assert replayed.state == e.state


def test_strict_mode_catches_changes_that_bypass_the_context(demo_engine):
    e = demo_engine

    def sneaky(ctx):
        ctx.state.units["a-inf"].status["fatigue"] = 3     # not taken through ctx.unit()

    with pytest.raises(CampaignError, match="changed state without recording it"):
        e._run(ActionDef("sneak", "sneak", sneaky), {}, {}, "gm", False, False)


def test_permissions_when_acting_as_a_side(demo_engine):
    e = demo_engine
    e.advance()
    with pytest.raises(ActionRejected, match="it is for Army A to do"):
        e.perform("move", {"unit": "a-inf", "to": "x"}, by="B")
    with pytest.raises(ActionRejected, match="only the GM may do this"):
        e.perform("gm.set_var", {"name": "x", "value": "1"}, by="A")
    e.perform("move", {"unit": "a-inf", "to": "x"}, by="A")


def test_read_only_engines_refuse_changes(demo_engine):
    demo_engine.read_only = True
    with pytest.raises(ActionRejected, match="read-only"):
        demo_engine.advance()
    assert demo_engine.advance(preview=True).preview


def test_a_held_preview_stops_before_the_first_die_with_everything_computed(demo_engine):
    e = demo_engine
    to_combat(e)
    pos = e.stream.position
    with pytest.raises(NeedDecision) as exc:
        e.perform("resolve", answers={"shift": "0"}, preview=True, hold_rolls=True)
    d = exc.value.decision
    assert (d.id, d.kind, d.default, d.expr) == ("roll1", "dice", "auto", "1d6")
    assert "table crt" in d.info and e.stream.position == pos
    # "auto" lets the program roll that die; the next one is held in turn
    with pytest.raises(NeedDecision) as exc:
        e.perform("resolve", answers={"shift": "0", "roll1": "auto"}, preview=True,
                  hold_rolls=True)
    assert exc.value.decision.id == "roll2"
    assert any("Demo Combat Results Table" in line for line in exc.value.preview)
    held = e.perform("resolve", answers={"shift": "0", "roll1": "auto", "roll2": "auto"},
                     preview=True, hold_rolls=True)
    real = e.perform("resolve", answers={"shift": "0"})
    assert [r.dice for r in held.entry.rolls] == [r.dice for r in real.entry.rolls]
    assert not any(r.manual for r in real.entry.rolls)


def test_outcomes_name_their_lookups_for_overrides(demo_engine):
    e = demo_engine
    to_combat(e)
    out = e.perform("resolve", answers={"shift": "0"}, preview=True)
    assert [key for key, _ in out.lookups] == ["lookup1"]
    assert out.lookups[0][1].table == "crt"


def test_side_views_are_cached_until_the_next_change(demo_engine):
    e = demo_engine
    first = e.view("A")
    assert e.view("A") is first
    e.advance()
    assert e.view("A") is not first
    assert e.view("gm") is e.state
