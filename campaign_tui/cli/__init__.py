"""The ``campaign-tui`` command.

With no arguments it starts the TUI on the campaign picker. Every other command works
without a screen, for scripting, play by e-mail and quick reference at the table.

One module per command group: ``reference`` (rule sets, tables, procedures, dice),
``play`` (act, advance, undo, redo, status, log), ``files`` (new, list, check, export,
report, import, the TUI); ``common`` holds what they share and ``parser`` the arguments.

Exit codes: 0 done; 1 refused, invalid or failed check; 2 bad arguments; 3 a decision is
needed (give it as NAME=VALUE and run again). A closed output pipe (``... | head -1``)
never changes the exit code: the rest of the output is dropped, the work is done.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from typing import Any

from campaign_tui.cli.common import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, EXIT_USAGE, Usage
from campaign_tui.cli.files import cmd_open, cmd_tui
from campaign_tui.cli.parser import build_parser
from campaign_tui.core.errors import CampaignError

__all__ = ["EXIT_DECIDE", "EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "Usage", "build_parser", "main"]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """Control characters (ESC, BEL, ...) from names, notes or received files shown as
    ``\\u001b`` instead of reaching the terminal; line breaks and tabs stay. The escape
    is also valid inside a JSON string."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class PipeSafe:
    """Standard output for the commands: control characters escaped, and what cannot be
    written dropped once the reader has gone away."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.broken = False

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                return self._stream.write(escape_controls(text))
            except BrokenPipeError:
                self._break()
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._break()

    def _break(self) -> None:
        self.broken = True
        try:  # what is still buffered goes nowhere, also when Python flushes at exit
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _not_utf8(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if any(0xDC80 <= ord(ch) <= 0xDCFF for ch in arg):
            shown = os.fsencode(arg).decode("utf-8", errors="backslashreplace")
            return f"error: the argument {shown!r} is not valid UTF-8 text; retype it"
    return None


def _os_message(exc: OSError) -> str:
    where = exc.filename or "(no file named)"
    return f"error: {where}: {exc.strerror or exc}; check the path and that you may write there"


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    problem = _not_utf8(args_in)
    if problem:
        print(problem, file=sys.stderr)
        return EXIT_FAIL
    parser = build_parser()
    args = parser.parse_args(args_in)
    fn = getattr(args, "fn", cmd_tui)
    interactive = fn in (cmd_tui, cmd_open)
    saved_stdout = sys.stdout
    if not interactive:
        sys.stdout = PipeSafe(sys.stdout)
    try:
        return int(fn(args) or 0)
    except Usage as exc:
        parser.error(str(exc))
        return EXIT_USAGE
    except CampaignError as exc:            # SaveError and the engine's refusals
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAIL
    except OSError as exc:                  # a file the command itself was told to write
        print(_os_message(exc), file=sys.stderr)
        return EXIT_FAIL
    except (RecursionError, MemoryError):
        print("error: the input is nested or sized beyond what campaign-tui reads",
              file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        return 130
    finally:
        if not interactive:
            sys.stdout.flush()
            sys.stdout = saved_stdout


if __name__ == "__main__":
    raise SystemExit(main())
