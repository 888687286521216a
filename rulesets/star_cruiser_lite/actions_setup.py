"""GM actions for setting up a campaign: the real map, ship classes and forces replace the
demonstration data (digest S.1-S.8, G-03 to G-05)."""

from __future__ import annotations

from typing import Any

from campaign_tui.core.actions import Param, action
from campaign_tui.core.context import Ctx
from campaign_tui.core.errors import ActionRejected, InvalidInput
from campaign_tui.core.later import later
from campaign_tui.core.model import Formation
from rulesets.star_cruiser_lite import ids
from rulesets.star_cruiser_lite import sp as spm
from rulesets.star_cruiser_lite.game import Game
from rulesets.star_cruiser_lite.orders import parse_toml
from rulesets.star_cruiser_lite.rules_command import initial_tactics
from rulesets.star_cruiser_lite.setup_data import CtxSink, load

# rule modules: imported at the first call of one of their functions
chores_month = later("rulesets.star_cruiser_lite.chores_month")


def game(ctx: Ctx) -> Game:
    return Game(ctx.state, ctx.catalog, ctx.tables)


def roll_all_tactics(ctx: Ctx) -> None:
    """S.6 / F-02 (DEFAULT-03): every warship captain rolls Squadron Tactics; flag officers also
    roll Fleet Tactics; humans 1D6-1, Kafers 1D6."""
    n = 0
    for cid, c in sorted(ctx.state.records("commanders").items()):
        if c.get("rolled") or not c.get("alive", True):
            continue
        kafer = bool(c.get("kafer"))
        rec = ctx.record("commanders", cid)
        rec["stac"] = int(initial_tactics(ctx, kafer, f"{c.get('name', cid)} (squadron)").value)
        rec["initial_stac"] = rec["stac"]
        if c.get("flag"):
            rec["ftac"] = int(initial_tactics(ctx, kafer, f"{c.get('name', cid)} (fleet)").value)
        rec["rolled"] = True
        n += 1
    if n:
        ctx.secret_to("gm")
        ctx.summary(f"Tactics rolled for {n} commander(s)")


@action(
    "roll_tactics",
    "Roll tactics for new commanders",
    reference="S.6, F-02",
    help="Roll Squadron Tactics (and Fleet Tactics for flag officers) for every commander who has none.",
)
def roll_tactics(ctx: Ctx) -> None:
    roll_all_tactics(ctx)
    if not ctx.summary_text:
        ctx.summary("Every commander already has tactics")


@action(
    "import_map",
    "Import the campaign map",
    Param("text", help="a TOML file (pass it as text=@map.toml)"),
    reference="S.3, G-04",
)
def import_map(ctx: Ctx, text: str) -> None:
    """Load systems, links, colonies, facilities, minefields, nations and relations from a TOML file
    laid out like data/scenarios/demo.toml. Existing systems are updated, new ones added."""
    data = parse_toml(text, "map file")
    allowed = {"meta", "nations", "relations", "systems", "colonies", "facilities", "minefields"}
    extra = set(data) - allowed
    if extra:
        raise ActionRejected(f"map file: unexpected sections {sorted(extra)}; a map holds {sorted(allowed)}")
    _load(ctx, data, "map")


@action(
    "import_oob",
    "Import an order of battle",
    Param("text", help="a TOML file (text=@oob.toml)"),
    reference="S.5, G-05",
)
def import_oob(ctx: Ctx, text: str) -> None:
    """Load commanders, task forces with their ships, ground contingents and facilities from a TOML file
    laid out like data/scenarios/demo.toml. Tactics of new commanders are rolled at once."""
    data = parse_toml(text, "order of battle")
    allowed = {"meta", "commanders", "task_forces", "contingents", "facilities", "nations"}
    extra = set(data) - allowed
    if extra:
        raise ActionRejected(
            f"order of battle: unexpected sections {sorted(extra)}; it holds {sorted(allowed)}"
        )
    _load(ctx, data, "order of battle")
    roll_all_tactics(ctx)


def _load(ctx: Ctx, data: dict[str, Any], what: str) -> None:
    try:
        done = load(data, CtxSink(ctx), ctx.catalog, ctx.tables)
    except (KeyError, TypeError, ValueError) as exc:
        raise ActionRejected(f"{what}: missing or wrong entry ({exc})") from None
    for line in done:
        ctx.explain(line)
    ctx.summary(f"Imported {what}: {len(done)} item(s)")


@action(
    "import_catalog",
    "Import ship classes",
    Param("text", help="a TOML file of [types.<id>] tables"),
    reference="S.4, G-03",
)
def import_catalog(ctx: Ctx, text: str) -> None:
    """Add or correct ship classes from a file of [types.<id>] tables (code, bm, sb, mi, sv, df, sc, sn,
    mv, size, req_sp, cy_sp...). Values are checked against the declared attributes; the classes show
    as the GM's data in this campaign."""
    data = parse_toml(text, "catalog file")
    types = data.get("types")
    if not isinstance(types, dict) or not types:
        raise ActionRejected("catalog file: expected [types.<id>] tables")
    meta = {"name", "category", "notes", "provenance", "value_provenance", "tags"}
    for tid, body in types.items():
        if not isinstance(body, dict):
            raise ActionRejected(f"catalog file: types.{tid} must be a table")
        for k, v in body.items():
            if k in meta:
                continue
            try:
                ctx.catalog.attr_def(k).check(v, f"class {tid}")
            except InvalidInput as exc:
                raise ActionRejected(f"catalog file: {exc}") from None
        if "code" not in body and tid not in ctx.catalog.types:
            raise ActionRejected(f'catalog file: class {tid} needs code = "CG" (its class code)')
        ctx.edit_catalog(tid).update({k: v for k, v in body.items() if k not in ("value_provenance", "tags")})
        ctx.explain(f"class {tid}: {', '.join(f'{k}={v}' for k, v in body.items() if k not in meta)}")
    ctx.summary(f"Imported {len(types)} ship class(es)")


@action(
    "add_system",
    "Add or edit a star system",
    Param("id", help="system id, e.g. BCV"),
    Param("name"),
    Param("bodies", "int", min=0),
    Param("links", "list", required=False, default=[]),
    Param("volume", "int", required=False, default=0, help="commercial shipping, SP a week"),
    Param("held_by", required=False, default="", help="nation holding it, if enemy-held"),
    reference="S.3",
)
def add_system(
    ctx: Ctx, id: str, name: str, bodies: int, links: list[str], volume: int, held_by: str
) -> None:
    """Enter a system: name, number of bodies (for detection), links, shipping volume."""
    rec = dict(ctx.state.records("systems").get(id, {"minefields": {}}))
    rec.update(
        {
            "name": name,
            "bodies": bodies,
            "links": sorted(set(links) | set(rec.get("links", []))),
            "volume": volume,
        }
    )
    if held_by:
        rec["held_by"] = held_by.upper()
    ctx.put_record("systems", id, rec)
    ctx.summary(f"System {id} ({name}): {bodies} bodies, links {', '.join(rec['links']) or 'none'}")


@action("add_link", "Link two systems", Param("a"), Param("b"), reference="S.3")
def add_link(ctx: Ctx, a: str, b: str) -> None:
    """Join two systems by a link (movement runs along links only)."""
    for s in (a, b):
        if s not in ctx.state.records("systems"):
            raise ActionRejected(f"no system {s!r}; add it first")
    rec = ctx.record("systems", a)
    rec["links"] = sorted({*rec.get("links", []), b})
    ctx.summary(f"Link {a} - {b}")


@action(
    "add_colony",
    "Add or edit a colony",
    Param("id"),
    Param("name"),
    Param("system"),
    Param("owner", "side"),
    Param("pop", "int", min=0),
    Param("sp_output", "int", min=0),
    Param("paranoia", "choice", choices=("Low", "Moderate", "High")),
    Param("interface", "bool", required=False, default=True),
    reference="S.3",
)
def add_colony(
    ctx: Ctx,
    id: str,
    name: str,
    system: str,
    owner: str,
    pop: int,
    sp_output: int,
    paranoia: str,
    interface: bool,
) -> None:
    """Enter a colony with its owner, population factor, SP output and paranoia level."""
    if system not in ctx.state.records("systems"):
        raise ActionRejected(f"no system {system!r}")
    load(
        {
            "colonies": [
                {
                    "id": id,
                    "name": name,
                    "system": system,
                    "owner": owner,
                    "pop": pop,
                    "sp_output": sp_output,
                    "paranoia": paranoia,
                    "interface": interface,
                }
            ]
        },
        CtxSink(ctx),
        ctx.catalog,
        ctx.tables,
    )
    ctx.summary(f"Colony {name} at {system}: {owner}, pop {pop}, {sp_output} SP, paranoia {paranoia}")


@action(
    "add_facility",
    "Add a facility",
    Param("nation", "side"),
    Param("type", "choice", choices=("CFR", "ASB", "FB", "SD", "LP")),
    Param("system"),
    Param("modules", "int", min=1),
    Param("sp", required=False, default="0"),
    Param("colony", required=False, default=""),
    reference="S.5",
)
def add_facility(ctx: Ctx, nation: str, type: str, system: str, modules: int, sp: str, colony: str) -> None:
    """Place a facility (id NAT-Fn) with its modules and stored SP."""
    fid = ids.next_free(list(ctx.state.formations), nation, "facility")
    load(
        {
            "facilities": [
                {
                    "id": fid,
                    "type": type,
                    "system": system,
                    "modules": modules,
                    "sp": spm.store(sp),
                    "colony": colony or None,
                }
            ]
        },
        CtxSink(ctx),
        ctx.catalog,
        ctx.tables,
    )
    ctx.summary(f"Facility {fid}: {type} of {modules} module(s) at {system}")


@action(
    "set_relations",
    "Set political relations",
    Param("a", "side"),
    Param("b", "side"),
    Param("level", "int", min=1, max=10),
    reference="S.2, F-41d",
)
def set_relations(ctx: Ctx, a: str, b: str, level: int) -> None:
    """Relations between two nations, 1 (cold) to 10 (close): subordination needs 1D10 <= level."""
    if a == b:
        raise ActionRejected("relations are between two different nations")
    rel = dict(ctx.var("relations", {}) or {})
    old = rel.pop(f"{b}|{a}", rel.pop(f"{a}|{b}", None))
    rel[f"{a}|{b}"] = level
    ctx.set_var("relations", rel)
    ctx.summary(f"Relations {a}-{b}: {old if old is not None else 'unset'} -> {level}")


@action(
    "add_commander",
    "Add a commander",
    Param("nation", "side"),
    Param("name"),
    Param("ship", "unit", help="the ship the commander sails in"),
    Param("flag", "bool", required=False, default=False, help="a flag officer (Fleet Tactics)"),
    Param("rank", required=False, default=""),
    reference="S.6",
)
def add_commander(ctx: Ctx, nation: str, name: str, ship: str, flag: bool, rank: str) -> None:
    """A new commander; tactics are rolled at once (F-02)."""
    cid = ctx.new_id(f"cmd-{nation.lower()}-", "records/commanders")
    ctx.put_record(
        "commanders",
        cid,
        {
            "name": name,
            "rank": rank,
            "nation": nation,
            "flag": flag,
            "ship": ship,
            "alive": True,
            "stac": None,
            "ftac": None,
            "initial_stac": None,
            "k": 0,
            "rolled": False,
            "captain": False,
            "kafer": game(ctx).kafer(nation),
        },
    )
    roll_all_tactics(ctx)
    ctx.summary(f"Commander {name} ({cid}) aboard {ship}")


@action(
    "set_core_output",
    "Set Core output",
    Param("nation", "side"),
    Param("output", "int", min=0),
    reference="M0.2",
)
def set_core_output(ctx: Ctx, nation: str, output: int) -> None:
    """The nation's Core SP output per month (a share of national output the GM sets)."""
    chores_month.set_core_output(ctx, nation, output)


@action(
    "designate_flagship",
    "Designate a flagship class",
    Param("type", help="ship class id"),
    Param("flagship", "bool", required=False, default=True),
    reference="F-44, E-09",
)
def designate_flagship(ctx: Ctx, type: str, flagship: bool) -> None:
    """Make a nation's largest class (a CG or CA) a flagship class, as the referee may (CG Agano)."""
    code = ctx.catalog.type(type).attrs.get("code")
    if flagship and code not in ("CG", "CA", "CV", "BB", "BC"):
        raise ActionRejected(f"only a CG or CA class can be designated a flagship, not a {code}")
    ctx.edit_catalog(type)["flagship"] = flagship
    ctx.summary(f"{type}: flagship {'designated' if flagship else 'withdrawn'}")


@action(
    "set_stockpile",
    "Set a stockpile",
    Param("holder", help="nation (QAS stockpile), facility id or colony id"),
    Param("sp", help="amount, e.g. 12 or '12 1/4'"),
    Param("reason", required=False, default=""),
)
def set_stockpile(ctx: Ctx, holder: str, sp: str, reason: str) -> None:
    """Correct a stock of SP: a nation's Core stockpile at QAS, a facility's SP or a colony depot."""
    amount = spm.store(sp)
    if holder in ctx.state.records("nations"):
        ctx.record("nations", holder)["qas_stock"] = amount
    elif holder in ctx.state.formations and ctx.state.formations[holder].kind == "facility":
        ctx.formation(holder).data["sp"] = amount
    elif holder in ctx.state.records("colonies"):
        ctx.record("colonies", holder)["psd_sp"] = amount
    else:
        raise ActionRejected(f"no nation, facility or colony {holder!r}")
    ctx.summary(f"{holder}: {spm.text(amount)} SP" + (f" ({reason})" if reason else ""))


@action(
    "set_minefield", "Set a minefield", Param("system"), Param("nation", "side"), Param("mines", "int", min=0)
)
def set_minefield(ctx: Ctx, system: str, nation: str, mines: int) -> None:
    """The number of mines a nation has in a system."""
    if system not in ctx.state.records("systems"):
        raise ActionRejected(f"no system {system!r}")
    rec = ctx.record("systems", system)
    rec["minefields"] = {**rec.get("minefields", {}), nation: mines}
    ctx.summary(f"{nation} minefield at {system}: {mines} mines")


def new_tf(ctx: Ctx, nation: str, system: str) -> str:
    fid = ids.next_free(list(ctx.state.formations), nation, "task_force")
    ctx.add_formation(
        Formation(
            fid,
            nation,
            fid,
            "task_force",
            None,
            system,
            {},
            {"present_since": game(ctx).t, "newly_arrived": False, "detected_by": {}, "survey": {}},
            "owner",
        )
    )
    return fid


SETUP_ACTIONS = (
    roll_tactics,
    import_map,
    import_oob,
    import_catalog,
    add_system,
    add_link,
    add_colony,
    add_facility,
    set_relations,
    add_commander,
    set_core_output,
    designate_flagship,
    set_stockpile,
    set_minefield,
)
