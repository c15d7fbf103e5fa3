"""The dealer's hand: totals, draw sequences and the packed outcome lanes.

What every module asks of a hand's total and of the dealer's draw: the table of draw
sequences per up card, the outcome lanes numerators are packed into, and one shoe's
scale (:class:`DealerPlan`). The one call for the dealer's outcomes, and the kernel
that values thousands of removals at once, are built on it
(:func:`.dealer_batches.dealer_outcomes`).

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
``n − R`` (``R`` = the player's cards): :mod:`.dealer_batches` evaluates them for
all ``R`` at once, in exact integer arithmetic, with the seven outcomes packed into
one Python integer (:func:`pack_lanes`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter
from typing import Any, TypeAlias

from odds.core.caching import cached
from odds.engine.polynomial import falling
from odds.games.blackjack.kept_layouts import kept_layout

#: Dealer outcomes (the order of :func:`dealer_table`'s counts and of :meth:`DealerPlan.unpack`).
OUTCOMES: tuple[str, ...] = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST, BLACKJACK = 5, 6
#: Packed numerators hold *cumulative* lanes: lane ``j`` counts the outcomes
#: ``CUMULATIVE[: j + 1]`` (bust, then 17 … 21, then blackjack). A stand value is then
#: a sum of two lanes less a third, whatever the total (:func:`stand_lanes`), and the
#: last lane is the denominator.
CUMULATIVE = (BUST, 0, 1, 2, 3, 4, BLACKJACK)


def pack_lanes(counts: Sequence[int], bits: int) -> int:
    """Outcome counts (in :data:`OUTCOMES` order) as cumulative lanes of ``bits`` each.

    Lanes are added, not or-ed, so packing is linear: the packed sum of several count
    tuples is the sum of their packings, whatever the widths (:mod:`.dealer_batches` relies on it).
    """
    packed = running = 0
    for j, o in enumerate(CUMULATIVE):
        running += counts[o]
        packed += running << (bits * j)
    return packed


def stand_lanes(total: int, peek: bool) -> tuple[int, int, int]:
    """Lanes ``(a, b, c)`` with ``stand = C_a + C_b − C_c`` (wins less losses, per unit).

    Standing on ``t``: wins are bust and the totals below ``t`` (``C_{t−17}``, or
    ``C_0`` below 17), pushes the lane of ``t`` itself, and losses the rest, the
    dealer's blackjack included unless a peek voided the round (then the rest stops
    at 21, ``C_5``): ``W − L = 2W + pushes − (C_5 or C_6)``.
    """
    last = 5 if peek else 6
    if total <= 16:
        return 0, 0, last
    return total - 17, total - 16, last


def stand_weights(total: int, peek: bool) -> tuple[int, ...]:
    """A finished player hand's result per unit staked against each dealer outcome
    (:data:`OUTCOMES` order): a standing ``total`` wins, pushes or loses by the dealer's
    total and wins on a bust; a busted hand (``total`` above 21) loses to all of them.
    A dealer blackjack takes the stake, unless a peek voided the round (0)."""
    if total > 21:
        lanes = [-1] * 6
    else:
        lanes = [-1 if total < d else 0 if total == d else 1 for d in range(17, 22)] + [1]
    return (*lanes, 0 if peek else -1)


RANKS = 10
RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")

Counts = tuple[int, ...]

#: Chance of each rank (A, 2–9, ten-value) dealt with replacement from standard decks.
P_RANK: tuple[Fraction, ...] = tuple(Fraction(4 if r == 9 else 1, 13) for r in range(RANKS))


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


@cached
def dealer_table(up: int, hits_soft_17: bool) -> dict[Counts, tuple[int, ...]]:
    """``{m: orderings per outcome}`` for the cards the dealer draws after ``up``.

    Every ordered draw sequence is walked once (at most about 19,000 for an
    up card of 2), so this is shoe-independent: cached for the process, and the
    ten up cards' tables kept on disk (:mod:`.kept_layouts`).
    """
    return _dealer_tables(hits_soft_17)[up]


@cached
def _dealer_tables(hits_soft_17: bool) -> tuple[dict[Counts, tuple[int, ...]], ...]:
    return kept_layout(
        f"dealer-tables-{'h17' if hits_soft_17 else 's17'}",
        lambda: tuple(_walk_table(up, hits_soft_17) for up in range(RANKS)),
        from_data=_per_up_card(dict),
    )


def _walk_table(up: int, hits_soft_17: bool) -> dict[Counts, tuple[int, ...]]:
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
# One shoe's numerators: the scale and the lanes (computed by :mod:`.dealer_batches`).

#: ``f(seq)`` → the entries of ``seq`` at fixed positions, as a tuple (:func:`getter`).
Gather: TypeAlias = Callable[[Sequence[int]], tuple[int, ...]]


@dataclass(frozen=True)
class DealerPlan:
    """A dealer table's numerators over one shoe (after the up card): scale and lanes.

    ``lane_bits`` separates the packed outcome counts; ``kmax`` is at least the
    longest possible dealer draw from this shoe (several up cards may share one);
    numerators for a player's removed cards ``R`` (``s`` cards) are over the
    denominator ``(N−s)^(kmax)`` (:func:`.dealer_batches.up_card_numerators`).
    """

    counts: Counts
    up: int
    hits_soft_17: bool
    kmax: int
    lane_bits: int

    @property
    def size(self) -> int:
        return sum(self.counts)

    def denominator(self, s: int) -> int:
        """Denominator of the numerators for ``s`` removed player cards."""
        return falling(self.size - s, self.kmax)

    def unpack(self, packed: int) -> tuple[int, ...]:
        """The seven outcome counts (in :data:`OUTCOMES` order) of cumulative lanes."""
        mask = (1 << self.lane_bits) - 1
        cumulative = [(packed >> (self.lane_bits * j)) & mask for j in range(len(OUTCOMES))]
        counts = [0] * len(OUTCOMES)
        for j, o in enumerate(CUMULATIVE):
            counts[o] = cumulative[j] - (cumulative[j - 1] if j else 0)
        return tuple(counts)


def getter(indices: Sequence[int]) -> Gather:
    """``f(seq)`` → the ``seq[i]`` for the indices, at C speed (even for one index)."""
    if len(indices) == 1:  # a one-entry slice: a sequence as well, and picklable (kept layouts)
        (only,) = indices
        return itemgetter(slice(only, only + 1))
    return itemgetter(*indices)


def lane_width(size: int, kmax: int) -> int:
    """Bits per lane: every final lane is at most the denominator with no card removed,
    ``N^(kmax)``. (Partial sums are at most their final sum; the linear combinations of
    :mod:`.dealer_batches` only need their results to fit.)"""
    return falling(size, kmax).bit_length()


def longest_draw(counts: Counts, up: int, hits_soft_17: bool) -> int:
    """The most cards the dealer can draw after ``up`` from the shoe ``counts``."""
    caps, longest = _limits(hits_soft_17)[up]
    kept = tuple(min(c, cap) for c, cap in zip(counts, caps, strict=True))
    return longest if kept == caps else _longest(up, hits_soft_17, kept)


@cached
def _longest(up: int, hits_soft_17: bool, counts: Counts) -> int:
    return max(
        sum(m)
        for m in dealer_table(up, hits_soft_17)
        if all(m[i] <= counts[i] for i in range(RANKS))
    )


def plan(counts: Counts, up: int, hits_soft_17: bool, kmax: int | None = None) -> DealerPlan:
    """The dealer's numerators for the shoe ``counts`` (after the up card), over
    ``(N−s)^(kmax)``: ``kmax`` defaults to the longest draw (a larger one is shared
    by several up cards)."""
    longest = longest_draw(counts, up, hits_soft_17)
    if kmax is None:
        kmax = longest
    elif kmax < longest:
        raise ValueError(f"kmax {kmax} is below the longest dealer draw {longest}")
    lane_bits = lane_width(sum(counts), kmax)
    return DealerPlan(tuple(counts), up, hits_soft_17, kmax, lane_bits)


@cached
def _limits(hits_soft_17: bool) -> tuple[tuple[Counts, int], ...]:
    """Per up card: the most cards of each rank a dealer hand holds, and the longest draw
    from a shoe holding at least that many (every shoe of a few decks or more). Kept on
    disk with the tables (:mod:`.kept_layouts`): reading them is the slow part."""

    def build() -> tuple[tuple[Counts, int], ...]:
        limits = []
        for up in range(RANKS):
            table = dealer_table(up, hits_soft_17)
            caps = tuple(max(m[i] for m in table) for i in range(RANKS))
            limits.append((caps, _longest(up, hits_soft_17, caps)))
        return tuple(limits)

    return kept_layout(
        f"dealer-limits-{'h17' if hits_soft_17 else 's17'}", build, from_data=_per_up_card(tuple)
    )


def _per_up_card(kind: type) -> Callable[[Any], Any]:
    """A kept value's shape check: a tuple of one ``kind`` per up card."""

    def check(data: Any) -> Any:
        if type(data) is not tuple or len(data) != RANKS or {type(x) for x in data} != {kind}:
            raise ValueError(f"not one {kind.__name__} per up card")
        return data

    return check
