"""``campaign-tui map``: the campaign's map as an SVG picture, map files in and out, and the
user's map library."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from campaign_tui.cli.common import EXIT_OK, Usage, changing, emit, open_ro, places_of


def picture(engine: Any, viewer: str) -> str:
    from campaign_tui.core.board.facts import on_board
    from campaign_tui.core.board.svg import render

    view = engine.view(viewer)
    board = engine.ruleset.board(view)
    sides = {sid: s.name for sid, s in view.sides.items()}
    colours = {sid: s.color for sid, s in view.sides.items() if s.color.startswith("#")}
    who = "GM's view (everything)" if viewer == "gm" else f"{sides.get(viewer, viewer)}'s view"
    title = f"{engine.info.name}: {board.title} · {engine.status(viewer).clock_text}"
    return render(board, on_board(board, view), engine.ruleset.locate(view), title=title,
                  viewer=who, sides=sides, colours=colours)


def cmd_map(args: argparse.Namespace) -> int:
    from campaign_tui.core.board.facts import on_board  # here: every start reads this module
    from campaign_tui.core.board.mapexport import map_file_of
    from campaign_tui.store import maplib
    from campaign_tui.store.atomic import atomic_write

    places = places_of(args)
    said: list[str] = []
    result: dict[str, Any] = {"campaign": args.campaign, "viewer": args.by}
    if args.library:
        library = []
        for path in maplib.entries(places):
            try:
                title, problem = maplib.load_map(path).title, None
            except Exception as exc:  # a broken file in the library is reported, not fatal
                title, problem = None, str(exc)
            library.append({"name": path.stem, "title": title, "path": str(path),
                            "problem": problem})
            said.append(f"{path.stem}: {title}  {path}" if problem is None
                        else f"{path.stem}: unreadable ({problem})  {path}")
        return _done(args, {**result, "library": library}, said)
    if not args.campaign:
        raise Usage("give a campaign (or --library)")
    if args.import_file:
        mf = maplib.load(places, args.import_file)
        text = maplib.find(places, args.import_file).read_text(encoding="utf-8")
        with changing(args) as opened:
            outcome = opened.engine.perform("gm.map_import", {"text": text, "name": mf.name})
        kept = maplib.keep(places, mf)
        result.update(imported=outcome.entry.summary, kept=str(kept))
        said += [outcome.entry.summary, f"kept in your map library: {kept}"]
    opened = open_ro(args)
    engine = opened.engine
    view = engine.view(args.by)  # an unknown side is refused here, listing the sides
    board = engine.ruleset.board(view)
    result.update(title=board.title, grid=board.grid.describe() if board.grid else None,
                  places=len(board.graph.nodes) if board.graph is not None else None,
                  routes=len(board.graph.edges) if board.graph is not None else None,
                  known_places=len(on_board(board, view)))
    if args.export_file:
        mf = map_file_of(engine)
        atomic_write(Path(args.export_file), mf.dumps())
        result["map_file"] = args.export_file
        said.append(f"map file written: {args.export_file} "
                    f"({len(mf.hexes) + len(mf.places)} places)")
    if args.output:
        atomic_write(Path(args.output), picture(engine, args.by))
        result["picture"] = args.output
        said.append(f"map picture written: {args.output}")
    if not (args.output or args.export_file or args.import_file):
        said.append(board.title)
        if board.grid is not None:
            said.append(f"  hexes: {board.grid.describe()}")
        if board.graph is not None:
            said.append(f"  places: {len(board.graph.nodes)}, routes: {len(board.graph.edges)}")
        said.append(f"  known places: {result['known_places']}")
        said.append("  write the picture with -o FILE.svg; map files with --import / --export")
    return _done(args, result, said)


def _done(args: argparse.Namespace, result: dict[str, Any], said: list[str]) -> int:
    if args.json:
        emit("map", result)
    else:
        print("\n".join(said))
    return EXIT_OK


def add_parser(add: Any, campaign_arg: Any, by_arg: Any, json_arg: Any) -> None:
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
    json_arg(sp)
    by_arg(sp)
