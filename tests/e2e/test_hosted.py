"""End to end, the hosted table: ``campaign-tui serve`` in its own process, and the GM and
two sides joining it with the real OpenSSH client, each in a tmux window of its own, on a
real rule set's secret step (PRESTAGS' simultaneous Operations Plot). Both sides write
their plot from their own seat (the form's side is their own, filled in) and seal it, the
GM advances, and every screen is read: each side sees its own plot and nothing of the
other's (the leak harness's yardstick over all it was shown); the GM sees both."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.terminal import ROOT, installed, terminal_env

PLOTS = {"A": "a-bw-01 OF 0508; a-hc-01 MV 0606 0607", "B": "b-lc-01 MV 0610 0611; b-sk-02 DF"}
SUMMARY = {"A": "plotted Game-Turn 1: 1 OF, 1 MV", "B": "plotted Game-Turn 1: 1 DF, 1 MV"}
pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.timeout(300)]


def _tool(name: str) -> str:
    return installed(name) or ""


class Windows:
    """A tmux server whose windows are the players' terminals; every screen read is kept."""

    def __init__(self, env: dict[str, str]) -> None:
        self.socket = f"campaign-tui-hosted-{uuid.uuid4().hex[:8]}"
        self.env = env
        self.seen: dict[str, list[str]] = {}

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, env=self.env, timeout=20).stdout

    def open(self, name: str, command: str) -> None:
        if not self.seen:
            self.tmux("new-session", "-d", "-s", "table", "-n", name, "-x", "100", "-y", "50",
                      command)
        else:
            self.tmux("new-window", "-t", "table", "-n", name, command)
        self.seen[name] = []

    def screen(self, name: str) -> str:
        text = self.tmux("capture-pane", "-p", "-t", f"table:{name}")
        self.seen[name].append(text)
        return text

    def keys(self, name: str, *keys: str) -> None:
        self.tmux("send-keys", "-t", f"table:{name}", *keys)

    def type(self, name: str, text: str) -> None:
        self.tmux("send-keys", "-t", f"table:{name}", "-l", text)

    def wait(self, name: str, shows: str | tuple[str, ...], gone: str | None = None,
             timeout: float = 40.0) -> str:
        wanted = (shows,) if isinstance(shows, str) else shows
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen(name)
            if all(w in text for w in wanted) and (gone is None or gone not in text):
                return text
            time.sleep(0.2)
        raise AssertionError(f"{name}: {wanted} did not appear; the screen shows:\n{text}")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[Windows, dict[str, str], dict[str, Path]]]:
    for tool in ("tmux", "ssh", "ssh-keygen"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed: the hosted end-to-end test needs it")
    if not _tool("campaign-tui"):
        pytest.skip("the campaign-tui command is not installed (pip install -e .)")
    env = terminal_env(tmp_path / "home", drop=("SSH_AUTH_SOCK",))
    keys = {}
    for who in ("gm", "A", "B"):
        keys[who] = tmp_path / f"key-{who}"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys[who])],
                       check=True, env=env, timeout=30)
    windows = Windows(env)
    try:
        yield windows, env, keys
    finally:
        windows.tmux("kill-server")


def _cli(env: dict[str, str], *args: str) -> str:
    out = subprocess.run([_tool("campaign-tui"), *args], capture_output=True, text=True,
                         env=env, timeout=60, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _plot_and_seal(w: Windows, side: str, name: str) -> None:
    text = w.wait(side, "Write a secret plot")
    number = re.search(r"(\d) Write a secret plot", text)
    assert number, text
    w.keys(side, number.group(1))                      # the plot's form, the side filled in
    w.wait(side, ("Roll ^r", f"{name} ({side})"))
    time.sleep(1.0)                                    # the form takes the focus
    w.type(side, PLOTS[side])
    w.wait(side, PLOTS[side].split(";")[0])
    w.keys(side, "Enter")                              # roll: the review
    w.wait(side, f"{name} {SUMMARY[side]}")
    w.keys(side, "Enter")                              # apply
    w.wait(side, "Write a secret plot", gone="Roll ^r")
    time.sleep(0.5)
    w.keys(side, "C-p")                                # the palette
    w.wait(side, "Search for commands")
    time.sleep(0.5)
    w.type(side, "Table: seal my")
    w.wait(side, "Table: seal my orders", gone="Search for commands")
    w.keys(side, "Enter")
    w.wait(side, "Your orders are sealed")


def test_gm_and_two_sides_play_a_secret_plot_over_ssh(table, tmp_path: Path) -> None:
    from campaign_tui.registry import load_ruleset
    from campaign_tui.store.files import open_campaign
    from tests.rulesets.prestags.helpers import deployed
    from tests.secrets.cases import save_engine
    from tests.secrets.leakcheck import SideAudit, states_over_history

    w, env, keys = table
    engine = deployed({"simultaneous": True})
    names = {side: engine.state.sides[side].name for side in ("A", "B")}
    path = str(save_engine(engine, tmp_path / "prestags"))
    for who, side in (("boss", "--gm"), ("alice", "A"), ("bob", "B")):
        key = keys["gm" if side == "--gm" else side]
        where = ["--gm"] if side == "--gm" else ["--side", side]
        _cli(env, "seat", path, "add", *where, "--key", f"{key}.pub", "--name", who)
    server = subprocess.Popen([_tool("campaign-tui"), "serve", path, "--port", "0", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=env, cwd=ROOT, stdin=subprocess.DEVNULL)
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert line, server.stderr.read() if server.stderr else ""
        port = json.loads(line)["ssh"].rsplit(":", 1)[1]
        for who in ("gm", "A", "B"):
            w.open(who, f"ssh -F /dev/null -i {keys[who]} -p {port} -o IdentitiesOnly=yes "
                        "-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                        "-o LogLevel=ERROR -t player@127.0.0.1; echo SSH-EXIT=$?; sleep 60")
        w.wait("gm", ("Operations Plot", "as GM"), timeout=60)
        w.wait("A", f"as {names['A']}", timeout=60)
        w.wait("B", f"as {names['B']}", timeout=60)
        _plot_and_seal(w, "A", names["A"])
        w.wait("gm", f"waiting for {names['B']}")
        w.keys("gm", "n")                              # refused: B has not sealed
        w.wait("gm", f"waiting for: {names['B']}")
        _plot_and_seal(w, "B", names["B"])
        w.keys("gm", "n")
        for who in ("gm", "A", "B"):                   # every screen follows at once
            w.wait(who, "Fire Combat Resolution")
            w.keys(who, "F6")                          # the history
        for side in ("A", "B"):
            w.wait(side, f"{names[side]} {SUMMARY[side]}")
        w.wait("gm", f"#8 A: {names['A']} {SUMMARY['A']}")   # the GM's history: all of it
        for who in ("gm", "A", "B"):
            w.keys(who, "C-q")                         # quitting a seat ends its session
            w.wait(who, "SSH-EXIT=0")
    finally:
        server.send_signal(signal.SIGINT)
        try:
            _, err = server.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            raise
    assert server.returncode == 0, err
    assert "seat alice (A) joined over ssh" in err
    played = open_campaign(Path(path), load_ruleset, read_only=True).engine
    assert played.state.step != "PLOT"
    plots = {side: played.state.secrets[side]["plot"]["orders"] for side in ("A", "B")}
    assert plots["A"]["a-bw-01"]["task"] == "OF" and plots["B"]["b-sk-02"]["task"] == "DF"
    assert [e.by for e in played.entries() if e.kind == "plot"] == ["A", "B"]
    states = states_over_history(played)
    for side, other in (("A", "B"), ("B", "A")):
        shown = "\n".join(w.seen[side])
        assert SUMMARY[side] in shown and SUMMARY[other] not in shown
        hidden = SideAudit(played, side, states).overall
        assert hidden.facts, f"nothing of {other}'s is hidden from {side}: no yardstick"
        assert hidden.found_in(shown) == [], f"{side}'s screen showed {other}'s secrets"
