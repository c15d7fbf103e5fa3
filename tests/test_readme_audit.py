"""The README's audit walk-through is real: its commands, run in order, print the lines it shows.

The README shows `odds simulate` making a log, `odds audit` passing it, `doctor.py` (a Python
block in the README) doctoring it, the audit flagging that, and a 1-deck audit rejecting rows.
This test takes every console block of that walk-through from the README itself, runs its
``$`` commands in a fresh folder (the Python block through ``exec``) and requires each line the
README shows, and each exit code it names, to be what the command gives.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from odds.cli import main

ROOT = Path(__file__).resolve().parent.parent
SECTION = "### Audit dealt rounds"


def _section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(SECTION)
    return readme[start : readme.index("\n### ", start + len(SECTION))]


def _blocks(info: str) -> list[str]:
    """The section's fenced blocks whose info string is ``info`` ("" for plain blocks)."""
    blocks, current, opened = [], [], None
    for line in _section().splitlines():
        if not line.startswith("```"):
            current.append(line)
        elif opened is None:
            opened, current = line[3:].strip(), []
        else:
            if opened == info:
                blocks.append("\n".join(current) + "\n")
            opened = None
    return blocks


def _console_blocks() -> list[list[tuple[str, list[str]]]]:
    """Blocks with ``$`` commands, each as (command, the lines shown after it)."""
    blocks = []
    for block in _blocks(""):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps and line != "…":
                steps[-1][1].append(line)
        if steps:
            blocks.append(steps)
    return blocks


def _run(command: str, capsys) -> tuple[int, str]:
    command = command.partition("#")[0]
    if command.strip().startswith("head "):
        _, count, name = command.split()
        lines = Path(name).read_text(encoding="utf-8").splitlines(True)
        return 0, "".join(lines[: int(count.lstrip("-"))])
    code = 0
    for part in command.split("&&"):
        args = shlex.split(part)
        if args == ["python", "doctor.py"]:
            (doctor,) = [b for b in _blocks("python") if b.startswith("# doctor.py")]
            exec(compile(doctor, "doctor.py", "exec"), {})
            continue
        assert args[0] == "odds", command
        code = main(args[1:])
    return code, capsys.readouterr().out


def test_the_walk_through_has_its_steps():
    commands = [command for block in _console_blocks() for command, _ in block]
    assert any("odds simulate" in c for c in commands)
    assert any("doctor.py" in c for c in commands)
    assert sum("odds audit" in c for c in commands) == 3


def test_every_command_prints_what_the_readme_shows(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for block in _console_blocks():
        for command, shown in block:
            code, out = _run(command, capsys)
            expected = re.search(r"# exit (\d)", command)
            assert code == (int(expected.group(1)) if expected else 0), command
            printed = out.splitlines()
            for line in shown:
                assert line in printed, f"{command!r} did not print {line!r}"
