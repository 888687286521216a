"""Saving rolls: who rolls, against what target, and what a pass or failure means.

Ground combat (5.7), space combat (5.13.6), bases (5.13.7) and naval units supporting a
ground combat (5.14.1, 5.14.2). Pure functions over plain values.
"""

from __future__ import annotations

from campaign_tui.core.records import record

UNHARMED, DISRUPTED, DESTROYED = "unharmed", "disrupted", "destroyed"


def laf_modifier(option: str) -> int:
    """The LAF saving-roll modifier chosen by option laf_save_mod (G6)."""
    return int(option)


def ground_must_save(
    role: str, special: str, only_combat_unit: bool, side_broken: bool, disrupted: bool = False
) -> bool:
    """Does a ground unit make a saving roll after a combat (5.7)?

    Combat units always do, except Artillery, which saves only when its side suffered a
    BT/CA or when it is its TF's only combat unit (G47). Support units save only when their
    side suffered a BT/CA. A disrupted unit that is part of the combat saves like a
    support unit.
    """
    if disrupted:
        return side_broken
    if role == "support":
        return side_broken
    if special == "artillery":
        return side_broken or only_combat_unit
    return True


def ground_target(
    defense: int, fatigue: int, crt_mod: int, laf: int = 0, engineer: int = 0, air_defense: int = 0
) -> list[tuple[str, int]]:
    """The parts of a ground saving-roll target (5.7): defense - fatigue + CRT modifier
    + LAF modifier + Combat Engineer modifier (and - Air/Space Defense for fighters)."""
    parts: list[tuple[str, int]] = [("defense", defense)]
    if fatigue:
        parts.append(("fatigue", -fatigue))
    parts.append(("CRT", crt_mod))
    if laf:
        parts.append(("moved in LAF", laf))
    if engineer:
        parts.append(("Combat Engineer", engineer))
    if air_defense:
        parts.append(("Air/Space Defense", -air_defense))
    return parts


def ground_outcome(passed: bool, side_broken: bool, nongrav: bool, disrupted: bool) -> str:
    """What a ground save means (5.7, 5.12): on a BT/CA against the unit's side a pass
    disrupts and a failure destroys; otherwise a pass leaves it unharmed and a failure
    disrupts it, or destroys it if it is non-grav or already disrupted."""
    if side_broken:
        return DISRUPTED if passed else DESTROYED
    if passed:
        return UNHARMED
    return DESTROYED if (nongrav or disrupted) else DISRUPTED


def space_mission_mods(
    own_mission: str | None, enemy_mission: str | None, combat_attacker: bool, enemy_disrupted: bool
) -> list[tuple[str, int]]:
    """Mission modifiers to a naval side's save targets (5.13.6, T12).

    +2 for a unit on an HS Attack and +2 for the opponent of an HS Attack; +2 for the side
    attacking a Supply, Ground Support, Orbital Drop or Withdrawal force; +2 for a side
    attacking disrupted units or bases.
    """
    parts: list[tuple[str, int]] = []
    if own_mission == "hs_attack":
        parts.append(("own HS Attack", 2))
    if enemy_mission == "hs_attack":
        parts.append(("against an HS Attack", 2))
    if combat_attacker and enemy_mission in ("supply", "ground_support", "orbital_drop", "withdrawal"):
        parts.append((f"attacking a {enemy_mission.replace('_', ' ')} force", 2))
    if combat_attacker and enemy_disrupted:
        parts.append(("attacking disrupted units", 2))
    return parts


def space_outcome(passed: bool, side_broken: bool, disrupted: bool) -> str:
    """What a ship's or fighter's save means (5.13.6): on a BT/CA against its side it is
    disrupted and the roll decides destruction; otherwise a failure disrupts it, or destroys
    it if it was already disrupted."""
    if side_broken:
        return DISRUPTED if passed else DESTROYED
    if passed:
        return UNHARMED
    return DESTROYED if disrupted else DISRUPTED


@record(frozen=True)
class BaseSave:
    """Whether a base rolls, and what its pass and failure mean."""

    rolls: bool
    on_pass: str
    on_fail: str
    reason: str


def orbital_base_save(friendly_naval_in_combat: bool, side_broken: bool, disrupted: bool) -> BaseSave:
    """An orbital base after a segment combat (5.13.7).

    With friendly ships or fighters in the combat it rolls only on a BT/CA against its
    side, to avoid disruption. Alone it saves normally (failure disrupts), and on a BT/CA it
    is disrupted at once and rolls against destruction. A disrupted base that is attacked
    rolls against destruction.
    """
    if disrupted:
        return BaseSave(True, DISRUPTED, DESTROYED, "a disrupted base saves against destruction")
    if friendly_naval_in_combat:
        if side_broken:
            return BaseSave(
                True, UNHARMED, DISRUPTED, "BT/CA with friendly ships present: saves against disruption"
            )
        return BaseSave(False, UNHARMED, UNHARMED, "friendly ships or fighters took part: no save")
    if side_broken:
        return BaseSave(True, DISRUPTED, DESTROYED, "alone on a BT/CA: disrupted, saves against destruction")
    return BaseSave(True, UNHARMED, DISRUPTED, "alone: saves against disruption")


def support_starship_save(enemy_air_defense: int, natural: int) -> tuple[bool, bool]:
    """A starship supporting a ground combat (5.14.1): (rolls?, passed?). It rolls only when
    the enemy has an air-defense unit, and then fails only on a natural 10."""
    if enemy_air_defense <= 0:
        return False, True
    return True, natural != 10
