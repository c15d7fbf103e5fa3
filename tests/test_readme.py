"""The README shows real output: its report excerpt must match the committed report."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    head = "\n".join(lines[:8])
    assert 'pip install -e ".[test]" && odds report pok-deng' in head
    assert 'pip install -e ".[test]" && python -m pytest' in head
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -e ".[test]" && python -m pytest' in ci


def test_readme_report_excerpt_is_real():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    excerpt = readme.split("```text\n", 1)[1].split("```", 1)[0]
    report = (ROOT / "reports" / "pok-deng.md").read_text(encoding="utf-8")
    for line in excerpt.splitlines():
        assert line in report, line
