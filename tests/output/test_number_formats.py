"""Numbers printed alike wherever they appear (issue 34, item 12).

Observed counts had thousands separators and expected counts did not (``1,264`` beside
``1303.71``); an exposure table wrote ``-0.7856 % [...] %``; stake columns read ``6/5``
and ``11/5`` for stakes the user wrote as 1.2 and 2.2.
"""

from __future__ import annotations

import re
from pathlib import Path

from odds.core.numbers import grouped
from odds.stats.intervals import Estimate
from odds.tools.shoe.report_tables import percent_interval


def _table_rows(text: str, header: str) -> list[list[str]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_expected_counts_have_thousands_separators_as_observed_ones_do(run, tmp_path: Path):
    log = tmp_path / "dt.csv"
    code, _, err = run(
        "simulate", "dragon-tiger", "--rounds", "3000", "--seed", "5", "-o", str(log)
    )
    assert code == 0, err
    code, out, err = run("audit", "dragon-tiger", "--log", str(log))
    assert code in (0, 1), err
    rows = _table_rows(out, "| cell")
    big = [(observed, expected) for _, observed, expected, *_ in rows if len(expected) > 7]
    assert big  # cells expecting over 1,000 rounds
    for observed, expected in big:
        assert re.fullmatch(r"\d{1,3}(,\d{3})+", observed), observed
        assert re.fullmatch(r"\d{1,3}(,\d{3})+\.\d\d", expected), expected


def test_grouped_leaves_small_numbers_and_marks_alone():
    assert grouped("1303.71") == "1,303.71"
    assert grouped("-0.5") == "-0.5" and grouped("4090.71") == "4,090.71"
    assert grouped("≈ -0.01") == "≈ -0.01" and grouped("1,264") == "1,264"


def test_an_interval_of_percentages_writes_each_bound_as_one():
    assert percent_interval(Estimate(-0.007856, -0.009, -0.0066)) == (
        "-0.7856% [-0.9000%, -0.6600%]"
    )
    assert " %" not in percent_interval(Estimate(0.0123, 0.01, 0.015))


def test_stakes_print_as_the_user_wrote_them(run):
    code, out, err = run(
        "settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h", "--stake", "1.2"
    )
    assert code == 0, err
    player = next(
        line for line in out.splitlines() if line.startswith("| player ") and "wins" in line
    )
    assert re.match(r"\| player\s+\|\s+1\.2 \|\s+2\.4 \|\s+4\.8 \|\s+\+2\.4 \|", player), player
    assert "/5" not in out


def test_the_whole_table_stakes_are_decimals(run):
    code, out, err = run(
        "report", "pok-deng", "--decks", "1", "--stakes", "player=1,player-pair=0.2"
    )
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.startswith("| player 1, player-pair 0.2"))
    assert re.match(r"\| player 1, player-pair 0\.2 \|\s+1\.2 \|\s+2\.2 \|", row), row
