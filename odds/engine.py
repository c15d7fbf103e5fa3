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

import gc
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from itertools import accumulate, combinations_with_replacement, product
from math import comb, prod
from operator import itemgetter
from typing import Any, NamedTuple, TypeVar

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

    Sorted by hand (deterministic). Hands of weight 0 are left out.
    """
    result = []
    for hand in combinations_with_replacement(range(len(counts)), size):
        weight = hand_weight(counts, hand)
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
    as arrays (:mod:`odds.engine_arrays`: about 140,000 pairs for two cards
    from 52 types, the same list for every first hand, only the counts change).
    """
    from odds.engine_arrays import TwoAfterOne

    counts = tuple(counts)
    all_hands = hands(counts, size)
    classes = [classify(hand) for hand, _ in all_hands]
    representatives = orbits(all_hands, classes, counts, symmetries)
    names = list(dict.fromkeys(classes))
    number = {cls: k for k, cls in enumerate(names)}
    counter = TwoAfterOne(counts, size, all_hands, [number[cls] for cls in classes])
    found = {
        (names[a], names[b], names[c]): ways
        for (a, b, c), ways in counter.by_first_class(representatives).items()
    }
    check_total(found, deal_count(counts, (size, size, size)), "three hands' classes")
    return found


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


# ---------------------------------------------------------------------------
# Showdowns: one hand against a second hand dealt from what the first left


RemovalTerms = tuple[list[tuple[list[int], list[int], int]], list[tuple[int, int]]]
#: A hand's shape as the counting sees it: ``(n_t, a_t)`` per type, in type order.
Pattern = tuple[tuple[int, int], ...]
#: Takes some positions of a hand, as a tuple.
Picker = Callable[[Hand], Hand]
#: One removal part: how to pick it from the removed hand, whether it is a whole hand, its δ.
RemovalStep = tuple[Picker, bool, int]


class StrengthIndex:
    """Every hand of one size ranked by a game's strength, for removal-aware counting.

    A showdown asks, for a first hand ``A``, in how many ways a second hand
    ``B`` dealt from what ``A`` left is weaker, equal or stronger. Looping over
    all pairs is out of reach for three-card hands (one deck: 22,100 × 18,424),
    so the count is assembled from sorted prefix sums instead:

    * Hands are sorted by strength (``strength(hand)`` is any totally ordered
      key; equal keys tie) and numbered by *rank* (dense: equal keys share one).
    * Removing ``A`` changes a hand's weight only through the types ``A``
      uses. Writing ``C(n_t − a_t, h) = C(n_t, h) + δ_t(h)`` for each such type
      and expanding the product gives

        ways after removal = ways in the full shoe
                             + Σ over multisets P on A's types (P ≠ ∅):
                               ∏_{t in P} δ_t(p_t) · G_P

      where ``G_P`` sums, over the hands ``H`` whose restriction to the types
      of ``P`` is exactly ``P``, the weight of the rest of ``H`` (``H`` minus
      ``P``) in the full shoe. ``G_P`` does not depend on ``A``, so it is kept
      per ``P`` as a list sorted by rank with prefix sums; "below rank r" is a
      binary search. This is inclusion–exclusion over the types ``A`` uses,
      with the signs and multiplicities carried by the ``δ`` factors (for one
      deck: − the hands holding one of A's cards, + those holding two, …).
    * Per first hand the work is a handful of binary searches (one deck: 7;
      two decks: 16), not a pass over the hands it touches.

    Everything is an exact integer; :func:`showdown` asserts the totals.
    Generic over types and hand size: nothing here knows about cards or suits,
    so no symmetry is assumed (Goa Gae's tie-breaks compare suits).
    """

    @paused_gc()
    def __init__(
        self, counts: Sequence[int], size: int, strength: Callable[[Hand], object]
    ) -> None:
        self.counts = tuple(counts)
        self.size = size
        keyed = []
        counts = self.counts
        for hand in combinations_with_replacement(range(len(counts)), size):
            pattern = tuple((counts[t], a) for t, a in _groups(hand))
            weight = 1
            for n, a in pattern:
                weight *= comb(n, a)
            if weight:
                keyed.append((strength(hand), hand, weight, pattern))
        keyed.sort(key=itemgetter(0))
        #: The distinct strength keys, weakest first; a hand's rank indexes it.
        self.keys: list[Any] = []
        self.hands: list[Hand] = []
        self.weights: list[int] = []
        self.ranks: list[int] = []
        self.rank: dict[Hand, int] = {}
        self._patterns: list[tuple[tuple[int, int], ...]] = []
        for key, hand, weight, pattern in keyed:
            self._patterns.append(pattern)
            if not self.keys or self.keys[-1] != key:
                self.keys.append(key)
            r = len(self.keys) - 1
            self.hands.append(hand)
            self.weights.append(weight)
            self.ranks.append(r)
            self.rank[hand] = r
        #: ``cumulative[r]`` = full-shoe ways of the hands with rank < r.
        self.cumulative = [0] * (len(self.keys) + 1)
        for r, weight in zip(self.ranks, self.weights, strict=True):
            self.cumulative[r + 1] += weight
        for r in range(len(self.keys)):
            self.cumulative[r + 1] += self.cumulative[r]
        self.total = self.cumulative[-1]
        self._removal_templates: dict[Pattern, list[RemovalStep]] = {}
        self._parts = self._build_parts()

    def _pattern(self, hand: Hand) -> tuple[tuple[int, int], ...]:
        """A hand's shape as the counting sees it: ``(n_t, a_t)`` per type, in order."""
        counts = self.counts
        return tuple((counts[t], a) for t, a in _groups(hand))

    def _build_parts(self) -> dict[Hand, tuple[list[int], list[int]]]:
        """``G_P`` for every proper part ``P``: ranks (sorted) and prefix sums of rest weights.

        Hands are visited in rank order, so every list is born sorted. Which
        positions of a hand form each part, and the rest's weight, depend only
        on the hand's pattern, so they are worked out once per pattern.
        """
        templates: dict[Pattern, list[tuple[Picker, int]]] = {}
        parts: dict[Hand, tuple[list[int], list[int]]] = {}
        for hand, r, pattern in zip(self.hands, self.ranks, self._patterns, strict=True):
            template = templates.get(pattern)
            if template is None:
                template = templates[pattern] = _part_template(pattern)
            for pick, rest in template:
                part = pick(hand)
                entry = parts.get(part)
                if entry is None:
                    entry = parts[part] = ([], [])
                entry[0].append(r)
                entry[1].append(rest)
        return {
            part: (ranks, list(accumulate(rests, initial=0)))
            for part, (ranks, rests) in parts.items()
        }

    def removal_templates(self) -> list[list[RemovalStep]]:
        """Each hand's removal template (see :func:`_removal_template`), in index order."""
        result = []
        for pattern in self._patterns:
            template = self._removal_templates.get(pattern)
            if template is None:
                template = self._removal_templates[pattern] = _removal_template(pattern, self.size)
            result.append(template)
        return result

    def removal_terms(self, removed: Hand) -> RemovalTerms:
        """The correction terms for a second hand dealt after ``removed`` left the shoe.

        Returns ``(partial, whole)``: ``partial`` holds ``(ranks, prefix, δ)``
        for parts smaller than a hand, ``whole`` holds ``(rank, δ)`` for parts
        that are whole hands (their rest is empty, weight 1). ``removed`` may
        have any size up to the hand size; the composition must hold it.
        """
        pattern = self._pattern(removed)
        template = self._removal_templates.get(pattern)
        if template is None:
            template = self._removal_templates[pattern] = _removal_template(pattern, self.size)
        partial: list[tuple[list[int], list[int], int]] = []
        whole: list[tuple[int, int]] = []
        for pick, is_whole, delta in template:
            part = pick(removed)
            if is_whole:
                whole.append((self.rank[part], delta))
            else:
                entry = self._parts.get(part)
                if entry is not None:
                    partial.append((entry[0], entry[1], delta))
        return partial, whole

    def below(self, terms: RemovalTerms, threshold: int) -> int:
        """Ways for a second hand of rank < ``threshold`` once ``terms``' hand is removed."""
        partial, whole = terms
        ways = self.cumulative[threshold]
        for ranks, prefix, delta in partial:
            ways += delta * prefix[bisect_left(ranks, threshold)]
        for r, delta in whole:
            if r < threshold:
                ways += delta
        return ways

    def threshold(self, key: object, inclusive: bool = False) -> int:
        """The number of ranks whose key is < ``key`` (≤ ``key`` when ``inclusive``)."""
        return (bisect_right if inclusive else bisect_left)(self.keys, key)


class HandShowdown(NamedTuple):
    """One first hand's showdown against a second hand from what it left.

    ``ways`` deals the first hand from the full composition; ``weaker``,
    ``equal`` and ``stronger`` count the second hand's ways after removal;
    ``at_least[i]`` counts the second hands whose key is ≥ the ``i``-th cut.
    """

    hand: Hand
    ways: int
    rank: int
    weaker: int
    equal: int
    stronger: int
    at_least: tuple[int, ...] = ()


@paused_gc()
def showdown(
    counts: Sequence[int],
    size: int,
    strength: Callable[[Hand], object],
    cuts: Sequence[object] = (),
    index: StrengthIndex | None = None,
) -> list[HandShowdown]:
    """Every first hand's exact win/tie/lose ways against one second hand, card removal exact.

    ``strength`` maps a hand to a totally ordered key (equal keys tie).
    ``cuts`` are optional keys: for each, the ways the second hand's key is at
    least that cut are returned too (for splitting the second hand's wins into
    bands, e.g. categories). ``index`` may pass a :class:`StrengthIndex` already
    built for the same counts, size and strength. See :class:`StrengthIndex`
    for the method.

    Asserted: each first hand's three counts add up to the second hands its
    removal leaves, the grand total is the number of two-hand deals, and the
    first hand wins exactly as often as it loses (ordered deals of two hands
    from one shoe are symmetric).
    """
    index = index or StrengthIndex(counts, size, strength)
    if index.counts != tuple(counts) or index.size != size:
        raise ValueError("showdown: the index was built for another composition or hand size")
    cut_ranks = [index.threshold(cut) for cut in cuts]
    left = sum(counts) - size
    after = comb(left, size) if left >= 0 else 0
    cumulative, parts, rank_of = index.cumulative, index._parts, index.rank
    result = []
    for hand, ways, r, template in zip(
        index.hands, index.weights, index.ranks, index.removal_templates(), strict=True
    ):
        # index.below(terms, r) and index.below(terms, r + 1) in one pass.
        weaker, not_stronger = cumulative[r], cumulative[r + 1]
        for pick, is_whole, delta in template:
            part = pick(hand)
            if is_whole:
                other = rank_of[part]
                if other < r:
                    weaker += delta
                if other <= r:
                    not_stronger += delta
                continue
            entry = parts.get(part)
            if entry is not None:
                ranks, prefix = entry
                i = j = bisect_left(ranks, r)
                # Equal ranks are rare (ties): step over them instead of a second search.
                while j < len(ranks) and ranks[j] == r:
                    j += 1
                weaker += delta * prefix[i]
                not_stronger += delta * prefix[j]
        stronger = after - not_stronger
        equal = not_stronger - weaker
        if weaker < 0 or equal < 0 or stronger < 0:
            raise AssertionError(f"showdown of {hand}: negative ways")
        at_least: tuple[int, ...] = ()
        if cut_ranks:
            terms = index.removal_terms(hand)
            at_least = tuple(after - index.below(terms, c) for c in cut_ranks)
        result.append(HandShowdown(hand, ways, r, weaker, equal, stronger, at_least))
    check_total(
        {i: row.ways * (row.weaker + row.equal + row.stronger) for i, row in enumerate(result)},
        deal_count(counts, (size, size)),
        "showdown",
    )
    wins = sum(row.ways * row.weaker for row in result)
    losses = sum(row.ways * row.stronger for row in result)
    if wins != losses:
        raise AssertionError(f"showdown: first hand wins {wins} ways but loses {losses}")
    return result


def _groups(hand: Hand) -> list[tuple[int, int]]:
    """``(type, multiplicity)`` pairs of a sorted hand, in type order."""
    groups: list[tuple[int, int]] = []
    for t in hand:
        if groups and groups[-1][0] == t:
            groups[-1] = (t, groups[-1][1] + 1)
        else:
            groups.append((t, 1))
    return groups


def _picker(positions: Sequence[int]) -> Callable[[Hand], Hand]:
    """A function taking the given positions of a hand, as a tuple."""
    getter = itemgetter(*positions)
    if len(positions) == 1:
        return lambda hand: (getter(hand),)
    return getter


def _part_template(pattern: Sequence[tuple[int, int]]) -> list[tuple[Picker, int]]:
    """For a hand pattern: each proper part (whole groups of types) and its rest's weight."""
    starts = [sum(a for _, a in pattern[:g]) for g in range(len(pattern))]
    result = []
    for mask in range(1, (1 << len(pattern)) - 1):
        positions: list[int] = []
        rest = 1
        for g, (n, a) in enumerate(pattern):
            if mask >> g & 1:
                positions.extend(range(starts[g], starts[g] + a))
            else:
                rest *= comb(n, a)
        result.append((_picker(positions), rest))
    return result


def _removal_template(pattern: Sequence[tuple[int, int]], size: int) -> list[RemovalStep]:
    """For a removed hand's pattern: every part P on its types with a nonzero δ product.

    ``δ_t(p) = C(n_t − a_t, p) − C(n_t, p)``; a part takes ``p_t`` copies of
    each removed type (``p_t`` may exceed the removed ``a_t``: the part is a
    multiset on the removed types, not a piece of the removed hand).
    """
    starts = [sum(a for _, a in pattern[:g]) for g in range(len(pattern))]
    choices = []
    for n, a in pattern:
        if a > n:
            raise ValueError(f"cannot remove {a} copies of a type the composition has {n} of")
        options = [(0, 1)]
        for p in range(1, min(size, n) + 1):
            delta = comb(n - a, p) - comb(n, p)
            if delta:
                options.append((p, delta))
        choices.append(options)
    result = []
    for picks in product(*choices):
        total = sum(p for p, _ in picks)
        if not 0 < total <= size:
            continue
        positions: list[int] = []
        delta = 1
        for g, (p, d) in enumerate(picks):
            positions.extend([starts[g]] * p)
            delta *= d
        result.append((_picker(positions), total == size, delta))
    return result


S = TypeVar("S", bound=Hashable)


@paused_gc()
def sequential_distribution(
    counts: Sequence[int],
    size: int,
    number: int,
    classify: Callable[[Hand], C],
    fold: Callable[[S, C], S],
    start: S,
    symmetric: bool = False,
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

    ``symmetric``: the classifier sees only a hand's shape (how many copies
    of how many types, e.g. "a pair" at the rank level), so relabelling the
    types changes nothing, and compositions are merged by their sorted counts
    (ENGINE-NOTES: "symmetric bets collapse"). The shape rule is checked on
    every hand, not trusted; the fold's state must not name types either.

    Ways are exact with card removal, hands unordered inside and ordered
    between each other; the total is asserted to equal
    ``deal_count(counts, [size] * number)``.
    """
    if number < 1:
        raise ValueError("sequential_distribution needs at least one hand")
    if symmetric:
        _check_shape_classifier(len(counts), size, classify)
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
                if symmetric:
                    after.sort()
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

    first = tuple(sorted(counts)) if symmetric else tuple(counts)
    layer: dict[tuple[Composition, S], int] = {(first, start): 1}
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


def _check_shape_classifier(type_count: int, size: int, classify: Callable[[Hand], C]) -> None:
    """Fail loudly unless every hand of one shape (sorted multiplicities) has one class."""
    seen: dict[tuple[int, ...], C] = {}
    for hand in combinations_with_replacement(range(type_count), size):
        shape = tuple(sorted(Counter(hand).values()))
        cls = classify(hand)
        if seen.setdefault(shape, cls) != cls:
            raise AssertionError(f"classifier is not symmetric: {hand} differs from its shape")


_MISSING = object()
