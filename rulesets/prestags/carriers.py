"""Units that carry others: Chariot chariots (Chariot [1.0]-[1.9]) and Viking fleets (Viking
[3.1]-[3.5]), digest section 4.5 (EXT sources: the SPI Chariot folder's scan, the Viking
folder's OCR).

A carried unit keeps its own counter in its carrier's hex with the status ``aboard`` naming
the carrier; it moves only with it. It is not counted apart for stacking: the carrier counts
(Chariot [1.8]; Viking [3.14] "placed under the Fleet unit"). Without this reading no army
with a stacking limit of 1 (Babylon, Rome) could use its chariots at all.

Chariot [1.4]: one Movement Allowance serves the chariot's Chariot Phase and its Movement
Phase; ``chariot_mp`` keeps what it spent this Player-Turn. [1.5]: a chariot that enters a
stream hex stops for the whole Player-Turn (``chariot_stopped``).
"""

from __future__ import annotations

from fractions import Fraction

from campaign_tui.core.model import State, Unit
from rulesets.prestags import exclusive
from rulesets.prestags.common import frac, hex_of, units_of

CHARIOT, FLEET = "CH", "VF"
CHARIOT_PASSENGERS = ("BW", "IB", "SK")  # Chariot [1.0]
CHARIOT_LOAD, FLEET_LOAD = 1, 3  # non-leader units aboard: Chariot [1.8], Viking [3.14]
FLEET_MA, FLEET_MA_DISRUPTED = 15, 7  # Viking [3.11], [3.23]
MOOR_MP, UNMOOR_MP, LOAD_MP = 7, 5, 2  # Viking [3.32], [3.33], [3.41], [3.43]
FLEET_FPS = 4  # Viking [3.25]
FLEET_WATER = ("sea", "river", "ford", "bridge")  # Viking [3.12], [3.13], [3.28]
MOORINGS = ("river", "bridge")  # Viking [3.31]


def is_leader_code(code: str) -> bool:
    return code.upper().startswith("L")


def passenger_problem(kind: str, codes: list[str]) -> str:
    """Why these unit types cannot all ride one chariot (CH) or fleet (VF) together ('' if they
    can): a chariot takes one BW, IB or SK, a fleet three non-fleet units; leaders ride free."""
    troops = [c.upper() for c in codes if not is_leader_code(c)]
    if kind == CHARIOT:
        bad = [c for c in troops if c not in CHARIOT_PASSENGERS]
        if bad:
            return f"a chariot carries only a BW, IB or SK (and leaders), not {', '.join(bad)} [C1.0]"
        if len(troops) > CHARIOT_LOAD:
            return f"a chariot carries one BW, IB or SK at a time, not {', '.join(troops)} [C1.8]"
        return ""
    if FLEET in troops:
        return "a fleet does not carry another fleet [V3.14]"
    if len(troops) > FLEET_LOAD:
        return f"a fleet carries up to {FLEET_LOAD} units (leaders free), not {len(troops)} [V3.14]"
    return ""


def chariots_in_play(state: State) -> bool:
    """The Chariot game with its exclusive rules on and a chariot of the phasing side on the map."""
    if state.options.get("simultaneous") or not exclusive.in_game(state, "C"):
        return False
    side = state.vars.get("roles", {}).get("phasing")
    return any(u.type == CHARIOT and hex_of(u) for u in units_of(state, side))


def fleets_in_play(state: State) -> bool:
    """A Viking battle whose orders of battle hold fleets, with the exclusive rules on."""
    return exclusive.in_game(state, "V") and any(u.type == FLEET for u in state.units.values())


def carrier_of(state: State, unit: Unit) -> Unit | None:
    """The active carrier *unit* rides in (None when it is on its own feet)."""
    cid = unit.status.get("aboard")
    carrier = state.units.get(str(cid)) if cid else None
    if carrier is None or carrier.status.get("state", "active") != "active":
        return None
    if hex_of(carrier) != hex_of(unit):
        return None
    return carrier


def aboard(state: State, carrier_id: str) -> list[Unit]:
    """The units riding in *carrier_id*, by id."""
    return sorted(
        (u for u in units_of(state) if u.status.get("aboard") == carrier_id and carrier_of(state, u)),
        key=lambda u: u.id,
    )


def riding(state: State) -> set[str]:
    """Every unit now aboard a chariot or fleet (not counted apart for stacking)."""
    return {u.id for u in units_of(state) if carrier_of(state, u) is not None}


def chariot_mp_used(state: State, cid: str) -> Fraction:
    return frac(state.vars.get("chariot_mp", {}).get(cid, 0))


def chariot_stopped(state: State, cid: str) -> bool:
    return cid in state.vars.get("chariot_stopped", [])


def fleet_ma(disrupted: bool) -> int:
    return FLEET_MA_DISRUPTED if disrupted else FLEET_MA


def fleet_mp_used(state: State, fid: str) -> int:
    return int(state.vars.get("fleet_mp", {}).get(fid, 0))


def chariot_unstacking(state: State, side: str) -> list[str]:
    """Chariot [1.9]: at the end of a Chariot or Movement Phase a chariot shares its hex only
    with the units aboard it and leaders."""
    out = []
    for ch in sorted(units_of(state, side), key=lambda u: u.id):
        h = hex_of(ch)
        if ch.type != CHARIOT or h is None:
            continue
        others = [
            u.label
            for u in units_of(state)
            if hex_of(u) == h
            and u.id != ch.id
            and not is_leader_code(u.type)
            and u.status.get("aboard") != ch.id
        ]
        if others:
            out.append(f"{h}: {ch.label} shares the hex with {', '.join(others)} [C1.9]")
    return out


def stuck_fleets(state: State, side: str) -> list[Unit]:
    """Viking [3.28]: this side's disrupted fleets ending the Movement Phase on a ford or bridge
    hex that holds enemy units; they are eliminated at the end of movement."""
    if not fleets_in_play(state):
        return []
    from rulesets.prestags import hexmap

    out = []
    for u in sorted(units_of(state, side), key=lambda x: x.id):
        h = hex_of(u)
        if (
            u.type == FLEET
            and h is not None
            and u.status.get("disrupted")
            and hexmap.known_hex(state, h).get("terrain") in ("ford", "bridge")
            and any(e.side != side and hex_of(e) == h for e in units_of(state))
        ):
            out.append(u)
    return out


def fleet_endings(state: State, side: str) -> list[str]:
    """Viking [3.16], [3.17], [3.28]: at the end of a Movement Phase no two fleets share a hex,
    and in a battle with fleets no unit stands on a ford or bridge hex, except a disrupted fleet
    stuck on an enemy-held one (and its riders), which the end of movement eliminates."""
    if not fleets_in_play(state):
        return []
    from rulesets.prestags import hexmap

    doomed = {f.id for f in stuck_fleets(state, side)}
    out = []
    fleets: dict[str, list[str]] = {}
    for u in sorted(units_of(state, side), key=lambda x: x.id):
        h = hex_of(u)
        if h is None:
            continue
        if u.type == FLEET:
            fleets.setdefault(h, []).append(u.label)
        if u.id in doomed or u.status.get("aboard") in doomed:
            continue
        if hexmap.known_hex(state, h).get("terrain") in ("ford", "bridge"):
            out.append(
                f"{h}: {u.label} may not end its Movement Phase on a ford or bridge hex [V3.17] (a disrupted "
                "fleet left on an enemy-held one is eliminated at the end of movement [V3.28])"
            )
    out += [
        f"{h}: fleets {', '.join(n)} may not end in one hex [V3.16]" for h, n in fleets.items() if len(n) > 1
    ]
    return out


def sailing_only(state: State, h: str) -> bool:
    """Viking [3.28], [3.5]: the hex holds nothing but a fleet under sail and its riders, which
    melee cannot reach."""
    here = [u for u in units_of(state) if hex_of(u) == h]
    fleets = [u for u in here if u.type == FLEET]
    if not fleets or any(f.status.get("moored") for f in fleets):
        return False
    return all(u.type == FLEET or carrier_of(state, u) is not None for u in here)


def load_at_deploy(state: State, side: str, h: str) -> list[tuple[Unit, Unit]]:
    """Deployment: units set up in the hex of a friendly chariot or fleet go aboard it where
    there is room (Viking scenarios deploy "aboard the fleets"). Returns (rider, carrier)."""
    kinds = [k for k, code in ((CHARIOT, "C"), (FLEET, "V")) if exclusive.in_game(state, code)]
    here = sorted((u for u in units_of(state, side) if hex_of(u) == h), key=lambda u: u.id)
    out: list[tuple[Unit, Unit]] = []
    taken: set[str] = set()
    for carrier in (u for u in here if u.type in kinds):
        codes = [r.type for r in aboard(state, carrier.id)]
        for u in here:
            if u.type in (CHARIOT, FLEET) or u.id in taken or carrier_of(state, u) is not None:
                continue
            if not passenger_problem(carrier.type, [*codes, u.type]):
                codes.append(u.type)
                taken.add(u.id)
                out.append((u, carrier))
    return out


def fleet_under_fire(state: State, h: str) -> bool:
    """Viking [3.21]: a fleet that moves next to an enemy fire unit may be fired on at once, in
    the Movement Phase; *h* holds a fleet of the phasing side."""
    side = state.vars.get("roles", {}).get("phasing")
    return exclusive.in_game(state, "V") and any(
        u.type == FLEET and u.side == side for u in units_of(state) if hex_of(u) == h
    )
