"""The browser door: a seat's secret link opens that seat and no other; a wrong or removed
token gets the refusal page, the page and its websocket alike."""

from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

from campaign_tui.hosted.seats import Seat, token_hash
from tests.hosted.door_helpers import serving, write_seats

pytestmark = pytest.mark.timeout(120)


async def _screen_bytes(ws: aiohttp.ClientWebSocketResponse, wanted: bytes,
                        timeout: float = 30) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted not in seen and time.monotonic() < deadline:
        try:
            msg = await ws.receive(timeout=1)
        except TimeoutError:
            continue
        if msg.type == aiohttp.WSMsgType.BINARY:
            seen += msg.data
        elif msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED,
                          aiohttp.WSMsgType.ERROR):
            break
    return seen


async def test_a_token_opens_its_own_seat_only(campaign):
    write_seats(campaign, [Seat("ann", "A", (), token_hash("token-of-ann")),
                           Seat("ben", "B", (), token_hash("token-of-ben"))])
    async with serving([campaign], web=True) as served:
        base = served.where.web
        async with aiohttp.ClientSession() as http:
            for path in ("/seat/not-a-token", "/seat/not-a-token/ws", "/", "/seat/token-of-an"):
                async with http.get(base + path) as r:
                    assert r.status in (403, 404)
                    assert "token-of" not in await r.text()
            async with http.get(base + "/seat/token-of-ann") as r:
                page = await r.text()
                assert r.status == 200 and "/seat/token-of-ann/ws" in page
                assert "token-of-ben" not in page and "ben" not in page.split("<title>")[0]
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(base.replace("http", "ws") + "/seat/wrong/ws")
            async with http.ws_connect(base.replace("http", "ws")
                                       + "/seat/token-of-ann/ws?width=90&height=25") as ws:
                seen = await _screen_bytes(ws, b"SEAT ann SIDE A")
                assert b"SEAT ann SIDE A" in seen and b"ben" not in seen
                hosted = served.where.hall.hosted[0]
                assert [c.seat.name for c in hosted.connections] == ["ann"]
                # the GM takes the link back: the session ends, the link is refused
                write_seats(campaign, [Seat("ben", "B", (), token_hash("token-of-ben"))])
                for _ in range(60):
                    if ws.closed or not hosted.connections:
                        break
                    await asyncio.sleep(0.1)
                assert hosted.connections == []
            async with http.get(base + "/seat/token-of-ann") as r:
                assert r.status == 403
        assert any("opens no seat" in line for line in served.logs)
