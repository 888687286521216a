"""One seat's TUI as a child process in a pseudo-terminal: started at the client's size and
terminal type, fed the client's keys, resized with the client's window, stopped when the
client goes (and the client told when the child goes)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import pty
import signal
import struct
import termios
from collections.abc import Callable

DEFAULT_TERM = "xterm-256color"
STOP_GRACE = 2.0       # seconds between the hang-up and the kill


def set_size(fd: int, cols: int, rows: int) -> None:
    """Tell the terminal its size (the kernel signals the child's SIGWINCH)."""
    cols, rows = max(1, min(cols, 1000)), max(1, min(rows, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def _become_terminal_owner() -> None:  # in the child, before exec
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def child_environment(extra: dict[str, str], term: str) -> dict[str, str]:
    """The server's environment for a seat's child, with the client's terminal type. No
    COLUMNS/LINES: they would pin the size (the terminal itself tells it, resizes too)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "LINES", "TMUX", "TMUX_PANE", "SSH_AUTH_SOCK", "TEXTUAL_DRIVER")}
    env["TERM"] = term or DEFAULT_TERM
    env.update({k: v for k, v in extra.items() if k not in ("COLUMNS", "LINES")})
    return env


class PtyChild:
    """The child process and the master side of its terminal."""

    def __init__(self, on_output: Callable[[bytes], None],
                 on_exit: Callable[[int], None]) -> None:
        self.on_output = on_output
        self.on_exit = on_exit
        self.master: int | None = None
        self.process: asyncio.subprocess.Process | None = None
        self._pending = bytearray()     # keys not yet taken by the terminal
        self._reading = False
        self._waiter: asyncio.Task[None] | None = None

    async def start(self, argv: list[str], env: dict[str, str], cols: int, rows: int) -> None:
        master, slave = pty.openpty()
        try:
            set_size(slave, cols, rows)
            self.process = await asyncio.create_subprocess_exec(
                *argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                preexec_fn=_become_terminal_owner, close_fds=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        self.master = master
        self.resume()
        self._waiter = asyncio.get_running_loop().create_task(self._wait())

    async def _wait(self) -> None:
        assert self.process is not None
        code = await self.process.wait()
        # let the last output through before the terminal closes
        for _ in range(64):
            if not self._drain_output():
                break
        self._close_master()
        self.on_exit(code)

    def _drain_output(self) -> bool | None:
        """Pass on what the child wrote: True when something was read, False when nothing
        was waiting, None at the end (the child closed its terminal)."""
        if self.master is None:
            return None
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return False
        except OSError:
            return None
        if not data:
            return None
        self.on_output(data)
        return True

    def _readable(self) -> None:
        if self._drain_output() is None:
            self.pause()

    def pause(self) -> None:
        """Stop reading the child's output (the client is not keeping up)."""
        if self._reading and self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)
        self._reading = False

    def resume(self) -> None:
        if not self._reading and self.master is not None:
            asyncio.get_running_loop().add_reader(self.master, self._readable)
            self._reading = True

    def write(self, data: bytes) -> None:
        if self.master is None:
            return
        self._pending += data
        self._flush()

    def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        if self.master is None:
            return
        while self._pending:
            try:
                n = os.write(self.master, self._pending)
            except BlockingIOError:
                loop.add_writer(self.master, self._writable)
                return
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.EBADF):
                    self._pending.clear()
                    return
                raise
            del self._pending[:n]
        with contextlib.suppress(ValueError, OSError):
            loop.remove_writer(self.master)

    def _writable(self) -> None:
        self._flush()

    def resize(self, cols: int, rows: int) -> None:
        if self.master is not None:
            with contextlib.suppress(OSError):
                set_size(self.master, cols, rows)

    def _signal(self, sig: int) -> None:
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, sig)

    async def stop(self) -> None:
        """Hang up on the child; kill it if it lingers; wait for it."""
        if self.process is None:
            return
        self._signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(asyncio.shield(self.process.wait()), STOP_GRACE)
        except TimeoutError:
            self._signal(signal.SIGKILL)
            await self.process.wait()
        if self._waiter is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._waiter

    def _close_master(self) -> None:
        if self.master is None:
            return
        loop = asyncio.get_running_loop()
        self.pause()
        with contextlib.suppress(ValueError, OSError):
            loop.remove_writer(self.master)
        os.close(self.master)
        self.master = None
