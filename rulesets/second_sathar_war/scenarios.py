"""The ready-made campaigns (digest 6): the rules' start, and the seed campaign.

* ``standard``    the rule pages' orders of battle at set-up (6.1);
* ``seed_start``  the same start under the seed campaign's house rules, with its three
                  Sathar fleets (Devastator, Prime Kill, Warbird) formed and named (6.3);
* ``seed_day13``  the seed campaign as its records leave it on day 13 (6.3-6.6).

UPF ship names come from the seed's name pools (Part D) in order; which named ship served in
which force is not recorded, so the assignment is the program's.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from campaign_tui.core.model import State
from campaign_tui.core.scenario import Builder, Scenario

from .fdm import initial_records
from .locations import planet

MACHINE = "second_sathar_war.campaign"

HOUSE_RULES: dict[str, Any] = {
    "replacements": True,
    "shatter_drones": False,
    "skills": False,
    "tactical_rules": "advanced",
    "misjump_effect": "displaced",
    "station_autodestroy": True,
    "defensive_fire_timing": "immediate",
    "militia_attack_rule": "any_one_ship",
    "roll_observer_required": True,
    "flee_risk_jump": True,
    "lenient_rj": True,
    "fdm_lengths": "rounded_up",
}

SCENARIOS = [
    Scenario(
        "standard",
        "SWII standard start",
        "The Second Sathar War from the rule pages: the UPF task forces, militias and stations "
        "at their posts, Strike Force NOVA off the map, 67 Sathar ships waiting to enter from "
        "their start circles. Options at their rules defaults.",
        ("SATHAR", "UPF"),
        "open-ended: until a Sathar victory or the Sathar retreat",
        MACHINE,
        aliases=("6.1", "swii", "rules"),
    ),
    Scenario(
        "seed_start",
        "SWII seed campaign: game beginning (house rules)",
        "The recorded campaign from its start: the same orders of battle, the seed campaign's "
        "house rules preset (replacements, Advanced rules without skills, displaced misjumps, "
        "automatic station destruction...) and its three Sathar fleets formed and named.",
        ("SATHAR", "UPF"),
        "open-ended",
        MACHINE,
        options=dict(HOUSE_RULES),
        aliases=("6.3", "house", "house_rules"),
    ),
    Scenario(
        "seed_day13",
        "SWII seed campaign (Day 13)",
        "The recorded campaign as its log leaves it on day 13: five stations down, Warbird at "
        "K'aken Kar, Prime Kill at Kizk'-Kar, Devastator facing TF Cassidine and two militias "
        "at Dramune for the announced 'major battle', TF Prenglar and Strike Force NOVA "
        "on their way to Cassidine. The Sathar first seal their retreat condition.",
        ("SATHAR", "UPF"),
        "open-ended (resumes on day 13)",
        MACHINE,
        options=dict(HOUSE_RULES),
        aliases=("6.4", "6.5", "6.6", "day13", "seed_campaign"),
    ),
]


@cache
def _oob() -> dict[str, Any]:
    from rulesets.second_sathar_war import plugin

    return plugin.load_data("oob.toml")


def fighter_letters() -> list[str]:
    return list(_oob()["names"]["upf"]["fighter_letters"])


def condition_text(n: int) -> str:
    from rulesets.second_sathar_war import plugin

    table = plugin.tables().get("T13")
    if 1 <= n <= len(table.cells):
        return str(table.cells[n - 1][0]).capitalize() + "."
    return "(no condition chosen)"


CLASS_ORDER = ("BB", "AC", "HC", "LC", "ML", "DD", "FF", "AS", "F")


class _Names:
    """Hands out the UPF name pools in order (letter + name, as in Part D)."""

    def __init__(self) -> None:
        self.pools = {k: list(v) for k, v in _oob()["names"]["upf"].items() if k != "fighter_letters"}
        self.fighters = 0
        self.extra: dict[str, int] = {}

    def next(self, cls: str) -> tuple[str, str]:
        if cls == "F":
            self.fighters += 1
            return f"upf-f{self.fighters:02d}", f"Fighter {self.fighters}"
        if not self.pools.get(cls):
            self.extra[cls] = self.extra.get(cls, 0) + 1
            n = self.extra[cls]
            return f"upf-{cls.lower()}-x{n}", f"UPF {cls} {n} (no name in the pool)"
        entry = self.pools[cls].pop(0)
        letter, name = entry.split(" ", 1)
        return f"upf-{cls.lower()}-{letter.lower()}", f"{name} ({cls} {letter})"


def build(plugin: Any, scenario: Scenario, options: dict[str, Any]) -> State:
    b = plugin.builder(scenario, options)
    b.side("UPF", "United Planetary Federation", color="blue")
    b.side("SATHAR", "Sathar", color="red")
    routes, circles = initial_records(str(options.get("fdm_lengths", "rounded")))
    for rid, r in routes.items():
        b.record("routes", rid, r)
    for cid, c in circles.items():
        b.record("circles", cid, c)
    _stations(b, options)
    b.var("roles", {})
    b.var("today", {"moved": [], "attacked": [], "fought": [], "placed": {}})
    b.var("attack_queue", [])
    b.var("observers", {})
    b.var("players", {})
    b.secret("SATHAR", "retreat_condition", 0)
    if scenario.id == "seed_day13":
        _seed_day13(b, options)
    else:
        _militia(b, options)
        _upf_start(b, options)
        if scenario.id == "seed_start":
            _sathar_seed_fleets(b, "start", "reserve")
        else:
            _sathar_standard(b, options)
        b.var("sfn_placed", False)
    return b.state


# -- pieces ---------------------------------------------------------------------------------------
def _stations(b: Builder, options: dict[str, Any]) -> None:
    for sid, st in _oob()["stations"].items():
        pid = st["planet"]
        if options.get("armed_station_list") == "transcription":
            if sid == "outer-reach":
                continue
            if sid == "ruperts-hole":
                pid = "outer-reach"
        b.unit(f"st-{sid}", "UPF", st["type"], st["name"], location=planet(pid))


def _militia(
    b: Builder, options: dict[str, Any], only: dict[str, tuple[str, dict[str, int]]] | None = None
) -> None:
    from .fdm import static_systems

    _, planets = static_systems()
    data = _oob()
    extra = (
        data["militia_transcription"]["extra_ships"]
        if options.get("militia_variant") == "transcription"
        else {}
    )
    colours = (
        data["militia_transcription"]["colours"] if options.get("militia_variant") == "transcription" else {}
    )
    for home, body in data["militia"].items():
        ships = dict(body["ships"])
        for cls, n in extra.get(home, {}).items():
            ships[cls] = ships.get(cls, 0) + n
        at = home
        if only is not None:
            if home not in only:
                continue
            at, ships = only[home]
        fid = f"mil-{home}"
        name = f"{planets[home].name} militia"
        b.formation(
            fid, "UPF", name, "militia", location=planet(at), colours=colours.get(home, body["colours"])
        )
        for cls in ("DD", "FF", "AS"):
            for n in range(1, ships.get(cls, 0) + 1):
                b.unit(
                    f"{fid}-{cls.lower()}{n}", "UPF", cls, f"{planets[home].name} {cls} {n}", fid, home=home
                )


def _force_ships(b: Builder, names: _Names, fid: str, counts: dict[str, int], capacity: int = 8) -> list[str]:
    ids = []
    carriers = []
    for cls in CLASS_ORDER:
        for _ in range(counts.get(cls, 0)):
            uid, name = names.next(cls)
            if cls == "F":
                host = next((c for c in carriers if _load(b, c) < capacity), "")
                b.unit(uid, "UPF", cls, name, fid, aboard=host)
            else:
                b.unit(uid, "UPF", cls, name, fid)
                if cls == "AC":
                    carriers.append(uid)
            ids.append(uid)
    return ids


def _load(b: Builder, carrier: str) -> int:
    return sum(1 for u in b.state.units.values() if u.status.get("aboard") == carrier)


def _upf_start(b: Builder, options: dict[str, Any]) -> None:
    data = _oob()
    forces = {k: dict(v) for k, v in data["upf"].items()}
    variant = str(options.get("tf_prenglar_variant", "seed"))
    if variant != "seed":
        for key, ships in data["upf_variants"][variant].items():
            forces[key]["ships"] = dict(ships)
    names = _Names()
    for key, f in forces.items():
        where = f["start"]
        loc = where if where in ("offmap", "unassigned") else planet(where)
        fid = f"upf-{key}"
        b.formation(
            fid, "UPF", f["name"], f["kind"], location=loc, visibility="counter" if key == "sfn" else "public"
        )
        _force_ships(b, names, fid, f["ships"], int(options.get("carrier_capacity", 8)))


def _sathar_standard(b: Builder, options: dict[str, Any]) -> None:
    data = _oob()["sathar"]
    counts = dict(data["ships"])
    counts["LC"] = int(options.get("sathar_lc_count", "7"))
    b.formation("sathar-reserve", "SATHAR", "Sathar reserve (off the map)", "reserve", location="reserve")
    for i, name in enumerate(data["fleets"], 1):
        b.formation(f"sathar-fleet-{i}", "SATHAR", name, "fleet", location="reserve")
    for cls in ("AC", "HC", "LC", "DD", "FF", "F"):
        for n in range(1, counts.get(cls, 0) + 1):
            b.unit(f"sat-{cls.lower()}{n:02d}", "SATHAR", cls, f"Sathar {cls} {n}", "sathar-reserve")


def _sathar_seed_fleets(b: Builder, column: str, where: str | dict[str, str]) -> None:
    fleets = _oob()["seed"]["fleets"]
    b.formation("sathar-reserve", "SATHAR", "Sathar reserve (off the map)", "reserve", location="reserve")
    for key, fl in fleets.items():
        loc = where if isinstance(where, str) else where[key]
        fid = f"sat-{key}"
        b.formation(fid, "SATHAR", fl["name"], "fleet", location=loc)
        counts = fl[column]
        carriers = []
        for cls in ("AC", "HC", "LC", "DD", "FF"):
            pool = list(fl["names"].get(cls, []))
            for n in range(counts.get(cls, 0)):
                name = pool[n] if n < len(pool) else f"{fl['name']} {cls} {n + 1}"
                uid = f"{fid}-{cls.lower()}{n + 1}"
                b.unit(uid, "SATHAR", cls, name, fid)
                if cls == "AC":
                    carriers.append(uid)
        for n in range(counts.get("F", 0)):
            host = carriers[n % len(carriers)] if carriers else ""
            b.unit(f"{fid}-f{n + 1:02d}", "SATHAR", "F", f"{fl['name']} fighter {n + 1}", fid, aboard=host)


# -- the seed campaign on day 13 (6.3-6.6) ----------------------------------------------------------
SEED_TRANSIT = "madderlys-star-cassidine"


def _seed_day13(b: Builder, options: dict[str, Any]) -> None:
    data = _oob()["seed"]
    b.clock(day=13)
    b.var("sfn_placed", True)
    b.var("resume_step", "SATHAR_DECLARE")
    names = _Names()
    where = {
        "tf-cassidine": planet("inner-reach"),
        "tf-prenglar": f"transit:{SEED_TRANSIT}:4:cassidine",
        "sfn": f"transit:{SEED_TRANSIT}:4:cassidine",
        "group": f"transit:{SEED_TRANSIT}:3:cassidine",
    }
    for key, f in data["upf"].items():
        fid = f"upf-{key}"
        b.formation(
            fid,
            "UPF",
            f["name"],
            f["kind"],
            location=where[key],
            moved=13,
            rate=1,
            order={"kind": "go", "dest": "cassidine", "rate": 1, "groups": "all"}
            if key != "tf-cassidine"
            else {"kind": "hold"},
        )
        _force_ships(b, names, fid, f["ships"], int(options.get("carrier_capacity", 8)))
    # militias where the status board puts them; the Terledrom, Zik-kit and Ken'zah Kit militias
    # were destroyed (their ships are created and recorded as losses below)
    _militia(
        b,
        options,
        only={
            "gollywog": ("gollywog", {"AS": 3, "FF": 1}),
            "minotaur": ("gollywog", {"AS": 4, "FF": 1, "DD": 1}),
            "hargut": ("morgaines-world", {"AS": 2}),
            "pale": ("pale", {"AS": 3, "FF": 1}),
            "hentz": ("hentz", {"AS": 3, "FF": 1}),
            "inner-reach": ("inner-reach", {"AS": 3, "FF": 1, "DD": 1}),
            "outer-reach": ("outer-reach", {"AS": 2, "FF": 2}),
            "terledrom": ("terledrom", {"AS": 3, "FF": 1}),
            "zik-kit": ("zik-kit", {"AS": 2}),
            "kenzah-kit": ("kenzah-kit", {"AS": 2}),
        },
    )
    for u in b.state.units.values():
        if u.formation and u.formation.startswith("mil-"):
            b.state.formations[u.formation].status.update(moved=13)
    _sathar_seed_fleets(
        b,
        "start",
        {
            "devastator": planet("inner-reach"),
            "prime-kill": planet("zik-kit"),
            "warbird": planet("kenzah-kit"),
        },
    )
    for key in ("devastator", "prime-kill", "warbird"):
        b.state.formations[f"sat-{key}"].status.update(moved=13, rate=1, order={"kind": "hold"})
    b.state.units["mil-zik-kit-as2"].name = "KZMS Kr'zzt"
    kills = [
        ("kawdl-kit", 6, 1, "Warbird", "B-KTS", "autodestroy", ""),
        ("kenzah-kit", 11, 2, "Warbird", "B-KAK", "combat", ""),
        ("groth", None, 1, "Devastator", "B-FRO", "combat", "day not recorded (before day 11)"),
        ("terledrom", None, 1, "Devastator", "B-FRO", "combat", "day not recorded (before day 11)"),
        (
            "zikit",
            None,
            1,
            "Prime Kill",
            "B-KIZ",
            "combat",
            "probable: the seed's red marker was lost in the OCR (G-34); the GM confirms or restores it "
            "with gm.station",
        ),
    ]
    for sid, day, tenday, by, battle, how, note in kills:
        uid = f"st-{sid}"
        b.state.units[uid].status["destroyed"] = True
        rec = {
            "tenday": tenday,
            "station": uid,
            "name": b.state.units[uid].name,
            "type": b.state.units[uid].type,
            "by": by,
            "battle": battle,
            "how": how,
            "note": note,
        }
        if day is not None:
            rec["day"] = day
        b.record("station_kills", uid, rec)
    lost = [
        ("mil-terledrom-as1", None, 1, "B-FRO"),
        ("mil-terledrom-as2", None, 1, "B-FRO"),
        ("mil-terledrom-as3", None, 1, "B-FRO"),
        ("mil-terledrom-ff1", None, 1, "B-FRO"),
        ("mil-zik-kit-as1", None, 1, "B-KIZ"),
        ("mil-zik-kit-as2", 11, 2, "B-KAK"),
        ("mil-kenzah-kit-as1", 11, 2, "B-KAK"),
        ("mil-kenzah-kit-as2", 11, 2, "B-KAK"),
        ("sat-devastator-f07", None, 1, "B-FRO"),
        ("sat-devastator-f08", None, 1, "B-FRO"),
        ("sat-warbird-f04", 11, 2, "B-KAK"),
        ("sat-warbird-f05", 11, 2, "B-KAK"),
    ]
    for n, (uid, day, tenday, battle) in enumerate(lost, 1):
        u = b.state.units[uid]
        u.status["destroyed"] = True
        u.formation = None
        u.location = "destroyed"
        rec = {
            "tenday": tenday,
            "ship": uid,
            "name": u.name,
            "cls": u.type,
            "side": u.side,
            "militia": bool(u.status.get("home")),
            "fighter": u.type == "F",
            "cause": "combat",
            "battle": battle,
            "replacement": "none",
        }
        if day is not None:
            rec["day"] = day
        else:
            rec["note"] = "day not recorded in the seed (first tenday)"
        b.record("losses", f"L{n}", rec)
    for home in ("zik-kit", "kenzah-kit", "terledrom"):
        b.state.formations.pop(f"mil-{home}", None)
    battles = [
        (
            "B-KTS",
            6,
            "ktsa-kar",
            "kawdl-kit",
            "Warbird",
            "Kawdl-Kit armed station (no militia)",
            "station destroyed; automatic destruction applies (Warbird has a DD with an EB, an AC with a PB)",
        ),
        (
            "B-FRO",
            None,
            "fromeltar",
            "terledrom",
            "Devastator",
            "Groth station; Terledrom station and the Terledrom militia",
            "both stations and the militia destroyed; Devastator lost 2 fighters (day not recorded)",
        ),
        (
            "B-KIZ",
            None,
            "kizk-kar",
            "zik-kit",
            "Prime Kill",
            "Zikit station and the Zik-kit militia (2 AS)",
            "1 AS destroyed, KZMS Kr'zzt fled; the station probably destroyed (day not recorded)",
        ),
        (
            "B-KAK",
            11,
            "kaken-kar",
            "kenzah-kit",
            "Warbird",
            "Ken'zah Kit fortified station, 2 Ken'zah Kit AS, KZMS Kr'zzt",
            "all four defenders destroyed; Warbird lost 2 fighters ('See The Battle of Kaken-Kar', missing)",
        ),
    ]
    for bid, day, system, pid, attacker, defenders, outcome in battles:
        rec = {
            "side": "SATHAR",
            "enemy": "UPF",
            "system": system,
            "planet": pid,
            "status": "done",
            "attacker_name": attacker,
            "defender_text": defenders,
            "rules": "advanced",
            "notes": [outcome, "imported from the seed's records"],
            "results": {},
            "stacks": [],
            "attackers": [],
            "defenders": [],
            "historical": True,
        }
        if day is not None:
            rec["day"] = day
        b.record("battles", bid, rec)
    for n, (day, side, text) in enumerate(SEED_LOG, 1):
        b.record("daylog", f"D{n:02d}", {"day": day, "side": side, "text": text})
    b.var(
        "notes",
        [
            "Devastator is placed at Dramune: the log announces a 'Major Battle in Drammune!' on "
            "day 13 and Devastator is the only Sathar fleet next to it (inferred).",
            "Where each ship of the re-organised UPF forces came from is not recorded.",
        ],
    )


SEED_LOG = [
    (0, "SATHAR", "The Sathar fleets are set on their start circles (which circles is not recorded)."),
    (0, "UPF", "Every non-attached ship joins Task Force Prenglar."),
    (0, "UPF", "Strike Force NOVA appears at Prenglar: a 3 was rolled (Gran Quivera)."),
    (6, "SATHAR", "Warbird destroys the K'tsa-Kar station (Kawdl-Kit). [target destroyed]"),
    (9, "UPF", "KZMS Kr'zzt moves one box toward K'aken Kar: 7 boxes in, 1 day to go."),
    (9, "UPF", "Task Force Cassidine stays in Dramune."),
    (9, "UPF", "Pren/NOVA (10 F, 2 AC, 4 AS, 1 FF, 1 DD, 3 LC, 2 BB, 1 ML) reaches Madderly's Star."),
    (9, "UPF", "A group of 3 AS, 2 FF, 2 DD and 1 LC will reach Madderly's Star in one day."),
    (
        11,
        "SATHAR",
        "Warbird fights the militia AS and the fortified station at K'aken Kar: all four "
        "destroyed, Warbird loses 2 fighters. [target destroyed]",
    ),
    (
        13,
        "UPF",
        "TF Prenglar and SF NOVA are 4 boxes along toward Cassidine, 'ready to RJ2' (their "
        "minelayer holds them to one box a day, G-35).",
    ),
    (13, "UPF", "The group of 3 AS, 2 FF, 2 DD, 1 LC is 3 boxes along toward Cassidine."),
    (13, "UPF", "Every other fleet holds. Major battle announced at Dramune. [ready for combat]"),
]
