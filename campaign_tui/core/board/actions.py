"""The GM's map actions, in every campaign: correct one map fact, import a map file. Both
are ordinary logged, undoable actions."""

from __future__ import annotations

import json
from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.board import facts
from campaign_tui.core.context import Ctx


def _value(raw: Any) -> Any:
    if not isinstance(raw, str):
        return raw
    text = raw.strip()
    if text in ("", "none", "unknown"):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


@action("gm.map_fact", "Set or correct a map fact",
        Param("place", help="a hex (0507) or a place id"),
        Param("fact", help="terrain, elevation, road, river, area, objective, name, letter..."),
        Param("value", "json", required=False, default="",
              help="the value (text, number, true/false, a list); empty forgets the fact"),
        Param("reason", required=False, default=""), reference="map")
def map_fact(ctx: Ctx, place: str, fact: str, value: Any, reason: str) -> None:
    """Write one fact about a place of the map. The program uses it from now on instead of
    asking; an empty value forgets it (the program asks again when it needs it)."""
    where = ctx.ruleset.board(ctx.state).check_place(place, "place")
    old = facts.fact(ctx.state, where, fact)
    new = _value(value)
    facts.remember(ctx, where, "gm", **{fact: new})
    why = f" ({reason})" if reason else ""
    ctx.summary(f"GM: map {where} {fact} {old if old is not None else '?'} -> "
                f"{new if new is not None else '?'}{why}")


@action("gm.map_import", "Import a map file",
        Param("text", help="the map file's TOML text"),
        Param("name", required=False, default="map file", help="the file's name, for the log"),
        reference="map")
def map_import(ctx: Ctx, text: str, name: str) -> None:
    """Read a map file's facts into the campaign (a bad file changes nothing)."""
    from campaign_tui.core.board.mapfile import parse_map  # here: not needed to start

    mf = parse_map(text, name)
    options = ctx.state.options
    if "hex_grid" in options and mf.meta.get("numbering") and options["hex_grid"] != "gm":
        ctx.set_option("hex_grid", mf.meta["numbering"])
    if "map_width" in options and mf.meta.get("wrap"):
        ctx.set_option("map_width", mf.grid().width)
    board = ctx.ruleset.board(ctx.state)
    count = 0
    for place, values in mf.facts().items():
        where = board.check_place(place, f"{name}: place")
        facts.remember(ctx, where, f"map file {name}", **values)
        count += 1
    ctx.summary(f"map file {name} ({mf.title}): {count} place(s) imported")


MAP_ACTIONS = (map_fact, map_import)
