"""The shared engine against brute force on arbitrary classifiers and compositions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.engine import (
    class_distribution,
    deal_count,
    hand_weight,
    hands,
    joint_class_distribution,
    sequential_distribution,
    settle_distribution,
    triple_class_distribution,
)
from tests.reference.ordered import brute_force, ordering_factor


def test_hand_weight_is_product_of_binomials():
    assert hand_weight((4, 3, 2), (0, 0, 1)) == comb(4, 2) * 3
    assert hand_weight((4, 3, 2), (2, 2, 2)) == 0


def test_hands_cover_every_deal():
    counts = (3, 0, 2, 5)
    for size in (1, 2, 3):
        assert sum(w for _, w in hands(counts, size)) == comb(sum(counts), size)


def _classifier(seed: int):
    """An arbitrary, deliberately structureless class function of a hand."""

    def classify(hand):
        return hash((seed, hand)) % 5

    return classify


@settings(max_examples=40, deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=2, max_size=5),
    size=st.sampled_from([2, 3]),
    seed=st.integers(0, 1000),
)
def test_joint_equals_brute_force(counts, size, seed):
    counts = tuple(counts)
    if sum(counts) < 2 * size:
        return
    classify = _classifier(seed)
    joint = joint_class_distribution(counts, size, classify)
    ordered = brute_force(
        counts, (size, size), lambda deal: {"pair": (classify(deal[0]), classify(deal[1]))}
    )["pair"]
    factor = ordering_factor((size, size))
    assert joint == {key: ways // factor for key, ways in ordered.items()}
    assert all(ways % factor == 0 for ways in ordered.values())


def test_joint_with_symmetry_equals_without():
    counts = (2, 2, 2, 2, 3, 3)
    # Swap types 0<->1 and 2<->3 simultaneously; a classifier that respects it:
    swap = (1, 0, 3, 2, 4, 5)

    def classify(hand):
        return tuple(sorted(Counter(min(t, swap[t]) for t in hand).items()))

    assert joint_class_distribution(counts, 2, classify, [swap]) == joint_class_distribution(
        counts, 2, classify
    )


def test_declared_symmetry_that_breaks_the_classifier_fails_loudly():
    counts = (2, 2, 2)
    with pytest.raises(AssertionError, match="not invariant"):
        joint_class_distribution(counts, 2, lambda hand: 0 in hand, [(1, 0, 2)])


def test_symmetry_not_kept_by_composition_is_dropped():
    counts = (2, 3, 2)  # swapping types 0 and 1 would change the composition
    classify = _classifier(7)
    assert joint_class_distribution(counts, 2, classify, [(1, 0, 2)]) == (
        joint_class_distribution(counts, 2, classify)
    )


def test_class_distribution_and_settlement_totals():
    counts = (4, 4, 4)
    dist = class_distribution(counts, 2, lambda h: h[0] == h[1])
    assert dist == {True: 3 * comb(4, 2), False: 3 * 16}
    events = settle_distribution(dist, lambda pair: "pair" if pair else "no")
    assert sum(events.values()) == deal_count(counts, (2,))
    assert Fraction(events["pair"], sum(events.values())) == Fraction(18, 66)


# ---------------------------------------------------------------------------
# Three hands (a banker and two positions) and symmetric sequential deals


@settings(max_examples=30, deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=2, max_size=5),
    size=st.sampled_from([1, 2]),
    seed=st.integers(0, 1000),
)
def test_triple_equals_brute_force(counts, size, seed):
    counts = tuple(counts)
    if sum(counts) < 3 * size:
        return
    classify = _classifier(seed)
    triple = triple_class_distribution(counts, size, classify)
    ordered = brute_force(
        counts,
        (size, size, size),
        lambda deal: {"all": tuple(classify(hand) for hand in deal)},
    )["all"]
    factor = ordering_factor((size, size, size))
    assert triple == {key: ways // factor for key, ways in ordered.items()}


@pytest.mark.parametrize("counts", [(2, 2, 2, 2, 3, 3), (1, 0, 4, 2, 2, 2)])
def test_triple_with_symmetry_equals_without(counts):
    swap = (1, 0, 3, 2, 4, 5)

    def classify(hand):
        return tuple(sorted(Counter(min(t, swap[t]) for t in hand).items()))

    with_symmetry = triple_class_distribution(counts, 2, classify, [swap])
    assert with_symmetry == triple_class_distribution(counts, 2, classify)


def test_triple_with_python_integers_equals_sequential():
    """Counts so large that int64 could overflow: the engine switches to Python integers."""
    counts = (3000, 2999, 5)
    classify = _classifier(7)
    triple = triple_class_distribution(counts, 3, classify)
    assert max(triple.values()) > 2**63
    sequential = sequential_distribution(counts, 3, 3, classify, lambda s, c: (*s, c), ())
    assert triple == sequential


def test_triple_is_exchangeable():
    """Ways of (first, second, third) are symmetric under any order of the three hands."""
    counts = (2, 3, 1, 2, 2)
    triple = triple_class_distribution(counts, 2, _classifier(3))
    for (a, b, c), ways in triple.items():
        assert triple[b, a, c] == triple[c, b, a] == triple[a, c, b] == ways


@settings(max_examples=20, deadline=None)
@given(counts=st.lists(st.integers(0, 4), min_size=2, max_size=6), number=st.integers(1, 3))
def test_symmetric_sequential_equals_plain(counts, number):
    counts = tuple(counts)
    if sum(counts) < 2 * number:
        return

    def is_pair(hand):
        return int(hand[0] == hand[1])

    def add(state, pair):
        return state + pair

    plain = sequential_distribution(counts, 2, number, is_pair, add, 0)
    assert sequential_distribution(counts, 2, number, is_pair, add, 0, symmetric=True) == plain


def test_symmetric_sequential_checks_the_classifier():
    with pytest.raises(AssertionError, match="not symmetric"):
        sequential_distribution((2, 2, 2), 2, 2, lambda h: 0 in h, lambda s, c: s, 0, True)
