"""Two and three hands from one shoe: class joints without the all-pairs loop."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from math import comb
from typing import Any

from odds.engine.counting import C, Hand, check_total, deal_count, hands, paused_gc


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


@paused_gc()
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

    Two-card hands from many types (a shoe of 52 card types: 1,378 hands) skip the
    corrections: the joint is one evaluation of the closed form in the class totals
    (:class:`~odds.engine.arrays.SmallHandsAfterOne`, numpy), about a millisecond.
    """
    all_hands = hands(counts, size)
    classes = [classify(hand) for hand, _ in all_hands]
    if size == 2 and len(all_hands) >= CLOSED_FORM_HANDS:
        from odds.engine.arrays import SmallHandsAfterOne

        if SmallHandsAfterOne.applies(counts, size):
            return _closed_form_joint(counts, all_hands, classes)
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


#: Two-card hands from at least this many distinct hands are joined in closed form (numpy);
#: fewer are quicker by the corrections (and need no numpy).
CLOSED_FORM_HANDS = 300


def _closed_form_joint(
    counts: Sequence[int], all_hands: Sequence[tuple[Hand, int]], classes: Sequence[C]
) -> dict[tuple[C, C], int]:
    from odds.engine.arrays import SmallHandsAfterOne, nonzero

    names = list(dict.fromkeys(classes))
    number = {cls: k for k, cls in enumerate(names)}
    closed = SmallHandsAfterOne(counts, 2, all_hands, [number[cls] for cls in classes])
    result = {(names[a], names[b]): ways for (a, b), ways in nonzero(closed.full_joint()).items()}
    check_total(result, deal_count(counts, (2, 2)), "joint hand classes")
    return result


@paused_gc()
def triple_class_distribution(
    counts: Sequence[int],
    size: int,
    classify: Callable[[Hand], C],
    symmetries: Iterable[Sequence[int]] = (),
) -> dict[tuple[C, C, C], int]:
    """Ways per (first, second, third hand's class) for three hands from one shoe.

    A banker and two positions: with it, every pair of positions' joint (and
    so the exact EV and SD of any set of positions) is known. Card removal is
    exact. The first hand is fixed one orbit at a time (``symmetries`` as in
    :func:`joint_class_distribution`, checked); for each, the two hands that
    follow are counted as :func:`joint_class_distribution` counts two hands —
    the product of the class totals of what the first hand left, corrected by
    the pairs of hands that share a type — but over every such pair at once,
    as arrays (:mod:`odds.engine.arrays`: about 140,000 pairs for two cards
    from 52 types, the same list for every first hand, only the counts change).
    Hands of one or two cards skip the pairs: the two hands' joint is a closed form in
    the class totals of what the first hand left (:class:`~odds.engine.arrays.SmallHandsAfterOne`).
    """
    from odds.engine.arrays import nonzero

    names, table = triple_class_array(counts, size, classify, symmetries)
    return {(names[a], names[b], names[c]): ways for (a, b, c), ways in nonzero(table).items()}


@paused_gc()
def triple_class_array(
    counts: Sequence[int],
    size: int,
    classify: Callable[[Hand], C],
    symmetries: Iterable[Sequence[int]] = (),
) -> tuple[list[C], Any]:
    """:func:`triple_class_distribution` as ``(classes, ways)``: the distinct classes in the
    order of the hands that first show them, and a ``k × k × k`` integer array (numpy) of the
    ways per (first, second, third) class number — what a caller that settles the classes
    in bulk reads, without a dictionary of every class triple."""
    from odds.engine.arrays import SmallHandsAfterOne, TwoAfterOne

    counts = tuple(counts)
    all_hands = hands(counts, size)
    classes = [classify(hand) for hand, _ in all_hands]
    representatives = orbits(all_hands, classes, counts, symmetries)
    names = list(dict.fromkeys(classes))
    number = {cls: k for k, cls in enumerate(names)}
    kind = SmallHandsAfterOne if SmallHandsAfterOne.applies(counts, size) else TwoAfterOne
    counter = kind(counts, size, all_hands, [number[cls] for cls in classes])
    table = counter.by_first_class(representatives)
    check_total(
        {"all": int(table.sum())}, deal_count(counts, (size, size, size)), "three hands' classes"
    )
    if (table < 0).any():
        raise AssertionError("three hands' classes: a negative number of ways")
    return names, table
