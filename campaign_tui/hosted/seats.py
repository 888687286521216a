"""The seats of a hosted campaign: ``seats.toml`` beside the campaign (in a campaign folder,
``seats.toml`` inside it; beside a bundle ``NAME.toml``, ``NAME.seats.toml``).

A seat has a name, a side (``gm`` for the GM's seat), the OpenSSH public keys that open it
and, for the browser door, the SHA-256 of its secret token (the token itself is printed
once, by ``seat add --web``). The file is not part of the campaign's log, snapshots or
exports. The server re-reads it whenever it changes, so seats can be added, edited or
removed while serving::

    [seats.alice]
    side = "A"
    keys = ["ssh-ed25519 AAAAC3Nza... alice@laptop"]
    web_token_sha256 = "9f86d0..."
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campaign_tui.core.errors import SaveError
from campaign_tui.hosted.identity import SeatInfo
from campaign_tui.store import tomlio
from campaign_tui.store.atomic import atomic_write

GM = "gm"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
HEADER = ("Seats for `campaign-tui serve` (see `campaign-tui seat --help`); edit while serving: "
          "the\nserver re-reads this file. Not part of the campaign's log or exports.")


def seats_path(campaign: Path) -> Path:
    """Where a campaign's seats live: inside a campaign folder, beside a bundle file."""
    if campaign.is_dir():
        return campaign / "seats.toml"
    return campaign.with_name(campaign.stem + ".seats.toml")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def canonical(key: Any) -> str:
    """An asyncssh key as ``TYPE BASE64`` (no comment): how seats are matched to keys."""
    kind, body = key.export_public_key("openssh").decode("ascii").split()[:2]
    return f"{kind} {body}"


def key_id(line: str, where: str = "key") -> str:
    """The canonical ``TYPE BASE64`` of an OpenSSH public key line (its comment dropped), or
    a SaveError saying what is wrong with it."""
    import asyncssh

    try:
        key = asyncssh.import_public_key(line.strip())
    except (asyncssh.KeyImportError, ValueError, TypeError) as exc:
        raise SaveError(where, f"not an OpenSSH public key ({exc}); give the .pub file, "
                               "e.g. ~/.ssh/id_ed25519.pub") from None
    return canonical(key)


@dataclass(frozen=True)
class Seat:
    name: str
    side: str | None                       # None: the GM's seat
    keys: tuple[str, ...] = ()             # OpenSSH public key lines, as given
    web_token_sha256: str | None = None

    @property
    def info(self) -> SeatInfo:
        return SeatInfo(self.name, self.side)

    @property
    def side_label(self) -> str:
        return self.side or GM

    def to_toml(self) -> dict[str, Any]:
        return {"side": self.side_label, "keys": list(self.keys),
                "web_token_sha256": self.web_token_sha256}


@dataclass
class SeatBook:
    """Every seat of one campaign, looked up by name, by key or by web token."""

    path: Path
    seats: dict[str, Seat] = field(default_factory=dict)
    _by_key: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._index()

    def _index(self) -> None:
        self._by_key = {}
        for seat in self.seats.values():
            for line in seat.keys:
                self._by_key[key_id(line, f"{self.path}: seat {seat.name}")] = seat.name

    def put(self, seat: Seat) -> None:
        """Add or replace a seat."""
        self.seats[seat.name] = seat
        self._index()

    def by_key(self, canonical: str) -> Seat | None:
        name = self._by_key.get(canonical)
        return self.seats.get(name) if name else None

    def by_token(self, token: str) -> Seat | None:
        wanted = token_hash(token)
        for seat in self.seats.values():
            if seat.web_token_sha256 and secrets.compare_digest(seat.web_token_sha256, wanted):
                return seat
        return None

    def owner_of(self, canonical: str) -> str | None:
        return self._by_key.get(canonical)

    def text(self) -> str:
        return tomlio.dumps({"seats": {n: s.to_toml() for n, s in self.seats.items()}},
                            header=HEADER)

    def save(self) -> None:
        atomic_write(self.path, self.text())


def _seat_from(path: Path, text: str, name: str, row: Any) -> Seat:
    def bad(problem: str) -> SaveError:
        return SaveError(path, f"seat {name!r}: {problem}", tomlio.locate(text, ["seats", name]))

    if not NAME.fullmatch(name):
        raise bad("a seat name is 1-32 letters, digits, '_', '.' or '-'")
    if not isinstance(row, dict):
        raise bad("must be a table with side and keys")
    side = row.get("side")
    if not isinstance(side, str) or not side:
        raise bad('needs side = "SIDE" (or "gm")')
    keys = row.get("keys", [])
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
        raise bad('keys must be a list of OpenSSH public key lines: keys = ["ssh-ed25519 ..."]')
    token = row.get("web_token_sha256")
    if token is not None and not (isinstance(token, str) and re.fullmatch(r"[0-9a-f]{64}", token)):
        raise bad("web_token_sha256 must be 64 hexadecimal digits (use `seat add --web`)")
    unknown = sorted(set(row) - {"side", "keys", "web_token_sha256"})
    if unknown:
        raise bad(f"unknown field(s) {', '.join(unknown)}")
    return Seat(name, None if side == GM else side, tuple(keys), token)


def load(path: Path) -> SeatBook:
    """The seats in *path* (none when the file does not exist), or a SaveError naming the
    file, the line and the problem."""
    if not path.exists():
        return SeatBook(path)
    text = tomlio.read_text(path)
    data = tomlio.loads(text, path)
    unknown = sorted(set(data) - {"seats"})
    if unknown:
        raise SaveError(path, f"unknown table(s) {', '.join(unknown)}; seats go under [seats.NAME]")
    table = data.get("seats", {})
    if not isinstance(table, dict):
        raise SaveError(path, "seats must be tables: [seats.NAME]")
    return SeatBook(path, {n: _seat_from(path, text, n, row) for n, row in table.items()})


class SeatFile:
    """A seats file read again whenever it changes on disk (while serving). A file broken
    by an edit keeps the last good seats and says so once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._book = SeatBook(path)
        self.problem: str | None = None

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def current(self) -> SeatBook:
        stamp = self._stat()
        if stamp != self._stamp:
            try:
                self._book = load(self.path)
                self.problem = None
            except SaveError as exc:
                self.problem = str(exc)
            self._stamp = stamp
        return self._book
