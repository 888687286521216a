"""A tiny rule set that exercises every engine feature; used only by the tests."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import ActionDef, Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.machine import ClockLevel, Go, Machine, Require, Step
from campaign_tui.core.model import State
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from campaign_tui.core.ruleset import RuleSet
from campaign_tui.core.scenario import Scenario


def saving_roll(r: Resolver, defense: int, modifier: int, label: str) -> Calc:
    """Pass on d6 <= defense + modifier (capped 1..6)."""
    target = defense + modifier
    roll = r.roll("1d6", f"saving roll for {label}", target=target, table=None)
    passed = roll.natural <= target
    text = "passes" if passed else "fails"
    r.explain(f"{label}: d6 {roll.natural} vs {target} -> {text}")
    return Calc(passed, f"{label} {text}")


def odds(r: Resolver, attack: int, defense: int) -> Calc:
    look = r.lookup("crt", odds=(attack, defense), roll=1)
    return Calc(look.labels["odds"], look.explanation[0])


@action("move", "Move a unit", Param("unit", "unit"), Param("to", help="hex"), side="phasing",
        help="Move one unit of the phasing side.")
def move(ctx: Ctx, unit: str, to: str) -> None:
    u = ctx.unit(unit)
    if u.side != ctx.role("phasing"):
        raise ActionRejected(f"{u.label} does not belong to the phasing side")
    if u.status.get("destroyed"):
        raise ActionRejected(f"{u.label} is destroyed")
    moved = ctx.edit_var("moved", [])
    if unit in moved:
        raise ActionRejected(f"{u.label} has already moved")
    moved.append(unit)
    old = u.location
    u.location = to
    ctx.summary(f"{u.label} {old} -> {to}")


@action("declare", "Declare an attack", Param("attackers", "units"), Param("target", "unit"))
def declare(ctx: Ctx, attackers: list[str], target: str) -> None:
    phasing = ctx.role("phasing")
    for a in attackers:
        if ctx.state.unit(a).side != phasing:
            raise ActionRejected(f"{a} is not on the phasing side")
    if ctx.state.unit(target).side == phasing:
        raise ActionRejected("cannot attack your own unit")
    adjacent = ctx.ruling(f"adj:{target}", f"Are {', '.join(attackers)} adjacent to {target}?")
    if not adjacent:
        raise ActionRejected("the attackers are not adjacent (GM ruling)")
    queue = ctx.edit_var("attacks", [])
    queue.append({"attackers": attackers, "target": target})
    ctx.summary(f"{', '.join(attackers)} will attack {target}")


@action("resolve", "Resolve the next attack")
def resolve(ctx: Ctx) -> None:
    queue = ctx.edit_var("attacks", [])
    if not queue:
        raise ActionRejected("no attack is waiting")
    attack = queue.pop(0)
    att = sum(ctx.attr(a, "attack") - ctx.state.unit(a).status["fatigue"]
              for a in attack["attackers"])
    target = ctx.state.unit(attack["target"])
    dfn = ctx.attr(target, "defense")
    shift = ctx.choose("shift", "Column shift for the undetected defender?",
                       [("0", "none"), ("-1", "one left")], side=target.side, default="0")
    roll = ctx.roll("1d6", "combat", table="crt")
    look = ctx.lookup("crt", shifts={"odds": int(shift)}, roll=roll.natural, odds=(att, dfn))
    ctx.result(roll, str(look.value), look.explanation)
    _a_mod, d_mod = (int(x) for x in str(look.value).split("/"))
    save = saving_roll(ctx, dfn, d_mod, target.label)
    if not save.value:
        u = ctx.unit(target.id)
        u.status["destroyed"] = True
        ctx.credit(ctx.role("phasing"), "vp", 1, f"{target.label} destroyed")
    for a in attack["attackers"]:
        u = ctx.unit(a)
        u.status["fatigue"] = min(ctx.options.get("fatigue_cap", 3), u.status["fatigue"] + 1)
    ctx.summary(f"attack on {target.label}: {look.labels.get('odds')} roll {roll.natural} "
                f"-> {look.value}")


@action("allocate", "Allocate losses", Param("amount", "int", min=1))
def allocate(ctx: Ctx, amount: int) -> None:
    side = ctx.role("phasing")
    units = [u for u in ctx.state.units.values() if u.side == side]
    answer = ctx.decide(Decision(
        id="alloc", kind="allocate", prompt=f"Share {amount} fatigue among your units",
        options=tuple(Option(u.id, u.label) for u in units), total=amount, side=side),
        validate=lambda v: None if sum(v.values()) >= amount else f"at least {amount}")
    for uid, n in answer.items():
        u = ctx.unit(uid)
        u.status["fatigue"] = min(3, u.status["fatigue"] + int(n))


@action("plot", "Write a secret plot", Param("side", "side"), Param("text"), visibility="actor")
def plot(ctx: Ctx, side: str, text: str) -> None:
    ctx.set_secret(side, "plot", text)
    ctx.secret_to(side)
    ctx.summary(f"{side} plotted")


def _end_turn(ctx: Ctx) -> None:
    ctx.set_var("moved", [])
    roles = dict(ctx.var("roles"))
    roles["phasing"], roles["other"] = roles["other"], roles["phasing"]
    ctx.set_var("roles", roles)
    if roles["phasing"] == "A":
        ctx.tick("turn")


def _game_over(state: State) -> bool:
    return state.clock["turn"] > state.options.get("turns", 3)


def _victory(ctx: Ctx) -> None:
    a, b = ctx.state.ledger("A", "vp"), ctx.state.ledger("B", "vp")
    ctx.set_var("outcome", {"winner": "A" if a > b else "B" if b > a else "draw",
                            "vp": {"A": a, "B": b}})


MACHINE = Machine.build(
    "demo.standard", "Demo skirmish", [
        Step("setup", "Set up", phase="SETUP", actor="gm", prompt="Check the set-up.",
             actions=("plot",), next=(Go("move"),)),
        Step("move", "Move", phase="MOVE", actor="phasing",
             prompt="{phasing}: move your units.", actions=("move",),
             next=(Go("declare"),)),
        Step("declare", "Declare attacks", phase="COMBAT", actor="phasing",
             prompt="{phasing}: declare attacks.", actions=("declare",),
             next=(Go("end_turn", label="attacks declared",
                      when=lambda s: bool(s.vars.get("attacks")), call="combat_start"),
                   Go("end_turn"))),
        Step("combat_start", "Resolve attacks", phase="COMBAT", actor="phasing",
             prompt="Resolve each declared attack.", actions=("resolve", "allocate"),
             rolls=("1d6 on the CRT", "1d6 saving roll"),
             requires=(Require("every attack resolved",
                               lambda s: "resolve the remaining attacks"
                               if s.vars.get("attacks") else None),),
             next=(Go("@return"),)),
        Step("end_turn", "End of turn", phase="END", actor="gm", auto=True, enter=None,
             next=(Go("victory", when=_game_over, label="last turn played"),
                   Go("move", effect=_end_turn, label="otherwise"))),
        Step("victory", "Victory", phase="END", actor="gm", final=True, enter=_victory),
    ],
    clock=(ClockLevel("turn", "Turn", 1),),
)


class Demo(RuleSet):
    id = "demo"
    name = "Demo Skirmish"
    version = "1.0"
    package = "tests.demo_ruleset"

    def machines(self) -> dict[str, Machine]:
        return {MACHINE.id: MACHINE}

    def actions(self) -> dict[str, ActionDef]:
        return {a.kind: a for a in (move, declare, resolve, allocate, plot)}

    def procedures(self) -> dict[str, ProcedureDef]:
        return {
            "save": ProcedureDef("save", "Saving roll", lambda r, defense, modifier: saving_roll(
                r, int(defense), int(modifier), "unit"),
                (Param("defense", "int"), Param("modifier", "int")), aliases=("5.7",)),
            "odds": ProcedureDef("odds", "Odds column", lambda r, attack, defense: odds(
                r, int(attack), int(defense)), (Param("attack", "int"), Param("defense", "int"))),
        }

    def scenarios(self) -> list[Scenario]:
        return [Scenario("skirmish", "Skirmish", "Two small forces.", ("A", "B"), "3 turns",
                         MACHINE.id, aliases=("s1",)),
                Scenario("long", "Long skirmish", "Five turns.", ("A", "B"), "5 turns",
                         MACHINE.id, options={"turns": 5})]

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        b = self.builder(scenario, options)
        b.side("A", "Army A")
        b.side("B", "Army B")
        b.formation("a1", "A", "A Group", "group", location="hex:0101")
        b.formation("b1", "B", "B Group", "group", location="hex:0505", visibility="counter")
        b.unit("a-inf", "A", "infantry", "A Infantry", "a1", "hex:0101")
        b.unit("a-tank", "A", "tank", "A Tank", "a1", "hex:0102")
        b.unit("b-inf", "B", "infantry", "B Infantry", "b1", "hex:0505")
        b.unit("b-tank", "B", "tank", "B Tank", "b1", "hex:0506", visibility="owner")
        b.var("roles", {"phasing": "A", "other": "B"})
        b.ledger("A", vp=0)
        b.ledger("B", vp=0)
        return b.state


plugin = Demo()
