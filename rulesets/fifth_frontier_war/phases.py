"""The Fifth Frontier War sequence of play (digest section 2) as a phase machine.

Set-up (2.1) runs once; then each weekly turn (2.2) runs reinforcements and replacements,
the movement steps in the order set by the 2A roll, the plotted movement and refuelling, the
combat phase hex by hex (2.3: space combat, system defense, bombing, transfers, surface
combat, post-hex checks) and the plotting and reorganization phase; the end of the turn
checks automatic victory, the optional turn limit and offers the armistice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign_tui.core.later import later
from campaign_tui.core.machine import ClockLevel, Go, Machine, Require, Step

# the rule modules, imported when the machine first calls one of their functions
C = later("rulesets.fifth_frontier_war.checks")
K = later("rulesets.fifth_frontier_war.combat")
F = later("rulesets.fifth_frontier_war.turn_flow")

if TYPE_CHECKING:
    from campaign_tui.core.model import State

LOAD = ("load", "unload")
ORGANIZE = ("form_fleet", "attach", "detach", "disband_fleet", "assign_admiral")
DEPLOY = ("deploy", "deploy_rest", "take_fleet_marker", *ORGANIZE, *LOAD)
PLOTTING = ("plot", "hold_unplotted", "plot_detach", "abort_plot", "insert_hold", "erase_plot")
ALLOCATE = ("allocate", "allocate_auto")


def _v(name: str) -> object:
    return lambda s: bool(s.vars.get(name))


def format_clock(clock: dict[str, int]) -> str:
    """Turn t starts on Imperial day 187 + 7 (t - 1) of 1107, rolling into later years."""
    turn = int(clock.get("turn", 1))
    day = 187 + 7 * (turn - 1)
    year = 1107 + (day - 1) // 365
    day = (day - 1) % 365 + 1
    return f"Turn {turn} (week of {day:03d}-{year})"


def _queue(s: State) -> bool:
    return bool(s.vars.get("combat_queue"))


def _gm_picks(s: State) -> bool:
    return _queue(s) and s.options.get("hex_order", "gm") == "gm"


def _combat_routes() -> tuple[Go, ...]:
    return (
        Go("C_SELECT_HEX", when=_gm_picks, label="contested hexes left; the GM picks the next"),
        Go("C_HEX_START", when=_queue, effect=F.start_next_hex, label="next contested hex in hex order"),
        Go("P_FLEET_ADJ", label="no contested hex left"),
    )


STEPS = [
    # -- 2.1 set-up ---------------------------------------------------------------------------------
    Step(
        "SETUP_OPTIONS",
        "Optional rules",
        phase="SETUP",
        actor="both",
        reference="S0, rule 9",
        prompt="Agree the optional rules (Surprise Attack, Black Globes, Jump Troops, Squadron Quality) and "
        "the house settings; the GM changes them with gm.set_option before anything else is done.",
        next=(Go("SETUP_SECRET_BASE"),),
    ),
    Step(
        "SETUP_SECRET_BASE",
        "Secret base",
        phase="SETUP",
        actor="zhodani",
        hidden_input=True,
        reference="S1, 5.26",
        actions=("choose_secret_base",),
        prompt="Zhodani: choose your secret base in private: an Imperial world with no naval or "
        "scout base, no "
        "defense battalions, not interdicted and not Esalin.",
        requires=(Require("secret base chosen", C.secret_base_missing),),
        next=(Go("SETUP_GUERRILLAS"),),
    ),
    Step(
        "SETUP_GUERRILLAS",
        "Ine Givar guerrillas",
        phase="SETUP",
        actor="zhodani",
        reference="S2, 5.19",
        actions=("place_guerrillas",),
        prompt="Zhodani: place the ten Ine Givar units: three or more on Efate, one or more on "
        "Ruie, the rest "
        "on Imperial worlds with defense battalions that are not interdicted. Choose each unit's mode.",
        requires=(Require("all ten guerrillas placed", C.guerrillas_missing),),
        next=(Go("SETUP_IMPERIAL_DEPLOY"),),
    ),
    Step(
        "SETUP_IMPERIAL_DEPLOY",
        "Imperial deployment",
        phase="SETUP",
        actor="imperial",
        reference="S3, 6.1",
        enter=F.imperial_setup,
        actions=DEPLOY,
        rolls=("random draws by type",),
        prompt="Imperial: the random counters have been drawn and the fixed ones placed. Place the rest "
        "(deploy, or deploy_rest for the default stations), choose your four fleet markers, form fleets "
        "and put admirals in command.",
        requires=(
            Require("every Imperial counter placed", lambda s: C.deploy_missing(s, "imperial")),
            Require("command rules kept", lambda s: C.precedence_problems(s, "imperial")),
        ),
        next=(Go("SETUP_ZHODANI_DEPLOY"),),
    ),
    Step(
        "SETUP_ZHODANI_DEPLOY",
        "Zhodani deployment",
        phase="SETUP",
        actor="zhodani",
        reference="S4, 6.2-6.4",
        enter=F.zhodani_setup,
        actions=DEPLOY,
        rolls=("random draws by type",),
        prompt="Zhodani: place the drawn Zhodani, Sword Worlds and Vargr forces in their own "
        "territory (troops "
        "may start embarked), choose the seven Zhodani fleet markers, form fleets and assign admirals.",
        requires=(
            Require("every Zhodani-player counter placed", lambda s: C.deploy_missing(s, "zhodani")),
            Require("command rules kept", lambda s: C.precedence_problems(s, "zhodani")),
            Require("Surprise Attack fleets legal", C.surprise_missing),
        ),
        next=(
            Go("SETUP_SURPRISE_ROLL", when=C.surprise_fleet_at_1914, label="Surprise Attack fleet at 1914"),
            Go("SETUP_INITIAL_PLOT"),
        ),
    ),
    Step(
        "SETUP_SURPRISE_ROLL",
        "Surprise Attack discovery roll",
        phase="SETUP",
        actor="imperial",
        reference="S4b, T24",
        enter=F.surprise_roll,
        rolls=("1d6 on T24: 1-4 the build-up is discovered",),
        prompt="The Imperial discovery roll for the build-up at 871-438 has been made; see the log.",
        next=(Go("SETUP_INITIAL_PLOT"),),
    ),
    Step(
        "SETUP_INITIAL_PLOT",
        "Initial plotting",
        phase="SETUP",
        actor="both",
        hidden_input=True,
        reference="S5, rule 3",
        actions=PLOTTING,
        prompt=lambda s: (
            "Zhodani: plot turns 1-4 for every Zhodani fleet and 1-5 for every Sword Worlds and "
            "Vargr fleet, in private."
            + (
                " Imperial: the build-up was discovered; plot turns 1-5 for your fleets too."
                if s.vars.get("imperial_initial_plot")
                else " The Imperial side plots nothing: its fleets hold on turn 1."
            )
        ),
        requires=(Require("initial plots complete", C.initial_plots_missing),),
        next=(Go("T_REINF", effect=F.begin_war, label="turn 1 begins"),),
    ),
    # -- 2.2 phase 1 ----------------------------------------------------------------------------------
    Step(
        "T_REINF",
        "Reinforcements",
        phase="REINFORCEMENT",
        actor="both",
        reference="1A, 5.21",
        enter=F.turn_start,
        actions=("place_arrivals",),
        rolls=("1d6 on T18 every turn from turn 10",),
        prompt=lambda s: "Reinforcements for this turn have arrived (see the log)."
        + (
            " Imperial: put the newly drawn counters in the reinforcements or rimward box (place_arrivals)."
            if C.arrivals_missing(s)
            else ""
        ),
        requires=(Require("arrivals placed in a box", C.arrivals_missing),),
        next=(Go("T_REPL"),),
    ),
    Step(
        "T_REPL",
        "Replacements",
        phase="REINFORCEMENT",
        actor="both",
        reference="1B, 5.20",
        enter=F.replacement_income,
        actions=("rebuild_squadron", "replace_squadron", "rebuild_troop", "replace_troop"),
        prompt="Spend replacement points if you wish: rebuild a reduced squadron at a base in your own state "
        "(1 RP), replace an eliminated squadron (3 RP), rebuild or replace troops (1 RP a factor, armor "
        "2). Unspent points carry over.",
        next=(Go("M_ORDER_ROLL"),),
    ),
    # -- 2.2 phase 2 ----------------------------------------------------------------------------------
    Step(
        "M_ORDER_ROLL",
        "Movement order roll",
        phase="MOVEMENT",
        actor="both",
        auto=True,
        reference="2A",
        enter=F.order_roll,
        rolls=("1d6 each; the lower moves first",),
        next=(Go("M_ORDER_ROLL", when=_v("order_tie"), label="tie: both roll again (G-08)"), Go("M_XBOAT_1")),
    ),
    Step(
        "M_XBOAT_1",
        "Xboat movement (first player)",
        phase="MOVEMENT",
        actor="first",
        reference="2B, 5.24",
        actions=("xboat", *LOAD),
        prompt="{first}: move any admirals by xboat along your own routes (up to jump-4, no enemy squadrons "
        "at either end). Loading and unloading is allowed where no enemy squadrons or SDBs are.",
        next=(Go("M_XBOAT_2"),),
    ),
    Step(
        "M_XBOAT_2",
        "Xboat movement (second player)",
        phase="MOVEMENT",
        actor="second",
        reference="2B",
        actions=("xboat", *LOAD),
        prompt="{second}: move any admirals by xboat.",
        next=(Go("M_SCOUT_1"),),
    ),
    Step(
        "M_SCOUT_1",
        "Scout movement (first player)",
        phase="MOVEMENT",
        actor="first",
        reference="2C",
        actions=("move_scout", *LOAD),
        prompt="{first}: move scout squadrons that are not in a fleet (fueled, up to their jump number).",
        next=(Go("M_SCOUT_2"),),
    ),
    Step(
        "M_SCOUT_2",
        "Scout movement (second player)",
        phase="MOVEMENT",
        actor="second",
        reference="2C",
        actions=("move_scout", *LOAD),
        prompt="{second}: move your independent scout squadrons.",
        next=(Go("M_WELL_LED_1"),),
    ),
    Step(
        "M_WELL_LED_1",
        "Well-led fleets (first player)",
        phase="MOVEMENT",
        actor="first",
        reference="2D",
        actions=("move_fleet", *LOAD),
        prompt="{first}: move fleets commanded by an admiral with plotting factor 0.",
        next=(Go("M_WELL_LED_2"),),
    ),
    Step(
        "M_WELL_LED_2",
        "Well-led fleets (second player)",
        phase="MOVEMENT",
        actor="second",
        reference="2D",
        actions=("move_fleet", *LOAD),
        prompt="{second}: move your well-led fleets.",
        next=(Go("M_PLOTTED"),),
    ),
    Step(
        "M_PLOTTED",
        "Plotted movement",
        phase="MOVEMENT",
        actor="both",
        reference="2E, 5.16",
        enter=F.plotted_movement,
        actions=LOAD,
        prompt="This turn's plotted orders were revealed and carried out at once (see the log). "
        "Load or unload "
        "where no enemy squadrons or SDBs are.",
        next=(Go("M_REFUEL"),),
    ),
    Step(
        "M_REFUEL",
        "Before refuelling",
        phase="MOVEMENT",
        actor="both",
        reference="2-end, 5.14, 5.15",
        actions=("reserve_tanker", "tanker_fuels_tanker", *LOAD),
        prompt="Refuelling is resolved when you advance. A tanker refuels other squadrons unless you "
        "reserve it (reserve_tanker) or have it refuel itself or another tanker instead "
        "(tanker_fuels_tanker); last loading and unloading of the phase.",
        next=(Go("M_REFUEL_RESOLVE"),),
    ),
    Step(
        "M_REFUEL_RESOLVE",
        "Refuel resolution",
        phase="MOVEMENT",
        actor="gm",
        auto=True,
        reference="2-end",
        enter=F.refuel_resolution,
        next=(Go("C_START"),),
    ),
    # -- 2.3 phase 3 ----------------------------------------------------------------------------------
    Step(
        "C_START",
        "Contested hexes",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="3",
        enter=F.combat_start,
        next=_combat_routes(),
    ),
    Step(
        "C_SELECT_HEX",
        "Choose the next contested hex",
        phase="COMBAT",
        actor="gm",
        reference="3, G-10",
        actions=("choose_hex",),
        prompt=lambda s: (
            "GM: contested hexes left: "
            + ", ".join(s.vars.get("combat_queue", []))
            + ". Choose the next (choose_hex) or advance for the first."
        ),
        next=(Go("C_HEX_START", effect=F.start_chosen_hex),),
    ),
    Step(
        "C_HEX_START",
        "Combat in a hex",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="3",
        next=(
            Go("C_BLACK_GLOBE", when=C.black_globe_step, label="a black-globe fleet jumped in"),
            Go("SC0", when=K.both_have_squadrons, label="both players have squadrons"),
            Go("SD0"),
        ),
    ),
    Step(
        "C_BLACK_GLOBE",
        "Black globe step",
        phase="COMBAT",
        actor="imperial",
        reference="3A, 5.25",
        actions=("black_globe", *ALLOCATE, *LOAD),
        prompt="Imperial: the black-globe fleet may make one surprise action: a space round the enemy cannot "
        "answer, a surprise bombing, or a surprise load/unload (black_globe).",
        requires=(
            Require("black-globe action chosen", C.black_globe_missing),
            Require("damage allocated", K.allocations_missing),
        ),
        next=(Go("SC0", when=K.both_have_squadrons), Go("SD0")),
    ),
    Step(
        "SC0",
        "Space combat: command",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SC0, 5.5, 5.18",
        enter=K.space_start,
        next=(Go("SC1", when=K.quality_choice_needed), Go("SC2")),
    ),
    Step(
        "SC1",
        "Space combat: quality shift",
        phase="COMBAT",
        actor="both",
        reference="SC1, 5.6",
        actions=("quality_part",),
        prompt="A side with a quality column shift and several attacks chooses which attack gets it "
        "(quality_part; the first unless you say otherwise).",
        next=(Go("SC2"),),
    ),
    Step(
        "SC2",
        "Space combat: fire",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SC2, T1",
        enter=K.space_fire_round,
        rolls=("1d6 per attack of each side",),
        next=(Go("SC3"),),
    ),
    Step(
        "SC3",
        "Space combat: damage",
        phase="COMBAT",
        actor="both",
        reference="SC3, 5.4",
        actions=ALLOCATE,
        prompt="Each side removes at least the enemy's result in defense factors by reducing or eliminating "
        "its squadrons (allocate, or allocate_auto for the smallest loss).",
        requires=(Require("damage allocated", K.allocations_missing),),
        next=(Go("SC4", when=lambda s: not K.space_over(s), label="both sides still fight"), Go("SC6")),
    ),
    Step(
        "SC4",
        "Disengagement order",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SC4, G-09",
        enter=K.disengage_order,
        next=(Go("SC4.decide", when=lambda s: K.can_disengage(s, "first_disengager")), Go("SC5")),
    ),
    Step(
        "SC4.decide",
        "Disengage? (first)",
        phase="COMBAT",
        actor="first_disengager",
        reference="SC4",
        actions=("disengage", "stand"),
        prompt="{first_disengager}: disengage (every squadron able to jump must go, each fleet to "
        "one system) "
        "or stand and fight on.",
        requires=(Require("decision made", lambda s: C.disengage_missing(s, "first_disengager")),),
        next=(Go("SC5"),),
    ),
    Step(
        "SC5",
        "Disengagement, second side",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SC5",
        next=(Go("SC5.decide", when=lambda s: K.can_disengage(s, "second_disengager")), Go("SC6")),
    ),
    Step(
        "SC5.decide",
        "Disengage? (second)",
        phase="COMBAT",
        actor="second_disengager",
        reference="SC5",
        actions=("disengage", "stand"),
        prompt="{second_disengager}: disengage or stand.",
        requires=(Require("decision made", lambda s: C.disengage_missing(s, "second_disengager")),),
        next=(Go("SC6"),),
    ),
    Step(
        "SC6",
        "Space combat: another round?",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SC6, G-11",
        next=(
            Go("SC1", when=lambda s: not K.space_over(s) and K.quality_choice_needed(s)),
            Go("SC2", when=lambda s: not K.space_over(s), label="both still have squadrons"),
            Go("SD0"),
        ),
    ),
    Step(
        "SD0",
        "System defense",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SD0, 3Ca",
        enter=K.sd_start,
        next=(Go("SD1", when=K.sd_active, label="squadrons face enemy SDBs"), Go("SB0")),
    ),
    Step(
        "SD1",
        "Attack the SDBs?",
        phase="COMBAT",
        actor="sq_side",
        reference="SD1",
        actions=("sdb_attack",),
        prompt="{sq_side}: do your squadrons attack the SDBs? If not, they take no further part in "
        "this combat "
        "phase (no bombing, no landing).",
        requires=(Require("attack declared", lambda s: C.sd_missing(s, "attack")),),
        next=(Go("SD2"),),
    ),
    Step(
        "SD2",
        "SDBs active or passive",
        phase="COMBAT",
        actor="sdb_side",
        reference="SD2, G-40",
        actions=("sdb_mode",),
        prompt="{sdb_side}: are the SDBs active (they fight, and fire even at squadrons that do not "
        "attack) or "
        "passive (one round at -3 if attacked, no fire, no bombing this phase)?",
        requires=(Require("mode declared", lambda s: C.sd_missing(s, "mode")),),
        next=(Go("SD3"),),
    ),
    Step(
        "SD3",
        "System defense round",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SD3, T2, T3",
        enter=K.sd_round,
        rolls=("1d6 per squadron attack", "1d6 per SDB attack"),
        next=(Go("SD3.allocate", when=lambda s: K.allocations_missing(s) is not None), Go("SD4")),
    ),
    Step(
        "SD3.allocate",
        "SDB damage",
        phase="COMBAT",
        actor="sq_side",
        reference="SD3",
        actions=ALLOCATE,
        prompt="{sq_side}: allocate the SDBs' battle damage to your squadrons.",
        requires=(Require("damage allocated", K.allocations_missing),),
        next=(Go("SD4"),),
    ),
    Step(
        "SD4",
        "System defense: go on?",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SD4",
        next=(
            Go("SB0", when=K.sd_over, label="passive, broken off or a side destroyed"),
            Go("SD4.squadrons"),
        ),
    ),
    Step(
        "SD4.squadrons",
        "Break off? (squadrons)",
        phase="COMBAT",
        actor="sq_side",
        reference="SD4",
        actions=("sdb_break_off", "sdb_continue"),
        prompt="{sq_side}: break off (your squadrons stand aside for the rest of the phase) or fight another "
        "round?",
        requires=(Require("decision made", lambda s: C.sd_missing(s, "x_go")),),
        next=(Go("SB0", when=K.sd_over), Go("SD4.sdbs")),
    ),
    Step(
        "SD4.sdbs",
        "Break off? (SDBs)",
        phase="COMBAT",
        actor="sdb_side",
        reference="SD4",
        actions=("sdb_break_off", "sdb_continue"),
        prompt="{sdb_side}: break off (the SDBs turn passive for the rest of the phase) or fight "
        "another round?",
        requires=(Require("decision made", lambda s: C.sd_missing(s, "y_go")),),
        next=(Go("SB0", when=K.sd_over), Go("SD3", effect=F.next_sd_round)),
    ),
    Step(
        "SB0",
        "Surface bombing",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="3Cb",
        next=(Go("SB", when=lambda s: bool(K.bombing_sides(s))), Go("ST0")),
    ),
    Step(
        "SB",
        "Surface bombing",
        phase="COMBAT",
        actor="both",
        reference="SB, 5.9, T4",
        actions=("bomb", "skip_bombing"),
        prompt="Each side that may bomb shares its bombardment among enemy troops and the enemy defense "
        "battalions (bomb) or passes (skip_bombing). Losses apply at once.",
        requires=(Require("bombing done", C.bombing_missing),),
        next=(Go("ST0"),),
    ),
    Step(
        "ST0",
        "Space-surface transfers",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="3Cc",
        next=(Go("ST", when=K.transfers_possible), Go("SF0")),
    ),
    Step(
        "ST",
        "Space-surface transfers",
        phase="COMBAT",
        actor="both",
        reference="ST, 5.12, 5.23",
        actions=LOAD,
        prompt="Land or embark troops and admirals (not while active enemy SDBs remain, except jump troops "
        "under that option; not by squadrons that stood aside).",
        next=(Go("SF0"),),
    ),
    Step(
        "SF0",
        "Surface combat",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SF0, 3D",
        next=(
            Go("SF1", when=K.psionic_first, label="Zhodani Guards present"),
            Go("SF2", when=K.surface_contact, label="troops face enemy troops or battalions"),
            Go("HEX_CHECKS"),
        ),
    ),
    Step(
        "SF1",
        "Psionic first fire",
        phase="COMBAT",
        actor="zhodani",
        reference="SF1",
        actions=("surface_fire", "hold_fire"),
        prompt="Zhodani: your Guards fire first (surface_fire with their factors); their results "
        "apply at once.",
        requires=(Require("psionic fire done", lambda s: K.surface_missing(s, True)),),
        next=(Go("SF2", when=K.surface_contact), Go("HEX_CHECKS")),
    ),
    Step(
        "SF2",
        "Surface fire",
        phase="COMBAT",
        actor="both",
        reference="SF2, 5.10, T5",
        actions=("surface_fire", "hold_fire"),
        prompt="Both sides assign their troops' and battalions' factors to targets (each target once); the "
        "odds, tech-level shift and atmosphere are computed and the dice rolled. Results apply together.",
        requires=(Require("fire declared", lambda s: K.surface_missing(s, False)),),
        next=(Go("SF3"),),
    ),
    Step(
        "SF3",
        "Surface results",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="SF3",
        enter=K.surface_apply,
        next=(Go("HEX_CHECKS"),),
    ),
    Step(
        "HEX_CHECKS",
        "Post-hex checks",
        phase="COMBAT",
        actor="gm",
        auto=True,
        reference="3E, 5.17, G-18",
        enter=K.hex_checks,
        next=_combat_routes(),
    ),
    # -- 2.2 phase 4 ----------------------------------------------------------------------------------
    Step(
        "P_FLEET_ADJ",
        "Fleet adjustment",
        phase="PLOTTING",
        actor="both",
        reference="4A, 5.18",
        enter=F.fleet_adjustment,
        actions=(*ORGANIZE, "pass_warrant"),
        prompt="Reorganize: move squadrons between fleets in a hex, detach or attach, bring fleet "
        "markers into "
        "play, disband fleets, exchange admirals (the senior admiral commands the largest fleet) and pass "
        "the warrant.",
        requires=(Require("command rules kept", lambda s: C.precedence_problems(s, None)),),
        next=(Go("P_GUERRILLA", effect=F.leave_fleet_adjustment),),
    ),
    Step(
        "P_GUERRILLA",
        "Guerrilla step",
        phase="PLOTTING",
        actor="zhodani",
        reference="4B, 5.19",
        enter=F.guerrilla_recovery,
        actions=("guerrilla_mode",),
        prompt="Zhodani: covert guerrillas have recovered 10%; switch any unit between overt and covert.",
        next=(Go("P_PLOTTING"),),
    ),
    Step(
        "P_PLOTTING",
        "Plotting",
        phase="PLOTTING",
        actor="both",
        hidden_input=True,
        reference="4C, 5.16",
        enter=F.plotting_start,
        actions=PLOTTING,
        prompt="In private: plot each fleet up to its horizon (this turn + plotting factor), abort a plot or "
        "insert a hold after a failed refuel; plots that no longer match the map must be repaired.",
        requires=(Require("plots complete", C.plots_missing),),
        next=(Go("END_OF_TURN"),),
    ),
    Step(
        "END_OF_TURN",
        "End of turn",
        phase="END",
        actor="both",
        reference="end of turn, 5.22",
        enter=F.end_of_turn,
        actions=("armistice",),
        prompt=lambda s: (
            f"Victory points: {s.vars.get('vp_text', '')}. Agree an armistice, or the Zhodani may "
            "declare one from turn 26 (armistice); otherwise advance to the next week."
        ),
        next=(
            Go("GAME_OVER", when=C.game_over, label="automatic victory or the turn limit"),
            Go("T_REINF", effect=F.next_turn, label="next week"),
        ),
    ),
    Step(
        "GAME_OVER",
        "The war is over",
        phase="END",
        actor="gm",
        final=True,
        enter=F.game_over,
        reference="rule 8",
    ),
]

MACHINE = Machine.build(
    "ffw.campaign",
    "Fifth Frontier War: the campaign",
    STEPS,
    start="SETUP_OPTIONS",
    clock=(ClockLevel("turn", "Turn", 1),),
    phases={
        "SETUP": "Set-up",
        "REINFORCEMENT": "Reinforcement Selection Phase",
        "MOVEMENT": "Movement Phase",
        "COMBAT": "Combat Phase",
        "PLOTTING": "Plotting and Reorganization Phase",
        "END": "End of Turn",
    },
    anytime=("reveal_secret_base", "armistice", "gm.correct_world"),
    subs={"SPACE": "SC0", "SYSTEM_DEFENSE": "SD0", "BOMBING": "SB0", "TRANSFERS": "ST0", "SURFACE": "SF0"},
    format_clock=format_clock,
    description="Weekly turns from the Zhodani surprise attack (187-1107) until an automatic victory or an "
    "armistice.",
)
