"""The ``campaign-tui`` command.

With no arguments it starts the TUI on the campaign picker. Every other command works
without a screen, for scripting, play by e-mail and quick reference at the table.

One module per command group: ``reference`` (rule sets, tables, procedures, dice),
``play`` (act, advance, undo, redo, status, log), ``units``, ``files`` (new, list, check,
export, report, import, the TUI); ``common`` holds what they share, ``parser`` the
arguments, ``json_out`` the ``--json`` format (schemas in ``schemas/``) and ``completion``
the shell completion.

Exit codes: 0 done; 1 refused, invalid or failed check; 2 bad arguments; 3 a decision is
needed (give it as NAME=VALUE and run again).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from campaign_tui.cli import completion
from campaign_tui.cli.common import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, EXIT_USAGE, Usage
from campaign_tui.cli.files import cmd_tui
from campaign_tui.cli.parser import Parser, build_parser
from campaign_tui.core.errors import CampaignError, SaveError

__all__ = ["EXIT_DECIDE", "EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "Usage", "build_parser", "main"]


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Options and NAME=VALUE pairs in any order: pairs that argparse leaves over after an
    option join the command's NAME=VALUE list."""
    words = list(sys.argv[1:] if argv is None else argv)
    Parser.json_errors = "--json" in words
    args, extra = parser.parse_known_args(words)
    dest = getattr(args, "pairs_dest", None)
    pairs = [x for x in extra if dest and "=" in x and not x.startswith("-")]
    rest = [x for x in extra if x not in pairs]
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if pairs:
        setattr(args, dest, [*(getattr(args, dest) or []), *pairs])
    return args


def fail(args: argparse.Namespace, message: str, code: int) -> int:
    """An error: on stderr, and with --json also as JSON on stdout (same exit code)."""
    if getattr(args, "json", False):
        from campaign_tui.cli.common import emit

        emit("error", {"error": message, "exit": code})
    print(f"error: {message}", file=sys.stderr)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    completion.enable(parser)
    args = parse(parser, argv)
    code = EXIT_OK  # a pipe closed while printing: the work is done, only output is lost
    try:
        code = run(parser, args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
    except BrokenPipeError:
        quiet_closed_pipe()
    return code


def run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the command; turn the errors every command may meet into exit codes."""
    try:
        return int(getattr(args, "fn", cmd_tui)(args) or 0)
    except Usage as exc:
        parser.error(str(exc))  # with --json, also a JSON error on stdout
    except (SaveError, CampaignError) as exc:
        return fail(args, str(exc), EXIT_FAIL)
    except KeyboardInterrupt:
        return 130


def quiet_closed_pipe() -> None:
    """The reader went away (``| head``): stop without a traceback. Point stdout at
    /dev/null so the interpreter's final flush does not complain either."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a real file (tests capture it)
        pass


if __name__ == "__main__":
    raise SystemExit(main())
