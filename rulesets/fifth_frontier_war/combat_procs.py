"""The combat procedures (digest 5.2-5.11) over plain values and a resolver.

Each rolls its own dice through the resolver (so in a campaign every roll lands in the die
log), looks the tables up by their digest names (T1-T8) and explains every step: the split
into several attacks, the column, each modifier and the result.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from campaign_tui.core.procedures import Calc, Resolver
from campaign_tui.core.records import record
from rulesets.fifth_frontier_war.formulas import (
    SDB_COLUMNS,
    SPACE_COLUMNS,
    T2_ROWS,
    Number,
    clamp,
    column,
    current_strength,
    fmt,
    frac,
    quality_extra_attacks,
    split,
)


def _opt(r: Resolver, name: str, default: Any) -> Any:
    return (getattr(r, "options", None) or {}).get(name, default)


def _record(r: Resolver, roll: Any, text: str, detail: list[str]) -> None:
    fn = getattr(r, "result", None)
    if fn is not None:
        fn(roll, text, detail)


def lookup(r: Resolver, table: str, shifts: dict[str, int] | None = None, **inputs: Any) -> Any:
    """A table lookup; every resolver (campaign or calc) explains it once itself."""
    return r.lookup(table, shifts=shifts, **inputs)


def tl_modifier(r: Resolver, tl: int) -> int:
    """T7: the die modifier for a tech level."""
    return int(lookup(r, "T7", tl=int(tl)).value)


def atmosphere_modifier(r: Resolver, atmosphere: str) -> int:
    """T8: the 2d6 modifier for surface attacks on a world."""
    return int(lookup(r, "T8", atmosphere=atmosphere).value)


# -- 5.2 / 5.3 space combat -------------------------------------------------------------------
def _t1_attack(
    r: Resolver,
    factors: Fraction,
    col_shift: int,
    mod: int,
    label: str,
    side: str | None,
    extra_col: int | None = None,
) -> int:
    what = (
        f"{label}space fire on {fmt(factors)} factors"
        if extra_col is None
        else f"{label}extra attack on the {extra_col} column (quality shift past 48)"
    )
    mods = [("tactical", mod)] if mod else []
    roll = r.roll("1d6", what, modifiers=mods, table="T1", side=side)
    modified = clamp(roll.natural + mod, 1, 6)
    if roll.natural + mod != modified:
        r.explain(f"{what}: roll {roll.natural}{mod:+d} counts as {modified} (rolls stay within 1..6)")
    if extra_col is not None:
        look = lookup(r, "T1", roll=modified, attack=extra_col)
    else:
        look = lookup(
            r, "T1", roll=modified, attack=factors, shifts={"attack": col_shift} if col_shift else None
        )
    value = int(look.value or 0)
    _record(r, roll, f"{value} defense factors", look.explanation)
    return value


def space_fire(
    r: Resolver,
    attack: Number,
    tactical_mod: int = 0,
    quality_shift: int = 0,
    shift_part: int = 0,
    side: str | None = None,
    label: str = "",
) -> Calc:
    """5.2-5.3: one side's fire in a space-combat round.

    The total attack splits into 48s and a remainder; each part rolls its own 1d6, adds the
    tactical modifier (clamped to 1..6) and reads T1 on the largest column not above it. A
    quality shift (optional rule) moves one part's column right; past 48 it becomes an
    extra attack at 1 or 3. The results add up to the defense factors the enemy loses.
    """
    prefix = f"{label}: " if label else ""
    parts = split(attack, 48)
    if not parts:
        r.explain(f"{prefix}total attack {fmt(attack)}: no column at or below it, no fire")
        return Calc(0, f"{prefix}no fire (attack {fmt(attack)})")
    if label and len(parts) == 1:
        # name the firing side before its table lines, so they never read as the other side's
        r.explain(f"{prefix}fires with a total attack of {fmt(attack)}")
    if len(parts) > 1:
        r.explain(
            f"{prefix}total attack {fmt(attack)} splits into "
            + " + ".join(fmt(p) for p in parts)
            + f": {len(parts)} attacks, each with its own roll"
        )
    total = 0
    for i, part in enumerate(parts):
        col = column(part)
        if col is None:
            r.explain(f"{prefix}part of {fmt(part)} factors is below the 1 column: no attack")
            continue
        shift = quality_shift if (quality_shift and i == shift_part) else 0
        index = SPACE_COLUMNS.index(col)
        new_index, extra = quality_extra_attacks(index, shift)
        if shift:
            r.explain(
                f"{prefix}quality shift +{shift} on the {fmt(part)}-factor attack: column {col} -> "
                f"{SPACE_COLUMNS[new_index]}" + (f" plus an attack on the {extra} column" if extra else "")
            )
        total += _t1_attack(r, part, new_index - index, tactical_mod, prefix, side)
        if extra is not None:
            total += _t1_attack(r, part, 0, tactical_mod, prefix, side, extra_col=extra)
    r.explain(f"{prefix}battle damage {total} defense factors")
    return Calc(total, f"{prefix}{total} defense factors of damage")


# -- 5.4 damage allocation --------------------------------------------------------------------
@record(frozen=True)
class Hull:
    """A squadron as the allocation sees it."""

    id: str
    defense: int  # current face's defense factor
    reduced_defense: int | None  # the back face's defense factor (None: no back face)
    reduced: bool = False

    def options(self) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = [("none", 0)]
        if not self.reduced and self.reduced_defense is not None:
            out.append(("reduce", self.defense - self.reduced_defense))
        out.append(("eliminate", self.defense))
        return out


def minimal_allocation(result: int, hulls: list[Hull]) -> dict[str, str]:
    """5.4: the smallest loss of defense factors that is at least *result*.

    Reducing a full squadron with a back face loses full - reduced DF; eliminating loses its
    current DF. Ties: fewer eliminations, then fewer squadrons touched. If even losing every
    squadron is not enough, every squadron is eliminated. Returns {id: reduce|eliminate}.
    """
    if result <= 0:
        return {}
    if sum(h.defense for h in hulls) <= result:
        return {h.id: "eliminate" for h in hulls}
    cap = result + max((h.defense for h in hulls), default=0)
    # best[sum] = (eliminations, touched, choices)
    best: dict[int, tuple[int, int, tuple[tuple[str, str], ...]]] = {0: (0, 0, ())}
    for h in hulls:
        nxt: dict[int, tuple[int, int, tuple[tuple[str, str], ...]]] = {}
        for s, (el, touched, choice) in best.items():
            for op, loss in h.options():
                ns = min(cap, s + loss)
                cand = (
                    el + (op == "eliminate"),
                    touched + (op != "none"),
                    choice + (((h.id, op),) if op != "none" else ()),
                )
                if ns not in nxt or cand[:2] < nxt[ns][:2]:
                    nxt[ns] = cand
        best = nxt
    enough = sorted(s for s in best if s >= result)
    chosen = best[enough[0]]
    return dict(chosen[2])


def allocation_loss(hulls: list[Hull], choice: dict[str, str]) -> int:
    by_id = {h.id: h for h in hulls}
    total = 0
    for sid, op in choice.items():
        h = by_id[sid]
        if op == "reduce":
            if h.reduced or h.reduced_defense is None:
                raise ValueError(f"{sid} cannot be reduced (already reduced or no back face)")
            total += h.defense - h.reduced_defense
        elif op == "eliminate":
            total += h.defense
        else:
            raise ValueError(f"{op!r}: use reduce or eliminate")
    return total


def check_allocation(result: int, hulls: list[Hull], choice: dict[str, str]) -> str | None:
    """None when *choice* removes at least *result* defense factors (or every squadron)."""
    try:
        lost = allocation_loss(hulls, choice)
    except ValueError as exc:
        return str(exc)
    if lost >= result:
        return None
    if all(choice.get(h.id) == "eliminate" for h in hulls):
        return None
    return f"only {lost} defense factors removed; at least {result} are needed (or lose every squadron)"


# -- 5.7 squadrons against SDBs ---------------------------------------------------------------
def t2_row(sdb_full: Number, rule: str = "largest_at_most") -> int:
    """G-13: the T2 row for an SDB full strength that is not a row label."""
    full = frac(sdb_full)
    if rule == "next_larger":
        for row in T2_ROWS:
            if row >= full:
                return row
        return T2_ROWS[-1]
    rows = [row for row in T2_ROWS if row <= full]
    return rows[-1] if rows else T2_ROWS[0]


def squadrons_vs_sdb(
    r: Resolver,
    bombard: Number,
    sdb_full: int,
    sdb_tl: int,
    passive: bool = False,
    side: str | None = None,
    label: str = "",
) -> Calc:
    """5.7 (T2): squadrons' bombardment against an SDB unit.

    Column: the bombardment (48s and a remainder). Row: the SDBs' FULL strength. Each part
    rolls 1d6 - half the SDB tech level (rounded down) - 3 if the SDBs are passive; a positive
    result counts up the column (toward smaller rows), a negative one down. Past row 1 the
    count stops; past the 5K row there is no effect. Percentages add up.
    """
    prefix = f"{label}: " if label else ""
    parts = split(bombard, 48)
    if not parts:
        r.explain(f"{prefix}bombardment {fmt(bombard)}: no attack")
        return Calc(0, f"{prefix}no attack")
    row = t2_row(sdb_full, _opt(r, "sdb_row", "largest_at_most"))
    if row != sdb_full:
        r.explain(f"{prefix}SDB full strength {sdb_full} is not a row: using row {row} (G-13)")
    counting = _opt(r, "t2_counting", "column")
    half = int(sdb_tl) // 2
    pct = 0
    for part in parts:
        if column(part) is None:
            r.explain(f"{prefix}part of {fmt(part)} bombardment is below the 1 column: no attack")
            continue
        mods = [("half the SDB tech level", -half)]
        if passive:
            mods.append(("passive SDBs", -3))
        roll = r.roll(
            "1d6",
            f"{prefix}squadrons attack the SDBs ({fmt(part)} bombardment)",
            modifiers=mods,
            table="T2",
            side=side,
        )
        m = roll.natural - half - (3 if passive else 0)
        r.explain(f"{prefix}modified roll {roll.natural} - {half}" + (" - 3" if passive else "") + f" = {m}")
        if counting == "row":
            look = lookup(r, "T2", sdb=row, bombard=part, shifts={"bombard": m} if m else None)
        else:
            look = lookup(r, "T2", sdb=row, bombard=part, shifts={"sdb": -m} if m else None)
        value = int(look.value or 0)
        _record(r, roll, f"{value}% SDB losses" if value else "no effect", look.explanation)
        pct += value
    r.explain(f"{prefix}SDB losses this round {pct}%")
    return Calc(pct, f"{prefix}{pct}% SDB losses")


# -- 5.8 SDBs firing on squadrons -------------------------------------------------------------
def sdb_fire(r: Resolver, sdb_current: Number, sdb_tl: int, side: str | None = None, label: str = "") -> Calc:
    """5.8 (T3): an active SDB unit fires on squadrons with its current strength (480s and a
    remainder); each part rolls 1d6 + the SDBs' tech-level modifier (T7)."""
    prefix = f"{label}: " if label else ""
    parts = split(sdb_current, 480)
    below = _opt(r, "sdb_below_10", "no_fire")
    tlm = tl_modifier(r, sdb_tl)
    damage = 0
    fired = False
    for part in parts:
        col = column(part, SDB_COLUMNS)
        if col is None:
            if below != "first_column":
                r.explain(f"{prefix}SDB strength {fmt(part)} is below the 10 column: no fire (G-12)")
                continue
            r.explain(f"{prefix}SDB strength {fmt(part)} fires on the 10 column (G-12 option)")
            part = Fraction(10)
        fired = True
        roll = r.roll(
            "1d6",
            f"{prefix}SDBs fire on the squadrons ({fmt(part)} strength)",
            modifiers=[("SDB tech level", tlm)] if tlm else [],
            table="T3",
            side=side,
        )
        look = lookup(r, "T3", roll=roll.natural + tlm, sdb=part)
        value = int(look.value or 0)
        _record(r, roll, f"{value} defense factors", look.explanation)
        damage += value
    if not parts:
        r.explain(f"{prefix}no SDBs left: no fire")
    if fired:
        r.explain(f"{prefix}SDB fire: {damage} defense factors of battle damage")
    return Calc(damage, f"{prefix}{damage} defense factors of damage")


# -- 5.9 surface bombing ----------------------------------------------------------------------
def sdb_bombardment(sdb_current: Number, rule: str = "keep") -> Fraction:
    """G-15: an SDB unit bombs with a tenth of its current strength."""
    value = frac(sdb_current) / 10
    return Fraction(int(value)) if rule == "floor" else value


def bomb_target(
    r: Resolver, bombard: Number, target_tl: int, side: str | None = None, label: str = ""
) -> Calc:
    """5.9 (T4): bombardment allotted to one target; each part (48s and a remainder) rolls
    1d6 + the bombed unit's tech-level modifier (T7). The percentages add up and apply at once."""
    prefix = f"{label}: " if label else ""
    parts = split(bombard, 48)
    if not parts or column(parts[0]) is None:
        r.explain(f"{prefix}bombardment {fmt(bombard)} is below the 1 column: no attack")
        return Calc(0, f"{prefix}no attack")
    tlm = tl_modifier(r, target_tl)
    pct = 0
    for part in parts:
        if column(part) is None:
            r.explain(f"{prefix}part of {fmt(part)} is below the 1 column: no attack")
            continue
        roll = r.roll(
            "1d6",
            f"{prefix}surface bombing ({fmt(part)} bombardment)",
            modifiers=[("target tech level", tlm)] if tlm else [],
            table="T4",
            side=side,
        )
        look = lookup(r, "T4", roll=roll.natural + tlm, bombard=part)
        value = int(look.value or 0)
        _record(r, roll, f"{value}% losses" if value else "no effect", look.explanation)
        pct += value
    return Calc(pct, f"{prefix}{pct}% losses")


# -- 5.10 surface combat ----------------------------------------------------------------------
def surface_attack(
    r: Resolver,
    firing: Number,
    defending: Number,
    firer_tl: int,
    target_tl: int,
    atmosphere: str = "breathable",
    side: str | None = None,
    label: str = "",
) -> Calc:
    """5.10 (T5): one combined attack on one target.

    Odds = firing factors : the target's defending strength, rounded down in the defender's
    favour, never below 1:100. Shift = lowest TL among the firers - target TL (right when
    positive; the ends stop the shift). Roll 2d6 + the world's atmosphere modifier (T8); a
    modified roll under 2 counts as 2. The result is a percentage loss.
    """
    prefix = f"{label}: " if label else ""
    f, d = frac(firing), frac(defending)
    if f <= 0:
        r.explain(f"{prefix}no factors fire: no attack")
        return Calc(0, f"{prefix}no attack")
    shift = int(firer_tl) - int(target_tl)
    dm = atmosphere_modifier(r, atmosphere)
    r.explain(
        f"{prefix}tech-level shift {firer_tl} - {target_tl} = {shift:+d}; atmosphere {atmosphere} {dm:+d}"
    )
    roll = r.roll(
        "2d6",
        f"{prefix}surface attack ({fmt(f)} against {fmt(d)})",
        modifiers=[("atmosphere", dm)] if dm else [],
        table="T5",
        side=side,
    )
    modified = max(2, roll.natural + dm)
    if roll.natural + dm < 2:
        r.explain(f"{prefix}modified roll {roll.natural + dm} counts as 2")
    look = lookup(r, "T5", roll=modified, odds=(f, d), shifts={"odds": shift} if shift else None)
    value = int(look.value or 0)
    _record(r, roll, f"{value}% losses" if value else "no effect", look.explanation)
    return Calc(
        value,
        f"{prefix}{look.labels.get('odds', '?')}, roll {modified}: "
        + (f"{value}% losses" if value else "no effect"),
    )


# -- 5.11 current strength --------------------------------------------------------------------
def strength(r: Resolver, full: Number, loss: int) -> Calc:
    """5.11 (T6): current strength = round-half-up(full x (100 - loss) / 100)."""
    value = current_strength(full, int(loss))
    if int(loss) >= 100:
        r.explain(f"{loss}% losses: the unit is eliminated")
    else:
        r.explain(
            f"round half up of {fmt(full)} x {100 - int(loss)} / 100 = "
            f"{fmt(frac(full) * (100 - int(loss)) / 100)} -> {value}"
        )
    return Calc(value, f"{fmt(full)} at {loss}% losses: current strength {value}")
