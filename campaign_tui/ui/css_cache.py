"""Textual's parsed stylesheets, kept between runs.

Textual parses every stylesheet (``app.tcss`` and each widget class's default CSS) at each
start: some thirty to forty milliseconds, a twentieth of the start-up with a large
campaign. The rules parsed at one start are kept in the user cache folder and read back at
the next (a few milliseconds). An entry is keyed by the CSS text itself, where it was read
from, its scope and the theme's variables, in a file named after the installed Textual's
parser and the theme, so an edited stylesheet, another theme or another Textual parses
again. A missing or damaged file is parsed as before; the folder can be deleted at any time.
Textual's ``reparse`` (a theme changed while running) parses in a stylesheet of its own,
without this cache: those rules are parsed as before and not kept.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
from pathlib import Path
from typing import Any

from textual.css import parse as textual_parse
from textual.css.stylesheet import Stylesheet

from campaign_tui.core import digests

VERSION = 1


def _parser_stamp() -> str:
    """What changes when Textual's CSS parser or its rule objects change (an upgrade)."""
    parts = [sys.version.split()[0], str(VERSION)]
    for module in (textual_parse, sys.modules[Stylesheet.__module__]):
        with contextlib.suppress(OSError, TypeError):
            st = os.stat(str(module.__file__))
            parts.append(f"{st.st_size}:{st.st_mtime_ns}")
    return "/".join(parts)


class CachedStylesheet(Stylesheet):
    """A stylesheet whose parsed rules come from the cache file when it has them."""

    _kept: dict[tuple[Any, ...], Any]
    _fresh: bool
    _cache_file: Path  # set by use_cache before any parse

    def _parse_rules(self, css: str, read_from: Any, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope)
        kept = self._kept.get(key)
        if kept is not None:
            self._parse_cache[key] = kept
            return kept
        rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        self._kept[key] = rules
        self._fresh = True
        return rules

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        if hasattr(self, "_cache_file"):  # (Textual's own __init__ sets them first)
            self._open(self._cache_file.parent)

    def _open(self, folder: Path) -> None:
        """Read the cached rules for the current variables (the theme)."""
        digest = digests.blake2b(repr((_parser_stamp(), sorted(self._variables.items())))
                                 .encode(), digest_size=12).hexdigest()
        target = folder / f"{digest}.pickle"
        if target == getattr(self, "_cache_file", None):
            return  # the same theme again: what is kept stays
        if getattr(self, "_fresh", False):
            self.keep()  # the theme before: what it parsed is kept before it is left
        self._cache_file = target
        self._kept, self._fresh = {}, False
        with contextlib.suppress(Exception):  # missing, damaged, or from another Textual
            with self._cache_file.open("rb") as fh:
                kept = pickle.load(fh)
            if isinstance(kept, dict):
                self._kept = kept

    def keep(self) -> None:
        """Write what was parsed this run to the cache file (atomically; errors ignored)."""
        target = self._cache_file
        if not self._fresh:
            return
        self._fresh = False
        with contextlib.suppress(Exception):
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
            tmp.write_bytes(pickle.dumps(self._kept, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp, target)


def use_cache(stylesheet: Stylesheet, folder: Path | None) -> CachedStylesheet | None:
    """Make *stylesheet* (a fresh app's) read and keep its parsed rules in *folder*; None
    when there is no folder (caches turned off) or this Textual's stylesheet is not the
    one this was written for."""
    if folder is None or type(stylesheet) is not Stylesheet \
            or not hasattr(stylesheet, "_parse_cache"):
        return None
    stylesheet.__class__ = CachedStylesheet
    assert isinstance(stylesheet, CachedStylesheet)
    stylesheet._open(folder)
    return stylesheet
