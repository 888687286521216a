"""The secret books worded for the table: a plot ledger's orders ("68th Fleet: turn 3 order
written: jump to Emerald (1410)") and the Zhodani secret base, instead of their stored fields.

Only called with changes the viewer may see (the program leaves out other sides' secrets)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.fifth_frontier_war.combat import SIDE_NAMES
from rulesets.fifth_frontier_war.hexes import BOX, is_box

if TYPE_CHECKING:
    from campaign_tui.core.changes import Change
    from campaign_tui.core.model import State


def place_name(view: State, place: str, boxes: dict[str, Any]) -> str:
    """A hex with its world's name ("Emerald (1410)"), or an off-map box by its name."""
    if is_box(place):
        box = boxes.get(place[len(BOX):]) or {}
        return str(box.get("name") or place)
    w = view.records("worlds").get(place)
    return f"{w['name']} ({place})" if w and w.get("name") else f"hex {place}"


def _order(view: State, order: dict[str, Any], boxes: dict[str, Any]) -> str:
    where = place_name(view, str(order.get("hex", "")), boxes)
    text = f"jump to {where}" if order.get("order") == "J" else f"refuel or hold at {where}"
    detach = [view.units[s].label if s in view.units else s for s in order.get("detach", [])]
    return text + (f", then detach {', '.join(detach)} at 4A" if detach else "")


def _plot_lines(view: State, before: dict[str, Any], after: dict[str, Any],
                boxes: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for fid in dict.fromkeys([*before, *after]):
        f = view.formations.get(fid)
        fleet = f.name if f is not None and f.name else fid
        b, a = before.get(fid) or {}, after.get(fid) or {}
        for turn in sorted(dict.fromkeys([*b, *a]), key=int):
            ob, oa = b.get(turn), a.get(turn)
            if ob == oa:
                continue
            if ob is None:
                lines.append(f"{fleet}: turn {turn} order written: {_order(view, oa, boxes)}")
            elif oa is None:
                lines.append(f"{fleet}: turn {turn} order erased (was {_order(view, ob, boxes)})")
            else:
                lines.append(f"{fleet}: turn {turn} order now {_order(view, oa, boxes)} "
                             f"(was {_order(view, ob, boxes)})")
    return lines


def describe_change(view: State, ch: Change, boxes: dict[str, Any]) -> list[str] | None:
    """A side's secret book worded; None for anything else (the program words it)."""
    if ch.coll != "secrets":
        return None
    before, after = ch.before or {}, ch.after or {}
    side = SIDE_NAMES.get(ch.key, ch.key)
    lines: list[str] = []
    for key in dict.fromkeys([*before, *after]):
        b, a = before.get(key), after.get(key)
        if b == a:
            continue
        if key == "plots":
            lines += _plot_lines(view, b or {}, a or {}, boxes)
        elif key == "secret_base":
            lines.append(f"{side} secret base: {place_name(view, str(a), boxes)}" if a
                         else f"{side} secret base no longer set")
        else:
            return None
    return lines
