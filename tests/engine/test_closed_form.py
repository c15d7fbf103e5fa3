"""Two hands of one or two cards in closed form, and the work bounds of several hands.

:class:`odds.engine.arrays.SmallHandsAfterOne` counts two hands from a composition by the
falling-factorial expansion over class totals, never pairing hands; it is checked against
the engine's brute force (every ordered deal) and against the pairs-of-hands count it
replaces (:class:`odds.engine.arrays.TwoAfterOne`) on shoes with missing and single cards.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.engine import hands, joint_class_distribution, orbits
from odds.engine import joint as joint_module
from odds.engine.arrays import SmallHandsAfterOne, TwoAfterOne, nonzero
from odds.engine.sequential import _partition_counts, sequential_steps, shape_classifier
from tests.reference.ordered import brute_force, ordering_factor


def _classifier(seed: int):
    def classify(hand):
        return hash((seed, hand)) % 5

    return classify


@settings(max_examples=60, deadline=None)
@given(
    counts=st.lists(st.integers(0, 4), min_size=1, max_size=6),
    size=st.sampled_from([1, 2]),
    seed=st.integers(0, 1000),
)
def test_closed_form_equals_brute_force(counts, size, seed):
    counts = tuple(counts)
    if sum(counts) < 2 * size:
        return
    classify = _classifier(seed)
    all_hands = hands(counts, size)
    names = sorted({classify(h) for h, _ in all_hands})
    closed = SmallHandsAfterOne(
        counts, size, all_hands, [names.index(classify(h)) for h, _ in all_hands]
    )
    found = {(names[a], names[b]): w for (a, b), w in nonzero(closed.full_joint()).items()}
    ordered = brute_force(
        counts, (size, size), lambda deal: {"pair": (classify(deal[0]), classify(deal[1]))}
    )["pair"]
    factor = ordering_factor((size, size))
    assert found == {key: ways // factor for key, ways in ordered.items()}


def test_closed_form_three_hands_equal_the_pairs_of_hands():
    """Thirty types, some missing or single: every first hand's two hands after it."""
    rng = np.random.default_rng(5)
    counts = tuple(int(c) for c in rng.integers(0, 4, 30))
    classify = _classifier(11)
    all_hands = hands(counts, 2)
    names = sorted({classify(h) for h, _ in all_hands})
    numbers = [names.index(classify(h)) for h, _ in all_hands]
    representatives = orbits(all_hands, numbers, counts, ())
    closed = SmallHandsAfterOne(counts, 2, all_hands, numbers).by_first_class(representatives)
    pairs = TwoAfterOne(counts, 2, all_hands, numbers).by_first_class(representatives)
    assert (closed == pairs).all()


def test_two_hands_in_closed_form_equal_the_corrections(monkeypatch):
    """Two-card hands from many types take the closed form; it equals the corrections."""
    counts = (3, 0, 1, 2) * 10  # 40 types: 300 hands or more
    classify = _classifier(4)
    assert len(hands(counts, 2)) >= joint_module.CLOSED_FORM_HANDS
    closed = joint_class_distribution(counts, 2, classify)
    monkeypatch.setattr(joint_module, "CLOSED_FORM_HANDS", 10**9)
    assert closed == joint_class_distribution(counts, 2, classify)


def test_partition_counts():
    # partitions of 0 … 10 (p(10) = 42), and at most 2 parts of at most 3
    assert _partition_counts(10, 13, 32) == [1, 1, 2, 3, 5, 7, 11, 15, 22, 30, 42]
    assert _partition_counts(6, 2, 3) == [1, 1, 2, 2, 2, 1, 1]


def test_sequential_steps_bound_the_work():
    """Symmetric merging shrinks the estimate (pairs by rank over five seats), and eight
    decks' six hands of 52 card types are far out of reach."""
    assert sequential_steps((32,) * 13, 2, 5, symmetric=True) == 22 * 91
    assert sequential_steps((32,) * 13, 2, 5, symmetric=False) > 10**6
    assert sequential_steps((8,) * 52, 2, 6, symmetric=False) > 10**13
    assert shape_classifier(13, 2, lambda hand: hand[0] == hand[1])
    assert not shape_classifier(13, 2, lambda hand: hand[0] == 0)
