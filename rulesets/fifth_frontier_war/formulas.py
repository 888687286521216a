"""Plain arithmetic of the rules, with no dice and no state (digest section 5).

These helpers are used by the procedures (which add dice, table lookups and explanations)
and by the state checks. Numbers that may be fractional (mercenary halving, guerrilla
strengths, SDB bombardment) are exact :class:`~fractions.Fraction` values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

Number = int | Fraction

SPACE_COLUMNS = (1, 3, 6, 12, 18, 24, 30, 36, 42, 48)
SDB_COLUMNS = (10, 30, 60, 120, 180, 240, 300, 360, 420, 480)
T2_ROWS = (1, 2, 5, 10, 12, 15, 20, 50, 100, 120, 150, 200, 500, 1000, 1200, 1500, 2000, 5000)
ARMOR_TYPES = ("armored_infantry", "armored_cavalry", "tank")
SIDES = ("imperial", "zhodani")
NAVY_SIDE = {
    "imperial": "imperial",
    "zhodani": "zhodani",
    "sword_worlds": "zhodani",
    "vargr": "zhodani",
    "ine_givar": "zhodani",
}
LEVELS = (
    "Imperial decisive victory",
    "Imperial major victory",
    "Imperial marginal victory",
    "stalemate",
    "Zhodani marginal victory",
    "Zhodani major victory",
    "Zhodani decisive victory",
)


def frac(value: object) -> Fraction:
    """Read an exact number: 7, 7.5, "15/2", "7½"."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(str(value))
    text = str(value).strip().replace("½", ".5")
    if text.startswith(".5"):
        text = "0" + text
    return Fraction(text)


def fmt(value: Number | float) -> str:
    """7, 7.5, 1/3 -> a short text."""
    f = frac(value)
    if f.denominator == 1:
        return str(f.numerator)
    if (f * 2).denominator == 1:
        return f"{float(f):g}"
    if (f * 100).denominator == 1:
        return f"{float(f):g}"
    return f"{f.numerator}/{f.denominator}"


def truthy(value: object) -> bool:
    """A yes/no input as typed (yes, y, true, on, 1) or already a bool."""
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("1", "true", "yes", "y", "on")


def other(side: str) -> str:
    return "zhodani" if side == "imperial" else "imperial"


def round_half_up(value: Fraction) -> int:
    return int((value * 2 + 1) // 2)


def current_strength(full: Number, loss: int) -> int:
    """5.11 / T6: full x (100 - loss) / 100, rounded half up; 0 at 100% or more."""
    if loss >= 100:
        return 0
    return round_half_up(frac(full) * (100 - loss) / 100)


def exact_strength(full: Number, loss: int) -> Fraction:
    """Current strength without rounding (G-49 guerrillas)."""
    if loss >= 100:
        return Fraction(0)
    return frac(full) * (100 - loss) / 100


def add_loss(loss: int, result: int) -> int:
    """Losses add up against full strength; 100 means eliminated (stored capped at 100)."""
    return min(100, int(loss) + int(result))


def split(total: Number, top: int = 48) -> list[Fraction]:
    """5.2: a total above the top column splits into tops plus the remainder."""
    t = frac(total)
    if t <= 0:
        return []
    parts = [Fraction(top)] * int(t // top)
    rest = t - top * len(parts)
    if rest > 0:
        parts.append(rest)
    return parts


def column(total: Number, columns: Sequence[int] = SPACE_COLUMNS) -> int | None:
    """The largest column not above the total, or None (no attack)."""
    t = frac(total)
    eligible = [c for c in columns if c <= t]
    return eligible[-1] if eligible else None


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def tactical_modifiers(tf_a: int, tf_b: int) -> tuple[int, int]:
    """5.5: the higher tactical factor gets +1 on every attack roll, the lower -1."""
    if tf_a > tf_b:
        return 1, -1
    if tf_b > tf_a:
        return -1, 1
    return 0, 0


def side_quality(regular_attack: Number, total_attack: Number, zero_attack: str = "standard") -> str:
    """5.6: standard when the side's regular squadrons give at least half the total attack."""
    total = frac(total_attack)
    if total == 0:
        return zero_attack
    return "standard" if frac(regular_attack) * 2 >= total else "low"


def quality_extra_attacks(col_index: int, shift: int) -> tuple[int, int | None]:
    """5.6: a shift past 48 resolves as 48 plus an attack at 1 (one past) or 3 (two past).

    Returns (the shifted column index, capped at 48, and the extra column or None).
    """
    target = col_index + shift
    last = len(SPACE_COLUMNS) - 1
    if target <= last:
        return target, None
    beyond = target - last
    return last, SPACE_COLUMNS[min(beyond, 2) - 1]


def capacity(sq_type: str, reduced: bool, defense: int) -> int:
    """T13: troop capacity in current troop factors."""
    if sq_type == "A":
        return 300 if reduced else 600
    if sq_type == "B":
        return 10 if reduced else 20
    if sq_type == "C":
        return int(defense)
    return 0


def cut_to_capacity(
    units: Sequence[tuple[str, Number, int]], cap: Number, order: Sequence[str] | None = None
) -> dict[str, int]:
    """5.12 / G-36: carried troops cut to a reduced carrier's capacity in 10% steps.

    *units* are (id, full factor, loss %). Units are taken in *order* (default: the
    largest current strength first); each takes the smallest 10%-step increase that makes
    the total fit, or is eliminated and the next one is cut. Returns {id: new loss %}.
    """
    original = {uid: loss for uid, _, loss in units}
    losses = dict(original)
    fulls = {uid: full for uid, full, _ in units}

    def total() -> int:
        return sum(current_strength(fulls[u], losses[u]) for u in losses)

    seq = list(order) if order else sorted(losses, key=lambda u: (-current_strength(fulls[u], losses[u]), u))
    for uid in seq:
        while total() > cap and losses[uid] < 100:
            losses[uid] = min(100, losses[uid] + 10)
        if total() <= cap:
            break
    return {u: v for u, v in losses.items() if v != original[u]}


def combat_strength(
    current: Number,
    armor: bool = False,
    elite: bool = False,
    mercenary: bool = False,
    loss: int = 0,
    firing: bool = True,
    doubling: str = "fire_and_defend",
    mercenary_rule: str = "fire_exact",
) -> Fraction:
    """5.10: surface-combat strength. Armor x2, elite x2 (both: x4); a mercenary over 50%
    losses is halved when firing, keeping the fraction (G-16, G-17 options)."""
    value = frac(current)
    if firing or doubling == "fire_and_defend":
        if armor:
            value *= 2
        if elite:
            value *= 2
    if mercenary and loss > 50:
        if mercenary_rule == "fire_and_defend_truncated":
            value = Fraction(int(value / 2))
        elif firing:
            value = value / 2
    return value


def garrison_needed(db_full: Number) -> Fraction:
    """5.17: 1% of the full defense-battalion factor, exact (not rounded down)."""
    return frac(db_full) / 100


def garrison_holds(garrison: Number, db_full: Number, units: int) -> bool:
    """A world with battalions needs troops >= 1% of them; without, any troop unit."""
    if frac(db_full) == 0:
        return units > 0
    return frac(garrison) >= garrison_needed(db_full)


def guerrilla_full(db_full: Number, mode: str = "exact") -> Fraction:
    """5.19 / G-49: 10% of the world's full defense-battalion factor."""
    tenth = frac(db_full) / 10
    if mode == "floor_min1":
        return Fraction(max(1, int(tenth)))
    return tenth


def guerrilla_current(db_full: Number, loss: int, mode: str = "exact") -> Fraction:
    full = guerrilla_full(db_full, mode)
    if mode == "floor_min1":
        return Fraction(current_strength(full, loss))
    return exact_strength(full, loss)


def guerrilla_recovery(loss: int, covert: bool) -> int:
    """5.19, step 4B: a unit covert at the start of the step recovers 10 points."""
    if not covert or loss >= 100:
        return loss
    return max(0, loss - 10)


def troop_rebuild_cost(full: Number, loss: int, armor: bool, to_loss: int = 0) -> int:
    """5.20: (new current - current) factors, x2 for armor."""
    gain = current_strength(full, to_loss) - current_strength(full, loss)
    return max(0, gain) * (2 if armor else 1)


def troop_replace_cost(full: Number, armor: bool) -> int:
    return int(frac(full)) * (2 if armor else 1)


def box_jump_cost(entry: str, dest: str, dist: int) -> int:
    """5.13 / T22: leaving a box costs 1 + hexes from the entry hex (and exiting the reverse)."""
    return 1 + dist


def vp_for_world(tl: int, capital: bool, relation: str) -> Fraction:
    """5.22: enemy world TL (x2 for a capital); independent world TL/2; own world 0."""
    if relation == "enemy":
        return Fraction(2 * tl if capital else tl)
    if relation == "independent":
        return Fraction(tl, 2)
    return Fraction(0)


def victory_d(d: Number, mode: str = "truncate") -> int:
    """G-28: truncate toward zero (default) or read raw as pmcray/ffw does (= ceiling)."""
    f = frac(d)
    if f.denominator == 1:
        return int(f)
    if mode == "raw":
        return -int(-f // 1)
    return int(f)


def level_index(level: str) -> int:
    """Position on the ladder Imperial decisive (0) .. Zhodani decisive (6); automatic -> decisive."""
    text = level.replace("automatic", "decisive")
    return LEVELS.index(text)


def armistice_level(level: str, turn: int, unilateral: bool) -> str:
    """5.22: a Zhodani unilateral armistice shifts 2 levels (turns 26-51) or 1 (52+) toward
    the Imperium; shifts stop at Imperial decisive (G-29). Mutual: no shift."""
    index = level_index(level)
    if unilateral:
        if turn < 26:
            raise ValueError("a unilateral armistice is allowed only from the end of turn 26")
        index -= 2 if turn <= 51 else 1
    return LEVELS[max(0, index)]


def sum_frac(values: Iterable[Number]) -> Fraction:
    total = Fraction(0)
    for v in values:
        total += frac(v)
    return total
