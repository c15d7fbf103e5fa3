"""The dealer's hand: draw sequences and exact outcome probabilities.

One call answers every question about the dealer's hand: :func:`dealer_outcomes`
(the shoe, the up card, the cards known to be out → a count per outcome over one
denominator, or an infinite shoe). The rest of this module is what is behind it,
public only to the kernel that batches thousands of removals at once
(:mod:`.shoes`, :mod:`.dealer_batches`, :mod:`.moments`).

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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby
from operator import add, itemgetter, mul
from typing import Any, TypeAlias, TypedDict, cast

from odds.core.caching import cached
from odds.engine.polynomial import falling, falling_row
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
    tuples is the sum of their packings, whatever the widths (:mod:`.moments` relies on it).
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
# Fast path: numerators for many compositions at once.

_ORDER = (9, 8, 7, 6, 5, 4, 3, 2, 1)  # contraction order; aces and length last

#: ``f(seq)`` → the entries of ``seq`` at fixed positions, as a tuple (:func:`getter`).
Gather: TypeAlias = Callable[[Sequence[int]], tuple[int, ...]]


@dataclass(frozen=True)
class _Level:
    """How one rank is summed out of a table (see :func:`plan`).

    Entries whose count ``μ`` of the rank is 0 carry over unchanged (their
    factor is 1); the others are multiplied by ``(n − R)^(μ)``. Each output
    entry (a group: the entries that agree on everything still to contract)
    is the sum of its *terms*; groups are ordered by how many terms they have,
    so the ``t``-th terms of the groups that have one are a prefix.
    """

    rank: int
    mus: tuple[int, ...]  # μ ≥ 1 of each product, in the order ``take`` gathers them
    take: Gather | None  # table → the entries to multiply (None: no entry has the rank)
    first: Gather  # table + products → each group's first term
    more: tuple[tuple[int, Gather], ...]  # (groups with ≥ t terms, their t-th terms), t = 2, 3, …


#: The contraction's shape (:func:`_layout`): the dealer hands of each initial entry, the
#: levels, and the final entries' (aces, length) keys.
_Layout: TypeAlias = tuple[
    tuple[tuple[Counts, ...], ...], tuple[_Level, ...], tuple[tuple[int, int], ...]
]
#: :meth:`DealerPlan.contraction`: the initial packed table, the levels, the final keys.
_Contraction: TypeAlias = tuple[tuple[int, ...], tuple[_Level, ...], tuple[tuple[int, int], ...]]


class _PlanCache(TypedDict, total=False):
    """What a :class:`DealerPlan` keeps between calls of :func:`dealer_numerators`."""

    contraction: _Contraction
    rows: list[dict[int, list[int]]]  # per level: falling-factorial factors by count left
    weights: dict[tuple[int, int], list[int]]  # last step: by (aces left, cards removed)


@dataclass(frozen=True)
class DealerPlan:
    """A dealer table's numerators over one shoe (after the up card): scale and lanes.

    ``lane_bits`` separates the packed outcome counts; ``kmax`` is at least the
    longest possible dealer draw from this shoe (several up cards may share one);
    numerators for a player's removed cards ``R`` (``s`` cards) are over the
    denominator ``(N−s)^(kmax)``. The table laid out for :func:`dealer_numerators`
    (levels that sum out one rank each, :class:`_Level`) is built on first use.
    """

    counts: Counts
    up: int
    hits_soft_17: bool
    kmax: int
    lane_bits: int
    #: The contraction layout, factor rows and last-step weights, kept for later calls.
    cache: _PlanCache = field(default_factory=_PlanCache, compare=False, repr=False)

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

    def contraction(self) -> _Contraction:
        """``(initial table, levels, final (aces, length) keys)`` for :func:`dealer_numerators`."""
        found = self.cache.get("contraction")
        if found is None:
            hands, levels, final = _layout(self.up, self.hits_soft_17, self.counts)
            table = dealer_table(self.up, self.hits_soft_17)
            bits = self.lane_bits
            init = tuple(sum(pack_lanes(table[m], bits) for m in group) for group in hands)
            found = self.cache["contraction"] = (init, levels, final)
        return found


def getter(indices: Sequence[int]) -> Gather:
    """``f(seq)`` → the ``seq[i]`` for the indices, at C speed (even for one index)."""
    if len(indices) == 1:  # a one-entry slice: a sequence as well, and picklable (kept layouts)
        (only,) = indices
        return itemgetter(slice(only, only + 1))
    return itemgetter(*indices)


def _level(rank: int, keys: list[tuple[int, ...]]) -> tuple[_Level, list[tuple[int, ...]]]:
    """Sum the first component (the count of ``rank``) out of ``keys``.

    Returns the level and the keys of its output, in output order.
    """
    products = [i for i, key in enumerate(keys) if key[0]]
    position = {i: len(keys) + j for j, i in enumerate(products)}
    groups: dict[tuple[int, ...], list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key[1:], []).append(position.get(i, i))
    order = sorted(groups, key=lambda g: -len(groups[g]))  # stable: ties keep first-seen order
    terms = [groups[g] for g in order]
    more = []
    for t in range(1, len(terms[0])):
        having = [members[t] for members in terms if len(members) > t]
        more.append((len(having), getter(having)))
    level = _Level(
        rank,
        tuple(keys[i][0] for i in products),
        getter(products) if products else None,
        getter([members[0] for members in terms]),
        tuple(more),
    )
    return level, order


def lane_width(size: int, kmax: int) -> int:
    """Bits per lane: every final lane is at most the denominator with no card removed,
    ``N^(kmax)``. (Partial sums of the contraction are at most their final sum; the
    linear combinations of :mod:`.removal` only need their results to fit.)"""
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


def _layout(up: int, hits_soft_17: bool, counts: Counts) -> _Layout:
    """The contraction's shape for the hands the shoe can hold (cached by what it keeps)."""
    kept = tuple(min(c, cap) for c, cap in zip(counts, _caps(up, hits_soft_17), strict=True))
    return _layout_for(up, hits_soft_17, kept)


def _caps(up: int, hits_soft_17: bool) -> tuple[int, ...]:
    return _limits(hits_soft_17)[up][0]


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


@cached
def _layout_for(up: int, hits_soft_17: bool, counts: Counts) -> _Layout:
    """An entry's key lists its counts of the ranks in contraction order, then its
    aces and its length; each level sums out the leading count."""
    groups: dict[tuple[int, ...], list[Counts]] = {}
    for m in dealer_table(up, hits_soft_17):
        if all(m[i] <= counts[i] for i in range(RANKS)):
            groups.setdefault((*(m[d] for d in _ORDER), m[0], sum(m)), []).append(m)
    keys = sorted(groups, key=lambda k: k[::-1])
    hands = tuple(tuple(groups[k]) for k in keys)
    levels = []
    for d in _ORDER:
        level, keys = _level(d, keys)
        levels.append(level)
    final = tuple((aces, length) for aces, length in keys)
    return hands, tuple(levels), final


#: A :class:`RemovalTree` leaf: ``(multiset, aces, size)`` of each removed multiset.
_Leaf: TypeAlias = tuple[tuple[Counts, int, int], ...]
#: A node: ``(count of the level's rank, child)``; the children of the last level are leaves.
_Node: TypeAlias = tuple[tuple[int, "_Node | _Leaf"], ...]


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

    def _build(self, items: list[Counts], level: int) -> _Node | _Leaf:
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
    init, levels, final = dp.contraction()
    last = len(levels)
    rows: list[dict[int, list[int]]] = dp.cache.setdefault("rows", [{} for _ in levels])
    # Last step: aces and length together, one weight per (aces left, cards removed).
    weights: dict[tuple[int, int], list[int]] = dp.cache.setdefault("weights", {})
    out: dict[Counts, int] = {}

    def contract(level: int, table: list[int], node: _Node | _Leaf) -> None:
        if level == last:  # the tree's depth is the levels': a leaf
            for r, aces, s in cast(_Leaf, node):
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
        step = levels[level]
        level_rows = rows[level]
        take, first, more = step.take, step.first, step.more
        for count, child in cast(_Node, node):
            left = n[step.rank] - count
            if left < 0:
                continue
            if take is None:
                terms = table
            else:
                factors = level_rows.get(left)
                if factors is None:
                    row = falling_row(left, kmax)
                    factors = level_rows[left] = [row[mu] for mu in step.mus]
                terms = table + list(map(mul, factors, take(table)))
            summed = list(first(terms))
            for having, nth in more:
                summed[:having] = map(add, summed[:having], nth(terms))
            contract(level + 1, summed, child)

    contract(0, list(init), tree.root)
    return out


@dataclass(frozen=True)
class DealerOutcomes:
    """The dealer's final hands from one shoe: a count per outcome over one denominator.

    ``numerators`` are in :data:`OUTCOMES` order and add up to ``denominator`` exactly
    (checked when made), so callers sum and compare integers and divide only to print.
    """

    numerators: tuple[int, ...]
    denominator: int

    def __post_init__(self) -> None:
        if sum(self.numerators) != self.denominator:
            raise AssertionError("dealer outcomes do not add up to the denominator")

    @property
    def probabilities(self) -> dict[str, Fraction]:
        """Each outcome's exact probability, by name (``"17"`` … ``"bust"``, ``"blackjack"``)."""
        pairs = zip(OUTCOMES, self.numerators, strict=True)
        return {o: Fraction(n, self.denominator) for o, n in pairs}


def dealer_outcomes(
    counts: Counts | float, up: int, hits_soft_17: bool, removed: Counts = (0,) * RANKS
) -> DealerOutcomes:
    """The dealer's outcomes with ``up`` showing: the one call for a dealer's hand.

    ``counts`` is the shoe after the up card was dealt (ten rank counts), ``removed``
    the other cards known to be out of it (the player's); ``math.inf`` deals with
    replacement (every rank at its one-deck chance, so ``removed`` does not matter).
    Behind it: the draw-sequence table contracted over the shoe (:func:`plan`,
    :func:`dealer_numerators`), the path the kernel batches thousands of removals
    through; for the infinite shoe the same table weighted by the ranks' chances.
    """
    if isinstance(counts, float | int):
        if counts != float("inf"):
            raise ValueError(f"a shoe is ten rank counts or math.inf, not {counts!r}")
        return _infinite_outcomes(up, hits_soft_17)
    dp = plan(tuple(counts), up, hits_soft_17)
    packed = dealer_numerators(dp, [tuple(removed)])[tuple(removed)]
    return DealerOutcomes(dp.unpack(packed), dp.denominator(sum(removed)))


#: Chance of each rank (A, 2–9, ten-value) dealt with replacement from standard decks.
P_RANK: tuple[Fraction, ...] = tuple(Fraction(4 if r == 9 else 1, 13) for r in range(RANKS))


@cached
def _infinite_outcomes(up: int, hits_soft_17: bool) -> DealerOutcomes:
    """Dealing with replacement a draw sequence ``m`` has chance ``∏ w_r^(m_r) / 13^|m|``
    (``w`` = 1 per rank, 4 for the ten-values): :func:`dealer_table` over ``13^longest``."""
    table = dealer_table(up, hits_soft_17)
    longest = max(map(sum, table))
    found = [0] * len(OUTCOMES)
    for m, lanes in table.items():
        weight = 4 ** m[9] * 13 ** (longest - sum(m))
        for o, c in enumerate(lanes):
            found[o] += c * weight
    return DealerOutcomes(tuple(found), 13**longest)
