"""Engine values on the wire: outcomes, decisions and errors, both ways.

The server sends a seat only what its side view gives (entries, decisions and texts
projected for that side); the seat turns them back into the engine's own classes so the
TUI's screens work on them unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core import errors as E
from campaign_tui.core.decisions import Decision, Option
from campaign_tui.core.info import Bookmark
from campaign_tui.core.log import LogEntry
from campaign_tui.core.provenance import Provenance
from campaign_tui.core.tables import Lookup

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine, Status

ERRORS: dict[str, type[E.CampaignError]] = {
    "ActionRejected": E.ActionRejected, "InvalidInput": E.InvalidInput,
    "NeedConfirmation": E.NeedConfirmation, "CampaignError": E.CampaignError,
}


def decision_to_wire(d: Decision) -> dict[str, Any]:
    return d.to_dict()


def decision_from_wire(data: dict[str, Any]) -> Decision:
    fields = dict(data)
    fields["options"] = tuple(Option(**o) for o in fields.get("options", ()))
    for name in ("info", "aliases"):
        fields[name] = tuple(fields.get(name, ()))
    return Decision(**fields)


def error_to_wire(exc: BaseException, text: Any = str) -> dict[str, Any]:
    """An engine error as the seat may read it (*text* withholds hidden terms)."""
    if isinstance(exc, E.NeedDecision):
        return {"type": "NeedDecision", "message": text(str(exc)),
                "decision": decision_to_wire(exc.decision), "preview": list(exc.preview)}
    if isinstance(exc, E.AdvanceRefused):
        return {"type": "AdvanceRefused", "message": text(str(exc)),
                "missing": [text(m) for m in exc.missing]}
    name = next((n for n, cls in ERRORS.items() if type(exc) is cls), None)
    if name is None:
        name = "ActionRejected" if isinstance(exc, E.ActionRejected) else (
            "InvalidInput" if isinstance(exc, E.InvalidInput) else "CampaignError")
    return {"type": name, "message": text(str(exc))}


def error_from_wire(data: dict[str, Any]) -> E.CampaignError:
    kind = data.get("type")
    if kind == "NeedDecision":
        return E.NeedDecision(decision_from_wire(data["decision"]), list(data.get("preview", [])))
    if kind == "AdvanceRefused":
        return E.AdvanceRefused(list(data.get("missing", [])))
    return ERRORS.get(str(kind), E.CampaignError)(str(data.get("message", "refused")))


def lookup_to_wire(name: str, look: Lookup) -> dict[str, Any]:
    return {"name": name, "table": look.table, "cell": look.cell, "value": look.value,
            "labels": look.labels, "explanation": look.explanation,
            "provenance": look.provenance.to_dict(), "overridden": look.overridden}


def lookup_from_wire(data: dict[str, Any]) -> tuple[str, Lookup]:
    return data["name"], Lookup(data["table"], data["cell"], data["value"], data["labels"],
                                list(data["explanation"]),
                                Provenance.from_data(data["provenance"]), data["overridden"])


def entry_from_wire(data: dict[str, Any]) -> LogEntry:
    return LogEntry.from_dict(data)


def bookmark_from_wire(data: dict[str, Any] | None) -> Bookmark | None:
    return Bookmark.from_dict(data) if data else None


def status_from_wire(engine: Engine, data: dict[str, Any]) -> Status:
    """A status sent by the server, its choices' forms taken from the seat's rule set."""
    from campaign_tui.core.engine import ActionChoice, Status

    choices = []
    for kind, scope, available, reason in data["choices"]:
        d = engine.action_def(kind)
        choices.append(ActionChoice(kind, d.title, available, reason, d.params, d.help,
                                    "n" if kind == "advance" else d.key, scope, d.reference))
    fields = {k: v for k, v in data.items() if k != "choices"}
    fields["rolls"] = tuple(fields.get("rolls", ()))
    return Status(choices=choices, **fields)
