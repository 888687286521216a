"""The audit's cases ("Secrets stay secret"), each as a regression test."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from campaign_tui.core.dice import DiceStream
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import ActionRejected, CampaignError
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import import_bundle, open_campaign
from tests.secrets.cases import SCRIPTED, example_folder, open_engine, run_cli, save_engine


@pytest.fixture(scope="module")
def holding_the_line(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_folder("prefect-holding-the-line",
                          tmp_path_factory.mktemp("hl") / "campaign")


def log_json(path: Path, side: str, *flags: str) -> list[dict]:
    rc, out = run_cli("log", str(path), "--as", side, "--json", *flags)
    assert rc == 0, out
    return json.loads(out)


def test_prefect_status_prompt_names_no_hidden_interceptor(holding_the_line: Path) -> None:
    engine = open_engine(holding_the_line)
    hidden = [u for u in ("cw-p_sqd-1", "cw-fm1-3", "cw-fh2-4", "cw-fh2-5")
              if u in engine.state.units and u not in engine.view("TOG").units]
    assert hidden, "the example has CW interceptors hidden from TOG"
    assert any(u in engine.status().prompt for u in hidden)   # the GM's prompt names them
    for flags in ((), ("--json",)):
        rc, out = run_cli("status", str(holding_the_line), "--as", "TOG", *flags)
        assert rc == 0
        assert not [u for u in hidden if u in out]


def test_prefect_log_withholds_the_tspace_exit_and_hidden_task_forces(
        holding_the_line: Path) -> None:
    engine = open_engine(holding_the_line)
    full = {e.seq: e for e in engine.entries()}
    assert full[31].params == {"tf": "tog-ntf4", "sector": "3,2"}
    tog_tfs = {fid for fid, f in engine.state.formations.items() if f.side == "TOG"
               and f.kind == "naval_tf" and fid not in engine.view("CW").formations}
    for e in log_json(holding_the_line, "CW"):
        if e["seq"] == 31:
            assert "sector" not in e.get("params", {})
            assert '"3,2"' not in json.dumps(e)
        for c in e.get("changes", []):
            assert not (c["c"] == "secrets" and c["k"] == "TOG")
            assert not (c["c"] == "formations" and c["k"] in tog_tfs), (e["seq"], c["k"])
        assert "emerge:" not in json.dumps(e)


def test_prefect_cw_export_has_no_tspace_track(holding_the_line: Path, tmp_path: Path) -> None:
    out = tmp_path / "cw.toml"
    assert run_cli("export", str(holding_the_line), "--side", "CW", "-o", str(out))[0] == 0
    assert "T-space track" not in out.read_text(encoding="utf-8")


def test_ffw_public_disband_shows_no_zhodani_secrets(tmp_path: Path) -> None:
    path = SCRIPTED["ffw-disbanded"](tmp_path / "ffw")
    engine = open_engine(path)
    assert engine.state.secrets["zhodani"].get("secret_base")
    last = engine.entries()[-1]
    assert last.kind == "disband_fleet"
    assert any(c.coll == "secrets" and c.key == "zhodani" for c in last.changes)
    for e in log_json(path, "imperial", "--limit", "1"):
        assert not [c for c in e.get("changes", []) if c["c"] == "secrets"]
    for e in log_json(path, "imperial"):
        assert not [c for c in e.get("changes", []) if c["c"] == "secrets"
                    and c["k"] == "zhodani"], e["seq"]


def test_prestags_turn_end_does_not_show_the_other_plot(tmp_path: Path) -> None:
    path = SCRIPTED["prestags-plotted"](tmp_path / "sim")
    engine = open_engine(path)
    assert any(c.coll == "secrets" and c.key == "B" for e in engine.entries()
               if e.by != "B" for c in e.changes), "the audit's case: a public entry holds B's plot"
    for e in log_json(path, "A"):
        assert not [c for c in e.get("changes", []) if c["c"] == "secrets" and c["k"] == "B"]
        if e["by"] == "B":
            assert "orders" not in e.get("params", {}) or e.get("visibility") == "A"
    assert "0712" not in run_cli("log", str(path), "--as", "A")[1]


def test_scl_default_orders_show_no_other_nation_orders(tmp_path: Path) -> None:
    path = example_folder("star_cruiser_lite-demo", tmp_path / "scl")
    engine = open_engine(path)
    assert any(c.coll == "secrets" and c.key != "BRI" for e in engine.entries()
               if e.kind == "default_orders" for c in e.changes)
    for e in log_json(path, "BRI"):
        assert not [c for c in e.get("changes", []) if c["c"] == "secrets" and c["k"] != "BRI"]


# -- the dice -----------------------------------------------------------------------------------
def _export(path: Path, side: str, out: Path) -> dict:
    rc, text = run_cli("export", str(path), "--side", side, "-o", str(out))
    assert rc == 0, text
    return tomllib.loads(out.read_text(encoding="utf-8"))


def test_a_sides_export_cannot_foresee_the_next_roll(tmp_path: Path) -> None:
    seed = 918273645
    engine = Engine.create(load_ruleset("star_cruiser_lite"), seed=seed)
    path = save_engine(engine, tmp_path / "scl")
    out = tmp_path / "ame.toml"
    doc = _export(path, "AME", out)
    text = out.read_text(encoding="utf-8")
    campaign = doc["campaign"]
    assert "seed" not in campaign and "rng_position" not in campaign
    assert str(seed) not in text
    assert all(e["rng"] == [0, 0] for e in doc.get("entry", []))
    # what the master campaign rolls next
    master = open_engine(path)
    upcoming = DiceStream(master.info.seed, master.info.rng_position)
    truth = [upcoming.randint(1, 100) for _ in range(4)]
    # every number in the export's header, tried as a seed at every position it names
    numbers = {int(n) for n in re.findall(r"\d+", json.dumps(campaign))}
    for s in numbers:
        for pos in numbers | {0}:
            guess = DiceStream(s, pos)
            assert [guess.randint(1, 100) for _ in range(4)] != truth


def test_a_sides_export_opens_in_player_mode(holding_the_line: Path, tmp_path: Path) -> None:
    out = tmp_path / "cw.toml"
    _export(holding_the_line, "CW", out)
    opened = open_campaign(out, load_ruleset)
    engine = opened.engine
    assert opened.store is None and engine.read_only
    for attempt in (lambda: engine.advance(), lambda: engine.advance(preview=True),
                    lambda: engine.undo()):
        with pytest.raises(ActionRejected, match="view of"):
            attempt()
    rc, text = run_cli("act", str(out), "advance", "--as", "CW")
    assert rc == 1 and "player's copy" in text
    # it shows CW's view and nothing else; the GM is not a viewer of it
    assert run_cli("status", str(out))[0] == 0
    rc, text = run_cli("status", str(out), "--as", "TOG")
    assert rc == 1 and "view only" in text


def test_importing_a_sides_export_says_what_it_is(holding_the_line: Path,
                                                  tmp_path: Path) -> None:
    out = tmp_path / "cw.toml"
    _export(holding_the_line, "CW", out)
    rc, text = run_cli("import", str(out))
    assert rc == 1 and "view of" in text and "cannot become a playable campaign" in text
    # with its marker cut out it still cannot be played: it has no dice
    edited = tmp_path / "edited.toml"
    edited.write_text(re.sub(r'^export_side = .*\n', "", out.read_text(encoding="utf-8"),
                             flags=re.M), encoding="utf-8")
    with pytest.raises(CampaignError, match="seed"):
        import_bundle(edited, tmp_path / "imported", load_ruleset)
    assert not (tmp_path / "imported").exists()


# -- naming a side ------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [
    ("status", "{p}", "--as", "NOPE"), ("status", "{p}", "--as", "NOPE", "--json"),
    ("log", "{p}", "--as", "NOPE"), ("act", "{p}", "advance", "--as", "NOPE"),
    ("advance", "{p}", "--as", "NOPE"), ("report", "{p}", "--side", "NOPE"),
    ("export", "{p}", "--side", "NOPE"), ("undo", "{p}", "--as", "NOPE"),
])
def test_an_unknown_side_is_an_error_listing_the_sides(holding_the_line: Path,
                                                       argv: tuple[str, ...]) -> None:
    before = (holding_the_line / "campaign.toml").read_bytes()
    rc, text = run_cli(*(a.format(p=holding_the_line) for a in argv))
    assert rc == 1
    assert "unknown side 'NOPE'" in text and "TOG" in text and "CW" in text
    assert "Traceback" not in text
    assert (holding_the_line / "campaign.toml").read_bytes() == before
