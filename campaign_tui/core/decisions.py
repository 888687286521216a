"""Decisions: what a procedure asks a person, described as data.

A procedure never prompts. It calls ``ctx.decide(Decision(...))``; if the answer is not in
the action's answers, the engine stops the action (nothing changes) and hands the request
to whoever drives it: the TUI renders it, the CLI reads it from ``NAME=VALUE`` arguments,
tests pass it in. The action is then run again with the answer. Dice typed from physical
dice and GM rulings (map knowledge the program lacks) use the same path.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record
from campaign_tui.core.typed_text import match_choice, split_list

KINDS = (
    "choice",   # pick one option
    "multi",    # pick several options (min..max)
    "number",   # a number in min..max
    "bool",     # yes / no
    "text",     # free text
    "allocate", # share an amount among options: answer {option: amount}
    "order",    # put options in an order: answer [values]
    "dice",     # physical dice: answer [faces]
    "ruling",   # a GM ruling on map knowledge: kind of answer given by `answer_kind`
)


@record(frozen=True)
class Option:
    value: str
    label: str = ""
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": self.value}
        if self.label:
            out["label"] = self.label
        if self.detail:
            out["detail"] = self.detail
        return out


@record(frozen=True)
class Decision:
    id: str
    kind: str
    prompt: str
    side: str | None = None          # who decides: a side id, "gm", or None (whoever acts)
    options: tuple[Option, ...] = ()
    min: float | None = None
    max: float | None = None
    default: Any = None
    info: tuple[str, ...] = ()       # context lines: totals, odds, modifiers so far
    answer_kind: str = "bool"        # for rulings: bool / choice / number / text
    total: float | None = None       # for allocate: the amount to share (at least)
    expr: str = ""                   # for dice
    secret: bool = False
    aliases: tuple[str, ...] = ()    # earlier ids of the same question (old logs answer them)
    round: str = ""                  # a held die: the answer releasing its round (round:N)
    round_label: str = ""            # ... and that round's label ("" before the first mark)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidInput(f"decision {self.id}: kind must be one of {KINDS}")

    def answer_key(self, answers: dict[str, Any]) -> str | None:
        """The key under which *answers* answer this decision (its id or an old alias)."""
        for key in (self.id, *self.aliases):
            if answers.get(key) is not None:
                return key
        return None

    def option_values(self) -> list[str]:
        return [o.value for o in self.options]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "prompt": self.prompt}
        for k in ("side", "min", "max", "default", "total", "expr", "round", "round_label"):
            v = getattr(self, k)
            if v is not None and v != "":
                out[k] = v
        if self.options:
            out["options"] = [o.to_dict() for o in self.options]
        if self.info:
            out["info"] = list(self.info)
        if self.kind == "ruling":
            out["answer_kind"] = self.answer_kind
        if self.secret:
            out["secret"] = True
        if self.aliases:
            out["aliases"] = list(self.aliases)
        return out

    # -- answers ----------------------------------------------------------------------
    def coerce(self, raw: Any) -> Any:
        """Check an answer (possibly typed as text) and return it in canonical form."""
        kind = self.answer_kind if self.kind == "ruling" else self.kind
        where = f"{self.prompt} ({self.id})"
        if kind == "bool":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in ("y", "yes", "true", "1"):
                return True
            if text in ("n", "no", "false", "0"):
                return False
            raise InvalidInput(f"{where}: answer yes or no, not {raw!r}")
        if kind == "choice":
            text = str(raw).strip()
            values = self.option_values()
            if text in values:
                return text
            if text.isdigit() and 1 <= int(text) <= len(values):
                return values[int(text) - 1]
            return match_choice(raw, values, where)
        if kind == "multi":
            values = self.option_values()
            out = []
            for item in split_list(raw):
                text = match_choice(item, values, where)
                if text in out:
                    raise InvalidInput(f"{where}: {text!r} chosen twice")
                out.append(text)
            if self.min is not None and len(out) < self.min:
                raise InvalidInput(f"{where}: choose at least {int(self.min)}")
            if self.max is not None and len(out) > self.max:
                raise InvalidInput(f"{where}: choose at most {int(self.max)}")
            return out
        if kind == "order":
            items = [match_choice(v, self.option_values(), where) for v in split_list(raw)]
            if sorted(items) != sorted(self.option_values()):
                raise InvalidInput(f"{where}: give every one of {', '.join(self.option_values())} "
                                   "once, in order")
            return items
        if kind == "number":
            try:
                number = float(raw)
            except (TypeError, ValueError, OverflowError):
                raise InvalidInput(f"{where}: {raw!r} is not a number") from None
            if number.is_integer():
                number = int(number)
            if self.min is not None and number < self.min:
                raise InvalidInput(f"{where}: at least {self.min}, not {number}")
            if self.max is not None and number > self.max:
                raise InvalidInput(f"{where}: at most {self.max}, not {number}")
            return number
        if kind == "allocate":
            return self._coerce_allocation(raw, where)
        if kind == "dice":
            from campaign_tui.core.dice import DiceExpr, read_dice

            return read_dice(DiceExpr.parse(self.expr), raw)
        return str(raw)

    def _coerce_allocation(self, raw: Any, where: str) -> dict[str, int | float]:
        if isinstance(raw, dict):
            pairs = list(raw.items())
        else:
            pairs = []
            for part in str(raw).split(","):
                if not part.strip():
                    continue
                if ":" not in part:
                    raise InvalidInput(f"{where}: write the allocation as option:amount,...")
                k, v = part.split(":", 1)
                pairs.append((k.strip(), v.strip()))
        values = self.option_values()
        out: dict[str, int | float] = {}
        for k, v in pairs:
            if k not in values:
                raise InvalidInput(f"{where}: {k!r} is not one of {', '.join(values)}")
            try:
                amount = float(v)
            except (TypeError, ValueError, OverflowError):
                raise InvalidInput(f"{where}: {v!r} is not an amount") from None
            if amount < 0:
                raise InvalidInput(f"{where}: amounts cannot be negative")
            out[k] = int(amount) if amount.is_integer() else amount
        return out
