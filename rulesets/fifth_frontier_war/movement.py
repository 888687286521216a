"""Movement (rule 3, digest 5.12-5.13, 5.16, 5.24): jump costs, plot validation against the
live state, the plotted-movement step, xboats, and the loading rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign_tui.core.errors import ActionRejected
from rulesets.fifth_frontier_war import fuel, ops
from rulesets.fifth_frontier_war import plots as P
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import box_id, is_box, is_hex
from rulesets.fifth_frontier_war.procs_map_rules import route_map, xboat_problems

if TYPE_CHECKING:
    from campaign_tui.core.context import Ctx
    from campaign_tui.core.model import Unit

BOX_SIDE = {
    "imp_reinf": "imperial",
    "imp_rimward": "imperial",
    "sword_worlds": "zhodani",
    "zho_reinf": "zhodani",
    "zho_additional": "zhodani",
}


def entry_hex(g: Game, box: str) -> str:
    """T22 (the Imperial reinforcements box: the campaign option of G-47)."""
    if box == "imp_reinf":
        return str(g.options.get("imperial_entry_hex", "3218"))
    return str(g.tables.get("T22").lookup(box=box, item="hex").value)


def jump_cost(g: Game, side: str, origin: str, dest: str) -> int | None:
    """Hexes of jump needed, None if the move is not allowed (5.13): from a box 1 + hexes from
    its entry hex; into one's own box the reverse; never box to box."""
    if is_box(origin) and is_box(dest):
        return None
    if is_box(dest):
        if BOX_SIDE.get(box_id(dest)) != side:
            return None
        return 1 + g.dist(origin, entry_hex(g, box_id(dest)))
    if not is_hex(dest):
        return None
    if is_box(origin):
        return 1 + g.dist(entry_hex(g, box_id(origin)), dest)
    return g.dist(origin, dest)


def ships_for_plot(g: Game, fid: str) -> list[P.Ship]:
    out = []
    for s in g.fleet_ships(fid):
        face = g.face(s)
        out.append(
            P.Ship(
                s.id,
                g.label(s),
                face.jump,
                face.refuel,
                face.type == "T",
                bool(s.status.get("needs_fuel")),
                int(s.status.get("moved_for", 0)),
            )
        )
    return out


def terrain(g: Game, side: str) -> P.Terrain:
    return P.Terrain(
        zero_time=lambda place, code: fuel.possible_zero_time(g, place, code),
        any_source=lambda place: fuel.possible_source(g, place),
        cost=lambda a, b: jump_cost(g, side, a, b),
    )


def plot_problems(g: Game, fid: str, plot: P.Plot, turn: int, extra: list[Unit] | None = None) -> list[str]:
    f = g.state.formations[fid]
    ships = ships_for_plot(g, fid)
    for s in extra or []:
        face = g.face(s)
        ships.append(
            P.Ship(
                s.id,
                g.label(s),
                face.jump,
                face.refuel,
                face.type == "T",
                bool(s.status.get("needs_fuel")),
                int(s.status.get("moved_for", 0)),
            )
        )
    return P.validate(plot, turn, f.location or "", ships, terrain(g, f.side))


def execute_plots(ctx: Ctx) -> list[str]:
    """Step 2E: every fleet's order for this turn is revealed and carried out at once. A jump
    that cannot be made (a squadron unfueled, or out of range) leaves the fleet where it is
    with a plot mismatch to repair at step 4C."""
    g = Game.of(ctx)
    turn = g.turn
    lines: list[str] = []
    orders: list[tuple[str, dict[str, object]]] = []
    for f in sorted(g.fleets(), key=lambda x: x.id):
        order = ops.plot(ctx.state, f.side, f.id).get(turn)
        if order is None or g.fleet_pf(f.id) == 0:
            continue
        orders.append((f.id, order))
    for fid, order in orders:
        f = ctx.state.formations[fid]
        text = P.order_text(order)
        result = ""
        ships = g.fleet_ships(fid)
        moved_already = ships and all(int(s.status.get("moved_for", 0)) == turn for s in ships)
        if moved_already:
            result = "already made as its disengagement jump"
        elif order["order"] == "R":
            result = "holds / refuels"
        else:
            dest = str(order["hex"])
            cost = jump_cost(g, f.side, f.location or "", dest)
            dry = [g.label(s) for s in ships if s.status.get("needs_fuel")]
            if not ships:
                result = "no squadrons"
            elif dry:
                result = f"cannot jump: {', '.join(dry)} not fueled (plot mismatch)"
            elif cost is None or cost > g.fleet_jump(fid):
                result = f"cannot jump: needs jump {cost}, fleet jump {g.fleet_jump(fid)} (plot mismatch)"
            else:
                origin = f.location
                lines.extend(ops.jump_fleet(ctx, fid, dest, turn))
                result = f"jumps {origin} -> {dest}"
            if result.startswith("cannot"):
                ctx.formation(fid).status["mismatch"] = True
        lines.append(f"{f.name}: turn {turn} {text}: {result}")
        ctx.put_record(
            "orders",
            f"{turn:03d}-{fid}",
            {"turn": turn, "fleet": fid, "name": f.name, "side": f.side, "order": text, "result": result},
        )
    return lines


def check_scout_move(g: Game, sq: Unit, dest: str) -> int:
    """2C: an independent, fueled scout jumps up to its jump number."""
    face = g.face(sq)
    if face.type != "S":
        raise ActionRejected(f"{g.label(sq)} is not a scout squadron: only scouts move outside a fleet")
    if sq.formation:
        raise ActionRejected(f"{g.label(sq)} is in a fleet: it moves with the fleet")
    if sq.status.get("needs_fuel"):
        raise ActionRejected(f"{g.label(sq)} is not fueled")
    if int(sq.status.get("jumped_turn", 0)) == g.turn or int(sq.status.get("moved_for", 0)) == g.turn:
        raise ActionRejected(f"{g.label(sq)} has already moved this turn")
    cost = jump_cost(g, sq.side, sq.location or "", dest)
    if cost is None:
        raise ActionRejected(f"{g.label(sq)} cannot jump from {sq.location} to {dest}")
    if cost > face.jump:
        raise ActionRejected(f"{dest} needs jump {cost}; {g.label(sq)} has jump {face.jump}")
    return cost


def check_fleet_move(g: Game, fid: str, dest: str) -> int:
    """2D: a fleet under an admiral with plotting factor 0 moves freely (fueled, in range)."""
    f = g.state.formations[fid]
    if g.fleet_pf(fid) != 0:
        raise ActionRejected(f"{f.name} is plotted (plotting factor {g.fleet_pf(fid)}); it moves at step 2E")
    ships = g.fleet_ships(fid)
    if not ships:
        raise ActionRejected(f"{f.name} has no squadrons")
    if any(
        int(s.status.get("jumped_turn", 0)) == g.turn or int(s.status.get("moved_for", 0)) == g.turn
        for s in ships
    ):
        raise ActionRejected(f"{f.name} has already moved this turn")
    dry = [g.label(s) for s in ships if s.status.get("needs_fuel")]
    if dry:
        raise ActionRejected(f"{f.name} cannot jump: {', '.join(dry)} not fueled")
    cost = jump_cost(g, f.side, f.location or "", dest)
    if cost is None:
        raise ActionRejected(f"{f.name} cannot jump from {f.location} to {dest}")
    if cost > g.fleet_jump(fid):
        raise ActionRejected(f"{dest} needs jump {cost}; the fleet's jump is {g.fleet_jump(fid)}")
    return cost


# -- xboats (5.24) -------------------------------------------------------------------------
def xboat_problem(
    g: Game, routes: list[dict[str, str]], side: str, origin: str, dest: str, check_enemy: bool = True
) -> str | None:
    """5.24 / G-31: along a friendly route, at most jump-4, no enemy squadrons at either end
    (the same check as ``calc fifth_frontier_war xboat_move``, on the board's route graph)."""
    corrections = str(g.options.get("distance_corrections", ""))
    graph = route_map(dict(g.state.records("worlds")), routes, side, corrections)
    enemy = {p for p in (origin, dest)
             if check_enemy and g.squadrons(p, "zhodani" if side == "imperial" else "imperial")}
    measure = str(g.options.get("xboat_measure", "hex_distance"))
    problems, _ = xboat_problems(graph, side, origin, dest, measure, corrections, enemy)
    return problems[0] if problems else None


# -- loading (5.12, 5.23) --------------------------------------------------------------------
def landing_problem(g: Game, side: str, place: str, what: str) -> str | None:
    if g.red_closed(place, side) and not g.warrant_holder_at(place):
        return (
            f"{place} is an interdicted (red-zone) world still closed to Imperial {what}: no Zhodani-"
            "player unit has entered the system and no admiral with the warrant is there"
        )
    return None
