"""What fits an action's parameters now, for forms: ``(state, actor) -> [id, ...]``.

*actor* is the nation acting, or ``all``/``gm`` when the referee enters every nation's orders:
then every nation's forces count. Only what the state passed in holds is used, so a nation's
own view offers only what that nation knows.
"""

from __future__ import annotations

from campaign_tui.core.model import Formation, State


def _kafer(state: State, nation: str) -> bool:
    side = state.sides.get(nation)
    return bool(side and side.data.get("kafer"))


def _hostile(state: State, a: str, b: str) -> bool:
    return a != b and _kafer(state, a) != _kafer(state, b)


def _acting(state: State, actor: str, side: str) -> bool:
    return actor not in state.sides or side == actor


def _task_forces(state: State) -> list[Formation]:
    """Task forces with a ship in them (an emptied one is no longer a force)."""
    held = {u.formation for u in state.units.values()}
    return [f for f in state.formations.values() if f.kind == "task_force" and f.id in held]


def _in_contact(state: State, tf: Formation, forces: list[Formation]) -> bool:
    return tf.location is not None and any(
        o.location == tf.location and _hostile(state, tf.side, o.side) for o in forces)


def own_task_forces(state: State, actor: str) -> list[str]:
    """The acting nation's task forces (every nation's when all act at once), those sharing a
    system with a hostile task force first: they are the ones that can fight this week."""
    forces = _task_forces(state)
    mine = [f for f in forces if _acting(state, actor, f.side)]
    return [f.id for f in sorted(mine, key=lambda f: not _in_contact(state, f, forces))]


def _links(state: State) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for sid, rec in state.records("systems").items():
        for other in rec.get("links", []) or []:
            out.setdefault(sid, set()).add(str(other))
            out.setdefault(str(other), set()).add(sid)
    return out


def _here(tf: Formation) -> str | None:
    return tf.location or (tf.data.get("transit") or {}).get("to")


def destinations(state: State, actor: str) -> list[str]:
    """Systems one link away from one of the acting nation's task forces (a move goes one
    link a week)."""
    links = _links(state)
    out: set[str] = set()
    for tf in _task_forces(state):
        here = _here(tf)
        if here and _acting(state, actor, tf.side):
            out |= links.get(here, set())
    return sorted(out)


def attack_targets(state: State, actor: str) -> list[str]:
    """Enemy task forces, facilities and colonies in a system where the acting nation has a
    task force: what an Attack order can name."""
    forces = _task_forces(state)
    out: list[str] = []
    for tf in forces:
        if not _acting(state, actor, tf.side) or not tf.location:
            continue
        for f in state.formations.values():
            if (f.kind in ("task_force", "facility") and f.location == tf.location
                    and _hostile(state, tf.side, f.side) and (f.kind == "facility" or f in forces)):
                out.append(f.id)
        for cid, col in state.records("colonies").items():
            owner = str(col.get("owner", ""))
            if col.get("system") == tf.location and owner and _hostile(state, tf.side, owner):
                out.append(cid)
    return list(dict.fromkeys(out))


def own_facilities(state: State, actor: str) -> list[str]:
    """The acting nation's facilities (to deploy or pack)."""
    return [f.id for f in state.formations.values()
            if f.kind == "facility" and _acting(state, actor, f.side)]
