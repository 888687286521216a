"""Play by e-mail: a side's orders drafted from its view, filled in, checked in the player's
copy and imported by the GM as that side's logged actions, for every rule set with secret
orders."""

from __future__ import annotations

import re
from pathlib import Path

from campaign_tui.core.sideview import HiddenTerms
from tests.secrets.cases import open_engine, run_cli, save_engine


def fill(text: str, kind: str, values: dict[str, str | int]) -> str:
    """The drafted *text* with the first [[action]] of *kind* taken and *values* written."""
    blocks = re.split(r"(?m)^(?=\[\[action\]\])", text)
    for i, block in enumerate(blocks):
        if re.search(rf'(?m)^kind = "{re.escape(kind)}"$', block):
            block = block.replace("take = false", "take = true", 1)
            for name, value in values.items():
                shown = (str(value) if isinstance(value, int) else f"'''\n{value}'''"
                         if "\n" in value else f'"{value}"')
                line = f"{name} = {shown}"
                block, n = re.subn(rf"(?m)^{name} = .*$", lambda _m, line=line: line, block,
                                   count=1)
                assert n == 1, f"{kind} has no {name} line"
            blocks[i] = block
            return "".join(blocks)
    raise AssertionError(f"no {kind} action drafted:\n{text}")


def draft(folder: Path, side: str, tmp_path: Path) -> tuple[Path, str]:
    out = tmp_path / f"orders-{side}.toml"
    rc, msg = run_cli("orders", str(folder), "--side", side, "-o", str(out))
    assert rc == 0, msg
    return out, out.read_text(encoding="utf-8")


def assert_nothing_hidden(folder: Path, side: str, text: str) -> None:
    e = open_engine(folder)
    terms = HiddenTerms.between((e.state,), (e.view(side),))
    assert not terms.hides(text), [t for t in terms.terms if t in text]


def round_trip(folder: Path, side: str, kind: str, tmp_path: Path,
               values: dict[str, str | int]):
    """Draft, fill, check in the side's export, import with --yes: the action is logged as
    *side*'s."""
    path, text = draft(folder, side, tmp_path)
    assert_nothing_hidden(folder, side, text)
    path.write_text(fill(text, kind, values), encoding="utf-8")
    export = tmp_path / f"{side}-export.toml"
    rc, msg = run_cli("export", str(folder), "--side", side, "-o", str(export))
    assert rc == 0, msg
    rc, msg = run_cli("orders", str(export), "--check", str(path))
    assert rc == 0 and "ok" in msg, msg
    before = len(open_engine(folder).entries())
    rc, msg = run_cli("orders", str(folder), "--import", str(path), "--yes")
    assert rc == 0 and "accepted" in msg, msg
    entries = open_engine(folder).entries()
    assert len(entries) == before + 1
    assert entries[-1].kind == kind and entries[-1].by == side
    return entries[-1]


def prestags_to_plot(folder: Path) -> Path:
    from tests.rulesets.prestags.helpers import act, deployed

    e = deployed({"simultaneous": True})
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0610 0611; b-sk-02 DF"}, by="B")
    return save_engine(e, folder)


def test_prestags_simultaneous_plot_round_trip(tmp_path):
    folder = prestags_to_plot(tmp_path / "c")
    entry = round_trip(folder, "A", "plot", tmp_path, {"orders": "a-bw-01 OF 0508"})
    assert entry.params["orders"] == "a-bw-01 OF 0508"


def test_a_sides_draft_holds_nothing_of_the_other_sides_secrets(tmp_path):
    folder = prestags_to_plot(tmp_path / "c")
    e = open_engine(folder)
    terms = HiddenTerms.between((e.state,), (e.view("A"),))
    assert "0610" in str(e.state.secrets["B"]) and "0610" not in str(e.view("A").secrets)
    _, text = draft(folder, "A", tmp_path)
    assert terms.terms and not terms.hides(text)
    assert "0610" not in text and "b-sk-02 DF" not in text


def test_ssw_sealed_retreat_condition_round_trip(tmp_path):
    from tests.rulesets.second_sathar_war.swii_kit import new

    e = new("seed_start")
    e.advance()
    folder = save_engine(e, tmp_path / "c")
    round_trip(folder, "SATHAR", "choose_retreat_condition", tmp_path, {"condition": 4})
    assert open_engine(folder).state.secrets["SATHAR"]["retreat_condition"] == 4


def test_ffw_secret_plot_round_trip(tmp_path):
    from tests.rulesets.fifth_frontier_war.helpers import clear_map, fleet, goto, new_engine

    e = new_engine()
    clear_map(e)
    fleet(e, "zho-40th", "zhodani", "1507", ["zho-bb-01", "zho-bb-02"])
    goto(e, "P_PLOTTING", 3)
    folder = save_engine(e, tmp_path / "c")
    entry = round_trip(folder, "zhodani", "plot", tmp_path,
                       {"fleet": "zho-40th", "orders": "J1608, R, R, R"})
    assert entry.visibility == "zhodani"


def test_scl_orders_round_trip_reuses_the_import_orders_format(tmp_path):
    from tests.rulesets.star_cruiser_lite.helpers import engine, orders_text

    e = engine()
    e.advance()
    assert e.state.step == "M0.ORDERS"
    folder = save_engine(e, tmp_path / "c")
    entry = round_trip(folder, "BRI", "import_orders", tmp_path,
                       {"text": orders_text("orders-bri-m1w0.toml")})
    assert entry.visibility == "BRI"


def prefect_missions(folder: Path) -> Path:
    from tests.rulesets.prefect.helpers import act, holding_the_line

    e = holding_the_line()
    act(e, "set_mission", {"tf": "tog-ntf1", "mission": "attack"}, by="TOG")
    return save_engine(e, folder)


def test_prefect_record_sheet_mission_round_trip(tmp_path):
    folder = prefect_missions(tmp_path / "c")
    entry = round_trip(folder, "CW", "set_mission", tmp_path,
                       {"tf": "cw-ntf1", "mission": "sector_defense"})
    assert not entry.visible_to("TOG")
    assert open_engine(folder).state.formations["cw-ntf1"].status["mission"] == \
        "sector_defense"


def test_a_bad_value_is_named_with_its_line_and_nothing_is_kept(tmp_path):
    folder = prefect_missions(tmp_path / "c")
    path, text = draft(folder, "CW", tmp_path)
    good = fill(text, "set_mission", {"tf": "cw-ntf1", "mission": "sector_defense"})
    second = good + '\n[[action]]\nkind = "set_mission"\ntake = true\n[action.params]\n' \
        'tf = "cw-ntf2"\nmission = "no_such_mission"\n'
    path.write_text(second, encoding="utf-8")
    before = open_engine(folder).entries()
    rc, msg = run_cli("orders", str(folder), "--import", str(path), "--yes")
    line = second.splitlines().index('mission = "no_such_mission"') + 1
    assert rc == 1 and f"line {line}:" in msg and "no_such_mission" in msg, msg
    assert "nothing was changed" in msg
    assert open_engine(folder).entries() == before  # the good first order was not kept


def test_without_yes_the_orders_are_reviewed_and_not_kept(tmp_path):
    folder = prefect_missions(tmp_path / "c")
    path, text = draft(folder, "CW", tmp_path)
    path.write_text(fill(text, "set_mission", {"tf": "cw-ntf1", "mission": "supply"}))
    before = len(open_engine(folder).entries())
    rc, msg = run_cli("orders", str(folder), "--import", str(path))
    assert rc == 1 and "set_mission" in msg and "rejected" in msg, msg
    assert len(open_engine(folder).entries()) == before


def test_a_broken_file_names_file_and_line(tmp_path):
    folder = prefect_missions(tmp_path / "c")
    path = tmp_path / "bad.toml"
    path.write_text('[orders]\nside = "CW"\n\n[[action]]\nkind = "set_mission\n')
    rc, msg = run_cli("orders", str(folder), "--import", str(path), "--yes")
    assert rc == 1 and str(path) in msg and "line 5" in msg and "Traceback" not in msg, msg
    path.write_text('[[action]]\nkind = "x"\n')
    rc, msg = run_cli("orders", str(folder), "--check", str(path))
    assert rc == 1 and "no [orders] table" in msg, msg


def test_orders_for_another_step_or_unknown_side_are_refused(tmp_path):
    folder = prefect_missions(tmp_path / "c")
    path, text = draft(folder, "CW", tmp_path)
    path.write_text(text.replace('side = "CW"', 'side = "XX"'))
    rc, msg = run_cli("orders", str(folder), "--import", str(path), "--yes")
    assert rc == 1 and "unknown side 'XX'" in msg, msg
    path.write_text(fill(text, "set_mission", {"tf": "cw-ntf1", "mission": "supply"})
                    .replace('step = "', 'step = "OLD'))
    rc, msg = run_cli("orders", str(folder), "--import", str(path), "--yes")
    assert rc == 1 and "line 1:" in msg and "for step 'OLD" in msg, msg


def test_a_player_copy_drafts_and_checks_but_cannot_import(tmp_path):
    folder = prefect_missions(tmp_path / "c")
    export = tmp_path / "cw.toml"
    assert run_cli("export", str(folder), "--side", "CW", "-o", str(export))[0] == 0
    out = tmp_path / "o.toml"
    rc, msg = run_cli("orders", str(export), "-o", str(out))
    assert rc == 0 and 'side = "CW"' in out.read_text(), msg
    out.write_text(fill(out.read_text(), "set_mission", {"tf": "tog-ntf1", "mission": "supply"}))
    rc, msg = run_cli("orders", str(export), "--check", str(out))
    assert rc == 1 and "tog-ntf1" in msg and "line " in msg, msg
    rc, msg = run_cli("orders", str(export), "--import", str(out), "--yes")
    assert rc == 1 and "player's copy" in msg, msg
