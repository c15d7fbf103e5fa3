"""Brute-force counts for :mod:`odds.engine.polynomial`, by listing labelled cards.

Independent of the falling-factorial algebra: a shoe of ``c_t`` cards of each
type is a list of labelled cards, and every count is a count of ordered
sequences of distinct cards, made by :func:`itertools.permutations`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import permutations
from typing import Any


def cards(counts: Sequence[int]) -> list[int]:
    """The shoe as labelled cards: card ``i`` has type ``cards[i]``."""
    return [t for t, n in enumerate(counts) for _ in range(n)]


def row_value(counts: Sequence[int], exponents: Sequence[int], extension: int) -> int:
    """Ordered sequences of ``|m| + x`` distinct cards, the first ``|m|`` in one order of ``m``.

    That is ``FF_m(c) · (N − |m|)_x``, counted by listing sequences.
    """
    pattern = [t for t, e in enumerate(exponents) for _ in range(e)]
    shoe = cards(counts)
    found = 0
    for sequence in permutations(range(len(shoe)), len(pattern) + extension):
        if all(shoe[i] == t for i, t in zip(sequence, pattern, strict=False)):
            found += 1
    return found


def polynomial_numerators(
    counts: Sequence[int],
    rows: Sequence[tuple[Sequence[int], int, Sequence[int]]],
) -> list[int]:
    """``Σ_i C[i, k] · row_value(m_i, x_i)`` per key.

    ``rows`` are ``(exponents, extension, coefficients)``.
    """
    keys = len(rows[0][2]) if rows else 0
    totals = [0] * keys
    for exponents, extension, coefficients in rows:
        value = row_value(counts, exponents, extension)
        for k in range(keys):
            totals[k] += coefficients[k] * value
    return totals


def two_hand_evs(
    counts: Sequence[int],
    size: int,
    classify: Callable[[tuple[int, ...]], Any],
    payoff: Callable[[Any, Any], Sequence[Fraction]],
    bets: int,
) -> list[Fraction]:
    """EV of each bet over every ordered deal of ``2 · size`` labelled cards (two hands)."""
    shoe = cards(counts)
    totals = [Fraction(0)] * bets
    deals = 0
    for sequence in permutations(range(len(shoe)), 2 * size):
        first = tuple(sorted(shoe[i] for i in sequence[:size]))
        second = tuple(sorted(shoe[i] for i in sequence[size:]))
        pays = payoff(classify(first), classify(second))
        totals = [t + p for t, p in zip(totals, pays, strict=True)]
        deals += 1
    return [t / deals for t in totals]
