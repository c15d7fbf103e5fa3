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
same state are merged, because what follows depends on nothing else. A
composition is then evaluated in one matrix product (numpy, exact ``int64``
while ``(N)_L`` fits, Python integers beyond), which is what makes the
per-state EV of a partly dealt shoe fast.

Everything is an exact integer; the evaluation asserts that the ways of
every grouping add up to ``(N)_L``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

S = TypeVar("S", bound=Hashable)
Out = TypeVar("Out", bound=Hashable)
Out_co = TypeVar("Out_co", bound=Hashable, covariant=True)
K = TypeVar("K", bound=Hashable)

#: Largest value an exact int64 evaluation may reach.
_INT64_LIMIT = 2**63 - 1


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


def falling(x: int, j: int) -> int:
    """The falling factorial ``x (x − 1) … (x − j + 1)`` (1 for ``j = 0``, 0 if ``x < j``).

    >>> falling(5, 2), falling(5, 0), falling(1, 2)
    (20, 1, 0)
    """
    if x < j:
        return 0
    result = 1
    for i in range(j):
        result *= x - i
    return result


@dataclass(frozen=True, eq=False)
class DealPolynomial(Generic[K]):
    """Ordered ways of each outcome key as a polynomial in the shoe's counts.

    Row ``i`` of ``exponents`` is a multiset of card types (a count per
    type); ``coefficients[i, j]`` is the number of orders of that multiset the
    procedure deals with key ``keys[j]`` (numpy ``int64`` arrays: orders of at
    most a few cards are small). ``length`` is the longest deal; shorter deals
    are extended to it (see the module docstring). ``groups`` lists, for each
    partition of the keys that must account for every deal (e.g. one bet's
    events), the key indices it spans; each is checked on evaluation.
    """

    types: int
    length: int
    keys: tuple[K, ...]
    exponents: Any  # numpy int64, rows × types
    coefficients: Any  # numpy int64, rows × keys
    groups: tuple[tuple[int, ...], ...]
    _plan: Any = field(default=None, init=False, repr=False)

    def total(self, counts: Sequence[int]) -> int:
        """``(N)_length``: ordered sequences of ``length`` cards from the composition."""
        return falling(sum(counts), self.length)

    def ways(self, counts: Sequence[int]) -> dict[K, int]:
        """Exact ordered ways of every key for a composition (each deal extended to ``length``)."""
        values = self._evaluate(counts)
        expected = self.total(counts)
        for group in self.groups:
            found = sum(values[j] for j in group)
            if found != expected:
                raise AssertionError(f"ordered deals: ways add up to {found}, expected {expected}")
        return dict(zip(self.keys, values, strict=True))

    def regroup(
        self, assign: Callable[[K], Iterable[Hashable]], partitions: Iterable[Iterable[Hashable]]
    ) -> DealPolynomial[Any]:
        """Merge keys into new keys: key ``k`` counts towards every key in ``assign(k)``.

        A key may feed several new keys (one event of each bet). ``partitions``
        lists the groups of new keys that each account for every deal exactly
        once (a bet's events); they are checked on every evaluation.
        """
        import numpy as np

        new_keys: dict[Hashable, int] = {}
        sources, targets = [], []
        for j, key in enumerate(self.keys):
            for new in assign(key):
                sources.append(j)
                targets.append(new_keys.setdefault(new, len(new_keys)))
        mapping = np.zeros((len(self.keys), len(new_keys)), dtype=np.int64)
        np.add.at(
            mapping, (np.array(sources, dtype=np.int64), np.array(targets, dtype=np.int64)), 1
        )
        groups = tuple(
            tuple(new_keys[k] for k in partition if k in new_keys) for partition in partitions
        )
        return DealPolynomial(
            self.types,
            self.length,
            tuple(new_keys),
            self.exponents,
            self.coefficients @ mapping,
            groups,
        )

    # -- evaluation -------------------------------------------------------

    def _evaluate(self, counts: Sequence[int]) -> list[int]:
        if len(counts) != self.types:
            raise ValueError(f"expected {self.types} counts, got {len(counts)}")
        if any(c < 0 for c in counts):
            raise ValueError("negative count in a composition")
        if self.total(counts) <= _INT64_LIMIT:
            return self._evaluate_int64(counts)
        return self._evaluate_exact(counts)

    def _evaluate_exact(self, counts: Sequence[int]) -> list[int]:
        """Python integers throughout (for shoes too large for int64)."""
        size = sum(counts)
        table = [[falling(c, j) for j in range(self.length + 1)] for c in counts]
        extend = [falling(size - k, self.length - k) for k in range(self.length + 1)]
        values = [0] * len(self.keys)
        for exponents, row in zip(self.exponents.tolist(), self.coefficients.tolist(), strict=True):
            weight = extend[sum(exponents)]
            for t, j in enumerate(exponents):
                if j:
                    weight *= table[t][j]
            if weight:
                for k, value in enumerate(row):
                    if value:
                        values[k] += weight * value
        return values

    def _evaluate_int64(self, counts: Sequence[int]) -> list[int]:
        """The same sums by numpy in int64: exact because no partial sum can exceed ``(N)_L``.

        Every term is non-negative, and each key's ways are at most the number
        of extended ordered deals, which the caller checked fits in int64.
        """
        import numpy as np

        sizes, factors, columns = self._evaluation_plan()
        width = self.length + 1
        table = np.ones(self.types * width, dtype=np.int64)
        for t, c in enumerate(counts):
            for j in range(1, width):
                table[t * width + j] = table[t * width + j - 1] * max(c - j + 1, 0)
        size = sum(counts)
        extend = np.array([falling(size - k, self.length - k) for k in range(width)], np.int64)
        weights = extend[sizes] * table[factors].prod(axis=1)
        return [int(v) for v in columns @ weights]

    def _evaluation_plan(self) -> Any:
        """Per row: its size, and where its factors sit in the flat falling-factorial table.

        Row ``i``'s weight is ``∏_t table[t, m_t]``; only the types it uses
        matter (at most ``length`` of them), the others point at ``table[0, 0]
        = 1``. Worked out once; the coefficients are kept transposed so that
        each key's sum runs over contiguous memory.
        """
        if self._plan is None:
            import numpy as np

            width = self.length + 1
            exponents = self.exponents
            flat = np.arange(self.types, dtype=np.int64) * width + exponents
            used = exponents > 0
            # The used types of each row first (a stable sort keeps their order), then 0s.
            order = np.argsort(~used, axis=1, kind="stable")[:, : max(self.length, 1)]
            factors = np.where(
                np.take_along_axis(used, order, axis=1), np.take_along_axis(flat, order, axis=1), 0
            )
            sizes = self.exponents.sum(axis=1)
            columns = np.ascontiguousarray(self.coefficients.T)
            object.__setattr__(self, "_plan", (sizes, factors, columns))
        return self._plan


def ordered_deal_polynomial(
    procedure: DealProcedure[S, Out], types: int, max_cards: int
) -> DealPolynomial[Out]:
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
) -> DealPolynomial[Out]:
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
    return DealPolynomial(types, length, keys, exponents, coefficients, (tuple(range(len(keys))),))


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
