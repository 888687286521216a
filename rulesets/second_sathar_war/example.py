"""The bundled example campaign: the seed campaign's opening replayed under its house rules.

Set-up as the seed's log records it (every non-attached ship joins Task Force Prenglar,
Strike Force NOVA rolled onto the map), the three Sathar fleets in three start circles,
then five days: the Sathar cross their red boxes and on day 5 attack K'tsa-Kar, Kizk'-Kar
and Fromeltar; the Knight Hawks results are entered ship by ship; day 6 starts.
"""

from __future__ import annotations

from campaign_tui.core.engine import Engine

SCENARIO = "seed_start"
SEED = 1138
NAME = "SWII: the seed campaign's opening"
FILE = "second_sathar_war-seed_start.toml"
OPTIONS: dict[str, object] = {}


def _day(engine: Engine, upf_orders: dict[str, dict[str, object]] | None = None) -> None:
    """Sathar reinforce and move, UPF reinforce and move (standing orders), up to the declarations."""
    engine.advance(by="SATHAR")  # reinforcements -> movement
    engine.perform("move_all", {}, by="SATHAR")
    engine.advance(by="SATHAR")  # -> UPF reinforcements
    engine.advance(by="UPF")  # -> UPF movement
    for stack, order in (upf_orders or {}).items():
        engine.perform("set_order", {"stack": stack, **order}, by="UPF")
    engine.perform("move_all", {}, by="UPF")
    engine.advance(by="UPF")  # -> Sathar declarations


def _quiet_end(engine: Engine) -> None:
    engine.advance(by="SATHAR")  # no Sathar attack -> UPF declarations
    engine.advance(by="UPF")  # no UPF attack -> end of day
    engine.advance()  # end of day -> next day


def play(engine: Engine) -> None:
    engine.perform("set_observer", {"side": "UPF", "name": "Dana (UPF table)"})
    engine.perform("set_observer", {"side": "SATHAR", "name": "the referee"})
    engine.perform(
        "assign_player",
        {
            "player": "Dana",
            "forces": ["upf-tf-prenglar", "upf-sfn"],
            "militia": ["gollywog", "minotaur", "pale"],
        },
    )
    engine.advance()  # -> retreat condition
    engine.perform("choose_retreat_condition", {"condition": 4, "phrase": "sword"}, by="SATHAR")
    engine.advance(by="SATHAR")  # -> UPF set-up
    state = engine.state
    pool = [u.id for u in state.units.values() if u.formation == "upf-non-attached"]
    ships = [u for u in pool if state.units[u].type != "F"]
    fighters = [u for u in pool if state.units[u].type == "F"]
    engine.perform("deploy", {"ships": ships, "to": "upf-tf-prenglar"}, by="UPF")
    carrier = next(u.id for u in state.units.values() if u.formation == "upf-tf-prenglar" and u.type == "AC")
    engine.perform("base_fighters", {"fighters": fighters, "host": carrier}, by="UPF")
    engine.advance(by="UPF")  # -> Sathar set-up
    for fleet, circle in (
        ("sat-devastator", "sc-fromeltar"),
        ("sat-prime-kill", "sc-kizk-kar"),
        ("sat-warbird", "sc-ktsa-kar"),
    ):
        engine.perform("place_fleet", {"fleet": fleet, "at": circle}, by="SATHAR")
    engine.advance(by="SATHAR")  # -> Strike Force NOVA
    engine.perform("place_sfn", {}, by="UPF")
    engine.advance(by="UPF")  # day 1
    _day(
        engine,
        {
            "upf-tf-cassidine": {"order": "go", "dest": "dramune", "rate": 1},
            "upf-tf-prenglar": {"order": "go", "dest": "cassidine", "rate": 1},
        },
    )
    _quiet_end(engine)
    for _ in range(3):  # days 2-4
        _day(engine)
        _quiet_end(engine)
    _day(engine)  # day 5: the Sathar arrive
    engine.perform("declare_attack", {"system": "ktsa-kar"}, by="SATHAR")
    engine.perform("declare_attack", {"system": "kizk-kar"}, by="SATHAR")
    engine.perform("declare_attack", {"system": "fromeltar", "planet": "terledrom"}, by="SATHAR")
    engine.advance(by="SATHAR")  # Kawdl-Kit falls on declaration; the Zik-kit battle is set up
    engine.perform("near_planet", {"choice": True}, by="UPF")
    engine.advance()  # -> fight
    engine.perform(
        "helper", {"procedure": "attack", "inputs": "weapon=LB defences=RH range_hexes=4"}, by="UPF"
    )
    engine.perform("militia_fired", {"ships": ["mil-zik-kit-as1", "mil-zik-kit-as2"]}, by="UPF")
    engine.advance()  # -> results
    engine.perform("ship_destroyed", {"ships": ["mil-zik-kit-as1"]})
    engine.perform("ship_fled", {"ships": ["mil-zik-kit-as2"], "route": "kaken-kar-kizk-kar"})
    engine.perform("ship_damaged", {"ship": "sat-prime-kill-dd2", "hull_damage": 9, "spent": ["T:1"]})
    engine.advance()  # Zikit falls (house rule); the Terledrom battle is set up
    engine.advance()  # -> fight
    engine.perform("helper", {"procedure": "damage", "inputs": "weapon=LB"})
    engine.advance()  # -> results
    engine.perform(
        "ship_destroyed",
        {
            "ships": [
                "mil-terledrom-as1",
                "mil-terledrom-as2",
                "mil-terledrom-as3",
                "mil-terledrom-ff1",
                "sat-devastator-f07",
                "sat-devastator-f08",
            ]
        },
    )
    engine.advance()  # Terledrom falls; -> UPF declarations
    engine.advance(by="UPF")  # -> end of day
    engine.advance()  # -> day 6
    _day(engine)
