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

SCHEMA_VERSION = 2


@record
class SaveDocs:
    header: dict[str, Any]
    snapshots: dict[str, dict[str, Any]] = field(default_factory=dict)  # file -> document
    entries: list[dict[str, Any]] = field(default_factory=list)


Migration = Callable[[SaveDocs], SaveDocs]

def _v1_to_v2(docs: SaveDocs) -> SaveDocs:
    """Format 2: each snapshot records the seed, dice position and history pointer at its
    entry (followed from the log), and the header names only snapshots that exist. The
    folder store then records the hash of every snapshot and segment it rewrites."""
    from campaign_tui.core.log import LogEntry
    from campaign_tui.store.integrity import Pointer, follow

    campaign = docs.header.get("campaign", {})
    entries = {int(e["seq"]): LogEntry.from_dict(e) for e in docs.entries}
    pointers = {0: Pointer(0, (), entries[1].rng[0] if 1 in entries else
                           int(campaign.get("rng_position", 0)))}
    at = pointers[0]
    for seq in sorted(entries):
        at = follow(at, [entries[seq]], entries.__getitem__)
        pointers[seq] = at
    for doc in docs.snapshots.values():
        if "seq" in doc:    # folder snapshots (a bundle's states have no number)
            point = pointers.get(int(doc["seq"]), at)
            doc["campaign"] = point.to_dict(int(campaign.get("seed", 0)))
        doc["schema_version"] = 2
    files = docs.header.get("files")
    if isinstance(files, dict):
        present = {int(d["seq"]) for d in docs.snapshots.values() if "seq" in d}
        files["snapshots"] = [s for s in files.get("snapshots", []) if int(s["seq"]) in present]
    return docs


# MIGRATIONS[n] turns a version-n save into a version-(n+1) save.
MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2}


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
