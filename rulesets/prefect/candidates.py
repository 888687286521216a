"""What fits an action's parameters now, for forms: ``(state, actor) -> [id, ...]``.

*actor* is the side acting ("TOG", "CW") or "gm"; for the GM the step's roles decide."""

from __future__ import annotations

from campaign_tui.core.model import State
from rulesets.prefect.board import Board, other

SIDES = ("TOG", "CW")


def _side(state: State, actor: str, role: str = "") -> str | None:
    if actor in SIDES:
        return actor
    return state.vars.get("roles", {}).get(role) if role else None


def waiting_bases(state: State, actor: str) -> list[str]:
    from rulesets.prefect.actions_setup import unplaced_bases

    return unplaced_bases(state)


def waiting_forces(state: State, actor: str) -> list[str]:
    """The placer's task forces still to be put on the map."""
    from rulesets.prefect.actions_setup import unplaced

    return unplaced(state, _side(state, actor, "placer"))


def own_units(state: State, actor: str) -> list[str]:
    side = _side(state, actor)
    return [u.id for u in state.units.values()
            if (side is None or u.side == side) and not u.status.get("destroyed")]


def own_record_tfs(state: State, actor: str) -> list[str]:
    """Task forces of the actor's record sheets not yet on the map."""
    side = _side(state, actor)
    return [f.id for f in state.formations.values()
            if f.kind == "tf" and not f.location and (side is None or f.side == side)]


def own_orgs(state: State, actor: str) -> list[str]:
    side = _side(state, actor)
    return [f.id for f in state.formations.values()
            if f.kind not in ("tf", "independent", "naval_tf") and f.parent is None
            and (side is None or f.side == side)]


def attacker_forces(state: State, actor: str) -> list[str]:
    side = _side(state, actor, "attacker")
    return [f.id for f in Board(state).ground_forces(side)]


def own_forces(state: State, actor: str) -> list[str]:
    side = _side(state, actor)
    return [f.id for f in Board(state).ground_forces(side)]


def enemy_forces(state: State, actor: str) -> list[str]:
    side = _side(state, actor)
    return [f.id for f in Board(state).ground_forces(other(side) if side else None)]


def own_naval_tfs(state: State, actor: str) -> list[str]:
    side = _side(state, actor, "setup")
    board = Board(state)
    return [f.id for f in board.naval_tfs(side) if board.units(f.id)]


def _attack_pairs(state: State, actor: str) -> list[tuple[str, str]]:
    """(attacking task force, enemy task force next to it) that may still be declared,
    grouped by the enemy task force."""
    from rulesets.prefect.board import loc_hex

    side = _side(state, actor, "attacker")
    board = Board(state)
    attacks = state.vars.get("attacks", [])
    busy = {a for x in attacks for a in x.get("attackers", [])}
    taken = {x.get("target") for x in attacks}
    own = [f for f in board.ground_forces(side)
           if f.id not in busy and board.fatigue(f.id) < 3 and loc_hex(f.location)]
    enemy = [f for f in board.ground_forces(other(side) if side else None)
             if f.id not in taken and loc_hex(f.location)]
    return [(a.id, t.id) for t in enemy for a in own
            if board.adjacent(loc_hex(a.location) or "", loc_hex(t.location) or "")]


def attackers_in_contact(state: State, actor: str) -> list[str]:
    """The attacker's task forces next to an enemy task force, free to attack (not at
    fatigue 3, not attacking yet); those next to the first listed target first."""
    return list(dict.fromkeys(a for a, _ in _attack_pairs(state, actor)))


def attack_targets(state: State, actor: str) -> list[str]:
    """Enemy task forces next to one of the attacker's free task forces, not attacked yet."""
    return list(dict.fromkeys(t for _, t in _attack_pairs(state, actor)))
