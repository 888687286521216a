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
                block, n = re.subn(rf"(?m)^{name} = .*$", lambda _m: f"{name} = {shown}",
                                   block, count=1)
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
