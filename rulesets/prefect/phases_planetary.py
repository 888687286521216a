"""The planetary game's phase machine (digest 2.1-2.3, 2.9)."""

from __future__ import annotations

from campaign_tui.core.machine import ClockLevel, Machine
from rulesets.prefect.phases_ground import (
    adjust_step,
    combat_phase_steps,
    combat_sub_steps,
    movement_steps,
    setup_steps,
    supply_steps,
    tempo_steps,
    withdraw_steps,
)

PHASES = {
    "P_SETUP": "Set-up",
    "P_MOVE": "Movement Phase",
    "P_COMBAT": "Combat Phase",
    "COMBAT": "Ground combat",
    "P_SUPPLY": "Supply Phase",
    "P_WITHDRAW": "Withdrawal Phase",
    "P_ADJUST": "Task Force Adjustment Phase",
    "P_TEMPO": "Tempo Phase",
    "END": "End of the game",
}
ANYTIME = ("map_hex", "import_map", "register_city")


def clock_text(clock: dict[str, int]) -> str:
    """'Turn 3 (Day 2, AM)': each turn is 12 hours (1.3)."""
    turn = int(clock.get("turn", 1))
    return f"Turn {turn} (Day {(turn + 1) // 2}, {'AM' if turn % 2 else 'PM'})"


def build() -> Machine:
    steps = [
        *setup_steps("P_MOVE.select_tf"),
        *movement_steps("P_COMBAT.detect_att"),
        *combat_phase_steps("P_SUPPLY.attacker", bombard_next="P_SUPPLY.attacker"),
        *combat_sub_steps(support=False),
        *supply_steps("P_WITHDRAW.loc"),
        *withdraw_steps("P_ADJUST"),
        adjust_step("P_ADJUST", "P_TEMPO"),
        *tempo_steps("P_TEMPO", "P_TEMPO", "P_MOVE.select_tf"),
    ]
    return Machine.build(
        "prefect.planetary",
        "Planetary game",
        steps,
        start="P_SETUP.arrange",
        clock=(ClockLevel("turn", "Turn", 1),),
        phases=PHASES,
        anytime=ANYTIME,
        subs={"GROUND_COMBAT": "G_START"},
        format_clock=clock_text,
        description="Ground war on Ku Crassus: interleaved movement and counteractions, detection, combat "
        "with a saving roll for every unit, supply, withdrawal, task-force adjustment and tempo.",
    )
