"""Rules campaign play applies that ``calc`` reaches with explicit inputs (digest sections 5.8,
5.10, 5.12, 5.13.5, 5.13.8, 5.14.8, 5.14.11), through the CLI with --option as a GM would."""

from __future__ import annotations

import json

from tests.cli_helpers import run
from tests.rulesets.prefect.helpers import procedure


def test_overrun_costs_a_mp_a_unit_and_stays_only_after_destroying_them_all():
    """5.10: 1 MP per disrupted unit destroyed; stays only if all are; fatigue 3 forbids it."""
    calc, _r = procedure("overrun", combat_units=2, fatigue=1, disrupted=3, destroy=2)
    assert calc.value == 2 and "may not stay" in calc.summary
    assert (
        procedure("overrun", combat_units=2, fatigue=1, disrupted=3)[0].summary == "3 MP; may stay in the hex"
    )
    assert procedure("overrun", combat_units=2, fatigue=3, disrupted=3)[0].summary == "no overrun"
    assert procedure("overrun", combat_units=0, fatigue=0, disrupted=1)[0].summary == "no overrun"
    assert (
        "automatically"
        in procedure("overrun", combat_units=1, fatigue=0, disrupted=2, combat_phase=True)[0].summary
    )


def test_retreat_outcomes():
    """5.8, 5.12: nowhere to go destroys; non-grav units never retreat into Water; BT/CA disrupt."""
    assert procedure("retreat", result="DR", side="defender", free_hexes=0)[0].value == "destroyed"
    assert (
        procedure("retreat", result="DR", side="defender", free_hexes=2, water_hexes=2, nongrav=True)[0].value
        == "destroyed"
    )
    assert (
        procedure("retreat", result="DR", side="defender", free_hexes=2, water_hexes=2)[0].value == "retreats"
    )
    assert procedure("retreat", result="AR", side="defender", free_hexes=2)[0].value == "stays"
    calc, r = procedure("retreat", result="BT", side="defender", free_hexes=1, friendly_tf=True)
    assert calc.value == "merges" and any("+1" in line for line in r.lines)


def test_combat_attacker_in_space_and_space_retreats():
    """5.13.5, 5.13.8."""
    assert procedure("space_attacker", situation="supply")[0].value == "the opponent"
    assert procedure("space_attacker", situation="dsi")[0].value == "the interceptors"
    assert (
        procedure("space_attacker", situation="sector_defenses", a_attack=7, b_attack=9)[0].value == "side B"
    )
    assert "tempo" in procedure("space_retreat", result="BT")[0].summary


def test_base_spending_limits():
    """5.14.8 (T-BaseLim), 5.14.11."""
    assert procedure("base_spend", base="GL1", purpose="rearm", unit_kind="fighter")[0].value is False
    assert procedure("base_spend", base="GL2", purpose="rearm", unit_kind="fighter")[0].value is True
    assert procedure("base_spend", base="GL4", purpose="rearm", unit_kind="starship")[0].value is False
    assert procedure("base_spend", base="ON", purpose="rebuild", unit_kind="ground")[0].value is False
    assert (
        procedure("base_spend", base="GL1", purpose="reorganize", unit_kind="ground", disrupted=True)[0].value
        is False
    )
    assert (
        procedure(
            "base_spend", base="GL1", purpose="reorganize", unit_kind="ground", disrupted=True, itself=True
        )[0].value
        is True
    )


def test_the_new_procedures_answer_calc_json(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CAMPAIGN_TUI_HOME", str(tmp_path))
    code, out, _ = run(
        capsys, "calc", "prefect", "5.10", "combat_units=1", "fatigue=0", "disrupted=2", "--json"
    )
    assert code == 0 and json.loads(out)["value"] == 2


def test_line_of_communication():
    """5.11.1, 5.12: blocked by enemy TFs, disrupted units, bases and active ZOCs; Water only
    for an independent non-grav receiver."""
    assert procedure("loc")[0].value is True
    assert procedure("loc", crosses=["enemy_zoc"])[0].value is False
    assert procedure("loc", crosses=["water"])[0].value is True
    assert procedure("loc", crosses=["water"], independent_nongrav=True)[0].value is False


def test_who_may_reorganize():
    """5.11.4."""
    assert procedure("reorganizer", unit="Legion HQ", by="legion_base", rating=3)[0].value is True
    assert procedure("reorganizer", unit="Legion HQ", by="legion_base", rating=2)[0].value is False
    assert procedure("reorganizer", unit="Manus HQ", by="legion_hq", own_legion=True)[0].value is True
    assert procedure("reorganizer", unit="Manus HQ", by="legion_hq")[0].value is False
    assert procedure("reorganizer", unit="cohort", by="auxilia_hq", by_disrupted=True)[0].value is False
    assert procedure("reorganizer", unit="cohort", by="manus_hq", water=True)[0].value is False


def test_capture_of_a_base():
    """5.11.9, G37: supplies captured, or destroyed after a DR; no orbital base from the ground."""
    assert procedure("capture", how="BT")[0].value == "captured"
    assert procedure("capture", how="DR")[0].value == "destroyed"
    assert procedure("capture", how="no_attack", base="ON")[0].value == "none"
    assert procedure("capture", how="no_attack", base="GN", ground_capture_gn=False)[0].value == "none"


def test_orbital_drop_eligibility():
    """5.14.5: grav units and Marines drop, Garrison and Militia do not; nor a disrupted transport."""
    assert procedure("orbital_drop", unit="marine")[0].value is True
    assert procedure("orbital_drop", unit="militia")[0].value is False
    assert procedure("orbital_drop", unit="grav", transport_disrupted=True)[0].value is False
