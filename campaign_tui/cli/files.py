"""Campaigns as files: the TUI, new, list, check, export, report and import."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from campaign_tui.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    emit,
    open_ro,
    pairs,
    places_of,
    print_json,
    side_view,
)

if TYPE_CHECKING:
    import argparse


def cmd_tui(args: argparse.Namespace) -> int:
    from campaign_tui.ui import launch

    return launch(places_of(args), None, read_only=False)


def cmd_open(args: argparse.Namespace) -> int:
    from campaign_tui.ui import launch

    return launch(places_of(args), str(args.campaign), read_only=args.read_only)


def cmd_new(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import new_campaign

    options = pairs(args.option or [])
    path = new_campaign(places_of(args), args.ruleset, args.scenario, args.name, args.seed,
                        args.dice, options, Path(args.path) if args.path else None,
                        quick_setup=args.quick_setup)
    if args.json:
        emit("new", {"path": str(path)})
    else:
        print(path)
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import list_campaigns
    from campaign_tui.cli.json_out import SCHEMA_VERSION

    rows = list_campaigns(places_of(args), include_examples=not args.mine)
    if args.json:  # an array, as before: each row names its schema version
        print_json([{"schema": SCHEMA_VERSION, "name": r.name, "ruleset": r.ruleset,
                     "where": r.where, "saved": r.saved,
                      "path": str(r.path), "example": r.example, "problem": r.problem}
                     for r in rows])
        return EXIT_OK
    if not rows:
        print("No campaigns yet. Create one with `campaign-tui new RULESET`.")
    for r in rows:
        tag = "[example] " if r.example else ""
        if r.problem:
            print(f"{tag}{r.path.name}: cannot read: {r.problem}")
            continue
        saved = r.saved.replace("T", " ").rstrip("Z") or "-"
        print(f"{tag}{r.name}  ({r.ruleset})  {r.where}  saved {saved}  {r.path}")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    from campaign_tui.core.engine import Engine
    from campaign_tui.core.errors import CampaignError

    opened = open_ro(args)
    engine = opened.engine
    entries = engine.entries()
    audit = getattr(opened.store, "audit", None)
    problems = list(audit(engine)) if audit is not None else []
    if audit is None:
        rebuilt = engine.state_at(len(entries)) if entries else engine.state
        if rebuilt != engine.state:
            problems.append("the log does not rebuild the saved state")
    if args.replay:
        initial = engine.state_at(0)
        try:
            replayed = Engine.replay(engine.ruleset, initial, engine.info, entries)
        except CampaignError as exc:
            problems.append(str(exc))
        else:
            if replayed.state != engine.state:
                problems.append("replaying the log gives a different state")
    if args.json:
        emit("check", {"campaign": args.campaign, "ok": not problems, "problems": problems,
                       "warnings": [str(w) for w in opened.warnings], "entries": len(entries),
                       "replayed": bool(args.replay)})
        return EXIT_FAIL if problems else EXIT_OK
    for w in opened.warnings:
        print(f"warning: {w}")
    if problems:
        for p in problems:
            print(f"{args.campaign}: {p}")
        return EXIT_FAIL
    print(f"{args.campaign}: ok ({len(entries)} log entries"
          + (", replay identical" if args.replay else "") + ")")
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import slug
    from campaign_tui.store.files import export_bundle

    opened = open_ro(args)
    engine = opened.engine
    out = Path(args.output) if args.output else Path(
        f"{slug(engine.info.name)}{'-' + args.side.lower() if args.side else ''}.toml")
    export_bundle(engine, out, args.side)
    if args.json:
        emit("export", {"path": str(out), "side": args.side})
    else:
        print(out)
    return EXIT_OK


def cmd_report(args: argparse.Namespace) -> int:
    opened = open_ro(args)
    engine = opened.engine
    seat = side_view(engine, args.side)
    viewer = seat.side
    reports = seat.reports()
    written: dict[str, str] = {}
    if reports and args.output:
        from campaign_tui.campaigns import slug

        folder = Path(args.output)
        folder.mkdir(parents=True, exist_ok=True)
        for title, text in reports.items():
            out = folder / f"{slug(title)}.md"
            out.write_text(text, encoding="utf-8")
            written[title] = str(out)
    if args.json:
        emit("report", {"viewer": viewer, "reports": [
            {"title": title, "markdown": text, "path": written.get(title)}
            for title, text in reports.items()]})
        return EXIT_OK
    if not reports:
        print(f"{engine.ruleset.name} has no reports for {viewer}.")
        return EXIT_OK
    if args.output:
        print("\n".join(written.values()))
        return EXIT_OK
    print("\n\n".join(reports.values()))
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    from campaign_tui.campaigns import clean_leftovers, unique_folder
    from campaign_tui.registry import load_ruleset
    from campaign_tui.store.files import import_bundle

    places = places_of(args).ensure()
    clean_leftovers(places)
    target = unique_folder(places.campaigns, args.name or Path(args.bundle).stem)
    import_bundle(Path(args.bundle), target, load_ruleset, args.name).close()
    if args.json:
        emit("import", {"path": str(target)})
    else:
        print(target)
    return EXIT_OK
