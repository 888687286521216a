"""The combat phase (rule 4, digest 2.3): contested hexes and the state side of the space
(SC), system-defense (SD), bombing (SB), transfer (ST) and surface (SF) sub-machines.

The phase machine calls these on entering its steps; the combat actions call them to apply
what the players decided. The current hex's progress lives in the ``combat`` var.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import ActionRejected
from rulesets.fifth_frontier_war import combat_procs as CP
from rulesets.fifth_frontier_war import control, ops
from rulesets.fifth_frontier_war.formulas import (
    SIDES,
    combat_strength,
    fmt,
    frac,
    other,
    side_quality,
    split,
    sum_frac,
    tactical_modifiers,
)
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ELIMINATED, is_hex

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import State, Unit

SIDE_NAMES = {"imperial": "Imperial", "zhodani": "Zhodani", "independent": "Independent", "gm": "GM"}


def cv(state: State) -> dict[str, Any]:
    return dict(state.vars.get("combat") or {})


def here(state: State) -> str:
    return str(cv(state).get("hex", ""))


# -- contested hexes ----------------------------------------------------------------------------
def contested(g: Game) -> list[str]:
    """Hexes where opposing forces meet: squadrons of both sides, squadrons facing enemy SDBs,
    bombers over enemy troops or battalions, troops facing enemy troops or battalions, or an
    armed squadron over an enemy vacuum world (surrender)."""
    places = {
        g.place_of(u)
        for u in g.state.units.values()
        if g.in_play(u) and g.kind(u) in ("squadron", "troop", "guerrilla")
    }
    out = []
    for place in sorted(p for p in places if p and is_hex(p)):
        if any(_contact(g, place, side) for side in SIDES):
            out.append(place)
    return out


def _contact(g: Game, place: str, side: str) -> bool:
    ships = g.squadrons(place, side, active_only=True)
    troops = g.troops(place, side)
    if not ships and not troops:
        return False
    enemy = other(side)
    if ships and g.squadrons(place, enemy, active_only=True):
        return True
    w = g.world(place)
    if not w:
        return False
    d = g.defender(w, side)
    enemy_troops = g.troops(place, enemy)
    if ships and d is not None and g.sdb_current(w) > 0:
        return True
    if (ships or troops) and (enemy_troops or (d is not None and g.db_current(w) > 0)):
        return True
    if troops and d is not None and g.sdb_current(w) > 0:
        return True
    if troops and (w.get("controller") or "") != side and control.holds(g, place, side):
        return True
    return bool(
        ships
        and w.get("atmosphere") == "vacuum"
        and w.get("controller") == enemy
        and any(g.face(s).attack > 0 for s in ships)
    )


def start_hex(ctx: Ctx, place: str) -> None:
    queue = [h for h in ctx.var("combat_queue", []) if h != place]
    ctx.set_var("combat_queue", queue)
    ctx.set_var("combat", {"hex": place, "round": 0, "owed": {}, "allocated": {}, "decided": {}})
    w = Game.of(ctx).world(place)
    ctx.explain(f"combat at {place}" + (f" ({w['name']})" if w else ""))


def end_hex(ctx: Ctx) -> None:
    place = here(ctx.state)
    done = ctx.edit_var("combat_done", [])
    done.append(place)
    ctx.set_var("combat", None)


# -- black globes (3A) --------------------------------------------------------------------------
def black_globe_fleets(g: Game, place: str) -> list[str]:
    if not g.options.get("black_globes"):
        return []
    out = []
    for f in g.fleets(place, "imperial"):
        ships = g.fleet_ships(f.id)
        if (
            ships
            and all(g.a(s, "black_globe", False) for s in ships)
            and all(
                int(s.status.get("jumped_turn", 0)) == g.turn
                and not s.status.get("disengaged")
                and int(s.status.get("moved_for", 0)) != g.turn
                for s in ships
            )
        ):
            out.append(f.id)
    return out


# -- space combat (SC) ----------------------------------------------------------------------------
def both_have_squadrons(state: State) -> bool:
    g = Game.read(state)
    place = here(state)
    return all(g.squadrons(place, s, active_only=True) for s in SIDES)


def commander(ctx: Ctx, g: Game, place: str, side: str) -> tuple[Unit | None, int]:
    """5.5 / 5.18: the senior eligible admiral present (on the world: -1 tactical)."""
    ships = g.squadrons(place, side, active_only=True)
    counts = g.navy_counts(ships)
    cands = []
    for adm in g.admirals(place, side):
        own = counts.get(g.command_navy(adm), 0)
        if sum(counts.values()) - own > own:
            continue
        cands.append(adm)
    if not cands:
        return None, 0
    cands.sort(key=lambda a: (g.precedence(a), a.id))
    best = g.precedence(cands[0])
    tied = [a for a in cands if g.precedence(a) == best]
    navies = {g.command_navy(a) for a in cands}
    pick = cands[0]
    if len(tied) > 1 or (ctx.options.get("cross_navy_seniority") == "owner_chooses" and len(navies) > 1):
        pool = tied if len(tied) > 1 and len(navies) == 1 else cands
        choice = ctx.choose(
            f"commander:{place}:{side}:{g.turn}",
            f"{SIDE_NAMES[side]}: which admiral takes overall command at {place}?",
            [(a.id, f"{a.label} (precedence {g.precedence(a)})") for a in pool],
            side=side,
            default=pool[0].id,
        )
        pick = ctx.state.units[choice]
    tf = int(g.a(pick, "tactical", 0)) - (1 if pick.status.get("on_world") else 0)
    return pick, tf


def space_start(ctx: Ctx) -> None:
    """SC0: each side's commanding admiral and tactical factor."""
    g = Game.of(ctx)
    place = here(ctx.state)
    c = ctx.edit_var("combat", {})
    tf: dict[str, int] = {}
    cmd: dict[str, str] = {}
    for side in SIDES:
        adm, value = commander(ctx, g, place, side)
        tf[side] = value
        cmd[side] = adm.id if adm else ""
        ctx.explain(
            f"{SIDE_NAMES[side]}: "
            + (
                f"{adm.label} commands, tactical factor {value}"
                + (" (on the world: -1)" if adm.status.get("on_world") else "")
                if adm
                else "no admiral present, tactical factor 0"
            )
        )
    mi, mz = tactical_modifiers(tf["imperial"], tf["zhodani"])
    c.update({"tf": tf, "commanders": cmd, "mods": {"imperial": mi, "zhodani": mz}, "round": 0})
    ctx.explain(f"tactical modifiers: Imperial {mi:+d}, Zhodani {mz:+d}")


def round_info(g: Game, place: str) -> dict[str, dict[str, Any]]:
    """Totals, quality and the T9 shift of both sides this round (5.3, 5.6)."""
    info: dict[str, dict[str, Any]] = {}
    for side in SIDES:
        ships = g.squadrons(place, side, active_only=True)
        total = sum(g.face(s).attack for s in ships)
        own = "imperial" if side == "imperial" else "zhodani"
        regular = sum(g.face(s).attack for s in ships if g.regular(s) and g.navy(s) == own)
        q = side_quality(regular, total, str(g.options.get("zero_attack_quality", "standard")))
        info[side] = {
            "total": total,
            "regular": regular,
            "quality": q,
            "parts": len(split(total, 48)),
            "shift": 0,
        }
    if g.options.get("squadron_quality"):
        t9 = g.tables.get("T9")
        for side in SIDES:
            o = other(side)
            info[side]["shift"] = int(
                t9.lookup(firing=f"{side}_{info[side]['quality']}", target=f"{o}_{info[o]['quality']}").value
            )
    return info


def quality_choice_needed(state: State) -> bool:
    g = Game.read(state)
    if not g.options.get("squadron_quality"):
        return False
    info = round_info(g, here(state))
    return any(i["shift"] and i["parts"] > 1 for i in info.values())


def space_fire_round(ctx: Ctx, only: str | None = None) -> None:
    """SC2: both sides fire at once (a black-globe surprise round: only *only* fires)."""
    g = Game.of(ctx)
    place = here(ctx.state)
    c = ctx.edit_var("combat", {})
    c["round"] = int(c.get("round", 0)) + 1
    w = g.world(place)
    ctx.round(f"Space combat round {c['round']} at {place}" + (f" ({w['name']})" if w else "")
              + (" (surprise)" if only else ""))
    info = round_info(g, place)
    owed: dict[str, int] = {}
    for side in SIDES:
        i = info[side]
        if g.options.get("squadron_quality"):
            ctx.explain(
                f"{SIDE_NAMES[side]} quality {i['quality']} ({i['regular']} of {i['total']} attack from "
                f"{side} regular squadrons); column shift {i['shift']:+d}"
            )
        if only and side != only:
            owed[other(side)] = 0
            continue
        total = i["total"]
        if only:
            total = sum(g.face(s).attack for s in g.fleet_ships(str(c.get("bg_fleet", ""))))
        part = int((c.get("quality_part") or {}).get(side, 1)) - 1
        res = CP.space_fire(
            ctx,
            total,
            int(c["mods"][side]),
            int(i["shift"]),
            part,
            side=side,
            label=f"{SIDE_NAMES[side]} round {c['round']}",
        )
        owed[other(side)] = int(res.value)
    c["owed"] = owed
    c["allocated"] = {s: owed.get(s, 0) == 0 for s in SIDES}
    c["decided"] = {}
    c.pop("quality_part", None)
    if (
        not only
        and info["imperial"]["total"] == 0
        and info["zhodani"]["total"] == 0
        and g.options.get("end_space_combat_at_zero", True)
    ):
        c["space_over"] = True
        ctx.explain("neither side has any attack factor: space combat ends and both stay (G-11)")


def hulls(g: Game, place: str, side: str) -> list[CP.Hull]:
    out = []
    for s in g.squadrons(place, side, active_only=True):
        face = g.face(s)
        back = int(g.a(s, "r_defense", 0)) if g.has_back(s) else None
        out.append(CP.Hull(s.id, face.defense, back, bool(s.status.get("reduced"))))
    return out


def apply_allocation(
    ctx: Ctx, side: str, choice: dict[str, str], troop_losses: dict[str, dict[str, int]] | None = None
) -> None:
    """5.4: take at least the owed defense factors by reducing and eliminating squadrons."""
    g = Game.of(ctx)
    place = here(ctx.state)
    c = ctx.edit_var("combat", {})
    owed = int(c.get("owed", {}).get(side, 0))
    hs = hulls(g, place, side)
    known = {h.id for h in hs}
    for sid in choice:
        if sid not in known:
            raise ActionRejected(f"{sid} is not a {side} squadron fighting at {place}")
    problem = CP.check_allocation(owed, hs, choice)
    if problem:
        raise ActionRejected(problem)
    lost = CP.allocation_loss(hs, choice) if choice else 0
    for sid, op in sorted(choice.items()):
        if op == "eliminate":
            ops.eliminate_squadron(ctx, sid, "battle damage")
        else:
            ops.reduce_squadron(ctx, sid, (troop_losses or {}).get(sid))
    ops.admirals_lost(ctx, place, side)
    c["allocated"][side] = True
    ctx.explain(f"{SIDE_NAMES[side]} loses {lost} defense factors against {owed} owed")


def allocations_missing(state: State) -> str | None:
    c = cv(state)
    left = [SIDE_NAMES[s] for s, done in (c.get("allocated") or {}).items() if not done]
    if left:
        owed = c.get("owed", {})
        return "battle damage still to allocate: " + ", ".join(
            f"{name} ({owed.get(s, 0)} defense factors)"
            for s, name in ((s, SIDE_NAMES[s]) for s in (c.get("allocated") or {}) if not c["allocated"][s])
        )
    return None


def space_over(state: State) -> bool:
    return bool(cv(state).get("space_over")) or not both_have_squadrons(state)


def movers(g: Game, place: str, side: str) -> dict[str, dict[str, Any]]:
    """Fleets and independent scouts able to disengage: fueled, with a system in range."""
    worlds = [h for h in g.state.records("worlds") if h != place]
    out: dict[str, dict[str, Any]] = {}

    def reach(jump: int) -> bool:
        return any(g.dist(place, h) <= jump for h in worlds)

    for f in g.fleets(place, side):
        able = [
            s
            for s in g.fleet_ships(f.id)
            if not s.status.get("disengaged")
            and not s.status.get("needs_fuel")
            and g.face(s).jump > 0
            and reach(g.face(s).jump)
        ]
        if able:
            out[f.id] = {
                "kind": "fleet",
                "able": [s.id for s in able],
                "jump": min(g.face(s).jump for s in able),
            }
    for s in g.squadrons(place, side, active_only=True):
        if s.formation or g.face(s).type != "S" or s.status.get("needs_fuel") or not reach(g.face(s).jump):
            continue
        out[s.id] = {"kind": "scout", "able": [s.id], "jump": g.face(s).jump}
    return out


def can_disengage(state: State, role: str) -> bool:
    side = state.vars.get("roles", {}).get(role, "")
    if not side or space_over(state):
        return False
    return bool(movers(Game.read(state), here(state), side))


def disengage_order(ctx: Ctx) -> None:
    """SC4: the side with the lower tactical factor decides first; equal: a roll-off (G-09)."""
    c = ctx.edit_var("combat", {})
    tf = c.get("tf", {"imperial": 0, "zhodani": 0})
    if tf["imperial"] != tf["zhodani"]:
        first = "imperial" if tf["imperial"] < tf["zhodani"] else "zhodani"
    else:
        rule = ctx.options.get("disengage_tie", "reroll")
        if rule == "imperial_first":
            first = "imperial"
        elif rule == "zhodani_first":
            first = "zhodani"
        else:
            while True:
                a = ctx.roll("1d6", "disengagement order: Imperial", side="imperial").natural
                z = ctx.roll("1d6", "disengagement order: Zhodani", side="zhodani").natural
                if a != z:
                    break
                ctx.explain(f"both rolled {a}: roll again (G-09)")
            first = "imperial" if a < z else "zhodani"
    roles = dict(ctx.var("roles", {}))
    roles["first_disengager"], roles["second_disengager"] = first, other(first)
    ctx.set_var("roles", roles)
    ctx.explain(f"{SIDE_NAMES[first]} decides first whether to disengage")


def disengage(ctx: Ctx, side: str, destinations: dict[str, str]) -> list[str]:
    """Every squadron able to disengage jumps out: each fleet to one system within the jump
    of its able squadrons (the others are detached and stay), each free scout on its own.
    The jump counts as next turn's movement; the plot is aborted unless next turn's order was
    exactly that jump."""
    g = Game.of(ctx)
    place = here(ctx.state)
    mv = movers(g, place, side)
    missing = [k for k in mv if k not in destinations]
    if missing:
        names = [ctx.state.formations[k].name if k in ctx.state.formations else k for k in missing]
        raise ActionRejected(
            "every fleet and free scout able to jump must disengage; give a destination for "
            + ", ".join(names)
        )
    extra = [k for k in destinations if k not in mv]
    if extra:
        raise ActionRejected(f"{', '.join(extra)} cannot disengage (not here, unfueled or out of range)")
    turn = g.turn
    lines = []
    for key, dest in destinations.items():
        info = mv[key]
        if not g.world(dest):
            raise ActionRejected(f"{dest} holds no system: a disengagement jump must go to a system")
        if dest == place or g.dist(place, dest) > info["jump"]:
            raise ActionRejected(f"{dest} is {g.dist(place, dest)} hexes away; jump {info['jump']} at most")
    for key, dest in sorted(destinations.items()):
        info = mv[key]
        if info["kind"] == "fleet":
            stay = [s for s in g.fleet_ships(key) if s.id not in info["able"]]
            for s in stay:
                ctx.unit(s.id).formation = None
                lines.append(f"{g.label(s)} cannot disengage and is detached from its fleet")
            lines.extend(ops.jump_fleet(ctx, key, dest, turn + 1))
            for sid in info["able"]:
                u = ctx.unit(sid)
                u.status["disengaged"] = True
                u.status["moved_for"] = turn + 1
            f = ctx.state.formations[key]
            plot = ops.plot(ctx.state, side, key)
            nxt = plot.get(turn + 1)
            if nxt and nxt["order"] == "J" and nxt["hex"] == dest:
                lines.append(
                    f"{f.name} disengages to {dest}, its plotted jump for turn {turn + 1}: plot kept"
                )
            else:
                from rulesets.fifth_frontier_war import plots as P

                ops.save_plot(ctx, side, key, P.abort(plot, turn, dest))
                lines.append(f"{f.name} disengages to {dest}: its plot is aborted (holds at {dest})")
        else:
            ops.jump_squadron(ctx, key, dest, turn + 1)
            u = ctx.unit(key)
            u.status["disengaged"] = True
            u.status["moved_for"] = turn + 1
            lines.append(f"{u.label} disengages to {dest}")
    return lines


# -- system defense (SD) --------------------------------------------------------------------------
def sd_start(ctx: Ctx) -> None:
    """SD0: which side's squadrons face which world's SDBs."""
    g = Game.of(ctx)
    place = here(ctx.state)
    c = ctx.edit_var("combat", {})
    c["sd"] = None
    w = g.world(place)
    if not w or g.sdb_current(w) <= 0:
        return
    for side in SIDES:
        ships = [s for s in g.squadrons(place, side, active_only=True) if not s.status.get("stood_aside")]
        y = g.defender(w, side)
        if ships and y is not None and w.get("sdb_mode", "") != "passive":
            c["sd"] = {"x": side, "y": y, "attack": None, "mode": None, "round": 0, "over": False}
            roles = dict(ctx.var("roles", {}))
            roles["sq_side"] = side
            roles["sdb_side"] = y if y in SIDES else "gm"
            ctx.set_var("roles", roles)
            ctx.explain(
                f"{SIDE_NAMES[side]} squadrons face the SDBs of {w['name']} "
                f"(full {w['sdb']}, current {g.sdb_current(w)}, TL {w['tech_level']})"
            )
            return


def sd_active(state: State) -> bool:
    return bool(cv(state).get("sd"))


def sd_round(ctx: Ctx) -> None:
    """SD3: the squadrons (if attacking) and the active SDBs fire; both results apply at the end
    of the round, so the SDBs fire at their strength at the start of it (WE-67)."""
    g = Game.of(ctx)
    place = here(ctx.state)
    c = ctx.edit_var("combat", {})
    sd = c["sd"]
    sd["round"] += 1
    w = g.world(place)
    ctx.round(f"SDB combat round {sd['round']} at {w['name']}")
    x, y = sd["x"], sd["y"]
    passive = sd.get("mode") == "passive"
    start_strength = g.sdb_current(w)
    pct = 0
    if sd.get("attack"):
        ships = [s for s in g.squadrons(place, x, active_only=True) if not s.status.get("stood_aside")]
        bombard = sum(g.face(s).bombard for s in ships)
        pct = int(
            CP.squadrons_vs_sdb(
                ctx,
                bombard,
                int(w["sdb"]),
                int(w["tech_level"]),
                passive,
                side=x,
                label=f"{SIDE_NAMES[x]} SD round {sd['round']}",
            ).value
        )
    damage = 0
    if not passive:
        damage = int(
            CP.sdb_fire(
                ctx,
                start_strength,
                int(w["tech_level"]),
                side=y if y in SIDES else None,
                label=f"{w['name']} SDBs, round {sd['round']}",
            ).value
        )
    rec = ctx.record("worlds", place)
    if pct:
        rec["sdb_loss"] = min(100, int(rec.get("sdb_loss", 0)) + pct)
        ctx.explain(f"{w['name']} SDB losses now {rec['sdb_loss']}%")
    c["owed"] = {x: damage}
    c["allocated"] = {x: damage == 0}
    if passive or g.sdb_current(ctx.state.records("worlds")[place]) <= 0:
        sd["over"] = True
    if not sd.get("attack") and ctx.options.get("sdb_fire_on_decliners", "every_round") == "one_round":
        sd["over"] = True


def sd_over(state: State) -> bool:
    c = cv(state)
    sd = c.get("sd") or {}
    if not sd or sd.get("over"):
        return True
    g = Game.read(state)
    place = here(state)
    w = g.world(place)
    return not w or g.sdb_current(w) <= 0 or not g.squadrons(place, sd["x"], active_only=True)


def stand_aside(ctx: Ctx, side: str, why: str) -> None:
    g = Game.of(ctx)
    place = here(ctx.state)
    for s in g.squadrons(place, side, active_only=True):
        ctx.unit(s.id).status["stood_aside"] = True
    ctx.explain(f"{SIDE_NAMES[side]} squadrons at {place} {why}: no bombing or transfers this combat phase")


# -- surface bombing (SB) -------------------------------------------------------------------------
def bomb_sources(g: Game, place: str, side: str, bg_fleet: str = "") -> tuple[Fraction, list[str]]:
    """The bombardment a side may use here (5.9): its squadrons if no active enemy SDBs (and it
    did not stand aside) plus its own world's SDBs if not passive (current / 10)."""
    total = Fraction(0)
    notes = []
    if bg_fleet:
        ships = g.fleet_ships(bg_fleet)
        total += sum(g.face(s).bombard for s in ships)
        notes.append(f"black-globe fleet {fmt(total)}")
        return total, notes
    if side in SIDES:
        ships = [s for s in g.squadrons(place, side, active_only=True) if not s.status.get("stood_aside")]
        if ships and not g.enemy_sdb_active(place, side):
            sq = sum(g.face(s).bombard for s in ships)
            total += sq
            notes.append(f"squadrons {sq}")
    w = g.world(place)
    owner = (w.get("controller") or "") if w else ""
    sdb_owner = owner if owner else ("independent" if g.options.get("independent_defenses_resist") else None)
    if w and sdb_owner == side and g.sdb_current(w) > 0 and w.get("sdb_mode", "") != "passive":
        from rulesets.fifth_frontier_war.combat_procs import sdb_bombardment

        b = sdb_bombardment(g.sdb_current(w), str(g.options.get("sdb_bombard_fraction", "keep")))
        total += b
        notes.append(f"SDBs {fmt(b)} (current {g.sdb_current(w)} / 10)")
    return total, notes


def bomb_targets(g: Game, place: str, side: str) -> dict[str, Unit | None]:
    """Enemy troop units (covert guerrillas only if the G-24 option allows) and the enemy
    defense unit (``db:<hex>``) on the world."""
    w = g.world(place)
    if not w:
        return {}
    out: dict[str, Unit | None] = {}
    enemies = SIDES if side == "independent" else (other(side),)
    for e in enemies:
        for u in g.troops(place, e, overt_only=not g.options.get("covert_guerrillas_bombable")):
            out[u.id] = u
    if side in SIDES and g.defender(w, side) is not None and g.db_current(w) > 0:
        out[f"db:{place}"] = None
    return out


def bombing_sides(state: State) -> list[str]:
    g = Game.read(state)
    place = here(state)
    sides = list(SIDES) + (["independent"] if g.options.get("independent_defenses_resist") else [])
    return [s for s in sides if bomb_sources(g, place, s)[0] > 0 and bomb_targets(g, place, s)]


def apply_loss(ctx: Ctx, target: str, pct: int, place: str) -> None:
    if not pct:
        return
    if target.startswith("db:"):
        rec = ctx.record("worlds", place)
        rec["db_loss"] = min(100, int(rec.get("db_loss", 0)) + pct)
        ctx.explain(
            f"{rec['name']} defense battalions: +{pct}% -> {rec['db_loss']}%"
            + (" (destroyed)" if rec["db_loss"] >= 100 else "")
        )
        return
    u = ctx.unit(target)
    u.status["loss"] = min(100, int(u.status.get("loss", 0)) + pct)
    ctx.explain(
        f"{u.label}: +{pct}% -> {u.status['loss']}%" + (" (eliminated)" if u.status["loss"] >= 100 else "")
    )
    if u.status["loss"] >= 100:
        u.status["eliminated"] = True
        u.location = ELIMINATED


def target_name(g: Game, target: str, place: str) -> str:
    """A bombardment target as the table names it: a troop unit's label, or the world's
    defence battalions with the world's name and hex."""
    if target.startswith("db:"):
        w = g.world(place)
        return "the defence battalions of " + (f"{w['name']} ({place})" if w else place)
    u = g.state.units.get(target)
    return u.label if u else target


def target_tl(g: Game, target: str, place: str) -> int:
    if target.startswith("db:"):
        return int(g.world(place)["tech_level"])
    return g.troop_tl(g.state.units[target])


def bomb(ctx: Ctx, side: str, allocation: dict[str, Any], bg_fleet: str = "") -> list[str]:
    g = Game.of(ctx)
    place = here(ctx.state)
    total, notes = bomb_sources(g, place, side, bg_fleet)
    targets = bomb_targets(g, place, side)
    alloc = {k: frac(v) for k, v in allocation.items() if frac(v) > 0}
    for k in alloc:
        if k not in targets:
            raise ActionRejected(
                f"{k} is not a target {SIDE_NAMES.get(side, side)} may bomb here; targets: "
                + (", ".join(targets) or "none")
            )
    if sum_frac(alloc.values()) > total:
        raise ActionRejected(
            f"{fmt(sum_frac(alloc.values()))} allotted but only {fmt(total)} bombardment "
            f"available ({'; '.join(notes)})"
        )
    lines = [f"{SIDE_NAMES.get(side, side)} bombardment {fmt(total)} ({'; '.join(notes)})"]
    for tid, amount in sorted(alloc.items()):
        name = (
            g.world(place)["name"] + " defense battalions" if tid.startswith("db:") else g.label(targets[tid])
        )
        res = CP.bomb_target(
            ctx,
            amount,
            target_tl(g, tid, place),
            side=side if side in SIDES else None,
            label=f"bombing {name}",
        )
        apply_loss(ctx, tid, int(res.value), place)
        lines.append(f"{name}: {res.summary}")
    return lines


# -- transfers (ST) -------------------------------------------------------------------------------
def transfer_ships(g: Game, place: str, side: str) -> list[Unit]:
    return [s for s in g.squadrons(place, side, active_only=True) if not s.status.get("stood_aside")]


def transfers_possible(state: State) -> bool:
    g = Game.read(state)
    place = here(state)
    w = g.world(place)
    if not w:
        return False
    for side in SIDES:
        ships = transfer_ships(g, place, side)
        if not ships:
            continue
        jump = g.options.get("jump_troops") and any(
            str(g.a(t, "troop_type", "")) == "jump" for s in ships for t in g.aboard(s)
        )
        if g.enemy_sdb_active(place, side) and not jump:
            continue
        cargo = any(g.aboard(s) for s in ships)
        ashore = [t for t in g.troops(place, side) if not g.is_guerrilla(t)]
        if cargo or ashore:
            return True
    return False


# -- surface combat (SF) --------------------------------------------------------------------------
def participants(g: Game, place: str) -> list[str]:
    w = g.world(place)
    if not w:
        return []
    out = []
    for side in SIDES:
        mine = g.troops(place, side)
        enemy = g.troops(place, other(side))
        d = g.defender(w, side)
        own_db = w.get("controller") == side and g.db_current(w) > 0
        if (mine and (enemy or (d is not None and g.db_current(w) > 0))) or (own_db and enemy):
            out.append(side)
    if (
        not w.get("controller")
        and g.options.get("independent_defenses_resist")
        and g.db_current(w) > 0
        and any(g.troops(place, s) for s in SIDES)
    ):
        out.append("independent")
    return out


def surface_contact(state: State) -> bool:
    return bool(participants(Game.read(state), here(state)))


def psionic_first(state: State) -> bool:
    g = Game.read(state)
    place = here(state)
    return "zhodani" in participants(g, place) and any(g.psionic(u) for u in g.troops(place, "zhodani"))


def firers(g: Game, place: str, side: str, psionic: bool | None) -> dict[str, dict[str, Any]]:
    """Units that may fire: own overt troops on the world and the own defense unit."""
    out: dict[str, dict[str, Any]] = {}
    w = g.world(place)
    if side in SIDES:
        for u in g.troops(place, side):
            if psionic is not None and g.psionic(u) != psionic:
                continue
            cur = g.troop_current(u)
            out[u.id] = {
                "strength": combat_strength(
                    cur,
                    g.armor(u),
                    g.elite(u),
                    g.mercenary(u),
                    int(u.status.get("loss", 0)),
                    True,
                    str(g.options.get("doubling", "fire_and_defend")),
                    str(g.options.get("mercenary_halving", "fire_exact")),
                ),
                "tl": g.troop_tl(u),
                "label": g.label(u),
            }
    owner = (w.get("controller") or "") if w else ""
    db_side = owner if owner else ("independent" if g.options.get("independent_defenses_resist") else "")
    if w and db_side == side and g.db_current(w) > 0 and not psionic:
        out[f"db:{place}"] = {
            "strength": Fraction(g.db_current(w)),
            "tl": int(w["tech_level"]),
            "label": f"{w['name']} defense battalions",
        }
    return out


def surface_targets(g: Game, place: str, side: str) -> dict[str, dict[str, Any]]:
    w = g.world(place)
    out: dict[str, dict[str, Any]] = {}
    enemies = SIDES if side == "independent" else (other(side),)
    for e in enemies:
        for u in g.troops(place, e):
            out[u.id] = {
                "strength": combat_strength(
                    g.troop_current(u),
                    g.armor(u),
                    g.elite(u),
                    g.mercenary(u),
                    int(u.status.get("loss", 0)),
                    False,
                    str(g.options.get("doubling", "fire_and_defend")),
                    str(g.options.get("mercenary_halving", "fire_exact")),
                ),
                "tl": g.troop_tl(u),
                "label": g.label(u),
            }
    if w and side in SIDES and g.defender(w, side) is not None and g.db_current(w) > 0:
        out[f"db:{place}"] = {
            "strength": Fraction(g.db_current(w)),
            "tl": int(w["tech_level"]),
            "label": f"{w['name']} defense battalions",
        }
    return out


def surface_fire(ctx: Ctx, side: str, attacks: dict[str, dict[str, Any]], psionic: bool) -> list[str]:
    """5.10: each target gets one combined attack; results of the psionic first fire apply at
    once, the others at the end of the step."""
    g = Game.of(ctx)
    place = here(ctx.state)
    w = g.world(place)
    can_fire = firers(g, place, side, True if psionic else (False if side == "zhodani" else None))
    targets = surface_targets(g, place, side)
    used: dict[str, Fraction] = {}
    for tid, fire in attacks.items():
        if tid not in targets:
            raise ActionRejected(
                f"{tid} is not an enemy unit {SIDE_NAMES.get(side, side)} may fire on here; "
                f"targets: {', '.join(targets) or 'none'}"
            )
        for fid, amount in fire.items():
            if fid not in can_fire:
                raise ActionRejected(
                    f"{fid} may not fire now (not an own overt unit on this world"
                    + (", or a psionic unit that already fired)" if not psionic else ")")
                )
            used[fid] = used.get(fid, Fraction(0)) + frac(amount)
    for fid, amount in used.items():
        if amount > can_fire[fid]["strength"]:
            raise ActionRejected(
                f"{can_fire[fid]['label']} fires {fmt(amount)} factors but has only "
                f"{fmt(can_fire[fid]['strength'])}"
            )
    c = ctx.edit_var("combat", {})
    pending = c.setdefault("pending", {})
    lines = []
    for tid, fire in sorted(attacks.items()):
        contributing = {k: frac(v) for k, v in fire.items() if frac(v) > 0}
        if not contributing:
            continue
        f_total = sum_frac(contributing.values())
        low = min(can_fire[k]["tl"] for k in contributing)
        t = targets[tid]
        res = CP.surface_attack(
            ctx,
            f_total,
            t["strength"],
            low,
            t["tl"],
            str(w["atmosphere"]),
            side=side if side in SIDES else None,
            label=f"fire on {t['label']}",
        )
        pct = int(res.value)
        lines.append(f"{t['label']}: {res.summary}")
        if psionic:
            apply_loss(ctx, tid, pct, place)
        elif pct:
            pending[tid] = int(pending.get(tid, 0)) + pct
    c.setdefault("fired", {})[("psionic:" if psionic else "") + side] = True
    return lines


def surface_missing(state: State, psionic: bool) -> str | None:
    c = cv(state)
    fired = c.get("fired", {})
    if psionic:
        return None if fired.get("psionic:zhodani") else "the Zhodani psionic units fire first (or hold fire)"
    g = Game.read(state)
    left = [SIDE_NAMES[s] for s in participants(g, here(state)) if not fired.get(s)]
    return f"still to declare fire (or hold fire): {', '.join(left)}" if left else None


def surface_apply(ctx: Ctx) -> None:
    """SF3: the results of the simultaneous fire apply together."""
    place = here(ctx.state)
    c = ctx.edit_var("combat", {})
    for tid, pct in sorted((c.get("pending") or {}).items()):
        if tid.startswith("db:") or (
            tid in ctx.state.units and not ctx.state.units[tid].status.get("eliminated")
        ):
            apply_loss(ctx, tid, int(pct), place)
    c["pending"] = {}


# -- 3E --------------------------------------------------------------------------------------------
def hex_checks(ctx: Ctx) -> None:
    """3E: surrender, control and garrisons, red-zone opening, empty fleets disbanded."""
    place = here(ctx.state)
    control.open_red_zone(ctx, place)
    if ctx.options.get("control_checks", "hex_movement_turn") == "hex_movement_turn":
        control.check_world(ctx, place)
    ops.disband_empty(ctx)
    end_hex(ctx)
