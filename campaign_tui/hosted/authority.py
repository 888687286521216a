"""What a seat may do at a hosted table, beyond the engine's own checks.

A side's seat acts for its side only: never a GM action, never a step that belongs to
another side (the engine lets anyone act in a step whose actions name no side), never
after sealing its orders for the step. The server refuses such requests; the seat's
screen shows them as not available, with the same reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign_tui.hosted.identity import GM

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine


def refusal(engine: Engine, viewer: str, kind: str) -> str | None:
    """Why *viewer*'s seat may not do *kind* now (None: the engine decides)."""
    if viewer == GM:
        return None
    defn = engine.action_def(kind)
    if kind.startswith("gm.") or defn.side == "gm":
        return "only the GM may do this"
    if kind == "advance" or kind in engine.step.actions:
        actor = engine.resolve_actor(engine.state, engine.step.actor)
        if actor not in (viewer, "all", "both"):
            return f"it is for {engine.actor_name(actor)} to do now"
    return None
