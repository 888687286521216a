"""What fits an action's parameters now, for forms: ``(state, actor) -> [id, ...]``."""

from __future__ import annotations

from campaign_tui.core.model import State


def own_task_forces(state: State, actor: str) -> list[str]:
    """The acting nation's task forces (every nation's when all act at once)."""
    held = {u.formation for u in state.units.values()}
    return [f.id for f in state.formations.values()
            if f.id in held and (actor not in state.sides or f.side == actor)]
