"""Troop transport (T-06, T-07): how much room a ship has for ground troops and what each
troop unit takes. Pure rules, used by the ``troop_load`` procedure and by play when troops
go aboard (``load_troops``, and the order-of-battle loader)."""

from __future__ import annotations

from campaign_tui.core.records import record

# T-07: transport size in TT / warship capacity points (Bde(K) on Kafer warships); a PD site
# travels only in merchant space.
TT_POINTS = {"JBn": 1, "Bde(L)": 1, "Bde(M)": 2, "Bde(H)": 3, "Bde(K)": 2}
# T-07: merchant capacity; a merchant's "strength" in T-06 is TT points, 5 merchant points each.
MERCHANT_POINTS = {"JBn": 5, "Bde(L)": 5, "Bde(M)": 10, "Bde(H)": 15, "Bde(K)": 10, "PD": 2}
MERCHANT_RATE = 5
MERCHANTS = ("MF", "MQ", "MS")
# T-06: ground-troop room of the non-combatant ships, in strength (TT points).
T06_STRENGTH = {"MF": 2, "MQ": 1, "MS": 5, "TT": 3}


@record(frozen=True)
class Load:
    fits: bool
    used: int
    room: int
    unit: str  # "strength" (TT / warship points) or "merchant points"
    why: str


def troop_room(ship_code: str, troop_cap: int = 0, cargo_troops: int = 0) -> int:
    """Room in the ship's own units: merchant points for merchants, strength otherwise."""
    if ship_code in MERCHANTS:
        return MERCHANT_RATE * (cargo_troops or T06_STRENGTH[ship_code])
    return troop_cap or (T06_STRENGTH.get(ship_code, 0) if ship_code == "TT" else 0)


def troop_load(ship_code: str, troops: list[str], troop_cap: int = 0, cargo_troops: int = 0) -> Load:
    """Do these troop units (T-07 codes) fit aboard a ship of this class (T-06)?"""
    merchant = ship_code in MERCHANTS
    sizes = MERCHANT_POINTS if merchant else TT_POINTS
    unit = "merchant points" if merchant else "strength"
    room = troop_room(ship_code, troop_cap, cargo_troops)
    odd = [t for t in troops if t not in sizes]
    if odd:
        where = "merchant" if merchant else "TT / warship"
        return Load(False, 0, room, unit, f"{', '.join(odd)}: no {where} transport size in T-07")
    used = sum(sizes[t] for t in troops)
    if room <= 0:
        return Load(False, used, 0, unit, f"a {ship_code} has no room for ground troops (T-06)")
    if ship_code == "MQ" and (len(troops) > 1 or used > MERCHANT_RATE):
        return Load(False, used, room, unit, "a Q-ship carries one unit of strength 1 (T-06)")
    if used > room:
        return Load(False, used, room, unit, f"{used} {unit} do not fit in {room} (T-06, T-07)")
    return Load(True, used, room, unit, f"{used} of {room} {unit} (T-06, T-07)")
