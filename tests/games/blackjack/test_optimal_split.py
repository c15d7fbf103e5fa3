"""The truly optimal split against a brute force over the whole game tree, and as a bound.

The brute force (:mod:`tests.reference.blackjack_optimal_split`) walks every history
card by card in Fractions, merging nothing, so each decision sees everything the
player has seen; :mod:`odds.games.blackjack.optimal_split` merges states by the
multiset of cards dealt and counts in scaled integers. Then the bound: no convention
(CDZ-, CDP1, CDP, CDPN) is worth more than the optimum, pair by pair and up card by
up card. Tiny shoes only (the brute force is exponential).
"""

from __future__ import annotations

import dataclasses

import pytest

from odds.core.errors import OddsError
from odds.games.blackjack.optimal_split import estimate_multisets, optimal_split
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.splits import values_by_limit
from tests.reference.blackjack_optimal_split import OptimalBrute

SMALL = (2, 2, 2, 0, 0, 0, 0, 6, 0, 12)  # A, 2, 3, eights and tens: 24 cards
EIGHTS = (0, 3, 0, 0, 1, 0, 0, 4, 0, 12)  # 2s, a 5, eights and tens: 20 cards
#: Every convention ``house.split_strategy`` takes (the option's own list: a new one is bounded
#: too).
CONVENTIONS = tuple(
    next(f for f in dataclasses.fields(BlackjackRules) if f.name == "split_strategy").metadata[
        "choices"
    ]
)


def _after_up(shoe: tuple[int, ...], up: int) -> tuple[int, ...]:
    return tuple(c - (i == up) for i, c in enumerate(shoe))


@pytest.mark.parametrize(
    ("shoe", "up", "pair", "rules", "forced"),
    [
        (SMALL, 9, 7, BlackjackRules(double_after_split=True), False),
        (SMALL, 0, 7, BlackjackRules(double_after_split=True, hole_card="peek"), False),
        (EIGHTS, 9, 7, BlackjackRules(split_hands=3, double_after_split=True), False),
        (
            (4, 2, 0, 0, 0, 1, 0, 3, 0, 12),
            9,
            0,
            BlackjackRules(split_hands=3, resplit_aces=True, hole_card="peek"),
            True,
        ),
        ((2, 4, 0, 0, 0, 1, 0, 0, 0, 12), 5, 1, BlackjackRules(split_hands=3), False),
    ],
)
def test_optimal_split_equals_the_whole_game_tree(shoe, up, pair, rules, forced) -> None:
    found = optimal_split(shoe, pair, up, rules, forced_resplit=forced)
    brute = OptimalBrute(_after_up(shoe, up), up, pair, rules, forced).round()
    assert found.round_value == brute


def test_optimal_split_bounds_every_convention_split_once() -> None:
    """One split: every pair against every up card of the shoe, with and without a peek."""
    for hole in ("none", "peek"):
        rules = BlackjackRules(double_after_split=True, hole_card=hole)
        analyses = [  # with one split CDP and CDPN are CDP1 (test_blackjack_resplit.py)
            analyse_round(SMALL, dataclasses.replace(rules, split_strategy=name))
            for name in ("CDZ-", "CDP1")
        ]
        for up in range(10):
            for pair in range(10):
                if SMALL[up] == 0 or SMALL[pair] < 2 + (up == pair):
                    continue
                best = optimal_split(SMALL, pair, up, rules)
                for analysis in analyses:
                    assert best.value >= analysis.hand(pair, pair, up).values["P"], (up, pair)


@pytest.mark.parametrize(("up", "pair"), [(9, 7), (0, 9), (2, 7)])
def test_optimal_split_bounds_every_convention_with_resplits(up, pair) -> None:
    """Resplits to 3: the optimum (resplitting when it pays) is at least each convention's
    split value, and the optimum that always resplits at least each convention always
    resplitting (the conventions' values per hand limit)."""
    rules = BlackjackRules(split_hands=3, double_after_split=True, hole_card="peek")
    best = optimal_split(SMALL, pair, up, rules)
    forced = optimal_split(SMALL, pair, up, rules, forced_resplit=True)
    assert best.value >= forced.value
    for name in CONVENTIONS:
        convention = dataclasses.replace(rules, split_strategy=name)
        analysis = analyse_round(SMALL, convention)
        assert best.value >= analysis.hand(pair, pair, up).values["P"], name
        limit = values_by_limit(analysis.plays[up], convention, pair)[forced.hands]
        assert forced.round_value >= limit, name


def test_optimal_split_is_strictly_better_where_seen_cards_matter() -> None:
    """8-8 against a ten, resplit to 3: the optimum uses the earlier hands' cards and beats
    CDPN (which looks only at the number of splits), and the peek's conditional value
    follows from the unconditional one."""
    rules = BlackjackRules(split_hands=3, double_after_split=True, split_strategy="CDPN")
    best = optimal_split(SMALL, 7, 9, rules)
    cdpn = analyse_round(SMALL, rules).hand(7, 7, 9).values["P"]
    assert best.value > cdpn
    assert best.states > 0 and best.label == "8-8 v 10"


def test_estimate_and_refusals() -> None:
    one_deck = (4,) * 9 + (16,)
    rules = BlackjackRules(double_after_split=True)
    assert estimate_multisets(one_deck, 7, 9, rules) < estimate_multisets(one_deck, 1, 5, rules)
    eight = tuple(8 * c for c in one_deck)
    with pytest.raises(OddsError, match="above the limit"):
        optimal_split(eight, 7, 9, dataclasses.replace(rules, split_hands=4))
    with pytest.raises(OddsError, match="more than 100 states"):
        optimal_split(SMALL, 7, 9, rules, max_states=100)
    with pytest.raises(OddsError, match="up to 372 card multisets"):
        optimal_split(SMALL, 7, 9, rules, max_multisets=100)
    with pytest.raises(OddsError, match="cannot deal"):
        optimal_split(SMALL, 4, 9, rules)
    with pytest.raises(OddsError, match="may run out"):
        optimal_split((0, 4, 4, 2, 0, 0, 2, 0, 0, 7), 1, 6, BlackjackRules(split_hands=4))
