"""Rule-set discovery: listed without importing, only the one in use imported, broken and
duplicate plugins reported rather than fatal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_tui.core.errors import UnknownRuleset
from campaign_tui.registry import discover

ROOT = Path(__file__).resolve().parent.parent


def test_listing_reads_metadata_without_importing(monkeypatch):
    code = ("import sys, json; from campaign_tui.registry import discover; r = discover(); "
            "print(json.dumps({'ids': r.ids(), 'versions': {i.id: i.version for i in "
            "r.infos.values()}, 'imported': sorted(m for m in sys.modules if m.startswith("
            "('rulesets.', 'tests.demo_ruleset', 'tests.fixtures.broken')))}))")
    env = {**os.environ, "PYTHONPATH": str(ROOT),
           "CAMPAIGN_TUI_PLUGINS": "demo=tests.demo_ruleset:plugin,"
                                   "broken=tests.fixtures.broken_plugin:plugin"}
    out = json.loads(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                                    text=True, check=True).stdout)
    assert "demo" in out["ids"] and "broken" in out["ids"]
    assert out["versions"]["demo"] == "1.0" and out["versions"]["broken"] == "0.0.1"
    assert out["imported"] == []


def test_a_broken_plugin_is_reported_not_fatal(monkeypatch):
    monkeypatch.setenv("CAMPAIGN_TUI_PLUGINS", "demo=tests.demo_ruleset:plugin,"
                                               "broken=tests.fixtures.broken_plugin:plugin")
    reg = discover()
    with pytest.raises(UnknownRuleset, match="rule set broken could not be loaded: ImportError"):
        reg.load("broken")
    assert reg.load("demo").name == "Demo Skirmish"


def test_a_duplicate_plugin_is_reported(monkeypatch):
    monkeypatch.setenv("CAMPAIGN_TUI_PLUGINS", "demo=tests.demo_ruleset:plugin,"
                                               "demo2=tests.demo_ruleset:plugin")
    reg = discover()
    assert any("registered twice" in p for p in reg.problems)
    assert reg.ids().count("demo") == 1


def test_unknown_rule_set(monkeypatch):
    with pytest.raises(UnknownRuleset, match="no rule set 'zzz'"):
        discover().info("zzz")


def test_a_warm_discovery_cache_skips_importlib_metadata_and_follows_changes(tmp_path):
    code = ("import sys, json; from campaign_tui.registry import discover; r = discover(); "
            "print(json.dumps({'ids': r.ids(), 'metadata': 'importlib.metadata' in sys.modules}))")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CAMPAIGN_TUI_HOME": str(tmp_path),
           "CAMPAIGN_TUI_PLUGINS": "demo=tests.demo_ruleset:plugin"}

    def run(extra: dict[str, str] | None = None) -> dict:
        out = subprocess.run([sys.executable, "-c", code], env={**env, **(extra or {})},
                             capture_output=True, text=True, check=True).stdout
        return json.loads(out)

    cold = run()
    assert cold["metadata"] is True and "demo" in cold["ids"]
    warm = run()
    assert warm == {"ids": cold["ids"], "metadata": False}
    changed = run({"CAMPAIGN_TUI_PLUGINS": "demo=tests.demo_ruleset:plugin,"
                                           "broken=tests.fixtures.broken_plugin:plugin"})
    assert changed["metadata"] is True and "broken" in changed["ids"]
