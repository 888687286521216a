"""Plain formatting helpers shared by the screens (Rich text only, no widgets).

Everything shown from a campaign goes through :class:`rich.text.Text` built piecewise, so
names or values holding ``[`` are never read as markup. Styles are limited to bold, dim,
reverse and the sixteen ANSI colours, so a 16-colour terminal (and NO_COLOR, where Textual
drops colour) still shows every distinction in text.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from rich.text import Text

if TYPE_CHECKING:
    from campaign_tui.core.changes import Change
    from campaign_tui.core.model import Formation, State, Unit
    from campaign_tui.core.ruleset import RuleSet

BADGE_STYLE = "bold yellow"
DESTROYED_STYLE = "dim"
MARK = "✓"


def fmt_saved(iso: str) -> str:
    """``2024-05-01T12:00:00Z`` -> ``2024-05-01 14:00`` in local time ("" -> "never")."""
    if not iso:
        return "never"
    try:
        when = _dt.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=_dt.UTC)
    except ValueError:
        return iso
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def fmt_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return ", ".join(fmt_value(v) for v in value) if value else "none"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {fmt_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def badges_text(badges: Iterable[str]) -> Text:
    out = Text()
    for b in badges:
        out.append(" ")
        out.append(f"[{b}]", style=BADGE_STYLE)
    return out


def is_destroyed(unit: Unit) -> bool:
    return bool(unit.status.get("destroyed"))


def unit_label(ruleset: RuleSet, view: State, unit: Unit, marked: bool = False,
               with_location: bool = False) -> Text:
    """A unit's line in the order of battle: name, key stats, status badges."""
    text = Text()
    if marked:
        text.append(f"{MARK} ", style="bold green")
    style = DESTROYED_STYLE if is_destroyed(unit) else ""
    text.append(unit.label, style=style or "bold")
    try:
        stats = ruleset.unit_stats(view, unit)
    except Exception:  # a rule set's display hook must never break the screen
        stats = ""
    if stats:
        text.append(f"  {stats}", style=style)
    if with_location and unit.location:
        text.append(f"  @{unit.location}", style="dim")
    try:
        badges = ruleset.badges(view, unit)
    except Exception:
        badges = []
    text.append_text(badges_text(badges))
    return text


def count_words(units: int) -> str:
    """``no units`` (an empty task force says so), ``1 unit``, ``5 units``."""
    return "empty" if not units else f"{units} unit{'' if units == 1 else 's'}"


def formation_label(formation: Formation, units: int, closed: bool) -> Text:
    text = Text(formation.name, style="bold")
    if formation.kind and formation.kind != "formation":
        text.append(f" ({formation.kind})", style="dim")
    if formation.location:
        text.append(f"  @{formation.location}", style="dim")
    if closed:
        text.append("  [contents hidden]", style="italic")
    else:
        text.append(f"  {count_words(units)}", style="dim")
    badges = [f"{k} {fmt_value(v)}" for k, v in formation.status.items() if v not in (None, False, 0)]
    text.append_text(badges_text(badges))
    return text


def side_label(name: str, headline: list[str]) -> Text:
    text = Text(name, style="bold reverse")
    if headline:
        text.append("  " + ", ".join(headline))
    return text


def unit_details(ruleset: RuleSet, view: State, unit: Unit) -> list[str]:
    """The lines of the detail box under the order of battle."""
    lines = [f"{unit.label}  [{unit.id}]  type {unit.type}  side {unit.side}"]
    where = []
    if unit.formation:
        f = view.formations.get(unit.formation)
        where.append(f"in {f.name if f else unit.formation}")
    if unit.location:
        where.append(f"at {unit.location}")
    if where:
        lines.append(" ".join(where))
    status = ", ".join(f"{k} {fmt_value(v)}" for k, v in unit.status.items())
    if status:
        lines.append(f"status: {status}")
    attrs: dict[str, Any] = {}
    try:
        utype = ruleset.effective_catalog(view).types.get(unit.type)
        if utype is not None:
            attrs.update(utype.attrs)
    except Exception:
        pass
    attrs.update(unit.attrs)
    if attrs:
        lines.append("values: " + ", ".join(f"{k} {fmt_value(v)}" for k, v in attrs.items()))
    return lines


# -- changes (the review step of the resolve dialog) -------------------------------------
def describe_changes(changes: list[Change], view: State, viewer: str,
                     limit: int = 40, ruleset: RuleSet | None = None) -> list[str]:
    """What an action changes, in words, leaving out what *viewer* may not see; the rule
    set words what it knows better (its secret books)."""
    from campaign_tui.ui.change_words import change_lines

    lines: list[str] = []
    hidden = 0
    for ch in changes:
        if viewer != "gm":
            if ch.coll == "units" and ch.key not in view.units:
                hidden += 1
                continue
            if ch.coll == "formations" and ch.key not in view.formations:
                hidden += 1
                continue
            if ch.coll in ("secrets", "ledgers") and ch.key != viewer:
                hidden += 1
                continue
        own = ruleset.describe_change(view, ch) if ruleset is not None else None
        lines.extend(change_lines(ch, view) if own is None else own)
    if len(lines) > limit:
        lines = [*lines[:limit], f"... and {len(lines) - limit} more"]
    if hidden:
        lines.append(f"({hidden} change{'s' if hidden != 1 else ''} you may not see)")
    return lines
