"""The README shows real output: its report excerpt must match the committed report."""

from __future__ import annotations

import itertools
import re
import shlex
from pathlib import Path

from odds.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    head = "\n".join(lines[:8])
    assert 'pip install -e ".[test]" && odds report pok-deng' in head
    assert 'pip install -e ".[test]" && python -m pytest' in head
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -e ".[test]" && python -m pytest' in ci


def _text_blocks() -> list[tuple[str, str]]:
    """Each ```text block of the README with the paragraph before it."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    parts = readme.split("```text\n")
    return [
        (before.rstrip().rsplit("\n\n", 1)[-1], part.split("```", 1)[0])
        for before, part in itertools.pairwise(parts)
    ]


def test_readme_report_excerpts_are_real():
    """Each excerpt is lines of the committed report its paragraph names, in the report's order."""
    excerpts = [(intro, text) for intro, text in _text_blocks() if "An excerpt of" in intro]
    assert len(excerpts) >= 2
    for intro, excerpt in excerpts:
        name = re.search(r"`(reports/[^`]+\.md)`", intro)
        assert name, intro
        report = (ROOT / name.group(1)).read_text(encoding="utf-8").splitlines()
        where = [report.index(line) for line in excerpt.splitlines() if line]
        assert where == sorted(where), f"{name.group(1)}: the excerpt's lines are out of order"


def test_readme_command_outputs_are_real(capsys):
    """A ```text block that starts with ``$ odds …`` shows exactly what the command prints."""
    runs = [text for _, text in _text_blocks() if text.startswith("$ odds ")]
    assert runs
    for text in runs:
        command, _, shown = text.partition("\n")
        assert main(shlex.split(command[2:])[1:]) == 0, command
        assert capsys.readouterr().out.strip() == shown.strip(), command
