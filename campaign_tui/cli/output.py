"""Standard output for the commands: control characters from names, notes or received
files shown escaped, and a reader that went away (``| head``) never turning finished work
into a traceback or a failure."""

from __future__ import annotations

import os
import re
from typing import Any

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def escape_controls(text: str) -> str:
    """Control characters (ESC, BEL, ...) shown as ``\\u001b`` instead of reaching the
    terminal; line breaks and tabs stay. The escape is also valid inside a JSON string."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def silence(stream: Any) -> None:
    """Point *stream*'s file at /dev/null: what is still buffered goes nowhere, also when
    Python flushes at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (tests capture it)
        pass


class PipeSafe:
    """A wrapper for stdout: control characters escaped, and what cannot be written
    dropped once the reader has gone away."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.broken = False

    def write(self, text: str) -> int:
        if not self.broken:
            try:
                return self._stream.write(escape_controls(text))
            except BrokenPipeError:
                self._break()
        return len(text)

    def flush(self) -> None:
        if not self.broken:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._break()

    def _break(self) -> None:
        self.broken = True
        silence(self._stream)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
