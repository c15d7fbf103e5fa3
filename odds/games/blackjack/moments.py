"""The dealer's side of :mod:`odds.games.blackjack.dealer_batches`: moments of the draw table.

For an up card and a shoe ``n`` (after the up card), the table ``M[j, k]`` over
sub-multisets ``j`` of dealer hands and lengths ``k``::

    M[j, k] = Σ_{m ⊇ j, |m| = k} c[m] · Π_i (n_i − j_i)^(m_i − j_i) · m_i^(j_i)

(falling factorials; ``c[m]`` the ordered draw sequences with multiset ``m``,
:func:`odds.games.blackjack.dealer.dealer_table`, as packed cumulative outcome
lanes). It is computed rank by rank (a hand's count ``μ`` of a rank becomes each
``x ≤ μ``), laid out once per dealer table (:class:`_MomentPlan`); the tables of
several up cards are then packed side by side (:class:`MomentUnion`), and
:func:`odds.games.blackjack.dealer_batches.numerators` turns them into ``Q_s[j]`` by
Horner's rule over ``k``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, itemgetter, lshift, mul
from typing import Any, TypeAlias, cast

from odds.core.caching import cached
from odds.engine.polynomial import falling
from odds.games.blackjack.dealer import RANKS, Counts, Gather, dealer_table, getter, pack_lanes
from odds.games.blackjack.kept_layouts import kept_layout, of, restore, state

#: What names a set's root entries in caches: ``("set", serial, s)`` or ``("hard", s, hard)``
#: (:class:`odds.games.blackjack.dealer_batches.RemovalSet`).
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
    stack = list(found)
    while stack:
        j = stack.pop()
        for i, c in enumerate(j):
            if c:
                smaller = (*j[:i], c - 1, *j[i + 1 :])
                if smaller not in found:
                    found.add(smaller)
                    stack.append(smaller)
    return frozenset(found)


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
