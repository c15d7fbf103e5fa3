"""Issue 20: what a command writes never replaces what it must not, and stops cleanly.

Each test failed before its fix (the attempt list, tests/cli/attempts/outputs.txt, has the
one-line checks; these need a signal, a pool, or a look at the folder afterwards).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from odds.core.errors import OddsError
from odds.runtime.atomic import atomic_path, check_output_path
from tests.paths import ROOT

ODDS = [sys.executable, "-m", "odds"]


def test_a_device_fifo_symlink_or_read_only_file_is_never_replaced(tmp_path):
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    real = tmp_path / "real.csv"
    real.write_text("keep\n")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    locked = tmp_path / "locked.csv"
    locked.write_text("keep\n")
    locked.chmod(0o444)
    for target, why in [
        (Path("/dev/null"), "not a regular file"),
        (fifo, "not a regular file"),
        (link, "symbolic link"),
        (locked, "read-only"),
    ]:
        with pytest.raises(OddsError, match=why), atomic_path(target):
            pytest.fail("no temporary file for a refused target")
    assert Path("/dev/null").is_char_device() and fifo.is_fifo() and link.is_symlink()
    assert real.read_text() == locked.read_text() == "keep\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "link.csv",
        "locked.csv",
        "pipe.csv",
        "real.csv",
    ]


def test_an_input_is_never_the_output_however_it_is_spelled(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("x.toml").write_text("game = 'pok-deng'\n")
    os.link("x.toml", "hard.csv")
    for output in ["x.toml", "./x.toml", str(tmp_path / "x.toml"), "hard.csv"]:
        with pytest.raises(OddsError, match="is an input"):
            check_output_path(Path(output), [Path("x.toml")])
    check_output_path(Path("other.csv"), [Path("x.toml")])


def test_simulate_refuses_to_overwrite_its_own_paytable(run, tmp_path):
    table = tmp_path / "x.toml"
    table.write_text((ROOT / "tables" / "pok-deng.toml").read_text())
    before = table.read_bytes()
    code, _, err = run("simulate", str(table), "--rounds", "5", "--out", str(table))
    assert code == 2 and "is an input" in err
    assert table.read_bytes() == before


def test_empty_charts_folder_is_refused_before_any_work(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("report", "pok-deng", "--charts", "")
    assert code == 2 and "--charts" in err and out == ""
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_terminated_simulation_leaves_no_partial_file(tmp_path, signum):
    out = tmp_path / "r.csv"
    out.write_text("precious\n")
    process = subprocess.Popen(
        [*ODDS, "simulate", "pok-deng", "--rounds", "100000000", "--out", str(out)],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not any(p.name.endswith(".part") for p in tmp_path.iterdir()):
        assert time.monotonic() < deadline and process.poll() is None, "no .part file appeared"
        time.sleep(0.05)
    time.sleep(0.3)
    process.send_signal(signum)
    _, err = process.communicate(timeout=10)
    assert process.returncode == 128 + signum
    assert err.strip() == f"error: terminated ({signal.Signals(signum).name})"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]
    assert out.read_text() == "precious\n"


def test_ctrl_c_during_reports_exits_at_once_with_one_line():
    """Ctrl-C (SIGINT to the whole process group, as a terminal sends it) and a second one
    while cleaning up: exit 130 within ~2 s, one line, no pool or threading traceback."""
    process = subprocess.Popen(
        [*ODDS, "reports", "--check"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=ROOT,
    )
    # Once the pool's worker processes are up (the report work has started), not after a
    # fixed wait: /proc lists the command's children.
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 60
    if not children.exists():  # a kernel without the list: the old fixed wait
        time.sleep(4)
    while children.exists() and not children.read_text().split():
        assert time.monotonic() < deadline and process.poll() is None, "no worker started"
        time.sleep(0.05)
    time.sleep(0.5)
    assert process.poll() is None
    started = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    time.sleep(0.1)
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
    try:
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert time.monotonic() - started < 2.5
    assert process.returncode == 130
    assert err.strip() == "error: interrupted", err


def test_reports_validate_every_paytable_before_building_any(tmp_path, monkeypatch):
    import odds.tools.regenerate

    good = tmp_path / "good.toml"
    good.write_text((ROOT / "tables" / "dragon-tiger.toml").read_text())
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "dragon-tiger"\n[payouts]\ntie = "lots"\n')
    built = []
    monkeypatch.setattr(odds.tools.regenerate, "_outputs", lambda paths: built.append(paths) or [])
    with pytest.raises(OddsError, match=r"broken\.toml"):
        odds.tools.regenerate.statuses([good, broken])
    assert built == []
