"""Ordered deals with drawing: exact counting for games whose deal depends on card order.

In baccarat who draws a third card, and whether the Banker draws, depends on
the cards already dealt *in order* (the Player's third card decides the
Banker's draw). Such a deal is not a set of hands of fixed size, so
:mod:`odds.engine`'s hand multisets do not describe it. This module counts
them in dealing order, with card removal, exactly.

The idea
--------
A *procedure* deals cards one at a time: from a state and the type of the
next card it gives the next state, and a state either asks for another card
or is finished with an outcome class (``DealProcedure``). Every finished deal
is an ordered sequence of card types ``t_1 … t_k``; from a composition ``c``
(``N`` cards) it is dealt in ``c_{t_1} · (c_{t_2} − [t_2 = t_1]) · …`` ways,
a product that depends only on the *multiset* ``m`` of the types dealt:
``∏_t (c_t)_{m_t}`` with ``(x)_j = x (x − 1) … (x − j + 1)`` (falling factorial).

So the ways of an outcome class ``o`` are a polynomial in the counts::

    ways(o) = Σ_m  K[m, o] · ∏_t (c_t)_{m_t} · (N − |m|)_{L − |m|}

where ``K[m, o]`` is the number of card *orders* of the multiset ``m`` that
the procedure deals to the end with outcome ``o`` — a property of the rules,
not of the shoe. The last factor extends every deal to the longest length
``L`` by the next unseen cards, so deals of different lengths share one
denominator: the number of ordered sequences of ``L`` cards, ``(N)_L``. (For
baccarat, ``L = 6`` and 8 decks give the published total of
4,998,398,275,503,360.)

``K`` is built once per procedure by a dynamic programme over
(multiset dealt, procedure state): orders that reach the same multiset in the
same state are merged, because what follows depends on nothing else. The
result is an extended :class:`odds.engine.polynomial.FallingPolynomial` (every
deal extended to ``L`` cards), the engine's one polynomial type: a
composition is one exact evaluation, which is what makes the per-state EV of
a partly dealt shoe fast. The evaluation asserts that the ways of every
grouping add up to ``(N)_L``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol, TypeVar

from odds.engine.polynomial import FallingPolynomial, falling

S = TypeVar("S", bound=Hashable)
Out = TypeVar("Out", bound=Hashable)
Out_co = TypeVar("Out_co", bound=Hashable, covariant=True)


class DealProcedure(Protocol[S, Out_co]):
    """How a game deals: a state machine over card types.

    ``start`` is the state before any card; ``step(state, t)`` is the state
    after a card of type ``t``; ``outcome(state)`` is ``None`` while the deal
    needs another card, and the finished deal's outcome class otherwise.
    States and outcomes must be hashable; the fewer distinct states, the
    faster the counting (keep only what later decisions need).
    """

    @property
    def start(self) -> S: ...

    def step(self, state: S, card_type: int) -> S: ...

    def outcome(self, state: S) -> Out_co | None: ...


def ordered_deal_polynomial(
    procedure: DealProcedure[S, Out], types: int, max_cards: int
) -> FallingPolynomial[Out]:
    """Count every way ``procedure`` can deal, as a polynomial in the counts of ``types`` types.

    A dynamic programme over (multiset of types dealt, procedure state): each
    layer deals one more card; orders that reach the same multiset and state
    are merged (their continuations are identical). Deals that finish go to
    the outcome table of their multiset. ``max_cards`` bounds the deal; a
    procedure still asking for cards after it is an error.
    """
    if procedure.outcome(procedure.start) is not None:
        raise ValueError("the deal procedure is finished before any card")
    # A multiset is coded as one integer, Σ m_t · base^t (base > max_cards), so
    # adding a card of type t is adding base^t: no tuples in the inner loop.
    base = max_cards + 1
    power = [base**t for t in range(types)]
    moves: dict[S, list[tuple[int, S, Out | None]]] = {}

    def moves_from(state: S) -> list[tuple[int, S, Out | None]]:
        found = moves.get(state)
        if found is None:
            found = []
            for t in range(types):
                after = procedure.step(state, t)
                found.append((power[t], after, procedure.outcome(after)))
            moves[state] = found
        return found

    layer: dict[tuple[int, S], int] = {(0, procedure.start): 1}
    finished: dict[tuple[int, Out], int] = defaultdict(int)
    length = 0
    for depth in range(1, max_cards + 1):
        following: dict[tuple[int, S], int] = defaultdict(int)
        for (code, state), orders in layer.items():
            for added, after, outcome in moves_from(state):
                if outcome is None:
                    following[code + added, after] += orders
                else:
                    finished[code + added, outcome] += orders
                    length = depth
        layer = following
        if not layer:
            break
    if layer:
        raise ValueError(f"the deal procedure needs more than {max_cards} cards")
    return _polynomial(finished, types, base, length)


def _polynomial(
    finished: dict[tuple[int, Out], int], types: int, base: int, length: int
) -> FallingPolynomial[Out]:
    """Arrange ``{(multiset code, outcome): orders}`` as the polynomial's tables."""
    import numpy as np

    keys = tuple(sorted({outcome for _, outcome in finished}, key=repr))
    index = {key: j for j, key in enumerate(keys)}
    codes = sorted({code for code, _ in finished})
    row_of = {code: i for i, code in enumerate(codes)}
    coefficients = np.zeros((len(codes), len(keys)), dtype=np.int64)
    for (code, outcome), orders in finished.items():
        coefficients[row_of[code], index[outcome]] = orders
    exponents = np.zeros((len(codes), types), dtype=np.int64)
    for i, code in enumerate(codes):
        t = 0
        while code:
            code, exponents[i, t] = divmod(code, base)
            t += 1
    return FallingPolynomial(
        types,
        keys,
        exponents,
        coefficients,
        extended=True,
        length=length,
        groups=(tuple(range(len(keys))),),
    )


@dataclass(frozen=True)
class DealtMoments:
    """The exact per-round law of the cards one deal takes, by its first two moments.

    ``mean[j]`` is the expected number of cards of type ``j`` one deal takes and
    ``covariance[j][k]`` the covariance of two types' counts, both exact.
    """

    mean: tuple[Fraction, ...]
    covariance: tuple[tuple[Fraction, ...], ...]


def dealt_moments(polynomial: FallingPolynomial[Any], counts: Sequence[int]) -> DealtMoments:
    """The mean and covariance of the counts of each type one deal takes from ``counts``.

    ``polynomial`` is an :func:`ordered_deal_polynomial`: each row is a multiset ``m``
    of the types a finished deal took (before its extension to the longest deal), with
    ``K[m]`` orders (its coefficients over every outcome). From ``N`` cards, ``m`` is
    dealt with probability ``K[m] · ∏_t (c_t)_{m_t} / (N)_{|m|}``; the rows' masses
    are added over the common denominator ``(N)_L`` and asserted to add up to 1 (every
    order of every deal counted once). The moments are sums over the rows: no draws.

    >>> two = ordered_deal_polynomial(_TwoCards(), 2, 2)  # two cards of two types
    >>> law = dealt_moments(two, (1, 1))  # one card of each: both always dealt
    >>> [str(x) for x in law.mean], [str(x) for row in law.covariance for x in row]
    (['1', '1'], ['0', '0', '0', '0'])
    """
    if not polynomial.extended:
        raise ValueError("dealt_moments needs an ordered deal's (extended) polynomial")
    types = polynomial.types
    size = sum(counts)
    length = polynomial.length
    mass = 0
    first = [0] * types
    second = [[0] * types for _ in range(types)]
    for row, orders in zip(
        polynomial.exponents.tolist(), polynomial.coefficients.sum(axis=1).tolist(), strict=True
    ):
        dealt = sum(row)
        weight = int(orders) * falling(size - dealt, length - dealt)
        for t, m in enumerate(row):
            if m:
                weight *= falling(counts[t], m)
        if not weight:
            continue
        mass += weight
        taken = [(t, m) for t, m in enumerate(row) if m]
        for t, m in taken:
            first[t] += weight * m
            for u, n in taken:
                second[t][u] += weight * m * n
    total = falling(size, length)
    if mass != total:  # pragma: no cover - a counting slip, not input
        raise AssertionError(f"the deal's law adds up to {Fraction(mass, total)}, not 1")
    mean = tuple(Fraction(x, total) for x in first)
    covariance = tuple(
        tuple(Fraction(second[t][u], total) - mean[t] * mean[u] for u in range(types))
        for t in range(types)
    )
    return DealtMoments(mean, covariance)


def card_moments(
    moments: DealtMoments, group_of: Sequence[int], counts: Sequence[int]
) -> DealtMoments:
    """Moments over finer types (cards) from the moments over the groups a deal reads.

    A procedure that reads only each card's group (baccarat's value: 10, J, Q and K are
    all 0) cannot tell apart the cards of one group, so given that a deal took ``m_v``
    cards of group ``v`` (holding ``C_v`` cards), which ones it took is a uniform sample:
    multivariate hypergeometric within each group, independent across groups. With
    ``p_j = c_j / C_v`` for a type ``j`` of group ``v``:

    * ``E[y_j] = p_j E[m_v]``;
    * ``Cov(y_j, y_k) = p_j p_k Cov(m_v, m_w)`` (the groups' counts), plus, when ``j``
      and ``k`` share the group ``v``, ``E[m_v (C_v − m_v)] / (C_v − 1) · p_j (δ_jk − p_k)``
      (the hypergeometric split's own covariance, averaged over ``m_v``).

    >>> law = DealtMoments((Fraction(1),), ((Fraction(0),),))  # always one card of one group
    >>> split = card_moments(law, (0, 0), (1, 1))  # the group holds two types, one card each
    >>> split.mean, split.covariance[0]
    ((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 4), Fraction(-1, 4)))
    """
    groups = len(moments.mean)
    holds = [0] * groups
    for count, group in zip(counts, group_of, strict=True):
        holds[group] += count
    share = [
        Fraction(c, holds[g]) if holds[g] else Fraction(0)
        for c, g in zip(counts, group_of, strict=True)
    ]
    mean = tuple(share[j] * moments.mean[g] for j, g in enumerate(group_of))
    within = []  # E[m_v (C_v − m_v)] / (C_v − 1): the split's spread, per group
    for v in range(groups):
        square = moments.covariance[v][v] + moments.mean[v] ** 2
        spread = holds[v] * moments.mean[v] - square
        within.append(spread / (holds[v] - 1) if holds[v] > 1 else Fraction(0))
    covariance = []
    for j, v in enumerate(group_of):
        line = []
        for k, w in enumerate(group_of):
            value = share[j] * share[k] * moments.covariance[v][w]
            if v == w:
                value += within[v] * share[j] * ((j == k) - share[k])
            line.append(value)
        covariance.append(tuple(line))
    return DealtMoments(mean, tuple(covariance))


class _TwoCards:
    """Two cards, whatever they are (the doctests' procedure)."""

    start = 0

    def step(self, state: int, card_type: int) -> int:
        return state + 1

    def outcome(self, state: int) -> str | None:
        return "done" if state == 2 else None


def group_counts(counts: Sequence[int], group_of: Sequence[int], groups: int) -> tuple[int, ...]:
    """Counts per group of types (e.g. cards → baccarat values): ``Σ`` of the members' counts.

    >>> group_counts((1, 2, 3, 4), (0, 1, 0, 1), 2)
    (4, 6)
    """
    merged = [0] * groups
    for count, group in zip(counts, group_of, strict=True):
        merged[group] += count
    return tuple(merged)


def two_hand_pair_ways(groups: Sequence[int]) -> dict[str, int]:
    """Ordered ways of two two-card hands (four cards) by which hands hold a pair.

    A *pair* is two cards of one group: a rank for a Pair bet, an identical
    card for a perfect pair. ``groups`` are the counts per group. Returns the
    ordered ways (first hand's two cards, then the second's; order within a
    hand counted) of ``"neither"``, ``"first"`` only, ``"second"`` only and
    ``"both"``; they add up to ``(N)_4``.

    >>> two_hand_pair_ways((2, 2))["both"]  # AA then BB, or BB then AA, each in 2·2·… orders
    8
    """
    size = sum(groups)
    pairs = sum(falling(g, 2) for g in groups)
    # Both hands pairs: same group (four of one) or two different groups.
    both = (
        pairs * pairs - sum(falling(g, 2) ** 2 for g in groups) + sum(falling(g, 4) for g in groups)
    )
    # A pair in the first hand, then any two cards: (N − 2)(N − 3).
    first = pairs * falling(size - 2, 2)
    result = {
        "both": both,
        "first": first - both,
        "second": first - both,
        "neither": falling(size, 4) - 2 * first + both,
    }
    if min(result.values()) < 0:  # pragma: no cover - an arithmetic slip, not input
        raise AssertionError(f"pair ways negative: {result}")
    return result
