"""Showdowns: every first hand's win/tie/lose ways against a second hand from what it left."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import product
from math import comb, prod
from typing import Any, Literal, NamedTuple

from odds.engine.counting import Hand, deal_count, hands, paused_gc

# ---------------------------------------------------------------------------
# Showdowns: one hand against a second hand dealt from what the first left


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
    """Every first hand's exact win/tie/lose ways against a second hand from what it left.

    A showdown asks, for a first hand ``A``, in how many ways a second hand ``B`` dealt
    from what ``A`` left is weaker, equal or stronger. Looping over all pairs is out of
    reach for three-card hands (one deck: 22,100 × 18,424), so the count is assembled from
    sorted prefix sums. Hands are sorted by ``strength`` (any totally ordered key; equal
    keys tie) and numbered by dense rank. Removing ``A`` changes a hand's weight only
    through the types ``A`` uses: writing ``C(n_t − a_t, h) = C(n_t, h) + δ_t(h)`` and
    expanding the product, the second hands below rank ``r`` after ``A``'s removal are
    the full shoe's, plus, for every multiset ``P`` on ``A``'s types
    (``p_t ≤ min(size, n_t)``, ``P ≠ ∅``), ``∏_t δ_t(p_t) · G_P(r)``, where ``G_P(r)`` is
    the weight of the rest of every hand below ``r`` whose restriction to ``P``'s types
    is ``P`` (``P`` may be a whole hand, rest 1). ``G_P`` does not depend on ``A``: this
    is inclusion–exclusion over the types ``A`` uses, the signs and multiplicities
    carried by the ``δ`` factors (one deck: − the hands holding one of A's cards, + those
    holding two, …). Every ``G_P`` is one segment of a table sorted by (part, rank) with
    prefix sums, so each (hand, part) term is two ``searchsorted`` lookups, all hands at
    once; the ``cuts`` (keys, or :class:`Above` a key) are the same lookups at the cut
    ranks. No Python loop runs per hand but the strength keys. Generic over types and
    hand size: nothing here knows about cards or suits, so no symmetry is assumed (Goa
    Gae's tie-breaks compare suits).

    Asserted: each first hand's three counts add up to the second hands its removal
    leaves, the grand total is the number of two-hand deals, and the first hand wins
    exactly as often as it loses (ordered deals of two hands from one shoe are symmetric).
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
