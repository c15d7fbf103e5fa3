"""Shared test helpers."""

from __future__ import annotations

import pytest

from odds.cli import main


@pytest.fixture
def run(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""

    def invoke(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke
