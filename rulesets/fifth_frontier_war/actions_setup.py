"""Set-up actions (rule 7, digest 2.1): the secret base, the guerrillas, deployment and the
choice of the initial fleet markers."""

from __future__ import annotations

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from rulesets.fifth_frontier_war import candidates as C
from rulesets.fifth_frontier_war.acting import owns, side_for
from rulesets.fifth_frontier_war.game import Game
from rulesets.fifth_frontier_war.hexes import SETUP, is_hex

# rule modules: imported at the first call of one of their functions
setup_rules = later("rulesets.fifth_frontier_war.setup_rules")
reinforcements = later("rulesets.fifth_frontier_war.reinforcements")


@action(
    "choose_secret_base",
    "Choose the secret base",
    Param("world", help="the world's hex, e.g. 3017"),
    side="zhodani",
    visibility="actor",
    reference="5.26",
    key="b",
)
def choose_secret_base(ctx: Ctx, world: str) -> None:
    """Record the Zhodani secret base in private. It must be inside the Imperium, with no naval or
    scout base, no defense battalions, not interdicted, and not Esalin."""
    side_for(ctx, "zhodani")
    ctx.secret_to("zhodani")
    problem = setup_rules.secret_base_problem(Game.of(ctx), world.strip())
    if problem:
        raise ActionRejected(problem)
    ctx.set_secret("zhodani", "secret_base", world.strip())
    ctx.summary(
        f"Zhodani secret base: {ctx.state.records('worlds')[world.strip()]['name']} ({world.strip()})"
    )


@action(
    "place_guerrillas",
    "Place the Ine Givar",
    Param("placements", help="hex:count or hex:count:mode, comma separated, e.g. 2109:3,2213:1,2314:2:overt"),
    side="zhodani",
    reference="2.1 S2, 5.19",
    key="g",
)
def place_guerrillas(ctx: Ctx, placements: str) -> None:
    """Place all ten guerrilla units at once: at least three on Efate, at least one on Ruie, the
    rest on Imperial worlds with defense battalions that are not interdicted."""
    side_for(ctx, "zhodani")
    g = Game.of(ctx)
    counts: dict[str, int] = {}
    modes: list[tuple[str, str]] = []
    default = str(ctx.options.get("guerrilla_start_mode", "covert"))
    for part in placements.split(","):
        bits = [b.strip() for b in part.split(":") if b.strip()]
        if not bits:
            continue
        if len(bits) not in (2, 3) or not is_hex(bits[0]) or not bits[1].isdigit():
            raise ActionRejected(f"{part.strip()!r}: write hex:count or hex:count:mode")
        mode = bits[2] if len(bits) == 3 else default
        if mode not in ("covert", "overt"):
            raise ActionRejected(f"{part.strip()!r}: the mode is covert or overt")
        counts[bits[0]] = counts.get(bits[0], 0) + int(bits[1])
        modes.extend([(bits[0], mode)] * int(bits[1]))
    problems = setup_rules.guerrilla_problems(g, counts)
    if problems:
        raise ActionRejected("; ".join(problems))
    units = sorted(
        (u for u in ctx.state.units.values() if g.kind(u) == "guerrilla" and u.location == SETUP),
        key=lambda u: u.id,
    )
    if len(units) != 10:
        raise ActionRejected("the guerrillas are already placed")
    for u, (hexid, mode) in zip(units, modes):
        uu = ctx.unit(u.id)
        uu.location = hexid
        uu.status["mode"] = mode
    ctx.summary("Ine Givar placed: " + ", ".join(f"{n} at {h}" for h, n in sorted(counts.items())))


@action(
    "deploy",
    "Place counters",
    Param("units", "units", help="counters still waiting for placement", candidates=C.waiting_counters),
    Param("to", help="the hex"),
    Param(
        "on_world",
        "bool",
        required=False,
        default=False,
        help="admirals: on the world box instead of with the squadrons",
    ),
    reference="6.1-6.4",
    key="d",
)
def deploy(ctx: Ctx, units: list[str], to: str, on_world: bool) -> None:
    """Place waiting counters at a hex, checked against the order of battle's placement rules."""
    g = Game.of(ctx)
    to = to.strip()
    for uid in units:
        u = ctx.state.units[uid]
        owns(ctx, u)
        if u.location != SETUP and not is_hex(u.location):
            raise ActionRejected(f"{u.label} is not waiting for placement (nor placed on the map)")
        if g.kind(u) == "guerrilla":
            raise ActionRejected("place the guerrillas with place_guerrillas")
        problem = (
            setup_rules.placement_problem(g, u, to)
            if not (g.kind(u) == "admiral" and on_world)
            else (
                None
                if g.world(to) and (g.world(to) or {}).get("controller") == u.side
                else f"{u.label}: an admiral on a world box goes on a world of his own side"
            )
        )
        if problem:
            raise ActionRejected(problem)
    for uid in units:
        u = ctx.unit(uid)
        u.location = to
        if g.kind(u) == "admiral":
            u.status["on_world"] = bool(on_world)
    ctx.summary(f"{len(units)} counter(s) placed at {to}")


@action(
    "deploy_rest",
    "Place the rest at default stations",
    Param("side", "side", required=False, default=""),
    reference="6.1-6.4",
)
def deploy_rest(ctx: Ctx, side: str) -> None:
    """Quick start: every counter still waiting goes to the first legal station (the capital where
    allowed) and the initial fleet markers still to choose are taken in chart order."""
    from rulesets.fifth_frontier_war.setup_rules import INITIAL_MARKERS

    side = side_for(ctx, side)
    g = Game.of(ctx)
    placed = 0
    waiting = sorted(setup_rules.waiting(g, side), key=lambda u: (g.kind(u) == "admiral", u.id))
    for u in waiting:
        where = setup_rules.default_place(g, u)
        uu = ctx.unit(u.id)
        uu.location = where
        if g.kind(u) == "admiral":
            uu.status["on_world"] = False
        placed += 1
    navies = ("imperial",) if side == "imperial" else ("zhodani", "sword_worlds", "vargr")
    taken = 0
    for navy in navies:
        want = (
            INITIAL_MARKERS[navy]
            - len(reinforcements.markers(g, navy, "available"))
            - len(reinforcements.markers(g, navy, "in_play"))
        )
        for mid in reinforcements.markers(g, navy, "group")[: max(0, want)]:
            ctx.record("fleet_markers", mid)["status"] = "available"
            taken += 1
    ctx.summary(f"{side}: {placed} counters placed at default stations, {taken} fleet markers taken")


@action(
    "take_fleet_marker",
    "Choose an initial fleet marker",
    Param("marker", "record", record="fleet_markers"),
    reference="6.1-6.2",
)
def take_fleet_marker(ctx: Ctx, marker: str) -> None:
    """Take one of the navy's initial fleet markers without forming the fleet yet."""
    m = ctx.state.records("fleet_markers")[marker]
    side_for(ctx, m["side"])
    take_marker(ctx, marker)
    ctx.summary(f"fleet marker {m['name']} taken")


def take_marker(ctx: Ctx, marker: str) -> None:
    from rulesets.fifth_frontier_war.setup_rules import INITIAL_MARKERS

    g = Game.of(ctx)
    m = ctx.state.records("fleet_markers")[marker]
    if m["status"] != "group":
        raise ActionRejected(f"{m['name']} is already {m['status'].replace('_', ' ')}")
    navy = m["navy"]
    taken = len(reinforcements.markers(g, navy, "available")) + len(
        reinforcements.markers(g, navy, "in_play"))
    if taken >= INITIAL_MARKERS[navy]:
        raise ActionRejected(
            f"the {navy.replace('_', ' ')} navy starts with {INITIAL_MARKERS[navy]} "
            "fleet markers; the others arrive as reinforcements"
        )
    ctx.record("fleet_markers", marker)["status"] = "available"


ACTIONS: list[ActionDef] = [choose_secret_base, place_guerrillas, deploy, deploy_rest, take_fleet_marker]
