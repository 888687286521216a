"""Quick reference at the table: rule sets, scenarios, tables, phases, procedures, one
table lookup, one procedure, a die roll. Nothing here opens a campaign."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from campaign_tui.cli.common import (
    EXIT_DECIDE,
    EXIT_OK,
    Usage,
    emit,
    pairs,
    print_decision,
    ruleset,
)
from campaign_tui.cli.json_out import exact, plain, steps, with_value


def param_help(p: Any) -> dict[str, Any]:
    """A parameter as ``--json`` describes it (for scripts and completion)."""
    out = {"name": p.name, "type": p.type, "help": p.help, "required": p.required,
           "default": plain(p.default), "choices": list(p.choices)}
    for key in ("min", "max"):
        if getattr(p, key) is not None:
            out[key] = getattr(p, key)
    return out


def cmd_rulesets(args: argparse.Namespace) -> int:
    from campaign_tui.registry import registry

    reg = registry()
    for problem in reg.problems:
        print(f"warning: {problem}", file=sys.stderr)
    if args.json:
        emit("rulesets", {"rulesets": [{"id": i.id, "name": i.name, "version": i.version}
                                       for i in reg.infos.values()],
                          "problems": [str(p) for p in reg.problems]})
        return EXIT_OK
    for info in reg.infos.values():
        print(f"{info.id}\t{info.name}\t{info.version}")
    return EXIT_OK


def cmd_scenarios(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    if args.json:
        emit("scenarios", {"ruleset": rs.id, "scenarios": [
            {"id": s.id, "title": s.title, "length": s.length, "sides": list(s.sides),
             "aliases": list(s.aliases), "description": s.description}
            for s in rs.scenarios()]})
        return EXIT_OK
    for s in rs.scenarios():
        if args.ids:
            print(s.id)
        else:
            print(f"{s.id}\t{s.title}\t{s.length}\t{' vs '.join(s.sides)}")
    return EXIT_OK


def cmd_tables(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    if args.json:
        emit("tables", {"ruleset": rs.id, "tables": [
            {"id": t.id, "aliases": list(t.aliases), "title": t.title,
             "reference": t.reference, "verified": t.verified, "notes": list(t.notes),
             "provenance": t.provenance.to_dict(),
             "inputs": [{"name": a.name, "match": a.match, "die": a.die, "title": a.title,
                         "labels": list(a.labels)} for a in t.axes]}
            for t in rs.tables()]})
        return EXIT_OK
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
    if args.json:
        emit("phases", {"ruleset": rs.id, "machines": [
            {"id": mid, "outline": m.outline()} for mid, m in machines.items()]})
        return EXIT_OK
    print("\n\n".join(m.outline() for m in machines.values()))
    return EXIT_OK


def cmd_table(args: argparse.Namespace) -> int:
    from campaign_tui.core.dice import DiceExpr, DiceStream, read_total

    rs = ruleset(args.ruleset)
    table = rs.tables().get(args.table)
    inputs: dict[str, Any] = pairs(args.inputs)
    shifts = {k: int(v) for k, v in pairs(args.shift or []).items()}
    rolled = None
    for axis in table.axes:
        if axis.die and axis.name not in inputs:
            expr = DiceExpr.parse(axis.die)
            if args.roll is not None:
                inputs[axis.name] = read_total(expr, args.roll)
            else:
                import random

                stream = DiceStream(random.randrange(1 << 62))
                rolled = sum(stream.roll(expr)) + expr.constant
                inputs[axis.name] = rolled
    result = table.lookup(shifts=shifts, **inputs)
    if args.json:
        emit("table", with_value({
            "table": table.id, "title": table.title, "cell": result.cell,
            "labels": result.labels, "explanation": result.explanation,
            "steps": steps(result.explanation), "notes": list(table.notes),
            "reads": table.result,
            "provenance": result.provenance.to_dict(), "rolled": rolled}, result.value))
        return EXIT_OK
    if rolled is not None:
        print(f"rolled {rolled}")
    print(f"{table.title}: {result.cell}")
    for line in result.explanation:
        print(f"  {line}")
    if table.result:
        print(f"  reads: {table.result}")
    for note in table.notes:
        print(f"  note: {note}")
    return EXIT_OK


def cmd_roll(args: argparse.Namespace) -> int:
    import random

    from campaign_tui.core.dice import DiceExpr, DiceStream

    expr = DiceExpr.parse(args.expr)
    stream = DiceStream(args.seed if args.seed is not None else random.randrange(1 << 62))
    dice = stream.roll(expr)
    total = sum(dice) + expr.constant
    if args.json:
        emit("roll", {"expr": str(expr), "dice": dice, "constant": expr.constant,
                      "total": total})
        return EXIT_OK
    print(f"{expr}: {dice} = {total}" if (len(dice) > 1 or expr.constant) else
          f"{expr}: {total}")
    return EXIT_OK


def cmd_procedures(args: argparse.Namespace) -> int:
    rs = ruleset(args.ruleset)
    if args.json:
        emit("procedures", {"ruleset": rs.id, "procedures": [
            {"id": p.id, "aliases": list(p.aliases), "title": p.title,
             "reference": p.reference, "help": p.help,
             "params": [param_help(q) for q in p.params]}
            for p in rs.procedures().values()]})
        return EXIT_OK
    for p in rs.procedures().values():
        names = ", ".join([p.id, *p.aliases])
        params = ", ".join(f"{q.name}:{q.type}" for q in p.params)
        ref = f" [{p.reference}]" if p.reference else ""
        print(f"{names}: {p.title}{ref} ({params})")
    return EXIT_OK


def cmd_calc(args: argparse.Namespace) -> int:
    from campaign_tui.core.dice import typed_values
    from campaign_tui.core.errors import InvalidInput, NeedDecision, ParamProblem
    from campaign_tui.core.model import State
    from campaign_tui.core.options import resolve_options
    from campaign_tui.core.procedures import FreeResolver

    rs = ruleset(args.ruleset)
    proc = rs.procedure(args.procedure)
    raw = pairs(args.inputs)
    options = resolve_options(rs.options(), pairs(args.option or []))
    dice = typed_values(args.dice) if args.dice is not None else None
    param_names = [p.name for p in proc.params]
    params = {}
    for p in proc.params:
        if p.name in raw:
            try:
                params[p.name] = p.coerce(raw[p.name], State())
            except InvalidInput as exc:  # said in words; the ids stay in the JSON details
                raise ParamProblem(str(exc), {"action": proc.id, "param": p.name,
                                              "problem": "bad", "value": raw[p.name],
                                              "reason": str(exc)}) from None
        elif p.required and p.default is None:
            raise Usage(f"{proc.id} needs {p.name}" + (f" ({p.help})" if p.help else ""))
        elif p.default is not None:
            params[p.name] = p.default
    answers = {k: v for k, v in raw.items() if k not in param_names}
    resolver = FreeResolver(rs.tables(), options, dice=dice, seed=args.seed, answers=answers,
                            strict=True)
    try:
        result = proc.fn(resolver, **params)
    except NeedDecision as exc:
        print_decision(exc, args.json)
        return EXIT_DECIDE
    unknown = sorted(set(answers) - resolver.used_answers)
    if unknown:
        raise Usage(f"procedure {proc.id}: unknown parameter{'s' * (len(unknown) > 1)} "
                           f"{', '.join(unknown)}; parameters: {', '.join(param_names) or 'none'}")
    resolver.check_all_used()
    lines = [*resolver.lines, *result.lines]
    if args.json:
        titles = {rs.tables().get(lk.table).title: lk.table for lk in resolver.lookups}
        data = {**result.to_dict(), "lines": lines, "steps": steps(lines, titles),
                "rolls": [r.to_dict() for r in resolver.rolls],
                "procedure": proc.id, "reference": proc.reference}
        data["value_exact"] = exact(result.value)
        emit("calc", data)
        return EXIT_OK
    print(f"{proc.title}: {result.summary or result.value}")
    for r in resolver.rolls:
        print(f"  roll: {r.describe()} ({r.purpose})")
    for line in lines:
        print(f"  {line}")
    return EXIT_OK
