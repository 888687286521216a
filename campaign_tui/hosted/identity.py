"""Who sits at a seat, and the proof a seat process gives the table server.

A seat's token is an HMAC of its name and side under the serve's secret: the server gives
it (in the environment) only to the seat processes it spawns, so a local process that can
reach the socket but was not spawned for a seat cannot claim one, and a seat's token opens
no other seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

GM = "gm"


@dataclass(frozen=True)
class SeatInfo:
    name: str
    side: str | None  # None: the GM seat, which sees everything

    @property
    def viewer(self) -> str:
        """The engine's viewer for this seat: a side id, or "gm"."""
        return self.side if self.side is not None else GM


def new_secret() -> str:
    return secrets.token_hex(32)


def seat_token(secret: str, seat: SeatInfo) -> str:
    message = f"{seat.name}\0{seat.side or ''}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def token_matches(secret: str, seat: SeatInfo, token: str) -> bool:
    return hmac.compare_digest(seat_token(secret, seat), str(token))
