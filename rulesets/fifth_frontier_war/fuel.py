"""Refuelling (digest 5.14, 5.15, T10, T11): which fuel sources a side may use at a place and
the end-of-movement resolution of who is fueled.

Sources: a gas giant (always usable, red zones included); an ocean, a starport (types A-D)
or a base only on a world the side controls, and for the Imperial player not at an
interdicted world that is still closed (5.23); a reinforcement box counts as a base; a
tanker in the hex. T10 gives the phases needed by refuelling code; a starport refuels its
T11 number of squadrons in zero time per turn and the rest in one full phase.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import is_box

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import Unit


def refuel_time(g: Game, source: str, code: str) -> int:
    return int(g.tables.get("T10").lookup(source=source, code=code).value)


def starport_info(g: Game, port: str) -> tuple[int, bool]:
    """(zero-time squadrons per turn, fuel available at all) for a starport type (T11)."""
    table = g.tables.get("T11")
    return int(table.lookup(starport=port, item="zero_time").value), bool(
        table.lookup(starport=port, item="fuel").value
    )


def sources(g: Game, place: str, side: str) -> dict[str, object]:
    """The fuel sources *side* may use at *place*."""
    if is_box(place):
        return {"base": True, "box": True}
    w = g.world(place)
    if not w:
        return {}
    friendly = w.get("controller") == side
    closed = g.red_closed(place, side)
    out: dict[str, object] = {}
    if w.get("gas_giant"):
        out["gas_giant"] = True
    if w.get("water") and friendly and not closed:
        out["ocean"] = True
    slots, fuel = starport_info(g, str(w.get("starport", "X")))
    if fuel and friendly and not closed:
        out["starport"] = slots
    if friendly and (w.get("naval_base") or w.get("scout_base") or w.get("military_base")):
        out["base"] = True
    return out


def zero_time_source(g: Game, place: str, side: str, code: str) -> str | None:
    """A non-starport source that refuels this code in zero time, if any."""
    src = sources(g, place, side)
    for name in ("base", "gas_giant", "ocean"):
        if src.get(name) and refuel_time(g, name, code) == 0:
            return "reinforcement box (a base)" if src.get("box") else name.replace("_", " ")
    return None


def any_source(g: Game, place: str, side: str) -> bool:
    src = sources(g, place, side)
    return any(src.get(k) for k in ("base", "gas_giant", "ocean")) or "starport" in src


def possible_zero_time(g: Game, place: str, code: str) -> bool:
    """Plot validation: a zero-time source that may exist whoever controls the world then."""
    if is_box(place):
        return True
    w = g.world(place)
    if not w:
        return False
    if w.get("gas_giant") and refuel_time(g, "gas_giant", code) == 0:
        return True
    if w.get("water") and refuel_time(g, "ocean", code) == 0:
        return True
    if w.get("naval_base") or w.get("scout_base") or w.get("military_base"):
        return True
    return starport_info(g, str(w.get("starport", "X")))[0] > 0


def possible_source(g: Game, place: str) -> bool:
    if is_box(place):
        return True
    w = g.world(place)
    if not w:
        return False
    return bool(
        w.get("gas_giant")
        or w.get("water")
        or w.get("naval_base")
        or w.get("scout_base")
        or w.get("military_base")
        or starport_info(g, str(w.get("starport", "X")))[1]
    )


def tanker_choice_problem(g: Game, tanker: str, target: str) -> str | None:
    """Why *tanker* may not refuel the tanker *target* this turn (5.15), or None."""
    t, x = g.state.units[tanker], g.state.units[target]
    if t.status.get("tanker_spent"):
        return (
            f"{g.label(t)} has used its capacity: it refuels nobody, itself included, until it has "
            "been refuelled at a non-tanker source"
        )
    if target != tanker and (x.side != t.side or g.place_of(x) != g.place_of(t)):
        return f"{g.label(x)} is not a friendly tanker in the same hex as {g.label(t)}"
    if not x.status.get("needs_fuel"):
        return f"{g.label(x)} is fueled already"
    return None


def resolve(ctx: Ctx) -> list[str]:
    """End of the movement phase: decide who is fueled now (5.14), tankers included (5.15)."""
    g = Game.of(ctx)
    turn = g.turn
    reserved = set(ctx.var("reserved_tankers", []))
    chosen: dict[str, str] = dict(ctx.var("tanker_choices") or {})
    lines: list[str] = []
    groups: dict[tuple[str, str], list[Unit]] = {}
    for s in g.squadrons():
        place = g.place_of(s)
        if place:
            groups.setdefault((place, s.side), []).append(s)

    def fuel(s: Unit, how: str, by_tanker: bool = False) -> None:
        u = ctx.unit(s.id)
        u.status["needs_fuel"] = False
        if not by_tanker and g.face(s).type == "T" and u.status.get("tanker_spent"):
            u.status["tanker_spent"] = False
            lines.append(f"{g.label(s)} refuels at a non-tanker source: it may fuel others again")
        lines.append(f"{g.label(s)} fueled ({how})")

    for (place, side), ships in sorted(groups.items()):
        src = sources(g, place, side)
        waiting: list[Unit] = []
        for s in sorted(ships, key=lambda x: x.id):
            face = g.face(s)
            jumped = int(s.status.get("jumped_turn", 0)) == turn
            if not s.status.get("needs_fuel"):
                if face.type == "T" and s.status.get("tanker_spent"):
                    zero = zero_time_source(g, place, side, face.refuel)
                    if zero or (not jumped and any_source(g, place, side)):
                        ctx.unit(s.id).status["tanker_spent"] = False
                        lines.append(f"{g.label(s)} takes on fuel at {place}: it may fuel others again")
                continue
            zero = zero_time_source(g, place, side, face.refuel)
            if zero:
                fuel(s, f"{zero}, zero time")
            elif not jumped and any_source(g, place, side):
                fuel(s, "a full movement phase at a fuel source")
            else:
                waiting.append(s)
        slots = int(src.get("starport", 0) or 0) if "starport" in src else 0
        for s in list(waiting):
            if slots <= 0:
                break
            fuel(s, "starport, zero time")
            slots -= 1
            waiting.remove(s)
        for tk in [t for t in sorted(ships, key=lambda x: x.id) if t.id in chosen]:
            # 5.15: the owner chose to have this tanker refuel itself or another tanker
            match = [x for x in waiting if x.id == chosen[tk.id]]
            own = chosen[tk.id] == tk.id
            if not match:
                lines.append(
                    f"tanker {g.label(tk)}: {'it' if own else 'the tanker it was to refuel'} needs no "
                    "tanker fuel now; it stays free to refuel others"
                )
                del chosen[tk.id]
                continue
            target = match[0]
            whom = "its own tanks" if own else f"tanker {g.label(tk)}"
            fuel(target, f"{whom}, the tanker's whole capacity", by_tanker=True)
            waiting.remove(target)
            ctx.unit(tk.id).status["tanker_spent"] = True
            lines.append(
                f"tanker {g.label(tk)} used its whole capacity on "
                f"{'itself' if own else g.label(target)}; it must refuel at a non-tanker source "
                "before fuelling others again"
            )
        tankers = [
            t
            for t in sorted(ships, key=lambda x: x.id)
            if g.face(t).type == "T"
            and not ctx.state.units[t.id].status.get("tanker_spent")
            and t.id not in reserved
            and t.id not in chosen
        ]
        for tk in tankers:
            cap = g.face(tk).defense
            given = 0
            for s in [x for x in waiting if g.face(x).type != "T"]:
                if given >= cap:
                    break
                fuel(s, f"tanker {g.label(tk)}", by_tanker=True)
                waiting.remove(s)
                given += 1
            if given:
                ctx.unit(tk.id).status["tanker_spent"] = True
                lines.append(
                    f"tanker {g.label(tk)} used ({given} of {cap}); it must refuel at a non-tanker "
                    "source before fuelling others again"
                )
        for tk in [t for t in waiting if g.face(t).type == "T"]:
            donors = [t for t in tankers if not ctx.state.units[t.id].status.get("tanker_spent")]
            if donors:
                donor = donors[0]
                fuel(tk, f"tanker {g.label(donor)}, its whole capacity", by_tanker=True)
                waiting.remove(tk)
                ctx.unit(donor.id).status["tanker_spent"] = True
        for s in waiting:
            need = (
                "one full movement phase"
                if any_source(g, place, side)
                else "a fuel source (none usable here)"
            )
            lines.append(f"{g.label(s)} at {place} is not fueled: it needs {need}")
    for f in g.fleets():
        dry = [g.label(s) for s in g.fleet_ships(f.id) if ctx.state.units[s.id].status.get("needs_fuel")]
        if dry:
            lines.append(f"WARNING: {f.name} cannot jump next turn ({', '.join(dry)} not fueled)")
    return lines
