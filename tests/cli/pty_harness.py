"""Run ``odds`` as a person does: stdout to a pipe or file, stderr on a pseudo-terminal.

:func:`run_on_terminal` starts the real command in a subprocess whose standard
error is the slave end of a pty (so ``isatty()`` is true and progress is
drawn) and whose standard output is a pipe; it returns the exit code, stdout's
bytes and everything the terminal showed. ``ODDS_PROGRESS_DELAY=0`` (the
hidden knob of :mod:`odds.runtime.progress`) makes a short command draw its bar.
"""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.paths import ROOT

_ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@dataclass
class Run:
    code: int
    stdout: bytes
    terminal: bytes

    @property
    def screen_text(self) -> str:
        """What the terminal showed, escape sequences removed."""
        return _ANSI.sub(b"", self.terminal).decode("utf-8", "replace")


def environment(delay: float | None = 0, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("ODDS_PROGRESS_DELAY", None)
    if delay is not None:
        env["ODDS_PROGRESS_DELAY"] = str(delay)
    env.update({"COLUMNS": "100", "TERM": "xterm-256color", **extra})
    return env


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "odds", *args]


def run_on_terminal(
    args: list[str],
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
    while_running: Callable[[subprocess.Popen[bytes], Callable[[], bytes]], None] | None = None,
    stdout: int | object = subprocess.PIPE,
) -> Run:
    """Run ``args`` with stderr on a pty; ``while_running(process, screen)`` may act meanwhile."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        args,
        stdin=subprocess.DEVNULL,
        stdout=stdout,  # type: ignore[arg-type]
        stderr=slave,
        env=env if env is not None else environment(),
        cwd=cwd or ROOT,
        start_new_session=True,
    )
    os.close(slave)
    shown = bytearray()
    lock = threading.Lock()

    def drain() -> None:
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # EIO: the slave end is closed
                return
            if not chunk:
                return
            with lock:
                shown.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()

    def screen() -> bytes:
        with lock:
            return bytes(shown)

    out = b""
    try:
        if while_running is not None:
            while_running(process, screen)
        if process.stdout is not None:
            out, _ = process.communicate(timeout=timeout)
        else:
            process.wait(timeout=timeout)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        reader.join(timeout=5)
        os.close(master)
    return Run(process.returncode, out, screen())


def wait_for(screen: Callable[[], bytes], needle: bytes, seconds: float = 60) -> bool:
    """Whether ``needle`` appeared on the terminal within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if needle in _ANSI.sub(b"", screen()):
            return True
        time.sleep(0.05)
    return False


def run_piped(
    args: list[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The same command with both streams on pipes (no terminal: no bar)."""
    return subprocess.run(
        args,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env if env is not None else environment(),
        cwd=ROOT,
        timeout=300,
    )
