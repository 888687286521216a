"""The rule-set plugin contract.

A plugin subclasses :class:`RuleSet`, sets ``id``, ``name``, ``version`` and ``package``,
keeps its data as TOML files in ``<package>/data/`` (``tables.toml``, ``units.toml``,
``options.toml``, scenarios...) and declares in code its phase machines, actions,
procedures and scenario builders. Everything has a working default except ``machines``,
``scenarios`` and ``build``.
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from campaign_tui.core import digests
from campaign_tui.core.actions import ActionDef
from campaign_tui.core.catalog import Catalog
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.machine import Machine
from campaign_tui.core.model import State, Unit
from campaign_tui.core.options import OptionDef
from campaign_tui.core.procedures import ProcedureDef
from campaign_tui.core.scenario import Builder, Scenario
from campaign_tui.core.tables import Table, TableSet

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from campaign_tui.core.board import Board
    from campaign_tui.core.changes import Change
    from campaign_tui.core.context import Ctx


def _walk(node: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    out = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name.startswith((".", "__")):
            continue
        path = f"{prefix}{child.name}"
        if child.is_dir():
            out.extend(_walk(child, path + "/"))
        else:
            out.append((path, child))
    return out


class RuleSet:
    id: str = ""
    name: str = ""
    version: str = "0"
    package: str = ""
    description: str = ""

    # -- data files -----------------------------------------------------------------------
    def data_root(self) -> Traversable:
        """The plugin's ``data`` folder: a plain folder for a package on disk (without
        importing importlib.resources on the way to the first screen), else through
        importlib.resources (a zipped package)."""
        module = sys.modules.get(self.package) or importlib.import_module(self.package)
        where = getattr(module, "__file__", None)
        if where and Path(where).parent.is_dir():
            return Path(where).parent / "data"
        from importlib import resources

        return resources.files(self.package) / "data"

    @functools.cache  # noqa: B019 - one instance per plugin for the process
    def load_data(self, name: str) -> dict[str, Any]:
        """Parse ``data/<name>`` (a TOML file); missing files give an empty table."""
        from campaign_tui.store import parse_cache

        node = self.data_root()
        for part in name.split("/"):
            node = node / part
        if not node.is_file():
            return {}
        return parse_cache.loads(node.read_bytes(), f"{self.package}/data/{name}")

    def data_files(self, folder: str) -> list[str]:
        node = self.data_root() / folder
        if not node.is_dir():
            return []
        return [f"{folder}/{p}" for p, _ in _walk(node) if p.endswith(".toml")]

    @functools.cache  # noqa: B019
    def data_hash(self) -> str:
        digest = digests.sha256()
        root = self.data_root()
        if root.is_dir():
            for path, node in _walk(root):
                digest.update(path.encode())
                digest.update(node.read_bytes())
        return digest.hexdigest()[:16]

    @functools.cache  # noqa: B019
    def tables(self) -> TableSet:
        tables = TableSet.from_data(self.load_data("tables.toml"))
        for name in self.data_files("tables"):
            for table in TableSet.from_data(self.load_data(name)):
                tables.add(table)
        return tables

    def table(self, name: str) -> Table:
        return self.tables().get(name)

    @functools.cache  # noqa: B019
    def catalog(self) -> Catalog:
        return Catalog.from_data(self.load_data("units.toml"))

    def effective_catalog(self, state: State) -> Catalog:
        """The catalog with this campaign's GM corrections applied."""
        if not state.catalog_overrides:
            return self.catalog()
        key = repr(sorted(state.catalog_overrides.items()))
        cached = getattr(self, "_catalog_for", None)
        if cached is None or cached[0] != key:
            cached = (key, self.catalog().with_overrides(state.catalog_overrides))
            self._catalog_for = cached
        return cached[1]

    def attr(self, state: State, unit: Unit | str, name: str, default: Any = None) -> Any:
        """A unit's attribute: its own value if it has one, else its type's (read only)."""
        u = state.unit(unit) if isinstance(unit, str) else unit
        if name in u.attrs:
            return u.attrs[name]
        utype = self.effective_catalog(state).types.get(u.type)
        return utype.attrs.get(name, default) if utype else default

    @functools.cache  # noqa: B019
    def options(self) -> list[OptionDef]:
        data = self.load_data("options.toml").get("options", {})
        return [OptionDef.from_data(k, v) for k, v in data.items()]

    # -- declared in code -------------------------------------------------------------------
    def machines(self) -> dict[str, Machine]:
        raise NotImplementedError

    def machine(self, mid: str) -> Machine:
        machines = self.machines()
        try:
            return machines[mid]
        except KeyError:
            raise InvalidInput(f"{self.name} has no phase machine {mid!r}; machines: "
                               f"{', '.join(machines)}") from None

    def actions(self) -> dict[str, ActionDef]:
        return {}

    def procedures(self) -> dict[str, ProcedureDef]:
        return {}

    def procedure(self, name: str) -> ProcedureDef:
        procs = self.procedures()
        wanted = name.lower()
        for p in procs.values():
            if p.id.lower() == wanted or wanted in (a.lower() for a in p.aliases):
                return p
        raise InvalidInput(f"{self.name} has no procedure {name!r}; procedures: "
                           f"{', '.join(procs)}")

    def scenarios(self) -> list[Scenario]:
        raise NotImplementedError

    def scenario(self, sid: str | None = None) -> Scenario:
        scenarios = self.scenarios()
        if not scenarios:
            raise InvalidInput(f"{self.name} has no scenarios")
        if sid is None:
            return scenarios[0]
        wanted = sid.lower()
        for s in scenarios:
            if s.id.lower() == wanted or wanted in (a.lower() for a in s.aliases):
                return s
        raise InvalidInput(f"{self.name} has no scenario {sid!r}; scenarios: "
                           f"{', '.join(s.id for s in scenarios)}")

    def build(self, scenario: Scenario, options: dict[str, Any]) -> State:
        raise NotImplementedError

    def builder(self, scenario: Scenario, options: dict[str, Any]) -> Builder:
        """A builder at the start of the scenario's machine, options already set."""
        machine = self.machine(scenario.machine)
        b = Builder(self.catalog(), machine.id, machine.start)
        b.options(options)
        for lvl in machine.clock:
            b.state.clock[lvl.name] = lvl.start
        return b

    # -- hooks with defaults --------------------------------------------------------------
    def quick_setup_why_not(self, state: State) -> str | None:
        """None when :meth:`quick_setup` can be done now, else the reason it cannot (a rule
        set with a quick set-up says so until its set-up is over)."""
        return f"{self.name} has no quick set-up"

    def quick_setup(self, ctx: Ctx, scenario: Scenario) -> None:
        """Do *scenario*'s whole set-up through *ctx* (one logged GM action, so one undo
        removes it): the printed deployment where the rules give it, otherwise a legal
        placement marked as a default with its provenance, which the GM can then adjust."""
        raise InvalidInput(f"{self.name} has no quick set-up")

    def due(self, state: State, open_actions: list[str]) -> str | None:
        """Why "advance until something is due" stops at this step (None: go on). The step's
        required actions are checked before this; *open_actions* are the titles of the
        step's own actions allowed now. By default a step with any of them stops it."""
        if open_actions:
            return "may be done now: " + ", ".join(open_actions)
        return None

    def battle(self, state: State) -> str | None:
        """A battle to be fought (or declared) at this step, said in a few words; advancing
        "until" anything stops here. None by default."""
        return None

    def resolve_actor(self, state: State, actor: str) -> str:
        """Turn a step's actor (a role such as "attacker", or a side id) into a side id."""
        roles = state.vars.get("roles", {})
        if isinstance(roles, dict) and actor in roles:
            return str(roles[actor])
        return actor

    def prompt_context(self, state: State) -> dict[str, Any]:
        ctx: dict[str, Any] = dict(state.clock)
        roles = state.vars.get("roles", {})
        if isinstance(roles, dict):
            for role, side in roles.items():
                ctx[role] = state.sides[side].name if isinstance(side, str) and \
                    side in state.sides else side
        return ctx

    def board(self, state: State) -> Board:
        """The campaign's map: its hex numbering and extent, or its graph of places, and the
        places shipped with the rule set. By default any well-formed hex number is a hex."""
        from campaign_tui.core.board import bare_board

        return bare_board()

    def locate(self, view: State) -> dict[str, list[tuple[str, str]]]:
        """Place id -> (side, label) of what stands there, made from the view the viewer may
        see; for the map picture. By default: formations, and units outside formations,
        whose location is a place (a ``hex:`` prefix is dropped); the picture keeps only
        places on the board."""
        out: dict[str, list[tuple[str, str]]] = {}
        for f in view.formations.values():
            if f.location:
                out.setdefault(f.location.removeprefix("hex:"), []).append((f.side, f.name or f.id))
        for u in view.units.values():
            if u.location and not u.formation and not u.status.get("destroyed"):
                out.setdefault(u.location.removeprefix("hex:"), []).append((u.side, u.label))
        return out

    def redact(self, view: State, viewer: str) -> None:
        """Remove from *view* what *viewer* may not know (beyond units and formations)."""

    def describe_change(self, view: State, change: Change) -> list[str] | None:
        """One change in the table's words when the rule set knows better than the program (its
        secret books, its records); None leaves the wording to the program. Called only with
        changes the viewer of *view* may see."""
        return None

    def badges(self, state: State, unit: Unit) -> list[str]:
        catalog = self.catalog()
        out = []
        for name, fdef in catalog.status.items():
            badge = fdef.badge_for(unit.status.get(name))
            if badge:
                out.append(badge)
        return out

    def unit_stats(self, state: State, unit: Unit) -> str:
        """The key values shown on a unit's line in the order of battle."""
        catalog = self.effective_catalog(state)
        utype = catalog.types.get(unit.type)
        values = dict(utype.attrs) if utype else {}
        values.update(unit.attrs)
        shown = [f"{catalog.attrs[k].label or k} {v}" for k, v in values.items()
                 if k in catalog.attrs and catalog.attrs[k].show and not isinstance(v, list)]
        return " ".join(shown[:5])

    def headline(self, state: State) -> dict[str, list[str]]:
        """Each side's headline totals for ``campaign-tui status``."""
        out: dict[str, list[str]] = {}
        for sid in state.sides:
            units = [u for u in state.units.values() if u.side == sid]
            lost = sum(1 for u in units if u.status.get("destroyed"))
            line = [f"{len(units) - lost} units" + (f" ({lost} destroyed)" if lost else "")]
            for res, value in sorted(state.ledgers.get(sid, {}).items()):
                line.append(f"{res} {value:g}")
            out[sid] = line
        return out

    def reports(self, view: State, viewer: str) -> dict[str, str]:
        """Reports in Markdown (title -> text) for *viewer* ("gm" or a side), made from the
        view the viewer may see (turn reports, status boards). None by default."""
        return {}

    def validate_state(self, state: State) -> list[tuple[list[str], str]]:
        """Extra checks on a loaded state: ``[(key path, problem)]``."""
        return []

    def check(self) -> None:
        """Validate the plugin's declarations (machines against actions, data loads)."""
        kinds = set(self.actions())
        for machine in self.machines().values():
            machine.validate(kinds)
        self.tables()
        self.catalog()
        self.options()
        for s in self.scenarios():
            self.machine(s.machine)
