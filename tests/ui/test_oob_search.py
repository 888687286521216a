"""The order of battle finds units by name, task force, hex and status; the destroyed and
disrupted come first and are never cut off; counts and empty task forces are said right."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.registry import load_ruleset
from campaign_tui.store.paths import Places
from campaign_tui.ui.text import count_words
from campaign_tui.ui.widgets import oob
from campaign_tui.ui.widgets.oob import OobPanel, OobTree
from tests.ui.helpers import make_app


def _shown_units(tree: OobTree) -> list[str]:
    return [key[1] for key in tree.nodes if key[0] == "unit"]


async def _panel(pilot: Any, app: Any) -> tuple[OobPanel, Any]:
    await pilot.pause()
    session = app.session
    session.engine.perform("gm.quick_setup", {})
    return app.screen.query_one(OobPanel), session


async def _find(pilot: Any, panel: OobPanel, text: str) -> list[str]:
    panel.query_one("#oob-filter").value = text  # type: ignore[attr-defined]
    await pilot.pause()
    return _shown_units(panel.tree)


async def test_find_by_name_task_force_hex_and_status(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Oob", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 40)) as pilot:
        panel, session = await _panel(pilot, app)
        state = session.engine.state
        unit = next(u for u in state.units.values() if u.formation
                    and state.formations[u.formation].location)
        tf = state.formations[unit.formation]
        state.units[unit.id].status["disrupted"] = True
        panel.show_view(session.view(), "gm")

        assert unit.id in await _find(pilot, panel, unit.label)
        by_tf = await _find(pilot, panel, tf.name)
        assert unit.id in by_tf
        assert set(by_tf) >= {u.id for u in state.units.values() if u.formation == tf.id}
        hex_ = tf.location.removeprefix("hex:")   # the unit's hex is its task force's
        by_hex = await _find(pilot, panel, hex_)
        assert unit.id in by_hex
        assert all(hex_ in (state.formations[state.units[u].formation].location or "")
                   or hex_ in (state.units[u].location or "") or hex_ in u
                   for u in by_hex if state.units[u].formation in state.formations)
        assert await _find(pilot, panel, "disrupted") == [unit.id]
        assert await _find(pilot, panel, "no-such-thing-here") == []


async def test_hurt_units_first_and_never_cut_off(home_places: Places,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(oob, "MAX_MATCHES", 2)
    monkeypatch.setattr(oob, "CHUNK", 2)
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Cut", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 40)) as pilot:
        panel, session = await _panel(pilot, app)
        state = session.engine.state
        tf = next(f for f in state.formations.values()
                  if len([u for u in state.units.values() if u.formation == f.id]) >= 5)
        members = [u.id for u in state.units.values() if u.formation == tf.id]
        hurt = members[-3:]                     # the last three: past any cut
        for uid in hurt[:2]:
            state.units[uid].status["destroyed"] = True
        state.units[hurt[2]].status["disrupted"] = True
        panel.show_view(session.view(), "gm")
        found = await _find(pilot, panel, tf.name)
        assert found[:3] == hurt or set(found[:3]) == set(hurt)   # first
        assert set(hurt) <= set(found)                           # never cut off
        tree = panel.tree
        tree.opened |= {("formation", tf.id), ("formation", tf.parent or "")}
        await _find(pilot, panel, "")
        node = tree.nodes[("formation", tf.id)]
        shown = [c.data[1] for c in node.children if c.data and c.data[0] == "unit"]
        assert shown[:3] == [u for u in members if u in hurt] or set(shown[:3]) == set(hurt)
        assert any(c.data and c.data[0] == "more" for c in node.children)  # the rest: "more"


async def test_empty_task_forces_and_counts(home_places: Places) -> None:
    assert count_words(0) == "empty" and count_words(1) == "1 unit"
    assert count_words(3) == "3 units"
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Emp", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 40)) as pilot:
        panel, session = await _panel(pilot, app)
        view = session.view()
        tf = next(f for f in view.formations.values() if f.kind in ("tf", "naval_tf"))
        for u in view.units.values():
            if u.formation == tf.id:
                u.formation = None
        panel.tree.opened.add(("formation", tf.parent or ""))
        panel.show_view(view, "gm")
        await pilot.pause()
        label = panel.tree.nodes[("formation", tf.id)].label.plain
        assert label.endswith("empty") or "empty" in label
        assert not panel.tree.nodes[("formation", tf.id)].allow_expand
        for line in load_ruleset("prefect").headline(view).values():
            assert not any(part.startswith("1 task forces") or part.startswith("1 units")
                           for part in line)


def test_fighters_are_not_counted_as_ships() -> None:
    """Second Sathar War's headline counts fighters apart from ships (on the map too);
    Star Cruiser Lite's ship count leaves fighter wings out."""
    from campaign_tui.core.engine import Engine
    from rulesets.second_sathar_war.ships import is_fighter

    rs = load_ruleset("second_sathar_war")
    state = Engine.create(rs, "standard", None, 1).state
    for side, line in rs.headline(state).items():
        alive = [u for u in state.units.values() if u.side == side
                 and not u.status.get("destroyed") and "station" not in u.type.lower()]
        fighters = sum(1 for u in alive if is_fighter(u))
        assert fighters and f", {fighters} fighters" in line[0]
        ships = int(line[0].split()[0])
        on_map = int(line[0].split("(")[1].split()[0])
        assert ships < len(alive) and on_map <= ships
    scl = load_ruleset("star_cruiser_lite")
    state = Engine.create(scl, "demo", None, 1).state
    for line in scl.headline(state).values():
        assert line[0] in ("1 task force",) or line[0].endswith("task forces")
        assert "1 ships" not in line and "1 task forces" not in line


async def test_side_headlines_are_read_once_a_refresh_and_details_follow_the_cursor(
        home_places: Places, monkeypatch: pytest.MonkeyPatch) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Oob", 4, "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(100, 40)) as pilot:
        panel, session = await _panel(pilot, app)
        ruleset = panel.tree.ruleset
        calls: list[int] = []
        real = type(ruleset).headline

        def counted(self: Any, state: Any) -> dict[str, list[str]]:
            calls.append(1)
            return real(self, state)

        monkeypatch.setattr(type(ruleset), "headline", counted)
        panel.show_view(session.view(), "gm")
        sides = [key for key in panel.tree.nodes if key[0] == "side"]
        assert len(sides) >= 2 and len(calls) == 1     # one headline for every side
        headline = real(ruleset, session.view())[sides[0][1]]
        assert all(part in str(panel.tree.nodes[sides[0]].label) for part in headline)
        panel.tree.focus()
        await pilot.pause()
        for _ in range(2):
            await pilot.press("down")
            await pilot.pause()
            key = panel.tree.current
            assert key is not None and key[0] != "side"
            shown = str(panel.query_one("#oob-details").render())
            name = (session.view().formations.get(key[1]) or session.view().units[key[1]]).name
            assert name in shown
