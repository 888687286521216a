"""Save documents to and from TOML, with checks that name the file, line and problem."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.core.errors import CampaignError, InvalidInput, SaveError
from campaign_tui.core.info import CampaignInfo
from campaign_tui.core.log import LogEntry
from campaign_tui.core.model import (
    ENTITY_COLLECTIONS,
    VISIBILITY,
    State,
    snapshot_row_paths,
)
from campaign_tui.store import tomlio
from campaign_tui.store.migrations import SCHEMA_VERSION, chain

if TYPE_CHECKING:
    from campaign_tui.core.engine import Engine
    from campaign_tui.core.ruleset import RuleSet

SAVE_COMMENT = ("campaign-tui save file. You may read and edit it; the program checks every "
                "value when it opens it.")


def check_schema(data: dict[str, Any], path: Path, text: str) -> int:
    version = data.get("schema_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(path, "schema_version is missing or not a whole number",
                        tomlio.locate(text, ["schema_version"]))
    if version > SCHEMA_VERSION:
        raise SaveError(path, f"written by a newer campaign-tui (save format {version}); this "
                        f"version reads formats up to {SCHEMA_VERSION}. Update campaign-tui.",
                        tomlio.locate(text, ["schema_version"]))
    if version < SCHEMA_VERSION:
        try:
            chain(version)
        except KeyError:
            raise SaveError(path, f"save format {version} is not one this version can read or "
                            "migrate", tomlio.locate(text, ["schema_version"])) from None
    return version


def info_from(data: Any, path: Path, text: str, key: str = "campaign") -> CampaignInfo:
    if not isinstance(data, dict):
        raise SaveError(path, f"[{key}] is missing or not a table", tomlio.locate(text, [key]))
    try:
        info = CampaignInfo.from_dict(data)
    except KeyError as exc:
        raise SaveError(path, f"[{key}] lacks {exc.args[0]!r}", tomlio.locate(text, [key])) from None
    except (TypeError, ValueError, OverflowError, AttributeError) as exc:
        raise SaveError(path, f"[{key}] has a value of the wrong type ({exc})",
                        tomlio.locate(text, [key])) from None
    for name, value in (("seed", info.seed), ("rng_position", info.rng_position)):
        if not 0 <= value < 2**63:
            raise SaveError(path, f"[{key}] {name} {value} is out of range",
                            tomlio.locate(text, [key, name]))
    if info.log_length < 0 or info.head < 0 or info.head > info.log_length:
        raise SaveError(path, f"[{key}] head {info.head} / log_length {info.log_length} "
                        "are inconsistent", tomlio.locate(text, [key, "head"]))
    if any(r <= 0 or r > info.log_length for r in info.redo):
        raise SaveError(path, f"[{key}] redo points outside the log",
                        tomlio.locate(text, [key, "redo"]))
    for b in info.bookmarks:
        if not 0 <= b.seq <= info.log_length or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in b.clock.values()):
            raise SaveError(path, f"[{key}] bookmark {b.label!r}: its entry number and clock "
                            "values must be whole numbers within the log",
                            tomlio.locate(text, [key, "bookmarks"]))
    for name in ("name", "created", "saved", "where", "scenario", "id"):
        if not isinstance(data.get(name, ""), str):
            raise SaveError(path, f"[{key}] {name} must be text",
                            tomlio.locate(text, [key, name]))
    return info


def snapshot_doc(state: State, seq: int, at: dict[str, Any] | None = None) -> dict[str, Any]:
    """A snapshot document; *at* is the campaign's seed, dice position and history pointer
    after entry *seq* (what opening checks the header against)."""
    doc: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "seq": seq}
    if at is not None:
        doc["campaign"] = at
    doc["state"] = state.to_dict()
    return doc


def snapshot_text(doc: dict[str, Any]) -> str:
    return tomlio.dumps(doc, rows=snapshot_row_paths(doc["state"], "state"),
                        header=f"{SAVE_COMMENT}\nThe campaign as it stood after log entry "
                               f"{doc['seq']}.")


def state_to_text(state: State, seq: int) -> str:
    return snapshot_text(snapshot_doc(state, seq))


def state_from(data: Any, path: Path, text: str, ruleset: RuleSet | None,
               prefix: tuple[str, ...] = ("state",)) -> State:
    """Build and check a State from parsed data; problems name the line."""
    where = list(prefix)
    if not isinstance(data, dict):
        raise SaveError(path, f"[{'.'.join(where)}] is missing or not a table",
                        tomlio.locate(text, where))
    problems = structure_problems(data)
    if problems:
        keys, problem = problems[0]
        raise SaveError(path, problem, tomlio.locate(text, [*where, *keys]))
    try:
        state = State.from_dict(data, fresh=True)
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError, InvalidInput) as exc:
        raise SaveError(path, f"damaged state: {exc}", tomlio.locate(text, where)) from None
    if ruleset is not None:
        for keys, problem in semantic_problems(state, ruleset):
            raise SaveError(path, problem, tomlio.locate(text, [*where, *keys]))
    return state


def _is_table(v: Any) -> bool:
    return isinstance(v, dict)


def structure_problems(data: dict[str, Any]) -> list[tuple[list[str], str]]:
    out: list[tuple[list[str], str]] = []
    for coll in ("meta", "clock", "vars", "options", "ledgers", "secrets", "catalog", "tables",
                 "records", *ENTITY_COLLECTIONS):
        if coll in data and not _is_table(data[coll]):
            out.append(([coll], f"{coll} must be a table"))
    if out:
        return out
    meta = data.get("meta", {})
    pos = meta.get("position")
    if not _is_table(pos) or not isinstance(pos.get("step"), str) \
            or not isinstance(pos.get("stack", []), list):
        out.append((["meta"], "meta.position must be {step = \"...\", stack = [...]}"))
    if not isinstance(meta.get("machine", ""), str):
        out.append((["meta", "machine"], "meta.machine must be text"))
    for k, v in data.get("clock", {}).items():
        if not isinstance(v, int) or isinstance(v, bool):
            out.append((["clock", k], f"clock {k} must be a whole number, not {v!r}"))
    for coll in ENTITY_COLLECTIONS:
        for key, item in data.get(coll, {}).items():
            problem = entity_problem(coll, key, item)
            if problem:
                out.append(([coll, key], problem))
    for holder, book in data.get("ledgers", {}).items():
        if not _is_table(book):
            out.append((["ledgers", holder], f"ledger {holder} must be a table"))
            continue
        for res, v in book.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                out.append((["ledgers", holder], f"ledger {holder}: {res} must be a number"))
    for coll in ("catalog", "tables", "secrets"):
        for key, value in data.get(coll, {}).items():
            if not _is_table(value):
                out.append(([coll, key], f"{coll} {key} must be a table"))
    for name, bucket in data.get("records", {}).items():
        if not _is_table(bucket):
            out.append((["records", name], f"records {name} must be a table"))
            continue
        for key, value in bucket.items():
            if not _is_table(value):
                out.append((["records", name, key], f"record {name} {key} must be a table"))
    return out


_REQUIRED = {"sides": ("name",), "formations": ("side",), "units": ("side", "type"),
             "markers": ("kind",)}


def entity_problem(coll: str, key: str, item: Any) -> str | None:
    """What is wrong with one saved side/formation/unit/marker, or None."""
    what = f"{coll[:-1]} {key}"
    if not _is_table(item):
        return f"{what} must be a table"
    for field in _REQUIRED[coll]:
        if not isinstance(item.get(field), str):
            return f"{what}: {field} is missing or not text"
    for field in ("status", "attrs", "data"):
        if field in item and not _is_table(item[field]):
            return f"{what}: {field} must be a table"
    for field in ("name", "kind", "parent", "location", "formation", "label", "target", "color"):
        if field in item and not isinstance(item[field], str):
            return f"{what}: {field} must be text"
    if "visibility" in item and item["visibility"] not in VISIBILITY:
        return f"{what}: visibility must be one of {', '.join(VISIBILITY)}"
    if "known_to" in item and (not isinstance(item["known_to"], list) or not all(
            isinstance(s, str) for s in item["known_to"])):
        return f"{what}: known_to must be a list of sides"
    return None


def change_problem(ch: Any) -> str | None:
    """What is wrong with one recorded change, or None."""
    if not isinstance(ch.coll, str) or not isinstance(ch.key, str):
        return "a change without a collection or key"
    if ch.coll in ENTITY_COLLECTIONS:
        for value in (ch.before, ch.after):
            if value is not None:
                problem = entity_problem(ch.coll, ch.key, value)
                if problem:
                    return problem
        return None
    if ch.coll.startswith("records/"):
        for value in (ch.before, ch.after):
            if value is not None and not _is_table(value):
                return f"record {ch.key} must be a table"
        return None
    if ch.coll not in ("meta", "clock", "vars", "options", "ledgers", "secrets", "catalog",
                       "tables"):
        return f"unknown state collection {ch.coll!r}"
    if ch.coll == "clock":
        for value in (ch.before, ch.after):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                return f"clock {ch.key} must be a whole number"
    if ch.coll in ("ledgers", "secrets", "catalog", "tables"):
        for value in (ch.before, ch.after):
            if value is not None and not _is_table(value):
                return f"{ch.coll} {ch.key} must be a table"
    if ch.coll == "meta" and ch.key == "position":
        for value in (ch.before, ch.after):
            if value is not None and (not _is_table(value) or not isinstance(
                    value.get("step"), str) or not isinstance(value.get("stack", []), list)):
                return "meta.position must be {step = \"...\", stack = [...]}"
    return None


def semantic_problems(state: State, ruleset: RuleSet) -> list[tuple[list[str], str]]:
    out: list[tuple[list[str], str]] = []
    try:
        machine = ruleset.machine(state.machine)
    except InvalidInput as exc:
        return [(["meta", "machine"], str(exc))]
    if state.step not in machine.steps:
        out.append((["meta"], f"the position names an unknown step {state.step!r}"))
    for s in state.stack:
        if s not in machine.steps:
            out.append((["meta"], f"the sub-machine stack names an unknown step {s!r}"))
    try:
        catalog = ruleset.catalog().with_overrides(state.catalog_overrides)
    except InvalidInput as exc:
        return [*out, (["catalog"], f"catalog override: {exc}")]
    for fid, f in state.formations.items():
        if f.side not in state.sides:
            out.append((["formations", fid], f"formation {fid}: unknown side {f.side!r}"))
        if f.parent and f.parent not in state.formations:
            out.append((["formations", fid], f"formation {fid}: unknown parent {f.parent!r}"))
    for fid in state.formations:
        seen = set()
        for anc in state.ancestors(fid):
            if anc.id in seen:
                out.append((["formations", fid], f"formation {fid}: its parents form a loop"))
                break
            seen.add(anc.id)
    for uid, u in state.units.items():
        where = f"unit {uid}"
        if u.side not in state.sides:
            out.append((["units", uid], f"{where}: unknown side {u.side!r}"))
        if u.formation and u.formation not in state.formations:
            out.append((["units", uid], f"{where}: unknown formation {u.formation!r}"))
        if u.type not in catalog.types:
            out.append((["units", uid], f"{where}: unknown unit type {u.type!r}"))
        for k, v in u.status.items():
            if k in catalog.status:
                try:
                    catalog.status[k].check(v, where)
                except InvalidInput as exc:
                    out.append((["units", uid], str(exc)))
            else:
                out.append((["units", uid], f"{where}: unknown status field {k!r}"))
        for k, v in u.attrs.items():
            try:
                catalog.attr_def(k).check(v, where)
            except InvalidInput as exc:
                out.append((["units", uid], str(exc)))
    option_defs = {o.id: o for o in ruleset.options()}
    for k, v in state.options.items():
        if k not in option_defs:
            out.append((["options", k], f"unknown option {k!r}"))
            continue
        try:
            option_defs[k].check(v)
        except InvalidInput as exc:
            out.append((["options", k], str(exc)))
    tables = ruleset.tables()
    for tid, cells in state.table_overrides.items():
        try:
            tables.get(tid).with_cells(cells if isinstance(cells, dict) else {})
        except InvalidInput as exc:
            out.append((["tables", tid], f"table override: {exc}"))
    roles = state.vars.get("roles")
    if roles is not None and (not isinstance(roles, dict) or not all(
            isinstance(v, str) for v in roles.values())):
        out.append((["vars", "roles"], "vars.roles must be a table of role = side id"))
    if state._c["meta"].get("dice", "auto") not in ("auto", "manual"):
        out.append((["meta", "dice"], "meta.dice must be auto or manual"))
    try:
        out.extend(ruleset.validate_state(state))
    except Exception as exc:  # a rule set's checker meeting damaged data
        out.append((["vars"], f"{ruleset.name} cannot check the saved game "
                              f"({type(exc).__name__}: {exc}); was it edited by hand?"))
    return out


def probe(engine: Engine, path: Path) -> None:
    """Ask the rule set for what every screen needs right after opening (the status). A
    saved game its rule set cannot read is reported as a bad file here, instead of failing
    later in the middle of play."""
    try:
        engine.status()
    except CampaignError:
        raise
    except Exception as exc:  # rule-set code meeting damaged data
        raise SaveError(path, f"{engine.ruleset.name} cannot use the saved game "
                        f"({type(exc).__name__}: {exc}); was it edited by hand?") from None


def entries_to_text(entries: list[LogEntry]) -> str:
    return tomlio.dumps({"entry": [e.to_dict() for e in entries]}, rows=["entry"])


def entries_from(data: Any, path: Path, text: str, first: int | None = None,
                 key: str = "entry") -> list[LogEntry]:
    items = data.get(key, []) if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise SaveError(path, f"{key} must be a list of [[{key}]] tables",
                        tomlio.locate(text, [key]))
    out = []
    expected = first
    for i, item in enumerate(items):
        def line(i: int = i) -> int | None:  # only worked out for an error message
            return _nth_line(text, f"[[{key}]]", i)

        if not isinstance(item, dict):
            raise SaveError(path, f"log entry {i + 1} is not a table", line())
        try:
            entry = LogEntry.from_dict(item)
        except KeyError as exc:
            raise SaveError(path, f"log entry lacks {exc.args[0]!r}", line()) from None
        except (TypeError, ValueError, OverflowError, AttributeError, IndexError,
                CampaignError) as exc:
            raise SaveError(path, f"log entry has a value of the wrong type ({exc})",
                            line()) from None
        if expected is not None and entry.seq != expected:
            raise SaveError(path, f"log entry numbered {entry.seq} where {expected} was "
                                  "expected", line())
        for ch in entry.changes:
            problem = change_problem(ch)
            if problem:
                raise SaveError(path, f"log entry {entry.seq} has a damaged change: {problem}",
                                line())
        expected = entry.seq + 1
        out.append(entry)
    return out


def _nth_line(text: str, marker: str, n: int) -> int | None:
    count = -1
    for i, line in enumerate(text.splitlines()):
        if line.strip() == marker:
            count += 1
            if count == n:
                return i + 1
    return None
