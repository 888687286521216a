"""Load a map / order of battle (a scenario file or a file the GM imports) into a campaign.

The same loader serves the scenario builder (before play, through the engine's Builder) and
the GM's import actions during set-up (through the action context), so a real campaign's data
enters exactly like the shipped demonstration data. The format is the one of
``data/scenarios/demo.toml``.
"""

from __future__ import annotations

from typing import Any, Protocol

from campaign_tui.core.catalog import Catalog
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import Formation, Side, Unit, plain
from campaign_tui.core.tables import TableSet
from rulesets.star_cruiser_lite import ids
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.classes import FLAG_OFFICER_CLASSES, LEVELS, TACTICS_CLASSES
from rulesets.star_cruiser_lite.rules_cargo import troop_load


class Sink(Protocol):
    def has_side(self, sid: str) -> bool: ...
    def side(self, side: Side) -> None: ...
    def formation(self, f: Formation) -> None: ...
    def unit(self, u: Unit) -> None: ...
    def record(self, coll: str, key: str, value: dict[str, Any]) -> None: ...
    def get_record(self, coll: str, key: str) -> dict[str, Any] | None: ...
    def var(self, name: str, value: Any) -> None: ...
    def get_var(self, name: str) -> Any: ...


def troop_factors(tables: TableSet, code: str, exp: str) -> tuple[int, int]:
    """F-30: max BF and GF at an experience level."""
    mod = int(tables.get("T-22").lookup(level=exp).value)
    bf = int(tables.get("T-20").lookup(troop=code, factor="bf").value)
    gf = int(tables.get("T-20").lookup(troop=code, factor="gf").value)
    return (bf + mod if bf else 0), (gf + mod if gf else 0)


def load(data: dict[str, Any], sink: Sink, catalog: Catalog, tables: TableSet) -> list[str]:
    """Apply *data*; returns one line per thing created (for the log)."""
    done: list[str] = []
    for n in data.get("nations", []):
        code = str(n["code"]).upper()
        if not sink.has_side(code):
            sink.side(Side(code, str(n.get("name", code)), "", {"kafer": bool(n.get("kafer", False))}))
        rec = sink.get_record("nations", code) or {}
        rec.update(
            {
                "name": str(n.get("name", code)),
                "kafer": bool(n.get("kafer", False)),
                "core_output": int(n.get("core_output", rec.get("core_output", 0))),
                "qas_stock": spm.store(n.get("qas_stock", rec.get("qas_stock", 0))),
                "at_war": bool(n.get("at_war", rec.get("at_war", True))),
                "theater_commander": str(n.get("theater_commander", rec.get("theater_commander", ""))),
                "agency": str(n.get("agency", rec.get("agency", "BCV"))),
                "core_worlds": list(n.get("core_worlds", rec.get("core_worlds", ["Earth", "Tirane"]))),
                "penalty_next": bool(rec.get("penalty_next", False)),
                "bonus_next": int(rec.get("bonus_next", 0)),
                "fees_due": int(rec.get("fees_due", 0)),
                "stores": dict(rec.get("stores", {})),
                "production": dict(rec.get("production", {})),
                "note": str(n.get("note", rec.get("note", ""))),
            }
        )
        sink.record("nations", code, rec)
        done.append(f"nation {code}")
    if data.get("relations"):
        rel = dict(sink.get_var("relations") or {})
        for pair, level in data["relations"].items():
            if not 1 <= int(level) <= 10:
                raise InvalidInput(f"relations {pair}: level {level} is not between 1 and 10")
            rel[str(pair).upper()] = int(level)
        sink.var("relations", rel)
        done.append(f"{len(data['relations'])} relations levels")
    for s in data.get("systems", []):
        sid = str(s["id"])
        rec = sink.get_record("systems", sid) or {"minefields": {}}
        rec.update({k: v for k, v in s.items() if k != "id"})
        rec.setdefault("name", sid)
        rec.setdefault("bodies", 0)
        rec["links"] = [str(x) for x in rec.get("links", [])]
        rec.setdefault("minefields", {})
        sink.record("systems", sid, rec)
        done.append(f"system {sid}")
    for c in data.get("colonies", []):
        cid = str(c["id"])
        pop = int(c.get("pop", 0))
        rec = {
            "name": str(c.get("name", cid)),
            "system": str(c["system"]),
            "world": str(c.get("world", cid)),
            "owner": str(c["owner"]).upper(),
            "original_owner": str(c.get("original_owner", c["owner"])).upper(),
            "pop": pop,
            "pop_base": int(c.get("pop_base", pop)),
            "sp_output_base": int(c.get("sp_output", 0)),
            "paranoia": str(c.get("paranoia", "Low")),
            "captured": bool(c.get("captured", False)),
            "destroyed": False,
            "interface": bool(c.get("interface", True)),
            "psd_sp": spm.store(c.get("psd_sp", 0)),
            "psd": bool(c.get("psd", True)),
            "resupply_only": bool(c.get("resupply_only", False)),
        }
        sink.record("colonies", cid, rec)
        done.append(f"colony {cid}")
    for f in data.get("facilities", []):
        fid = str(f["id"])
        parsed = ids.parse(fid)
        ftype = str(f["type"]).upper()
        data_ = {
            "type": ftype,
            "modules": int(f.get("modules", 1)),
            "damage": {},
            "sp": spm.store(f.get("sp", 0)),
            "state": str(f.get("state", "deployed")),
            "colony": f.get("colony"),
            "detected_by": [],
        }
        vis = "counter" if ftype == "CFR" else "owner"
        sink.formation(
            Formation(
                fid,
                parsed.nation,
                f"{ftype} {fid}",
                "facility",
                None,
                str(f["system"]),
                {},
                plain(data_),
                vis,
            )
        )
        done.append(f"facility {fid}")
    for c in data.get("commanders", []):
        cid = str(c["id"])
        sink.record(
            "commanders",
            cid,
            {
                "name": str(c.get("name", cid)),
                "rank": str(c.get("rank", "")),
                "nation": str(c["nation"]).upper(),
                "flag": bool(c.get("flag", False)),
                "ship": str(c.get("ship", "")),
                "alive": True,
                "stac": c.get("stac"),
                "ftac": c.get("ftac"),
                "initial_stac": c.get("stac"),
                "k": 0,
                "rolled": c.get("stac") is not None,
                "captain": False,
                "kafer": str(c["nation"]).upper() == "KAF" or bool(c.get("kafer", False)),
            },
        )
        done.append(f"commander {cid}")
    for tf in data.get("task_forces", []):
        fid = str(tf["id"])
        parsed = ids.parse(fid)
        sink.formation(
            Formation(
                fid,
                parsed.nation,
                fid,
                "task_force",
                None,
                str(tf["system"]),
                {},
                {"present_since": -1, "newly_arrived": False, "detected_by": {}, "survey": {}},
                "owner",
            )
        )
        for s in tf.get("ships", []):
            _ship(sink, catalog, parsed.nation, fid, s)
        done.append(f"task force {fid} ({len(tf.get('ships', []))} ships)")
    for g in data.get("contingents", []):
        gid = str(g["id"])
        parsed = ids.parse(gid)
        sink.formation(
            Formation(
                gid,
                parsed.nation,
                gid,
                "contingent",
                None,
                str(g["system"]),
                {},
                plain({"colony": g.get("colony")}),
                "owner",
            )
        )
        for t in g.get("troops", []):
            _troop(sink, catalog, tables, parsed.nation, gid, t)
        done.append(f"contingent {gid}")
    _check_troop_loads(data, catalog)
    for m in data.get("minefields", []):
        sid = str(m["system"])
        rec = sink.get_record("systems", sid)
        if rec is None:
            raise InvalidInput(f"minefield: no system {sid!r}")
        rec["minefields"] = {**rec.get("minefields", {}), str(m["nation"]).upper(): int(m["mines"])}
        sink.record("systems", sid, rec)
        done.append(f"{m['mines']} mines at {sid}")
    return done


def _check_troop_loads(data: dict[str, Any], catalog: Catalog) -> None:
    """T-06, T-07: troops an order of battle puts aboard its own ships must fit in them."""
    ships = {
        str(s["id"]): catalog.type(str(s["type"]))
        for tf in data.get("task_forces", [])
        for s in tf.get("ships", [])
    }
    aboard: dict[str, list[str]] = {}
    for g in data.get("contingents", []):
        for t in g.get("troops", []):
            if str(t.get("carried_by") or "") in ships:
                code = str(catalog.type(str(t["type"])).attrs.get("code", ""))
                aboard.setdefault(str(t["carried_by"]), []).append(code)
    for sid, codes in aboard.items():
        a = ships[sid].attrs
        load = troop_load(
            str(a.get("code", "")), codes, int(a.get("troop_cap", 0) or 0), int(a.get("cargo_troops", 0) or 0)
        )
        if not load.fits:
            raise InvalidInput(f"ship {sid}: troops {', '.join(codes)} aboard: {load.why}")


def _ship(sink: Sink, catalog: Catalog, nation: str, fid: str, s: dict[str, Any]) -> None:
    utype = catalog.type(str(s["type"]))
    code = str(utype.attrs.get("code", ""))
    uid = str(s["id"])
    status: dict[str, Any] = dict(catalog.default_status())
    cargo = s.get("cargo_sp", utype.attrs.get("cy_sp", 0) or 0)
    status["cargo_sp"] = str(spm.store(cargo))
    if s.get("carried_by"):
        status["carried_by"] = str(s["carried_by"])
    if s.get("cargo_only"):
        status["cargo_only"] = True
    if code in TACTICS_CLASSES:
        cid = str(s.get("captain") or f"cpt-{uid}")
        status["captain"] = cid
        if sink.get_record("commanders", cid) is None:
            sink.record(
                "commanders",
                cid,
                {
                    "name": f"Captain of {s.get('name', uid)}",
                    "rank": "Captain",
                    "nation": nation,
                    "flag": code in FLAG_OFFICER_CLASSES,
                    "ship": uid,
                    "alive": True,
                    "stac": None,
                    "ftac": None,
                    "initial_stac": None,
                    "k": 0,
                    "rolled": False,
                    "captain": True,
                    "kafer": nation == "KAF",
                },
            )
    sink.unit(Unit(uid, nation, utype.id, str(s.get("name", utype.name)), fid, None, status, {}, {}, "owner"))


def _troop(sink: Sink, catalog: Catalog, tables: TableSet, nation: str, gid: str, t: dict[str, Any]) -> None:
    utype = catalog.type(str(t["type"]))
    code = str(utype.attrs.get("code", ""))
    exp = str(t.get("exp", "Regular"))
    if exp not in LEVELS:
        raise InvalidInput(f"troop {t['id']}: experience {exp!r} is not one of {', '.join(LEVELS)}")
    bf, gf = troop_factors(tables, code, exp)
    status: dict[str, Any] = dict(catalog.default_status())
    status.update({"exp": exp, "bf": int(t.get("bf", bf)), "gf": int(t.get("gf", gf))})
    if t.get("carried_by"):
        status["carried_by"] = str(t["carried_by"])
    data = {"colony": t["colony"]} if t.get("colony") else {}
    sink.unit(
        Unit(
            str(t["id"]),
            nation,
            utype.id,
            str(t.get("name", utype.name)),
            gid,
            None,
            status,
            {},
            data,
            "owner",
        )
    )


class BuilderSink:
    """Writes into a scenario Builder's state before play starts."""

    def __init__(self, builder: Any) -> None:
        self.b = builder

    def has_side(self, sid: str) -> bool:
        return sid in self.b.state.sides

    def side(self, side: Side) -> None:
        self.b.side(side.id, side.name, side.color, **side.data)

    def formation(self, f: Formation) -> None:
        self.b.add_formation(f)

    def unit(self, u: Unit) -> None:
        self.b.add_unit(u)

    def record(self, coll: str, key: str, value: dict[str, Any]) -> None:
        self.b.record(coll, key, value)

    def get_record(self, coll: str, key: str) -> dict[str, Any] | None:
        rec = self.b.state.records(coll).get(key)
        return dict(rec) if rec is not None else None

    def var(self, name: str, value: Any) -> None:
        self.b.var(name, value)

    def get_var(self, name: str) -> Any:
        return self.b.state.vars.get(name)


class CtxSink:
    """Writes through an action context (GM imports during set-up): every change is logged."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def has_side(self, sid: str) -> bool:
        return sid in self.ctx.state.sides

    def side(self, side: Side) -> None:
        self.ctx.add_side(side)

    def formation(self, f: Formation) -> None:
        if f.id in self.ctx.state.formations:
            raise InvalidInput(f"formation {f.id} already exists")
        self.ctx.add_formation(f)

    def unit(self, u: Unit) -> None:
        self.ctx.add_unit(u)

    def record(self, coll: str, key: str, value: dict[str, Any]) -> None:
        self.ctx.put_record(coll, key, value)

    def get_record(self, coll: str, key: str) -> dict[str, Any] | None:
        rec = self.ctx.state.records(coll).get(key)
        return dict(rec) if rec is not None else None

    def var(self, name: str, value: Any) -> None:
        self.ctx.set_var(name, value)

    def get_var(self, name: str) -> Any:
        return self.ctx.state.vars.get(name)
