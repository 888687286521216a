"""Rule-set discovery through the ``campaign_tui.rulesets`` entry-point group.

Listing reads each plugin's ``ruleset.toml`` (id, name, version, description) beside its
module without importing it; only the rule set in use is imported. A plugin that fails to
import, or a second plugin claiming a taken name, is reported, never fatal.

The result of discovery is cached in the user cache folder, keyed by the modification
times of the folders on ``sys.path`` (installing or removing a package changes them), the
CAMPAIGN_TUI_PLUGINS variable and the Python version: a start with a warm cache does not
import ``importlib.metadata`` at all.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import sys
from dataclasses import asdict, field
from pathlib import Path
from typing import TYPE_CHECKING

from campaign_tui.core.errors import UnknownRuleset
from campaign_tui.core.records import record

if TYPE_CHECKING:
    from campaign_tui.core.ruleset import RuleSet

GROUP = "campaign_tui.rulesets"


@record
class RulesetInfo:
    id: str
    name: str
    version: str
    description: str
    target: str  # the entry point's value, "module:attr"
    games: list[str] = field(default_factory=list)


@record
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
                module, _, attr = info.target.partition(":")
                obj = importlib.import_module(module)
                for part in attr.split(".") if attr else []:
                    obj = getattr(obj, part)
            except Exception as exc:  # a broken plugin is reported, not fatal
                raise UnknownRuleset(f"rule set {info.id} could not be loaded: "
                                     f"{type(exc).__name__}: {exc}") from exc
            plugin = obj() if isinstance(obj, type) else obj
            self._loaded[info.id] = plugin
        return self._loaded[info.id]


def _metadata(target: str) -> dict[str, object]:
    """Read ``ruleset.toml`` next to the plugin module without importing the module."""
    module = target.split(":", 1)[0]
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
    import tomllib  # here: discovery is cached, most starts never get this far

    try:
        return tomllib.loads(meta.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def _extra_entry_points() -> list[tuple[str, str, str]]:
    """Plugins named in CAMPAIGN_TUI_PLUGINS (``id=module:attr,...``): for developing a
    plugin without installing it. As (name, value, version) triples."""
    raw = os.environ.get("CAMPAIGN_TUI_PLUGINS", "")
    out = []
    for item in raw.split(","):
        if "=" in item:
            name, value = item.split("=", 1)
            out.append((name.strip(), value.strip(), "0"))
    return out


def _installed_entry_points(group: str) -> list[tuple[str, str, str]]:
    from importlib.metadata import entry_points

    out = []
    for ep in sorted(entry_points(group=group), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        out.append((ep.name, ep.value, dist.version if dist else "0"))
    return out


def _cache_key(group: str) -> str:
    stamps = []
    for entry in sys.path:
        with contextlib.suppress(OSError):
            stamps.append([entry, os.stat(entry or ".").st_mtime_ns])
    return json.dumps([group, sys.version, os.environ.get("CAMPAIGN_TUI_PLUGINS", ""), stamps])


def _cache_file() -> Path | None:
    from campaign_tui.store.paths import places

    return places().cached("registry.json")


def discover(group: str = GROUP) -> Registry:
    key = _cache_key(group)
    cache = _cache_file()
    if cache is not None:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            data = json.loads(cache.read_text(encoding="utf-8"))
            if data["key"] == key:
                return Registry({i["id"]: RulesetInfo(**i) for i in data["infos"]},
                                list(data["problems"]))
    registry = _discover(group)
    if cache is not None:
        with contextlib.suppress(OSError):
            cache.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps({"key": key, "problems": registry.problems,
                                       "infos": [asdict(i) for i in registry.infos.values()]}),
                           encoding="utf-8")
            os.replace(tmp, cache)
    return registry


def _discover(group: str) -> Registry:
    infos: dict[str, RulesetInfo] = {}
    problems: list[str] = []
    for name, value, dist_version in [*_installed_entry_points(group), *_extra_entry_points()]:
        meta = _metadata(value)
        rid = str(meta.get("id", name)).lower()
        if rid in infos:
            problems.append(f"rule set {rid!r} is registered twice ({infos[rid].target}"
                            f" and {value}); the second is ignored")
            continue
        infos[rid] = RulesetInfo(
            id=rid, name=str(meta.get("name", name)),
            version=str(meta.get("version") or dist_version),
            description=str(meta.get("description", "")), target=value,
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
