"""The bundled example campaign: set-up and the first three weeks of the war, with real rolls.

The Zhodani strike from Clan at the Imperial naval base of Mongo (a space battle over several
rounds, then bombing of its battalions week after week) and send cruisers to the vacuum world
of Ruby, which surrenders; the Ine Givar rise at Regina and are bombed and fought on the
surface. The Imperium, surprised, holds on turn 1, plots from turn 2 and draws its turn-2
reinforcements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulesets.fifth_frontier_war.game import Game

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine

SCENARIO = "campaign"
SEED = 1107
NAME = "Fifth Frontier War: the first weeks"
FILE = "fifth_frontier_war-campaign.toml"
OPTIONS: dict[str, Any] = {}

CLAN, MONGO, RUBY, CHWISTYOCH = "1507", "1608", "1409", "1308"


def _waiting(engine: Engine, side: str, kind: str, sq_type: str | None = None) -> list[str]:
    g = Game.read(engine.state)
    out = []
    for u in sorted(engine.state.units.values(), key=lambda x: x.id):
        if u.side != side or u.location != "setup" or g.kind(u) != kind:
            continue
        if sq_type and g.a(u, "sq_type") != sq_type:
            continue
        if g.a(u, "category") != "regular" or u.data.get("loaned") or g.navy(u) != side:
            continue
        out.append(u.id)
    return out


def _fast(engine: Engine, ids: list[str], minimum: int) -> list[str]:
    g = Game.read(engine.state)
    return [i for i in ids if int(g.a(engine.state.units[i], "jump", 0)) >= minimum]


def setup(engine: Engine) -> None:
    """Secret base, guerrillas, both deployments and the initial plot."""
    engine.advance()
    engine.perform("choose_secret_base", {"world": "3017"}, by="zhodani")
    engine.advance()
    engine.perform(
        "place_guerrillas", {"placements": "2109:3,2213:1,2314:2:overt,2409:2,1510:2"}, by="zhodani"
    )
    engine.advance()
    # Imperial: a squadron group at Mongo's naval base, everything else at the default stations
    battle = _waiting(engine, "imperial", "squadron", "B")
    cruiser = _waiting(engine, "imperial", "squadron", "C")
    guard = battle[:2] + cruiser[:2]
    engine.perform("deploy", {"units": guard, "to": MONGO}, by="imperial")
    engine.perform("form_fleet", {"marker": "imp-18th", "squadrons": guard}, by="imperial")
    engine.perform("deploy_rest", {"side": "imperial"}, by="imperial")
    engine.advance()
    # Zhodani: a strike fleet at Clan with an embarked division, cruisers at Chwistyoch
    zb = _fast(engine, _waiting(engine, "zhodani", "squadron", "B"), 2)[:5]
    zc = [
        c
        for c in _waiting(engine, "zhodani", "squadron", "C")
        if Game.read(engine.state).a(engine.state.units[c], "attack", 0) > 0
    ][:2]
    za = _waiting(engine, "zhodani", "squadron", "A")[:1]
    zt = [
        t
        for t in _waiting(engine, "zhodani", "troop")
        if int(Game.read(engine.state).a(engine.state.units[t], "factor", 0)) == 20
        and not Game.read(engine.state).a(engine.state.units[t], "psionic", False)
    ][:1]
    engine.perform("deploy", {"units": zb + za + zt, "to": CLAN}, by="zhodani")
    engine.perform("deploy", {"units": zc, "to": CHWISTYOCH}, by="zhodani")
    engine.perform("load", {"units": zt, "carrier": za[0]}, by="zhodani")
    engine.perform("form_fleet", {"marker": "zho-40th", "squadrons": zb + za}, by="zhodani")
    engine.perform("form_fleet", {"marker": "zho-68th", "squadrons": zc}, by="zhodani")
    engine.perform("deploy_rest", {"side": "zhodani"}, by="zhodani")
    engine.advance()
    engine.perform("plot", {"fleet": "zho-40th", "orders": f"1:J{MONGO}, 2:R, 3:R, 4:R"}, by="zhodani")
    engine.perform("plot", {"fleet": "zho-68th", "orders": f"1:J{RUBY}, 2:R, 3:R, 4:R"}, by="zhodani")
    engine.advance()


def play_turn(engine: Engine) -> None:
    """One week: advance through every step, answering what the rules ask with plain choices
    (smallest damage allocation, stand and fight, attack the SDBs, bomb and fire with all)."""
    from rulesets.fifth_frontier_war import combat as K

    for _ in range(200):
        step = engine.state.step
        if step == "END_OF_TURN":
            engine.advance()
            return
        if step == "T_REINF":
            waiting = sorted(u.id for u in engine.state.units.values() if u.location == "arrived")
            if waiting:
                engine.perform("place_arrivals", {"units": waiting, "box": "imp_reinf"}, by="imperial")
        elif step == "P_PLOTTING":
            _plot_all(engine)
        elif step in ("SC3", "SD3.allocate", "C_BLACK_GLOBE"):
            owed = K.cv(engine.state).get("allocated", {})
            for side, done in owed.items():
                if not done:
                    engine.perform("allocate_auto", {"side": side})
        elif step in ("SC4.decide", "SC5.decide"):
            role = "first_disengager" if step == "SC4.decide" else "second_disengager"
            engine.perform("stand", {"side": engine.state.vars["roles"][role]})
        elif step == "SD1":
            engine.perform("sdb_attack", {"attack": True})
        elif step == "SD2":
            engine.perform("sdb_mode", {"mode": "active"})
        elif step in ("SD4.squadrons", "SD4.sdbs"):
            engine.perform("sdb_continue", {})
        elif step == "SB":
            _bomb(engine)
        elif step == "ST":
            _land(engine)
        elif step in ("SF1", "SF2"):
            _fire(engine, step == "SF1")
        engine.advance()
    raise RuntimeError("the example turn did not finish")


def _plot_all(engine: Engine) -> None:
    from rulesets.fifth_frontier_war import checks, ops
    from rulesets.fifth_frontier_war import plots as P

    g = Game.read(engine.state)
    turn = g.turn
    for f in sorted(g.fleets(), key=lambda x: x.id):
        if f.status.get("mismatch"):
            engine.perform("abort_plot", {"fleet": f.id}, by=f.side)
        pf = g.fleet_pf(f.id)
        plot = ops.plot(engine.state, f.side, f.id)
        gaps = P.missing_turns(plot, turn, pf) if pf else []
        if gaps:
            engine.perform("plot", {"fleet": f.id, "orders": ", ".join(f"{u}:R" for u in gaps)}, by=f.side)
    problem = checks.plots_missing(engine.state)
    if problem:
        raise RuntimeError(problem)


def _bomb(engine: Engine) -> None:
    from rulesets.fifth_frontier_war import combat as K

    g = Game.read(engine.state)
    place = K.here(engine.state)
    for side in K.bombing_sides(engine.state):
        total, _ = K.bomb_sources(g, place, side)
        targets = sorted(K.bomb_targets(g, place, side))
        if not targets:
            engine.perform("skip_bombing", {"side": side})
            continue
        engine.perform("bomb", {"side": side, "targets": f"{targets[0]}:{float(total):g}"}, by="gm")


def _land(engine: Engine) -> None:
    from rulesets.fifth_frontier_war import combat as K

    g = Game.read(engine.state)
    place = K.here(engine.state)
    for side in ("zhodani", "imperial"):
        if g.enemy_sdb_active(place, side):
            continue
        aboard = [t.id for s in K.transfer_ships(g, place, side) for t in g.aboard(s)]
        if aboard:
            engine.perform("unload", {"units": aboard}, by=side)


def _fire(engine: Engine, psionic: bool) -> None:
    from rulesets.fifth_frontier_war import combat as K

    g = Game.read(engine.state)
    place = K.here(engine.state)
    sides = ["zhodani"] if psionic else K.participants(g, place)
    for side in sides:
        if K.cv(engine.state).get("fired", {}).get(("psionic:" if psionic else "") + side):
            continue
        shooters = K.firers(g, place, side, True if psionic else (False if side == "zhodani" else None))
        targets = K.surface_targets(g, place, side)
        if not shooters or not targets:
            engine.perform("hold_fire", {"side": side}, by="gm")
            continue
        target = sorted(targets)[0]
        fire = "+".join(
            f"{k}:{float(v['strength']):g}" for k, v in sorted(shooters.items()) if v["strength"] > 0
        )
        if not fire:
            engine.perform("hold_fire", {"side": side}, by="gm")
            continue
        engine.perform("surface_fire", {"side": side, "attacks": f"{target}={fire}"}, by="gm")


def play(engine: Engine) -> None:
    setup(engine)
    for _ in range(3):
        play_turn(engine)
