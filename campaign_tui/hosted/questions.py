"""Questions a side's action puts to the GM: a GM ruling (map knowledge the program lacks)
that the side may not answer itself.

The side's action stops there and waits (its seat says so); the GM's seat gets the
question with what the action had worked out so far, as the GM sees it; the GM's answer is
kept as the ruling for that side's action, which the table then carries out. A side waits
on one question at a time (acting again replaces it). No Textual import here.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from campaign_tui.core.decisions import Decision
from campaign_tui.hosted.wire import decision_to_wire


@dataclass
class Question:
    id: int
    side: str
    who: str                   # the side's name
    action: str
    title: str
    params: dict[str, Any]
    answers: dict[str, Any]    # the side's own answers so far
    decision: Decision         # the GM's to answer (full)
    lines: list[str]           # what the action had worked out so far (full)
    side_prompt: str           # the question as the side may read it
    ruled: dict[str, Any] = field(default_factory=dict)   # the GM's answers so far
    side_again: bool = False   # ruled, but the side must act again (a decision of its own)

    def for_gm(self) -> dict[str, Any]:
        return {"id": self.id, "side": self.side, "who": self.who, "action": self.action,
                "title": self.title, "prompt": self.decision.prompt,
                "decision": decision_to_wire(self.decision), "lines": list(self.lines),
                "side_again": self.side_again,
                "text": f"{self.who} asks the GM's ruling for {self.title}: "
                        f"{self.decision.prompt}"}

    def for_side(self) -> dict[str, Any]:
        return {"id": self.id, "action": self.action, "title": self.title,
                "prompt": self.side_prompt, "side_again": self.side_again}


class Questions:
    def __init__(self) -> None:
        self.by_side: dict[str, Question] = {}
        self._ids = itertools.count(1)

    def ask(self, side: str, who: str, action: str, title: str, params: dict[str, Any],
            answers: dict[str, Any], decision: Decision, lines: list[str],
            side_prompt: str) -> Question:
        """The side's action needs the GM's ruling on *decision*: its question (the GM's
        answers already given to the same action are kept)."""
        old = self.by_side.get(side)
        same = old is not None and old.action == action
        ruled = dict(old.ruled) if old is not None and same else {}
        # asked again (the side tried again): the same question, which the GM may be answering
        qid = old.id if old is not None and same and old.decision.id == decision.id \
            else next(self._ids)
        q = Question(qid, side, who, action, title, dict(params), dict(answers),
                     decision, list(lines), side_prompt, ruled)
        self.by_side[side] = q
        return q

    def get(self, qid: Any) -> Question | None:
        return next((q for q in self.by_side.values() if q.id == qid), None)

    def rulings(self, side: str, action: str) -> dict[str, Any]:
        """The GM's answers for *side*'s *action* (empty when none)."""
        q = self.by_side.get(side)
        return dict(q.ruled) if q is not None and q.action == action else {}

    def done(self, side: str, action: str | None = None) -> Question | None:
        """The side's question is settled (its action committed, or another one done)."""
        q = self.by_side.get(side)
        if q is not None and (action is None or q.action == action):
            del self.by_side[side]
            return q
        return None

    def open(self) -> list[Question]:
        return [q for q in self.by_side.values() if not q.side_again]

    def for_gm(self) -> list[dict[str, Any]]:
        return [q.for_gm() for q in self.open()]

    def for_side(self, side: str) -> list[dict[str, Any]]:
        q = self.by_side.get(side)
        return [q.for_side()] if q is not None else []
