"""Panic (optional rule [13.0]-[13.22]).

The check runs the instant victory points are scored, even in the middle of a phase
[13.11]: an army whose losses (the enemy's score) reach its Panic Level panics at once.
It happens at most once a game, to one army; the other can never panic then [13.13],
[13.21]. Units stacked with a friendly leader, or next to a grade 1 or 2 leader, keep
their heads (table panic_leaders, 4.12); leaders themselves never panic (G-16). Panicked
units cannot attack, defend at half in melee, are eliminated by a disruption and must flee
in their Movement Phase; they rally at the end of a friendly Movement Phase when a leader
is near enough [13.22].
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from rulesets.prestags import hexmap
from rulesets.prestags.common import SIDES, info, other, side_data, units_at, units_of, vp_scored


def panic_level(state: Any, side: str) -> int | None:
    pl = side_data(state, side).get("panic_level")
    return None if pl in (None, "") else int(pl)


def _leader_says(ctx: Ctx, grade: int, where: str) -> bool:
    cell = ctx.tables.get("panic_leaders").lookup(grade=str(grade), where=where).cell
    return str(cell).lower() == "yes"


def protected(ctx: Ctx, uid: str) -> bool:
    """Stacked with a friendly leader, or adjacent to one of a grade that protects there."""
    u = info(ctx.state, ctx.ruleset, uid)
    if u.hex is None:
        return False
    leaders = [info(ctx.state, ctx.ruleset, x) for x in units_of(ctx.state, u.side)]
    leaders = sorted(
        (ldr for ldr in leaders if ldr.is_leader and ldr.hex and 1 <= ldr.grade <= 6), key=lambda x: x.id
    )
    for ldr in leaders:
        if ldr.hex == u.hex and _leader_says(ctx, ldr.grade, "stacked"):
            return True
    for ldr in leaders:
        if (
            ldr.hex != u.hex
            and _leader_says(ctx, ldr.grade, "adjacent")
            and hexmap.adjacent(
                ctx, u.hex, str(ldr.hex), f"is {u.label} next to leader {ldr.label}? (panic [13.0])"
            )
        ):
            return True
    return False


def check(ctx: Ctx, defender: str | None) -> str | None:
    """Run the panic check; returns the side that panicked now, if any.

    *defender*: the defending side of the action that scored, for an exact tie [13.12];
    None when losses landed on both sides at once (simultaneous game).
    """
    if not ctx.options.get("panic") or ctx.var("panic"):
        return None
    reached = []
    for side in SIDES:
        pl = panic_level(ctx.state, side)
        if pl is not None and pl > 0 and vp_scored(ctx.state, other(side)) >= pl:
            reached.append(side)
    if not reached:
        return None
    if len(reached) == 1:
        victim = reached[0]
    else:
        surplus = {s: vp_scored(ctx.state, other(s)) - (panic_level(ctx.state, s) or 0) for s in SIDES}
        if surplus["A"] != surplus["B"]:
            victim = max(SIDES, key=lambda s: surplus[s])
            ctx.explain(
                f"both armies pass their Panic Level; {victim} by more ({surplus[victim]} VP) panics [13.13]"
            )
        elif defender and ctx.options.get("panic_tie", "defender") == "defender":
            victim = defender
            ctx.explain(
                f"both armies reach their Panic Level together: the defender, {victim}, panics [13.12]"
            )
        else:
            victim = str(
                ctx.ruling(
                    "panic_tie",
                    "Both armies reach their Panic Level by the same "
                    "margin at once: which side was the defender in the action?",
                    answer_kind="choice",
                    options=SIDES,
                    info=("the defender panics [13.12], G-16",),
                )
            )
    return _panic(ctx, victim)


def _panic(ctx: Ctx, victim: str) -> str:
    ctx.side(victim).data["panic_state"] = "panicked"
    ctx.side(other(victim)).data["panic_state"] = "immune"
    ctx.set_var("panic", {"side": victim, "gt": ctx.clock.get("gt", 1), "pt": ctx.clock.get("pt", 0)})
    names = []
    kept = []
    for u in sorted(units_of(ctx.state, victim), key=lambda x: x.id):
        i = info(ctx.state, ctx.ruleset, u)
        if i.is_leader or i.hex is None:
            continue
        if protected(ctx, u.id):
            kept.append(i.label)
            continue
        ctx.unit(u.id).status["panicked"] = True
        names.append(i.label)
    name = ctx.state.sides[victim].name
    ctx.explain(
        f"PANIC: {name}'s losses reach its Panic Level ({vp_scored(ctx.state, other(victim))} "
        f">= {panic_level(ctx.state, victim)}) [13.11]"
    )
    ctx.explain(f"panicked: {', '.join(names) or 'none'}; held by their leaders: {', '.join(kept) or 'none'}")
    ctx.explain(f"{ctx.state.sides[other(victim)].name} can no longer panic [13.13]")
    return victim


def darius_check(ctx: Ctx, hexes: list[str], passing: str | None = None, ask: bool = False) -> None:
    """Spartan [3.22] (EXT-OCR): an enemy unit next to Darius panics his army at once (with
    the Panic rule on and no panic yet). Run after every change of position: *hexes* were
    entered, *passing* is the side that moved through them. Only adjacency the program knows
    (a hex grid, or earlier rulings) counts, unless *ask* (the GM's panic_check) lets it ask."""
    from rulesets.prestags import exclusive

    darius = ctx.state.units.get(str(exclusive.rules(ctx.state).get("darius", "")))
    if (
        darius is None
        or not ctx.options.get("panic")
        or ctx.var("panic")
        or darius.status.get("state", "active") != "active"
        or not darius.location
    ):
        return
    home = str(darius.location)[4:]
    enemy = other(darius.side)
    for h in dict.fromkeys(hexes):
        if h == home:
            near = [
                x.label
                for x in units_of(ctx.state, enemy)
                if x.location and _next_to(ctx, str(x.location)[4:], home, ask)
            ]
        elif passing == enemy or any(u.side == enemy for u in units_at(ctx.state, h)):
            near = [h] if _next_to(ctx, h, home, ask) else []
        else:
            near = []
        if near:
            ctx.explain(f"an enemy unit next to Darius ({', '.join(near)}): his army panics [S3.22]")
            _panic(ctx, darius.side)
            return


def _next_to(ctx: Ctx, h: str, home: str, ask: bool) -> bool:
    if ask:
        return hexmap.adjacent(ctx, h, home, f"is {h} next to Darius in {home}? [S3.22]")
    return hexmap.known_distance(ctx.state, h, home) == 1


def rally(ctx: Ctx, side: str) -> list[str]:
    """End of a friendly Movement Phase: panicked units near enough to a leader rally for
    the rest of the game [13.22]."""
    out = []
    for u in sorted(units_of(ctx.state, side), key=lambda x: x.id):
        if u.status.get("panicked") and protected(ctx, u.id):
            ctx.unit(u.id).status["panicked"] = False
            out.append(u.label)
    if out:
        ctx.explain(f"rallied [13.22]: {', '.join(out)}")
    return out
