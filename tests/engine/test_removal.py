"""The sub-composition engine (odds.engine.polynomial) against the plain engine on small shoes."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from odds.engine import deal_count, hands, joint_class_distribution
from odds.engine.polynomial import two_hand_polynomial
from odds.engine.showdown_states import SubShowdown


def _reference_ev(counts, classify, payoff, bets):
    """EV by the engine's joint distribution of (first class, second class)."""
    joint = joint_class_distribution(counts, 2, classify)
    total = deal_count(counts, (2, 2))
    return [
        sum((Fraction(w) * payoff(x, y)[b] for (x, y), w in joint.items()), Fraction(0)) / total
        for b in range(bets)
    ]


@settings(max_examples=25, deadline=None)
@given(
    full=st.lists(st.integers(1, 4), min_size=3, max_size=6),
    seed=st.integers(0, 10_000),
)
def test_both_forms_equal_the_engine_on_random_compositions(full, seed):
    rng = random.Random(seed)

    def classify(hand):
        return hash((seed, hand)) % 4

    def payoff(x, y):
        return [Fraction(x - y, 3), Fraction(5 if x == 2 else -1, 2)]

    forms = [two_hand_polynomial(full, 2, classify, ["a", "b"], payoff, factored=f) for f in (0, 1)]
    for _ in range(4):
        counts = [rng.randint(0, n) for n in full]
        if sum(counts) < 4:
            continue
        expected = _reference_ev(counts, classify, payoff, 2)
        for form in forms:
            got = form.fractions(counts)
            assert [got["a"], got["b"]] == expected


def test_symmetric_bets_are_found_symmetric_and_others_not():
    full = (3, 3, 3, 2)
    # "Both hands identical" treats every type alike (among types of equal counts) …
    identical = two_hand_polynomial(full, 2, lambda h: h, ["tie"], lambda x, y: [int(x == y)])
    assert identical.invariant_blocks(full) == [[0, 1, 2], [3]]
    # … "the first hand holds type 0" does not.
    zero = two_hand_polynomial(full, 2, lambda h: 0 in h, ["zero"], lambda x, y: [int(x)])
    assert zero.invariant_blocks(full) == [[0], [1, 2], [3]]


def test_sub_showdown_equals_a_plain_count_on_random_compositions():
    """Three showdowns on one shoe, each against the plain count: the second pays otherwise
    on the same strength order (it reuses the first's payoff-free layout), the third orders
    the hands otherwise (a layout of its own: one reused across strength orders fails)."""
    rng = random.Random(7)
    full = (2, 1, 2, 1, 1, 2, 1)

    def strength(hand):
        return (len(set(hand)) == 1, sum(hand) % 5, hand)

    def win(key):
        return Fraction(3) if key[0] else Fraction(1)

    def cost(key):
        return Fraction(2) if key[1] == 4 else Fraction(1)

    def by_sum(hand):
        return (sum(hand) % 3, hand)

    def even(key):
        return Fraction(1)

    def zero_sum(key):
        return Fraction(2) if key[0] == 0 else Fraction(1)

    cases = [(strength, win, cost), (strength, cost, even), (by_sum, zero_sum, even)]
    engines = [(SubShowdown(full, 3, *case), *case) for case in cases]
    for _ in range(6):
        counts = [rng.randint(0, n) for n in full]
        if sum(counts) < 6:
            continue
        for engine, strength_of, win_of, cost_of in engines:
            # Plain: every pair of hands, the second's weight after the first's removal.
            total = Fraction(0)
            deals = 0
            for a, wa in hands(counts, 3):
                left = list(counts)
                for t in a:
                    left[t] -= 1
                for b, wb in hands(left, 3):
                    ka, kb = strength_of(a), strength_of(b)
                    net = win_of(ka) if ka > kb else 0 if ka == kb else -cost_of(kb)
                    total += wa * wb * net
                    deals += wa * wb
            assert engine.ev(counts) == total / deals
