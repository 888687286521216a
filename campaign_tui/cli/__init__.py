"""The ``campaign-tui`` command.

With no arguments it starts the TUI on the campaign picker. Every other command works
without a screen, for scripting, play by e-mail and quick reference at the table.

One module per command group: ``reference`` (rule sets, tables, procedures, dice),
``play`` (act, advance, undo, redo, status, log), ``units``, ``files`` (new, list, check,
export, report, import, the TUI); ``common`` holds what they share, ``parser`` the
arguments, ``json_out`` the ``--json`` format (schemas in ``schemas/``) and ``completion``
the shell completion.

Exit codes: 0 done; 1 refused, invalid or failed check; 2 bad arguments; 3 a decision is
needed (give it as NAME=VALUE and run again). A closed output pipe (``... | head -1``)
never changes the exit code: the rest of the output is dropped, the work is done.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from campaign_tui.cli.common import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, EXIT_USAGE, Usage
from campaign_tui.cli.files import cmd_open, cmd_tui
from campaign_tui.cli.output import PipeSafe, silence
from campaign_tui.core.errors import CampaignError

if TYPE_CHECKING:
    import argparse

__all__ = ["EXIT_DECIDE", "EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "Usage", "build_parser", "main"]


def __getattr__(name: str) -> Any:
    """``build_parser`` and ``Parser``, imported when first asked for: the two command
    lines that start the TUI never build the parser."""
    if name in ("build_parser", "Parser"):
        from campaign_tui.cli import parser

        return getattr(parser, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace:
    """Options and NAME=VALUE pairs in any order: pairs that argparse leaves over after an
    option join the command's NAME=VALUE list."""
    from campaign_tui.cli.parser import Parser

    words = list(argv)
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


def fail(args: argparse.Namespace, message: str, code: int,
         details: dict[str, Any] | None = None) -> int:
    """An error: on stderr, and with --json also as JSON on stdout (same exit code; a
    parameter's problem keeps its ids under ``details``)."""
    if getattr(args, "json", False):
        from campaign_tui.cli.common import emit

        emit("error", {"error": message, "exit": code, **({"details": details} if details
                                                          else {})})
    print(f"error: {message}", file=sys.stderr)
    return code


def _not_utf8(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if any(0xDC80 <= ord(ch) <= 0xDCFF for ch in arg):
            shown = os.fsencode(arg).decode("utf-8", errors="backslashreplace")
            return f"the argument {shown!r} is not valid UTF-8 text; retype it"
    return None


def _os_message(exc: OSError) -> str:
    where = exc.filename or "(no file named)"
    return f"{where}: {exc.strerror or exc}; check the path and that you may write there"


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    problem = _not_utf8(words)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_FAIL
    parser: argparse.ArgumentParser | None = None
    args = tui_args(words)
    if args is None:
        from campaign_tui.cli import completion
        from campaign_tui.cli.parser import build_parser

        parser = build_parser()
        completion.enable(parser)
        args = parse(parser, words)
    interactive = getattr(args, "fn", cmd_tui) in (cmd_tui, cmd_open)
    if interactive:
        return run(parser, args)
    saved_stdout = sys.stdout
    sys.stdout = PipeSafe(saved_stdout)  # type: ignore[assignment]
    try:
        return run(parser, args)
    finally:
        sys.stdout.flush()
        sys.stdout = saved_stdout


def tui_args(words: Sequence[str]) -> Any:
    """The arguments of the two command lines that start the TUI, ``campaign-tui`` and
    ``campaign-tui open PATH [--read-only]``, read without building every command's parser
    (a sixth of the TUI's start-up) or importing argparse; None for anything else (options,
    help, completion), which the parser reads as always. The result has the attributes the
    parser would give."""
    if os.environ.get("_ARGCOMPLETE"):
        return None
    if not words:
        return SimpleNamespace(home=None, command=None)
    if words[0] != "open" or len(words) > 3:
        return None
    rest = list(words[1:])
    read_only = "--read-only" in rest
    if read_only:
        rest.remove("--read-only")
    if len(rest) != 1 or rest[0].startswith("-") or not rest[0]:
        return None
    return SimpleNamespace(home=None, command="open", fn=cmd_open, json=False,
                           pairs_dest=None, campaign=rest[0], read_only=read_only)


def run(parser: argparse.ArgumentParser | None, args: argparse.Namespace) -> int:
    """Run the command; turn the errors every command may meet into exit codes."""
    try:
        return int(getattr(args, "fn", cmd_tui)(args) or 0)
    except Usage as exc:
        if parser is None:  # the TUI's command lines: plain-text errors
            from campaign_tui.cli.parser import Parser, build_parser

            Parser.json_errors = False
            parser = build_parser()
        parser.error(str(exc))  # with --json, also JSON on stdout
        return EXIT_USAGE
    except CampaignError as exc:  # SaveError and the engine's refusals
        return fail(args, str(exc), EXIT_FAIL, getattr(exc, "details", None))
    except BrokenPipeError:  # the reader went away: the work is done, only output is lost
        silence(sys.__stdout__)
        return EXIT_OK
    except OSError as exc:  # a file the command itself was told to write
        return fail(args, _os_message(exc), EXIT_FAIL)
    except (RecursionError, MemoryError):
        return fail(args, "the input is nested or sized beyond what campaign-tui reads",
                    EXIT_FAIL)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
