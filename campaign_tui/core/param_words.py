"""A parameter's problems said in the table's words: "Place a task force (TF 3): choose the
hex", not ``action place_tf: missing hex``. The ids stay in the error's ``details``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import ParamProblem

if TYPE_CHECKING:
    from campaign_tui.core.actions import ActionDef, Param
    from campaign_tui.core.model import State

ARTICLES = ("the", "a", "an", "its", "their", "his", "her", "one", "which", "what", "how",
            "who", "whether", "any", "each", "every", "all", "some", "this", "that", "these")
CHOSEN = ("unit", "units", "formation", "formations", "side", "choice", "hex", "record", "bool")


def param_label(param: Param) -> str:
    """The parameter's name in words: ``systems_out`` -> ``systems out``."""
    return param.name.replace("_", " ").strip()


def what(param: Param) -> str:
    """What the parameter asks for, from its help (or its name), with the field's label when
    the help does not say it: ``the hex (To)``."""
    label = param_label(param)
    helptext = " ".join(param.help.split()) or label
    first = helptext.split()[0].lower()
    phrase = helptext if first in ARTICLES else f"the {helptext}"
    if label.lower() not in phrase.lower():
        phrase += f" ({label.capitalize()})"
    return phrase


def verb(param: Param) -> str:
    """"choose" what is picked from a list, "give" what is typed."""
    picked = param.type in CHOSEN or param.choices or param.candidates is not None
    return "choose" if picked else "give"


def _subject(defn: ActionDef, given: dict[str, Any], state: State | None) -> str:
    """The action's title, with the unit or formation it is about when one is given."""
    if state is None:
        return defn.title
    for p in defn.params:
        value = given.get(p.name)
        if p.type == "formation" and isinstance(value, str) and value in state.formations:
            return f"{defn.title}, {state.formations[value].name}"
        if p.type == "unit" and isinstance(value, str) and value in state.units:
            return f"{defn.title}, {state.units[value].label}"
    return defn.title


def missing(defn: ActionDef, param: Param, given: dict[str, Any],
            state: State | None = None) -> ParamProblem:
    return ParamProblem(f"{_subject(defn, given, state)}: {verb(param)} {what(param)}.",
                        {"action": defn.kind, "param": param.name, "problem": "missing"})


def bad(defn: ActionDef, param: Param, value: Any, reason: str, given: dict[str, Any],
        state: State | None = None) -> ParamProblem:
    return ParamProblem(f"{_subject(defn, given, state)}: {reason}",
                        {"action": defn.kind, "param": param.name, "problem": "bad",
                         "value": value if isinstance(value, (str, int, float, bool))
                         else str(value), "reason": reason})
