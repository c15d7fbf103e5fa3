"""The engine's one polynomial type against brute force on reduced shoes.

Every evaluation — exact (``int64`` and, past its bound, the Chinese remainder
theorem), modular and double precision with its bound — is compared with
counts made by listing labelled cards (:mod:`tests.reference.falling`), on
random tables and random small shoes.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.engine import DealPolynomial, FallingPolynomial, falling, ordered_deal_polynomial
from odds.engine.polynomial import PRIMES, falling_polynomial, two_hand_polynomial
from tests.reference import falling as brute


def _random_table(rng: random.Random, types: int, degree: int, keys: int, big: bool):
    """Random rows ``{exponents: coefficients}`` of degree ≤ ``degree``, signed coefficients."""
    rows = {}
    for _ in range(rng.randint(1, 8)):
        exponents = [0] * types
        for _ in range(rng.randint(0, degree)):
            exponents[rng.randrange(types)] += 1
        limit = 2**58 if big else 50
        rows[tuple(exponents)] = [rng.randint(-limit, limit) for _ in range(keys)]
    return rows


def _expected(poly: FallingPolynomial, counts, rows):
    extension = {e: poly.length - sum(e) for e in rows} if poly.extended else dict.fromkeys(rows, 0)
    return brute.polynomial_numerators(
        counts, [(e, extension[e], c) for e, c in sorted(rows.items())]
    )


@settings(max_examples=40, deadline=None)
@given(
    full=st.lists(st.integers(0, 3), min_size=1, max_size=4),
    seed=st.integers(0, 10_000),
    extended=st.booleans(),
    big=st.booleans(),
)
def test_exact_modular_and_float_agree_with_brute_force(full, seed, extended, big):
    rng = random.Random(seed)
    degree = 3
    rows = _random_table(rng, len(full), degree, 2, big)
    poly = falling_polynomial(len(full), ("a", "b"), rows, extended=extended, length=degree)
    counts = [rng.randint(0, n) for n in full]
    expected = _expected(poly, counts, rows)
    # Exact: int64 when the bound allows it, else the Chinese remainder theorem.
    assert [int(v) for v in poly.numerators(counts)] == expected
    # Modular: the exact value mod p, for a small prime and the largest ones used.
    for p in (101, PRIMES[0], PRIMES[-1]):
        assert [int(r) for r in poly.residues(counts, p)] == [v % p for v in expected]
    # Double precision: within the stated bound of the exact value.
    if sum(counts) >= degree:
        denominator = poly.denominator(sum(counts))
        for key, exact in zip(poly.keys, expected, strict=True):
            value, bound = poly.approximate(counts)[key]
            assert abs(Fraction(value) - Fraction(exact, denominator)) <= Fraction(bound)


def test_past_the_int64_bound_the_exact_value_is_recombined_from_primes():
    rows = {(3, 0): [2**61 + 3], (1, 2): [-(2**60) - 1], (0, 1): [5]}
    poly = falling_polynomial(2, ("k",), rows, extended=True)
    counts = [3, 3]
    assert not poly.int64_safe(6)
    numerators = poly.numerators(counts)
    assert numerators.dtype == object
    assert [int(v) for v in numerators] == _expected(poly, counts, rows)


def test_a_batch_is_every_composition_at_once():
    rng = random.Random(3)
    full = (3, 2, 3)
    rows = _random_table(rng, 3, 3, 3, big=False)
    poly = falling_polynomial(3, ("x", "y", "z"), rows, extended=True)
    states = [[rng.randint(0, n) for n in full] for _ in range(6)]
    batch = poly.numerators(np.array(states))
    assert batch.shape == (6, 3)
    for state, row in zip(states, batch.tolist(), strict=True):
        assert row == _expected(poly, state, rows)


def test_the_bound_is_rigorous_where_cancellation_is_severe():
    # Two huge rows that almost cancel: the float value is poor, the bound says so.
    rows = {(2, 0): [2**52 + 1], (1, 1): [-(2**52)]}
    poly = falling_polynomial(2, ("k",), rows, extended=False)
    counts = [40, 41]
    exact = Fraction(_expected(poly, counts, rows)[0], poly.denominator(81))
    value, bound = poly.approximate(counts)["k"]
    assert abs(Fraction(value) - exact) <= Fraction(bound)
    assert bound > 0


def test_groups_are_checked_on_every_exact_evaluation():
    # Dragon-Tiger-like: first card's type against the second's, over three types.
    class Procedure:
        start = ()

        def step(self, state, t):
            return (*state, t)

        def outcome(self, state):
            if len(state) < 2:
                return None
            a, b = state
            return "first" if a > b else "second" if b > a else "tie"

    poly = ordered_deal_polynomial(Procedure(), 3, 2)
    assert isinstance(poly, DealPolynomial)  # the old name still names the type
    counts = (2, 3, 1)
    ways = poly.ways(counts)
    assert sum(ways.values()) == falling(6, 2)
    # Against listing labelled cards.
    shoe = brute.cards(counts)
    listed = {"first": 0, "second": 0, "tie": 0}
    for i in range(len(shoe)):
        for j in range(len(shoe)):
            if i != j:
                listed[Procedure().outcome((shoe[i], shoe[j]))] += 1
    assert ways == listed
    # A table whose group does not add up is caught.
    broken = FallingPolynomial(
        3,
        poly.keys,
        poly.exponents,
        poly.coefficients * 2,
        extended=True,
        groups=poly.groups,
    )
    with pytest.raises(AssertionError, match="add up"):
        broken.ways(counts)


@settings(max_examples=12, deadline=None)
@given(
    full=st.lists(st.integers(1, 2), min_size=4, max_size=5),
    seed=st.integers(0, 10_000),
)
def test_two_hand_forms_against_listing_every_deal(full, seed):
    rng = random.Random(seed)

    def classify(hand):
        return hash((seed, hand)) % 3

    def payoff(x, y):
        return [Fraction(x - y, 2), Fraction(3 if x == y else -1)]

    counts = [rng.randint(1, n) for n in full]
    if sum(counts) < 4:
        counts = list(full)
    expected = brute.two_hand_evs(counts, 2, classify, payoff, 2)
    for factored in (False, True):
        poly = two_hand_polynomial(full, 2, classify, ["a", "b"], payoff, factored=factored)
        got = poly.fractions(counts)
        assert [got["a"], got["b"]] == expected
        numerators = [int(v) for v in poly.numerators(counts)]
        for p in (97, PRIMES[0]):
            assert [int(r) for r in poly.residues(counts, p)] == [v % p for v in numerators]
        for key, exact in got.items():
            value, bound = poly.approximate(counts)[key]
            assert abs(Fraction(value) - exact) <= Fraction(bound)
            assert bound < 1e-12


def test_bad_compositions_are_refused():
    poly = falling_polynomial(2, ("k",), {(1, 1): [1]}, extended=False)
    with pytest.raises(ValueError, match="expected 2 counts"):
        poly.numerators([1, 2, 3])
    with pytest.raises(ValueError, match="negative"):
        poly.numerators([1, -1])
    with pytest.raises(ValueError, match="cannot deal"):
        poly.fractions([1, 0])
    with pytest.raises(ValueError, match="below 2"):
        poly.residues([1, 1], 2**31 + 11)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), big=st.booleans())
def test_one_key_by_halves_is_summed_by_group_within_the_bound(seed, big):
    # One key, many rows sharing their halves: the plan goes by halves and one
    # composition's floats are summed by (second half, extension) group. The exact
    # numerators (checked against brute force above) are the reference.
    rng = random.Random(seed)
    limit = 2**58 if big else 50
    rows = {}
    for _ in range(150):
        exponents = tuple(rng.randint(0, 1) for _ in range(8))
        rows[exponents] = [rng.randint(-limit, limit)]
    poly = falling_polynomial(8, ("k",), rows, extended=True, length=8)
    assert poly._evaluation_plan().grouped() is not None
    counts = [rng.randint(1, 3) for _ in range(8)]
    exact = Fraction(int(poly.numerators(counts)[0]), poly.denominator(sum(counts)))
    value, bound = poly.approximate(counts)["k"]
    assert abs(Fraction(value) - exact) <= Fraction(bound)
    # Every row, then one sum (the batch path): within its own bound too, and both agree.
    values, bounds = poly._floats(np.array([counts]))
    assert abs(Fraction(float(values[0, 0])) - exact) <= Fraction(float(bounds[0, 0]))
    assert float(bounds[0, 0]) == pytest.approx(bound, rel=1e-9)
