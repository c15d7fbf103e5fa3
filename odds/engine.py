"""The exact enumeration engine shared by every game.

Vocabulary
----------
* A *composition* is a tuple of counts, one per card or tile type (see
  :class:`odds.shoe.Shoe`; the engine sees only the counts).
* A *hand* is a multiset of types, stored as a sorted tuple of type indices.
  Its *weight* is the number of ways to deal it from a composition:
  ``∏_t C(n_t, a_t)`` (unordered within the hand).
* A *deal* of several hands takes them one after the other with card removal;
  its ways multiply the hands' weights, each from what the earlier hands left.
  Hands are unordered inside, ordered between each other ("first hand, second
  hand"); every probability is a ratio of such counts.
* A game supplies a *classifier* that maps a hand to the class its rules care
  about (a hashable value). The engine returns integer ways per class, or per
  pair of classes for two hands dealt from one shoe, and the game settles
  classes into bet events.

The totals are asserted: the ways of every distribution add up to the number
of possible deals, exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from itertools import combinations_with_replacement
from math import comb, prod
from typing import TypeVar

Hand = tuple[int, ...]
Composition = tuple[int, ...]
C = TypeVar("C", bound=Hashable)
E = TypeVar("E", bound=Hashable)


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

    Sorted by hand (deterministic). Hands of weight 0 are left out.
    """
    result = []
    for hand in combinations_with_replacement(range(len(counts)), size):
        weight = hand_weight(counts, hand)
        if weight:
            result.append((hand, weight))
    return result


def check_total(distribution: Mapping[object, int], expected: int, what: str) -> None:
    """Assert that a distribution accounts for every deal exactly once."""
    total = sum(distribution.values())
    if total != expected:
        raise AssertionError(f"{what}: ways add up to {total}, expected {expected}")
    if any(ways < 0 for ways in distribution.values()):
        raise AssertionError(f"{what}: a negative number of ways")


def class_distribution(
    counts: Sequence[int], size: int, classify: Callable[[Hand], C]
) -> dict[C, int]:
    """Ways per class of one hand dealt from ``counts``."""
    distribution: Counter[C] = Counter()
    for hand, weight in hands(counts, size):
        distribution[classify(hand)] += weight
    check_total(distribution, deal_count(counts, (size,)), "hand classes")
    return dict(distribution)


def orbits(
    all_hands: Sequence[tuple[Hand, int]],
    classes: Sequence[Hashable],
    counts: Sequence[int],
    symmetries: Iterable[Sequence[int]],
) -> list[tuple[int, int]]:
    """Group hands into orbits under type permutations that keep ``counts``.

    Returns ``(index of a representative hand, orbit size)`` pairs. Only the
    permutations that map the composition onto itself are used (they form a
    subgroup), so a partly dealt shoe simply loses the symmetries it broke.
    Every member of an orbit must have its representative's class: a declared
    symmetry that the classifier does not respect fails loudly.
    """
    kept = [tuple(p) for p in symmetries if all(counts[p[t]] == n for t, n in enumerate(counts))]
    position = {hand: i for i, (hand, _) in enumerate(all_hands)}
    seen = [False] * len(all_hands)
    result = []
    for i, (hand, _) in enumerate(all_hands):
        if seen[i]:
            continue
        members = {tuple(sorted(p[t] for t in hand)) for p in kept} | {hand}
        for member in members:
            j = position[member]
            seen[j] = True
            if classes[j] != classes[i]:
                raise AssertionError(f"classifier not invariant under the symmetry: {member}")
        result.append((i, len(members)))
    return result


def joint_class_distribution(
    counts: Sequence[int],
    size: int,
    classify: Callable[[Hand], C],
    symmetries: Iterable[Sequence[int]] = (),
) -> dict[tuple[C, C], int]:
    """Ways per (first hand's class, second hand's class) for two hands from one shoe.

    Card removal is exact, but the all-pairs loop is avoided: a second hand
    that shares no type with the first is dealt in as many ways as from the full
    shoe, so the joint starts as the product of the full-shoe class totals and
    each first hand corrects only the second hands that touch its types
    (for two cards from 52 types, about 100 of 1,378).

    ``symmetries`` are permutations of the type indices under which the
    classifier is invariant (for games that ask only "same suit or not", the
    24 suit permutations). First hands in one orbit make identical corrections,
    so one representative per orbit is corrected and multiplied by the orbit's
    size. The invariance is checked, not trusted.
    """
    all_hands = hands(counts, size)
    classes = [classify(hand) for hand, _ in all_hands]
    representatives = orbits(all_hands, classes, counts, symmetries)
    totals: Counter[C] = Counter()
    for (_, weight), cls in zip(all_hands, classes, strict=True):
        totals[cls] += weight

    joint: Counter[tuple[C, C]] = Counter()
    for first_class, first_ways in totals.items():
        for second_class, second_ways in totals.items():
            joint[first_class, second_class] = first_ways * second_ways

    containing: list[list[int]] = [[] for _ in counts]
    parts: list[tuple[tuple[int, int], ...]] = []
    for j, (hand, _) in enumerate(all_hands):
        multiplicity = Counter(hand)
        parts.append(tuple(multiplicity.items()))
        for t in multiplicity:
            containing[t].append(j)

    for i, orbit_size in representatives:
        first, first_ways = all_hands[i]
        first_ways *= orbit_size
        removed = Counter(first)
        touched: set[int] = set()
        for t in removed:
            touched.update(containing[t])
        correction: Counter[C] = Counter()
        for j in touched:
            full_ways = all_hands[j][1]
            after = 1
            for t, a in parts[j]:
                after *= comb(counts[t] - removed.get(t, 0), a)
            if after != full_ways:
                correction[classes[j]] += after - full_ways
        first_class = classes[i]
        for second_class, delta in correction.items():
            joint[first_class, second_class] += first_ways * delta

    result = {key: ways for key, ways in joint.items() if ways}
    check_total(result, deal_count(counts, (size, size)), "joint hand classes")
    return result


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


S = TypeVar("S", bound=Hashable)


def sequential_distribution(
    counts: Sequence[int],
    size: int,
    number: int,
    classify: Callable[[Hand], C],
    fold: Callable[[S, C], S],
    start: S,
) -> dict[S, int]:
    """Ways per final state of ``number`` hands of ``size`` dealt one after another.

    The k-hand joint distribution (a banker and several positions sharing one
    shoe). Writing every tuple of hand classes down would grow as
    ``hands ** number``, so the caller folds the classes into a *state* as the
    hands are dealt: ``state = fold(state, class of the next hand)``, from
    ``start``. The state keeps only what the question needs, e.g. the banker's
    class and the sorted multiset of the positions' results so far.

    Counting is a dynamic programme over (remaining composition, state): deals
    that leave the same tiles in the shoe and the same state are merged, and
    their continuations are counted once (memoised per composition). The last
    hand needs no composition after it, so it is added from the class
    distribution of the composition left, computed once per composition.

    Ways are exact with card removal, hands unordered inside and ordered
    between each other; the total is asserted to equal
    ``deal_count(counts, [size] * number)``.
    """
    if number < 1:
        raise ValueError("sequential_distribution needs at least one hand")
    class_of: dict[Hand, C] = {}
    moves: dict[Composition, list[tuple[Composition, int, C]]] = {}
    final: dict[Composition, list[tuple[C, int]]] = {}
    folded: dict[tuple[S, C], S] = {}

    def hand_class(hand: Hand) -> C:
        found = class_of.get(hand, _MISSING)
        if found is _MISSING:
            found = class_of[hand] = classify(hand)
        return found  # type: ignore[return-value]

    def moves_from(comp: Composition) -> list[tuple[Composition, int, C]]:
        found = moves.get(comp)
        if found is None:
            found = []
            for hand, weight in hands(comp, size):
                after = list(comp)
                for t in hand:
                    after[t] -= 1
                found.append((tuple(after), weight, hand_class(hand)))
            moves[comp] = found
        return found

    def final_from(comp: Composition) -> list[tuple[C, int]]:
        found = final.get(comp)
        if found is None:
            merged: Counter[C] = Counter()
            for hand, weight in hands(comp, size):
                merged[hand_class(hand)] += weight
            found = final[comp] = list(merged.items())
        return found

    def step(state: S, cls: C) -> S:
        key = (state, cls)
        found = folded.get(key, _MISSING)
        if found is _MISSING:
            found = folded[key] = fold(state, cls)
        return found  # type: ignore[return-value]

    layer: dict[tuple[Composition, S], int] = {(tuple(counts), start): 1}
    for _ in range(number - 1):
        following: Counter[tuple[Composition, S]] = Counter()
        for (comp, state), ways in layer.items():
            for after, weight, cls in moves_from(comp):
                following[after, step(state, cls)] += ways * weight
        layer = following
    result: Counter[S] = Counter()
    for (comp, state), ways in layer.items():
        for cls, weight in final_from(comp):
            result[step(state, cls)] += ways * weight
    distribution = {state: ways for state, ways in result.items() if ways}
    check_total(distribution, deal_count(counts, [size] * number), "sequential hand states")
    return distribution


_MISSING = object()
