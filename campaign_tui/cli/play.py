"""Playing a campaign from the shell: act, advance, undo, redo, status and the log."""

from __future__ import annotations

import argparse

from campaign_tui.cli.common import (
    EXIT_DECIDE,
    EXIT_FAIL,
    EXIT_OK,
    changing,
    open_ro,
    pairs,
    print_decision,
    print_entry,
    print_json,
    side_view,
)
from campaign_tui.core.errors import AdvanceRefused, NeedConfirmation, NeedDecision


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
            print_decision(exc, seat)
            return EXIT_DECIDE
    print_entry(outcome, args.json, seat)
    if not args.json and not args.preview:
        print(f"now: {engine.where()}")
    return EXIT_OK


def cmd_advance(args: argparse.Namespace) -> int:
    with changing(args) as opened:
        engine = opened.engine
        seat = side_view(engine, args.by)
        try:
            outcome = engine.advance(pairs(args.values), by=args.by)
        except AdvanceRefused as exc:
            print(seat.text(str(exc)))
            return EXIT_FAIL
        except NeedDecision as exc:
            print_decision(exc, seat)
            return EXIT_DECIDE
    print_entry(outcome, False, seat)
    st = seat.status()
    print(f"now: {st.clock_text} · {st.phase_title} · {st.step_title}")
    print(f"{st.actor_name}: {st.prompt}")
    return EXIT_OK


def cmd_undo(args: argparse.Namespace) -> int:
    with changing(args) as opened:
        seat = side_view(opened.engine, args.by)
        try:
            outcome = opened.engine.undo(by=args.by, confirm=args.yes)
        except NeedConfirmation as exc:
            print(f"{seat.text(str(exc))}\nRun again with --yes to confirm.")
            return EXIT_FAIL
    print_entry(outcome, False, seat)
    return EXIT_OK


def cmd_redo(args: argparse.Namespace) -> int:
    with changing(args) as opened:
        seat = side_view(opened.engine, args.by)
        outcome = opened.engine.redo(by=args.by)
    print_entry(outcome, False, seat)
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
        print_json({
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
        print_json([e.to_dict() for e in entries])
        return EXIT_OK
    for e in entries:
        clock = engine.machine.clock_text(e.clock)
        print(f"#{e.seq} [{clock} · {e.step}] {e.by}: {e.summary}")
        for r in e.rolls:
            print(f"    roll {r.n}: {r.describe()} — {r.purpose}")
    return EXIT_OK
