"""The games' exclusive rules where the digest gives them exactly (section 4.5, EXT sources
from the per-game folders), applied automatically with the option ``exclusive_rules``:

* Spartan [3.1] Alexander: units stacked with Alexander (the Macedonians' grade-1 leader in the
  scenarios that name the rule) shift the melee odds 2 columns in their favour, attacking or
  defending.
* Spartan [3.22] Darius: worth 30 VP; an enemy unit next to him panics his army
  (``panic.darius_check``, run after every change of position, and ``results.unit_vp``).
* Spartan [3.3] Range Increment: a fire unit on a hilltop firing at a slope or ground-level
  hex adds 1 hex to its Range Allowance.
* Viking [1.0]-[1.4] Francisca: each AX of the side the scenario names may make one defensive
  fire attack a game, strength 3, at an adjacent hex; until then it counts as a fire unit
  (its zone stops movement) [1.1]; once thrown it is not [1.2] (``francisca_used``).
* Legion [1.56]-[1.57]: BC units may fire, move and then melee attack in one Player-Turn.
* Viking [3.6]-[3.8] Ferocity: the Vikings' first melee Player-Turn +1 odds column; their later
  melee attacks +1 on the die (never above 6); melee attacks against them -1 on the die
  (never below 1); lost when their army panics.

Which scenario uses which rule is scenario data (``exclusive`` in the scenario file); the GM
turns them off at set-up with the option. The unit capability charts and the terrain
prohibitions are applied where they are read (``combat.capability``,
``movement.prohibited_for``).
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.model import State, Unit
from campaign_tui.core.records import record
from rulesets.prestags.common import Info, stamp, units_at


@record
class MeleeAdjust:
    shift: int = 0
    die: int = 0  # Viking Ferocity: +1 / -1 on the die, kept within 1..6
    lines: list[str] = field(default_factory=list)


def rules(state: State) -> dict[str, Any]:
    """The scenario's exclusive rules in play (empty with the option off)."""
    if not state.options.get("exclusive_rules", True):
        return {}
    return dict(state.vars.get("exclusive") or {})


def game(state: State) -> str:
    return str(state.vars.get("game", "") or "")


def melee_adjust(ctx: Ctx, attackers: list[Info], targets: list[str], side: str) -> MeleeAdjust:
    """Column shift and die modifier of one melee attack by *side* from the exclusive rules."""
    ex = rules(ctx.state)
    out = MeleeAdjust()
    alex = ctx.state.units.get(str(ex.get("alexander", "")))
    if alex is not None and alex.status.get("state", "active") == "active" and alex.location:
        where = str(alex.location)[4:]
        if alex.side == side and where in {str(a.hex) for a in attackers}:
            out.shift += 2
            out.lines.append(f"Alexander ({alex.label}) leads the attack from {where}: 2 columns up [S3.1]")
        elif alex.side != side and where in targets:
            out.shift -= 2
            out.lines.append(f"Alexander ({alex.label}) defends {where}: 2 columns down [S3.1]")
    fierce = str(ex.get("ferocity", ""))
    if fierce and ctx.state.sides[fierce].data.get("panic_state") != "panicked":
        name = ctx.state.sides[fierce].name
        if side == fierce:
            first = ctx.var("ferocity_first")
            now = stamp(ctx.state)
            if first in (None, now):
                ctx.set_var("ferocity_first", now)
                out.shift += 1
                out.lines.append(f"{name}' ferocity, their first melee turn: 1 column up [V3.6]")
            else:
                out.die += 1
                out.lines.append(f"{name}' ferocity: +1 on the die, never above 6 [V3.7]")
        elif any(u.side == fierce for t in targets for u in units_at(ctx.state, t)):
            out.die -= 1
            out.lines.append(f"attacking the {name}: -1 on the die, never below 1 [V3.8]")
    for line in out.lines:
        ctx.explain(line)
    return out


FRANCISCA_FIRE = 3  # Viking [1.0]


def francisca_ready(state: State, unit: Unit) -> bool:
    """Viking [1.0]-[1.2]: an AX of the side the scenario names (``exclusive.francisca``) that
    has not thrown its francisca yet; until it does it counts as a fire unit [1.1]."""
    side = rules(state).get("francisca")
    return bool(side) and unit.side == side and unit.type == "AX" and not unit.status.get("francisca_used")


def as_francisca(i: Info) -> Info:
    """The AX as the fire unit it is with its francisca: strength 3, adjacent hexes only [V1.0], [V1.3]."""
    return replace(i, fire=FRANCISCA_FIRE, range=1)


def in_game(state: State, code: str) -> bool:
    """Whether the battle belongs to game *code* (C, S, L, V, Y) with its exclusive rules on."""
    return game(state) == code and bool(state.options.get("exclusive_rules", True))


def range_increment(firer_elevation: str, target_elevation: str) -> int:
    """Spartan [3.3]: +1 hex of range from a hilltop at a slope or ground-level hex."""
    return 1 if firer_elevation == "hilltop" and target_elevation in ("slope", "ground") else 0


def fires_and_melees(state: State, code: str) -> bool:
    """Legion [1.56]: a BC may fire in the Fire Combat Phase and still melee attack."""
    return code == "BC" and in_game(state, "L")
