"""Orders files: imported good ones, and bad ones refused with clear messages on their lines."""

from __future__ import annotations

import pytest

from campaign_tui.core.errors import ActionRejected

from .helpers import engine, orders_text, to_step


@pytest.fixture
def week1():  # type: ignore[no-untyped-def]
    e = engine()
    to_step(e, "W.ORDERS")
    return e


def test_the_sample_orders_import(week1) -> None:  # type: ignore[no-untyped-def]
    for name in ("orders-fra-m1w1.toml", "orders-kaf-m1w1.toml", "orders-ame-m1w1.toml"):
        week1.perform("import_orders", {"text": orders_text(name)})
    o = week1.state.secrets["FRA"]["orders"]
    assert o["tf"]["FRA-1"]["movement"] == "defend" and o["tf"]["FRA-1"]["patrols"] == [["fra-dd-1"]]
    assert o["tf"]["FRA-1"]["breakoff"] == {"damaged_pct": 50, "flagship_lost": True}
    assert o["resupply"] == {"FRA-1": "merchants"}
    assert week1.state.secrets["KAF"]["orders"]["tf"]["KAF-1"]["entry"] == "overt"
    assert week1.state.secrets["AME"]["orders"]["tf"]["AME-2"]["special"] == ["survey"]
    assert week1.status().missing == [
        "orders still missing from Britain (import them, or give standing orders with default_orders)"
    ]


BAD = """[turn]
nation = "AME"
month = 1
week = 1

[tf.AME-1]
movement = "move"
destination = "HOC"
entry = "covert"

[tf.AME-2]
movement = "escort"

[tf.KAF-1]
movement = "hold"

[tf.AME-9]
movement = "hold"

[tf.AME-1b]
movement = "fly"
"""


def test_a_bad_file_lists_every_problem_with_its_line(week1) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ActionRejected) as exc:
        week1.perform("import_orders", {"text": BAD})
    msg = str(exc.value)
    assert "line 8: AME-1: HOC is not linked to QAS" in msg
    assert "line 12: AME-2: the Escort order is only for task forces of" in msg and "CG" in msg
    assert "line 14: KAF-1 belongs to KAF, not AME" in msg
    assert "line 17: AME-9: no task force with that id" in msg
    assert "line 20: AME-1b: no task force" in msg
    assert week1.state.secrets["AME"]["orders"]["week"] == 0, "nothing kept from a refused file"


def test_toml_syntax_errors_name_the_line(week1) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ActionRejected, match=r"not a valid TOML file: .*line 3"):
        week1.perform("import_orders", {"text": '[turn]\nnation = "AME"\nweek = = 1\n'})


def test_orders_for_another_week_are_refused(week1) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ActionRejected, match="line 6: these orders are for month 1, week 0"):
        week1.perform("import_orders", {"text": orders_text("orders-bri-m1w0.toml")})


def test_covert_entry_limits(week1) -> None:  # type: ignore[no-untyped-def]
    kafer = '[turn]\nnation = "KAF"\n\n[tf.KAF-1]\nmovement = "move"\ndestination = "ETB"\nentry = "covert"\n'
    with pytest.raises(ActionRejected, match="line 7: KAF-1: Kafers always enter overtly"):
        week1.perform("import_orders", {"text": kafer})
    # AME-2's commander is a captain (fTac 0): no covert entry for its 4 ships
    ame = '[turn]\nnation = "AME"\n\n[tf.AME-2]\nmovement = "move"\ndestination = "ETB"\nentry = "covert"\n'
    with pytest.raises(ActionRejected, match=r"covert entry allows at most 2 x fTac 0 = 0 ships"):
        week1.perform("import_orders", {"text": ame})


def test_patrols_are_limited_by_fleet_tactics(week1) -> None:  # type: ignore[no-untyped-def]
    text = (
        '[turn]\nnation = "FRA"\n\n[tf.FRA-1]\ndetection = "attack"\nmovement = "defend"\n'
        'patrols = [["fra-dd-1"], ["fra-ff-1"], ["fra-mf-1"]]\n'
    )
    with pytest.raises(
        ActionRejected, match="line 7: FRA-1: 3 patrol elements but the commander's fTac is 2"
    ):
        week1.perform("import_orders", {"text": text})


def test_recon_refused_for_non_combatants_and_specials_need_attack_or_defend(week1) -> None:  # type: ignore
    week1.perform("reorganize", {"ships": "ame-mf-1", "from_tf": "AME-1", "to_tf": "AME-6"})
    text = '[turn]\nnation = "AME"\n\n[tf.AME-1]\nmovement = "hold"\nspecial = "mining_deploy"\n'
    with pytest.raises(ActionRejected, match="a special order goes with an Attack or Defend order"):
        week1.perform("import_orders", {"text": text})


def test_week0_refuses_recombination_and_movement() -> None:
    e = engine()
    e.advance()
    text = (
        '[turn]\nnation = "AME"\nmonth = 1\nweek = 0\n\n[tf.AME-1]\nmovement = "move"\n\n'
        '[[reorganize]]\nships = ["ame-dd-1"]\nfrom = "AME-1"\nto = "AME-7"\n'
    )
    with pytest.raises(ActionRejected) as exc:
        e.perform("import_orders", {"text": text})
    msg = str(exc.value)
    assert "line 7: AME-1: Week 0 has no detection or movement actions" in msg
    assert "line 9: task forces cannot be recombined in Week 0" in msg
    with pytest.raises(ActionRejected, match="cannot be recombined in Week 0"):
        e.perform("reorganize", {"ships": "ame-dd-1", "from_tf": "AME-1", "to_tf": "AME-7"})


def test_construction_orders_are_checked() -> None:
    e = engine()
    e.advance()
    text = (
        '[turn]\nnation = "AME"\nmonth = 1\nweek = 0\n\n'
        '[[construction]]\nlocation = "bcv4"\nitem = "demo_dd"\n\n'
        '[[construction]]\nitem = "SubD"\nlocation = "kim2"\n\n[[construction]]\nitem = "warp_gate"\n'
    )
    with pytest.raises(ActionRejected) as exc:
        e.perform("import_orders", {"text": text})
    msg = str(exc.value)
    assert "line 7: bcv4 is not a AME colony" in msg
    assert "line 11: SubD can only be built in the Core" in msg
    assert "line 15: unknown item 'warp_gate'" in msg


def test_orders_stay_secret_to_their_nation(week1) -> None:  # type: ignore[no-untyped-def]
    out = week1.perform("import_orders", {"text": orders_text("orders-fra-m1w1.toml")})
    assert out.entry.visibility == "FRA"
    assert out.entry.visible_to("FRA") and not out.entry.visible_to("KAF")
    assert "orders" not in week1.view("KAF").secrets.get("FRA", {})
    assert "FRA" not in week1.view("AME").secrets


def test_set_tf_order_checks_like_a_file(week1) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ActionRejected, match="not linked"):
        week1.perform("set_tf_order", {"tf": "FRA-1", "movement": "move", "destination": "QAS"})
    week1.perform(
        "set_tf_order", {"tf": "FRA-1", "movement": "move", "destination": "BCV", "entry": "covert"}
    )
    assert week1.state.secrets["FRA"]["orders"]["tf"]["FRA-1"]["entry"] == "covert"
