"""Map knowledge the program does not have (the Ku Crassus map is not in the rulebook, G2).

Adjacency comes from the map's geometry (board.py). Terrain and area are answered from map
data when the GM has entered it (vars ``hexes``, the engine's map facts) and otherwise asked
once as a GM ruling, logged with the action and remembered.
Terrain given by a player for a hex is remembered for the turn (the player with a unit in a
hex picks which of its terrains applies, 3.7).
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import Formation
from rulesets.prefect.board import TERRAINS, Board, hexid


def norm_terrain(text: str) -> str:
    t = str(text).strip().lower()
    aliases = {
        "crater": "craters",
        "mountains": "mountains/volcano",
        "volcano": "mountains/volcano",
        "desert": "desert/lava flow",
        "lava flow": "desert/lava flow",
        "sinkholes": "sink holes",
        "city": "urban",
    }
    t = aliases.get(t, t)
    if t not in TERRAINS:
        raise InvalidInput(f"{text!r} is not a terrain; terrains are {', '.join(TERRAINS)}")
    return t


def remember_hex(ctx: Ctx, hex_: str, terrain: str | None = None, area: int | None = None) -> None:
    """Record what a player or the GM said about a hex (map data grows as play goes)."""
    hexes = ctx.edit_var("hexes", {})
    info = hexes.setdefault(hex_, {})
    if terrain:
        kinds = info.setdefault("terrain", [])
        if terrain not in kinds:
            kinds.append(terrain)
        picks = ctx.edit_var("terrain_pick", {})
        picks[hex_] = terrain
    if area is not None:
        info["area"] = int(area)


def terrain_of(ctx: Ctx, hex_: str, given: str | None = None, chooser: str | None = None) -> str:
    """The terrain that applies in *hex_* this turn.

    A terrain *given* as a parameter is used and remembered. Otherwise the turn's pick or
    the hex's only terrain is used; a hex of several terrains lets *chooser* (the side with
    a unit there) pick; a hex the program knows nothing about is a GM ruling.
    """
    hex_ = hexid(hex_, ctx.state)
    if given:
        t = norm_terrain(given)
        remember_hex(ctx, hex_, terrain=t)
        return t
    board = Board.of(ctx)
    known = board.terrain_choice(hex_)
    if known:
        return known
    kinds = board.hexinfo(hex_).get("terrain") or []
    if kinds:
        pick = ctx.choose(
            f"terrain:{hex_}:t{board.turn}",
            f"Hex {hex_} has several terrains: which one applies this turn?",
            list(kinds),
            side=chooser,
            default=kinds[0],
        )
        picks = ctx.edit_var("terrain_pick", {})
        picks[hex_] = pick
        return pick
    answer = ctx.ruling(
        f"terrain:{hex_}",
        f"What is the terrain of hex {hex_} (the one that applies)?",
        answer_kind="choice",
        options=TERRAINS,
    )
    t = norm_terrain(str(answer))
    remember_hex(ctx, hex_, terrain=t)
    return t


def adjacent(ctx: Ctx, a: str, b: str) -> bool:
    """Are two hexes neighbours? From the map's geometry and data, never a question."""
    return Board.of(ctx).adjacent(hexid(a, ctx.state), hexid(b, ctx.state))


def adjacent_forces(ctx: Ctx, hex_: str, candidates: Sequence[Formation], why: str) -> list[str]:
    """Which of *candidates* stand in a hex next to *hex_*? (*why* names the rule asking.)"""
    board = Board.of(ctx)
    hex_ = hexid(hex_, ctx.state)
    return [f.id for f in candidates
            if f.location and f.location.startswith("hex:") and board.adjacent(hex_, f.location[4:])]


def area_of(ctx: Ctx, hex_: str, given: int | None = None) -> int:
    """The planetary area (1-10) of a hex: given, from map data, else a GM ruling."""
    hex_ = hexid(hex_, ctx.state)
    if given is not None:
        if not 1 <= int(given) <= 10:
            raise InvalidInput(f"area {given} is not one of the planetary areas 1-10")
        remember_hex(ctx, hex_, area=int(given))
        return int(given)
    known = Board.of(ctx).area_of(hex_)
    if known is not None:
        return known
    answer = ctx.ruling(
        f"area:{hex_}", f"Which planetary area (1-10) is hex {hex_} in?", answer_kind="number"
    )
    area = int(answer)
    if not 1 <= area <= 10:
        raise InvalidInput(f"area {area} is not one of the planetary areas 1-10")
    remember_hex(ctx, hex_, area=area)
    return area


def line_of_communication(ctx: Ctx, key: str, question: str, info: Sequence[str] = ()) -> bool:
    """A valid line of communication (5.11.1) is a map question: always a GM ruling. A LOC
    may not enter a hex with an enemy TF, enemy disrupted unit, enemy base or enemy active
    ZOC (judged as for a Combat-mode mover, G13b)."""
    return bool(
        ctx.ruling(
            f"loc:{key}",
            question,
            info=(
                "a LOC may not enter a hex holding an enemy task force, enemy disrupted unit or enemy base,",
                "nor an enemy active zone of control (judged as for a Combat-mode mover, G13b)",
                *info,
            ),
        )
    )
