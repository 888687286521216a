"""Supply rules campaign play applies in the Supply Phase, as procedures ``calc`` reaches with
explicit inputs: transfers between bases and headquarters (5.11.2), the scenario's income
(5.11.7), supply drops from orbit (5.14.7) and building ground bases (5.11.8, 5.14.10).
The actions (``actions_supply``, ``actions_campaign``, ``actions_withdraw_adjust``) apply the
same rules; the storage arithmetic is ``supply.deliver`` for both.
"""

from __future__ import annotations

from campaign_tui.core.actions import Param
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.prefect.supply import deliver

HOLDERS = ("GL1", "GL2", "GL3", "GL4", "Legion HQ", "Auxilia HQ")
INCOME_RULES = ("cities", "liberation_tog")
DROP_RECEIVERS = ("Legion HQ", "Auxilia HQ")
BUILD_HOW = ("engineers", "delivered", "dropped")
CITY_SP = 2  # SP per controlled city in the Commonwealth scenarios (5.11.7, 6.3, 6.4)
LIBERATION_SP = 15  # TOG's fixed delivery in Liberation (T15, 6.3)


def _is_hq(holder: str) -> bool:
    return holder.endswith("HQ")


def _store(r: Resolver, receiver: str, stored: int, amount: int) -> tuple[int, int, int]:
    cap = int(r.lookup("T5", holder=receiver).value)
    new, lost = deliver(stored, amount, cap)
    r.explain(f"{receiver} holds at most {cap} SP (T5): {stored} + {amount} -> {new}, {lost} lost")
    return cap, new, lost


def p_transfer(
    r: Resolver,
    source: str,
    receiver: str,
    amount: int,
    stored: int = 0,
    loc: bool = True,
    source_disrupted: bool = False,
    received_this_turn: bool = False,
) -> Calc:
    """5.11.2: at the start of the Supply Phase a Legion base sends SP to a friendly Legion or
    Auxilia HQ or another facility, and an HQ and a base trade both ways, along a valid line of
    communication (5.11.1). A disrupted holder may receive but never give (5.14.11); SP that
    arrived as this turn's scenario income may not move this turn (5.11.7). The receiver's cap
    (T5) applies and the excess is lost. Value: SP the receiver ends with, and SP lost."""
    if amount < 1 or stored < 0:
        raise InvalidInput("amount is 1 or more and stored 0 or more")
    if _is_hq(source) and _is_hq(receiver):
        r.explain("transfers run from a base, or between an HQ and a base: not HQ to HQ (5.11.2)")
        return Calc(None, "no: an HQ passes SP only to a base")
    if source_disrupted:
        r.explain("a disrupted base or HQ may receive SP but may not give them (5.14.11)")
        return Calc(None, "no: the sender is disrupted")
    if received_this_turn:
        r.explain("scenario income arrives at the end of the Supply Phase: it stays put this turn (5.11.7)")
        return Calc(None, "no: this turn's income stays where it arrived")
    if not loc:
        r.explain("no valid line of communication from sender to receiver (5.11.1, 5.11.2)")
        return Calc(None, "no: no line of communication")
    r.explain(f"{source} to {receiver} along a valid line of communication (5.11.2)")
    cap, new, lost = _store(r, receiver, stored, amount)
    return Calc({"cap": cap, "stored": new, "lost": lost}, f"{receiver} holds {new} SP, {lost} lost")


def p_income(
    r: Resolver,
    rule: str,
    cities: int = 0,
    cities_with_loc: int | None = None,
    has_base: bool = True,
    hqs: int = 0,
) -> Calc:
    """5.11.7 and the scenarios (6.3, 6.4, T15): income arrives at the end of the Supply Phase.
    ``cities``: 2 SP for each city the side controls, each city's SP to a friendly base with a
    valid grav line of communication to it (none: that city's SP are lost). ``liberation_tog``:
    15 SP to a TOG base, then one d10 on T15 for the Legion and Auxilia HQs in the field. The
    receiving base's or HQ's cap (T5) applies. Value: SP delivered (before caps)."""
    if rule == "cities":
        if cities < 0:
            raise InvalidInput("cities is 0 or more")
        reach = cities if cities_with_loc is None else cities_with_loc
        if not 0 <= reach <= cities:
            raise InvalidInput(f"cities_with_loc {reach}: between 0 and the {cities} cities controlled")
        r.explain(f"{CITY_SP} SP for each of the {cities} cities controlled (5.11.7)")
        if reach < cities:
            r.explain(f"{cities - reach} city(ies) without a grav line of communication to a base: SP lost")
        total = CITY_SP * reach
        r.explain("each city's SP go to a friendly base; above its cap (T5) they are lost")
        return Calc(total, f"{total} SP")
    base_sp = LIBERATION_SP if has_base else 0
    r.explain(
        f"{LIBERATION_SP} SP to a TOG base (T15)" if has_base else "TOG holds no base: the 15 SP are lost"
    )
    roll = r.roll("1d10", "orbital drop supply (T15)")
    look = r.lookup("T15", roll=roll.natural)
    drop = str(look.value)
    r.explain(f"T15 roll {roll.natural}: {drop}")
    if not hqs:
        r.explain("no TOG Legion or Auxilia HQ in the field receives the drop")
        return Calc(base_sp, f"{base_sp} SP to a base; the drop finds no HQ")
    if drop == "fill":
        return Calc(base_sp, f"{base_sp} SP to a base; every HQ in the field is filled to its cap (T5)")
    if drop == "none":
        return Calc(base_sp, f"{base_sp} SP to a base; no drop")
    each = int(drop.split("+")[1])
    dropped = each * hqs if drop.startswith("each") else each
    who = f"{each} SP to each of {hqs} HQ(s)" if drop.startswith("each") else f"{each} SP to one HQ"
    return Calc(base_sp + dropped, f"{base_sp} SP to a base; {who} (caps apply)")


def p_supply_drop(
    r: Resolver,
    cargo: str = "sp",
    amount: int = 0,
    receiver: str = "Legion HQ",
    stored: int = 0,
    transport_disrupted: bool = False,
    engineers: bool = True,
) -> Calc:
    """5.14.7: a transport dropping supply sits in the area's Orbital Drop Holding Box and may be
    attacked like dropping troops (5.14.6); disrupted, it returns and drops nothing. At the end
    of the Supply Phase an undisrupted transport hands its SP to a Legion or Auxilia HQ in that
    area, the HQ's cap (T5) applying. A dismantled base (*cargo* base) goes only to a task force
    with Construction Engineers, and is placed as 5.14.10 says."""
    if transport_disrupted:
        r.explain("the transport was disrupted in the drop box: it returns and drops nothing (5.14.7)")
        return Calc(None, "no drop")
    if cargo == "base":
        if not engineers:
            r.explain("a dismantled base drops only to a task force with Construction Engineers (5.14.7)")
            return Calc(None, "no: the task force has no Construction Engineers")
        r.explain("the base goes in the task force's hex, disrupted, shown to the opponent (5.14.10)")
        return Calc("placed", "base placed, disrupted")
    if amount < 1:
        raise InvalidInput("amount: the SP dropped, 1 or more")
    r.explain(f"end of the Supply Phase: the transport hands {amount} SP to the {receiver} (5.14.7)")
    cap, new, lost = _store(r, receiver, stored, amount)
    return Calc({"cap": cap, "stored": new, "lost": lost}, f"{receiver} holds {new} SP, {lost} lost")


def p_base_building(
    r: Resolver,
    rating: int,
    how: str = "engineers",
    centuries: int = 0,
    sp: int = 0,
    base_in_hex: bool = False,
    assigned_last_turn: bool = True,
    gl4_buildable: bool | None = None,
) -> Calc:
    """5.11.8, 5.14.10, T7: Construction Engineers build ground bases (Legion or naval) of rating
    1-3 on the planetary map, one per hex: the task force the base was assigned to last turn
    builds it in its own hex in this Supply Phase, with the Centuries and SP of T7. A base may
    instead be delivered by transport to a friendly ground base and handed to a task force, or
    dropped from orbit to a task force with Construction Engineers (no T7 cost). Either way the
    base is placed in the task force's hex, disrupted, and revealed to the opponent."""
    allow4 = bool(r.options.get("gl4_buildable", False)) if gl4_buildable is None else gl4_buildable
    if not 1 <= rating <= (4 if allow4 else 3):
        r.explain("only bases of rating 1-3 go on the map (5.14.10; GL4 only if the scenario says so, G43)")
        return Calc(None, f"no: rating {rating}")
    if base_in_hex:
        r.explain("one base per hex (5.14.10)")
        return Calc(None, "no: the hex already holds a base")
    if how == "engineers":
        if not assigned_last_turn:
            r.explain("a base is built in the Supply Phase after the one it was assigned in (5.11.8)")
            return Calc(None, "no: assigned this turn")
        need = int(r.lookup("T7", base=f"GL{rating}", field="centuries").value)
        cost = int(r.lookup("T7", base=f"GL{rating}", field="sp").value)
        r.explain(f"rating {rating}: {need} Construction Engineer Centuries and {cost} SP (T7)")
        if centuries < need or sp < cost:
            short = [f"{need - centuries} Centuries" if centuries < need else ""]
            short.append(f"{cost - sp} SP" if sp < cost else "")
            return Calc(None, "no: short of " + " and ".join(s for s in short if s))
        r.explain("the SP may come from several bases and HQs with a line of communication (5.11.8)")
    elif how == "dropped" and centuries < 1:
        r.explain("a dropped base goes only to a task force with Construction Engineers (5.14.7, 5.14.10)")
        return Calc(None, "no: the task force has no Construction Engineers")
    else:
        r.explain(
            "delivered by transport to a friendly ground base, then handed to a task force (5.14.10)"
            if how == "delivered"
            else "dropped from orbit to the engineers' task force (5.14.7, 5.14.10)"
        )
    r.explain("placed in the task force's hex, disrupted, revealed; reorganized in the next Supply Phase")
    return Calc("placed", f"rating {rating} base placed, disrupted")


PROCEDURES = [
    ProcedureDef(
        "transfer",
        "Supply transfer between bases and HQs",
        p_transfer,
        (
            Param("source", "choice", choices=HOLDERS, help="who gives"),
            Param("receiver", "choice", choices=HOLDERS, help="who receives"),
            Param("amount", "int", min=1, help="SP sent"),
            Param.optional("stored", "int", 0, help="SP the receiver already holds", min=0),
            Param.optional("loc", "bool", True, help="a valid line of communication links them (5.11.1)"),
            Param.optional("source_disrupted", "bool", False, help="the sender is disrupted"),
            Param.optional("received_this_turn", "bool", False,
                help="the SP are this turn's scenario income"),
        ),
        ("5.11.2",),
        p_transfer.__doc__ or "",
        "5.11.2",
    ),
    ProcedureDef(
        "income",
        "Scenario supply income",
        p_income,
        (
            Param("rule", "choice", choices=INCOME_RULES, help="the scenario's income rule"),
            Param.optional("cities", "int", 0, help="cities the side controls", min=0),
            Param.optional("cities_with_loc", "int", None,
                help="of those, cities with a grav LOC to a base", min=0),
            Param.optional("has_base", "bool", True, help="liberation_tog: TOG holds a base for the 15 SP"),
            Param.optional("hqs", "int", 0,
                help="liberation_tog: TOG Legion and Auxilia HQs in the field", min=0),
        ),
        ("5.11.7", "T15"),
        p_income.__doc__ or "",
        "5.11.7",
    ),
    ProcedureDef(
        "supply_drop",
        "Supply drop from orbit",
        p_supply_drop,
        (
            Param.optional("cargo", "choice", "sp", help="sp, or a dismantled base", choices=("sp", "base")),
            Param.optional("amount", "int", 0, help="SP dropped", min=0),
            Param.optional("receiver", "choice", "Legion HQ",
                help="the HQ that receives", choices=DROP_RECEIVERS),
            Param.optional("stored", "int", 0, help="SP the HQ already holds", min=0),
            Param.optional("transport_disrupted", "bool", False,
                help="the transport was disrupted in the drop box"),
            Param.optional("engineers", "bool", True, help="base: the task force has Construction Engineers"),
        ),
        ("5.14.7",),
        p_supply_drop.__doc__ or "",
        "5.14.7",
    ),
    ProcedureDef(
        "base_building",
        "Building a ground base",
        p_base_building,
        (
            Param("rating", "int", min=1, max=4, help="the base's rating"),
            Param.optional("how", "choice", "engineers",
                help="engineers, delivered or dropped", choices=BUILD_HOW),
            Param.optional("centuries", "int", 0,
                help="Construction Engineer Centuries in the task force", min=0),
            Param.optional("sp", "int", 0, help="SP available along lines of communication", min=0),
            Param.optional("base_in_hex", "bool", False, help="the hex already holds a base"),
            Param.optional("assigned_last_turn", "bool", True,
                help="engineers: the base was assigned last turn"),
            Param.optional("gl4_buildable", "bool", None, help="overrides the option"),
        ),
        ("5.14.10",),
        p_base_building.__doc__ or "",
        "5.14.10",
    ),
]
