"""Showdowns below a shoe: a win/tie/lose bet's exact EV for any composition.

The engine's :func:`odds.engine.showdown.count_showdown` counts one composition's
showdown by inclusion–exclusion over the first hand's types. Here that count
is laid out once for every composition below a full shoe (which entries and
which prefix positions each first hand needs do not depend on the counts), and
evaluated with array arithmetic: Goa Gae's Player bet in milliseconds.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import chain, product
from math import comb, lcm
from operator import itemgetter
from typing import Any

from odds.core.caching import cached
from odds.engine import hands as engine_hands
from odds.engine.polynomial import INT64_SAFE, Monomial, gather_product, hand_groups

#: For each part of a hand's types: (strength rank, hand index, the rest of its types).
Groups = dict[Monomial, list[tuple[int, int, Monomial]]]


class SubShowdown:
    """Exact EV of a showdown bet (first hand against a second) for any composition.

    The bet wins ``win(key)`` when the first hand's strength key is higher (by
    the first hand's key), pushes on equal keys, and loses ``cost(key)`` when
    the second hand is stronger (by the second hand's key) — Goa Gae's Player
    bet with or without category bonuses.

    The method is :func:`odds.engine.showdown.count_showdown`'s inclusion–exclusion,
    laid out once for every composition below ``full`` and evaluated with array
    arithmetic. Writing ``δ_t(p) = C(c_t − a_t, p) − C(c_t, p)`` for the types
    of the first hand ``A``,

        Σ_{B below} v(B) · ways(B | c − A) = Σ_{B below} v(B) w_c(B)
            + Σ_{parts P on A's types} ∏_{t∈P} δ_t(p_t) · G_P,
        G_P = Σ_{B below, B|types(P) = P} v(B) w_c(B ∖ P)

    The last sums are prefix sums over the hands containing each part, sorted
    by strength: which entries and which prefix positions each ``A`` needs are
    fixed by the full shoe, only the weights change with ``c``.
    """

    def __init__(
        self,
        full: Sequence[int],
        size: int,
        strength: Callable[[tuple[int, ...]], Any],
        win: Callable[[Any], Fraction],
        cost: Callable[[Any], Fraction],
    ) -> None:
        import numpy as np

        self.full, self.size = tuple(full), size
        all_hands = [hand for hand, _ in engine_hands(full, size)]
        keys = [strength(hand) for hand in all_hands]
        distinct = sorted(set(keys))
        rank_of = {key: r for r, key in enumerate(distinct)}
        ranks = tuple([rank_of[key] for key in keys])
        # Payoffs depend on the key only: one call per distinct key.
        win_of = {key: _rational(win(key)) for key in distinct}
        cost_of = {key: _rational(cost(key)) for key in distinct}
        self.scale = lcm(*(v.denominator for v in (*win_of.values(), *cost_of.values())))
        # Each payoff over the common denominator, in integers (22,000 keys for Goa Gae's
        # bonus table: a Fraction product each was a tenth of a second).
        units = {k: v.numerator * (self.scale // v.denominator) for k, v in win_of.items()}
        self._win = np.array([units[key] for key in keys], dtype=np.int64)
        units = {k: v.numerator * (self.scale // v.denominator) for k, v in cost_of.items()}
        cost_units = [units[key] for key in keys]
        # What the payoffs do not change (which entries and prefix positions each first
        # hand needs) is laid out once per shoe, hand size and strength order: a second
        # bet or paytable on the same hands (Goa Gae's with bonuses, a tie's share) reuses it.
        self._layout = _layout(self.full, size, ranks)
        self._cost_all = np.array(cost_units, dtype=np.int64)
        self._entry_cost = self._cost_all[self._layout.entry_hands]
        bound = comb(sum(full), size) ** 2 * max(map(abs, [*self._win.tolist(), *cost_units, 1]))
        if bound * 64 >= INT64_SAFE:
            raise ValueError("SubShowdown: the shoe is too large for exact int64 arithmetic")

    def numerator(self, counts: Sequence[int]) -> tuple[int, int]:
        """``(Σ net · ways · scale, deals)`` for the composition ``counts``."""
        import numpy as np

        layout = self._layout
        c = np.asarray(counts, dtype=np.int64)
        w = layout.width
        binom = np.zeros((len(c), w), dtype=np.int64)
        for j in range(w):
            binom[:, j] = [comb(int(x), j) for x in c]
        flat = binom.reshape(-1)
        # δ_t(p) for a first hand holding ``copies`` of t: C(c_t − copies, p) − C(c_t, p).
        delta = np.zeros((len(c), w, w), dtype=np.int64)
        for copies in range(w):
            for p in range(w):
                after = np.array([comb(max(int(x) - copies, 0), p) for x in c])
                delta[:, copies, p] = after - binom[:, p]
        delta_flat = np.append(delta.reshape(-1), 1)
        weights = gather_product(flat, layout.hand_cols)
        order = layout.order
        plain = np.concatenate(([0], np.cumsum(weights[order])))
        costly = np.concatenate(([0], np.cumsum((weights * self._cost_all)[order])))
        rest = gather_product(flat, layout.entry_cols)
        ones = np.concatenate(([0], np.cumsum(rest)))
        paid = np.concatenate(([0], np.cumsum(rest * self._entry_cost)))
        factor = gather_product(delta_flat, layout.deltas)

        def per_hand(values: Any) -> Any:
            return np.add.reduceat(values, layout.starts) if len(values) else values

        below = plain[layout.below_all] + per_hand(factor * (ones[layout.below] - ones[layout.low]))
        owed = (costly[-1] - costly[layout.upto_all]) + per_hand(
            factor * (paid[layout.end] - paid[layout.upto])
        )
        total = int(np.dot(weights, self._win * below - owed))
        n = int(c.sum())
        return total, comb(n, self.size) * comb(n - self.size, self.size)

    def ev(self, counts: Sequence[int]) -> Fraction:
        """The exact EV per unit staked for the composition ``counts``."""
        if any(not 0 <= x <= f for x, f in zip(counts, self.full, strict=True)):
            raise ValueError("composition outside the shoe the showdown was built for")
        total, deals = self.numerator(counts)
        return Fraction(total, deals * self.scale)


def _rational(value: Fraction | int) -> Fraction:
    return value if isinstance(value, Fraction) else Fraction(value)


@cached(maxsize=4)
def _layout(full: tuple[int, ...], size: int, ranks: tuple[int, ...]) -> _Layout:
    """The payoff-free layout of :class:`SubShowdown` for the hands of ``size`` below
    ``full`` (in :func:`odds.engine.hands` order) of strength ranks ``ranks``."""
    return _Layout(full, size, ranks)


class _Layout:
    """Which entries and prefix positions each first hand needs: fixed by the full shoe,
    the hand size and the hands' strength order (not by what a bet pays)."""

    def __init__(self, full: tuple[int, ...], size: int, ranks: tuple[int, ...]) -> None:
        import numpy as np

        self.full, self.size = full, size
        self.width = size + 1
        patterns = [tuple(hand_groups(hand)) for hand, _ in engine_hands(full, size)]
        # Each number of groups' splits into a part (a non-empty subset) and the rest.
        splits: dict[int, list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
        groups: Groups = defaultdict(list)
        for b, pattern in enumerate(patterns):
            found = splits.get(len(pattern))
            if found is None:
                k = len(pattern)
                found = splits[k] = [
                    (
                        tuple(i for i in range(k) if mask >> i & 1),
                        tuple(i for i in range(k) if not mask >> i & 1),
                    )
                    for mask in range(1, 1 << k)
                ]
            rank = ranks[b]
            for inside, outside in found:
                groups[tuple([pattern[i] for i in inside])].append(
                    (rank, b, tuple([pattern[i] for i in outside]))
                )
        self._build_entries(groups, np)
        self._build_lookups(patterns, ranks, np)
        order = sorted(range(len(patterns)), key=ranks.__getitem__)
        sorted_ranks = [ranks[i] for i in order]
        self.order = np.array(order, dtype=np.intp)
        self.hand_cols = self._columns(patterns, np)
        rank_array = np.array(sorted_ranks)
        self.below_all = np.searchsorted(rank_array, ranks, "left")
        self.upto_all = np.searchsorted(rank_array, ranks, "right")

    def _columns(self, monos: Sequence[Monomial], np: Any) -> Any:
        """Each monomial's factor positions ``t · width + j``, padded with 0 (one array
        operation over every monomial's flattened pairs)."""
        lengths = np.fromiter(map(len, monos), dtype=np.intp, count=len(monos))
        size = int(lengths.max()) if len(monos) else 1
        size = size or 1
        pairs = np.fromiter(chain.from_iterable(chain.from_iterable(monos)), dtype=np.intp)
        pairs = pairs.reshape(-1, 2)
        columns = np.zeros((len(monos), size), dtype=np.intp)
        ends = np.cumsum(lengths)
        rows = np.repeat(np.arange(len(monos)), lengths)
        places = np.arange(len(pairs)) - np.repeat(ends - lengths, lengths)
        columns[rows, places] = pairs[:, 0] * self.width + pairs[:, 1]
        return columns

    def _build_entries(self, groups: Groups, np: Any) -> None:
        """Entries (part, hand) sorted by part then strength; prefix sums run within parts.

        A part's members come in hand order, so a stable sort by strength is the order
        by (strength, hand).
        """
        self._parts: dict[Monomial, int] = {}  # part → its index, in sorted order
        hands_: list[int] = []
        rests: list[Monomial] = []
        ranks: list[int] = []
        starts: list[int] = []
        for part in sorted(groups):
            members = sorted(groups[part], key=itemgetter(0))
            self._parts[part] = len(starts)
            starts.append(len(hands_))
            ranks += [r for r, _, _ in members]
            hands_ += [b for _, b, _ in members]
            rests += [rest for _, _, rest in members]
        self.entry_cols = self._columns(rests, np)
        self.entry_hands = np.array(hands_, dtype=np.intp)
        # Every entry as (its part's index, its strength) in one sorted integer key: a
        # first hand's prefix positions are binary searches of it.
        self._part_starts = np.array([*starts, len(hands_)], dtype=np.int64)
        self._stride = max(ranks, default=0) + 2
        part_of = np.repeat(np.arange(len(starts), dtype=np.int64), np.diff(self._part_starts))
        self._entry_keys = part_of * self._stride + np.array(ranks, dtype=np.int64)

    def _build_lookups(self, patterns: list[Monomial], ranks: Sequence[int], np: Any) -> None:
        """For every first hand, every part on its types: prefix positions and δ factors.

        A part takes ``p`` of a type the hand holds (``1 ≤ p ≤ min(size, full)`` on at least
        one type, ``Σ p ≤ size``): every vector of picks is tried on every hand at once (in
        the order of ``itertools.product``), and the parts found among the entries kept.
        """
        width, size, count = self.width, self.size, len(patterns)
        types = np.zeros((count, size), dtype=np.int64)
        copies = np.zeros((count, size), dtype=np.int64)  # 0 past a hand's last type
        for a, pattern in enumerate(patterns):
            for i, (t, m) in enumerate(pattern):
                types[a, i], copies[a, i] = t, m
        caps = np.where(copies > 0, np.minimum(np.asarray(self.full)[types], size), 0)
        picks = np.array(list(product(range(size + 1), repeat=size)), dtype=np.int64)
        picks = picks[(picks.sum(axis=1) <= size) & (picks.sum(axis=1) > 0)]
        fits = (picks[None, :, :] <= caps[:, None, :]).all(axis=2)
        hand, option = np.nonzero(fits)  # by hand, then picks in product order
        chosen = picks[option]
        held_types, held_copies = types[hand], copies[hand]
        # A part as one integer: its (type, picks) pairs in type order, base-``base`` digits.
        base = len(self.full) * width + 1
        code = np.zeros(len(hand), dtype=np.int64)
        for i in range(size):
            taken = chosen[:, i] > 0
            code = np.where(taken, code * base + held_types[:, i] * width + chosen[:, i] + 1, code)
        known = np.array(
            sorted((self._part_code(part, base), index) for part, index in self._parts.items()),
            dtype=np.int64,
        ).reshape(-1, 2)
        where = np.searchsorted(known[:, 0], code).clip(max=max(len(known) - 1, 0))
        found = known[where, 0] == code if len(known) else np.zeros(len(code), dtype=bool)
        hand, chosen, where = hand[found], chosen[found], where[found]
        held_types, held_copies = held_types[found], held_copies[found]
        owner = hand
        parts = known[where, 1]
        strengths = np.asarray(ranks, dtype=np.int64)[hand]
        pad = len(self.full) * width * width  # a δ slot holding 1
        deltas = np.where(chosen > 0, (held_types * width + held_copies) * width + chosen, pad)
        self._owner = np.asarray(owner, dtype=np.intp)
        self.starts = np.searchsorted(self._owner, np.arange(len(patterns)))
        part = np.asarray(parts, dtype=np.int64)
        keys = part * self._stride + strengths
        self.low, self.end = self._part_starts[part], self._part_starts[part + 1]
        self.below = np.searchsorted(self._entry_keys, keys, "left")
        self.upto = np.searchsorted(self._entry_keys, keys, "right")
        self.deltas = deltas.astype(np.intp).reshape(-1, size)

    def _part_code(self, part: Monomial, base: int) -> int:
        """A part's integer code (see :meth:`_build_lookups`)."""
        code = 0
        for t, p in part:
            code = code * base + t * self.width + p + 1
        return code
