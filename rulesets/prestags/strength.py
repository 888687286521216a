"""Melee and fire strengths with exact fractions, in the order the rules apply them.

Pure functions over plain values: the actions build the inputs from the campaign (and the
GM's rulings about the map), the procedures from typed parameters. Every function returns
the strength and the lines that explain it, so a player can check each step.

Melee modifiers, in order (digest 4.9): bracket / dot value [3.36], [3.37]; terrain [7.6];
unit capability chart [5.39]; elevation (attack) [14.1]; panicked [13.0], flank facing
[16.21] and plotted move [23.11] (defence); the leader bonus, capped at the adjusted
strength of the non-leader units of that hex [10.0], [10.11]; and last the flank-attack
doubling of the attack total [7.51], [7.52].
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from campaign_tui.core.records import record
from rulesets.prestags.common import ftext


@record(frozen=True)
class Troop:
    """A non-leader unit taking part in a melee."""

    id: str
    label: str
    klass: str
    melee: int | None
    kind: str = "normal"  # normal, bracket, dot
    code: str = ""


@record
class DefenceHex:
    hex: str
    troops: list[Troop]
    leader_bonuses: list[Fraction] = field(default_factory=list)
    terrain_mult: Fraction = Fraction(1)
    terrain_name: str = ""
    # unit capability chart, per troop id: ("x", multiplier) or ("=", defence strength)
    capability: dict[str, tuple[str, Fraction]] = field(default_factory=dict)
    # halvings per troop id (panicked, flank, plotted to move), each with its reason
    halvings: dict[str, list[str]] = field(default_factory=dict)


@record(frozen=True)
class Attacker:
    id: str
    label: str
    klass: str
    melee: int
    code: str = ""
    terrain_mult: Fraction = Fraction(1)
    terrain_name: str = ""
    capability_mult: Fraction = Fraction(1)
    uphill: str = ""  # non-empty: the elevation halving applies, with its reason [14.11]


@record
class AttackGroup:
    """The attackers from one hex, with the bonuses of the friendly leaders stacked there."""

    hex: str
    attackers: list[Attacker]
    leader_bonuses: list[Fraction] = field(default_factory=list)


def _halve(value: Fraction, reasons: list[str], mode: str, lines: list[str], who: str) -> Fraction:
    if not reasons:
        return value
    if mode == "once":
        lines.append(f"  {who}: x1/2 ({'; '.join(reasons)}; halved once only)")
        return value / 2
    for reason in reasons:
        value /= 2
        lines.append(f"  {who}: x1/2 ({reason}) -> {ftext(value)}")
    return value


def troop_defence(
    t: Troop, beside_melee: bool, h: DefenceHex, halving: str = "multiply"
) -> tuple[Fraction, list[str]]:
    """One unit's melee defence strength before leaders [3.36], [3.37], [7.6], [5.39],
    [13.0], [16.21], [23.11]."""
    lines: list[str] = []
    if t.kind == "dot":
        value = Fraction(0) if beside_melee else Fraction(1)
        why = "beside a unit with a melee strength" if beside_melee else "no melee unit beside it"
        lines.append(f"  {t.label}: dot value {ftext(value)} ({why}) [3.36]")
    elif t.kind == "bracket":
        value = Fraction(t.melee or 0, 2)
        lines.append(f"  {t.label}: [{t.melee}] defends at {ftext(value)} [3.37]")
    else:
        value = Fraction(t.melee or 0)
        lines.append(f"  {t.label}: {ftext(value)}")
    cap = h.capability.get(t.id)
    if cap and cap[0] == "=":
        value = cap[1]
        lines.append(f"  {t.label}: unit capability chart: defends at {ftext(value)} [5.39]")
    if h.terrain_mult != 1:
        value *= h.terrain_mult
        lines.append(
            f"  {t.label}: terrain {h.terrain_name} x{ftext(h.terrain_mult)} -> {ftext(value)} [7.6]"
        )
    if cap and cap[0] == "x" and cap[1] != 1:
        value *= cap[1]
        lines.append(f"  {t.label}: unit capability chart x{ftext(cap[1])} -> {ftext(value)} [5.39]")
    value = _halve(value, h.halvings.get(t.id, []), halving, lines, t.label)
    return value, lines


def hex_defence(
    h: DefenceHex, lone_leader: Fraction = Fraction(1), n_leaders: int = 0, halving: str = "multiply"
) -> tuple[Fraction, list[str]]:
    """The combined melee defence of one hex [5.41], [7.12], with its leaders' bonus capped
    at the troops' adjusted strength [10.0], [10.11]. Leaders alone defend at the lone
    leader value each (G-9)."""
    lines = [f"defence of {h.hex}:"]
    if not h.troops:
        value = lone_leader * n_leaders
        lines.append(f"  {n_leaders} leader(s) alone: {ftext(lone_leader)} each -> {ftext(value)} (G-9)")
        return value, lines
    with_melee = [t for t in h.troops if t.kind != "dot" and (t.melee or 0) > 0]
    total = Fraction(0)
    for t in h.troops:
        beside = any(o.id != t.id for o in with_melee)
        v, more = troop_defence(t, beside, h, halving)
        lines.extend(more)
        total += v
    lines.append(f"  troops {ftext(total)}")
    if h.leader_bonuses:
        bonus = sum(h.leader_bonuses, Fraction(0))
        added = min(bonus, total)
        capped = " (capped at the troops' strength)" if added < bonus else ""
        lines.append(f"  leader bonus +{ftext(added)}{capped} [10.11]")
        total += added
    lines.append(f"  = {ftext(total)}")
    return total, lines


def group_attack(g: AttackGroup) -> tuple[Fraction, list[str]]:
    """The attack of the units from one hex: terrain, capability, elevation halving per unit,
    then the stacked leaders' bonus capped at that adjusted strength [10.0], [14.13]."""
    lines = [f"attack from {g.hex}:"]
    total = Fraction(0)
    for a in g.attackers:
        value = Fraction(a.melee)
        text = f"  {a.label}: {ftext(value)}"
        if a.terrain_mult != 1:
            value *= a.terrain_mult
            text += f", terrain {a.terrain_name} x{ftext(a.terrain_mult)} -> {ftext(value)}"
        if a.capability_mult != 1:
            value *= a.capability_mult
            text += f", capability x{ftext(a.capability_mult)} -> {ftext(value)}"
        if a.uphill:
            value /= 2
            text += f", elevation x1/2 ({a.uphill}) -> {ftext(value)} [14.1]"
        lines.append(text)
        total += value
    if g.leader_bonuses:
        bonus = sum(g.leader_bonuses, Fraction(0))
        added = min(bonus, total)
        capped = " (capped at the units' strength)" if added < bonus else ""
        lines.append(f"  leader bonus +{ftext(added)}{capped} [10.11]")
        total += added
    lines.append(f"  = {ftext(total)}")
    return total, lines


def attack_total(groups: list[AttackGroup], flank: bool) -> tuple[Fraction, list[str]]:
    """All attacking hexes combined [7.21]; a flank attack doubles the total last [7.52]."""
    lines: list[str] = []
    total = Fraction(0)
    for g in groups:
        v, more = group_attack(g)
        lines.extend(more)
        total += v
    if flank:
        lines.append(f"flank attack: {ftext(total)} x2 = {ftext(total * 2)} [7.51], [7.52]")
        total *= 2
    lines.append(f"attack total {ftext(total)}")
    return total, lines


def flank_covered(positions: set[int] | list[int]) -> bool:
    """The flank-attack ring test [7.51]: every one of the six hexes around the defender
    holds an attacking unit or is next to one (positions 0-5 around the hex)."""
    p = {int(x) % 6 for x in positions}
    covered = {(i + d) % 6 for i in p for d in (-1, 0, 1)}
    return len(covered) == 6


def in_front_arc(facing: int, side: int) -> bool:
    """Facing [16.0]: is hexside *side* one of the three front hexsides of a unit facing
    hexside *facing*?"""
    return (side - facing) % 6 in (0, 1, 5)


def elevation_halves(klass: str, attacker: str, defender: str, ground_to_hilltop: bool = True) -> str:
    """[14.11], [14.21], G-23: the reason a Class A/B attack is halved, or ''."""
    if klass not in ("A", "B"):
        return ""
    if attacker == "ground" and defender == "slope":
        return "ground level attacking a slope [14.11]"
    if attacker == "slope" and defender == "hilltop":
        return "slope attacking a hilltop [14.11]"
    if attacker == "slope" and defender == "slope":
        return "slope attacking a slope [14.21]"
    if ground_to_hilltop and attacker == "ground" and defender == "hilltop":
        return "ground level attacking a hilltop (G-23)"
    return ""


def fire_total(strengths: list[tuple[str, Fraction]]) -> tuple[Fraction, list[str]]:
    """Fire strengths are always combined [6.21]; nothing else modifies them."""
    total = sum((s for _, s in strengths), Fraction(0))
    parts = " + ".join(f"{label} {ftext(s)}" for label, s in strengths)
    return total, [f"fire {parts} = {ftext(total)} [6.21]"]
