"""The table protocol: newline-delimited JSON messages, versioned and size-bounded.

Every message is one JSON object on one line. The first message of a connection is the
seat's ``hello``; the server answers ``sync`` (the seat's whole projection) or ``error``
and closes. Then the seat sends requests with an ``id``; the server answers each with a
``reply`` carrying the same ``id`` (``ok`` true with a result, or false with an
``error``), and pushes an ``update`` to every seat after every committed action (before
the reply to the action itself). An update holds what changed for its viewer: the new
entries, and ``info``, ``status`` and the state's ``delta`` only when they changed
(:mod:`campaign_tui.hosted.feed`); it carries the viewer's revision ``rev`` and the one
it applies to, ``base``: a seat holding another revision sends ``sync`` and receives a
``resync`` (a whole projection, as a sync). See docs/HOSTED.md.

Client to server::

    {"t": "hello", "v": 2, "seat": NAME, "side": SIDE|null, "token": HEX}
    {"t": "perform", "id": N, "kind": K, "params": {...}, "answers": {...},
     "preview": bool, "hold_rolls": bool, "by": VIEWER}
    {"t": "undo", "id": N, "confirm": bool}   {"t": "redo", "id": N}
    {"t": "seal", "id": N, "sealed": bool, "by": VIEWER}
    {"t": "table", "id": N, "op": "pause"|"lock"|"connected", ...}   (the GM seat only)
    {"t": "entries", "id": N, "first": K, "last": L}   (older log entries, the seat's numbers)
    {"t": "rule", "id": N, "question": Q, "answers": {...}}   (the GM answers a side's question)
    {"t": "sync", "id": N}   (the whole projection again, pushed as ``resync``)

Server to client: ``sync``, ``update``, ``resync``, ``reply``, ``table`` (pause/lock/seal changes),
``ruled`` (to a side: the GM answered its question), ``error`` (a malformed message: the
connection stays open; a bad hello closes it).
"""

from __future__ import annotations

import json
from typing import Any

VERSION = 3                       # 2: updates carry deltas and revisions;
                                  # 3: and only the info and table facts that changed
MAX_REQUEST = 256 * 1024          # a seat's message (actions are small)
MAX_PUSH = 64 * 1024 * 1024       # the server's (a whole projection at sync)
REQUESTS = ("perform", "undo", "redo", "seal", "table", "ping", "entries", "rule", "sync")


class ProtocolError(ValueError):
    """A message that is not one of the protocol's: the text says what is wrong."""


def encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"),
                      default=_plain).encode("utf-8") + b"\n"


def _plain(value: Any) -> Any:
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    raise TypeError(f"{type(value).__name__} cannot be sent to a seat")


def decode(line: bytes, limit: int = MAX_REQUEST) -> dict[str, Any]:
    if len(line) > limit:
        raise ProtocolError(f"message too long ({len(line)} bytes; at most {limit})")
    try:
        message = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError:
        raise ProtocolError("message is not UTF-8 text") from None
    except ValueError as exc:
        raise ProtocolError(f"message is not JSON ({exc})") from None
    if not isinstance(message, dict):
        raise ProtocolError("message must be a JSON object")
    if not isinstance(message.get("t"), str):
        raise ProtocolError('message lacks its type ("t")')
    return message


def check_request(message: dict[str, Any]) -> None:
    """A seat's request after the hello: known type, whole-number id, right field types."""
    kind = message["t"]
    if kind not in REQUESTS:
        raise ProtocolError(f"unknown request {kind!r}; requests: {', '.join(REQUESTS)}")
    if not isinstance(message.get("id"), int) or isinstance(message.get("id"), bool):
        raise ProtocolError(f"{kind}: the request lacks a whole-number id")
    for name in ("params", "answers"):
        if name in message and not isinstance(message[name], dict):
            raise ProtocolError(f"{kind}: {name} must be an object")
    for name in ("first", "last", "question"):
        if name in message and (not isinstance(message[name], int)
                                or isinstance(message[name], bool)):
            raise ProtocolError(f"{kind}: {name} must be a whole number")
    for name in ("kind", "op", "by"):
        if name in message and not isinstance(message[name], str):
            raise ProtocolError(f"{kind}: {name} must be text")


def check_hello(message: dict[str, Any]) -> None:
    if message.get("t") != "hello":
        raise ProtocolError("the first message must be the seat's hello")
    if message.get("v") != VERSION:
        raise ProtocolError(f"protocol version {message.get('v')!r} is not spoken here "
                            f"(this table speaks {VERSION}); update campaign-tui")
    if not isinstance(message.get("seat"), str) or not isinstance(message.get("token"), str):
        raise ProtocolError("hello needs the seat's name and token")
    if message.get("side") is not None and not isinstance(message.get("side"), str):
        raise ProtocolError("hello: side must be text or null")


def error(message: str, re: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"t": "error", "message": message}
    if re is not None:
        out["re"] = re
    return out
