"""Building a scenario's starting position (digest 6) from ``data/scenarios.toml`` and T20."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State
from campaign_tui.core.scenario import Builder
from campaign_tui.core.tables import TableSet

# T20 columns -> unit types (Sup is the formation's Supply counter, not a unit: G51)
T20_TYPES = {
    "Lt": "light_cohort",
    "Med": "medium_cohort",
    "Hy": "heavy_cohort",
    "Inf": "infantry_cohort",
    "Art": "artillery_cohort",
    "HQ M+": "manus_primus_hq",
    "HQ M": "manus_hq",
    "HQ L": "legion_hq",
    "Sig": "signal_century",
    "AD": "air_defense",
    "C Eng": "combat_engineer",
    "Eng": "construction_engineer",
}
CODES = {
    "light_cohort": "lt",
    "medium_cohort": "med",
    "heavy_cohort": "hy",
    "infantry_cohort": "inf",
    "artillery_cohort": "art",
    "manus_primus_hq": "hqp",
    "manus_hq": "hqm",
    "legion_hq": "hql",
    "auxilia_hq": "hqa",
    "signal_century": "sig",
    "air_defense": "ad",
    "combat_engineer": "ceng",
    "construction_engineer": "eng",
    "marine_cohort": "mar",
    "militia_regiment": "mil",
    "garrison_legion": "gar",
}
COMBAT_ORDER = ("heavy_cohort", "medium_cohort", "light_cohort", "infantry_cohort", "artillery_cohort")
SIDE_NAMES = {"TOG": ("Terran Overlord Government", "red"), "CW": ("Commonwealth / Renegade Legion", "blue")}


def next_tf_number(state: State, org_id: str) -> int:
    used = {
        int(f.status.get("number", 0))
        for f in state.formations.values()
        if f.kind == "tf" and f.parent == org_id
    }
    n = 1
    while n in used:
        n += 1
    return n


def t20_units(tables: TableSet, row: str, side: str, kind: str, air_defense: bool) -> list[str]:
    """Unit types of one standard formation (T20), in T20 column order."""
    table = tables.get("formations")
    out: list[str] = []
    for col in table.axes[1].labels:
        if col in ("Sup", "TF"):
            continue
        count = int(table.lookup(formation=row, unit=col).value)
        utype = T20_TYPES[col]
        if col == "AD" and not air_defense:
            continue
        if utype == "legion_hq" and kind != "legion":
            utype = "auxilia_hq"
        if utype == "manus_primus_hq" and side == "TOG":
            utype = "manus_hq"  # TOG turns the Manus-plus equipment into a fifth Manus HQ
        out.extend([utype] * count)
    return out


def _short(name: str) -> str:
    return name.split()[0]


def group_into_tfs(units: list[tuple[str, str]], limit: int) -> list[list[str]]:
    """A starting arrangement: two combat units to a task force, HQs, Signal and engineer
    Centuries spread one at a time (the players rearrange it secretly in set-up)."""
    combat = sorted((u for u in units if u[1] in COMBAT_ORDER), key=lambda u: COMBAT_ORDER.index(u[1]))
    support = [u for u in units if u[1] not in COMBAT_ORDER]
    groups: list[list[str]] = [[c[0] for c in combat[i : i + 2]] for i in range(0, len(combat), 2)] or [[]]
    while len(groups) > limit:
        extra = groups.pop()
        groups[-1].extend(extra)
    hqs = [u for u in support if u[1] in ("legion_hq", "auxilia_hq")] + [
        u for u in support if u[1] in ("manus_primus_hq", "manus_hq")
    ]
    rest = [u for u in support if u not in hqs]
    for i, u in enumerate(hqs):
        groups[i % len(groups)].append(u[0])
    by_kind: dict[str, list[str]] = {}
    for uid, utype in rest:
        by_kind.setdefault(utype, []).append(uid)
    for ids in by_kind.values():
        for i, uid in enumerate(ids):
            groups[i % len(groups)].append(uid)
    return [g for g in groups if g]


def build_org(
    b: Builder, tables: TableSet, spec: dict[str, Any], options: dict[str, Any], arrives: int | None = None
) -> None:
    side = spec["side"]
    kind = spec["kind"]
    org = spec["id"]
    start = spec.get("start", "map")
    data = {k: spec[k] for k in ("areas", "line", "no_water", "t20") if k in spec}
    data["start"] = "reserve" if arrives else start
    f = b.formation(org, side, spec["name"], kind, visibility="counter")
    f.data.update(data)
    types = t20_units(tables, spec["t20"], side, kind, bool(options.get("air_defense", True)))
    counts: dict[str, int] = {}
    made: list[tuple[str, str]] = []
    for utype in types:
        counts[utype] = counts.get(utype, 0) + 1
        uid = f"{org}-{CODES[utype]}{counts[utype]}"
        name = f"{_short(spec['name'])} {b.catalog.type(utype).name} {counts[utype]}"
        supply = 0
        if utype == "legion_hq":
            supply = int(tables.get("storage").lookup(holder="Legion HQ").value)
        elif utype == "auxilia_hq":
            supply = int(tables.get("storage").lookup(holder="Auxilia HQ").value)
        udata: dict[str, Any] = {"org": org}
        if arrives:
            udata["arrives"] = arrives
        b.unit(uid, side, utype, name, org, data=udata, supply=supply)
        made.append((uid, utype))
    if start != "map" or arrives:
        return
    limit = int(options.get("legion_tf_limit", 18)) if kind == "legion" else 6
    for i, group in enumerate(group_into_tfs(made, limit), start=1):
        fid = f"{org}-tf{i}"
        b.formation(
            fid, side, f"TF {i} ({spec['name']})", "tf", parent=org, visibility="counter", fatigue=0, number=i
        )
        for uid in group:
            b.state.units[uid].formation = fid


def build_independents(b: Builder, spec: dict[str, Any]) -> None:
    side = spec["side"]
    org = spec["org"]
    if org not in b.state.formations:
        kind = "militia" if spec["type"] == "militia_regiment" else "garrison"
        f = b.formation(org, side, spec["org_name"], kind)
        f.data.update({k: spec[k] for k in ("areas", "line", "no_water") if k in spec})
        f.data["start"] = spec.get("start", "map")
    utype = spec["type"]
    for n in range(1, int(spec["count"]) + 1):
        uid = f"{org}-{CODES[utype]}{n}"
        name = f"{b.catalog.type(utype).name} {n} ({side})"
        if spec.get("start") == "outsystem":
            b.unit(uid, side, utype, name, org, data={"org": org})
            continue
        fid = f"ind-{uid}"
        b.formation(fid, side, name, "independent", parent=org, fatigue=0)
        b.unit(uid, side, utype, name, fid, data={"org": org})


def _base_supply(b: Builder, tables: TableSet, utype: str) -> int:
    t = b.catalog.type(utype)
    if t.attrs.get("base_class") == "GL":
        return int(tables.get("storage").lookup(holder=f"GL{t.attrs['rating']}").value)
    return int(t.attrs.get("capacity", 0))


def build_bases(
    b: Builder,
    tables: TableSet,
    specs: list[dict[str, Any]],
    counters: dict[str, int],
    arrives: int | None = None,
) -> None:
    for spec in specs:
        for _ in range(int(spec.get("count", 1))):
            side = spec["side"]
            utype = spec["type"]
            counters[side] = counters.get(side, 0) + 1
            uid = f"{side.lower()}-{utype}-{counters[side]}"
            t = b.catalog.type(utype)
            name = f"{side} {utype.upper()} #{counters[side]}"
            data: dict[str, Any] = {}
            location = None
            outsystem = spec.get("start") == "outsystem" or arrives
            if "sector" in spec:
                data["sector"] = spec["sector"]
                if spec.get("segment") is not None:
                    data["segment"] = int(spec["segment"])
                    location = f"orbit:{spec['sector']}/{spec['segment']}"
                elif spec["sector"] not in ("3,2",):
                    data["needs_segment"] = True
                data["placed"] = "segment" in data
                name += f" at ({spec['sector']})"
            if "area" in spec:
                data["area"] = int(spec["area"])
                data.setdefault("sector", "3,2")
                data.setdefault("segment", int(spec["area"]))
                data["placed"] = False
                data["needs_hex"] = True
                location = None
                name += f" (area {spec['area']})"
            if outsystem:
                data = {"outsystem": True, "placed": False}
                if arrives:
                    data["arrives"] = arrives
                location = None
            fbox = (
                f"{side}-functional"
                if outsystem
                and t.attrs.get("base_class") != "GL"
                and f"{side}-functional" in b.state.formations
                else None
            )
            b.unit(
                uid,
                side,
                utype,
                name,
                fbox,
                location,
                data=data,
                supply=0 if outsystem else _base_supply(b, tables, utype),
            )


def naval_frame(b: Builder) -> None:
    for side in ("TOG", "CW"):
        b.formation(f"{side}-fleet", side, f"{side} naval task forces", "fleet", visibility="counter")
        b.formation(
            f"{side}-functional",
            side,
            f"{side} Outsystem: Functional Naval Units",
            "box",
            parent=f"{side}-fleet",
            visibility="counter",
        )
        b.formation(
            f"{side}-destroyed",
            side,
            f"{side} Outsystem: Destroyed Naval Units",
            "box",
            parent=f"{side}-fleet",
            visibility="counter",
        )


def _naval_units(b: Builder, spec: dict[str, Any], counters: dict[str, int]) -> list[str]:
    side = spec["side"]
    made = []
    for utype, count in spec["units"].items():
        for _ in range(int(count)):
            counters[utype] = counters.get(utype, 0) + 1
            n = counters[utype]
            uid = f"{side.lower()}-{utype.replace(side.lower() + '_', '')}-{n}"
            while uid in b.state.units:
                n += 1
                uid = f"{side.lower()}-{utype.replace(side.lower() + '_', '')}-{n}"
            t = b.catalog.type(utype)
            attrs = (
                {"independent": True}
                if spec.get("independent") and t.attrs.get("kind") == "fighter"
                else None
            )
            name = f"{t.name.split(' (')[0]} {n} ({_short(spec['name'])})"
            supply = int(t.attrs.get("ftr", 0)) if t.attrs.get("kind") == "transport" else 0
            b.unit(uid, side, utype, name, None, attrs=attrs, data={"group": spec["id"]}, supply=supply)
            made.append(uid)
    return made


def _new_naval_tf(
    b: Builder, side: str, numbers: dict[str, int], location: str | None, group: str, **status: Any
) -> str:
    numbers[side] = numbers.get(side, 0) + 1
    n = numbers[side]
    fid = f"{side.lower()}-ntf{n}"
    b.formation(
        fid,
        side,
        f"Naval TF {n} ({side})",
        "naval_tf",
        parent=f"{side}-fleet",
        location=location,
        visibility="counter",
        fatigue=0,
        number=n,
        **status,
    )
    b.state.formations[fid].data["group"] = group
    return fid


def build_fleets(b: Builder, specs: list[dict[str, Any]], scenario_id: str) -> None:
    counters: dict[str, int] = {}
    numbers: dict[str, int] = {}
    convoy: dict[str, list[str]] = {}
    for spec in specs:
        units = _naval_units(b, spec, counters)
        side = spec["side"]
        start = spec.get("start", "map")
        if spec.get("convoy"):
            convoy.setdefault(side, []).extend(units)
            continue
        if start == "held":
            box = f"{side}-held"
            if box not in b.state.formations:
                b.formation(
                    box,
                    side,
                    f"{side} theatre reserve ({spec['name']})",
                    "box",
                    parent=f"{side}-fleet",
                    visibility="counter",
                )
            for uid in units:
                b.state.units[uid].formation = box
            continue
        location = "outsystem" if start == "outsystem" else None
        fid = _new_naval_tf(b, side, numbers, location, spec["id"])
        b.state.formations[fid].name = f"Naval TF {numbers[side]} ({spec['name']})"
        for uid in units:
            b.state.units[uid].formation = fid
    for side, units in convoy.items():
        transports = [
            u for u in units if b.catalog.type(b.state.units[u].type).attrs.get("kind") == "transport"
        ]
        flights = [u for u in units if u not in transports]
        tfs = []
        for i, t in enumerate(transports):
            box = i + 1 if i < 6 else None
            location = "tspace" if box else ("outsystem" if i == len(transports) - 1 else None)
            status = {"tspace_box": box} if box else {}
            fid = _new_naval_tf(b, side, numbers, location, "convoy", **status)
            b.state.units[t].formation = fid
            tfs.append(fid)
        for i, uid in enumerate(flights):
            b.state.units[uid].formation = tfs[i % len(tfs)]


def build_marines(b: Builder, specs: list[dict[str, Any]]) -> None:
    for spec in specs:
        for n in range(1, int(spec["count"]) + 1):
            uid = f"{spec['side'].lower()}-mar{n}"
            b.unit(
                uid,
                spec["side"],
                "marine_cohort",
                f"Marine Cohort {n} ({spec['side']})",
                None,
                data={"needs_base": True},
            )


def build_reinforcements(
    b: Builder,
    tables: TableSet,
    specs: list[dict[str, Any]],
    options: dict[str, Any],
    base_counters: dict[str, int],
) -> list[dict[str, Any]]:
    schedule: list[dict[str, Any]] = []
    for spec in specs:
        side = spec["side"]
        if spec.get("every_turn"):
            last = int(options.get(spec.get("to_option", ""), spec.get("to", 1)))
            org = "cwmil" if spec["what"] == "militia_regiment" else f"{side.lower()}-reinf"
            if org not in b.state.formations:
                b.formation(org, side, "Commonwealth Militia", "militia")
            for t in range(int(spec.get("from", 1)), last + 1):
                uid = f"{org}-{CODES[spec['what']]}{t}"
                b.unit(
                    uid,
                    side,
                    spec["what"],
                    f"{b.catalog.type(spec['what']).name} {t} ({side})",
                    org,
                    data={"org": org, "arrives": t, "place": spec.get("place", "")},
                )
            schedule.append(
                {
                    "side": side,
                    "what": f"1 {spec['what'].replace('_', ' ')} a turn",
                    "turns": [int(spec.get("from", 1)), last],
                }
            )
            continue
        turn = int(spec["turn"])
        if "naval" in spec:
            box = f"{side}-held"
            if box not in b.state.formations:
                b.formation(
                    box,
                    side,
                    f"{side} reinforcements not yet arrived",
                    "box",
                    parent=f"{side}-fleet",
                    visibility="counter",
                )
            made = _naval_units(
                b, {"side": side, "units": spec["naval"], "id": f"reinf{turn}", "name": "Reinforcements"}, {}
            )
            for uid in made:
                b.state.units[uid].formation = box
                b.state.units[uid].data["arrives"] = turn
            schedule.append(
                {
                    "side": side,
                    "turn": turn,
                    "what": ", ".join(f"{n} {t.upper()}" for t, n in spec["naval"].items()),
                }
            )
        if "org" in spec:
            org = dict(spec["org"], side=side)
            build_org(b, tables, org, options, arrives=turn)
            schedule.append({"side": side, "turn": turn, "what": org["name"]})
        if "bases" in spec:
            for utype, n in spec["bases"].items():
                build_bases(
                    b, tables, [{"side": side, "type": utype, "count": n}], base_counters, arrives=turn
                )
            schedule.append(
                {
                    "side": side,
                    "turn": turn,
                    "what": ", ".join(f"{n} {t.upper()}" for t, n in spec["bases"].items()),
                }
            )
    return schedule


def build_state(plugin: Any, scenario: Any, options: dict[str, Any]) -> State:
    data = plugin.load_data("scenarios.toml")
    try:
        spec = data["scenarios"][scenario.id]
    except KeyError:
        raise InvalidInput(f"no data for scenario {scenario.id}") from None
    tables = plugin.tables()
    b = plugin.builder(scenario, options)
    for side in ("TOG", "CW"):
        name, color = SIDE_NAMES[side]
        b.side(side, name, color)
        b.ledger(side, vp=0)
    first = spec["first_attacker"]
    game = spec["game"]
    b.var("game", game)
    b.var("scenario", scenario.id)
    b.var("max_turns", int(spec["turns"]))
    order = list(spec.get("setup_order", ["CW", "TOG"]))
    b.var("roles", {"attacker": first, "defender": "CW" if first == "TOG" else "TOG", "setup": order[0]})
    b.var("setup_order", list(spec.get("setup_order", ["CW", "TOG"])))
    b.var("track", {"moved": 0, "counter": 0})
    b.var("btca", {"TOG": 0, "CW": 0})
    b.var("kills", {"TOG": 0, "CW": 0})
    b.var("bodies", data["system"]["bodies"])
    b.var("belts", data["system"].get("belts", []))
    if spec.get("income"):
        b.var("income", spec["income"])
    if spec.get("bombardment"):
        b.var("bombardment", True)
    if spec.get("rebuild_limit"):
        b.var("rebuild_limit", spec["rebuild_limit"])
    if spec.get("delivery"):
        b.var("delivery", spec["delivery"])
    if game in ("space", "campaign"):
        naval_frame(b)
    for org in spec.get("orgs", []):
        build_org(b, tables, org, options)
    for ind in spec.get("independents", []):
        build_independents(b, ind)
    base_counters: dict[str, int] = {}
    build_bases(b, tables, spec.get("bases", []), base_counters)
    if spec.get("fleets"):
        build_fleets(b, spec["fleets"], scenario.id)
    build_marines(b, spec.get("marines", []))
    schedule = build_reinforcements(b, tables, spec.get("reinforcements", []), options, base_counters)
    if schedule:
        b.var("reinforcements", schedule)
    return b.state
