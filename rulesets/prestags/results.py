"""Applying combat results to the defending hexes (digest 4.7, 5.7).

Results affect defenders only [8.1]. Leaders make the difference between fire and melee:
fire never harms a leader and troops stacked with one ignore a fire D [10.31]; in melee a
D or 1/2E reduces each leader one grade instead of disrupting the troops [10.3], [10.32],
[10.33], and an E eliminates leaders too. A 1/2E eliminates half the troops, the majority
when odd, leaders not counted, the defender choosing [8.1]. A second disruption, or any
disruption of a panicked unit, eliminates it [8.22], [13.0]. Each elimination scores the
unit's victory points for the other side [11.2].
"""

from __future__ import annotations

import math
from dataclasses import field

from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.records import record
from rulesets.prestags import hexmap
from rulesets.prestags.common import Info, info, other, stamp, units_at, vp_value


@record
class Effects:
    eliminated: list[str] = field(default_factory=list)
    disrupted: list[str] = field(default_factory=list)
    reduced: list[str] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)
    nullified: bool = False  # a D cancelled by a leader or by slope immunity
    vacated: list[str] = field(default_factory=list)

    @property
    def hit(self) -> bool:
        """Someone was eliminated or disrupted (contact [18.1], [18.5])."""
        return bool(self.eliminated or self.disrupted)

    def merge(self, more: Effects) -> None:
        self.eliminated += more.eliminated
        self.disrupted += more.disrupted
        self.reduced += more.reduced
        self.ignored += more.ignored
        self.nullified = self.nullified or more.nullified
        self.vacated += [h for h in more.vacated if h not in self.vacated]


def unit_vp(ctx: Ctx, i: Info) -> int:
    from rulesets.prestags import exclusive

    if i.id == exclusive.rules(ctx.state).get("darius"):
        ctx.explain(f"{i.label} is Darius: worth 30 VP [S3.22]")
        return 30
    if i.is_leader:
        return int(ctx.options.get("leader_vp", 1))
    return vp_value(i.melee, i.kind, i.fire)


def eliminate(ctx: Ctx, uid: str, why: str, credit: bool = True) -> int:
    """Remove a unit from play as destroyed; the enemy scores its VP [11.2]."""
    i = info(ctx.state, ctx.ruleset, uid)
    u = ctx.unit(uid)
    u.status["state"] = "eliminated"
    u.status["disrupted"] = False
    u.status["panicked"] = False
    u.data = {**u.data, "lost_at": i.hex or "", "lost_stamp": stamp(ctx.state)}
    u.location = None
    vp = unit_vp(ctx, i) if credit else 0
    if vp:
        ctx.credit(other(i.side), "vp", vp, f"{i.label} destroyed")
    ctx.explain(f"{i.label} eliminated ({why})")
    return vp


def exit_unit(ctx: Ctx, uid: str, reason: str, edge: str = "") -> None:
    """Take a unit off the map [11.41]; a panicked unit's exit scores for the enemy [13.0]."""
    i = info(ctx.state, ctx.ruleset, uid)
    u = ctx.unit(uid)
    u.status["state"] = "exited"
    u.status["exit_reason"] = reason
    u.status["exit_edge"] = edge
    u.data = {**u.data, "exit_from": i.hex or "", "exit_stamp": stamp(ctx.state)}
    u.location = None
    destroyed = reason == "panic" or (reason == "concession" and ctx.options.get("concession_exit_vp"))
    if destroyed:
        ctx.credit(other(i.side), "vp", unit_vp(ctx, i), f"{i.label} left the map ({reason})")
    ctx.explain(f"{i.label} exits the map" + (f" by {edge}" if edge else "") + f" ({reason})")


def disrupt(ctx: Ctx, uid: str, source: str, on_slope: bool, half: bool = False) -> str:
    """Disrupt one troop; returns what happened to it."""
    i = info(ctx.state, ctx.ruleset, uid)
    u = ctx.state.unit(uid)
    if on_slope and i.klass in ("A", "B") and (not half or ctx.options.get("slope_immunity_half")):
        ctx.explain(f"{i.label} ignores the disruption (Class {i.klass} on a slope) [14.31]")
        return "ignored"
    if u.status.get("panicked") and (not half or ctx.options.get("panicked_survivors_die", True)):
        eliminate(ctx, uid, f"panicked unit disrupted by {source} [13.0]")
        return "eliminated"
    if u.status.get("disrupted"):
        eliminate(ctx, uid, f"disrupted again by {source} [8.22]")
        return "eliminated"
    w = ctx.unit(uid)
    w.status["disrupted"] = True
    w.status["disrupted_at"] = stamp(ctx.state)
    ctx.explain(f"{i.label} disrupted ({source}) [8.2]")
    return "disrupted"


def reduce_leader(ctx: Ctx, uid: str) -> str:
    """One grade down [10.3]; a reduced 4 is eliminated; Chariot civilian leaders go 5 -> 6
    and a reduced 6 is eliminated (Chariot [2.2])."""
    i = info(ctx.state, ctx.ruleset, uid)
    grade = i.grade
    if grade in (4, 6):
        eliminate(ctx, uid, f"grade {grade} leader reduced [10.3]")
        return "eliminated"
    u = ctx.unit(uid)
    u.status["grade"] = grade + 1
    ctx.explain(f"{i.label} reduced from grade {grade} to {grade + 1} [10.3]")
    return f"grade {grade + 1}"


def _slope(ctx: Ctx, h: str, troops: list[Info]) -> bool:
    if not ctx.options.get("elevation") or not any(t.klass in ("A", "B") for t in troops):
        return False
    return hexmap.elevation(ctx, h, "resistance to disruption [14.31]") == "slope"


def apply(ctx: Ctx, result: str, hexes: list[str], combat: str, defender: str) -> Effects:
    """Apply one result (-, D, 1/2E, E) to the defending units of *hexes*."""
    eff = Effects()
    label = "fire" if combat == "fire" else "melee"
    if result in ("-", "", "none"):
        ctx.explain(f"{'/'.join(hexes)}: no effect")
        return eff
    by_hex: dict[str, list[Info]] = {}
    for h in hexes:
        by_hex[h] = [info(ctx.state, ctx.ruleset, u) for u in units_at(ctx.state, h) if u.side == defender]
    troops = [(h, i) for h in hexes for i in by_hex[h] if not i.is_leader]
    leaders = [(h, i) for h in hexes for i in by_hex[h] if i.is_leader]
    led = {h for h, _ in leaders}
    if result == "E":
        for _h, t in troops:
            eliminate(ctx, t.id, f"{label} E")
            eff.eliminated.append(t.id)
        if combat == "melee":
            for _h, ldr in leaders:
                eliminate(ctx, ldr.id, "melee E eliminates leaders too [10.3]")
                eff.eliminated.append(ldr.id)
        elif leaders:
            ctx.explain("leaders are never harmed by fire [10.31]")
    else:
        survivors = list(troops)
        if result == "1/2E" and troops:
            k = math.ceil(len(troops) / 2)
            chosen = _choose_half(ctx, troops, k, defender, hexes)
            for uid in chosen:
                eliminate(ctx, uid, f"{label} 1/2E (defender's choice) [8.1]")
                eff.eliminated.append(uid)
            survivors = [(h, t) for h, t in troops if t.id not in chosen]
        for h, t in survivors:
            if h in led:
                ctx.explain(
                    f"{t.label} is stacked with a leader: not disrupted [10.0]"
                    + (" [10.31]" if combat == "fire" else " [10.32]")
                )
                eff.nullified = True
                continue
            what = disrupt(ctx, t.id, f"{label} {result}", _slope(ctx, h, by_hex[h]), half=result == "1/2E")
            if what == "eliminated":
                eff.eliminated.append(t.id)
            elif what == "disrupted":
                eff.disrupted.append(t.id)
            else:
                eff.ignored.append(t.id)
                eff.nullified = True
        if combat == "melee" and leaders:
            for uid in _leaders_to_reduce(ctx, [ldr for _, ldr in leaders], defender, hexes):
                what = reduce_leader(ctx, uid)
                eff.reduced.append(uid)
                if what == "eliminated":
                    eff.eliminated.append(uid)
        elif leaders:
            ctx.explain("leaders are never harmed by fire [10.31]")
    for h in hexes:
        if not [u for u in units_at(ctx.state, h) if u.side == defender]:
            eff.vacated.append(h)
    _break_contacts(ctx, eff)
    return eff


def _choose_half(
    ctx: Ctx, troops: list[tuple[str, Info]], k: int, defender: str, hexes: list[str]
) -> list[str]:
    if k >= len(troops):
        return [t.id for _, t in troops]
    ranked = sorted(troops, key=lambda ht: (unit_vp(ctx, ht[1]), ht[1].id))
    default = [t.id for _, t in ranked[:k]]
    answer = ctx.decide(
        Decision(
            id=f"half:{'/'.join(hexes)}",
            kind="multi",
            prompt=f"1/2E on {'/'.join(hexes)}: choose the {k} unit(s) to eliminate",
            options=tuple(Option(t.id, f"{t.label} ({t.code}, {h})") for h, t in troops),
            min=k,
            max=k,
            side=defender,
            default=default,
            info=(f"{len(troops)} units (leaders not counted): half, the majority when odd [8.1]",),
        )
    )
    return [str(x) for x in answer]


def _leaders_to_reduce(ctx: Ctx, leaders: list[Info], defender: str, hexes: list[str]) -> list[str]:
    if ctx.options.get("leader_reduction", "all") == "all" or len(leaders) == 1:
        return [ldr.id for ldr in leaders]
    pick = ctx.choose(
        f"reduce:{'/'.join(hexes)}",
        "Which leader is reduced? (G-10: only one)",
        [(ldr.id, f"{ldr.label} grade {ldr.grade}") for ldr in leaders],
        side=defender,
        default=leaders[0].id,
    )
    return [pick]


def _break_contacts(ctx: Ctx, eff: Effects) -> None:
    """Contact ends for a group once either side is eliminated, half-eliminated or
    disrupted by any combat [18.5]."""
    hit = eff.eliminated + eff.disrupted
    if not ctx.options.get("contact_nullified_d", True) and eff.nullified:
        hit = hit + eff.ignored
    groups = sorted({int(ctx.state.unit(uid).status.get("contact", 0) or 0) for uid in hit} - {0})
    for g in groups:
        for u in sorted(ctx.state.units.values(), key=lambda x: x.id):
            if int(u.status.get("contact", 0) or 0) == g:
                ctx.unit(u.id).status["contact"] = 0
        ctx.explain(f"contact group {g} ends [18.5]")


def start_contact(ctx: Ctx, unit_ids: list[str]) -> int:
    """Place every participant of a melee without decision in one contact group [18.1],
    joining any group they already belong to [18.3]."""
    existing = sorted({int(ctx.state.unit(uid).status.get("contact", 0) or 0) for uid in unit_ids} - {0})
    if existing:
        group = existing[0]
    else:
        used = {int(u.status.get("contact", 0) or 0) for u in ctx.state.units.values()}
        group = 1
        while group in used:
            group += 1
    merge = set(existing[1:])
    for u in sorted(ctx.state.units.values(), key=lambda x: x.id):
        c = int(u.status.get("contact", 0) or 0)
        if (u.id in unit_ids or c in merge) and c != group:
            ctx.unit(u.id).status["contact"] = group
    ctx.explain(f"no decision: {len(unit_ids)} units stay in contact (group {group}) [18.1]")
    return group
