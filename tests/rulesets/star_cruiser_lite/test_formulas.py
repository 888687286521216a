"""Formulas of digest section 5 (F-01 to F-47): edge cases, clamps and invariants."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.star_cruiser_lite import rules_combat as rc
from rulesets.star_cruiser_lite import rules_command as rcmd
from rulesets.star_cruiser_lite import rules_detection as rd
from rulesets.star_cruiser_lite import rules_ground as rg
from rulesets.star_cruiser_lite import rules_logistics as rl
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.rules_common import mean_up, pct

from .helpers import resolver


# F-01 ---------------------------------------------------------------------------------------
@given(st.integers(-500, 500), st.integers(1, 100))
def test_F01_pct_clamps_and_compares(chance: int, roll: int) -> None:
    ok, _roll, x = pct(resolver(roll), chance, "test")
    assert x == max(0, min(100, chance))
    assert ok == (roll <= x)
    if chance <= 0:
        assert not ok


# F-02 .. F-06 ---------------------------------------------------------------------------------
@pytest.mark.parametrize("die,kafer,value", [(1, False, 0), (6, False, 5), (1, True, 1), (6, True, 6)])
def test_F02_initial_tactics(die: int, kafer: bool, value: int) -> None:
    assert rcmd.initial_tactics(resolver(die), kafer).value == value


def test_F02_command_precedence() -> None:
    r = resolver()
    ships = [
        {"id": "dd", "code": "DD", "stac": 5},
        {"id": "cg", "code": "CG", "stac": 1},
        {"id": "sct", "code": "SCT", "stac": 5},
    ]
    assert rcmd.command_precedence(r, ships).value == "cg"
    ships.append({"id": "flag", "code": "BB", "stac": 0, "ftac": 1})
    assert rcmd.command_precedence(r, ships).value == "flag"
    assert (
        rcmd.command_precedence(
            r, [{"id": "ca", "code": "CA", "stac": 2}, {"id": "de", "code": "DE", "stac": 4}]
        ).value
        == "ca"
    )  # DEFAULT-17: CA ranks with CG
    assert rcmd.command_precedence(r, [{"id": "mf", "code": "MF", "stac": 3}]).value is None


def test_F03_improvement_chance_grows_with_engagements() -> None:
    res = rcmd.tactics_improvement(resolver(30), 2, 0, 2, 2, "CG").value  # 10 x (1+2) = 30: 30 <= 30
    assert res == {"stac": 3, "ftac": 0, "k": 0, "raised": "stac"}
    res = rcmd.tactics_improvement(resolver(31), 2, 0, 2, 2, "CG").value
    assert res["raised"] is None and res["k"] == 3


def test_F03_ceiling_and_frozen_skill_raise_fleet_tactics() -> None:
    at_ceiling = rcmd.tactics_improvement(resolver(5), 5, 2, 3, 0, "CG").value
    assert at_ceiling["raised"] == "ftac" and at_ceiling["ftac"] == 3 and at_ceiling["stac"] == 5
    frozen = rcmd.tactics_improvement(resolver(5), 4, 0, 4, 0, "FF").value  # initial 4 > FF ceiling 3
    assert frozen["raised"] == "ftac"
    both = rcmd.tactics_improvement(resolver(5), 3, 8, 3, 0, "FF").value
    assert both["raised"] is None
    flag_first = rcmd.tactics_improvement(
        resolver(5, tactics_first="ftac"), 1, 2, 1, 0, "BB", flag=True
    ).value
    assert flag_first["raised"] == "ftac"


@pytest.mark.parametrize("stac,ftac", [(0, 2), (3, 2), (4, 2), (5, 3), (6, 4)])
def test_F04_promotion(stac: int, ftac: int) -> None:
    assert rcmd.promotion_ftac(resolver(), stac).value == ftac


def test_F04_only_cg_captains_become_flag_officers() -> None:
    with pytest.raises(Exception, match="CG"):
        rcmd.promotion_ftac(resolver(), 4, "DD")


@given(st.integers(0, 8))
def test_F05_limits(ftac: int) -> None:
    lim = rcmd.ftac_limits(resolver(), ftac, ships=2 * ftac).value
    assert lim["max_elements"] == max(1, 2 * ftac) and lim["max_foreign"] == ftac == lim["max_patrols"]
    assert lim["covert_allowed"]
    assert not rcmd.ftac_limits(resolver(), ftac, ships=1, kafer=True).value["covert_allowed"]
    assert not rcmd.ftac_limits(resolver(), ftac, ships=1, has_warship=False).value["covert_allowed"]


def test_F05_scouts_alone_enter_covertly_whatever_their_number() -> None:
    assert rcmd.ftac_limits(resolver(), 0, ships=3, all_scouts=True).value["covert_allowed"]


def test_F06_subordination() -> None:
    assert rcmd.subordination(resolver(7), 7).value
    assert not rcmd.subordination(resolver(8), 7).value
    assert not rcmd.subordination(resolver(1), 10, forbidden=True).value


# F-07 .. F-11 ---------------------------------------------------------------------------------
@given(
    st.integers(0, 60),
    st.sampled_from(["none", "overt", "covert"]),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.integers(0, 30),
    st.integers(0, 10),
    st.integers(0, 5),
    st.integers(0, 5),
)
@settings(max_examples=60)
def test_F07_detection_chance_is_the_clamped_sum(
    bodies: int,
    arrival: str,
    recon: bool,
    prev: bool,
    mines: bool,
    kafer: bool,
    forces: int,
    patrols: int,
    facs: int,
    lps: int,
) -> None:
    p = rd.detection_chance(
        resolver(), bodies, arrival, recon, prev, mines, kafer, forces, patrols, facs, lps
    ).value
    base = 50 if bodies <= 6 else 30 if bodies <= 12 else 10
    beh = 0
    if arrival != "none":
        beh += 10 if (kafer or arrival == "overt") else -20
    elif recon:
        beh -= 10
    beh += 10 * prev + 10 * mines
    assert p == max(0, min(100, base + beh + 5 * (forces + patrols + facs + lps)))


def test_F07_kafers_always_count_as_overt() -> None:
    assert rd.detection_chance(resolver(), 5, "covert", kafer=True).value == 60
    assert rd.detection_chance(resolver(), 5, "covert").value == 30


@given(st.integers(-50, 100))
def test_F08_tiers(margin: int) -> None:
    levels = rd.intel_levels(margin)
    expected = (
        []
        if margin < 0
        else ["present"]
        + [x for x, need in (("direction", 10), ("size", 20), ("types", 30), ("ships", 40)) if margin >= need]
    )
    assert levels == expected


def test_F08_roll_and_margin() -> None:
    res = rd.detection_roll(resolver(20), 55).value
    assert (
        res["detected"] and res["margin"] == 35 and res["levels"] == ["present", "direction", "size", "types"]
    )
    assert not rd.detection_roll(resolver(56), 55).value["detected"]


def test_F09_defender() -> None:
    r = resolver()
    assert rd.defender(r, True, False).value == "A" and rd.defender(r, False, True).value == "B"
    assert rd.defender(r, False, False).value is None
    assert rd.defender(r, True, True, 30, 12).value == "B"
    assert rd.defender(resolver(40, 70), True, True, 25, 25).value == "A"  # tie: both re-roll


def test_F10_preemptive_check_tie_goes_to_defender() -> None:
    side = {"cqs": [0], "sns": [2], "mvs": [4], "stac": 1}
    # defender detected alone: +1; both luck +1 (odd) -> defender 9 vs intruder 8
    assert rc.preemptive_check(resolver(1, 1), side, side).value == "defender"
    # only the intruder detected: it gets the +1 and wins
    assert rc.preemptive_check(resolver(1, 1), side, side, False, True).value == "intruder"
    assert rc.preemptive_check(resolver(2, 1), side, side, False, False).value == "intruder"
    assert rc.preemptive_check(resolver(1, 1), side, side, False, False).value == "defender"
    assert (
        rc.preemptive_check(resolver(1, 1, preempt_tie_defender=False), side, side, False, False).value
        == "intruder"
    )


def test_F11_facility_detection_survey_cap_and_listening_posts() -> None:
    r = resolver()
    assert rd.facility_detection_chance(r, "ASB", "survey", 1).value == 30
    assert rd.facility_detection_chance(r, "ASB", "survey", 3).value == 50
    assert rd.facility_detection_chance(r, "ASB", "survey", 9).value == 70
    assert rd.facility_detection_chance(r, "CFR", "survey", 5).value == 100
    assert rd.facility_detection_chance(r, "LP", "warship", 1, max_sn=3).value == 0
    assert rd.facility_detection_chance(r, "LP", "warship", 1, max_sn=4).value == 10
    assert rd.facility_detection_chance(resolver(lp_flat_ten=True), "LP", "warship", 1, max_sn=1).value == 10
    assert rd.facility_detection_chance(r, "PSD", "warship").value == 0


# F-12 .. F-22 ----------------------------------------------------------------------------------
@given(st.lists(st.integers(-2, 3), min_size=1, max_size=12))
def test_F12_mean_rounds_up(values: list[int]) -> None:
    m = mean_up(values)
    assert m - 1 < sum(values) / len(values) <= m


def test_F12_engagement_value() -> None:
    # cq mean -1.5 -> -1; sn max 3; mv mean 3.5 -> 4; stac 2; surprise 2; luck odd +1
    v = rc.engagement_value(resolver(3), [-1, -2], [1, 3], [3, 4], 2, surprise=True).value
    assert v == -1 + 3 + 4 + 2 + 2 + 1
    unaroused = rc.engagement_value(resolver(2), [3], [2], [4], 5, kafer=True).value
    assert unaroused == -2 + 2 + 4 - 1  # no sTac before arousal
    assert rc.range_winner(5, 5) is None and rc.range_winner(6, 5) == "A"


@pytest.mark.parametrize(
    "rnd,die,aroused", [(1, 2, True), (1, 3, False), (2, 4, True), (2, 5, False), (3, 0, True)]
)
def test_F13_arousal(rnd: int, die: int, aroused: bool) -> None:
    r = resolver(die) if die else resolver()
    assert rc.kafer_arousal(r, rnd).value is aroused


def test_F14_acquisition() -> None:
    assert not rc.acquisition(resolver(1), 10, 0, 5, 3, 0).value  # natural 1
    assert not rc.acquisition(resolver(2), 3, 1, 0, 0, 0).value  # 2 + 3 - ceil(1/2) = 4 < 5
    assert not rc.acquisition(resolver(2), 3, 2, 0, 0, 0).value  # 2 + 3 - 1 = 4
    assert rc.acquisition(resolver(3), 3, 2, 0, 0, 0).value  # 5
    assert rc.acquisition(resolver(2), 0, 0, 0, 0, 0, modules=3).value  # installation: + modules
    assert not rc.acquisition(resolver(4), 2, 0, 0, 0, 0, supply_modifier=-2).value


@given(st.integers(1, 60))
def test_F15_pd_ratings(gf: int) -> None:
    assert rc.pd_missile_rating(gf) == 2 * -(-gf // 10)
    assert rc.pd_sensor(gf) == min(4, -(-gf // 4))


def test_F15_pd_acquisition() -> None:
    assert not rc.pd_acquisition(resolver(1), 9, 8, True).value
    assert rc.pd_acquisition(resolver(2), 1, 5, False).value  # 2 + 1 + 2 = 5


@given(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20), st.integers(0, 10))
def test_F16_missile_damage_never_negative(mi: int, esc: int, own: int, sc: int) -> None:
    dmg = rl_missile(mi, esc, own, sc)
    assert dmg == max(0, mi - (esc // 2 + own + sc))


def rl_missile(mi: int, esc: int, own: int, sc: int) -> int:
    return rc.missile_damage(resolver(), mi, esc, own, sc).value


def test_F16_halvings_and_kafers() -> None:
    assert rc.missile_damage(resolver(), 10, 8, 0, 0).value == 6
    assert rc.missile_damage(resolver(escort_pd_halvings=2), 10, 8, 0, 0).value == 8
    assert rc.missile_damage(resolver(), 7, 0, 0, 0, kafer_unaroused=True).value == 3
    assert rc.missile_damage(resolver(kafer_halving="up"), 7, 0, 0, 0, kafer_unaroused=True).value == 4


def test_F17_beams_and_default_pd_split() -> None:
    assert rc.beam_damage(resolver(), 5, 3, 2, 1).value == 3
    assert rc.beam_damage(resolver(), 1, 1, 0, 3).value == 0
    assert rc.pd_split(resolver(), 5, "short").value == {"pd": 3, "attack": 2}
    assert rc.pd_split(resolver(short_range_pd="half_down"), 5, "short").value == {"pd": 2, "attack": 3}
    assert rc.pd_split(resolver(), 5, "long").value == {"pd": 5, "attack": 0}


def test_F18_damage_location_misses_missing_stats() -> None:
    res = rc.damage_location(resolver(3, 9, 9, 1), 4, "ship", {"sc": 0, "df": 1, "sn": 1}).value
    assert res == ["miss", "df", "miss", "sn"]
    assert rc.damage_location(resolver(2, 10), 2, "facility").value == ["repair*", "sp10"]


def test_F19_commander_survival() -> None:
    assert rc.commander_survival(resolver(3), 2).value
    assert not rc.commander_survival(resolver(5), -1).value
    assert rc.commander_survival(resolver(1), 4).value  # no natural-1 rule (DEFAULT-42)
    assert not rc.commander_survival(resolver(1, survival_natural_one=True), 4).value


def test_F21_noncombatants() -> None:
    # deficit 2: first check at 20%, after a join the deficit is 1 (10%) - DEFAULT-44
    joined = rc.noncombatants_join(resolver(2, 1, 15, 10), 2, ["m1", "m2"]).value  # draw order, then rolls
    assert joined == ["m2", "m1"]
    assert rc.noncombatants_join(resolver(1, 1, 15, 19), 2, ["m1", "m2"]).value == ["m1"]
    assert rc.noncombatants_join(resolver(1, 1, 15, 19, nc_recompute=False), 2, ["m1", "m2"]).value == [
        "m1",
        "m2",
    ]
    assert rc.noncombatant_breakoff(resolver(5), 3, 2).value is True  # 5 - 2 >= 3
    assert rc.noncombatant_breakoff(resolver(4), 3, 2).value is False


@given(st.integers(-2, 3), st.booleans(), st.booleans())
def test_F22_crew_quality_stays_in_range(cq: int, won: bool, retreated: bool) -> None:
    new = rc.crew_quality_update(resolver(), cq, True, won, retreated).value
    assert -2 <= new <= 3
    if won and not retreated:
        assert new == min(3, cq + 1)
    elif retreated and not won:
        assert new == max(-2, cq - 1)
    else:
        assert new == cq


@pytest.mark.parametrize("weeks,penalty", [(0, 0), (1, -1), (2, -1), (3, -2), (7, -2)])
def test_F22_supply_penalty_on_crew_quality(weeks: int, penalty: int) -> None:
    assert rc.effective_cq(1, weeks) == 1 + penalty


# F-23 .. F-32 ------------------------------------------------------------------------------------
def test_F23_boarding_section_and_continuation() -> None:
    # A 30 vs D 10: attacker wins; losses 3 and 4; continuation 1D10 2 + 20 > 5
    res = rg.boarding_section(resolver(3, 4, 2), 30, 10, "Regular", "Regular", True).value
    assert res["outcome"] == "attacker" and res["section_taken"] and res["continue"]
    assert res["a_bf"] == 27 and res["d_bf"] == 6
    # continuation uses the ratings before losses (DEFAULT-46): 12 vs 10 -> +2; roll 3 + 2 = 5, not > 5
    res = rg.boarding_section(resolver(1, 1, 3), 12, 10, "Regular", "Regular", True).value
    assert res["section_taken"] and not res["continue"]


def test_F23_defensive_fire() -> None:
    res = rg.boarding_fire(resolver(1, 7, 2, 4), 2, ["u1", "u2"]).value
    assert res == {"u1": 7, "u2": 4}


def test_F24_bombardment() -> None:
    res = rg.bombardment(resolver(10, 11, 5, 50), 3, "colony", depots=1).value
    assert res == {"hits": 2, "points": 2, "depots": 0}
    res = rg.bombardment(resolver(1, 3), 1, "colony", depots=1).value
    assert res == {"hits": 1, "points": 0, "depots": 1}


@given(st.integers(0, 30), st.integers(1, 20), st.integers(1, 20))
def test_F25_output_is_proportional_rounded_up(base: int, pop_base: int, pop: int) -> None:
    pop = min(pop, pop_base)
    out = rg.colony_output(resolver(), base, pop, pop_base).value
    assert out == -(-base * pop // pop_base) and 0 <= out <= base


def test_F26_jump_battalions_land_unharmed() -> None:
    res = rg.landing_fire(
        resolver(1, 8, 2, 3), ["PD", "Bde(L)"], {"j": "JBn", "m": "Bde(M)", "h": "Bde(H)"}
    ).value
    assert res["j"] == 0 and res["m"] + res["h"] == 8 + 3


def test_F27_ground_round_excludes_pd_and_costs_population() -> None:
    att = [{"id": "a", "code": "Bde(M)", "gf": 20, "exp": "Regular"}]
    dfn = [
        {"id": "d", "code": "Militia", "gf": 10, "exp": "Green"},
        {"id": "p", "code": "PD", "gf": 50, "exp": "Regular"},
    ]
    # losses a 2, d 3, p 1; pop loss 1D10 6 -> ceil(10 x 6 x 10%) = 6; experience and morale rolls follow
    res = rg.ground_round(resolver(2, 3, 1, 6, 99, 99, 99, 99), att, dfn, True, 10).value
    assert res["result"] == "attacker" and res["pop_loss"] == 6
    assert res["attackers"][0]["gf"] == 18


def test_F28_militia() -> None:
    assert rg.militia(resolver(), 12).value == {"Regular": 2, "Green": 10}
    assert rg.militia(resolver(), 4, kafer=True).value == {"Veteran": 0, "Regular": 4}


def test_F29_experience_clamped_to_the_type() -> None:
    assert rg.experience_change(resolver(), "Bde(H)", "Veteran", "raise").value == "Veteran"
    assert rg.experience_change(resolver(), "Bde(L)", "Green", "raise").value == "Regular"
    assert (
        rg.experience_change(resolver(experience_clamp=False), "Bde(H)", "Veteran", "raise").value == "Elite"
    )


@pytest.mark.parametrize(
    "troop,exp,bf,gf",
    [
        ("JBn", "Elite", 60, 20),
        ("Bde(L)", "Green", 25, 5),
        ("PD", "Veteran", 0, 10),
        ("Crew, Kafer", "Veteran", 25, 0),
    ],
)
def test_F30_strength(troop: str, exp: str, bf: int, gf: int) -> None:
    assert rg.troop_strength(resolver(), troop, exp).value == {"bf": bf, "gf": gf}


def test_F31_rebuild_and_unsupplied_troops() -> None:
    assert rg.rebuild_cost(resolver(), 11, 10).value == 3
    res = rg.troop_unsupplied(resolver(4, 9, 99), 30, 10, "Regular").value
    assert res["bf"] == 26 and res["gf"] == 1 and not res["removed"]
    assert rg.troop_support_sp(resolver(), 7).value == 14


def test_T23_morale_at_or_below() -> None:
    assert rg.morale_check(resolver(30), "Regular", 8).value is False  # at 8: 30% breaks on 30
    assert rg.morale_check(resolver(31), "Regular", 8).value is True
    assert rg.morale_check(resolver(morale_at_or_below=False), "Regular", 8).value is True  # no check


# F-33 .. F-47 ------------------------------------------------------------------------------------
@given(st.sampled_from(["CFR", "ASB", "FB", "SD"]), st.integers(1, 30))
def test_F33_facility_stats_scale_and_cap(fac: str, modules: int) -> None:
    r = resolver()
    df = rl.facility_stat(r, fac, "df", modules).value
    assert df == modules
    if fac == "CFR":
        assert rl.facility_stat(r, "CFR", "sv", modules).value == min(2 * modules, 20)
        assert rl.facility_stat(r, "CFR", "sp", modules).value == 100 * modules
    if fac == "ASB":
        assert rl.facility_stat(r, "ASB", "sb", modules).value == min(modules, 6)
        assert rl.facility_stat(r, "ASB", "bm", modules).value == 0


def test_F34_repairs() -> None:
    assert rl.dock_repair(resolver(), 12, 5).value == {"points": 5, "cost": 5, "weeks": 3}
    assert rl.dock_repair(resolver(), 12, 2).value["points"] == 2
    assert rl.dock_repair(resolver(), 3, 5, supplied=False).value["points"] == 0
    assert rl.facility_self_repair(resolver(), 6, 3).value == {"points": 3, "cost": 6}
    assert rl.facility_self_repair(resolver(), 6, 3, "3").value == {"points": 1, "cost": 2}
    assert rc.ship_damage_points({"df": 3, "sv": 2, "sb": 1, "sn": 1}) == 4


def test_F35_ordnance_is_exact() -> None:
    assert spm.sp(rl.ordnance_cost(resolver(), 1, 0).value) == Fraction(1, 4)
    assert rl.ordnance_cost(resolver(), 3, 2).value == "1 1/4"


def test_F36_need_arrears_and_retreat() -> None:
    r = resolver()
    assert rl.monthly_need(r, 12).value == 12
    assert rl.monthly_need(r, 12, arrears=2).value == 36  # 2 missed + this month
    assert rl.monthly_need(r, 12, arrears=1, late=True).value == 12  # made good in week 2
    assert rl.monthly_need(r, 12, fresh=True).value == 0
    assert rl.monthly_need(resolver(arrears_include_current=False), 12, arrears=2).value == 12
    assert rl.arrears_cost(r, 15, 3).value == 45
    assert rl.supply_retreat(resolver(1), 2, 1, 2).value is True  # 1 + 1 + 2 = 4 < 5
    assert rl.supply_retreat(resolver(2), 2, 1, 2).value is False
    assert rl.supply_retreat(resolver(6), 4, 1, 1).value is True  # 8 < 9
    assert rl.supply_retreat(resolver(), 1).value is False  # no check at 1 week
    assert rl.supply_retreat(resolver(6, retreat_tactics_modifier="none"), 4, 5, 5).value is True


def test_F37_construction_timing() -> None:
    plan = rl.construction_plan(resolver(), 3, 3, ordered_month=2).value
    assert plan == {"total": 9, "first_month": 2, "last_month": 4, "delivery_month": 5, "left": -3}
    late = rl.construction_plan(resolver(construction_start="next_month"), 3, 3, ordered_month=2).value
    assert late["first_month"] == 3 and late["delivery_month"] == 6


def test_F38_listening_post_route() -> None:
    links = {"A": ["B"], "B": ["C"], "C": []}
    assert rd.route_clear(resolver(), links, "A", "C").value
    assert not rd.route_clear(resolver(), links, "A", "C", ["B"]).value


def test_F39_mines() -> None:
    r = resolver()
    assert rl.mines_laid(r, [4, 6]).value == 10
    assert rl.mines_cleared(r, [3, 3], 5).value == 0
    assert rl.mine_attack(resolver(9, 6), 99).value["damage"] == 3  # below 100: ceil(6/2)
    assert rl.mine_attack(resolver(10, 6), 100).value["damage"] == 6  # 100-499: 1D6
    assert rl.mine_attack(resolver(49, 6), 499).value["damage"] == 6
    assert rl.mine_attack(resolver(50, 10), 500).value["damage"] == 10  # 500+: 1D10
    assert rl.mine_attack(resolver(10, 6, minefield_bands="100_500"), 100).value["damage"] == 3
    assert rl.mine_attack(resolver(1), 5).value["hit"] is False  # 0%: never
    assert rl.colony_mines(resolver(75, 5), 1).value == {"withheld": 3, "mines": 15}
    assert rl.colony_mines(resolver(75, 1), 0).value == {"withheld": 1, "mines": 5}
    assert rl.colony_mines(resolver(1), 4).value == {"withheld": 0, "mines": 0}


def test_F40_escort_fees() -> None:
    assert rl.escort_fees(resolver(), 25, {"AME": 3, "BRI": 1}).value == {"AME": 2, "BRI": 1}
    assert rl.escort_fees(resolver(escort_fee_rounding="per_system"), 25, {"AME": 3, "BRI": 1}).value == {
        "AME": 2,
        "BRI": 0,
    }
    assert rl.escort_fees(resolver(), 0, {"AME": 2}).value == {}


@given(st.integers(0, 500))
def test_F41_bonus_and_penalty(output: int) -> None:
    assert rl.protection_bonus(resolver(), output).value == max(1, output // 10)
    assert rl.directive_penalty(resolver(), output).value == output - -(-output // 10)


def test_F41_colony_initiative_and_split() -> None:
    assert rl.colony_initiative(resolver(80, 4), "High", 2).value == 2  # 60 + 20 = 80
    assert rl.colony_initiative(resolver(81), "High", 2).value == 0
    assert rl.split_withheld(resolver(), 3).value == {"pd": 1, "mines": 5}
    assert rl.split_withheld(resolver(colony_withheld_split="mines_only"), 3).value == {"pd": 0, "mines": 15}


def test_F42_F46_F47() -> None:
    assert rl.conversion(resolver(), "ASB", 3).value == {"weeks": 3, "cost": 18}
    assert rl.psd_discovery(resolver(20), True).value and not rl.psd_discovery(resolver(21), True).value
    assert not rl.psd_discovery(resolver(), False).value
    assert rl.core_shipping(resolver(), "12 1/2").value == "12 1/2"


def test_F45_movement_time() -> None:
    assert rcmd.weeks_per_link(resolver(), ["DD", "MS"]).value == 2
    assert rcmd.weeks_per_link(resolver(), ["DD", "MF"]).value == 1
    assert rcmd.weeks_per_link(resolver(), ["FTR"]).value is None


# exact SP ---------------------------------------------------------------------------------------
@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=8))
def test_sp_round_trip(x: Fraction) -> None:
    assert spm.sp(spm.store(x)) == x
    assert spm.sp(str(spm.store(x))) == x


def test_sp_reads_decimals_exactly() -> None:
    assert (
        spm.sp("12.25") == Fraction(49, 4)
        and spm.sp(0.25) == Fraction(1, 4)
        and spm.store("49/4") == "12 1/4"
    )
