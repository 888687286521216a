"""One entry of the action log: what was done, by whom, when in the game, with which rolls,
and exactly what it changed."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from campaign_tui.core.changes import Change
from campaign_tui.core.dice import Roll
from campaign_tui.core.records import record

UNDO = "undo"
REDO = "redo"
ADVANCE = "advance"


@record
class LogEntry:
    seq: int
    kind: str
    by: str = "gm"
    at: str = ""
    clock: dict[str, int] = field(default_factory=dict)
    step: str = ""
    phase: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    rolls: list[Roll] = field(default_factory=list)
    summary: str = ""
    lines: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    parent: int = 0
    target: int | None = None
    visibility: str = "public"      # "public" or the one side that may see it
    rng: tuple[int, int] = (0, 0)   # generator positions [start, end)
    tags: dict[str, Any] = field(default_factory=dict)

    @property
    def is_undo(self) -> bool:
        return self.kind == UNDO

    @property
    def is_redo(self) -> bool:
        return self.kind == REDO

    def visible_to(self, viewer: str) -> bool:
        return viewer == "gm" or self.visibility in ("public", viewer)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "kind": self.kind, "by": self.by}
        if self.at:
            out["at"] = self.at
        out["clock"] = dict(self.clock)
        out["step"] = self.step
        if self.phase:
            out["phase"] = self.phase
        if self.params:
            out["params"] = self.params
        if self.answers:
            out["answers"] = self.answers
        if self.rolls:
            out["rolls"] = [r.to_dict() for r in self.rolls]
        if self.summary:
            out["summary"] = self.summary
        if self.lines:
            out["lines"] = list(self.lines)
        out["parent"] = self.parent
        if self.target is not None:
            out["target"] = self.target
        if self.visibility != "public":
            out["visibility"] = self.visibility
        out["rng"] = list(self.rng)
        if self.tags:
            out["tags"] = self.tags
        if self.changes:
            out["changes"] = [c.to_dict() for c in self.changes]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> LogEntry:
        rng = d.get("rng", [0, 0])
        return cls(
            seq=int(d["seq"]), kind=str(d["kind"]), by=str(d.get("by", "gm")),
            at=str(d.get("at", "")), clock=dict(d.get("clock", {})), step=str(d.get("step", "")),
            phase=str(d.get("phase", "")), params=dict(d.get("params", {})),
            answers=dict(d.get("answers", {})),
            rolls=[Roll.from_dict(r) for r in d.get("rolls", [])],
            summary=str(d.get("summary", "")), lines=[str(x) for x in d.get("lines", [])],
            changes=[Change.from_dict(c) for c in d.get("changes", [])],
            parent=int(d.get("parent", 0)), target=d.get("target"),
            visibility=str(d.get("visibility", "public")), rng=(int(rng[0]), int(rng[1])),
            tags=dict(d.get("tags", {})),
        )
