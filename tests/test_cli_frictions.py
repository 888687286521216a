"""The frictions scripts met on the command line (issue 17), each kept as a regression test,
on the real rule sets."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign_tui.cli import EXIT_DECIDE, EXIT_FAIL, EXIT_OK, EXIT_USAGE, completion
from campaign_tui.core.context import item_label, item_text
from campaign_tui.core.errors import InvalidInput
from campaign_tui.core.model import Unit
from campaign_tui.core.typed_text import match_choice, split_list
from tests.cli_helpers import fresh_registry, run  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent


# -- calc --json carries the explanation, structured ------------------------------------
def test_calc_json_has_the_explanation_lines_and_structured_steps(capsys):
    code, out, _ = run(capsys, "calc", "fifth_frontier_war", "replacement_points",
                       "side=imperial", "turn=3", "--json")
    data = json.loads(out)
    assert code == EXIT_OK and data["schema"] == 1 and data["lines"]
    step = data["steps"][0]
    assert step["label"].startswith("Imperial Replacements") and step["reference"]
    assert data["value"] == {"squadron": 0, "troop": 0}


# -- one parser for choices and lists -----------------------------------------------------
@pytest.mark.parametrize("argv, variants", [
    (("calc", "prefect", "movement", "combat_units=3", "mode=laf"), ("mode=LAF", "mode=Laf")),
    (("calc", "star_cruiser_lite", "colony_initiative", "paranoia=Moderate", "distance=2",
      "--dice", "3,4"), ("paranoia=moderate", "paranoia=MODERATE")),
    (("calc", "prestags", "apply_result", "result=D", "combat=fire"), ("result=d",)),
    (("calc", "fifth_frontier_war", "replacement_points", "side=imperial", "turn=3"),
     ("side=Imperial", "side=IMPERIAL")),
])
def test_a_choice_in_another_case_gives_byte_identical_output(capsys, argv, variants):
    base = run(capsys, *argv)
    assert base[0] == EXIT_OK
    for variant in variants:
        name = variant.split("=")[0]
        other = [variant if a.startswith(name + "=") else a for a in argv]
        assert run(capsys, *other) == base, variant


def test_lists_in_the_common_spellings(capsys):
    outs = {run(capsys, "calc", "prefect", "detection", esm, "sig=2", "--dice", "5")
            for esm in ("esm=1,0,0", "esm=[1,0,0]", "esm=1 0 0")}
    assert len(outs) == 1 and next(iter(outs))[0] == EXIT_OK
    assert split_list("sink holes") == ["sink holes"]           # a name with a space
    assert split_list('["a", "b"]') == ["a", "b"] and split_list("a, b") == ["a", "b"]


def test_a_choice_that_matches_nothing_is_refused_never_a_default_branch(capsys):
    code, _, err = run(capsys, "calc", "fifth_frontier_war", "replacement_points",
                       "side=vargr", "turn=3")
    assert code == EXIT_FAIL and "'vargr' is not one of imperial, zhodani" in err
    imperial = run(capsys, "calc", "fifth_frontier_war", "replacement_points", "side=Imperial",
                   "turn=3")[1]
    assert "Imperial Replacements" in imperial and "Zhodani" not in imperial
    code, _, err = run(capsys, "calc", "second_sathar_war", "supply", "start=prenglar",
                       "side=upf_navy")
    assert code == EXIT_FAIL and "is not one of UPF, SATHAR" in err
    for bad in ("relation=ally", "sq_type=X"):
        proc = "world_vp" if bad.startswith("relation") else "capacity"
        args = ("tl=5", bad) if proc == "world_vp" else (bad,)
        code, _, err = run(capsys, "calc", "fifth_frontier_war", proc, *args)
        assert code == EXIT_FAIL and "is not one of" in err, bad
    for argv in (("fifth_frontier_war", "tanker_capacity", "tanker_defense=3", "serves=Itself"),
                 ("fifth_frontier_war", "transfer", "when=Combat"),
                 ("fifth_frontier_war", "refuel", "code=Streamlined", "jumped=no", "starport=a"),
                 ("second_sathar_war", "damage", "weapon=LB", "rules=Advanced", "--dice", "50")):
        code, _, err = run(capsys, "calc", *argv)
        assert code == EXIT_OK, (argv, err)
    with pytest.raises(InvalidInput, match="'x' is not one of a, b"):
        match_choice("x", ("a", "b"), "test")


def test_unknown_parameter_names_and_labels_list_the_valid_ones(capsys):
    code, _, err = run(capsys, "calc", "prestags", "melee_defence", "units=4", "panickd=true")
    assert code == EXIT_USAGE and "unknown parameter panickd" in err and "panicked" in err
    code, _, err = run(capsys, "table", "fifth_frontier_war", "T8", "atmosphere=standard")
    assert code == EXIT_FAIL and "no entry for 'standard'" in err and "breathable" in err


# -- manual dice ----------------------------------------------------------------------------
def test_manual_dice_running_out_left_over_or_unreadable_are_errors(capsys):
    argv = ("calc", "star_cruiser_lite", "colony_initiative", "paranoia=Moderate", "distance=2")
    code, _, err = run(capsys, *argv, "--dice", "3")
    assert code == EXIT_FAIL and "--dice ran out: roll 2 (1d6 for SP withheld by colony)" in err
    code, _, err = run(capsys, *argv, "--dice", "3,4,5")
    assert code == EXIT_FAIL and "--dice has 1 value left over (5)" in err
    code, _, err = run(capsys, *argv, "--dice", "abc")
    assert code == EXIT_FAIL and "'abc' is not a die value" in err and "Traceback" not in err


def test_the_manual_dice_prompt_says_how_to_let_the_program_roll(capsys):
    path = run(capsys, "new", "demo", "--seed", "7", "--dice", "manual")[1].strip()
    run(capsys, "advance", path)
    run(capsys, "act", path, "move", "unit=a-inf", "to=hex:0303")
    run(capsys, "advance", path)
    run(capsys, "act", path, "declare", "attackers=a-inf,a-tank", "target=b-inf",
        "adj:b-inf=yes")
    run(capsys, "advance", path)
    code, out, _ = run(capsys, "act", path, "resolve", "shift=0")
    assert code == EXIT_DECIDE and "roll1=auto lets the program roll it" in out
    answers = ["roll1=auto"]
    while (code := run(capsys, "act", path, "resolve", "shift=0", *answers, "--json")[0]) \
            == EXIT_DECIDE and len(answers) < 5:
        answers.append(f"roll{len(answers) + 1}=auto")
    log = json.loads(run(capsys, "log", path, "--json", "--limit", "1")[1])
    assert code == EXIT_OK and log[0]["kind"] == "resolve"
    assert not any(r.get("manual") for r in log[0]["rolls"])   # rolled by the program


def test_zero_reads_as_ten_on_a_d10_for_table_rolls_too(capsys):
    ten = run(capsys, "calc", "prefect", "detection", "esm=1", "sig=2", "--dice", "10")
    zero = run(capsys, "calc", "prefect", "detection", "esm=1", "sig=2", "--dice", "0")
    assert ten == zero and ten[0] == EXIT_OK and "[10]" in ten[1]


# -- argument order and campaign names ------------------------------------------------------
def test_options_and_pairs_in_any_order(capsys):
    a = run(capsys, "calc", "prestags", "odds", "--json", "attack=5", "defence=2")
    b = run(capsys, "calc", "prestags", "odds", "attack=5", "--json", "defence=2")
    assert a == b and a[0] == EXIT_OK
    code, _, err = run(capsys, "calc", "prestags", "odds", "attack=5", "--bogus", "defence=2")
    assert code == EXIT_USAGE and "unrecognized arguments: --bogus" in err


def test_act_and_advance_refuse_misspelt_names_and_save_nothing(capsys):
    path = run(capsys, "new", "demo", "--seed", "7")[1].strip()
    code, _, err = run(capsys, "advance", path, "stpe=1")
    assert code == EXIT_USAGE and "action advance: unknown parameter stpe" in err
    run(capsys, "advance", path)
    code, _, err = run(capsys, "act", path, "move", "unit=a-inf", "to=hex:0303", "tpo=1")
    assert code == EXIT_USAGE and "unknown parameter tpo; parameters: unit, to" in err
    log = json.loads(run(capsys, "log", path, "--json")[1])
    assert [e["kind"] for e in log] == ["start", "advance"]


def test_calc_takes_rule_set_options(capsys):
    code, _, err = run(capsys, "calc", "prestags", "odds", "attack=5", "defence=2",
                       "--option", "nonsense=1")
    assert code == EXIT_FAIL and "unknown option nonsense" in err


def test_campaigns_by_the_name_list_shows(capsys):
    code, out, _ = run(capsys, "status", "Liberation (example)", "--json")
    assert code == EXIT_OK and json.loads(out)["ruleset"] == "prefect"
    again = run(capsys, "status", "liberation (EXAMPLE)", "--json")
    assert again[1] == out                              # the copy made the first time


def test_ambiguous_campaign_names_list_the_matches(capsys):
    paths = [Path(run(capsys, "new", "prestags", "--name", "Twin")[1].strip()) for _ in (1, 2)]
    paths[0].rename(paths[0].with_name("first"))   # no folder is named after the campaign
    paths[1].rename(paths[1].with_name("second"))
    code, _, err = run(capsys, "status", "Twin")
    assert code == EXIT_FAIL and "several campaigns have this name" in err
    assert "first" in err and "second" in err
    assert run(capsys, "status", "first")[0] == EXIT_OK   # the file stem still works


# -- units, status, tables and procedures for scripts -------------------------------------
def test_units_lists_what_the_viewer_may_see(capsys):
    name = "prestags-training"
    every = json.loads(run(capsys, "units", name, "--json")[1])["units"]
    assert every and {"id", "name", "formation", "location", "values", "status"} <= set(every[0])
    sides = {u["side"] for u in every}
    side = sorted(sides)[0]
    mine = json.loads(run(capsys, "units", name, "--json", "--filter", f"side={side}")[1])
    assert {u["side"] for u in mine["units"]} == {side}
    code, out, _ = run(capsys, "units", name, "--filter", every[0]["id"])
    assert code == EXIT_OK and out.startswith(every[0]["id"])
    code, _, err = run(capsys, "units", name, "--filter", "colour=red")
    assert code == EXIT_USAGE and "'colour' is not one of side" in err
    code, _, err = run(capsys, "units", name, "--as", "nobody")
    assert code == EXIT_USAGE and "no such side" in err
    status = json.loads(run(capsys, "status", name, "--json", "--as", side)[1])
    assert status["viewer_sides"] == [side] and isinstance(status["sides"], dict)


def test_table_shows_its_notes_and_how_it_reads(capsys):
    code, out, _ = run(capsys, "table", "star_cruiser_lite", "T-15", "target=facility",
                       "--roll", "2")
    assert code == EXIT_OK and "repair*" in out
    assert "reads: stat reduced by one ('*': a docked ship" in out
    code, out, _ = run(capsys, "table", "fifth_frontier_war", "T15", "type=infantry",
                       "item=armor")
    assert "note: Elite units double as well" in out
    procs = json.loads(run(capsys, "procedures", "prestags", "--json")[1])["procedures"]
    melee = next(p for p in procs if p["id"] == "melee_defence")
    assert next(q for q in melee["params"] if q["name"] == "units")["help"]


# -- advance over many steps -----------------------------------------------------------------
def test_advance_days_until_and_stops(capsys):
    name = "second_sathar_war-seed_start"
    before = json.loads(run(capsys, "status", name, "--json")[1])
    code, out, _ = run(capsys, "advance", name, "--days", "2", "--json")
    data = json.loads(out)
    assert code == EXIT_OK and data["stopped"] == "day moved 2 times"
    assert data["now"]["clock"]["day"] == before["clock"]["day"] + 2
    code, out, _ = run(capsys, "advance", name, "--until", before["step_title"])
    assert code == EXIT_OK and f"stopped: reached {before['step_title']}" in out
    code, _, err = run(capsys, "advance", "prestags-training", "--days", "1")
    assert code == EXIT_USAGE and "no days; it counts gt, pt" in err
    code, _, err = run(capsys, "advance", name, "--until", "nowhere")
    assert code == EXIT_USAGE and "no such step" in err


def test_advance_due_stops_where_a_side_must_act(capsys):
    """--due (the TUI's Advance until…): from the quick set-up to the first forced move."""
    path = run(capsys, "new", "second_sathar_war", "--scenario", "standard", "--seed", "4")[1]
    path = path.strip()
    run(capsys, "advance", path)
    run(capsys, "act", path, "choose_retreat_condition", "condition=1")
    run(capsys, "advance", path)
    run(capsys, "act", path, "gm.quick_setup")
    code, out, _ = run(capsys, "advance", path, "--due", "--json")
    data = json.loads(out)
    assert code == EXIT_OK and data["now"]["step"] == "SATHAR_MOVE"
    assert data["stopped"].startswith("Sathar movement: Sathar must act: Sathar Attack Fleet")
    assert len(data["entries"]) == 2
    code, _, err = run(capsys, "advance", path, "--due", "--days", "1")
    assert code == EXIT_USAGE and "not allowed with argument" in err


def test_advance_stops_at_a_refusal_and_says_why(capsys):
    path = run(capsys, "new", "demo", "--seed", "7")[1].strip()
    run(capsys, "advance", path)
    run(capsys, "act", path, "move", "unit=a-inf", "to=hex:0303")
    run(capsys, "advance", path)
    run(capsys, "act", path, "declare", "attackers=a-inf,a-tank", "target=b-inf",
        "adj:b-inf=yes")
    code, out, _ = run(capsys, "advance", path, "--turns", "1")
    assert code == EXIT_FAIL
    assert "stopped: Cannot advance yet: resolve the remaining attacks" in out
    assert "now: Turn 1 · COMBAT" in out                  # the step it did take is saved
    code, out, _ = run(capsys, "advance", path, "--turns", "1", "--json")
    assert code == EXIT_FAIL and json.loads(out)["command"] == "error"


# -- stable ids, a readable log, a closed pipe ----------------------------------------------
def test_drawn_units_read_by_name_and_id():
    u = Unit(id="ame-ms-1", side="AME", type="ms", name="Minesweeper 1")
    assert item_text(u) == "Minesweeper 1 (ame-ms-1)" and item_label(u) == "ame-ms-1"
    assert item_text("plain") == "plain"


def test_prestags_advance_decision_has_no_time_stamp():
    from rulesets.prestags import combat

    source = Path(combat.__file__).read_text()
    assert 'aliases=(f"advance:{old_key}",)' in source


def test_a_closed_pipe_ends_quietly():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # 400 kB: more than a pipe holds, so the command is still writing when the reader goes
    with subprocess.Popen([sys.executable, "-m", "campaign_tui", "log", "star_cruiser_lite-demo",
                           "--json"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                          cwd=ROOT) as proc:
        proc.stdout.read(10)
        proc.stdout.close()   # the reader goes away, as `| head -c 10` does
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0
    assert "Traceback" not in err and "BrokenPipe" not in err


# -- completion ------------------------------------------------------------------------------
def test_completion_offers_rule_sets_procedures_and_parameters():
    ns = argparse.Namespace(ruleset="prestags", procedure="melee_defence", home=None)
    assert "prestags" in completion.rulesets(prefix="pre", parsed_args=ns)
    assert completion.procedure_params(prefix="pan", parsed_args=ns) == ["panicked="]
    assert "melee_defence" in completion.procedures(prefix="melee", parsed_args=ns)
    assert completion.procedures(prefix="", parsed_args=argparse.Namespace(ruleset="nope")) == []


def test_completion_through_the_shell(tmp_path):
    env = {**os.environ, "_ARGCOMPLETE": "1", "_ARGCOMPLETE_IFS": "\n",
           "COMP_LINE": "campaign-tui calc prest", "COMP_POINT": "23",
           "PYTHONPATH": str(ROOT)}
    out = subprocess.run(["bash", "-c", f"{sys.executable} -m campaign_tui 8>&1 9>/dev/null"],
                         capture_output=True, text=True, env=env, timeout=60, cwd=ROOT)
    assert "prestags" in out.stdout
