"""Shared test helpers."""

from __future__ import annotations

import pytest

from odds.cli import main
from odds.games.paytable import load


@pytest.fixture
def run(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""

    def invoke(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture(scope="session")
def pok_deng():
    """The Pok Deng paytable, loaded once per session (auditor's toolkit tests)."""
    return load("pok-deng")


@pytest.fixture(scope="session")
def pok_deng_analysis(pok_deng):
    return pok_deng.analysis()
