"""Save-format migrations, run as a chain from any older ``schema_version``.

Each migration takes the parsed documents of a save (``header``, ``snapshots`` and
``entries`` as plain data) and returns them in the next version's shape. The original is
backed up before the first migration runs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Any

from campaign_tui.core.records import record

SCHEMA_VERSION = 1


@record
class SaveDocs:
    header: dict[str, Any]
    snapshots: dict[str, dict[str, Any]] = field(default_factory=dict)  # file -> document
    entries: list[dict[str, Any]] = field(default_factory=list)


Migration = Callable[[SaveDocs], SaveDocs]

# MIGRATIONS[n] turns a version-n save into a version-(n+1) save.
MIGRATIONS: dict[int, Migration] = {}


def chain(from_version: int, to_version: int = SCHEMA_VERSION) -> list[tuple[int, Migration]]:
    steps = []
    for v in range(from_version, to_version):
        if v not in MIGRATIONS:
            raise KeyError(v)
        steps.append((v, MIGRATIONS[v]))
    return steps


def migrate(docs: SaveDocs, from_version: int) -> SaveDocs:
    for version, step in chain(from_version):
        docs = step(docs)
        docs.header["schema_version"] = version + 1
    return docs
