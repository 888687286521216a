"""Fixtures of the hosted-table tests: a demo campaign served by a real table server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from campaign_tui.store.paths import Places
from tests.hosted.helpers import ThreadTable, thread_table


@pytest.fixture
def table(home_places: Places, demo_path: Path) -> Iterator[ThreadTable]:
    with thread_table(home_places, demo_path) as t:
        yield t


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    """A small campaign for the doors (the demo rule set: sides A and B), as a bundle."""
    from campaign_tui.core.engine import Engine
    from campaign_tui.store.files import export_bundle
    from tests.demo_ruleset import plugin

    path = tmp_path / "table.toml"
    export_bundle(Engine.create(plugin, "skirmish", None, 42, "auto", "Hosted demo"), path)
    return path
