"""Action-week chores (digest W.2-W.10): upkeep, mines, detection, pre-emptive candidates,
facility detection, reorganisation, coordination and engagements, specials, movement and
the end of the week. Each runs when its step is entered, logged with that advance."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import Formation
from rulesets.star_cruiser_lite import ids, news
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.chores_month import (
    add_mines,
    apply_withheld,
    colony_defence,
    deliver_arrivals,
    unsupplied_troops,
)
from rulesets.star_cruiser_lite.classes import (
    MINE_LAYERS,
    NO_FACILITY_DETECTION,
    SURVEYORS,
    WARSHIPS,
)
from rulesets.star_cruiser_lite.damage import apply_ship_results, roll_ship_damage
from rulesets.star_cruiser_lite.game import Game, previous_action_week
from rulesets.star_cruiser_lite.rules_combat import crew_quality_update
from rulesets.star_cruiser_lite.rules_command import subordination, tactics_improvement, tf_composition
from rulesets.star_cruiser_lite.rules_detection import (
    defender,
    detection_chance,
    detection_roll,
    facility_detection,
    route_clear,
)
from rulesets.star_cruiser_lite.rules_logistics import (
    conversion,
    dock_repair,
    escort_fees,
    facility_self_repair,
    mine_attack,
    psd_discovery,
    supply_retreat,
)
from rulesets.star_cruiser_lite.supply import resupply_unit


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


# -- W.2 upkeep ------------------------------------------------------------------------------
def upkeep(ctx: Ctx) -> None:
    ctx.secret_to("gm")
    g = game(ctx)
    for nation in g.nations():
        due = int(g.nation(nation).get("fees_due", 0))
        if due:
            rec = ctx.record("nations", nation)
            rec["qas_stock"] = spm.store(spm.sp(rec.get("qas_stock", 0)) + due)
            rec["fees_due"] = 0
            ctx.explain(f"{nation}: escort fees {due} SP paid into the QAS stockpile")
            news.event(ctx, f"escort fees of {due} SP received", [nation], "fees")
    deliver_arrivals(ctx)
    late_resupply(ctx)
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        if g.alive(u) and u.status.get("unsupplied") and g.logistics_tracked(u.side):
            unit = ctx.unit(u.id)
            unit.status["weeks_unsupplied"] = int(unit.status.get("weeks_unsupplied", 0)) + 1
    if ctx.options.get("colony_initiative_timing", "monthly") == "weekly":
        weekly_colony_defence(ctx)
    if ctx.options.get("troop_supply_losses", "monthly") == "weekly":
        for nation in g.nations():
            if g.logistics_tracked(nation):
                unsupplied_troops(ctx, nation)
    listening_posts(ctx)
    ctx.summary("Start of the week: fees, arrivals, late resupply, supply counters, listening posts")


def weekly_colony_defence(ctx: Ctx) -> None:
    """Option (DEFAULT-02 alternative): colonies roll their initiatives every action week,
    withholding from the SP in their planetary depot."""
    g = game(ctx)
    pools = {
        n: {cid: c.get("psd_sp", 0) for cid, c in g.colonies().items() if c.get("owner") == n}
        for n in g.nations()
        if g.logistics_tracked(n)
    }
    ctx.set_var("production", pools)
    colony_defence(ctx)
    apply_withheld(ctx)
    for nation, pool in (ctx.var("production", {}) or {}).items():
        for cid, left in pool.items():
            if g.colonies()[cid].get("owner") == nation and spm.sp(left) != spm.sp(
                g.colonies()[cid].get("psd_sp", 0)
            ):
                ctx.record("colonies", cid)["psd_sp"] = spm.store(left)
    ctx.set_var("production", None)


def late_resupply(ctx: Ctx) -> None:
    """Units unsupplied at Week 0 may be resupplied in any week their orders say so (W.1); ships
    that retreated for supply are resupplied once they reach their base."""
    g = game(ctx)
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        tf = g.state.formations.get(u.formation or "")
        if (
            u.status.get("retreating")
            and u.status.get("unsupplied")
            and tf is not None
            and tf.location
            and not tf.data.get("retreat_to")
            and g.alive(u)
        ):
            res = resupply_unit(ctx, u.id, "auto", late=True)
            news.event(
                ctx,
                f"{g.label(u)} resupplied at its base {tf.location}"
                if res["ok"]
                else f"{g.label(u)} reached {tf.location} but is still short of SP",
                [u.side],
                "supply",
            )
    for nation in g.nations():
        for key, source in sorted(g.orders(nation).get("resupply", {}).items()):
            if key in g.state.formations:
                units = [u for u in g.state.units.values() if u.formation == key and g.alive(u)]
                units += [c for u in units for c in g.carried(u.id) if c not in units]
            elif key in g.state.units:
                units = [g.state.units[key]]
            else:
                continue
            for u in sorted(units, key=lambda x: x.id):
                if u.status.get("unsupplied"):
                    res = resupply_unit(ctx, u.id, str(source), late=True)
                    news.event(
                        ctx,
                        f"late resupply of {g.label(u)}: " + ("done" if res["ok"] else "still short"),
                        [nation],
                        "supply",
                    )


def agency_location(g: Game, nation: str) -> str:
    """T-42: BCV, then QAS if BCV is lost, then the Core."""
    agency = [sid for sid, s in g.systems().items() if s.get("agency")] or ["BCV"]
    bcv = agency[0]
    if bcv in g.systems() and not g.held_by_enemy_of(bcv, nation):
        return bcv
    qas = g.qas()
    if qas in g.systems() and not g.held_by_enemy_of(qas, nation):
        return qas
    return g.core() or "CORE"


def interdicted(g: Game, nation: str) -> list[str]:
    """Systems an enemy holds or has task forces in."""
    out = {sid for sid in g.systems() if g.held_by_enemy_of(sid, nation)}
    out |= {f.location for f in g.tfs() if f.location and g.enemies(f.side, nation)}
    return sorted(x for x in out if x)


def listening_posts(ctx: Ctx) -> None:
    """F-38: each deployed listening post reports the enemy task forces in its system if a path
    of non-interdicted systems leads to the nation's intelligence agency (T-42)."""
    g = game(ctx)
    for f in g.facilities():
        if g.fac_type(f) != "LP" or f.data.get("state", "deployed") != "deployed" or not f.location:
            continue
        links = {sid: g.stars.neighbours(sid) for sid in g.systems()}
        blocked = [s for s in interdicted(g, f.side) if s != f.location]
        goal = agency_location(g, f.side)
        ok = route_clear(ctx, links, f.location, goal, blocked).value
        enemies = [t for t in g.tfs(system=f.location) if g.enemies(t.side, f.side)]
        if not ok:
            news.intel(
                ctx,
                f.side,
                {
                    "kind": "lp",
                    "system": f.location,
                    "text": f"listening post {f.id}: no clear route to the agency at {goal}; "
                    "no report this week",
                },
            )
            continue
        text = f"listening post {f.id} at {f.location}: " + (
            ", ".join(f"{g.state.sides[t.side].name} task force present" for t in enemies) or "no enemy ships"
        )
        news.intel(ctx, f.side, {"kind": "lp", "system": f.location, "text": text})


# -- W.3 mines -------------------------------------------------------------------------------
def mines(ctx: Ctx) -> None:
    """W.3 / F-39c: before detection, enemy minefields attack each task force in their system."""
    ctx.secret_to("gm")
    g = game(ctx)
    hits = 0
    for tf in g.tfs():
        sid = tf.location
        if not sid:
            continue
        for owner, count in sorted(g.system(sid).get("minefields", {}).items()):
            if not g.enemies(owner, tf.side) or int(count) <= 0:
                continue
            res = mine_attack(ctx, int(g.system(sid)["minefields"][owner]), tf.id, tf.side).value
            if not res["hit"]:
                continue
            hits += 1
            rec = ctx.record("systems", sid)
            fields = dict(rec.get("minefields", {}))
            fields[owner] = res["mines"]
            rec["minefields"] = fields
            ctx.formation(tf.id).data["mine_attack_t"] = g.t
            victims: dict[str, int] = {}
            for i in range(int(res["damage"])):
                pool = [u for u in g.hulls(tf.id) if g.alive(u)]
                if not pool:
                    break
                v = ctx.draw(pool, 1, f"mine damage point {i + 1} on {tf.id}")[0]
                victims[v.id] = victims.get(v.id, 0) + 1
            for uid, pts in victims.items():
                unit = g.state.units[uid]
                results = roll_ship_damage(ctx, unit, pts)
                apply_ship_results(ctx, uid, results, f"mines at {sid}")
            news.event(
                ctx,
                f"{tf.id} struck a minefield at {sid}: {res['damage']} damage point(s)",
                [tf.side],
                "mines",
                system=sid,
            )
    ctx.summary(f"Mine attacks: {hits}")


# -- W.4 detection -----------------------------------------------------------------------------
def present_nations(g: Game, sid: str) -> list[str]:
    out = {f.side for f in g.tfs(system=sid)}
    out |= {f.side for f in g.facilities(system=sid) if f.data.get("state", "deployed") == "deployed"}
    return sorted(out)


def detector_assets(g: Game, nation: str, sid: str) -> dict[str, int]:
    tfs = g.tfs(nation, sid)
    if g.state.options.get("warship_force_count", "task_force") == "warship":
        forces = sum(len(g.warships(f.id)) for f in tfs)
    else:
        forces = sum(1 for f in tfs if g.warships(f.id))
    facs = [f for f in g.facilities(nation, sid) if f.data.get("state", "deployed") == "deployed"]
    return {
        "warship_forces": forces,
        "patrols": sum(len(g.patrols(f.id)) for f in tfs),
        "facilities": sum(1 for f in facs if g.fac_type(f) != "LP" and g.fac_stat(f, "sn") > 0),
        "listening_posts": sum(1 for f in facs if g.fac_type(f) == "LP"),
    }


def describe_contact(g: Game, tf: Formation, levels: list[str]) -> dict[str, Any]:
    side = g.state.sides[tf.side].name
    rep: dict[str, Any] = {"kind": "tf", "system": tf.location, "levels": levels, "nation": tf.side}
    text = f"{side} task force present at {tf.location}"
    if "direction" in levels:
        came = tf.data.get("came_from")
        order = g.tf_order(tf.id)
        if tf.data.get("newly_arrived") and came:
            rep["direction"] = f"arrived from {came}"
        elif order.get("movement") in ("move", "convoy") and order.get("destination"):
            rep["direction"] = f"heading for {order['destination']}"
        else:
            rep["direction"] = "within the g-gradient"
        text += f", {rep['direction']}"
    hulls = g.hulls(tf.id)
    if "size" in levels:
        rep["size"] = len(hulls)
        text += f", {len(hulls)} ships"
    if "types" in levels:
        counts: dict[str, int] = {}
        for u in g.ships(tf.id):
            counts[g.code(u)] = counts.get(g.code(u), 0) + 1
        rep["types"] = counts
        text += " (" + ", ".join(f"{n} {c}" for c, n in sorted(counts.items())) + ")"
    if "ships" in levels:
        rep["ships"] = [g.label(u) for u in g.ships(tf.id)]
        rep["tf"] = tf.id
        text += f": {tf.id} - " + ", ".join(rep["ships"])
    rep["text"] = text
    return rep


def detection(ctx: Ctx) -> None:
    """W.4 / F-07, F-08: every detecting force rolls against every enemy task force present;
    then who defends (F-09) and which pre-emptive attacks are possible (F-10)."""
    ctx.secret_to("gm")
    g = game(ctx)
    results: list[dict[str, Any]] = []
    prev = previous_action_week(g.t)
    for sid in sorted(g.systems()):
        for nation in present_nations(g, sid):
            targets = [t for t in g.tfs(system=sid) if g.enemies(t.side, nation)]
            if not targets:
                continue
            assets = detector_assets(g, nation, sid)
            for t in targets:
                order = g.tf_order(t.id)
                arrival = str(t.data.get("entry", "overt")) if t.data.get("newly_arrived") else "none"
                recon = order.get("movement") == "attack" and order.get("attack") == "recon"
                chance = detection_chance(
                    ctx,
                    int(g.system(sid).get("bodies", 0)),
                    arrival,
                    recon,
                    int(t.data.get("detected_by", {}).get(nation, -99)) == prev,
                    int(t.data.get("mine_attack_t", -99)) == g.t,
                    g.kafer(t.side),
                    **assets,
                ).value
                res = detection_roll(ctx, chance, f"{t.id} by {nation}", nation).value
                results.append(
                    {"system": sid, "detector": nation, "target": t.id, "target_nation": t.side, **res}
                )
                if res["detected"]:
                    f = ctx.formation(t.id)
                    f.data["detected_by"] = {**f.data.get("detected_by", {}), nation: g.t}
                    news.intel(ctx, nation, describe_contact(g, t, res["levels"]))
    ctx.set_var("detections", results)
    ctx.set_var("preempt_queue", preemptive_candidates(ctx, results))
    found = sum(1 for r in results if r["detected"])
    ctx.summary(f"Detection: {found} of {len(results)} rolls succeeded")


def _side_of(g: Game, nation: str) -> str:
    return "kafer" if g.kafer(nation) else "human"


def preemptive_candidates(ctx: Ctx, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who may launch a pre-emptive attack on whom (W.5, F-09, F-10)."""
    g = game(ctx)
    queue: list[dict[str, Any]] = []
    for sid in sorted(g.systems()):
        tfs = g.tfs(system=sid)
        sides = {
            "human": [t for t in tfs if not g.kafer(t.side)],
            "kafer": [t for t in tfs if g.kafer(t.side)],
        }
        if not sides["human"] or not sides["kafer"]:
            continue
        new = {k: [t for t in v if t.data.get("newly_arrived")] for k, v in sides.items()}
        old = {k: [t for t in v if not t.data.get("newly_arrived")] for k, v in sides.items()}
        pairs: list[tuple[str, str]] = []  # (defending side, intruding side)
        for dside, iside in (("human", "kafer"), ("kafer", "human")):
            if old[dside] and new[iside]:
                pairs.append((dside, iside))
        if not old["human"] and not old["kafer"] and new["human"] and new["kafer"]:
            sys_rolls = [r for r in results if r["system"] == sid]

            def best(side: str, rolls: list[dict[str, Any]] = sys_rolls) -> tuple[bool, int]:
                mine = [r for r in rolls if _side_of(g, r["detector"]) == side and r["detected"]]
                return bool(mine), min((int(r["roll"]) for r in mine), default=0)

            h_det, h_roll = best("human")
            k_det, k_roll = best("kafer")
            who = defender(ctx, h_det, k_det, h_roll, k_roll).value
            if who is not None:
                dside = "human" if who == "A" else "kafer"
                pairs.append((dside, "kafer" if dside == "human" else "human"))
                news.event(
                    ctx,
                    f"both sides arrived at {sid} together; the "
                    f"{'human' if dside == 'human' else 'Kafer'} side defends",
                    sorted({t.side for t in tfs}),
                    "detection",
                    system=sid,
                )
        attacked: set[str] = set()
        for dside, iside in pairs:
            defenders = old[dside] or new[dside]
            for d in defenders:
                order = g.tf_order(d.id)
                patrols = g.patrols(d.id)
                if order.get("detection") != "attack" or not patrols or len(patrols) > g.ftac(d.id):
                    continue
                for t in new[iside]:
                    if t.id in attacked or int(t.data.get("detected_by", {}).get(d.side, -99)) != g.t:
                        continue
                    their = [
                        r
                        for r in results
                        if r["system"] == sid and r["detector"] == t.side and r["target"] == d.id
                    ]
                    i_det = any(r["detected"] for r in their)
                    mine = [
                        r
                        for r in results
                        if r["system"] == sid and r["detector"] == d.side and r["target"] == t.id
                    ]
                    queue.append(
                        {
                            "system": sid,
                            "defender_tf": d.id,
                            "nation": d.side,
                            "patrol_ships": [s for p in patrols for s in p],
                            "intruder_tf": t.id,
                            "intruder_nation": t.side,
                            "defender_detected": True,
                            "intruder_detected": i_det,
                            "defender_roll": min((int(r["roll"]) for r in mine), default=0),
                            "intruder_roll": min((int(r["roll"]) for r in their if r["detected"]), default=0),
                        }
                    )
                    attacked.add(t.id)
    return queue


# -- W.6 facility detection ----------------------------------------------------------------
def facility_detection_step(ctx: Ctx) -> None:
    """W.6 / F-11: listening posts, task forces defending since last week, and surveyors roll
    against every facility of another nation in their system."""
    ctx.secret_to("gm")
    g = game(ctx)
    found = 0
    for sid in sorted(g.systems()):
        facs = [f for f in g.facilities(system=sid) if g.fac_type(f) not in ("CFR", "PSD")]
        if not facs:
            continue
        detectors: list[tuple[str, str, int, int, str]] = []  # nation, column, weeks, max_sn, label
        for f in g.facilities(system=sid):
            if g.fac_type(f) == "LP" and f.data.get("state", "deployed") == "deployed":
                detectors.append((f.side, "lp", 1, 0, f.id))
        for tf in g.tfs(system=sid):
            order = g.tf_order(tf.id)
            ships = g.ships(tf.id)
            max_sn = max((g.cur(u, "sn") for u in ships), default=0)
            if "survey" in order.get("special", []) and any(g.code(u) in SURVEYORS for u in ships):
                weeks = int(tf.data.get("survey", {}).get(sid, 0)) + 1
                detectors.append((tf.side, "survey", weeks, max_sn, tf.id))
            elif (
                order.get("movement") == "defend"
                and not tf.data.get("newly_arrived")
                and any(g.code(u) in WARSHIPS and g.code(u) not in NO_FACILITY_DETECTION for u in ships)
            ):
                detectors.append((tf.side, "warship", 1, max_sn, tf.id))
        for nation, column, weeks, max_sn, label in detectors:
            for f in facs:
                if f.side == nation or nation in f.known_to:
                    continue
                ok = facility_detection(ctx, g.fac_type(f), column, weeks, max_sn).value
                if ok:
                    found += 1
                    fac = ctx.formation(f.id)
                    fac.data["detected_by"] = sorted({*fac.data.get("detected_by", []), nation})
                    ctx.reveal(fac, nation)
                    news.intel(
                        ctx,
                        nation,
                        {
                            "kind": "facility",
                            "system": sid,
                            "facility": f.id,
                            "text": f"{label} found {g.state.sides[f.side].name} "
                            f"{g.fac_type(f)} {f.id} at {sid}",
                        },
                    )
    ctx.summary(f"Facility detection: {found} found")


# -- W.7 reorganisation ----------------------------------------------------------------------
def reorganisation(ctx: Ctx) -> None:
    """W.7: the orders' detachments and transfers take effect after detection (F-44 checked)."""
    ctx.secret_to("gm")
    g = game(ctx)
    for nation in g.nations():
        for item in g.orders(nation).get("reorganize", []):
            transfer_ships(ctx, item["ships"], item["from"], item["to"])
    ctx.summary("Reorganisation applied")


def transfer_ships(ctx: Ctx, ships: list[str], src: str, dst: str) -> None:
    g = game(ctx)
    from_f = g.state.formations[src]
    if dst not in g.state.formations:
        ctx.add_formation(
            Formation(
                dst,
                from_f.side,
                dst,
                "task_force",
                None,
                from_f.location,
                {},
                {
                    k: v
                    for k, v in from_f.data.items()
                    if k
                    in (
                        "present_since",
                        "newly_arrived",
                        "entry",
                        "detected_by",
                        "came_from",
                        "arrived_t",
                        "survey",
                    )
                },
                "owner",
            )
        )
    moving = [s for s in ships if s in g.state.units]
    moving += [c.id for s in moving for c in g.carried(s) if c.formation == src]
    for uid in moving:
        ctx.unit(uid).formation = dst
    for fid in (src, dst):
        rows = [{"code": g.code(u), "flagship": g.flagship(u)} for u in g.ships(fid)]
        ok = tf_composition(ctx, rows).value
        if not ok:
            news.event(
                ctx,
                f"{fid} now breaks the 3-warship limit without a flagship: the GM should split it",
                [from_f.side],
                "orders",
            )
    if not g.ships(src) and not [u for u in g.state.units.values() if u.formation == src]:
        ctx.remove_formation(src)
    news.event(ctx, f"{', '.join(ships)} move from {src} to {dst}", [from_f.side], "orders")


# -- W.8 coordination, engagements -----------------------------------------------------------
def coordination(ctx: Ctx) -> None:
    """W.8 / F-05, F-06: group each nation's Attack and Defend task forces under the senior
    commander (max(1, 2 x fTac) elements, facilities counting one each); foreign task forces
    (up to fTac) subordinate on 1D10 <= relations. Then list the week's engagements."""
    ctx.secret_to("gm")
    g = game(ctx)
    groups: list[dict[str, Any]] = []
    for sid in sorted(g.systems()):
        tfs = [
            t
            for t in g.tfs(system=sid)
            if g.tf_order(t.id).get("movement") in ("attack", "defend") and not t.data.get("must_leave")
        ]
        used: set[str] = set()
        ordered = sorted(tfs, key=lambda t: (-g.ftac(t.id), t.id))
        for lead in ordered:
            if lead.id in used:
                continue
            kind = g.tf_order(lead.id)["movement"]
            ftac = g.ftac(lead.id)
            limit = max(1, 2 * ftac)
            members = [lead.id]
            used.add(lead.id)
            slots = limit - 1
            if kind == "defend":
                slots -= sum(1 for f in g.facilities(lead.side, sid) if g.fac_type(f) not in ("LP", "PSD"))
            for t in ordered:
                if t.id in used or t.side != lead.side or g.tf_order(t.id)["movement"] != kind or slots <= 0:
                    continue
                if g.tf_order(t.id).get("attack") != g.tf_order(lead.id).get("attack"):
                    continue
                members.append(t.id)
                used.add(t.id)
                slots -= 1
            foreign = 0
            for t in ordered:
                if t.id in used or t.side == lead.side or g.enemies(t.side, lead.side):
                    continue
                if g.tf_order(t.id)["movement"] != kind or foreign >= ftac or slots <= 0:
                    continue
                ok = subordination(
                    ctx, g.relations(lead.side, t.side), not g.tf_order(t.id).get("coordinate", True), t.id
                ).value
                foreign += 1
                if ok:
                    members.append(t.id)
                    used.add(t.id)
                    slots -= 1
            groups.append(
                {
                    "system": sid,
                    "nation": lead.side,
                    "kind": kind,
                    "leader": lead.id,
                    "ftac": ftac,
                    "tfs": members,
                    "attack": g.tf_order(lead.id).get("attack", "tf"),
                }
            )
    ctx.set_var("groups", groups)
    engagements, colony_attacks = build_engagements(ctx, groups)
    ctx.set_var("engagements", engagements)
    ctx.set_var("colony_attacks", colony_attacks)
    ctx.summary(
        f"{len(groups)} group(s); {len(engagements)} engagement(s), {len(colony_attacks)} colony attack(s)"
    )


def _known_target(g: Game, nation: str, t: Formation) -> bool:
    seen = int(t.data.get("detected_by", {}).get(nation, -99))
    since = int(t.data.get("arrived_t", t.data.get("present_since", -1)) or -1)
    return seen >= since and seen >= 0


def build_engagements(
    ctx: Ctx, groups: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    g = game(ctx)
    out: list[dict[str, Any]] = []
    colony: list[dict[str, Any]] = []
    busy: set[str] = set()
    moving_ok = bool(ctx.options.get("moving_tfs_attackable", True))
    for grp in groups:
        if grp["kind"] != "attack":
            continue
        sid, nation = grp["system"], grp["nation"]
        lead_order = g.tf_order(grp["leader"])
        kind = lead_order.get("attack", "tf")
        if kind == "recon":
            continue
        if kind == "colony":
            colony.append(
                {
                    "system": sid,
                    "nation": nation,
                    "tfs": grp["tfs"],
                    "colony": lead_order.get("target"),
                    "bombard": lead_order.get("bombard", "none"),
                    "land": lead_order.get("land", True),
                }
            )
            continue
        if any(t in busy for t in grp["tfs"]):
            continue
        enemies = [t for t in g.tfs(system=sid) if g.enemies(t.side, nation)]
        defenders = [t.id for t in enemies if g.tf_order(t.id).get("movement") == "defend"]
        targets: list[str] = []
        facilities: list[str] = []
        if kind in ("tf", "convoys"):
            for t in enemies:
                order = g.tf_order(t.id)
                if order.get("movement") == "attack" and order.get("attack") == "recon":
                    continue
                if order.get("movement") in ("move", "convoy") and not moving_ok:
                    continue
                if not _known_target(g, nation, t):
                    continue
                if lead_order.get("target") and t.id != lead_order["target"]:
                    continue
                if kind == "convoys":
                    ships = g.ships(t.id)
                    if len(g.warships(t.id)) * 2 >= len(ships):
                        continue
                    defenders += [e.id for e in enemies if g.tf_order(e.id).get("movement") == "escort"]
                targets.append(t.id)
            if not targets:
                news.event(
                    ctx,
                    f"{grp['leader']} found no known enemy task force to attack at {sid}",
                    [nation],
                    "orders",
                )
                continue
        elif kind == "facility":
            for f in g.facilities(system=sid):
                if not g.enemies(f.side, nation) or g.fac_type(f) == "PSD":
                    continue
                if g.fac_type(f) != "CFR" and f.visibility != "public" and nation not in f.known_to:
                    continue
                if lead_order.get("target") and f.id != lead_order["target"]:
                    continue
                facilities.append(f.id)
            if not facilities:
                news.event(ctx, f"{grp['leader']} found no known enemy facility at {sid}", [nation], "orders")
                continue
        b_tfs = sorted(set(targets) | set(defenders))
        surprise = all(g.state.formations[t].data.get("newly_arrived") for t in grp["tfs"]) and not any(
            int(g.state.formations[t].data.get("detected_by", {}).get(n, -99)) == g.t
            for t in grp["tfs"]
            for n in {g.state.formations[b].side for b in b_tfs}
            | {g.state.formations[f].side for f in facilities}
        )
        out.append(
            {
                "id": f"E{len(out) + 1}",
                "system": sid,
                "kind": "attack",
                "attack": kind,
                "a": {"tfs": grp["tfs"], "ships": [], "facilities": []},
                "b": {"tfs": b_tfs, "ships": [], "facilities": facilities},
                "surprise": surprise,
                "capture": bool(lead_order.get("capture", False)),
            }
        )
        busy |= set(grp["tfs"]) | set(b_tfs)
    return out, colony


def postures(ctx: Ctx) -> None:
    """W.9a: ships on a Repair special enter a dock of a friendly CFR or ASB; escorts noted."""
    g = game(ctx)
    if ctx.var("postures_t") == g.t:
        return
    ctx.set_var("postures_t", g.t)
    for tf in g.tfs():
        order = g.tf_order(tf.id)
        if "repair" not in order.get("special", []) or not tf.location:
            continue
        docks = [
            f
            for f in g.facilities(tf.side, tf.location)
            if g.fac_type(f) in ("CFR", "ASB")
            and f.data.get("state", "deployed") == "deployed"
            and g.fac_stat(f, "repair") > 0
        ]
        for uid in order.get("repair_ships", []):
            u = g.state.units.get(uid)
            if u is None or u.formation != tf.id or not g.alive(u):
                continue
            if not docks:
                news.event(
                    ctx, f"{g.label(u)}: no friendly repair dock at {tf.location}", [tf.side], "repair"
                )
                continue
            ctx.unit(uid).status["docked"] = docks[0].id
            ctx.explain(f"{g.label(u)} docks at {docks[0].id}")


# -- W.9c specials ---------------------------------------------------------------------------
def specials(ctx: Ctx) -> None:
    """W.9c: mining (F-39a/b), survey, deploying or packing facilities."""
    ctx.secret_to("gm")
    g = game(ctx)
    fought = set((ctx.var("week_fights", {}) or {}).keys())
    for tf in g.tfs():
        order = g.tf_order(tf.id)
        sid = tf.location
        if not sid:
            continue
        ships = [u for u in g.ships(tf.id) if u.id not in fought]
        for special in order.get("special", []):
            if special == "mining_deploy":
                rating = "mi" if ctx.options.get("mine_lay_rating", "Mi") == "Mi" else "bm"
                laid = sum(g.cur(u, rating) for u in ships if g.code(u) in MINE_LAYERS)
                if laid:
                    add_mines(ctx, sid, tf.side, laid)
                    news.event(ctx, f"{tf.id} lays {laid} mines at {sid}", [tf.side], "mines")
            elif special == "mining_clear":
                power = sum(g.cur(u, "bm") for u in ships)
                rec = ctx.record("systems", sid)
                fields = dict(rec.get("minefields", {}))
                for owner in sorted(fields, key=lambda o: -int(fields[o])):
                    if power <= 0 or not g.enemies(owner, tf.side):
                        continue
                    cleared = min(power, int(fields[owner]))
                    fields[owner] = int(fields[owner]) - cleared
                    power -= cleared
                    news.event(ctx, f"{tf.id} clears {cleared} mines at {sid}", [tf.side], "mines")
                rec["minefields"] = fields
            elif special == "survey":
                f = ctx.formation(tf.id)
                survey = dict(f.data.get("survey", {}))
                survey[sid] = int(survey.get(sid, 0)) + 1
                f.data["survey"] = survey
            elif special in ("deploy_facility", "remove_facility"):
                fid = order.get("facility", "")
                fac = g.state.formations.get(fid)
                if fac is None or fac.side != tf.side or fac.location != sid:
                    news.event(ctx, f"{tf.id}: facility {fid} is not here", [tf.side], "orders")
                    continue
                state = fac.data.get("state", "deployed")
                if special == "deploy_facility" and state == "packed":
                    f = ctx.formation(fid)
                    f.data["state"] = "deploying"
                    f.data["carried_by"] = ""
                elif (
                    special == "remove_facility"
                    and state == "deployed"
                    and g.fac_type(fac) in ("ASB", "FB", "LP")
                ):
                    ctx.formation(fid).data["state"] = "packing"
                else:
                    news.event(
                        ctx,
                        f"{tf.id}: {fid} cannot be {'deployed' if 'deploy' in special else 'packed'} "
                        f"({state})",
                        [tf.side],
                        "orders",
                    )
    ctx.summary("Specials done")


# -- W.9d movement ---------------------------------------------------------------------------
def nearest_base(g: Game, nation: str, start: str, repair: bool = False) -> str | None:
    def is_base(sid: str) -> bool:
        if sid == g.qas() and not repair:
            return True
        return any(
            g.fac_type(f) in (("CFR", "ASB") if repair else ("CFR", "ASB", "SD", "FB"))
            and f.data.get("state", "deployed") == "deployed"
            for f in g.facilities(nation, sid)
        )

    path = g.stars.nearest(start, is_base)
    return path[-1] if path else None


def step_toward(g: Game, start: str, goal: str) -> str | None:
    path = g.stars.nearest(start, lambda s: s == goal)
    return path[1] if len(path) > 1 else None


def moves(ctx: Ctx) -> None:
    """W.9d / F-45: movers leave; one-week moves arrive at the end of the week (DEFAULT-60),
    a task force with a slow merchant takes two weeks; retreats and forced departures too."""
    ctx.secret_to("gm")
    g = game(ctx)
    for tf in list(g.tfs()):
        data = tf.data
        transit = data.get("transit")
        if transit:
            if int(transit.get("departed_t", g.t)) < g.t:
                arrive(ctx, tf.id, transit["to"], transit["from"], transit.get("entry", "overt"))
            continue
        here = tf.location
        if not here:
            continue
        order = g.tf_order(tf.id)
        dest = None
        entry = order.get("entry", "overt")
        if data.get("must_leave"):
            for cand in (
                order.get("destination"),
                order.get("contingency"),
                data.get("retreat_dest"),
                data.get("came_from"),
            ):
                if cand and g.linked(here, cand):
                    dest = cand
                    break
            if dest is None:
                base = nearest_base(g, tf.side, here)
                dest = step_toward(g, here, base) if base and base != here else None
            if dest is None and g.stars.neighbours(here):
                dest = g.stars.neighbours(here)[0]
        elif data.get("retreat_to"):
            goal = data["retreat_to"]
            dest = step_toward(g, here, goal) if goal != here else None
            if goal == here:
                ctx.formation(tf.id).data["retreat_to"] = None
        elif order.get("movement") in ("move", "convoy"):
            dest = order.get("destination")
        if not dest or dest == here:
            continue
        codes = [g.code(u) for u in g.ships(tf.id)]
        if codes and all(c == "FTR" for c in codes):
            continue
        if g.kafer(tf.side):
            entry = "overt"
        if "MS" in codes:
            f = ctx.formation(tf.id)
            f.data["transit"] = {"from": here, "to": dest, "departed_t": g.t, "entry": entry}
            f.location = None
            f.data["must_leave"] = False
            _carry_along(ctx, tf.id, None)
            news.event(ctx, f"{tf.id} leaves {here} for {dest} (two weeks: slow merchant)", [tf.side], "move")
        else:
            arrive(ctx, tf.id, dest, here, entry)
    ctx.summary("Movement done")


def arrive(ctx: Ctx, fid: str, dest: str, origin: str, entry: str) -> None:
    g = game(ctx)
    f = ctx.formation(fid)
    f.location = dest
    f.data.update(
        {
            "transit": None,
            "newly_arrived": True,
            "arrived_t": g.t,
            "present_since": g.t + 1,
            "entry": entry,
            "came_from": origin,
            "must_leave": False,
        }
    )
    if f.data.get("retreat_to") == dest:
        f.data["retreat_to"] = None
    f.data = {k: v for k, v in f.data.items() if v is not None}
    for u in g.ships(fid):
        if u.status.get("docked"):
            ctx.unit(u.id).status["docked"] = ""
    _carry_along(ctx, fid, dest)
    news.event(ctx, f"{fid} arrives at {dest} from {origin} ({entry})", [f.side], "move")


def _carry_along(ctx: Ctx, fid: str, dest: str | None) -> None:
    """Contingents wholly aboard the task force's ships, and packed facilities it carries, move
    with it."""
    g = game(ctx)
    aboard = {u.id for u in g.ships(fid)}
    for c in g.contingents():
        troops = g.troops(c.id)
        if troops and all(t.status.get("carried_by") in aboard for t in troops):
            ctx.formation(c.id).location = dest
    for fac in g.formations("facility"):
        if fac.data.get("carried_by") == fid:
            ctx.formation(fac.id).location = dest


# -- W.10 end of week ------------------------------------------------------------------------
def end_of_week(ctx: Ctx) -> None:
    ctx.secret_to("gm")
    repairs(ctx)
    progress(ctx)
    supply_retreats(ctx)
    crew_quality(ctx)
    tactics(ctx)
    psd_checks(ctx)
    fees(ctx)
    g = game(ctx)
    for tf in g.formations("task_force"):
        d = tf.data
        if d.get("newly_arrived") and int(d.get("arrived_t", g.t)) < g.t:
            f = ctx.formation(tf.id)
            f.data["newly_arrived"] = False
        if d.get("must_leave") and tf.location and int(d.get("arrived_t", -1)) != g.t:
            ctx.formation(tf.id).data["must_leave"] = False
    ctx.set_var("week_fights", None)
    ctx.set_var("week_engagements", None)
    ctx.summary("End of the week")


def repairs(ctx: Ctx) -> None:
    """F-34: docks repair up to 5 points a ship and 5 per dock a week at 1 SP a point (ships at
    once <= min(docks, Df), DEFAULT-28); facilities repair up to modules points at 2 SP each;
    fighters aboard carriers at the option's cost. Nothing for unsupplied units."""
    g = game(ctx)
    order = ("df", "mv", "sn", "sc", "bm", "mi")
    for fac in g.facilities():
        docked = sorted(
            (u for u in g.state.units.values() if u.status.get("docked") == fac.id and g.alive(u)),
            key=lambda u: (u.side != fac.side, u.id),
        )
        if not docked:
            continue
        docks = g.fac_stat(fac, "repair")
        limit = min(docks, g.fac_stat(fac, "df")) if ctx.options.get("damaged_dock_limit", True) else docks
        budgets = [5] * docks
        for i, u in enumerate(docked):
            if i >= limit:
                ctx.explain(f"{g.label(u)} waits: {fac.id} can repair {limit} ship(s) at once")
                continue
            dmg = sum(g.losses(u).get(s, 0) for s in order)
            dock = max(range(len(budgets)), key=lambda k: budgets[k]) if budgets else None
            left = budgets[dock] if dock is not None else 0
            res = dock_repair(ctx, dmg, left, not u.status.get("unsupplied")).value
            pts = res["points"]
            have = g.fac_sp(g.state.formations[fac.id])
            pts = min(pts, int(have))
            if pts <= 0:
                continue
            budgets[dock] -= pts  # type: ignore[index]
            f = ctx.formation(fac.id)
            f.data["sp"] = spm.store(have - pts)
            unit = ctx.unit(u.id)
            todo = pts
            for s in order:
                while todo and int(unit.status.get(f"lost_{s}", 0)) > 0:
                    unit.status[f"lost_{s}"] = int(unit.status[f"lost_{s}"]) - 1
                    todo -= 1
            if not g.damaged(unit):
                unit.status["docked"] = ""
            news.event(ctx, f"{g.label(u)} repaired {pts} point(s) at {fac.id}", [u.side], "repair")
    for fac in g.facilities():
        dmg = dict(fac.data.get("damage", {}))
        total = sum(int(v) for v in dmg.values())
        if not total or g.fac_type(fac) not in ("CFR", "ASB", "FB", "SD"):
            continue
        res = facility_self_repair(
            ctx, total, int(fac.data.get("modules", 1)), spm.store(g.fac_sp(fac))
        ).value
        if not res["points"]:
            continue
        todo = res["points"]
        for k in sorted(dmg, key=lambda s: s != "df"):
            while todo and dmg[k] > 0:
                dmg[k] -= 1
                todo -= 1
        f = ctx.formation(fac.id)
        f.data["damage"] = {k: v for k, v in dmg.items() if v}
        f.data["sp"] = spm.store(g.fac_sp(fac) - res["cost"])
    cost = int(ctx.options.get("fighter_repair_cost", 1))
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        if g.code(u) != "FTR" or not g.alive(u) or not g.damaged(u) or u.status.get("unsupplied"):
            continue
        carrier = g.state.units.get(u.status.get("carried_by") or "")
        if carrier is None or g.code(carrier) in ("MF", "MS", "MQ"):
            continue
        pts = sum(g.losses(u).get(s, 0) for s in order)
        have = g.cargo(carrier)
        afford = pts if cost == 0 else min(pts, int(have // cost))
        if afford <= 0:
            continue
        c = ctx.unit(carrier.id)
        c.status["cargo_sp"] = str(spm.store(have - afford * cost))
        unit = ctx.unit(u.id)
        todo = afford
        for s in order:
            while todo and int(unit.status.get(f"lost_{s}", 0)) > 0:
                unit.status[f"lost_{s}"] = int(unit.status[f"lost_{s}"]) - 1
                todo -= 1


def progress(ctx: Ctx) -> None:
    """W.10: conversions of captured facilities, installations, deploying and packing."""
    g = game(ctx)
    for fac in g.formations("facility"):
        d = fac.data
        if d.get("state") == "deploying":
            ctx.formation(fac.id).data["state"] = "deployed"
            news.event(ctx, f"{fac.id} is deployed at {fac.location}", [fac.side], "facility")
        elif d.get("state") == "packing":
            ctx.formation(fac.id).data["state"] = "packed"
            news.event(ctx, f"{fac.id} is packed at {fac.location}", [fac.side], "facility")
        if d.get("captured") and int(d.get("working_modules", 0)) < int(d.get("modules", 0)):
            per = int(conversion(ctx, g.fac_type(fac), 1).value["cost"])
            rec = ctx.record("nations", fac.side)
            stock = spm.sp(rec.get("qas_stock", 0))
            have = g.fac_sp(fac)
            f = ctx.formation(fac.id)
            if have >= per:
                f.data["sp"] = spm.store(have - per)
            elif stock >= per:
                rec["qas_stock"] = spm.store(stock - per)
            else:
                news.event(
                    ctx, f"{fac.id}: no {per} SP to convert a module this week", [fac.side], "facility"
                )
                continue
            f.data["working_modules"] = int(d.get("working_modules", 0)) + 1
            news.event(
                ctx,
                f"{fac.id}: module {f.data['working_modules']}/{d['modules']} converted",
                [fac.side],
                "facility",
            )
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        job = str(u.status.get("install") or "")
        if not job or not g.alive(u):
            continue
        item, _, due = job.partition("@")
        if int(due or 0) > g.t:
            continue
        unit = ctx.unit(u.id)
        unit.status["install"] = ""
        if item == "sDrn":
            unit.status["drone"] = True
        elif item == "mPak":
            unit.status["paks"] = int(unit.status.get("paks", 0)) + 1
        elif item == "SubD":
            unit.status["subd"] = True
            unit.attrs["interface"] = False
        news.event(ctx, f"{g.label(u)}: {item} installed", [u.side], "upgrade")


def supply_retreats(ctx: Ctx) -> None:
    """F-36c: ships 2+ weeks unsupplied retreat to the nearest friendly base on a failed check."""
    g = game(ctx)
    by_tf: dict[str, list[str]] = {}
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        if not g.alive(u) or not g.is_ship(u) or u.status.get("retreating") or u.status.get("carried_by"):
            continue
        weeks = g.weeks_unsupplied(u)
        if weeks < 2 or not u.formation or u.formation not in g.state.formations:
            continue
        tf = g.state.formations[u.formation]
        if tf.kind != "task_force" or not tf.location:
            continue
        cap = g.captain(u) or {}
        res = supply_retreat(ctx, weeks, int(cap.get("stac") or 0), g.ftac(tf.id), g.label(u), u.side).value
        if res:
            by_tf.setdefault(tf.id, []).append(u.id)
    for fid, ships in by_tf.items():
        tf = g.state.formations[fid]
        base = nearest_base(g, tf.side, tf.location or "")
        if base is None or base == tf.location:
            for uid in ships:
                ctx.unit(uid).status["retreating"] = True
            continue
        if len(ships) == len(g.hulls(fid)):
            dst = fid
        else:
            dst = ids.next_free(list(g.state.formations), tf.side, "task_force")
            transfer_ships(ctx, ships, fid, dst)
        ctx.formation(dst).data["retreat_to"] = base
        for uid in ships:
            ctx.unit(uid).status["retreating"] = True
        news.event(ctx, f"{', '.join(ships)} retreat toward {base} for resupply", [tf.side], "supply")


def crew_quality(ctx: Ctx) -> None:
    """F-22: +1 (max +3) for ships of a side that won a combat this week, -1 (min -2) for ships
    that retreated from a lost one; Kafers use arousal instead."""
    g = game(ctx)
    for uid, rec in sorted((ctx.var("week_fights", {}) or {}).items()):
        u = g.state.units.get(uid)
        if u is None or not g.alive(u) or g.kafer(u.side):
            continue
        new = crew_quality_update(
            ctx, int(u.status.get("cq", 0)), True, bool(rec.get("won")), bool(rec.get("retreated"))
        ).value
        if new != int(u.status.get("cq", 0)):
            ctx.unit(uid).status["cq"] = new


def tactics(ctx: Ctx) -> None:
    """F-03: each commander who took part in an engagement rolls for improvement."""
    g = game(ctx)
    for eng in ctx.var("week_engagements", []) or []:
        for cid in eng.get("commanders", []):
            c = g.commanders().get(cid)
            if not c or not c.get("alive", True):
                continue
            ship = g.state.units.get(c.get("ship") or "")
            code = g.code(ship) if ship is not None else "CG"
            res = tactics_improvement(
                ctx,
                int(c.get("stac") or 0),
                int(c.get("ftac") or 0),
                int(c.get("initial_stac") or 0),
                int(c.get("k", 0)),
                code,
                bool(c.get("flag")),
                str(c.get("name", cid)),
            ).value
            rec = ctx.record("commanders", cid)
            rec["k"] = res["k"]
            if res["raised"] == "stac":
                rec["stac"] = res["stac"]
            elif res["raised"] == "ftac":
                rec["ftac"] = res["ftac"]
            if res["raised"]:
                news.event(
                    ctx,
                    f"{c.get('name', cid)}: {res['raised']} rises to {res[res['raised']]}",
                    [str(c.get("nation"))],
                    "commander",
                )


def psd_checks(ctx: Ctx) -> None:
    """F-46: a planetary depot on a world with enemy ground forces is found on pct(20)."""
    g = game(ctx)
    for cid, c in sorted(g.colonies().items()):
        if not c.get("psd") or c.get("destroyed"):
            continue
        enemy = any(
            g.enemies(u.side, str(c["owner"]))
            and g.alive(u)
            and not u.status.get("carried_by")
            and g.is_troop(u)
            and g.unit_system(u) == c["system"]
            and (
                u.data.get("colony") == cid
                or (
                    g.state.formations.get(u.formation or "")
                    and g.state.formations[u.formation].data.get("colony") == cid
                )
            )
            for u in g.state.units.values()
        )
        if not enemy:
            continue
        if psd_discovery(ctx, True, f"depot at {c.get('name', cid)}").value:
            rec = ctx.record("colonies", cid)
            lost = rec.get("psd_sp", 0)
            rec["psd_sp"] = 0
            rec["psd"] = False
            news.event(
                ctx,
                f"the planetary supply depot at {c.get('name', cid)} is found and destroyed "
                f"({spm.text(lost)} SP lost)",
                [str(c["owner"])],
                "supply",
            )


def fees(ctx: Ctx) -> None:
    """F-40: escort fees earned this week, paid at the start of next week."""
    g = game(ctx)
    for sid, s in sorted(g.systems().items()):
        units: dict[str, int] = {}
        for tf in g.tfs(system=sid):
            if g.tf_order(tf.id).get("movement") == "escort":
                units[tf.side] = units.get(tf.side, 0) + len(g.ships(tf.id))
        if not units:
            continue
        for nation, fee in escort_fees(ctx, int(s.get("volume", 0)), units).value.items():
            if fee:
                rec = ctx.record("nations", nation)
                rec["fees_due"] = int(rec.get("fees_due", 0)) + int(fee)
                news.event(ctx, f"escorts at {sid} earn {fee} SP (paid next week)", [nation], "fees")
