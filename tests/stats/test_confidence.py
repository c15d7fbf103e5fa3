"""Confidence ranges of the observed return and the volatility index, in every report."""

from __future__ import annotations

import itertools
import math
from decimal import Decimal
from fractions import Fraction

from odds.output.data import to_json_data
from odds.output.markdown_report import to_markdown
from odds.stats.bets import (
    CONFIDENCE_LEVELS,
    BetStats,
    Outcome,
    return_range,
    volatility_index,
    z_value,
)


def test_z_values_are_the_textbook_quantiles():
    assert round(z_value(Fraction(90, 100)), 4) == Decimal("1.6449")
    assert round(z_value(Fraction(95, 100)), 4) == Decimal("1.9600")
    assert round(z_value(Fraction(99, 100)), 4) == Decimal("2.5758")


def test_range_of_an_even_money_coin():
    # Win 1 or lose 1 at 1/2: RTP 100%, SD 1; 95% range after 10,000 rounds is ±1.96/100.
    stats = BetStats.of([Outcome("win", Fraction(1), 1), Outcome("lose", Fraction(-1), 1)])
    low, high = return_range(stats, 10_000, Fraction(95, 100))
    assert abs(low - Decimal("0.9804")) < Decimal("1e-5") and abs(
        high - Decimal("1.0196")
    ) < Decimal("1e-5")
    assert abs(volatility_index(stats) - Decimal("1.644854")) < Decimal("1e-6")


def _binomial_pmf(n: int, k: int, p: float) -> float:
    log = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
    return math.exp(log + k * math.log(p) + (n - k) * math.log1p(-p))


def test_ranges_cover_the_exact_binomial_probability(pok_deng_analysis):
    """Independent check: the pair bet's return after n rounds is 12·X/n, X ~ Binomial(n, p).

    The binomial probability (floats via lgamma) that it lands in the range is near the level
    (up to the lattice of the binomial and the normal approximation's error).
    """
    bet = pok_deng_analysis.bet("player-pair")
    p = Fraction(6448, 86320)
    for rounds, tolerance in ((1_000, 0.02), (10_000, 0.006)):
        for level in CONFIDENCE_LEVELS:
            low, high = return_range(bet.stats, rounds, level)
            inside = sum(
                _binomial_pmf(rounds, k, float(p))
                for k in range(rounds + 1)
                if low <= Decimal(12 * k) / rounds <= high
            )
            assert abs(float(inside) - float(level)) < tolerance, (rounds, level, float(inside))


def test_every_report_has_ranges_and_vi(pok_deng_analysis):
    text = to_markdown(pok_deng_analysis)
    assert text.count("Confidence ranges of the observed return") == len(pok_deng_analysis.bets)
    assert "| 1,000,000 |" in text and "normal approximation" in text and "VI (90%)" in text
    data = to_json_data(pok_deng_analysis)
    for bet in data["bets"]:
        ranges = bet["confidence_ranges"]["ranges"]
        assert [r["rounds"] for r in ranges] == [1_000, 10_000, 100_000, 1_000_000]
        assert set(ranges[0]) == {"rounds", "90%", "95%", "99%"}
        widths = [r["99%"][1] - r["99%"][0] for r in ranges]
        assert all(a > b for a, b in itertools.pairwise(widths))  # narrower with more rounds
        assert bet["volatility_index"] > 0
    assert len(CONFIDENCE_LEVELS) == 3
