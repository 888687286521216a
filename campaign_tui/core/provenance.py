"""Where a table or a value comes from.

A small vocabulary that covers every grade the rule digests use:

* ``rulebook``       stated in the rulebook (digest tags SEED).
* ``reconstructed``  rebuilt from damaged text; carries a ``confidence`` (high/medium/low).
* ``external``       taken from public material outside the rulebook; carries a ``trust``
                     (scan/ocr/fan/author/implementation) and a ``source``.
* ``default``        a recommended default where the rulebook is silent or lacks the data.
* ``demo``           demonstration data, so the program can be exercised.
* ``house``          a GM's own change (house rule) made in this campaign.

Anything that is not ``rulebook`` is shown as unverified in the interface.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record

GRADES = ("rulebook", "reconstructed", "external", "default", "demo", "house")
CONFIDENCE = ("high", "medium", "low")
TRUST = ("scan", "ocr", "fan", "author", "implementation", "other")

_BADGE = {
    "rulebook": "RULEBOOK",
    "reconstructed": "RECONSTRUCTED",
    "external": "EXTERNAL",
    "default": "DEFAULT",
    "demo": "DEMO",
    "house": "HOUSE RULE",
}


@record(frozen=True, slots=True)
class Provenance:
    grade: str = "rulebook"
    confidence: str | None = None
    trust: str | None = None
    source: str = ""
    note: str = ""

    def __post_init__(self) -> None:
        if self.grade not in GRADES:
            raise InvalidInput(f"unknown provenance grade {self.grade!r}; use one of {GRADES}")
        if self.confidence is not None and self.confidence not in CONFIDENCE:
            raise InvalidInput(f"unknown confidence {self.confidence!r}; use one of {CONFIDENCE}")
        if self.trust is not None and self.trust not in TRUST:
            raise InvalidInput(f"unknown trust {self.trust!r}; use one of {TRUST}")

    @property
    def verified(self) -> bool:
        return self.grade == "rulebook"

    def badge(self) -> str:
        text = _BADGE[self.grade]
        if self.confidence:
            text += f" ({self.confidence} confidence)"
        if self.trust:
            text += f" ({self.trust})"
        return text

    def describe(self) -> str:
        parts = [self.badge()]
        if self.source:
            parts.append(f"source: {self.source}")
        if self.note:
            parts.append(self.note)
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"grade": self.grade}
        for key in ("confidence", "trust"):
            value = getattr(self, key)
            if value:
                out[key] = value
        for key in ("source", "note"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out

    @classmethod
    def from_data(cls, data: Any) -> Provenance:
        """Accept a grade name or a table such as ``{grade = "reconstructed", confidence = "high"}``."""
        if data is None:
            return cls()
        if isinstance(data, str):
            return cls(grade=data)
        if isinstance(data, dict):
            known = {"grade", "confidence", "trust", "source", "note"}
            extra = set(data) - known
            if extra:
                raise InvalidInput(f"unknown provenance keys {sorted(extra)}")
            return cls(**data)
        raise InvalidInput(f"provenance must be a grade name or a table, not {data!r}")


RULEBOOK = Provenance()
HOUSE = Provenance(grade="house")
