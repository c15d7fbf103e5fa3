"""Several hands dealt one after another: the k-hand joint as a fold over states."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from itertools import combinations_with_replacement
from math import comb
from typing import Generic, TypeVar

from odds.engine.counting import C, Composition, Hand, check_total, deal_count, hands, paused_gc

S = TypeVar("S", bound=Hashable)


@paused_gc()
def sequential_distribution(
    counts: Sequence[int],
    size: int,
    number: int,
    classify: Callable[[Hand], C],
    fold: Callable[[S, C], S],
    start: S,
    symmetric: bool = False,
) -> dict[S, int]:
    """Ways per final state of ``number`` hands of ``size`` dealt one after another.

    The k-hand joint distribution (a banker and several positions sharing one
    shoe). Writing every tuple of hand classes down would grow as
    ``hands ** number``, so the caller folds the classes into a *state* as the
    hands are dealt: ``state = fold(state, class of the next hand)``, from
    ``start``. The state keeps only what the question needs, e.g. the banker's
    class and the sorted multiset of the positions' results so far.

    Counting is a dynamic programme over (remaining composition, state): deals
    that leave the same tiles in the shoe and the same state are merged, and
    their continuations are counted once (memoised per composition). The last
    hand needs no composition after it, so it is added from the class
    distribution of the composition left, computed once per composition.

    ``symmetric``: the classifier sees only a hand's shape (how many copies
    of how many types, e.g. "a pair" at the rank level), so relabelling the
    types changes nothing, and compositions are merged by their sorted counts
    (docs/reference/counting.md §Symmetric bets collapse). The shape rule is checked on
    every hand, not trusted; the fold's state must not name types either.

    Ways are exact with card removal, hands unordered inside and ordered
    between each other; the total is asserted to equal
    ``deal_count(counts, [size] * number)``.
    """
    if number < 1:
        raise ValueError("sequential_distribution needs at least one hand")
    if symmetric:
        _check_shape_classifier(len(counts), size, classify)
    deal = _SequentialDeal(size, classify, fold, symmetric)
    first = tuple(sorted(counts)) if symmetric else tuple(counts)
    layer = deal.deal_hands({(first, start): 1}, number - 1)
    result = deal.deal_last_hand(layer)
    distribution = {state: ways for state, ways in result.items() if ways}
    check_total(distribution, deal_count(counts, [size] * number), "sequential hand states")
    return distribution


class _SequentialDeal(Generic[S, C]):
    """The memo tables of one :func:`sequential_distribution` call.

    Every table is keyed by what the answer depends on, so each piece of work
    is done once per call: a hand's class once per hand, the hands a
    composition can deal (with the composition they leave) once per
    composition, the last hand's class distribution once per composition, and
    ``fold`` once per (state, class). They live only as long as the call: the
    classifier and fold are the caller's and need not be pure across calls.
    """

    __slots__ = (
        "_class_of",
        "_classify",
        "_final",
        "_fold",
        "_folded",
        "_moves",
        "_size",
        "_symmetric",
    )

    def __init__(
        self, size: int, classify: Callable[[Hand], C], fold: Callable[[S, C], S], symmetric: bool
    ) -> None:
        self._size = size
        self._classify = classify
        self._fold = fold
        self._symmetric = symmetric
        self._class_of: dict[Hand, C] = {}
        self._moves: dict[Composition, list[tuple[Composition, int, C]]] = {}
        self._final: dict[Composition, list[tuple[C, int]]] = {}
        self._folded: dict[tuple[S, C], S] = {}

    def deal_hands(
        self, layer: dict[tuple[Composition, S], int], count: int
    ) -> dict[tuple[Composition, S], int]:
        """Ways per (composition left, state) after ``count`` more hands are dealt."""
        moves_from, step = self._moves_from, self._step
        for _ in range(count):
            following: Counter[tuple[Composition, S]] = Counter()
            for (comp, state), ways in layer.items():
                for after, weight, cls in moves_from(comp):
                    following[after, step(state, cls)] += ways * weight
            layer = following
        return layer

    def deal_last_hand(self, layer: dict[tuple[Composition, S], int]) -> Counter[S]:
        """Ways per final state: the last hand needs only each composition's class counts.

        ``fold`` is memoised per state only when a state meets several compositions: where
        every state is its own (the classes name tiles, Mahjong's whole table) no (state,
        class) comes twice, and a memo kept for the call cost more than the folds
        (measured: 2.76 million entries, none used twice, for 20 tiles and three
        positions). Final states come in the order they are first reached.
        """
        final_from, fold = self._final_from, self._fold
        repeated = len({state for _, state in layer}) < len(layer)
        # Final states by id, in the order they first appear (the result's order), and per
        # state each class's id: a state (a tuple, hashed afresh on every lookup) is hashed
        # once per composition, not once per class (measured: Mahjong 2-8's 20-tile table,
        # 2 million (composition, class) pairs over 453 states, 1.2 -> 0.4 s).
        index: dict[S, int] = {}
        totals: list[int] = []
        per_state: dict[S, dict[C, int]] = {}
        for (comp, state), ways in layer.items():
            if repeated:
                ids = per_state.get(state)
                if ids is None:
                    ids = per_state[state] = {}
            else:
                ids = {}
            for cls, weight in final_from(comp):
                i = ids.get(cls)
                if i is None:
                    new = fold(state, cls)
                    i = index.get(new)
                    if i is None:
                        i = index[new] = len(totals)
                        totals.append(0)
                    ids[cls] = i
                totals[i] += ways * weight
        return Counter(dict(zip(index, totals, strict=True)))

    def _hand_class(self, hand: Hand) -> C:
        found = self._class_of.get(hand, _MISSING)
        if found is _MISSING:
            found = self._class_of[hand] = self._classify(hand)
        return found  # type: ignore[return-value]

    def _moves_from(self, comp: Composition) -> list[tuple[Composition, int, C]]:
        """Each hand ``comp`` can deal: (composition left, weight, class)."""
        found = self._moves.get(comp)
        if found is None:
            found = []
            for hand, weight in hands(comp, self._size):
                after = list(comp)
                for t in hand:
                    after[t] -= 1
                if self._symmetric:
                    after.sort()
                found.append((tuple(after), weight, self._hand_class(hand)))
            self._moves[comp] = found
        return found

    def _final_from(self, comp: Composition) -> list[tuple[C, int]]:
        """Ways per class of one hand from ``comp`` (hands of one class merged)."""
        found = self._final.get(comp)
        if found is None:
            merged: Counter[C] = Counter()
            for hand, weight in hands(comp, self._size):
                merged[self._hand_class(hand)] += weight
            found = self._final[comp] = list(merged.items())
        return found

    def _step(self, state: S, cls: C) -> S:
        key = (state, cls)
        found = self._folded.get(key, _MISSING)
        if found is _MISSING:
            found = self._folded[key] = self._fold(state, cls)
        return found  # type: ignore[return-value]


def _check_shape_classifier(type_count: int, size: int, classify: Callable[[Hand], C]) -> None:
    """Fail loudly unless every hand of one shape (sorted multiplicities) has one class."""
    odd = _shape_exception(type_count, size, classify)
    if odd is not None:
        raise AssertionError(f"classifier is not symmetric: {odd} differs from its shape")


def shape_classifier(type_count: int, size: int, classify: Callable[[Hand], Hashable]) -> bool:
    """Whether every hand of one shape (how many copies of how many types) has one class:
    relabelling the types then changes nothing (``sequential_distribution(symmetric=True)``)."""
    return _shape_exception(type_count, size, classify) is None


def _shape_exception(
    type_count: int, size: int, classify: Callable[[Hand], Hashable]
) -> Hand | None:
    seen: dict[tuple[int, ...], Hashable] = {}
    for hand in combinations_with_replacement(range(type_count), size):
        shape = tuple(sorted(Counter(hand).values()))
        cls = classify(hand)
        if seen.setdefault(shape, cls) != cls:
            return hand
    return None


def sequential_steps(counts: Sequence[int], size: int, number: int, symmetric: bool) -> int:
    """An upper bound on the (composition, hand) steps :func:`sequential_distribution` takes.

    The work grows with the compositions a layer of the deal can leave: the ways to take
    ``size · j`` cards from ``counts`` (a multiset, each type at most its count), at the
    worst layer ``j``, times the hands each can deal. ``symmetric`` merges compositions
    by their sorted counts: types of one count are then interchangeable, so a layer's
    compositions are at most the products over those groups of the partitions of what
    each group gives up (an upper bound: two groups may meet after sorting). Estimated
    before the count starts, so a deal out of reach is refused, not started.
    """
    if symmetric:
        groups: dict[int, int] = {}
        for n in counts:
            groups[n] = groups.get(n, 0) + 1
        parts = [_partition_counts(size * number, g, n) for n, g in groups.items()]
    else:
        parts = [[1] * (min(n, size * number) + 1) for n in counts]
    layers = [1]  # layers[m]: compositions left after m cards
    for ways_of in parts:
        grown = [0] * min(len(layers) + len(ways_of) - 1, size * number + 1)
        for m, ways in enumerate(layers):
            for take, k in enumerate(ways_of):
                if m + take < len(grown):
                    grown[m + take] += ways * k
        layers = grown
    present = sum(1 for n in counts if n)
    hands_each = comb(present + size - 1, size)
    return max(layers[size * j] for j in range(number) if size * j < len(layers)) * hands_each


def _partition_counts(most: int, parts: int, largest: int) -> list[int]:
    """``found[m]``: partitions of each ``m ≤ most`` into at most ``parts`` parts, each at
    most ``largest`` (what ``parts`` interchangeable types of ``largest`` cards can give up)."""
    # found[used][m]: multisets of ``used`` nonzero parts summing to m, values taken in turn
    found = [[0] * (most + 1) for _ in range(parts + 1)]
    found[0][0] = 1
    for value in range(1, largest + 1):
        grown = [row[:] for row in found]
        for used in range(parts + 1):
            for m in range(most + 1):
                if found[used][m]:
                    extra = 1
                    while used + extra <= parts and m + extra * value <= most:
                        grown[used + extra][m + extra * value] += found[used][m]
                        extra += 1
        found = grown
    return [sum(found[used][m] for used in range(parts + 1)) for m in range(most + 1)]


_MISSING = object()
