"""Action declarations: the things a user may do, with typed parameters.

A rule set declares each action once (kind, parameters, help, handler, availability);
the engine validates parameters, the CLI parses ``NAME=VALUE`` arguments with them, the
TUI builds forms from them, and the help screen lists them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import field
from typing import TYPE_CHECKING, Any

from campaign_tui.core import param_words
from campaign_tui.core.errors import InvalidInput, ParamProblem
from campaign_tui.core.param_words import param_label
from campaign_tui.core.records import record
from campaign_tui.core.typed_text import match_choice, refuse_unknown, split_list

if TYPE_CHECKING:
    from campaign_tui.core.model import State

PARAM_TYPES = ("str", "int", "float", "bool", "choice", "unit", "formation", "side", "units",
               "formations", "list", "record", "json", "hex")


Candidates = Callable[["State", str], "list[str]"]
# (state, actor, the form's values so far) -> [(text to add, what it means)]
Suggestions = Callable[["State", str, "dict[str, Any]"], "list[tuple[str, str]]"]


@record(frozen=True)
class Param:
    name: str
    type: str = "str"
    help: str = ""
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    record: str = ""  # for type "record": the collection name
    # for type "hex": state -> the campaign's Board or HexGrid (None: any hex number)
    board: Callable[[State], Any] | None = None
    # what fits here now, from the rule set: ``candidates(state, actor) -> [id, ...]`` (units,
    # formations, places, sides...; *actor* is the side acting, or "gm"). Forms offer only
    # these and fill in a single one; the engine still checks whatever is given.
    candidates: Candidates | None = field(default=None, compare=False, repr=False)
    # for typed text: what may be added to it now, given the form's other values (a fleet's
    # legal orders); forms offer these on request and typing stays free.
    suggest: Suggestions | None = field(default=None, compare=False, repr=False)

    @classmethod
    def optional(cls, name: str, type: str = "str", default: Any = None, help: str = "",
                 **kw: Any) -> Param:
        """A parameter that may be left out, taking *default* then."""
        return cls(name, type, help=help, required=False, default=default, **kw)

    def __post_init__(self) -> None:
        if self.type not in PARAM_TYPES:
            raise InvalidInput(f"parameter {self.name}: type must be one of {PARAM_TYPES}")

    def coerce(self, raw: Any, state: State) -> Any:
        """Check one value (typed text or already typed) against the parameter."""
        where = param_label(self).capitalize()
        t = self.type
        if t in ("int", "float"):
            try:
                if isinstance(raw, bool):
                    raise ValueError
                value: Any = int(raw) if t == "int" else float(raw)
                if t == "int" and isinstance(raw, float) and not raw.is_integer():
                    raise ValueError
            except (TypeError, ValueError, OverflowError):
                raise InvalidInput(f"{where}: {raw!r} is not a {'whole ' if t == 'int' else ''}"
                                   "number") from None
            if not math.isfinite(value):
                raise InvalidInput(f"{where}: {raw!r} is not a finite number")
            if self.min is not None and value < self.min:
                raise InvalidInput(f"{where}: must be at least {self.min}, not {value}")
            if self.max is not None and value > self.max:
                raise InvalidInput(f"{where}: must be at most {self.max}, not {value}")
            return value
        if t == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).lower()
            if text in ("1", "true", "yes", "y", "on"):
                return True
            if text in ("0", "false", "no", "n", "off"):
                return False
            raise InvalidInput(f"{where}: {raw!r} is not yes/no")
        if t == "choice":
            return match_choice(raw, self.choices, where)
        if t == "unit":
            state.unit(str(raw))
            return str(raw)
        if t == "formation":
            state.formation(str(raw))
            return str(raw)
        if t == "side":
            state.side(str(raw))
            return str(raw)
        if t in ("units", "formations", "list"):
            items = split_list(raw)
            for item in items:
                if t == "units":
                    state.unit(str(item))
                elif t == "formations":
                    state.formation(str(item))
            return [str(i) if t != "list" else i for i in items]
        if t == "record":
            state.record(self.record, str(raw))
            return str(raw)
        if t == "json":
            return raw
        if t == "hex":
            from campaign_tui.core.board.check import check_hex

            return check_hex(raw, state, self.board, "hex")
        return str(raw)


    def candidates_for(self, state: State, actor: str) -> list[str] | None:
        """The rule set's candidates for this parameter now, or None when it names none.
        A fault in a rule set's candidate function never stops a form: it offers none."""
        if self.candidates is None:
            return None
        try:
            return [str(c) for c in self.candidates(state, actor)]
        except Exception:  # a hint only; the engine checks the value itself
            return None

    def suggestions_for(self, state: State, actor: str, values: dict[str, Any]
                        ) -> list[tuple[str, str]]:
        """What may be added to this typed parameter now ([] when nothing is known yet)."""
        if self.suggest is None:
            return []
        try:
            return [(str(t), str(w)) for t, w in self.suggest(state, actor, values)]
        except Exception:  # a hint only, as candidates are
            return []


Handler = Callable[..., None]
Availability = Callable[["State"], str | None]


@record(frozen=True)
class ActionDef:
    """One kind of action.

    ``handler(ctx, **params)`` performs it through the context. ``available(state)``
    returns None when the action can be taken now, or the reason it cannot.
    ``side`` names who takes it (a role, a side id, "gm"), for the prompt's choice list.
    ``visibility`` = "public" or "actor" (the action's content is secret to other sides).
    ``secret_params`` names parameters that other sides may never see in the log (a plot,
    orders, a sealed condition, a hidden destination), even when the action is public.
    """

    kind: str
    title: str
    handler: Handler
    params: tuple[Param, ...] = ()
    help: str = ""
    available: Availability | None = None
    side: str | None = None
    visibility: str = "public"
    key: str = ""  # suggested key in the TUI
    reference: str = ""  # rule reference (e.g. "5.7")
    is_advance: bool = False
    tags: tuple[str, ...] = field(default_factory=tuple)
    secret_params: tuple[str, ...] = ()

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise InvalidInput(f"action {self.kind} has no parameter {name!r}; parameters: "
                           f"{', '.join(p.name for p in self.params) or 'none'}")

    def coerce_params(self, raw: dict[str, Any], state: State) -> dict[str, Any]:
        out: dict[str, Any] = {}
        refuse_unknown(raw, [p.name for p in self.params], f"action {self.kind}")
        for p in self.params:
            if p.name in raw and raw[p.name] is not None and raw[p.name] != "":
                try:
                    out[p.name] = p.coerce(raw[p.name], state)
                except ParamProblem:
                    raise
                except InvalidInput as exc:
                    raise param_words.bad(self, p, raw[p.name], str(exc), raw, state) from None
            elif p.required:
                raise param_words.missing(self, p, raw, state)
            elif p.default is not None:
                out[p.name] = p.default
        return out

    def why_not(self, state: State) -> str | None:
        return self.available(state) if self.available else None


def action(kind: str, title: str, *params: Param, **kw: Any) -> Callable[[Handler], ActionDef]:
    """Decorator: ``@action("move", "Move a task force", Param("tf", "formation"))``."""

    def wrap(fn: Handler) -> ActionDef:
        return ActionDef(kind=kind, title=title, handler=fn, params=tuple(params),
                         help=kw.pop("help", (fn.__doc__ or "").strip()), **kw)

    return wrap
