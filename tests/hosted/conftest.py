from __future__ import annotations

from pathlib import Path

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.store.files import export_bundle


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A small campaign (the demo rule set: sides A and B) as a bundle file."""
    from tests.demo_ruleset import plugin

    path = tmp_path / "table.toml"
    export_bundle(Engine.create(plugin, "skirmish", None, 42, "auto", "Hosted demo"), path)
    return path
