"""Issue 20: work is bounded before it starts (workers, shoes, seeds, rounds).

Each test failed before its fix: ``--workers 1000`` forked a thousand processes,
``--shoes 10**22`` built every chunk first, ``--seed -1`` and a cut card that left
no round were tracebacks.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time

import pytest

import odds.runtime.pool
from odds.core.errors import OddsError
from odds.runtime.pool import MAX_WORKERS, local_workers

ODDS = [sys.executable, "-m", "odds"]


def test_workers_are_capped_by_cores_and_chunks(monkeypatch, capsys):
    monkeypatch.setattr(odds.runtime.pool, "cores", lambda: 4)
    assert local_workers(None, 100) == 4
    assert local_workers(None, 3) == 3
    assert local_workers(1000, 100) == 4
    assert "--workers 1000 capped to 4 (4 cores)" in capsys.readouterr().err
    assert local_workers(3, 2) == 2
    with pytest.raises(OddsError, match="at least 1"):
        local_workers(0, 10)
    with pytest.raises(OddsError, match=f"at most {MAX_WORKERS}"):
        local_workers(10**22, 10)


def test_exposure_with_a_thousand_workers_starts_no_more_than_the_cores(run, monkeypatch):
    started = []
    real = odds.runtime.pool.ProcessPoolExecutor

    def recording(workers, **options):
        started.append(workers)
        return real(workers, **options)

    monkeypatch.setattr(odds.runtime.pool, "ProcessPoolExecutor", recording)
    monkeypatch.setattr(odds.runtime.pool, "cores", lambda: 2)
    code, _, err = run("exposure", "dragon-tiger", "--shoes", "3", "--workers", "1000")
    assert code == 0, err
    assert started == [2]
    assert "capped to 2" in err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--seed", "-1"], "--seed must be a whole number from 0"),
        (["--workers", str(10**22)], "--workers 1"),
        (["--shoes", str(10**22)], "at most 20,000 shoes"),
        (["--set", "dealing.cut_card=415"], "leaves no round"),
    ],
)
def test_exposure_out_of_range_is_one_line(run, arguments, message):
    code, out, err = run("exposure", "dragon-tiger", "--shoes", "2", *arguments)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_a_study_estimated_beyond_a_day_is_refused_before_it_starts(monkeypatch, run):
    import odds.tools.shoe.simulate as simulate

    monkeypatch.setattr(simulate, "MAX_SECONDS", 1)
    code, _, err = run("exposure", "dragon-tiger", "--shoes", "500", "--workers", "1")
    assert code == 2 and "hours of work" in err


def test_a_scheduler_that_accepts_and_never_answers_is_one_line_in_bounded_time(monkeypatch):
    """A local server that accepts TCP connections and never speaks (Dask's connect timeout
    did not cover the handshake: this hung forever)."""

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    accepted = []
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                accepted.append(server.accept()[0])

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    started = time.monotonic()
    try:
        # A real process (the connecting thread is left hanging: the process must still
        # exit), with the handshake's bound cut from 10 s to 1 s for the test.
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys, odds.tools.shoe.simulate as s, odds.__main__ as m; "
                "s.HANDSHAKE_SECONDS = 1.0; sys.argv[0] = 'odds'; m.run()",
                *["exposure", "dragon-tiger", "--shoes", "3", "--scheduler", address],
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        stop.set()
        thread.join()
        for connection in accepted:
            connection.close()
        server.close()
    assert time.monotonic() - started < 30
    assert done.returncode == 2, done.stderr
    assert accepted, "the command never connected"
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "did not answer within 1 s" in lines[0], done.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["simulate", "pok-deng", "--rounds", str(10**22)], "--rounds 1"),
        (["simulate", "pok-deng", "--rounds", "5", "--seed", "-1"], "--seed must be"),
        (["crosscheck", "blackjack", "--rounds", str(10**22)], "--rounds 1"),
        (["crosscheck", "blackjack", "--seed", "-1"], "--seed must be"),
        (["strength", "goa-gae", "As Ks 8s", "--trials", str(10**22)], "--trials 1"),
        (["strength", "goa-gae", "As Ks 8s", "--seed", "-1"], "--seed must be"),
        (["bench", "pok-deng", "--repeat", "100000"], "--repeat"),
    ],
)
def test_every_count_and_seed_is_bounded_before_work_starts(run, arguments, message):
    started = time.monotonic()
    code, _, err = run(*arguments)
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert time.monotonic() - started < 10
