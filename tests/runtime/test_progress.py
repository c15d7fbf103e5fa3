"""Progress: drawn on a terminal after a delay, silent in a pipe, invisible to library results."""

from __future__ import annotations

import io

from rich.console import Console

from odds.runtime.progress import reporting, track


def _console() -> Console:
    return Console(record=True, force_terminal=True, width=80, file=io.StringIO())


def test_track_is_a_plain_loop_without_a_reporter():
    assert list(track(range(5), "counting")) == [0, 1, 2, 3, 4]


def test_a_reporter_draws_a_bar_once_the_delay_has_passed():
    console = _console()
    with reporting(console, delay=0):
        assert list(track(range(3), "counting")) == [0, 1, 2]
    assert "counting" in console.export_text()


def test_quick_work_draws_nothing():
    console = _console()
    with reporting(console, delay=60):
        assert sum(track(range(1000), "quick")) == 499500
    assert "quick" not in console.export_text()


def test_the_cli_prints_nothing_extra_in_a_pipe(run):
    code, out, err = run("report", "pok-deng", "--decks", "1")
    assert code == 0 and err == ""
    assert out.startswith("# Pok Deng")


# Issue 19, item 7: a slow first step is not silent, bars carry an ETA, and a phase with no
# steps to count (building layouts) is a spinner.


def test_a_slow_first_step_is_drawn_before_it_ends():
    import time

    console = _console()
    with reporting(console, delay=0.2):
        for _ in track(range(2), "slow steps"):
            time.sleep(0.8)  # the first step alone outlasts the delay
            assert "slow steps" in console.export_text(clear=False)
            break


def test_bars_show_steps_and_an_eta():
    console = _console()
    with reporting(console, delay=0):
        for _ in track(range(4), "counted"):
            pass
    text = console.export_text()
    assert "counted" in text and "ETA" in text and "/4" in text


def test_a_phase_is_a_spinner_without_a_count():
    from odds.runtime.progress import phase

    console = _console()
    with reporting(console, delay=0), phase("building layouts"):
        pass
    text = console.export_text()
    assert "building layouts" in text and "ETA" not in text


def test_finish_erases_the_bar_for_good():
    from odds.runtime.progress import finish

    console = _console()
    with reporting(console, delay=0) as reporter:
        finish()
        assert list(track(range(3), "after the document")) == [0, 1, 2]
        assert reporter._progress is None
    assert "after the document" not in console.export_text()


def test_progress_never_redirects_the_standard_streams():
    import sys

    console = _console()
    before = (sys.stdout, sys.stderr)
    with reporting(console, delay=0):
        for _ in track(range(2), "looking"):
            assert (sys.stdout, sys.stderr) == before


def test_the_delay_knob(monkeypatch):
    from odds.runtime.progress import DELAY, configured_delay

    monkeypatch.setenv("ODDS_PROGRESS_DELAY", "0")
    assert configured_delay() == 0
    monkeypatch.setenv("ODDS_PROGRESS_DELAY", "soon")
    assert configured_delay() == DELAY


def test_a_forked_worker_never_draws():
    """Process pools fork: the child inherits the reporter but must not draw (nor lock)."""
    import multiprocessing

    console = _console()
    with reporting(console, delay=0):
        context = multiprocessing.get_context("fork")
        with context.Pool(1) as pool:
            assert pool.apply(_count_in_a_worker) == 3
    assert "in the worker" not in console.export_text()


def _count_in_a_worker() -> int:
    from odds.runtime.progress import _current

    assert _current() is None
    return len(list(track(range(3), "in the worker")))
