"""Splitting a byte stream into protocol lines, without ever holding more than the limit
of one line: a longer line is reported as too long and skipped up to its newline."""

from __future__ import annotations

TOO_LONG = object()


class LineBuffer:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._skipping = False

    def feed(self, data: bytes) -> list[bytes | object]:
        """The complete lines *data* ends (TOO_LONG for each oversized one)."""
        out: list[bytes | object] = []
        self._buf += data
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if len(self._buf) > self.limit:
                    if not self._skipping:
                        out.append(TOO_LONG)
                    self._skipping = True
                    self._buf.clear()
                return out
            line = bytes(self._buf[:nl])
            del self._buf[:nl + 1]
            if self._skipping:
                self._skipping = False
                continue
            if len(line) > self.limit:
                out.append(TOO_LONG)
            elif line.strip():
                out.append(line)
