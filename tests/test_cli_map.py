"""campaign-tui map: the SVG picture of any campaign, map files in and out, the map library."""

from __future__ import annotations

import xml.dom.minidom
from pathlib import Path

import pytest

from campaign_tui.cli import EXIT_FAIL, EXIT_OK
from tests.cli_helpers import fresh_registry, run  # noqa: F401

RULESETS = ("prestags", "prefect", "fifth_frontier_war", "star_cruiser_lite", "second_sathar_war")
DEMO_MAPS = {"prestags": "demo_mapsheet.toml", "prefect": "demo_planet.toml"}
ROOT = Path(__file__).resolve().parent.parent


def new(capsys, rid: str) -> str:
    code, out, _ = run(capsys, "new", rid, "--seed", "3", "--name", f"map {rid}")
    assert code == EXIT_OK
    return out.strip()


def texts(svg: Path, cls: str) -> list[str]:
    doc = xml.dom.minidom.parse(str(svg))
    return [n.lastChild.data for n in doc.getElementsByTagName("text")
            if n.getAttribute("class") == cls and n.lastChild is not None]


@pytest.mark.parametrize("rid", RULESETS)
def test_a_new_campaign_of_every_rule_set_has_a_picture(capsys, tmp_path, rid):
    path = new(capsys, rid)
    out = tmp_path / "map.svg"
    code, text, _ = run(capsys, "map", path, "-o", str(out))
    assert code == EXIT_OK and "map picture written" in text
    doc = xml.dom.minidom.parse(str(out))  # well-formed SVG
    assert doc.documentElement.tagName == "svg"
    if rid == "fifth_frontier_war":
        names = texts(out, "place")
        assert len(names) == 146 and "Regina" in names
        assert len(doc.getElementsByTagName("line")) == 40  # the xboat routes
    if rid == "star_cruiser_lite":
        assert "Kimanjano" in texts(out, "place")


def test_the_picture_shows_only_what_the_side_may_see(capsys, tmp_path):
    path = new(capsys, "star_cruiser_lite")
    gm, kafer = tmp_path / "gm.svg", tmp_path / "kaf.svg"
    assert run(capsys, "map", path, "-o", str(gm))[0] == EXIT_OK
    assert run(capsys, "map", path, "--as", "KAF", "-o", str(kafer))[0] == EXIT_OK
    gm_text, kaf_text = gm.read_text(), kafer.read_text()
    assert "AME-2" in gm_text and "AME-2" not in kaf_text  # a hidden American task force
    assert "KAF-1" in kaf_text
    code, _, err = run(capsys, "map", path, "--as", "ZZZ", "-o", str(tmp_path / "x.svg"))
    assert code == EXIT_FAIL and "'ZZZ'" in err and "KAF" in err and not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("rid", sorted(DEMO_MAPS))
def test_demo_layout_imports_exports_and_is_kept_in_the_library(capsys, tmp_path, rid):
    path = new(capsys, rid)
    demo = ROOT / "rulesets" / rid / "data" / "maps" / DEMO_MAPS[rid]
    code, out, _ = run(capsys, "map", path, "--import", str(demo))
    assert code == EXIT_OK and "kept in your map library" in out
    exported = tmp_path / "out.toml"
    assert run(capsys, "map", path, "--export", str(exported))[0] == EXIT_OK
    from campaign_tui.core.board.mapfile import load_map

    mine, shipped = load_map(exported), load_map(demo)
    for h, facts in shipped.hexes.items():
        assert {k: mine.hexes[h][k] for k in facts} == facts
    code, out, _ = run(capsys, "map", "--library")
    assert code == EXIT_OK and "demonstration" in out
    # a second campaign reuses the library map by name
    other = run(capsys, "new", rid, "--seed", "4", "--name", "second")[1].strip()
    name = out.split(":")[0]
    code, out, _ = run(capsys, "map", other, "--import", name)
    assert code == EXIT_OK and "imported" in out
    picture = tmp_path / "map.svg"
    assert run(capsys, "map", other, "-o", str(picture))[0] == EXIT_OK
    if rid == "prestags":
        assert "C A" in texts(picture, "terrain") and "W" in texts(picture, "terrain")  # A, woods
    else:
        assert "Brake" in texts(picture, "place")


def test_a_bad_map_file_names_file_line_and_problem_and_changes_nothing(capsys, tmp_path):
    path = new(capsys, "prestags")
    bad = tmp_path / "bad.toml"
    bad.write_text('[map]\ntitle = "x"\n\n[hexes."0101"]\nterrain = "woods"\n\n[hexes."banana"]\n'
                   'terrain = "clear"\n')
    code, _, err = run(capsys, "map", path, "--import", str(bad))
    assert code == EXIT_FAIL and f"{bad}, line 7: hex 'banana' is not a hex" in err
    code, out, _ = run(capsys, "log", path)
    assert "map file" not in out
    code, out, _ = run(capsys, "map", path)
    assert "known places: 0" in out


def test_gm_map_fact_is_logged_and_undone(capsys):
    path = new(capsys, "prestags")
    code, out, _ = run(capsys, "act", path, "gm.map_fact", "place=0507", "fact=terrain", "value=woods")
    assert code == EXIT_OK and "GM: map 0507 terrain ? -> woods" in out
    code, _, err = run(capsys, "act", path, "gm.map_fact", "place=hill", "fact=terrain", "value=woods")
    assert code == EXIT_FAIL and "'hill' is not a hex" in err
    assert run(capsys, "undo", path)[0] == EXIT_OK
    assert "known places: 0" in run(capsys, "map", path)[1]
