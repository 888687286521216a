"""Write the bundled example campaigns in saves/ from each rule set's example.py.

    python tools/make_examples.py            # every rule set that has an example
    python tools/make_examples.py prefect    # one

Each rule set's ``example.py`` gives SCENARIO, SEED, NAME, FILE, optionally OPTIONS, and
``play(engine)``, which plays a few turns with real rolls. The result is exported as a
single-file bundle into saves/.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from campaign_tui.core.engine import Engine
from campaign_tui.registry import registry
from campaign_tui.store.files import export_bundle

SAVES = Path(__file__).resolve().parent.parent / "saves"


def make(rid: str) -> Path | None:
    plugin = registry().load(rid)
    try:
        example = importlib.import_module(f"{plugin.package}.example")
    except ModuleNotFoundError:
        return None
    engine = Engine.create(plugin, example.SCENARIO, getattr(example, "OPTIONS", {}),
                           example.SEED, "auto", example.NAME)
    example.play(engine)
    out = SAVES / example.FILE
    export_bundle(engine, out)
    return out


def main(argv: list[str]) -> int:
    ids = argv or registry().ids()
    for rid in ids:
        out = make(rid)
        print(f"{rid}: {out if out else 'no example.py'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
