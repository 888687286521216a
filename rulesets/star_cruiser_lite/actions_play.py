"""GM actions during play: the one-go resolution, SP movements, upgrades, Week 0 politics and
reinforcements, engagements, and the battle controls (pairing, escorts, allocation, boarding,
automatic battle, a battle result entered by hand)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, AdvanceRefused
from campaign_tui.core.later import later
from campaign_tui.core.model import Formation
from rulesets.star_cruiser_lite import ids, news
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.actions_setup import new_tf, roll_all_tactics
from rulesets.star_cruiser_lite.actions_troops import load_troops
from rulesets.star_cruiser_lite.classes import SDRONE_MOUNTS, TROOPS
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.rules_command import promotion_ftac
from rulesets.star_cruiser_lite.rules_ground import rebuild_cost
from rulesets.star_cruiser_lite.rules_logistics import protection_bonus
from rulesets.star_cruiser_lite.setup_data import troop_factors
from rulesets.star_cruiser_lite.supply import Source, available, give, pay, resupply_unit, sources, take

# rule modules: imported at the first call of one of their functions
boarding = later("rulesets.star_cruiser_lite.boarding")
combat = later("rulesets.star_cruiser_lite.combat")
chores_month = later("rulesets.star_cruiser_lite.chores_month")
damage_rules = later("rulesets.star_cruiser_lite.damage")

REPORT_STEPS = ("W.REPORT", "M0.REPORT")


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str) and value.strip()[:1] in "[{" else value


# -- resolution in one go ------------------------------------------------------------------
@action(
    "run_to_report",
    "Resolve to the turn report",
    reference="W.2-W.11, M0.2-M0.7",
    key="r",
    help="Advance step after step, fighting every battle automatically with the orders' defaults, until "
    "the next turn report (or until something needed is missing). Every roll is in the log.",
)
def run_to_report(ctx: Ctx) -> None:
    if ctx.state.step in REPORT_STEPS:
        raise ActionRejected("already at the turn report: advance to go on")
    steps = 0
    while steps < 500 and ctx.state.step not in REPORT_STEPS and not ctx.step.final:
        missing = ctx.missing()
        if missing:
            ctx.explain("stopped: " + "; ".join(missing))
            break
        try:
            ctx.advance()
        except AdvanceRefused as exc:
            ctx.explain(f"stopped: {exc}")
            break
        steps += 1
    ctx.secret_to("gm")
    ctx.summary(f"Resolved {steps} step(s); now at {ctx.step.title}")


@action(
    "cmb_auto",
    "Fight the battle automatically",
    reference="CMB",
    key="a",
    help="Resolve every remaining round of this battle with the orders' and rules' defaults; every roll is "
    "logged. Stops when the battle is over.",
)
def cmb_auto(ctx: Ctx) -> None:
    rounds = 0
    while ctx.state.step.startswith(("CMB.", "BRD.")) and ctx.state.step != "CMB.END" and rounds < 200:
        ctx.advance()
        rounds += 1
    ctx.secret_to("gm")
    last = ctx.var("last_battle") or {}
    held = "no side holds the field"
    if last.get("winner_name"):
        held = f"the field is held by {last['winner_name']}"
    ctx.summary(f"Automatic battle: {held}")


# -- supply, facilities, upgrades -----------------------------------------------------------------
def _holder(g: Game, hid: str) -> tuple[str, str]:
    if hid in g.state.records("nations"):
        return "core", g.qas()
    if hid in g.state.formations and g.state.formations[hid].kind == "facility":
        return "facility", g.state.formations[hid].location or ""
    if hid in g.state.records("colonies"):
        return "colony", str(g.colonies()[hid]["system"])
    if hid in g.state.units and g.is_ship(g.state.units[hid]):
        return "ship", g.unit_system(g.state.units[hid]) or ""
    raise ActionRejected(
        f"{hid!r} holds no SP: give a nation (its QAS stockpile), a facility, a colony or a ship"
    )


@action(
    "transfer_sp",
    "Move supply points",
    Param("source", help="nation, facility, colony or ship id"),
    Param("to", help="nation, facility, colony or ship id"),
    Param("amount", help="SP, e.g. 10 or '2 1/4'"),
    reference="F-46, F-47",
)
def transfer_sp(ctx: Ctx, source: str, to: str, amount: str) -> None:
    """Move SP between stocks in the same system (loading merchants, filling a depot...)."""
    g = game(ctx)
    qty = spm.sp(amount)
    if qty <= 0:
        raise ActionRejected("the amount must be positive")
    (k1, s1), (k2, s2) = _holder(g, source), _holder(g, to)
    if s1 != s2:
        raise ActionRejected(
            f"{source} is at {s1 or 'no system'} and {to} at {s2 or 'no system'}: SP move "
            "between systems aboard merchants"
        )
    src = Source(k1, source, source)
    dst = Source(k2, to, to)
    if available(g, src) < qty:
        raise ActionRejected(f"{source} has only {spm.text(available(g, src))} SP")
    if k2 == "ship":
        room = g.cargo_capacity(g.state.units[to]) - g.cargo(g.state.units[to])
        if qty > room:
            raise ActionRejected(f"{to} has room for {spm.text(room)} SP")
    if k2 == "core" and s1 != g.qas():
        raise ActionRejected("the Core stockpile is only at QAS")
    take(ctx, src, qty)
    give(ctx, dst, qty)
    ctx.summary(f"{spm.text(qty)} SP from {source} to {to}")


@action(
    "load_facility",
    "Load or unload a packed facility",
    Param("facility", "formation"),
    Param("tf", help="task force id to carry it, or - to unload"),
)
def load_facility(ctx: Ctx, facility: str, tf: str) -> None:
    """A packed ASB, FB, LP or SD module travels aboard a task force with room for it (T-07: 5 per module
    in merchant space)."""
    g = game(ctx)
    f = g.state.formation(facility)
    if f.data.get("state") != "packed":
        raise ActionRejected(f"{facility} is {f.data.get('state')}: only a packed facility can be carried")
    if tf in ("-", ""):
        ctx.formation(facility).data["carried_by"] = ""
        ctx.summary(f"{facility} unloaded at {f.location}")
        return
    t = g.state.formation(tf)
    if t.location != f.location or t.side != f.side:
        raise ActionRejected(f"{tf} must be a {f.side} task force at {f.location}")
    room = sum(int(g.attr(u, "cargo_modules", 0) or 0) for u in g.ships(tf))
    if g.fac_type(f) != "LP" and room < int(f.data.get("modules", 1)):
        raise ActionRejected(f"{tf} has room for {room} module(s); {facility} has {f.data.get('modules')}")
    ctx.formation(facility).data["carried_by"] = tf
    ctx.summary(f"{facility} loaded aboard {tf}")


@action(
    "install_upgrade",
    "Install a drone, missile pak or dispenser",
    Param("ship", "unit"),
    Param("item", "choice", choices=("sDrn", "mPak", "SubD")),
    reference="F-37, T-39",
)
def install_upgrade(ctx: Ctx, ship: str, item: str) -> None:
    """Install an upgrade from the nation's stores at an ASB or CFR in the ship's system (1 week; the
    dispenser per option)."""
    g = game(ctx)
    u = g.state.unit(ship)
    code = g.code(u)
    sid = g.unit_system(u) or ""
    if not any(
        g.fac_type(f) in ("ASB", "CFR") and f.data.get("state", "deployed") == "deployed"
        for f in g.facilities(u.side, sid)
    ):
        raise ActionRejected(f"{g.label(u)} needs a friendly ASB or CFR at {sid} to install it")
    stores = dict(g.nation(u.side).get("stores", {}))
    key = f"{item}@{sid}"
    if int(stores.get(key, 0)) <= 0:
        raise ActionRejected(f"no {item} in {u.side}'s stores at {sid}")
    if code == "FTR":
        raise ActionRejected("fighters take no upgrades")
    if item == "sDrn" and code not in SDRONE_MOUNTS:
        raise ActionRejected(f"a sensor drone mounts only on {', '.join(SDRONE_MOUNTS)}")
    if item == "sDrn" and u.status.get("drone"):
        raise ActionRejected("drones do not stack")
    if item == "mPak" and (
        g.base(u, "mi") <= 0
        or int(u.status.get("paks", 0)) >= int(ctx.options.get("missile_paks_per_ship", 1))
    ):
        raise ActionRejected("a missile pak needs a missile rating and room for another pak")
    if item == "SubD" and (int(g.attr(u, "sb", 0) or 0) > 0 or u.status.get("subd")):
        raise ActionRejected("a ship with submunitions cannot add a dispenser")
    weeks = int(ctx.options.get("subd_install_weeks", 1)) if item == "SubD" else 1
    rec = ctx.record("nations", u.side)
    stores[key] = int(stores[key]) - 1
    rec["stores"] = stores
    ctx.unit(ship).status["install"] = f"{item}@{g.t + weeks - 1}"
    ctx.summary(f"{g.label(u)}: installing {item} ({weeks} week(s))")


@action(
    "resupply_unit",
    "Resupply one unit",
    Param("unit", "unit"),
    Param(
        "source", required=False, default="auto", help="auto, core, facility:ID, merchants, self, colony:ID"
    ),
    reference="F-36",
)
def resupply_unit_action(ctx: Ctx, unit: str, source: str) -> None:
    """Resupply a unit now from a source (arrears and ordnance included)."""
    res = resupply_unit(ctx, unit, source, late=ctx.clock.get("week", 0) != 0)
    ctx.summary(res.get("text") or res.get("note") or "done")


@action(
    "rebuild_troops",
    "Rebuild a troop unit",
    Param("unit", "unit"),
    Param("source", required=False, default="auto", help="auto, core, facility:ID, merchants, colony:ID"),
    reference="F-31",
)
def rebuild_troops(ctx: Ctx, unit: str, source: str) -> None:
    """Bring a troop unit back to full strength at its current experience: ceil(BF lost / 10) +
    ceil(GF lost / 10) SP. A colony's troop-support SP cannot pay for it (F-32)."""
    g = game(ctx)
    u = g.state.unit(unit)
    if not g.is_troop(u):
        raise ActionRejected(f"{g.label(u)} is not a troop unit")
    max_bf, max_gf = troop_factors(ctx.tables, g.code(u), str(u.status.get("exp") or "Regular"))
    bf_def = max(0, max_bf - int(u.status.get("bf") or 0))
    gf_def = max(0, max_gf - int(u.status.get("gf") or 0))
    cost = Fraction(int(rebuild_cost(ctx, bf_def, gf_def).value))
    if not cost:
        raise ActionRejected(f"{g.label(u)} is at full strength")
    srcs = [x for x in sources(g, u, source) if x.kind != "troop_support"]
    if sum((available(g, x) for x in srcs), Fraction(0)) < cost:
        raise ActionRejected(f"{cost} SP needed and not available where {g.label(u)} is")
    paid, lines = pay(ctx, u, cost, srcs)
    unit_ = ctx.unit(unit)
    unit_.status["bf"] = max_bf
    unit_.status["gf"] = max_gf
    ctx.summary(
        f"{g.label(u)} rebuilt to BF {max_bf}, GF {max_gf} for {spm.text(paid)} SP ({'; '.join(lines)})"
    )


@action(
    "split_withheld",
    "Split a colony's withheld SP",
    Param("colony"),
    Param("pd", "int", min=0),
    Param("mines", "int", min=0),
    reference="M0.3, DEFAULT-04",
)
def split_withheld(ctx: Ctx, colony: str, pd: int, mines: int) -> None:
    """Say how a colony spends what it withheld: PD sites at 2 SP, mines at the option's rate per SP."""
    withheld = int((ctx.var("withheld", {}) or {}).get(colony, 0))
    if not withheld:
        raise ActionRejected(f"{colony} withheld nothing this month")
    per = int(ctx.options.get("mines_per_colony_sp", 5))
    cost = Fraction(2 * pd) + Fraction(mines, per)
    if cost > withheld:
        raise ActionRejected(
            f"{pd} PD sites and {mines} mines cost {spm.text(cost)} SP; {colony} withheld {withheld}"
        )
    ctx.edit_var("withheld_split", {})[colony] = {"pd": pd, "mines": mines}
    ctx.summary(f"{colony}: {pd} PD site(s), {mines} mines")


@action(
    "cancel_job", "Cancel a construction job", Param("job", "record", help="job id", record="construction")
)
def cancel_job(ctx: Ctx, job: str) -> None:
    """Stop a construction job; installments already paid are lost."""
    ctx.record("construction", job)["status"] = "cancelled"
    ctx.summary(f"Job {job} cancelled")


# -- politics, reinforcements -----------------------------------------------------------------
@action(
    "political_event",
    "Record a political event",
    Param("nation", "side"),
    Param(
        "kind",
        "choice",
        choices=(
            "protection_requested",
            "protection_dispatched",
            "directive_issued",
            "directive_complied",
            "directive_ignored",
            "request_answered",
            "other",
        ),
    ),
    Param("text", required=False, default=""),
    Param("colony", required=False, default=""),
    reference="M0.6, F-41, T-41",
)
def political_event(ctx: Ctx, nation: str, kind: str, text: str, colony: str) -> None:
    """Political interventions (their chances are the GM's; T-41): colony protection earns next month
    10% of the colony's output (at least 1); an ignored directive costs 10% of Core output."""
    g = game(ctx)
    rec = ctx.record("nations", nation)
    note = text
    if kind == "protection_dispatched":
        if colony not in g.colonies():
            raise ActionRejected("name the protected colony")
        bonus = int(protection_bonus(ctx, g.colony_output(colony)).value)
        rec["bonus_next"] = int(rec.get("bonus_next", 0)) + bonus
        note = note or f"units dispatched to protect {colony}: +{bonus} SP next month"
    elif kind == "directive_ignored":
        rec["penalty_next"] = True
        note = note or "directive for fleet action not complied with: Core output -10% next month"
    ctx.put_record(
        "politics",
        ctx.new_id("p", "records/politics"),
        {"t": g.t, "nation": nation, "kind": kind, "colony": colony, "text": note},
    )
    news.event(ctx, f"{kind.replace('_', ' ')}: {note}".strip(": "), [nation], "politics")
    ctx.summary(f"{nation}: {kind.replace('_', ' ')}")


@action(
    "promote",
    "Promote a commander",
    Param("commander", help="commander id"),
    Param("ship", "unit"),
    reference="F-04",
)
def promote(ctx: Ctx, commander: str, ship: str) -> None:
    """An approved promotion moves a commander to a ship of the next higher class with an open command.
    A CG captain promoted to a BB, BC or CV becomes a flag officer: fTac = max(2, sTac - 2)."""
    g = game(ctx)
    c = g.commanders().get(commander)
    if c is None or not c.get("alive", True):
        raise ActionRejected(f"no living commander {commander!r}")
    u = g.state.unit(ship)
    old_ship = g.state.units.get(c.get("ship") or "")
    cap = g.captain(u)
    if cap is not None and cap.get("alive", True) and u.status.get("captain") != commander:
        raise ActionRejected(f"{g.label(u)} has a captain: promotion needs an open command slot")
    rec = ctx.record("commanders", commander)
    new_code, old_code = g.code(u), g.code(old_ship) if old_ship is not None else ""
    if new_code in ("BB", "BC", "CV") and not c.get("flag"):
        rec["ftac"] = int(promotion_ftac(ctx, int(c.get("stac") or 0), old_code).value)
        rec["flag"] = True
    rec["ship"] = ship
    ctx.unit(ship).status["captain"] = commander
    if old_ship is not None and old_ship.status.get("captain") == commander:
        cid = f"cpt-{old_ship.id}-{g.t}"
        ctx.unit(old_ship.id).status["captain"] = cid
        ctx.put_record(
            "commanders",
            cid,
            {
                "name": f"Captain of {g.label(old_ship)}",
                "rank": "Captain",
                "nation": old_ship.side,
                "flag": False,
                "ship": old_ship.id,
                "alive": True,
                "k": 0,
                "rolled": False,
                "captain": True,
                "kafer": g.kafer(old_ship.side),
            },
        )
        roll_all_tactics(ctx)
    news.event(ctx, f"{c.get('name', commander)} takes command of {g.label(u)}", [u.side], "commander")
    ctx.summary(f"{c.get('name', commander)} promoted to {g.label(u)}")


@action(
    "reinforce",
    "Bring in reinforcements",
    Param("nation", "side"),
    Param("type", help="ship or troop type id"),
    Param("system"),
    Param("count", "int", required=False, default=1, min=1),
    Param("tf", required=False, default="", help="join this task force (default: a new one)"),
    Param("name", required=False, default=""),
    reference="M0.6c",
)
def reinforce(ctx: Ctx, nation: str, type: str, system: str, count: int, tf: str, name: str) -> None:
    """Units already built and diverted to the Arm (the schedule is the GM's: the seed has none)."""
    g = game(ctx)
    utype = ctx.catalog.type(type)
    if system not in g.systems():
        raise ActionRejected(f"no system {system!r}")
    code = str(utype.attrs.get("code", ""))
    if code in TROOPS:
        gid = None
        for f in g.contingents(nation, system):
            gid = f.id
        if gid is None:
            gid = ids.next_free(list(ctx.state.formations), nation, "contingent")
            ctx.add_formation(Formation(gid, nation, gid, "contingent", None, system, {}, {}, "owner"))
        levels = list(utype.attrs.get("levels", ["Regular"]))
        for i in range(count):
            chores_month.add_troop(
                ctx,
                nation,
                gid,
                type,
                name or f"{utype.name} {i + 1}",
                "Regular" if "Regular" in levels else levels[0],
            )
        ctx.summary(f"{count} x {utype.name} join {gid} at {system}")
    else:
        if tf:
            t = g.state.formation(tf)
            if t.side != nation or t.location != system:
                raise ActionRejected(f"{tf} is not a {nation} task force at {system}")
            fid = tf
        else:
            fid = new_tf(ctx, nation, system)
        for i in range(count):
            label = name if count == 1 and name else f"{name or utype.name} {i + 1}"
            chores_month.add_ship(ctx, nation, fid, type, label)
        ctx.summary(f"{count} x {utype.name} arrive at {system} in {fid}")
    news.event(ctx, f"reinforcements reach {system}: {count} x {utype.name}", [nation], "reinforcement")


@action(
    "schedule_reinforcement",
    "Schedule reinforcements",
    Param("month", "int", min=1, help="the month whose Week 0 brings them"),
    Param("nation", "side"),
    Param("type", help="ship or troop type id"),
    Param("system"),
    Param("count", "int", required=False, default=1, min=1),
    Param("name", required=False, default=""),
    reference="M0.6c, G-05",
)
def schedule_reinforcement(
    ctx: Ctx, month: int, nation: str, type: str, system: str, count: int, name: str
) -> None:
    """Enter a reinforcement schedule (the seed has none): the units arrive by themselves at the
    political step of that month's Week 0."""
    ctx.catalog.type(type)
    if system not in ctx.state.records("systems"):
        raise ActionRejected(f"no system {system!r}")
    now = int(ctx.clock.get("month", 1))
    early = ("SETUP", "M0.ORDERS", "M0.PRODUCTION", "M0.COLONY_INITIATIVES", "M0.CONSTRUCTION", "M0.RESUPPLY")
    if month < now or (month == now and ctx.state.step not in early):
        raise ActionRejected(f"month {month} is already past its Week 0 political step")
    plan = ctx.edit_var("reinforcement_schedule", [])
    plan.append(
        {"month": month, "nation": nation, "type": type, "system": system, "count": count, "name": name}
    )
    ctx.secret_to("gm")
    ctx.summary(f"{count} x {type} for {nation} at {system} in month {month}")


def deliver_reinforcements(ctx: Ctx) -> None:
    """M0.6c: scheduled reinforcements arrive."""
    month = int(ctx.clock.get("month", 1))
    plan = list(ctx.var("reinforcement_schedule", []) or [])
    due = [r for r in plan if int(r["month"]) == month]
    if not due:
        return
    ctx.set_var("reinforcement_schedule", [r for r in plan if int(r["month"]) != month])
    for r in due:
        reinforce.handler(ctx, r["nation"], r["type"], r["system"], int(r["count"]), "", r.get("name", ""))


@action(
    "enter_war",
    "A nation enters the war",
    Param("nation", "side"),
    Param("core_output", "int", required=False, default=0, min=0),
    reference="M0.6c",
)
def enter_war(ctx: Ctx, nation: str, core_output: int) -> None:
    """A nation (Anzania, Manchuria...) joins the war: from now on it sends orders and is supplied."""
    rec = ctx.record("nations", nation)
    rec["at_war"] = True
    if core_output:
        rec["core_output"] = core_output
    news.event(ctx, f"{ctx.state.sides[nation].name} enters the war", ["*"], "politics")
    ctx.summary(f"{nation} enters the war")


@action(
    "declare_end",
    "Declare the campaign over",
    Param("result", help="how it ended, in a few words"),
    reference="G-02",
)
def declare_end(ctx: Ctx, result: str) -> None:
    """The rules have no victory conditions: the GM ends the campaign (here or with gm.end_campaign)."""
    ctx.set_var("gm_ends", True)
    ctx.set_var("outcome", {"result": result, "declared_by": "gm"})
    ctx.advance(check=False)
    ctx.summary(f"Campaign over: {result}")


@action(
    "note_event",
    "Add a line to the turn reports",
    Param("text"),
    Param("to", "list", required=False, default=[], help="nations who learn of it (empty: everyone)"),
)
def note_event(ctx: Ctx, text: str, to: list[str]) -> None:
    """A GM note for the general report (or for some nations' reports only)."""
    for n in to:
        ctx.state.side(n)
    news.event(ctx, text, list(to) or None, "gm")
    ctx.summary(f"Report note: {text}")


# -- engagements -----------------------------------------------------------------------------
@action(
    "add_engagement",
    "Add an engagement",
    Param("system"),
    Param("attackers", "formations"),
    Param("defenders", "formations", required=False, default=[]),
    Param("facilities", "formations", required=False, default=[]),
    Param("kind", "choice", choices=("tf", "facility", "convoys"), required=False, default="tf"),
    reference="W.9b, DEFAULT-08",
)
def add_engagement(
    ctx: Ctx, system: str, attackers: list[str], defenders: list[str], facilities: list[str], kind: str
) -> None:
    """The GM pairs attackers with targets the program did not list (moving task forces, GM rulings)."""
    g = game(ctx)
    for fid in [*attackers, *defenders, *facilities]:
        f = g.state.formation(fid)
        if f.location != system and not (f.data.get("transit") or {}).get("from") == system:
            raise ActionRejected(f"{fid} is not at {system}")
    queue = ctx.edit_var("engagements", [])
    queue.append(
        {
            "id": f"E{len(queue) + 1}g",
            "system": system,
            "kind": "attack",
            "attack": kind,
            "a": {"tfs": list(attackers), "ships": [], "facilities": []},
            "b": {"tfs": list(defenders), "ships": [], "facilities": list(facilities)},
            "surprise": False,
        }
    )
    ctx.summary(f"Engagement at {system}: {', '.join(attackers)} against {', '.join(defenders + facilities)}")


@action(
    "drop_engagement",
    "Drop an engagement",
    Param("index", "int", min=1, help="1 = the next one"),
    reference="W.9b",
)
def drop_engagement(ctx: Ctx, index: int) -> None:
    """Remove a listed engagement (the GM rules it does not happen)."""
    queue = ctx.edit_var("engagements", [])
    if index > len(queue):
        raise ActionRejected(f"only {len(queue)} engagement(s) listed")
    gone = queue.pop(index - 1)
    ctx.summary(f"Engagement at {gone['system']} dropped")


# -- battle controls -------------------------------------------------------------------------
def _battle(ctx: Ctx) -> dict[str, Any]:
    b = ctx.state.vars.get("battle")
    if not b:
        raise ActionRejected("no battle is being fought")
    return b


@action(
    "cmb_pair",
    "Set the pairings",
    Param("pairs", "json", help='[{"a": ["ame-bb-1"], "b": ["kaf-bb-1"]}]'),
    reference="F-20a",
)
def cmb_pair(ctx: Ctx, pairs: Any) -> None:
    """Replace the pairings (the referee may: like against like, surplus spread evenly)."""
    b = _battle(ctx)
    rows = _json(pairs)
    seen: set[str] = set()
    for p in rows:
        for key, side in (("a", "A"), ("b", "B")):
            for uid in p.get(key, []):
                if b["units"].get(uid, {}).get("side") != side:
                    raise ActionRejected(f"{uid} is not on side {side} of this battle")
                if uid in seen:
                    raise ActionRejected(f"{uid} is in two pairings")
                seen.add(uid)
        if not p.get("a") or not p.get("b"):
            raise ActionRejected("every pairing needs ships of both sides")
        if (len(p["a"]) > 2 and len(p["b"]) == 1) or (len(p["b"]) > 2 and len(p["a"]) == 1):
            ctx.explain("more than two against one: fair pairing allows a pair, not a horde (E-14)")
    combat.set_pairs(ctx, rows)
    ctx.summary(f"{len(rows)} pairing(s) set")


@action(
    "cmb_escort",
    "Assign an escort",
    Param("escort", "unit"),
    Param("charge", "unit", help="the capital ship"),
    reference="F-20c",
)
def cmb_escort(ctx: Ctx, escort: str, charge: str) -> None:
    """An escort (FTR, SDB, FF, DE, DD, FE) guards one capital ship with its beams on PD, if its side
    outnumbers the enemy."""
    from rulesets.star_cruiser_lite.combat import OTHER

    b = _battle(ctx)
    g = game(ctx)
    if b["units"].get(escort, {}).get("side") != b["units"].get(charge, {}).get("side"):
        raise ActionRejected("escort and charge must be on the same side of this battle")
    if g.code(g.state.units[escort]) not in combat.escort_codes(g):
        raise ActionRejected(f"{escort} is not an escort class")
    key = b["units"][escort]["side"]
    if combat.line_count(b, key) <= combat.line_count(b, OTHER[key]):
        raise ActionRejected("escorts screen only while their side outnumbers the enemy")
    bb = ctx.edit_var("battle", {})
    bb["units"][escort].update({"role": "escort", "charge": charge})
    for p in bb["pairs"]:
        p["a"] = [u for u in p["a"] if u != escort]
        p["b"] = [u for u in p["b"] if u != escort]
    ctx.summary(f"{escort} escorts {charge}")


@action(
    "cmb_side",
    "Change a side's battle orders",
    Param("side", "choice", choices=("A", "B")),
    Param("range", "choice", choices=("long", "short", "long_until_salvoes"), required=False),
    Param("breakoff", "json", required=False, help='{"damaged_pct": 50, "flagship_lost": true}'),
    reference="E-11, E-12",
)
def cmb_side(ctx: Ctx, side: str, range: str | None, breakoff: Any) -> None:
    """Apply the orders' rules of engagement: the range a side wants and when it breaks off."""
    _battle(ctx)
    b = ctx.edit_var("battle", {})
    if range:
        b["sides"][side]["range_pref"] = range
    if breakoff:
        b["sides"][side]["breakoff"] = _json(breakoff)
    ctx.summary(
        f"side {side}: range {b['sides'][side]['range_pref']}, break-off {b['sides'][side]['breakoff']}"
    )


@action(
    "cmb_allocate",
    "Allocate batteries and targets",
    Param("unit", help="unit or facility id"),
    Param("pd", "int", required=False, min=0, help="batteries on point defence"),
    Param("target", required=False, default="", help="missile target"),
    Param("beam_target", required=False, default="", help="beam target (same pairing)"),
    reference="CMB.5",
)
def cmb_allocate(ctx: Ctx, unit: str, pd: int | None, target: str, beam_target: str) -> None:
    """This round only: how many beam/submunition batteries go on PD, and what missiles and beams aim at."""
    b = _battle(ctx)
    if unit not in b["units"]:
        raise ActionRejected(f"{unit} is not in this battle")
    for t in (target, beam_target):
        if t and b["units"].get(t, {}).get("side") == b["units"][unit]["side"]:
            raise ActionRejected(f"{t} is on the same side")
        if t and t not in b["units"]:
            raise ActionRejected(f"{t} is not in this battle")
    if beam_target and beam_target not in combat.opponents(game(ctx), b, unit):
        raise ActionRejected("beams fire only at ships of the same pairing")
    combat.set_allocation(ctx, unit, pd, target or None, beam_target or None)
    ctx.summary(f"{unit}: PD {pd if pd is not None else 'default'}, missiles at {target or 'default'}")


@action(
    "cmb_board",
    "Launch a boarding action",
    Param("ship", "unit"),
    Param("target"),
    Param("units", "units", help="troop units aboard the ship"),
    reference="CMB.4, F-23",
)
def cmb_board(ctx: Ctx, ship: str, target: str, units: list[str]) -> None:
    """Send troops from a ship at an enemy ship at All Stop (Mv 0) or a facility; resolved before fire."""
    _battle(ctx)
    boarding.declare(ctx, ship, target, units)


@action(
    "cmb_result",
    "Enter a battle's result by hand",
    Param("winner", "choice", choices=("A", "B", "none")),
    Param("destroyed", "list", required=False, default=[], help="ships or facilities destroyed"),
    Param("damage", "json", required=False, default={}, help='{"ame-bb-1": {"df": 3, "mi": 1}}'),
    Param("retreated", "list", required=False, default=[], help="ships that broke off"),
    Param("note", required=False, default=""),
    reference="CMB, G-40",
)
def cmb_result(
    ctx: Ctx, winner: str, destroyed: list[str], damage: Any, retreated: list[str], note: str
) -> None:
    """When the referee fights the battle elsewhere (on a tactical map, in another game), type its outcome:
    losses, damage and who held the field. It is logged and the week goes on as after any battle."""
    b = _battle(ctx)
    g = game(ctx)
    dmg = _json(damage) or {}
    bb = ctx.edit_var("battle", {})
    for uid, stats in dmg.items():
        if uid not in b["units"]:
            raise ActionRejected(f"{uid} is not in this battle")
        for stat_, n in stats.items():
            if combat.is_facility(b, uid):
                f = ctx.formation(uid)
                d = dict(f.data.get("damage", {}))
                d[stat_] = int(d.get(stat_, 0)) + int(n)
                f.data["damage"] = d
            else:
                u = ctx.unit(uid)
                u.status[f"lost_{stat_}"] = int(u.status.get(f"lost_{stat_}", 0)) + int(n)
    for uid in destroyed:
        if uid not in b["units"]:
            raise ActionRejected(f"{uid} is not in this battle")
        if combat.is_facility(b, uid):
            damage_rules.destroy_facility(ctx, uid, "battle (result entered by the GM)")
        elif g.alive(g.state.units[uid]):
            damage_rules.destroy_ship(ctx, uid, "battle (result entered by the GM)")
        bb["units"][uid]["role"] = "lost"
    for uid in retreated:
        if uid in bb["units"]:
            bb["units"][uid]["role"] = "out"
    bb["over"] = True
    bb["winner"] = None if winner == "none" else winner
    bb["log"].append(f"result entered by the GM: winner {winner}" + (f" ({note})" if note else ""))
    ctx.tags["override"] = True
    ctx.goto("CMB.END")
    ctx.summary(f"Battle result entered by hand: winner {winner}")


PLAY_ACTIONS = (
    schedule_reinforcement,
    rebuild_troops,
    run_to_report,
    cmb_auto,
    transfer_sp,
    load_facility,
    load_troops,
    install_upgrade,
    resupply_unit_action,
    split_withheld,
    cancel_job,
    political_event,
    promote,
    reinforce,
    enter_war,
    declare_end,
    note_event,
    add_engagement,
    drop_engagement,
    cmb_pair,
    cmb_escort,
    cmb_side,
    cmb_allocate,
    cmb_board,
    cmb_result,
)
