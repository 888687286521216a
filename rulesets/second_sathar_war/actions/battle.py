"""Battle actions (digest 2.2 steps 5-8, 2.4): declarations, set-up choices, dice helper, results."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.board import HexGrid
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.later import later
from campaign_tui.core.procedures import Calc

from .. import candidates as C
from ..fdm import Fdm
from ..ledger import record_loss
from ..ships import HALVING_FLAGS, alive, condition, max_hp, mounts, stat, working
from .common import acting_side, fdm

# rule modules: imported at the first call of one of their functions
B = later("rulesets.second_sathar_war.battles")

DECLARE_STEPS = ("SATHAR_DECLARE", "UPF_DECLARE")


def _declaring(state) -> str | None:  # type: ignore[no-untyped-def]
    if state.step not in DECLARE_STEPS:
        return "only while attacks are declared"
    if state.step == "SATHAR_DECLARE" and state.vars.get("retreat"):
        return "the Sathar are retreating: they declare no more attacks"
    return None


def _battle_step(*steps: str):  # type: ignore[no-untyped-def]
    def check(state) -> str | None:  # type: ignore[no-untyped-def]
        if state.step not in steps or not state.vars.get("battle"):
            return "only during a battle (" + ", ".join(steps) + ")"
        return None

    return check


# the tactical (Knight Hawks) map: its extent is not known, any four-digit hex number is a hex
TACTICAL = HexGrid()

@action(
    "declare_attack",
    "Declare an attack",
    Param("system", help="the star system", candidates=C.contested_systems),
    Param(
        "planet",
        required=False,
        default="",
        help="the target planet (needed in two-planet systems)",
        candidates=C.contested_planets,
    ),
    Param(
        "forces",
        "formations",
        required=False,
        default=[],
        help="attacking stacks (default: every one of yours in the system)",
    ),
    Param(
        "stations",
        "units",
        required=False,
        default=[],
        help="UPF only: stations at the target planet that join the attack",
    ),
    side="phasing",
    key="a",
    available=_declaring,
    reference="5.6, 2.2 steps 5 and 7",
)
def declare_attack(ctx: Ctx, system: str, planet: str, forces: list[str], stations: list[str]) -> None:
    """Announce an attack in a starburst where both sides are. The Sathar declare all theirs
    first; each ship or fleet attacks one planet a day. The UPF may then attack only Sathar
    ships that did not attack UPF or militia ships today."""
    side = acting_side(ctx)
    bid = B.declare(ctx, fdm(ctx), side, system, planet, forces, stations)
    ctx.tags["indicator"] = "ready for combat"
    b = ctx.state.record("battles", bid)
    m = fdm(ctx)
    ctx.summary(f"{side} attack declared at {m.planets[b['planet']].name} ({m.name(b['system'])}): {bid}")


@action(
    "cancel_attack",
    "Withdraw a declared attack",
    Param("battle", "record", record="battles"),
    side="phasing",
    available=_declaring,
)
def cancel_attack(ctx: Ctx, battle: str) -> None:
    """Take back an attack before the battles begin."""
    b = ctx.state.record("battles", battle)
    if b.get("status") != "declared" or b.get("side") != acting_side(ctx):
        raise ActionRejected(f"{battle} is not one of your pending attacks")
    ctx.delete_record("battles", battle)
    queue = ctx.edit_var("attack_queue", [])
    if battle in queue:
        queue.remove(battle)
    ctx.summary(f"attack {battle} withdrawn")


@action(
    "order_attacks",
    "Set the order of the battles",
    Param("order", "list", help="battle ids in order"),
    side="phasing",
    available=_declaring,
    reference="5.6",
)
def order_attacks(ctx: Ctx, order: list[str]) -> None:
    """The declaring side resolves its attacks in any order it chooses."""
    queue = ctx.edit_var("attack_queue", [])
    if sorted(order) != sorted(queue):
        raise ActionRejected(f"give each pending attack once: {', '.join(queue)}")
    queue[:] = list(order)
    ctx.summary(f"battles will be fought in the order {', '.join(order)}")


@action(
    "gather",
    "Gather ships from the other planet",
    Param("forces", "formations"),
    available=_battle_step("B1"),
    reference="5.6, G-20",
)
def gather(ctx: Ctx, forces: list[str]) -> None:
    """If either side has ships at both planets of the system, they may all join the battle
    (gathering is optional)."""
    added = B.gather(ctx, fdm(ctx), forces)
    B.setup(ctx, fdm(ctx))
    ctx.summary(f"{len(added)} ship(s) join the battle")


@action(
    "near_planet",
    "Defender: fight near the planet?",
    Param("choice", "bool"),
    available=_battle_step("B1"),
    reference="5.6",
)
def near_planet(ctx: Ctx, choice: bool) -> None:
    """The defender decides whether the battle is fought near the planet."""
    b = ctx.record("battles", str(ctx.var("battle")))
    b["near_planet"] = bool(choice)
    if choice and ctx.options.get("near_planet_setup") == "transcription":
        text = (
            "planet in the map centre; the defender sets up on or next to the planet, the attacker "
            "at least one box away, entering from a map edge"
        )
    elif choice:
        text = (
            "planet in the map centre; the defender sets up anywhere at any speed, the attacker "
            "enters from one narrow edge at a speed of its choice"
        )
    else:
        text = "fought away from the planet"
    ctx.summary(f"battle {ctx.var('battle')}: {text}")


@action(
    "record_mines",
    "Defender: record pre-placed mines and seekers (secret)",
    Param("hexes", "list", help="hex numbers holding mines or seekers"),
    available=_battle_step("B1"),
    visibility="actor",
    reference="5.6, 5.14g-h",
)
def record_mines(ctx: Ctx, hexes: list[str]) -> None:
    """A defender with a minelayer may place all its mines and seekers before the battle;
    the hexes stay secret until an attacking ship enters one."""
    b = ctx.state.record("battles", str(ctx.var("battle")))
    defender = b["enemy"]
    layers = [
        i for i in b.get("defenders", []) if ctx.state.unit(i).type == "ML" and alive(ctx.state.unit(i))
    ]
    if not layers:
        raise ActionRejected("only a defender with a minelayer in the battle may pre-place mines")
    ctx.set_secret(defender, f"mines:{ctx.var('battle')}", [TACTICAL.check(h, "mine hex") for h in hexes])
    ctx.secret_to(defender)
    ctx.summary(f"{defender} records its mine and seeker hexes")


@action(
    "set_battle_rules",
    "Use other tactical rules for this battle",
    Param("rules", "choice", choices=("advanced_npc", "advanced", "basic")),
    available=_battle_step("B1"),
    reference="T11",
)
def set_battle_rules(ctx: Ctx, rules: str) -> None:
    """A majority of the players may overrule the suggested rules for one battle."""
    b = ctx.record("battles", str(ctx.var("battle")))
    old = b.get("rules")
    b["rules"] = rules
    ctx.summary(f"battle {ctx.var('battle')}: rules {old} -> {rules}")


@action(
    "reveal_mine",
    "An attacker enters a hex: check for mines",
    Param("hex", "hex", help="the tactical map's hex number", board=lambda s: TACTICAL),
    available=_battle_step("B2", "B3"),
    reference="5.14g",
)
def reveal_mine(ctx: Ctx, hex: str) -> None:
    """When an attacking ship enters a recorded hex the mines or seekers there are revealed."""
    b = ctx.record("battles", str(ctx.var("battle")))
    hexes = ctx.state.secrets.get(b["enemy"], {}).get(f"mines:{ctx.var('battle')}", [])
    found = str(hex) in hexes
    if found:
        b.setdefault("revealed", []).append(str(hex))
        ctx.summary(f"hex {hex}: mines or seekers are revealed there")
    else:
        ctx.summary(f"hex {hex}: nothing recorded there")


@action(
    "detonate_drone",
    "Detonate a shatter drone",
    Param("ship", "unit"),
    available=_battle_step("B2", "B3"),
    reference="5.14i",
)
def detonate_drone(ctx: Ctx, ship: str) -> None:
    """At the end of its side's movement a shatter drone blows up: every other ship in its hex
    takes one hit (use the helper's shatter_drone roll for each). The drone is gone; it is not
    a loss for victory or retreat and is never replaced."""
    if not ctx.options.get("shatter_drones"):
        raise ActionRejected("shatter drones are not in this campaign")
    u = ctx.state.unit(ship)
    b = ctx.state.record("battles", str(ctx.var("battle")))
    if not u.status.get("shatter_drone") or ship not in B.participants(b):
        raise ActionRejected(f"{u.label} is not a shatter drone in this battle")
    record_loss(ctx, ship, "shatter_drone", str(ctx.var("battle")))
    ctx.record("battles", str(ctx.var("battle")))["results"][ship] = "detonated"
    ctx.summary(f"{u.label} detonates")


# -- the dice helper -------------------------------------------------------------------------------
def _parse_inputs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in [p for p in str(text or "").replace(";", " ").split() if p]:
        if "=" not in part:
            raise InvalidInput(f"{part!r}: write inputs as name=value")
        k, v = part.split("=", 1)
        out[k.strip()] = v.strip()
    return out


@action(
    "helper",
    "Dice helper (to-hit, damage, break-up...)",
    Param(
        "procedure",
        help="a procedure id or alias, e.g. attack, damage, hull, breakup, 5.14a",
        candidates=C.procedures,
    ),
    Param(
        "inputs",
        required=False,
        default="",
        help="name=value pairs, e.g. weapon=LB defences=RH range_hexes=3",
    ),
    reference="5.14",
)
def helper(ctx: Ctx, procedure: str, inputs: str) -> None:
    """Roll one of the rule set's procedures inside the campaign: the dice go into the die log
    (for the tactical fight on the Knight Hawks map, or in-space repairs)."""
    from rulesets.second_sathar_war import plugin

    proc = plugin.procedure(procedure)
    raw = _parse_inputs(inputs)
    params: dict[str, Any] = {}
    names = {p.name for p in proc.params}
    unknown = set(raw) - names
    if unknown:
        raise InvalidInput(
            f"{proc.id} has no input {', '.join(sorted(unknown))}; inputs: {', '.join(sorted(names))}"
        )
    battle = B.current(ctx.state)
    if battle and battle.get("rules") and "rules" in names and "rules" not in raw:
        raw["rules"] = str(battle["rules"])  # T11: the rules this battle is fought under
    for p in proc.params:
        if p.name in raw:
            params[p.name] = p.coerce(raw[p.name], ctx.state)
        elif p.required and p.default is None:
            raise InvalidInput(f"{proc.id} needs {p.name}" + (f" ({p.help})" if p.help else ""))
    result: Calc = proc.fn(ctx, **params)
    for line in result.lines:
        ctx.explain(line)
    ctx.summary(f"{proc.title}: {result.summary or result.value}")


@action(
    "fire",
    "Attack roll: one ship fires at another",
    Param("attacker", "unit", help="the ship that fires", candidates=C.shooters),
    Param("weapon", help="one of its working weapons", candidates=C.battle_weapons),
    Param("target", "unit", help="the ship or station fired at", candidates=C.battle_targets),
    Param.optional("range_hexes", "int", 0, help="hexes to the target", min=0),
    Param.optional("icms", "int", 0, help="ICMs the target launches", min=0),
    Param.optional("target_masked", "bool", False, help="the target is behind a masking screen"),
    available=_battle_step("B2"),
    key="x",
    reference="5.14a, T5",
)
def fire(
    ctx: Ctx, attacker: str, weapon: str, target: str, range_hexes: int, icms: int, target_masked: bool
) -> None:
    """The to-hit roll of one shot in this battle (5.14a): the target's defences come from
    its ship class (its reflective hull and screens; a masking screen and ICMs only when
    said), then the Combat Table, the modifiers and the d100. Other cases: the dice helper."""
    from rulesets.second_sathar_war import plugin

    state = ctx.state
    b = B.current(state)
    assert b is not None
    shooter, aim = state.unit(attacker), state.unit(target)
    fighting = C.shooters(state, "gm") + C.battle_targets(state, "gm")
    for u in (shooter, aim):
        if u.id not in fighting:
            raise ActionRejected(f"{u.label} is not fighting in battle {ctx.var('battle')}")
    if shooter.side == aim.side:
        raise ActionRejected(f"{shooter.label} and {aim.label} are on the same side")
    code = str(weapon).strip().upper()
    have = list(dict.fromkeys(c for c, _ in mounts(stat(state, shooter, "weapons", []))
                              if working(state, shooter, c)))
    if code not in have:
        fires = ", ".join(have) or "nothing"
        raise ActionRejected(f"{shooter.label} has no working {code}; it fires {fires}")
    defences = [c for c, _ in mounts(stat(state, aim, "defences", [])) if c not in ("MS", "ICM")]
    defences = [c for c in defences if working(state, aim, c)]
    ctx.explain(f"{aim.label}'s defences: {', '.join(defences) or 'none'} (its class)")
    result: Calc = plugin.procedure("attack").fn(
        ctx,
        weapon=code,
        defences=",".join(defences) or "None",
        range_hexes=range_hexes,
        icms=icms,
        target_masked=target_masked,
    )
    for line in result.lines:
        ctx.explain(line)
    ctx.tags["indicator"] = "hit" if result.value is True else "miss"
    ctx.summary(f"{shooter.label} fires {code} at {aim.label}: {result.summary or result.value}")


# -- results (B3) ------------------------------------------------------------------------------------
@action(
    "ship_destroyed",
    "Result: ships destroyed",
    Param("ships", "units"),
    Param("cause", "choice", choices=("combat", "breakup"), required=False, default="combat"),
    available=_battle_step("B3"),
    key="d",
    reference="2.4 B3",
)
def ship_destroyed(ctx: Ctx, ships: list[str], cause: str) -> None:
    """Enter the ships (or stations) the Knight Hawks battle destroyed."""
    B.destroyed(ctx, fdm(ctx), ships, cause)
    ctx.tags["indicator"] = "target destroyed"
    ctx.summary(f"destroyed: {', '.join(ctx.state.unit(s).label for s in ships)}")


@action(
    "ship_damaged",
    "Result: damage to a ship",
    Param("ship", "unit"),
    Param("hull_damage", "int", required=False, min=0, help="total hull points lost"),
    Param("adf_lost", "int", required=False, min=0),
    Param("mr_lost", "int", required=False, min=0),
    Param("dcr_halved", "bool", required=False),
    Param("systems_out", "list", required=False, help="destroyed systems, one entry per mount: LB,T,ICM"),
    Param(
        "flags", "list", required=False, help="ccs_hit, nav_hit, fire, dcr_hit, power_short, disastrous_fire"
    ),
    Param("spent", "list", required=False, help="ammunition used as CODE:N, e.g. T:1,RB:4,ICM:2"),
    Param("hull_station_only", "bool", required=False, help="an in-space hull repair failed"),
    Param("station_repair", "list", required=False, help="systems on which a 99/00 was rolled"),
    available=_battle_step("B3"),
    key="g",
    reference="2.4 B3, 5.11a",
)
def ship_damaged(ctx: Ctx, ship: str, **values: Any) -> None:
    """Enter a ship's state after the battle: the totals, not the change (hull points lost,
    ADF and MR lost, destroyed systems, damage flags, ammunition used, repair notes)."""
    u = ctx.state.unit(ship)
    flags_ok = {"ccs_hit", "nav_hit", "fire", "dcr_hit", "power_short", "disastrous_fire"}
    for f in values.get("flags") or []:
        if f not in flags_ok:
            raise ActionRejected(f"unknown damage flag {f!r}; flags: {', '.join(sorted(flags_ok))}")
    for item in values.get("spent") or []:
        code, _, n = str(item).partition(":")
        if not code or (n and not n.isdigit()):
            raise ActionRejected(f"write ammunition as CODE:N, not {item!r}")
    hull = values.get("hull_damage")
    if hull is not None and hull >= max_hp(ctx.state, u):
        B.destroyed(ctx, fdm(ctx), [ship], "combat")
        ctx.summary(f"{u.label}: {hull} hull damage of {max_hp(ctx.state, u)}: destroyed")
        return
    clean = {k: (list(v) if isinstance(v, list) else v) for k, v in values.items() if v is not None}
    halving = [f for f in clean.get("flags", []) if f in HALVING_FLAGS]
    if halving and "dcr_halved" not in clean and not u.status.get("dcr_halved"):
        clean["dcr_halved"] = True
        ctx.explain(f"{', '.join(halving)}: the DCR is halved (5.14d)")
    text = B.damaged(ctx, ship, clean)
    ctx.explain(f"{u.label} now: {condition(ctx.state, ctx.state.unit(ship))}")
    ctx.summary(f"{u.label}: {text}")


@action(
    "ship_fled",
    "Result: ships escaped",
    Param("ships", "units"),
    Param("route", help="the route out of the battle system they take"),
    Param(
        "rate",
        "int",
        required=False,
        default=1,
        min=1,
        max=3,
        help="risk-jump rate (house rule flee_risk_jump)",
    ),
    available=_battle_step("B3"),
    key="f",
    reference="5.8",
)
def ship_fled(ctx: Ctx, ships: list[str], route: str, rate: int) -> None:
    """Ships that outran their pursuers go to the first transit box of a route out of the
    system, heading away. Fighters need a carrier that flees with them."""
    ctx.summary(B.fled(ctx, fdm(ctx), ships, route, rate))


@action(
    "militia_fired",
    "Result: militia ships fired at the enemy",
    Param("ships", "units"),
    available=_battle_step("B2", "B3"),
    reference="5.8",
)
def militia_fired(ctx: Ctx, ships: list[str]) -> None:
    """Record that these militia ships fired at least one weapon at an enemy ship (needed
    before militia in their home system may break off)."""
    B.militia_fired(ctx, ships)
    ctx.summary(f"fired at the enemy: {', '.join(ctx.state.unit(s).label for s in ships)}")


@action(
    "victors_move",
    "Victors move on (option)",
    Param("forces", "formations"),
    Param("route"),
    available=lambda s: (
        None
        if s.options.get("victor_may_move") and s.step == "B3"
        else "only with option victor_may_move, after a battle"
    ),
    reference="8.1",
)
def victors_move(ctx: Ctx, forces: list[str], route: str) -> None:
    """Transcription reading: the winners may leave for an adjacent system instead of staying."""
    ctx.summary(B.victors_move(ctx, fdm(ctx), forces, route))


@action(
    "battle_note", "Add a note to the battle report", Param("text"), available=_battle_step("B1", "B2", "B3")
)
def battle_note(ctx: Ctx, text: str) -> None:
    """A line for the battle report (what happened on the Knight Hawks map)."""
    b = ctx.record("battles", str(ctx.var("battle")))
    b.setdefault("notes", []).append(text)
    ctx.summary(f"battle {ctx.var('battle')}: {text}")


def militia_problem(state) -> str | None:  # type: ignore[no-untyped-def]
    """B3 requirement: militia that broke off in their home system fired first."""
    b = B.current(state)
    if not b:
        return None
    m = Fdm.of(state)
    for uid in b.get("fled", []):
        why = B.militia_may_flee(state, m, b, uid)
        if why:
            return why
    return None


ACTIONS = (
    declare_attack,
    cancel_attack,
    order_attacks,
    gather,
    near_planet,
    record_mines,
    set_battle_rules,
    reveal_mine,
    detonate_drone,
    helper,
    fire,
    ship_destroyed,
    ship_damaged,
    ship_fled,
    militia_fired,
    victors_move,
    battle_note,
)
