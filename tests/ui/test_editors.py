"""Structured editors: no parameter of any rule set is typed as JSON or ``name=value`` text.
Lists, tables, records and single values are filled by keyboard, and what they produce is
what the engine already accepts."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.core.actions import PARAM_TYPES
from campaign_tui.registry import load_ruleset
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.dialogs import EntityPicker, InputDialog
from campaign_tui.ui.screens.editor import StructuredEditor
from campaign_tui.ui.screens.resolve import ResolveDialog
from campaign_tui.ui.widgets.forms import ParamField
from campaign_tui.ui.widgets.shapes import KNOWN, Shape, read, shape_for, write
from tests.ui.helpers import keys, make_app, screen_text

RULESETS = ("prefect", "star_cruiser_lite", "fifth_frontier_war", "prestags",
            "second_sathar_war")


def test_every_list_and_json_parameter_gets_a_structured_editor() -> None:
    seen = set()
    for rid in RULESETS:
        rs = load_ruleset(rid)
        for defn in rs.actions().values():
            for p in defn.params:
                assert p.type in PARAM_TYPES
                shape = shape_for(defn.kind, p)
                if p.type in ("list", "json") and (defn.kind, p.name) != ("gm.edit_table",
                                                                            "value"):
                    assert shape is not None and shape.kind in ("list", "map", "record",
                                                                "value"), (defn.kind, p.name)
                    seen.add((defn.kind, p.name))
    assert ("set_tf_order", "patrols") in seen and ("cmb_pair", "pairs") in seen
    assert ("resolve_externally", "results") in seen and ("ship_damaged", "spent") in seen


def test_old_value_forms_read_back_and_write_the_same_form() -> None:
    patrols = KNOWN[("set_tf_order", "patrols")]
    assert read(patrols, '[["ame-dd-1"], ["ame-dd-2"]]') == [["ame-dd-1"], ["ame-dd-2"]]
    breakoff = KNOWN[("*", "breakoff")]
    assert read(breakoff, '{"damaged_pct": 50}') == {"damaged_pct": 50}
    spent = KNOWN[("ship_damaged", "spent")]
    assert read(spent, "T:1,RB:4") == {"T": 1, "RB": 4}
    assert write(spent, {"T": 1, "RB": 4}) == ["T:1", "RB:4"]
    assert read(Shape("list", item=Shape("text")), "a,b") == ["a", "b"]
    assert write(breakoff, {}) is None


async def _dialog(pilot: Any, app: Any, kind: str, prefill: dict[str, Any] | None = None,
                  focus: str | None = None) -> ResolveDialog:
    session = app.session
    defn = session.engine.action_def(kind)
    dialog = ResolveDialog(session, kind, defn.title, defn.params, prefill=prefill or {},
                           focus=focus)
    app.push_screen(dialog)
    await pilot.pause()
    return dialog


def _field(dialog: ResolveDialog, name: str) -> ParamField:
    return next(f for f in dialog.query(ParamField) if f.param.name == name)


async def _open(pilot: Any, dialog: ResolveDialog, name: str) -> None:
    _field(dialog, name).widget.focus()
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def test_scl_record_and_list_of_lists_by_keyboard(home_places: Places) -> None:
    """Break-off rules (a record: number fields and check boxes) and patrols (a list of
    lists of ships picked from the task force)."""
    path = campaigns.new_campaign(home_places, "star_cruiser_lite", "demo", "Ed", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        view = app.session.view()  # type: ignore[attr-defined]
        tf = next(f for f in view.formations.values() if f.kind == "task_force"
                  and len([u for u in view.units.values() if u.formation == f.id]) >= 2)
        ships = [u.id for u in view.units.values() if u.formation == tf.id]
        dialog = await _dialog(pilot, app, "set_tf_order", {"tf": tf.id})
        text = screen_text(app)
        assert '{"damaged_pct"' not in text and "[[" not in text
        await _open(pilot, dialog, "breakoff")
        assert isinstance(app.screen, StructuredEditor)
        await pilot.press("5", "0", "tab", "tab", "space", "ctrl+n")
        await pilot.pause()
        assert app.screen is dialog
        assert dialog._params()["breakoff"] == {"damaged_pct": 50, "flagship_lost": True}
        assert "damaged pct 50, flagship lost" in str(_field(dialog, "breakoff").widget.label)

        await _open(pilot, dialog, "patrols")
        assert isinstance(app.screen, StructuredEditor)
        for ship in ships[:2]:           # two patrols of one ship each
            await pilot.press("a")           # a new patrol: its own list
            await pilot.pause()
            await pilot.press("a")           # pick its ships
            await pilot.pause()
            assert isinstance(app.screen, EntityPicker)
            assert ship in screen_text(app)  # ids in full
            await pilot.press(*keys(ship), "down", "space", "enter")
            await pilot.pause()
            await pilot.press("ctrl+n")
            await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert dialog._params()["patrols"] == [[ships[0]], [ships[1]]]
        p = app.session.engine.action_def("set_tf_order").param("patrols")  # type: ignore
        assert p.coerce(dialog._params()["patrols"], view) == [[ships[0]], [ships[1]]]


async def test_scl_table_of_tables_and_removal(home_places: Places) -> None:
    """Damage in a battle entered by hand: a table ship -> table stat -> points; x removes."""
    path = campaigns.new_campaign(home_places, "star_cruiser_lite", "demo", "Dm", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        ship = next(iter(app.session.view().units))  # type: ignore[attr-defined]
        dialog = await _dialog(pilot, app, "cmb_result")
        await _open(pilot, dialog, "damage")
        # no battle is being fought: any ship may be named, picked from the list
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, EntityPicker)
        await pilot.press(*keys(ship), "enter")
        await pilot.pause()
        assert isinstance(app.screen, StructuredEditor)   # the ship's own table
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*keys("df"), "enter")           # the stat, picked
        await pilot.pause()
        assert isinstance(app.screen, InputDialog)
        await pilot.press("3", "enter")
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert dialog._params()["damage"] == {ship: {"df": 3}}
        await _open(pilot, dialog, "damage")
        await pilot.press("x", "ctrl+n")
        await pilot.pause()
        assert "damage" not in dialog._params()


@pytest.mark.parametrize(("ruleset", "scenario", "kind", "param", "typed", "expected"), [
    ("prefect", "liberation", "map_hex", "adjacent", ["0101", "0102"], ["0101", "0102"]),
    ("prestags", "chariot-rome", "melee", "targets", ["0304"], ["0304"]),
    ("fifth_frontier_war", "campaign", "erase_plot", "turns", ["3", "4"], [3, 4]),
])
async def test_lists_of_typed_items(home_places: Places, ruleset: str, scenario: str,
                                    kind: str, param: str, typed: list[str],
                                    expected: list[Any]) -> None:
    path = campaigns.new_campaign(home_places, ruleset, scenario, "Li", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = await _dialog(pilot, app, kind)
        await _open(pilot, dialog, param)
        for item in typed:
            await pilot.press("a")
            await pilot.pause()
            assert isinstance(app.screen, InputDialog)
            await pilot.press(*keys(item), "enter")
            await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert dialog._params()[param] == expected


async def test_ssw_codes_table_and_prefect_choice_list(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "second_sathar_war", "standard", "Sp", 4,
                                  "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = await _dialog(pilot, app, "ship_damaged")
        await _open(pilot, dialog, "spent")
        for code, n in (("T", "1"), ("RB", "4")):
            await pilot.press("a")
            await pilot.pause()
            await pilot.press(*keys(code), "enter")
            await pilot.pause()
            await pilot.press(n, "enter")
            await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert dialog._params()["spent"] == ["T:1", "RB:4"]   # the CODE:N form it takes
        await _open(pilot, dialog, "flags")
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*keys("fire"))
        await pilot.pause()
        await pilot.press("down", "space", "enter", "ctrl+n")
        await pilot.pause()
        assert dialog._params()["flags"] in (["fire"], ["disastrous_fire"])


async def test_a_game_value_is_a_number_yes_no_or_text(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Va", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dialog = await _dialog(pilot, app, "gm.set_var", {"name": "x"})
        await _open(pilot, dialog, "value")
        await pilot.press("7", "ctrl+n")
        await pilot.pause()
        assert dialog._params()["value"] == 7
        await _open(pilot, dialog, "value")
        await pilot.press("shift+tab", "down", "ctrl+n")   # the kind list: "yes"
        await pilot.pause()
        assert dialog._params()["value"] is True
