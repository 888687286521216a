"""Quick set-up: the whole of set-up (S1-S4) in one action, fleets formed, ready to plot.

Rule 6 places most counters by the order of battle's rules, not at printed hexes, so this is
the quick start the rules allow: the secret base on the first legal world, the Ine Givar on
Efate (3), Ruie (1) and the first legal worlds, a Zhodani strike group (the fast regular
squadrons) staged at Clan on the Jewell border, every other waiting counter at its default
station (deploy_rest), and the squadrons at each station formed into fleets with the navy's
initial fleet markers (largest groups first), so turn 1 can reach a battle: the strike fleet
jumps to Jewell (3 parsecs) and meets the 214th Fleet and Jewell's SDBs. The choices that are
the players' (secret base, guerrillas, fleets) are defaults, said so in the log; the GM
adjusts them with the usual actions afterwards.
"""

from __future__ import annotations

from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected
from campaign_tui.core.later import later
from campaign_tui.core.model import State
from rulesets.fifth_frontier_war.actions_org import _assign, form_fleet
from rulesets.fifth_frontier_war.actions_setup import deploy, deploy_rest
from rulesets.fifth_frontier_war.game import Game

# rule modules: imported at the first call of one of their functions
setup_rules = later("rulesets.fifth_frontier_war.setup_rules")
reinforcements = later("rulesets.fifth_frontier_war.reinforcements")

STAGING = "1507"  # Clan
NAVIES = {"imperial": ("imperial",), "zhodani": ("zhodani", "sword_worlds", "vargr")}


def why_not(state: State) -> str | None:
    if state.step != "SETUP_OPTIONS":
        return "set-up has begun (quick set-up is offered at the first set-up step)"
    return None


def _secret_base(ctx: Ctx) -> None:
    g = Game.of(ctx)
    for hexid in sorted(ctx.state.records("worlds")):
        if setup_rules.secret_base_problem(g, hexid) is None:
            ctx.set_secret("zhodani", "secret_base", hexid)
            ctx.explain("Zhodani secret base: the first legal world in hex order (default, secret)")
            return
    raise ActionRejected("no world may be the secret base")


def _guerrillas(ctx: Ctx) -> None:
    g = Game.of(ctx)
    from rulesets.fifth_frontier_war.setup_rules import EFATE, RUIE

    counts = {EFATE: 3, RUIE: 1}
    for hexid in sorted(ctx.state.records("worlds")):
        if sum(counts.values()) >= 10:
            break
        if hexid not in counts and not setup_rules.guerrilla_problems(g, {hexid: 1, **counts}
                                                                          )[1:]:
            counts[hexid] = 1
    counts[EFATE] += 10 - sum(counts.values())
    from rulesets.fifth_frontier_war.actions_setup import place_guerrillas

    place_guerrillas.handler(ctx, ",".join(f"{h}:{n}" for h, n in counts.items()))
    ctx.explain("Ine Givar: 3 on Efate, 1 on Ruie, one each on the first legal worlds (default)")


def _strike_group(ctx: Ctx) -> None:
    """A default staging (rule 6 lets the Zhodani place anywhere in their territory; the
    rulebook prints no positions): the regular Zhodani battle, cruiser and assault squadrons
    of jump 3 or more, with the most senior admiral drawn, at Clan on the Jewell border, 3
    parsecs from Jewell and 2 from Mongo (the bundled example's staging world); the rest at
    the default stations. The GM moves them afterwards with gm.place (a logged edit), or
    undoes the quick set-up and deploys by hand."""
    g = Game.of(ctx)
    waiting = setup_rules.waiting(g, "zhodani")
    fast = [u.id for u in waiting if g.kind(u) == "squadron" and g.navy(u) == "zhodani"
            and g.a(u, "category") == "regular" and g.face(u).type in ("B", "C", "A")
            and g.face(u).jump >= 3]
    admirals = sorted((u for u in waiting if g.kind(u) == "admiral" and g.navy(u) == "zhodani"
                       and not u.data.get("loaned")), key=lambda a: (g.precedence(a), a.id))
    if not fast:
        return
    deploy.handler(ctx, fast, STAGING, False)
    deploy.handler(ctx, [a.id for a in admirals[:1]], STAGING, False)
    ctx.explain(f"{len(fast)} Zhodani squadrons of jump 3 or more staged at Clan ({STAGING}), "
                "on the Jewell border (default)")


def _form_fleets(ctx: Ctx, side: str) -> int:
    g = Game.of(ctx)
    formed = 0
    for navy in NAVIES[side]:
        groups: dict[str, list[str]] = {}
        for s in g.squadrons(side=side):
            if g.navy(s) == navy and s.formation is None and g.in_play(s):
                groups.setdefault(s.location or "", []).append(s.id)
        free = reinforcements.markers(g, navy, "available")
        for place, ids in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            if not free:
                break
            form_fleet.handler(ctx, free.pop(0), sorted(ids), "")
            ctx.explain(f"fleet formed at {place} with {len(ids)} squadron(s) (default)")
            formed += 1
    _admirals(ctx, side)
    return formed


def _admirals(ctx: Ctx, side: str) -> None:
    """5.18: at each place the senior admiral commands the largest fleet he may command."""
    g = Game.of(ctx)
    for place in sorted({f.location for f in g.fleets(side=side) if f.location}):
        adms = g.admirals(place, side)
        for navy in sorted({g.command_navy(a) for a in adms}):
            mine = sorted((a for a in adms if g.command_navy(a) == navy),
                          key=lambda a: (g.precedence(a), a.id))
            eligible = sorted((f for f in g.fleets(place, side)
                               if g.may_command(mine[0], g.fleet_ships(f.id))),
                              key=lambda f: (-len(g.fleet_ships(f.id)), f.id))
            for a, f in zip(mine, eligible):
                if g.commander(f.id) is None:
                    _assign(ctx, g, a.id, f.id, True)
                    ctx.explain(f"{a.label} commands {f.name} (seniority)")


def run(ctx: Ctx) -> None:
    ctx.advance()
    _secret_base(ctx)
    ctx.advance()
    _guerrillas(ctx)
    ctx.advance()  # the Imperial draws
    fleets = 0
    for side in ("imperial", "zhodani"):
        if side == "zhodani":
            _strike_group(ctx)
        deploy_rest.handler(ctx, side)
        fleets += _form_fleets(ctx, side)
        ctx.advance()
    ctx.summary(f"Quick set-up: secret base, Ine Givar and every counter placed by default; "
                f"{fleets} fleets formed; {ctx.step.title} next")
