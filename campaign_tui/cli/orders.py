"""Playing by e-mail: draft a side's orders, check them in a player's copy, import them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    Usage,
    emit,
    open_ro,
    open_rw,
    read_value_file,
    side_view,
)
from campaign_tui.core.errors import CampaignError, NeedDecision

if TYPE_CHECKING:     # imported where used: every start of the program reads this module
    from campaign_tui.core import orders as book


def add_parser(add: Any, campaign_arg: Any, json_arg: Any) -> None:
    sp = add("orders", cmd_orders,
             "play by e-mail: draft a side's orders for the current step as a TOML file, "
             "check a filled-in file, or import one as that side's actions")
    campaign_arg(sp)
    sp.add_argument("--side", help="the side whose orders to draft (on a side's export: "
                                   "that side)")
    sp.add_argument("-o", "--output", help="write the orders file here (default: print it)")
    mode = sp.add_mutually_exclusive_group()
    mode.add_argument("--check", metavar="FILE",
                      help="check a filled-in orders file against what the side may see")
    mode.add_argument("--import", dest="import_file", metavar="FILE",
                      help="(GM) review an orders file and perform it as that side's actions")
    sp.add_argument("--yes", action="store_true", help="accept the reviewed orders without "
                                                      "asking")
    json_arg(sp)


def _read(name: str) -> book.Orders:
    from campaign_tui.core import orders as book

    return book.parse(read_value_file("orders", name), name)


def _problem_rows(problems: list[book.Problem]) -> list[dict[str, Any]]:
    return [{"line": p.line, "message": p.message} for p in problems]


def _print_problems(source: str, problems: list[book.Problem]) -> None:
    for p in problems:
        print(f"{source}: line {p.line}: {p.message}")


def cmd_orders(args: argparse.Namespace) -> int:
    if args.import_file:
        return _import(args)
    if args.check:
        return _check(args)
    return _draft(args)


def _draft(args: argparse.Namespace) -> int:
    from campaign_tui.core import orders as book

    engine = open_ro(args).engine
    seat = side_view(engine, args.side)
    if seat.side == "gm":
        raise Usage("give the side: --side SIDE (one of "
                    + ", ".join(engine.state.sides) + ")")
    text = book.draft(seat, engine.info.name)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    if args.json:
        emit("orders", {"mode": "draft", "side": seat.side, "path": args.output,
                        "text": text, "actions": [], "problems": [], "accepted": None})
    elif args.output:
        print(args.output)
    else:
        print(text, end="")
    return EXIT_OK


def _check(args: argparse.Namespace) -> int:
    from campaign_tui.core import orders as book

    engine = open_ro(args).engine
    orders = _read(args.check)
    seat = side_view(engine, args.side or orders.side)
    problems = book.check(seat, orders)
    taken = book.taken(orders)
    if args.json:
        emit("orders", {"mode": "check", "side": seat.side, "path": args.check,
                        "actions": [_row(a, None) for a in taken],
                        "problems": _problem_rows(problems), "accepted": None})
    elif problems:
        _print_problems(args.check, problems)
    else:
        print(f"{args.check}: ok ({len(taken)} action(s) to take: "
              f"{', '.join(a.kind for a in taken) or 'none'})")
    return EXIT_FAIL if problems else EXIT_OK


def _row(a: book.OrderAction, summary: str | None) -> dict[str, Any]:
    return {"kind": a.kind, "line": a.line, "summary": summary}


def _perform_all(engine: Any, side: str, taken: list[book.OrderAction]) -> tuple[
        list[dict[str, Any]], list[book.Problem]]:
    from campaign_tui.core import orders as book

    rows, problems = [], []
    for a in taken:
        try:
            names = {p.name for p in engine.action_def(a.kind).params}
            params, answers = book.params_and_answers(a, names)
            outcome = engine.perform(a.kind, params, answers, by=side)
        except NeedDecision as exc:
            d = exc.decision
            problems.append(book.Problem(a.line, f"{a.kind}: needs an answer: {d.prompt}; "
                                                 f"add `{d.id} = VALUE` to this action"))
            continue
        except CampaignError as exc:
            problems.append(book.Problem(a.line_of(str(exc)), f"{a.kind}: {exc}"))
            continue
        if outcome.unasked:
            problems.append(book.Problem(a.line_of(outcome.unasked[0]),
                                         f"{a.kind}: unknown value(s) "
                                         f"{', '.join(outcome.unasked)}"))
        rows.append(_row(a, outcome.entry.summary))
    return rows, problems


def _confirm(args: argparse.Namespace) -> bool:
    if args.yes:
        return True
    if not sys.stdin.isatty() or args.json:
        return False
    try:
        return input("Accept these orders? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def _import(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import close, save
    from campaign_tui.core import orders as book

    orders = _read(args.import_file)
    opened = open_rw(args)
    try:
        engine = opened.engine
        if engine.info.export_side:
            raise CampaignError(
                f"{args.campaign} is a player's copy ({engine.info.export_side}'s view): "
                "orders are imported by the GM into the campaign itself; check them here "
                "with --check FILE")
        seat = side_view(engine, orders.side)
        problems = book.check(seat, orders)
        rows: list[dict[str, Any]] = []
        if not problems:
            rows, problems = _perform_all(engine, seat.side, book.taken(orders))
        accepted = False
        if not problems:
            if not args.json:
                _print_review(args.import_file, seat.side, rows)
            accepted = _confirm(args)
            if accepted:
                save(opened)
    finally:
        close(opened)
    if args.json:
        emit("orders", {"mode": "import", "side": orders.side, "path": args.import_file,
                        "actions": rows, "problems": _problem_rows(problems),
                        "accepted": accepted})
    elif problems:
        _print_problems(args.import_file, problems)
        print("nothing was changed")
    else:
        print("accepted: the orders are in the log" if accepted else
              "rejected: nothing was changed" + ("" if args.yes or sys.stdin.isatty()
                                                 else " (give --yes to accept)"))
    return EXIT_OK if accepted else EXIT_FAIL


def _print_review(source: str, side: str, rows: list[dict[str, Any]]) -> None:
    print(f"{source}: {len(rows)} action(s) by {side}:")
    for r in rows:
        print(f"  line {r['line']}: {r['kind']}: {r['summary']}")
