"""The attempt list (issue 20): adversarial commands, each run as its own test.

Every ``tests/cli/attempts/*.txt`` file holds blocks separated by blank lines. In a block,
``#`` lines are comments; ``$ `` lines are bash commands run in order in a fresh
temporary folder (``TABLES`` = the repo's ``tables/``, ``ROOT`` = the repo root,
``odds`` on ``PATH``): every ``$`` line but the last is setup (it must succeed), the
last is judged. Then optional expectations:

* ``exit: 0`` / ``exit: nonzero`` / ``exit: N`` — the judged exit status (default nonzero);
* ``stderr: REGEX`` / ``stdout: REGEX`` — :func:`re.search` on that stream;
* ``timeout: SECONDS`` — for each command (default 30); on timeout the whole
  process group is killed and the attempt fails (a hang).

A non-zero exit must explain itself: stderr is one line and holds no ``Traceback``.

This file is self-contained so that any branch can copy it verbatim.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.paths import ROOT

ATTEMPTS = Path(__file__).resolve().parent / "attempts"
DEFAULT_TIMEOUT = 30.0


@dataclass
class Attempt:
    """One block of an attempt file."""

    file: str
    line: int
    commands: list[str] = field(default_factory=list)
    exit: str = "nonzero"
    stderr: str | None = None
    stdout: str | None = None
    timeout: float = DEFAULT_TIMEOUT

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def parse(path: Path) -> list[Attempt]:
    """The blocks of one attempt file; a malformed line fails loudly (not silently skipped)."""
    attempts: list[Attempt] = []
    current: Attempt | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            current = None
            continue
        if current is None:
            current = Attempt(path.name, number)
            attempts.append(current)
        if line.lstrip().startswith("#"):
            continue
        if line.startswith("$ "):
            current.commands.append(line[2:])
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or key not in ("exit", "stderr", "stdout", "timeout"):
            raise ValueError(f"{path.name}:{number}: not a comment, command or expectation")
        if key == "exit" and not re.fullmatch(r"0|nonzero|\d+", value):
            raise ValueError(f"{path.name}:{number}: exit: 0, nonzero or a number")
        if key == "timeout":
            current.timeout = float(value)
        else:
            setattr(current, key, value)
    return [a for a in attempts if a.commands]


def _all() -> list[Attempt]:
    return [a for path in sorted(ATTEMPTS.glob("*.txt")) for a in parse(path)]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_folder = str(Path(sys.executable).parent)
    env["PATH"] = bin_folder + os.pathsep + env.get("PATH", "")
    env["TABLES"] = str(ROOT / "tables")
    env["ROOT"] = str(ROOT)
    return env


def _run(command: str, folder: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """``bash -c command`` in its own process group, killed whole on timeout.

    Output goes to files, not pipes: a background process the command started
    (a test server) would hold a pipe open and make the wait outlast the command.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(
            ["bash", "-c", command],
            cwd=folder,
            env=_environment(),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            start_new_session=True,
        )
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"timed out after {timeout:g} s (a hang): {command}")
        finally:
            with contextlib.suppress(ProcessLookupError):  # whatever it left running behind
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        texts = []
        for stream in (out, err):
            stream.seek(0)
            texts.append(stream.read().decode("utf-8", errors="replace"))
        return subprocess.CompletedProcess(command, process.returncode, *texts)


@pytest.mark.parametrize("attempt", _all(), ids=lambda a: a.id)
def test_attempt(attempt: Attempt, tmp_path: Path) -> None:
    *setup, judged = attempt.commands
    for command in setup:
        done = _run(command, tmp_path, attempt.timeout)
        if done.returncode != 0:
            pytest.fail(f"setup failed (exit {done.returncode}): {command}\n{done.stderr}")
    done = _run(judged, tmp_path, attempt.timeout)
    shown = (
        f"$ {judged}\nexit {done.returncode}\n"
        f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
    )
    wanted = attempt.exit
    if wanted == "nonzero" and done.returncode == 0:
        pytest.fail(f"expected a non-zero exit\n{shown}")
    if wanted != "nonzero" and done.returncode != int(wanted):
        pytest.fail(f"expected exit {wanted}\n{shown}")
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        if "Traceback" in done.stderr or len(lines) != 1:
            pytest.fail(f"a failure must be one line of stderr, no traceback\n{shown}")
    if attempt.stderr is not None and not re.search(attempt.stderr, done.stderr):
        pytest.fail(f"stderr does not match {attempt.stderr!r}\n{shown}")
    if attempt.stdout is not None and not re.search(attempt.stdout, done.stdout):
        pytest.fail(f"stdout does not match {attempt.stdout!r}\n{shown}")
