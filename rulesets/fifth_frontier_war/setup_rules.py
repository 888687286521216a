"""Set-up (rule 7, digest 2.1 and 6.1-6.5): the secret base, the Ine Givar, the random draws
by type, the required and discretionary placements, and the Surprise Attack fleets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.fifth_frontier_war import fuel
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import SETUP, is_hex
from rulesets.fifth_frontier_war.reinforcements import draw, markers, place, pool

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import Unit

EFATE, RUIE, REGINA, CRONOR, QUAR, ZIRCON, ESALIN = "2109", "2213", "2314", "0708", "1212", "1514", "1408"
SURPRISE_1914, SURPRISE_QUARE = "1914", "1319"
INITIAL_MARKERS = {"imperial": 4, "zhodani": 7, "sword_worlds": 2, "vargr": 2}


def secret_base_problem(g: Game, place: str) -> str | None:
    """5.26 / WE-59: inside the Imperium, no Imperial naval or scout base, no defense
    battalions, not interdicted, not Esalin."""
    w = g.world(place)
    if not w:
        return f"{place} is not a world"
    if w.get("region") != "imperial" or w.get("controller") != "imperial":
        return f"{w['name']} is not inside the Imperium"
    if w.get("naval_base") or w.get("scout_base"):
        return f"{w['name']} has an Imperial naval or scout base"
    if int(w.get("defense_battalions", 0)) > 0:
        return f"{w['name']} has defense battalions"
    if w.get("zone") == "red":
        return f"{w['name']} is interdicted (red zone)"
    if place == ESALIN:
        return "Esalin, the co-dominium, may not be the secret base"
    return None


def guerrilla_problems(g: Game, counts: dict[str, int]) -> list[str]:
    """WE-58: 10 units; at least 3 on Efate and 1 on Ruie; the rest on Imperial-controlled,
    non-interdicted worlds that have defense battalions."""
    out = []
    total = sum(counts.values())
    if total != 10:
        out.append(f"place all 10 Ine Givar units ({total} given)")
    if counts.get(EFATE, 0) < 3:
        out.append("at least 3 must be on Efate (2109)")
    if counts.get(RUIE, 0) < 1:
        out.append("at least 1 must be on Ruie (2213)")
    for hexid, n in sorted(counts.items()):
        extra = n - {EFATE: 3, RUIE: 1}.get(hexid, 0)
        if extra <= 0:
            continue
        w = g.world(hexid)
        if not w:
            out.append(f"{hexid} is not a world")
        elif w.get("controller") != "imperial":
            out.append(f"{w['name']}: the other guerrillas go on Imperial-controlled worlds")
        elif w.get("zone") == "red":
            out.append(f"{w['name']} is interdicted")
        elif int(w.get("defense_battalions", 0)) <= 0:
            out.append(f"{w['name']} has no defense battalions")
    return out


# -- draws at the start of each deployment ---------------------------------------------------------
def imperial_draws(ctx: Ctx) -> None:
    """6.1: the counters selected at random by type, then the required placements."""
    g = Game.of(ctx)
    bg = bool(ctx.options.get("black_globes"))
    got = draw(
        ctx,
        pool(g, "imp_battle", black_globe=False if bg else None),
        2,
        "Imperial set-up: battle squadrons",
        "imperial",
    )
    got += draw(ctx, pool(g, "imp_cruiser"), 6, "Imperial set-up: cruiser squadrons", "imperial")
    carrier = draw(
        ctx, pool(g, "imp_special", sq_type="A"), 1, "Imperial set-up: assault carrier", "imperial"
    )
    corps = draw(ctx, pool(g, "imp_troops", factor=100), 1, "Imperial set-up: 1C-factor troop", "imperial")
    adm = draw(ctx, pool(g, "imp_admirals"), 3, "Imperial set-up: admirals", "imperial")
    vargr = draw(ctx, pool(g, "vargr_admirals"), 1, "the Vargr admiral serving the Imperium", "imperial")
    place(ctx, got + carrier + corps + adm + vargr, SETUP)
    for vid in vargr:
        u = ctx.unit(vid)
        u.side = "imperial"
        u.data["loaned"] = True
        ctx.explain(f"{u.label} serves the Imperium with precedence 15")
    required = {EFATE: carrier + corps + ["imp-psg"], RUIE: ["imp-spl"]}
    for hexid, ids in required.items():
        for uid in ids:
            put(ctx, g, uid, hexid)
    put(ctx, g, "imp-adm-01", REGINA, on_world=True)
    home_placements(ctx, g, "imperial")


def zhodani_draws(ctx: Ctx) -> None:
    """6.2-6.4: the Zhodani counters at random by type; Sword Worlds and Vargr forces."""
    g = Game.of(ctx)
    got: list[str] = []
    for group, n, what in (
        ("zho_battle", 23, "battle squadrons"),
        ("zho_cruiser", 14, "cruiser squadrons"),
        ("zho_assault", 6, "assault carriers"),
        ("zho_5c", 7, "5C-factor troops"),
        ("zho_1c", 10, "1C-factor troops"),
        ("zho_20", 16, "20-factor troops"),
        ("zho_10", 2, "10-factor troops"),
        ("zho_5", 2, "5-factor troops"),
        ("zho_admirals", 6, "admirals besides the Provincial Governor"),
        ("sw_battle", 2, "Sword Worlds battle squadrons"),
        ("sw_cruiser", 1, "Sword Worlds cruiser squadron"),
        ("sw_10", 1, "Sword Worlds 10-factor troop"),
    ):
        got += draw(ctx, pool(g, group), n, f"Zhodani set-up: {what}", "zhodani")
    place(ctx, got, SETUP)
    loaned = draw(ctx, pool(g, "sw_admirals"), 1, "the Sword Worlds admiral serving the Zhodani", "zhodani")
    place(ctx, loaned, SETUP)
    for lid in loaned:
        ctx.unit(lid).data["loaned"] = True
        ctx.explain(f"{ctx.state.units[lid].label} serves with the Zhodani at precedence 15")
    sw = pool(g, "sw_admirals")
    place(ctx, sw, SETUP)
    vg = pool(g, "vargr_admirals")
    place(ctx, vg, SETUP)
    for group in ("sw_battle", "sw_cruiser", "sw_10"):
        place(ctx, pool(g, group), "box:sword_worlds")
    put(ctx, g, "zho-adm-11", CRONOR, on_world=True)
    home_placements(ctx, g, "zhodani")


def put(ctx: Ctx, g: Game, uid: str, hexid: str, on_world: bool = False) -> None:
    u = ctx.unit(uid)
    u.location = hexid
    if g.kind(u) == "admiral":
        u.status["on_world"] = on_world


def home_placements(ctx: Ctx, g: Game, side: str) -> None:
    """Named colonial units go to the world they are named after (when the name is known)."""
    for u in sorted(g.state.units.values(), key=lambda x: x.id):
        if u.side != side or u.location != SETUP:
            continue
        home = str(g.a(u, "home", "") or "")
        if g.a(u, "category") == "colonial_named" and home:
            put(ctx, g, u.id, home)
            ctx.explain(f"{u.label} placed at its home world {home}")


# -- placement rules ----------------------------------------------------------------------------------
def region_worlds(g: Game, region: str) -> list[str]:
    return sorted(h for h, w in g.state.records("worlds").items() if w.get("region") == region)


def named_homes(g: Game, side: str) -> set[str]:
    return {
        str(g.a(u, "home", ""))
        for u in g.state.units.values()
        if u.side == side and g.a(u, "category") == "colonial_named" and g.a(u, "home", "")
    }


def colonial_homes_missing(g: Game, side: str) -> bool:
    return any(
        u.side == side and g.a(u, "category") == "colonial_named" and not g.a(u, "home", "")
        for u in g.state.units.values()
    )


def placement_problem(g: Game, u: Unit, hexid: str) -> str | None:
    """6.1-6.4: where this counter may be placed at set-up."""
    w = g.world(hexid)
    if not is_hex(hexid):
        return f"{hexid} is not a hex"
    kind = g.kind(u)
    cat = str(g.a(u, "category", "regular"))
    navy = g.navy(u)
    name = g.label(u)
    if u.id in ("imp-psg", "imp-spl", "imp-adm-01", "zho-adm-11"):
        fixed = {"imp-psg": EFATE, "imp-spl": RUIE, "imp-adm-01": REGINA, "zho-adm-11": CRONOR}[u.id]
        return None if hexid == fixed else f"{name} must be placed at {fixed}"
    home = str(g.a(u, "home", "") or "")
    if cat == "colonial_named" and home:
        return None if hexid == home else f"{name} must be placed at its home world {home}"
    if u.side == "imperial":
        imperium = bool(w and w.get("region") == "imperial")
        if kind == "admiral":
            return (
                None if g.squadrons(hexid, "imperial") else f"{name} must be placed with Imperial squadrons"
            )
        if cat.startswith("colonial"):
            return (
                None
                if imperium
                else (
                    f"{name}'s home world is missing from the counter data (G-02): "
                    "place it on a world in the Imperium"
                )
            )
        if kind == "squadron":
            t = g.face(u).type
            if t == "S":
                return (
                    None
                    if w and w.get("scout_base") and w.get("controller") == "imperial"
                    else f"{name}: scouts go to a system with an Imperial scout base"
                )
            return (
                None
                if w and w.get("naval_base") and w.get("controller") == "imperial"
                else f"{name}: squadrons go to a system with an Imperial naval base"
            )
        if not w:
            return f"{hexid} has no world box for troops"
        if cat == "marine":
            return (
                None
                if w.get("naval_base") and w.get("controller") == "imperial"
                else f"{name}: marines go to a world with an Imperial naval base"
            )
        if cat in ("huscarle", "mercenary"):
            return (
                None
                if imperium or hexid in (RUIE, QUAR, ZIRCON)
                else f"{name}: huscarles and mercenaries go in the Imperium or at Ruie, Quar or Zircon"
            )
        return None if imperium else f"{name}: troops go on a world in the Imperium"
    # the Zhodani player's forces
    if (
        hexid in (SURPRISE_1914, SURPRISE_QUARE)
        and g.options.get("surprise_attack")
        and navy == "zhodani"
        and kind in ("squadron", "admiral")
    ):
        return None
    region = {"zhodani": "zhodani", "sword_worlds": "sword_worlds", "vargr": "vargr"}.get(navy, "zhodani")
    if u.data.get("loaned"):
        region = "zhodani"
    if cat == "colonial_numbered":
        homes = named_homes(g, "zhodani")
        if hexid in homes or (colonial_homes_missing(g, "zhodani") and w and w.get("region") == "zhodani"):
            return None
        return f"{name}: numbered colonials go where a named colonial may go"
    if cat == "colonial_named":
        return (
            None
            if w and w.get("region") == "zhodani"
            else (
                f"{name}'s home world is missing from the counter data (G-02): place it in Zhodani territory"
            )
        )
    if kind == "admiral":
        if g.squadrons(hexid, "zhodani"):
            return None
        return f"{name} must be placed with squadrons"
    if not w or w.get("region") != region:
        return f"{name} must be placed in {region.replace('_', ' ')} territory"
    return None


def default_place(g: Game, u: Unit) -> str:
    """The quick-start station for a counter still waiting (deploy_rest)."""
    for hexid in [REGINA, EFATE, "3120", "1510", CRONOR, "1627", "2702", *sorted(g.state.records("worlds"))]:
        if placement_problem(g, u, hexid) is None:
            return hexid
    raise ValueError(f"no legal place for {u.id}")


def surprise_problems(g: Game) -> list[str]:
    """5.25: one fleet at 1914 (jump >= 3, streamlined) and/or one at Quare (jump >= 3, refuels
    there in zero time); nothing else of the Zhodani player's squadrons may stage there."""
    out = []
    for hexid in (SURPRISE_1914, SURPRISE_QUARE):
        ships = g.squadrons(hexid, "zhodani")
        if not ships:
            continue
        if not g.options.get("surprise_attack"):
            out.append(f"Zhodani squadrons at {hexid} need the Surprise Attack option")
            continue
        fleets = {s.formation for s in ships}
        if len(fleets) != 1 or None in fleets:
            out.append(f"the squadrons at {hexid} must form exactly one fleet")
        for s in ships:
            f = g.face(s)
            if f.jump < 3:
                out.append(f"{g.label(s)} at {hexid}: jump 3 or more needed")
            if hexid == SURPRISE_1914 and f.refuel != "streamlined":
                out.append(f"{g.label(s)} at 1914: only streamlined squadrons")
            if hexid == SURPRISE_QUARE and not fuel.zero_time_source(g, hexid, "zhodani", f.refuel):
                out.append(f"{g.label(s)} at Quare: it cannot refuel there in zero time")
    return out


def waiting(g: Game, side: str) -> list[Unit]:
    return [
        u
        for u in g.state.units.values()
        if u.side == side and u.location == SETUP and g.kind(u) != "guerrilla"
    ]


def markers_missing(g: Game, side: str) -> list[str]:
    out = []
    navies = ("imperial",) if side == "imperial" else ("zhodani", "sword_worlds", "vargr")
    for navy in navies:
        taken = len(markers(g, navy, "available")) + len(markers(g, navy, "in_play"))
        if taken < INITIAL_MARKERS[navy]:
            out.append(
                f"choose {INITIAL_MARKERS[navy] - taken} more {navy.replace('_', ' ')} fleet marker(s)"
            )
    return out
