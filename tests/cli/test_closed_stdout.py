"""Standard output closed by the shell, or not writable, or a pipe closed early (issue 33, item 8).

``odds report pok-deng >&-`` starts with descriptor 1 closed (Python's ``sys.stdout`` is
``None``): every command that writes there must say so in one line and exit non-zero, as
``cat >&-`` does, never with a traceback. A reader that stops early (``| head -1``) is no
error: exit 0, nothing on stderr (tests/cli/test_terminal.py has the report's cases).
Real subprocesses, through bash's own redirections.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ODDS = shlex.join([sys.executable, "-m", "odds"])

#: A cheap run of each command that writes to standard output (a report: Dragon Tiger's, 0.1 s
#: of work, through the same writers as any game's).
COMMANDS = [
    "report dragon-tiger",
    "report dragon-tiger --format xlsx",
    "settle pok-deng --banker '9d 7c' --player 'Kh 9h'",
    "simulate pok-deng --rounds 5",
    "games pok-deng",  # one game's options: the writer of every games list
    "verify dragon-tiger --bet tie --house-edge 32.77%",
    "--help",
]


def _bash(script: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=120, cwd=cwd
    )


@pytest.mark.parametrize("args", COMMANDS)
def test_a_closed_stdout_is_one_line_and_exit_2(args):
    done = _bash(f"{ODDS} {args} >&-")
    assert done.returncode == 2, done.stderr
    assert done.stderr == "error: cannot write the output (standard output is closed)\n"


@pytest.mark.parametrize("args", COMMANDS[:3])
def test_a_stdout_open_for_reading_only_is_one_line_and_exit_2(args):
    done = _bash(f"{ODDS} {args} 1</dev/null")
    assert done.returncode == 2, done.stderr
    assert done.stderr == "error: cannot write the output (Bad file descriptor)\n"


def test_a_closed_stdout_does_not_stop_a_command_that_writes_a_file(tmp_path):
    """``--out`` needs no standard output; and no file opened meanwhile takes descriptor 1."""
    done = _bash(f"{ODDS} simulate pok-deng --rounds 5 --out s.csv >&- 2>err.txt", tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "s.csv").read_text().startswith("shoe,round,")
    assert (tmp_path / "err.txt").read_text() == "wrote 5 rounds to s.csv\n"


def test_a_closed_stderr_with_stdout_closed_too_still_exits_2():
    done = _bash(f"{ODDS} report dragon-tiger >&- 2>&-")
    assert done.returncode == 2 and done.stderr == ""


@pytest.mark.parametrize("args", [COMMANDS[2], "simulate pok-deng --rounds 20000"])
def test_a_pipe_closed_early_is_quiet(args):
    done = _bash(f"set -o pipefail; {ODDS} {args} | head -1")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.count("\n") == 1
