"""Set-up actions: telling the program about the map, and deploying [11.1], [5.3], [5.4]."""

from __future__ import annotations

import re

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.model import State
from rulesets.prestags import candidates as C
from rulesets.prestags import carriers, hexmap, movement
from rulesets.prestags.common import side_data, units_of

_ZONE = re.compile(r"^([A-Z]|\d{3,})-(\d+)$")


@action(
    "map_hexes",
    "Record map facts",
    Param("facts", help="e.g. '0405 woods slope road; M=1207; 0405-0507 2'"),
    key="h",
    reference="G-27",
    help="Tell the program what the map shows, so it does not ask again. Entries are separated "
    "by ';' or new lines: 'HEX terrain [ground|slope|hilltop] [road] [edge:N] [river:NAME]' "
    "describes a hex (river:NAME: the river it lies on, for fleets); 'M=1207' puts a lettered "
    "reference hex on the numbered grid; 'HEX-HEX n' gives "
    "the distance between two hexes (1 = adjacent).",
)
def map_hexes(ctx: Ctx, facts: str) -> None:
    done = []
    for raw in re.split(r"[;\n]", facts):
        entry = raw.strip()
        if not entry:
            continue
        if "=" in entry:
            letter, number = (x.strip() for x in entry.split("=", 1))
            ctx.put_record("letters", hexmap.check(ctx.state, letter, "lettered hex"),
                           {"hex": hexmap.check(ctx.state, number)})
            done.append(f"{letter}={number}")
            continue
        words = entry.split()
        if "-" in words[0] and len(words) == 2 and words[1].isdigit():
            a, b = (hexmap.check(ctx.state, x) for x in words[0].split("-", 1))
            d = int(words[1])
            lo, hi = sorted((a, b))
            ctx.put_record("pairs", f"{lo}|{hi}", {"d": d, "adj": d == 1})
            done.append(f"{a}-{b} {d}")
            continue
        h = words[0]
        facts_: dict[str, object] = {}
        edges: list[str] = []
        for w in words[1:]:
            low = w.lower()
            if low in hexmap.ELEVATIONS:
                facts_["elevation"] = low
            elif low == "road":
                facts_["road"] = True
            elif low.startswith("river:") and len(w) > 6:
                facts_["river"] = w[6:]
            elif low.startswith("edge:"):
                edges.append(w[5:].upper())
            elif low in hexmap.TERRAINS or low in hexmap.ALIASES:
                facts_["terrain"] = low
            else:
                raise InvalidInput(
                    f"{entry!r}: {w!r} is not a terrain, an elevation, 'road', edge:X or river:NAME"
                )
        if edges:
            facts_["edges"] = sorted({*hexmap.known_hex(ctx.state, h).get("edges", []), *edges})
        hexmap.record_hex(ctx, h, **facts_)
        done.append(h)
    if not done:
        raise ActionRejected("nothing to record")
    ctx.summary(f"Map facts recorded: {', '.join(done)}")


def in_zone(ctx: Ctx, uid: str, h: str) -> None:
    """The deployment check [11.1]: within the stated distance of the lettered hex."""
    u = ctx.state.unit(uid)
    zone = str(u.data.get("zone", ""))
    if not zone:
        return
    alts = [z.strip() for z in zone.split("|")]
    for alt in alts:
        m = _ZONE.match(alt)
        if m and hexmap.within(ctx, m.group(1), h, int(m.group(2)), f"deployment area {alt}"):
            return
    texts = [a for a in alts if not _ZONE.match(a)]
    if texts:
        group = u.data.get("group", 0)
        ok = ctx.ruling(
            f"zone:{u.side}{group}:{h}", f"Is hex {h} inside the deployment area: {' or '.join(texts)}?"
        )
        if ok:
            return
    raise ActionRejected(f"{u.label}: {h} is outside its deployment area ({zone}) [11.1]")


def _placements(
    units: list[str] | None, hex_: str, text: str, facing: int
) -> list[tuple[str, int, list[str]]]:
    out: list[tuple[str, int, list[str]]] = []
    if units:
        if not hex_:
            raise ActionRejected("give the hex to deploy the units in")
        out.append((hex_, facing, list(units)))
    for raw in re.split(r"[;\n]", text or ""):
        if not raw.strip():
            continue
        if ":" not in raw:
            raise InvalidInput(f"{raw.strip()!r}: write HEX: unit, unit")
        h, rest = raw.split(":", 1)
        face = facing
        if "/" in h:
            h, f = h.split("/", 1)
            if not f.strip().isdigit() or not 0 <= int(f) <= 5:
                raise InvalidInput(f"{raw.strip()!r}: the facing after / is 0-5")
            face = int(f)
        out.append((h.strip(), face, [x.strip() for x in re.split(r"[,\s]+", rest) if x.strip()]))
    if not out:
        raise ActionRejected("nothing to deploy: give units and hex, or placements")
    return out


@action(
    "deploy",
    "Deploy units",
    Param("units", "units", required=False, help="units to place", candidates=C.waiting_units),
    Param("hex", "hex", required=False, default="", help="the hex to place them in",
          board=hexmap.board),
    Param(
        "placements",
        required=False,
        default="",
        help="several hexes at once: 'HEX: unit, unit; HEX/FACING: unit'",
    ),
    Param(
        "facing", "int", required=False, default=-1, min=-1, max=5, help="facing hexside 0-5 (Facing rule)"
    ),
    side="deploying",
    key="d",
    reference="11.1",
)
def deploy(
    ctx: Ctx, units: list[str] | None = None, hex: str = "", placements: str = "", facing: int = -1
) -> None:
    """Set units on the map within the scenario's deployment area; stacking limits and
    class compatibility hold in every hex [5.3], [5.4]."""
    side = ctx.role("deploying")
    moved: list[str] = []
    spots = _placements(units, hex, placements, facing)
    for h_raw, face, ids in spots:
        h = hexmap.canon(ctx.state, h_raw)
        for uid in ids:
            u = ctx.state.unit(uid)
            if u.side != side:
                raise ActionRejected(f"{u.label} belongs to {ctx.state.sides[u.side].name}")
            if u.status.get("state") not in ("reserve", "active"):
                raise ActionRejected(f"{u.label} is {u.status.get('state')}")
            in_zone(ctx, uid, h)
            w = ctx.unit(uid)
            w.location = f"hex:{h}"
            w.status["state"] = "active"
            if ctx.options.get("facing"):
                if face < 0 and int(w.status.get("facing", -1)) < 0:
                    raise ActionRejected(
                        "with the Facing rule give each unit a facing (0-5), e.g. '0506/3: unit' [16.0]"
                    )
                if face >= 0:
                    w.status["facing"] = face
            moved.append(uid)
        for rider, carrier in carriers.load_at_deploy(ctx.state, side, h):
            ctx.unit(rider.id).status["aboard"] = carrier.id
            ctx.explain(f"{rider.label} goes aboard {carrier.label} [C1.0], [V3.14]")
        problem = movement.hex_problem(ctx, side, h)
        if problem:
            raise ActionRejected(problem)
    movement.mark_control(ctx, [hexmap.canon(ctx.state, h) for h, _f, _ids in spots])
    ctx.summary(f"{ctx.state.sides[side].name} deploys {len(moved)} unit(s)")


def undeployed(state: State, side: str) -> list[str]:
    """Units still waiting to be placed (sides that enter from an edge may leave units off)."""
    if side_data(state, side).get("enter"):
        return []
    return [u.id for u in units_of(state, side, ("reserve",))]


def deployment_missing(state: State) -> str | None:
    side = state.vars.get("roles", {}).get("deploying")
    if not side:
        return None
    left = undeployed(state, side)
    if left:
        return (
            f"{state.sides[side].name} still has {len(left)} unit(s) to deploy: "
            + ", ".join(left[:8])
            + ("..." if len(left) > 8 else "")
        )
    from rulesets.prestags import plugin

    problems = movement.stacking_problems(state, plugin, side)
    return "; ".join(problems) if problems else None
