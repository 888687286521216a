"""The ground phases as phase-machine steps (digest 2.1-2.3, 2.9): set-up, the Movement
Phase with its counteractions, the Combat Phase, the combat sub-machine, Supply,
Withdrawal, Task Force Adjustment and Tempo. The campaign machine reuses them."""

from __future__ import annotations

from collections.abc import Callable

from campaign_tui.core.later import later
from campaign_tui.core.machine import RETURN, Go, Require, Step
from campaign_tui.core.model import State
from rulesets.prefect.actions_movement import budget, end_move_after_counter, mover_done, zoc_prompt
from rulesets.prefect.actions_setup import placing_done, setup_ready, start_placing
from rulesets.prefect.actions_withdraw_adjust import income_done, lines_checked, loose_disrupted
from rulesets.prefect.board import Board
from rulesets.prefect.chores import last_turn, tempo, victory

# rule modules: imported at the first call of one of their functions
ground_combat = later("rulesets.prefect.ground_combat")

COUNTER_ACTIONS = ("counter_move", "counterattack")
MAP_GM: tuple[str, ...] = ()


def _names(s: State, fids: list[str]) -> str:
    return ", ".join(s.formations[f].name for f in fids if f in s.formations) or "-"


# -- set-up ------------------------------------------------------------------------------------
def setup_steps(first_move: str) -> list[Step]:
    return [
        Step(
            "P_SETUP.arrange",
            "Record sheets and map",
            phase="P_SETUP",
            actor="gm",
            prompt=(
                "Each player arranges his record sheets in secret (assign_unit, open_tf). The GM places "
                "the scenario's bases (place_base), registers the cities (register_city) and may enter "
                "map data (map_hex). Advance when done."
            ),
            actions=("assign_unit", "open_tf", "place_base", *MAP_GM),
            reference="2.1",
            hidden_input=True,
            requires=(Require("every scenario base placed", setup_ready),),
            next=(Go("P_SETUP.place", effect=start_placing),),
        ),
        Step(
            "P_SETUP.place",
            "Place task forces",
            phase="P_SETUP",
            actor="placer",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('placer', '?')}: place one counter in your set-up "
                f"area (place_tf); players alternate, one task force per hex. "
                f"{placing_done(s) or 'All placed: advance.'}"
            ),
            actions=("place_tf", *MAP_GM),
            rolls=("1d10 set-up roll-off if the scenario names no order",),
            reference="2.1 P_SETUP.3",
            requires=(Require("every counter placed", placing_done),),
            next=(Go(first_move),),
        ),
    ]


# -- movement ----------------------------------------------------------------------------------
def _select_prompt(s: State) -> str:
    moved, counter = budget(s)
    roles = s.vars.get("roles", {})
    return (
        f"{roles.get('attacker')}: choose a task force to move and its mode (move_tf), or advance when "
        f"your movement is done. Track: {moved} moved, {counter} counteraction(s) used - "
        f"{roles.get('defender')} may counteract now (counter_move, counterattack)."
    )


def _moving_prompt(s: State) -> str:
    m = s.vars.get("moving") or {}
    name = s.formations[m["tf"]].name if m.get("tf") in s.formations else "?"
    return (
        f"{name} is moving in {'LAF' if m.get('mode') == 'laf' else 'Combat'} mode: {m.get('spent', 0)} of "
        f"{m.get('allowance', 0)} MP spent. Enter the next hex (enter_hex) or stop (stop_move)."
    )


def movement_steps(after: str) -> list[Step]:
    return [
        Step(
            "P_MOVE.select_tf",
            "Attacker picks a task force",
            phase="P_MOVE",
            actor="attacker",
            prompt=_select_prompt,
            actions=("move_tf", *COUNTER_ACTIONS, *MAP_GM),
            rolls=("1d10 detection on each ZOC entry (Defender)",),
            reference="P1.1, P1.5",
            next=(
                Go(
                    "P_MOVE.select_tf",
                    call="G_START",
                    when=ground_combat.pending,
                    label="the Defender counterattacks (counterattack)",
                ),
                Go(
                    "P_MOVE.moving",
                    when=lambda s: bool(s.vars.get("moving")),
                    label="a task force picked (move_tf)",
                ),
                Go("P_MOVE.cleanup", label="the Attacker ends movement"),
            ),
        ),
        Step(
            "P_MOVE.moving",
            "Hex-by-hex movement",
            phase="P_MOVE",
            actor="attacker",
            prompt=_moving_prompt,
            actions=("enter_hex", "stop_move", *MAP_GM),
            reference="P1.2",
            requires=(
                Require(
                    "the moving task force must stop (stop_move)",
                    lambda s: "end the move with stop_move" if s.vars.get("moving") else None,
                ),
            ),
            next=(
                Go(
                    "P_MOVE.zoc",
                    when=lambda s: bool(s.vars.get("zoc")),
                    label="it entered a Defender's active zone of control",
                ),
                Go("P_MOVE.select_tf", label="the move ended (stop_move)"),
            ),
        ),
        Step(
            "P_MOVE.zoc",
            "Zone-of-control interrupt",
            phase="P_MOVE",
            actor="defender",
            prompt=zoc_prompt,
            actions=("zoc_detect", "counterattack"),
            rolls=("1d10 detection (5.3)",),
            reference="P1.3-P1.4",
            next=(
                Go(
                    "P_MOVE.after_counter",
                    call="G_START",
                    when=ground_combat.pending,
                    label="detected and counterattacked (counterattack)",
                ),
                Go("P_MOVE.moving", effect=lambda c: c.set_var("zoc", None), label="no (more) counterattack"),
            ),
        ),
        Step(
            "P_MOVE.after_counter",
            "After the counterattack",
            phase="P_MOVE",
            actor="attacker",
            auto=True,
            reference="P1.4",
            next=(
                Go(
                    "P_MOVE.select_tf",
                    when=mover_done,
                    effect=end_move_after_counter,
                    label="the mover retreated, is gone or has no MP left",
                ),
                Go("P_MOVE.moving", label="it carries on with the MP left"),
            ),
        ),
        Step(
            "P_MOVE.cleanup",
            "Defender's last counteractions",
            phase="P_MOVE",
            actor="defender",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('defender')}: spend any banked counteractions "
                f"({budget(s)[0] - budget(s)[1]} left) with counter_move or counterattack, then "
                "advance to the Combat Phase."
            ),
            actions=(*COUNTER_ACTIONS,),
            reference="P1.6",
            next=(
                Go("P_MOVE.cleanup", call="G_START", when=ground_combat.pending, label="counterattack"),
                Go(after),
            ),
        ),
    ]


# -- combat phase ------------------------------------------------------------------------------
def _declare_prompt(s: State) -> str:
    attacks = s.vars.get("attacks", [])
    listed = (
        "; ".join(
            f"{a['id']}: {_names(s, a['attackers'])} on "
            f"{_names(s, [a['target']]) if a.get('target') else 'hex ' + a.get('hex', '?')}"
            for a in attacks
        )
        or "none yet"
    )
    return (
        f"{s.vars.get('roles', {}).get('attacker')}: declare every attack (declare_attack), then advance. "
        f"Declared: {listed}."
    )


def _resolve_prompt(s: State) -> str:
    attacks = s.vars.get("attacks", [])
    if s.vars.get("special_advance"):
        return (
            "The attacker may advance into the emptied hex (advance_after_combat), or resolve the next one."
        )
    if not attacks:
        return "Every declared attack is resolved: advance."
    return (
        f"{s.vars.get('roles', {}).get('attacker')}: resolve the declared attacks in any order "
        f"(resolve_attack): {', '.join(a['id'] for a in attacks)}."
    )


def combat_phase_steps(after: str, bombard_next: str | None = None) -> list[Step]:
    def bombard_now(s: State) -> bool:
        return bool(s.vars.get("bombardment")) and int(s.clock.get("turn", 1)) >= int(
            s.options.get("bombardment_from_turn", 2)
        )

    steps = [
        Step(
            "P_COMBAT.detect_att",
            "Attacker's detection attempts",
            phase="P_COMBAT",
            actor="attacker",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('attacker')}: each of your task forces may try to "
                "detect one adjacent enemy task force (detect). Advance when done."
            ),
            actions=("detect", *MAP_GM),
            rolls=("1d10 per attempt (5.3)",),
            reference="P2.1",
            next=(Go("P_COMBAT.detect_def"),),
        ),
        Step(
            "P_COMBAT.detect_def",
            "Defender's detection attempts",
            phase="P_COMBAT",
            actor="defender",
            prompt=lambda s: (
                f"{s.vars.get('roles', {}).get('defender')}: your task forces may now try to "
                "detect (detect); those that tried during counteractions may not. Advance when done."
            ),
            actions=("detect", *MAP_GM),
            rolls=("1d10 per attempt (5.3)",),
            reference="P2.1",
            next=(Go("P_COMBAT.declare"),),
        ),
        Step(
            "P_COMBAT.declare",
            "Declare attacks",
            phase="P_COMBAT",
            actor="attacker",
            prompt=_declare_prompt,
            actions=("declare_attack", "cancel_attack", *MAP_GM),
            reference="P2.2",
            next=(Go("P_COMBAT.resolve"),),
        ),
        Step(
            "P_COMBAT.resolve",
            "Resolve attacks",
            phase="P_COMBAT",
            actor="attacker",
            prompt=_resolve_prompt,
            actions=("resolve_attack", "advance_after_combat"),
            reference="P2.3",
            rolls=("1d10 on the CRT", "1d10 saving roll per unit"),
            requires=(
                Require(
                    "every declared attack resolved",
                    lambda s: "resolve the remaining attacks" if s.vars.get("attacks") else None,
                ),
            ),
            next=(
                Go(
                    "P_COMBAT.resolve",
                    call="G_START",
                    when=ground_combat.pending,
                    label="an attack is resolved",
                ),
                *(
                    (
                        Go(
                            "P_COMBAT.bombard",
                            when=bombard_now,
                            effect=lambda c: c.set_var("special_advance", None),
                            label="Liberation bombardment",
                        ),
                    )
                    if bombard_next
                    else ()
                ),
                Go(after, effect=lambda c: c.set_var("special_advance", None)),
            ),
        ),
    ]
    if bombard_next:
        steps.append(
            Step(
                "P_COMBAT.bombard",
                "Orbital bombardment",
                phase="P_COMBAT",
                actor="TOG",
                prompt="TOG: roll the orbital bombardment (orbital_bombardment); a 1 knocks out a CW base.",
                actions=("orbital_bombardment",),
                rolls=("1d10: 1 knocks out a base",),
                reference="6.3, G40",
                requires=(
                    Require(
                        "bombardment rolled",
                        lambda s: (
                            None if s.vars.get("bombarded") == s.clock.get("turn") else "roll the bombardment"
                        ),
                    ),
                ),
                next=(Go(bombard_next),),
            )
        )
    return steps


# -- the combat sub-machine ----------------------------------------------------------------------
def _c(s: State) -> dict:
    return dict(s.vars.get("combat") or {})


def _combat_head(s: State) -> str:
    c = _c(s)
    if not c:
        return ""
    text = (
        f"{_names(s, c.get('attackers', []))} ({c.get('att_side')}) attack "
        f"{_names(s, [c.get('defender', '')])} "
        f"({c.get('def_side')}) in hex {c.get('hex')}"
    )
    if "A" in c:
        text += f": {ground_combat.odds_text(c)}"
    return text + ". "


def _support_available(s: State) -> bool:
    if s.vars.get("game") != "campaign" or _c(s).get("kind") == "independent":
        return False
    return any(u.data.get("gs_area") for u in s.units.values())


def _needs_shift(s: State) -> bool:
    c = _c(s)
    return bool(c.get("shifter")) and not c.get("shift_chosen")


def _finish(ctx: object) -> None:
    ground_combat.finish(ctx)  # type: ignore[arg-type]


def _compute(ctx: object) -> None:
    ground_combat.compute(ctx)  # type: ignore[arg-type]


def combat_sub_steps(support: bool = True) -> list[Step]:
    """The ground combat sub-machine; *support*: the campaign's naval ground-support step."""

    def retreats(s: State) -> bool:
        return bool(_c(s).get("retreats"))

    def advance_open(s: State) -> bool:
        return bool(_c(s).get("advance"))

    def shift_prompt(s: State) -> str:
        from rulesets.prefect.crt import COLUMNS

        c = _c(s)
        opts = [{-1: "left", 0: "none", 1: "right"}[o] for o in c.get("shift_options", [])]
        col = c.get("column", 0)
        return (
            _combat_head(s) + f"{c.get('shifter')} is undetected: choose the column before the roll "
            f"(choose_shift {'/'.join(opts)}; from {COLUMNS[col]})."
        )

    steps = [
        Step(
            "G_START",
            "Combat",
            phase="COMBAT",
            actor="combat_attacker",
            auto=True,
            reference="2.3",
            next=(
                Go(
                    "G_DETECT",
                    when=lambda s: bool(_c(s).get("mover_may_detect")),
                    label="counteraction combat",
                ),
                Go("G_SUPPORT", when=_support_available, label="campaign: naval ground support"),
                Go("G_TOTALS"),
            ),
        ),
        Step(
            "G_DETECT",
            "Mover's detection attempt",
            phase="COMBAT",
            actor="combat_defender",
            prompt=lambda s: (
                _combat_head(s)
                + (
                    "The task force attacked while moving may try to detect one "
                    "counterattacking task force (detect_counterattacker), or advance."
                )
            ),
            actions=("detect_counterattacker",),
            rolls=("1d10 detection (5.3)",),
            reference="P1.4",
            next=(Go("G_SUPPORT", when=_support_available), Go("G_TOTALS")),
        ),
        Step(
            "G_SUPPORT",
            "Naval ground support",
            phase="COMBAT",
            actor="combat_attacker",
            prompt=lambda s: (
                _combat_head(s)
                + (
                    "Both players may commit naval units from this area's Ground "
                    "Support box (add_ground_support). Advance when done."
                )
            ),
            actions=("add_ground_support",),
            reference="5.14.1",
            next=(Go("G_TOTALS"),),
        ),
        Step(
            "G_TOTALS",
            "Totals and odds",
            phase="COMBAT",
            actor="combat_attacker",
            auto=True,
            enter=_compute,
            reference="2.3 C1-C2, 5.4",
            next=(Go("G_SHIFT", when=_needs_shift, label="exactly one side undetected"), Go("G_ROLL")),
        ),
        Step(
            "G_SHIFT",
            "Detection shift",
            phase="COMBAT",
            actor="shifter",
            prompt=shift_prompt,
            actions=("choose_shift", "resolve_externally"),
            reference="2.3 C3, 5.5",
            requires=(
                Require(
                    "the undetected side chooses its shift",
                    lambda s: "choose the shift (choose_shift)" if _needs_shift(s) else None,
                ),
            ),
            next=(Go("G_ROLL"),),
        ),
        Step(
            "G_ROLL",
            "Roll and saving rolls",
            phase="COMBAT",
            actor="combat_attacker",
            prompt=lambda s: (
                _combat_head(s)
                + (
                    "Roll the combat (roll_combat), or enter a result fought in "
                    "Centurion (resolve_externally)."
                    if not _c(s).get("rolled")
                    else f"Result {_c(s).get('cell')}: advance."
                )
            ),
            actions=("roll_combat", "resolve_externally"),
            reference="2.3 C4-C7",
            rolls=("1d10 on the CRT (T4)", "1d10 saving roll per unit (5.7)"),
            requires=(
                Require("the combat rolled", lambda s: None if _c(s).get("rolled") else "roll the combat"),
            ),
            next=(
                Go("G_RETREAT", when=retreats, label="AR/DR/BT/CA: retreats"),
                Go("G_ADVANCE", when=advance_open, label="a hex was vacated"),
                Go(RETURN, effect=_finish),
            ),
        ),
        Step(
            "G_RETREAT",
            "Retreats",
            phase="COMBAT",
            actor="retreating",
            prompt=lambda s: (
                _combat_head(s)
                + "Retreat: "
                + "; ".join(f"{e['id']} from hex {e['from']}" for e in _c(s).get("retreats", []))
                + " (retreat TF HEX)."
            ),
            actions=("retreat",),
            reference="5.8",
            requires=(Require("every retreat made", lambda s: "make the retreats" if retreats(s) else None),),
            next=(Go("G_ADVANCE", when=advance_open), Go(RETURN, effect=_finish)),
        ),
        Step(
            "G_ADVANCE",
            "Advance",
            phase="COMBAT",
            actor="advancing",
            prompt=lambda s: (
                _combat_head(s)
                + (
                    f"{(_c(s).get('advance') or {}).get('side')} may move one task force "
                    "that took part into the vacated hex (advance_after_combat), or "
                    "advance to decline."
                )
            ),
            actions=("advance_after_combat",),
            reference="2.3 C6",
            next=(Go(RETURN, effect=_finish),),
        ),
    ]
    if support:
        return steps
    from dataclasses import replace

    return [
        replace(st, next=tuple(g for g in st.next if g.to != "G_SUPPORT"))
        for st in steps
        if st.id != "G_SUPPORT"
    ]


# -- supply, withdrawal, adjustment, tempo ----------------------------------------------------------
def supply_steps(after: str) -> list[Step]:
    acts = ("transfer_supply", "rearm", "reorganize", "rebuild", "build_base")

    def prompt(role: str) -> Callable[[State], str]:
        return lambda s: (
            f"{s.vars.get('roles', {}).get(role)}: supply, in this order - transfer SP between bases "
            "and HQs (transfer_supply), remove fatigue (rearm), reorganize disrupted units "
            "(reorganize), rebuild destroyed units at Legion bases (rebuild), build assigned bases "
            "(build_base). Advance when done."
        )

    return [
        Step(
            "P_SUPPLY.attacker",
            "Attacker's supply",
            phase="P_SUPPLY",
            actor="attacker",
            prompt=prompt("attacker"),
            actions=acts,
            reference="P3.1-P3.5",
            next=(Go("P_SUPPLY.defender"),),
        ),
        Step(
            "P_SUPPLY.defender",
            "Defender's supply",
            phase="P_SUPPLY",
            actor="defender",
            prompt=prompt("defender"),
            actions=acts,
            reference="P3.1-P3.5",
            next=(
                Go(
                    "P_SUPPLY.income",
                    when=lambda s: bool(s.vars.get("income")),
                    label="the scenario delivers SP",
                ),
                Go(after),
            ),
        ),
        Step(
            "P_SUPPLY.income",
            "Scenario supply delivery",
            phase="P_SUPPLY",
            actor="gm",
            prompt="Deliver the scenario's supply for this turn (scenario_supply): it arrives at the end of "
            "the "
            "Supply Phase, caps apply, and it cannot be moved this turn.",
            actions=("scenario_supply",),
            rolls=("1d10 orbital drop supply (T15, Liberation)",),
            reference="P3.6",
            requires=(Require("scenario supply delivered", income_done),),
            next=(Go(after),),
        ),
    ]


def withdraw_steps(after: str) -> list[Step]:
    return [
        Step(
            "P_WITHDRAW.loc",
            "Lines of communication",
            phase="P_WITHDRAW",
            actor="gm",
            prompt=lambda s: (
                "Check every disrupted unit's line of communication (check_lines); cut-off units are "
                "destroyed."
                if loose_disrupted(s)
                else "No disrupted unit on the map: advance."
            ),
            actions=("check_lines",),
            reference="P4.1",
            requires=(Require("lines checked", lines_checked),),
            next=(Go("P_WITHDRAW.move"),),
        ),
        Step(
            "P_WITHDRAW.move",
            "Withdrawal moves",
            phase="P_WITHDRAW",
            actor="both",
            prompt="Both players may move disrupted units up to 9 hexes (withdraw_unit; non-grav 1). "
            "Advance when done.",
            actions=("withdraw_unit",),
            reference="P4.2",
            next=(Go(after),),
        ),
    ]


def adjust_step(
    step_id: str,
    after: str,
    phase: str = "P_ADJUST",
    effect: Callable | None = None,
    extra: tuple[str, ...] = (),
) -> Step:
    def leave(ctx: object) -> None:
        from rulesets.prefect.ops import remove_empty_forces

        remove_empty_forces(ctx)  # type: ignore[arg-type]
        if effect:
            effect(ctx)

    return Step(
        step_id,
        "Task Force Adjustment",
        phase=phase,
        actor="both",
        prompt=(
            "Both players may exchange units between adjacent task forces (transfer_units), form new "
            "task forces next to an HQ or at a base (form_tf), place reinforcements due now "
            "(place_reinforcement) and assign bases to builders (assign_construction). Empty task "
            "forces are removed when you advance."
        ),
        actions=("transfer_units", "form_tf", "place_reinforcement", "assign_construction", *extra),
        reference="P5",
        requires=(Require("reinforcements placed", reinforcements_placed),),
        next=(Go(after, effect=leave),),
    )


def reinforcements_placed(s: State) -> str | None:
    board = Board(s)
    due = [
        u
        for u in s.units.values()
        if u.data.get("arrives") is not None
        and int(u.data["arrives"]) <= board.turn
        and u.data.get("place")
        and not u.location
    ]
    if not due:
        return None
    places = [c for c in board.cities().values() if c.get("controller") == due[0].side] or [
        b for b in board.bases(due[0].side) if board.base_class(b) == "GL" and b.location
    ]
    if not places:
        return None
    return f"place the {len(due)} reinforcement(s) due (place_reinforcement)"


def tempo_steps(step_id: str, phase: str, first: str, reference: str = "P6, 5.15") -> list[Step]:
    """The tempo step (next attacker, turn advance) and the end of the game, shared by the
    planetary, space and campaign machines."""
    return [
        Step(
            step_id,
            "Tempo",
            phase=phase,
            actor="gm",
            auto=True,
            reference=reference,
            next=(
                Go("END", when=last_turn, effect=tempo, label="the last turn is over"),
                Go(first, effect=tempo, label="next turn"),
            ),
        ),
        Step(
            "END",
            "Victory",
            phase="END",
            actor="gm",
            final=True,
            enter=victory,
            reference="2.8, T14",
            prompt=lambda s: f"The game is over: {(s.vars.get('outcome') or {}).get('result', '')}.",
        ),
    ]
