"""Two hands after a first one, for every first hand: the array half of the three-hand joint.

:func:`odds.engine.triple_class_distribution` fixes a first hand (a banker),
then needs the joint of the two hands dealt after it from what it left. As in
:func:`odds.engine.joint_class_distribution`, that joint is the product of the
class totals of the remaining composition ``c``,

    J[k1, k2] = m_c[k1] · m_c[k2] + Σ over pairs (h1, h2) sharing a type,
                class k1 and k2, of w(h1 | c) · (w(h2 | c − h1) − w(h2 | c)),

because a second hand that shares no type with the first is dealt in as many
ways as from ``c`` itself. The pairs that share a type are the same for every
first hand (about 140,000 of 1,378² for two cards from 52 types); only the
counts change. So they are listed once, as numpy arrays, with their terms for
the full composition; a first hand changes only the terms of the pairs holding
one of its types (about a ninth of them), so each first hand recomputes those
with a few array operations. numpy is imported here only.

Integers are int64 when C(N, size)³ is below 2⁶² — every partial sum is then
bounded by it, so nothing can overflow — and Python integers (object arrays)
otherwise. The caller asserts the grand total.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import comb
from typing import Any

import numpy as np

from odds.runtime.progress import track

Hand = tuple[int, ...]


class TwoAfterOne:
    """The joint of two hands after a first one, for any first hand of one composition.

    ``classes[h]`` is hand ``h``'s class as a small integer (``0 … kinds − 1``).
    """

    def __init__(
        self,
        counts: Sequence[int],
        size: int,
        all_hands: Sequence[tuple[Hand, int]],
        classes: Sequence[int],
    ) -> None:
        self.counts = np.array(counts, dtype=np.int64)
        self.all_hands = all_hands
        self.kinds = max(classes) + 1
        self.dtype: Any = np.int64 if comb(sum(counts), size) ** 3 < 2**62 else object
        self.binomials = np.array(
            [[comb(n, a) for a in range(size + 1)] for n in range(max(counts) + 1)],
            dtype=self.dtype,
        )
        self.classes = np.array(classes, dtype=np.int64)
        self.types, self.mult = _hand_arrays(all_hands, size)
        first, second = _touching_pairs(all_hands, len(counts))
        first_arr, second_arr = np.array(first), np.array(second)
        overlap = (self.types[first_arr][:, :, None] == self.types[second_arr][:, None, :]).sum(1)
        # Sorted by (first class, second class), so each class pair is one run to add up.
        key = self.classes[first_arr] * self.kinds + self.classes[second_arr]
        order = np.argsort(key, kind="stable")
        self.keys, self.starts = np.unique(key[order], return_index=True)
        self.first, self.second = first_arr[order], second_arr[order]
        self.overlap = overlap[order]
        self.second_types, self.second_mult = self.types[self.second], self.mult[self.second]
        self.pair_keys = key[order]
        # Each pair's term from the full composition, and their sums per class pair: a first
        # hand changes only the terms of the pairs that hold one of its types.
        self.full_change = self._changes(self.counts, slice(None))
        self.full_correction = np.zeros(self.kinds * self.kinds, dtype=self.dtype)
        self.full_correction[self.keys] = np.add.reduceat(self.full_change, self.starts)

    def weights(self, composition: Any) -> Any:
        """Every hand's ways to be dealt from ``composition``: ∏_j C(c[type_j], mult_j)."""
        result = self.binomials[composition[self.types[:, 0]], self.mult[:, 0]]
        for j in range(1, self.types.shape[1]):
            result = result * self.binomials[composition[self.types[:, j]], self.mult[:, j]]
        return result

    def _changes(self, left: Any, pairs: Any) -> Any:
        """``w(h1 | left) · (w(h2 | left − h1) − w(h2 | left))`` for the chosen pairs."""
        weights = self.weights(left)
        second_types, overlap = self.second_types[pairs], self.overlap[pairs]
        second_mult = self.second_mult[pairs]
        after = np.ones(len(second_types), dtype=self.dtype)
        for j in range(second_types.shape[1]):
            # Clipped at 0: where the first hand cannot be dealt its weight is 0 anyway.
            remaining = np.maximum(left[second_types[:, j]] - overlap[:, j], 0)
            after = after * self.binomials[remaining, second_mult[:, j]]
        return weights[self.first[pairs]] * (after - weights[self.second[pairs]])

    def _pairs_holding(self, types: Iterable[int]) -> Any:
        """The pairs (sorted indices) whose first or second hand holds one of ``types``."""
        holds = np.zeros(len(self.types), dtype=bool)
        for t in set(types):
            holds |= (self.types == t).any(axis=1)
        return np.flatnonzero(holds[self.first] | holds[self.second])

    def joint_after(self, removed: Hand) -> Any:
        """Ways per (second class, third class), flattened, after ``removed`` left the shoe.

        Only the pairs holding a removed type change their term (a hand's weight depends
        on its own types' counts alone): those are recomputed, about a tenth of the pairs
        for two cards from 52 types, and the rest kept from the full composition.
        """
        left = self.counts.copy()
        for t in removed:
            left[t] -= 1
        marginal = np.zeros(self.kinds, dtype=self.dtype)
        np.add.at(marginal, self.classes, self.weights(left))
        joint = np.outer(marginal, marginal).reshape(-1) + self.full_correction
        pairs = self._pairs_holding(removed)
        if len(pairs):
            delta = self._changes(left, pairs) - self.full_change[pairs]
            keys = self.pair_keys[pairs]  # sorted, as the pairs are sorted by class pair
            starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
            joint[keys[starts]] += np.add.reduceat(delta, starts)
        return joint

    def by_first_class(
        self, representatives: Iterable[tuple[int, int]]
    ) -> dict[tuple[int, int, int], int]:
        """Ways per (first, second, third class) over first hands given as (index, orbit size)."""
        result = np.zeros((self.kinds, self.kinds * self.kinds), dtype=self.dtype)
        chosen = list(representatives)
        for i, orbit_size in track(chosen, "three hands: first hands"):
            removed, ways = self.all_hands[i]
            result[self.classes[i]] += self.joint_after(removed) * (ways * orbit_size)
        found: dict[tuple[int, int, int], int] = {}
        for a, rest in zip(*np.nonzero(result), strict=True):
            b, c = divmod(int(rest), self.kinds)
            found[int(a), b, c] = int(result[a, rest])
        return found


def _hand_arrays(all_hands: Sequence[tuple[Hand, int]], size: int) -> tuple[Any, Any]:
    """``types[h, j]``: hand ``h``'s ``j``-th type (sorted); ``mult[h, j]``: that type's
    multiplicity at its first position, 0 elsewhere (C(n, 0) = 1 leaves the product alone)."""
    types = np.array([hand for hand, _ in all_hands], dtype=np.int64).reshape(-1, size)
    mult = np.zeros_like(types)
    for h, (hand, _) in enumerate(all_hands):
        for j, t in enumerate(hand):
            if j == 0 or hand[j - 1] != t:
                mult[h, j] = hand.count(t)
    return types, mult


def _touching_pairs(
    all_hands: Sequence[tuple[Hand, int]], type_count: int
) -> tuple[list[int], list[int]]:
    """Every (first hand, second hand) index pair sharing at least one type."""
    containing: list[list[int]] = [[] for _ in range(type_count)]
    for j, (hand, _) in enumerate(all_hands):
        for t in set(hand):
            containing[t].append(j)
    first: list[int] = []
    second: list[int] = []
    for i, (hand, _) in enumerate(all_hands):
        touched = sorted({j for t in set(hand) for j in containing[t]})
        first.extend([i] * len(touched))
        second.extend(touched)
    return first, second
