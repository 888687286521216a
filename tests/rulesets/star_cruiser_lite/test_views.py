"""Per-nation views and reports: each nation sees its own forces and what it detected."""

from __future__ import annotations

from campaign_tui.core.engine import Engine
from rulesets.star_cruiser_lite import example, plugin

from .helpers import engine, to_step


def played() -> Engine:
    e = Engine.create(plugin, example.SCENARIO, seed=example.SEED)
    example.play(e)
    return e


def test_a_nation_sees_only_its_own_forces() -> None:
    e = played()
    view = e.view("FRA")
    assert not any(f.side != "FRA" and f.kind == "task_force" for f in view.formations.values())
    assert all(u.side == "FRA" for u in view.units.values())
    assert set(view.secrets) <= {"FRA"}
    assert all(c["nation"] == "FRA" for c in view.records("commanders").values())
    assert all(j["nation"] == "FRA" for j in view.records("construction").values())
    for rec in view.records("nations").values():
        assert set(rec) <= {"name", "kafer", "at_war"} or rec is view.records("nations")["FRA"]
    for s in view.records("systems").values():
        assert set(s.get("minefields", {})) <= {"FRA"}
    assert "battle" not in view.vars and "detections" not in view.vars


def test_undetected_facilities_stay_hidden_until_found() -> None:
    e = engine()
    kaf = e.view("KAF")
    assert "BRI-F2" not in kaf.formations and "AME-F1" not in kaf.formations
    cfr = kaf.formations["FRA-F1"]
    assert cfr.data == {}, "a colony repair facility is known to exist, not its contents"


def test_reports_do_not_leak_between_nations() -> None:
    e = played()
    fra = "\n".join(plugin.reports(e.view("FRA"), "FRA").values())
    kaf = "\n".join(plugin.reports(e.view("KAF"), "KAF").values())
    ame = "\n".join(plugin.reports(e.view("AME"), "AME").values())
    assert "National report FRA" not in kaf and "Kafer battleship A" in kaf
    assert "CG Houston" not in fra and "CG Houston" in ame
    # France detected the Kafers: its report has that intelligence, America's does not
    assert "Kafers task force present at ETB" in fra and "Kafers task force present" not in ame
    assert "Epsilon cruiser 3" not in fra  # never seen
    # battle details only for the nations that fought
    assert "## Battles" in fra and "## Battles" not in ame
    # a general report for everyone
    assert "battle at ETB" in ame


def test_gm_gets_every_report_and_referee_notes() -> None:
    e = played()
    reports = plugin.reports(e.view("gm"), "gm")
    titles = list(reports)
    assert titles[0].startswith("General report")
    assert sum(t.startswith("National report") for t in titles) == 4
    notes = next(v for k, v in reports.items() if k.startswith("Referee notes"))
    assert "| ETB | FRA | KAF-1 |" in notes


def test_resolution_log_entries_are_the_referees() -> None:
    e = played()
    resolved = [en for en in e.entries() if en.kind == "run_to_report"]
    assert resolved and all(en.visibility == "gm" for en in resolved)
    assert not any(en.visible_to("FRA") for en in resolved)


def test_week_report_shows_own_supply_and_orders() -> None:
    e = engine()
    to_step(e, "W.REPORT")
    text = "\n".join(plugin.reports(e.view("AME"), "AME").values())
    assert "Core stockpile at QAS" in text and "**AME-1** at QAS" in text
    assert "Kafer" not in text.split("## Task forces")[1].split("## Intelligence")[0]
