"""Combat actions of the standard sequence: offensive fire [6.0]-[6.3], defensive fire
[6.4], melee [7.0]-[8.4] with retreat before combat [17.0] and contact [18.0]."""

from __future__ import annotations

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.decisions import Decision
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from rulesets.prestags import candidates as C
from rulesets.prestags import carriers, exclusive, hexmap, movement
from rulesets.prestags.common import Info, frac, ftext, info, other, stamp, units_at

# rule modules: imported at the first call of one of their functions
combat = later("rulesets.prestags.combat")
crt = later("rulesets.prestags.crt")
panic = later("rulesets.prestags.panic")
results = later("rulesets.prestags.results")


def _pick(ctx: Ctx, ids: list[str], side: str, what: str) -> list[Info]:
    if not ids:
        raise ActionRejected(f"name the {what}")
    used = set(ctx.var("used", []))
    out = []
    for uid in dict.fromkeys(ids):
        u = ctx.state.unit(uid)
        if u.side != side:
            raise ActionRejected(f"{u.label} is not a unit of {ctx.state.sides[side].name}")
        if uid in used:
            raise ActionRejected(f"{u.label} has already taken part in an attack this phase [6.15], [7.14]")
        out.append(info(ctx.state, ctx.ruleset, uid))
    return out


def _target(ctx: Ctx, raw: str, side: str) -> str:
    h = hexmap.canon(ctx.state, raw)
    if not combat.defenders_in(ctx.state, side, h):
        raise ActionRejected(f"{h} holds no enemy unit")
    return h


def _fire(ctx: Ctx, firers: list[str], target: str, defensive: bool) -> None:
    side = ctx.role("non_phasing" if defensive else "phasing")
    units = _pick(ctx, firers, side, "firing units")
    thrown = []
    for n, f in enumerate(units):
        u = ctx.state.unit(f.id)
        if not f.is_fire and exclusive.francisca_ready(ctx.state, u):
            if not defensive:
                raise ActionRejected(f"{f.label}: the francisca is thrown in defensive fire only [V1.3]")
            if u.status.get("disrupted") or u.status.get("panicked"):
                raise ActionRejected(f"{f.label} cannot fire: disrupted or panicked [8.2], [13.0]")
            units[n] = exclusive.as_francisca(f)
            thrown.append(f.id)
            ctx.explain(f"{f.label} throws its francisca: strength 3, once a game [V1.0]")
            continue
        why = combat.fire_block(ctx.state, ctx.ruleset, f.id)
        if why:
            raise ActionRejected(f"{f.label} cannot fire: {why}")
        if defensive and int(u.status.get("last_fire", 0) or 0) == stamp(ctx.state):
            raise ActionRejected(f"{f.label} has made its defensive fire this Player-Turn [6.4]")
    h = _target(ctx, target, side)
    done = "df_hexes" if defensive else "fired_hexes"
    if h in ctx.var(done, []):
        raise ActionRejected(f"{h} has already been fired on in this phase [6.15], [6.45]")
    if defensive and h not in ctx.var("entered", []):
        raise ActionRejected(f"no enemy unit moved into {h} this Movement Phase [6.42]")
    if defensive and ctx.state.step == "MOVE" and not carriers.fleet_under_fire(ctx.state, h):
        raise ActionRejected("during the Movement Phase defensive fire reaches only a Viking fleet that "
                             "moved next to the firer [V3.21]; the rest comes after movement [6.4]")
    plan = combat.plan_fire(ctx, units, h, defensive)
    kind = "defensive fire" if defensive else "fire"
    reading = combat.roll_fire(ctx, plan, side, f"{kind}: {', '.join(f.label for f in units)} -> {h}")
    eff = results.apply(ctx, reading.result, [h], "fire", other(side))
    combat.mark_fired(ctx, [f for f in units if f.id not in thrown], offensive=not defensive)
    for uid in thrown:
        ctx.unit(uid).status["francisca_used"] = True  # no longer a fire unit [V1.2], [V1.4]
    ctx.edit_var("used", []).extend(f.id for f in units)
    ctx.edit_var(done, []).append(h)
    if eff.vacated and ctx.options.get("fire_advance") and not defensive:
        near = [f for f in units if hexmap.adjacent(ctx, str(f.hex), h, "advance after fire (G-13)")]
        combat.offer_advance(ctx, near, h, side, h, f"{h}:{stamp(ctx.state)}")
    panic.check(ctx, other(side))
    ctx.summary(
        f"{kind.capitalize()} on {h}: {ftext(plan.attack)} vs {ftext(plan.fps)}, "
        f"{reading.column}, row {reading.row} -> {reading.result}"
    )


@action(
    "fire",
    "Fire at a hex",
    Param("firers", "units", help="the firing units", candidates=C.own_units),
    Param("target", "hex", help="the target hex", board=hexmap.board, candidates=C.enemy_hexes),
    side="phasing",
    key="f",
    reference="6.0",
)
def fire(ctx: Ctx, firers: list[str], target: str) -> None:
    """Fire Combat: the units' fire strengths together against the target hex's Fire
    Protection Strength [6.21], [6.22]. Range counts the target hex [3.35]; the GM rules on
    each line of sight [6.34]."""
    _fire(ctx, firers, target, defensive=False)


@action(
    "defensive_fire",
    "Defensive fire",
    Param("firers", "units", help="the firing units", candidates=C.own_units),
    Param("target", "hex", help="an adjacent hex an enemy unit moved into", board=hexmap.board,
          candidates=C.enemy_hexes),
    side="non_phasing",
    key="f",
    reference="6.4",
)
def defensive_fire(ctx: Ctx, firers: list[str], target: str) -> None:
    """After the enemy's movement, fire units that did not fire in the previous Player-Turn
    may fire at an adjacent hex an enemy unit entered; each hex once [6.42], [6.43], [6.45]."""
    _fire(ctx, firers, target, defensive=True)


# -- melee ------------------------------------------------------------------------------------------
def _check_melee(ctx: Ctx, attackers: list[Info], targets: list[str]) -> None:
    for a in attackers:
        why = combat.melee_block(ctx.state, ctx.ruleset, a.id)
        if why:
            raise ActionRejected(f"{a.label} cannot attack: {why}")
    done = ctx.var("meleed_hexes", [])
    for t in targets:
        if carriers.sailing_only(ctx.state, t):
            raise ActionRejected(f"{t}: a fleet under sail cannot be attacked in melee [V3.28], [V3.5]")
        if t in done:
            raise ActionRejected(f"{t} has already been attacked in melee this Player-Turn [7.13]")
    for a in attackers:
        for t in targets:
            if not hexmap.adjacent(ctx, str(a.hex), t, f"melee by {a.label}"):
                raise ActionRejected(
                    f"{a.label} in {a.hex} is not next to {t}: every attacker must be "
                    "adjacent to every defending hex [7.23]"
                )
            if ctx.options.get("facing"):
                f = int(ctx.state.unit(a.id).status.get("facing", -1))
                if f >= 0 and not hexmap.in_front(ctx, str(a.hex), f, t, f"melee by {a.label}"):
                    raise ActionRejected(f"{a.label} does not front on {t} [16.0]")


def retreats(ctx: Ctx, attackers: list[Info], targets: list[str], side: str) -> list[str]:
    """Retreat before combat [17.0]-[17.5]: defenders at least 3 MP faster (printed) than the
    fastest attacker may step back one hex first. Returns the units that left."""
    fastest = max(info(ctx.state, ctx.ruleset, a.id).ma for a in attackers)
    enemy = other(side)
    now = stamp(ctx.state)
    received = ctx.var("rbc_received", [])
    gone = []
    for t in targets:
        if t in received:
            continue
        for u in sorted(units_at(ctx.state, t), key=lambda x: x.id):
            if u.side != enemy:
                continue
            d = info(ctx.state, ctx.ruleset, u)
            printed = d.ma
            if (
                printed - fastest < 3
                or int(u.status.get("rbc_ret", 0) or 0) == now
                or int(u.status.get("contact", 0) or 0)
                or u.status.get("disrupted")
            ):
                continue
            answer = str(
                ctx.decide(
                    Decision(
                        id=f"retreat:{u.id}",
                        kind="text",
                        side=enemy,
                        default="stay",
                        prompt=f"{d.label} (MA {ftext(printed)}) may retreat before combat one hex: "
                        f"give the hex, or 'stay'",
                        info=(
                            f"fastest attacker MA {ftext(fastest)}; a margin of 3 or more allows it [17.0]",
                            "the hex must be passable, free of enemy units and within stacking limits [17.1]",
                        ),
                    )
                )
            )
            if answer.strip().lower() in ("", "stay", "no"):
                continue
            dest = hexmap.canon(ctx.state, answer)
            if not hexmap.adjacent(ctx, t, dest, "retreat before combat"):
                raise ActionRejected(f"{dest} is not next to {t} [17.0]")
            if any(x.side == side for x in units_at(ctx.state, dest)):
                raise ActionRejected(f"{dest} holds enemy units (G-14)")
            terr, elev = hexmap.terrain(ctx, dest, "retreat"), hexmap.elevation(ctx, dest, "retreat")
            why = movement.prohibited_for(ctx, d.klass, terr, elev)
            if why:
                raise ActionRejected(f"retreat to {dest}: {why} [17.1]")
            problem = movement.hex_problem(ctx, enemy, dest, [d])
            if problem:
                raise ActionRejected(f"retreat to {dest}: {problem} [17.1]")
            movement.place(ctx, u.id, dest)
            ctx.unit(u.id).status["rbc_ret"] = now
            ctx.edit_var("rbc_received", []).append(dest)
            movement.mark_control(ctx, [dest])
            ctx.explain(f"{d.label} retreats before combat from {t} to {dest} [17.0]")
            gone.append(u.id)
    return gone


@action(
    "melee",
    "Melee attack",
    Param("attackers", "units", help="the attacking units", candidates=C.in_contact),
    Param("targets", "list", help="the defending hex(es)", candidates=C.contact_hexes),
    Param(
        "flank",
        "choice",
        choices=("auto", "yes", "no"),
        required=False,
        default="auto",
        help="flank attack [7.51]: worked out (or asked) by default; yes/no is a GM override",
    ),
    Param(
        "shift",
        "int",
        required=False,
        default=0,
        min=-4,
        max=4,
        help="GM column shift from a rule the program does not apply (Alexander and Viking ferocity "
        "are applied automatically)",
    ),
    Param(
        "die_mod",
        "int",
        required=False,
        default=0,
        min=-2,
        max=2,
        help="GM die modifier from an exclusive rule",
    ),
    Param(
        "capability",
        required=False,
        default="1",
        help="GM-entered unit capability multiplier on the defence (games without a chart)",
    ),
    Param("reason", required=False, default="", help="why a GM adjustment applies"),
    side="phasing",
    key="m",
    reference="7.0",
)
def melee(
    ctx: Ctx,
    attackers: list[str],
    targets: list[str],
    flank: str,
    shift: int,
    die_mod: int,
    capability: str,
    reason: str,
) -> None:
    """Melee Combat: attackers adjacent to every defending hex combine their strengths
    against the hexes' combined defence [7.21]-[7.23]; leaders add their bonus, a flank
    attack doubles last; odds below 1-2 are refused [8.1]."""
    side = ctx.role("phasing")
    units = _pick(ctx, attackers, side, "attacking units")
    hexes = [_target(ctx, t, side) for t in dict.fromkeys(targets)]
    if not hexes:
        raise ActionRejected("name the defending hex(es)")
    _check_melee(ctx, units, hexes)
    cap = frac(capability or "1")
    if (shift or die_mod or cap != 1) and reason:
        ctx.explain(f"GM adjustment: {reason}")
    plan = combat.plan_melee(ctx, units, hexes, side, flank=flank, cap_mult=cap)
    ex = exclusive.melee_adjust(ctx, units, hexes, side)  # Alexander, Viking ferocity
    shift += ex.shift
    crt.odds_column(ctx.tables, ctx.options, plan.attack, plan.defence, shift)  # refuse below 1-2
    ctx.edit_var("used", []).extend(a.id for a in units)
    ctx.edit_var("meleed_hexes", []).extend(hexes)
    purpose = f"melee: {', '.join(a.label for a in units)} -> {'/'.join(hexes)}"
    if ctx.options.get("retreat_before_combat") and retreats(ctx, units, hexes, side):
        remaining = [t for t in hexes if combat.defenders_in(ctx.state, side, t)]
        if not remaining:
            for t in hexes:
                moved = combat.offer_advance(ctx, units, t, side, f"rbc:{t}",
                                               f"rbc:{t}:{stamp(ctx.state)}")
                for uid in moved:
                    ctx.unit(uid).status["rbc_adv"] = stamp(ctx.state)
            ctx.summary(f"Melee on {'/'.join(hexes)} called off: the defenders retreated [17.0]")
            return
        if ctx.options.get("rbc_recompute", True):
            ctx.explain("odds recomputed against the defenders who stayed (G-14)")
            plan = combat.plan_melee(ctx, units, remaining, side, flank=flank, cap_mult=cap)
            try:
                crt.odds_column(ctx.tables, ctx.options, plan.attack, plan.defence, shift)
            except ActionRejected as exc:
                ctx.explain(
                    f"{exc}; the attack is called off and the attackers count as having attacked (G-14)"
                )
                ctx.summary(f"Melee on {'/'.join(hexes)} called off after retreats")
                return
        else:
            plan.targets = remaining
            plan.disrupted = {t: plan.disrupted.get(t, False) for t in remaining}
        hexes = remaining
    readings = combat.roll_melee(ctx, plan, side, purpose, shift, die_mod, ex.die)
    eff = results.Effects()
    for r in readings:
        eff.merge(results.apply(ctx, r.result, r.hexes, "melee", other(side)))
    after_melee(ctx, units, hexes, eff, side)
    panic.check(ctx, other(side))
    shown = "; ".join(f"{'/'.join(r.hexes)} row {r.row} -> {r.result}" for r in readings)
    ctx.summary(
        f"Melee on {'/'.join(hexes)}: {ftext(plan.attack)} vs {ftext(plan.defence)}, "
        f"{readings[0].column}: {shown}"
    )


def after_melee(ctx: Ctx, units: list[Info], hexes: list[str], eff: results.Effects, side: str) -> None:
    if (
        ctx.options.get("contact")
        and not eff.hit
        and not (eff.nullified and not ctx.options.get("contact_nullified_d", True))
    ):
        ids = [a.id for a in units if ctx.state.unit(a.id).status.get("state") == "active"]
        ids += [u.id for t in hexes for u in units_at(ctx.state, t) if u.side != side]
        if ids:
            results.start_contact(ctx, ids)
    for t in eff.vacated:
        combat.offer_advance(ctx, units, t, side, t, f"{t}:{stamp(ctx.state)}")
