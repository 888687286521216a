"""Combat-phase actions (rule 4, digest 2.3): the hex order, the black-globe step, damage
allocation, disengagement, the SDB fight, bombing and surface fire."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from rulesets.fifth_frontier_war import candidates as C
from rulesets.fifth_frontier_war.acting import read_map, read_nested, side_for
from rulesets.fifth_frontier_war.formulas import fmt
from rulesets.fifth_frontier_war.game import Game

# rule modules: imported at the first call of one of their functions
K = later("rulesets.fifth_frontier_war.combat")
CP = later("rulesets.fifth_frontier_war.combat_procs")

SIDE_CHOICES = ("", "imperial", "zhodani")


@action(
    "choose_hex",
    "Choose the next contested hex",
    Param("hex", help="one of the hexes still to resolve"),
    side="gm",
    reference="G-10",
)
def choose_hex(ctx: Ctx, hex: str) -> None:
    """The GM sets the order of the contested hexes; each is resolved in full before the next."""
    if hex not in ctx.var("combat_queue", []):
        raise ActionRejected(f"{hex} is not waiting: {', '.join(ctx.var('combat_queue', []))}")
    ctx.set_var("combat_next", hex)
    ctx.summary(f"next contested hex: {hex}")


@action(
    "black_globe",
    "Black-globe surprise action",
    Param("fleet", "formation"),
    Param("kind", "choice", choices=("attack", "bomb", "transfer", "none")),
    Param("targets", required=False, default="", help="for bomb: target:factors, e.g. db:2314:12"),
    side="imperial",
    reference="3A, 5.25",
)
def black_globe(ctx: Ctx, fleet: str, kind: str, targets: str) -> None:
    """A fleet of black-globe squadrons that jumped in may make one surprise space round the
    enemy cannot answer, a surprise bombing, or a surprise load/unload, despite enemy squadrons
    and SDBs."""
    side_for(ctx, "imperial")
    g = Game.of(ctx)
    c = K.cv(ctx.state)
    if c.get("bg_done"):
        raise ActionRejected("the black-globe action is already taken")
    if fleet not in K.black_globe_fleets(g, K.here(ctx.state)):
        raise ActionRejected(f"{fleet} is not a black-globe fleet that jumped in here this turn")
    edit = ctx.edit_var("combat", {})
    edit["bg_fleet"] = fleet
    edit["bg_done"] = True
    if kind == "attack":
        if "mods" not in edit:
            K.space_start(ctx)
        K.space_fire_round(ctx, only="imperial")
        ctx.edit_var("combat", {})["round"] = 0
    elif kind == "bomb":
        for line in K.bomb(ctx, "imperial", read_map(targets, "targets"), bg_fleet=fleet):
            ctx.explain(line)
    elif kind == "transfer":
        edit["bg_transfer"] = fleet
    ctx.summary(f"black-globe action: {kind}")


@action(
    "quality_part",
    "Choose the attack that gets the quality shift",
    Param("side", "side"),
    Param("part", "int", min=1, help="1 = the first 48-factor attack"),
    reference="5.6",
)
def quality_part(ctx: Ctx, side: str, part: int) -> None:
    """Under Squadron Quality the owner chooses which of his several attacks gets the shift."""
    side_for(ctx, side)
    c = ctx.edit_var("combat", {})
    c.setdefault("quality_part", {})[side] = int(part)
    ctx.summary(f"{side}: the quality shift goes on attack {part}")


@action(
    "allocate",
    "Allocate battle damage",
    Param("side", "side"),
    Param("reduce", "units", required=False, default=[], help="squadrons flipped to their reduced face"),
    Param("eliminate", "units", required=False, default=[], help="squadrons eliminated"),
    Param(
        "troop_losses",
        "json",
        required=False,
        default="",
        help='carried troops cut for a reduced carrier: {"squadron": {"troop": loss %}}',
    ),
    reference="5.4, WE-22",
    key="l",
)
def allocate(ctx: Ctx, side: str, reduce: list[str], eliminate: list[str], troop_losses: object) -> None:
    """Remove at least the owed defense factors: reducing a full squadron loses full minus reduced
    defense, eliminating loses its current defense; overshooting is allowed."""
    side_for(ctx, side)
    choice = {s: "reduce" for s in reduce}
    for s in eliminate:
        if s in choice:
            raise ActionRejected(f"{s} is listed to reduce and to eliminate")
        choice[s] = "eliminate"
    cuts = (
        {
            k: {t: int(v) for t, v in read_map(val, "troop_losses").items()}
            for k, val in read_nested(troop_losses, "troop_losses").items()
        }
        if troop_losses
        else None
    )
    K.apply_allocation(ctx, side, choice, cuts)
    ctx.summary(f"{side} takes its battle damage: {len(reduce)} reduced, {len(eliminate)} eliminated")


@action("allocate_auto", "Allocate damage (smallest loss)", Param("side", "side"), reference="5.4")
def allocate_auto(ctx: Ctx, side: str) -> None:
    """Take the smallest loss of defense factors that covers the damage (fewest eliminations)."""
    side_for(ctx, side)
    g = Game.of(ctx)
    c = K.cv(ctx.state)
    owed = int(c.get("owed", {}).get(side, 0))
    choice = CP.minimal_allocation(owed, K.hulls(g, K.here(ctx.state), side))
    K.apply_allocation(ctx, side, choice)
    ctx.summary(
        f"{side} takes {owed} damage: "
        + (", ".join(f"{k} {v}d" for k, v in sorted(choice.items())) or "nothing")
    )


@action(
    "disengage",
    "Disengage",
    Param("side", "side"),
    Param("destinations", help="fleet or scout:hex pairs, e.g. imp-212th:2314, imp-sc01:2213"),
    reference="SC4, 5.13, G-35",
    key="e",
)
def disengage(ctx: Ctx, side: str, destinations: str) -> None:
    """Every fleet and free scout able to jump must leave: each fleet to one system within the
    jump of its able squadrons. The jump is next turn's move."""
    side = side_for(ctx, side)
    roles = ctx.var("roles", {})
    if side not in (roles.get("first_disengager"), roles.get("second_disengager")):
        raise ActionRejected("no disengagement decision is due")
    dest = {k: str(v).strip() for k, v in read_map(destinations, "destinations").items()}
    for line in K.disengage(ctx, side, dest):
        ctx.explain(line)
    ctx.edit_var("combat", {}).setdefault("decided", {})[side] = True
    ctx.summary(f"{side} disengages")


@action("stand", "Stand and fight", Param("side", "side"), reference="SC4")
def stand(ctx: Ctx, side: str) -> None:
    """Do not disengage this round."""
    side = side_for(ctx, side)
    ctx.edit_var("combat", {}).setdefault("decided", {})[side] = True
    ctx.summary(f"{side} stands")


@action("sdb_attack", "Attack the SDBs or not", Param("attack", "bool"), side="sq_side", reference="SD1")
def sdb_attack(ctx: Ctx, attack: bool) -> None:
    """Squadrons that do not attack take no further part in this combat phase."""
    sd = K.cv(ctx.state).get("sd") or {}
    if not sd:
        raise ActionRejected("no SDB fight here")
    side_for(ctx, sd["x"])
    ctx.edit_var("combat", {})["sd"]["attack"] = bool(attack)
    if not attack:
        K.stand_aside(ctx, sd["x"], "decline to attack the SDBs")
    ctx.summary(f"{sd['x']} squadrons {'attack' if attack else 'do not attack'} the SDBs")


@action(
    "sdb_mode",
    "SDBs active or passive",
    Param("mode", "choice", choices=("active", "passive")),
    side="sdb_side",
    reference="SD2",
)
def sdb_mode(ctx: Ctx, mode: str) -> None:
    """Passive SDBs fight one round at -3 if attacked, do not fire and do not bomb this phase."""
    sd = K.cv(ctx.state).get("sd") or {}
    if not sd:
        raise ActionRejected("no SDB fight here")
    if sd["y"] in ("imperial", "zhodani"):
        side_for(ctx, sd["y"])
    elif ctx.by != "gm":
        raise ActionRejected("the GM runs an independent world's SDBs")
    ctx.edit_var("combat", {})["sd"]["mode"] = mode
    ctx.record("worlds", K.here(ctx.state))["sdb_mode"] = mode
    ctx.summary(f"the SDBs are {mode} this turn")


def _sd_decider(ctx: Ctx) -> tuple[str, str]:
    sd = K.cv(ctx.state).get("sd") or {}
    if not sd:
        raise ActionRejected("no SDB fight here")
    step = ctx.state.step
    if step == "SD4.squadrons":
        side_for(ctx, sd["x"])
        return "x_go", sd["x"]
    if step == "SD4.sdbs":
        if sd["y"] in ("imperial", "zhodani"):
            side_for(ctx, sd["y"])
        return "y_go", sd["y"]
    raise ActionRejected("no break-off decision is due")


@action("sdb_break_off", "Break off the SDB fight", reference="SD4")
def sdb_break_off(ctx: Ctx) -> None:
    """Squadrons that break off stand aside for the phase; SDBs that break off turn passive."""
    key, who = _sd_decider(ctx)
    c = ctx.edit_var("combat", {})
    c["sd"][key] = "break"
    c["sd"]["over"] = True
    if key == "x_go":
        K.stand_aside(ctx, who, "broke off the SDB fight")
    else:
        ctx.record("worlds", K.here(ctx.state))["sdb_mode"] = "passive"
        ctx.explain("the SDBs break off and are passive for the rest of the phase")
    ctx.summary(f"{who} breaks off")


@action("sdb_continue", "Fight another round", reference="SD4")
def sdb_continue(ctx: Ctx) -> None:
    key, who = _sd_decider(ctx)
    ctx.edit_var("combat", {})["sd"][key] = "go"
    ctx.summary(f"{who} fights on")


@action(
    "bomb",
    "Bomb the world",
    Param("side", "choice", choices=("imperial", "zhodani", "independent"), candidates=C.bombers),
    Param.optional(
        "targets", default="",
        help="target:factors pairs, e.g. db:2314:36, zho-20-01:12 (db:<hex> = defense battalions); "
        "blank when there is one target: all the bombardment on it",
    ),
    reference="SB, 5.9, T4",
    key="b",
)
def bomb(ctx: Ctx, side: str, targets: str = "") -> None:
    """Share the side's bombardment among enemy troops and the enemy defense unit; each target is
    bombed separately and its losses apply at once."""
    from rulesets.fifth_frontier_war.combat import SIDE_NAMES

    if side == "independent":
        if ctx.by != "gm":
            raise ActionRejected("the GM runs an independent world's SDBs")
    else:
        side_for(ctx, side)
    if side not in K.bombing_sides(ctx.state):
        raise ActionRejected(f"{side} has nothing to bomb with, or nothing to bomb, here")
    if K.cv(ctx.state).get("bombed", {}).get(side):
        raise ActionRejected(f"{side} has already bombed this turn here")
    alloc: dict[str, Any] = _targets(targets) if str(targets or "").strip() else _all_on_the_one(ctx, side)
    for line in K.bomb(ctx, side, alloc):
        ctx.explain(line)
    ctx.edit_var("combat", {}).setdefault("bombed", {})[side] = True
    g, place = Game.of(ctx), K.here(ctx.state)
    shares = [f"{K.target_name(g, k, place)}: {_factors(v)}" for k, v in alloc.items()]
    ctx.summary(f"{SIDE_NAMES.get(side, side)} bomb " + "; ".join(shares))


def _factors(value: Any) -> str:
    return f"{fmt(value)} factor" + ("" if fmt(value) == "1" else "s")


def _all_on_the_one(ctx: Ctx, side: str) -> dict[str, Any]:
    """No targets given: the whole bombardment on the only target there is."""
    g = Game.of(ctx)
    place = K.here(ctx.state)
    found = sorted(K.bomb_targets(g, place, side))
    if len(found) != 1:
        raise ActionRejected("say how the bombardment is shared (target:factors) among: " + ", ".join(found))
    total, _notes = K.bomb_sources(g, place, side)
    ctx.explain(f"all {fmt(total)} bombardment factors on the only target, "
                f"{K.target_name(g, found[0], place)}")
    return {found[0]: total}


def _targets(text: str) -> dict[str, str]:
    """``db:2314:36, zho-20-01:12`` (the last colon separates the factors)."""
    out: dict[str, str] = {}
    for part in [p.strip() for p in str(text).split(",") if p.strip()]:
        if ":" not in part:
            raise ActionRejected(f"{part!r}: write target:factors")
        target, amount = part.rsplit(":", 1)
        out[target.strip()] = amount.strip()
    return out


@action(
    "skip_bombing",
    "Do not bomb",
    Param("side", "choice", choices=("imperial", "zhodani", "independent")),
    reference="SB",
)
def skip_bombing(ctx: Ctx, side: str) -> None:
    if side != "independent":
        side_for(ctx, side)
    ctx.edit_var("combat", {}).setdefault("bombed", {})[side] = True
    ctx.summary(f"{side} does not bomb")


@action(
    "surface_fire",
    "Surface fire",
    Param("side", "choice", choices=("imperial", "zhodani", "independent")),
    Param(
        "attacks",
        help="target=unit:factors+unit:factors; target2=... (db:<hex> for defense battalions), "
        'or JSON {"target": {"unit": factors}}',
    ),
    reference="SF1-SF2, 5.10, T5",
    key="f",
)
def surface_fire(ctx: Ctx, side: str, attacks: str) -> None:
    """Assign firing factors (armor and elite doubled, mercenaries over 50% losses halved) to
    targets: one combined attack per target. The odds round down for the defender, the lowest
    firing tech level sets the shift, the world's atmosphere modifies the 2d6."""
    if side == "independent":
        if ctx.by != "gm":
            raise ActionRejected("the GM runs an independent world's battalions")
    else:
        side_for(ctx, side)
    psionic = ctx.state.step == "SF1"
    if psionic and side != "zhodani":
        raise ActionRejected("only the Zhodani Guards fire first")
    key = ("psionic:" if psionic else "") + side
    if K.cv(ctx.state).get("fired", {}).get(key):
        raise ActionRejected(f"{side} has already fired in this step")
    for line in K.surface_fire(ctx, side, read_nested(attacks, "attacks"), psionic):
        ctx.explain(line)
    ctx.summary(f"{side} fires" + (" (psionic first fire)" if psionic else ""))


@action(
    "hold_fire",
    "Hold fire",
    Param("side", "choice", choices=("imperial", "zhodani", "independent")),
    reference="SF2",
)
def hold_fire(ctx: Ctx, side: str) -> None:
    if side != "independent":
        side_for(ctx, side)
    key = ("psionic:" if ctx.state.step == "SF1" else "") + side
    ctx.edit_var("combat", {}).setdefault("fired", {})[key] = True
    ctx.summary(f"{side} holds fire")


ACTIONS: list[ActionDef] = [
    choose_hex,
    black_globe,
    quality_part,
    allocate,
    allocate_auto,
    disengage,
    stand,
    sdb_attack,
    sdb_mode,
    sdb_break_off,
    sdb_continue,
    bomb,
    skip_bombing,
    surface_fire,
    hold_fire,
]
