"""Issue 23, item 5: ``odds audit --by``: groups tested apart, Holm across them, drivers named.

The logs are dealt here (not by ``odds simulate``): Dragon Tiger rounds from an
8-deck shoe reshuffled every 40 rounds, dealers taking turns round by round.
A doctored dealer swaps the two cards whenever the tiger would win, so the
shoes stay whole (no integrity finding) and only that dealer's returns move.
The audits here leave out the shoe-level tests (``--shoe-rows 0``): the doctored dealer
must then be flagged by the groups alone (Holm never rejecting fails it), and an honest
log must pass them (Holm's level too lenient fails it), as before.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from odds.cli import main
from odds.stats.significance import return_range
from odds.tools.audit.groups import GroupTest, holm, parse_by

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
FIELDS = ["shoe", "round", "table", "dealer", "timestamp", "dragon", "tiger"]
#: The groups are under test, not the shoe-level tests (tests/tools/audit/test_shoe_tests.py):
#: those are more than half the cost of auditing these logs of 30-odd shoes, and read nothing
#: the groups read, so the verdicts here are the groups' and the round statistics' alone.
NO_SHOE_TESTS = ("--shoe-rows", "0")


def _rounds(n: int, seed: int, doctored: str | None = None) -> list[dict[str, str]]:
    rng = random.Random(seed)
    rows: list[dict[str, str]] = []
    stack: list[str] = []
    shoe = 0
    for number in range(n):
        if number % 40 == 0:
            shoe += 1
            stack = [r + s for r in RANKS for s in "♣♦♥♠"] * 8
            rng.shuffle(stack)
        dealer = f"D{number % 4 + 1}"
        dragon, tiger = stack.pop(), stack.pop()
        if dealer == doctored and RANKS.index(tiger[:-1]) > RANKS.index(dragon[:-1]):
            dragon, tiger = tiger, dragon
        day = 1 + number * 24 // n
        rows.append(
            {
                "shoe": f"S{shoe}",
                "round": str(number % 40 + 1),
                "table": f"T{shoe % 2 + 1}",
                "dealer": dealer,
                "timestamp": f"2026-03-{day:02d}T10:00:00Z",
                "dragon": dragon,
                "tiger": tiger,
            }
        )
    return rows


def _write(path: Path, rows: list[dict[str, str]]) -> Path:
    lines = [";".join(FIELDS)] + [";".join(r[f] for f in FIELDS) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _audit(capsys, log: Path, *extra: str) -> tuple[int, dict]:
    code = main(["audit", "dragon-tiger", "--log", str(log), "--format", "json", *extra])
    out, err = capsys.readouterr()
    assert out, err
    return code, json.loads(out)


def test_a_doctored_dealer_is_flagged_and_named_and_no_other(capsys, tmp_path):
    """800 rounds (2,000 before: the audit's cost): D3's 200 rounds, where the Dragon wins
    whenever the ranks differ, return 1.895 (p < 1e-12; the log's own Dragon return is 7.7 SD
    off), while the honest dealers' 600 rounds can no more be flagged than in a longer log
    (their smallest p is 0.017)."""
    log = _write(tmp_path / "doctored.csv", _rounds(800, 5, doctored="D3"))
    code, result = _audit(capsys, log, "--by", "dealer,table,day", *NO_SHOE_TESTS)
    assert code == 1 and result["verdict"] == "FLAGGED"
    assert result["findings"] == []  # the shoes are whole: only the statistics see it
    flagged = {(t["dimension"], t["group"]) for t in result["groups"] if t["flagged"]}
    assert ("dealer", "D3") in flagged
    assert not {g for d, g in flagged if d == "dealer"} - {"D3"}
    dragon = [d for d in result["drivers"] if d["finding"] == "return of dragon"]
    assert {"dimension": "dealer", "group": "D3"}.items() <= dragon[0].items()
    d3 = next(t for t in result["groups"] if (t["group"], t["bet"]) == ("D3", "dragon"))
    assert d3["rounds"] == 200 and Fraction(d3["observed_return"]) > Fraction(3, 2)


def test_an_honest_log_passes_by_every_dimension(capsys, tmp_path):
    log = _write(tmp_path / "honest.csv", _rounds(1200, 8))
    code, result = _audit(capsys, log, "--by", "dealer,table,shoe,day", *NO_SHOE_TESTS)
    assert code == 0, [t for t in result["groups"] if t["flagged"]]
    groups = {(t["dimension"], t["group"]) for t in result["groups"]}
    assert {g for d, g in groups if d == "dealer"} == {"D1", "D2", "D3", "D4"}
    assert len({g for d, g in groups if d == "shoe"}) == 30
    assert len({g for d, g in groups if d == "day"}) == 24
    # each group's rounds add up to the log's, in every dimension
    for dimension in ("dealer", "table", "shoe", "day"):
        rounds = {
            t["group"]: t["rounds"]
            for t in result["groups"]
            if t["dimension"] == dimension and t["bet"] == "dragon"
        }
        assert sum(rounds.values()) == 1200


def test_control_charts_are_the_cumulative_deviation_of_each_group(capsys, tmp_path):
    rows = _rounds(400, 3, doctored="D2")
    log = _write(tmp_path / "r.csv", rows)
    code = main(
        [
            "audit",
            "dragon-tiger",
            "--log",
            str(log),
            "--by",
            "dealer",
            "--charts",
            str(tmp_path / "ch"),
        ]
    )
    out, _ = capsys.readouterr()
    assert code == 1
    svg = (tmp_path / "ch" / "r-cusum-dealer-dragon.svg").read_text(encoding="utf-8")
    assert svg.startswith("<?xml") and "CUSUM of the dragon bet by dealer" in svg
    assert "/ch/r-cusum-dealer-dragon.svg)" in out
    # The chart's last point of D2: Σ (net − EV) counted here from the cards (dragon pays 1:1,
    # a tie loses half the stake; EV from the exact RTP in the JSON).
    from odds.cli.options import load_paytable
    from odds.tools.audit.audit import audit, net_distribution
    from odds.tools.audit.cusum import cusum_charts

    paytable = load_paytable("dragon-tiger", None, None)
    # the groups' paths alone: the shoe-level tests (half this audit's cost) read nothing here
    result = audit(paytable, log, 0.01, None, ("dealer",), paths=True, shoe_rows=0)
    assert result.groups is not None
    bets = {b.name: net_distribution(b) for b in paytable.analysis().bets}
    chart = next(c for d, b, c in cusum_charts(result.groups, bets) if b == "dragon")
    ev = sum((net * p for net, p in bets["dragon"]), Fraction(0))
    total = Fraction(0)
    for row in rows:
        if row["dealer"] != "D2":
            continue
        d, t = RANKS.index(row["dragon"][:-1]), RANKS.index(row["tiger"][:-1])
        total += 1 if d > t else (-1 if d < t else Fraction(-1, 2))
    line = next(s for s in chart.series if s.name.startswith("dealer D2 "))
    assert line.points[-1] == (100, total - 100 * ev)


def test_holm_matches_its_definition_on_random_p_values():
    rng = random.Random(4)
    for _ in range(200):
        m = rng.randint(1, 8)
        ps = [rng.random() ** 3 for _ in range(m)]
        tests = [
            GroupTest("d", str(i), "b", 1, Fraction(1), Fraction(1), 0.0, "", p, "", 0.0, True)
            for i, p in enumerate(ps)
        ]
        got = [t.rejected for t in holm(tests, 0.05, m)]
        # Holm: reject the i-th smallest while every j ≤ i has p_(j) < α/(m − j + 1)
        order = sorted(range(m), key=lambda i: ps[i])
        want = [False] * m
        for step, i in enumerate(order):
            if ps[i] >= 0.05 / (m - step):
                break
            want[i] = True
        assert got == want


def test_the_honest_range_is_the_smallest_exact_95_percent_range():
    """Against the binomial law summed here: a bet paying 1:1 with p = 18/37, n = 30."""
    p, n = Fraction(18, 37), 30
    distribution = [(Fraction(-1), 1 - p), (Fraction(1), p)]
    half, method = return_range(distribution, n)
    assert method == "exact distribution of the total"
    mean = n * (2 * p - 1)

    def outside(d: float) -> Fraction:  # P(|S − E S| > d)
        return sum(
            (
                comb(n, k) * p**k * (1 - p) ** (n - k)
                for k in range(n + 1)
                if abs(float(2 * k - n - mean)) > d + 1e-9
            ),
            Fraction(0),
        )

    d = half * n
    assert outside(d) <= Fraction(5, 100)
    smaller = max(
        abs(float(2 * k - n - mean))
        for k in range(n + 1)
        if abs(float(2 * k - n - mean)) < d - 1e-9
    )
    assert outside(smaller) > Fraction(5, 100)


def test_by_names_that_cannot_be_grouped_are_one_line_errors(capsys, tmp_path):
    log = _write(tmp_path / "r.csv", _rounds(40, 1))
    for by, message in (
        (
            "croupier",
            "--by croupier: .* no such column; columns to group by: day, dealer, round, shoe",
        ),
        ("dragon", "--by dragon: a hand column"),
        ("dealer,dealer", "--by: dealer is given twice"),
        ("dealer,", "--by: expected column names"),
    ):
        assert main(["audit", "dragon-tiger", "--log", str(log), "--by", by]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1, err
        import re

        assert re.search(message, err), err
    rows = _rounds(40, 1)
    rows[6]["timestamp"] = "10:00"
    bad = _write(tmp_path / "bad.csv", rows)
    assert main(["audit", "dragon-tiger", "--log", str(bad), "--by", "day"]) == 2
    assert (
        "line 8: the timestamp is not a date and time written YYYY-MM-DD" in capsys.readouterr().err
    )
    assert parse_by(" Dealer , TABLE") == ("dealer", "table")


@pytest.mark.parametrize("name", ["dealer"])
def test_with_stakes_each_group_s_settlement_names_the_mis_settling_dealer(capsys, tmp_path, name):
    """odds simulate's mis-settled log: the dealer with the most mis-settled bets is named."""
    log = tmp_path / "paid.csv"
    assert (
        main(
            [
                "simulate",
                "dragon-tiger",
                "--rounds",
                "400",
                "--seed",
                "3",
                "--mis-settle",
                "2%",
                "-o",
                str(log),
            ]
        )
        == 0
    )
    capsys.readouterr()
    code, result = _audit(capsys, log, "--by", name)
    assert code == 1
    named = [d for d in result["drivers"] if d["finding"] == "mis-settled bets"]
    assert named and named[0]["dimension"] == name
    rows = log.read_text(encoding="utf-8").splitlines()
    assert rows[0].startswith("shoe,round,table,dealer")
