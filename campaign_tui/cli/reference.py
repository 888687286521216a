"""Quick reference at the table: rule sets, scenarios, tables, phases, procedures, one
table lookup, one procedure, a die roll. Nothing here opens a campaign."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from campaign_tui.cli.common import EXIT_OK, Usage, pairs, print_json, ruleset
from campaign_tui.core.errors import InvalidInput


def cmd_rulesets(args: argparse.Namespace) -> int:
    from campaign_tui.registry import registry

    reg = registry()
    for info in reg.infos.values():
        print(f"{info.id}\t{info.name}\t{info.version}")
    for problem in reg.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return EXIT_OK


def cmd_scenarios(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    for s in rs.scenarios():
        if args.ids:
            print(s.id)
        else:
            print(f"{s.id}\t{s.title}\t{s.length}\t{' vs '.join(s.sides)}")
    return EXIT_OK


def cmd_tables(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    for t in rs.tables():
        names = ", ".join([t.id, *t.aliases])
        inputs = ", ".join(f"{a.name} ({a.match}{', ' + a.die if a.die else ''})" for a in t.axes)
        warn = "" if t.verified else "  UNVERIFIED"
        print(f"{names}: {t.title} — inputs: {inputs} — {t.provenance.describe()}{warn}")
    return EXIT_OK


def cmd_phases(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    machines = rs.machines()
    if args.machine:
        machines = {args.machine: rs.machine(args.machine)}
    print("\n\n".join(m.outline() for m in machines.values()))
    return EXIT_OK


def cmd_table(args: argparse.Namespace) -> int:
    from campaign_tui.core.dice import DiceExpr, DiceStream

    rs = ruleset(args.ruleset)
    table = rs.tables().get(args.table)
    inputs: dict[str, Any] = pairs(args.inputs)
    shifts = {k: int(v) for k, v in pairs(args.shift or []).items()}
    rolled = None
    for axis in table.axes:
        if axis.die and axis.name not in inputs:
            if args.roll is not None:
                inputs[axis.name] = args.roll
            else:
                import random

                stream = DiceStream(random.randrange(1 << 62))
                rolled = sum(stream.roll(DiceExpr.parse(axis.die)))
                inputs[axis.name] = rolled
    result = table.lookup(shifts=shifts, **inputs)
    if args.json:
        print_json({"table": table.id, "cell": result.cell, "value": result.value,
                     "labels": result.labels, "explanation": result.explanation,
                     "provenance": result.provenance.to_dict(), "rolled": rolled})
        return EXIT_OK
    if rolled is not None:
        print(f"rolled {rolled}")
    print(f"{table.title}: {result.cell}")
    for line in result.explanation:
        print(f"  {line}")
    return EXIT_OK


def cmd_roll(args: argparse.Namespace) -> int:
    import random

    from campaign_tui.core.dice import DiceExpr, DiceStream

    expr = DiceExpr.parse(args.expr)
    stream = DiceStream(args.seed if args.seed is not None else random.randrange(1 << 62))
    dice = stream.roll(expr)
    total = sum(dice) + expr.constant
    print(f"{expr}: {dice} = {total}" if (len(dice) > 1 or expr.constant) else
          f"{expr}: {total}")
    return EXIT_OK


def cmd_procedures(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    for p in rs.procedures().values():
        names = ", ".join([p.id, *p.aliases])
        params = ", ".join(f"{q.name}:{q.type}" for q in p.params)
        ref = f" [{p.reference}]" if p.reference else ""
        print(f"{names}: {p.title}{ref} ({params})")
    return EXIT_OK


def cmd_calc(args: argparse.Namespace) -> int:
    from campaign_tui.core.model import State
    from campaign_tui.core.procedures import FreeResolver

    rs = ruleset(args.ruleset)
    proc = rs.procedure(args.procedure)
    raw = pairs(args.inputs)
    try:
        dice = [int(v) for v in args.dice.split(",")] if args.dice else None
    except ValueError:
        raise InvalidInput(f"--dice {args.dice!r}: give die values separated by commas, "
                           "e.g. --dice 7,3") from None
    param_names = {p.name for p in proc.params}
    params = {}
    for p in proc.params:
        if p.name in raw:
            params[p.name] = p.coerce(raw[p.name], State())
        elif p.required and p.default is None:
            raise Usage(f"{proc.id} needs {p.name}" + (f" ({p.help})" if p.help else ""))
        elif p.default is not None:
            params[p.name] = p.default
    answers = {k: v for k, v in raw.items() if k not in param_names}
    options = {o.id: o.default for o in rs.options()}
    resolver = FreeResolver(rs.tables(), options, dice=dice, seed=args.seed, answers=answers)
    result = proc.fn(resolver, **params)
    if args.json:
        print_json({**result.to_dict(), "rolls": [r.to_dict() for r in resolver.rolls]})
        return EXIT_OK
    print(f"{proc.title}: {result.summary or result.value}")
    for r in resolver.rolls:
        print(f"  roll: {r.describe()} ({r.purpose})")
    for line in [*resolver.lines, *result.lines]:
        print(f"  {line}")
    return EXIT_OK
