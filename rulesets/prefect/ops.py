"""State changes shared by many actions, all through the action context: markers, fatigue,
disruption and destruction (with the victory points they score), moving and merging
task forces, supply deliveries and BT/CA credits."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Marker
from rulesets.prefect.board import Board, hexid, other
from rulesets.prefect.values import storage_cap, vp_value

FLAG_LABELS = {"LAF": "LAF", "MOVED": "Moved", "DETECTED": "Detected"}


# -- markers -------------------------------------------------------------------------------
def set_flag(ctx: Ctx, fid: str, kind: str, on: bool = True) -> None:
    mid = f"{kind}@{fid}"
    if on and mid not in ctx.state.markers:
        f = ctx.state.formation(fid)
        ctx.add_marker(Marker(mid, kind, label=FLAG_LABELS.get(kind, kind), side=f.side, target=fid))
    elif not on and mid in ctx.state.markers:
        ctx.remove_marker(mid)


def clear_flags(ctx: Ctx, fid: str) -> None:
    for kind in FLAG_LABELS:
        set_flag(ctx, fid, kind, False)


def drop_detections(ctx: Ctx, fid: str) -> None:
    """Forget the movement-phase detections made by or against a task force (it moved)."""
    pairs = ctx.var("detections", [])
    if any(fid in (p[0], p[1]) for p in pairs):
        ctx.set_var("detections", [p for p in pairs if fid not in (p[0], p[1])])


# -- fatigue -------------------------------------------------------------------------------
def set_fatigue(ctx: Ctx, fid: str, value: int) -> int:
    f = ctx.formation(fid)
    f.status["fatigue"] = max(0, min(3, int(value)))
    return int(f.status["fatigue"])


def add_fatigue(ctx: Ctx, fid: str, amount: int = 1, why: str = "") -> int:
    f = ctx.state.formation(fid)
    before = int(f.status.get("fatigue", 0))
    after = set_fatigue(ctx, fid, before + amount)
    if after != before:
        ctx.explain(f"{f.name}: fatigue {before} -> {after}" + (f" ({why})" if why else ""))
    elif before >= 3:
        ctx.explain(f"{f.name}: already at fatigue 3")
    return after


# -- victory points --------------------------------------------------------------------------
def vp(ctx: Ctx, side: str, amount: int, reason: str) -> None:
    if amount:
        ctx.credit(side, "vp", amount, reason)


def count_kill(ctx: Ctx, by_side: str) -> None:
    kills = ctx.edit_var("kills", {})
    kills[by_side] = int(kills.get(by_side, 0)) + 1


# -- disruption and destruction ---------------------------------------------------------------
def disrupt_unit(ctx: Ctx, uid: str, why: str = "") -> None:
    """A unit is disrupted. A ground unit leaves its TF box and lies loose in the TF's hex;
    a ship is inverted and stays with its TF; a base stays where it is."""
    board = Board.of(ctx)
    u = ctx.unit(uid)
    if u.status.get("disrupted"):
        return
    u.status["disrupted"] = True
    if board.kind(u) == "transport":
        for base in [
            c
            for c in ctx.state.units.values()
            if board.kind(c) == "base"
            and (c.data.get("carried_by") == uid or uid in c.data.get("shared_with", []))
        ]:
            for other_t in [base.data.get("carried_by"), *base.data.get("shared_with", [])]:
                if other_t and other_t != uid and not ctx.state.unit(other_t).status.get("disrupted"):
                    disrupt_unit(ctx, other_t, f"carries part of {base.label}")
    if board.kind(u) == "ground" and u.formation:
        f = ctx.state.formations.get(u.formation)
        if f is not None and f.kind in ("tf", "independent"):
            u.location = f.location
            u.data["from_tf"] = f.id
            u.formation = None
    ctx.explain(f"{u.label} disrupted" + (f" ({why})" if why else ""))


def destroy_unit(ctx: Ctx, uid: str, why: str = "", scorer: str | None = "enemy") -> None:
    """A unit is destroyed: it leaves the map (naval units and bases go to their side's
    Destroyed box), its supply and cargo are lost, and the enemy scores its rebuild cost
    in VP (5.16)."""
    board = Board.of(ctx)
    u = ctx.unit(uid)
    if u.status.get("destroyed"):
        return
    kind = board.kind(u)
    u.status["destroyed"] = True
    u.status["disrupted"] = False
    if u.status.get("supply"):
        ctx.explain(f"{u.status['supply']} SP aboard {u.label} lost")
        u.status["supply"] = 0
    u.data.pop("held_by", None)
    if kind == "ground":
        u.formation = None
        u.location = None
    else:
        box = f"{u.side}-destroyed"
        u.formation = box if box in ctx.state.formations else None
        u.location = None
        for key in ("segment", "chart", "committed", "gs_area", "drop_area"):
            u.data.pop(key, None)
    ctx.explain(f"{u.label} destroyed" + (f" ({why})" if why else ""))
    if scorer:
        side = other(u.side) if scorer == "enemy" else scorer
        vp(ctx, side, vp_value(board, ctx.tables, u, ctx.options), f"{u.label} destroyed")
        count_kill(ctx, side)
    for cargo in [
        c
        for c in ctx.state.units.values()
        if c.data.get("carried_by") == uid or uid in c.data.get("shared_with", [])
    ]:
        c = ctx.unit(cargo.id)
        c.data.pop("carried_by", None)
        c.data.pop("shared_with", None)
        destroy_unit(ctx, c.id, f"aboard {u.label}", scorer)


# -- task forces ----------------------------------------------------------------------------
def relocate(ctx: Ctx, fid: str, hex_: str) -> None:
    """Move a ground force to a hex: its Detected marker and movement-phase detections
    lapse (G34b); loose disrupted units that travel with it are moved by the caller."""
    f = ctx.formation(fid)
    f.location = f"hex:{hexid(hex_, ctx.state)}"
    set_flag(ctx, fid, "DETECTED", False)
    drop_detections(ctx, fid)


def merge(ctx: Ctx, src: str, dst: str) -> None:
    """Put every unit of *src* into *dst*: the higher fatigue and LAF status carry over
    (5.9, P5); the empty counter is removed."""
    board = Board.of(ctx)
    a, b = ctx.state.formation(src), ctx.state.formation(dst)
    for u in board.units(src):
        ctx.unit(u.id).formation = dst
    fat = max(board.fatigue(src), board.fatigue(dst))
    if fat != board.fatigue(dst):
        set_fatigue(ctx, dst, fat)
    if board.laf(src) and not board.laf(dst):
        set_flag(ctx, dst, "LAF", True)
    ctx.explain(f"{a.name} merges into {b.name} (fatigue {fat})")
    remove_force(ctx, src)


def remove_force(ctx: Ctx, fid: str) -> None:
    """Remove a task force counter whose units are gone (destroyed, disrupted, merged)."""
    if fid not in ctx.state.formations:
        return
    for u in list(ctx.state.units.values()):
        if u.formation == fid and u.status.get("destroyed"):
            ctx.unit(u.id).formation = None
    clear_flags(ctx, fid)
    drop_detections(ctx, fid)
    ctx.remove_formation(fid)


def remove_empty_forces(ctx: Ctx) -> list[str]:
    board = Board.of(ctx)
    gone = []
    for f in list(ctx.state.formations.values()):
        if f.kind in ("tf", "independent", "naval_tf") and not board.units(f.id):
            gone.append(f.name)
            remove_force(ctx, f.id)
    if gone:
        ctx.explain("empty task forces removed: " + ", ".join(gone))
    return gone


def credit_btca(ctx: Ctx, result: str, combat_attacker: str, combat_defender: str) -> str:
    """+1 on the BT/CA track: BT to the combat attacker, CA to the combat defender (G8)."""
    side = combat_attacker if result == "BT" else combat_defender
    track = ctx.edit_var("btca", {})
    track[side] = int(track.get(side, 0)) + 1
    ctx.explain(f"{result}: +1 to {side} on the breakthrough/counterattack track")
    return side


# -- supply ----------------------------------------------------------------------------------
def give_supply(ctx: Ctx, uid: str, amount: int, enforce_cap: bool = True) -> int:
    """Add SP to a holder; what goes above its storage cap is lost (T5). Returns the loss."""
    board = Board.of(ctx)
    u = ctx.unit(uid)
    cap = storage_cap(board, ctx.tables, u) if enforce_cap else None
    before = int(u.status.get("supply", 0))
    total = before + int(amount)
    new = total if cap is None else min(cap, total)
    u.status["supply"] = new
    lost = total - new
    ctx.explain(
        f"{u.label}: {before} + {amount} SP = {new}"
        + (f" ({lost} above the cap of {cap} lost)" if lost else "")
    )
    return lost


def take_supply(ctx: Ctx, uid: str, amount: int) -> None:
    u = ctx.unit(uid)
    have = int(u.status.get("supply", 0))
    if amount > have:
        from campaign_tui.core.errors import ActionRejected

        raise ActionRejected(f"{u.label} holds only {have} SP, not {amount}")
    u.status["supply"] = have - int(amount)


def pay(ctx: Ctx, shares: dict[str, Any], purpose: str) -> int:
    """Take SP from several holders: {unit id: amount}. Returns the total paid."""
    total = 0
    for uid, amount in shares.items():
        if int(amount) <= 0:
            continue
        take_supply(ctx, uid, int(amount))
        total += int(amount)
        ctx.explain(f"{ctx.state.unit(uid).label} pays {int(amount)} SP for {purpose}")
    return total
