"""The dealer's hand: draw sequences and exact outcome probabilities.

Rank indices: 0 = A, 1 = 2, …, 8 = 9, 9 = ten-value; a rank's value is index + 1
(the ace counts 1, or 11 when that does not bust: a *soft* total).

Why a table of draw sequences
-----------------------------
From a composition ``n`` (``N`` cards), an ordered sequence of dealer cards with
multiset ``m`` has probability ``∏ n_i^(m_i) / N^(|m|)`` (falling factorials),
which depends on ``m`` only. So for an up card the dealer is described once and
for all, independently of the shoe, by the integer table
``c[m][o]`` = number of orderings of ``m`` that are complete dealer hands with
outcome ``o`` (17–21, bust, blackjack), and::

    P_n(o) = Σ_m c[m][o] · ∏_i n_i^(m_i) / N^(|m|)

The player's analysis needs these probabilities for thousands of compositions
``n − R`` (``R`` = the player's cards). :func:`dealer_numerators` evaluates
them for all ``R`` at once by contracting the table one rank at a time along a
trie of the ``R`` (players that share their ten, nine, … counts share the
partial sums), in exact integer arithmetic, with the seven outcomes packed into
one Python integer (every term is non-negative, so the lanes never mix).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import accumulate, groupby
from operator import itemgetter, mul, sub
from typing import Any

#: Dealer outcomes, in lane order.
OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST, BLACKJACK = 5, 6
RANKS = 10
RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")

Counts = tuple[int, ...]


def falling(n: int, k: int) -> int:
    """``n (n−1) … (n−k+1)``; 0 when ``k > n ≥ 0``."""
    result = 1
    for i in range(k):
        result *= n - i
    return result


def falling_row(n: int, k: int) -> list[int]:
    """``[n^(0), n^(1), …, n^(k)]`` (falling factorials), built by one product each."""
    row = [1]
    for i in range(k):
        row.append(row[-1] * (n - i))
    return row


def total_of(hard: int, has_ace: bool) -> tuple[int, bool]:
    """Best total and softness of a hand whose aces count 1 in ``hard``."""
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def dealer_stands(total: int, soft: bool, hits_soft_17: bool) -> bool:
    """Stand on 17 or more (hit soft 17 when the rules say so)."""
    return total > 17 or (total == 17 and not (soft and hits_soft_17))


def outcome_index(total: int, cards: int) -> int:
    """Lane of a finished dealer hand (two-card 21 is a blackjack)."""
    if total > 21:
        return BUST
    if total == 21 and cards == 2:
        return BLACKJACK
    return total - 17


@cache
def dealer_table(up: int, hits_soft_17: bool) -> dict[Counts, tuple[int, ...]]:
    """``{m: orderings per outcome}`` for the cards the dealer draws after ``up``.

    Every ordered draw sequence is walked once (at most about 19,000 for an
    up card of 2), so this is shoe-independent and cached for the process.
    """
    table: dict[Counts, list[int]] = defaultdict(lambda: [0] * len(OUTCOMES))
    drawn = [0] * RANKS

    def walk(hard: int, has_ace: bool, cards: int) -> None:
        total, soft = total_of(hard, has_ace)
        if cards >= 2 and (total > 21 or dealer_stands(total, soft, hits_soft_17)):
            table[tuple(drawn)][outcome_index(total, cards)] += 1
            return
        for r in range(RANKS):
            drawn[r] += 1
            walk(hard + r + 1, has_ace or r == 0, cards + 1)
            drawn[r] -= 1

    walk(up + 1, up == 0, 1)
    return {m: tuple(lanes) for m, lanes in table.items()}


# ---------------------------------------------------------------------------
# Reference: the plain recursion over dealer draws, in Fractions.


def dealer_probabilities_reference(
    counts: Sequence[int], up: int, hits_soft_17: bool
) -> dict[str, Fraction]:
    """Dealer outcome probabilities by direct recursion over every draw.

    ``counts`` is the shoe after the up card (and any other removed cards)
    were dealt. Independent of :func:`dealer_table`; tests compare the two.
    """
    left = list(counts)
    result = [Fraction(0)] * len(OUTCOMES)

    def walk(hard: int, has_ace: bool, cards: int, p: Fraction) -> None:
        total = hard + 10 if has_ace and hard <= 11 else hard
        soft = has_ace and hard <= 11
        if cards >= 2:
            if total > 21:
                result[BUST] += p
                return
            if total == 21 and cards == 2:
                result[BLACKJACK] += p
                return
            if total >= 18 or (total == 17 and not (soft and hits_soft_17)):
                result[total - 17] += p
                return
        remaining = sum(left)
        if remaining == 0:
            raise ValueError("the shoe ran out during the dealer's hand")
        for r in range(RANKS):
            if left[r]:
                q = p * Fraction(left[r], remaining)
                left[r] -= 1
                walk(hard + r + 1, has_ace or r == 0, cards + 1, q)
                left[r] += 1

    walk(up + 1, up == 0, 1, Fraction(1))
    return dict(zip(OUTCOMES, result, strict=True))


# ---------------------------------------------------------------------------
# Fast path: numerators for many compositions at once.

_ORDER = (9, 8, 7, 6, 5, 4, 3, 2, 1)  # contraction order; aces and length last


@dataclass(frozen=True)
class DealerPlan:
    """A dealer table laid out for contraction over one shoe (after the up card).

    ``lane_bits`` separates the packed outcome counts; ``kmax`` is the longest
    possible dealer draw from this shoe; numerators for a player's removed
    cards ``R`` (``s`` cards) are over the denominator ``(N−s)^(kmax)``.
    ``levels`` hold, per contracted rank, the entries' counts of that rank and
    the bounds of the groups that merge; ``final`` the (aces, cards drawn) of
    what is left.
    """

    counts: Counts
    kmax: int
    lane_bits: int
    init: tuple[int, ...]
    levels: tuple[tuple[int, tuple[int, ...], Any, Any], ...]
    final: tuple[tuple[int, int], ...]
    #: Factor rows and last-step weights, kept for every later call on this plan.
    cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> int:
        return sum(self.counts)

    def denominator(self, s: int) -> int:
        """Denominator of the numerators for ``s`` removed player cards."""
        return falling(self.size - s, self.kmax)

    def lane_mask(self, lanes: Iterable[int]) -> int:
        """All-ones in the given lanes: ``(packed & mask) % (2^bits − 1)`` sums those lanes."""
        ones = (1 << self.lane_bits) - 1
        return sum(ones << (self.lane_bits * i) for i in lanes)

    def unpack(self, packed: int) -> tuple[int, ...]:
        mask = (1 << self.lane_bits) - 1
        return tuple((packed >> (self.lane_bits * i)) & mask for i in range(len(OUTCOMES)))


def _getter(indices: Sequence[int]):
    """``f(seq)`` → tuple of ``seq[i]`` for the indices, at C speed (even for one index)."""
    if len(indices) == 1:
        (only,) = indices
        return lambda seq: (seq[only],)
    return itemgetter(*indices)


def plan(counts: Counts, up: int, hits_soft_17: bool) -> DealerPlan:
    """Lay out the dealer table for the shoe ``counts`` (after the up card).

    Entries are sorted with the first rank to contract least significant, so
    the entries that merge when a rank is summed out are adjacent at every level.
    """
    table = {
        m: lanes
        for m, lanes in dealer_table(up, hits_soft_17).items()
        if all(m[i] <= counts[i] for i in range(RANKS))
    }
    kmax = max(sum(m) for m in table)
    size = sum(counts)
    # Every partial sum is at most Σ_k (sequences of k cards, weighted) ≤ (kmax+1)·N^kmax.
    lane_bits = ((kmax + 1) * size**kmax).bit_length() + 1
    entries: dict[tuple[int, ...], int] = {}
    for m, lanes in table.items():
        packed = 0
        for i, c in enumerate(lanes):
            packed |= c << (lane_bits * i)
        key = (*(m[d] for d in _ORDER), m[0], sum(m))
        entries[key] = entries.get(key, 0) + packed
    keys = sorted(entries, key=lambda k: k[::-1])
    init = tuple(entries[k] for k in keys)
    levels = []
    for d in _ORDER:
        starts: list[int] = []
        rests: list[tuple[int, ...]] = []
        for i, key in enumerate(keys):
            if not rests or rests[-1] != key[1:]:
                rests.append(key[1:])
                starts.append(i)
        ends = [*starts[1:], len(keys)]
        levels.append((d, tuple(k[0] for k in keys), _getter(ends), _getter(starts)))
        keys = rests
    final = tuple((aces, length) for aces, length in keys)
    return DealerPlan(counts, kmax, lane_bits, init, tuple(levels), final)


class RemovalTree:
    """Removed multisets as a prefix tree in contraction order (shoe-independent).

    Built once per set and shared by every up card and shoe: a node is a
    tuple of ``(count of the level's rank, child)``; a leaf lists
    ``(multiset, aces, size)``.
    """

    def __init__(self, removed: Iterable[Counts]) -> None:
        items = sorted(set(removed), key=itemgetter(*_ORDER, 0))
        self.items = tuple(items)
        self.root = self._build(items, 0)

    def _build(self, items: list[Counts], level: int) -> tuple:
        if level == len(_ORDER):
            return tuple((r, r[0], sum(r)) for r in items)
        d = _ORDER[level]
        return tuple(
            (count, self._build(list(group), level + 1))
            for count, group in groupby(items, key=itemgetter(d))
        )


def dealer_numerators(dp: DealerPlan, removed: Iterable[Counts] | RemovalTree) -> dict[Counts, int]:
    """Packed outcome numerators for the shoe less each removed multiset.

    For each ``R`` the seven lanes (see :meth:`DealerPlan.unpack`) add up to
    ``dp.denominator(sum(R))`` exactly — asserted by the callers. Multisets the
    shoe cannot hold are skipped.
    """
    tree = removed if isinstance(removed, RemovalTree) else RemovalTree(removed)
    n, size, kmax = dp.counts, dp.size, dp.kmax
    final = dp.final
    levels = dp.levels
    last = len(levels)
    rows: list[dict[int, list[int]]] = dp.cache.setdefault("rows", [{} for _ in levels])
    # Last step: aces and length together, one weight per (aces left, cards removed).
    weights: dict[tuple[int, int], list[int]] = dp.cache.setdefault("weights", {})
    out: dict[Counts, int] = {}

    def contract(level: int, table: list[int] | tuple[int, ...], node: tuple) -> None:
        if level == last:
            for r, aces, s in node:
                left = n[0] - aces
                if left < 0:
                    continue
                w = weights.get((left, s))
                if w is None:
                    aces_row = falling_row(left, kmax)
                    w = weights[left, s] = [
                        aces_row[a] * falling(size - s - k, kmax - k) for a, k in final
                    ]
                out[r] = sum(map(mul, w, table))
            return
        d, firsts, ends, starts = levels[level]
        level_rows = rows[level]
        for count, child in node:
            left = n[d] - count
            if left < 0:
                continue
            factors = level_rows.get(left)
            if factors is None:
                row = falling_row(left, kmax)
                factors = level_rows[left] = [row[j] for j in firsts]
            prefix = list(accumulate(map(mul, factors, table), initial=0))
            contract(level + 1, list(map(sub, ends(prefix), starts(prefix))), child)

    contract(0, dp.init, tree.root)
    return out


def dealer_probabilities(
    counts: Counts, up: int, hits_soft_17: bool, removed: Counts = (0,) * RANKS
) -> dict[str, Fraction]:
    """Exact dealer outcome probabilities from ``counts`` less ``removed`` (fast path)."""
    dp = plan(tuple(counts), up, hits_soft_17)
    packed = dealer_numerators(dp, [tuple(removed)])[tuple(removed)]
    lanes = dp.unpack(packed)
    denominator = dp.denominator(sum(removed))
    if sum(lanes) != denominator:
        raise AssertionError("dealer probabilities do not add up to 1")
    return {o: Fraction(c, denominator) for o, c in zip(OUTCOMES, lanes, strict=True)}
