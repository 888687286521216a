"""The die log: every roll with its context, loaded page by page from the end.

:class:`DieLogModel` (no widgets) reads the action log through ``engine.history.range`` a
page at a time, newest first, and keeps only the rows that pass the filter. The
:class:`DieLog` widget draws only the lines on screen (Textual's line API), so tens of
thousands of entries cost no more than a screenful; scrolling to the top loads the next
older page.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import field
from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Input, Static

from campaign_tui.core.log import REDO, UNDO
from campaign_tui.core.records import record
from campaign_tui.ui import commands as C
from campaign_tui.ui.commands import bindings
from campaign_tui.ui.widgets.entry import Entry

if TYPE_CHECKING:
    from campaign_tui.core.dice import Roll
    from campaign_tui.core.engine import Engine
    from campaign_tui.core.log import LogEntry

PAGE = 200              # log entries read per page
FILL_LIMIT = 2000       # entries read at most per automatic fill (a filter that matches little)


@record
class LogFilter:
    turn: int | None = None
    phase: str = ""
    side: str = ""
    table: str = ""
    words: list[str] = field(default_factory=list)

    @classmethod
    def parse(cls, text: str) -> LogFilter:
        """``turn:3 phase:combat side:A table:crt words`` (t:, p:, s: for short)."""
        out = cls()
        for token in text.split():
            key, sep, value = token.partition(":")
            key = key.lower()
            if sep and value:
                if key in ("turn", "t"):
                    try:
                        out.turn = int(value)
                    except ValueError:
                        out.words.append(token.lower())
                    continue
                if key in ("phase", "p"):
                    out.phase = value.lower()
                    continue
                if key in ("side", "s", "by"):
                    out.side = value.lower()
                    continue
                if key in ("table", "tab"):
                    out.table = value.lower()
                    continue
            out.words.append(token.lower())
        return out

    @property
    def active(self) -> bool:
        return bool(self.turn is not None or self.phase or self.side or self.table or self.words)


@record
class LogRow:
    entry: LogEntry
    roll: Roll | None

    @property
    def key(self) -> tuple[int, int]:
        return (self.entry.seq, self.roll.n if self.roll is not None else 0)


class DieLogModel:
    """The rows of the die log for one viewer and one filter, loaded on demand."""

    def __init__(self, engine: Engine, viewer: str = "gm") -> None:
        self.engine = engine
        self.viewer = viewer
        self.filter = LogFilter()
        self.filter_text = ""
        self.all_entries = False
        self.rows: list[LogRow] = []
        self.undone: dict[int, bool] = {}
        self.lowest = 1
        self.floor = 1
        self.ceiling = 0
        self._widths_key = -1
        self._widths_cache = (1, 2, 2)
        self._candidates: list[int] | None = None   # from the log index (sealed segments)
        self._walk: Iterator[int] = iter(())        # segments still to ask the index about
        self._walked_from = 0                       # the oldest segment asked so far
        self._query: dict[str, str] = {}
        self._indexed_to = 0
        self.total: int | None = None               # matching rolls in all history, if known
        self.read = 0                               # entries read from the log so far
        self.reset()

    # -- range -------------------------------------------------------------------------
    def _outer(self) -> str | None:
        clock = self.engine.machine.clock
        return clock[0].name if clock else None

    def _bounds(self) -> tuple[int, int | None]:
        """The log positions that can hold rows for the filter (a turn filter uses the
        bookmarks to skip the rest of the log without reading it)."""
        t = self.filter.turn
        outer = self._outer()
        if t is None or outer is None:
            return 1, None
        lo, hi = 1, None
        for bm in self.engine.info.bookmarks:
            if not bm.turn_start:
                continue
            turn = bm.clock.get(outer)
            if turn is None:
                continue
            if turn <= t:
                lo = max(lo, bm.seq + 1) if turn == t else lo
            elif hi is None or bm.seq < hi:
                hi = bm.seq
        return lo, hi

    def reset(self) -> None:
        self.rows = []
        self.undone = {}
        n = len(self.engine.history)
        lo, hi = self._bounds()
        self.floor = lo
        self.ceiling = n if hi is None else min(hi, n)
        self.lowest = self.ceiling + 1
        self.highest = n
        self._use_index()
        # undo/redo entries after the ceiling still say whether a row was undone
        if self.ceiling < n:
            for e in reversed(list(self.engine.history.range(self.ceiling + 1, n))):
                self._note_undo(e, newest_first=True)

    def _index_query(self) -> dict[str, str]:
        """The part of the filter the log index answers (table and turn; the side filter
        also matches side names, so it is left to the rows)."""
        query = {}
        if self.filter.table:
            query["table"] = self.filter.table
        outer = self._outer()
        if self.filter.turn is not None and outer is not None:
            query["clock"] = f"{outer}={self.filter.turn}".lower()
        return query

    def _use_index(self) -> None:
        """With a filter the index can answer, read only the entries it names: a year of
        history costs a few kilobytes of index, not every segment. The index is asked
        segment by segment, newest first, as older rows are wanted."""
        self._candidates, self._indexed_to, self.total = None, 0, None
        index = self.engine.log_index
        query = self._index_query()
        if index is None or not query or not index.complete:
            return                          # still being built: read the log as before
        self._indexed_to = min(self.ceiling, index.end)
        self._candidates, self._query = [], query
        self._walked_from = self._indexed_to + 1
        gm = self.viewer == "gm"
        # the GM's undo marks come from the index, so segments without a match are skipped;
        # a side reads the undos of each segment through its own view instead
        self._walk = index.segments_with(self.floor, self._indexed_to, skip=gm, **query)
        if not gm:
            return
        newer = self.engine.entries(self._indexed_to + 1, self.ceiling)
        for e in reversed(newer):           # newer than the index's marks: noted first
            self._note_undo(e, newest_first=True)
        for seq, target, undo in reversed(index.undo_marks()):
            if seq <= self._indexed_to:
                self.undone.setdefault(target, bool(undo))
        if list(query) == ["table"] and not self.filter.words and not self.filter.side \
                and not self.filter.phase:
            self.total = (index.count(table=query["table"])
                          + sum(len(self.rows_for(e)) for e in newer))

    def _candidate(self, hi: int) -> int | None:
        """The newest entry at or below *hi* in the sealed segments that the filter must
        read (a matching roll; for a side, an undo or redo too), asking the index for one
        more segment at a time."""
        assert self._candidates is not None
        index = self.engine.log_index
        while True:
            i = bisect_right(self._candidates, hi)
            if i:
                return self._candidates[i - 1]
            first = next(self._walk, None)
            if first is None:
                return None
            seqs = {s for s, _n in index.matches(first, **self._query)}
            if self.viewer != "gm":
                seqs.update(u[0] for u in index.sidecar(first)["undo"])
            self._walked_from = first
            self._candidates[0:0] = sorted(s for s in seqs
                                           if self.floor <= s <= self._indexed_to)

    def set_filter(self, text: str) -> None:
        self.filter_text = text
        self.filter = LogFilter.parse(text)
        self.reset()

    def set_viewer(self, viewer: str) -> None:
        self.viewer = viewer
        self.reset()

    def set_all(self, all_entries: bool) -> None:
        self.all_entries = all_entries
        self.reset()

    @property
    def more(self) -> bool:
        return self.lowest > self.floor

    @property
    def remaining(self) -> int:
        return max(0, self.lowest - self.floor)

    # -- loading ---------------------------------------------------------------------------
    def _note_undo(self, e: LogEntry, newest_first: bool) -> None:
        if e.kind in (UNDO, REDO) and e.target is not None:
            if newest_first and e.target in self.undone:
                return
            self.undone[e.target] = e.kind == UNDO

    def load_older(self, entries: int = PAGE) -> int:
        """Read the next older page; returns the number of rows added at the front."""
        hi = self.lowest - 1
        if self._candidates is not None and hi <= self._indexed_to:
            found = self._candidate(hi)         # skip to the next entry that matters
            if found is None:
                self.lowest = self.floor
                return 0
            hi = found
        lo = max(self.floor, hi - entries + 1)
        if self._candidates is not None:
            # the unsealed tail, then the index; never below what the index was asked about
            lo = max(lo, self._indexed_to + 1 if hi > self._indexed_to else self._walked_from)
        if hi < lo:
            return 0
        batch = self._entries(lo, hi)
        self.read += hi - lo + 1
        for e in reversed(batch):
            self._note_undo(e, newest_first=True)
        new_rows: list[LogRow] = []
        for e in batch:
            new_rows.extend(self.rows_for(e))
        self.rows[0:0] = new_rows
        self.lowest = lo
        return len(new_rows)

    def fill(self, want: int, limit: int = FILL_LIMIT) -> int:
        """Load older pages until *want* rows are there (or *limit* entries were read)."""
        added = 0
        read = 0
        while len(self.rows) < want and self.more and read < limit:
            before = self.read
            added += self.load_older()
            read += self.read - before
        return added

    def _entries(self, lo: int, hi: int) -> list[LogEntry]:
        """Entries lo..hi as the viewer sees them (through the side's view)."""
        return self.engine.side_view(self.viewer).entries(lo, hi)

    def append(self, entry: LogEntry) -> int:
        """A new entry was committed; returns the number of rows added at the end."""
        self._note_undo(entry, newest_first=False)
        if entry.seq <= self.highest:
            return 0
        self.highest = entry.seq
        seen = self.engine.side_view(self.viewer).entry(entry)
        if seen is None:
            return 0
        entry = seen
        if self.filter.turn is not None and self.ceiling < entry.seq - 1:
            return 0
        self.ceiling = entry.seq
        if self.lowest > entry.seq:
            self.lowest = entry.seq + 1
            return 0
        rows = self.rows_for(entry)
        self.rows.extend(rows)
        return len(rows)

    # -- filtering ---------------------------------------------------------------------------
    def rows_for(self, e: LogEntry) -> list[LogRow]:
        f = self.filter
        if not e.visible_to(self.viewer):
            return []
        outer = self._outer()
        if f.turn is not None and (outer is None or e.clock.get(outer) != f.turn):
            return []
        if f.phase:
            title = self.engine.machine.phase_title(e.phase).lower()
            if f.phase not in e.phase.lower() and f.phase not in title \
                    and f.phase not in e.step.lower():
                return []
        out: list[LogRow] = []
        for roll in e.rolls:
            if f.side and not self._side_match(f.side, roll.side, e.by):
                continue
            if f.table and f.table not in (roll.table or "").lower():
                continue
            if f.words and not self._words_match(f.words, e, roll):
                continue
            out.append(LogRow(e, roll))
        if (not e.rolls and self.all_entries and not f.table
                and (not f.side or self._side_match(f.side, None, e.by))
                and (not f.words or self._words_match(f.words, e, None))):
            out.append(LogRow(e, None))
        return out

    def _side_match(self, wanted: str, side: str | None, by: str) -> bool:
        names = {by.lower()}
        if side:
            names.add(side.lower())
        for sid in list(names):
            s = self.engine.state.sides.get(sid) or self.engine.state.sides.get(sid.upper())
            if s is not None:
                names.add(s.name.lower())
        return any(wanted == n or wanted in n for n in names)

    @staticmethod
    def _words_match(words: list[str], e: LogEntry, roll: Roll | None) -> bool:
        hay = [e.summary, e.kind, *e.lines]
        if roll is not None:
            hay += [roll.purpose, roll.describe(), roll.table or "", *roll.detail]
        text = " ".join(hay).lower()
        return all(w in text for w in words)

    # -- text --------------------------------------------------------------------------------
    def _widths(self) -> tuple[int, int, int]:
        """Column widths: sequence numbers, clock, side (so the rows line up)."""
        key = len(self.engine.history)
        if self._widths_key != key:
            short = self.clock_short()
            who = max([len(s) for s in self.engine.state.sides] + [2])
            self._widths_cache = (len(str(max(1, key))), max(2, len(short) + 1), min(6, who))
            self._widths_key = key
        return self._widths_cache

    def clock_short(self, e: LogEntry | None = None) -> str:
        """``Turn 3`` -> ``T3``; ``Game-Turn 2, Player-Turn 3`` -> ``G2.3``."""
        clock = e.clock if e is not None else self.engine.state.clock
        levels = [lvl for lvl in self.engine.machine.clock if lvl.name in clock]
        if not levels:
            return self.engine.machine.clock_text(clock)[:8]
        head = levels[0].title[:1].upper()
        return head + ".".join(str(clock[lvl.name]) for lvl in levels)

    def row_text(self, row: LogRow, compact: bool = False) -> Text:
        """One row; *compact* (a narrow panel) leaves the phase out (it is in the details)."""
        e = row.entry
        undone = self.undone.get(e.seq, False)
        text = Text(no_wrap=True, overflow="ellipsis")
        sw, cw, ww = self._widths()
        text.append(f"#{e.seq:<{sw}}", style="dim")
        text.append(f" {self.clock_short(e):<{cw}}", style="bold")
        if not compact:
            phase = self.engine.machine.phase_title(e.phase) or e.step
            text.append(f" {phase[:8]:<8}", style="cyan")
        who = (row.roll.side if row.roll is not None and row.roll.side else e.by) or ""
        text.append(f" {who[:ww]:<{ww}} ", style="magenta")
        style = "dim strike" if undone else ""
        if row.roll is None:
            text.append(e.summary, style=style)
        else:
            r = row.roll
            if r.purpose:
                text.append(f"{r.purpose}: ", style=style or "bold")
            text.append(r.describe(), style=style)
            if r.table:
                text.append(f"  ({r.table})", style="dim")
        if undone:
            text.append("  (undone)", style="italic")
        return text

    def detail_lines(self, row: LogRow) -> list[str]:
        e = row.entry
        clock = self.engine.machine.clock_text(e.clock)
        phase = self.engine.machine.phase_title(e.phase)
        where = " · ".join(x for x in (clock, phase, e.step) if x)
        lines = [f"#{e.seq} by {e.by} · {where}: {e.summary}"]
        r = row.roll
        if r is not None:
            if r.kind == "draw":
                lines.append(f"draw {r.n}: {r.expr}, positions {r.dice} -> {r.result}")
            else:
                lines.append(f"roll {r.n}: {r.expr}, dice {r.dice}"
                             + (f" {r.constant:+d}" if r.constant else "")
                             + f" = {r.natural}")
                for label, value in r.modifiers:
                    lines.append(f"modifier {value:+d} ({label})")
                if r.modifiers:
                    lines.append(f"modified total {r.modified}")
                if r.target is not None:
                    lines.append(f"target {r.target}")
            if r.table:
                lines.append(f"table {r.table}")
            lines.extend(f"· {d}" for d in r.detail)
            if r.result:
                lines.append(f"result: {r.result}")
            if r.manual:
                lines.append("dice typed in from physical dice")
            if r.override:
                lines.append(f"GM override: {r.override.get('value')}")
        if e.lines:
            lines.append("the action:")
            lines.extend(f"  {line}" for line in e.lines)
        if e.tags.get("discarded_rolls"):
            lines.append("discarded rolls: " + "; ".join(e.tags["discarded_rolls"]))
        if self.undone.get(e.seq):
            lines.append("this action was undone")
        return lines


class DieLog(ScrollView, can_focus=True):
    """The rows of a :class:`DieLogModel`, drawn line by line."""

    HELP_GROUP = "Die log panel (F4)"

    CMDS: ClassVar = (C.LOG_EXPAND, C.LOG_ALL, C.LOG_OLDER)
    BINDINGS: ClassVar = [
        *bindings(*CMDS),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
    ]
    COMPONENT_CLASSES: ClassVar = {"dielog--cursor", "dielog--detail"}
    DEFAULT_CSS = """
    DieLog > .dielog--cursor { background: $accent 40%; text-style: bold; }
    DieLog:focus > .dielog--cursor { background: $accent; color: $text; }
    DieLog > .dielog--detail { color: $text-muted; }
    """

    # the watcher repaints what the move changed (two rows, or all when it scrolls)
    cursor: reactive[int] = reactive(-1, init=False, repaint=False)

    class Changed(Message):
        """Rows were loaded or the filter changed (for the status line)."""

    def __init__(self, model: DieLogModel, **kw: Any) -> None:
        super().__init__(**kw)
        self.model = model
        self.expanded: set[tuple[int, int]] = set()
        self._lines: list[tuple[int, int]] = []   # (row, detail line or -1)
        self._row_start: list[int] = []
        self._detail_cache: dict[int, list[str]] = {}
        self._width = 0          # the content's width at the last resize
        self._stale = False      # changed while hidden: refreshed when shown

    # -- layout of lines ---------------------------------------------------------------
    def rebuild(self) -> None:
        lines: list[tuple[int, int]] = []
        starts: list[int] = []
        self._detail_cache = {}
        if self.model.more:
            lines.append((-1, -1))
        for i, row in enumerate(self.model.rows):
            starts.append(len(lines))
            lines.append((i, -1))
            if row.key in self.expanded:
                detail = self.model.detail_lines(row)
                self._detail_cache[i] = detail
                lines.extend((i, j) for j in range(len(detail)))
        self._lines = lines
        self._row_start = starts
        # the width from the last resize, and no refresh while hidden: ``size`` or a
        # refresh of a hidden log lays the whole screen out to find it is not shown (at a
        # hosted table: on every action, at every seat); it is refreshed when shown
        self.virtual_size = Size(self._width, len(lines))
        if all(node.display for node in self.ancestors_with_self):
            self.refresh()
        else:
            self._stale = True

    def on_show(self) -> None:
        if self._stale:
            self._stale = False
            self.refresh()

    def reload(self) -> None:
        """Start again from the newest entries (after a filter or viewer change)."""
        self.expanded.clear()
        self.model.fill(max(self.size.height, 20) * 2)
        self.rebuild()
        self.set_reactive(DieLog.cursor, len(self.model.rows) - 1)
        self.call_after_refresh(self._scroll_to_cursor)
        self.post_message(self.Changed())

    def added(self, count: int) -> None:
        """*count* rows were appended at the end (a new action)."""
        at_end = self.cursor >= len(self.model.rows) - count - 1
        self.rebuild()
        if count and at_end:
            self.cursor = len(self.model.rows) - 1
        self.post_message(self.Changed())

    def restyle(self) -> None:
        """Undo marks changed: redraw without reloading."""
        self.rebuild()

    def load_older(self) -> int:
        if not self.model.more:
            return 0
        old_lines = len(self._lines)
        added = self.model.load_older()
        self.rebuild()
        shift = len(self._lines) - old_lines
        self.set_reactive(DieLog.cursor, max(0, self.cursor + added))
        self.scroll_to(y=self.scroll_offset.y + shift, animate=False, immediate=True)
        self.post_message(self.Changed())
        return added

    # -- rendering ---------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = y + scroll_y
        width = self.size.width
        base = self.rich_style
        if index >= len(self._lines):
            return Strip.blank(width, base)
        row_i, sub = self._lines[index]
        if row_i < 0:
            text = Text(f"▲ {self.model.remaining} older log entries not loaded "
                        "(scroll up or press o)", style="dim italic")
        elif sub < 0:
            text = self.model.row_text(self.model.rows[row_i], compact=width < 64)
            mark = "▾ " if self.model.rows[row_i].key in self.expanded else "  "
            text = Text(mark) + text
        else:
            detail = self._detail_cache.get(row_i) or []
            text = Text("    " + (detail[sub] if sub < len(detail) else ""), no_wrap=True,
                        overflow="ellipsis")
            text.stylize(self.get_component_rich_style("dielog--detail"))
        text.truncate(width + scroll_x, overflow="ellipsis")
        segments = list(text.render(self.app.console))
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        strip = strip.extend_cell_length(width)
        if row_i >= 0 and row_i == self.cursor and sub < 0:
            cursor_style = self.get_component_rich_style("dielog--cursor")
            strip = Strip([Segment(s.text, (s.style or Style()) + cursor_style)
                           for s in strip])
        return strip.apply_style(base)

    def on_resize(self, event: events.Resize) -> None:
        self._width = event.size.width
        self.virtual_size = Size(event.size.width, len(self._lines))

    # -- cursor ------------------------------------------------------------------------------
    def validate_cursor(self, value: int) -> int:
        if not self.model.rows:
            return -1
        return max(0, min(value, len(self.model.rows) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        before = self.scroll_offset
        self._scroll_to_cursor()
        if self.scroll_offset != before:
            self.refresh()
            return
        # the screen did not move: repaint only the two rows whose cursor mark changed
        for row in (old, new):
            if 0 <= row < len(self._row_start):
                self.refresh_line(self._row_start[row])

    def _scroll_to_cursor(self) -> None:
        if 0 <= self.cursor < len(self._row_start):
            top = self._row_start[self.cursor]
            bottom = top
            if self.model.rows[self.cursor].key in self.expanded:
                bottom = top + len(self._detail_cache.get(self.cursor, []))
            if self.cursor == 0 and self.model.more:
                top = 0
            self.scroll_to_region(Region(0, top, 1, bottom - top + 1), animate=False,
                                  immediate=True)

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        if new <= 0 and self.model.more and self._lines:
            self.call_after_refresh(self.load_older)

    def action_cursor(self, delta: int) -> None:
        if delta < 0 and self.cursor <= 0 and self.model.more:
            self.load_older()
        self.cursor = self.cursor + delta

    def action_page(self, direction: int) -> None:
        step = max(1, self.size.height - 1)
        if direction < 0 and self.cursor - step < 0 and self.model.more:
            self.load_older()
        self.cursor = self.cursor + direction * step

    def action_first(self) -> None:
        if self.cursor == 0 and self.model.more:
            self.load_older()
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self.model.rows) - 1

    def action_toggle_expand(self) -> None:
        if not 0 <= self.cursor < len(self.model.rows):
            return
        key = self.model.rows[self.cursor].key
        if key in self.expanded:
            self.expanded.discard(key)
        else:
            self.expanded.add(key)
        self.rebuild()
        self.call_after_refresh(self._scroll_to_cursor)

    def action_toggle_all(self) -> None:
        self.model.set_all(not self.model.all_entries)
        self.reload()

    def action_load_older(self) -> None:
        self.load_older()

    def on_click(self, event: events.Click) -> None:
        index = event.y + self.scroll_offset.y
        if 0 <= index < len(self._lines):
            row_i, _ = self._lines[index]
            if row_i < 0:
                self.load_older()
            else:
                if row_i == self.cursor and event.chain >= 2:
                    self.action_toggle_expand()
                self.cursor = row_i

    @property
    def current(self) -> LogRow | None:
        if 0 <= self.cursor < len(self.model.rows):
            return self.model.rows[self.cursor]
        return None


class DieLogPanel(Vertical):
    """Filter line, the log, and a status line."""

    HELP_GROUP = "Die log panel (F4)"

    CMDS: ClassVar = (C.LOG_FILTER,)
    BINDINGS: ClassVar = bindings(*CMDS)

    def __init__(self, engine: Engine, viewer: str = "gm", **kw: Any) -> None:
        super().__init__(**kw)
        self.model = DieLogModel(engine, viewer)
        self.started = False
        self._pending: list[LogEntry] = []   # committed while hidden: added when shown

    def compose(self) -> ComposeResult:
        yield Entry(placeholder="/ filter: turn:3 phase:combat side:A table:crt words",
                    id="log-filter", classes="filter", compact=True)
        yield DieLog(self.model, id="dielog")
        yield Static("", id="log-status", classes="panel-status")

    def start(self) -> None:
        """Read the newest page of the log (deferred until the screen has painted, so a
        long log never delays the first screen)."""
        if not self.started:
            self.started = True
            self.log.reload()

    def on_show(self) -> None:
        self.call_after_refresh(self.start)
        pending, self._pending = self._pending, []
        for entry in pending:
            self.committed(entry)

    @property
    def log(self) -> DieLog:
        return self.query_one(DieLog)

    def action_focus_filter(self) -> None:
        self.query_one("#log-filter", Input).focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id != "log-filter":
            return
        event.stop()
        self.model.set_filter(event.value)
        self.started = True
        self.log.reload()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "log-filter":
            event.stop()
            self.log.focus()

    def on_die_log_changed(self, event: DieLog.Changed) -> None:
        event.stop()
        self.update_status()

    def update_status(self) -> None:
        m = self.model
        what = "entries" if m.all_entries else "rolls"
        parts = [f"{len(m.rows)} {what}"]
        if m.filter.active:
            parts.append("filtered" if m.total is None else f"filtered, {m.total} in all")
        if m.more:
            parts.append(f"{m.remaining} older entries not loaded (o)")
        status, text = self.query_one("#log-status", Static), Text(" · ".join(parts),
                                                                   style="dim")
        if status.content != text:      # an update lays the screen out again: only a change
            status.update(text)

    def set_viewer(self, viewer: str) -> None:
        self._pending = []          # the reload reads them
        self.model.set_viewer(viewer)
        if self.started:
            self.log.reload()

    def committed(self, entry: LogEntry) -> None:
        if not self.started:
            return
        if not all(node.display for node in self.ancestors_with_self):
            # hidden (a narrow screen shows one panel): nothing to lay out or count now;
            # at a hosted table this is every action, at every seat
            self._pending.append(entry)
            return
        had = entry.kind in (UNDO, REDO)
        added = self.model.append(entry)
        if added:
            self.log.added(added)
        elif had:
            self.log.restyle()
        self.update_status()
