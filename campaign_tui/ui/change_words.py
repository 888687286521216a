"""What an action changes, in the table's words ("TF 2: now Detected", "GL2 moves to hex 1901").

Names come from the projected view (units, formations, markers), never ids; a rule set's
internal bookkeeping (variables, ``data`` fields, the turn position) is left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.ui.text import fmt_value

if TYPE_CHECKING:
    from campaign_tui.core.changes import Change
    from campaign_tui.core.model import State

HIDDEN_COLLS = ("vars", "meta")       # the rule set's own bookkeeping
HIDDEN_FIELDS = ("data", "visibility")
_POSSESSIVE = {False: "'s", True: "'"}   # France's, Kafers'


def _name(view: State, ref: Any) -> str:
    """A unit, formation or place named as the table knows it."""
    if not ref:
        return "-"
    ref = str(ref)
    if ref in view.units:
        return view.units[ref].label
    if ref in view.formations:
        return view.formations[ref].name
    kind, sep, rest = ref.partition(":")
    if sep and kind.isalpha() and rest:
        return f"{kind} {rest}"
    return ref


def _now(field: str, before: Any, after: Any) -> str:
    if isinstance(after, bool) or (after is None and isinstance(before, bool)):
        return f"now {field}" if after else f"no longer {field}"
    if before is None:
        return f"{field} {fmt_value(after)}"
    return f"{field} now {fmt_value(after)} (was {fmt_value(before)})"


def _flat(value: Any, path: tuple[str, ...] = ()) -> dict[tuple[str, ...], Any]:
    """Nested fields as their paths (("orders", "tf", "FRA-1", "movement") -> "attack")."""
    if isinstance(value, dict):
        out: dict[tuple[str, ...], Any] = {}
        for k, v in value.items():
            out.update(_flat(v, (*path, str(k))))
        return out
    return {path or ("value",): value}


def _field(view: State, path: tuple[str, ...]) -> str:
    """A nested field's path in words: ids named as the table knows them, words spaced
    ("orders › tf › 1st Fleet › movement")."""
    return " › ".join(_name(view, p) if p in view.units or p in view.formations
                      else p.replace("_", " ") for p in path)


def _entity_lines(view: State, label: str, before: dict[str, Any], after: dict[str, Any]
                  ) -> list[str]:
    lines: list[str] = []
    for key in dict.fromkeys([*before, *after]):
        b, a = before.get(key), after.get(key)
        if b == a or key in HIDDEN_FIELDS:
            continue
        if key == "location":
            lines.append(f"{label} moves to {_name(view, a)}" if a
                         else f"{label} leaves {_name(view, b)}")
        elif key == "formation":
            lines.append(f"{label} joins {_name(view, a)}" if a
                         else f"{label} leaves {_name(view, b)}")
        elif key == "name":
            lines.append(f"{label} renamed {a}")
        elif isinstance(a, dict) or isinstance(b, dict):   # status, attrs: by field
            fb, fa = _flat(b or {}), _flat(a or {})
            for path in dict.fromkeys([*fb, *fa]):
                if fb.get(path) != fa.get(path):
                    field = _field(view, path)
                    lines.append(f"{label}: {_now(field, fb.get(path), fa.get(path))}")
        else:
            lines.append(f"{label}: {_now(key, b, a)}")
    return lines


def _marker_line(view: State, key: str, marker: dict[str, Any], added: bool) -> str:
    what = marker.get("label") or str(marker.get("kind") or key).replace("_", " ").lower()
    if marker.get("target"):
        target = _name(view, marker["target"])
        return f"{target}: now {what}" if added else f"{target}: no longer {what}"
    where = f" at {_name(view, marker['location'])}" if marker.get("location") else ""
    return f"{what} placed{where}" if added else f"{what} removed{where}"


def change_lines(ch: Change, view: State) -> list[str]:
    """One change, worded; [] for internal bookkeeping."""
    if ch.coll in HIDDEN_COLLS:
        return []
    if ch.coll == "markers":
        if ch.before is None or ch.after is None:
            return [_marker_line(view, ch.key, ch.after or ch.before or {}, ch.before is None)]
        label = _marker_line(view, ch.key, ch.after, True).split(": now ")[0]
        return _entity_lines(view, label, ch.before, ch.after)
    if ch.coll in ("units", "formations"):
        body = ch.after or ch.before or {}
        label = _name(view, ch.key)
        if label == ch.key:
            label = body.get("name") or ch.key
        noun = "unit" if ch.coll == "units" else "formation"
        if ch.before is None:
            where = f" at {_name(view, body['location'])}" if body.get("location") else ""
            return [f"{label} ({noun}) enters play{where}"]
        if ch.after is None:
            return [f"{label} ({noun}) removed"]
        return _entity_lines(view, label, ch.before, ch.after)
    what = ch.coll.removeprefix("records/").rstrip("s").replace("_", " ")
    label = f"{what} {ch.key}"
    if ch.coll in ("secrets", "ledgers", "sides"):
        side = _side_name(view, ch.key)
        label = f"{side}{_POSSESSIVE[side.endswith('s')]} {what}"
    if ch.before is None:
        return [f"{label} recorded"]
    if ch.after is None:
        return [f"{label} removed"]
    if isinstance(ch.before, dict) and isinstance(ch.after, dict):
        return _entity_lines(view, label, ch.before, ch.after)
    return [f"{label} now {fmt_value(ch.after)} (was {fmt_value(ch.before)})"]


def _side_name(view: State, side: str) -> str:
    s = view.sides.get(side) if hasattr(view, "sides") else None
    return getattr(s, "name", None) or side
