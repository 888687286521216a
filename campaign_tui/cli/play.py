"""Playing a campaign from the shell: act, advance, undo, redo, status and the log."""

from __future__ import annotations

import argparse
from typing import Any

from campaign_tui.cli.common import (
    EXIT_DECIDE,
    EXIT_FAIL,
    EXIT_OK,
    Usage,
    changing,
    emit,
    open_ro,
    pairs,
    print_decision,
    print_entry,
    side_view,
)
from campaign_tui.cli.units import formation_rows
from campaign_tui.core.advancing import Target, advance_until, clock_target, step_target
from campaign_tui.core.errors import InvalidInput, NeedConfirmation, NeedDecision


def _refused(command: str, message: str, as_json: bool) -> int:
    if as_json:
        emit("error", {"error": message, "exit": EXIT_FAIL, "during": command})
    else:
        print(message)
    return EXIT_FAIL


def cmd_act(args: argparse.Namespace) -> int:
    with changing(args) as opened:
        engine = opened.engine
        seat = side_view(engine, args.by)
        defn = engine.action_def(args.action)
        raw = pairs(args.values)
        names = {p.name for p in defn.params}
        params = {k: v for k, v in raw.items() if k in names}
        answers = {k: v for k, v in raw.items() if k not in names}
        try:
            outcome = engine.perform(args.action, params, answers, by=args.by,
                                     preview=args.preview)
        except NeedDecision as exc:
            print_decision(exc, args.json, seat)
            return EXIT_DECIDE
        _refuse_unasked(outcome, [p.name for p in defn.params], args.action)
    print_entry(outcome, args.json, engine, seat)
    if not args.json and not args.preview:
        print(f"now: {engine.where()}")
    return EXIT_OK


def _refuse_unasked(outcome: Any, params: list[str], action: str) -> None:
    """A NAME=VALUE that is neither a parameter nor an answer the action asked for is a
    misspelling: refuse it (inside ``changing``, so nothing is saved)."""
    if outcome.unasked:
        raise Usage(f"action {action}: unknown parameter{'s' * (len(outcome.unasked) > 1)} "
                    f"{', '.join(outcome.unasked)}; parameters: {', '.join(params) or 'none'}")


def _target(engine: Any, args: argparse.Namespace) -> Target:
    """What ``advance`` waits for: a step, a number of turns or days, the next step where
    something is due, or one step."""
    if getattr(args, "due", False):
        return Target("due")
    try:
        if args.until:
            return step_target(engine, args.until)
        if args.turns is not None or args.days is not None:
            return clock_target(engine, args.turns if args.turns is not None else args.days,
                                days=args.days is not None)
    except InvalidInput as exc:
        raise Usage(f"--until {args.until!r}: {exc}" if args.until else str(exc)) from None
    return Target()


def cmd_advance(args: argparse.Namespace) -> int:
    count = args.turns if args.turns is not None else args.days
    if count is not None and count < 1:
        raise Usage("--turns/--days must be at least 1")
    with changing(args) as opened:
        engine = opened.engine
        seat = side_view(engine, args.by)
        target = _target(engine, args)
        done = advance_until(engine, target, by=args.by, answers=pairs(args.values),
                             max_steps=args.max_steps)
        outcomes, stop, code = done.outcomes, seat.text(done.stop), EXIT_OK
        if outcomes:
            _refuse_unasked(outcomes[0], [], "advance")
        if done.refused is not None:
            if not outcomes:
                return _refused("advance", seat.text(str(done.refused)), args.json)
            stop, code = seat.text(str(done.refused)), EXIT_FAIL
        elif done.decision is not None:
            if not outcomes or not args.json:
                _print_steps(outcomes, args.json, seat)
                print_decision(done.decision, args.json, seat)
                return EXIT_DECIDE
            decision, _ = seat.decision(done.decision.decision, done.decision.preview)
            stop, code = f"a decision is needed: {decision.prompt}", EXIT_DECIDE
        elif done.why == "final":
            stop = f"the campaign is over: {seat.status().outcome}"
    st = seat.status()
    if args.json:
        shown = [seat.entry(o.entry) for o in outcomes]
        emit("advance", {"entries": [e.to_dict() for e in shown if e is not None],
                         "stopped": stop, "now": _now(st)})
        return code
    _print_steps(outcomes, False, seat)
    if stop:
        print(f"stopped: {stop}")
    print(f"now: {st.clock_text} · {st.phase_title} · {st.step_title}")
    print(f"{st.actor_name}: {st.prompt}")
    return code


def _print_steps(outcomes: list[Any], as_json: bool, seat: Any) -> None:
    if not as_json:
        for outcome in outcomes:
            print_entry(outcome, False, None, seat)


def _print_undone(command: str, outcome: Any, as_json: bool, seat: Any) -> None:
    entry = seat.entry(outcome.entry)
    if as_json:
        emit(command, {"summary": entry.summary if entry else "", "entry":
                       entry.to_dict() if entry else None})
    else:
        print_entry(outcome, False, None, seat)


def _now(st: Any) -> dict[str, Any]:
    return {"clock": st.clock, "clock_text": st.clock_text, "phase": st.phase,
            "step": st.step, "step_title": st.step_title, "actor": st.actor,
            "prompt": st.prompt, "final": st.final}


def cmd_undo(args: argparse.Namespace) -> int:
    with changing(args) as opened:
        seat = side_view(opened.engine, args.by)
        try:
            outcome = opened.engine.undo(by=args.by, confirm=args.yes)
        except NeedConfirmation as exc:
            return _refused("undo", f"{seat.text(str(exc))}\nRun again with --yes to confirm.",
                            args.json)
    _print_undone("undo", outcome, args.json, seat)
    return EXIT_OK


def cmd_redo(args: argparse.Namespace) -> int:
    with changing(args) as opened:
        seat = side_view(opened.engine, args.by)
        outcome = opened.engine.redo(by=args.by)
    _print_undone("redo", outcome, args.json, seat)
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    opened = open_ro(args)
    engine = opened.engine
    seat = side_view(engine, args.by)
    st = seat.status()
    view = seat.state
    try:
        heads = seat.headline()
    except Exception as exc:  # a rule set meeting damaged data: report, do not crash
        heads = {sid: [f"(totals unavailable: {type(exc).__name__}: {exc})"]
                 for sid in view.sides}
    if args.json:
        emit("status", {
            "campaign": engine.info.name, "ruleset": engine.ruleset.id, "clock": st.clock,
            "clock_text": st.clock_text, "phase": st.phase, "step": st.step,
            "step_title": st.step_title, "actor": st.actor, "prompt": st.prompt,
            "missing": st.missing, "final": st.final, "outcome": st.outcome,
            "choices": [{"kind": c.kind, "title": c.title, "available": c.available,
                         "reason": c.reason, "params": [p.name for p in c.params]}
                        for c in st.choices],
            "sides": heads,
            "viewer": args.by,
            "viewer_sides": [args.by] if args.by in view.sides else list(view.sides),
            "side_names": {sid: s.name for sid, s in view.sides.items()},
            "formations": formation_rows(engine, args.by)})
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
    opened = open_ro(args)
    engine = opened.engine
    seat = side_view(engine, args.by)
    tail_only = (args.limit or 0) > 0 and args.turn is None and not args.rolls
    entries = seat.last(args.limit) if tail_only else seat.entries()
    outer = engine.machine.clock[0].name if engine.machine.clock else None
    if args.turn is not None and outer:
        entries = [e for e in entries if e.clock.get(outer) == args.turn]
    if args.rolls:
        entries = [e for e in entries if e.rolls]
    if args.limit:
        entries = entries[-args.limit:]
    if args.json:
        from campaign_tui.cli.json_out import SCHEMA_VERSION, dumps, plain

        # an array, as before: each entry names its schema version
        print(dumps(plain([{"schema": SCHEMA_VERSION, **e.to_dict()} for e in entries])))
        return EXIT_OK
    for e in entries:
        clock = engine.machine.clock_text(e.clock)
        print(f"#{e.seq} [{clock} · {e.step}] {e.by}: {e.summary}")
        for r in e.rolls:
            print(f"    roll {r.n}: {r.describe()} — {r.purpose}")
    return EXIT_OK
