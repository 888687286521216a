"""Rule-set discovery through the ``campaign_tui.rulesets`` entry-point group.

Listing reads each plugin's ``ruleset.toml`` (id, name, version, description) beside its
module without importing it; only the rule set in use is imported. A plugin that fails to
import, or a second plugin claiming a taken name, is reported, never fatal.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import tomllib
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING

from campaign_tui.core.errors import UnknownRuleset

if TYPE_CHECKING:
    from campaign_tui.core.ruleset import RuleSet

GROUP = "campaign_tui.rulesets"


@dataclass
class RulesetInfo:
    id: str
    name: str
    version: str
    description: str
    entry_point: EntryPoint
    games: list[str] = field(default_factory=list)


@dataclass
class Registry:
    infos: dict[str, RulesetInfo]
    problems: list[str]
    _loaded: dict[str, RuleSet] = field(default_factory=dict)

    def ids(self) -> list[str]:
        return list(self.infos)

    def info(self, rid: str) -> RulesetInfo:
        key = rid.lower().replace("-", "_")
        if key not in self.infos:
            known = ", ".join(self.infos) or "none installed"
            raise UnknownRuleset(f"no rule set {rid!r}; installed: {known}")
        return self.infos[key]

    def load(self, rid: str) -> RuleSet:
        info = self.info(rid)
        if info.id not in self._loaded:
            try:
                obj = info.entry_point.load()
            except Exception as exc:  # a broken plugin is reported, not fatal
                raise UnknownRuleset(f"rule set {info.id} could not be loaded: "
                                     f"{type(exc).__name__}: {exc}") from exc
            plugin = obj() if isinstance(obj, type) else obj
            self._loaded[info.id] = plugin
        return self._loaded[info.id]


def _metadata(ep: EntryPoint) -> dict[str, object]:
    """Read ``ruleset.toml`` next to the plugin module without importing the module."""
    module = ep.value.split(":", 1)[0]
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return {}
    if spec is None:
        return {}
    if spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations)))
    elif spec.origin:
        folder = Path(spec.origin).parent
    else:
        return {}
    meta = folder / "ruleset.toml"
    if not meta.is_file():
        return {}
    try:
        return tomllib.loads(meta.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _extra_entry_points() -> list[EntryPoint]:
    """Plugins named in CAMPAIGN_TUI_PLUGINS (``id=module:attr,...``): for developing a
    plugin without installing it."""
    raw = os.environ.get("CAMPAIGN_TUI_PLUGINS", "")
    out = []
    for item in raw.split(","):
        if "=" in item:
            name, value = item.split("=", 1)
            out.append(EntryPoint(name.strip(), value.strip(), GROUP))
    return out


def discover(group: str = GROUP) -> Registry:
    infos: dict[str, RulesetInfo] = {}
    problems: list[str] = []
    eps = sorted(entry_points(group=group), key=lambda e: e.name) + _extra_entry_points()
    for ep in eps:
        meta = _metadata(ep)
        rid = str(meta.get("id", ep.name)).lower()
        if rid in infos:
            problems.append(f"rule set {rid!r} is registered twice ({infos[rid].entry_point.value}"
                            f" and {ep.value}); the second is ignored")
            continue
        dist = getattr(ep, "dist", None)
        version = str(meta.get("version") or (dist.version if dist else "0"))
        infos[rid] = RulesetInfo(
            id=rid, name=str(meta.get("name", ep.name)), version=version,
            description=str(meta.get("description", "")), entry_point=ep,
            games=[str(g) for g in meta.get("games", [])],  # type: ignore[union-attr]
        )
    return Registry(infos, problems)


_REGISTRY: Registry | None = None


def registry() -> Registry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = discover()
    return _REGISTRY


def reset_registry() -> None:
    global _REGISTRY
    _REGISTRY = None


def load_ruleset(rid: str) -> RuleSet:
    return registry().load(rid)


def load_module_ruleset(module: str) -> RuleSet:
    """Load a plugin object from ``module:attr`` directly (tests, development)."""
    mod_name, _, attr = module.partition(":")
    obj = getattr(importlib.import_module(mod_name), attr or "plugin")
    return obj() if isinstance(obj, type) else obj
