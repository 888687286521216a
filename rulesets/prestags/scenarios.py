"""Scenarios: the five games' battles from the data files, built into campaigns [11.1].

One campaign is one battle. Each scenario belongs to one game; its unit types must carry
that game's letter in their games code [3.4]. Units start off the map ("reserve") and are
placed in the deployment steps; a side that enters by a map edge brings them on by
movement from the Game-Turn the scenario names. PRESTAGS has no reinforcements [11.1].
"""

from __future__ import annotations

from typing import Any

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import State
from campaign_tui.core.provenance import Provenance
from campaign_tui.core.scenario import Builder, Scenario
from rulesets.prestags.common import SIDES, parse_units, vp_value
from rulesets.prestags.phases import SIMULTANEOUS, STANDARD
from rulesets.prestags.victory import parse_alternative

GAMES = {"C": "Chariot", "S": "Spartan", "L": "Legion", "V": "Viking", "Y": "Yeoman", "": "any game"}
FILES = ("chariot", "spartan", "legion", "viking", "yeoman", "training")


def load(ruleset: Any) -> list[Scenario]:
    out = []
    for name in FILES:
        data = ruleset.load_data(f"scenarios/{name}.toml")
        game = str(data.get("game", ""))
        prov = Provenance.from_data(data.get("provenance", "default"))
        for sid, body in data.get("scenarios", {}).items():
            entry = dict(body)
            entry["game"] = game
            entry.setdefault("provenance", prov.to_dict())
            if entry.get("scan"):
                entry["provenance"] = {
                    **entry["provenance"],
                    "note": entry["provenance"].get("note", "") + f"; also read from a scan: {entry['scan']}",
                }
            a, b = _side(entry, "a"), _side(entry, "b")
            case = str(entry.get("case", ""))
            title = (
                f"{GAMES[game]} {case}: {entry['title']} ({entry.get('date', '')})"
                if game
                else entry["title"]
            )
            desc = (
                f"{a['name']} against {b['name']}, {entry['length']} Game-Turns. "
                f"{entry.get('terrain', '')} {entry.get('special', '')}"
            ).strip()
            aliases = (f"{game}{case}",) if game else (case,)
            out.append(
                Scenario(
                    sid,
                    title,
                    desc,
                    (a["name"], b["name"]),
                    f"{entry['length']} Game-Turns",
                    STANDARD,
                    data=entry,
                    aliases=aliases,
                    provenance=Provenance.from_data(entry["provenance"]).describe(),
                )
            )
    return out


def _side(entry: dict[str, Any], key: str) -> dict[str, Any]:
    side = dict(entry[key])
    if "groups" not in side:
        side["groups"] = [{"deploy": side.get("deploy", ""), "units": side.get("units", "")}]
    return side


def computed_vp(ruleset: Any, units: str) -> int:
    """The army's worth from the counters: each unit's VP, each leader 1 (G-9, EXT-CALC)."""
    catalog = ruleset.catalog()
    total = 0
    for code, count, grade in parse_units(units):
        t = catalog.type(code).attrs
        total += count * (1 if grade else vp_value(t.get("melee"), str(t.get("melee_kind")), t.get("fire")))
    return total


def build(ruleset: Any, scenario: Scenario, options: dict[str, Any]) -> State:
    entry = scenario.data
    machine = ruleset.machine(SIMULTANEOUS if options.get("simultaneous") else STANDARD)
    b = Builder(ruleset.catalog(), machine.id, machine.start)
    b.options(options)
    b.clock(gt=1, **({} if options.get("simultaneous") else {"pt": 1}))
    game = str(entry.get("game", ""))
    victory: dict[str, list[str]] = {}
    catalog = ruleset.catalog()
    for sid, key in zip(SIDES, ("a", "b"), strict=True):
        side = _side(entry, key)
        zones = [g.get("deploy", "") for g in side["groups"]]
        all_units = " ".join(g["units"] for g in side["groups"])
        data = {
            "force": sid,
            "printed_vp": side.get("vp"),
            "computed_vp": computed_vp(ruleset, all_units),
            "panic_level": side.get("pl"),
            "stacking": side.get("stacking", 1),
            "type_stacking": side.get("type_stacking", {}),
            "mounted_exempt": bool(side.get("mtex")),
            "deploy": " / ".join(z for z in zones if z),
            "deploy_text": side.get("deploy", " / ".join(zones)),
            "enter": side.get("enter", ""),
            "enter_gt": side.get("enter_gt", 0),
            "enter_note": side.get("enter_note", ""),
            "panic_state": "none",
            "conceded": False,
        }
        b.side(sid, str(side["name"]), "red" if sid == "A" else "blue", **data)
        b.ledger(sid, vp=0)
        alts = list(side.get("victory", []))
        for alt in alts:
            parse_alternative(alt)
        victory[sid] = alts
        counts: dict[str, int] = {}
        ma_over = side.get("ma", {})
        for gi, group in enumerate(side["groups"]):
            for code, count, grade in parse_units(group["units"]):
                utype = catalog.type(code)
                games = str(utype.attrs.get("games", ""))
                if game and game not in games:
                    raise InvalidInput(
                        f"scenario {scenario.id}: {code} is not a unit of {GAMES[game]} (games {games}) [3.4]"
                    )
                for _ in range(count):
                    tag = "ldr" if grade else code.lower()
                    counts[tag] = counts.get(tag, 0) + 1
                    n = counts[tag]
                    uid = f"{sid.lower()}-{tag}-{n:02d}"
                    name = f"{side['name']} leader {n}" if grade else f"{side['name']} {code} {n}"
                    attrs = {"ma": ma_over[code]} if code in ma_over else None
                    status: dict[str, Any] = {"state": "reserve"}
                    if grade:
                        status["grade"] = grade
                    b.unit(
                        uid,
                        sid,
                        code,
                        name,
                        attrs=attrs,
                        data={"zone": group.get("deploy", ""), "group": gi},
                        **status,
                    )
    first = str(entry.get("first", "A"))
    deploys_first = str(entry.get("deploys_first", first))
    other_first = "B" if first == "A" else "A"
    other_deploy = "B" if deploys_first == "A" else "A"
    b.var(
        "roles",
        {
            "first": first,
            "second": other_first,
            "phasing": first,
            "non_phasing": other_first,
            "deploy_first": deploys_first,
            "deploy_second": other_deploy,
        },
    )
    b.var("game", game)
    b.var("exclusive", _exclusive(b.state, dict(entry.get("exclusive", {}))))
    b.var("game_length", int(entry["length"]))
    b.var("victory", victory)
    b.var("both", str(entry.get("both", "draw")))
    b.var("neither", str(entry.get("neither", "draw")))
    b.var("terrain_mods", dict(entry.get("mods", {})))
    if entry.get("default_terrain"):
        b.var("default_terrain", entry["default_terrain"])
    if entry.get("no_leader_radius"):
        b.var("no_leader_radius", True)
    b.var(
        "scenario",
        {
            "id": scenario.id,
            "title": entry["title"],
            "case": entry.get("case", ""),
            "game_name": GAMES[game],
            "date": entry.get("date", ""),
            "terrain": entry.get("terrain", ""),
            "special": entry.get("special", ""),
            "provenance": scenario.provenance,
        },
    )
    return b.state


def _exclusive(state: State, given: dict[str, Any]) -> dict[str, Any]:
    """The scenario's exclusive rules: Alexander and Darius are their sides' grade-1 leaders
    (Spartan [3.1], [3.2]), Viking ferocity names the Vikings' side (Viking [3.6]), the
    francisca the Franks' (Viking [1.0])."""
    out: dict[str, Any] = {}
    for name in ("alexander", "darius"):
        side = str(given.get(name, ""))
        if side:
            chief = [
                u.id
                for u in state.units.values()
                if u.side == side and int(u.status.get("grade", 0) or 0) == 1
            ]
            if len(chief) != 1:
                raise InvalidInput(f"the {name.capitalize()} rule needs one grade-1 leader on side {side}")
            out[name] = chief[0]
    for name in ("ferocity", "francisca"):
        if given.get(name):
            out[name] = str(given[name])
    return out
