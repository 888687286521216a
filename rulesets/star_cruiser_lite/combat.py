"""Space combat (digest CMB.0-CMB.10, F-12 to F-22).

The battle being fought lives in ``vars["battle"]``: its two sides (A attacks, B is attacked),
every participating unit with its role (line, escort, screened, nc, docked, hangar, out,
escaped, lost), the pairings with their range, the round's allocations and the damage results
collected during fire, applied together at the end of the round. Each function below is the
chore of one CMB step; GM actions at CMB.SETUP and CMB.DECLARE change pairings, escorts,
allocations and targets before the dice are rolled; without them the orders' and the rules'
defaults apply, so an automatic battle needs no input at all.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State
from rulesets.star_cruiser_lite import news
from rulesets.star_cruiser_lite.chores_week import nearest_base, step_toward
from rulesets.star_cruiser_lite.classes import ESCORT, WARSHIPS
from rulesets.star_cruiser_lite.damage import (
    apply_facility_results,
    apply_ship_results,
    destroy_ship,
)
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_combat import (
    acquisition,
    beam_damage,
    breakoff_step,
    damage_location,
    engagement_value,
    escorts_allowed,
    halve,
    kafer_arousal,
    missile_damage,
    noncombatant_breakoff,
    noncombatants_join,
    pairing,
    pd_acquisition,
    pd_missile_rating,
    pd_split,
    range_winner,
    threshold_met,
)
from rulesets.star_cruiser_lite.rules_command import class_rank

ENGAGED = ("line", "escort", "docked")
PRESENT = ("line", "escort", "docked", "screened", "nc", "hangar")
MAX_ROUNDS = 60
QUIET_ROUNDS = 3
OTHER = {"A": "B", "B": "A"}


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def battle(state: State) -> dict[str, Any]:
    return state.vars.get("battle") or {}


# -- conditions used by the machine -------------------------------------------------------
def unaroused_kafers(state: State) -> bool:
    b = battle(state)
    return any(s.get("kafer") and not s.get("aroused") for s in b.get("sides", {}).values())


def battle_over(state: State) -> bool:
    return bool(battle(state).get("over"))


def boardings_pending(state: State) -> bool:
    return bool(battle(state).get("boardings"))


# -- unit views ---------------------------------------------------------------------------
def is_facility(b: dict[str, Any], uid: str) -> bool:
    return b["units"][uid]["kind"] == "facility"


def stat(g: Game, b: dict[str, Any], uid: str, s: str) -> int:
    """A combatant's value now, with unaroused Kafer halving, docked or All Stop ships."""
    info = b["units"][uid]
    side = b["sides"][info["side"]]
    if info["kind"] == "facility":
        f = g.state.formations[uid]
        if s == "mv":
            return 0
        return g.fac_stat(f, s)
    if info["kind"] == "pd":
        return 0
    unit = g.state.units[uid]
    v = g.cur(unit, s)
    unaroused = side.get("kafer") and not side.get("aroused")
    if s in ("bm", "mi") and unaroused:
        v = halve(v, g.state.options.get("kafer_halving", "down"))
    if s == "sc" and (unaroused or info["role"] == "docked"):
        v = 0
    if s == "mv" and (info["role"] == "docked" or side.get("allstop") or uid in b.get("allstop", [])):
        v = 0
    return v


def size(g: Game, b: dict[str, Any], uid: str) -> tuple[int, int | None]:
    """(size, modules): an installation's size is its number of modules (F-14)."""
    if is_facility(b, uid):
        f = g.state.formations[uid]
        return 0, int(f.data.get("modules", 1))
    return int(g.attr(g.state.units[uid], "size", 0)), None


def cq(g: Game, b: dict[str, Any], uid: str) -> int:
    info = b["units"][uid]
    side = b["sides"][info["side"]]
    if info["kind"] == "facility":
        return int(g.state.options.get("facility_cq", 0))
    if side.get("kafer"):
        if not g.state.options.get("kafer_initiative_as_cq", True):
            return 0
        return 2 if side.get("aroused") else -2
    return g.cq(g.state.units[uid])


def alive(g: Game, b: dict[str, Any], uid: str) -> bool:
    info = b["units"][uid]
    if info["kind"] == "facility":
        return not g.state.formations[uid].data.get("destroyed")
    u = g.state.units.get(uid)
    return u is not None and g.alive(u) and u.side in b["sides"][info["side"]]["nations"]


def label(g: Game, b: dict[str, Any], uid: str) -> str:
    if b["units"][uid]["kind"] == "facility":
        f = g.state.formations[uid]
        return f"{g.fac_type(f)} {uid}"
    return g.label(g.state.units[uid])


def side_name(state: State, b: dict[str, Any], key: str) -> str:
    """A battle side as the players know it: its nations' names ("America and Britain"),
    never the bare "A"/"B" of the battle record."""
    names = [state.sides[n].name if n in state.sides else n for n in b["sides"][key]["nations"]]
    if not names:
        return f"side {key}"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def side_label(state: State, b: dict[str, Any], key: str) -> str:
    """The name with the battle key the GM's combat actions use: "Kafers (side A)"."""
    return f"{side_name(state, b, key)} (side {key})"


def units_of(b: dict[str, Any], side: str, roles: tuple[str, ...] = ENGAGED) -> list[str]:
    return sorted(uid for uid, info in b["units"].items() if info["side"] == side and info["role"] in roles)


def line_count(b: dict[str, Any], side: str) -> int:
    return len(units_of(b, side, ("line",)))


def rank(ctx: Ctx, g: Game, b: dict[str, Any], uid: str) -> int:
    if is_facility(b, uid):
        return 20
    return class_rank(ctx, g.code(g.state.units[uid]))


# -- CMB.0 setup ----------------------------------------------------------------------------
def _side_orders(g: Game, tfs: list[str], facilities: list[str], ships: list[str]) -> dict[str, Any]:
    lead = tfs[0] if tfs else (facilities[0] if facilities else None)
    if lead is None and ships:
        lead = g.state.units[ships[0]].formation
    return g.tf_order(lead) if lead else {}


def setup(ctx: Ctx) -> None:
    """CMB.0: build the battle from ``vars["pending_battle"]``: lines, screens, non-combatants
    forced into line (F-21a), escorts (F-20c), pairings (F-20a), fighters, round 1 at long."""
    ctx.secret_to("gm")
    g = game(ctx)
    eng = dict(ctx.var("pending_battle") or {})
    if not eng:
        return
    ctx.set_var("pending_battle", None)
    b: dict[str, Any] = {
        "id": eng.get("id", "B"),
        "system": eng["system"],
        "kind": eng.get("kind", "attack"),
        "attack": eng.get("attack", "tf"),
        "round": 1,
        "range": "long",
        "units": {},
        "pairs": [],
        "alloc": {},
        "pending": {},
        "boardings": [],
        "no_fire": [],
        "allstop": [],
        "quiet": 0,
        "freed": {"A": 0, "B": 0},
        "over": False,
        "winner": None,
        "er": {},
        "colony": eng.get("colony"),
        "capture": bool(eng.get("capture")),
        "log": [],
    }
    b["sides"] = {}
    for key in ("A", "B"):
        spec = eng[key.lower()]
        tfs = [t for t in spec.get("tfs", []) if t in g.state.formations]
        facs = [f for f in spec.get("facilities", []) if f in g.state.formations]
        ships = list(spec.get("ships", []))
        if not ships:
            for t in tfs:
                ships += [u.id for u in g.ships(t)]
        for fid in facs:
            ships += [u.id for u in g.ships(fid) if g.code(u) == "FTR"]
        nations = sorted(
            {g.state.formations[t].side for t in tfs}
            | {g.state.formations[f].side for f in facs}
            | {g.state.units[s].side for s in ships if s in g.state.units}
        )
        order = _side_orders(g, tfs, facs, ships)
        lead_tf = tfs[0] if tfs else None
        flag_ship = None
        if lead_tf:
            _cid, c = g.tf_commander(lead_tf)
            flag_ship = c.get("ship") if c else None
        kafer = any(g.kafer(n) for n in nations)
        b["sides"][key] = {
            "nations": nations,
            "tfs": tfs,
            "facilities": facs,
            "kafer": kafer,
            "aroused": False,
            "intruder": bool(tfs) and all(g.state.formations[t].data.get("newly_arrived") for t in tfs),
            "surprise": bool(eng.get("surprise")) and key == "A",
            "range_pref": order.get("range", "long_until_salvoes"),
            "breakoff": order.get("breakoff") or {"destroyed_pct": 50},
            "contingency": order.get("contingency", ""),
            "no_fighters_r1": key == "B" and eng.get("kind") == "preemptive",
            "allstop": key == "A" and eng.get("kind") == "orbit",
            "flagship": flag_ship,
            "breaking": False,
            "escorts": order.get("escorts", {}),
            "commander_stac": int((g.tf_commander(lead_tf)[1] or {}).get("stac") or 0) if lead_tf else 0,
        }
        for uid in ships:
            u = g.state.units.get(uid)
            if u is None or not g.alive(u):
                continue
            code = g.code(u)
            carrier = g.state.units.get(u.status.get("carried_by") or "")
            if code == "FTR":
                if u.status.get("cargo_only") or (carrier is not None and g.code(carrier) == "FT"):
                    continue
                role = "hangar" if b["sides"][key]["no_fighters_r1"] else "line"
            elif u.status.get("docked"):
                if key == "A":
                    continue
                role = "docked"
            elif u.status.get("carried_by"):
                continue
            elif code in WARSHIPS:
                role = "damaged" if g.damaged(u) else "line"
            else:
                role = "nc"
            b["units"][uid] = {
                "side": key,
                "kind": "ship",
                "role": role,
                "start_df": g.cur(u, "df"),
                "tf": u.formation or "",
            }
        for fid in facs:
            f = g.state.formations[fid]
            if g.fac_type(f) in ("LP", "PSD") or f.data.get("state", "deployed") != "deployed":
                continue
            b["units"][fid] = {"side": key, "kind": "facility", "role": "line"}
        for pid in spec.get("pd", []):
            b["units"][pid] = {"side": key, "kind": "pd", "role": "pd", "fired": False}
    b["sides"]["A"]["start"] = len(units_of(b, "A", PRESENT))
    b["sides"]["B"]["start"] = len(units_of(b, "B", PRESENT))
    for key in ("A", "B"):
        own, enemy = line_count(b, key), line_count(b, OTHER[key])
        screened = own > enemy
        for uid in units_of(b, key, ("damaged",)):
            b["units"][uid]["role"] = "screened" if screened else "line"
        ctx.explain(
            f"{side_label(ctx.state, b, key)}: damaged warships "
            f"{'screened' if screened else 'stand in the line'} "
            f"({own} vs {enemy} in line)"
        )
    for key in ("A", "B"):
        deficit = line_count(b, OTHER[key]) - line_count(b, key)
        ncs = units_of(b, key, ("nc",))
        if deficit > 0 and ncs:
            joined = noncombatants_join(ctx, deficit, ncs, side=b["sides"][key]["nations"][0]).value
            for uid in joined:
                b["units"][uid]["role"] = "line"
    for key in ("A", "B"):
        side = b["sides"][key]
        allowed = escorts_allowed(
            ctx, line_count(b, key), line_count(b, OTHER[key]), side["kafer"], side["aroused"]
        ).value
        if not allowed:
            continue
        for esc, charge in sorted(side.get("escorts", {}).items()):
            if (
                esc in b["units"]
                and charge in b["units"]
                and b["units"][esc]["role"] == "line"
                and b["units"][charge]["side"] == key
                and g.code(g.state.units[esc]) in escort_codes(g)
            ):
                b["units"][esc].update({"role": "escort", "charge": charge})
                ctx.explain(f"{label(g, b, esc)} escorts {label(g, b, charge)}")
    make_pairs(ctx, g, b)
    ctx.set_var("battle", b)
    news.event(
        ctx,
        f"battle at {b['system']}: {' and '.join(b['sides']['A']['nations'])} against "
        f"{' and '.join(b['sides']['B']['nations'])}",
        ["*"],
        "battle",
        system=b["system"],
    )
    ctx.summary(
        f"Battle {b['id']} at {b['system']}: {len(units_of(b, 'A'))} vs {len(units_of(b, 'B'))} engaged"
    )


def escort_codes(g: Game) -> tuple[str, ...]:
    return tuple(c for c in ESCORT if c != "FE" or g.state.options.get("fe_is_escort", True))


def make_pairs(ctx: Ctx, g: Game, b: dict[str, Any]) -> None:
    a = [{"id": u, "rank": rank(ctx, g, b, u)} for u in units_of(b, "A", ("line", "docked"))]
    bb = [{"id": u, "rank": rank(ctx, g, b, u)} for u in units_of(b, "B", ("line", "docked"))]
    pairs = pairing(ctx, a, bb).value
    b["pairs"] = [{**p, "range": b.get("range", "long")} for p in pairs]


def set_pairs(ctx: Ctx, pairs: list[dict[str, Any]]) -> None:
    """GM: replace the pairings (each {"a": [...], "b": [...]})."""
    b = ctx.edit_var("battle", {})
    rng = b.get("range", "long")
    b["pairs"] = [{"a": list(p["a"]), "b": list(p["b"]), "range": p.get("range", rng)} for p in pairs]


def pair_of(b: dict[str, Any], uid: str) -> dict[str, Any] | None:
    for p in b["pairs"]:
        if uid in p["a"] or uid in p["b"]:
            return p
    return None


def opponents(g: Game, b: dict[str, Any], uid: str) -> list[str]:
    p = pair_of(b, uid)
    if p is None:
        return []
    side = b["units"][uid]["side"]
    other = p["b"] if side == "A" else p["a"]
    return [
        o
        for o in other
        if b["units"].get(o, {}).get("role") in ENGAGED and alive(g, b, o) and o not in b.get("no_fire", [])
    ]


def targetable(g: Game, b: dict[str, Any], side: str) -> list[str]:
    return [
        u
        for u in units_of(b, side, ENGAGED)
        if alive(g, b, u) and u not in b.get("no_fire", []) and b["units"][u]["kind"] != "pd"
    ]


# -- CMB.1 round start, arousal ---------------------------------------------------------------
def round_start(ctx: Ctx) -> None:
    """CMB.1: held fighters launch from round 2; an outnumbered side puts screened ships and
    escorts into the line; a side with an empty line sends in its non-combatants."""
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    if not b:
        return
    ctx.secret_to("gm")
    ctx.round(f"Round {b['round']} of the battle at {b['system']}")
    b.update({"alloc": {}, "pending": {}, "no_fire": [], "allstop": [], "er": {}, "damage_points": 0})
    b["freed"] = {"A": 0, "B": 0}
    changed = False
    for key in ("A", "B"):
        if b["round"] >= 2:
            for uid in units_of(b, key, ("hangar",)):
                b["units"][uid]["role"] = "line"
                changed = True
        own, enemy = line_count(b, key), line_count(b, OTHER[key])
        if own < enemy or own == 0:
            for uid in units_of(b, key, ("screened", "escort")):
                b["units"][uid]["role"] = "line"
                b["units"][uid].pop("charge", None)
                changed = True
        if line_count(b, key) == 0:
            for uid in units_of(b, key, ("nc",)):
                b["units"][uid]["role"] = "line"
                changed = True
    if changed:
        _repair_pairs(ctx, g, b)
    b["log"].append(f"round {b['round']}")


def _repair_pairs(ctx: Ctx, g: Game, b: dict[str, Any]) -> None:
    """Keep every line unit in a pairing: new or orphaned ships join the pairing where their
    side is thinnest (F-20a); pairings with nobody left on one side dissolve."""
    paired = {u for p in b["pairs"] for u in p["a"] + p["b"]}
    for p in b["pairs"]:
        p["a"] = [u for u in p["a"] if b["units"][u]["role"] in ("line", "docked") and alive(g, b, u)]
        p["b"] = [u for u in p["b"] if b["units"][u]["role"] in ("line", "docked") and alive(g, b, u)]
    live = [p for p in b["pairs"] if p["a"] and p["b"]]
    loose = {"A": [], "B": []}
    for p in b["pairs"]:
        if not (p["a"] and p["b"]):
            loose["A"] += p["a"]
            loose["B"] += p["b"]
    for key in ("A", "B"):
        for uid in units_of(b, key, ("line", "docked")):
            if uid not in paired and alive(g, b, uid):
                loose[key].append(uid)
    if not live:
        a = [{"id": u, "rank": rank(ctx, g, b, u)} for u in loose["A"]]
        bb = [{"id": u, "rank": rank(ctx, g, b, u)} for u in loose["B"]]
        b["pairs"] = [{**p, "range": b.get("range", "long")} for p in pairing(ctx, a, bb).value]
        return
    for key, k in (("A", "a"), ("B", "b")):
        for uid in loose[key]:
            target = min(range(len(live)), key=lambda i: (len(live[i][k]), i))
            live[target][k].append(uid)
    b["pairs"] = live


def arousal(ctx: Ctx) -> None:
    """CMB.1 / F-13: unaroused Kafers roll at the start of the round (DEFAULT-36)."""
    ctx.secret_to("gm")
    b = ctx.edit_var("battle", {})
    for key, side in b["sides"].items():
        if (
            side.get("kafer")
            and not side.get("aroused")
            and kafer_arousal(ctx, b["round"], f"Kafers (side {key})").value
        ):
            side["aroused"] = True
            b["log"].append(f"{side_label(ctx.state, b, key)}: Kafers aroused")


# -- CMB.2 engagement range, CMB.3 break-off ------------------------------------------------
def breakoff_due(g: Game, b: dict[str, Any], key: str) -> bool:
    """E-11: a side tries to break off once a condition of its threshold holds."""
    side = b["sides"][key]
    cond = side.get("breakoff") or {}
    ships = [u for u, info in b["units"].items() if info["side"] == key and info["kind"] == "ship"]
    if cond.get("never") or not ships:
        return False
    lost = [u for u in ships if b["units"][u]["role"] == "lost"]
    damaged = [u for u in ships if u in lost or (g.state.units.get(u) and g.damaged(g.state.units[u]))]
    flag = side.get("flagship")
    live = [u for u in ships if b["units"][u]["role"] in ENGAGED]
    return bool(
        threshold_met(
            cond,
            max(1, int(side.get("start", len(ships)))),
            len(damaged),
            len(lost),
            bool(flag) and (flag in lost or (flag in g.state.units and not g.alive(g.state.units[flag]))),
            int(b["round"]),
            bool(live) and all(g.cur(g.state.units[u], "sv") == 0 for u in live),
        )
    )


def wanted_range(g: Game, b: dict[str, Any], key: str) -> str:
    """E-12: the range a side asks for; long while it has salvoes for "long_until_salvoes";
    a side breaking off asks for long."""
    side = b["sides"][key]
    if side.get("breaking"):
        return "long"
    pref = side.get("range_pref", "long_until_salvoes")
    if pref == "long_until_salvoes":
        live = [
            u
            for u in units_of(b, key, ("line",))
            if not is_facility(b, u) and b["units"][u]["kind"] == "ship"
        ]
        has = any(g.cur(g.state.units[u], "sv") > 0 and g.cur(g.state.units[u], "mi") > 0 for u in live)
        return "long" if has else "short"
    return "short" if pref == "short" else "long"


def side_value(ctx: Ctx, g: Game, b: dict[str, Any], key: str) -> int:
    """F-12 for one side this round."""
    side = b["sides"][key]
    ships = [u for u in units_of(b, key, ("line", "escort")) if b["units"][u]["kind"] == "ship"]
    units = [g.state.units[u] for u in ships]
    if ctx.options.get("er_tactics_source", "highest") == "commander":
        stac = int(side.get("commander_stac", 0))
    else:
        stac = g.best_stac(units)
    return int(
        engagement_value(
            ctx,
            [cq(g, b, u) for u in ships],
            [stat(g, b, u, "sn") for u in ships],
            [stat(g, b, u, "mv") for u in ships],
            stac,
            bool(side.get("surprise")),
            bool(side.get("kafer")),
            bool(side.get("aroused")),
            0,
            f"side {key} ({side_name(g.state, b, key)})",
        ).value
    )


def choose_range(ctx: Ctx) -> None:
    """CMB.2 / F-12: round 1 at long range; later the higher value picks, a tie keeps the range."""
    ctx.secret_to("gm")
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    for key in ("A", "B"):
        b["sides"][key]["breaking"] = b["sides"][key].get("breaking") or breakoff_due(g, b, key)
    if b["round"] == 1:
        b["range"] = "long"
        b["er"] = {"winner": None}
        b["log"].append("round 1 at long range")
        return
    va, vb = side_value(ctx, g, b, "A"), side_value(ctx, g, b, "B")
    winner = range_winner(va, vb)
    b["er"] = {"A": va, "B": vb, "winner": winner}
    if winner is None:
        b["range"] = None
        ctx.explain(f"tie {va}-{vb}: each pairing keeps its range")
    else:
        b["range"] = wanted_range(g, b, winner)
        ctx.explain(
            f"{side_label(ctx.state, b, winner)} wins the engagement range {va}-{vb} and chooses "
            f"{b['range']} range"
        )
    b["log"].append(f"engagement range A {va} / B {vb}: {b['range'] or 'unchanged'}")


def breakoff(ctx: Ctx) -> None:
    """CMB.3 / F-20b: a side whose threshold is met and that won the range breaks off pairing by
    pairing: short goes to long, long leaves the combat; its ships at Mv 0 are scuttled (or
    captured, DEFAULT-43)."""
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    winner = b.get("er", {}).get("winner")
    breaking = winner if winner and b["sides"][winner].get("breaking") else None
    for p in b["pairs"]:
        prev = p.get("range", "long")
        if breaking:
            new = breakoff_step(prev)
            if new == "out":
                own = p["a"] if breaking == "A" else p["b"]
                for uid in own:
                    if b["units"][uid]["kind"] == "facility":
                        continue
                    _leave(ctx, g, b, uid, breaking)
                p["range"] = "long"
            else:
                p["range"] = new
        elif b.get("range"):
            p["range"] = b["range"]
    if breaking:
        for uid in units_of(b, breaking, ("escort", "screened", "nc", "hangar")):
            if not any(uid in p["a"] + p["b"] for p in b["pairs"]) and all(
                b["units"][x]["role"] != "line" or is_facility(b, x) for x in units_of(b, breaking, ("line",))
            ):
                _leave(ctx, g, b, uid, breaking)
        b["log"].append(f"{side_label(ctx.state, b, breaking)} breaks off")
        ctx.explain(f"{side_label(ctx.state, b, breaking)} breaks off (threshold met, range won)")
    _repair_pairs(ctx, g, b)
    _end_check(g, b)


def _leave(ctx: Ctx, g: Game, b: dict[str, Any], uid: str, key: str) -> None:
    info = b["units"][uid]
    if info["kind"] != "ship" or info["role"] in ("lost", "out", "escaped"):
        return
    unit = g.state.units[uid]
    if g.cur(unit, "mv") == 0 and info["role"] != "hangar":
        fate = ctx.options.get("mv0_retreat_fate", "scuttled")
        if fate == "captured":
            capture_ship(ctx, g, b, uid, OTHER[key])
        else:
            destroy_ship(ctx, uid, f"scuttled at {b['system']} (All Stop, side breaking off)", "scuttled")
            info["role"] = "lost"
        return
    info["role"] = "out"


def capture_ship(ctx: Ctx, g: Game, b: dict[str, Any], uid: str, by_side: str) -> None:
    """A ship taken by the enemy: it changes hands and joins the captor's first task force."""
    captor = b["sides"][by_side]["nations"][0]
    tf = next(iter(b["sides"][by_side]["tfs"]), None)
    unit = ctx.unit(uid)
    old = unit.side
    cid = unit.status.get("captain")
    unit.side = captor
    unit.formation = tf
    unit.status["captain"] = ""
    unit.status["docked"] = ""
    if cid and cid in ctx.state.records("commanders"):
        rec = ctx.record("commanders", cid)
        rec["alive"] = False
        rec["fate"] = "captured"
    b["units"][uid]["role"] = "lost"
    news.event(
        ctx,
        f"{g.label(g.state.units[uid])} captured by {captor} at {b['system']}",
        [old, captor],
        "loss",
        unit=uid,
    )


# -- CMB.4-6 allocation and fire --------------------------------------------------------------
def allocate(ctx: Ctx) -> None:
    """CMB.5: fill every allocation the GM left open: long range all beams on PD; short range
    ceil(Bm/2) on PD and the rest attack (DEFAULT-10), submunitions fire; escorts keep all
    batteries on PD; one salvo per ship (DEFAULT-11) at an opponent of its pairing."""
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    for uid, info in sorted(b["units"].items()):
        if info["role"] not in ("line", "escort") or not alive(g, b, uid) or info["kind"] == "pd":
            continue
        a = dict(b["alloc"].get(uid, {}))
        bm, sb = stat(g, b, uid, "bm"), stat(g, b, uid, "sb")
        p = pair_of(b, uid)
        rng = p.get("range", "long") if p else "long"
        if info["role"] == "escort":
            a.setdefault("pd", bm + sb)
            a.setdefault("attack_bm", 0)
            a.setdefault("fire_sb", 0)
        elif rng == "short" and "pd" not in a:
            split = pd_split(ctx, bm, "short").value
            a.update({"pd": split["pd"], "attack_bm": split["attack"], "fire_sb": sb})
        else:
            a.setdefault("pd", bm + sb if rng == "long" else min(bm + sb, int(a.get("pd", 0))))
            a.setdefault("attack_bm", 0 if rng == "long" else max(0, bm - int(a["pd"])))
            a.setdefault("fire_sb", 0 if rng == "long" else sb)
        opp = opponents(g, b, uid)
        enemy = targetable(g, b, OTHER[info["side"]])
        missiles = stat(g, b, uid, "mi") > 0 and stat(g, b, uid, "sv") > 0 and info["role"] == "line"
        if missiles and a.get("mtarget") not in enemy:
            a["mtarget"] = (opp or enemy or [None])[0]
        beams = rng == "short" and info["role"] == "line" and (a.get("attack_bm") or a.get("fire_sb"))
        if beams and a.get("btarget") not in opp:
            a["btarget"] = (opp or [None])[0]
        b["alloc"][uid] = a


def set_allocation(ctx: Ctx, uid: str, pd: int | None, target: str | None, beam_target: str | None) -> None:
    """GM: batteries on point defence and the targets of one combatant this round."""
    b = ctx.edit_var("battle", {})
    a = dict(b["alloc"].get(uid, {}))
    if pd is not None:
        g = game(ctx)
        bm, sb = stat(g, b, uid, "bm"), stat(g, b, uid, "sb")
        pd = max(0, min(int(pd), bm + sb))
        a["pd"] = pd
        a["attack_bm"] = max(0, bm - pd)
        a["fire_sb"] = max(0, sb - max(0, pd - bm))
    if target:
        a["mtarget"] = target
    if beam_target:
        a["btarget"] = beam_target
    b["alloc"][uid] = a


def _escort_pd(b: dict[str, Any], target: str, used: set[str]) -> int:
    """Escort PD for the first missile attack on a charge this round (DEFAULT-40)."""
    total = 0
    for uid, info in b["units"].items():
        if info["role"] == "escort" and info.get("charge") == target and uid not in used:
            total += int(b["alloc"].get(uid, {}).get("pd", 0))
            used.add(uid)
    return total


def _own_pd(b: dict[str, Any], target: str) -> int:
    return int(b["alloc"].get(target, {}).get("pd", 0))


def _column(b: dict[str, Any], target: str) -> str:
    return "facility" if is_facility(b, target) else "ship"


def _has(g: Game, b: dict[str, Any], target: str) -> dict[str, int]:
    if is_facility(b, target):
        f = g.state.formations[target]
        cur = {s: g.fac_stat(f, s) for s in ("sn", "sc", "mi", "sv", "bm", "sb", "df")}
    else:
        unit = g.state.units[target]
        cur = {s: g.cur(unit, s) for s in ("sn", "mv", "sc", "mi", "sv", "bm", "sb", "df")}
    for res in b["pending"].get(target, []):
        if res in cur and cur[res] > 0:
            cur[res] -= 1
    return cur


def _hit(ctx: Ctx, g: Game, b: dict[str, Any], target: str, points: int, what: str, side: str) -> None:
    if points <= 0:
        return
    res = damage_location(
        ctx, points, _column(b, target), _has(g, b, target), label(g, b, target), side
    ).value
    b["pending"].setdefault(target, []).extend(res)
    b["damage_points"] = int(b.get("damage_points", 0)) + points
    b["log"].append(f"{what}: {points} point(s) on {label(g, b, target)} -> {', '.join(res)}")


def _spend(ctx: Ctx, g: Game, b: dict[str, Any], uid: str, what: str, n: int) -> None:
    if n <= 0:
        return
    if is_facility(b, uid):
        f = ctx.formation(uid)
        dmg = dict(f.data.get("damage", {}))
        dmg[what] = int(dmg.get(what, 0)) + n
        f.data["damage"] = dmg
    else:
        u = ctx.unit(uid)
        u.status[f"lost_{what}"] = int(u.status.get(f"lost_{what}", 0)) + n


def fire(ctx: Ctx) -> None:
    """CMB.6: all fire is simultaneous. Each missile attack: acquisition (F-14), one salvo spent,
    damage after escort PD, own PD and screens (F-16). Each beam attack (short range, pairing only):
    acquisition, beams not on PD plus submunitions minus screens (F-17, DEFAULT-41). One location
    roll per damage point (F-18), applied at the end of the round."""
    ctx.secret_to("gm")
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    used_escorts: set[str] = set()
    salvoes = int(ctx.options.get("salvoes_per_round", 1))
    for uid in sorted(b["alloc"]):
        info = b["units"][uid]
        if not alive(g, b, uid) or info["role"] not in ("line", "escort"):
            continue
        a = b["alloc"][uid]
        side = info["side"]
        nation = b["sides"][side]["nations"][0]
        mod = 0
        if not is_facility(b, uid) and ctx.options.get("supply_target_modifier", "own_fire") == "own_fire":
            mod = g.supply_modifier(g.state.units[uid])
        for n in range(salvoes):
            target = a.get("mtarget")
            if not target or target not in b["units"] or not alive(g, b, target) or target in b["no_fire"]:
                break
            if stat(g, b, uid, "mi") <= 0 or stat(g, b, uid, "sv") <= 0:
                break
            sz, mods = size(g, b, target)
            tmod = 0
            if (
                not is_facility(b, target)
                and ctx.options.get("supply_target_modifier", "own_fire") == "as_target"
            ):
                tmod = -g.supply_modifier(g.state.units[target])
            ok = acquisition(
                ctx,
                sz,
                stat(g, b, target, "mv"),
                stat(g, b, uid, "sn"),
                cq(g, b, uid),
                cq(g, b, target),
                mod + tmod,
                mods,
                f"missiles of {label(g, b, uid)} at {label(g, b, target)}",
                nation,
            ).value
            if not ok:
                if ctx.options.get("salvo_spent_on_miss", False):
                    _spend(ctx, g, b, uid, "sv", 1)
                b["log"].append(f"{label(g, b, uid)} misses {label(g, b, target)} (missiles)")
                continue
            mi = stat(g, b, uid, "mi")
            _spend(ctx, g, b, uid, "sv", 1)
            dmg = missile_damage(
                ctx, mi, _escort_pd(b, target, used_escorts), _own_pd(b, target), stat(g, b, target, "sc")
            ).value
            _hit(ctx, g, b, target, int(dmg), f"missiles of {label(g, b, uid)}", nation)
            if n + 1 >= salvoes:
                break
        target = a.get("btarget")
        atk, sb = int(a.get("attack_bm", 0)), int(a.get("fire_sb", 0))
        p = pair_of(b, uid)
        if not target or (atk + sb) <= 0 or not p or p.get("range") != "short":
            continue
        if target not in opponents(g, b, uid):
            continue
        sz, mods = size(g, b, target)
        volleys = [(atk, sb)] if ctx.options.get("beams_subm_one_attack", True) else [(atk, 0), (0, sb)]
        for bm_part, sb_part in volleys:
            if bm_part + sb_part <= 0:
                continue
            ok = acquisition(
                ctx,
                sz,
                stat(g, b, target, "mv"),
                stat(g, b, uid, "sn"),
                cq(g, b, uid),
                cq(g, b, target),
                mod,
                mods,
                f"beams of {label(g, b, uid)} at {label(g, b, target)}",
                nation,
            ).value
            if not ok:
                b["log"].append(f"{label(g, b, uid)} misses {label(g, b, target)} (beams)")
                continue
            dmg = beam_damage(ctx, bm_part, 0, sb_part, stat(g, b, target, "sc")).value
            _spend(ctx, g, b, uid, "sb", sb_part)
            _hit(ctx, g, b, target, int(dmg), f"beams of {label(g, b, uid)}", nation)
    pd_fire(ctx, g, b)


def pd_fire(ctx: Ctx, g: Game, b: dict[str, Any]) -> None:
    """F-15: Planetary Defense sites fire their single salvo at ships securing orbit."""
    sites = [u for u, info in b["units"].items() if info["kind"] == "pd" and not info.get("fired")]
    if not sites:
        return
    n_sites = len([u for u, info in b["units"].items() if info["kind"] == "pd"])
    for uid in sorted(sites):
        unit = g.state.units.get(uid)
        if unit is None or not g.alive(unit):
            continue
        side = b["units"][uid]["side"]
        targets = targetable(g, b, OTHER[side])
        if not targets:
            return
        target = ctx.draw(targets, 1, f"target of {g.label(unit)}")[0]
        b["units"][uid]["fired"] = True
        mi = pd_missile_rating(int(unit.status.get("gf") or 0))
        sz, _mods = size(g, b, target)
        ok = pd_acquisition(
            ctx, sz, n_sites, unit.status.get("exp") == "Veteran", g.label(unit), unit.side
        ).value
        if not ok:
            continue
        dmg = missile_damage(ctx, mi, 0, _own_pd(b, target), stat(g, b, target, "sc")).value
        _hit(ctx, g, b, target, int(dmg), f"PD fire of {g.label(unit)}", unit.side)


# -- CMB.7 apply damage, CMB.8 non-combatant break-off, CMB.9 end check -----------------------
def apply_damage(ctx: Ctx) -> None:
    """CMB.7: every result of the round at once; Df 0 destroys (commander survival F-19)."""
    ctx.secret_to("gm")
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    before = {k: set(units_of(b, k, ("line", "docked"))) for k in ("A", "B")}
    for target in sorted(b["pending"]):
        results = b["pending"][target]
        if is_facility(b, target):
            gone = apply_facility_results(ctx, target, results, f"battle at {b['system']}")
        else:
            gone = apply_ship_results(ctx, target, results, f"battle at {b['system']}")
        if gone:
            b["units"][target]["role"] = "lost"
            b["log"].append(f"{label(g, b, target)} destroyed")
    for uid, info in b["units"].items():
        if info["kind"] == "ship" and info["role"] not in ("lost",) and not alive(g, b, uid):
            info["role"] = "lost"
    for p in b["pairs"]:
        for key, k in (("A", "a"), ("B", "b")):
            mine = [u for u in p[k] if u in before[key]]
            other_k = "b" if k == "a" else "a"
            theirs_alive = [u for u in p[other_k] if alive(g, b, u) and b["units"][u]["role"] in ENGAGED]
            if mine and all(b["units"][u]["role"] == "lost" for u in mine) and theirs_alive:
                b["freed"][OTHER[key]] += sum(
                    1 for u in theirs_alive if not is_facility(b, u) and g.code(g.state.units[u]) in WARSHIPS
                )
    b["pending"] = {}
    b["quiet"] = 0 if int(b.get("damage_points", 0)) else int(b.get("quiet", 0)) + 1
    _repair_pairs(ctx, g, b)


def nc_breakoff(ctx: Ctx) -> None:
    """CMB.8 / F-21b, CMB.9: non-combatants out of the line try to break off; screens recharge
    (current maximum); is either side finished?"""
    g = game(ctx)
    b = ctx.edit_var("battle", {})
    for key in ("A", "B"):
        for uid in units_of(b, key, ("nc", "screened")):
            if noncombatant_breakoff(
                ctx, b["round"], b["freed"][OTHER[key]], label(g, b, uid), b["sides"][key]["nations"][0]
            ).value:
                b["units"][uid]["role"] = "escaped"
    _end_check(g, b)
    if not b["over"] and int(b.get("quiet", 0)) >= QUIET_ROUNDS:
        b["over"] = True
        b["winner"] = None
        b["log"].append(f"{QUIET_ROUNDS} rounds without a damage point: the sides drift apart (no winner)")
        ctx.explain(
            f"{QUIET_ROUNDS} rounds without a damage point: the battle ends undecided (a program guard "
            "against endless battles; the GM may rule otherwise with cmb_result)"
        )
    if not b["over"] and b["round"] >= MAX_ROUNDS:
        b["over"] = True
        b["log"].append(f"stopped after {MAX_ROUNDS} rounds (program guard)")


def _end_check(g: Game, b: dict[str, Any]) -> None:
    left = {k: [u for u in units_of(b, k, PRESENT) if alive(g, b, u)] for k in ("A", "B")}
    fighting = {k: [u for u in units_of(b, k, ENGAGED) if alive(g, b, u)] for k in ("A", "B")}
    if left["A"] and left["B"] and fighting["A"] and fighting["B"]:
        return
    if left["A"] and left["B"] and (fighting["A"] or fighting["B"]):
        # one side still has ships out of the line: they are sent in next round
        return
    b["over"] = True
    if fighting["A"] or left["A"]:
        b["winner"] = "A" if not (fighting["B"] or left["B"]) else None
    elif fighting["B"] or left["B"]:
        b["winner"] = "B"
    else:
        b["winner"] = None


def next_round(ctx: Ctx) -> None:
    b = ctx.edit_var("battle", {})
    b["round"] = int(b["round"]) + 1


# -- CMB.10 aftermath ---------------------------------------------------------------------------
def aftermath(ctx: Ctx) -> None:
    """CMB.10: winner, crew quality and tactics records for the end of the week, retreats,
    fighters back aboard, reports."""
    ctx.secret_to("gm")
    g = game(ctx)
    b = dict(ctx.var("battle") or {})
    if not b:
        return
    ctx.round(f"After the battle at {b['system']}")
    winner = b.get("winner")
    fights = ctx.edit_var("week_fights", {})
    commanders: list[str] = []
    mode = ctx.options.get("tactics_rollers", "captains_and_flag")
    for uid, info in sorted(b["units"].items()):
        if info["kind"] != "ship" or (info["role"] == "hangar" and b["round"] == 1):
            continue
        won = winner == info["side"]
        retreated = info["role"] == "out"
        prev = fights.get(uid, {})
        fights[uid] = {
            "won": bool(prev.get("won")) or (won and not retreated),
            "retreated": bool(prev.get("retreated")) or retreated,
        }
        unit = g.state.units.get(uid)
        if mode == "captains_and_flag" and unit is not None and unit.status.get("captain"):
            commanders.append(str(unit.status["captain"]))
    for key in ("A", "B"):
        for tf in b["sides"][key]["tfs"]:
            cid, c = g.tf_commander(tf)
            if cid and c and c.get("flag"):
                commanders.append(cid)
    for key in ("A", "B"):
        seen_by = list(b["sides"][OTHER[key]]["nations"])
        fids = {i.get("tf") for i in b["units"].values() if i["side"] == key and i["kind"] == "ship"}
        for fid in sorted(
            x for x in fids if x and x in g.state.formations and g.state.formations[x].kind == "task_force"
        ):
            f = ctx.formation(fid)
            f.data["detected_by"] = {**f.data.get("detected_by", {}), **{n: g.t for n in seen_by}}
    eng = ctx.edit_var("week_engagements", [])
    eng.append({"battle": b["id"], "commanders": sorted(set(commanders))})
    for key in ("A", "B"):
        side = b["sides"][key]
        out = [u for u, i in b["units"].items() if i["side"] == key and i["role"] in ("out", "escaped")]
        if out or (winner == OTHER[key]):
            for tf in side["tfs"]:
                if tf in g.state.formations and g.ships(tf):
                    f = ctx.formation(tf)
                    f.data["must_leave"] = True
                    dest = side.get("contingency") or ""
                    if not dest or not g.linked(f.location or "", dest):
                        base = nearest_base(g, f.side, f.location or "", repair=True)
                        dest = step_toward(g, f.location or "", base) if base and base != f.location else ""
                    f.data["retreat_dest"] = dest or None
                    f.data = {k: v for k, v in f.data.items() if v is not None}
    for uid, info in b["units"].items():
        if info["kind"] == "ship" and g.state.units.get(uid) and g.code(g.state.units[uid]) == "FTR":
            unit = g.state.units[uid]
            carrier = g.state.units.get(unit.status.get("carried_by") or "")
            if unit.status.get("carried_by") and (carrier is None or not g.alive(carrier)) and g.alive(unit):
                ctx.unit(uid).status["carried_by"] = ""
                news.event(
                    ctx,
                    f"{g.label(unit)} lost its carrier: the GM decides where it lands",
                    [unit.side],
                    "battle",
                )
    nations = sorted(set(b["sides"]["A"]["nations"]) | set(b["sides"]["B"]["nations"]))
    outcome = "no side holds the field"
    if winner in ("A", "B"):
        outcome = f"the field is held by {side_label(g.state, b, winner)}"
    losses = {n: [] for n in nations}
    for uid, info in b["units"].items():
        if info["role"] == "lost":
            owner = b["sides"][info["side"]]["nations"][0]
            if info["kind"] == "facility":
                owner = g.state.formations[uid].side
            elif uid in g.state.units:
                owner = b["sides"][info["side"]]["nations"][0]
            losses.setdefault(owner, []).append(label(g, b, uid))
    ctx.put_record(
        "battles",
        b["id"] + f"-t{g.t}",
        {
            "t": g.t,
            "month": g.month,
            "week": g.week,
            "system": b["system"],
            "kind": b["kind"],
            "rounds": b["round"],
            "winner": winner,
            "sides": {
                k: {"nations": v["nations"], "tfs": v["tfs"], "facilities": v["facilities"]}
                for k, v in b["sides"].items()
            },
            "losses": losses,
            "log": b["log"][-200:],
            "to": nations,
        },
    )
    news.event(
        ctx,
        f"battle at {b['system']} ended after {b['round']} round(s): {outcome}",
        ["*"],
        "battle",
        system=b["system"],
    )
    for n in nations:
        own = losses.get(n, [])
        theirs = [x for m, xs in losses.items() if g.enemies(m, n) for x in xs]
        news.event(
            ctx,
            f"at {b['system']}: our losses {', '.join(own) or 'none'}; enemy losses "
            f"{', '.join(theirs) or 'none'}",
            [n],
            "battle",
            system=b["system"],
        )
    ctx.set_var(
        "last_battle",
        {
            "id": b["id"],
            "winner": winner,
            "winner_name": side_name(g.state, b, winner) if winner in ("A", "B") else "",
            "kind": b["kind"],
        },
    )
    ctx.summary(f"Battle at {b['system']}: {outcome}")


def close(ctx: Ctx) -> None:
    ctx.set_var("battle", None)
    ctx.set_var("pre", None)
