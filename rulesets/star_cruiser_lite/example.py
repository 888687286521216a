"""The bundled example campaign (saves/star_cruiser_lite-demo.toml).

It plays the demonstration scenario's first Week 0 and two action weeks with real rolls:
Britain's Week 0 orders (construction, resupply, a political request), then sample orders for
France, America and the Kafers imported from ``data/orders/`` (the Kafer raider already at Eta
Bootis holds); in week 2 the Kafers arriving at Eta Bootis meet a French pre-emptive attack
and then attack the French task force.
"""

from __future__ import annotations

from importlib import resources

from campaign_tui.core.engine import Engine

SCENARIO = "demo"
SEED = 1
NAME = "Star Cruiser Lite demonstration"
FILE = "star_cruiser_lite-demo.toml"
OPTIONS: dict[str, object] = {}


def orders(name: str) -> str:
    """The text of a sample orders file shipped in the package."""
    return (resources.files("rulesets.star_cruiser_lite") / "data" / "orders" / name).read_text(
        encoding="utf-8"
    )


def play(engine: Engine) -> None:
    engine.advance()  # set-up done: month 1, Week 0 orders
    engine.perform("import_orders", {"text": orders("orders-bri-m1w0.toml")})
    engine.perform("default_orders")
    engine.perform("run_to_report")  # production ... Week 0 report
    engine.advance()  # week 1 orders
    for name in ("orders-fra-m1w1.toml", "orders-kaf-m1w1.toml", "orders-ame-m1w1.toml"):
        engine.perform("import_orders", {"text": orders(name)})
    engine.perform("default_orders")
    engine.perform("run_to_report")
    engine.advance()  # week 2 orders
    engine.perform("import_orders", {"text": orders("orders-kaf-m1w2.toml")})
    engine.perform(
        "set_tf_order",
        {
            "tf": "FRA-1",
            "movement": "defend",
            "detection": "attack",
            "patrols": '[["fra-dd-1"]]',
            "contingency": "BCV",
        },
    )
    engine.perform("default_orders")
    engine.perform("run_to_report")  # detection, pre-emptive attack, battle
