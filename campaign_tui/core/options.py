"""Campaign options: each ambiguity or optional rule a rule set exposes, with its default."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.provenance import Provenance
from campaign_tui.core.records import record
from campaign_tui.core.typed_text import match_choice, refuse_unknown


@record(frozen=True)
class OptionDef:
    id: str
    label: str
    help: str                      # one line: what the choice changes
    default: Any
    type: str = "bool"             # bool | int | float | choice | str
    choices: tuple[str, ...] = ()
    choice_help: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None
    reference: str = ""            # the digest's gap or rule id (G-08, 8.2...)
    group: str = "Rules"           # "Optional rules", "Ambiguities", "House rules"...
    setup_only: bool = False       # may not change once play has started
    provenance: Provenance = field(default_factory=lambda: Provenance(grade="default"))

    def check(self, value: Any) -> Any:
        where = f"option {self.id}"
        if self.type == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise InvalidInput(f"{where}: {value!r} is not on/off")
        if self.type in ("int", "float"):
            try:
                if isinstance(value, bool):
                    raise ValueError
                number: Any = int(value) if self.type == "int" else float(value)
            except (TypeError, ValueError, OverflowError):
                raise InvalidInput(f"{where}: {value!r} is not a number") from None
            if self.min is not None and number < self.min:
                raise InvalidInput(f"{where}: must be at least {self.min}, not {number}")
            if self.max is not None and number > self.max:
                raise InvalidInput(f"{where}: must be at most {self.max}, not {number}")
            return number
        if self.type == "choice":
            return match_choice(value, self.choices, where)
        return str(value)

    @classmethod
    def from_data(cls, oid: str, d: dict[str, Any]) -> OptionDef:
        try:
            return cls(
                id=oid, label=str(d.get("label", oid)), help=str(d["help"]),
                default=d["default"], type=str(d.get("type", _infer(d["default"], d))),
                choices=tuple(str(c) for c in d.get("choices", ())),
                choice_help=tuple(str(c) for c in d.get("choice_help", ())),
                min=d.get("min"), max=d.get("max"), reference=str(d.get("reference", "")),
                group=str(d.get("group", "Rules")), setup_only=bool(d.get("setup_only", False)),
                provenance=Provenance.from_data(d.get("provenance", "default")),
            )
        except KeyError as exc:
            raise InvalidInput(f"option {oid}: missing {exc.args[0]!r}") from None


def _infer(default: Any, d: dict[str, Any]) -> str:
    if "choices" in d:
        return "choice"
    if isinstance(default, bool):
        return "bool"
    if isinstance(default, int):
        return "int"
    if isinstance(default, float):
        return "float"
    return "str"


def resolve_options(defs: list[OptionDef], given: dict[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with *given*, every value checked; unknown names refused."""
    known = {d.id: d for d in defs}
    refuse_unknown(given, known, "rule-set options", "option")
    out = {d.id: d.default for d in defs}
    for key, value in given.items():
        out[key] = known[key].check(value)
    return out
