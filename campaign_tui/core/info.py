"""Campaign-level facts that are not game state: name, rule set pin, seed and generator
position, the effective-history pointer, the redo stack and the bookmarks."""

from __future__ import annotations

import datetime as _dt
import uuid
from dataclasses import field
from typing import Any

from campaign_tui.core.records import record


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@record
class Bookmark:
    seq: int
    label: str
    step: str
    phase: str
    clock: dict[str, int]
    turn_start: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "label": self.label, "step": self.step,
                               "phase": self.phase, "clock": dict(self.clock)}
        if self.turn_start:
            out["turn_start"] = True
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Bookmark:
        return cls(int(d["seq"]), str(d["label"]), str(d.get("step", "")),
                   str(d.get("phase", "")), dict(d.get("clock", {})),
                   bool(d.get("turn_start", False)))


@record
class CampaignInfo:
    name: str
    ruleset: str
    ruleset_version: str
    data_hash: str
    scenario: str
    seed: int
    id: str = field(default_factory=lambda: uuid.uuid4().hex)
    rng_position: int = 0
    created: str = field(default_factory=now_iso)
    saved: str = ""
    head: int = 0
    redo: list[int] = field(default_factory=list)
    log_length: int = 0
    bookmarks: list[Bookmark] = field(default_factory=list)
    export_side: str | None = None   # set on a side's export: its view, without the dice
    where: str = ""                  # "Turn 3 · Combat Phase", for listings without loading

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "scenario": self.scenario,
            "ruleset": {"id": self.ruleset, "version": self.ruleset_version,
                        "data_hash": self.data_hash},
            "seed": self.seed, "rng_position": self.rng_position, "created": self.created,
            "saved": self.saved, "head": self.head, "redo": list(self.redo),
            "log_length": self.log_length,
        }
        if self.export_side:  # a side's view: no generator, nothing to foresee the dice by
            out["export_side"] = self.export_side
            del out["seed"], out["rng_position"]
        if self.where:
            out["where"] = self.where
        out["bookmarks"] = [b.to_dict() for b in self.bookmarks]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CampaignInfo:
        rs = d["ruleset"]
        return cls(
            name=str(d["name"]), ruleset=str(rs["id"]), ruleset_version=str(rs["version"]),
            data_hash=str(rs.get("data_hash", "")), scenario=str(d.get("scenario", "")),
            seed=int(d["seed"] if "seed" in d or not d.get("export_side") else 0),
            id=str(d["id"]) if "id" in d else uuid.uuid4().hex,
            rng_position=int(d.get("rng_position", 0)), created=str(d.get("created", "")),
            saved=str(d.get("saved", "")), head=int(d.get("head", 0)),
            redo=[int(x) for x in d.get("redo", [])], log_length=int(d.get("log_length", 0)),
            bookmarks=[Bookmark.from_dict(b) for b in d.get("bookmarks", [])],
            export_side=d.get("export_side"), where=str(d.get("where", "")),
        )
