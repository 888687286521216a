"""The SSH door with real asyncssh clients over the loopback: only a seat's key gets in, and
whatever the client asks for, it gets its seat's screen and nothing else."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncssh
import pytest

from campaign_tui.hosted.seats import Seat
from campaign_tui.store.atomic import pid_alive
from tests.hosted.door_helpers import connect, new_key, open_screen, public, serving, write_seats

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def keys() -> dict[str, asyncssh.SSHKey]:
    return {name: new_key() for name in ("gm", "a", "b", "stranger")}


@pytest.fixture
def seated(campaign: Path, keys: dict[str, asyncssh.SSHKey]) -> Path:
    write_seats(campaign, [Seat("boss", None, (public(keys["gm"]),)),
                           Seat("alice", "A", (public(keys["a"]),)),
                           Seat("bob", "B", (public(keys["b"]),))])
    return campaign


async def test_each_key_opens_its_own_seat_at_the_client_size(seated, keys):
    async with serving([seated]) as served:
        for key, seat, side in (("gm", "boss", "gm"), ("a", "alice", "A"), ("b", "bob", "B")):
            async with await connect(served, keys[key], user="anyone") as conn:
                screen = await open_screen(conn, 90, 28)
                shown = await screen.wait_for(f"SEAT {seat} SIDE {side}")
                assert "SIZE 90x28" in shown
                screen.resize(120, 40)
                await screen.wait_for("SIZE 120x40")
                screen.process.stdin.write(b"hello")
                await screen.wait_for("TYPED hello")
                screen.process.stdin.write(b"\x11")          # ctrl+q ends the seat's TUI
                assert await screen.ended() == 0


async def test_a_strangers_key_is_refused_with_a_log_line(seated, keys):
    async with serving([seated]) as served:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served, keys["stranger"])
        assert any("refused" in line and keys["stranger"].get_fingerprint() in line
                   for line in served.logs)


async def test_passwords_and_keyboard_interactive_are_refused(seated):
    async with serving([seated]) as served:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served, None, password="secret", preferred_auth="password")
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served, None, preferred_auth="keyboard-interactive",
                          kbdint_auth=True, password="secret")


async def test_no_port_forwarding_no_sftp_no_subsystem(seated, keys):
    async with serving([seated]) as served:
        async with await connect(served, keys["a"]) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_connection("127.0.0.1", served.port)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
            with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError, OSError)):
                async with conn.start_sftp_client():
                    pass
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_process(subsystem="anything", encoding=None)
        assert any("'sftp' subsystem: refused" in line for line in served.logs)


async def test_an_exec_request_starts_the_seat_tui_never_the_command(seated, keys, tmp_path):
    marker = tmp_path / "pwned"
    async with serving([seated]) as served:
        async with await connect(served, keys["b"]) as conn:
            screen = await open_screen(conn, 80, 24, command=f"touch {marker}; sh")
            await screen.wait_for("SEAT bob SIDE B")
            screen.process.stdin.write(b"\x11")
            await screen.ended()
        assert not marker.exists()
        assert any("asked to run" in line for line in served.logs)


async def test_a_removed_seat_is_closed_and_cannot_come_back(seated, keys):
    async with serving([seated]) as served:
        async with await connect(served, keys["a"]) as conn:
            screen = await open_screen(conn)
            await screen.wait_for("SEAT alice SIDE A")
            write_seats(seated, [Seat("bob", "B", (public(keys["b"]),))])
            await screen.ended(timeout=15)
            assert "removed or changed" in screen.raw.decode("utf-8", "replace")
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(served, keys["a"])
        # an added seat gets in without a restart
        write_seats(seated, [Seat("carol", "A", (public(keys["stranger"]),))])
        await asyncio.sleep(0.1)
        async with await connect(served, keys["stranger"]) as conn:
            screen = await open_screen(conn)
            await screen.wait_for("SEAT carol SIDE A")


async def test_with_several_campaigns_the_user_name_picks_one(seated, keys, tmp_path):
    other = tmp_path / "other.toml"
    other.write_bytes(seated.read_bytes())
    write_seats(other, [Seat("ann", "A", (public(keys["a"]),))])
    async with serving([seated, other]) as served:
        for user, seat in (("table", "alice"), ("other", "ann")):
            async with await connect(served, keys["a"], user=user) as conn:
                screen = await open_screen(conn)
                await screen.wait_for(f"SEAT {seat} SIDE A CAMPAIGN {user}.toml")
        with pytest.raises(asyncssh.PermissionDenied):   # one key, two campaigns: say which
            await connect(served, keys["a"], user="nobody")
        async with await connect(served, keys["b"], user="nobody") as conn:  # only one has it
            await (await open_screen(conn)).wait_for("SEAT bob")


async def test_a_dropped_client_stops_its_seat_process(seated, keys):
    async with serving([seated]) as served:
        conn = await connect(served, keys["a"])
        screen = await open_screen(conn)
        await screen.wait_for("SEAT alice")
        hosted = served.where.hall.hosted[0]
        [session] = hosted.connections
        pid = session.child.process.pid
        conn.abort()
        for _ in range(50):
            if not hosted.connections and not pid_alive(pid):
                break
            await asyncio.sleep(0.1)
        assert hosted.connections == []
        assert not pid_alive(pid)
