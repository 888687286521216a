"""The argument parser: one sub-command per command, each bound to its function."""

from __future__ import annotations

import argparse
from typing import Any

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
    sp.add_argument("--quick-setup", action="store_true",
                    help="do the scenario's whole set-up at once (one undo removes it)")

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
