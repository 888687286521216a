"""``campaign-tui map``: the campaign's map as an SVG picture, map files in and out, and the
user's map library."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from campaign_tui.cli.common import EXIT_FAIL, EXIT_OK, changing, open_ro, places_of


def map_facts(board: Any, view: Any) -> dict[str, dict[str, Any]]:
    """Place -> facts: the rule set's (board places) with the campaign's map facts on top."""
    from campaign_tui.core.board import facts

    out = {p: dict(f) for p, f in board.places.items()}
    for place in facts.known_places(view):
        out.setdefault(place, {}).update(facts.place_facts(view, place))
    return out


def picture(engine: Any, viewer: str) -> str:
    from campaign_tui.core.board.svg import render

    view = engine.view(viewer)
    board = engine.ruleset.board(view)
    sides = {sid: s.name for sid, s in view.sides.items()}
    colours = {sid: s.color for sid, s in view.sides.items() if s.color.startswith("#")}
    who = "GM's view (everything)" if viewer == "gm" else f"{sides.get(viewer, viewer)}'s view"
    title = f"{engine.info.name}: {board.title} · {engine.status(viewer).clock_text}"
    return render(board, map_facts(board, view), engine.ruleset.locate(view), title=title,
                  viewer=who, sides=sides, colours=colours)


def exported(engine: Any) -> Any:
    from campaign_tui.core.board.mapfile import MapFile

    view = engine.view("gm")
    board = engine.ruleset.board(view)
    meta: dict[str, Any] = {"title": f"{board.title} ({engine.info.name})",
                            "ruleset": engine.ruleset.id, "provenance": "house"}
    mf = MapFile(meta=meta, name=engine.info.name)
    grid = board.grid
    if grid is not None:
        meta.update(kind="hex", numbering=grid.layout)
        if grid.first_col is not None and grid.last_col is not None:
            meta["columns"] = [grid.first_col, grid.last_col]
        if grid.first_row is not None and grid.last_row is not None:
            meta["rows"] = [grid.first_row, grid.last_row]
        if grid.wrap:
            meta["wrap"] = True
        if grid.letters:
            meta["letters"] = True
    facts = map_facts(board, view)
    if board.graph is not None and grid is None:
        meta["kind"] = "graph"
        mf.places = {n: {**dict(a), **facts.get(n, {})} for n, a in board.graph.nodes.items()}
        mf.routes = [{"from": e.a, "to": e.b, "weight": e.weight, **dict(e.attrs)}
                     for e in board.graph.edges]
    else:
        mf.hexes = {h: f for h, f in facts.items() if grid is None or grid.is_hex(h)}
    return mf


def cmd_map(args: argparse.Namespace) -> int:
    from campaign_tui.store import maplib
    from campaign_tui.store.atomic import atomic_write

    places = places_of(args)
    if args.library:
        for path in maplib.entries(places):
            try:
                print(f"{path.stem}: {maplib.load_map(path).title}  {path}")
            except Exception as exc:  # a broken file in the library is reported, not fatal
                print(f"{path.stem}: unreadable ({exc})  {path}")
        return EXIT_OK
    if not args.campaign:
        print("error: give a campaign (or --library)", file=sys.stderr)
        return EXIT_FAIL
    if args.import_file:
        mf = maplib.load(places, args.import_file)
        text = maplib.find(places, args.import_file).read_text(encoding="utf-8")
        with changing(args) as opened:
            outcome = opened.engine.perform("gm.map_import", {"text": text, "name": mf.name})
        kept = maplib.keep(places, mf)
        print(outcome.entry.summary)
        print(f"kept in your map library: {kept}")
    opened = open_ro(args)
    engine = opened.engine
    if args.by != "gm" and args.by not in engine.state.sides:
        print(f"error: no side {args.by!r}; sides are {', '.join(engine.state.sides)} (or gm)",
              file=sys.stderr)
        return EXIT_FAIL
    if args.export_file:
        mf = exported(engine)
        atomic_write(Path(args.export_file), mf.dumps())
        print(f"map file written: {args.export_file} ({len(mf.hexes) + len(mf.places)} places)")
    if args.output:
        atomic_write(Path(args.output), picture(engine, args.by))
        print(f"map picture written: {args.output}")
    if not (args.output or args.export_file or args.import_file):
        view = engine.view(args.by)
        board = engine.ruleset.board(view)
        print(board.title)
        if board.grid is not None:
            print(f"  hexes: {board.grid.describe()}")
        if board.graph is not None:
            print(f"  places: {len(board.graph.nodes)}, routes: {len(board.graph.edges)}")
        print(f"  known places: {len(map_facts(board, view))}")
        print("  write the picture with -o FILE.svg; map files with --import / --export")
    return EXIT_OK


def add_parser(add: Any, campaign_arg: Any, by_arg: Any) -> None:
    sp = add("map", cmd_map, "the campaign's map: an SVG picture, map files in and out")
    sp.add_argument("campaign", metavar="PATH|NAME", nargs="?",
                    help="a campaign folder or file, a campaign name, or an example name")
    sp.add_argument("-o", "--output", metavar="FILE.svg", help="write the map picture here")
    sp.add_argument("--import", dest="import_file", metavar="FILE",
                    help="read a map file (or a map of your library) into the campaign (logged, "
                         "undoable) and keep it in your map library")
    sp.add_argument("--export", dest="export_file", metavar="FILE",
                    help="write the campaign's map as a map file")
    sp.add_argument("--library", action="store_true", help="list the maps in your map library")
    by_arg(sp)
