"""The sequence of play (digest section 2): set-up, then months of Week 0 and four action
weeks, with the pre-emptive, space combat, boarding and ground sub-machines.

Clock: month (from 1) > week (0..4); the absolute weekly turn is t = 5 x (month - 1) + week.
"""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.later import later
from campaign_tui.core.machine import RETURN, ClockLevel, Go, Machine, Require, Step
from campaign_tui.core.model import State

# rule modules: imported at the first call of one of their functions
boarding = later("rulesets.star_cruiser_lite.boarding")
chores_month = later("rulesets.star_cruiser_lite.chores_month")
chores_week = later("rulesets.star_cruiser_lite.chores_week")
combat = later("rulesets.star_cruiser_lite.combat")
ground = later("rulesets.star_cruiser_lite.ground")
preempt = later("rulesets.star_cruiser_lite.preempt")

ORDER_ACTIONS = (
    "import_orders",
    "set_tf_order",
    "clear_orders",
    "default_orders",
    "order_construction",
    "reorganize",
    "late_resupply",
)
WEEK_TOOLS = ("run_to_report", "transfer_sp", "load_facility", "load_troops", "install_upgrade")
GM_SETUP = (
    "schedule_reinforcement",
    "import_map",
    "import_oob",
    "import_catalog",
    "add_system",
    "add_link",
    "add_colony",
    "add_facility",
    "set_relations",
    "add_commander",
    "roll_tactics",
    "set_core_output",
    "designate_flagship",
    "set_stockpile",
    "set_minefield",
)


def missing_orders(state: State) -> str | None:
    month, week = state.clock.get("month", 1), state.clock.get("week", 0)
    waiting = []
    for nation, side in state.sides.items():
        rec = state.records("nations").get(nation, {})
        if not rec.get("at_war", True):
            continue
        o = state.secrets.get(nation, {}).get("orders") or {}
        if (o.get("month"), o.get("week")) != (month, week):
            waiting.append(side.name)
    if waiting:
        return (
            "orders still missing from "
            + ", ".join(waiting)
            + " (import them, or give standing orders with default_orders)"
        )
    return None


def unrolled_commanders(state: State) -> str | None:
    left = [
        cid for cid, c in state.records("commanders").items() if not c.get("rolled") and c.get("alive", True)
    ]
    if left:
        return f"{len(left)} commander(s) still without tactics (roll_tactics)"
    return None


def pending(name: str):  # type: ignore[no-untyped-def]
    return lambda s: bool(s.vars.get(name))


def _start_week(c: Ctx) -> None:
    c.set_clock("week", int(c.clock["week"]) + 1)


def _next_month(c: Ctx) -> None:
    c.tick("month")


def _pop_engagement(c: Ctx) -> None:
    queue = c.edit_var("engagements", [])
    eng = queue.pop(0)
    c.set_var("pending_battle", eng)


def _gm_ends(s: State) -> bool:
    return bool(s.vars.get("gm_ends"))


def _prompt_orders(s: State) -> str:
    missing = missing_orders(s)
    if s.clock.get("week") == 0:
        head = (
            f"Month {s.clock.get('month')}, Week 0: take in each nation's Week 0 orders - construction, "
            "resupply sources and political requests, no movement (import_orders with the nation's "
            "Week 0 TOML file, or order_construction, and set_tf_order tf=ID resupply=SOURCE)."
        )
    else:
        head = (
            f"Month {s.clock.get('month')}, Week {s.clock.get('week')}: take in each nation's turn orders "
            "(import_orders with the nation's TOML file, or set_tf_order one task force at a time)."
        )
    return head + (
        f" Waiting: {missing}."
        if missing
        else " All orders are in; advance to resolve the week (or run_to_report to resolve it in one go)."
    )


def _prompt_battle(s: State) -> str:
    b = s.vars.get("battle") or {}
    if not b:
        return "Battle set-up."
    return (
        f"Battle at {b.get('system')}, round {b.get('round')}: check the lines and pairings "
        "(cmb_pair, cmb_escort) and advance, or let cmb_auto fight it to the end."
    )


def _prompt_declare(s: State) -> str:
    b = s.vars.get("battle") or {}
    er = b.get("er") or {}
    rng = b.get("range") or "unchanged per pairing"
    won = (
        f" ({combat.side_label(s, b, er['winner'])} won the range)" if er.get("winner") in ("A", "B") else ""
    )
    return (
        f"Round {b.get('round')} at {rng} range{won}. Declare boardings (cmb_board), point defence and "
        "targets (cmb_allocate) if the orders call for it; advance to fire with the defaults."
    )


STEPS = [
    Step(
        "SETUP",
        "Campaign set-up",
        phase="SETUP",
        actor="gm",
        reference="S.1-S.8",
        prompt="Check the nations, relations, map, ship classes, forces and stockpiles; import the real "
        "campaign data if you have it (import_map, import_oob, import_catalog). Demonstration data "
        "is marked as such. Advance to start month 1.",
        actions=GM_SETUP,
        rolls=("1D6-1 tactics for human commanders, 1D6 for Kafers (F-02)",),
        requires=(Require("every commander has rolled tactics", unrolled_commanders),),
        enter=lambda c: _setup_enter(c),
        next=(Go("M0.ORDERS"),),
    ),
    # -- Week 0 ----------------------------------------------------------------------------
    Step(
        "M0.ORDERS",
        "Week 0 orders",
        phase="WEEK0",
        actor="all",
        reference="M0.1",
        hidden_input=True,
        prompt=_prompt_orders,
        actions=(*ORDER_ACTIONS, "run_to_report"),
        requires=(Require("every nation at war has sent its orders", missing_orders),),
        next=(Go("M0.PRODUCTION"),),
    ),
    Step(
        "M0.PRODUCTION",
        "Production",
        phase="WEEK0",
        actor="gm",
        reference="M0.2",
        prompt="Set each nation's Core output for the month if it changed (set_core_output); colony output "
        "follows population. Advance to the colonies' own defence measures.",
        actions=("set_core_output", "run_to_report"),
        enter=chores_month.production,
        next=(Go("M0.COLONY_INITIATIVES"),),
    ),
    Step(
        "M0.COLONY_INITIATIVES",
        "Colony defence initiatives and mines",
        phase="WEEK0",
        actor="gm",
        reference="M0.3",
        rolls=("d100 initiative (T-36 + T-37)", "d100 colony mines (T-35)", "1D6-2 SP withheld (at least 1)"),
        prompt="Colonies have rolled; split any withheld SP between PD sites and mines (split_withheld) or "
        "advance to use the default split.",
        actions=("split_withheld", "run_to_report"),
        enter=chores_month.colony_defence,
        next=(Go("M0.CONSTRUCTION", effect=chores_month.apply_withheld),),
    ),
    Step(
        "M0.CONSTRUCTION",
        "Construction",
        phase="WEEK0",
        actor="gm",
        reference="M0.4",
        prompt="Installments have come off the top of this month's production; new jobs started, finished "
        "ones delivered, leftovers sent to QAS or the colony depots. Review, then advance to resupply.",
        actions=("cancel_job", "run_to_report"),
        enter=chores_month.construction,
        next=(Go("M0.RESUPPLY"),),
    ),
    Step(
        "M0.RESUPPLY",
        "Monthly resupply",
        phase="WEEK0",
        actor="gm",
        reference="M0.5",
        rolls=("1D10 BF and 1D10 GF losses for unsupplied troops", "d100 morale (T-23)"),
        prompt="Every unit has drawn its month's SP from its named source or the automatic order (T-32). "
        "Move SP (transfer_sp) or resupply a unit by hand (resupply_unit), then advance.",
        actions=("resupply_unit", "transfer_sp", "rebuild_troops", "run_to_report"),
        enter=chores_month.resupply,
        next=(Go("M0.POLITICAL"),),
    ),
    Step(
        "M0.POLITICAL",
        "Political activities",
        phase="WEEK0",
        actor="gm",
        reference="M0.6",
        prompt="Answer the political requests, record interventions (political_event), change relations, "
        "promote commanders and bring in reinforcements or new nations. Advance for the reports.",
        actions=(
            "political_event",
            "set_relations",
            "promote",
            "reinforce",
            "enter_war",
            "add_commander",
            "set_core_output",
            "schedule_reinforcement",
            "run_to_report",
        ),
        enter=lambda c: _political_enter(c),
        next=(Go("M0.REPORT"),),
    ),
    Step(
        "M0.REPORT",
        "Week 0 report",
        phase="WEEK0",
        actor="gm",
        reference="M0.7",
        prompt="Issue the general and national reports (campaign-tui report PATH -o DIR), then advance to "
        "the first action week.",
        actions=("declare_end",),
        next=(
            Go("CAMPAIGN_END", when=_gm_ends, label="the GM declares the campaign over"),
            Go("W.ORDERS", effect=_start_week, label="week 1"),
        ),
    ),
    # -- action weeks ------------------------------------------------------------------------
    Step(
        "W.ORDERS",
        "Turn orders",
        phase="WEEK",
        actor="all",
        reference="W.1",
        hidden_input=True,
        prompt=_prompt_orders,
        actions=(*ORDER_ACTIONS, *WEEK_TOOLS),
        requires=(Require("every nation at war has sent its orders", missing_orders),),
        next=(Go("W.UPKEEP"),),
    ),
    Step(
        "W.UPKEEP",
        "Start of the week",
        phase="WEEK",
        actor="gm",
        reference="W.2",
        prompt="Escort fees paid, Core items arrived, late resupply done, supply counters advanced and "
        "listening posts heard. Advance to the mine attacks.",
        actions=WEEK_TOOLS,
        enter=chores_week.upkeep,
        next=(Go("W.MINES"),),
    ),
    Step(
        "W.MINES",
        "Mine attacks",
        phase="WEEK",
        actor="gm",
        reference="W.3",
        rolls=(
            "d100 vs floor(mines/10) per task force",
            "minefield damage (T-34)",
            "1D10 location per point",
        ),
        prompt="Minefields have attacked the task forces in their systems. Advance to detection.",
        actions=WEEK_TOOLS,
        enter=chores_week.mines,
        next=(Go("W.DETECT_TF"),),
    ),
    Step(
        "W.DETECT_TF",
        "Task force detection",
        phase="WEEK",
        actor="gm",
        reference="W.4",
        rolls=("d100 per detecting force per enemy task force (F-07)",),
        prompt="Detection rolled for every system with opposing forces; intelligence filed with each nation. "
        "Advance to the pre-emptive attacks.",
        actions=WEEK_TOOLS,
        enter=chores_week.detection,
        next=(Go("W.PREEMPT"),),
    ),
    Step(
        "W.PREEMPT",
        "Pre-emptive attacks",
        phase="WEEK",
        actor="gm",
        reference="W.5",
        auto=True,
        prompt="Pre-emptive attacks on detected newcomers, one at a time.",
        next=(
            Go(
                "W.PREEMPT",
                call="PRE.CHECK",
                when=pending("preempt_queue"),
                label="a detected newcomer faces a defender with patrols and Detection Action = Attack",
            ),
            Go("W.DETECT_FAC", label="no (more) pre-emptive attacks"),
        ),
    ),
    Step(
        "W.DETECT_FAC",
        "Facility detection",
        phase="WEEK",
        actor="gm",
        reference="W.6",
        rolls=("d100 per detector per facility (T-09)",),
        prompt="Listening posts, defenders present since last week and surveyors have looked for facilities. "
        "Advance to reorganisation.",
        actions=WEEK_TOOLS,
        enter=chores_week.facility_detection_step,
        next=(Go("W.REORG"),),
    ),
    Step(
        "W.REORG",
        "Reorganisation",
        phase="WEEK",
        actor="gm",
        reference="W.7",
        prompt="Ordered detachments and transfers are in effect; make any further ones (reorganize). Advance "
        "to coordination.",
        actions=("reorganize", *WEEK_TOOLS),
        enter=chores_week.reorganisation,
        next=(Go("W.COORDINATE"),),
    ),
    Step(
        "W.COORDINATE",
        "Coordination",
        phase="WEEK",
        actor="gm",
        reference="W.8",
        rolls=("1D10 <= relations for each foreign task force (F-06)",),
        prompt="Attack and Defend groups formed under their senior commanders; the week's engagements are "
        "listed. Advance to the movement actions.",
        actions=WEEK_TOOLS,
        enter=chores_week.coordination,
        next=(Go("W.ACTIONS"),),
    ),
    Step(
        "W.ACTIONS",
        "Movement actions: attacks",
        phase="WEEK",
        actor="gm",
        reference="W.9a-b",
        prompt=lambda s: (
            f"{len(s.vars.get('engagements') or [])} engagement(s) and "
            f"{len(s.vars.get('colony_attacks') or [])} colony attack(s) wait. Confirm or change them "
            "(add_engagement, drop_engagement), then advance to fight the next one."
        ),
        actions=("add_engagement", "drop_engagement", *WEEK_TOOLS),
        enter=chores_week.postures,
        next=(
            Go(
                "W.ACTIONS",
                call="CMB.SETUP",
                when=pending("engagements"),
                effect=_pop_engagement,
                label="an Attack TF / Facility / Convoys engagement is pending",
            ),
            Go(
                "W.ACTIONS",
                call="GRD.ORBIT",
                when=pending("colony_attacks"),
                label="an Attack Colony order is pending",
            ),
            Go("W.SPECIALS", label="no engagements left"),
        ),
    ),
    Step(
        "W.SPECIALS",
        "Specials",
        phase="WEEK",
        actor="gm",
        reference="W.9c",
        prompt="Mining, surveys and facility deployment done. Advance to movement.",
        actions=WEEK_TOOLS,
        enter=chores_week.specials,
        next=(Go("W.MOVES"),),
    ),
    Step(
        "W.MOVES",
        "Movement",
        phase="WEEK",
        actor="gm",
        reference="W.9d",
        prompt="Task forces have moved; one-week moves arrive now. Advance to the end of the week.",
        actions=WEEK_TOOLS,
        enter=chores_week.moves,
        next=(Go("W.END"),),
    ),
    Step(
        "W.END",
        "End of the week",
        phase="WEEK",
        actor="gm",
        reference="W.10",
        rolls=(
            "1D10 + sTac + fTac supply retreat checks",
            "d100 tactics improvement",
            "d100 depot discovery",
        ),
        prompt="Repairs, conversions, supply retreats, crew quality, tactics and escort fees settled. "
        "Advance for the turn reports.",
        actions=WEEK_TOOLS,
        enter=chores_week.end_of_week,
        next=(Go("W.REPORT"),),
    ),
    Step(
        "W.REPORT",
        "Turn report",
        phase="WEEK",
        actor="gm",
        reference="W.11",
        prompt="Issue the general and national reports (campaign-tui report PATH -o DIR), then advance "
        "to the next week.",
        actions=("declare_end",),
        next=(
            Go("CAMPAIGN_END", when=_gm_ends, label="the GM declares the campaign over"),
            Go(
                "W.ORDERS",
                when=lambda s: int(s.clock.get("week", 0)) < 4,
                effect=_start_week,
                label="week < 4: next action week",
            ),
            Go("M0.ORDERS", effect=_next_month, label="week 4: Week 0 of the next month"),
        ),
    ),
    Step(
        "CAMPAIGN_END",
        "Campaign over",
        phase="END",
        actor="gm",
        final=True,
        reference="G-02",
        prompt="The GM has declared the campaign over.",
    ),
    # -- pre-emptive attack ------------------------------------------------------------------
    Step(
        "PRE.CHECK",
        "Pre-emptive range check",
        phase="PRE",
        actor="gm",
        auto=True,
        reference="W.5, F-10",
        rolls=("1D6 luck per side (F-12)",),
        prompt="Engagement-range check before a pre-emptive attack.",
        enter=preempt.check,
        next=(
            Go(
                "PRE.AVOIDED",
                when=lambda s: (s.vars.get("pre") or {}).get("avoided") is True,
                label="the intruder wins the check and avoids combat",
            ),
            Go("CMB.SETUP", label="the defender wins or the intruder accepts"),
        ),
    ),
    Step(
        "PRE.AVOIDED",
        "Pre-emptive attack avoided",
        phase="PRE",
        actor="gm",
        auto=True,
        reference="PRE.2",
        prompt="The intruder slips away and must leave the system.",
        enter=preempt.avoided,
        next=(Go(RETURN),),
    ),
    # -- space combat --------------------------------------------------------------------------
    Step(
        "CMB.SETUP",
        "Battle set-up",
        phase="CMB",
        actor="gm",
        reference="CMB.0",
        prompt=_prompt_battle,
        rolls=("d100 non-combatants forced into line (F-21a)",),
        actions=("cmb_pair", "cmb_escort", "cmb_side", "cmb_auto", "cmb_result", "run_to_report"),
        enter=combat.setup,
        next=(Go("CMB.ROUND_START"),),
    ),
    Step(
        "CMB.ROUND_START",
        "Round start",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.1",
        prompt="A new round.",
        enter=combat.round_start,
        next=(
            Go("CMB.AROUSAL", when=combat.unaroused_kafers, label="unaroused Kafers present"),
            Go("CMB.RANGE"),
        ),
    ),
    Step(
        "CMB.AROUSAL",
        "Kafer arousal",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.1, F-13",
        rolls=("1D6: round 1 on 1-2, round 2 on 1-4, automatic from round 3",),
        prompt="Kafer arousal.",
        enter=combat.arousal,
        next=(Go("CMB.RANGE"),),
    ),
    Step(
        "CMB.RANGE",
        "Engagement range",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.2, F-12",
        rolls=("1D6 luck per side",),
        prompt="Engagement range.",
        enter=combat.choose_range,
        next=(Go("CMB.BREAKOFF"),),
    ),
    Step(
        "CMB.BREAKOFF",
        "Break-off",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.3, F-20b",
        prompt="Break-off attempts.",
        enter=combat.breakoff,
        next=(
            Go("CMB.END", when=combat.battle_over, label="a side has broken off or is gone"),
            Go("CMB.DECLARE"),
        ),
    ),
    Step(
        "CMB.DECLARE",
        "Declarations",
        phase="CMB",
        actor="gm",
        reference="CMB.4-5",
        prompt=_prompt_declare,
        actions=("cmb_board", "cmb_allocate", "cmb_side", "cmb_auto", "cmb_result", "run_to_report"),
        next=(
            Go("CMB.BOARDING", when=combat.boardings_pending, label="boarding declared"),
            Go("CMB.ALLOCATE"),
        ),
    ),
    Step(
        "CMB.BOARDING",
        "Boarding actions",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.4",
        prompt="Boarding actions come before all fire.",
        next=(Go("CMB.ALLOCATE", call="BRD.LAUNCH"),),
    ),
    Step(
        "CMB.ALLOCATE",
        "Weapon allocation",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.5",
        prompt="Point defence and targets.",
        enter=combat.allocate,
        next=(Go("CMB.FIRE"),),
    ),
    Step(
        "CMB.FIRE",
        "Fire",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.6, F-14-F-18",
        rolls=("1D10 acquisition per attack (natural 1 misses)", "1D10 location per damage point"),
        prompt="All fire is simultaneous.",
        enter=combat.fire,
        next=(Go("CMB.APPLY"),),
    ),
    Step(
        "CMB.APPLY",
        "Damage",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.7, F-19",
        rolls=("1D10 + CQ >= 5 commander survival",),
        prompt="Damage applied.",
        enter=combat.apply_damage,
        next=(Go("CMB.NC_BREAKOFF"),),
    ),
    Step(
        "CMB.NC_BREAKOFF",
        "Non-combatant break-off",
        phase="CMB",
        actor="gm",
        auto=True,
        reference="CMB.8-9, F-21b",
        rolls=("1D10 - freed enemies >= round",),
        prompt="End of the round.",
        enter=combat.nc_breakoff,
        next=(
            Go("CMB.END", when=combat.battle_over, label="one side destroyed or broken off"),
            Go("CMB.ROUND_START", effect=combat.next_round, label="both sides still engaged"),
        ),
    ),
    Step(
        "CMB.END",
        "Battle over",
        phase="CMB",
        actor="gm",
        reference="CMB.10",
        prompt=lambda s: (
            "The battle is over: "
            + (
                f"the field is held by {(s.vars.get('last_battle') or {}).get('winner_name')}"
                if (s.vars.get("last_battle") or {}).get("winner_name")
                else "no side holds the field"
            )
            + ". Advance to go on with the week."
        ),
        actions=("run_to_report",),
        enter=combat.aftermath,
        next=(Go(RETURN, effect=combat.close),),
    ),
    # -- boarding ------------------------------------------------------------------------------
    Step(
        "BRD.LAUNCH",
        "Boarding launch",
        phase="BRD",
        actor="gm",
        auto=True,
        reference="BRD.1, F-23",
        rolls=("1D10 BF per Bm + Sb point of the target",),
        prompt="Boarding party launched.",
        enter=boarding.launch,
        next=(Go("BRD.SECTION"),),
    ),
    Step(
        "BRD.SECTION",
        "Section fight",
        phase="BRD",
        actor="gm",
        auto=True,
        reference="BRD.2, T-25",
        rolls=("1D10 losses each side", "d100 morale", "1D10 + (A - D) > 5 to go on"),
        prompt="Section by section.",
        enter=boarding.section_pass,
        next=(
            Go("BRD.SECTION", when=boarding.more_passes, label="a unit fights on"),
            Go("BRD.RETREAT", when=boarding.must_retreat, label="attackers thrown back off the ship"),
            Go("BRD.DONE"),
        ),
    ),
    Step(
        "BRD.RETREAT",
        "Withdrawal",
        phase="BRD",
        actor="gm",
        auto=True,
        reference="BRD.3",
        prompt="Attackers withdraw under fire.",
        enter=boarding.retreat,
        next=(Go("BRD.DONE"),),
    ),
    Step(
        "BRD.DONE",
        "Boarding result",
        phase="BRD",
        actor="gm",
        auto=True,
        reference="BRD.4",
        prompt="Capture check.",
        enter=boarding.done,
        next=(Go("BRD.LAUNCH", when=boarding.more_boardings, label="another boarding"), Go(RETURN)),
    ),
    # -- ground operations -------------------------------------------------------------------
    Step(
        "GRD.ORBIT",
        "Securing orbit",
        phase="GRD",
        actor="gm",
        auto=True,
        reference="GRD.1",
        prompt="Securing orbital space.",
        enter=ground.orbit,
        next=(
            Go("GRD.BOMBARD", call="CMB.SETUP", when=ground.orbit_battle_pending, label="defenders in orbit"),
            Go("GRD.BOMBARD"),
        ),
    ),
    Step(
        "GRD.BOMBARD",
        "Bombardment",
        phase="GRD",
        actor="gm",
        auto=True,
        reference="GRD.2, F-24",
        rolls=("d100 per beam (10%)", "d100 per point for the depot (10%)"),
        prompt="Bombardment.",
        enter=ground.bombard,
        next=(
            Go("GRD.LAND", when=ground.landing, label="orbit secured and troops to land"),
            Go("GRD.DONE", label="orbit not secured or bombardment only"),
        ),
    ),
    Step(
        "GRD.LAND",
        "Landing",
        phase="GRD",
        actor="gm",
        auto=True,
        reference="GRD.3, F-26",
        rolls=("1D10 / 1D6 landing fire (T-28)",),
        prompt="Landing.",
        enter=ground.land,
        next=(Go("GRD.OUTER"),),
    ),
    Step(
        "GRD.OUTER",
        "Outer line",
        phase="GRD",
        actor="gm",
        auto=True,
        reference="GRD.4, F-27",
        rolls=("1D10 GF losses per unit", "d100 experience (T-27)", "d100 morale"),
        prompt="Outer line.",
        enter=ground.outer,
        next=(Go("GRD.INNER", when=ground.outer_won, label="attacker wins the outer line"), Go("GRD.DONE")),
    ),
    Step(
        "GRD.INNER",
        "Inner line",
        phase="GRD",
        actor="gm",
        auto=True,
        reference="GRD.5, F-28",
        rolls=("1D10 population loss x 10%",),
        prompt="Inner line: the militia.",
        enter=ground.inner,
        next=(Go("GRD.CAPTURE", when=ground.inner_won, label="attacker wins"), Go("GRD.DONE")),
    ),
    Step(
        "GRD.CAPTURE",
        "Capture",
        phase="GRD",
        actor="gm",
        auto=True,
        reference="GRD.6",
        prompt="The colony changes hands.",
        enter=ground.capture,
        next=(Go("GRD.DONE"),),
    ),
    Step(
        "GRD.DONE",
        "Colony attack over",
        phase="GRD",
        actor="gm",
        reference="GRD",
        prompt="The attack on the colony is over. Advance to go on with the week.",
        actions=("run_to_report",),
        next=(Go(RETURN, effect=ground.finish),),
    ),
]


def _political_enter(ctx: Ctx) -> None:
    from rulesets.star_cruiser_lite.actions_play import deliver_reinforcements

    deliver_reinforcements(ctx)


def _setup_enter(ctx: Ctx) -> None:
    from rulesets.star_cruiser_lite.actions_setup import roll_all_tactics

    roll_all_tactics(ctx)


def clock_text(c: dict[str, int]) -> str:
    week = int(c.get("week", 0))
    return f"Month {c.get('month', 1)}, Week {week}" + (
        " (construction, resupply, politics)" if week == 0 else ""
    )


MACHINE = Machine.build(
    "scl.invasion",
    "Star Cruiser Lite - Invasion: the refereed campaign",
    STEPS,
    start="SETUP",
    clock=(ClockLevel("month", "Month", 1), ClockLevel("week", "Week", 0, maximum=4)),
    phases={
        "SETUP": "Campaign set-up",
        "WEEK0": "Week 0: construction, resupply, politics",
        "WEEK": "Action week",
        "PRE": "Pre-emptive attack",
        "CMB": "Space combat",
        "BRD": "Boarding action",
        "GRD": "Ground operations",
        "END": "Campaign over",
    },
    subs={"PRE": "PRE.CHECK", "CMB": "CMB.SETUP", "BRD": "BRD.LAUNCH", "GRD": "GRD.ORBIT"},
    anytime=("note_event",),
    format_clock=clock_text,
    description="Months of Week 0 (construction, resupply, politics) and four action weeks; within a week "
    "mines, detection, pre-emptive attacks, facility detection, then the orders; arrivals at the "
    "end of the week.",
)
