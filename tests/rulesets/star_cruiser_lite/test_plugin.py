"""The plugin as a whole: declarations, options, scenarios, set-up imports and the example save."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected
from rulesets.star_cruiser_lite import plugin
from rulesets.star_cruiser_lite.phases import MACHINE

from .helpers import engine

PKG = Path(__file__).resolve().parents[3] / "rulesets" / "star_cruiser_lite"


def test_plugin_check() -> None:
    plugin.check()


def test_every_digest_step_is_in_the_machine() -> None:
    steps = set(MACHINE.steps)
    for sid in [
        "SETUP",
        "M0.ORDERS",
        "M0.PRODUCTION",
        "M0.COLONY_INITIATIVES",
        "M0.CONSTRUCTION",
        "M0.RESUPPLY",
        "M0.POLITICAL",
        "M0.REPORT",
        "W.ORDERS",
        "W.UPKEEP",
        "W.MINES",
        "W.DETECT_TF",
        "W.PREEMPT",
        "PRE.CHECK",
        "PRE.AVOIDED",
        "W.DETECT_FAC",
        "W.REORG",
        "W.COORDINATE",
        "W.ACTIONS",
        "W.SPECIALS",
        "W.MOVES",
        "W.END",
        "W.REPORT",
        "CAMPAIGN_END",
        "CMB.SETUP",
        "CMB.ROUND_START",
        "CMB.AROUSAL",
        "CMB.RANGE",
        "CMB.BREAKOFF",
        "CMB.BOARDING",
        "CMB.ALLOCATE",
        "CMB.FIRE",
        "CMB.APPLY",
        "CMB.NC_BREAKOFF",
        "CMB.END",
        "BRD.LAUNCH",
        "BRD.SECTION",
        "BRD.RETREAT",
        "BRD.DONE",
        "GRD.ORBIT",
        "GRD.BOMBARD",
        "GRD.LAND",
        "GRD.OUTER",
        "GRD.INNER",
        "GRD.CAPTURE",
        "GRD.DONE",
    ]:
        assert sid in steps, sid
    assert MACHINE.reachable() == steps


def test_every_formula_is_a_procedure_by_its_digest_id() -> None:
    for n in range(1, 48):
        fid = f"F-{n:02d}"
        assert plugin.procedure(fid).reference.startswith(fid[:4]), fid


def test_options_come_from_the_digest_and_are_used() -> None:
    code = "\n".join(p.read_text() for p in PKG.glob("*.py"))
    for opt in plugin.options():
        assert re.match(r"(DEFAULT-\d\d|G-\d\d)", opt.reference), opt.id
        assert opt.help and len(opt.help.splitlines()) == 1
        assert f'"{opt.id}"' in code, f"option {opt.id} is not used"


def test_demo_data_is_labelled_and_unverified() -> None:
    cat = plugin.catalog()
    for tid in ("demo_bb", "demo_dd", "kaf_bb", "kaf_epsilon"):
        assert cat.type(tid).provenance.grade == "demo" and not cat.type(tid).verified
    assert cat.type("bde_m").provenance.grade == "rulebook"
    scen = plugin.scenario("demo")
    assert scen.provenance == "demo" and "not the rulebook" in scen.description.lower()


@pytest.mark.parametrize("sid", ["demo", "skeleton"])
def test_scenarios_open_into_their_first_prompt(sid: str) -> None:
    e = Engine.create(plugin, sid, seed=2)
    st = e.status()
    assert st.step == "SETUP" and st.prompt and st.can_advance
    assert plugin.validate_state(e.state) == []
    e.advance()
    assert e.state.step == "M0.ORDERS"


def test_skeleton_holds_the_seeds_nations() -> None:
    e = Engine.create(plugin, "skeleton", seed=2)
    assert set(e.state.sides) == {"AME", "BRI", "FRA", "GER", "JAP", "MAN", "KAF"}
    assert not e.state.records("nations")["MAN"]["at_war"]
    e.advance()
    missing = e.status().missing
    assert missing and "Japan" in missing[0] and "Manchuria" not in missing[0], (
        "only nations at war send orders"
    )


MAP = """
[[systems]]
id = "HEN"
name = "Henry's Star"
bodies = 15
links = ["KIM", "QAS"]

[[systems]]
id = "NEW"
name = "New System"
bodies = 3
links = ["HEN"]

[[colonies]]
id = "newhope"
name = "New Hope"
system = "NEW"
owner = "AME"
pop = 4
sp_output = 2
paranoia = "High"
"""

OOB = """
[[task_forces]]
id = "AME-7"
system = "NEW"
ships = [{ id = "ame-cg-9", type = "fra_suffren", name = "CG Borrowed" }]

[[commanders]]
id = "adm-ame-9"
name = "Commodore Test"
nation = "AME"
flag = true
ship = "ame-cg-9"
"""

CATALOG = """
[types.ame_kennedy]
name = "Kennedy-class cruiser"
code = "CG"
nation = "AME"
bm = 6
mi = 5
sv = 3
df = 14
sc = 2
sn = 3
mv = 4
size = 4
req_sp = 14
cy_sp = 6
"""


def test_the_gm_imports_map_classes_and_forces_in_setup() -> None:
    e = engine()
    e.perform("import_map", {"text": MAP})
    e.perform("import_catalog", {"text": CATALOG})
    e.perform("import_oob", {"text": OOB})
    assert e.state.records("systems")["HEN"]["bodies"] == 15
    assert "NEW" in e.state.records("systems") and e.state.records("colonies")["newhope"]["owner"] == "AME"
    assert e.catalog.type("ame_kennedy").attrs["df"] == 14
    cmd = e.state.records("commanders")["adm-ame-9"]
    assert cmd["rolled"] and cmd["ftac"] is not None
    assert e.state.units["ame-cg-9"].formation == "AME-7"
    with pytest.raises(ActionRejected, match="df"):
        e.perform("import_catalog", {"text": '[types.bad]\ncode = "DD"\ndf = "lots"\n'})
    with pytest.raises(ActionRejected, match="unexpected sections"):
        e.perform("import_map", {"text": '[[task_forces]]\nid = "X-1"\n'})


def test_setup_actions_for_the_map() -> None:
    e = engine()
    e.perform("add_system", {"id": "ZED", "name": "Zed", "bodies": 2, "links": "QAS", "volume": 5})
    e.perform("add_link", {"a": "ZED", "b": "BCV"})
    e.perform(
        "add_colony",
        {
            "id": "zed1",
            "name": "Zed One",
            "system": "ZED",
            "owner": "BRI",
            "pop": 3,
            "sp_output": 2,
            "paranoia": "Low",
        },
    )
    e.perform("add_facility", {"nation": "BRI", "type": "ASB", "system": "ZED", "modules": 2, "sp": "12 1/2"})
    e.perform("set_relations", {"a": "BRI", "b": "FRA", "level": 9})
    assert e.state.records("systems")["ZED"]["links"] == ["BCV", "QAS"]
    assert e.state.formations["BRI-F3"].data["sp"] == "12 1/2"
    assert e.state.vars["relations"]["BRI|FRA"] == 9
    e.perform("designate_flagship", {"type": "demo_cg"})
    assert e.catalog.type("demo_cg").attrs["flagship"] is True


def test_example_save_opens_and_replays() -> None:
    from campaign_tui.registry import load_ruleset
    from campaign_tui.store.files import BundleStore

    save = Path(__file__).resolve().parents[3] / "saves" / "star_cruiser_lite-demo.toml"
    opened = BundleStore.open(save, load_ruleset, read_only=True)
    e = opened.engine
    assert not opened.warnings, opened.warnings
    rebuilt = Engine.initial_state(
        e.ruleset, e.info.scenario, dict(e.initial.options), e.dice_mode(e.initial)
    )
    replayed = Engine.replay(e.ruleset, rebuilt, e.info, e.entries())
    assert replayed.state == e.state
    assert sum(len(en.rolls) for en in e.entries()) > 100
    assert e.state.records("battles"), "the example fights a battle"
