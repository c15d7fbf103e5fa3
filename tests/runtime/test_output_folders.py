"""Issue 33, item 13: one rule for read-only files and folders; a killed run's leftovers.

A folder without write permission bits is not written into, even by root (whose
``os.access`` says yes), as a read-only file is not replaced. A run killed outright
(SIGKILL) cannot remove its temporary ``.part`` file; the next write to the same target
removes it — only files of our own name pattern, older than the writing process and
held by no running writer, never anything else.
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from odds.core.errors import OddsError
from odds.runtime import atomic
from odds.runtime.atomic import atomic_path, check_output_path, remove_stale_temporaries

ODDS = [sys.executable, "-m", "odds"]


def test_a_read_only_folder_is_refused_as_a_read_only_file_is(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(OddsError, match=r"the folder .*ro is read-only"):
            check_output_path(folder / "r.csv")
        with pytest.raises(OddsError, match="read-only"), atomic_path(folder / "r.csv"):
            pytest.fail("no temporary file in a read-only folder")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_folder_with_some_write_bit_is_written(tmp_path):
    folder = tmp_path / "w"
    folder.mkdir()
    folder.chmod(0o755)
    check_output_path(folder / "r.csv")


def _part_of(folder: Path, name: str) -> list[Path]:
    return sorted(
        p for p in folder.iterdir() if p.name.startswith(f".{name}.") and p.name.endswith(".part")
    )


def _start_long_simulation(out: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [*ODDS, "simulate", "pok-deng", "--rounds", "100000000", "--out", str(out)],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not _part_of(out.parent, out.name):
        assert time.monotonic() < deadline and process.poll() is None, "no .part file appeared"
        time.sleep(0.05)
    return process


def test_a_killed_runs_part_file_is_removed_by_the_next_write(tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("precious\n")
    process = _start_long_simulation(out)
    time.sleep(0.3)
    process.kill()  # SIGKILL: no clean-up can run
    process.wait(timeout=10)
    (stray,) = _part_of(tmp_path, "r.csv")
    assert out.read_text() == "precious\n"
    # What must survive: another target's leftover, names not of our pattern, a link.
    decoys = [
        tmp_path / ".other.csv.abcd1234.part",
        tmp_path / ".r.csv.keep.part",
        tmp_path / "r.csv.abcd1234.part",
        tmp_path / ".r.csv.abcd12345.part",
    ]
    for decoy in decoys:
        decoy.write_text("not ours to remove\n")
    link = tmp_path / ".r.csv.zzzz9999.part"
    link.symlink_to(tmp_path / "elsewhere")
    long_ago = time.time() - 3600
    for path in [*decoys, stray]:
        os.utime(path, (long_ago, long_ago))
    done = subprocess.run(
        [*ODDS, "simulate", "pok-deng", "--rounds", "5", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not stray.exists()
    assert all(decoy.exists() for decoy in decoys) and link.is_symlink()
    assert out.read_text().startswith("shoe,round,")


def test_a_running_writers_part_file_is_never_removed(tmp_path):
    """Two runs writing one target: the second must not take the first one's file away."""
    out = tmp_path / "r.csv"
    first = _start_long_simulation(out)
    try:
        (live,) = _part_of(tmp_path, "r.csv")
        long_ago = time.time() - 3600
        os.utime(live, (long_ago, long_ago))  # old as well: only its lock tells it is alive
        done = subprocess.run(
            [*ODDS, "simulate", "pok-deng", "--rounds", "5", "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert live.exists() and first.poll() is None
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=30)
    assert _part_of(tmp_path, "r.csv") == []  # the first run removed its own on the way out


def test_only_files_older_than_this_process_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "_STARTED", time.time())
    old, young, held = (
        tmp_path / f".r.csv.{tag}.part" for tag in ("old00000", "young000", "held0000")
    )
    for path in (old, young, held):
        path.write_text("x")
    long_ago = time.time() - 3600
    os.utime(old, (long_ago, long_ago))
    os.utime(held, (long_ago, long_ago))
    os.utime(young, (time.time() + 60, time.time() + 60))
    with open(held) as holder:
        fcntl.flock(holder, fcntl.LOCK_EX)  # a writer still at work
        removed = remove_stale_temporaries(tmp_path, ".r.csv.", ".part")
    assert removed == [old.name]
    assert young.exists() and held.exists() and not old.exists()
