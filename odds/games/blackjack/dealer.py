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
from dataclasses import dataclass
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
    """

    counts: Counts
    kmax: int
    lane_bits: int
    init: tuple[int, ...]
    levels: tuple[tuple[int, Any, Any, Any], ...]
    final: tuple[tuple[int, int], ...]

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
    """Lay out the dealer table for the shoe ``counts`` (after the up card)."""
    table = {
        m: lanes
        for m, lanes in dealer_table(up, hits_soft_17).items()
        if all(m[i] <= counts[i] for i in range(RANKS))
    }
    kmax = max(sum(m) for m in table)
    size = sum(counts)
    most = max(max(lanes) for lanes in table.values())
    lane_bits = (falling(size, kmax) * most * len(table)).bit_length() + 2
    entries: dict[tuple[int, ...], int] = {}
    for m, lanes in table.items():
        packed = 0
        for i, c in enumerate(lanes):
            packed |= c << (lane_bits * i)
        key = (*(m[d] for d in _ORDER), m[0], sum(m))
        entries[key] = entries.get(key, 0) + packed
    keys = sorted(entries, key=lambda k: (k[1:], k[0]))
    init = tuple(entries[k] for k in keys)
    levels = []
    for d in _ORDER:
        firsts = tuple(k[0] for k in keys)
        bounds: list[tuple[int, int]] = []
        rests = []
        for rest, group in groupby(range(len(keys)), key=lambda i: keys[i][1:]):
            members = list(group)
            bounds.append((members[0], members[-1] + 1))
            rests.append(rest)
        perm = sorted(range(len(rests)), key=lambda i: (rests[i][1:], rests[i][0]))
        # C-level gathers: the factor per entry, and bucket sums (in the next
        # level's order) as differences of prefix sums.
        levels.append(
            (
                d,
                _getter(firsts),
                _getter([bounds[i][1] for i in perm]),
                _getter([bounds[i][0] for i in perm]),
            )
        )
        keys = [rests[i] for i in perm]
    return DealerPlan(counts, kmax, lane_bits, init, tuple(levels), tuple(keys))


def dealer_numerators(dp: DealerPlan, removed: Iterable[Counts]) -> dict[Counts, int]:
    """Packed outcome numerators for the shoe less each removed multiset.

    For each ``R`` the seven lanes (see :meth:`DealerPlan.unpack`) add up to
    ``dp.denominator(sum(R))`` exactly — asserted by the caller's tests and by
    :func:`dealer_probabilities`.
    """
    n, size, kmax = dp.counts, dp.size, dp.kmax
    rows: dict[int, list[int]] = {}

    def row(available: int) -> list[int]:
        found = rows.get(available)
        if found is None:
            found = rows[available] = [falling(available, i) for i in range(kmax + 1)]
        return found

    # The last table is keyed by (aces drawn, cards drawn): contract the aces
    # (small factors) into per-length sums, then the length factors.
    final_keys = dp.final
    lengths = sorted({k for _, k in final_keys})
    order = sorted(range(len(final_keys)), key=lambda i: (final_keys[i][1], final_keys[i][0]))
    ace_counts = _getter([final_keys[i][0] for i in order])
    reorder = _getter(order)
    ends, starts = [], []
    for k in lengths:
        members = [j for j, i in enumerate(order) if final_keys[i][1] == k]
        starts.append(members[0])
        ends.append(members[-1] + 1)
    end_of, start_of = _getter(ends), _getter(starts)
    length_vectors: dict[int, list[int]] = {}
    out: dict[Counts, int] = {}
    ordered = sorted(set(removed), key=lambda r: tuple(r[d] for d in _ORDER))

    def contract(level: int, table: list[int], group: list[Counts]) -> None:
        if level == len(_ORDER):
            table = reorder(table)
            for r in group:
                s = sum(r)
                vector = length_vectors.get(s)
                if vector is None:
                    vector = length_vectors[s] = [falling(size - s - k, kmax - k) for k in lengths]
                prefix = list(accumulate(map(mul, ace_counts(row(n[0] - r[0])), table), initial=0))
                out[r] = sum(map(mul, vector, map(sub, end_of(prefix), start_of(prefix))))
            return
        d, factors, ends, starts = dp.levels[level]
        for value, members in groupby(group, key=itemgetter(d)):
            prefix = list(accumulate(map(mul, factors(row(n[d] - value)), table), initial=0))
            contract(level + 1, list(map(sub, ends(prefix), starts(prefix))), list(members))

    contract(0, list(dp.init), ordered)
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
