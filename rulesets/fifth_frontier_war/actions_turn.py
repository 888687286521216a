"""Actions of the weekly turn outside combat: reinforcements and replacements (phase 1),
movement (phase 2), guerrillas and plotting (phase 4), the armistice, the secret base and the
GM's map corrections."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from rulesets.fifth_frontier_war import candidates as C
from rulesets.fifth_frontier_war.acting import owns, side_for
from rulesets.fifth_frontier_war.formulas import armistice_level, fmt
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import ARRIVED, BOX, normalise_place

# rule modules: imported at the first call of one of their functions
control = later("rulesets.fifth_frontier_war.control")
fuel = later("rulesets.fifth_frontier_war.fuel")
movement = later("rulesets.fifth_frontier_war.movement")
ops = later("rulesets.fifth_frontier_war.ops")
plot_due = later("rulesets.fifth_frontier_war.plot_due")
reinforcements = later("rulesets.fifth_frontier_war.reinforcements")
victory = later("rulesets.fifth_frontier_war.victory")
P = later("rulesets.fifth_frontier_war.plots")
plot_offers = later("rulesets.fifth_frontier_war.plot_offers")

if TYPE_CHECKING:
    from rulesets.fifth_frontier_war.plots import Plot


# -- phase 1 ------------------------------------------------------------------------------------
@action(
    "place_arrivals",
    "Put reinforcements in a box",
    Param("units", "units"),
    Param("box", "choice", choices=("imp_reinf", "imp_rimward")),
    side="imperial",
    reference="1A, 5.21",
)
def place_arrivals(ctx: Ctx, units: list[str], box: str) -> None:
    """Newly drawn Imperial counters (the turn-2 draws) go into the reinforcements box or the
    rimward forces box."""
    side_for(ctx, "imperial")
    for uid in units:
        if ctx.state.units[uid].location != ARRIVED:
            raise ActionRejected(f"{ctx.state.units[uid].label} is not waiting for a box")
        ctx.unit(uid).location = BOX + box
    ctx.summary(f"{len(units)} counter(s) into the {box.replace('_', ' ')} box")


@action("rebuild_squadron", "Rebuild a reduced squadron (1 RP)", Param("squadron", "unit"), reference="5.20")
def rebuild_squadron(ctx: Ctx, squadron: str) -> None:
    """Flip a reduced squadron to full strength at a friendly base inside its own state's borders
    (scout bases rebuild only scouts)."""
    g = Game.of(ctx)
    sq = ctx.state.units[squadron]
    owns(ctx, sq)
    reinforcements.check_squadron_rebuild(g, sq)
    reinforcements.spend(ctx, sq.side, "squadron", 1, f"rebuild {sq.label}")
    ctx.unit(squadron).status["reduced"] = False
    ctx.summary(f"{sq.label} rebuilt to full strength")


@action(
    "replace_squadron", "Replace an eliminated squadron (3 RP)", Param("squadron", "unit"), reference="5.20"
)
def replace_squadron(ctx: Ctx, squadron: str) -> None:
    """An eliminated squadron returns at full strength in its reinforcement box."""
    g = Game.of(ctx)
    sq = ctx.state.units[squadron]
    owns(ctx, sq)
    if g.kind(sq) != "squadron" or not sq.status.get("eliminated"):
        raise ActionRejected(f"{sq.label} is not an eliminated squadron")
    if g.navy(sq) != reinforcements.own_navy(sq.side):
        raise ActionRejected(f"{sq.label}: Sword Worlds and Vargr units get no replacements")
    reinforcements.spend(ctx, sq.side, "squadron", 3, f"replace {sq.label}")
    where = reinforcements.replacement_box(g, sq)
    reinforcements.restore(ctx, squadron, where)
    ctx.summary(f"{sq.label} replaced: full strength in {where}")


@action(
    "rebuild_troop",
    "Rebuild a damaged troop unit",
    Param("troop", "unit"),
    Param(
        "to_loss", "int", required=False, default=0, help="with the G-25 option: rebuild only to this loss"
    ),
    reference="5.20",
)
def rebuild_troop(ctx: Ctx, troop: str, to_loss: int) -> None:
    """1 troop RP per factor regained (2 for armor), on a friendly world with no enemy troops."""
    g = Game.of(ctx)
    u = ctx.state.units[troop]
    owns(ctx, u)
    cost = reinforcements.troop_rebuild(ctx, g, u, int(to_loss))
    reinforcements.spend(ctx, u.side, "troop", cost, f"rebuild {u.label}")
    ctx.unit(troop).status["loss"] = int(to_loss)
    ctx.summary(f"{u.label} rebuilt to {to_loss}% losses for {cost} troop RPs")


@action("replace_troop", "Replace an eliminated troop unit", Param("troop", "unit"), reference="5.20")
def replace_troop(ctx: Ctx, troop: str) -> None:
    """Its full factor in troop RPs (x2 for armor); it returns at full strength in its box."""
    g = Game.of(ctx)
    u = ctx.state.units[troop]
    owns(ctx, u)
    cost = reinforcements.troop_replace_cost_of(g, u)
    reinforcements.spend(ctx, u.side, "troop", cost, f"replace {u.label}")
    where = reinforcements.replacement_box(g, u)
    reinforcements.restore(ctx, troop, where)
    ctx.summary(f"{u.label} replaced for {cost} troop RPs: in {where}")


# -- phase 2 ------------------------------------------------------------------------------------
@action(
    "xboat",
    "Move an admiral by xboat",
    Param("admiral", "unit"),
    Param("to", help="destination hex"),
    reference="2B, 5.24",
    key="x",
)
def xboat(ctx: Ctx, admiral: str, to: str) -> None:
    """Along a friendly xboat route, up to jump-4 away, with no enemy squadrons at either end.
    He arrives on the world box and may not ride a jump this phase."""
    g = Game.of(ctx)
    a = ctx.state.units[admiral]
    owns(ctx, a)
    if g.kind(a) != "admiral" or not g.in_play(a):
        raise ActionRejected(f"{a.label} is not an admiral in play")
    side = a.side
    if ctx.engine.resolve_actor(ctx.state, ctx.step.actor) != side and ctx.by != "gm":
        raise ActionRejected("it is the other player's xboat step")
    if int(a.status.get("xboat_turn", 0)) == g.turn:
        raise ActionRejected(f"{a.label} has already moved by xboat this turn")
    origin = g.place_of(a) or ""
    problem = movement.xboat_problem(g, list(ctx.var("xboat_routes", [])), side, origin, to.strip())
    if problem:
        raise ActionRejected(problem)
    if ctx.state.formations.get(a.formation or "") is not None and a.status.get("command"):
        ctx.explain(f"{a.label} leaves the command of {ctx.state.formations[a.formation].name}")
    u = ctx.unit(admiral)
    u.location = to.strip()
    u.formation = None
    u.status.update({"on_world": True, "command": False, "carrier": "", "xboat_turn": g.turn})
    ctx.summary(f"{a.label} travels by xboat {origin} -> {to.strip()}")


def _own_step(ctx: Ctx, side: str) -> None:
    if ctx.by != "gm" and ctx.engine.resolve_actor(ctx.state, ctx.step.actor) != side:
        raise ActionRejected("it is the other player's turn to move in this step")


@action(
    "move_scout",
    "Move an independent scout",
    Param("squadron", "unit"),
    Param("to", help="hex or box"),
    reference="2C",
    key="s",
)
def move_scout(ctx: Ctx, squadron: str, to: str) -> None:
    """A scout squadron outside any fleet jumps freely (fueled, within its jump number)."""
    g = Game.of(ctx)
    sq = ctx.state.units[squadron]
    owns(ctx, sq)
    _own_step(ctx, sq.side)
    try:
        dest = normalise_place(to)
    except ValueError as exc:
        raise ActionRejected(str(exc)) from None
    cost = movement.check_scout_move(g, sq, dest)
    origin = sq.location
    ops.jump_squadron(ctx, squadron, dest, g.turn)
    ctx.summary(f"{sq.label} jumps {origin} -> {dest} (jump {cost})")


@action(
    "move_fleet",
    "Move a well-led fleet",
    Param("fleet", "formation", candidates=C.own_fleets),
    Param("to", help="hex or box"),
    reference="2D",
    key="m",
)
def move_fleet(ctx: Ctx, fleet: str, to: str) -> None:
    """A fleet under an admiral with plotting factor 0 moves where its player wishes."""
    g = Game.of(ctx)
    f = ctx.state.formations[fleet]
    side_for(ctx, f.side)
    _own_step(ctx, f.side)
    try:
        dest = normalise_place(to)
    except ValueError as exc:
        raise ActionRejected(str(exc)) from None
    cost = movement.check_fleet_move(g, fleet, dest)
    origin = f.location
    for line in ops.jump_fleet(ctx, fleet, dest, g.turn):
        ctx.explain(line)
    ctx.summary(f"{f.name} jumps {origin} -> {dest} (jump {cost})")


def _own_tanker(ctx: Ctx, g: Game, uid: str) -> None:
    t = ctx.state.units[uid]
    owns(ctx, t)
    if g.kind(t) != "squadron" or g.face(t).type != "T":
        raise ActionRejected(f"{t.label} is not a tanker")


@action("reserve_tanker", "Keep a tanker's fuel", Param("tanker", "unit"), reference="5.15")
def reserve_tanker(ctx: Ctx, tanker: str) -> None:
    """This turn the tanker refuels nobody (using it would leave it empty until it refuels)."""
    g = Game.of(ctx)
    _own_tanker(ctx, g, tanker)
    held = ctx.edit_var("reserved_tankers", [])
    if tanker not in held:
        held.append(tanker)
    if tanker in (ctx.var("tanker_choices") or {}):
        ctx.edit_var("tanker_choices", {}).pop(tanker, None)
    ctx.summary(f"{ctx.state.units[tanker].label} keeps its fuel this turn")


@action(
    "tanker_fuels_tanker",
    "A tanker refuels itself or another tanker",
    Param("tanker", "unit", help="the tanker that gives its fuel"),
    Param("target", "unit", required=False, help="the tanker refuelled (default: itself)"),
    reference="5.15",
)
def tanker_fuels_tanker(ctx: Ctx, tanker: str, target: str | None = None) -> None:
    """Digest 5.15: instead of refuelling other squadrons, a tanker may refuel itself or another
    tanker. That takes its whole capacity; the refuelled tanker may jump again but cannot refuel
    others until it has been refuelled at a non-tanker source."""
    g = Game.of(ctx)
    target = target or tanker
    _own_tanker(ctx, g, tanker)
    _own_tanker(ctx, g, target)
    problem = fuel.tanker_choice_problem(g, tanker, target)
    if problem:
        raise ActionRejected(problem)
    ctx.edit_var("tanker_choices", {})[tanker] = target
    held = ctx.var("reserved_tankers") or []
    if tanker in held:
        ctx.edit_var("reserved_tankers", []).remove(tanker)
    t, x = ctx.state.units[tanker], ctx.state.units[target]
    whom = "itself" if target == tanker else x.label
    ctx.summary(f"{t.label} will refuel {whom} (its whole capacity) when refuelling is resolved")


# -- phase 4 ------------------------------------------------------------------------------------
@action(
    "guerrilla_mode",
    "Set guerrillas covert or overt",
    Param("units", "units"),
    Param("mode", "choice", choices=("covert", "overt")),
    side="zhodani",
    reference="4B, 5.19",
    key="g",
)
def guerrilla_mode(ctx: Ctx, units: list[str], mode: str) -> None:
    """Covert units are ignored by surface combat and control, and recover 10% each guerrilla step."""
    side_for(ctx, "zhodani")
    g = Game.of(ctx)
    for uid in units:
        u = ctx.state.units[uid]
        if g.kind(u) != "guerrilla" or not g.in_play(u):
            raise ActionRejected(f"{u.label} is not a guerrilla unit in play")
        ctx.unit(uid).status["mode"] = mode
    ctx.summary(f"{len(units)} guerrilla unit(s) now {mode}")


def plot_base(ctx: Ctx) -> int:
    return 0 if ctx.state.step == "SETUP_INITIAL_PLOT" else int(ctx.clock.get("turn", 1))


def horizon(ctx: Ctx, g: Game, fid: str) -> int:
    f = ctx.state.formations[fid]
    if ctx.state.step == "SETUP_INITIAL_PLOT":
        if f.side == "imperial" and not ctx.var("imperial_initial_plot"):
            raise ActionRejected("the Imperial side plots nothing before turn 1 (surprise)")
        return 4 if g.fleet_navy(fid) == "zhodani" else 5
    return g.fleet_pf(fid)


def _plot_fleet(ctx: Ctx, fleet: str) -> tuple[Game, Any, Plot]:
    g = Game.of(ctx)
    f = ctx.state.formations[fleet]
    side_for(ctx, f.side)
    ctx.secret_to(f.side)
    return g, f, ops.plot(ctx.state, f.side, fleet)


def _store(ctx: Ctx, g: Game, f: Any, new: Plot, base: int) -> None:
    problems = movement.plot_problems(g, f.id, new, base)
    if problems:
        raise ActionRejected("; ".join(problems))
    ops.save_plot(ctx, f.side, f.id, new)


@action(
    "plot",
    "Plot orders",
    Param("fleet", "formation", candidates=C.plotting_fleets),
    Param(
        "orders",
        help="turn:order pairs, e.g. 7:J2011, 8:R2011 (R alone: hold where the fleet will be); "
        "without turns they fill the next unplotted turns",
        suggest=plot_offers.plot_orders_offered,
    ),
    visibility="actor",
    reference="4C, 5.16",
    key="p",
)
def plot_orders(ctx: Ctx, fleet: str, orders: str) -> None:
    """Write orders into a fleet's secret plot, up to its horizon (this turn + plotting factor).
    Each jump is checked against the slowest squadron still in the fleet then and its fuel."""
    g, f, plot = _plot_fleet(ctx, fleet)
    base = plot_base(ctx)
    top = base + horizon(ctx, g, fleet)
    new = dict(plot)
    for item in [x.strip() for x in orders.split(",") if x.strip()]:
        if ":" in item:
            turn_text, text = item.split(":", 1)
            if not turn_text.strip().isdigit():
                raise ActionRejected(f"{item!r}: write turn:order, e.g. 7:J2011")
            turn = int(turn_text)
        else:
            gaps = [u for u in range(base + 1, top + 1) if u not in new]
            if not gaps:
                raise ActionRejected(f"{f.name} is plotted to its horizon (turn {top})")
            turn, text = gaps[0], item
        if turn <= base or turn > top:
            raise ActionRejected(f"turn {turn}: {f.name} plots turns {base + 1}-{top} now")
        if turn in plot:
            raise ActionRejected(
                f"turn {turn} is already plotted ({P.order_text(plot[turn])}); abort the plot to change it"
            )
        here = P.position_after(new, base, f.location or "", turn - 1)
        try:
            order = P.parse_order(text, here)
        except ValueError as exc:
            raise ActionRejected(str(exc)) from None
        new[turn] = order
    _store(ctx, g, f, new, base)
    ctx.summary(
        f"{f.name} plotted: " + ", ".join(f"t{u} {P.order_text(new[u])}" for u in sorted(new) if u > base)
    )


@action(
    "hold_unplotted",
    "Hold the unplotted fleets",
    visibility="actor",
    reference="4C, 5.16",
)
def hold_unplotted(ctx: Ctx) -> None:
    """Every fleet of yours still owing orders holds where it will be for each turn not yet
    plotted (R, "no move"): the orders already written stay, and the rest of the plot is
    written out for you, fleet by fleet, in the log. Abort a plot to change it afterwards."""
    side = ctx.by if ctx.by in C.SIDES else None
    held = 0
    for d in plot_due.plotting_fleets(ctx.state):
        f = d.fleet
        if not d.gaps or (side and f.side != side) or f.status.get("mismatch"):
            continue
        g, f, _plot = _plot_fleet(ctx, f.id)
        new = plot_due.holds(d)
        _store(ctx, g, f, new, d.base)
        ctx.explain(f"{f.name} holds at {new[d.gaps[0]]['hex']} on turn"
                    f"{'s' if len(d.gaps) > 1 else ''} {', '.join(map(str, d.gaps))} (not plotted: "
                    "no move)")
        held += 1
    if not held:
        raise ActionRejected("no fleet of yours still owes orders")
    ctx.summary(f"{held} fleet(s) hold on their unplotted turns")


@action(
    "plot_detach",
    "Plot a detachment",
    Param("fleet", "formation", candidates=C.own_fleets),
    Param("turn", "int"),
    Param("squadrons", "units"),
    visibility="actor",
    reference="5.16",
)
def plot_detach(ctx: Ctx, fleet: str, turn: int, squadrons: list[str]) -> None:
    """Squadrons that could not follow a later order must be plotted to leave the fleet at step 4A
    of an earlier turn (e.g. jump-2 squadrons before a jump-3 order)."""
    g, f, plot = _plot_fleet(ctx, fleet)
    base = plot_base(ctx)
    if turn <= base or turn not in plot:
        raise ActionRejected(
            f"plot the move of turn {turn} first (detachments ride on a plotted turn after {base})"
        )
    for sid in squadrons:
        if ctx.state.units[sid].formation != fleet:
            raise ActionRejected(f"{ctx.state.units[sid].label} is not in {f.name}")
    new = {u: dict(o) for u, o in plot.items()}
    new[turn]["detach"] = sorted(set(new[turn].get("detach", [])) | set(squadrons))
    _store(ctx, g, f, new, base)
    ctx.summary(f"{f.name}: {', '.join(squadrons)} to detach at step 4A of turn {turn}")


@action(
    "abort_plot",
    "Abort a plot",
    Param("fleet", "formation", candidates=C.own_fleets),
    visibility="actor",
    reference="5.16, WE-07",
)
def abort_plot(ctx: Ctx, fleet: str) -> None:
    """Every plotted order after this turn becomes a hold where the fleet is; new orders then
    follow as usual."""
    _g, f, plot = _plot_fleet(ctx, fleet)
    base = plot_base(ctx)
    ops.save_plot(ctx, f.side, fleet, P.abort(plot, base, f.location or ""))
    ctx.formation(fleet).status["mismatch"] = False
    ctx.summary(f"{f.name}: plot aborted, holds at {f.location}")


@action(
    "insert_hold",
    "Insert a hold",
    Param("fleet", "formation", candidates=C.own_fleets),
    visibility="actor",
    reference="5.16, WE-08",
)
def insert_hold(ctx: Ctx, fleet: str) -> None:
    """After a failed refuel: hold next turn and delay every later order one turn (no new order
    is asked for this turn)."""
    _g, f, plot = _plot_fleet(ctx, fleet)
    base = plot_base(ctx)
    new = P.insert_hold(plot, base, f.location or "")
    ops.save_plot(ctx, f.side, fleet, new)
    ctx.formation(fleet).status["mismatch"] = False
    ctx.summary(f"{f.name}: hold inserted for turn {base + 1}; later orders delayed one turn")


@action(
    "erase_plot",
    "Erase plotted orders",
    Param("fleet", "formation", candidates=C.own_fleets),
    Param("turns", "list", help="turns to erase (beyond the horizon; any at the initial plot)"),
    visibility="actor",
    reference="5.16, WE-09",
)
def erase_plot(ctx: Ctx, fleet: str, turns: list[str]) -> None:
    """Orders beyond a shortened horizon may be erased; they are plotted again when due."""
    g, f, plot = _plot_fleet(ctx, fleet)
    base = plot_base(ctx)
    top = base + horizon(ctx, g, fleet)
    wanted = [int(t) for t in turns]
    for u in wanted:
        if u not in plot:
            raise ActionRejected(f"turn {u} is not plotted")
        if ctx.state.step != "SETUP_INITIAL_PLOT" and u <= top:
            raise ActionRejected(f"turn {u} is within the horizon (turn {top}): abort the plot instead")
    new = {u: o for u, o in plot.items() if u not in wanted}
    ops.save_plot(ctx, f.side, fleet, new)
    ctx.summary(f"{f.name}: orders erased for turn(s) {', '.join(map(str, sorted(wanted)))}")


# -- at any time --------------------------------------------------------------------------------
@action(
    "armistice",
    "Armistice",
    Param(
        "kind",
        "choice",
        choices=("mutual", "zhodani"),
        help="mutual (any time) or a Zhodani declaration (end of turn, turn 26+)",
    ),
    reference="5.22, WE-40",
)
def armistice(ctx: Ctx, kind: str) -> None:
    """End the war now. Victory is worked out from the victory points; a Zhodani declaration
    shifts the level two steps toward the Imperium on turns 26-51 and one step from turn 52."""
    turn = int(ctx.clock.get("turn", 1))
    if kind == "zhodani":
        side_for(ctx, "zhodani")
        if ctx.state.step != "END_OF_TURN":
            raise ActionRejected("the Zhodani player declares an armistice only at the end of a turn")
        if turn < 26:
            raise ActionRejected(
                f"a Zhodani armistice is possible from the end of turn 26 (this is turn {turn})"
            )
    elif ctx.by not in ("gm",):
        raise ActionRejected("a mutual armistice needs both players: the GM records it")
    d, z, i = victory.difference(ctx.state.records("worlds"))
    _used, level = victory.level(ctx.tables, d, str(ctx.options.get("half_points", "truncate")))
    final = armistice_level(level, turn, kind == "zhodani")
    winner = "zhodani" if final.startswith("Zhodani") else "imperial" if final.startswith("Imperial") else ""
    ctx.explain(
        f"D = {fmt(d)} (Zhodani {fmt(z.total)} - Imperial {fmt(i.total)}) -> {level}"
        + (f"; Zhodani armistice on turn {turn}: shifted to {final}" if kind == "zhodani" else "")
    )
    outcome: dict[str, Any] = {"result": final, "armistice": kind, "turn": turn, "vp_difference": fmt(d)}
    if winner:
        outcome["winner"] = winner
    ctx.end_game(outcome)
    ctx.summary(f"Armistice ({kind}) on turn {turn}: {final}")


def _base_hidden(state: Any) -> str | None:
    if not state.secrets.get("zhodani", {}).get("secret_base"):
        return "no secret base has been chosen"
    if state.vars.get("secret_base_revealed"):
        return "the secret base is already revealed"
    return None


@action(
    "reveal_secret_base",
    "Reveal the secret base",
    side="zhodani",
    reference="5.26, G-42",
    available=_base_hidden,
)
def reveal_secret_base(ctx: Ctx) -> None:
    """The Fulacin battalion appears on the secret-base world; with no Imperial troops there the
    Zhodani player takes control (and may use its starport)."""
    side_for(ctx, "zhodani")
    base = ctx.state.secrets.get("zhodani", {}).get("secret_base")
    if not base:
        raise ActionRejected("no secret base was chosen")
    if ctx.var("secret_base_revealed"):
        raise ActionRejected("the secret base is already revealed")
    g = Game.of(ctx)
    w = g.world(base)
    fulacin = ctx.unit("zho-fulacin")
    fulacin.location = base
    fulacin.status["eliminated"] = False
    ctx.set_var("secret_base_revealed", base)
    if g.troops(base, "imperial"):
        ctx.explain(
            f"Imperial troops are on {w['name']}: the Imperium keeps control until they are eliminated"
        )
    else:
        control.set_controller(ctx, base, "zhodani", "the secret base is revealed")
    ctx.summary(f"The Zhodani secret base is revealed at {w['name']} ({base})")


WORLD_FIELDS = {
    "name": str,
    "starport": str,
    "tech_level": int,
    "sdb": int,
    "defense_battalions": int,
    "water": bool,
    "atmosphere": str,
    "gas_giant": bool,
    "naval_base": bool,
    "scout_base": bool,
    "military_base": bool,
    "zone": str,
    "region": str,
    "subsector_capital": bool,
    "initial_controller": str,
    "controller": str,
    "sdb_loss": int,
    "db_loss": int,
    "red_opened": bool,
    "surrendered": bool,
    "sdb_mode": str,
}
CHOICES = {
    "starport": ("A", "B", "C", "D", "E", "X"),
    "atmosphere": ("breathable", "tainted", "vacuum"),
    "zone": ("none", "amber", "red"),
    "region": ("imperial", "zhodani", "sword_worlds", "vargr", "independent", "codominium"),
    "initial_controller": ("imperial", "zhodani", ""),
    "controller": ("imperial", "zhodani", ""),
    "sdb_mode": ("", "active", "passive"),
}


@action(
    "gm.correct_world",
    "Correct a world",
    Param("world", help="the hex"),
    Param("field", "choice", choices=tuple(WORLD_FIELDS)),
    Param("value"),
    Param("reason", required=False, default=""),
    reference="G-01",
)
def correct_world(ctx: Ctx, world: str, field: str, value: str, reason: str) -> None:
    """Change one value of a world (from the physical map, or a ruling); logged as an override."""
    if world not in ctx.state.records("worlds"):
        raise ActionRejected(f"no world at {world}")
    typ = WORLD_FIELDS[field]
    new: Any
    if typ is bool:
        low = str(value).strip().lower()
        if low not in ("true", "false", "yes", "no", "1", "0"):
            raise ActionRejected(f"{field} is yes or no")
        new = low in ("true", "yes", "1")
    elif typ is int:
        try:
            new = int(value)
        except ValueError:
            raise ActionRejected(f"{field} is a whole number") from None
        if new < 0 or (field.endswith("_loss") and new > 100):
            raise ActionRejected(f"{field} out of range")
    else:
        new = str(value).strip()
        if field in CHOICES and new not in CHOICES[field]:
            raise ActionRejected(f"{field} is one of {', '.join(c or '(none)' for c in CHOICES[field])}")
    rec = ctx.record("worlds", world)
    old = rec.get(field)
    rec[field] = new
    ctx.tags["override"] = True
    if reason:
        ctx.explain(f"reason: {reason}")
    ctx.summary(f"GM: {rec['name']} ({world}) {field} {old} -> {new}")


ACTIONS: list[ActionDef] = [
    place_arrivals,
    rebuild_squadron,
    replace_squadron,
    rebuild_troop,
    replace_troop,
    xboat,
    move_scout,
    move_fleet,
    reserve_tanker,
    tanker_fuels_tanker,
    guerrilla_mode,
    plot_orders,
    hold_unplotted,
    plot_detach,
    abort_plot,
    insert_hold,
    erase_plot,
    armistice,
    reveal_secret_base,
    correct_world,
]
