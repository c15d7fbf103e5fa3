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

Hands of one or two cards have a closed form instead (:class:`SmallHandsAfterOne`):
the joint of two hands from a composition is a few class-total products, with no
list of pairs at all (about 0.1 ms a first hand instead of 4 ms).
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

    def by_first_class(self, representatives: Iterable[tuple[int, int]]) -> Any:
        """Ways per (first, second, third class), a ``kinds³`` array, over first hands given
        as (index, orbit size)."""
        result = np.zeros((self.kinds, self.kinds * self.kinds), dtype=self.dtype)
        chosen = list(representatives)
        for i, orbit_size in track(chosen, "three hands: first hands"):
            removed, ways = self.all_hands[i]
            result[self.classes[i]] += self.joint_after(removed) * (ways * orbit_size)
        return result.reshape(self.kinds, self.kinds, self.kinds)


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


class SmallHandsAfterOne:
    """The joint of two hands of one or two cards after a first one, in closed form.

    Deal the two hands' cards as ordered slots (1, 2 for the second hand; 3, 4 for the
    third). The ordered ways to give slot ``s`` a card of type ``t_s`` are
    ``∏_t (n_t)_(m_t)`` (falling factorials of the counts, ``m_t`` the slots of type
    ``t``), and a falling factorial is a sum over the set partitions of its slots,

        ∏_t (n_t)_(m_t) = Σ over partitions π of the slots into equal-type blocks of
                          ∏_blocks (−1)^(|B|−1) (|B|−1)! n_(t_B),

    so summing over every type assignment, with the class indicators, gives each
    partition's term as a sum over one free type per block. Two-card hands have 15
    partitions of four slots; a hand's class indicator is one-hot, so every term is a
    class total: with ``A[k] = Σ_ab n_a n_b [k(a,b) = k]``, ``D[k] = Σ_a n_a [k(a,a) = k]``,
    ``V[a, k] = Σ_b n_b [k(a,b) = k]``, ``C = Σ_a n_a V_a ⊗ V_a`` and
    ``E[k, l] = Σ_a n_a [k(a,a) = k] V[a, l]``,

        4 · J = (A − D) ⊗ (A − D) − 4 C + 2 diag(A) + 4 (E + Eᵀ) − 6 diag(D)

    (the hands are unordered inside: 2! · 2! orders each). One-card hands:
    ``J = A ⊗ A − diag(A)`` with ``A[k] = Σ_a n_a [k(a) = k]``. The identity holds for
    any composition, so the same arrays serve every first hand; a pair of a type the
    full shoe cannot deal twice gets a class of its own (:attr:`impossible`), whose
    ways must come out 0 (asserted).
    """

    def __init__(
        self,
        counts: Sequence[int],
        size: int,
        all_hands: Sequence[tuple[Hand, int]],
        classes: Sequence[int],
    ) -> None:
        if size not in (1, 2):
            raise ValueError("the closed form is for hands of one or two cards")
        self.size = size
        self.counts = np.array(counts, dtype=np.int64)
        self.all_hands = all_hands
        self.kinds = max(classes) + 1
        self.impossible = self.kinds  # a type pair the full shoe cannot deal
        width = self.width = self.kinds + 1
        types = len(counts)
        self.dtype: Any = np.int64
        if size == 1:
            self.cls = np.full(types, self.impossible, dtype=np.int64)
            for (hand, _), k in zip(all_hands, classes, strict=True):
                self.cls[hand[0]] = k
        else:
            cls = np.full((types, types), self.impossible, dtype=np.int64)
            for (hand, _), k in zip(all_hands, classes, strict=True):
                cls[hand[0], hand[1]] = cls[hand[1], hand[0]] = k
            self.cls = cls.reshape(-1)
            self.diagonal = cls.diagonal().copy()
            self.rows = (np.arange(types)[:, None] * width + cls).reshape(-1)
            self.paired = np.zeros((types, width), dtype=np.int64)
            self.paired[np.arange(types), self.diagonal] = 1
        self.classes = np.array(classes, dtype=np.int64)

    @staticmethod
    def applies(counts: Sequence[int], size: int) -> bool:
        """One or two cards a hand, and every count of three hands' deals within int64."""
        return size in (1, 2) and comb(sum(counts), size) ** 3 < 2**62

    def joint(self, left: Any) -> Any:
        """Ways per (class, class) of two hands dealt one after the other from ``left``."""
        width, n = self.width, left
        if self.size == 1:
            marginal = np.bincount(self.cls, weights=n, minlength=width).astype(np.int64)
            return np.outer(marginal, marginal) - np.diag(marginal)
        both = np.bincount(self.cls, weights=np.outer(n, n).reshape(-1), minlength=width)
        both = both.astype(np.int64)
        paired = np.bincount(self.diagonal, weights=n, minlength=width).astype(np.int64)
        rows = np.bincount(self.rows, weights=np.tile(n, len(n)), minlength=len(n) * width)
        by_type = rows.astype(np.int64).reshape(len(n), width)
        weighted = n[:, None] * by_type
        shared = weighted.T @ by_type
        crossed = self.paired.T @ weighted
        distinct = both - paired
        four = (
            np.outer(distinct, distinct)
            - 4 * shared
            + 4 * (crossed + crossed.T)
            + np.diag(2 * both - 6 * paired)
        )
        if (four % 4).any():  # pragma: no cover - the identity makes every entry a multiple
            raise AssertionError("two hands in closed form: ways not a multiple of 2!·2!")
        return four // 4

    def joint_after(self, removed: Hand) -> Any:
        """Ways per (second class, third class), flattened, after ``removed`` left the shoe."""
        left = self.counts.copy()
        for t in removed:
            left[t] -= 1
        return self._possible(self.joint(left)).reshape(-1)

    def full_joint(self) -> Any:
        """Ways per (first class, second class) of two hands from the full composition."""
        return self._possible(self.joint(self.counts))

    def _possible(self, joint: Any) -> Any:
        if joint[self.impossible].any() or joint[:, self.impossible].any():
            raise AssertionError("two hands in closed form: an impossible hand has ways")
        return joint[: self.kinds, : self.kinds]

    def by_first_class(self, representatives: Iterable[tuple[int, int]]) -> Any:
        """Ways per (first, second, third class), a ``kinds³`` array, over first hands given
        as (index, orbit size)."""
        result = np.zeros((self.kinds, self.kinds * self.kinds), dtype=np.int64)
        for i, orbit_size in representatives:
            removed, ways = self.all_hands[i]
            result[self.classes[i]] += self.joint_after(removed) * (ways * orbit_size)
        return result.reshape(self.kinds, self.kinds, self.kinds)


def nonzero(table: Any) -> dict[tuple[int, ...], int]:
    """The nonzero entries of an integer array, by index tuple (as Python integers)."""
    return {
        tuple(int(i) for i in index): int(table[index])
        for index in zip(*np.nonzero(table), strict=True)
    }
