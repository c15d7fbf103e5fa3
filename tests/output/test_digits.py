"""``--digits N``: N decimals of every printed probability, in the unit shown (issue 34, item 4).

``--digits 2`` printed Banker 1.0579% and Player 1.2351% both as "1%": the option counted
the decimals of the fraction (0.01), not of the percentage shown, though its help said
"Decimals for printed probabilities". Without ``--digits`` the reports are as they were
(6 decimals, percentages 4: the committed reports do not move).
"""

from __future__ import annotations

import re

import pytest

from odds.core.numbers import Digits, percent_places
from odds.games.paytable import load
from odds.output.markdown_report import to_markdown


@pytest.fixture(scope="module")
def baccarat():
    return load("baccarat").bet_analysis()


def _row(text: str, bet: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| {bet} "))


def test_digits_2_prints_two_decimals_of_each_percentage(run):
    code, out, err = run("report", "baccarat", "--digits", "2")
    assert code == 0, err
    banker, player = _row(out, "Banker"), _row(out, "Player")
    assert "1.06%" in banker and "98.94%" in banker and "45.86%" in banker
    assert "1.24%" in player and "98.76%" in player
    assert not re.search(r"\|\s+1%\s+\|", banker + player)  # never the whole-percent "1%"
    assert "house edge 1.06%; RTP 98.94% per unit staked" in out
    assert "with `odds report baccarat --digits 2`" in out  # the command states it


def test_digits_counts_the_decimals_shown_in_every_unit(baccarat):
    text = to_markdown(baccarat, Digits(3))
    banker = _row(text, "Banker")
    assert re.search(r"\|\s+1\.058%\s+\|", banker)  # house edge, a percentage: 3 decimals
    assert re.search(r"\|\s+0\.927\s+\|", banker)  # SD, a decimal: 3 decimals
    assert re.search(r"\| \d+\.\d{3}% to \d+\.\d{3}%", text)  # confidence ranges: 3 too


def test_without_digits_the_reports_are_as_they_were(baccarat):
    banker = _row(to_markdown(baccarat), "Banker")
    assert "1.0579%" in banker and "98.9421%" in banker
    assert re.search(r"\|\s+0\.9\d{5}\s+\|", banker)  # SD: six decimals
    assert percent_places(6) == 4 and percent_places(Digits(6)) == 6


def test_the_help_says_what_digits_means(run):
    code, out, _ = run("report", "--help")
    assert code == 0
    flat = " ".join(out.split())
    assert "--digits N" in flat and "in its unit" in flat and "1.06%" in flat
