"""Campaign files as a user deals with them: create, find by name, list, duplicate, delete
(to the trash), open with the lock, save. Shared by the command line and the TUI."""

from __future__ import annotations

import re
import shutil
import uuid
from pathlib import Path
from typing import Any

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import CampaignError, SaveError
from campaign_tui.core.info import CampaignInfo, now_iso
from campaign_tui.core.records import record
from campaign_tui.examples_index import bundled_examples, find_example
from campaign_tui.registry import load_ruleset
from campaign_tui.store import tomlio
from campaign_tui.store.atomic import atomic_write, clean_stale_temporaries
from campaign_tui.store.files import (
    HEADER,
    HEADER_ROWS,
    Opened,
    create_campaign,
    import_bundle,
    is_folder_campaign,
    open_campaign,
)
from campaign_tui.store.paths import Places


def slug(name: str) -> str:
    text = re.sub(r"[^A-Za-z0-9]+", "-", name.strip().lower()).strip("-")[:60].strip("-")
    return text or "campaign"


def unique_folder(parent: Path, name: str) -> Path:
    base = slug(name)
    path = parent / base
    n = 2
    while path.exists():
        path = parent / f"{base}-{n}"
        n += 1
    return path


def new_campaign(places: Places, ruleset_id: str, scenario: str | None = None,
                 name: str | None = None, seed: int | None = None, dice: str = "auto",
                 options: dict[str, Any] | None = None, folder: Path | None = None,
                 quick_setup: bool = False) -> Path:
    ruleset = load_ruleset(ruleset_id)
    engine = Engine.create(ruleset, scenario, options, seed, dice, name)
    if quick_setup:
        engine.perform("gm.quick_setup")
    places.ensure()
    path = folder or unique_folder(places.campaigns, engine.info.name)
    store = create_campaign(engine, path)
    store.close()
    return path


def clean_leftovers(places: Places) -> None:
    """Remove what interrupted imports and creations left in the campaigns folder (their
    temporary folders, named after a process that no longer runs)."""
    clean_stale_temporaries(places.campaigns)


def resolve(places: Places, what: str) -> Path:
    """A campaign path from a path, a campaign name, or a bundled example's name (which is
    copied into the user's campaigns first, so the example stays as shipped)."""
    path = Path(what).expanduser()
    if path.exists():
        return path
    places.ensure()
    clean_leftovers(places)
    for candidate in (places.campaigns / what, places.campaigns / slug(what)):
        if candidate.exists():
            return candidate
    wanted = what.strip().casefold()
    named = [s for s in list_campaigns(places) if s.name.casefold() == wanted]
    hits = [s for s in named if not s.example] or named  # your campaigns before examples
    if len(hits) > 1:
        raise SaveError(what, "several campaigns have this name; give one of their paths: "
                        + ", ".join(str(s.path) for s in hits))
    if hits and not hits[0].example:
        return hits[0].path
    example = find_example(what) or (hits[0].path if hits else None)
    if example is not None:
        target = unique_folder(places.campaigns, example.stem)
        store = import_bundle(example, target, load_ruleset)
        store.close()
        return target
    raise SaveError(what, "no such campaign (not a path, not one of your campaigns, not a "
                    "bundled example); see `campaign-tui list`")


def open_path(path: Path, read_only: bool = False) -> Opened:
    return open_campaign(path, load_ruleset, read_only)


def save(opened: Opened) -> None:
    """Save what is new (nothing happens when nothing is)."""
    if opened.store is None:
        raise CampaignError("this campaign is a read-only export; it cannot be saved")
    if opened.engine.history.pending:
        opened.store.save(opened.engine)


def close(opened: Opened) -> None:
    if opened.store is not None:
        opened.store.close()


@record
class Summary:
    path: Path
    name: str
    ruleset: str
    where: str
    saved: str
    example: bool = False
    problem: str = ""


def read_info(path: Path) -> CampaignInfo:
    from campaign_tui.store.serial import info_from

    header = path / HEADER if path.is_dir() else path
    # a bundle's [campaign] table comes first; a prefix is enough for listing
    text = tomlio.read_text(header) if path.is_dir() else _bundle_head(header)
    data = tomlio.loads(text, header)
    return info_from(data.get("campaign"), header, text)


def _bundle_head(path: Path) -> str:
    text = tomlio.read_text(path)
    cut = re.search(r"^\[(initial|current)[.\]]", text, flags=re.M)
    return text[: cut.start()] if cut else text


def list_campaigns(places: Places, include_examples: bool = True) -> list[Summary]:
    out: list[Summary] = []
    if places.campaigns.is_dir():
        clean_leftovers(places)
        for path in sorted(places.campaigns.iterdir()):
            if not (is_folder_campaign(path) or path.suffix == ".toml"):
                continue
            if path.name.endswith(".seats.toml"):   # a bundle's seats (hosted/seats.py)
                continue
            out.append(_summary(path, example=False))
    out.sort(key=lambda s: s.saved, reverse=True)
    if include_examples:
        out.extend(_summary(p, example=True) for p in bundled_examples())
    return out


def _summary(path: Path, example: bool) -> Summary:
    try:
        info = read_info(path)
    except CampaignError as exc:
        return Summary(path, path.name, "?", "", "", example, str(exc))
    return Summary(path, info.name, info.ruleset, info.where, info.saved, example)


def duplicate(places: Places, path: Path, name: str | None = None) -> Path:
    new_name = name or f"{read_info(path).name} (copy)"
    target = unique_folder(places.campaigns, new_name)
    if path.is_dir():
        shutil.copytree(path, target, ignore=shutil.ignore_patterns(
            "campaign.lock", "campaign.holder", "backups", ".*.tmp", "seats.toml"))
    else:
        import_bundle(path, target, load_ruleset).close()
    header = target / HEADER
    text = tomlio.read_text(header)
    data = tomlio.loads(text, header)
    data["campaign"]["name"] = new_name
    data["campaign"]["id"] = uuid.uuid4().hex
    atomic_write(header, tomlio.dumps(data, rows=HEADER_ROWS))
    return target


def delete(places: Places, path: Path) -> Path:
    """Move a campaign to the trash folder (never deleted outright)."""
    places.trash.mkdir(parents=True, exist_ok=True)
    stamp = now_iso().replace(":", "").replace("-", "")
    target = places.trash / f"{path.name}.{stamp}"
    shutil.move(str(path), target)
    return target
