"""The ``campaign-tui`` command.

With no arguments it starts the TUI on the campaign picker. Every other command works
without a screen, for scripting, play by e-mail and quick reference at the table.

One module per command group: ``reference`` (rule sets, tables, procedures, dice),
``play`` (act, advance, undo, redo, status, log), ``files`` (new, list, check, export,
report, import, the TUI); ``common`` holds what they share and ``parser`` the arguments.

Exit codes: 0 done; 1 refused, invalid or failed check; 2 bad arguments; 3 a decision is
needed (give it as NAME=VALUE and run again).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from campaign_tui.cli.common import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, EXIT_USAGE, Usage
from campaign_tui.cli.files import cmd_tui
from campaign_tui.cli.parser import build_parser
from campaign_tui.core.errors import CampaignError, SaveError

__all__ = ["EXIT_DECIDE", "EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "Usage", "build_parser", "main"]


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
