"""Showdowns: every first hand's win/tie/lose ways against a second hand from what it left."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate, combinations_with_replacement, product
from math import comb
from operator import itemgetter
from typing import Any, NamedTuple

from odds.engine.counting import Hand, check_total, deal_count, paused_gc

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
