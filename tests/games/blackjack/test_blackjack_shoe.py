"""Blackjack shoe states: the charted round polynomial against the recursion it restates."""

from __future__ import annotations

import random

import pytest

from odds.games.blackjack.dealer import RANKS
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.round_polynomial import KEY, round_polynomial
from odds.games.blackjack.rounds import analyse_round
from tests.reference.blackjack_charts import simple_chart

RULES = (
    BlackjackRules(),
    BlackjackRules(
        dealer_hits_soft_17=True,
        blackjack_pays="6:5",
        double_after_split=True,
        surrender=True,
        hole_card="peek",
        split_aces_one_card=False,
    ),
)


@pytest.mark.parametrize("rules", RULES, ids=["no-hole-card", "peek-surrender-das-h17"])
def test_round_polynomial_equals_the_recursion_on_random_shoes(rules):
    """One random shoe per rule set: two polynomials in the ten rank counts that differ
    (a wrong coefficient, a missing or extra term) agree at a random point of the counts only
    where their difference vanishes, so a second shoe (~0.8 s of CPU each) adds next to
    nothing. Seed 11's shoe has 7 cards out (a full deck would let a term in the removals
    vanish); a wrong figure is caught below to the last digit (a Fraction comparison)."""
    chart = simple_chart(rules.surrender)
    polynomial = round_polynomial(chart, rules)
    rng = random.Random(11)
    full = [4] * 9 + [16]  # one deck
    for _ in range(1):
        counts = list(full)
        for _ in range(rng.randint(0, 12)):
            r = rng.choices(range(RANKS), weights=counts)[0]
            counts[r] -= 1
        assert sum(counts) == sum(full) - 7, counts  # a shoe with cards out, not the full one
        exact = analyse_round(tuple(counts), rules, chart=chart).ev
        assert polynomial.fractions(counts)[KEY] == exact
        value, bound = polynomial.approximate(counts)[KEY]
        assert abs(value - float(exact)) <= bound + 1e-15
        assert bound < 1e-9
