"""Table-side benchmark (issue 13): keys and seconds at the table, through the real TUI.

For each rule set, in tmux at 80x24: ``campaign-tui`` (the picker), a new campaign of the
first scenario ``campaign-tui scenarios ID`` lists, the quick set-up, then the rule set's
first turn up to one combat resolved through the dialog (where this script knows the
way), save, quit, reopen. It prints one line per rule set:

    TABLE <ruleset_id> keys=<n> seconds=<s> combat=<yes|no>

Every key sent counts (a typed character is one key), from the picker to the first combat
result applied, or to the end of the walk when it reaches no combat (combat=no); combat=yes
only when the reopened campaign's log holds that combat with the die typed. Needs only the
installed package, the standard library and tmux.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

WAIT = 20.0  # seconds to wait for one expected screen

# after the quick set-up: the keys of each rule set's first turn up to a combat, as
# (keys, text to wait for). "type:TEXT" types TEXT (a key per character); "*apply*" is the
# Enter that applies the result shown, done when the top bar counts one more unsaved action.
COMBAT: dict[str, list[tuple[str, str]]] = {
    # Romans: the front skirmisher (the move's first candidate: nearest the enemy) runs
    # four hexes to the Sabine axemen (the path's editor: enter, a, the hexes typed at
    # once, enter, ^n keeps them); after the Sabines' defensive fire, it attacks them
    # (attacker and target are the only candidates, filled in); the die is typed: 4
    "prestags": [("n", "Movement Phase"), ("1", "Move a unit"), ("type:a-sk-04", ""),
                 ("Enter", ""), ("Enter", "Add"), ("a", "hex numbers"),
                 ("type:0914,1015,1115,1216", ""), ("Enter", "4 rows"), ("C-n", ""),
                 ("C-r", "Result:"),
                 ("*apply*", ""), ("n", "Defensive Fire"), ("n", "Melee"),
                 ("1", "Melee attack"), ("C-r", "Ready to roll"), ("type:4", ""),
                 ("Enter", "Result:"), ("*apply*", "")],
    # CW: no move (task forces already stand next to TOG's); past both detection steps,
    # TF 2 of the 199th (first of the attackers in contact) declares on the first target
    # listed (next to it), resolves it, and rolls: the CRT die typed (5), the saving rolls
    # left to the program
    "prefect": [("n", "last counteractions"), ("n", "Attacker's detection"),
                ("n", "Defender's detection"), ("n", "Declare attacks"),
                ("1", "Declare an attack"), ("F2", "Type to filter"), ("Down", ""),
                ("space", ""), ("Enter", ""), ("Tab", ""), ("F2", "Type to filter"),
                ("Enter", ""), ("C-r", "Result:"), ("*apply*", ""), ("n", "Resolve attacks"),
                ("1", "Resolve a declared"), ("C-r", "Result:"), ("*apply*", ""),
                ("1", "Ready to roll"), ("type:5", ""), ("Enter", "save against"),
                ("C-r", "Result:"), ("*apply*", "")],
}
# SWII: the quick set-up puts the two Sathar fleets in start circles four days from their
# systems. Advance until… (N, enter: until something is due) stops at each day's forced
# move, made by move_all (1: it has no parameters, its result shows at once); on day 4 it
# stops where UPF ships may leave, then at the contested systems. The Sathar attack the
# first (the system filled in); past the battle's set-up, in the fight the first shooter
# (F2, enter) fires its first weapon at the first defender (^r asks for it, F2, enter): the
# d100 typed (37).
COMBAT["second_sathar_war"] = [
    *[step for day in (1, 2, 3, 4) for step in (
        ("N", "Until something is due"), ("Enter", f"Day {day} (Time"), ("1", "Result:"),
        ("*apply*", ""))],
    ("N", "Until something is due"), ("Enter", "may leave before"),
    ("N", "Until something is due"), ("Enter", "Contested:"),
    ("1", "Declare an attack"), ("C-r", "Result:"), ("*apply*", ""),
    ("n", "Battle set-up"), ("n", "Fight the battle"),
    ("1", "Attack roll"), ("F2", "Pick attacker"), ("Enter", ""), ("C-r", "target"),
    ("F2", "Pick target"), ("Enter", ""), ("C-r", "Ready to roll"), ("type:37", ""),
    ("Enter", "Result:"), ("*apply*", ""),
]
# Zhodani: the 40th Fleet (the quick set-up's strike group at Clan, jump 3) jumps to Jewell
# on turn 1 (the fleet picked by filter, J1510 typed; its later turns and every other fleet
# hold: "Hold the unplotted fleets"); the Imperium, surprised, plots nothing. Advance until…
# (N, enter: until something is due) stops at the movement-order roll (the program's dice),
# at the second xboat step (admirals not commanding a fleet may travel) and at Jewell's
# contested hex; n opens the space battle with the 214th Fleet: the first die (the Imperial
# fire) is typed, 4; the program rolls the rest
COMBAT["fifth_frontier_war"] = [
    ("1", "Plot orders"), ("F2", "Type to filter"), ("type:40", ""), ("Enter", "= 40th Fleet"),
    ("Tab", ""), ("type:J1510", ""), ("C-r", "Result:"), ("*apply*", ""),
    ("2", "Hold the unplotted"), ("C-r", "Result:"), ("*apply*", ""),
    ("N", "Until something is due"), ("Enter", "Ready to roll"), ("C-r", "Result:"),
    ("*apply*", ""),
    ("N", "Until something is due"), ("Enter", "not commanding a fleet"),
    ("N", "Until something is due"), ("Enter", "contested hexes left: 1510"),
    ("n", "Ready to roll"), ("type:4", ""), ("Enter", "Roll 1d6 for Zhodani"), ("C-r", "Result:"),
    ("*apply*", "")]

# Star Cruiser Lite (demo): Week 0 resolved to its report in one action (the program's
# dice); week 1: FRA-1 (the first task force offered: it faces the Kafer raider at Eta Bootis)
# gets an Attack order (movement two rows up from hold), every other nation the standing
# orders; advancing, Aurore's minefield tries the raider, France's detection die is typed
# (10: detected), then on to the battle, fought automatically with the Kafers' arousal die
# typed (4) and the rest left to the program
COMBAT["star_cruiser_lite"] = [
    ("8", "Ready to roll"), ("C-r", "Result:"), ("*apply*", ""), ("n", "Turn orders"),
    ("2", "F2 picks"), ("F2", "Type to filter"), ("Enter", ""), ("Tab", ""), ("Up", ""),
    ("Up", ""), ("C-r", "Result:"), ("*apply*", ""), ("4", "Result:"), ("*apply*", ""),
    ("n", "Start of the week"), ("n", "minefield attack"), ("C-r", "Result:"), ("*apply*", ""),
    ("n", "detection of KAF-3 by FRA"), ("type:10", ""), ("Enter", "detection of FRA-1"),
    ("C-r", "Result:"), ("*apply*", ""), ("n", "Facility detection"), ("n", "Reorganisation"),
    ("n", "Coordination"), ("n", "Movement actions"), ("n", "Battle set-up"),
    ("4", "arousal of Kafers"), ("type:4", ""), ("Enter", "acquisition"), ("C-r", "Result:"),
    ("*apply*", ""),
]

# the combat each walk ends with, as the saved log must show it: (action kind, the typed die
# [, words of the first roll's purpose])
RESULT: dict[str, tuple[str, int] | tuple[str, int, str]] = {
    "prestags": ("melee", 4),
    "prefect": ("roll_combat", 5),
}
RESULT["second_sathar_war"] = ("fire", 37)
RESULT["fifth_frontier_war"] = ("advance", 4, "round 1: space fire")
RESULT["star_cruiser_lite"] = ("cmb_auto", 4)
# before the quick set-up: what a rule set asks first (SSW: the Sathar seal their
# retreat condition, a secret choice the quick set-up leaves to them)
BEFORE: dict[str, list[tuple[str, str]]] = {
    "second_sathar_war": [("n", "retreat condition"), ("1", "see table T13"),
                          ("type:1", ""), ("C-r", "Result:"), ("Enter", ""), ("n", "")],
}


@dataclass
class Driver:
    socket: str
    keys: int = 0
    unsaved: int = 0  # the top bar's count of unsaved actions, as last read
    log: list[str] = field(default_factory=list)

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=False,
                              capture_output=True, text=True, timeout=30).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "table")

    def send(self, key: str) -> None:
        self.keys += 1
        self.log.append(key)
        self.tmux("send-keys", "-t", "table", key)
        time.sleep(0.05)

    def type(self, text: str) -> None:
        for ch in text:
            self.keys += 1
            self.tmux("send-keys", "-t", "table", "-l", "--", ch)
            time.sleep(0.02)

    def wait_for(self, text: str, timeout: float = WAIT) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.screen()
            if text in shown:
                return shown
            if time.monotonic() > deadline:
                raise TimeoutError(f"waited {timeout:g}s for {text!r}; the screen shows:\n{shown}")
            time.sleep(0.1)

    def save(self) -> None:
        """ctrl+s until the top bar says saved (a key sent while a dialog closes is lost
        on a loaded machine; each try counts)."""
        for _ in range(3):
            self.send("C-s")
            deadline = time.monotonic() + 6
            while time.monotonic() < deadline:
                top = self.screen().splitlines()[:1]
                if top and " saved " in f"{top[0]} " and "unsaved" not in top[0]:
                    return
                time.sleep(0.2)
        raise TimeoutError(f"not saved; the screen shows:\n{self.screen()}")

    def gone(self, timeout: float = WAIT) -> None:
        """Wait for the program to end (its session closes with it)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            done = subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", "table"],
                                  check=False, capture_output=True).returncode != 0
            if done:
                return
            time.sleep(0.1)
        raise TimeoutError(f"the program did not quit; the screen shows:\n{self.screen()}")

    def settle(self, seconds: float = 0.6) -> str:
        time.sleep(seconds)
        return self.screen()

    def step(self, key: str, expect: str) -> None:
        if key.startswith("type:"):
            self.type(key[5:])
        elif key == "*apply*":
            self.apply()
            return
        else:
            self.send(key)
        if expect:
            self.wait_for(expect)
        self.settle(1.0)  # keys typed while a screen is still being mounted are lost

    def apply(self) -> None:
        """Enter on the result shown: applied when the top bar counts one more unsaved
        action."""
        # the dialog may cover the top bar: the count last seen is the floor
        before = max(_unsaved(self.screen()), self.unsaved)
        self.send("Enter")
        deadline = time.monotonic() + WAIT
        while (count := _unsaved(self.screen())) <= before:
            if time.monotonic() > deadline:
                raise TimeoutError(f"not applied; the screen shows:\n{self.screen()}")
            time.sleep(0.2)
        self.unsaved = count
        self.settle(1.5)  # the dialog closes; a key sent meanwhile is lost


def _unsaved(screen: str) -> int:
    """The top bar's count of unsaved actions (a notice may cover all of "unsaved" but its
    first letter)."""
    top = screen.splitlines()[0] if screen else ""
    m = re.search(r"(\d+) (?:u|un|uns|unsa|unsav|unsave|unsaved)(?![a-z])", top)
    return int(m.group(1)) if m else 0


def _logged(cmd: list[str], home: Path, path: str, kind: str, die: int,
            purpose: str = "") -> bool:
    """The saved log holds the combat, resolved with the die typed at the table (its first
    roll, whose purpose names *purpose* when given: a combat rolled while advancing)."""
    out = subprocess.run([*cmd, "--home", str(home), "log", "--json", path],
                         capture_output=True, text=True, check=True).stdout
    return any(e.get("kind") == kind and e.get("rolls") and e["rolls"][0].get("dice") == [die]
               and purpose in str(e["rolls"][0].get("purpose", ""))
               for e in json.loads(out))


def ruleset_ids(cmd: list[str]) -> list[str]:
    out = subprocess.run([*cmd, "rulesets"], capture_output=True, text=True, check=True)
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip()]


def run_one(cmd: list[str], rid: str, position: int, home: Path) -> tuple[int, float, bool]:
    d = Driver(f"table-{os.getpid()}-{rid}")
    env_cmd = " ".join([*cmd, "--home", str(home)])
    d.tmux("new-session", "-d", "-s", "table", "-x", "80", "-y", "24", env_cmd)
    start = time.monotonic()
    try:
        d.wait_for("New")
        d.step("n", "Choose the rule set")
        for _ in range(position):
            d.send("Down")
        d.step("Enter", "Choose the scenario")
        d.step("Enter", "each starts at its default")
        d.step("C-n", "The program rolls")
        d.step("C-n", "F2 Prompt")
        for key, expect in BEFORE.get(rid, []):
            d.step(key, expect)
        d.step("q", "Quick set-up:")
        for key, expect in COMBAT.get(rid, []):
            d.step(key, expect)
        keys, seconds = d.keys, time.monotonic() - start
        d.save()
        d.send("C-q")
        d.gone()
        # reopen: the campaign is listed and opens
        listing = subprocess.run([*cmd, "--home", str(home), "list", "--mine"],
                                 capture_output=True, text=True, check=True).stdout
        path = listing.strip().splitlines()[-1].rsplit(" ", 1)[-1]
        d.tmux("new-session", "-d", "-s", "table", "-x", "80", "-y", "24",
               f"{env_cmd} open {path}")
        d.wait_for("F2 Prompt")
        d.tmux("send-keys", "-t", "table", "C-q")
        d.gone()
        return keys, seconds, rid in RESULT and _logged(cmd, home, path, *RESULT[rid])
    finally:
        d.tmux("kill-server")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulesets", nargs="*", help="rule set ids (default: all installed)")
    args = ap.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux is needed", file=sys.stderr)
        return 2
    exe = shutil.which("campaign-tui")
    cmd = [exe] if exe else [sys.executable, "-m", "campaign_tui"]
    installed = ruleset_ids(cmd)
    from campaign_tui.registry import registry

    order = list(registry().infos)  # the order the wizard lists them in
    failed = 0
    for rid in args.rulesets or installed:
        with tempfile.TemporaryDirectory(prefix="table-side-") as home:
            try:
                keys, seconds, combat = run_one(cmd, rid, order.index(rid), Path(home))
            except (TimeoutError, subprocess.SubprocessError) as exc:
                failed += 1
                print(f"TABLE {rid} failed: {exc}", file=sys.stderr)
                continue
        print(f"TABLE {rid} keys={keys} seconds={seconds:.1f} combat={'yes' if combat else 'no'}",
              flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
