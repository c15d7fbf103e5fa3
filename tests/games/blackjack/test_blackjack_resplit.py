"""Exact resplits: the fast split values against a plain enumeration of the split tree.

The enumeration (:mod:`tests.reference.blackjack_split`) shares nothing with the
engine; it plays every realizable split convention card by card. Farmer's
combinatorial analyzer gives the published-method figures for CDZ-, CDP1 and CDP.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from fractions import Fraction
from itertools import combinations, pairwise, product
from math import comb, prod

import pytest

from odds.games.blackjack.actions import Action
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.shoes import family
from odds.games.blackjack.splits import (
    completions,
    convolve,
    hand_value,
    values_by_limit,
    weighted_completions,
)
from tests.reference.blackjack_split import Brute

SMALL = (2, 2, 2, 0, 0, 0, 0, 6, 0, 12)  # A, 2, 3, eights and tens: 24 cards


@pytest.mark.parametrize(
    ("shoe", "up", "pair", "rules"),
    [  # (a peek against a ten resplitting to 4: the aces' case below)
        (SMALL, 9, 7, BlackjackRules(split_hands=4, double_after_split=True)),
        (SMALL, 2, 7, BlackjackRules(split_hands=3, double_after_split=True, hole_card="peek")),
        ((4, 2, 0, 0, 0, 1, 0, 3, 0, 12), 0, 0, BlackjackRules(split_hands=4, resplit_aces=True)),
        (
            (4, 2, 0, 0, 0, 1, 0, 3, 0, 12),
            9,
            0,
            BlackjackRules(
                split_hands=4,
                resplit_aces=True,
                split_aces_one_card=False,
                hole_card="peek",
                dealer_hits_soft_17=True,
            ),
        ),
    ],
)
def test_resplits_equal_the_enumerated_split_tree(shoe, up, pair, rules) -> None:
    fam = family(shoe, rules.dealer_hits_soft_17)
    fam.check_round(rules)
    analysis = analyse_round(shoe, rules)
    play = analysis.plays[up]
    fast = values_by_limit(play, rules, pair)
    after_up = tuple(c - (i == up) for i, c in enumerate(shoe))
    brute = Brute(after_up, up, pair, rules)
    for limit, value in fast.items():
        assert value == brute.round(limit), limit
    assert len(fast) == rules.split_limit(pair) - 1


def _hands_dealt(pair_card: list[bool], limit: int) -> int:
    """Deal split hands their second cards off a shoe in this order (True: a pair card):
    a pair card is resplit while the round has fewer than ``limit`` hands (the hand then
    takes another second card), any other card completes the hand; the hands made."""
    cards = iter(pair_card)
    hands, waiting = 2, 1  # the first hand takes its second card; the second waits
    while True:
        if next(cards) and hands < limit:
            hands, waiting = hands + 1, waiting + 1
        elif waiting:
            waiting -= 1
        else:
            return hands


@pytest.mark.parametrize(("pairs", "others", "limit"), [(2, 10, 3), (3, 5, 4), (4, 4, 4)])
def test_second_card_sequences_equal_every_deal_of_the_shoe(pairs, others, limit) -> None:
    """The sequences of second cards (:func:`completions`) and
    the number of hands they make, against every order of a shoe of pair and other cards
    dealt one by one (each order equally likely)."""
    size = pairs + others
    made: Counter[int] = Counter()
    for where in combinations(range(size), pairs):
        made[_hands_dealt([i in where for i in range(size)], limit)] += 1
    dealt = {hands: Fraction(n, comb(size, pairs)) for hands, n in sorted(made.items())}
    ended: Counter[int] = Counter()
    for completion, p in weighted_completions(pairs, others, limit):
        ended[len(completion.hands)] += p
    assert dict(sorted(ended.items())) == dealt
    assert {len(c.hands) for c in completions(limit)} == set(range(2, limit + 1))


def test_resplitting_never_lowers_a_value() -> None:
    """Split once ≤ three hands ≤ four hands ≤ four hands resplitting aces, hand by hand."""
    shoe = (4,) * 9 + (16,)
    limits = (
        BlackjackRules(hole_card="peek", double_after_split=True),
        BlackjackRules(hole_card="peek", double_after_split=True, split_hands=3),
        BlackjackRules(hole_card="peek", double_after_split=True, split_hands=4),
        BlackjackRules(hole_card="peek", double_after_split=True, split_hands=4, resplit_aces=True),
    )
    analyses = [analyse_round(shoe, rules) for rules in limits]
    for fewer, more in pairwise(analyses):
        assert fewer.ev <= more.ev
        for h in fewer.hands:
            if h.split is not None:
                assert h.values["P"] <= more.hand(*h.cards, h.up).values["P"]
    assert analyses[0].ev < analyses[2].ev < analyses[3].ev  # and resplits are worth something


def test_split_rounds_keep_the_exact_mean() -> None:
    """The outcome table's split rounds: probabilities add up to 1, the mean is the exact value."""
    for peek in ("none", "peek"):
        rules = BlackjackRules(
            split_hands=4, resplit_aces=True, double_after_split=True, hole_card=peek
        )
        analysis = analyse_round(SMALL, rules, distributions=True)
        for h in analysis.hands:
            assert sum(h.distribution.values()) == 1
            assert sum(net * p for net, p in h.distribution.items()) == h.ev


# -- every splitting convention ------------------------------------------------------


@pytest.mark.parametrize("convention", ["CDZ-", "CDPN"])
@pytest.mark.parametrize(
    ("shoe", "up", "pair", "rules"),
    [
        (SMALL, 9, 7, BlackjackRules(split_hands=4, double_after_split=True)),
        (SMALL, 2, 7, BlackjackRules(split_hands=3, double_after_split=True, hole_card="peek")),
        ((4, 2, 0, 0, 0, 1, 0, 3, 0, 12), 0, 0, BlackjackRules(split_hands=4, resplit_aces=True)),
    ],
)
def test_conventions_equal_the_split_tree_dealt_card_by_card(
    shoe, up, pair, rules, convention
) -> None:
    """CDZ- (the pre-split strategy for the same cards) and CDPN (re-optimised for the splits
    made so far) played card by card by a player who knows only that, and the fast values."""
    rules = dataclasses.replace(rules, split_strategy=convention)
    play = analyse_round(shoe, rules).plays[up]
    brute = Brute(tuple(c - (i == up) for i, c in enumerate(shoe)), up, pair, rules, convention)
    fast = values_by_limit(play, rules, pair)
    for limit, value in fast.items():
        assert value == brute.round(limit), (convention, limit)


@pytest.mark.parametrize("peek", ["none", "peek"])
def test_cdp_plays_each_base_value_at_its_best(peek) -> None:
    """CDP: ``EV[X; a, 0]`` is the best split hand with ``a`` further pair cards out."""
    rules = BlackjackRules(
        split_hands=4, double_after_split=True, hole_card=peek, split_strategy="CDP"
    )
    play = analyse_round(SMALL, rules).plays[2]
    brute = Brute(tuple(c - (i == 2) for i, c in enumerate(SMALL)), 2, 7, rules, "CDP")
    for a in range(3):
        assert hand_value(play, rules, 7, a) == brute.best_hand(a), a


def test_conventions_order_as_the_information_they_use() -> None:
    """With one split CDP, CDPN and CDP1 are one strategy; CDZ- (less information) is below.
    With resplits CDPN (more information than CDP1) is at least CDP1."""
    shoe = (2, 2, 2, 0, 0, 0, 0, 6, 0, 12)
    for hands in (2, 4):
        values = {
            name: analyse_round(shoe, BlackjackRules(split_hands=hands, split_strategy=name))
            .hand(7, 7, 9)
            .values["P"]
            for name in ("CDZ-", "CDP1", "CDP", "CDPN")
        }
        assert values["CDZ-"] <= values["CDP1"] <= values["CDPN"]
        if hands == 2:
            assert values["CDP1"] == values["CDP"] == values["CDPN"]


#: Farmer's combinatorial analyzer (github.com/possibly-wrong/blackjack at a1f7dbb,
#: ``BJPlayer::getValue`` / ``getValueSplit`` in double precision, its ``BJStrategy(useCDZ,
#: useCDP1)`` choosing CDZ-, CDP1 or CDP): one deck, S17, double any two, DAS, resplit to 4
#: hands (not aces), peek, 3:2, no surrender. Split values are given no dealer blackjack.
FARMER_ONE_DECK_SPL3 = {
    "CDZ-": (0.0018193430614842354, {(1, 5): 0.29472176542938261, (7, 9): -0.4468690068426312}),
    "CDP1": (0.0018307333920158306, {(1, 5): 0.30537208689687745, (7, 9): -0.4468690068426312}),
    "CDP": (0.0018311174418804282, {(1, 5): 0.30537208689687745, (7, 9): -0.44684832247035566}),
}


@pytest.mark.parametrize("convention", sorted(FARMER_ONE_DECK_SPL3))
def test_farmers_analyzer_one_deck_resplit_to_four(convention) -> None:
    overall, splits = FARMER_ONE_DECK_SPL3[convention]
    rules = BlackjackRules(
        double_after_split=True, split_hands=4, hole_card="peek", split_strategy=convention
    )
    analysis = analyse_round((4,) * 9 + (16,), rules)
    assert float(analysis.ev) == pytest.approx(overall, abs=1e-15)
    for (pair, up), value in splits.items():
        given = analysis.hand(pair, pair, up).values_given_no_dealer_blackjack
        assert given is not None
        assert float(given[Action.SPLIT]) == pytest.approx(value, abs=1e-15), (pair, up)


def test_convolve_is_the_sum_over_every_outcome_of_the_hands() -> None:
    """The split round's spread (:func:`convolve`, counted in integers) against a plain sum
    of products over every combination of the hands' outcomes: nets in halves and fifths,
    probabilities over unrelated denominators, a zero, one and no hand (a wrong unit, scale
    or common denominator shifts a net or a probability and fails it)."""
    hands = [
        {Fraction(-2): Fraction(3, 7), Fraction(1, 2): Fraction(0), Fraction(1): Fraction(4, 7)},
        {
            Fraction(-1): Fraction(5, 11),
            Fraction(2, 5): Fraction(1, 3),
            Fraction(3): Fraction(7, 33),
        },
        {Fraction(0): Fraction(2**70, 3**45), Fraction(-1): 1 - Fraction(2**70, 3**45)},
    ]
    for count in range(len(hands) + 1):
        plain: dict[Fraction, Fraction] = {}
        for combo in product(*(h.items() for h in hands[:count])):
            net = sum((n for n, _ in combo), Fraction(0))
            plain[net] = plain.get(net, Fraction(0)) + prod(
                (p for _, p in combo), start=Fraction(1)
            )
        assert convolve(hands[:count]) == plain
