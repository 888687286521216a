"""End to end in a real terminal: the installed ``campaign-tui`` in tmux at 80x24.

Opens a save, reads the screen, plays a step with the keyboard, saves with ctrl+s, quits
with ctrl+q and checks the save on disk.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import ROOT, installed, terminal_env

pytestmark = pytest.mark.e2e


def _campaign_tui() -> str | None:
    return installed("campaign-tui")


class Tmux:
    def __init__(self, socket: str, env: dict[str, str]) -> None:
        self.socket = socket
        self.env = env

    def run(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                             text=True, env=self.env, timeout=20)
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "e2e")

    def send(self, *keys: str) -> None:
        self.run("send-keys", "-t", "e2e", *keys)

    def type(self, text: str) -> None:
        self.run("send-keys", "-t", "e2e", "-l", text)

    def wait_for(self, text: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.15)
        raise AssertionError(f"{text!r} did not appear; the screen shows:\n{screen}")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed: the end-to-end terminal test needs it")
    if _campaign_tui() is None:
        pytest.skip("the campaign-tui command is not installed (pip install -e .)")
    env = terminal_env(tmp_path / "home")
    t = Tmux(f"campaign-tui-e2e-{uuid.uuid4().hex[:8]}", env)
    try:
        yield t
    finally:
        t.run("kill-server")


def test_open_play_save_quit(tmux: Tmux, tmp_path: Path) -> None:
    from campaign_tui import campaigns
    from campaign_tui.core.engine import Engine
    from campaign_tui.store.files import export_bundle
    from tests.demo_ruleset import plugin

    save = tmp_path / "e2e-demo.toml"
    export_bundle(Engine.create(plugin, "skirmish", None, 42, "auto", "E2E demo"), save)
    command = f"{_campaign_tui()} open {save}; echo EXIT=$?; sleep 30"
    tmux.run("new-session", "-d", "-s", "e2e", "-x", "80", "-y", "24", command)

    screen = tmux.wait_for("Check the set-up.")
    assert "E2E demo" in screen and "Turn 1" in screen
    assert all(len(line) <= 80 for line in screen.splitlines())
    tmux.send("n")
    tmux.wait_for("Army A: move your units.")
    tmux.send("1")
    tmux.wait_for("Move one unit of the phasing side.")
    tmux.type("a-inf")
    tmux.send("Tab")
    tmux.type("hex:0201")
    tmux.send("Enter")                       # roll: the review
    tmux.wait_for("Result:")
    tmux.send("Enter")                       # apply
    tmux.wait_for("2 unsaved")
    tmux.send("F3")
    tmux.wait_for("A Group")
    tmux.send("C-s")
    tmux.wait_for(" saved ")
    tmux.send("C-q")
    tmux.wait_for("EXIT=0")

    opened = campaigns.open_path(save, read_only=True)
    engine = opened.engine
    assert engine.state.step == "move"
    assert engine.state.units["a-inf"].location == "hex:0201"
    assert [e.kind for e in engine.entries()][-2:] == ["advance", "move"]


def test_pick_a_hex_on_the_map_for_an_action(tmux: Tmux, tmp_path: Path) -> None:
    """F2 on an action's hex field opens the map; `/` finds a lettered hex, an arrow moves
    the cursor, Enter picks: the action deploys the unit in the picked hex."""
    from campaign_tui import campaigns
    from campaign_tui.core.board.facts import on_board
    from campaign_tui.store.paths import places

    home = places(tmp_path / "home").ensure()
    path = campaigns.new_campaign(home, "prestags", "chariot-rome", "Pick", 4, "auto", {})
    opened = campaigns.open_path(path)
    engine = opened.engine
    demo = ROOT / "rulesets" / "prestags" / "data" / "maps" / "demo_mapsheet.toml"
    engine.perform("gm.map_import", {"text": demo.read_text(encoding="utf-8"), "name": "demo"})
    engine.perform("advance")                                   # to the Romans' deployment
    board = engine.ruleset.board(engine.state)
    grid = board.grid
    assert grid is not None
    letter_d = next(h for h, f in on_board(board, engine.state).items() if f.get("letter") == "D")
    col, row = grid.parse(letter_d)  # type: ignore[misc]
    picked = grid.label(col + 1, row)                           # one to the right of D
    campaigns.save(opened)
    campaigns.close(opened)

    command = f"{_campaign_tui()} open {path}; echo EXIT=$?; sleep 30"
    tmux.run("new-session", "-d", "-s", "e2e", "-x", "80", "-y", "24", command)
    tmux.wait_for("place your units")
    tmux.send("1")                                              # Deploy units
    tmux.wait_for("the hex to place them in")
    tmux.type("a-mi-01")
    tmux.wait_for("= Romans MI 1")
    tmux.send("Tab")
    tmux.send("F2")                                             # the hex field: pick on the map
    tmux.wait_for("pick the hex")
    tmux.send("/")
    tmux.wait_for("find a hex, place or unit")
    tmux.type(letter_d)
    tmux.send("Enter")
    tmux.wait_for("letter: D")                                  # the details of the found hex
    tmux.send("Right")
    deadline = time.monotonic() + 15                            # the details name the cursor
    while not any(line.startswith(picked) for line in tmux.screen().splitlines()):
        assert time.monotonic() < deadline, tmux.screen()
        time.sleep(0.15)
    assert all(len(line) <= 80 for line in tmux.screen().splitlines())
    tmux.send("Enter")                                          # picks
    tmux.wait_for("Deploy units")
    tmux.send("C-r")
    tmux.wait_for("Result:")
    tmux.send("C-e")                                            # apply
    tmux.wait_for("1 unsaved")
    tmux.send("C-s")
    tmux.wait_for(" saved ")
    tmux.send("C-q")
    tmux.wait_for("EXIT=0")

    opened = campaigns.open_path(path, read_only=True)
    assert opened.engine.state.units["a-mi-01"].location == f"hex:{picked}"
    assert opened.engine.entries()[-1].kind == "deploy"
