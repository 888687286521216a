"""The procedures offered to `campaign-tui calc star_cruiser_lite ...` and the resolve dialog,
each under the digest's id (F-07, T-13...) as an alias."""

from __future__ import annotations

from collections.abc import Callable

from campaign_tui.core.actions import Param
from campaign_tui.core.procedures import Calc, ProcedureDef, Resolver
from rulesets.star_cruiser_lite import procs_cargo
from rulesets.star_cruiser_lite import rules_combat as rc
from rulesets.star_cruiser_lite import rules_command as rcmd
from rulesets.star_cruiser_lite import rules_detection as rd
from rulesets.star_cruiser_lite import rules_ground as rg
from rulesets.star_cruiser_lite import rules_logistics as rl


def _intel(r: Resolver, margin: int) -> Calc:
    levels = rd.intel_levels(int(margin))
    if levels:
        r.explain(str(r.lookup("T-13", margin=int(margin)).value))
    return Calc(levels, ", ".join(levels) or "nothing (the roll failed)")


def _ceiling(r: Resolver, ship_class: str) -> Calc:
    v = rcmd.tactics_ceiling(r, ship_class)
    r.explain(f"{ship_class} captain: sTac ceiling {v}; Fleet Tactics ceiling 8")
    return Calc(v, f"ceiling {v}")


def _pd_ratings(r: Resolver, gf: str, combined: bool = False) -> Calc:
    sites = [int(x) for x in rc.as_list(gf, "gf")]
    ratings = [rc.pd_missile_rating(g) for g in sites]
    sensor = rc.pd_sensor(len(sites))
    if combined:
        r.explain(f"combined: missile {' + '.join(map(str, ratings))} = {sum(ratings)}, salvo 1")
        out = {"missile": [sum(ratings)], "salvo": 1, "sensor": sensor}
    else:
        r.explain("per site: " + ", ".join(f"GF {g} -> Mi {m}" for g, m in zip(sites, ratings)))
        out = {"missile": ratings, "salvo": 1, "sensor": sensor}
    r.explain(f"{len(sites)} sites: sensor min(4, ceil({len(sites)}/4)) = {sensor}")
    return Calc(out, f"missile {out['missile']}, sensor {sensor}")


def _cq(r: Resolver, cq: int, weeks_unsupplied: int = 0) -> Calc:
    v = rc.effective_cq(int(cq), int(weeks_unsupplied))
    r.explain(f"crew quality {cq} + supply penalty {rc.supply_cq_penalty(int(weeks_unsupplied))} = {v}")
    return Calc(v, f"effective crew quality {v:+d}")


def _p(
    name: str,
    type: str = "int",
    help: str = "",
    required: bool = True,
    default: object = None,
    choices: tuple[str, ...] = (),
) -> Param:
    return Param(name, type, help=help, required=required, default=default, choices=choices)


def _def(
    pid: str,
    title: str,
    fn: Callable[..., Calc],
    params: tuple[Param, ...],
    aliases: tuple[str, ...],
    reference: str,
) -> ProcedureDef:
    return ProcedureDef(
        pid, title, fn, params, aliases=aliases, help=(fn.__doc__ or "").strip(), reference=reference
    )


LIST = "list"


# what the detection procedures (F-07) take: the bodies and how the task force arrived
DETECTION_PARAMS = (
    _p("bodies"),
    Param("arrival", "choice", choices=("none", "overt", "covert"), required=False,
          default="none"),
    Param.optional("recon", "bool", False),
    Param.optional("detected_previous", "bool", False),
    Param.optional("mine_attack", "bool", False),
    Param.optional("kafer", "bool", False),
    Param.optional("warship_forces", "int", 0),
    Param.optional("patrols", "int", 0),
    Param.optional("facilities", "int", 0),
    Param.optional("listening_posts", "int", 0),
)

def procedures() -> dict[str, ProcedureDef]:
    defs = [
        _def("pct", "Percentage check", rc.pct_check, (_p("chance", help="X in pct(X)"),), ("F-01",), "F-01"),
        _def(
            "initial_tactics",
            "Initial tactics skill",
            rcmd.initial_tactics,
            (Param.optional("kafer", "bool", False, help="Kafer commander (1D6 instead of 1D6-1)"),),
            ("F-02",),
            "F-02",
        ),
        _def(
            "command",
            "Command precedence",
            rcmd.command_precedence,
            (_p("ships", "json", '[{"id","code","stac","ftac"}]'),),
            ("T-02",),
            "T-02",
        ),
        _def(
            "tactics_improvement",
            "Tactics improvement",
            rcmd.tactics_improvement,
            (
                _p("stac"),
                _p("ftac"),
                _p("initial_stac"),
                _p("k", help="engagements since the last increase"),
                _p("ship_class", "str"),
                Param.optional("flag", "bool", False),
            ),
            ("F-03",),
            "F-03",
        ),
        _def("ceiling", "Tactics ceiling", _ceiling, (_p("ship_class", "str"),), ("T-03",), "T-03"),
        _def(
            "promotion",
            "Promotion to flag rank",
            rcmd.promotion_ftac,
            (_p("stac"), Param("ship_class", "str", required=False, default="CG")),
            ("F-04",),
            "F-04",
        ),
        _def(
            "ftac_limits",
            "Fleet Tactics limits",
            rcmd.ftac_limits,
            (
                _p("ftac"),
                Param.optional("ships", "int", 0),
                Param.optional("kafer", "bool", False),
                Param("has_warship", "bool", required=False, default=True),
                Param.optional("all_scouts", "bool", False),
            ),
            ("F-05", "T-04"),
            "F-05",
        ),
        _def(
            "subordination",
            "Subordination of a foreign task force",
            rcmd.subordination,
            (_p("relations"), Param.optional("forbidden", "bool", False)),
            ("F-06",),
            "F-06",
        ),
        _def(
            "detection_chance",
            "Task force detection chance",
            rd.detection_chance,
            DETECTION_PARAMS,
            ("F-07", "T-10", "T-11", "T-12"),
            "F-07",
        ),
        _def(
            "detect",
            "Task force detection roll",
            rd.detect,
            DETECTION_PARAMS,
            ("F-07roll",),
            "F-07",
        ),
        _def(
            "intelligence",
            "Intelligence from a detection roll",
            rd.intelligence,
            (_p("target"), _p("roll")),
            ("F-08",),
            "F-08",
        ),
        _def("intel_margin", "Intelligence tiers of a margin", _intel, (_p("margin"),), ("T-13",), "T-13"),
        _def(
            "defender",
            "Defender when both arrive",
            rd.defender,
            (_p("a_detected", "bool"),
             _p("b_detected", "bool"),
             Param.optional("a_roll", "int", 0),
             Param.optional("b_roll", "int", 0)),
            ("F-09",),
            "F-09",
        ),
        _def(
            "preemptive_check",
            "Pre-emptive attack check",
            rc.preemptive_check,
            (
                _p("defender", "json", '{"cqs":[..],"sns":[..],"mvs":[..],"stac":n,"kafer":b}'),
                _p("intruder", "json"),
                Param("defender_detected", "bool", required=False, default=True),
                Param.optional("intruder_detected", "bool", False),
                Param.optional("defender_roll", "int", 0),
                Param.optional("intruder_roll", "int", 0),
            ),
            ("F-10",),
            "F-10",
        ),
        _def(
            "facility_detection_chance",
            "Facility detection chance",
            rd.facility_detection_chance,
            (
                _p("facility", "str"),
                _p("detector", "choice", choices=("warship", "survey", "lp")),
                Param.optional("weeks_surveyed", "int", 1),
                Param.optional("max_sn", "int", 5),
            ),
            ("F-11", "T-09"),
            "F-11",
        ),
        _def(
            "facility_detection",
            "Facility detection roll",
            rd.facility_detection,
            (
                _p("facility", "str"),
                _p("detector", "choice", choices=("warship", "survey", "lp")),
                Param.optional("weeks_surveyed", "int", 1),
                Param.optional("max_sn", "int", 5),
            ),
            ("F-11roll",),
            "F-11",
        ),
        _def(
            "engagement_value",
            "Engagement range value",
            rc.engagement_value,
            (
                _p("cqs", LIST),
                _p("sns", LIST),
                _p("mvs", LIST),
                Param.optional("stac", "int", 0),
                Param.optional("surprise", "bool", False),
                Param.optional("kafer", "bool", False),
                Param.optional("aroused", "bool", False),
                Param.optional("bonus", "int", 0),
            ),
            ("F-12", "T-17"),
            "F-12",
        ),
        _def(
            "engagement_range",
            "Range of the round",
            rc.engagement_range,
            (
                _p("a_value", help="side A's engagement range value (F-12)"),
                _p("b_value", help="side B's value"),
                Param("previous", "choice", choices=rc.RANGE_CHOICES, required=False, default="long"),
                Param.optional("round", "int", 2),
                Param("a_wants", "choice", choices=rc.RANGE_CHOICES, required=False, default="long"),
                Param("b_wants", "choice", choices=rc.RANGE_CHOICES, required=False, default="long"),
            ),
            ("CMB.2", "F-12range"),
            "CMB.2, F-12",
        ),
        _def("arousal", "Kafer arousal", rc.kafer_arousal, (_p("round"),), ("F-13", "T-18"), "F-13"),
        _def(
            "acquisition",
            "Target acquisition",
            rc.acquisition,
            (
                _p("size"),
                Param.optional("target_mv", "int", 0),
                Param.optional("attacker_sn", "int", 0),
                Param.optional("attacker_cq", "int", 0),
                Param.optional("target_cq", "int", 0),
                Param.optional("supply_modifier", "int", 0),
                Param("modules", "int", required=False, help="installation: its modules"),
            ),
            ("F-14", "T-14"),
            "F-14",
        ),
        _def(
            "pd_acquisition",
            "Planetary Defense acquisition",
            rc.pd_acquisition,
            (_p("target_size"), _p("sites"), Param.optional("veteran", "bool", False)),
            ("F-15",),
            "F-15",
        ),
        _def(
            "pd_ratings",
            "Planetary Defense site ratings",
            _pd_ratings,
            (_p("gf", LIST, "ground factors of each site"), Param.optional("combined", "bool", False)),
            ("T-29",),
            "T-29",
        ),
        _def(
            "missile_damage",
            "Missile damage",
            rc.missile_damage,
            (
                _p("mi"),
                Param.optional("escort_pd", "int", 0),
                Param.optional("own_pd", "int", 0),
                Param.optional("screen", "int", 0),
                Param("halvings", "int", required=False),
                Param.optional("kafer_unaroused", "bool", False,
                    help="the firing ship is an unaroused Kafer (Mi halved)"),
                Param.optional("target_kafer_unaroused", "bool", False,
                    help="the target is an unaroused Kafer (no screens)"),
                Param.optional("target_docked", "bool", False, help="the target is docked (no screens)"),
            ),
            ("F-16",),
            "F-16",
        ),
        _def(
            "beam_damage",
            "Beam damage",
            rc.beam_damage,
            (
                _p("bm"),
                Param.optional("beams_on_pd", "int", 0),
                Param.optional("sb_fired", "int", 0),
                Param.optional("screen", "int", 0),
                Param.optional("kafer_unaroused", "bool", False,
                    help="the firing ship is an unaroused Kafer (beams halved)"),
                Param.optional("target_kafer_unaroused", "bool", False,
                    help="the target is an unaroused Kafer (no screens)"),
                Param.optional("target_docked", "bool", False, help="the target is docked (no screens)"),
            ),
            ("F-17",),
            "F-17",
        ),
        _def(
            "pd_split",
            "Default point-defence split",
            rc.pd_split,
            (_p("bm"), _p("range", "choice", choices=("long", "short"))),
            ("F-17pd",),
            "DEFAULT-10",
        ),
        _def(
            "damage_location",
            "Damage location",
            rc.damage_location,
            (
                _p("points"),
                Param("target", "choice", choices=("ship", "facility"), required=False, default="ship"),
                Param("has", "json", required=False, help='current stats, e.g. {"sc": 0}'),
                Param.optional("docked", "bool", False,
                    help="a ship is docked at the facility (T-15 *: Repair Bay hit)"),
                Param.optional("fighters", "bool", False,
                    help="fighters are based at the facility (T-15 *: Fighter Hangar hit)"),
            ),
            ("F-18", "T-15"),
            "F-18",
        ),
        _def(
            "commander_survival", "Commander survival", rc.commander_survival, (_p("cq"),), ("F-19",), "F-19"
        ),
        _def(
            "pairing",
            "Pairing of the battle lines",
            rc.pairing,
            (_p("a", "json", '[{"id","rank"}]'), _p("b", "json")),
            ("F-20", "F-20a"),
            "F-20",
        ),
        _def(
            "breakoff",
            "Break-off of a pairing",
            rc.breakoff_attempt,
            (
                _p("range", "choice", choices=("long", "short")),
                Param("own_value", "int", required=False, help="the breaking side's engagement range value"),
                Param("enemy_value", "int", required=False, help="the enemy's value (a tie fails)"),
            ),
            ("F-20b",),
            "F-20b",
        ),
        _def(
            "breakoff_threshold",
            "Break-off threshold",
            rc.breakoff_threshold,
            (
                _p("threshold", "json", '{"damaged_pct": 50, "flagship_lost": true}'),
                _p("start", help="ships of the side at the start of the battle"),
                Param.optional("damaged", "int", 0, help="ships damaged or destroyed"),
                Param.optional("destroyed", "int", 0),
                Param.optional("flagship_lost", "bool", False),
                Param.optional("round", "int", 1),
                Param.optional("salvoes_spent", "bool", False,
                    help="every ship in the line has spent its salvoes"),
            ),
            ("E-11",),
            "E-11, F-20b",
        ),
        _def(
            "screening",
            "Damaged warships and escorts: screen or line",
            rc.screening,
            (_p("own_line"), _p("enemy_line")),
            ("CMB.0",),
            "CMB.0, F-21",
        ),
        _def(
            "escorts_allowed",
            "May escorts escort",
            rc.escorts_allowed,
            (
                _p("own_line"),
                _p("enemy_line"),
                Param.optional("kafer", "bool", False),
                Param("aroused", "bool", required=False, default=True),
            ),
            ("F-20c",),
            "F-20c",
        ),
        _def(
            "noncombatants_join",
            "Non-combatants forced into the line",
            rc.noncombatants_join,
            (_p("deficit"), _p("noncombatants", LIST)),
            ("F-21", "F-21a"),
            "F-21a",
        ),
        _def(
            "noncombatant_breakoff",
            "Non-combatant break-off",
            rc.noncombatant_breakoff,
            (_p("round"), Param.optional("freed", "int", 0)),
            ("F-21b",),
            "F-21b",
        ),
        _def(
            "crew_quality",
            "Crew quality after a week of combat",
            rc.crew_quality_update,
            (
                _p("cq"),
                Param("fought", "bool", required=False, default=True),
                Param.optional("side_won", "bool", False),
                Param.optional("retreated", "bool", False),
            ),
            ("F-22", "T-19"),
            "F-22",
        ),
        _def(
            "effective_cq",
            "Crew quality with supply penalty",
            _cq,
            (_p("cq"), Param.optional("weeks_unsupplied", "int", 0)),
            ("F-22cq",),
            "F-22",
        ),
        _def(
            "boarding_section",
            "Boarding: one section",
            rg.boarding_section,
            (
                _p("a_bf"),
                _p("d_bf"),
                Param("a_level", "choice", choices=rg.LEVELS, required=False, default="Regular"),
                Param("d_level", "choice", choices=rg.LEVELS, required=False, default="Regular"),
                Param("d_is_crew", "bool", required=False, default=True),
            ),
            ("F-23", "T-25"),
            "F-23",
        ),
        _def(
            "boarding_fire",
            "Boarding: defensive fire",
            rg.boarding_fire,
            (_p("batteries"), _p("units", LIST)),
            ("F-23fire",),
            "F-23",
        ),
        _def(
            "bombardment",
            "Planetary bombardment",
            rg.bombardment,
            (
                _p("beams"),
                Param("target", "choice", choices=("colony", "troops"), required=False, default="colony"),
                Param.optional("depots", "int", 0),
            ),
            ("F-24",),
            "F-24",
        ),
        _def(
            "colony_output",
            "Colony output after damage",
            rg.colony_output,
            (_p("sp_output_base"), _p("pop"), _p("pop_base")),
            ("F-25",),
            "F-25",
        ),
        _def(
            "landing_fire",
            "Landing fire",
            rg.landing_fire,
            (
                _p("defenders", LIST, "codes of the surviving defenders"),
                _p("landing", "json", '{"unit id": "code"}'),
            ),
            ("F-26", "T-28"),
            "F-26",
        ),
        _def(
            "ground_round",
            "Ground combat",
            rg.ground_round,
            (
                _p("attackers", "json", '[{"id","code","gf","exp"}]'),
                _p("defenders", "json"),
                Param.optional("inner_line", "bool", False),
                Param.optional("pop", "int", 0),
            ),
            ("F-27", "T-26", "T-27"),
            "F-27",
        ),
        _def("militia", "Militia", rg.militia, (_p("pop"),
        Param.optional("kafer", "bool", False)), ("F-28",), "F-28"),
        _def(
            "experience_change",
            "Experience change",
            rg.experience_change,
            (
                _p("troop", "str"),
                _p("level", "choice", choices=rg.LEVELS),
                _p("direction", "choice", choices=("raise", "drop")),
            ),
            ("F-29",),
            "F-29",
        ),
        _def(
            "troop_strength",
            "Troop strength",
            rg.troop_strength,
            (_p("troop", "str"), _p("exp", "choice", choices=rg.LEVELS)),
            ("F-30", "T-20", "T-22"),
            "F-30",
        ),
        _def(
            "rebuild_cost",
            "Troop rebuild cost",
            rg.rebuild_cost,
            (_p("bf_deficit"), _p("gf_deficit")),
            ("F-31",),
            "F-31",
        ),
        _def(
            "troop_unsupplied",
            "Unsupplied troop losses",
            rg.troop_unsupplied,
            (_p("bf"), _p("gf"), _p("exp", "choice", choices=rg.LEVELS)),
            ("F-31u",),
            "F-31",
        ),
        _def(
            "morale",
            "Morale check",
            rg.morale_check,
            (
                _p("level", "choice", choices=rg.LEVELS),
                _p("factors"),
                Param("kind", "choice", choices=("gf", "bf"), required=False, default="gf"),
            ),
            ("T-23",),
            "T-23",
        ),
        _def("troop_support", "Colony troop support", rg.troop_support_sp, (_p("pop"),), ("F-32",), "F-32"),
        _def(
            "facility_stat",
            "Facility stat",
            rl.facility_stat,
            (
                _p("facility", "str"),
                _p("stat", "choice", choices=rl.FACILITY_STATS),
                _p("modules"),
                Param.optional("damage", "int", 0),
            ),
            ("F-33", "T-08"),
            "F-33",
        ),
        _def(
            "dock_repair",
            "Dock repair",
            rl.dock_repair,
            (_p("damage"),
             Param.optional("dock_left", "int", 5),
             Param("supplied", "bool", required=False, default=True)),
            ("F-34", "T-40"),
            "F-34",
        ),
        _def(
            "facility_self_repair",
            "Facility self-repair",
            rl.facility_self_repair,
            (_p("damage"), _p("modules"), Param("sp_available", "str", required=False)),
            ("F-34f",),
            "F-34",
        ),
        _def(
            "damage_points",
            "Repairable damage points",
            rc.damage_points_calc,
            (_p("losses", "json", '{"df": 3, "sn": 1}'),),
            ("F-34d",),
            "F-34",
        ),
        _def(
            "ordnance_cost",
            "Ordnance replenishment",
            rl.ordnance_cost,
            (Param.optional("salvoes", "int", 0), Param.optional("submunitions", "int", 0)),
            ("F-35",),
            "F-35",
        ),
        _def(
            "monthly_need",
            "Monthly resupply need",
            rl.monthly_need,
            (
                _p("req_sp", "str"),
                Param.optional("arrears", "int", 0),
                Param.optional("fresh", "bool", False),
                Param("ordnance", "str", required=False, default="0"),
            ),
            ("F-36", "F-36a"),
            "F-36",
        ),
        _def("supply_penalties", "Supply penalties", rl.supply_penalties, (_p("weeks"),), ("T-31",), "T-31"),
        _def(
            "supply_retreat",
            "Supply retreat check",
            rl.supply_retreat,
            (_p("weeks"), Param.optional("stac", "int", 0), Param.optional("ftac", "int", 0)),
            ("F-36c",),
            "F-36",
        ),
        _def(
            "arrears_cost",
            "Arrears when resupplied",
            rl.arrears_cost,
            (_p("req_sp", "str"), _p("missed", help="monthly resupplies owed, this one included")),
            ("F-36d",),
            "F-36",
        ),
        _def(
            "construction",
            "Construction plan",
            rl.construction_plan,
            (
                _p("cost_per_month", "str"),
                _p("months"),
                Param("production", "str", required=False, default="0"),
                Param("installments", "str", required=False),
                Param.optional("ordered_month", "int", 1),
            ),
            ("F-37", "T-30"),
            "F-37",
        ),
        _def(
            "route_clear",
            "Listening post route",
            rd.route_clear,
            (
                _p("links", "json", '{"A": ["B"]}'),
                _p("start", "str"),
                _p("goal", "str"),
                Param("blocked", "list", required=False),
            ),
            ("F-38",),
            "F-38",
        ),
        _def("mines_laid", "Mines laid", rl.mines_laid, (_p("ratings", LIST),), ("F-39a",), "F-39"),
        _def(
            "mines_cleared",
            "Mines cleared",
            rl.mines_cleared,
            (_p("beams", LIST), _p("mines")),
            ("F-39b",),
            "F-39",
        ),
        _def(
            "mine_attack_chance",
            "Minefield attack chance",
            rl.mine_attack_chance,
            (_p("mines"),),
            ("F-39", "F-39c"),
            "F-39",
        ),
        _def("mine_attack", "Minefield attack", rl.mine_attack, (_p("mines"),), ("T-34",), "F-39"),
        _def("colony_mines", "Colony mines", rl.colony_mines, (_p("distance"),), ("F-39e", "T-35"), "F-39"),
        _def(
            "escort_fees",
            "Escort fees",
            rl.escort_fees,
            (_p("volume"), _p("units", "json", '{"AME": 3, "BRI": 1}')),
            ("F-40",),
            "F-40",
        ),
        _def(
            "protection_bonus",
            "Colony-protection bonus",
            rl.protection_bonus,
            (_p("output"),),
            ("F-41", "F-41a", "T-41"),
            "F-41",
        ),
        _def(
            "directive_penalty",
            "Directive penalty",
            rl.directive_penalty,
            (_p("output"),),
            ("F-41b",),
            "F-41",
        ),
        _def(
            "colony_initiative",
            "Colony defence initiative",
            rl.colony_initiative,
            (_p("paranoia", "choice", choices=("Low", "Moderate", "High")), _p("distance")),
            ("F-41c", "T-36", "T-37"),
            "F-41",
        ),
        _def(
            "withheld_split",
            "Split of withheld colony SP",
            rl.split_withheld,
            (_p("withheld"),),
            ("DEFAULT-04",),
            "DEFAULT-04",
        ),
        _def(
            "conversion",
            "Captured facility conversion",
            rl.conversion,
            (_p("facility", "str"), _p("modules")),
            ("F-42", "T-33"),
            "F-42",
        ),
        _def(
            "convoy_owner",
            "Convoy owning nation",
            rcmd.convoy_owner,
            (_p("ships", "json", '[{"nation","code"}]'),),
            ("F-43", "T-38"),
            "F-43",
        ),
        _def(
            "tf_composition",
            "Task force composition",
            rcmd.tf_composition,
            (_p("ships", "json", '[{"code","flagship"}]'),),
            ("F-44",),
            "F-44",
        ),
        _def(
            "weeks_per_link",
            "Movement time",
            rcmd.weeks_per_link,
            (_p("codes", LIST),),
            ("F-45", "T-39"),
            "F-45",
        ),
        _def(
            "psd_discovery",
            "Planetary supply depot discovery",
            rl.psd_discovery,
            (Param("enemy_ground", "bool", required=False, default=True),),
            ("F-46",),
            "F-46",
        ),
        _def(
            "core_shipping",
            "Shipping from the Core",
            rl.core_shipping,
            (_p("leftover", "str"),),
            ("F-47",),
            "F-47",
        ),
        _def(
            "resupply_order",
            "Automatic resupply source order",
            rl.resupply_order,
            (
                _p(
                    "available",
                    LIST,
                    "sources present: core, CFR, ASB, SD, FB, merchants, self, colony, independent, other_tf",
                    required=False,
                    default=[],
                ),
                Param.optional("at_qas", "bool", False, help="the unit is at QAS (the Core stockpile pays)"),
                _p("named", "str", "the source its orders name", required=False, default=""),
            ),
            ("T-32", "M0.5s"),
            "T-32",
        ),
        _def(
            "damage_result",
            "What a damage result does",
            rc.damage_result,
            (
                _p("result", "str", "T-16 result: 'Screens -1', 'Supply Points -10%', or sc, df, sp10..."),
                Param.optional("current", "int", 0, help="the stat's value now (maximum for screens)"),
                _p("sp", "str", "the facility's SP (Supply Points -10%)", required=False, default="0"),
                _p(
                    "rounding",
                    "choice",
                    "overrides facility_sp_loss_rounding",
                    required=False,
                    default="",
                    choices=("", "up", "down"),
                ),
            ),
            ("T-16",),
            "T-16",
        ),
    ]
    return {d.id: d for d in (*defs, *procs_cargo.PROCEDURES)}
