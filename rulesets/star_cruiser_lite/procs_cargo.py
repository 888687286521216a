"""Transport procedures for ``calc`` (T-06, T-07)."""

from __future__ import annotations

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.star_cruiser_lite.rules_cargo import MERCHANT_POINTS, MERCHANTS, TT_POINTS, troop_load

SHIP_CODES = ("TT", "MF", "MQ", "MS", "BB", "BC", "CG", "LSA")


def p_troop_load(r: Resolver, ship: str, troops: object, troop_cap: int = 0, cargo_troops: int = 0) -> Calc:
    """T-06, T-07: do these troop units fit aboard one ship? A troop transport takes any unit up
    to a Bde(H) or a mix of strength 3; a warship its class's troop capacity (*troop_cap*);
    merchants count in merchant points, 5 to a strength point: MF strength 2, MS 5 (as printed,
    G-20), a Q-ship one unit of strength 1. A PD site travels only in merchant space (2 points).
    Cargo types are alternatives: troop space on a merchant carries nothing else.
    *troops*: T-07 codes, e.g. Bde(M),JBn."""
    raw = troops if isinstance(troops, list) else str(troops or "").split(",")
    items = [str(t).strip() for t in raw if str(t).strip()]
    if not items:
        raise InvalidInput("troops: one or more T-07 codes, e.g. Bde(M),JBn")
    if ship not in (*MERCHANTS, "TT") and not troop_cap:
        r.explain(f"a {ship} carries troops only up to its class's printed capacity: give troop_cap")
    load = troop_load(ship, items, troop_cap, cargo_troops)
    table = MERCHANT_POINTS if ship in MERCHANTS else TT_POINTS
    r.explain(f"T-07 sizes in {load.unit}: " + ", ".join(f"{t} {table.get(t, '-')}" for t in items))
    r.explain(load.why)
    return Calc(
        {"fits": load.fits, "used": load.used, "room": load.room, "unit": load.unit},
        ("fits: " if load.fits else "does not fit: ") + load.why,
    )


PROCEDURES = [
    ProcedureDef(
        "troop_load",
        "Troops aboard a ship",
        p_troop_load,
        (
            Param("ship", "choice", choices=SHIP_CODES, help="the ship's class code"),
            Param("troops", "list", help="T-07 codes: JBn, Bde(L), Bde(M), Bde(H), Bde(K), PD"),
            Param(
                "troop_cap",
                "int",
                help="the ship's own troop capacity, if printed",
                required=False,
                default=0,
            ),
            Param(
                "cargo_troops",
                "int",
                help="a merchant's troop strength, if not T-06's",
                required=False,
                default=0,
            ),
        ),
        aliases=("T-06", "T-07"),
        help=(p_troop_load.__doc__ or "").strip(),
        reference="T-06",
    ),
]
