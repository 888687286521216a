"""A table server without a door, for tests, benchmarks and scripts:

    python -m campaign_tui.hosted.run_table CAMPAIGN RUNTIME_DIR [NAME:SIDE|NAME:gm ...]

prints one JSON line (the socket and each named seat's token), then serves until killed.
(The real door is `campaign-tui serve`, which starts seats itself.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from pathlib import Path

from campaign_tui.hosted.identity import SeatInfo, seat_token
from campaign_tui.hosted.table_server import TableServer
from campaign_tui.store.paths import places


async def serve(campaign: Path, runtime: Path, seats: list[SeatInfo]) -> None:
    server = TableServer(places(None).ensure(), campaign, runtime)
    await server.start()
    tokens = {s.name: seat_token(server.secret, s) for s in seats}
    print(json.dumps({"socket": str(server.socket_path), "tokens": tokens}), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    seats = []
    for spec in argv[2:]:
        name, _, side = spec.partition(":")
        seats.append(SeatInfo(name, None if side in ("", "gm") else side))
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(Path(argv[0]), Path(argv[1]), seats))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
