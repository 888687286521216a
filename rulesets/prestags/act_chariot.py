"""Chariots in play: the Chariot Phase and chariot moves in the Movement Phase (Chariot exclusive
rules [1.0]-[1.9], digest 4.5, EXT-SCAN of the SPI Chariot folder).

A chariot moves in the Chariot Phase, before the Fire Combat Phase, and again in the Movement
Phase, on one Movement Allowance for both [1.2], [1.4]. Units that begin the phase next to it
are first put in its hex, without spending Movement Points, and ride with it; at the end of the
move they may get down into any adjacent hex free of enemy units [1.0] - in the same phase they
got on. A unit that rode in the Movement Phase has made its move [1.0]; one that got down at the
end of the Chariot Phase may still move, fire and melee [1.3]. A chariot stops next to an enemy
fire unit for that phase only [1.5], and for the whole Player-Turn on entering a stream hex
[1.5]. At the end of each phase a chariot holds only its riders and leaders [1.9].
"""

from __future__ import annotations

from fractions import Fraction

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from rulesets.prestags import candidates as C
from rulesets.prestags import carriers, exclusive, hexmap, movement
from rulesets.prestags.common import Info, fstore, ftext, info, units_at

MOVED = {"CHARIOT": "chariot_moved", "MOVE": "moved"}


def chariot_ma(ctx: Ctx, ch: Info) -> Fraction:
    """What is left of the chariot's one MA this Player-Turn [C1.4]: the printed (or scenario)
    MA in the Chariot Phase, this Movement Phase's MA in the Movement Phase, less what it has
    spent already."""
    base = ch.ma if ctx.state.step == "CHARIOT" else movement.ma_now(ctx.state, ch.id)
    return max(Fraction(0), base - carriers.chariot_mp_used(ctx.state, ch.id))


def _chariot(ctx: Ctx, uid: str, side: str) -> Info:
    u = ctx.state.unit(uid)
    ch = info(ctx.state, ctx.ruleset, u)
    if u.side != side or u.type != carriers.CHARIOT:
        raise ActionRejected(f"{u.label} is not a chariot of the phasing player")
    if not exclusive.in_game(ctx.state, "C"):
        raise ActionRejected("chariots carry units only in the Chariot game with its exclusive rules on")
    if not ch.active or ch.hex is None:
        raise ActionRejected(f"{u.label} is not on the map")
    if u.status.get("disrupted"):
        raise ActionRejected(f"{u.label} is disrupted and may not move [8.2], [C1.7]")
    if carriers.chariot_stopped(ctx.state, uid):
        raise ActionRejected(f"{u.label} entered a stream hex: it moves no more this Player-Turn [C1.5]")
    if uid in ctx.var(MOVED.get(ctx.state.step, "moved"), []):
        raise ActionRejected(f"{u.label} has already moved this phase [5.14]")
    return ch


def _embark(ctx: Ctx, ch: Info, ids: list[str]) -> list[str]:
    """Put the named units, next to the chariot at the start of the phase, in its hex [C1.0]."""
    moved = set(ctx.var(MOVED.get(ctx.state.step, "moved"), []))
    riders = carriers.aboard(ctx.state, ch.id)
    codes = [u.type for u in riders]
    out = []
    for uid in dict.fromkeys(ids):
        u = ctx.state.unit(uid)
        if u.side != ch.side:
            raise ActionRejected(f"{u.label}: units embark only on friendly chariots [C1.6]")
        if carriers.carrier_of(ctx.state, u) is not None:
            raise ActionRejected(f"{u.label} is aboard already")
        i = info(ctx.state, ctx.ruleset, u)
        if not i.active or i.hex is None:
            raise ActionRejected(f"{u.label} is not on the map")
        if u.status.get("disrupted") or u.status.get("panicked"):
            raise ActionRejected(f"{u.label} is disrupted or panicked and may not move [8.2], [13.0]")
        if uid in moved:
            raise ActionRejected(
                f"{u.label} has already moved this phase: it had to begin it next to the chariot [C1.0]"
            )
        if i.hex != ch.hex and not hexmap.adjacent(ctx, i.hex, str(ch.hex), f"{u.label} boarding {ch.label}"):
            raise ActionRejected(f"{u.label} in {i.hex} is not next to {ch.label} in {ch.hex} [C1.0]")
        codes.append(u.type)
        out.append(uid)
    why = carriers.passenger_problem(carriers.CHARIOT, codes)
    if why:
        raise ActionRejected(why)
    for uid in out:
        movement.place(ctx, uid, ch.hex)
        ctx.unit(uid).status["aboard"] = ch.id
    return out


def _debark(ctx: Ctx, ch: Info, ids: list[str], where: str) -> list[str]:
    """Riders get down into one adjacent hex free of enemy units [C1.0]."""
    if not ids:
        return []
    riders = {u.id for u in carriers.aboard(ctx.state, ch.id)}
    here = str(ctx.state.unit(ch.id).location)[4:]
    if not where:
        raise ActionRejected("name the hex the riders get down into (debark_to) [C1.0]")
    h = hexmap.canon(ctx.state, where)
    if not hexmap.adjacent(ctx, here, h, f"{ch.label} unloading"):
        raise ActionRejected(f"{h} is not next to {ch.label} in {here} [C1.0]")
    if any(u.side != ch.side for u in units_at(ctx.state, h)):
        raise ActionRejected(f"{h} holds enemy units: riders get down only into a hex free of them [C1.0]")
    for uid in ids:
        if uid not in riders:
            raise ActionRejected(f"{ctx.state.unit(uid).label} is not aboard {ch.label}")
        movement.place(ctx, uid, h)
        ctx.unit(uid).status["aboard"] = None
    movement.mark_control(ctx, [h], passing=ch.side)
    return list(ids)


def drive(ctx: Ctx, ch: Info, path: list[str]) -> tuple[list[str], Fraction, Fraction]:
    """Move a chariot and its riders along *path* on what is left of its MA [C1.4]; a stream
    hex ends its moves for the Player-Turn [C1.5]. Returns hexes entered, MP spent, MA left
    before the move."""
    ma = chariot_ma(ctx, ch)
    if not path:
        return [], Fraction(0), ma
    if ma <= 0:
        raise ActionRejected(f"{ch.label} has spent its whole MA this Player-Turn [C1.4]")
    p = movement.parse_path(path)
    if p.enter_edge:
        raise ActionRejected("a chariot on the map cannot enter from an edge")
    p.start = ch.hex
    key = f"{ch.id}:{ctx.state.step}:{ctx.clock.get('pt', 0)}"
    planned = movement.plan(ctx, [ch], p, key, ma=ma)
    for line in planned.lines:
        ctx.explain(line)
    final = planned.hexes[-1] if planned.hexes else ch.hex
    riders = carriers.aboard(ctx.state, ch.id)
    for u in [ctx.state.unit(ch.id), *riders]:
        movement.place(ctx, u.id, final)
    used = dict(ctx.var("chariot_mp", {}) or {})
    used[ch.id] = fstore(carriers.chariot_mp_used(ctx.state, ch.id) + min(planned.spent, ma))
    ctx.set_var("chariot_mp", used)
    if planned.hexes and hexmap.terrain(ctx, planned.hexes[-1], "movement") == "stream":
        ctx.edit_var("chariot_stopped", []).append(ch.id)
        ctx.explain(f"{ch.label} entered a stream hex: it moves no more this Player-Turn [C1.5]")
    entered = ctx.edit_var("entered", [])
    entered.extend(h for h in planned.hexes if h not in entered)
    movement.mark_control(ctx, planned.hexes, passing=ch.side)  # [11.3]
    return planned.hexes, planned.spent, ma


@action(
    "chariot_move",
    "Move a chariot with riders",
    Param("chariot", "unit", help="the chariot (CH)", candidates=C.own_chariots),
    Param("path", "list", required=False, default=[], help="hexes entered in order (empty: stay)"),
    Param(
        "embark",
        "units",
        required=False,
        default=[],
        help="units next to the chariot that get on first: one BW, IB or SK, leaders free",
    ),
    Param("debark", "units", required=False, default=[], help="riders that get down at the end"),
    Param("debark_to", "str", required=False, default="", help="the adjacent hex they get down into"),
    side="phasing",
    key="c",
    reference="Chariot [1.0]-[1.9]",
)
def chariot_move(
    ctx: Ctx, chariot: str, path: list[str], embark: list[str], debark: list[str], debark_to: str
) -> None:
    """Chariot [1.0]-[1.9]: units next to the chariot get on (free), the chariot moves on what
    is left of its one MA for both its phases, riders get down into an adjacent hex free of
    enemy units. A unit that rode in the Movement Phase has made its move."""
    run(ctx, chariot, path, embark, debark, debark_to)


def run(
    ctx: Ctx, chariot: str, path: list[str], embark: list[str], debark: list[str], debark_to: str
) -> None:
    """One chariot move (``chariot_move``, or ``move`` naming a chariot)."""
    side = ctx.role("phasing")
    ch = _chariot(ctx, chariot, side)
    on = _embark(ctx, ch, embark)
    hexes, spent, ma = drive(ctx, ch, path)
    riders = [u.id for u in carriers.aboard(ctx.state, ch.id)]
    off = _debark(ctx, ch, debark, debark_to)
    moved = ctx.edit_var(MOVED.get(ctx.state.step, "moved"), [])
    moved.append(ch.id)
    # a rider has made this phase's move: in the Movement Phase it forfeits its own [C1.0]; in
    # the Chariot Phase it may not ride a second chariot (it moves again in the Movement Phase)
    moved.extend(riders)
    parts = [f"{ch.label}"]
    if on:
        parts.append("takes on " + ", ".join(ctx.state.unit(u).label for u in on))
    parts.append(f"moves to {hexes[-1]}" if hexes else "stays")
    parts.append(f"({ftext(spent)} MP of the {ftext(ma)} left of its MA)")
    if off:
        parts.append("; " + ", ".join(ctx.state.unit(u).label for u in off) + f" get down in {debark_to}")
    ctx.summary(" ".join(parts))
