"""The two sequences of play (digest section 2), chosen at set-up.

Standard [4.0]-[4.2]: each Game-Turn has two Player-Turns of four phases - fire, movement
(with the enemy's defensive fire at its end), melee, mutual disruption recovery - then the
Turn Record. Simultaneous [19.1]: secret plots, then fire, melee, movement and defensive
fire resolution, a recovery step (G-15) and the Turn Record. Both start with set-up and
deployment and end with the victory judgement.
"""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.later import later
from campaign_tui.core.machine import ClockLevel, Go, Machine, Require, Step
from campaign_tui.core.model import State
from rulesets.prestags import carriers, exclusive
from rulesets.prestags.act_game import finish, judged
from rulesets.prestags.act_setup import deployment_missing
from rulesets.prestags.movement import stacking_problems

# rule modules: imported at the first call of one of their functions
plots = later("rulesets.prestags.plots")
sim = later("rulesets.prestags.simultaneous")
turns = later("rulesets.prestags.turns")

STANDARD = "prestags.standard"
SIMULTANEOUS = "prestags.simultaneous"
ANYTIME = ("concede", "concession_done", "agree_end", "panic_check", "map_hexes")

PHASES = {
    "SETUP": "Set-up",
    "DEPLOY": "Deployment",
    "CHARIOT": "Chariot Phase",
    "FIRE": "Fire Combat Phase",
    "MOVE": "Movement Phase",
    "MELEE": "Melee Combat Phase",
    "RECOVERY": "Mutual Disruption Recovery Phase",
    "TURN": "Turn Record",
    "PLOT": "Operations Plot Phase",
    "FIRE_RES": "Fire Combat Resolution",
    "MELEE_RES": "Melee Combat Resolution",
    "MOVE_RES": "Movement Resolution",
    "DF_RES": "Defensive Fire Resolution",
    "END": "Victory",
}


def _deploying(which: str):  # type: ignore[no-untyped-def]
    def enter(ctx: Ctx) -> None:
        roles = dict(ctx.var("roles"))
        roles["deploying"] = roles[which]
        ctx.set_var("roles", roles)

    return enter


def _begin(ctx: Ctx) -> None:
    roles = dict(ctx.var("roles"))
    roles.pop("deploying", None)
    ctx.set_var("roles", roles)
    ctx.explain("the battle begins: Game-Turn 1")


def _setup_prompt(state: State) -> str:
    data = state.vars.get("scenario", {})
    lines = [
        f"GM: {data.get('title', 'the battle')} ({data.get('game_name', '')}), "
        f"{state.vars.get('game_length')} Game-Turns."
    ]
    for key in ("terrain", "special"):
        if data.get(key):
            lines.append(f"{key.capitalize()}: {data[key]}")
    from rulesets.prestags import plugin
    from rulesets.prestags.common import crt_table_id, leader_table_id, tec_table_id

    tables = plugin.tables().with_overrides(state.table_overrides)
    shaky = [tables.get(t(state.options)).title for t in (crt_table_id, tec_table_id, leader_table_id)]
    shaky = [t for t in shaky if t] + ["unit values (scanned counters)"]
    lines.append("UNVERIFIED data in use: " + "; ".join(shaky) + ".")
    lines.append(
        "Check the options, record what you know of the map (map_hexes), then advance to deployment."
    )
    return " ".join(lines)


def _deploy_prompt(state: State) -> str:
    side = state.vars.get("roles", {}).get("deploying", "")
    name = state.sides[side].name if side in state.sides else side
    data = state.sides[side].data if side in state.sides else {}
    zone = data.get("deploy_text") or data.get("deploy", "")
    extra = " Units you leave off the map enter by the map edge later." if data.get("enter") else ""
    return (
        f"{name}: place your units (deploy) within the deployment area {zone}; stacking limit "
        f"{data.get('stacking')} a hex, leaders not counted.{extra}"
    )


def _stacking_ok(state: State) -> str | None:
    from rulesets.prestags import plugin

    side = state.vars.get("roles", {}).get("phasing")
    problems = stacking_problems(state, plugin, side) if side else []
    if side and exclusive.in_game(state, "C"):
        problems += carriers.chariot_unstacking(state, side)
    if side:
        problems += carriers.fleet_endings(state, side)
    return ("stacking at the end of movement: " + "; ".join(problems)) if problems else None


def _move_prompt(state: State) -> str:
    roles = state.vars.get("roles", {})
    name = state.sides[roles["phasing"]].name if roles.get("phasing") in state.sides else "Phasing player"
    text = (f"{name}: move units and stacks (move); each stops on entering a hex next to an enemy fire unit. "
            "Advance when done: stacking is checked then.")
    if carriers.chariots_in_play(state):
        text += " Chariots move on what the Chariot Phase left; riders get on, off (chariot_move) [C1.0]."
    if carriers.fleets_in_play(state):
        text += (" Fleets sail, moor and unmoor (sail), units board and land (board, land); the enemy may "
                 "fire at once at a fleet next to its fire units (defensive_fire) [V3.1]-[V3.4], [V3.21].")
    return text


def _chariots_unstacked(state: State) -> str | None:
    side = state.vars.get("roles", {}).get("phasing")
    problems = carriers.chariot_unstacking(state, side) if side else []
    return ("at the end of the Chariot Phase: " + "; ".join(problems)) if problems else None


def _sim_stacking_ok(state: State) -> str | None:
    from rulesets.prestags import plugin

    problems = [p for side in ("A", "B") for p in stacking_problems(state, plugin, side)]
    return ("stacking after movement (put right with gm.place): " + "; ".join(problems)) if problems else None


def _flight_done(state: State) -> str | None:
    left = turns.panicked_to_flee(state)
    return (
        ("panicked units still to flee (flee, with an empty path if they cannot): " + ", ".join(left))
        if left
        else None
    )


def _panicked_here(state: State) -> bool:
    return bool(state.options.get("panic")) and bool(turns.panicked_to_flee(state))


def _common_start() -> list[Step]:
    return [
        Step(
            "SETUP",
            "Set-up",
            phase="SETUP",
            actor="gm",
            prompt=_setup_prompt,
            reference="11.1",
            next=(Go("DEPLOY_1"),),
        ),
        Step(
            "DEPLOY_1",
            "First deployment",
            phase="DEPLOY",
            actor="deploying",
            prompt=_deploy_prompt,
            actions=("deploy",),
            enter=_deploying("deploy_first"),
            reference="11.1",
            requires=(Require("every unit placed, stacking legal", deployment_missing),),
            next=(Go("DEPLOY_2"),),
        ),
        Step(
            "DEPLOY_2",
            "Second deployment",
            phase="DEPLOY",
            actor="deploying",
            prompt=_deploy_prompt,
            actions=("deploy",),
            enter=_deploying("deploy_second"),
            reference="11.1",
            requires=(Require("every unit placed, stacking legal", deployment_missing),),
            next=(Go("START"),),
        ),
    ]


def _turn_end(first: str, reference: str) -> Step:
    """The Turn Record: the game ends after the last Game-Turn, else the next one starts at
    *first*."""
    return Step(
        "TURN_END",
        "Turn Record",
        phase="TURN",
        actor="gm",
        auto=True,
        reference=reference,
        next=(
            Go("VICTORY_CHECK", when=turns.last_turn, label="the last Game-Turn is over"),
            Go(first, effect=turns.next_game_turn),
        ),
    )


def _common_end() -> list[Step]:
    return [
        Step(
            "VICTORY_CHECK",
            "Victory determination",
            phase="END",
            actor="gm",
            prompt="GM: judge the battle (judge_victory): each side's victory points and level, and "
            "its scenario conditions; answer what the program cannot see.",
            actions=("judge_victory",),
            reference="11.2",
            requires=(Require("victory judged", judged),),
            next=(Go("END"),),
        ),
        Step(
            "END",
            "The battle is over",
            phase="END",
            actor="gm",
            final=True,
            enter=finish,
            prompt="The battle is over.",
        ),
    ]


def standard() -> Machine:
    steps = [
        *_common_start(),
        Step(
            "START",
            "The battle begins",
            phase="SETUP",
            actor="gm",
            auto=True,
            enter=_begin,
            next=(Go("PT_START", effect=turns.start_pt("first")),),
        ),
        Step(
            "PT_START",
            "The Player-Turn begins",
            phase="FIRE",
            actor="gm",
            auto=True,
            reference="4.2, C1.2",
            next=(
                Go("CHARIOT", when=carriers.chariots_in_play, label="chariots in play [C1.2]"),
                Go("FIRE"),
            ),
        ),
        Step(
            "CHARIOT",
            "Chariot Phase",
            phase="CHARIOT",
            actor="phasing",
            enter=turns.start_chariot_phase,
            prompt="{phasing}: move your chariots (chariot_move): units next to a chariot get on first, "
            "riders get down at the end; what a chariot spends now is gone from its Movement Phase.",
            actions=("chariot_move",),
            reference="Chariot [1.0]-[1.9]",
            requires=(Require("chariots hold only their riders and leaders", _chariots_unstacked),),
            next=(Go("CHARIOT_DF"),),
        ),
        Step(
            "CHARIOT_DF",
            "Defensive Fire at chariots",
            phase="CHARIOT",
            actor="non_phasing",
            enter=turns.reset_phase,
            prompt="{non_phasing}: fire units that did not fire in your last Player-Turn may fire at an "
            "adjacent hex a chariot or its riders entered (defensive_fire), each hex once.",
            actions=("defensive_fire",),
            rolls=("1d6 on the CRT",),
            reference="Chariot [1.5], 6.4",
            next=(Go("FIRE"),),
        ),
        Step(
            "FIRE",
            "Fire Combat Phase",
            phase="FIRE",
            actor="phasing",
            enter=turns.start_fire,
            prompt="{phasing}: fire at enemy hexes in range (fire), each hex once; then advance to movement.",
            actions=("fire",),
            rolls=("1d6 on the CRT, +1 if the target holds a disrupted unit",),
            reference="4.2 A, 6.0",
            next=(Go("MOVE_START"),),
        ),
        Step(
            "MOVE_START",
            "Movement begins",
            phase="MOVE",
            actor="gm",
            auto=True,
            enter=turns.start_movement,
            reference="10.23",
            next=(Go("PANIC_MOVE", when=_panicked_here, label="panicked units must flee"), Go("MOVE")),
        ),
        Step(
            "PANIC_MOVE",
            "Panicked units flee",
            phase="MOVE",
            actor="phasing",
            prompt="{phasing}: each panicked unit flees as far as it can from the enemy (flee); the GM "
            "confirms each flight.",
            actions=("flee",),
            reference="13.0",
            requires=(Require("every panicked unit has fled", _flight_done),),
            next=(Go("MOVE"),),
        ),
        Step(
            "MOVE",
            "Movement Phase",
            phase="MOVE",
            actor="phasing",
            prompt=_move_prompt,
            actions=("move", "chariot_move", "sail", "board", "land", "defensive_fire"),
            reference="4.2 B, 5.0",
            requires=(Require("stacking legal at the end of movement", _stacking_ok),),
            next=(Go("MOVE_END"),),
        ),
        Step(
            "MOVE_END",
            "End of movement",
            phase="MOVE",
            actor="gm",
            auto=True,
            enter=turns.end_movement,
            reference="13.22",
            next=(Go("DEF_FIRE"),),
        ),
        Step(
            "DEF_FIRE",
            "Defensive Fire",
            phase="MOVE",
            actor="non_phasing",
            enter=turns.reset_phase,
            prompt="{non_phasing}: fire units that did not fire in your last Player-Turn may fire at an "
            "adjacent hex the enemy moved into (defensive_fire), each hex once.",
            actions=("defensive_fire",),
            rolls=("1d6 on the CRT",),
            reference="6.4",
            next=(Go("MELEE", effect=turns.after_defensive_fire),),
        ),
        Step(
            "MELEE",
            "Melee Combat Phase",
            phase="MELEE",
            actor="phasing",
            enter=turns.reset_phase,
            prompt="{phasing}: attack adjacent enemy hexes (melee), each hex once this Player-Turn; "
            "then advance to recovery.",
            actions=("melee",),
            rolls=("1d6 on the CRT, +1 against a disrupted unit",),
            reference="4.2 C, 7.0",
            next=(Go("RECOVERY"),),
        ),
        Step(
            "RECOVERY",
            "Mutual Disruption Recovery",
            phase="RECOVERY",
            actor="gm",
            auto=True,
            enter=turns.recovery,
            reference="8.23",
            next=(
                Go("VICTORY_CHECK", when=turns.concession_complete, label="concession complete"),
                Go(
                    "PT_START",
                    when=lambda s: s.vars["roles"]["phasing"] == s.vars["roles"]["first"],
                    effect=turns.start_pt("second"),
                    label="the first Player-Turn is over",
                ),
                Go("TURN_END"),
            ),
        ),
        _turn_end("PT_START", "4.2 (3)"),
        *_common_end(),
    ]
    return Machine.build(
        STANDARD,
        "Standard sequence",
        steps,
        start="SETUP",
        clock=(ClockLevel("gt", "Game-Turn", 1), ClockLevel("pt", "Player-Turn", 1)),
        phases=PHASES,
        anytime=ANYTIME,
        format_clock=lambda c: f"Game-Turn {c.get('gt', 1)}, Player-Turn {c.get('pt', 1)}",
        description="Two Player-Turns a Game-Turn: fire, movement with defensive fire, melee, recovery.",
    )


def _plot_prompt(state: State) -> str:
    waiting = plots.plotted(state)
    return (
        "Both players: write this Game-Turn's task for each unit in secret (plot): OF target, "
        "DF, ML target or MV path; a unit left out has no task. "
        + (waiting[0].upper() + waiting[1:] + "." if waiting else "Both plots are in: advance to resolve.")
    )


def simultaneous() -> Machine:
    steps = [
        *_common_start(),
        Step(
            "START",
            "The battle begins",
            phase="SETUP",
            actor="gm",
            auto=True,
            enter=_begin,
            next=(Go("PLOT"),),
        ),
        Step(
            "PLOT",
            "Operations Plot Phase",
            phase="PLOT",
            actor="both",
            hidden_input=True,
            prompt=_plot_prompt,
            enter=plots.start_plot,
            actions=("plot",),
            reference="19.1 A, 20.0",
            requires=(Require("both sides have plotted", plots.plotted),),
            next=(Go("FIRE_RES", effect=plots.close_plots),),
        ),
        Step(
            "FIRE_RES",
            "Fire Combat Resolution",
            phase="FIRE_RES",
            actor="gm",
            prompt="GM: resolve the plotted offensive fire (resolve_fire).",
            actions=("resolve_fire",),
            rolls=("1d6 on the CRT per target hex",),
            reference="19.1 B",
            requires=(Require("fire resolved", sim.need("fire")),),
            next=(Go("MELEE_RES"),),
        ),
        Step(
            "MELEE_RES",
            "Melee Combat Resolution",
            phase="MELEE_RES",
            actor="gm",
            prompt="GM: resolve the plotted melee attacks (resolve_melee).",
            actions=("resolve_melee",),
            rolls=("1d6 on the CRT per attack",),
            reference="19.1 C",
            requires=(Require("melee resolved", sim.need("melee")),),
            next=(Go("MOVE_RES"),),
        ),
        Step(
            "MOVE_RES",
            "Movement Resolution",
            phase="MOVE_RES",
            actor="gm",
            prompt=lambda s: (
                "GM: panicked units flee first (flee): "
                + ", ".join(turns.panicked_to_flee(s))
                + "; then execute the plotted movement hex by hex (resolve_movement)."
                if _panicked_here(s)
                else "GM: execute the plotted movement hex by hex (resolve_movement)."
            ),
            actions=("flee", "resolve_movement"),
            rolls=("1d6 each side when equal forces enter one hex",),
            reference="19.1 D, 22.0",
            requires=(
                Require("movement resolved", sim.need("movement")),
                Require("stacking legal after movement", _sim_stacking_ok),
            ),
            next=(Go("DF_RES"),),
        ),
        Step(
            "DF_RES",
            "Defensive Fire Resolution",
            phase="DF_RES",
            actor="gm",
            prompt="GM: units plotted DF fire at enemy units that moved next to them (resolve_df).",
            actions=("resolve_df",),
            rolls=("1d6 on the CRT per target hex",),
            reference="19.1 E",
            requires=(Require("defensive fire resolved", sim.need("defensive fire")),),
            next=(Go("RECOVERY"),),
        ),
        Step(
            "RECOVERY",
            "Disruption recovery (G-15)",
            phase="RECOVERY",
            actor="gm",
            auto=True,
            enter=_sim_recovery,
            reference="G-15",
            next=(
                Go("VICTORY_CHECK", when=turns.concession_complete, label="concession complete"),
                Go("TURN_END"),
            ),
        ),
        _turn_end("PLOT", "19.1 F"),
        *_common_end(),
    ]
    return Machine.build(
        SIMULTANEOUS,
        "Simultaneous movement",
        steps,
        start="SETUP",
        clock=(ClockLevel("gt", "Game-Turn", 1),),
        phases=PHASES,
        anytime=ANYTIME,
        format_clock=lambda c: f"Game-Turn {c.get('gt', 1)}",
        description="Secret plots each Game-Turn, then fire, melee, movement and defensive fire.",
    )


def _sim_recovery(ctx: Ctx) -> None:
    if ctx.options.get("sim_recovery", True):
        turns.recovery(ctx)
    else:
        turns.concession_check(ctx)
    for side in ("A", "B"):
        if ctx.state.secrets.get(side, {}).get("plot"):
            ctx.set_secret(side, "plot", None)
