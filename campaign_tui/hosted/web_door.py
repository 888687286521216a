"""The browser door (textual-serve): each web seat has its own secret link,
``/seat/TOKEN``. The page and its websocket check the token against the seats file on every
request; a token opens its own seat only, anything else gets a refusal page. Each browser
session runs the seat's TUI as a child process through Textual's web driver, exactly as
textual-serve runs its one command, but with the seat's own command."""

from __future__ import annotations

import asyncio
import contextlib
import html
import logging
import os
import time
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from campaign_tui.hosted.hall import Hall, Hosted
from campaign_tui.hosted.seats import Seat, SeatBook

log = logging.getLogger("campaign_tui.serve")

REFUSAL = """<!doctype html><html><head><meta charset="utf-8"><title>campaign-tui</title></head>
<body style="font-family: sans-serif; margin: 3em"><h1>No seat here</h1><p>{message}</p>
</body></html>"""


def refusal(message: str, status: int = 403) -> web.Response:
    return web.Response(text=REFUSAL.format(message=html.escape(message)), status=status,
                        content_type="text/html")


class SeatAppService(AppService):
    """textual-serve's process manager, running one seat's command with its environment
    (no shell: the command is a list of words)."""

    def __init__(self, argv: list[str], extra_env: dict[str, str], **kwargs: Any) -> None:
        super().__init__(argv[0], **kwargs)
        self.argv = argv
        self.extra_env = extra_env

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        env = super()._build_environment(width, height)
        env.pop("TMUX", None)
        env.update(self.extra_env)
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=True)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process


class WebSeat:
    """One browser session at a seat (for who-is-connected and the seats watch)."""

    door = "web"

    def __init__(self, hosted: Hosted, seat: Seat, token: str, peer: str,
                 websocket: web.WebSocketResponse) -> None:
        self.hosted, self.seat, self.token, self.peer = hosted, seat, token, peer
        self.websocket = websocket
        self.since = time.time()
        self.service: SeatAppService | None = None

    def still_seated(self, book: SeatBook) -> bool:
        seat = book.by_token(self.token)
        return seat is not None and seat.name == self.seat.name and seat.side == self.seat.side

    def close(self, reason: str) -> None:
        log.info("%s: closing the browser session of seat %s: %s", self.hosted.id,
                 self.seat.name, reason)
        asyncio.get_running_loop().create_task(self.websocket.close(message=reason.encode()))


class SeatWebServer(Server):
    def __init__(self, hall: Hall) -> None:
        super().__init__("campaign-tui", title="campaign-tui")
        self.hall = hall

    def _seat(self, request: web.Request) -> tuple[Hosted, Seat] | None:
        token = request.match_info.get("token", "")
        found = self.hall.seat_by_token(token) if token else None
        if found is None:
            log.warning("refused a browser at %s: the link's token opens no seat", request.remote)
        return found

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_root),
            web.get("/seat/{token}", self.handle_index, name="index"),
            web.get("/seat/{token}/ws", self.handle_websocket, name="websocket"),
            web.static("/static", self.statics_path, name="static"),
        ])
        return app

    async def handle_root(self, request: web.Request) -> web.Response:
        return refusal("Open your seat's own link (the GM printed it with "
                       "`campaign-tui seat CAMPAIGN add --web`).", status=404)

    async def handle_index(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        found = self._seat(request)
        if found is None:
            return refusal("This link opens no seat: it is wrong, or the GM removed or "
                           "changed the seat. Ask the GM for your seat's link.")
        hosted, seat = found
        base = f"{request.scheme}://{request.host}"
        token = request.match_info["token"]
        ws_scheme = "wss" if request.scheme == "https" else "ws"
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"{ws_scheme}://{request.host}/seat/{token}/ws",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": f"{hosted.id}: {seat.name} ({seat.side_label})"},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:  # type: ignore[override]
        found = self._seat(request)
        if found is None:
            return refusal("This link opens no seat.")
        hosted, seat = found
        websocket = web.WebSocketResponse(heartbeat=15)
        width = max(1, min(to_int(request.query.get("width", "80"), 80), 1000))
        height = max(1, min(to_int(request.query.get("height", "24"), 24), 1000))
        visitor = WebSeat(hosted, seat, request.match_info["token"], str(request.remote),
                          websocket)
        service: SeatAppService | None = None
        try:
            await websocket.prepare(request)
            table = await hosted.table_ready()
            argv, extra = table.seat_command(seat.info, width, height)
            service = SeatAppService(argv, extra, write_bytes=websocket.send_bytes,
                                     write_str=websocket.send_str, close=websocket.close,
                                     download_manager=self.download_manager)
            await service.start(width, height)
            self.hall.join(hosted, visitor)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as exc:
            log.error("%s: the browser session of seat %s failed: %s", hosted.id, seat.name, exc)
        finally:
            self.hall.leave(hosted, visitor)
            if service is not None:
                await _stop(service)
        return websocket


async def _stop(service: SeatAppService) -> None:
    """Ask the app to quit; kill it if it does not go."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(service.stop(), 3)
    process = service._process
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, 9)
        await process.wait()


class WebDoor:
    def __init__(self, hall: Hall) -> None:
        self.server = SeatWebServer(hall)
        self.runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> str:
        """Listen; returns the base address (seats add /seat/TOKEN)."""
        self.runner = web.AppRunner(await self.server._make_app(), access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        sockets = site._server.sockets if site._server is not None else []  # type: ignore[union-attr]
        bound = sockets[0].getsockname()[1] if sockets else port
        return f"http://{host}:{bound}"

    async def stop(self) -> None:
        if self.runner is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.runner.cleanup(), 5)
