"""On a terminal, tables fit its width; in a pipe or a file, the full Markdown (issue 34, item 3).

The README's main job, ``odds report pok-deng``, printed 86 lines over 120 columns (the
widest 554) on any terminal, and ``odds games`` 636 columns. Standard output is now the
slave end of a pseudo-terminal of 80 or 120 columns (as a person's shell gives it), with
``COLUMNS`` unset so the window's own size is read: no line is wider than the window and
every figure the piped Markdown holds is still there, whole.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import termios
from collections import Counter
from pathlib import Path

import pytest

from odds.output.terminal import fit_markdown, width_of
from tests.cli.pty_harness import command, environment, run_piped
from tests.paths import ROOT

#: A figure as the documents print them: counts, decimals, percentages, fractions, signs.
FIGURE = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:/\d+)?%?")


def on_terminal(args: list[str], columns: int, cwd: Path = ROOT) -> str:
    """``args`` with stdout and stderr on a pty ``columns`` wide; what the window showed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = environment(delay=3600)
    env.pop("COLUMNS")
    process = subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, env=env, cwd=cwd
    )
    os.close(slave)
    shown = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the process is gone and the slave end closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    assert process.wait(timeout=300) == 0
    return shown.decode("utf-8").replace("\r\n", "\n")  # the terminal's own line endings


def _figures(text: str, columns: int) -> Counter[str]:
    """The figures of ``text``, but those in a word wider than the window (a SHA-256 digest
    at 40 columns), which no layout can show on one line."""
    words = [w for w in re.split(r"[\s|]+", text) if width_of(w) <= columns]
    return Counter(f for w in words for f in FIGURE.findall(w))


def _check_fitted(shown: str, piped: str, columns: int) -> None:
    lines = shown.split("\n")
    assert max(width_of(line) for line in lines) <= columns
    missing = _figures(piped, columns) - Counter(FIGURE.findall(shown))
    assert not missing, list(missing)[:10]


MAIN_JOB = command("report", "pok-deng", "--decks", "1")


@pytest.fixture(scope="module")
def main_job_piped() -> str:
    piped = run_piped(MAIN_JOB).stdout.decode("utf-8")
    assert max(width_of(line) for line in piped.splitlines()) > 120  # the Markdown is wide
    return piped


def test_the_main_job_fits_the_terminal_and_keeps_every_figure(main_job_piped):
    """One real window, 80 columns: what a process adds is the width read from its terminal
    (a width assumed wider fails here); the layout at 40, 80 and 120 columns is checked on
    every committed report below, without a process."""
    _check_fitted(on_terminal(MAIN_JOB, 80), main_job_piped, 80)


@pytest.fixture(scope="module")
def games_piped() -> bytes:
    """``odds games`` through a pipe (every game's options: ~2 s), run once for the module."""
    return run_piped(command("games")).stdout


def test_the_games_list_fits_an_80_column_terminal(games_piped):
    piped = games_piped.decode("utf-8")
    shown = on_terminal(command("games"), 80)
    _check_fitted(shown, piped, 80)
    assert "| game" in shown and "pok-deng" in shown


def test_output_to_a_file_from_a_terminal_is_the_full_markdown(tmp_path, games_piped):
    target = tmp_path / "games.md"
    args = command("games", "--output", str(target))
    assert on_terminal(args, 80) == ""
    assert target.read_bytes() == games_piped


def test_csv_on_a_terminal_is_never_reflowed():
    args = command("games", "baccarat", "--format", "csv", "--table", "games")
    piped = run_piped(args).stdout.decode("utf-8")
    assert max(width_of(line) for line in piped.splitlines()) > 80  # a reflow would show
    assert on_terminal(args, 80) == piped


# ---------------------------------------------------------------------------
# The layout itself, on every committed report (no process: cheap)

REPORTS = ["pok-deng", "baccarat", "blackjack", "mahjong-28", "goa-gae"]


@pytest.mark.parametrize("name", REPORTS)
@pytest.mark.parametrize("columns", [40, 80, 120])
def test_every_line_fits_and_every_figure_stays_whole(name, columns):
    text = (ROOT / "reports" / f"{name}.md").read_text(encoding="utf-8")
    _check_fitted(fit_markdown(text, columns), text, columns)


def test_a_table_that_fits_is_left_as_it_is():
    table = "| a   |   b |\n|:----|----:|\n| x   |   1 |\n"
    assert fit_markdown(table, 80) == table


def test_a_wide_table_wraps_text_splits_columns_and_never_wraps_a_number():
    headers = "| name | " + " | ".join(f"figure {i}" for i in range(8)) + " |"
    rule = "|:-----|" + "---------:|" * 8
    row = "| a long name of a row that wraps | " + " | ".join("-12,345.6789%" for _ in range(8))
    shown = fit_markdown("\n".join([headers, rule, row + " |"]), 60)
    lines = shown.split("\n")
    assert max(width_of(line) for line in lines) <= 60
    assert shown.count("-12,345.6789%") == 8  # every number whole, each once
    assert shown.count("| a long name") >= 2  # the rows' names head every part


def test_wide_characters_count_two_columns():
    row = "| " + "🀄" * 30 + " | 1 |"
    shown = fit_markdown("\n".join(["| tiles | n |", "|:--|--:|", row]), 40)
    assert max(width_of(line) for line in shown.split("\n")) <= 40
