"""Hosting a table: ``seat`` (who may join, by SSH key or secret web link) and ``serve``
(the SSH and browser doors in front of the campaign's one writer)."""

from __future__ import annotations

import argparse
import errno
import json
import sys
import time
from pathlib import Path
from typing import Any

from campaign_tui.cli.common import EXIT_OK, Usage, emit, places_of
from campaign_tui.core.errors import CampaignError, SaveError

DEFAULT_PORT = 2222
DEFAULT_WEB_PORT = 8022


def add_parser(add: Any, campaign_arg: Any, json_arg: Any) -> None:
    sp = add("seat", cmd_seat,
             "the seats of a hosted table: add one (a side's or the GM's; opened by an SSH "
             "key or a secret web link), list them with who is connected, remove one")
    campaign_arg(sp)
    sp.add_argument("action", choices=("add", "list", "remove"))
    sp.add_argument("seat", nargs="?", metavar="NAME", help="the seat to remove (or add)")
    who = sp.add_mutually_exclusive_group()
    who.add_argument("--side", help="add: the side this seat plays")
    who.add_argument("--gm", action="store_true", help="add: the GM's seat (sees everything)")
    sp.add_argument("--key", action="append", metavar="PUBKEY_FILE",
                    help="add: an OpenSSH public key file (e.g. ~/.ssh/id_ed25519.pub) that "
                         "opens this seat over SSH (repeatable)")
    sp.add_argument("--web", action="store_true",
                    help="add: give the seat a secret link for the browser (printed once)")
    sp.add_argument("--name", help="add: the seat's name (default: the side's id, or gm)")
    json_arg(sp)

    sp = add("serve", cmd_serve,
             "host campaigns: players join their seats over SSH (and with --web, in a "
             "browser); runs until SIGINT or SIGTERM")
    sp.add_argument("campaigns", nargs="+", metavar="PATH|NAME",
                    help="campaigns to serve (with several, the SSH user name picks one: its "
                         "folder's name)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1; 0.0.0.0 for every network)")
    sp.add_argument("--port", type=int, default=DEFAULT_PORT,
                    help=f"SSH port (default {DEFAULT_PORT}; 0 picks a free one)")
    sp.add_argument("--web", action="store_true", help="also open the browser door")
    sp.add_argument("--web-port", type=int, default=DEFAULT_WEB_PORT,
                    help=f"the browser door's port (default {DEFAULT_WEB_PORT}; 0 picks one)")
    json_arg(sp)


# -- seat ---------------------------------------------------------------------------------
def _hostable(path: Path, info: Any) -> None:
    if info.export_side:
        raise CampaignError(f"{path} is a player's copy ({info.export_side}'s view); host the "
                            "GM's campaign")


def _campaign(args: argparse.Namespace, name: str) -> tuple[Path, Any]:
    """The campaign path and its engine (read-only), refusing a player's copy."""
    from campaign_tui.campaigns import open_path, resolve

    path = resolve(places_of(args), name)
    engine = open_path(path, read_only=True).engine
    _hostable(path, engine.info)
    return path, engine


def _campaign_path(args: argparse.Namespace, name: str) -> Path:
    """The campaign path, checked by its header only (the table server opens it)."""
    from campaign_tui.campaigns import read_info, resolve

    path = resolve(places_of(args), name)
    _hostable(path, read_info(path))
    return path


def _serve_path(args: argparse.Namespace, name: str) -> Path:
    """The campaign to serve. A path or a campaign folder's name is taken as it is (the
    table server checks it as it opens it, after the doors listen: serve listens at once);
    anything else is resolved and checked first."""
    for path in (Path(name).expanduser(), places_of(args).campaigns / name):
        if path.exists():
            return path
    return _campaign_path(args, name)


def _read_key(file: str) -> str:
    from campaign_tui.hosted.seats import key_id

    try:
        text = Path(file).expanduser().read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise Usage(f"--key: cannot read {file}: {getattr(exc, 'strerror', None) or exc}") from None
    if "PRIVATE KEY" in text:
        raise Usage(f"--key: {file} is a private key; give the public one ({file}.pub)")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    if len(lines) != 1:
        raise Usage(f"--key: {file} must hold one OpenSSH public key line (the .pub file)")
    try:
        key_id(lines[0], file)
    except SaveError as exc:
        raise Usage(f"--key: {exc}") from None
    return lines[0].strip()


def _side(engine: Any, wanted: str) -> str:
    sides = list(engine.state.sides)
    hits = [s for s in sides if s == wanted] or [s for s in sides if s.casefold() == wanted.casefold()]
    if not hits:
        raise Usage(f"--side: no side {wanted!r} in this campaign; sides are {', '.join(sides)}")
    return hits[0]


def _fingerprint(line: str) -> str:
    import asyncssh

    return asyncssh.import_public_key(line).get_fingerprint()


def _rows(book: Any, live: dict[str, Any] | None) -> list[dict[str, Any]]:
    connections = (live or {}).get("connections", [])
    return [{"name": s.name, "side": s.side_label, "keys": [_fingerprint(k) for k in s.keys],
             "web": s.web_token_sha256 is not None,
             "connected": [{"door": c.get("door"), "peer": c.get("peer"),
                            "since": c.get("since")} for c in connections
                           if c.get("seat") == s.name]}
            for s in book.seats.values()]


def web_link(live: dict[str, Any] | None, token: str) -> str:
    base = (live or {}).get("addresses", {}).get("web") or f"http://127.0.0.1:{DEFAULT_WEB_PORT}"
    return f"{base}/seat/{token}"


def cmd_seat(args: argparse.Namespace) -> int:
    from campaign_tui.hosted import presence, seats

    path, engine = _campaign(args, args.campaign)
    book = seats.load(seats.seats_path(path))
    live_file = presence.presence_path(places_of(args).state, path)
    token: str | None = None
    changed: str | None = None
    if args.action == "add":
        changed, token = _add(args, engine, book)
        book.save()
    elif args.action == "remove":
        name = args.seat or args.name
        if not name:
            raise Usage("give the seat to remove: seat CAMPAIGN remove NAME")
        if name not in book.seats:
            raise CampaignError(f"no seat {name!r} in {book.path}; seats: "
                                + (", ".join(book.seats) or "none"))
        del book.seats[name]
        book.save()
        changed = name
    elif args.seat or args.side or args.gm or args.key or args.web or args.name:
        raise Usage("seat CAMPAIGN list takes no seat or options (besides --json)")
    live = presence.read(live_file)
    rows = _rows(book, live)
    link = web_link(live, token) if token else None
    if args.json:
        emit("seat", {"action": args.action, "campaign": str(path), "seats_file": str(book.path),
                      "seat": changed, "serving": live is not None,
                      "addresses": (live or {}).get("addresses", {}), "seats": rows,
                      "token": token, "link": link})
        return EXIT_OK
    _print_seats(args.action, changed, rows, live, token, link)
    return EXIT_OK


def _add(args: argparse.Namespace, engine: Any, book: Any) -> tuple[str, str | None]:
    from campaign_tui.hosted import seats

    if not args.side and not args.gm:
        raise Usage("seat add needs --side SIDE or --gm")
    if not args.key and not args.web:
        raise Usage("seat add needs a way in: --key PUBKEY_FILE (SSH) and/or --web (browser)")
    side = None if args.gm else _side(engine, args.side)
    if args.seat and args.name and args.seat != args.name:
        raise Usage(f"two names given ({args.seat}, {args.name}); give one")
    name = args.name or args.seat or _free_name(book, side or seats.GM)
    if not seats.NAME.fullmatch(name):
        raise Usage(f"--name: {name!r}: a seat name is 1-32 letters, digits, '_', '.' or '-'")
    keys = [_read_key(f) for f in args.key or []]
    old = book.seats.get(name)
    if old is not None and old.side != side:
        raise CampaignError(f"seat {name!r} already plays {old.side_label}; give another "
                            "--name, or remove it first")
    for line in keys:
        owner = book.owner_of(seats.key_id(line))
        if owner is not None and owner != name:
            raise CampaignError(f"this key already opens seat {owner!r} (a key opens one seat "
                                "only); remove it there first")
    token = seats.new_token() if args.web else None
    kept = list(old.keys) if old else []
    ids = {seats.key_id(k) for k in kept}
    kept += [k for k in keys if seats.key_id(k) not in ids]
    book.put(seats.Seat(name, side, tuple(kept), seats.token_hash(token) if token
                        else (old.web_token_sha256 if old else None)))
    return name, token


def _free_name(book: Any, base: str) -> str:
    name, n = base, 1
    while name in book.seats:
        n += 1
        name = f"{base}-{n}"
    return name


def _print_seats(action: str, changed: str | None, rows: list[dict[str, Any]],
                 live: dict[str, Any] | None, token: str | None, link: str | None) -> None:
    if action == "add":
        print(f"seat {changed} added")
    elif action == "remove":
        print(f"seat {changed} removed" + (" (its connections are closed)" if live else ""))
    if token:
        print(f"web link (secret: give it to this seat's player only): {link}")
        print(f"token: {token}")
    if action != "list":
        return
    if not rows:
        print("no seats yet: campaign-tui seat CAMPAIGN add --side SIDE --key KEY.pub")
    for r in rows:
        ways = [*(f"key {k}" for k in r["keys"]), *(["web link"] if r["web"] else [])]
        here = ", ".join(f"{c['door']} from {c['peer']}" for c in r["connected"])
        print(f"{r['name']}  {r['side']}  {'; '.join(ways) or 'no way in'}  "
              + (f"connected: {here}" if here else "not connected"))
    if live:
        print("serving at " + ", ".join(f"{k} {v}" for k, v in live.get("addresses", {}).items()))
    else:
        print("not being served")


# -- serve --------------------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio

    from campaign_tui.hosted.serve import Listening, serve, setup_logging

    for option, port in (("--port", args.port), ("--web-port", args.web_port)):
        if not 0 <= port <= 65535:
            raise Usage(f"{option}: {port} is not a port (0-65535)")
    paths = [_serve_path(args, name) for name in args.campaigns]
    ids = [p.name if p.is_dir() else p.stem for p in paths]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise Usage(f"two campaigns are named {', '.join(twice)}: the SSH user name could not "
                    "pick one; rename a folder")
    setup_logging()
    places = places_of(args).ensure()

    def ready(where: Listening) -> None:
        if args.json:
            from campaign_tui.cli.json_out import document

            print(json.dumps(document("serve", where.to_dict()), ensure_ascii=False), flush=True)
            return
        for c in where.campaigns:
            user = f"{c['id']}@" if len(where.campaigns) > 1 else ""
            host, port = where.ssh.rsplit(":", 1)
            print(f"serving {c['path']}: ssh -p {port} {user}{host}", flush=True)
        print(f"SSH host key {where.host_key} ({where.host_key_file}"
              f"{', new' if where.host_key_new else ''})", flush=True)
        if where.web:
            print(f"browser door {where.web}/seat/TOKEN (each web seat's own link)", flush=True)
        print("stop with ctrl+c (or SIGTERM)", flush=True)

    started = time.monotonic()
    try:
        asyncio.run(serve(places, paths, args.host, args.port,
                          args.web_port if args.web else None, ready))
    except OSError as exc:
        message = f"cannot serve on {args.host}: {exc.strerror or exc}"
        if exc.errno == errno.EADDRINUSE:
            message += "; the port is taken: give another with --port / --web-port"
        raise CampaignError(message) from None
    print(f"stopped after {time.monotonic() - started:.0f} s", file=sys.stderr)
    return EXIT_OK
