"""Rounds: the stretches of dice a long resolution is played in.

A procedure marks where each round starts (``ctx.round("Round 2: Sathar fire")``); the
dice up to the next mark (or the end of the action) are that round's dice. The dice
before the first mark form round 0. A held preview (``hold_rolls``) may then release a
whole round at once with the answer ``round:N = "auto"``: the program rolls the rest of
that round and holds again at the first die of the next one. Each mark is also written
into the explanation as a heading line, so the log, the command line and the resolve
dialog's running summary show where each round starts.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign_tui.core.records import record

HEAD = "── "
TAIL = " ──"


def round_key(n: int) -> str:
    """The answer that releases round *n* to the program's dice (``round:2=auto``)."""
    return f"round:{n}"


def heading(label: str) -> str:
    """The explanation line that opens a round."""
    return f"{HEAD}{label}{TAIL}"


def heading_label(line: str) -> str | None:
    """The round's label if *line* opens a round, else None."""
    if line.startswith(HEAD) and line.endswith(TAIL) and len(line) > len(HEAD) + len(TAIL):
        return line[len(HEAD):-len(TAIL)]
    return None


@record
class RoundLines:
    """One round's explanation: its label ("" before the first mark) and its lines."""

    label: str
    lines: list[str]


def split_rounds(lines: Sequence[str]) -> list[RoundLines]:
    """The explanation cut at each round's heading (lines before the first heading make
    an unlabelled first part, left out when empty)."""
    parts = [RoundLines("", [])]
    for line in lines:
        label = heading_label(line)
        if label is None:
            parts[-1].lines.append(line)
        else:
            parts.append(RoundLines(label, []))
    return parts if parts[0].lines else parts[1:]
