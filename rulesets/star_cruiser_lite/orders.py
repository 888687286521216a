"""Turn orders: the document each nation sends every week, read from TOML and checked.

A nation's orders file (see ``data/orders/`` for complete samples) holds::

    [turn]                 nation, month, week
    [tf.AME-2]             one table per task force: detection, movement, attack, target,
                           destination, entry, special, patrols, range, breakoff,
                           contingency, escorts, bombard, land, capture, coordinate,
                           avoid_preemptive, convoy_with, comments
    [facility.AME-F1]      detection, movement, range, breakoff, comments
    [ground.AME-G1]        movement, target, comments
    [resupply]             unit or formation id = source (Week 0: the monthly source;
                           weeks 1-4: a late resupply)
    [[construction]]       Week 0 only: location, item, count, name, modules
    [[political]]          Week 0 only: request
    [[reorganize]]         weeks 1-4 only: ships, from, to (takes effect after detection)

:func:`parse_orders` returns the normalised orders or raises ActionRejected listing every
problem with its line in the file.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from campaign_tui.core.errors import ActionRejected
from rulesets.star_cruiser_lite import ids
from rulesets.star_cruiser_lite.classes import (
    CAPITAL,
    ESCORT_ORDER_STRICT,
    ESCORT_ORDER_WIDE,
    ITEMS,
    NO_RECON,
    SCOUT,
    WARSHIPS,
)
from rulesets.star_cruiser_lite.game import Game

MOVEMENTS = ("move", "attack", "defend", "hold", "escort", "convoy")
ATTACKS = ("tf", "facility", "colony", "convoys", "recon")
SPECIALS = ("mining_deploy", "mining_clear", "repair", "survey", "deploy_facility", "remove_facility")
RANGES = ("long", "short", "long_until_salvoes")
SOURCES = ("auto", "core", "facility", "merchants", "self", "colony", "independent", "other_tf")
BREAKOFF_KEYS = ("damaged_pct", "destroyed_pct", "flagship_lost", "round", "salvoes_spent", "never")
TF_KEYS = (
    "detection",
    "movement",
    "attack",
    "target",
    "destination",
    "entry",
    "special",
    "patrols",
    "range",
    "breakoff",
    "contingency",
    "escorts",
    "bombard",
    "land",
    "capture",
    "coordinate",
    "avoid_preemptive",
    "convoy_with",
    "repair_ships",
    "facility",
    "comments",
    "rules_of_engagement",
    "resupply",
)
FAC_KEYS = (
    "detection",
    "movement",
    "range",
    "breakoff",
    "contingency",
    "comments",
    "rules_of_engagement",
    "resupply",
)
GROUND_KEYS = ("movement", "target", "comments", "resupply")


class Problems:
    """Collects problems, each placed on the line of the file it concerns."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.items: list[tuple[int, str]] = []

    def header_line(self, section: str, key: str | None = None, nth: int | None = None) -> int:
        pat_key = "" if key is None else r"\s*\.\s*\"?" + re.escape(key) + r"\"?"
        if nth is not None:
            pat = re.compile(r"^\s*\[\[\s*" + re.escape(section) + r"\s*\]\]")
            count = -1
            for i, line in enumerate(self.lines, 1):
                if pat.match(line):
                    count += 1
                    if count == nth:
                        return i
            return 0
        pat = re.compile(r"^\s*\[\s*" + re.escape(section) + pat_key + r"\s*\]")
        for i, line in enumerate(self.lines, 1):
            if pat.match(line):
                return i
        if key is not None:  # an inline table under [section]: "AME-2 = { ... }"
            start = self.header_line(section)
            for i in range(start, len(self.lines) + 1):
                if i and re.match(r"^\s*\"?" + re.escape(key) + r"\"?\s*=", self.lines[i - 1]):
                    return i
        return 0

    def line_of(self, path: tuple[Any, ...]) -> int:
        """The line of a section, a table in it, or a key in that table."""
        if not path:
            return 1
        section = str(path[0])
        if len(path) >= 2 and isinstance(path[1], int):
            start = self.header_line(section, nth=path[1])
            rest = path[2:]
        elif len(path) >= 2:
            start = self.header_line(section, str(path[1]))
            rest = path[2:]
            if not start:
                start = self.header_line(section)
                rest = path[1:]
        else:
            start = self.header_line(section)
            rest = ()
        if not start:
            return 1
        if rest:
            key = re.escape(str(rest[0]))
            for i in range(start, len(self.lines)):
                line = self.lines[i]
                if re.match(r"^\s*\[", line):
                    break
                if re.match(r"^\s*\"?" + key + r"\"?\s*=", line):
                    return i + 1
            # a key inside an inline table on the header's own line
            if re.search(r"\b" + key + r"\s*=", self.lines[start - 1]):
                return start
        return start

    def add(self, path: tuple[Any, ...], message: str) -> None:
        self.items.append((self.line_of(path), message))

    def raise_if_any(self, source: str) -> None:
        if self.items:
            body = "\n".join(f"  line {ln}: {msg}" for ln, msg in sorted(self.items))
            n = len(self.items)
            raise ActionRejected(f"{source}: {n} problem{'s' if n > 1 else ''} in the orders\n{body}")


def _str(value: Any) -> str:
    return str(value).strip()


def _norm(value: Any) -> str:
    return _str(value).lower().replace(" ", "_").replace("-", "_")


def _breakoff(raw: Any, where: tuple[Any, ...], p: Problems) -> dict[str, Any]:
    if raw in (None, ""):
        return {}
    if isinstance(raw, str):
        if _norm(raw) == "never":
            return {"never": True}
        p.add(where, "breakoff must be a table such as { damaged_pct = 50, flagship_lost = true }")
        return {}
    if not isinstance(raw, dict):
        p.add(where, "breakoff must be a table such as { damaged_pct = 50, flagship_lost = true }")
        return {}
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k not in BREAKOFF_KEYS:
            p.add(where, f"breakoff: unknown condition {k!r}; use {', '.join(BREAKOFF_KEYS)}")
        elif k in ("damaged_pct", "destroyed_pct", "round"):
            if not isinstance(v, int) or v < 0 or (k != "round" and v > 100):
                p.add(
                    where,
                    f"breakoff: {k} must be a whole number" + (" from 0 to 100" if k != "round" else ""),
                )
            else:
                out[k] = v
        else:
            out[k] = bool(v)
    return out


def parse_toml(text: str, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ActionRejected(f"{source}: not a valid TOML file: {exc}") from None


def blank_orders(g: Any, nation: str) -> dict[str, Any]:
    """A nation's orders for this week with nothing in them yet."""
    return {
        "nation": nation,
        "month": g.month,
        "week": g.week,
        "tf": {},
        "facility": {},
        "ground": {},
        "resupply": {},
        "construction": [],
        "political": [],
        "reorganize": [],
    }


def parse_orders(g: Game, text: str, nation: str | None = None, source: str = "orders") -> dict[str, Any]:
    """Read and check one nation's orders for the current week. Raises ActionRejected."""
    data = parse_toml(text, source)
    p = Problems(text)
    turn = data.get("turn", {})
    if not isinstance(turn, dict):
        p.add(("turn",), "[turn] must be a table with nation, month and week")
        turn = {}
    who = _str(turn.get("nation", nation or "")).upper()
    if not who:
        p.add(("turn",), 'the [turn] table must name the nation (nation = "AME")')
    elif who not in g.state.sides:
        p.add(("turn", "nation"), f"no nation {who!r} in this campaign; nations: {', '.join(g.nations())}")
    elif nation and who != nation.upper():
        p.add(("turn", "nation"), f"these orders are for {who}, not {nation.upper()}")
    month, week = turn.get("month"), turn.get("week")
    if month is not None and (month, week) != (g.month, g.week):
        p.add(
            ("turn", "month"),
            f"these orders are for month {month}, week {week}; the campaign is at month "
            f"{g.month}, week {g.week}",
        )
    known = {"turn", "tf", "facility", "ground", "resupply", "construction", "political", "reorganize"}
    for key in data:
        if key not in known:
            p.add((key,), f"unknown section [{key}]; sections: {', '.join(sorted(known))}")
    p.raise_if_any(source)
    out = blank_orders(g, who)
    week0 = g.week == 0
    for fid, raw in (data.get("tf") or {}).items():
        out["tf"][fid] = _tf_order(g, who, fid, raw, week0, p)
    for fid, raw in (data.get("facility") or {}).items():
        out["facility"][fid] = _simple_order(g, who, fid, raw, "facility", FAC_KEYS, week0, p)
    for fid, raw in (data.get("ground") or {}).items():
        out["ground"][fid] = _simple_order(g, who, fid, raw, "contingent", GROUND_KEYS, week0, p)
    for fid, raw in (data.get("resupply") or {}).items():
        out["resupply"][fid] = _source(g, who, fid, raw, p)
    cons = data.get("construction") or []
    if cons and not week0:
        p.add(("construction", 0), "construction is ordered only in Week 0 orders")
    for i, raw in enumerate(cons):
        item = _construction(g, who, i, raw, p)
        if item:
            out["construction"].append(item)
    pol = data.get("political") or []
    if pol and not week0:
        p.add(("political", 0), "political requests go in the Week 0 orders")
    for i, raw in enumerate(pol):
        text_ = raw.get("request") if isinstance(raw, dict) else raw
        if not text_:
            p.add(("political", i), 'a political request needs request = "..."')
        else:
            out["political"].append({"request": _str(text_)})
    reorg = data.get("reorganize") or []
    if reorg and week0:
        p.add(("reorganize", 0), "task forces cannot be recombined in Week 0; reorganise in weeks 1-4")
    for i, raw in enumerate(reorg):
        item = _reorg(g, who, i, raw, p)
        if item:
            out["reorganize"].append(item)
    p.raise_if_any(source)
    return out


def _own(g: Game, nation: str, fid: str, kind: str, section: str, p: Problems) -> bool:
    f = g.state.formations.get(fid)
    if f is None or f.kind != kind:
        what = {"task_force": "task force", "facility": "facility", "contingent": "ground contingent"}[kind]
        p.add((section, fid), f"{fid}: no {what} with that id" + _id_hint(fid, kind))
        return False
    if f.side != nation:
        p.add((section, fid), f"{fid} belongs to {f.side}, not {nation}")
        return False
    return True


def _id_hint(fid: str, kind: str) -> str:
    try:
        parsed = ids.parse(fid)
    except Exception:
        return " (ids look like AME-2, AME-F2, AME-G2)"
    if parsed.kind != kind:
        return f" ({fid} is a {parsed.kind.replace('_', ' ')} id)"
    return ""


def _tf_order(g: Game, nation: str, fid: str, raw: Any, week0: bool, p: Problems) -> dict[str, Any]:
    where = ("tf", fid)
    if not isinstance(raw, dict):
        p.add(where, f"{fid}: orders must be a table")
        return {}
    if not _own(g, nation, fid, "task_force", "tf", p):
        return {}
    for key in raw:
        if key not in TF_KEYS:
            p.add((*where, key), f"{fid}: unknown order {key!r}")
    tf = g.state.formations[fid]
    ships = g.ships(fid)
    codes = [g.code(u) for u in ships]
    hull_codes = [g.code(u) for u in g.hulls(fid)]
    order: dict[str, Any] = {}
    if week0:
        for key in ("movement", "detection", "attack", "special", "destination"):
            if key in raw:
                p.add((*where, key), f"{fid}: Week 0 has no detection or movement actions")
        order["comments"] = _str(raw.get("comments", ""))
        if "resupply" in raw:
            order["resupply"] = _source(g, nation, fid, raw["resupply"], p, (*where, "resupply"))
        return order
    det = _norm(raw.get("detection", "no_attack")).replace("do_not_attack", "no_attack")
    if det not in ("attack", "no_attack"):
        p.add((*where, "detection"), f'{fid}: detection action must be "attack" or "no_attack"')
    order["detection"] = det
    mv = _norm(raw.get("movement", "hold"))
    if mv not in MOVEMENTS:
        p.add((*where, "movement"), f"{fid}: movement must be one of {', '.join(MOVEMENTS)}")
        return order
    order["movement"] = mv
    ftac = g.ftac(fid)
    kafer = g.kafer(nation)
    if mv == "attack":
        att = _norm(raw.get("attack", "tf"))
        if att not in ATTACKS:
            p.add((*where, "attack"), f"{fid}: attack must be one of {', '.join(ATTACKS)}")
        elif att == "recon" and all(c in NO_RECON for c in hull_codes):
            p.add((*where, "attack"), f"{fid}: fighters, SDBs and non-combatants cannot reconnoitre")
        order["attack"] = att
        if raw.get("target"):
            order["target"] = _str(raw["target"])
            if att == "colony" and order["target"] not in g.colonies():
                p.add((*where, "target"), f"{fid}: no colony {order['target']!r}")
            if att == "facility" and order["target"] not in g.state.formations:
                p.add((*where, "target"), f"{fid}: no facility {order['target']!r}")
        elif att == "colony":
            p.add((*where, "attack"), f"{fid}: Attack Colony needs target = the colony id")
        if att == "colony":
            bomb = _norm(raw.get("bombard", "none"))
            if bomb not in ("none", "colony", "troops"):
                p.add((*where, "bombard"), f"{fid}: bombard must be none, colony or troops")
            order["bombard"] = bomb
            order["land"] = bool(raw.get("land", True))
        if att == "facility":
            order["capture"] = bool(raw.get("capture", False))
    if mv in ("move", "convoy"):
        dest = _str(raw.get("destination", ""))
        here = tf.location or (tf.data.get("transit") or {}).get("to")
        if not dest:
            p.add((*where, "movement"), f"{fid}: {mv} needs destination = a linked system")
        elif dest not in g.systems():
            p.add((*where, "destination"), f"{fid}: no system {dest!r} on the map")
        elif here and not g.linked(here, dest):
            p.add(
                (*where, "destination"),
                f"{fid}: {dest} is not linked to {here} "
                f"(links: {', '.join(g.stars.neighbours(here)) or 'none'})",
            )
        elif tf.data.get("transit"):
            p.add((*where, "movement"), f"{fid} is between systems and cannot take a new move yet")
        if codes and all(c == "FTR" for c in codes):
            p.add((*where, "movement"), f"{fid}: fighters cannot move between systems on their own")
        order["destination"] = dest
        all_scouts = bool(hull_codes) and all(c in SCOUT for c in hull_codes)
        entry = _norm(raw.get("entry", "covert" if all_scouts else "overt"))
        if entry not in ("overt", "covert"):
            p.add((*where, "entry"), f"{fid}: entry must be overt or covert")
        elif entry == "covert":
            if kafer:
                p.add((*where, "entry"), f"{fid}: Kafers always enter overtly")
            elif not any(c in WARSHIPS for c in hull_codes):
                p.add(
                    (*where, "entry"),
                    f"{fid}: non-combatants and survey ships enter covertly only in a warship task force",
                )
            elif not all_scouts and len(hull_codes) > 2 * ftac:
                p.add(
                    (*where, "entry"),
                    f"{fid}: covert entry allows at most 2 x fTac {ftac} = {2 * ftac} ships; "
                    f"the task force has {len(hull_codes)} (carried craft not counted)",
                )
        if all_scouts:
            entry = "covert"
        order["entry"] = entry
        if mv == "convoy":
            order["convoy_with"] = [str(x) for x in raw.get("convoy_with", [])]
            for other in order["convoy_with"]:
                if other not in g.state.formations:
                    p.add((*where, "convoy_with"), f"{fid}: no task force {other!r} to convoy with")
    if mv == "escort":
        allowed = ESCORT_ORDER_STRICT if g.state.options.get("escort_order_strict") else ESCORT_ORDER_WIDE
        if not g.state.options.get("fe_is_escort", True):
            allowed = tuple(c for c in allowed if c != "FE")
        bad = sorted({c for c in codes if c not in allowed})
        if bad:
            p.add(
                (*where, "movement"),
                f"{fid}: the Escort order is only for task forces of "
                f"{', '.join(allowed)} (it holds {', '.join(bad)})",
            )
    if mv == "defend":
        patrols = raw.get("patrols", [])
        groups: list[list[str]] = []
        if not isinstance(patrols, list):
            p.add((*where, "patrols"), f"{fid}: patrols must be a list of patrol elements")
            patrols = []
        own_ids = {u.id for u in ships}
        for el in patrols:
            members = [str(x) for x in (el if isinstance(el, list) else [el])]
            for sid in members:
                if sid not in own_ids:
                    p.add((*where, "patrols"), f"{fid}: patrol ship {sid!r} is not in the task force")
            groups.append(members)
        if len(groups) > ftac:
            p.add(
                (*where, "patrols"),
                f"{fid}: {len(groups)} patrol elements but the commander's fTac is {ftac}; at most {ftac}",
            )
        order["patrols"] = groups
    elif raw.get("patrols"):
        p.add((*where, "patrols"), f"{fid}: patrol elements are deployed only under a Defend order")
    specials = raw.get("special", [])
    specials = [specials] if isinstance(specials, str) else list(specials or [])
    order["special"] = []
    for sp_ in specials:
        s = _norm(sp_)
        if s not in SPECIALS:
            p.add((*where, "special"), f"{fid}: unknown special {sp_!r}; use {', '.join(SPECIALS)}")
            continue
        if mv not in ("attack", "defend"):
            p.add((*where, "special"), f"{fid}: a special order goes with an Attack or Defend order")
        if s == "survey" and not any(c in ("SS", "SCT") for c in codes):
            p.add((*where, "special"), f"{fid}: only survey ships and scouts survey")
        if s == "mining_deploy" and not any(c in CAPITAL for c in codes):
            p.add(
                (*where, "special"), f"{fid}: no cruiser, battlecruiser, battleship or carrier to lay mines"
            )
        if s in ("deploy_facility", "remove_facility"):
            fac = _str(raw.get("facility", ""))
            if not fac:
                p.add((*where, "special"), f"{fid}: {s} needs facility = the facility id")
            order["facility"] = fac
        order["special"].append(s)
    if "repair" in order["special"]:
        order["repair_ships"] = [str(x) for x in raw.get("repair_ships", [])] or [
            u.id for u in ships if g.damaged(u)
        ]
    rng = _norm(raw.get("range", "long_until_salvoes"))
    if rng not in RANGES:
        p.add((*where, "range"), f"{fid}: range must be one of {', '.join(RANGES)}")
    order["range"] = rng
    order["breakoff"] = _breakoff(raw.get("breakoff"), (*where, "breakoff"), p)
    cont = _str(raw.get("contingency", ""))
    if cont and cont not in g.systems():
        p.add((*where, "contingency"), f"{fid}: no system {cont!r} for the contingency retreat")
    order["contingency"] = cont
    escorts = raw.get("escorts", {})
    if escorts and not isinstance(escorts, dict):
        p.add((*where, "escorts"), f'{fid}: escorts must be a table {{ escort = "charge" }}')
        escorts = {}
    order["escorts"] = {str(k): str(v) for k, v in (escorts or {}).items()}
    order["coordinate"] = bool(raw.get("coordinate", True))
    order["avoid_preemptive"] = bool(raw.get("avoid_preemptive", True))
    order["comments"] = _str(raw.get("comments", raw.get("rules_of_engagement", "")))
    if "resupply" in raw:
        order["resupply"] = _source(g, nation, fid, raw["resupply"], p, (*where, "resupply"))
    return order


def _simple_order(
    g: Game, nation: str, fid: str, raw: Any, kind: str, keys: tuple[str, ...], week0: bool, p: Problems
) -> dict[str, Any]:
    section = "facility" if kind == "facility" else "ground"
    where = (section, fid)
    if not isinstance(raw, dict):
        p.add(where, f"{fid}: orders must be a table")
        return {}
    if not _own(g, nation, fid, kind, section, p):
        return {}
    for key in raw:
        if key not in keys:
            p.add((*where, key), f"{fid}: unknown order {key!r}; use {', '.join(keys)}")
    order: dict[str, Any] = {"comments": _str(raw.get("comments", ""))}
    if week0:
        if "movement" in raw or "detection" in raw:
            p.add(where, f"{fid}: Week 0 has no detection or movement actions")
        return order
    mv = _norm(raw.get("movement", "hold"))
    if mv not in ("hold", "defend", "attack"):
        p.add((*where, "movement"), f"{fid}: movement must be hold, defend or attack")
    order["movement"] = mv
    if kind == "facility":
        det = _norm(raw.get("detection", "no_attack")).replace("do_not_attack", "no_attack")
        if det not in ("attack", "no_attack"):
            p.add((*where, "detection"), f"{fid}: detection action must be attack or no_attack")
        order["detection"] = det
        order["breakoff"] = _breakoff(raw.get("breakoff"), (*where, "breakoff"), p)
        order["range"] = _norm(raw.get("range", "long_until_salvoes"))
    if kind == "contingent" and raw.get("target"):
        order["target"] = _str(raw["target"])
    return order


def _source(
    g: Game, nation: str, fid: str, raw: Any, p: Problems, where: tuple[Any, ...] | None = None
) -> str:
    where = where or ("resupply", fid)
    text = _str(raw)
    kind = text.split(":", 1)[0].lower()
    if fid not in g.state.formations and fid not in g.state.units:
        p.add(where, f"resupply: no task force, facility, contingent or unit {fid!r}")
    else:
        owner = (g.state.formations.get(fid) or g.state.units.get(fid)).side  # type: ignore[union-attr]
        if owner != nation:
            p.add(where, f"resupply: {fid} belongs to {owner}, not {nation}")
    if kind not in SOURCES:
        p.add(where, f"resupply source {text!r}: use one of {', '.join(SOURCES)} (facility:ID, colony:ID)")
    if kind == "facility" and ":" in text and text.split(":", 1)[1] not in g.state.formations:
        p.add(where, f"resupply source {text!r}: no such facility")
    if kind == "colony" and ":" in text and text.split(":", 1)[1] not in g.colonies():
        p.add(where, f"resupply source {text!r}: no such colony")
    return text


def _construction(g: Game, nation: str, i: int, raw: Any, p: Problems) -> dict[str, Any] | None:
    where = ("construction", i)
    if not isinstance(raw, dict):
        p.add(where, "each [[construction]] entry is a table with location and item")
        return None
    loc = _str(raw.get("location", "core")).lower()
    if loc != "core":
        loc = _str(raw.get("location"))
        col = g.colonies().get(loc)
        if col is None:
            p.add((*where, "location"), f"construction location {loc!r}: use core or a colony id")
            return None
        if col.get("owner") != nation:
            p.add((*where, "location"), f"{loc} is not a {nation} colony")
        if col.get("resupply_only"):
            p.add((*where, "location"), f"{loc} is a captured colony: its SP serve resupply only (E-16)")
    item = _str(raw.get("item", ""))
    if not item:
        p.add(
            (*where, "item"),
            "construction needs item = a ship class id, a troop type or ASB/LP/SD/FB/PD/mines/sDrn/mPak/SubD",
        )
        return None
    if item not in ITEMS and item != "PD" and item not in g.catalog.types:
        p.add(
            (*where, "item"), f"unknown item {item!r}: not a catalog type and not one of {', '.join(ITEMS)}"
        )
        return None
    if item in ("sDrn", "SubD") and loc != "core":
        p.add((*where, "item"), f"{item} can only be built in the Core")
    if item in g.catalog.types and g.catalog.types[item].attrs.get("code") == "CFR":
        p.add((*where, "item"), "a colony repair facility cannot be built")
    count = raw.get("count", 1)
    if not isinstance(count, int) or count < 1:
        p.add((*where, "count"), "count must be a whole number of at least 1")
        count = 1
    return {
        "location": loc,
        "item": item,
        "count": count,
        "name": _str(raw.get("name", "")),
        "sp": int(raw.get("sp", 0)) if item == "mines" else 0,
    }


def _reorg(g: Game, nation: str, i: int, raw: Any, p: Problems) -> dict[str, Any] | None:
    where = ("reorganize", i)
    if not isinstance(raw, dict) or not raw.get("ships") or not raw.get("from") or not raw.get("to"):
        p.add(where, "each [[reorganize]] entry needs ships, from and to")
        return None
    src, dst = _str(raw["from"]), _str(raw["to"])
    if not _own(g, nation, src, "task_force", "reorganize", p):
        return None
    shipset = {u.id for u in g.ships(src)}
    for s in raw["ships"]:
        if str(s) not in shipset:
            p.add((*where, "ships"), f"{s} is not in {src}")
    if dst in g.state.formations:
        f = g.state.formations[dst]
        if f.side != nation or f.kind != "task_force":
            p.add((*where, "to"), f"{dst} is not a {nation} task force")
        elif f.location != g.state.formations[src].location:
            p.add((*where, "to"), f"{dst} is not in the same system as {src}")
    else:
        try:
            parsed = ids.parse(dst)
            if parsed.nation != nation or parsed.kind != "task_force":
                p.add((*where, "to"), f"a new detachment needs a {nation} task force id like {nation}-9")
        except Exception:
            p.add((*where, "to"), f"{dst!r} is not a task force id like {nation}-9")
    return {"ships": [str(s) for s in raw["ships"]], "from": src, "to": dst}
