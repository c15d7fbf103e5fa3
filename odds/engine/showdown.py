"""Showdowns: every first hand's win/tie/lose ways against a second hand from what it left."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, combinations_with_replacement, product
from math import comb, prod
from operator import itemgetter
from typing import Any, Literal, NamedTuple

from odds.engine.counting import Hand, deal_count, hands, paused_gc

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
    ``cuts`` are optional keys (or :class:`Above` a key): for each, the ways the second
    hand's key is at least that cut (above it) are returned too (for splitting the second
    hand's wins into bands, e.g. categories). ``index`` may pass a :class:`StrengthIndex` already
    built for the same counts, size and strength (checked; the count itself is
    :func:`count_showdown`'s, which the index's method underlies).

    Rows are weakest first, hands of equal strength in hand order (the index's order).
    Asserted: each first hand's three counts add up to the second hands its
    removal leaves, the grand total is the number of two-hand deals, and the
    first hand wins exactly as often as it loses (ordered deals of two hands
    from one shoe are symmetric).
    """
    if index is not None and (index.counts != tuple(counts) or index.size != size):
        raise ValueError("showdown: the index was built for another composition or hand size")
    return count_showdown(counts, size, strength, cuts).rows()


@dataclass(frozen=True)
class ShowdownCount:
    """One composition's showdown as arrays, one entry per first hand, weakest first.

    ``ways`` deals the first hand from the composition; ``weaker``, ``equal``
    and ``stronger`` count the second hand's ways after its removal; ``rank``
    indexes ``keys`` (the distinct strength keys, weakest first); ``at_least[:, i]``
    counts the second hands whose key is at least the ``i``-th cut. Integers are
    ``int64`` when a bound proves no sum overflows, Python integers otherwise.
    """

    hands: list[Hand]
    keys: list[Any]
    rank: Any
    ways: Any
    weaker: Any
    equal: Any
    stronger: Any
    at_least: Any

    def rows(self) -> list[HandShowdown]:
        """The count as :class:`HandShowdown` rows (Python integers)."""
        columns = [
            c.tolist() for c in (self.ways, self.rank, self.weaker, self.equal, self.stronger)
        ]
        bands = [tuple(b) for b in self.at_least.tolist()] if self.at_least.shape[1] else None
        return [
            HandShowdown(hand, w, r, lo, eq, hi, bands[i] if bands else ())
            for i, (hand, w, r, lo, eq, hi) in enumerate(zip(self.hands, *columns, strict=True))
        ]


class Above(NamedTuple):
    """A cut just above ``key``: ``at_least`` of it counts the keys strictly greater (a cut
    given as a plain key counts the keys greater or equal)."""

    key: Any


@paused_gc()
def count_showdown(
    counts: Sequence[int],
    size: int,
    strength: Callable[[Hand], object],
    cuts: Sequence[object] = (),
) -> ShowdownCount:
    """:func:`showdown` as arrays: :class:`StrengthIndex`'s inclusion–exclusion, vectorised.

    For a first hand ``A`` and a threshold rank ``r``, the second hands below
    ``r`` after ``A``'s removal are the full shoe's, plus, for every multiset
    ``P`` on ``A``'s types (``p_t ≤ min(size, n_t)``), ``∏_t δ_t(p_t) · G_P(r)``
    with ``δ_t(p) = C(n_t − a_t, p) − C(n_t, p)`` and ``G_P(r)`` the weight of
    the rest of every hand below ``r`` whose restriction to ``P``'s types is
    ``P`` (see :class:`StrengthIndex`; ``P`` may be a whole hand, rest 1).
    Every ``G_P`` is one segment of a table sorted by (part, rank) with prefix
    sums, so each (hand, part) term is two ``searchsorted`` lookups, all hands
    at once; the cuts are the same lookups at the cut ranks. No Python loop
    runs per hand but the strength keys.
    """
    import numpy as np

    counts = tuple(counts)
    listed = hands(counts, size)
    keys_of: list[Any] = [strength(hand) for hand, _ in listed]
    by_key: Callable[[int], Any] = keys_of.__getitem__
    order = sorted(range(len(listed)), key=by_key)  # stable: hand order
    distinct: list[Any] = []
    ranks: list[int] = []
    for i in order:
        if not distinct or distinct[-1] != keys_of[i]:
            distinct.append(keys_of[i])
        ranks.append(len(distinct) - 1)
    sorted_hands = [listed[i][0] for i in order]
    left = sum(counts) - size
    after = comb(left, size) if left >= 0 else 0
    layout = _ShowdownLayout(counts, size, sorted_hands, ranks, len(distinct))
    dtype = layout.dtype
    weights = np.array([listed[i][1] for i in order], dtype=dtype)
    rank = np.array(ranks, dtype=np.int64)
    base = np.concatenate((np.zeros(1, dtype=dtype), np.cumsum(weights)))
    # Full-shoe ways below / up to each hand's rank (hands are sorted by rank).
    weaker = base[np.searchsorted(rank, rank, "left")] + layout.sums(None, "left")
    not_stronger = base[np.searchsorted(rank, rank, "right")] + layout.sums(None, "right")
    stronger = after - not_stronger
    equal = not_stronger - weaker
    cut_ranks = [
        bisect_right(distinct, cut.key) if isinstance(cut, Above) else bisect_left(distinct, cut)
        for cut in cuts
    ]
    at_least = np.zeros((len(sorted_hands), len(cut_ranks)), dtype=dtype)
    for k, c in enumerate(cut_ranks):
        below = base[np.searchsorted(rank, c, "left")] + layout.sums(c, "left")
        at_least[:, k] = after - below
    if len(rank) and (weaker.min() < 0 or equal.min() < 0 or stronger.min() < 0):
        raise AssertionError("showdown: negative ways")
    found = ShowdownCount(sorted_hands, distinct, rank, weights, weaker, equal, stronger, at_least)
    deals = int((weights * (weaker + equal + stronger)).sum())
    if deals != deal_count(counts, (size, size)):
        raise AssertionError(f"showdown: ways add up to {deals}, expected the deals")
    wins, losses = int((weights * weaker).sum()), int((weights * stronger).sum())
    if wins != losses:
        raise AssertionError(f"showdown: first hand wins {wins} ways but loses {losses}")
    return found


class _ShowdownLayout:
    """The (hand, part) terms of :func:`count_showdown` and the parts' sorted table.

    Parts and multisets of types are coded as integers, ``Σ_i (t_i + 1) · B^i`` over
    their types in increasing order (``B`` = types + 1), so finding a part is a
    ``searchsorted``. Built from the hands' shapes (how many copies of each type),
    never hand by hand.
    """

    def __init__(
        self,
        counts: tuple[int, ...],
        size: int,
        sorted_hands: list[Hand],
        ranks: list[int],
        levels: int,
    ) -> None:
        import numpy as np

        self.levels = levels
        self.base = len(counts) + 1
        if self.base ** max(size, 1) >= 2**62:
            raise ValueError("showdown: too many types for the part codes")
        n = len(sorted_hands)
        hand = np.array(sorted_hands, dtype=np.int64).reshape(n, size)
        rank = np.array(ranks, dtype=np.int64)
        count = np.array(counts, dtype=np.int64)
        binom = np.array([[comb(c, a) for a in range(size + 1)] for c in counts], dtype=object)
        if comb(sum(counts), size) < 2**62:  # every rest weight fits
            binom = binom.astype(np.int64)
        # Shapes: where each run of equal types starts (a boolean per position).
        starts = np.ones((n, size), dtype=bool)
        if size > 1:
            starts[:, 1:] = hand[:, 1:] != hand[:, :-1]
        shape_code = (starts.astype(np.int64) << np.arange(size)).sum(axis=1)
        part_codes, part_ranks, part_rests = [], [], []
        term_hand, term_code, term_delta = [], [], []
        largest_delta = 1
        for code in sorted(set(shape_code.tolist())):
            rows = np.nonzero(shape_code == code)[0]
            groups = _runs(code, size)  # (first position, copies) per run
            group_types = [hand[rows, first] for first, _ in groups]
            # Parts of these hands: every nonempty set of whole runs, the rest's weight.
            for mask in range(1, 1 << len(groups)):
                chosen = [g for g in range(len(groups)) if mask >> g & 1]
                part_codes.append(
                    self._code([(group_types[g], groups[g][1]) for g in chosen], len(rows))
                )
                rest = np.ones(len(rows), dtype=binom.dtype)
                for g in range(len(groups)):
                    if not mask >> g & 1:
                        rest = rest * binom[group_types[g], groups[g][1]]
                part_ranks.append(rank[rows])
                part_rests.append(rest)
            # Removal terms: per hand pattern (copies held, copies in the shoe per run).
            held = [copies for _, copies in groups]
            shoe_counts = np.stack([count[t] for t in group_types], axis=1)
            width = int(count.max()) + 1 if len(count) else 1
            pattern_code = shoe_counts @ (width ** np.arange(len(groups), dtype=np.int64))
            distinct, which = self._unique(pattern_code)
            patterns = [[code // width**g % width for g in range(len(groups))]
                        for code in distinct.tolist()]  # fmt: skip
            for p, pattern in enumerate(patterns):
                members = rows[which == p]
                member_types = [t[which == p] for t in group_types]
                options = []
                for total, copies in zip(pattern, held, strict=True):
                    choice = [(0, 1)]
                    for k in range(1, min(size, total) + 1):
                        delta = comb(total - copies, k) - comb(total, k)
                        if delta:
                            choice.append((k, delta))
                    options.append(choice)
                for picks in product(*options):
                    taken = sum(k for k, _ in picks)
                    if not 0 < taken <= size:
                        continue
                    delta = prod(d for _, d in picks)
                    largest_delta = max(largest_delta, abs(delta))
                    term_hand.append(members)
                    term_code.append(
                        self._code(
                            [(member_types[g], k) for g, (k, _) in enumerate(picks) if k],
                            len(members),
                        )
                    )
                    term_delta.append(np.full(len(members), delta, dtype=np.int64))
        # int64 when no sum can overflow: a hand's terms (at most (size + 1)^size of them,
        # each |δ| · C(N, size)), the parts' prefix sums, and the deals, C(N, size)².
        hands_ = comb(sum(counts), size)
        bound = max(
            hands_ * largest_delta * (size + 1) ** size,
            hands_ * n * (1 << size),
            hands_ * hands_,
        )
        self.dtype: Any = np.int64 if bound < 2**62 else object
        codes = np.concatenate(part_codes)
        unique, part_index = self._unique(codes)
        entry_rank = np.concatenate(part_ranks)
        entry_key = part_index * (levels + 1) + entry_rank
        entry_order = np.argsort(entry_key)  # equal keys (tied hands) in any order
        self.entry_key = entry_key[entry_order]
        rests = np.concatenate(part_rests)[entry_order].astype(self.dtype)
        self.prefix = np.concatenate((np.zeros(1, dtype=self.dtype), np.cumsum(rests)))
        # The terms whose part some hand has (others add nothing).
        wanted = np.concatenate(term_code)
        spot = np.searchsorted(unique, wanted).clip(max=max(len(unique) - 1, 0))
        present = unique[spot] == wanted if len(unique) else np.zeros(len(wanted), dtype=bool)
        self.term_part = spot[present]
        self.term_hand = np.concatenate(term_hand)[present]
        self.term_delta = np.concatenate(term_delta)[present].astype(self.dtype)
        first_entry = np.searchsorted(self.entry_key, np.arange(len(unique)) * (levels + 1))
        self.term_start = self.prefix[first_entry][self.term_part]
        self.hands = n
        # Lookups run fastest with sorted queries: the terms by (part, own rank) for the
        # hands' own ranks, by part for one threshold (each a permutation of the terms).
        self.rank = rank
        self.by_own_rank = np.argsort(self.term_part * (levels + 1) + rank[self.term_hand])
        self.by_part = np.argsort(self.term_part)

    @staticmethod
    def _unique(values: Any) -> tuple[Any, Any]:
        """``np.unique(values, return_inverse=True)`` of integers, by one sort (``np.unique``
        imports ``numpy.ma`` on first use: 20 ms of every process that counts a showdown)."""
        import numpy as np

        order = np.argsort(values, kind="stable")
        ordered = values[order]
        new = np.ones(len(ordered), dtype=bool)
        new[1:] = ordered[1:] != ordered[:-1]
        inverse = np.empty(len(values), dtype=np.intp)
        inverse[order] = np.cumsum(new) - 1
        return ordered[new], inverse

    def _code(self, runs: list[tuple[Any, int]], rows: int) -> Any:
        """The integer code of each row's multiset (runs of (types, copies), types increasing)."""
        import numpy as np

        code = np.zeros(rows, dtype=np.int64)
        power = 1
        for types_, copies in runs:
            for _ in range(copies):
                code += (types_ + 1) * power
                power *= self.base
        return code

    def sums(self, threshold: int | None, side: Literal["left", "right"]) -> Any:
        """Per hand: ``Σ δ · G_P(r)`` over its terms, ``r`` the hand's own rank (``None``)
        or one threshold rank for every hand (``side``: below ``r``, or up to it)."""
        import numpy as np

        if threshold is None:
            order, ranks = self.by_own_rank, self.rank[self.term_hand]
        else:
            order, ranks = self.by_part, threshold
        key = (self.term_part * (self.levels + 1) + ranks)[order]
        at = np.empty(len(order), dtype=np.intp)
        at[order] = np.searchsorted(self.entry_key, key, side)
        values = self.term_delta * (self.prefix[at] - self.term_start)
        result = np.zeros(self.hands, dtype=self.dtype)
        np.add.at(result, self.term_hand, values)
        return result


def _runs(code: int, size: int) -> list[tuple[int, int]]:
    """A shape code's runs: ``(first position, copies)`` (bit i set: a run starts at i)."""
    firsts = [i for i in range(size) if code >> i & 1]
    return [(f, (firsts[j + 1] if j + 1 < len(firsts) else size) - f) for j, f in enumerate(firsts)]


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
