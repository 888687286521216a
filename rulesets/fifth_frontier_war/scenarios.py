"""The campaign scenario (digest section 6): the map as world records, every counter of the
order of battle in its starting group, the fleet markers and the initial replacement points."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from campaign_tui.core.model import State
from campaign_tui.core.scenario import Scenario

if TYPE_CHECKING:
    from campaign_tui.core.ruleset import RuleSet

MACHINE = "ffw.campaign"

SCENARIOS = [
    Scenario(
        "campaign",
        "The Fifth Frontier War",
        "The Zhodani Consulate, with the Sword Worlds and the Vargr, strikes the Imperium in the Spinward "
        "Marches on 187-1107. Weekly turns until an automatic victory (a VP difference of 301) or an "
        "armistice. Set-up: secret base, Ine Givar, Imperial then Zhodani deployment, initial plots.",
        ("imperial", "zhodani"),
        "open-ended (weekly turns)",
        MACHINE,
        aliases=("6", "ffw", "war"),
    ),
    Scenario(
        "campaign_optional",
        "The Fifth Frontier War, all optional rules",
        "The same campaign with the four optional rules agreed: Surprise Attack, Black Globes, Jump Troops "
        "and Squadron Quality.",
        ("imperial", "zhodani"),
        "open-ended (weekly turns)",
        MACHINE,
        options={
            "surprise_attack": True,
            "black_globes": True,
            "jump_troops": True,
            "squadron_quality": True,
        },
        aliases=("optional", "9"),
    ),
]

NAVY_WORD = {"imperial": "Imperial", "zhodani": "Zhodani", "sword_worlds": "Sword Worlds", "vargr": "Vargr"}
TYPE_WORD = {
    "A": "assault carrier squadron",
    "B": "battle squadron",
    "C": "cruiser squadron",
    "S": "scout squadron",
    "T": "tanker squadron",
}


def _name(attrs: dict[str, Any], n: int, black_globe: bool) -> str:
    navy = NAVY_WORD.get(str(attrs.get("navy")), "")
    if attrs.get("kind") == "squadron":
        word = "black-globe squadron" if black_globe else TYPE_WORD[str(attrs["sq_type"])]
        return f"{navy} {word} {n}"
    factor = int(attrs.get("factor", 0))
    text = f"{factor // 100}C" if factor >= 100 and factor % 100 == 0 else str(factor)
    return f"{navy} {text}-factor {attrs.get('size', 'unit')} {n}"


def build(rs: RuleSet, scenario: Scenario, options: dict[str, Any]) -> State:
    b = rs.builder(scenario, options)
    b.side("imperial", "Third Imperium", color="red")
    b.side("zhodani", "Zhodani Consulate, Sword Worlds and Vargr", color="blue")
    world_data = rs.load_data("worlds.toml")
    for hexid, w in world_data["worlds"].items():
        rec = dict(w)
        rec.update(
            {
                "initial_controller": w["controller"],
                "sdb_loss": 0,
                "db_loss": 0,
                "sdb_mode": "",
                "red_opened": False,
                "surrendered": False,
            }
        )
        b.record("worlds", hexid, rec)
    b.var("xboat_routes", [dict(r) for r in world_data.get("xboat_routes", [])])
    b.var("map_provenance", dict(world_data.get("provenance", {})))
    catalog = rs.catalog()
    oob = rs.load_data("oob.toml")
    for cs in oob["counters"]:
        utype = catalog.type(cs["type"])
        labels = list(cs.get("labels", []))
        homes = list(cs.get("homes", []))
        for i in range(int(cs["count"])):
            n = int(cs["start"]) + i
            uid = f"{cs['prefix']}-{n:02d}" if int(cs["start"]) else str(cs["prefix"])
            name = (
                labels[i] if i < len(labels) else _name(utype.attrs, n, bool(utype.attrs.get("black_globe")))
            )
            attrs: dict[str, Any] = {"category": cs["category"]}
            data: dict[str, Any] = {}
            if i < len(homes) and homes[i]:
                attrs["home"] = homes[i]
                if cs.get("home_provenance"):
                    data["home_provenance"] = dict(cs["home_provenance"])
            b.unit(uid, cs["side"], cs["type"], name, location=cs["where"], attrs=attrs, data=data)
    for adm in oob["admirals"]:
        b.unit(adm["id"], adm["side"], adm["type"], catalog.type(adm["type"]).name, location=adm["where"])
    for w in oob["warrant"]:
        b.unit(w["id"], w["side"], w["type"], "The Warrant", location=w["where"])
    for m in oob["fleet_markers"]:
        status = "available" if m["navy"] in ("sword_worlds", "vargr") else "group"
        b.record(
            "fleet_markers",
            m["id"],
            {"side": m["side"], "navy": m["navy"], "name": m["name"], "status": status},
        )
    tables = rs.tables()
    for side, table in (("imperial", "T19"), ("zhodani", "T20")):
        t = tables.get(table)
        b.ledger(
            side,
            squadron_rp=int(t.lookup(turn=0, type="squadron").value),
            troop_rp=int(t.lookup(turn=0, type="troop").value),
        )
    b.var("roles", {})
    return b.state
