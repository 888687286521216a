"""README's "Three ways to play" stays true: every command parses, and the hosting ones run
as written (the seats are added to the example it names, with the keys it names)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from campaign_tui.cli import main, parse
from campaign_tui.cli.parser import build_parser
from tests.hosted.door_helpers import new_key, public

ROOT = Path(__file__).resolve().parents[2]


def section_commands() -> list[list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Three ways to play")
    body = text[start:text.index("\n## ", start + 1)]
    lines = [ln.split(" #")[0].strip() for block in re.findall(r"```sh\n(.+?)\n```", body, re.S)
             for ln in block.splitlines()]
    return [shlex.split(ln) for ln in lines if ln]


def test_every_command_of_the_section_parses() -> None:
    commands = section_commands()
    used = {c[1] for c in commands if c[0] == "campaign-tui"}
    assert {"open", "seat", "serve", "orders"} <= used
    for words in commands:
        if words[0] == "campaign-tui":
            parse(build_parser(), words[1:])
    serve = next(c for c in commands if c[:2] == ["campaign-tui", "serve"])
    ssh = next(c for c in commands if c[0] == "ssh")
    assert ssh[ssh.index("-p") + 1] == serve[serve.index("--port") + 1]


def test_the_seat_commands_run_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".ssh").mkdir()
    (tmp_path / ".ssh" / "id_ed25519.pub").write_text(public(new_key()) + "\n")
    (tmp_path / "alice.pub").write_text(public(new_key()) + "\n")
    for words in section_commands():
        if words[:2] == ["campaign-tui", "seat"]:
            assert main(words[1:]) == 0, capsys.readouterr().err
    shown = capsys.readouterr().out
    assert "seat bob added" in shown and "/seat/" in shown
    assert re.search(r"^alice\s+TOG\s+key SHA256:", shown, re.M)
