"""The five rulebook digests' phase machines (section 2 of each), expressed in the engine.

Each test writes one digest's compact transition list as a Machine and drives it along the
paths the digest describes: nested clocks, loops, conditional transitions, sub-machines
called from several places, secret inputs and interrupts. They are the proof that the
engine's API can carry every sequence of play before the rule sets are built on it.
"""

from __future__ import annotations

import itertools

import pytest

from campaign_tui.core.actions import ActionDef
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import AdvanceRefused
from campaign_tui.core.machine import RETURN, ClockLevel, Go, Machine, Require, Step
from tests.engine.machine_kit import Driver, tick, v


def linear(ids: list[str], phase: str = "", actor: str = "gm") -> list[Step]:
    """Steps for every id but the last, each going on to the next (declare the last one
    separately with its own transitions)."""
    return [Step(s, s, phase=phase or s, actor=actor, next=(Go(n),)) for s, n in itertools.pairwise(ids)]


# -- Prefect (digest 2.2-2.9) ----------------------------------------------------------------
def _tempo(ctx: Ctx, combined: bool = False) -> None:
    """5.15: the attacker stays only if its BT score is strictly above the CA it suffered."""
    roles = dict(ctx.var("roles"))
    btca = ctx.var("btca", {})
    if not btca.get(roles["attacker"], 0) > btca.get(roles["defender"], 0):
        roles["attacker"], roles["defender"] = roles["defender"], roles["attacker"]
    ctx.set_var("roles", roles)
    ctx.set_var("btca", {})
    ctx.set_var("att_moved", 0)
    ctx.set_var("def_counter", 0)
    ctx.tick("turn")


def _last_turn(s):
    return s.clock["turn"] >= s.vars["max_turns"]


COMBAT_STEPS = [
    Step(
        "C0",
        "special cases",
        phase="COMBAT",
        next=(Go(RETURN, when=v("special"), label="only disrupted or only support units"), Go("C1")),
    ),
    *linear(["C1", "C2", "C3", "C4", "C5", "C6", "C7"], phase="COMBAT"),
    Step("C7", "fatigue", phase="COMBAT", next=(Go(RETURN),)),
]


def prefect_planetary() -> Machine:
    def counter_ok(s) -> bool:
        return s.vars.get("def_counter", 0) < s.vars.get("att_moved", 0)

    steps = [
        Step("P_SETUP", "set-up", phase="P_SETUP", next=(Go("P_MOVE.select_tf"),)),
        Step(
            "P_MOVE.select_tf",
            "attacker picks a TF",
            phase="P_MOVE",
            actor="attacker",
            next=(
                Go(
                    "P_MOVE.moving",
                    when=v("tf_selected"),
                    label="TF and mode chosen",
                    effect=lambda c: c.set_var("att_moved", c.var("att_moved", 0) + 1),
                ),
                Go(
                    "P_MOVE.def_counteraction",
                    when=v("spend_banked"),
                    label="defender spends a banked counteraction",
                ),
                Go("P_MOVE.def_cleanup", label="attacker ends movement"),
            ),
        ),
        Step(
            "P_MOVE.moving",
            "hex-by-hex movement",
            phase="P_MOVE",
            actor="attacker",
            next=(
                Go("P_MOVE.zoc_interrupt", when=v("zoc"), label="enters a defender ZOC"),
                Go("P_MOVE.select_tf", effect=lambda c: c.set_var("tf_selected", False)),
            ),
        ),
        Step(
            "P_MOVE.zoc_interrupt",
            "defender detection and counterattack",
            phase="P_MOVE",
            actor="defender",
            next=(
                Go(
                    "P_MOVE.after_counter",
                    call="C0",
                    when=lambda s: s.vars.get("counterattack") and counter_ok(s),
                    label="detected, attacks, counteraction available",
                    effect=lambda c: (
                        c.set_var("def_counter", c.var("def_counter", 0) + 1),
                        c.set_var("zoc", False),
                    ),
                ),
                Go("P_MOVE.moving", effect=lambda c: c.set_var("zoc", False), label="no attack"),
            ),
        ),
        Step(
            "P_MOVE.after_counter",
            "after the counterattack",
            phase="P_MOVE",
            actor="attacker",
            next=(
                Go(
                    "P_MOVE.select_tf",
                    when=v("moving_tf_dr_or_bt"),
                    effect=lambda c: c.set_var("tf_selected", False),
                ),
                Go("P_MOVE.moving", label="not DR/BT and MP left"),
            ),
        ),
        Step(
            "P_MOVE.def_counteraction",
            "defender counteraction",
            phase="P_MOVE",
            actor="defender",
            next=(Go("P_MOVE.select_tf"),),
        ),
        Step(
            "P_MOVE.def_cleanup",
            "defender spends banked counteractions",
            phase="P_MOVE",
            actor="defender",
            next=(Go("P_COMBAT.detect"),),
        ),
        Step(
            "P_COMBAT.detect", "detection", phase="P_COMBAT", actor="attacker", next=(Go("P_COMBAT.declare"),)
        ),
        Step(
            "P_COMBAT.declare",
            "declare attacks",
            phase="P_COMBAT",
            actor="attacker",
            next=(Go("P_COMBAT.resolve"),),
        ),
        Step(
            "P_COMBAT.resolve",
            "resolve attacks one by one",
            phase="P_COMBAT",
            actor="attacker",
            next=(
                Go(
                    "P_COMBAT.resolve",
                    call="C0",
                    when=lambda s: s.vars.get("attacks", 0) > 0,
                    effect=lambda c: c.set_var("attacks", c.var("attacks") - 1),
                    label="an attack remains",
                ),
                Go("P_SUPPLY"),
            ),
        ),
        *linear(["P_SUPPLY", "P_WITHDRAW", "P_ADJUST", "P_TEMPO"]),
        Step(
            "P_TEMPO",
            "tempo",
            phase="P_TEMPO",
            next=(
                Go("END", when=_last_turn, label="turn > max_turns"),
                Go("P_MOVE.select_tf", effect=_tempo),
            ),
        ),
        Step("END", "victory", phase="END", final=True),
        *COMBAT_STEPS,
    ]
    return Machine.build(
        "prefect.planetary",
        "Prefect planetary",
        steps,
        start="P_SETUP",
        clock=(ClockLevel("turn", "Turn", 1),),
        subs={"COMBAT": "C0"},
    )


def test_prefect_planetary_turn_with_counterattack_combat_loop_and_tempo():
    d = Driver(prefect_planetary(), ("TOG", "CW"), {"attacker": "TOG", "defender": "CW"}, max_turns=2)
    assert d.next() == "P_MOVE.select_tf"
    assert d.actor() == "TOG"
    d.set(tf_selected=True)
    assert d.next() == "P_MOVE.moving"
    d.set(zoc=True)
    assert d.next() == "P_MOVE.zoc_interrupt"
    assert d.actor() == "CW"
    d.set(counterattack=True)
    assert d.next() == "C0"  # the combat sub-machine, called
    assert d.engine.state.stack == ["P_MOVE.after_counter"]
    assert d.run(7) == ["C1", "C2", "C3", "C4", "C5", "C6", "C7"]
    assert d.next() == "P_MOVE.after_counter"  # returned to the caller
    assert d.engine.state.vars["def_counter"] == 1
    assert d.next() == "P_MOVE.moving"  # no DR/BT: the TF carries on
    assert d.next() == "P_MOVE.select_tf"
    # the counteraction budget never exceeds the attacker's moves: no second counterattack
    d.set(zoc=False)
    assert d.next() == "P_MOVE.def_cleanup"
    assert d.run(2) == ["P_COMBAT.detect", "P_COMBAT.declare"]
    d.set(attacks=2, special=True)  # two attacks, both special cases
    assert d.next() == "P_COMBAT.resolve"
    assert d.next() == "C0" and d.engine.state.stack == ["P_COMBAT.resolve"]
    assert d.next() == "P_COMBAT.resolve"  # special case returns at once
    assert d.next() == "C0"
    assert d.next() == "P_COMBAT.resolve"
    assert d.run(4) == ["P_SUPPLY", "P_WITHDRAW", "P_ADJUST", "P_TEMPO"]
    d.set(btca={"TOG": 1, "CW": 0})  # BT strictly above CA: TOG stays attacker
    assert d.next() == "P_MOVE.select_tf"
    assert d.clock == {"turn": 2} and d.actor() == "TOG"
    assert d.engine.state.vars.get("btca") == {}
    d.set(tf_selected=False)
    d.run(3)  # cleanup, detect, declare
    d.set(attacks=0)
    d.run(5)
    assert d.step == "P_TEMPO"
    d.set(btca={"TOG": 1, "CW": 1})  # a tie swaps the roles
    assert d.next() == "END"  # turn 2 was the last
    assert d.engine.status().final


def test_prefect_counterattack_needs_a_counteraction():
    d = Driver(prefect_planetary(), ("TOG", "CW"), {"attacker": "TOG", "defender": "CW"}, max_turns=1)
    d.next()
    d.set(tf_selected=True, zoc=True, counterattack=True, def_counter=1)  # budget spent
    d.next()
    assert d.next() == "P_MOVE.zoc_interrupt"
    assert d.next() == "P_MOVE.moving"  # the attack is not possible


def prefect_space(campaign: bool = False) -> Machine:
    sides_sequence = [
        "S_MISSIONS",
        "S_ATK_TSPACE",
        "S_ATK_INSYSTEM",
        "S_ATK_COMBAT",
        "S_DEF_TSPACE",
        "S_DEF_INSYSTEM",
        "S_DEF_COMBAT",
    ]
    tail = (
        ["P_MOVE", "P_COMBAT", "C_ADJUST", "P_WITHDRAW", "C_SUPPLY", "C_TEMPO"]
        if campaign
        else ["S_ADJUST", "S_SUPPLY", "S_TEMPO"]
    )
    tempo = tail[-1]
    seq = [*sides_sequence, *tail]
    steps = [Step("S_SETUP", "set-up", phase="S_SETUP", next=(Go("S_MISSIONS"),))]
    for a, b in itertools.pairwise(seq):
        if a in ("S_ATK_COMBAT", "S_DEF_COMBAT"):
            steps.append(
                Step(
                    a,
                    a,
                    phase=a,
                    actor="attacker" if "ATK" in a else "defender",
                    next=(
                        Go(
                            a,
                            call="SD0",
                            when=lambda s: s.vars.get("contested", 0) > 0,
                            effect=lambda c: c.set_var("contested", c.var("contested") - 1),
                            label="opposing sector defenses",
                        ),
                        Go(
                            a,
                            call="M0",
                            when=lambda s: s.vars.get("missions", 0) > 0,
                            effect=lambda c: c.set_var("missions", c.var("missions") - 1),
                            label="a phasing TF has a mission",
                        ),
                        Go(b),
                    ),
                )
            )
        else:
            steps.append(Step(a, a, phase=a, next=(Go(b),)))
    steps += [
        Step(tempo, "tempo", phase=tempo, next=(Go("END", when=_last_turn), Go("S_MISSIONS", effect=_tempo))),
        Step("END", "victory", phase="END", final=True),
        # 2.5 mission resolution
        Step(
            "M0",
            "abort?",
            phase="MISSION",
            next=(Go(RETURN, when=v("abort"), label="aborted: fatigue, exit"), Go("M1")),
        ),
        Step("M1", "commit", phase="MISSION", next=(Go("M2"),)),
        Step(
            "M2",
            "N-space detection",
            phase="MISSION",
            next=(Go("M3", when=lambda s: s.vars.get("detected") and s.vars.get("intercept")), Go("M4")),
        ),
        *linear(["M3", "M4", "M5", "M6"], phase="MISSION"),
        Step("M6", "disrupted units return", phase="MISSION", next=(Go(RETURN),)),
        # 2.6 opposing sector-defense loop
        Step(
            "SD0",
            "one combat round",
            phase="SD_LOOP",
            next=(Go("SD0", when=v("both_remain"), label="both still have mobile forces"), Go(RETURN)),
        ),
    ]
    return Machine.build(
        "prefect.campaign" if campaign else "prefect.space",
        "Prefect space",
        steps,
        start="S_SETUP",
        clock=(ClockLevel("turn", "Turn", 1),),
        subs={"MISSION": "M0", "SD_LOOP": "SD0"},
    )


@pytest.mark.parametrize("campaign", [False, True])
def test_prefect_space_and_campaign_turns(campaign):
    d = Driver(prefect_space(campaign), ("TOG", "CW"), {"attacker": "CW", "defender": "TOG"}, max_turns=1)
    assert d.run(4) == ["S_MISSIONS", "S_ATK_TSPACE", "S_ATK_INSYSTEM", "S_ATK_COMBAT"]
    d.set(contested=1, both_remain=True, missions=2, detected=True, intercept=True)
    assert d.next() == "SD0"
    assert d.next() == "SD0"  # the loop goes on while both remain
    d.set(both_remain=False)
    assert d.next() == "S_ATK_COMBAT"
    assert d.run(7) == ["M0", "M1", "M2", "M3", "M4", "M5", "M6"]
    d.set(abort=True)
    assert d.next() == "S_ATK_COMBAT"
    assert d.next() == "M0"
    assert d.next() == "S_ATK_COMBAT"  # aborted mission exits at once
    seen = d.until_final()
    if campaign:
        assert "P_MOVE" in seen and "C_SUPPLY" in seen and "S_ADJUST" not in seen
    else:
        assert seen[-3:] == ["S_SUPPLY", "S_TEMPO", "END"]


# -- Fifth Frontier War (digest 2.5) ---------------------------------------------------------
def ffw() -> Machine:
    def order_roll(c: Ctx) -> None:
        a = c.roll("1d6", "movement order: Imperial", side="IMP").natural
        z = c.roll("1d6", "movement order: Zhodani", side="ZHO").natural
        c.set_var("order_tie", a == z)
        if a != z:
            c.set_var("first_mover", "IMP" if a < z else "ZHO")

    def end_of_turn_over(s) -> bool:
        return abs(s.vars.get("vp_diff", 0)) >= 301 or s.vars.get("armistice", False)

    steps = [
        *linear(
            ["SETUP_OPTIONS", "SETUP_SECRET_BASE", "SETUP_GUERRILLAS", "SETUP_IMPERIAL_DEPLOY"], phase="SETUP"
        ),
        Step(
            "SETUP_IMPERIAL_DEPLOY",
            "Imperial deployment",
            phase="SETUP",
            actor="IMP",
            next=(Go("SETUP_ZHODANI_DEPLOY"),),
        ),
        Step(
            "SETUP_ZHODANI_DEPLOY",
            "Zhodani deployment",
            phase="SETUP",
            actor="ZHO",
            next=(
                Go(
                    "SETUP_SURPRISE_ROLL",
                    when=v("surprise_fleet_at_1914"),
                    label="Surprise Attack and a fleet at 1914",
                ),
                Go("SETUP_INITIAL_PLOT"),
            ),
        ),
        Step(
            "SETUP_SURPRISE_ROLL",
            "surprise roll",
            phase="SETUP",
            actor="IMP",
            next=(Go("SETUP_INITIAL_PLOT"),),
        ),
        Step(
            "SETUP_INITIAL_PLOT",
            "initial plots",
            phase="SETUP",
            actor="both",
            hidden_input=True,
            next=(Go("T_REINF"),),
        ),
        *linear(["T_REINF", "T_REPL", "M_ORDER_ROLL"], phase="TURN"),
        Step(
            "M_ORDER_ROLL",
            "movement order roll",
            phase="MOVEMENT",
            enter=order_roll,
            rolls=("1d6 each side",),
            next=(Go("M_ORDER_ROLL", when=v("order_tie"), label="tie: roll again"), Go("M_XBOAT_1")),
        ),
        *linear(
            [
                "M_XBOAT_1",
                "M_XBOAT_2",
                "M_SCOUT_1",
                "M_SCOUT_2",
                "M_WELL_LED_1",
                "M_WELL_LED_2",
                "M_PLOTTED",
                "M_REFUEL_RESOLVE",
                "C_SELECT_HEX",
            ],
            phase="MOVEMENT",
        ),
        Step(
            "C_SELECT_HEX",
            "next contested hex",
            phase="COMBAT",
            next=(
                Go(
                    "P_FLEET_ADJ", when=lambda s: not s.vars.get("hexes"), label="no unresolved contested hex"
                ),
                Go("C_BLACK_GLOBE", when=v("bg_fleet")),
                Go("SC0", when=v("squadrons_both")),
                Go("SD0"),
            ),
        ),
        Step(
            "C_BLACK_GLOBE",
            "black globe action",
            phase="COMBAT",
            next=(Go("SC0", when=v("squadrons_both")), Go("SD0")),
        ),
        *linear(["SC0", "SC1", "SC2", "SC3", "SC4", "SC5", "SC6"], phase="COMBAT"),
        Step(
            "SC6",
            "continue?",
            phase="COMBAT",
            next=(
                Go(
                    "SC1",
                    when=v("both_have_squadrons"),
                    label="both still have squadrons",
                    effect=lambda c: c.set_var("round", c.var("round", 1) + 1),
                ),
                Go("SD0"),
            ),
        ),
        Step("SD0", "system defense", phase="COMBAT", next=(Go("SD1", when=v("sdb_facing")), Go("SB"))),
        *linear(["SD1", "SD2", "SD3", "SD4"], phase="COMBAT"),
        Step("SD4", "continue?", phase="COMBAT", next=(Go("SD3", when=v("sd_continue")), Go("SB"))),
        *linear(["SB", "ST", "SF0"], phase="COMBAT"),
        Step(
            "SF0",
            "surface combat?",
            phase="COMBAT",
            next=(Go("SF1", when=v("surface_contact")), Go("HEX_CHECKS")),
        ),
        *linear(["SF1", "SF2", "SF3", "HEX_CHECKS"], phase="COMBAT"),
        Step(
            "HEX_CHECKS",
            "post-hex checks",
            phase="COMBAT",
            next=(Go("C_SELECT_HEX", effect=lambda c: c.set_var("hexes", c.var("hexes")[1:])),),
        ),
        *linear(["P_FLEET_ADJ", "P_GUERRILLA", "P_PLOTTING", "END_OF_TURN"], phase="PLOTTING"),
        Step(
            "END_OF_TURN",
            "end of turn",
            phase="END",
            next=(
                Go("GAME_OVER", when=end_of_turn_over, label="|VP diff| >= 301 or armistice"),
                Go("T_REINF", effect=tick("turn")),
            ),
        ),
        Step("GAME_OVER", "game over", phase="END", final=True),
    ]
    return Machine.build(
        "ffw", "Fifth Frontier War", steps, start="SETUP_OPTIONS", clock=(ClockLevel("turn", "Turn", 1),)
    )


def test_ffw_setup_branch_weekly_turn_order_roll_and_combat_per_hex():
    d = Driver(
        ffw(),
        ("IMP", "ZHO"),
        hexes=["2314", "1914"],
        surprise_fleet_at_1914=True,
        squadrons_both=True,
        both_have_squadrons=True,
        sdb_facing=False,
    )
    assert d.run(5) == [
        "SETUP_SECRET_BASE",
        "SETUP_GUERRILLAS",
        "SETUP_IMPERIAL_DEPLOY",
        "SETUP_ZHODANI_DEPLOY",
        "SETUP_SURPRISE_ROLL",
    ]
    assert d.run(2) == ["SETUP_INITIAL_PLOT", "T_REINF"]
    assert d.engine.status().hidden_input is False
    d.run(2)
    assert d.step == "M_ORDER_ROLL"
    rolls = [r for e in d.engine.entries() for r in e.rolls]
    assert len(rolls) >= 2  # the order roll happened on entry, logged
    while d.engine.state.vars.get("order_tie"):
        d.next()
    assert d.engine.state.vars["first_mover"] in ("IMP", "ZHO")
    assert d.run(9)[-1] == "C_SELECT_HEX"
    assert d.run(7) == ["SC0", "SC1", "SC2", "SC3", "SC4", "SC5", "SC6"]
    assert d.next() == "SC1" and d.engine.state.vars["round"] == 2  # another round
    d.set(both_have_squadrons=False)
    d.run(5)
    assert d.next() == "SD0"
    assert d.run(3) == ["SB", "ST", "SF0"]
    d.set(surface_contact=True)
    assert d.run(4) == ["SF1", "SF2", "SF3", "HEX_CHECKS"]
    assert d.next() == "C_SELECT_HEX" and d.engine.state.vars["hexes"] == ["1914"]
    d.set(squadrons_both=False, surface_contact=False)
    assert d.run(5) == ["SD0", "SB", "ST", "SF0", "HEX_CHECKS"]
    assert d.next() == "C_SELECT_HEX"
    assert d.run(4) == ["P_FLEET_ADJ", "P_GUERRILLA", "P_PLOTTING", "END_OF_TURN"]
    assert d.next() == "T_REINF" and d.clock == {"turn": 2}
    d.set(vp_diff=-301)
    d.engine.perform("gm.goto", {"step": "END_OF_TURN"})
    assert d.next() == "GAME_OVER"


def test_ffw_without_surprise_goes_straight_to_plotting():
    d = Driver(ffw(), ("IMP", "ZHO"))
    assert d.run(5)[-1] == "SETUP_INITIAL_PLOT"


# -- PRESTAGS (digest 2.1-2.3) ---------------------------------------------------------------
def _panic(ctx: Ctx) -> None:
    ctx.call("PANIC_RESOLVE", ctx.state.step)


PANIC = ActionDef("panic_check", "Panic check", _panic)


def prestags(simultaneous: bool) -> Machine:
    def start_pt(player: str):
        def eff(c: Ctx) -> None:
            roles = dict(c.var("roles"))
            roles["phasing"] = roles[player]
            roles["non_phasing"] = roles["second" if player == "first" else "first"]
            c.set_var("roles", roles)
            gt = c.clock["gt"]
            c.set_clock("pt", 2 * gt - 1 if player == "first" else 2 * gt)

        return eff

    def turn_record(c: Ctx) -> None:
        c.tick("gt")
        c.set_clock("pt", 2 * c.clock["gt"] - 1)

    def last(s) -> bool:
        return s.clock["gt"] >= s.vars["game_length"]

    steps = [
        Step("SETUP", "setup", phase="SETUP", next=(Go("DEPLOY_A"),)),
        Step("DEPLOY_A", "A Force deploys", phase="DEPLOY", actor="A", next=(Go("DEPLOY_B"),)),
        Step("DEPLOY_B", "B Force deploys", phase="DEPLOY", actor="B", next=(Go("GT_START"),)),
    ]
    if not simultaneous:
        steps.append(Step("GT_START", "game-turn", phase="GT", next=(Go("FIRE", effect=start_pt("first")),)))
        steps += [
            Step("FIRE", "Fire Combat Phase", phase="FIRE", actor="phasing", next=(Go("MOVE"),)),
            Step("MOVE", "Movement Phase", phase="MOVE", actor="phasing", next=(Go("DEF_FIRE"),)),
            Step("DEF_FIRE", "Defensive Fire", phase="MOVE", actor="non_phasing", next=(Go("MELEE"),)),
            Step("MELEE", "Melee Combat Phase", phase="MELEE", actor="phasing", next=(Go("RECOVERY"),)),
            Step(
                "RECOVERY",
                "Mutual Disruption Recovery",
                phase="RECOVERY",
                auto=False,
                next=(
                    Go("VICTORY", when=v("concession_complete")),
                    Go(
                        "FIRE",
                        when=lambda s: s.vars["roles"]["phasing"] == s.vars["roles"]["first"],
                        effect=start_pt("second"),
                        label="first player's turn done",
                    ),
                    Go("TURN_RECORD"),
                ),
            ),
            Step(
                "TURN_RECORD",
                "turn record",
                phase="TURN_RECORD",
                next=(
                    Go("VICTORY", when=last),
                    Go("FIRE", effect=lambda c: (turn_record(c), start_pt("first")(c))),
                ),
            ),
        ]
    else:
        both_plotted = Require(
            "both sides have plotted",
            lambda s: (
                None
                if len(s.secrets) == 2
                else "waiting for " + ", ".join(x for x in ("A", "B") if x not in s.secrets)
            ),
        )
        steps += [
            Step("GT_START", "game-turn", phase="GT", next=(Go("PLOT"),)),
            Step(
                "PLOT",
                "Operations Plot Phase",
                phase="PLOT",
                actor="both",
                hidden_input=True,
                requires=(both_plotted,),
                next=(Go("FIRE_RES"),),
            ),
            *linear(["FIRE_RES", "MELEE_RES", "MOVE_RES", "DF_RES", "SIM_RECOVERY", "SIM_TURN_RECORD"]),
            Step(
                "SIM_TURN_RECORD",
                "turn record",
                phase="SIM_TURN_RECORD",
                next=(
                    Go("VICTORY", when=last),
                    Go(
                        "PLOT",
                        effect=lambda c: (
                            turn_record(c),
                            c.tx.touch("secrets", "A"),
                            c.tx.touch("secrets", "B"),
                            c.state.secrets.clear(),
                        ),
                    ),
                ),
            ),
        ]
    steps += [
        Step("VICTORY", "victory", phase="END", final=True),
        Step("PANIC_RESOLVE", "panic", phase="PANIC", next=(Go(RETURN),)),
    ]
    return Machine.build(
        "prestags." + ("sim" if simultaneous else "std"),
        "PRESTAGS",
        steps,
        start="SETUP",
        anytime=("panic_check",),
        clock=(ClockLevel("gt", "Game-Turn", 1), ClockLevel("pt", "Player-Turn", 1)),
        subs={"PANIC": "PANIC_RESOLVE"},
    )


def test_prestags_standard_two_player_turns_and_panic_interrupt():
    d = Driver(
        prestags(False),
        ("A", "B"),
        {"first": "A", "second": "B", "phasing": "A"},
        actions={"panic_check": PANIC},
        game_length=2,
    )
    assert d.run(3) == ["DEPLOY_A", "DEPLOY_B", "GT_START"]
    assert d.next() == "FIRE" and d.actor() == "A" and d.clock == {"gt": 1, "pt": 1}
    assert d.run(2) == ["MOVE", "DEF_FIRE"]
    assert d.actor() == "B"  # defensive fire: the non-phasing player
    assert d.run(2) == ["MELEE", "RECOVERY"]
    assert d.next() == "FIRE" and d.actor() == "B" and d.clock["pt"] == 2
    d.next()  # MOVE
    d.engine.perform("panic_check")  # an interrupt from any step
    assert d.step == "PANIC_RESOLVE" and d.engine.state.stack == ["MOVE"]
    assert d.next() == "MOVE"  # back where it was called
    assert d.run(3) == ["DEF_FIRE", "MELEE", "RECOVERY"]
    assert d.next() == "TURN_RECORD"
    assert d.next() == "FIRE" and d.clock == {"gt": 2, "pt": 3} and d.actor() == "A"
    d.run(10)
    assert d.step == "TURN_RECORD"
    assert d.next() == "VICTORY"


def test_prestags_simultaneous_plots_are_secret_and_required():
    d = Driver(prestags(True), ("A", "B"), {}, actions={"panic_check": PANIC}, game_length=1)
    assert d.run(4)[-1] == "PLOT"
    assert d.engine.status().hidden_input
    with pytest.raises(AdvanceRefused, match="waiting for A, B"):
        d.engine.advance()
    for side in ("A", "B"):
        d.engine._run(_secret_action(side), {}, {}, side, False, False)
    assert d.engine.view("A").secrets == {"A": {"plot": "plot of A"}}
    assert d.engine.view("B").secrets == {"B": {"plot": "plot of B"}}
    assert d.run(7) == [
        "FIRE_RES",
        "MELEE_RES",
        "MOVE_RES",
        "DF_RES",
        "SIM_RECOVERY",
        "SIM_TURN_RECORD",
        "VICTORY",
    ]


def _secret_action(side: str) -> ActionDef:
    def handler(ctx: Ctx) -> None:
        ctx.set_secret(side, "plot", f"plot of {side}")
        ctx.secret_to(side)

    return ActionDef("plot", "plot", handler)


# -- Second Sathar War (digest 2.3-2.5) ------------------------------------------------------
def swii() -> Machine:
    def victory(s) -> bool:
        return s.vars.get("stations_destroyed", 0) >= 12 and s.vars.get("fortresses_destroyed", 0) == 4

    def retreat(s) -> bool:
        return bool(s.vars.get("retreat_met"))

    battle_exit = (Go("SATHAR_VICTORY", when=victory), Go("RETREAT_TRIGGERED", when=retreat), Go(RETURN))

    def log_event(name: str):
        return lambda c: c.set_var("events", [*c.var("events", []), f"{name}{c.clock['day']}"])

    steps = [
        Step("OPTIONS", "options", phase="SETUP", next=(Go("RETREAT_CONDITION"),)),
        Step(
            "RETREAT_CONDITION",
            "Sathar secret retreat condition",
            phase="SETUP",
            actor="SATHAR",
            hidden_input=True,
            next=(Go("SHATTER_DRONES", when=lambda s: s.options.get("shatter", False)), Go("UPF_SETUP")),
        ),
        Step("SHATTER_DRONES", "shatter drones", phase="SETUP", next=(Go("UPF_SETUP"),)),
        *linear(["UPF_SETUP", "SATHAR_SETUP", "SFN_DECISION", "SATHAR_REINFORCE"], phase="SETUP"),
        *linear(
            ["SATHAR_REINFORCE", "SATHAR_MOVE", "UPF_REINFORCE", "UPF_MOVE", "SATHAR_DECLARE"], phase="DAY"
        ),
        Step(
            "SATHAR_DECLARE",
            "Sathar declare",
            phase="DAY",
            actor="SATHAR",
            next=(
                Go("SATHAR_BATTLES", when=lambda s: s.vars.get("sathar_attacks", 0) > 0),
                Go("UPF_DECLARE"),
            ),
        ),
        Step(
            "SATHAR_BATTLES",
            "Sathar battles",
            phase="BATTLES",
            next=(
                Go(
                    "SATHAR_BATTLES",
                    call="B0",
                    when=lambda s: s.vars.get("sathar_attacks", 0) > 0,
                    effect=lambda c: c.set_var("sathar_attacks", c.var("sathar_attacks") - 1),
                ),
                Go("UPF_DECLARE"),
            ),
        ),
        Step(
            "UPF_DECLARE",
            "UPF declare",
            phase="DAY",
            actor="UPF",
            next=(Go("UPF_BATTLES", when=lambda s: s.vars.get("upf_attacks", 0) > 0), Go("END_OF_DAY")),
        ),
        Step(
            "UPF_BATTLES",
            "UPF battles",
            phase="BATTLES",
            next=(
                Go(
                    "UPF_BATTLES",
                    call="B0",
                    when=lambda s: s.vars.get("upf_attacks", 0) > 0,
                    effect=lambda c: c.set_var("upf_attacks", c.var("upf_attacks") - 1),
                ),
                Go("END_OF_DAY"),
            ),
        ),
        Step(
            "END_OF_DAY",
            "end of day",
            phase="END_OF_DAY",
            next=(
                Go("SATHAR_VICTORY", when=victory),
                Go("RETREAT_TRIGGERED", when=retreat),
                Go("TENDAY_END", when=lambda s: s.clock["day"] % 10 == 0, label="day % 10 == 0"),
                Go(
                    "REPLACEMENT_PHASE",
                    when=lambda s: s.options.get("replacements") and s.clock["day"] % 20 == 0,
                ),
                Go("SATHAR_REINFORCE", effect=tick("day")),
            ),
        ),
        Step(
            "TENDAY_END",
            "tenday retreat checks 4 and 5",
            phase="END_OF_DAY",
            enter=log_event("tenday"),
            next=(
                Go("RETREAT_TRIGGERED", when=retreat),
                Go(
                    "REPLACEMENT_PHASE",
                    when=lambda s: s.options.get("replacements") and s.clock["day"] % 20 == 0,
                ),
                Go("SATHAR_REINFORCE", effect=tick("day")),
            ),
        ),
        Step(
            "REPLACEMENT_PHASE",
            "replacements",
            phase="END_OF_DAY",
            enter=log_event("replacements"),
            next=(Go("SATHAR_REINFORCE", effect=tick("day")),),
        ),
        Step("RETREAT_TRIGGERED", "retreat", phase="END", next=(Go("RETREAT_MODE"),)),
        Step(
            "RETREAT_MODE",
            "retreat mode",
            phase="END",
            next=(Go("GAME_OVER", when=v("no_sathar_on_map")), Go("RETREAT_MODE")),
        ),
        Step("SATHAR_VICTORY", "Sathar victory", phase="END", next=(Go("GAME_OVER"),)),
        Step("GAME_OVER", "game over", phase="END", final=True),
        Step("B0", "declared", phase="BATTLE", next=(Go("B1"),)),
        *linear(["B1", "B2", "B3"], phase="BATTLE"),
        Step(
            "B3",
            "results entered",
            phase="BATTLE",
            next=(
                Go("B4", when=lambda s: s.options.get("autodestroy") and s.vars.get("station_present")),
                Go("B5"),
            ),
        ),
        Step("B4", "autodestroy", phase="BATTLE", next=(Go("B5"),)),
        Step("B5", "post", phase="BATTLE", next=battle_exit),
    ]
    return Machine.build(
        "swii",
        "Second Sathar War",
        steps,
        start="OPTIONS",
        clock=(ClockLevel("day", "Day", 1),),
        subs={"BATTLE": "B0"},
    )


def _swii_driver(**options) -> Driver:
    d = Driver(swii(), ("SATHAR", "UPF"))
    if options:
        d.engine.state.options.update(options)
    return d


def test_swii_day_loop_tenday_and_twentieth_day_events():
    d = _swii_driver(replacements=True)
    d.run(5)
    assert d.step == "SATHAR_REINFORCE" and d.clock == {"day": 1}
    for _ in range(20):
        while d.step != "END_OF_DAY":
            d.next()
        d.next()
        while d.step in ("TENDAY_END", "REPLACEMENT_PHASE"):
            d.next()
    assert d.engine.state.vars["events"] == ["tenday10", "tenday20", "replacements20"]
    assert d.clock == {"day": 21}


def test_swii_replacements_off_skips_the_phase():
    d = _swii_driver(replacements=False)
    d.run(5)
    d.engine.perform("gm.set_clock", {"level": "day", "value": 20})
    while d.step != "END_OF_DAY":
        d.next()
    d.run(2)
    assert d.engine.state.vars["events"] == ["tenday20"]


def test_swii_battles_called_from_both_sides_and_victory_mid_battle():
    d = _swii_driver(autodestroy=True)
    d.run(9)
    assert d.step == "SATHAR_DECLARE"
    d.set(sathar_attacks=1, upf_attacks=1, station_present=True)
    assert d.next() == "SATHAR_BATTLES"
    assert d.run(6) == ["B0", "B1", "B2", "B3", "B4", "B5"]
    assert d.engine.state.stack == ["SATHAR_BATTLES"]
    assert d.next() == "SATHAR_BATTLES"
    assert d.run(2) == ["UPF_DECLARE", "UPF_BATTLES"]
    assert d.run(5) == ["B0", "B1", "B2", "B3", "B4"]
    d.set(stations_destroyed=12, fortresses_destroyed=4)
    d.next()
    assert d.next() == "SATHAR_VICTORY"
    assert d.next() == "GAME_OVER"


# -- Star Cruiser Lite (digest 2.1-2.3) ------------------------------------------------------
def scl() -> Machine:
    def week_end(c: Ctx) -> None:
        c.set_clock("week", c.clock["week"] + 1)

    def month_end(c: Ctx) -> None:
        c.tick("month")  # week goes back to 0

    pending = lambda name: lambda s: s.vars.get(name, 0) > 0  # noqa: E731

    def take(name: str):
        return lambda c: c.set_var(name, c.var(name) - 1)

    m0 = [
        "M0.ORDERS",
        "M0.PRODUCTION",
        "M0.COLONY_INITIATIVES",
        "M0.CONSTRUCTION",
        "M0.RESUPPLY",
        "M0.POLITICAL",
        "M0.REPORT",
    ]
    cmb = [
        "CMB.SETUP",
        "CMB.ROUND_START",
        "CMB.RANGE",
        "CMB.BREAKOFF",
        "CMB.ALLOCATE",
        "CMB.FIRE",
        "CMB.APPLY",
        "CMB.NC_BREAKOFF",
    ]
    steps = [
        Step("SETUP", "campaign setup", phase="SETUP", next=(Go("M0.ORDERS"),)),
        *linear([*m0], phase="WEEK0"),
        Step(
            "M0.REPORT",
            "turn report",
            phase="WEEK0",
            next=(Go("CAMPAIGN_END", when=v("gm_ends")), Go("W.ORDERS", effect=week_end)),
        ),
        *linear(["W.ORDERS", "W.UPKEEP", "W.MINES", "W.DETECT_TF", "W.PREEMPT"], phase="WEEK"),
        Step(
            "W.PREEMPT",
            "pre-emptive attacks",
            phase="WEEK",
            next=(
                Go("W.PREEMPT", call="CMB.SETUP", when=pending("preempt"), effect=take("preempt")),
                Go("W.DETECT_FAC"),
            ),
        ),
        *linear(["W.DETECT_FAC", "W.REORG", "W.COORDINATE", "W.ACTIONS"], phase="WEEK"),
        Step(
            "W.ACTIONS",
            "movement actions",
            phase="WEEK",
            next=(
                Go("W.ACTIONS", call="CMB.SETUP", when=pending("engagements"), effect=take("engagements")),
                Go(
                    "W.ACTIONS",
                    call="GRD.ORBIT",
                    when=pending("colony_attacks"),
                    effect=take("colony_attacks"),
                ),
                Go("W.SPECIALS"),
            ),
        ),
        *linear(["W.SPECIALS", "W.MOVES", "W.END", "W.REPORT"], phase="WEEK"),
        Step(
            "W.REPORT",
            "turn report",
            phase="WEEK",
            next=(
                Go("CAMPAIGN_END", when=v("gm_ends")),
                Go("W.ORDERS", when=lambda s: s.clock["week"] < 4, effect=week_end),
                Go("M0.ORDERS", effect=month_end),
            ),
        ),
        Step("CAMPAIGN_END", "end", phase="END", final=True),
        *linear(cmb, phase="CMB"),
        Step(
            "CMB.NC_BREAKOFF",
            "non-combatant break-off",
            phase="CMB",
            next=(
                Go(
                    "CMB.ROUND_START",
                    when=v("both_engaged"),
                    effect=lambda c: c.set_var("round", c.var("round", 1) + 1),
                ),
                Go(RETURN),
            ),
        ),
        Step(
            "GRD.ORBIT",
            "secure orbit",
            phase="GRD",
            next=(Go("GRD.BOMBARD", call="CMB.SETUP", when=v("orbit_defended")), Go("GRD.BOMBARD")),
        ),
        *linear(["GRD.BOMBARD", "GRD.LAND", "GRD.OUTER"], phase="GRD"),
        Step("GRD.OUTER", "outer line", phase="GRD", next=(Go(RETURN),)),
    ]
    return Machine.build(
        "scl",
        "Star Cruiser Lite",
        steps,
        start="SETUP",
        clock=(ClockLevel("month", "Month", 1), ClockLevel("week", "Week", 0, maximum=4)),
        format_clock=lambda c: f"Month {c.get('month')}, Week {c.get('week')}",
    )


def test_scl_month_of_week0_and_four_action_weeks():
    d = Driver(scl(), ("AME", "KAF"))
    assert d.clock == {"month": 1, "week": 0}
    d.run(8)
    assert d.step == "W.ORDERS" and d.clock == {"month": 1, "week": 1}
    weeks = []
    for _ in range(4):
        while d.step != "W.REPORT":
            d.next()
        d.next()
        weeks.append((d.step, dict(d.clock)))
    assert weeks == [
        ("W.ORDERS", {"month": 1, "week": 2}),
        ("W.ORDERS", {"month": 1, "week": 3}),
        ("W.ORDERS", {"month": 1, "week": 4}),
        ("M0.ORDERS", {"month": 2, "week": 0}),
    ]
    assert d.engine.machine.clock_text(d.clock) == "Month 2, Week 0"


def test_scl_combat_called_from_preempt_actions_and_nested_inside_ground_operations():
    d = Driver(scl(), ("AME", "KAF"))
    d.run(8)
    d.set(preempt=1, engagements=1, colony_attacks=1, orbit_defended=True, both_engaged=True)
    d.run(4)
    assert d.step == "W.PREEMPT"
    assert d.next() == "CMB.SETUP" and d.engine.state.stack == ["W.PREEMPT"]
    d.run(7)
    assert d.next() == "CMB.ROUND_START"  # a second round
    d.set(both_engaged=False)
    d.run(6)
    assert d.next() == "W.PREEMPT"
    assert d.run(4) == ["W.DETECT_FAC", "W.REORG", "W.COORDINATE", "W.ACTIONS"]
    assert d.next() == "CMB.SETUP" and d.engine.state.stack == ["W.ACTIONS"]
    d.run(8)
    assert d.step == "W.ACTIONS"
    assert d.next() == "GRD.ORBIT"
    assert d.next() == "CMB.SETUP"
    assert d.engine.state.stack == ["W.ACTIONS", "GRD.BOMBARD"]  # nested sub-machines
    d.run(8)
    assert d.step == "GRD.BOMBARD" and d.engine.state.stack == ["W.ACTIONS"]
    assert d.run(3) == ["GRD.LAND", "GRD.OUTER", "W.ACTIONS"]
    assert d.next() == "W.SPECIALS"


def test_every_digest_machine_has_an_outline_and_replays():
    from campaign_tui.core.engine import Engine

    for machine in (prefect_planetary(), prefect_space(), ffw(), prestags(False), swii(), scl()):
        text = machine.outline()
        assert machine.title in text and "->" in text
        d = Driver(
            machine,
            ("A", "B"),
            {"attacker": "A", "defender": "B", "first": "A", "second": "B", "phasing": "A"},
            actions={"panic_check": PANIC},
            max_turns=3,
            game_length=3,
        )
        for _ in range(15):
            if d.engine.status().final:
                break
            d.next()
        replayed = Engine.replay(d.rs, d.engine.initial, d.engine.info, d.engine.entries())
        assert replayed.state == d.engine.state
