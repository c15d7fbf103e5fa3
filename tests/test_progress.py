"""Progress: drawn on a terminal after a delay, silent in a pipe, invisible to library results."""

from __future__ import annotations

import io

from rich.console import Console

from odds.progress import reporting, track


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
