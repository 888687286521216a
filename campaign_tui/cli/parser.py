"""The argument parser: one sub-command per command, each bound to its function."""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

from campaign_tui import __version__
from campaign_tui.cli.files import (
    cmd_check,
    cmd_export,
    cmd_import,
    cmd_list,
    cmd_new,
    cmd_open,
    cmd_report,
)
from campaign_tui.cli.hosting import add_parser as add_hosting_parser
from campaign_tui.cli.map import add_parser as add_map_parser
from campaign_tui.cli.orders import add_parser as add_orders_parser
from campaign_tui.cli.play import cmd_act, cmd_advance, cmd_log, cmd_redo, cmd_status, cmd_undo
from campaign_tui.cli.reference import (
    cmd_calc,
    cmd_phases,
    cmd_procedures,
    cmd_roll,
    cmd_rulesets,
    cmd_scenarios,
    cmd_table,
    cmd_tables,
)
from campaign_tui.cli.units import cmd_units


class Parser(argparse.ArgumentParser):
    """argparse, with bad arguments also reported as a JSON ``error`` on stdout when the
    command line asks for ``--json`` (the exit status stays 2)."""

    json_errors = False

    def error(self, message: str) -> NoReturn:
        if Parser.json_errors:
            from campaign_tui.cli.common import emit

            emit("error", {"error": message, "exit": 2})
        super().error(message)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = Parser(
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
        sp.set_defaults(fn=fn, json=False, pairs_dest=None)
        return sp

    def campaign_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("campaign", metavar="PATH|NAME",
                        help="a campaign folder or file, a campaign name, or an example name")

    def json_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--json", action="store_true",
                        help=f"print JSON (schema: campaign_tui/cli/schemas/{sp.prog.split()[-1]}"
                             ".json); refusals and decisions too")

    def option_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--option", action="append", metavar="NAME=VALUE",
                        help="set a rule-set option instead of its default (repeatable)")

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
    sp.add_argument("--quick-setup", action="store_true",
                    help="do the scenario's whole set-up at once (one undo removes it)")
    json_arg(sp)

    sp = add("list", cmd_list, "your campaigns and the bundled examples")
    sp.add_argument("--mine", action="store_true", help="leave out the bundled examples")
    json_arg(sp)

    json_arg(add("rulesets", cmd_rulesets, "installed rule sets (id, name, version)"))

    sp = add("scenarios", cmd_scenarios, "a rule set's scenarios")
    sp.add_argument("ruleset")
    sp.add_argument("--ids", action="store_true", help="print ids only")
    json_arg(sp)

    sp = add("tables", cmd_tables, "a rule set's tables with their inputs and provenance")
    sp.add_argument("ruleset")
    json_arg(sp)

    sp = add("phases", cmd_phases, "a rule set's sequence of play as an outline")
    sp.add_argument("ruleset")
    sp.add_argument("--machine", help="only this phase machine")
    json_arg(sp)

    sp = add("table", cmd_table, "look up one table entry, with the explanation (logs nothing)")
    sp.add_argument("ruleset")
    sp.add_argument("table", help="table id or the rulebook's name for it (T4, 4.1...)")
    sp.add_argument("inputs", nargs="*", metavar="NAME=VALUE",
                    help="inputs; odds as attack:defense, e.g. odds=15:5")
    sp.add_argument("--roll", type=int, help="the die roll (rolled when absent; 0 on a d10 "
                                             "reads as 10)")
    sp.add_argument("--shift", action="append", metavar="AXIS=N",
                    help="shift an axis, e.g. odds=-1 (one column left)")
    sp.set_defaults(pairs_dest="inputs")
    json_arg(sp)

    sp = add("roll", cmd_roll, "roll dice: d6, 2d6, d10, d100, 3d10+4")
    sp.add_argument("expr")
    sp.add_argument("--seed", type=int)
    json_arg(sp)

    sp = add("procedures", cmd_procedures, "a rule set's procedures with their inputs")
    sp.add_argument("ruleset")
    json_arg(sp)

    sp = add("calc", cmd_calc, "run one procedure with its explanation (logs nothing)")
    sp.add_argument("ruleset")
    sp.add_argument("procedure")
    sp.add_argument("inputs", nargs="*", metavar="NAME=VALUE")
    sp.add_argument("--dice", help="die values to use, in order: 7,3 (every roll takes its "
                                   "dice from here; none may be left over)")
    sp.add_argument("--seed", type=int)
    option_arg(sp)
    sp.set_defaults(pairs_dest="inputs")
    json_arg(sp)

    sp = add("act", cmd_act, "perform one allowed action of the current step")
    campaign_arg(sp)
    sp.add_argument("action")
    sp.add_argument("values", nargs="*", metavar="NAME=VALUE",
                    help="parameters, and answers to decisions (by their id); "
                         "NAME=@FILE reads the value from a file")
    sp.add_argument("--preview", action="store_true", help="show the result without saving")
    sp.set_defaults(pairs_dest="values")
    json_arg(sp)
    by_arg(sp)

    sp = add("status", cmd_status, "where the campaign stands and what may be done now")
    campaign_arg(sp)
    json_arg(sp)
    by_arg(sp)

    sp = add("units", cmd_units, "the units the viewer may see: ids, names, formation, "
                                 "location, values and status")
    campaign_arg(sp)
    sp.add_argument("--filter", action="append", metavar="TEXT|FIELD=VALUE",
                    help="only units whose id, name, side, formation or location contains "
                         "TEXT, or whose FIELD (side, formation, location, type, status) "
                         "is VALUE (repeatable: all must match)")
    json_arg(sp)
    by_arg(sp)

    sp = add("advance", cmd_advance, "advance one step (or several), or say why not (exit 1)")
    campaign_arg(sp)
    sp.add_argument("values", nargs="*", metavar="NAME=VALUE", help="answers to decisions")
    until = sp.add_mutually_exclusive_group()
    until.add_argument("--until", metavar="STEP",
                       help="keep advancing until this step (id or title) is reached")
    until.add_argument("--turns", type=int, metavar="N",
                       help="keep advancing until the outermost clock has moved N times")
    until.add_argument("--days", type=int, metavar="N",
                       help="keep advancing until the day clock has moved N times")
    until.add_argument("--due", action="store_true",
                       help="keep advancing until something is due: a side's required action "
                            "or decision, a roll to make, a battle (as the TUI's N)")
    sp.add_argument("--max-steps", type=int, default=10000, metavar="N",
                    help="stop after N steps at most (default 10000)")
    sp.set_defaults(pairs_dest="values")
    json_arg(sp)
    by_arg(sp)

    sp = add("undo", cmd_undo, "undo the last action")
    campaign_arg(sp)
    sp.add_argument("--yes", action="store_true", help="confirm undoing past a die roll")
    json_arg(sp)
    by_arg(sp)

    sp = add("redo", cmd_redo, "redo the last undone action (same rolls)")
    campaign_arg(sp)
    json_arg(sp)
    by_arg(sp)

    sp = add("log", cmd_log, "the action log with rolls")
    campaign_arg(sp)
    sp.add_argument("--turn", type=int, help="only entries of this turn (the outermost clock)")
    sp.add_argument("--rolls", action="store_true", help="only entries with rolls")
    sp.add_argument("--limit", type=positive_int, help="only the last N entries")
    json_arg(sp)
    by_arg(sp)

    sp = add("check", cmd_check, "validate a save; exit 1 naming file, line and problem")
    campaign_arg(sp)
    sp.add_argument("--replay", action="store_true", help="also re-run every action")
    json_arg(sp)

    sp = add("export", cmd_export, "write the single-file bundle, or one side's export")
    campaign_arg(sp)
    sp.add_argument("--side", help="export only what this side may see")
    sp.add_argument("-o", "--output", help="file to write")
    json_arg(sp)

    sp = add("report", cmd_report, "the rule set's reports (Markdown), for the GM or one side")
    campaign_arg(sp)
    sp.add_argument("--side", help="only what this side may know")
    sp.add_argument("-o", "--output", help="write one .md file per report into this folder")
    json_arg(sp)

    add_map_parser(add, campaign_arg, by_arg, json_arg)
    add_orders_parser(add, campaign_arg, json_arg)
    add_hosting_parser(add, campaign_arg, json_arg)

    sp = add("import", cmd_import, "turn a bundle into one of your campaigns")
    sp.add_argument("bundle")
    sp.add_argument("--name")
    json_arg(sp)
    return p
