"""Reading typed values the same way everywhere: choices without regard to case, lists in
the usual spellings, and unknown names refused with the list of known ones.

Parameters (:class:`~campaign_tui.core.actions.Param`), decisions and the command line all
use these, so ``side=Imperial``, ``side=imperial`` and ``side=IMPERIAL`` read alike in every
rule set, and a value that matches nothing is an error, never a default branch.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from campaign_tui.core.errors import InvalidInput

_NUMBER = re.compile(r"[+-]?\d+(?:[./]\d+)?")


def match_choice(raw: Any, choices: Sequence[str], where: str) -> str:
    """The choice *raw* names, in its canonical spelling (exact match first, then without
    regard to case); an error listing the choices when it names none."""
    text = str(raw).strip()
    if text in choices:
        return text
    folded = [c for c in choices if c.casefold() == text.casefold()]
    if len(folded) == 1:
        return folded[0]
    shown = ", ".join(repr(c) if c == "" else c for c in choices)
    raise InvalidInput(f"{where}: {raw!r} is not one of {shown}")


def split_list(raw: Any) -> list[Any]:
    """A list from text: ``1,0,0``, ``[1,0,0]``, ``1 0 0`` (numbers), ``["a", "b"]``, or a
    list as is."""
    if isinstance(raw, (list, tuple)):
        return list(raw)
    text = str(raw).strip()
    if text.startswith("[") and text.endswith("]"):
        try:
            data = json.loads(text)
        except ValueError:
            text = text[1:-1]
        else:
            if isinstance(data, list):
                return [str(v) if not isinstance(v, str) else v for v in data]
            text = text[1:-1]
    if "," in text:
        return [v.strip() for v in text.split(",") if v.strip()]
    words = text.split()
    if len(words) > 1 and all(_NUMBER.fullmatch(w) for w in words):
        return words  # "1 0 0"; names with spaces ("sink holes") stay one item
    return [text] if text else []


def refuse_unknown(given: Iterable[str], known: Iterable[str], where: str,
                   what: str = "parameter") -> None:
    """Refuse names that are not among *known*, listing the known ones."""
    names = list(known)
    unknown = sorted(set(given) - set(names))
    if unknown:
        plural = "s" if len(unknown) > 1 else ""
        raise InvalidInput(f"{where}: unknown {what}{plural} {', '.join(unknown)}; "
                           f"{what}s: {', '.join(names) or 'none'}")
