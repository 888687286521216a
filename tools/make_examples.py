"""Write the bundled example campaigns in saves/ from each rule set's example.py.

    python tools/make_examples.py            # every rule set that has an example
    python tools/make_examples.py prefect    # one

Each of a rule set's ``example.py`` and ``example_*.py`` modules gives SCENARIO, SEED,
NAME, FILE, optionally OPTIONS, and ``play(engine)``, which plays a few turns with real
rolls. Each result is exported as a single-file bundle into saves/.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from campaign_tui.core.engine import Engine
from campaign_tui.registry import registry
from campaign_tui.store.files import export_bundle

SAVES = Path(__file__).resolve().parent.parent / "saves"


def example_modules(package: str) -> list[str]:
    from importlib import resources

    names = sorted(p.name[:-3] for p in resources.files(package).iterdir()
                   if p.name.startswith("example") and p.name.endswith(".py"))
    return [f"{package}.{n}" for n in names]


def make(rid: str) -> list[Path]:
    plugin = registry().load(rid)
    written = []
    for name in example_modules(plugin.package):
        example = importlib.import_module(name)
        engine = Engine.create(plugin, example.SCENARIO, getattr(example, "OPTIONS", {}),
                               example.SEED, "auto", example.NAME)
        example.play(engine)
        out = SAVES / example.FILE
        export_bundle(engine, out)
        written.append(out)
    return written


def main(argv: list[str]) -> int:
    ids = argv or [i for i in registry().ids() if i != "demo"]
    for rid in ids:
        for out in make(rid) or ["no example module"]:
            print(f"{rid}: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
