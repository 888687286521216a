"""Map facts: what is known about each place of a campaign's map, and where it came from.

Facts live in the campaign state, record collection ``map``, one record per place (a hex id
or a graph node id)::

    [records.map."0507"]
    terrain = "woods"
    elevation = "hilltop"
    road = true
    area = 3
    name = "Mill"
    sources = { terrain = "ruling", elevation = "map file demo.toml", road = "gm" }

Fact names are free, but these are the common ones: ``terrain`` (a name, or a list when a hex
holds several), ``elevation``, ``road``, ``river``, ``area`` (a deployment area, planetary
area or start line), ``objective``, ``name`` (a town, a world), ``letter`` (a lettered hex:
``letter = "M"`` on the numbered hex; lookups by letter go through :func:`letter_hex`),
``pieces`` (the other hex ids of a split hex), ``owner``.

A fact the GM gives once (a ruling asked through :func:`ask`) is written here and never asked
again; the GM corrects any fact with the logged, undoable action ``gm.map_fact``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from campaign_tui.core.model import State

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx

COLLECTION = "map"
COMMON_FACTS = ("terrain", "elevation", "road", "river", "area", "objective", "name", "letter",
                "pieces", "owner")


def place_facts(state: State, place: str) -> dict[str, Any]:
    """Every fact known about *place* (without the sources); {} when nothing is known."""
    rec = state.records(COLLECTION).get(str(place))
    if not rec:
        return {}
    return {k: v for k, v in rec.items() if k != "sources"}


def fact(state: State, place: str, name: str, default: Any = None) -> Any:
    rec = state.records(COLLECTION).get(str(place))
    if not rec or name not in rec:
        return default
    return rec[name]


def source(state: State, place: str, name: str) -> str:
    rec = state.records(COLLECTION).get(str(place)) or {}
    return str(rec.get("sources", {}).get(name, ""))


def known_places(state: State) -> list[str]:
    return sorted(state.records(COLLECTION))


def letter_hex(state: State, letter: str) -> str | None:
    """The numbered hex that carries lettered reference hex *letter*, if known."""
    want = str(letter).strip().upper()
    for place, rec in state.records(COLLECTION).items():
        if str(rec.get("letter", "")).upper() == want:
            return place
    return None


def remember(ctx: Ctx, place: str, source: str = "gm", **facts: Any) -> dict[str, Any]:
    """Write facts about *place* (None removes a fact). Returns the place's record."""
    rec = dict(ctx.state.records(COLLECTION).get(str(place), {}))
    sources = dict(rec.get("sources", {}))
    for name, value in facts.items():
        if value is None:
            rec.pop(name, None)
            sources.pop(name, None)
        else:
            rec[name] = value
            sources[name] = source
    if sources:
        rec["sources"] = sources
    else:
        rec.pop("sources", None)
    if set(rec) <= {"sources"}:
        ctx.delete_record(COLLECTION, str(place))
        return {}
    return ctx.put_record(COLLECTION, str(place), rec)


def ask(ctx: Ctx, place: str, name: str, question: str, *, answer_kind: str = "choice",
        options: Sequence[str] = (), info: Sequence[str] = (),
        convert: Callable[[Any], Any] = lambda v: v) -> Any:
    """The fact *name* of *place*: known, or asked once as a GM ruling and remembered.

    Inside a secret action (a side's plot) the answer is not remembered, because the public
    map would hint at the plot; it is asked again when the plot is carried out."""
    known = fact(ctx.state, place, name)
    if known is not None:
        return known
    value = convert(ctx.ruling(f"map:{name}:{place}", question, answer_kind=answer_kind,
                               options=options, info=info))
    if ctx.visibility == "public":
        remember(ctx, place, "ruling", **{name: value})
    return value


def merge(state_facts: Mapping[str, Mapping[str, Any]], place: str,
          legacy: Mapping[str, Any]) -> dict[str, Any]:
    """A place's facts with *legacy* facts (a rule set's older store) filling the gaps."""
    out = dict(legacy)
    out.update({k: v for k, v in (state_facts.get(place) or {}).items() if k != "sources"})
    return out


def on_board(board: Any, state: State) -> dict[str, dict[str, Any]]:
    """Place -> facts: the rule set's board places with the campaign's map facts on top
    (pass a side's view as *state* for what that side may know)."""
    out = {p: dict(f) for p, f in board.places.items()}
    for place in known_places(state):
        out.setdefault(place, {}).update(place_facts(state, place))
    return out
