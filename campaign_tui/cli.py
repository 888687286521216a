"""The ``campaign-tui`` command.

With no arguments it starts the TUI on the campaign picker. Every other command works
without a screen, for scripting, play by e-mail and quick reference at the table.

Exit codes: 0 done; 1 refused, invalid or failed check; 2 bad arguments; 3 a decision is
needed (give it as NAME=VALUE and run again).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shlex
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from campaign_tui import __version__
from campaign_tui.core.errors import (
    AdvanceRefused,
    CampaignError,
    NeedConfirmation,
    NeedDecision,
    SaveError,
)

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_DECIDE = 0, 1, 2, 3


class Usage(Exception):
    pass


def _pairs(items: Sequence[str]) -> dict[str, str]:
    """NAME=VALUE arguments; NAME=@FILE reads the value from a file (an orders file)."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise Usage(f"{item!r} is not NAME=VALUE")
        key, value = item.split("=", 1)
        if not key:
            raise Usage(f"{item!r} has no name before '='")
        if value.startswith("@"):
            try:
                value = Path(value[1:]).expanduser().read_text(encoding="utf-8")
            except OSError as exc:
                raise Usage(f"{key}: cannot read {value[1:]}: {exc.strerror or exc}") from None
            except UnicodeDecodeError:
                raise Usage(f"{key}: {value[1:]} is not UTF-8 text") from None
        out[key.strip()] = value
    return out


def _places(args: argparse.Namespace) -> Any:
    from campaign_tui.store.paths import places

    return places(args.home)


def _ruleset(rid: str) -> Any:
    from campaign_tui.registry import load_ruleset

    return load_ruleset(rid)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, default=str, ensure_ascii=False))


# -- commands ------------------------------------------------------------------------------
def cmd_tui(args: argparse.Namespace) -> int:
    from campaign_tui.ui import launch

    return launch(_places(args), None, read_only=False)


def cmd_open(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import resolve
    from campaign_tui.ui import launch

    path = resolve(_places(args), args.campaign)
    return launch(_places(args), path, read_only=args.read_only)


def cmd_new(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import new_campaign

    options = _pairs(args.option or [])
    path = new_campaign(_places(args), args.ruleset, args.scenario, args.name, args.seed,
                        args.dice, options, Path(args.path) if args.path else None)
    print(path)
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import list_campaigns

    rows = list_campaigns(_places(args), include_examples=not args.mine)
    if args.json:
        _print_json([{"name": r.name, "ruleset": r.ruleset, "where": r.where, "saved": r.saved,
                      "path": str(r.path), "example": r.example, "problem": r.problem}
                     for r in rows])
        return EXIT_OK
    if not rows:
        print("No campaigns yet. Create one with `campaign-tui new RULESET`.")
    for r in rows:
        tag = "[example] " if r.example else ""
        if r.problem:
            print(f"{tag}{r.path.name}: cannot read: {r.problem}")
            continue
        saved = r.saved.replace("T", " ").rstrip("Z") or "-"
        print(f"{tag}{r.name}  ({r.ruleset})  {r.where}  saved {saved}  {r.path}")
    return EXIT_OK


def cmd_rulesets(args: argparse.Namespace) -> int:
    from campaign_tui.registry import registry

    reg = registry()
    for info in reg.infos.values():
        print(f"{info.id}\t{info.name}\t{info.version}")
    for problem in reg.problems:
        print(f"warning: {problem}", file=sys.stderr)
    return EXIT_OK


def cmd_scenarios(args: argparse.Namespace) -> int:
    rs = _ruleset(args.ruleset)
    for s in rs.scenarios():
        if args.ids:
            print(s.id)
        else:
            print(f"{s.id}\t{s.title}\t{s.length}\t{' vs '.join(s.sides)}")
    return EXIT_OK


def cmd_tables(args: argparse.Namespace) -> int:
    rs = _ruleset(args.ruleset)
    for t in rs.tables():
        names = ", ".join([t.id, *t.aliases])
        inputs = ", ".join(f"{a.name} ({a.match}{', ' + a.die if a.die else ''})" for a in t.axes)
        warn = "" if t.verified else "  UNVERIFIED"
        print(f"{names}: {t.title} — inputs: {inputs} — {t.provenance.describe()}{warn}")
    return EXIT_OK


def cmd_phases(args: argparse.Namespace) -> int:
    rs = _ruleset(args.ruleset)
    machines = rs.machines()
    if args.machine:
        machines = {args.machine: rs.machine(args.machine)}
    print("\n\n".join(m.outline() for m in machines.values()))
    return EXIT_OK


def cmd_table(args: argparse.Namespace) -> int:
    from campaign_tui.core.dice import DiceExpr, DiceStream

    rs = _ruleset(args.ruleset)
    table = rs.tables().get(args.table)
    inputs: dict[str, Any] = _pairs(args.inputs)
    shifts = {k: int(v) for k, v in _pairs(args.shift or []).items()}
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
        _print_json({"table": table.id, "cell": result.cell, "value": result.value,
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
    rs = _ruleset(args.ruleset)
    for p in rs.procedures().values():
        names = ", ".join([p.id, *p.aliases])
        params = ", ".join(f"{q.name}:{q.type}" for q in p.params)
        ref = f" [{p.reference}]" if p.reference else ""
        print(f"{names}: {p.title}{ref} ({params})")
    return EXIT_OK


def cmd_calc(args: argparse.Namespace) -> int:
    from campaign_tui.core.model import State
    from campaign_tui.core.procedures import FreeResolver

    rs = _ruleset(args.ruleset)
    proc = rs.procedure(args.procedure)
    raw = _pairs(args.inputs)
    dice = [int(v) for v in args.dice.split(",")] if args.dice else None
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
        _print_json({**result.to_dict(), "rolls": [r.to_dict() for r in resolver.rolls]})
        return EXIT_OK
    print(f"{proc.title}: {result.summary or result.value}")
    for r in resolver.rolls:
        print(f"  roll: {r.describe()} ({r.purpose})")
    for line in [*resolver.lines, *result.lines]:
        print(f"  {line}")
    return EXIT_OK


def _open_rw(args: argparse.Namespace) -> Any:
    from campaign_tui.campaigns import open_path, resolve

    path = resolve(_places(args), args.campaign)
    opened = open_path(path, read_only=False)
    for w in opened.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return opened


def _open_ro(args: argparse.Namespace) -> Any:
    from campaign_tui.campaigns import open_path, resolve

    return open_path(resolve(_places(args), args.campaign), read_only=True)


def _print_decision(exc: NeedDecision) -> None:
    d = exc.decision
    who = f" ({d.side})" if d.side else ""
    print(f"Decision needed{who}: {d.prompt}")
    for line in exc.preview:
        print(f"  so far: {line}")
    for line in d.info:
        print(f"  {line}")
    if d.options:
        print("  options: " + ", ".join(
            o.value + (f" ({o.label})" if o.label and o.label != o.value else "")
            for o in d.options))
    if d.kind == "dice":
        print(f"  type one value per die, e.g. {shlex.quote(d.id + '=3')} or "
              f"{shlex.quote(d.id + '=3,5')}")
    if d.default is not None:
        print(f"  default: {d.default}")
    print(f"  answer with: {shlex.quote(d.id + '=VALUE')}")


def _report(outcome: Any, as_json: bool) -> None:
    e = outcome.entry
    if as_json:
        _print_json(e.to_dict())
        return
    prefix = "preview: " if outcome.preview else ""
    print(f"{prefix}{e.summary}")
    for r in e.rolls:
        print(f"  roll: {r.describe()} ({r.purpose})")
    for line in e.lines:
        print(f"  {line}")


@contextlib.contextmanager
def _changing(args: argparse.Namespace) -> Iterator[Any]:
    """The campaign opened for writing: saved when the block ends normally (a refused or
    previewed action leaves nothing to save), and its lock released in every case."""
    from campaign_tui.campaigns import close, save

    opened = _open_rw(args)
    try:
        yield opened
        save(opened)
    finally:
        close(opened)


def cmd_act(args: argparse.Namespace) -> int:
    with _changing(args) as opened:
        engine = opened.engine
        defn = engine.action_def(args.action)
        raw = _pairs(args.values)
        names = {p.name for p in defn.params}
        params = {k: v for k, v in raw.items() if k in names}
        answers = {k: v for k, v in raw.items() if k not in names}
        try:
            outcome = engine.perform(args.action, params, answers, by=args.by,
                                     preview=args.preview)
        except NeedDecision as exc:
            _print_decision(exc)
            return EXIT_DECIDE
    _report(outcome, args.json)
    if not args.json and not args.preview:
        print(f"now: {engine.where()}")
    return EXIT_OK


def cmd_advance(args: argparse.Namespace) -> int:
    with _changing(args) as opened:
        engine = opened.engine
        try:
            outcome = engine.advance(_pairs(args.values), by=args.by)
        except AdvanceRefused as exc:
            print(str(exc))
            return EXIT_FAIL
        except NeedDecision as exc:
            _print_decision(exc)
            return EXIT_DECIDE
    _report(outcome, False)
    st = engine.status(args.by)
    print(f"now: {st.clock_text} · {st.phase_title} · {st.step_title}")
    print(f"{st.actor_name}: {st.prompt}")
    return EXIT_OK


def cmd_undo(args: argparse.Namespace) -> int:
    with _changing(args) as opened:
        try:
            outcome = opened.engine.undo(by=args.by, confirm=args.yes)
        except NeedConfirmation as exc:
            print(f"{exc}\nRun again with --yes to confirm.")
            return EXIT_FAIL
    print(outcome.entry.summary)
    return EXIT_OK


def cmd_redo(args: argparse.Namespace) -> int:
    with _changing(args) as opened:
        outcome = opened.engine.redo(by=args.by)
    print(outcome.entry.summary)
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    opened = _open_ro(args)
    engine = opened.engine
    st = engine.status(args.by)
    view = engine.view(args.by)
    try:
        heads = engine.ruleset.headline(view)
    except Exception as exc:  # a rule set meeting damaged data: report, do not crash
        heads = {sid: [f"(totals unavailable: {type(exc).__name__}: {exc})"]
                 for sid in view.sides}
    if args.json:
        _print_json({
            "campaign": engine.info.name, "ruleset": engine.ruleset.id, "clock": st.clock,
            "clock_text": st.clock_text, "phase": st.phase, "step": st.step,
            "step_title": st.step_title, "actor": st.actor, "prompt": st.prompt,
            "missing": st.missing, "final": st.final, "outcome": st.outcome,
            "choices": [{"kind": c.kind, "title": c.title, "available": c.available,
                         "reason": c.reason, "params": [p.name for p in c.params]}
                        for c in st.choices],
            "sides": heads})
        return EXIT_OK
    for w in opened.warnings:
        print(f"warning: {w}")
    print(f"{engine.info.name} — {engine.ruleset.name}: {st.machine_title}")
    print(f"{st.clock_text} · {st.phase_title} · {st.step_title}")
    if st.final:
        print(f"The campaign is over: {st.outcome}")
    print(f"Acting: {st.actor_name}")
    print(f"Now: {st.prompt}")
    print("Allowed now:")
    for i, c in enumerate(st.choices, 1):
        params = f" ({', '.join(p.name for p in c.params)})" if c.params else ""
        state = "" if c.available else f"  [not now: {c.reason}]"
        print(f"  {i}. {c.kind}{params} — {c.title}{state}")
    if st.missing:
        print("Before advancing: " + "; ".join(st.missing))
    print("Sides:")
    for sid, lines in heads.items():
        name = view.sides[sid].name if sid in view.sides else sid
        print(f"  {name}: " + ", ".join(lines))
    return EXIT_OK


def cmd_log(args: argparse.Namespace) -> int:
    opened = _open_ro(args)
    engine = opened.engine
    entries = engine.entries()
    outer = engine.machine.clock[0].name if engine.machine.clock else None
    if args.turn is not None and outer:
        entries = [e for e in entries if e.clock.get(outer) == args.turn]
    entries = [e for e in entries if e.visible_to(args.by)]
    if args.rolls:
        entries = [e for e in entries if e.rolls]
    if args.limit:
        entries = entries[-args.limit:]
    if args.json:
        _print_json([e.to_dict() for e in entries])
        return EXIT_OK
    for e in entries:
        clock = engine.machine.clock_text(e.clock)
        print(f"#{e.seq} [{clock} · {e.step}] {e.by}: {e.summary}")
        for r in e.rolls:
            print(f"    roll {r.n}: {r.describe()} — {r.purpose}")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from campaign_tui.core.engine import Engine

    opened = _open_ro(args)
    engine = opened.engine
    entries = engine.entries()
    rebuilt = engine.state_at(len(entries)) if entries else engine.state
    if engine.snapshots is not None:
        base = engine.snapshots(0)
        if base is not None:
            state = base[1]
            from campaign_tui.core.changes import apply_changes

            for e in entries:
                apply_changes(state, e.changes)
            rebuilt = state
    problems = []
    if rebuilt != engine.state:
        problems.append("the log does not rebuild the saved state")
    if args.replay:
        initial = engine.state_at(0)
        replayed = Engine.replay(engine.ruleset, initial, engine.info, entries)
        if replayed.state != engine.state:
            problems.append("replaying the log gives a different state")
    for w in opened.warnings:
        print(f"warning: {w}")
    if problems:
        for p in problems:
            print(f"{args.campaign}: {p}")
        return EXIT_FAIL
    print(f"{args.campaign}: ok ({len(entries)} log entries"
          + (", replay identical" if args.replay else "") + ")")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import slug
    from campaign_tui.store.files import export_bundle

    opened = _open_ro(args)
    engine = opened.engine
    out = Path(args.output) if args.output else Path(
        f"{slug(engine.info.name)}{'-' + args.side.lower() if args.side else ''}.toml")
    export_bundle(engine, out, args.side)
    print(out)
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    opened = _open_ro(args)
    engine = opened.engine
    viewer = args.side or "gm"
    reports = engine.ruleset.reports(engine.view(viewer), viewer)
    if not reports:
        print(f"{engine.ruleset.name} has no reports for {viewer}.")
        return EXIT_OK
    if args.output:
        from campaign_tui.campaigns import slug

        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for title, text in reports.items():
            out = folder / f"{slug(title)}.md"
            out.write_text(text, encoding="utf-8")
            print(out)
        return EXIT_OK
    print("\n\n".join(reports.values()))
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import unique_folder
    from campaign_tui.registry import load_ruleset
    from campaign_tui.store.files import import_bundle

    places = _places(args).ensure()
    target = unique_folder(places.campaigns, args.name or Path(args.bundle).stem)
    import_bundle(Path(args.bundle), target, load_ruleset, args.name).close()
    print(target)
    return EXIT_OK


# -- parser -------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="campaign-tui",
        description="A terminal campaign manager for tabletop wargames. With no command, "
                    "opens the campaign picker.",
        epilog="Exit codes: 0 done, 1 refused or invalid, 2 bad arguments, 3 a decision is "
               "needed (answer it as NAME=VALUE).")
    p.add_argument("--version", action="version", version=f"campaign-tui {__version__}")
    p.add_argument("--home", help="keep campaigns, autosaves and settings under this folder "
                                  "(or set CAMPAIGN_TUI_HOME)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, fn: Any, help: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help, description=help)
        sp.set_defaults(fn=fn)
        return sp

    def campaign_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("campaign", metavar="PATH|NAME",
                        help="a campaign folder or file, a campaign name, or an example name")

    def by_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--as", dest="by", default="gm", metavar="SIDE",
                        help="act or view as this side (default: the GM, who sees everything)")

    sp = add("open", cmd_open, "open a campaign in the TUI")
    campaign_arg(sp)
    sp.add_argument("--read-only", action="store_true", help="look without changing anything")

    sp = add("new", cmd_new, "create a campaign from a ready-made scenario; prints its path")
    sp.add_argument("ruleset")
    sp.add_argument("--scenario")
    sp.add_argument("--name")
    sp.add_argument("--seed", type=int)
    sp.add_argument("--dice", choices=("auto", "manual"), default="auto",
                    help="auto: the program rolls; manual: type physical dice")
    sp.add_argument("--option", action="append", metavar="NAME=VALUE",
                    help="set a rule-set option (repeatable)")
    sp.add_argument("--path", help="create the campaign folder here")

    sp = add("list", cmd_list, "your campaigns and the bundled examples")
    sp.add_argument("--mine", action="store_true", help="leave out the bundled examples")
    sp.add_argument("--json", action="store_true")

    add("rulesets", cmd_rulesets, "installed rule sets (id, name, version)")

    sp = add("scenarios", cmd_scenarios, "a rule set's scenarios")
    sp.add_argument("ruleset")
    sp.add_argument("--ids", action="store_true", help="print ids only")

    sp = add("tables", cmd_tables, "a rule set's tables with their inputs and provenance")
    sp.add_argument("ruleset")

    sp = add("phases", cmd_phases, "a rule set's sequence of play as an outline")
    sp.add_argument("ruleset")
    sp.add_argument("--machine", help="only this phase machine")

    sp = add("table", cmd_table, "look up one table entry, with the explanation (logs nothing)")
    sp.add_argument("ruleset")
    sp.add_argument("table", help="table id or the rulebook's name for it (T4, 4.1...)")
    sp.add_argument("inputs", nargs="*", metavar="NAME=VALUE",
                    help="inputs; odds as attack:defense, e.g. odds=15:5")
    sp.add_argument("--roll", type=int, help="the die roll (rolled when absent)")
    sp.add_argument("--shift", action="append", metavar="AXIS=N",
                    help="shift an axis, e.g. odds=-1 (one column left)")
    sp.add_argument("--json", action="store_true")

    sp = add("roll", cmd_roll, "roll dice: d6, 2d6, d10, d100, 3d10+4")
    sp.add_argument("expr")
    sp.add_argument("--seed", type=int)

    sp = add("procedures", cmd_procedures, "a rule set's procedures with their inputs")
    sp.add_argument("ruleset")

    sp = add("calc", cmd_calc, "run one procedure with its explanation (logs nothing)")
    sp.add_argument("ruleset")
    sp.add_argument("procedure")
    sp.add_argument("inputs", nargs="*", metavar="NAME=VALUE")
    sp.add_argument("--dice", help="die values to use, in order: 7,3")
    sp.add_argument("--seed", type=int)
    sp.add_argument("--json", action="store_true")

    sp = add("act", cmd_act, "perform one allowed action of the current step")
    campaign_arg(sp)
    sp.add_argument("action")
    sp.add_argument("values", nargs="*", metavar="NAME=VALUE",
                    help="parameters, and answers to decisions (by their id); "
                         "NAME=@FILE reads the value from a file")
    sp.add_argument("--preview", action="store_true", help="show the result without saving")
    sp.add_argument("--json", action="store_true")
    by_arg(sp)

    sp = add("status", cmd_status, "where the campaign stands and what may be done now")
    campaign_arg(sp)
    sp.add_argument("--json", action="store_true")
    by_arg(sp)

    sp = add("advance", cmd_advance, "advance one step, or say why not (exit 1)")
    campaign_arg(sp)
    sp.add_argument("values", nargs="*", metavar="NAME=VALUE", help="answers to decisions")
    by_arg(sp)

    sp = add("undo", cmd_undo, "undo the last action")
    campaign_arg(sp)
    sp.add_argument("--yes", action="store_true", help="confirm undoing past a die roll")
    by_arg(sp)

    sp = add("redo", cmd_redo, "redo the last undone action (same rolls)")
    campaign_arg(sp)
    by_arg(sp)

    sp = add("log", cmd_log, "the action log with rolls")
    campaign_arg(sp)
    sp.add_argument("--turn", type=int, help="only entries of this turn (the outermost clock)")
    sp.add_argument("--rolls", action="store_true", help="only entries with rolls")
    sp.add_argument("--limit", type=int, help="only the last N entries")
    sp.add_argument("--json", action="store_true")
    by_arg(sp)

    sp = add("check", cmd_check, "validate a save; exit 1 naming file, line and problem")
    campaign_arg(sp)
    sp.add_argument("--replay", action="store_true", help="also re-run every action")

    sp = add("export", cmd_export, "write the single-file bundle, or one side's export")
    campaign_arg(sp)
    sp.add_argument("--side", help="export only what this side may see")
    sp.add_argument("-o", "--output", help="file to write")

    sp = add("report", cmd_report, "the rule set's reports (Markdown), for the GM or one side")
    campaign_arg(sp)
    sp.add_argument("--side", help="only what this side may know")
    sp.add_argument("-o", "--output", help="write one .md file per report into this folder")

    sp = add("import", cmd_import, "turn a bundle into one of your campaigns")
    sp.add_argument("bundle")
    sp.add_argument("--name")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    fn = getattr(args, "fn", cmd_tui)
    try:
        return int(fn(args) or 0)
    except Usage as exc:
        parser.error(str(exc))
        return EXIT_USAGE
    except SaveError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except CampaignError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
