"""Where a stack or ship is, written as one short string (the formation's ``location``).

* ``planet:<planet>``                      at a planet (in its system's starburst)
* ``transit:<route>:<box>:<heading>``      in transit box <box> (numbered from the route's
                                           end ``a``), travelling toward system <heading>
* ``circle:<circle>``                      in a Sathar start circle
* ``red:<circle>:<i>:in|out``              in red box <i> (counted from the circle), heading
                                           for the system (in) or back to the circle (out)
* ``offmap`` (Strike Force NOVA before placement), ``reserve`` (Sathar not yet placed, ships
  back from the Void), ``void`` (Sathar repairing in the Void), ``lost`` (displaced by a
  misjump), ``unassigned`` (UPF non-attached ships before set-up), ``withdrawn`` (Sathar gone
  home after the retreat), ``destroyed``.
"""

from __future__ import annotations

from dataclasses import replace

from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.records import record

OFF_MAP = ("offmap", "reserve", "void", "lost", "unassigned", "withdrawn", "destroyed")


@record(frozen=True)
class Loc:
    kind: str
    planet: str = ""
    route: str = ""
    box: int = 0
    heading: str = ""
    circle: str = ""
    inward: bool = True

    @property
    def on_map(self) -> bool:
        return self.kind in ("planet", "transit", "circle", "red")

    def __str__(self) -> str:
        return fmt(self)

    def moved(self, **changes: object) -> Loc:
        return replace(self, **changes)  # type: ignore[arg-type]


def parse(text: str | None) -> Loc:
    if not text:
        return Loc("unassigned")
    parts = str(text).split(":")
    kind = parts[0]
    try:
        if kind == "planet" and len(parts) == 2:
            return Loc("planet", planet=parts[1])
        if kind == "transit" and len(parts) == 4:
            return Loc("transit", route=parts[1], box=int(parts[2]), heading=parts[3])
        if kind == "circle" and len(parts) == 2:
            return Loc("circle", circle=parts[1])
        if kind == "red" and len(parts) == 4:
            return Loc("red", circle=parts[1], box=int(parts[2]), inward=parts[3] == "in")
    except ValueError:
        pass
    if kind in OFF_MAP and len(parts) == 1:
        return Loc(kind)
    raise InvalidInput(
        f"{text!r} is not a map position (planet:<id>, transit:<route>:<box>:<heading>, "
        "circle:<id>, red:<circle>:<i>:in|out, offmap, reserve...)"
    )


def fmt(loc: Loc) -> str:
    if loc.kind == "planet":
        return f"planet:{loc.planet}"
    if loc.kind == "transit":
        return f"transit:{loc.route}:{loc.box}:{loc.heading}"
    if loc.kind == "circle":
        return f"circle:{loc.circle}"
    if loc.kind == "red":
        return f"red:{loc.circle}:{loc.box}:{'in' if loc.inward else 'out'}"
    return loc.kind


def planet(pid: str) -> str:
    return f"planet:{pid}"
