"""Fifth Frontier War marks its combat rounds (space combat, SDB combat), so the resolve
dialog can play them a round at a time; a held round's dice are those a real run uses."""

from __future__ import annotations

from typing import Any

import pytest

from campaign_tui.core.errors import NeedDecision
from campaign_tui.core.rounds import heading, heading_label

from .helpers import clear_map, fleet, new_engine, world
from .test_flows import to_combat


def headings(entry: Any) -> list[str]:
    return [label for line in entry.lines if (label := heading_label(line))]


def test_a_space_combat_round_is_marked_with_its_world() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1409", ["zho-cr-01", "zho-cr-02"])
    fleet(e, "imp-18th", "imperial", "1409", ["imp-bb-10", "imp-bb-11"])
    world(e, "1409")["sdb"] = 0
    goto_last = e.entries()[-1].seq
    to_combat(e)
    marked = [h for x in e.entries() if x.seq > goto_last for h in headings(x)]
    assert marked == [f"Space combat round 1 at 1409 ({world(e, '1409')['name']})"]


def test_an_sdb_round_is_marked_and_released_as_a_whole() -> None:
    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1510", ["zho-bb-01", "zho-bb-02", "zho-bb-03", "zho-bb-04"])
    to_combat(e)
    e.perform("sdb_attack", {"attack": True}, by="zhodani")
    e.advance()
    e.perform("sdb_mode", {"mode": "active"}, by="imperial")
    with pytest.raises(NeedDecision) as exc:
        e.perform("advance", preview=True, hold_rolls=True)
    d = exc.value.decision
    label = f"SDB combat round 1 at {world(e, '1510')['name']}"
    assert (d.round, d.round_label) == ("round:1", label) and heading(label) in exc.value.preview
    held = e.perform("advance", answers={"round:1": "auto"}, preview=True, hold_rolls=True)
    out = e.advance()
    assert [r.dice for r in out.entry.rolls] == [r.dice for r in held.entry.rolls]
    assert headings(out.entry) == [label]
