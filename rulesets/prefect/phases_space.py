"""The space game's phase machine (digest 2.1, 2.4-2.6, 2.9), with the mission-resolution
sub-machine. The campaign machine reuses the naval steps."""

from __future__ import annotations

from collections.abc import Callable

from campaign_tui.core.machine import RETURN, ClockLevel, Go, Machine, Require, Step
from campaign_tui.core.model import State
from rulesets.prefect.actions_space import (
    after_open,
    bb_exit_rule,
    contested,
    finish_mission,
    intercept_candidates,
    mission_pending,
    missions_left,
    missions_missing,
    withdrawing,
)
from rulesets.prefect.actions_space_supply import disrupted_grouped
from rulesets.prefect.board import Board
from rulesets.prefect.naval import (
    advance_tspace,
    end_space_phase,
    execute_withdrawals,
    phasing,
    place_emerging,
    set_phasing,
    start_turn_naval,
    withdrawals_pending,
)
from rulesets.prefect.phases_ground import tempo_steps
from rulesets.prefect.phases_planetary import clock_text

PHASES = {
    "S_SETUP": "Set-up",
    "S_MISSIONS": "Mission Assignment Phase",
    "S_ATK_TSPACE": "Attacker T-space Movement Phase",
    "S_ATK_INSYSTEM": "Attacker Insystem Movement Phase",
    "S_ATK_COMBAT": "Attacker Space Combat Phase",
    "S_DEF_TSPACE": "Defender T-space Movement Phase",
    "S_DEF_INSYSTEM": "Defender Insystem Movement Phase",
    "S_DEF_COMBAT": "Defender Space Combat Phase",
    "MISSION": "Mission resolution",
    "S_ADJUST": "Task Force Adjustment Phase",
    "S_SUPPLY": "Supply Phase",
    "S_TEMPO": "Tempo Phase",
    "END": "End of the game",
}
SETUP_ACTIONS = (
    "deploy_tf",
    "set_mission",
    "place_naval_base",
    "station_marines",
    "load_transport",
    "naval_transfer",
    "form_naval_tf",
    "allocate_segments",
)


def _setup_missing(s: State) -> str | None:
    board = Board(s)
    side = s.vars.get("roles", {}).get("setup", "")
    left = [f.name for f in board.naval_tfs(side) if not f.location and board.units(f.id)]
    if left:
        return f"deploy {', '.join(left[:4])}" + (" ..." if len(left) > 4 else "")
    bases = [b.label for b in board.bases(side) if b.data.get("needs_segment")]
    if bases:
        return f"place {', '.join(bases)} in a segment (place_naval_base)"
    marines = [u.label for u in s.units.values() if u.side == side and u.data.get("needs_base")]
    if marines:
        return f"station the Marines at naval bases (station_marines): {len(marines)} left"
    if s.vars.get("scenario") == "holding_the_line":
        track = [
            f.name for f in board.naval_tfs(side) if f.location == "tspace" and not f.status.get("mission")
        ]
        if track:
            return f"give the task forces on the T-space track a Supply or Orbital Drop mission: {', '.join(track)}"  # noqa: E501
    return None


def _swap_setup(ctx: object) -> None:
    c = ctx  # type: ignore[assignment]
    roles = dict(c.var("roles", {}))  # type: ignore[attr-defined]
    order = c.var("setup_order") or ["CW", "TOG"]  # type: ignore[attr-defined]
    roles["setup"] = order[1] if roles.get("setup") == order[0] else order[0]
    c.set_var("roles", roles)  # type: ignore[attr-defined]


def setup_steps(after: str) -> list[Step]:
    return [
        Step(
            "S_SETUP.first",
            "First player's deployment",
            phase="S_SETUP",
            actor="setup",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('setup')}: deploy your naval task forces (deploy_tf), "
                "place bases in segments (place_naval_base), station Marines, load transports. "
                + (_setup_missing(s) or "Advance when done.")
            ),
            actions=SETUP_ACTIONS,
            reference="2.1 S_SETUP",
            hidden_input=True,
            requires=(Require("deployment complete", _setup_missing),),
            next=(Go("S_SETUP.second", effect=_swap_setup),),
        ),
        Step(
            "S_SETUP.second",
            "Second player's deployment",
            phase="S_SETUP",
            actor="setup",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('setup')}: deploy your naval task forces (deploy_tf). "
                + (_setup_missing(s) or "Advance when done.")
            ),
            actions=SETUP_ACTIONS,
            reference="2.1 S_SETUP",
            hidden_input=True,
            requires=(Require("deployment complete", _setup_missing),),
            next=(Go(after),),
        ),
    ]


def _enter_half(role: str) -> Callable[[object], None]:
    def effect(ctx: object) -> None:
        set_phasing(ctx, role)  # type: ignore[arg-type]
        advance_tspace(ctx)  # type: ignore[arg-type]

    return effect


def _at_once(s: State) -> bool:
    return s.options.get("withdrawal_timing", "end_of_combat") == "at_once"


def _combat_prompt(s: State) -> str:
    side = phasing(s)
    left = missions_left(s)
    text = f"{side}: resolve the missions of your task forces sector by sector (start_mission"
    text += f"; {len(left)} left)" if left else "; all done)"
    cont = contested(s) if s.step == "S_ATK_COMBAT" else []
    if cont:
        text = (
            "Opposing sector defenses first: fight each contested segment (osd_round) until one side is "
            "gone "
            f"or pulled back: {', '.join(f'({a}) seg {b}' for a, b in cont)}. "
        ) + text
    return text + ". Advance when done."


def half_steps(
    prefix: str, role: str, after: str, after_effect: Callable[[object], None] | None
) -> list[Step]:
    """T-space, reaction, insystem, combat and withdrawal steps for one side's half."""
    ts, react, ins, comb, wd = (
        f"{prefix}_TSPACE",
        f"{prefix}_REACT",
        f"{prefix}_INSYSTEM",
        f"{prefix}_COMBAT",
        f"{prefix}_WITHDRAW",
    )
    phase_ts, phase_in, phase_c = ts, ins, comb

    def leave(ctx: object) -> None:
        end_space_phase(ctx)  # type: ignore[arg-type]
        if after_effect:
            after_effect(ctx)

    def leave_at_once(ctx: object) -> None:
        execute_withdrawals(ctx, phasing(ctx.state))  # type: ignore[attr-defined]

    return [
        Step(
            ts,
            "T-space movement",
            phase=phase_ts,
            actor="phasing",
            prompt=lambda s: (
                f"{phasing(s)}: your task forces on the T-space track moved one box. Put outsystem "
                "task forces on box 0 (enter_tspace) and bring task forces out (exit_tspace SECTOR); "
                "the opponent rolls to detect each. Advance when done."
            ),
            actions=("enter_tspace", "exit_tspace", "scuttle_flights"),
            rolls=("1d10 T-space detection (5.13.2)",),
            reference="2.4 S2/S5",
            requires=(Require("12299th together", bb_exit_rule),),
            next=(
                Go(react, when=lambda s: bool(s.vars.get("exits")), label="task forces came out of T-space"),
                Go(ins, effect=lambda c: place_emerging(c)),
            ),
        ),  # type: ignore[arg-type]
        Step(
            react,
            "Detection reaction",
            phase=phase_ts,
            actor="opponent",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('opponent')}: you may move ships and fighters between "
                "your Sector Defense task forces (react_transfer). Advance to let the undetected task "
                "forces be placed."
            ),
            actions=("react_transfer",),
            reference="2.4 S2.5",
            next=(Go(ins, effect=lambda c: place_emerging(c)),),
        ),  # type: ignore[arg-type]
        Step(
            ins,
            "Insystem movement",
            phase=phase_in,
            actor="phasing",
            prompt=lambda s: (
                f"{phasing(s)}: task forces that began the turn insystem may move to any sector "
                "(move_naval); Withdrawal task forces name their destination (declare_withdrawal). "
                "The opponent gets no reaction."
            ),
            actions=("move_naval", "declare_withdrawal", "scuttle_flights"),
            reference="2.4 S3/S6",
            requires=(Require("withdrawal destinations", lambda s: _wd_missing(s)),),
            next=(
                Go(
                    wd,
                    when=lambda s: _at_once(s) and withdrawals_pending(s),
                    label="withdrawals at once (G20)",
                ),
                Go(comb),
            ),
        ),
        Step(
            comb,
            "Space combat",
            phase=phase_c,
            actor="phasing",
            prompt=_combat_prompt,
            actions=("start_mission", "osd_round", "osd_pull_back", "fight_externally"),
            rolls=("1d10 N-space detection", "1d10 on the CRT", "1d10 saving roll per unit"),
            reference="2.4 S4/S7, 2.6",
            requires=(
                Require(
                    "every mission resolved",
                    lambda s: f"{len(missions_left(s))} mission(s) left" if missions_left(s) else None,
                ),
                Require(
                    "opposing sector defenses settled",
                    lambda s: (
                        "fight or pull back in the contested segments"
                        if s.step == "S_ATK_COMBAT" and contested(s)
                        else None
                    ),
                ),
            ),
            next=(
                Go(comb, call="M_COMMIT", when=mission_pending, label="a mission is resolved"),
                Go(wd, when=lambda s: not _at_once(s) and withdrawals_pending(s), label="withdrawals (G20)"),
                Go(after, effect=leave),
            ),
        ),
        Step(
            wd,
            "Withdrawal interceptions",
            phase=phase_c,
            actor="opponent",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('opponent')}: you may try to intercept the withdrawing "
                f"task forces ({', '.join(s.formations[x].name for x in withdrawing(s))}) with "
                "intercept_withdrawal; advance to let them go."
            ),
            actions=("intercept_withdrawal", "fight_externally"),
            rolls=("1d10 detection", "1d10 on the CRT"),
            reference="5.13.10, G20",
            next=(Go(comb, when=_at_once, effect=leave_at_once), Go(after, effect=leave)),
        ),
    ]


def _wd_missing(s: State) -> str | None:
    board = Board(s)
    left = [
        f.name
        for f in board.naval_tfs(phasing(s))
        if board.mission(f.id) == "withdrawal"
        and (f.location or "").startswith("sector:")
        and not f.status.get("withdraw_to")
    ]
    return f"name where these withdraw (declare_withdrawal): {', '.join(left)}" if left else None


def mission_steps() -> list[Step]:
    def m(s: State) -> dict:
        return dict(s.vars.get("mission") or {})

    def head(s: State) -> str:
        mm = m(s)
        if not mm:
            return ""
        name = s.formations[mm["tf"]].name if mm.get("tf") in s.formations else "?"
        return f"{name}, {mm.get('mission', '').replace('_', ' ')} in ({mm.get('sector')}). "

    def done(s: State) -> bool:
        mm = m(s)
        return bool(mm.get("aborted") or mm.get("done"))

    def no_force(s: State) -> bool:
        mm = m(s)
        board = Board(s)
        return not [u for u in mm.get("committed", []) if u in s.units and board.active(s.units[u])]

    finish = finish_mission
    return [
        Step(
            "M_COMMIT",
            "Commit or abort",
            phase="MISSION",
            actor="phasing",
            prompt=lambda s: (
                head(s)
                + (
                    "Commit units to the Deep Space Interception box (commit_units), or abort "
                    "(abort_mission: the task force still tires)."
                )
            ),
            actions=("commit_units", "abort_mission"),
            rolls=("1d10 N-space detection (opponent)",),
            reference="2.5 M0-M2",
            requires=(
                Require(
                    "committed or aborted",
                    lambda s: None if m(s).get("entered") or done(s) else "commit units or abort",
                ),
            ),
            next=(
                Go(RETURN, when=done, effect=finish, label="aborted or nothing committed"),
                Go(
                    "M_INTERCEPT",
                    when=lambda s: bool(m(s).get("detected")) and bool(intercept_candidates(s)),
                    label="detected in N-space",
                ),
                Go(
                    "M_RESOLVE",
                    when=lambda s: m(s).get("mission") == "recon",
                    label="recon stays in the DSI box",
                ),
                Go("M_SEGMENT"),
            ),
        ),
        Step(
            "M_INTERCEPT",
            "Deep space interception",
            phase="MISSION",
            actor="opponent",
            prompt=lambda s: (
                head(s)
                + (
                    f"{m(s).get('opponent')}: the force was detected. Intercept with Sector "
                    f"Defense units of high enough thrust (intercept: "
                    f"{', '.join(intercept_candidates(s)) or 'none eligible'}), or advance."
                )
            ),
            actions=("intercept", "fight_externally"),
            rolls=("1d10 detecting interceptors", "1d10 on the CRT", "saving rolls"),
            reference="2.5 M3",
            next=(
                Go(RETURN, when=no_force, effect=finish, label="nothing got through"),
                Go("M_RESOLVE", when=lambda s: m(s).get("mission") == "recon"),
                Go("M_SEGMENT"),
            ),
        ),
        Step(
            "M_SEGMENT",
            "Move to a segment",
            phase="MISSION",
            actor="phasing",
            prompt=lambda s: head(s) + "Choose the orbital segment (choose_segment).",
            actions=("choose_segment",),
            reference="2.5 M4",
            requires=(
                Require("segment chosen", lambda s: None if m(s).get("segment") else "choose a segment"),
            ),
            next=(Go("M_RESOLVE"),),
        ),
        Step(
            "M_RESOLVE",
            "Resolve the mission",
            phase="MISSION",
            actor="phasing",
            prompt=lambda s: (
                head(s) + "Resolve the mission in the segment (resolve_mission; Recon names the "
                "segment it tries to detect)."
            ),
            actions=("resolve_mission", "fight_externally"),
            rolls=("1d10 on the CRT", "saving rolls", "1d10 recon detection"),
            reference="2.5 M5",
            requires=(
                Require("resolved", lambda s: None if m(s).get("resolved") else "resolve the mission"),
            ),
            next=(
                Go(
                    "M_AFTER",
                    when=after_open,
                    label="Marines, a ground-base attack or a field drop may follow",
                ),
                Go(RETURN, effect=finish),
            ),
        ),
        Step(
            "M_AFTER",
            "After the mission",
            phase="MISSION",
            actor="phasing",
            prompt=lambda s: (
                head(s)
                + (
                    "Follow up if you wish: Marine assault on a disrupted orbital base "
                    "(marine_assault), ground-support attack on a ground base (gs_attack_base), "
                    "supply drop to the field (deliver_field_supply). Advance when done."
                )
            ),
            actions=("marine_assault", "gs_attack_base", "deliver_field_supply", "fight_externally"),
            reference="2.5 M5-M6, 5.13.12",
            next=(Go(RETURN, effect=finish),),
        ),
    ]


ADJUST_ACTIONS = (
    "naval_transfer",
    "form_naval_tf",
    "disband_naval_tf",
    "transport_as_base",
    "pickup_transport",
    "disrupt_voluntarily",
    "scuttle_flights",
    "rebuild_naval",
)
SUPPLY_ACTIONS = (
    "naval_rearm",
    "naval_reorganize",
    "reorganize_base",
    "transfer_naval_supply",
    "load_transport",
    "unload_transport",
    "unload_base",
    "rebuild_naval",
)


def naval_adjust_step(
    step_id: str, after: str, phase: str = "S_ADJUST", enter: Callable[[object], None] | None = None
) -> Step:
    return Step(
        step_id,
        "Naval task force adjustment",
        phase=phase,
        actor="both",
        enter=enter,
        prompt=(
            "Both players regroup naval units (naval_transfer, form_naval_tf, disband_naval_tf), set "
            "transports down as bases or pick them up, and combine each sector's disrupted units into "
            "one task force (it withdraws next turn)."
        ),
        actions=ADJUST_ACTIONS,
        reference="2.4 S8",
        requires=(Require("disrupted units grouped", disrupted_grouped),),
        next=(Go(after),),
    )


def build() -> Machine:
    steps = [
        *setup_steps("S_MISSIONS"),
        Step(
            "S_MISSIONS",
            "Mission assignment",
            phase="S_MISSIONS",
            actor="both",
            enter=start_turn_naval,
            prompt=lambda s: (
                "Both players give every task force in the outsystem area or on the system map its "
                "mission (set_mission) and spread Sector Defense units over the segments "
                "(allocate_segments), in secret. " + (missions_missing(s) or "Advance when done.")
            ),
            actions=("set_mission", "allocate_segments"),
            reference="2.4 S1",
            hidden_input=True,
            requires=(Require("every task force has its mission", missions_missing),),
            next=(Go("S_ATK_TSPACE", effect=_enter_half("attacker")),),
        ),
        *half_steps("S_ATK", "attacker", "S_DEF_TSPACE", _enter_half("defender")),
        *half_steps("S_DEF", "defender", "S_ADJUST", None),
        naval_adjust_step("S_ADJUST", "S_SUPPLY.attacker"),
        Step(
            "S_SUPPLY.attacker",
            "Attacker's naval supply",
            phase="S_SUPPLY",
            actor="attacker",
            prompt=_supply_prompt("attacker"),
            actions=SUPPLY_ACTIONS,
            reference="2.4 S9",
            next=(Go("S_SUPPLY.defender"),),
        ),
        Step(
            "S_SUPPLY.defender",
            "Defender's naval supply",
            phase="S_SUPPLY",
            actor="defender",
            prompt=_supply_prompt("defender"),
            actions=SUPPLY_ACTIONS,
            reference="2.4 S9",
            next=(Go("S_TEMPO"),),
        ),
        *tempo_steps("S_TEMPO", "S_TEMPO", "S_MISSIONS", reference="2.4 S10, 5.15"),
        *mission_steps(),
    ]
    return Machine.build(
        "prefect.space",
        "Space game",
        steps,
        start="S_SETUP.first",
        clock=(ClockLevel("turn", "Turn", 1),),
        phases=PHASES,
        subs={"MISSION": "M_COMMIT"},
        format_clock=clock_text,
        description="Naval war for the Africannus system: missions, T-space and insystem movement, N-space "
        "detection, deep space interception, segment combat, sector defense, supply and bases.",
    )


def _supply_prompt(role: str) -> Callable[[State], str]:
    return lambda s: (
        f"{s.vars.get('roles', {}).get(role)}: in order, rearm (naval_rearm) and reorganize "
        "(naval_reorganize, reorganize_base) where a friendly naval base can pay; transfer supply "
        "within a segment (transfer_naval_supply); load or unload cargo; rebuild destroyed units "
        "(rebuild_naval, up to the replacement rate). Advance when done."
    )
