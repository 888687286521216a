"""Campaigns in which secrets exist, for the leak harness: the shipped examples, scripted
games of each rule set, and random legal play."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable
from pathlib import Path

from campaign_tui.cli import main
from campaign_tui.core.engine import Engine
from campaign_tui.core.errors import AdvanceRefused, CampaignError, NeedDecision
from campaign_tui.examples_index import find_example
from campaign_tui.registry import load_ruleset
from campaign_tui.store.files import create_campaign, import_bundle, open_campaign

EXAMPLES = ("prefect-holding-the-line", "prefect-liberation", "fifth_frontier_war-campaign",
            "prestags-training", "second_sathar_war-seed_start", "star_cruiser_lite-demo")


def run_cli(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(list(argv))
    return rc, out.getvalue() + err.getvalue()


def example_folder(name: str, folder: Path) -> Path:
    import_bundle(find_example(name), folder, load_ruleset).close()
    return folder


def save_engine(engine: Engine, folder: Path) -> Path:
    engine.history.pending = engine.entries()
    create_campaign(engine, folder).close()
    return folder


def open_engine(path: Path) -> Engine:
    return open_campaign(path, load_ruleset, read_only=True).engine


def prestags_plotted(folder: Path) -> Path:
    """PRESTAGS simultaneous play: both sides plot Game-Turn 1 in secret, the turn is
    played out, and the next plots are being written."""
    from tests.rulesets.prestags.helpers import act, deployed, sim_to

    e = deployed({"simultaneous": True})
    act(e, "plot", {"side": "A", "orders": "a-bw-01 OF 0508; a-hc-01 MV 0606 0607"}, by="A")
    act(e, "plot", {"side": "B", "orders": "b-lc-01 MV 0610 0611; b-sk-02 DF"}, by="B")
    e.advance()
    sim_to(e, "PLOT")
    act(e, "plot", {"side": "B", "orders": "b-sk-02 MV 0712"}, by="B")
    return save_engine(e, folder)


def ffw_disbanded(folder: Path) -> Path:
    """Fifth Frontier War: the example played on to the Fleet adjustment step, where the
    Zhodani disband a fleet (a public action touching their secret plots)."""
    e = open_engine(find_example("fifth_frontier_war-campaign"))
    e.read_only = False
    for _ in range(200):
        if e.state.step == "P_FLEET_ADJ":
            break
        try:
            e.advance()
        except NeedDecision as d:
            e.advance({d.decision.id: d.decision.default})
        except AdvanceRefused:
            for kind in ("skip_bombing", "hold_fire"):
                for side in ("zhodani", "imperial", "independent"):
                    with contextlib.suppress(CampaignError):
                        e.perform(kind, {"side": side}, {},
                                  by=side if side != "independent" else "gm")
    e.perform("disband_fleet", {"fleet": "zho-68th"}, by="zhodani")
    return save_engine(e, folder)


SCRIPTED: dict[str, Callable[[Path], Path]] = {
    "prestags-plotted": prestags_plotted,
    "ffw-disbanded": ffw_disbanded,
}


def random_play(engine: Engine, rng: random.Random, steps: int) -> int:
    """Random legal play: each step takes one allowed action that needs no parameters
    (advance included), answering decisions with their defaults or a random option.
    Returns the number of actions that went through."""
    done = 0
    for _ in range(steps):
        st = engine.status()
        if st.final:
            break
        kinds = [c.kind for c in st.choices if c.available
                 and not any(p.required and p.default is None for p in c.params)]
        if not kinds:
            break
        kind = rng.choice(kinds)
        by = st.actor if st.actor in engine.state.sides else "gm"
        answers: dict[str, object] = {}
        for _attempt in range(12):
            try:
                engine.perform(kind, {}, answers, by=by if kind != "advance" else "gm")
                done += 1
                break
            except NeedDecision as exc:
                d = exc.decision
                if d.default is not None:
                    answers[d.id] = d.default
                elif d.options:
                    answers[d.id] = rng.choice(d.options).value
                elif d.kind == "bool":
                    answers[d.id] = rng.choice([True, False])
                else:
                    break
            except CampaignError:
                break
    return done
