"""The campaign game's phase machine (digest 2.7, 2.9): the space phases, then the ground
phases with naval ground support, independent naval attacks and orbital drops, then
adjustment, withdrawal, the campaign Supply Phase and a tempo that counts space and ground
breakthroughs together."""

from __future__ import annotations

from campaign_tui.core.machine import ClockLevel, Go, Machine, Require, Step
from rulesets.prefect.actions_campaign import drops_landed, end_of_drops, ground_support_return, gs_units
from rulesets.prefect.actions_space import missions_missing
from rulesets.prefect.actions_withdraw_adjust import income_done
from rulesets.prefect.naval import start_turn_naval
from rulesets.prefect.phases_ground import (
    adjust_step,
    combat_phase_steps,
    combat_sub_steps,
    movement_steps,
    setup_steps,
    tempo_steps,
    withdraw_steps,
)
from rulesets.prefect.phases_planetary import ANYTIME, clock_text
from rulesets.prefect.phases_space import (
    SUPPLY_ACTIONS,
    _enter_half,
    half_steps,
    mission_steps,
    naval_adjust_step,
)
from rulesets.prefect.phases_space import setup_steps as naval_setup_steps

PHASES = {
    "P_SETUP": "Set-up (ground)",
    "S_SETUP": "Set-up (naval)",
    "S_MISSIONS": "Naval Mission Assignment Phase",
    "S_ATK_TSPACE": "Attacker T-space Movement Phase",
    "S_ATK_INSYSTEM": "Attacker Insystem Movement Phase",
    "S_ATK_COMBAT": "Attacker Space Combat Phase",
    "S_DEF_TSPACE": "Defender T-space Movement Phase",
    "S_DEF_INSYSTEM": "Defender Insystem Movement Phase",
    "S_DEF_COMBAT": "Defender Space Combat Phase",
    "MISSION": "Mission resolution",
    "P_MOVE": "Ground Movement Phase (with Defender counteractions)",
    "P_COMBAT": "Ground Combat Phase",
    "COMBAT": "Ground combat",
    "C_ADJUST": "Task Force Adjustment Phase",
    "P_WITHDRAW": "Ground Withdrawal Phase",
    "C_SUPPLY": "Supply Phase",
    "C_TEMPO": "Tempo Phase",
    "END": "End of the game",
}
GROUND_SUPPLY = ("transfer_supply", "rearm", "reorganize", "rebuild", "build_base")


def _release_49007(ctx: object) -> None:
    """Invasion (G29): when the 12299th has arrived, the 49007th still held in reserve goes
    to the Commonwealth outsystem area and may form task forces now."""
    c = ctx
    if c.var("bb_arrival") is None or c.var("released_49007"):  # type: ignore[attr-defined]
        return
    for u in list(c.state.units.values()):  # type: ignore[attr-defined]
        if u.formation == "CW-held" and u.data.get("group") == "cw49007":
            c.unit(u.id).formation = "CW-functional"  # type: ignore[attr-defined]
    c.set_var("released_49007", True)  # type: ignore[attr-defined]
    c.explain("the 49007th Battleship Squadron is released to the Commonwealth outsystem area")  # type: ignore


def build() -> Machine:
    supply_prompt = (
        "{side}: campaign supply, in order: rearm and reorganize (rearm, reorganize, naval_rearm, "
        "naval_reorganize, reorganize_base), rebuild (rebuild, rebuild_naval), then transfer supply "
        "and units (transfer_supply, transfer_naval_supply, load/unload). Advance when done."
    )
    steps = [
        *setup_steps("S_SETUP.first"),
        *naval_setup_steps("S_MISSIONS"),
        Step(
            "S_MISSIONS",
            "Naval mission assignment",
            phase="S_MISSIONS",
            actor="both",
            enter=start_turn_naval,
            prompt=lambda s: (
                "Both players give every naval task force in the outsystem area or on the system map "
                "its mission (set_mission, allocate_segments), in secret. "
                + (missions_missing(s) or "Advance when done.")
            ),
            actions=("set_mission", "allocate_segments"),
            reference="2.7.1",
            hidden_input=True,
            requires=(Require("every task force has its mission", missions_missing),),
            next=(Go("S_ATK_TSPACE", effect=_enter_half("attacker")),),
        ),
        *half_steps("S_ATK", "attacker", "S_DEF_TSPACE", _enter_half("defender")),
        *half_steps("S_DEF", "defender", "P_MOVE.select_tf", None),
        *movement_steps("P_COMBAT.detect_att"),
        *combat_phase_steps("C_INDEP.att"),
        *combat_sub_steps(),
        Step(
            "C_INDEP.att",
            "Attacker's independent naval attacks",
            phase="P_COMBAT",
            actor="attacker",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('attacker')}: unused Ground Support units may attack an "
                "enemy task force or ground base in their area (independent_attack). Advance when done."
            ),
            actions=("independent_attack", "fight_externally"),
            reference="2.7.9.1, 5.14.3",
            next=(
                Go("C_INDEP.att", call="G_START", when=lambda s: bool(s.vars.get("combat"))),
                Go("C_INDEP.def"),
            ),
        ),
        Step(
            "C_INDEP.def",
            "Defender's independent naval attacks",
            phase="P_COMBAT",
            actor="defender",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('defender')}: your unused Ground Support units may now "
                "attack (independent_attack). Advance when done."
            ),
            actions=("independent_attack", "fight_externally"),
            reference="2.7.9.1, 5.14.3",
            next=(
                Go("C_INDEP.def", call="G_START", when=lambda s: bool(s.vars.get("combat"))),
                Go("C_ANTIDROP"),
            ),
        ),
        Step(
            "C_ANTIDROP",
            "Fighters against drops",
            phase="P_COMBAT",
            actor="both",
            prompt=lambda s: (
                "Unused Ground Support fighters may attack the enemy forces in the Orbital Drop boxes "
                "of their area (antidrop_attack). Advance when done."
                + ("" if any(gs_units(s, x) for x in ("TOG", "CW")) else " (no fighters waiting)")
            ),
            actions=("antidrop_attack", "fight_externally"),
            reference="2.7.9.2, 5.14.6",
            next=(Go("C_ADJUST.ground", effect=ground_support_return),),
        ),
        adjust_step("C_ADJUST.ground", "C_ADJUST.naval", phase="C_ADJUST", extra=("form_dropped_tf",)),
        naval_adjust_step("C_ADJUST.naval", "P_WITHDRAW.loc", phase="C_ADJUST", enter=_release_49007),
        *withdraw_steps("C_SUPPLY.attacker"),
        Step(
            "C_SUPPLY.attacker",
            "Attacker's supply",
            phase="C_SUPPLY",
            actor="attacker",
            prompt=lambda s: supply_prompt.format(side=s.vars.get("roles", {}).get("attacker")),
            actions=(*GROUND_SUPPLY, *SUPPLY_ACTIONS),
            reference="2.7.12",
            next=(Go("C_SUPPLY.defender"),),
        ),
        Step(
            "C_SUPPLY.defender",
            "Defender's supply",
            phase="C_SUPPLY",
            actor="defender",
            prompt=lambda s: supply_prompt.format(side=s.vars.get("roles", {}).get("defender")),
            actions=(*GROUND_SUPPLY, *SUPPLY_ACTIONS),
            reference="2.7.12",
            next=(Go("C_SUPPLY.drops"),),
        ),
        Step(
            "C_SUPPLY.drops",
            "Orbital drops land",
            phase="C_SUPPLY",
            actor="both",
            prompt=lambda s: (
                "Dropped supply goes to Legion/Auxilia HQs in the area (drop_supply), dismantled bases "
                "to engineers (drop_base), and the dropped task forces land in their area (land_tf, "
                "land_disrupted). " + (drops_landed(s) or "Advance when done.")
            ),
            actions=("drop_supply", "drop_base", "land_tf", "land_disrupted"),
            reference="2.7.12.4, 5.14.6-5.14.7",
            requires=(Require("every drop landed", drops_landed),),
            next=(
                Go("C_SUPPLY.income", when=lambda s: bool(s.vars.get("income")), effect=end_of_drops),
                Go("C_TEMPO", effect=end_of_drops),
            ),
        ),
        Step(
            "C_SUPPLY.income",
            "Urban supply",
            phase="C_SUPPLY",
            actor="gm",
            prompt="Deliver the supply the cities give (scenario_supply).",
            actions=("scenario_supply",),
            reference="2.7.12",
            requires=(Require("delivered", income_done),),
            next=(Go("C_TEMPO"),),
        ),
        *tempo_steps("C_TEMPO", "C_TEMPO", "S_MISSIONS", reference="2.7.13, 5.15"),
        *mission_steps(),
    ]
    return Machine.build(
        "prefect.campaign",
        "Campaign game",
        steps,
        start="P_SETUP.arrange",
        clock=(ClockLevel("turn", "Turn", 1),),
        phases=PHASES,
        anytime=ANYTIME,
        subs={"GROUND_COMBAT": "G_START", "MISSION": "M_COMMIT"},
        format_clock=clock_text,
        description="The planetary and space games joined: space first, then the ground war with naval "
        "ground support and orbital drops; breakthroughs in space and on the ground decide the tempo.",
    )
