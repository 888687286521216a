"""The sequence of play (digest 2.2-2.5) as one phase machine with a BATTLE sub-machine.

Set-up (options, the sealed retreat condition, shatter drones, UPF then Sathar placement,
Strike Force NOVA), then the daily loop: Sathar reinforce and move, UPF reinforce and move,
Sathar declare and fight, UPF declare and fight, end of day (with the tenday checks and
the 20-day replacement phase). Battles are a sub-machine called from both declaration
steps. The war ends at once on a Sathar victory, or when the last Sathar ship has left the
map after their retreat condition is met.
"""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.later import later
from campaign_tui.core.machine import RETURN, ClockLevel, Go, Machine, Require, Step
from campaign_tui.core.model import State

from .actions.battle import militia_problem
from .actions.setup import drone_problems, later_placement_problems, sathar_setup_problems, upf_setup_problems
from .fdm import Fdm
from .ledger import retreat_due, retreating, sathar_on_map, victory_now
from .movement import must_move, threatened_systems
from .rules import day_text, is_replacement_day, is_tenday_end
from .scenarios import MACHINE as MACHINE_ID
from .ships import summary

# rule modules: imported at the first call of one of their functions
B = later("rulesets.second_sathar_war.battles")
C = later("rulesets.second_sathar_war.cycles")
attention = later("rulesets.second_sathar_war.attention")


def _fdm(state: State) -> Fdm:
    return Fdm.of(state)


def _tick(ctx: Ctx) -> None:
    ctx.tick("day")


def _day(state: State) -> int:
    return int(state.clock.get("day", 0))


# -- prompts (plain words; callables read the campaign) -------------------------------------------
def _declare_prompt(side: str):  # type: ignore[no-untyped-def]
    def prompt(state: State) -> str:
        m = _fdm(state)
        if side == "SATHAR" and retreating(state):
            return "The Sathar are retreating and declare no attacks; advance."
        spots = attention.open_spots(state, m, side)
        if not spots:
            return (
                "No starburst holds both sides' ships"
                + (" with Sathar ships you may attack" if side == "UPF" else "")
                + "; advance to go on."
            )
        where = "; ".join(
            f"{m.name(c['system'])} ({', '.join(m.planets[p].name for p in c['planets'])})" for c in spots
        )
        rule = (
            "declare every attack now (a planet per fleet per day), then set their order"
            if side == "SATHAR"
            else "declare attacks on Sathar ships that did not attack today, if you wish"
        )
        queue = state.vars.get("attack_queue", [])
        return f"Contested: {where}. {rule.capitalize()}. Declared: {', '.join(queue) or 'none'}."

    return prompt


def _move_prompt(side: str):  # type: ignore[no-untyped-def]
    def prompt(state: State) -> str:
        left = must_move(state, _fdm(state), side)
        extra = f" Still to move: {'; '.join(left[:4])}." if left else ""
        return "Move your stacks (move_all follows every standing order; move_stack moves one)." + extra

    return prompt


def _battle_prompt(step: str):  # type: ignore[no-untyped-def]
    def prompt(state: State) -> str:
        b = B.current(state)
        if not b:
            return "No battle is being fought."
        m = _fdm(state)
        where = f"{m.planets[b['planet']].name} ({m.name(b['system'])})"
        att = summary(state.unit(i) for i in b.get("attackers", []))
        dfn = summary(state.unit(i) for i in b.get("defenders", []))
        if step == "B1":
            return (
                f"Battle {state.vars.get('battle')} at {where}: {b['side']} attack with {att} against {dfn}. "
                f"Suggested rules: {b.get('rules', '?')}. The defender may gather ships from the other "
                "planet, choose to fight near the planet, and (with a minelayer) record mine hexes."
            )
        if step == "B2":
            basic = b.get("rules") == "basic"
            return (
                f"Fight the battle at {where} on the Knight Hawks map ({b.get('rules', '?')} rules). "
                "The dice helper resolves to-hit, damage and break-up rolls into the die log."
                + (" Basic rules: no Damage Table, every hit is a hull hit (T11)." if basic else "")
            )
        return (
            f"Enter the result at {where} ship by ship: destroyed, damaged (hull points, systems), "
            "or escaped to a transit box. Ships not entered came through unharmed."
        )

    return prompt


def _eod_prompt(state: State) -> str:
    loose = C.stranded(state)
    text = "End of the day: plan construction-centre repairs if several ships compete, then advance"
    if loose:
        text += (
            f". Warning: {len(loose)} fighter(s) not aboard a carrier or station will be lost "
            f"({', '.join(u.label for u in loose[:4])})"
        )
    return text + "."


def _retreat_prompt(state: State) -> str:
    r = state.vars.get("retreat", {})
    return (
        f"The Sathar retreat (condition {r.get('condition')}: {r.get('text', '')}); result fixed: "
        f"{str(r.get('result', '')).replace('_', ' ')}. Every Sathar ship heads for the nearest start "
        "circle and the Void; play goes on until none is left on the map."
    )


def _condition_prompt(state: State) -> str:
    return (
        "Choose your retreat condition (1-5, table T13) in secret. The UPF will learn it only when it is met."
    )


# -- requirements ----------------------------------------------------------------------------------
def _condition_chosen(state: State) -> str | None:
    if not state.secrets.get("SATHAR", {}).get("retreat_condition"):
        return "the Sathar must seal their retreat condition"
    return None


def _moves_done(side: str):  # type: ignore[no-untyped-def]
    def check(state: State) -> str | None:
        left = must_move(state, _fdm(state), side)
        return "; ".join(left) if left else None

    return check


# -- conditions ------------------------------------------------------------------------------------
def _queue(state: State) -> bool:
    return bool(state.vars.get("attack_queue"))


def _retreat_13(state: State) -> bool:
    return retreat_due(state, tenday_end=False)


def _retreat_tenday(state: State) -> bool:
    return retreat_due(state, tenday_end=True)


def _game_over(state: State) -> bool:
    return retreating(state) and not sathar_on_map(state)


def _tenday(state: State) -> bool:
    return is_tenday_end(_day(state))


def _replacements(state: State) -> bool:
    return not retreating(state) and is_replacement_day(_day(state), bool(state.options.get("replacements")))


def _resume(state: State) -> bool:
    return state.vars.get("resume_step") == "SATHAR_DECLARE"


def _resumed(ctx: Ctx) -> None:
    ctx.set_var("resume_step", None)
    ctx.explain(f"the campaign resumes on day {_day(ctx.state)}")


# -- step entries ----------------------------------------------------------------------------------
def _enter(fn):  # type: ignore[no-untyped-def]
    return lambda ctx: fn(ctx, _fdm(ctx.state))


def _upf_reinforce(ctx: Ctx) -> None:
    C.upf_reinforcements(ctx, _fdm(ctx.state))
    threat = sorted(threatened_systems(ctx.state, _fdm(ctx.state)))
    if threat:
        ctx.explain("imminently threatened: " + ", ".join(_fdm(ctx.state).name(s) for s in threat))


def _tenday_enter(ctx: Ctx) -> None:
    C.tenday_report(ctx)


def _final(ctx: Ctx) -> None:
    C.final_outcome(ctx)


SETUP = "SETUP"
DAY = "DAY"
BATTLES = "BATTLES"
EOD = "END_OF_DAY"
END = "END"
BATTLE = "BATTLE"
MOVE_ACTIONS = (
    "move_all",
    "move_stack",
    "set_order",
    "station_at",
    "split",
    "merge",
    "transfer",
    "rename",
    "base_fighters",
)
DECLARE_ACTIONS = ("declare_attack", "cancel_attack", "order_attacks")

STEPS = [
    # -- set-up ---------------------------------------------------------------------------------
    Step(
        "OPTIONS",
        "Options and players",
        phase=SETUP,
        actor="gm",
        reference="0.1",
        prompt="Check the campaign options and record which player commands which forces "
        "(assign_player); a free roll settles a dispute. Then advance.",
        actions=("assign_player",),
        next=(Go("RETREAT_CONDITION"),),
    ),
    Step(
        "RETREAT_CONDITION",
        "Sathar retreat condition (secret)",
        phase=SETUP,
        actor="SATHAR",
        prompt=_condition_prompt,
        actions=("choose_retreat_condition",),
        hidden_input=True,
        reference="0.2, T13",
        requires=(Require("retreat condition sealed", _condition_chosen),),
        next=(
            Go("SATHAR_DECLARE", when=_resume, effect=_resumed, label="a campaign resumed mid-war"),
            Go(
                "SHATTER_DRONES",
                when=lambda s: bool(s.options.get("shatter_drones")),
                label="shatter drones on",
            ),
            Go("UPF_SETUP", label="shatter drones off"),
        ),
    ),
    Step(
        "SHATTER_DRONES",
        "Shatter drones",
        phase=SETUP,
        actor="both",
        reference="0.3",
        prompt="Each side names two of its frigates as shatter drones (the UPF may use militia frigates).",
        actions=("name_shatter_drone",),
        requires=(Require("two drones a side", drone_problems),),
        next=(Go("UPF_SETUP"),),
    ),
    Step(
        "UPF_SETUP",
        "UPF set-up",
        phase=SETUP,
        actor="UPF",
        reference="0.4",
        prompt="Stations, militias and the two task forces are in place. Deploy every non-attached "
        "ship (to a planet, a task force or Strike Force NOVA) and base every fighter aboard a "
        "carrier or at a station.",
        actions=("deploy", "base_fighters", "rename"),
        requires=(Require("non-attached ships and fighters placed", upf_setup_problems),),
        next=(Go("SATHAR_SETUP"),),
    ),
    Step(
        "SATHAR_SETUP",
        "Sathar set-up",
        phase=SETUP,
        actor="SATHAR",
        reference="0.5, 5.2",
        prompt="Form fleets, load every fighter aboard a carrier (8 each), and place at least 20 "
        "ships (fighters not counted) in two or more start circles, no more than half in any one. "
        "Ships not placed wait in reserve.",
        actions=(
            "form_fleet",
            "transfer",
            "split",
            "merge",
            "rename",
            "base_fighters",
            "place_fleet",
            "unplace_fleet",
        ),
        requires=(Require("legal Sathar placement", sathar_setup_problems),),
        next=(Go("SFN_DECISION"),),
    ),
    Step(
        "SFN_DECISION",
        "Strike Force NOVA",
        phase=SETUP,
        actor="UPF",
        reference="0.6, T8",
        prompt="Place Strike Force NOVA now (1d10 on T8 decides where), or advance to keep it off "
        "the map; it can come in at the start of any later UPF turn.",
        actions=("place_sfn",),
        next=(Go("DAY_START", effect=_tick, label="day 1 begins"),),
    ),
    # -- the day -----------------------------------------------------------------------------------
    Step(
        "DAY_START",
        "Start of the day",
        phase=DAY,
        actor="gm",
        auto=True,
        reference="2.2",
        enter=_enter(C.start_of_day),
        next=(Go("SATHAR_REINFORCE"),),
    ),
    Step(
        "SATHAR_REINFORCE",
        "Sathar reinforcements",
        phase=DAY,
        actor="SATHAR",
        reference="2.2 step 1",
        prompt="Place reserve fleets, ships back from the Void and replacements in start circles "
        "(no more than half of today's placements in one circle), or advance.",
        actions=("place_fleet", "form_fleet", "transfer", "split", "merge", "rename", "base_fighters"),
        requires=(Require("today's placements", later_placement_problems),),
        next=(Go("SATHAR_MOVE"),),
    ),
    Step(
        "SATHAR_MOVE",
        "Sathar movement",
        phase=DAY,
        actor="SATHAR",
        reference="2.2 step 2, 5.3-5.4",
        prompt=_move_prompt("SATHAR"),
        actions=MOVE_ACTIONS,
        rolls=(
            "d100 misjump check (T9) when a risk-jumping group enters its jump box",
            "1d10 twice on T10 after a misjump (house rule)",
        ),
        requires=(Require("forced Sathar moves made", _moves_done("SATHAR")),),
        next=(Go("UPF_REINFORCE"),),
    ),
    Step(
        "UPF_REINFORCE",
        "UPF reinforcements",
        phase=DAY,
        actor="UPF",
        reference="2.2 step 3",
        enter=_upf_reinforce,
        prompt="Replacements have appeared at their stations. Strike Force NOVA may enter now "
        "(place_sfn) if it is still off the map.",
        actions=("place_sfn",),
        rolls=("1d10 on T8 for Strike Force NOVA",),
        next=(Go("UPF_MOVE"),),
    ),
    Step(
        "UPF_MOVE",
        "UPF movement",
        phase=DAY,
        actor="UPF",
        reference="2.2 step 4, 5.3-5.5",
        prompt=_move_prompt("UPF"),
        actions=(*MOVE_ACTIONS, "disband"),
        rolls=("d100 misjump check (T9) when a risk-jumping group enters its jump box",),
        requires=(Require("forced UPF moves made", _moves_done("UPF")),),
        next=(Go("SATHAR_DECLARE"),),
    ),
    Step(
        "SATHAR_DECLARE",
        "Sathar attacks declared",
        phase=BATTLES,
        actor="SATHAR",
        reference="2.2 step 5, 5.6",
        prompt=_declare_prompt("SATHAR"),
        actions=DECLARE_ACTIONS,
        next=(
            Go("SATHAR_BATTLES", when=_queue, label="attacks declared"),
            Go("UPF_DECLARE", label="no Sathar attack"),
        ),
    ),
    Step(
        "SATHAR_BATTLES",
        "Sathar battles",
        phase=BATTLES,
        actor="both",
        auto=True,
        reference="2.2 step 6",
        next=(
            Go("SATHAR_BATTLES", call="B0", when=_queue, label="next declared Sathar attack"),
            Go("UPF_DECLARE", label="all Sathar attacks resolved"),
        ),
    ),
    Step(
        "UPF_DECLARE",
        "UPF attacks declared",
        phase=BATTLES,
        actor="UPF",
        reference="2.2 step 7, 5.6",
        prompt=_declare_prompt("UPF"),
        actions=DECLARE_ACTIONS,
        next=(
            Go("UPF_BATTLES", when=_queue, label="attacks declared"),
            Go("END_OF_DAY", label="no UPF attack"),
        ),
    ),
    Step(
        "UPF_BATTLES",
        "UPF battles",
        phase=BATTLES,
        actor="both",
        auto=True,
        reference="2.2 step 8",
        next=(
            Go("UPF_BATTLES", call="B0", when=_queue, label="next declared UPF attack"),
            Go("END_OF_DAY", label="all UPF attacks resolved"),
        ),
    ),
    Step(
        "END_OF_DAY",
        "End of the day",
        phase=EOD,
        actor="gm",
        reference="2.2 step 9",
        prompt=_eod_prompt,
        actions=("plan_repair", "base_fighters", "transfer"),
        next=(Go("EOD_CHECKS"),),
    ),
    Step(
        "EOD_CHECKS",
        "End-of-day chores and checks",
        phase=EOD,
        actor="gm",
        auto=True,
        reference="2.2 step 9a-e",
        enter=_enter(C.end_of_day),
        next=(
            Go("SATHAR_VICTORY", when=victory_now, label="12 stations incl. 4 fortresses destroyed"),
            Go("RETREAT_TRIGGERED", when=_retreat_13, label="retreat condition 1-3 met"),
            Go("GAME_OVER", when=_game_over, effect=_final, label="retreat: no Sathar ship left on the map"),
            Go("TENDAY_END", when=_tenday, label="day % 10 == 0"),
            Go("REPLACEMENT_PHASE", when=_replacements, label="replacements on and day % 20 == 0"),
            Go("DAY_START", effect=_tick, label="next day"),
        ),
    ),
    Step(
        "TENDAY_END",
        "End of a tenday",
        phase=EOD,
        actor="gm",
        auto=True,
        reference="2.2 step 9f, T13",
        enter=_tenday_enter,
        next=(
            Go("RETREAT_TRIGGERED", when=_retreat_tenday, label="retreat condition met at the tenday"),
            Go("REPLACEMENT_PHASE", when=_replacements, label="replacements on and day % 20 == 0"),
            Go("DAY_START", effect=_tick, label="next day"),
        ),
    ),
    Step(
        "REPLACEMENT_PHASE",
        "Replacements",
        phase=EOD,
        actor="UPF",
        reference="2.2 step 9g, 5.12, T14",
        enter=_enter(C.replacement_phase),
        prompt="Replacement phase: the Sathar rolls are made. Choose which destroyed ships your "
        "surviving fortresses and fortified stations rebuild (upf_replacement), then advance.",
        actions=("upf_replacement", "cancel_replacement"),
        rolls=("d100 per Sathar ship destroyed in combat in the last 20 days (<= 35 returns)",),
        next=(Go("DAY_START", effect=_tick, label="next day"),),
    ),
    Step(
        "RETREAT_TRIGGERED",
        "The Sathar retreat",
        phase=END,
        actor="gm",
        auto=True,
        reference="5.13, T15",
        enter=_enter(C.reveal_retreat),
        next=(
            Go(RETURN, when=lambda s: bool(s.stack), label="met during a battle"),
            Go("RETREAT_MODE", label="met at the end of the day"),
        ),
    ),
    Step(
        "RETREAT_MODE",
        "Retreat under way",
        phase=END,
        actor="gm",
        reference="5.13",
        prompt=_retreat_prompt,
        next=(
            Go("GAME_OVER", when=_game_over, effect=_final, label="no Sathar ship left on the map"),
            Go("DAY_START", effect=_tick, label="next day of the withdrawal"),
        ),
    ),
    Step(
        "SATHAR_VICTORY",
        "Sathar victory",
        phase=END,
        actor="gm",
        auto=True,
        reference="5.13, T15",
        enter=C.sathar_win,
        next=(Go("GAME_OVER"),),
    ),
    Step(
        "GAME_OVER",
        "The war is over",
        phase=END,
        actor="gm",
        final=True,
        enter=_final,
        prompt=lambda s: f"The war is over: {s.vars.get('outcome', {}).get('result', '?')}.",
    ),
    # -- BATTLE sub-machine ---------------------------------------------------------------------------
    Step(
        "B0",
        "Battle declared",
        phase=BATTLE,
        actor="gm",
        auto=True,
        reference="2.4 B0",
        enter=_enter(B.start),
        next=(Go("B4", when=B.lone_station_falls, label="lone station, automatic destruction"), Go("B1")),
    ),
    Step(
        "B1",
        "Battle set-up",
        phase=BATTLE,
        actor="both",
        reference="2.4 B1, T11",
        enter=_enter(B.setup),
        prompt=_battle_prompt("B1"),
        actions=("gather", "near_planet", "record_mines", "set_battle_rules", "battle_note"),
        next=(Go("B2"),),
    ),
    Step(
        "B2",
        "Fight (Knight Hawks)",
        phase=BATTLE,
        actor="both",
        reference="2.4 B2, 5.14",
        prompt=_battle_prompt("B2"),
        actions=("fire", "reveal_mine", "detonate_drone", "militia_fired", "battle_note"),
        rolls=("to-hit d100 (T5)", "Damage Table d100 + DTM (T6, T7)", "break-up d100 (5.14e)"),
        next=(Go("B3"),),
    ),
    Step(
        "B3",
        "Battle results",
        phase=BATTLE,
        actor="gm",
        reference="2.4 B3, 5.8",
        prompt=_battle_prompt("B3"),
        actions=(
            "ship_destroyed",
            "ship_damaged",
            "ship_fled",
            "militia_fired",
            "victors_move",
            "reveal_mine",
            "detonate_drone",
            "base_fighters",
            "battle_note",
        ),
        requires=(Require("militia fired before fleeing", militia_problem),),
        next=(Go("B4", when=B.autodestroy_pending, label="station and automatic destruction"), Go("B5")),
    ),
    Step(
        "B4",
        "Automatic station destruction",
        phase=BATTLE,
        actor="gm",
        auto=True,
        reference="2.4 B4, 5.7",
        enter=_enter(B.autodestroy),
        next=(Go("B5"),),
    ),
    Step(
        "B5",
        "After the battle",
        phase=BATTLE,
        actor="gm",
        auto=True,
        reference="2.4 B5",
        enter=_enter(B.post),
        next=(
            Go("SATHAR_VICTORY", when=victory_now, label="12 stations incl. 4 fortresses destroyed"),
            Go("RETREAT_TRIGGERED", when=_retreat_13, label="retreat condition 1-3 met"),
            Go(RETURN, label="back to the declaring side's battles"),
        ),
    ),
]

ANYTIME = (
    "helper",
    "space_repair",
    "free_roll",
    "set_observer",
    "gm.fdm_route",
    "gm.fdm_add_route",
    "gm.fdm_remove_route",
    "gm.fdm_circle",
    "gm.fdm_add_circle",
    "gm.fdm_remove_circle",
    "gm.threat",
    "gm.station",
    "gm.move_stack",
)

MACHINE = Machine.build(
    MACHINE_ID,
    "Second Sathar War: the strategic campaign",
    STEPS,
    start="OPTIONS",
    clock=(ClockLevel("day", "Day", 0),),
    phases={
        SETUP: "Set-up",
        DAY: "Reinforcements and movement",
        BATTLES: "Attacks",
        EOD: "End of the day",
        END: "End of the war",
        BATTLE: "Battle",
    },
    anytime=ANYTIME,
    subs={"BATTLE": "B0"},
    format_clock=lambda c: day_text(int(c.get("day", 0))),
    description="One turn is one day; battles are fought in Knight Hawks and their results entered.",
)
