"""End-of-day and replacement actions (digest 2.2 step 9, 5.11, 5.12)."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later

from ..ledger import losses
from ..ships import alive

# rule modules: imported at the first call of one of their functions
cycles = later("rulesets.second_sathar_war.cycles")


@action(
    "plan_repair",
    "Choose a docked ship's repair for today",
    Param("ship", "unit"),
    Param(
        "job",
        help="hull, one system (drives, steering, dcr, ccs, nav, power_short, fire, or a "
        "weapon/defence code such as LB), or none",
    ),
    available=lambda s: None if s.step == "END_OF_DAY" else "only at the end of the day",
    reference="5.11b",
)
def plan_repair(ctx: Ctx, ship: str, job: str) -> None:
    """A ship docked a whole day at a construction centre gets either one system fully repaired
    or a share of the hull points, never both. Without a plan: hull first, most damaged first."""
    from ..cycles import REPAIR_SYSTEMS

    u = ctx.state.unit(ship)
    job = job.strip()
    choices = ["hull", "none", *cycles.damaged_systems(u)]
    if job not in choices:
        raise ActionRejected(f"{u.label} has nothing to repair as {job!r}; choose from {', '.join(choices)}")
    if job in REPAIR_SYSTEMS or job not in ("hull", "none"):
        job = f"system:{job}"
    plan = ctx.edit_var("repair_plan", {})
    plan[ship] = job
    ctx.summary(f"{u.label}: today's repair {job.removeprefix('system:')}")


@action(
    "upf_replacement",
    "Replace a destroyed UPF ship",
    Param("loss", "record", record="losses"),
    Param("station", "unit", help="the surviving fortress or fortified station that builds it"),
    side="UPF",
    reference="5.12, T14",
    available=lambda s: None if s.step == "REPLACEMENT_PHASE" else "only in the replacement phase",
)
def upf_replacement(ctx: Ctx, loss: str, station: str) -> None:
    """Each surviving fortress rebuilds one destroyed ship of frigate class or larger; each
    surviving fortified station two assault scouts or fighters. They appear there next day."""
    st = ctx.state.unit(station)
    if not alive(st):
        raise ActionRejected(f"{st.label} is destroyed")
    quota, classes = cycles.station_quota(ctx.state, station)
    if not quota:
        raise ActionRejected(f"{st.label} is neither a fortress nor a fortified station")
    if loss not in [r["id"] for r in cycles.replacement_candidates(ctx.state, station)]:
        raise ActionRejected(
            f"{loss} cannot be replaced at {st.label} (it takes {', '.join(classes)}; "
            "militia, shatter drones and misjumped ships are never replaced)"
        )
    day = int(ctx.clock.get("day", 0))
    used = [r for r in losses(ctx.state, "UPF") if r.get("at") == station and r.get("ordered") == day]
    if len(used) >= quota:
        raise ActionRejected(f"{st.label} has already given its {quota} replacement(s)")
    rec = ctx.record("losses", loss)
    rec.update(replacement="pending", at=station, ordered=day)
    ctx.summary(f"{rec['name']} ({rec['cls']}) will be rebuilt at {st.label}")


@action(
    "cancel_replacement",
    "Cancel a UPF replacement",
    Param("loss", "record", record="losses"),
    side="UPF",
    available=lambda s: None if s.step == "REPLACEMENT_PHASE" else "only in the replacement phase",
)
def cancel_replacement(ctx: Ctx, loss: str) -> None:
    """Take back a replacement chosen in this phase."""
    rec = ctx.record("losses", loss)
    if rec.get("side") != "UPF" or rec.get("replacement") != "pending":
        raise ActionRejected(f"{loss} is not a pending UPF replacement")
    rec.update(replacement="none", at="", ordered=0)
    ctx.summary(f"{rec['name']}: replacement cancelled")


ACTIONS = (plan_repair, upf_replacement, cancel_replacement)


@action(
    "space_repair",
    "Record an in-space repair (DCR)",
    Param("ship", "unit"),
    Param("hull_points", "int", required=False, default=0, min=0, help="hull points repaired"),
    Param(
        "systems",
        "list",
        required=False,
        default=[],
        help="systems repaired: drives, steering, dcr, ccs, nav, power_short, fire, or LB, T...",
    ),
    Param(
        "hull_failed",
        "bool",
        required=False,
        default=False,
        help="a hull repair failed: the hull can now be repaired only at a station",
    ),
    Param(
        "station_only",
        "list",
        required=False,
        default=[],
        help="systems on which a 99 or 00 was rolled (station repair only)",
    ),
    reference="5.11a, 5.14k",
)
def space_repair(
    ctx: Ctx, ship: str, hull_points: int, systems: list[str], hull_failed: bool, station_only: list[str]
) -> None:
    """Enter the outcome of repairs made in space with the ship's DCR (rolled on the Knight
    Hawks table, or with the helper's dcr_repair): the program keeps the two limits, no more
    hull repair in space after a failure, and 99/00 systems only at a station."""
    u = ctx.state.unit(ship)
    if not alive(u):
        raise ActionRejected(f"{u.label} is destroyed")
    if hull_points and u.status.get("hull_station_only"):
        raise ActionRejected(f"{u.label} failed a hull repair: its hull can only be repaired at a station")
    waiting = set(u.status.get("station_repair", []))
    for job in systems:
        if job in waiting:
            raise ActionRejected(f"{u.label}'s {job} can only be repaired at a station")
        if job not in cycles.damaged_systems(u):
            raise ActionRejected(f"{u.label} has no damaged {job}")
    w = ctx.unit(ship)
    if hull_points:
        w.status["hull_damage"] = max(0, int(w.status.get("hull_damage", 0)) - hull_points)
    for job in systems:
        cycles.restore(ctx, u, job)
    if hull_failed:
        w.status["hull_station_only"] = True
    if station_only:
        w.status["station_repair"] = sorted({*w.status.get("station_repair", []), *station_only})
    ctx.summary(
        f"{u.label}: in-space repair"
        + (f", {hull_points} hull" if hull_points else "")
        + (f", {', '.join(systems)} fixed" if systems else "")
        + (", hull now station-only" if hull_failed else "")
    )


ACTIONS = (*ACTIONS, space_repair)
