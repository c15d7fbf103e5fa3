"""Hands, weights and deal counts: the counting every distribution stands on.

A hand is a sorted tuple of type indices; its weight is the number of ways to
deal it from a composition, ``∏ C(n_t, a_t)``. Totals are asserted: a
distribution that does not account for every deal exactly once is a bug.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import combinations_with_replacement
from math import comb, prod
from typing import Any, TypeVar

Hand = tuple[int, ...]
Composition = tuple[int, ...]
C = TypeVar("C", bound=Hashable)
E = TypeVar("E", bound=Hashable)


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while building large acyclic tables.

    Enumerations allocate hundreds of thousands of tuples and lists that never
    form reference cycles; the collector would otherwise walk all of them again
    and again (it made the one-deck Goa Gae showdown ~1.6× slower). Memory is
    still freed by reference counting.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def hand_weight(counts: Sequence[int], hand: Hand) -> int:
    """Ways to deal the multiset ``hand`` from ``counts``: ``∏ C(n_t, a_t)``.

    >>> hand_weight((4, 4), (0, 0)), hand_weight((4, 4), (0, 1)), hand_weight((1, 4), (0, 0))
    (6, 16, 0)
    """
    return prod(comb(counts[t], a) for t, a in Counter(hand).items())


def deal_count(counts: Sequence[int], sizes: Iterable[int]) -> int:
    """Number of deals of hands of the given sizes, one after another.

    >>> deal_count((1,) * 52, (2, 2)) == 1326 * 1225
    True
    """
    total, left = 1, sum(counts)
    for size in sizes:
        total *= comb(left, size)
        left -= size
    return total


def hands(counts: Sequence[int], size: int) -> list[tuple[Hand, int]]:
    """Every hand of ``size`` types that ``counts`` can deal, with its weight.

    Sorted by hand (deterministic). Hands of weight 0 are left out, and types the shoe
    does not hold are never tried: a reduced shoe keeps all 52 card types, and five cards
    of 52 types are 3.8 million multisets where 14 held cards give 8,568.
    """
    binomials = [[comb(n, a) for a in range(size + 1)] for n in counts]
    result = []
    held = [t for t, n in enumerate(counts) if n]
    for hand in combinations_with_replacement(held, size):
        weight, run = 1, 1  # the product of C(n_t, a_t) over the hand's runs of one type
        for i in range(1, size):
            if hand[i] == hand[i - 1]:
                run += 1
            else:
                weight *= binomials[hand[i - 1]][run]
                run = 1
        weight *= binomials[hand[-1]][run] if size else 1
        if weight:
            result.append((hand, weight))
    return result


def check_total(distribution: Mapping[Any, int], expected: int, what: str) -> None:
    """Assert that a distribution accounts for every deal exactly once."""
    total = sum(distribution.values())
    if total != expected:
        raise AssertionError(f"{what}: ways add up to {total}, expected {expected}")
    if any(ways < 0 for ways in distribution.values()):
        raise AssertionError(f"{what}: a negative number of ways")


def class_distribution(
    counts: Sequence[int],
    size: int,
    classify: Callable[[Hand], C],
    dealt: Sequence[tuple[Hand, int]] | None = None,
) -> dict[C, int]:
    """Ways per class of one hand dealt from ``counts`` (``dealt``: its :func:`hands`, when
    the caller has them already)."""
    distribution: Counter[C] = Counter()
    for hand, weight in hands(counts, size) if dealt is None else dealt:
        distribution[classify(hand)] += weight
    check_total(distribution, deal_count(counts, (size,)), "hand classes")
    return dict(distribution)


def settle_distribution(distribution: Mapping[C, int], settle: Callable[[C], E]) -> dict[E, int]:
    """Aggregate class ways into event ways: ``{settle(class): ways}``.

    The total is preserved (asserted), so an event table that does not add up
    to the deals cannot be produced.
    """
    events: Counter[E] = Counter()
    for cls, ways in distribution.items():
        events[settle(cls)] += ways
    check_total(events, sum(distribution.values()), "settled events")
    return dict(events)
