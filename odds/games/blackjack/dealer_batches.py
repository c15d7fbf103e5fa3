"""The dealer's outcomes for one shoe, and for thousands of removed multisets at once.

One call answers every question about the dealer's hand: :func:`dealer_outcomes`
(the shoe, the up card, the cards known to be out → a count per outcome over one
denominator, or an infinite shoe). Behind it is the kernel's path: numerators for
every up card and thousands of removed multisets together (:func:`numerators`).

The player's analysis needs, for every up card ``u`` and every multiset ``R``
of cards the player can hold (``s`` cards), the dealer's outcome numerators
over ``(N−s)^(kmax)`` for the shoe ``n − R`` (``n``: the shoe after the up
card; see :mod:`odds.games.blackjack.dealer` for the table ``c[m][o]`` of
draw sequences)::

    Num(R) = Σ_m c[m] · Π_i (n_i − R_i)^(m_i) · (N − s − |m|)^(kmax − |m|)

Inclusion–exclusion over the player's cards
-------------------------------------------
``(n − R)^(m) · n^(R) = n^(R+m) = (n − m)^(R) · n^(m)`` (falling factorials,
one rank), and ``(n − m)^(R) / n^(R)`` expands in the falling factorials of
``m``: ``Σ_{x ≤ R} (−1)^x · C(R, x) · m^(x) / n^(x)``. Hence, exactly::

    Num(R) = Σ_{j ≤ R} Π_i (−1)^(j_i) · C(R_i, j_i) · Q_s[j]
    Q_s[j] = Σ_k (N − s − k)^(kmax − k) · M[j, k]
    M[j, k] = Σ_{m ⊇ j, |m| = k} c[m] · Π_i (n_i − j_i)^(m_i − j_i) · m_i^(j_i)

``M`` is a table over the sub-multisets ``j`` of dealer hands (a few
thousand: dealer hands are short), shoe-dependent but independent of ``R``
(below); ``Q_s`` follows by Horner's rule;
the sum over ``j ≤ R`` has small signed binomial coefficients and depends on
neither the shoe nor the up card. So one pass over a prefix tree of the
``R`` (grouped by size ``s``; ranks summed out one at a time, tens first, the
last two together) serves every up card at once: each table entry packs the
seven outcome lanes of all ten up cards into one integer, and entries the
tree's lower levels cannot use are never formed (``j`` has at most as many
cards of the remaining ranks as are left to the ``R`` below; it is a
sub-multiset of some dealer hand). Intermediate lanes may be negative or
overflow into their neighbours — the arithmetic is linear and exact — but the
final lanes are the true numerators, non-negative and within their width.

A multiset that uses every card of some rank of the full shoe (small shoes
only) makes that up card impossible; its lanes there are not numerators and may
spoil the lanes above them, so the caller values such a multiset one up card at a
time (:func:`up_card_numerators`, :meth:`odds.games.blackjack.shoes.Family.ensure_set`).
The tests compare the numerators with the plain recursion over draws.

The moments of the draw table
-----------------------------
For an up card and a shoe ``n`` (after the up card), the table ``M[j, k]`` over
sub-multisets ``j`` of dealer hands and lengths ``k``::

    M[j, k] = Σ_{m ⊇ j, |m| = k} c[m] · Π_i (n_i − j_i)^(m_i − j_i) · m_i^(j_i)

(falling factorials; ``c[m]`` the ordered draw sequences with multiset ``m``,
:func:`odds.games.blackjack.dealer.dealer_table`, as packed cumulative outcome
lanes). It is computed rank by rank (a hand's count ``μ`` of a rank becomes each
``x ≤ μ``), laid out once per dealer table (:class:`_MomentPlan`); the tables of
several up cards are then packed side by side (:class:`MomentUnion`), and
:func:`numerators` turns them into ``Q_s[j]`` by Horner's rule over ``k``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import count, groupby, repeat
from math import comb
from operator import add, itemgetter, le, lshift, mul, sub
from typing import Any, TypeAlias, cast

from odds.core.caching import cached
from odds.engine.polynomial import falling
from odds.games.blackjack.dealer import (
    OUTCOMES,
    RANKS,
    Counts,
    DealerPlan,
    Gather,
    dealer_table,
    getter,
    lane_width,
    pack_lanes,
)
from odds.games.blackjack.dealer import plan as dealer_plan
from odds.games.blackjack.kept_layouts import kept_layout, of, restore, state
from odds.games.blackjack.nodes import add as with_cards
from odds.games.blackjack.nodes import hand_multisets

# ---------------------------------------------------------------------------
# The dealer's side: moments of the draw table (shoe-independent plans, one shoe's values)

#: What names a set's root entries in caches: ``("set", serial, s)`` or ``("hard", s, hard)``
#: (:class:`RemovalSet`).
RootKey: TypeAlias = tuple[str, int, int]

#: Rank order of the prefix tree: tens first; twos and aces last, summed out together.
ORDER = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)


in_order: Gather = itemgetter(*ORDER)  # a multiset's counts in ORDER
SHIFTS = tuple(6 * d for d in range(len(ORDER)))  # bits of each count in an integer key


@cached
def dealer_subsets() -> frozenset[tuple[int, ...]]:
    """Every sub-multiset of a dealer hand (any up card, either soft-17 rule), in ``ORDER``
    (kept on disk, :mod:`.kept_layouts`: it reads both rules' dealer tables)."""
    return kept_layout("dealer-subsets", _dealer_subsets, from_data=lambda d: of(frozenset, d))


def _dealer_subsets() -> frozenset[tuple[int, ...]]:
    found: set[tuple[int, ...]] = set()
    for up in range(RANKS):
        for hits_soft_17 in (False, True):
            found.update(in_order(m) for m in dealer_table(up, hits_soft_17))
    return frozenset(_closed_below(found))


def _closed_below(found: set[tuple[int, ...]]) -> set[tuple[int, ...]]:
    """``found`` with every sub-multiset of its members added (in place, and returned)."""
    stack = list(found)
    while stack:
        j = stack.pop()
        for i, c in enumerate(j):
            if c:
                smaller = (*j[:i], c - 1, *j[i + 1 :])
                if smaller not in found:
                    found.add(smaller)
                    stack.append(smaller)
    return found


class _MomentStep:
    """One rank of :func:`dealer_moments`, laid out once per dealer table (shoe-independent).

    Keys are integers: the count of ``ORDER[d]`` in bits ``6d … 6d+5``, the length
    above. An entry whose count ``μ`` of the rank is 0 carries over (``x = 0``,
    factor 1); the others give one product per ``x ≤ μ``. Output entries are ordered
    by how many terms they sum (most first), so the ``t``-th terms form a prefix.
    """

    def __init__(self, d: int, keys: list[int]) -> None:
        self.rank = ORDER[d]
        shift, step = 6 * d, 1 << (6 * d)
        products: list[tuple[int, int, int]] = []  # (input index, μ, x)
        terms: dict[int, list[int]] = {}
        at = len(keys)
        for i, key in enumerate(keys):
            mu = (key >> shift) & 63
            if not mu:
                terms.setdefault(key, []).insert(0, i)
                continue
            base = key - mu * step
            for x in range(mu + 1):
                terms.setdefault(base + x * step, []).append(at)
                products.append((i, mu, x))
                at += 1
        out = sorted(terms, key=lambda k: -len(terms[k]))
        #: The output entries' keys: the next step's input, read while the plan is built
        #: (not kept on disk: ``None`` in a step read back).
        self.keys: list[int] | None = out
        ordered = [terms[k] for k in out]
        self.pairs: Any = (
            getter([mu * (mu + 1) // 2 + x for _, mu, x in products]) if products else None
        )
        self.take = getter([i for i, _, _ in products]) if products else None
        self.first = getter([t[0] for t in ordered])
        self.more = tuple(
            (len(having), getter(having))
            for t in range(1, len(ordered[0]))
            if (having := [members[t] for members in ordered if len(members) > t])
        )
        self._factors: dict[int, list[int]] = {}

    #: What is kept of a step (:mod:`.kept_layouts`); the factors are the process's.
    KEPT = ("rank", "pairs", "take", "first", "more")

    @classmethod
    def from_data(cls, data: Any) -> _MomentStep:
        step = restore(cls, cls.KEPT, data, _factors={}, keys=None)
        of(int, step.rank), of(tuple, step.more), of(itemgetter, step.first)
        return step

    def apply(self, values: list[int], count: int) -> list[int]:
        """The next table, for ``count`` cards of the rank in the shoe."""
        if self.take is None:
            terms = values
        else:
            factors = self._factors.get(count)
            if factors is None:
                factors = self._factors[count] = self.pairs(_moment_factors(count))
            terms = values + list(map(mul, factors, self.take(values)))
        out = list(self.first(terms))
        for having, nth in self.more:
            out[:having] = map(add, out[:having], nth(terms))
        return out


@cached
def _moment_factors(count: int) -> tuple[int, ...]:
    """``(count − x)^(μ−x) · μ^(x)`` for ``x ≤ μ ≤ 2·RANKS``, flat (index ``μ(μ+1)/2 + x``)."""
    return tuple(
        falling(count - x, mu - x) * falling(mu, x)
        for mu in range(2 * RANKS + 1)
        for x in range(mu + 1)
    )


def _key(m: Sequence[int]) -> int:
    """An integer key: counts in ``ORDER`` six bits each, then the length."""
    return sum(c << (6 * d) for d, c in enumerate(in_order(m))) + (sum(m) << (6 * len(ORDER)))


class _MomentPlan:
    """:func:`dealer_moments` laid out for one dealer table (every rank's step, the keys)."""

    def __init__(self, table: dict[Counts, tuple[int, ...]]) -> None:
        grouped: dict[int, list[Counts]] = {}
        for m in table:
            grouped.setdefault(_key(m), []).append(m)
        keys = sorted(grouped)
        # Each key's orderings per outcome, summed over its hands: packing is linear and
        # every count is non-negative, so packing the sums is the sum of the packed hands
        # (and the plan needs neither the hands nor the dealer table at run time).
        self.outcome_counts = [
            tuple(map(sum, zip(*(table[m] for m in grouped[k]), strict=True))) for k in keys
        ]
        self.steps = []
        for d in range(len(ORDER)):
            step = _MomentStep(d, keys)
            self.steps.append(step)
            keys = cast(list[int], step.keys)
        self.keys = keys  # each output entry's (j, k), as in :func:`_key`
        self.initial: dict[int, list[int]] = {}  # packed table entries, by lane width

    def data(self) -> tuple[Any, ...]:
        """What is kept of the plan (:mod:`.kept_layouts`): its steps' and its own lists."""
        steps = tuple(state(step, _MomentStep.KEPT) for step in self.steps)
        return (self.outcome_counts, steps, self.keys)

    @classmethod
    def from_data(cls, data: Any) -> _MomentPlan:
        outcome_counts, steps, keys = of(tuple, data)
        plan = cls.__new__(cls)
        plan.outcome_counts = of(list, outcome_counts)
        plan.steps = [_MomentStep.from_data(step) for step in of(tuple, steps)]
        plan.keys = of(list, keys)
        plan.initial = {}
        if len(plan.steps) != len(ORDER):
            raise ValueError("not one step per rank")
        return plan


@cached
def _moment_plan(up: int, hits_soft_17: bool) -> _MomentPlan:
    return _moment_plans(hits_soft_17)[up]


@cached
def _moment_plans(hits_soft_17: bool) -> tuple[_MomentPlan, ...]:
    """Every up card's plan, kept on disk (:mod:`.kept_layouts`): built once per version."""
    return kept_layout(
        f"moment-plans-{'h17' if hits_soft_17 else 's17'}",
        lambda: tuple(_MomentPlan(dealer_table(up, hits_soft_17)) for up in range(RANKS)),
        lambda plans: tuple(plan.data() for plan in plans),
        _plans_from_data,
    )


def _plans_from_data(data: Any) -> tuple[_MomentPlan, ...]:
    plans = tuple(_MomentPlan.from_data(plan) for plan in of(tuple, data))
    if len(plans) != RANKS:
        raise ValueError("not one plan per up card")
    return plans


def dealer_moments(up: int, hits_soft_17: bool, n: Counts, lane_bits: int) -> list[int]:
    """``M[j, k]`` (packed outcome lanes) of one up card's dealer table on the shoe ``n``.

    Rank by rank: a hand's count ``μ`` of a rank becomes ``x ≤ μ`` with the factor
    ``(n − x)^(μ−x) · μ^(x)`` (zero for a hand the shoe cannot hold).
    """
    plan = _moment_plan(up, hits_soft_17)
    values = plan.initial.get(lane_bits)
    if values is None:
        values = plan.initial[lane_bits] = [
            pack_lanes(counts, lane_bits) for counts in plan.outcome_counts
        ]
    for step in plan.steps:
        values = step.apply(values, n[step.rank])
    return values


@cached(maxsize=40)  # about 0.3 MB each on 8 decks: a few shoes' up cards
def shoe_moments(up: int, hits_soft_17: bool, n: Counts, lane_bits: int) -> list[int]:
    """:func:`dealer_moments` and a zero after them (what a gather of a key the up card's
    table lacks reads), kept for the shoes being analysed: a round asks for the same up
    card and shoe again with every removal set (its hands, its resplits, the multisets
    that empty a rank of a small shoe), 143 times for 26 tables in ``odds report blackjack
    --decks 1`` with resplits. Read only (:func:`numerators` never changes the list);
    :func:`odds.games.blackjack.shoes.forget_shoes` drops them with the shoes' tables."""
    values = dealer_moments(up, hits_soft_17, n, lane_bits)
    values.append(0)
    return values


class MomentUnion:
    """The union of some up cards' ``M`` keys, sorted by ``(j, k)``: how each up card's
    table lands in it, and each ``j``'s slice and lengths (shoe-independent)."""

    def __init__(self, ups: tuple[int, ...], hits_soft_17: bool) -> None:
        plans = [_moment_plan(u, hits_soft_17) for u in ups]
        keys = sorted({key for plan in plans for key in plan.keys})
        where = {key: i for i, key in enumerate(keys)}
        self.size = len(keys)
        self.gathers = []
        for plan in plans:
            index = {key: i for i, key in enumerate(plan.keys)}
            missing = len(plan.keys)
            self.gathers.append(getter([index.get(key, missing) for key in keys]))
        # Per length k: the position of M[j, k] for every j of dealer_subsets() (index of
        # _subset_index), or the zero at the end.
        last = 6 * len(ORDER)
        index = _subset_index()
        self.by_length: list[list[int]] = [[self.size] * len(index) for _ in range(2 * RANKS + 1)]
        for key, at in where.items():
            self.by_length[key >> last][index[key & ((1 << last) - 1)]] = at
        self._roots: dict[tuple[RootKey, int], tuple[Gather, ...]] = {}

    def roots(
        self, root_key: RootKey, roots: Sequence[tuple[int, ...]], kmax: int
    ) -> tuple[Gather, ...]:
        """For Horner's rule over lengths: per length ``1 … kmax``, a gather of ``M[j, k]``
        for the root entries ``j`` (``roots``, named ``root_key`` in the cache)."""
        found = self._roots.get((root_key, kmax))
        if found is None:
            positions = _subset_positions()
            take = getter([positions[j] for j in roots])
            found = tuple(getter(take(self.by_length[k])) for k in range(1, kmax + 1))
            self._roots[root_key, kmax] = found
        return found


@cached
def _subset_index() -> dict[int, int]:
    """Every sub-multiset of a dealer hand (:func:`dealer_subsets`), by its integer key."""
    return {sum(map(lshift, j, SHIFTS)): i for i, j in enumerate(sorted(dealer_subsets()))}


@cached
def _subset_positions() -> dict[tuple[int, ...], int]:
    """Each sub-multiset's index in :func:`_subset_index` (by the multiset: no key to make)."""
    return {j: i for i, j in enumerate(sorted(dealer_subsets()))}


@cached
def moment_union(ups: tuple[int, ...], hits_soft_17: bool) -> MomentUnion:
    """The up cards' union (kept on disk, :mod:`.kept_layouts`: a few up-card sets occur)."""
    name = f"moment-union-{'h17' if hits_soft_17 else 's17'}-{''.join(map(str, ups))}"
    return kept_layout(
        name,
        lambda: MomentUnion(ups, hits_soft_17),
        lambda union: state(union, _UNION_KEPT),
        _union_from_data,
    )


def _union_from_data(data: Any) -> MomentUnion:
    union = restore(MomentUnion, _UNION_KEPT, data, _roots={})
    of(int, union.size), of(list, union.gathers), of(list, union.by_length)
    return union


#: What is kept of a :class:`MomentUnion` (its roots are made per process).
_UNION_KEPT = ("size", "gathers", "by_length")


# ---------------------------------------------------------------------------
# The removed multisets' side: inclusion–exclusion over prefix trees

_DEPTH = len(ORDER) - 2  # levels before the last two ranks
_LANES = len(OUTCOMES)
_VALUES = tuple(rank + 1 for rank in ORDER)  # hard value of each rank in ORDER

#: A table's entries (suffixes ``t``) and the position of each.
_Table: TypeAlias = tuple[list[tuple[int, ...]], dict[tuple[int, ...], int]]
#: One level's step (:func:`_step`): the gather of each output's first term, then
#: ``(outputs with an x-th term, their gather, coefficient)`` for ``x = 1, 2, …``.
_Step: TypeAlias = tuple[Gather, tuple[tuple[int, Gather, int], ...]]
#: The last two ranks (:meth:`_Layout.leaf`): gathers of the +1 and −1 terms, the other
#: coefficients and the gather of their terms.
_Leaf: TypeAlias = tuple[Gather, Gather | None, tuple[int, ...], Gather | None]
#: A removal tree below the root (:class:`RemovalSet`): ``(step, child)`` per count, and on
#: the last level ``(*leaf, R)`` per multiset.
_Tree: TypeAlias = "_Nodes | _Leaves"
_Nodes: TypeAlias = tuple[tuple[_Step, _Tree], ...]
_Leaves: TypeAlias = tuple[
    tuple[Gather, Gather | None, tuple[int, ...], Gather | None, Counts], ...
]
#: A multiset ``R`` keyed for sorting and grouping: its counts in ``ORDER``, then ``R``.
_Keyed: TypeAlias = tuple[*tuple[int, ...], Counts]

# ---------------------------------------------------------------------------
# Shoe-independent layout: the tables of every level and how one feeds the next


class _Layout:
    """Tables ``T(d, r)``: the suffixes ``t`` (ranks ``ORDER[d:]``) of sub-multisets of dealer
    hands with no card of the ranks before ``d``, at most ``r`` cards; and the steps between.

    ``T(d+1, ·)`` is ordered by how many terms its entries get from level ``d`` (most
    first), so the entries with an ``x``-th term form a prefix.
    """

    def __init__(self) -> None:
        subsets = dealer_subsets()
        self.levels: list[dict[tuple[int, ...], int]] = []  # per d: suffix → max x before it
        self._order: list[list[tuple[tuple[int, ...], int]]] = []  # per d: (suffix, size)
        previous: set[tuple[int, ...]] = set()
        for d in range(len(ORDER)):
            suffixes = {j[d:] for j in subsets if not any(j[:d])}
            most = dict.fromkeys(suffixes, 0)
            for j in previous:
                if j[0] > most[j[1:]]:
                    most[j[1:]] = j[0]
            self.levels.append(most)
            ordered = sorted(suffixes, key=lambda t: (-most[t], t))
            self._order.append([(t, sum(t)) for t in ordered])
            previous = suffixes
        self._hard = {
            j: sum((rank + 1) * c for rank, c in zip(ORDER, j, strict=True)) for j in subsets
        }
        # Keyed by (d, r), and the roots by (s, hard, "root").
        self._tables: dict[tuple[int, int] | tuple[int, int, str], _Table] = {}
        # Keyed by (d, r, c), and the roots' by (s, hard, c, "root").
        self._steps: dict[tuple[int, int, int] | tuple[int, int, int, str], _Step] = {}
        self._leaves: dict[tuple[int, int], _Leaf] = {}

    def table(self, d: int, r: int) -> _Table:
        found = self._tables.get((d, r))
        if found is None:
            entries = [t for t, size in self._order[d] if size <= r]
            found = self._tables[d, r] = (entries, {t: i for i, t in enumerate(entries)})
        return found

    def root(self, s: int, hard: int) -> _Table:
        """``T(0, s)`` less the ``j`` no multiset of ``s`` cards with hard total at most
        ``hard`` can hold (each card it adds counts at least 1)."""
        found = self._tables.get((s, hard, "root"))
        if found is None:
            totals = self._hard
            entries = [
                j for j, size in self._order[0] if size <= s and totals[j] + s - size <= hard
            ]
            found = self._tables[s, hard, "root"] = (entries, {j: i for i, j in enumerate(entries)})
        return found

    def step(self, d: int, r: int, c: int, hard: int | None = None) -> _Step:
        """From ``T(d, r)`` to ``T(d+1, r−c)`` for ``c`` cards of rank ``ORDER[d]``; with
        ``hard``, from :meth:`root` (``d = 0``, ``r`` its ``s``)."""
        key: tuple[int, int, int] | tuple[int, int, int, str] = (
            (d, r, c) if hard is None else (r, hard, c, "root")
        )
        found = self._steps.get(key)
        if found is None:
            entries, position = self.table(d, r) if hard is None else self.root(r, hard)
            out = self.table(d + 1, r - c)[0]
            found = self._steps[key] = _step(position, out, self.levels[d + 1], c, len(entries))
        return found

    def leaf(self, r: int, c: int) -> _Leaf:
        """The last two ranks: ``c`` of ``ORDER[-2]`` and ``r − c`` of ``ORDER[-1]``.

        Gathers of the terms with coefficient +1 and −1 (summed as they are), then the
        other coefficients and a gather of their terms (``None`` for no term).
        """
        found = self._leaves.get((r, c))
        if found is None:
            entries, _ = self.table(_DEPTH, r)
            terms = [
                (i, (-1) ** (x + y) * comb(c, x) * comb(r - c, y))
                for i, (x, y) in enumerate(entries)
                if x <= c and y <= r - c
            ]
            plus = [i for i, coef in terms if coef == 1]
            minus = [i for i, coef in terms if coef == -1]
            other = [(i, coef) for i, coef in terms if coef not in (1, -1)]
            found = self._leaves[r, c] = (
                getter(plus),
                getter(minus) if minus else None,
                tuple(coef for _, coef in other),
                getter([i for i, _ in other]) if other else None,
            )
        return found


def _step(
    position: dict[tuple[int, ...], int],
    out: list[tuple[int, ...]],
    most: dict[tuple[int, ...], int],
    c: int,
    missing: int,
) -> _Step:
    """``out[t] = Σ_{x ≤ c} (−1)^x C(c, x) · in[(x,) + t]`` as gathers and prefix updates.

    ``most[t]`` is the largest ``x`` with ``(x,) + t`` a sub-multiset of a dealer hand;
    ``out`` is ordered by it (largest first), so the entries with an ``x``-th term come
    first. Terms the input does not hold (a root pruned to what its tree uses) read
    the zero at ``missing``.
    """
    first = getter([position.get((0, *t), missing) for t in out])
    more = []
    for x in range(1, c + 1):
        having = [position.get((x, *t), missing) for t in out if most[t] >= x]
        if not having:
            break
        more.append((len(having), getter(having), (-1) ** x * comb(c, x)))
    return first, tuple(more)


@cached
def _layout() -> _Layout:
    """The layout, kept on disk (:mod:`.kept_layouts`) with every table and step that
    resplitting needs already built (:func:`_prefilled_layout`); others are built when asked."""
    return kept_layout(
        "removal-layout",
        _prefilled_layout,
        lambda layout: (layout._steps, layout._leaves),
        _layout_from_data,
    )


def _layout_from_data(data: Any) -> _Layout:
    """A layout whose steps and leaves were kept (its tables, cheap, are made again)."""
    steps, leaves = of(tuple, data)
    layout = _Layout()
    layout._steps.update(of(dict, steps))
    layout._leaves.update(of(dict, leaves))
    return layout


#: Most hands a pair may be split into (``house.split_hands``' maximum, :mod:`.options`).
_MOST_HANDS = 4


def _prefilled_layout() -> _Layout:
    """A layout holding the tables and steps of every resplit's removal sets.

    Resplitting values split hands with up to ``2 · (hands − 2)`` further pair cards out
    of the shoe (:func:`.splits.max_pair_removals`): a hand of the split context of
    pair ``x`` (:func:`.nodes.context_nodes`: the hand and the other pair card) plus
    ``a`` more cards ``x``. Any set of those visits only tables and steps a tree of all
    of them visits (a step is named by its level, the cards left and the count), so one
    tree of all of them builds every one; the roots depend on each set's largest hard
    total and are built as sets ask.
    """
    layout = _Layout()
    hands = [h for h in hand_multisets() if sum(h) >= 2]
    most = 2 * (_MOST_HANDS - 2)
    split_hands = {
        with_cards(h, x, 1 + a)
        for x in range(len(ORDER))
        for h in hands
        if h[x]
        for a in range(1, most + 1)
    }
    RemovalSet(split_hands, exact_roots=False, layout=layout)
    return layout


# ---------------------------------------------------------------------------
# One set of removed multisets: a prefix tree per size, and the root entries


class RemovalSet:
    """The multisets ``R`` to value, as one prefix tree per size ``s`` (shoe-independent).

    A tree node is a tuple of ``(step, child)`` (levels ``0 … _DEPTH−1``); the
    last level lists ``(coefficients, gather, R)``. ``roots[s]`` lists the ``j``
    whose ``Q_s[j]`` the tree reads: with ``exact_roots`` only sub-multisets of some
    ``R`` of that size (worth working out for a set kept for the whole process),
    otherwise a cheaper superset shared by every set (:meth:`_Layout.root`);
    ``root_keys[s]`` names that list for caches.
    """

    #: Names each set's exact roots in :class:`MomentUnion`'s cache: drawn at random
    #: per process, so a set kept on disk (:func:`standard_set`) never shares a name with one
    #: made here.
    serials = count(int.from_bytes(os.urandom(6), "little") << 20)
    #: What is kept of a set (:mod:`.kept_layouts`).
    KEPT = ("items", "trees", "roots", "root_keys")

    def data(self) -> tuple[Any, ...]:
        return state(self, self.KEPT)

    @classmethod
    def from_data(cls, data: Any) -> RemovalSet:
        made = restore(cls, cls.KEPT, data)
        of(tuple, made.items), of(dict, made.trees), of(dict, made.roots), of(dict, made.root_keys)
        return made

    def __init__(
        self, removed: Iterable[Counts], exact_roots: bool = True, layout: _Layout | None = None
    ) -> None:
        layout = layout or _layout()  # (given: while the kept layout is being built)
        serial = next(self.serials)
        self.items = tuple(sorted(set(map(tuple, removed))))
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for r in self.items:
            by_size.setdefault(sum(r), []).append(r)
        self.trees: dict[int, _Tree] = {}
        self.roots: dict[int, list[tuple[int, ...]]] = {}
        self.root_keys: dict[int, RootKey] = {}
        for s, items in sorted(by_size.items()):
            ordered: list[_Keyed] = sorted((*in_order(r), r) for r in items)
            groups = list(_groups(ordered, 0))
            if exact_roots:
                root = _roots(ordered)
                position = {j: i for i, j in enumerate(root)}
                steps = [
                    _step(position, layout.table(1, s - c)[0], layout.levels[1], c, len(root))
                    for c, _ in groups
                ]
                self.root_keys[s] = ("set", serial, s)
            else:
                hard = max(sum(map(mul, item, _VALUES)) for item in ordered)
                root = layout.root(s, hard)[0]
                steps = [layout.step(0, s, c, hard) for c, _ in groups]
                self.root_keys[s] = ("hard", s, hard)
            self.roots[s] = root
            self.trees[s] = tuple(
                (step, _tree(layout, group, 1, s - c))
                for step, (c, group) in zip(steps, groups, strict=True)
            )


def _tree(layout: _Layout, ordered: list[_Keyed], d: int, r: int) -> _Tree:
    """The prefix tree of the items below level ``d`` (``r`` cards left to them)."""
    if d == _DEPTH:  # an item's d-th entry is a count (its last is the multiset)
        return tuple((*layout.leaf(r, cast(int, item[d])), item[-1]) for item in ordered)
    return tuple(
        (layout.step(d, r, c), _tree(layout, group, d + 1, r - c))
        for c, group in _groups(ordered, d)
    )


_COUNT = [itemgetter(d) for d in range(len(ORDER))]


def _groups(ordered: list[_Keyed], d: int) -> Iterable[tuple[int, list[_Keyed]]]:
    """Consecutive items with the same count of ``ORDER[d]`` (items: ``(*ordered key, R)``)."""
    for c, group in groupby(ordered, key=_COUNT[d]):
        yield c, list(group)


def _roots(ordered: list[_Keyed]) -> list[tuple[int, ...]]:
    """The ``j`` (in ``ORDER``) below some ``R`` of the list: sub-multisets of dealer hands."""
    below = _closed_below({item[:-1] for item in ordered})
    return sorted(dealer_subsets().intersection(below))


# ---------------------------------------------------------------------------
# Numbers for one shoe


class Lanes:
    """Where each up card's outcome lanes sit in a packed integer.

    Every up card has its seven (cumulative) lanes of ``lane_bits``, in a block of
    whole bytes; :meth:`block` is its byte range, :meth:`unpack` its lanes.
    """

    def __init__(self, ups: Sequence[int], lane_bits: int) -> None:
        self.ups = tuple(ups)
        self.lane_bits = lane_bits
        self.offset: dict[int, int] = {}
        self._blocks: dict[int, tuple[int, int]] = {}
        at = 0
        for u in self.ups:
            width = -(-lane_bits * _LANES // 8)
            self.offset[u] = 8 * at
            self._blocks[u] = (at, at + width)
            at += width
        self.bytes = at

    def block(self, u: int) -> tuple[int, int]:
        return self._blocks[u]

    def unpack(self, packed: int, u: int) -> int:
        start, end = self._blocks[u]
        return (packed >> (8 * start)) & ((1 << (8 * (end - start))) - 1)


def numerators(
    removal: RemovalSet, counts: Counts, ups: Sequence[int], hits_soft_17: bool, kmax: int
) -> tuple[dict[Counts, int], Lanes]:
    """Packed numerators (all ``ups`` at once, see :class:`Lanes`) for every ``R`` of the set.

    ``counts`` is the full shoe (before the up card); each up card's numerators are
    for ``counts − up − R`` over ``(N − 1 − s)^(kmax)``, ``kmax`` at least the longest
    dealer hand of every up card.
    """
    ups = tuple(ups)
    size = sum(counts) - 1
    lane_bits = lane_width(size, kmax)
    lanes = Lanes(ups, lane_bits)
    union = moment_union(ups, hits_soft_17)
    packed: list[int] = [0] * union.size
    for u, gather in zip(ups, union.gathers, strict=True):
        n = tuple(c - (i == u) for i, c in enumerate(counts))
        values = shoe_moments(u, hits_soft_17, n, lane_bits)
        packed = list(map(add, packed, map(lshift, gather(values), repeat(lanes.offset[u]))))
    packed.append(0)
    out: dict[Counts, int] = {}
    for s, tree in removal.trees.items():
        # Q_s[j] = Σ_k (N−s−k)^(kmax−k) M[j, k], by Horner's rule over k.
        gathers = union.roots(removal.root_keys[s], removal.roots[s], kmax)
        root = list(gathers[0](packed))
        for k, gather in enumerate(gathers[1:], start=2):
            root = list(map(add, map(mul, root, repeat(size - s - k + 1)), gather(packed)))
        root.append(0)
        _walk(tree, root, 0, out)
    return out, lanes


def up_card_numerators(
    dp: DealerPlan, removed: Iterable[Counts], removal: RemovalSet | None = None
) -> dict[Counts, int]:
    """Packed numerators (:meth:`DealerPlan.unpack`) for one up card: ``dp``'s shoe less
    each removed multiset it can hold (the others are skipped), over ``dp.denominator(s)``.

    ``removal``: a set holding them all (its trees are used, however many more it holds);
    otherwise one is made. With the one up card dealt already, a multiset may take
    every card of a rank (only the lanes of an impossible multiset are not numerators).
    """
    items = [r for r in set(map(tuple, removed)) if all(map(le, r, dp.counts))]
    if not items:
        return {}
    full = tuple(c + (i == dp.up) for i, c in enumerate(dp.counts))
    removal = removal or RemovalSet(items, exact_roots=False)
    packed, lanes = numerators(removal, full, (dp.up,), dp.hits_soft_17, dp.kmax)
    return {r: lanes.unpack(packed[r], dp.up) for r in items}


def _walk(tree: _Tree, table: list[int], d: int, out: dict[Counts, int]) -> None:
    if d == _DEPTH:  # the trees are _DEPTH levels deep: leaves
        for plus, minus, coefs, others, r in cast(_Leaves, tree):
            value = sum(plus(table))
            if minus is not None:
                value -= sum(minus(table))
            if others is not None:
                value += sum(map(mul, coefs, others(table)))
            out[r] = value
        return
    for (first, more), child in cast(_Nodes, tree):
        summed = list(first(table))
        for having, nth, coef in more:
            if coef == -1:
                summed[:having] = map(sub, summed[:having], nth(table))
            elif coef == 1:
                summed[:having] = map(add, summed[:having], nth(table))
            else:
                summed[:having] = map(add, summed[:having], map(mul, repeat(coef), nth(table)))
        _walk(child, summed, d + 1, out)


# ---------------------------------------------------------------------------
# The one call for a dealer's hand


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
    Behind it: the path the kernel batches thousands of removals through
    (:func:`up_card_numerators`); for the infinite shoe the draw-sequence table weighted
    by the ranks' chances.
    """
    if isinstance(counts, float | int):
        if counts != float("inf"):
            raise ValueError(f"a shoe is ten rank counts or math.inf, not {counts!r}")
        return _infinite_outcomes(up, hits_soft_17)
    dp = dealer_plan(tuple(counts), up, hits_soft_17)
    packed = up_card_numerators(dp, [tuple(removed)])[tuple(removed)]
    return DealerOutcomes(dp.unpack(packed), dp.denominator(sum(removed)))


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


__all__ = [
    "ORDER",
    "DealerOutcomes",
    "Lanes",
    "RemovalSet",
    "dealer_outcomes",
    "dealer_subsets",
    "numerators",
    "up_card_numerators",
]
