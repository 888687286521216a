"""Victory: points, levels, hex control, exits and the scenario's conditions [11.0]-[11.4],
[15.0]-[15.1].

Levels come from the ratio of own VP to enemy VP with integer comparisons: Marginal above
1 to 1, Substantive from 2 to 1, Decisive from 3 to 1 [11.21]-[11.23]; a higher level
always satisfies a condition asking for a lower one [11.24]. A side conceding hands its
opponent at least a Substantive Victory [15.1].

Scenario conditions are alternatives (the book's semicolons), each a list of clauses that
must all hold. Clauses the program cannot judge from the campaign (map geometry) are put to
the GM as rulings; the GM confirms the verdict (G-22).
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State
from rulesets.prestags import hexmap
from rulesets.prestags.common import SIDES, info, other, units_at, vp_scored
from rulesets.prestags.movement import controller

LEVELS = ("none", "Marginal", "Substantive", "Decisive")
CLAUSES = (
    "control",
    "occupy",
    "level",
    "destroy",
    "destroy_ratio",
    "lose_max",
    "exit",
    "deny_exit",
    "annihilate",
    "prevent",
    "gm",
)


def level(own: int, enemy: int, zero: str = "decisive") -> str:
    """[11.21]-[11.23] with integers; enemy 0: Decisive if own > 0 (G-21)."""
    if enemy <= 0:
        return "Decisive" if own > 0 and zero == "decisive" else "none"
    if own >= 3 * enemy:
        return "Decisive"
    if own >= 2 * enemy:
        return "Substantive"
    if own > enemy:
        return "Marginal"
    return "none"


def at_least(have: str, need: str) -> bool:
    """[11.24]: a higher level is just as good."""
    return LEVELS.index(have) >= LEVELS.index(need)


def vp_record(vp: int) -> tuple[str, str, str]:
    """The map's Victory Point Record boxes: 27 -> ("000", "20", "7")."""
    hundreds = 100 * (vp // 100)
    tens = 10 * ((vp % 100) // 10)
    return (f"{hundreds:03d}" if hundreds == 0 else str(hundreds)), str(tens), str(vp % 10)


def parse_clause(text: str) -> tuple[str, list[str]]:
    words = text.strip().split(None, 1)
    if not words:
        raise InvalidInput("an empty victory clause")
    kind = words[0]
    rest = words[1] if len(words) > 1 else ""
    if kind not in CLAUSES:
        raise InvalidInput(f"victory clause {text!r}: use one of {', '.join(CLAUSES)}")
    if kind == "gm":
        return kind, [rest]
    if kind in ("control", "occupy"):
        return kind, [h.strip() for h in rest.split(",") if h.strip()]
    args = rest.split()
    if kind == "level" and (len(args) != 1 or args[0] not in LEVELS[1:]):
        raise InvalidInput(f"victory clause {text!r}: level Marginal, Substantive or Decisive")
    return kind, args


def parse_alternative(text: str) -> list[tuple[str, list[str]]]:
    return [parse_clause(c) for c in text.split("&")]


# -- counts ------------------------------------------------------------------------------------
def _counted(state: State, ruleset: Any, uid: str) -> bool:
    """Absolute unit counts leave out Class D and E [11.25]."""
    return info(state, ruleset, uid).klass not in ("D", "E")


def destroyed(state: State, ruleset: Any, side: str) -> int:
    """Units of *side* destroyed: eliminated, or panicked off the map [13.0]."""
    n = 0
    for u in state.units.values():
        if u.side != side or not _counted(state, ruleset, u.id):
            continue
        st = u.status.get("state")
        if st == "eliminated" or (st == "exited" and u.status.get("exit_reason") == "panic"):
            n += 1
    return n


def exited(state: State, ruleset: Any, side: str, edge: str = "") -> int:
    n = 0
    for u in state.units.values():
        if u.side != side or not _counted(state, ruleset, u.id):
            continue
        if (
            u.status.get("state") == "exited"
            and u.status.get("exit_reason") == "victory"
            and (not edge or str(u.status.get("exit_edge", "")).upper() == edge.upper())
        ):
            n += 1
    return n


def levels(state: State) -> dict[str, str]:
    zero = str(state.options.get("zero_enemy_vp", "decisive"))
    out = {s: level(vp_scored(state, s), vp_scored(state, other(s)), zero) for s in SIDES}
    con = state.vars.get("concession")
    if con:
        winner = other(con["side"])
        if not at_least(out[winner], "Substantive"):
            out[winner] = "Substantive"
        out[con["side"]] = "none"
    return out


# -- clauses -------------------------------------------------------------------------------------
def clause_holds(
    state: State, ruleset: Any, side: str, kind: str, args: list[str], lv: dict[str, str], depth: int = 0
) -> bool | None:
    """True / False, or None when only the GM can tell."""
    enemy = other(side)
    if kind == "control":
        return all(controller(state, h) == side for h in args)
    if kind == "occupy":
        return all(any(u.side == side for u in units_at(state, hexmap.canon(state, h))) for h in args)
    if kind == "level":
        return at_least(lv[side], args[0])
    if kind == "destroy":
        return destroyed(state, ruleset, enemy) >= int(args[0])
    if kind == "destroy_ratio":
        k, least = int(args[0]), int(args[1])
        got, lost = destroyed(state, ruleset, enemy), destroyed(state, ruleset, side)
        return got >= least and got >= k * lost
    if kind == "lose_max":
        return destroyed(state, ruleset, side) <= int(args[0])
    if kind == "exit":
        return exited(state, ruleset, side, args[1] if len(args) > 1 else "") >= int(args[0])
    if kind == "deny_exit":
        return exited(state, ruleset, enemy, args[1] if len(args) > 1 else "") < int(args[0])
    if kind == "annihilate":
        for u in state.units.values():
            if u.side != enemy or not _counted(state, ruleset, u.id):
                continue
            st = u.status.get("state")
            if st in ("active", "reserve") or (st == "exited" and u.status.get("exit_reason") != "panic"):
                return False
        return True
    if kind == "prevent":
        if depth:
            return False
        for alt in state.vars.get("victory", {}).get(enemy, []):
            results = [
                clause_holds(state, ruleset, enemy, k, a, lv, depth + 1) for k, a in parse_alternative(alt)
            ]
            if all(r is True for r in results):
                return False
            if any(r is None for r in results) and not any(r is False for r in results):
                return None
        return True
    return None


def judge(ctx: Ctx, verdict: str = "") -> dict[str, Any]:
    """Evaluate every side's conditions (asking the GM what the program cannot see) and
    return the outcome."""
    state = ctx.state
    lv = levels(state)
    spec = state.vars.get("victory", {})
    met: dict[str, bool] = {}
    detail: dict[str, list[str]] = {}
    for side in SIDES:
        detail[side] = []
        met[side] = False
        for n, alt in enumerate(spec.get(side, [])):
            ok = True
            notes = []
            for m, (kind, args) in enumerate(parse_alternative(alt)):
                r = clause_holds(state, ctx.ruleset, side, kind, args, lv)
                if r is None:
                    text = args[0] if kind == "gm" else f"{kind} {' '.join(args)}"
                    r = bool(
                        ctx.ruling(f"victory:{side}:{n}:{m}", f"{state.sides[side].name}: is this so? {text}")
                    )
                notes.append(f"{kind} {' '.join(args)}: {'yes' if r else 'no'}")
                ok = ok and r
            detail[side].append(f"{alt} -> {'met' if ok else 'not met'} ({'; '.join(notes)})")
            met[side] = met[side] or ok
    con = state.vars.get("concession")
    if con:
        winner = other(con["side"])
        rule = f"{state.sides[con['side']].name} conceded [15.1]"
    elif met["A"] and met["B"]:
        winner = str(state.vars.get("both", "draw"))
        rule = "both sides met their conditions"
    elif met["A"] or met["B"]:
        winner = "A" if met["A"] else "B"
        rule = "conditions met"
    else:
        winner = str(state.vars.get("neither", "draw"))
        rule = "neither side met its conditions"
    if verdict:
        if verdict not in ("A", "B", "draw"):
            raise InvalidInput("verdict: A, B or draw")
        rule = f"GM verdict (the rules said {winner}: {rule})"
        winner = verdict
    vp = {s: vp_scored(state, s) for s in SIDES}
    out = {
        "winner": winner,
        "result": _text(state, winner, lv),
        "rule": rule,
        "levels": lv,
        "vp": vp,
        "conditions": detail,
        "record": {s: "/".join(vp_record(vp[s])) for s in SIDES},
    }
    return out


def _text(state: State, winner: str, lv: dict[str, str]) -> str:
    if winner in SIDES:
        name = state.sides[winner].name
        lvl = lv[winner]
        return f"{name} win" + (f" ({lvl} Victory on points)" if lvl != "none" else "")
    return "draw"
