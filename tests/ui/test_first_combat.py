"""The first combat of each rule set, straight after its quick set-up, resolved from the
keyboard through the resolve dialog with a die typed from the table (the walk
bench/table_side.py measures). Rule sets whose first combat is still out of reach of the
first turn are not here (see bench/table_side.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from campaign_tui import campaigns
from campaign_tui.store.paths import Places
from campaign_tui.ui.screens.resolve import ResolveDialog
from tests.ui.helpers import keys, make_app, press, static_text

pytestmark = pytest.mark.slow


def engine(app: Any) -> Any:
    return app.session.engine


def held(app: Any) -> str:
    """The die the dialog holds (nothing rolled yet)."""
    assert isinstance(app.screen, ResolveDialog)
    decision = app.screen.decision
    assert decision is not None and decision.kind == "dice" and decision.default == "auto"
    assert static_text(app, "#resolve-review") == ""
    return str(decision.prompt)


def typed_combat(app: Any, kind: str) -> Any:
    """The log's last entry: the combat, its first die typed at the table."""
    entry = engine(app).entries()[-1]
    assert entry.kind == kind
    assert entry.rolls and entry.rolls[0].manual
    return entry


async def test_prestags_first_melee_with_a_typed_die(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prestags", "chariot-rome", "Rome", 4, "auto",
                                  {}, quick_setup=True)
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = engine(app)
        assert e.state.units["a-sk-04"].location == "hex:0814"   # the front of the Romans
        await press(pilot, "n", "1")                            # movement: move
        await press(pilot, *keys("a-sk-04"), "enter",             # the path's editor:
                    "enter", "a", *keys("0914,1015,1115,1216"), "enter",  # hexes typed at once
                    "ctrl+n", "ctrl+r")
        await press(pilot, "enter")
        assert e.state.units["a-sk-04"].location == "hex:1216"
        await press(pilot, "n", "n", "1")                       # past defensive fire: melee
        assert isinstance(app.screen, ResolveDialog)
        await press(pilot, "ctrl+r")                            # attacker and target filled
        assert held(app) == "Roll 1d6 for melee: Romans SK 4 -> 1316"
        assert "odds 2:3 -> 1-2" in static_text(app, "#resolve-sofar")
        await press(pilot, "4", "enter")
        review = static_text(app, "#resolve-review")
        assert "Result:" in review and "1d6 [4]" in review
        await press(pilot, "enter")
        entry = typed_combat(app, "melee")
        assert entry.rolls[0].dice == [4]


async def test_prefect_first_ground_combat_with_a_typed_die(home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "prefect", "liberation", "Liberation", 4, "auto",
                                  {}, quick_setup=True)
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = engine(app)
        await press(pilot, "n", "n", "n", "n")                  # to the declaration
        assert e.state.step == "P_COMBAT.declare"
        await press(pilot, "1", "f2", "down", "space", "enter")  # the first in contact
        await press(pilot, "tab", "f2", "enter")                # its first target
        await press(pilot, "ctrl+r", "enter")
        assert e.state.vars["attacks"] == [{"id": "a1", "attackers": ["cw199-tf2"],
                                            "target": "tog786-tf1"}]
        await press(pilot, "n", "1", "ctrl+r", "enter")         # resolve it
        await press(pilot, "1")                                 # roll the combat
        assert held(app).startswith("Roll 1d10 for combat result")
        await press(pilot, "5", "enter")                        # the CRT die, typed
        assert held(app).startswith("Roll 1d10 for save against")  # the next die: asked
        await press(pilot, "ctrl+r")                            # the program rolls the rest
        assert "1d10 [5]" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        entry = typed_combat(app, "roll_combat")
        assert entry.rolls[0].dice == [5]
        assert not any(r.manual for r in entry.rolls[1:])


async def test_second_sathar_war_first_attack_roll_with_a_typed_die(home_places: Places) -> None:
    """The Sathar seal their retreat condition, the quick set-up places both sides; four
    days of forced moves from the start circles (Advance until… stops at each), the UPF
    ships that may leave, then the attack at the first contested system, and in the fight
    the first shooter fires its first weapon at the first defender: the d100 typed."""
    path = campaigns.new_campaign(home_places, "second_sathar_war", "standard", "SSW", 4,
                                  "auto", {})
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = engine(app)
        await press(pilot, "n", "1", "1", "ctrl+r", "enter", "n", "q")   # sealed, set up
        assert e.state.step == "SFN_DECISION"
        for day in (1, 2, 3, 4):
            await press(pilot, "N", "enter")                   # until something is due
            assert (e.state.step, e.state.clock["day"]) == ("SATHAR_MOVE", day)
            await press(pilot, "1", "enter")                    # move every stack
        fleets = [f for f in e.state.formations.values() if f.name.startswith("Sathar Attack")]
        assert len(fleets) == 2                                 # arrived on day 4, not placed
        assert all(str(f.location).startswith("planet:") for f in fleets)
        await press(pilot, "N", "enter")
        assert e.state.step == "UPF_MOVE"                       # militia may leave
        await press(pilot, "N", "enter")
        assert e.state.step == "SATHAR_DECLARE"                 # the battle to declare
        await press(pilot, "1", "ctrl+r", "enter")             # the first contested system
        assert e.state.records("battles")["B4-1"]["planet"] == "zik-kit"
        await press(pilot, "n", "n")                            # set-up, then the fight
        assert e.state.step == "B2"
        await press(pilot, "1", "f2", "enter")                  # the first shooter
        await press(pilot, "ctrl+r", "f2", "enter")             # its target: the first defender
        await press(pilot, "ctrl+r")
        assert held(app) == "Roll 1d100 for LB attack"
        assert "chance to hit 50%" in static_text(app, "#resolve-sofar")
        await press(pilot, "3", "7", "enter")
        assert "1d100 [37]" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        entry = typed_combat(app, "fire")
        assert entry.rolls[0].dice == [37] and entry.summary.startswith("Sathar AC 2 fires LB")


async def test_ffw_first_space_battle_with_a_typed_die(home_places: Places,
                                                      ffw_quick_path: Path) -> None:
    from rulesets.fifth_frontier_war import checks

    app = make_app(home_places, ffw_quick_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = engine(app)
        assert e.state.step == "SETUP_INITIAL_PLOT"
        assert e.state.formations["zho-40th"].location == "1507"     # the strike group at Clan
        await press(pilot, "1", "f2", *keys("40"), "enter",             # plot: the 40th Fleet
                    "tab", *keys("J1510"), "ctrl+r", "enter")           # jumps to Jewell on turn 1
        assert e.state.secrets["zhodani"]["plots"]["zho-40th"] == {"1": {"order": "J",
                                                                         "hex": "1510"}}
        assert checks.plots_missing(e.state)                          # the others owe orders
        await press(pilot, "2", "ctrl+r", "enter")                    # the rest hold
        assert checks.plots_missing(e.state) is None
        held_lines = e.entries()[-1].lines
        assert any("68th Fleet holds at 0708 on turns 1, 2, 3, 4" in line for line in held_lines)
        assert e.state.secrets["zhodani"]["plots"]["zho-40th"]["4"] == {"order": "R",
                                                                         "hex": "1510"}
        await press(pilot, "N", "enter")        # until something is due: the movement order
        assert isinstance(app.screen, ResolveDialog)
        await press(pilot, "ctrl+r", "enter")   # the program rolls it
        await press(pilot, "N", "enter")        # loose admirals may travel by xboat
        assert e.state.step == "M_XBOAT_2"
        await press(pilot, "N", "enter")        # scouts, well-led, plotted, refuelling passed
        assert e.state.step == "C_SELECT_HEX"
        assert e.state.formations["zho-40th"].location == "1510"
        await press(pilot, "n")                 # the space battle over Jewell: its fire held
        assert held(app) == "Roll 1d6 for Imperial round 1: space fire on 4 factors"
        await press(pilot, "4", "enter")        # the Imperial die, typed
        assert held(app).startswith("Roll 1d6 for Zhodani round 1: space fire")
        await press(pilot, "ctrl+r")            # the program rolls the rest
        assert "1d6 [4]" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        entry = typed_combat(app, "advance")
        assert entry.rolls[0].dice == [4] and entry.rolls[0].table == "T1"
        assert not any(r.manual for r in entry.rolls[1:])
        assert e.state.step == "SC3"            # damage to allocate: the battle goes on


async def test_star_cruiser_lite_first_battle_in_week_one_with_a_typed_die(
        home_places: Places) -> None:
    path = campaigns.new_campaign(home_places, "star_cruiser_lite", "demo", "Arm", 4, "auto",
                                  {}, quick_setup=True)
    app = make_app(home_places, path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        e = engine(app)
        assert e.state.step == "M0.ORDERS"                      # quick set-up: Week 0 orders
        await press(pilot, "8", "ctrl+r", "enter")              # Week 0 to its report
        assert e.state.step == "M0.REPORT"
        await press(pilot, "n", "2", "f2")                      # week 1: orders
        offered = [p.id for p in app.screen.entries]            # task forces only, those
        assert offered[:2] == ["FRA-1", "KAF-3"]                # facing an enemy first
        assert len(offered) == 7
        await press(pilot, "enter", "tab", "up", "up")          # FRA-1, hold -> attack
        await press(pilot, "ctrl+r", "enter")
        assert e.state.secrets["FRA"]["orders"]["tf"]["FRA-1"]["movement"] == "attack"
        await press(pilot, "4", "enter")                        # the others stand
        await press(pilot, "n", "n", "ctrl+r", "enter")         # Aurore's mines try KAF-3
        await press(pilot, "n")                                 # detection: France's die
        assert held(app) == "Roll 1d100 for detection of KAF-3 by FRA"
        await press(pilot, "1", "0", "enter", "ctrl+r", "enter")
        assert e.state.formations["KAF-3"].data["detected_by"]["FRA"] == 1
        await press(pilot, "n", "n", "n", "n", "n")
        assert e.state.step == "CMB.SETUP"
        assert e.state.vars["battle"]["system"] == "ETB"
        await press(pilot, "4")                                 # fight it automatically
        assert held(app) == "Roll 1d6 for arousal of Kafers (side B) in round 1"
        await press(pilot, "4", "enter")                        # the arousal die, typed
        assert held(app).startswith("Roll 1d10 for acquisition")
        await press(pilot, "ctrl+r")                            # the program rolls the rest
        assert "1d6 [4]" in static_text(app, "#resolve-review")
        await press(pilot, "enter")
        entry = typed_combat(app, "cmb_auto")
        assert entry.rolls[0].dice == [4]
        assert not any(r.manual for r in entry.rolls[1:])
        assert e.state.step == "CMB.END"
