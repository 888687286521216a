"""Who sits at a seat: the name the GM gave it and the side it plays (None: the GM)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SeatInfo:
    name: str
    side: str | None
