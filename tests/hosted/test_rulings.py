"""A side's action that needs the GM's ruling: the side waits ("waiting for the GM's
ruling"), the GM's seat gets the question with what the action worked out so far (as the
GM sees it), answers it, and the side's action is carried out on every screen. The side
never sees what is hidden from it, and never answers the ruling itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from campaign_tui.core.errors import ActionRejected, CampaignError
from campaign_tui.hosted.remote_session import RemoteSession
from tests.hosted.helpers import ThreadTable, to_attacks
from tests.hosted.test_seat_tui import seat_app, settle
from tests.ui.helpers import screen_text, static_text

ATTACK = {"attackers": "a-inf", "target": "b-inf"}


def recorder(seat: RemoteSession) -> list[str]:
    """Every message *seat* receives, as text."""
    got: list[str] = []
    handle = seat.handle

    def listen(message: dict[str, Any]) -> None:
        got.append(json.dumps(message))
        handle(message)

    seat.handle = listen  # type: ignore[method-assign]
    return got


def test_the_gm_rules_and_the_sides_action_is_done_everywhere(table: ThreadTable) -> None:
    gm, a = to_attacks(table)
    news: list[dict[str, Any]] = []
    a.ruled.append(news.append)
    with pytest.raises(ActionRejected, match="Waiting for the GM's ruling"):
        a.perform("declare", ATTACK, preview=True, hold_rolls=True)
    assert a.wait_for(lambda: bool(a.table.get("awaiting")))
    assert "Waiting for the GM's ruling on your Declare an attack" in a.status().prompt
    assert gm.wait_for(lambda: bool(gm.table.get("questions")))
    q = gm.table["questions"][0]
    assert q["who"] == "Army A" and q["decision"]["id"] == "adj:b-inf"
    assert "Army A asks the GM's ruling for Declare an attack" in gm.status().prompt
    n = table.run(lambda: len(table.server.engine.history))
    result = gm.rule(q["id"], {"adj:b-inf": "yes"})
    assert result["done"] is True
    assert table.run(lambda: len(table.server.engine.history)) == n + 1
    entry = table.run(lambda: table.server.engine.history.get(n + 1))
    assert entry.by == "A" and entry.kind == "declare"      # the side's action, as ruled
    for seat in (gm, a):
        assert seat.wait_for(lambda s=seat: s.engine.state.vars.get("attacks") ==
                             [{"attackers": ["a-inf"], "target": "b-inf"}])
    assert a.wait_for(lambda: bool(news) and not a.table.get("awaiting"))
    assert news[0]["done"] is True and news[0]["action"] == "declare"
    assert a.engine.history.get(news[0]["seq"]).kind == "declare"
    assert gm.wait_for(lambda: not gm.table.get("questions"))


def test_refused_as_ruled_the_side_is_told_and_nothing_is_done(table: ThreadTable) -> None:
    gm, a = to_attacks(table)
    news: list[dict[str, Any]] = []
    a.ruled.append(news.append)
    with pytest.raises(ActionRejected, match="Waiting for the GM's ruling"):
        a.perform("declare", ATTACK)
    assert gm.wait_for(lambda: bool(gm.table.get("questions")))
    q = gm.table["questions"][0]
    with pytest.raises(CampaignError, match="yes or no"):
        gm.rule(q["id"], {"adj:b-inf": "perhaps"})          # a bad answer: asked again
    assert gm.rule(q["id"], {"adj:b-inf": "no"})["refused"]
    assert a.wait_for(lambda: bool(news))
    assert "not adjacent" in news[0]["refused"]
    assert table.run(lambda: table.server.engine.state.vars.get("attacks")) in (None, [])
    assert gm.wait_for(lambda: not gm.table.get("questions"))
    with pytest.raises(ActionRejected, match="no longer open"):
        gm.rule(q["id"], {"adj:b-inf": "yes"})


def test_only_the_gm_rules_and_a_side_never_sees_the_hidden_question(
        table: ThreadTable) -> None:
    gm, a = to_attacks(table)
    b = table.seat("bob", "B")
    seen_a, seen_b = recorder(a), recorder(b)
    hidden = {"attackers": "a-inf", "target": "b-tank"}       # B's tank: hidden from A
    with pytest.raises(ActionRejected, match="Waiting for the GM's ruling") as refused:
        a.perform("declare", hidden)
    assert "b-tank" not in str(refused.value)
    assert gm.wait_for(lambda: bool(gm.table.get("questions")))
    q = gm.table["questions"][0]
    assert "b-tank" in q["prompt"]                           # the GM sees the question whole
    with pytest.raises(ActionRejected, match="only the GM"):
        a.rule(q["id"], {"adj:b-tank": "yes"})
    a.link.send({"t": "perform", "id": 77, "kind": "declare", "params": hidden,
                 "answers": {"adj:b-tank": True}})          # its own answer is not taken
    assert a.wait_for(lambda: any('"id": 77' in m for m in seen_a))
    assert table.run(lambda: table.server.engine.state.vars.get("attacks")) in (None, [])
    # while it waited: told so, and never shown the hidden unit the question names
    assert any("awaiting" in m for m in seen_a)
    assert not any("b-tank" in m for m in seen_a)
    gm.rule(q["id"], {"adj:b-tank": "yes"})
    assert a.wait_for(lambda: bool(a.engine.state.vars.get("attacks")))
    assert b.wait_for(lambda: bool(b.engine.state.vars.get("attacks")))
    assert a.wait_for(lambda: any('"t": "ruled"' in m for m in seen_a))
    ruled = [m for m in seen_a if '"t": "ruled"' in m]
    assert ruled and "b-tank" not in ruled[0]
    assert not any("questions" in m and "asks the GM" in m for m in seen_a + seen_b)


def test_a_ruling_the_side_must_finish_is_kept_for_it(table: ThreadTable,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """When the ruled action then needs a decision of the side's own, the side is told to
    do it again, and its next try takes the GM's ruling without asking again."""
    from campaign_tui.core.decisions import Decision
    from campaign_tui.core.errors import NeedDecision

    gm, a = to_attacks(table)
    news: list[dict[str, Any]] = []
    a.ruled.append(news.append)
    engine = table.server.engine
    perform = engine.perform

    def also_asks_the_side(kind: str, params: Any, answers: Any = None, **kw: Any) -> Any:
        answers = answers or {}
        if kind == "declare" and answers.get("adj:b-inf") is not None and \
                answers.get("which") is None:
            raise NeedDecision(Decision("which", "choice", "Which first?", side="A",
                                        options=()), [])
        return perform(kind, params, answers, **kw)

    monkeypatch.setattr(engine, "perform", also_asks_the_side)
    with pytest.raises(ActionRejected, match="Waiting for the GM's ruling"):
        a.perform("declare", ATTACK)
    assert gm.wait_for(lambda: bool(gm.table.get("questions")))
    result = gm.rule(gm.table["questions"][0]["id"], {"adj:b-inf": "yes"})
    assert result == {"done": False, "side_again": True}
    assert a.wait_for(lambda: bool(news) and a.table["awaiting"][0]["side_again"])
    assert "do it again to finish it" in a.status().prompt
    assert gm.wait_for(lambda: not gm.table.get("questions"))   # nothing left for the GM
    a.perform("declare", ATTACK, {"which": "a-inf"})          # the ruling is taken
    assert a.wait_for(lambda: bool(a.engine.state.vars.get("attacks")) and
                      not a.table.get("awaiting"))


async def test_the_gm_answers_from_the_palette(table: ThreadTable) -> None:
    from textual.widgets import Static

    from campaign_tui.ui.screens.dialogs import ChoiceDialog

    _gm, a = to_attacks(table)
    gm_app = seat_app(table, "gm", None)
    async with gm_app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        with pytest.raises(ActionRejected, match="Waiting for the GM's ruling"):
            a.perform("declare", ATTACK, preview=True, hold_rolls=True)
        assert await settle(pilot, lambda: any(
            n.title == "A question for the GM" for n in gm_app._notifications))
        assert "Army A asks the GM's ruling" in screen_text(gm_app)
        answer = [cb for t, _h, cb in gm_app.table_commands()
                  if t == "Table: answer Army A's question"]
        assert len(answer) == 1
        answer[0]()
        assert await settle(pilot, lambda: isinstance(gm_app.screen, ChoiceDialog)
                            and bool(gm_app.screen.query(Static)))
        assert "a-inf adjacent to b-inf" in " ".join(
            str(w.render()) for w in gm_app.screen.query(Static))
        await pilot.press("enter")                         # "Yes", the first
        assert await settle(pilot, lambda: bool(gm_app.remote.engine.state.vars.get(
            "attacks")) and "asks the GM's ruling" not in screen_text(gm_app))
        assert any("Army A's Declare an attack is done" in n.message
                   for n in gm_app._notifications)
    assert a.wait_for(lambda: bool(a.engine.state.vars.get("attacks")))


async def test_the_sides_screen_waits_then_follows_the_ruling(table: ThreadTable) -> None:
    from campaign_tui.ui.screens.resolve import ResolveDialog

    gm, _a = to_attacks(table)
    side_app = seat_app(table, "alice", "A")
    async with side_app.run_test(size=(140, 44)) as pilot:
        await pilot.pause()
        side_app.main_screen.open_action("declare", "Declare an attack",   # type: ignore[union-attr]
                                         side_app.remote.engine.action_def("declare").params,
                                         prefill=ATTACK)
        assert await settle(pilot, lambda: isinstance(side_app.screen, ResolveDialog)
                            and bool(side_app.screen.query("#btn-apply")))
        await pilot.pause()
        side_app.screen.action_roll()                      # computes: the ruling is the GM's
        assert await settle(pilot, lambda: "Waiting for the GM's ruling" in
                            static_text(side_app, "#resolve-error"))
        assert gm.wait_for(lambda: bool(gm.table.get("questions")))
        gm.rule(gm.table["questions"][0]["id"], {"adj:b-inf": "yes"})
        assert await settle(pilot, lambda: not isinstance(side_app.screen, ResolveDialog))
        assert await settle(pilot, lambda: "Waiting for the GM's ruling" not in
                            screen_text(side_app))
        assert side_app.remote.engine.state.vars.get("attacks")
        assert await settle(pilot, lambda: any("your Declare an attack is done" in n.message
                                               for n in side_app._notifications)), [
            n.message for n in side_app._notifications]
