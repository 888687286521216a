"""Orders by e-mail: a side's orders document for the current step, and reading it back.

The document is a commented TOML file made only from the side's projection (a
:class:`~campaign_tui.core.sideview.SideView`): the actions of the current step that the
side may take, each as an ``[[action]]`` table with ``take = false`` and, under
``[action.params]``, one line per parameter (its type, help and the candidates the
side's view offers; a help text naming something hidden from the side is withheld). The
player sets ``take = true`` and fills the values in; the GM imports the file and the
engine performs the taken actions as that side.
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import CampaignError, InvalidInput
from campaign_tui.core.records import record

if TYPE_CHECKING:
    from campaign_tui.core.actions import Param
    from campaign_tui.core.engine import ActionChoice
    from campaign_tui.core.sideview import HiddenTerms, SideView

FORMAT = 1
SIDE_PARAMS = ("side", "nation")


@record
class OrderAction:
    """One ``[[action]]`` of a file: its kind, its values and where they are written."""

    kind: str
    take: bool
    values: dict[str, Any]
    line: int
    key_lines: dict[str, int]

    def line_of(self, message: str) -> int:
        """The line a problem is about: the value it names, else the action's header."""
        for key, line in self.key_lines.items():
            if re.search(rf"\b{re.escape(key)}\b", message):
                return line
        return self.line


@record
class Orders:
    side: str
    campaign: str
    step: str
    clock: dict[str, int]
    actions: list[OrderAction]


@record
class Problem:
    line: int
    message: str


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    text = str(value)
    if "\n" in text and "'''" not in text:
        return "'''\n" + text + ("" if text.endswith("\n") else "\n") + "'''"
    return json.dumps(text, ensure_ascii=False)


def _comment(text: str) -> list[str]:
    return [f"# {line}".rstrip() for line in text.splitlines() if line.strip()]


def _orderable(choice: ActionChoice) -> bool:
    return choice.available and choice.kind != "advance" and choice.scope != "gm"


def _prefill(p: Param, side: str, candidates: list[str] | None) -> Any:
    if p.type == "side" or p.name in SIDE_PARAMS:
        return side
    if candidates is not None and len(candidates) == 1:
        return candidates[0]
    if p.default not in (None, ""):
        return p.default
    return ""


def _param_lines(p: Param, seat: SideView, terms: HiddenTerms) -> list[str]:
    candidates = p.candidates_for(seat.state, seat.side)
    kind = p.type + (f" of {p.record}" if p.record else "")
    out = [f"# {p.name}: {kind}, {'required' if p.required else 'optional'}"
           + (f" - {terms.text(p.help)}" if p.help else "")]
    if p.choices:
        out.append("#   one of: " + ", ".join(p.choices))
    if candidates:
        out.append("#   candidates now: " + ", ".join(candidates))
    if p.min is not None or p.max is not None:
        out.append(f"#   from {p.min if p.min is not None else '...'} to "
                   f"{p.max if p.max is not None else '...'}")
    out.append(f"{p.name} = {_toml_value(_prefill(p, seat.side, candidates))}")
    return out


def draft(seat: SideView, campaign: str) -> str:
    """The side's orders document for the current step (from its projection only)."""
    st = seat.status()
    head = [
        f"# Orders of {seat.name} for \"{campaign}\": {st.clock_text} · {st.phase_title} · "
        f"{st.step_title}",
        "# For each action you take: set take = true and fill its values in. To take an",
        "# action twice, copy its [[action]] block. Send the file back to the GM, who runs",
        "#   campaign-tui orders CAMPAIGN --import THIS_FILE",
        "# (a player checks it first with: campaign-tui orders YOUR_EXPORT.toml --check FILE).",
        *_comment(f"Now: {st.prompt}"),
        "",
        "[orders]",
        f"format = {FORMAT}",
        f"side = {_toml_value(seat.side)}",
        f"campaign = {_toml_value(campaign)}",
        f"step = {_toml_value(st.step)}",
        "clock = {" + ", ".join(f"{k} = {v}" for k, v in st.clock.items()) + "}",
    ]
    terms = seat.terms()
    choices = [c for c in st.choices if _orderable(c)]
    if not choices:
        head += ["", "# Nothing for this side to order at this step."]
    for c in choices:
        head += ["", f"# -- {c.title}" + (f" [{c.reference}]" if c.reference else "")]
        head += _comment(terms.text(c.help))
        head += ["[[action]]", f"kind = {_toml_value(c.kind)}", "take = false"]
        if c.params:
            head.append("[action.params]")
        for p in c.params:
            head += _param_lines(p, seat, terms)
    return "\n".join(head) + "\n"


_HEADER = re.compile(r"^\s*\[\[\s*action\s*\]\]")
_PARAMS = re.compile(r"^\s*\[\s*action\s*\.\s*params\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+)\s*=")


def _lines_of_actions(text: str) -> list[tuple[int, dict[str, int]]]:
    """For each ``[[action]]`` header: its line and the line of each key in its block."""
    blocks: list[tuple[int, dict[str, int]]] = []
    current: dict[str, int] | None = None
    for n, line in enumerate(text.splitlines(), 1):
        if _HEADER.match(line):
            current = {}
            blocks.append((n, current))
        elif line.lstrip().startswith("[") and not _PARAMS.match(line):
            current = None
        elif current is not None:
            m = _KEY.match(line)
            if m:
                current.setdefault(m.group(1), n)
    return blocks


def _error_line(exc: tomllib.TOMLDecodeError) -> str:
    m = re.search(r"line (\d+)", str(exc))
    return f"line {m.group(1)}: " if m else ""


def parse(text: str, source: str) -> Orders:
    """An orders file read; InvalidInput naming *source*, the line and the problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{source}: {_error_line(exc)}not valid TOML: {exc}") from None
    head = data.get("orders")
    if not isinstance(head, dict) or not isinstance(head.get("side"), str):
        raise InvalidInput(f"{source}: line 1: no [orders] table naming the side "
                           "(draft one with `campaign-tui orders CAMPAIGN --side SIDE -o FILE`)")
    raw = data.get("action", [])
    if not isinstance(raw, list):
        raise InvalidInput(f"{source}: 'action' must be [[action]] tables")
    lines = _lines_of_actions(text)
    actions = []
    for i, item in enumerate(raw):
        line, keys = lines[i] if i < len(lines) else (1, {})
        if not isinstance(item, dict) or not isinstance(item.get("kind"), str):
            raise InvalidInput(f"{source}: line {line}: this [[action]] has no kind")
        take = item.get("take", False)
        if not isinstance(take, bool):
            raise InvalidInput(f"{source}: line {keys.get('take', line)}: take must be "
                               "true or false")
        values = item.get("params", {})
        if not isinstance(values, dict):
            raise InvalidInput(f"{source}: line {keys.get('params', line)}: params must be "
                               "an [action.params] table")
        actions.append(OrderAction(item["kind"], take, values, line, keys))
    clock = head.get("clock", {})
    return Orders(head["side"], str(head.get("campaign", "")), str(head.get("step", "")),
                  dict(clock) if isinstance(clock, dict) else {}, actions)


def taken(orders: Orders) -> list[OrderAction]:
    return [a for a in orders.actions if a.take]


def check(seat: SideView, orders: Orders) -> list[Problem]:
    """What can be checked from the side's projection alone: the side, the step, that each
    taken action is allowed now, its parameters known, typed and among the candidates."""
    st = seat.status()
    problems: list[Problem] = []
    if orders.side != seat.side:
        problems.append(Problem(1, f"these are {orders.side!r}'s orders, not {seat.side!r}'s"))
    if orders.step and orders.step != st.step:
        problems.append(Problem(1, f"these orders are for step {orders.step!r}; the campaign "
                                   f"is at {st.step!r} ({st.step_title})"))
    choices = {c.kind: c for c in st.choices if _orderable(c)}
    for a in taken(orders):
        choice = choices.get(a.kind)
        if choice is None:
            problems.append(Problem(a.line, f"action {a.kind!r} is not one {seat.side} may "
                                            f"take now; allowed: {', '.join(choices) or 'none'}"))
            continue
        problems += _check_values(seat, a, choice)
    return problems


def _check_values(seat: SideView, a: OrderAction, choice: ActionChoice) -> list[Problem]:
    out = []
    for p in choice.params:
        value = a.values.get(p.name)
        if value in (None, ""):
            if p.required and p.default is None:
                out.append(Problem(a.key_lines.get(p.name, a.line),
                                   f"{a.kind}: {p.name} is required"))
            continue
        try:
            p.coerce(value, seat.state)
        except CampaignError as exc:
            out.append(Problem(a.key_lines.get(p.name, a.line), f"{a.kind}: {exc}"))
            continue
        candidates = p.candidates_for(seat.state, seat.side)
        if candidates and p.type in ("unit", "formation", "record", "side") and \
                str(value) not in candidates:
            out.append(Problem(a.key_lines.get(p.name, a.line),
                               f"{a.kind}: {p.name} {value!r} is not among the candidates "
                               f"now ({', '.join(candidates)})"))
    return out


def params_and_answers(a: OrderAction, param_names: set[str]) -> tuple[dict[str, Any],
                                                                         dict[str, Any]]:
    """An action's values split as the engine takes them: parameters (empty ones left
    out, so defaults apply) and answers to its decisions (every other key)."""
    params = {k: v for k, v in a.values.items() if k in param_names and v != ""}
    answers = {k: v for k, v in a.values.items() if k not in param_names}
    return params, answers
