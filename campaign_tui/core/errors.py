"""Errors the engine raises. Each carries a message written for the person at the table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from campaign_tui.core.decisions import Decision


class CampaignError(Exception):
    """Base class: an error with a message fit to show to a user as it is."""


class InvalidInput(CampaignError):
    """A value given by a user (die value, parameter, option...) is not acceptable."""


class ActionRejected(CampaignError):
    """An action is not allowed now, or its parameters are impossible. Nothing changed."""


class AdvanceRefused(ActionRejected):
    """The phase machine cannot advance: a required action is missing."""

    def __init__(self, missing: list[str]) -> None:
        self.missing = missing
        super().__init__("Cannot advance yet: " + "; ".join(missing))


class NeedDecision(CampaignError):
    """A procedure needs an answer before it can go on. Nothing changed.

    Re-run the same action with ``answers[decision.id]`` set to resolve it.
    ``preview`` holds the explanation lines gathered so far (totals, odds, rolls).
    """

    def __init__(self, decision: Decision, preview: list[str] | None = None) -> None:
        self.decision = decision
        self.preview = preview or []
        super().__init__(f"Decision needed: {decision.prompt}")


class NeedConfirmation(CampaignError):
    """An operation needs explicit confirmation (for example undoing past a die roll)."""


class UnknownRuleset(CampaignError):
    pass


class SaveError(CampaignError):
    """A save file cannot be read or written. Names the file, the line when known, the problem."""

    def __init__(self, path: Any, problem: str, line: int | None = None) -> None:
        self.path = str(path)
        self.problem = problem
        self.line = line
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {problem}")


class CampaignLocked(SaveError):
    """Another process holds the campaign open for writing."""

    def __init__(self, path: Any, holder: str) -> None:
        self.holder = holder
        super().__init__(
            path,
            f"already open for writing by {holder}. Open it read-only, or open a copy.",
        )


class ParamProblem(InvalidInput):
    """A parameter of an action is missing or not acceptable. The message speaks with the
    action's title and the parameter's words; ``details`` keeps the ids for scripts
    (``--json`` output): ``{"action", "param", "problem": "missing"|"bad", "value",
    "reason"}``."""

    def __init__(self, message: str, details: dict[str, Any]) -> None:
        self.details = details
        super().__init__(message)
