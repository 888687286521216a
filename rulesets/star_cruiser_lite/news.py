"""Events and intelligence: what the turn reports will tell, and to whom.

``records/events`` holds one entry per reportable event with the nations it may be shown to
(``to = ["*"]`` for the general report). Intelligence gathered by a nation goes into that
nation's secrets (``intel``), which no other nation's view contains.
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.context import Ctx
from rulesets.star_cruiser_lite.game import absolute_week


def _stamp(ctx: Ctx) -> dict[str, int]:
    month, week = int(ctx.clock.get("month", 1)), int(ctx.clock.get("week", 0))
    return {"t": absolute_week(month, week), "month": month, "week": week}


def event(ctx: Ctx, text: str, to: list[str] | None = None, kind: str = "note", **extra: Any) -> None:
    """Record an event; *to* = the nations who learn of it (None: everyone)."""
    n = len(ctx.state.records("events")) + 1
    key = f"e{n:05d}"
    while key in ctx.state.records("events"):
        n += 1
        key = f"e{n:05d}"
    ctx.put_record(
        "events",
        key,
        {
            **_stamp(ctx),
            "kind": kind,
            "text": text,
            "to": sorted(set(to)) if to is not None else ["*"],
            **extra,
        },
    )


def intel(ctx: Ctx, nation: str, report: dict[str, Any]) -> None:
    """Add an intelligence report to a nation's secret file."""
    book = list(ctx.secret(nation, "intel", []) or [])
    book.append({**_stamp(ctx), **report})
    ctx.set_secret(nation, "intel", book[-200:])
