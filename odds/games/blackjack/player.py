"""Exact player expectations: the composition-dependent hit/stand recursion.

Strategy definition (what the numbers are exact for)
---------------------------------------------------
* Every decision is made on the *composition*: the shoe less the up card and
  the cards of the hand being played (for a split hand: its own cards and the
  other card of the pair; the other split hands' cards are ignored, see
  :mod:`odds.games.blackjack.splits`).
* Initial two-card hands choose the best of stand, hit, double, split and
  surrender (as the rules allow, :mod:`odds.games.blackjack.rounds`); later
  cards choose the best of hit and stand. A total of 21 is never hit.

This module is the engine under both: for one up card and one shoe, every
hand's stand value (from the dealer's exact outcome numerators kept per shoe,
:mod:`odds.games.blackjack.shoes`) and best hit/stand value, bottom-up.

Exact integers instead of fractions
-----------------------------------
For one up card every probability is a ratio of ordered draws, so values at a
node where the player holds ``s`` removed cards are kept as integers over the
common denominator ``D[s] = (N−s)(N−s−1)…(N−M+1)``: hitting multiplies a
child's value by its card count (``D[s] = (N−s)·D[s+1]``), so no fraction is
reduced until the root.

Dealer blackjack
----------------
Values are *unconditional*: under no-hole-card rules a dealer blackjack takes
every stake on the table (its lane weighs −1 per stake). Under a peeking
dealer the player acts only when the dealer has no blackjack: node values are
then ``E[result · 1(no blackjack)]`` (the blackjack lane weighs 0), which ranks
actions exactly as the conditional expectation does, and the round adds
``−P(blackjack)`` for the original stake.
"""

from __future__ import annotations

from collections.abc import Hashable
from itertools import compress, repeat
from operator import add as plus
from operator import floordiv, gt, mul, sub
from typing import Any

from odds.games.blackjack.dealer import RANKS, Counts, total_of
from odds.games.blackjack.nodes import STEP, Group
from odds.games.blackjack.shoes import Prepared, UpCard

# ---------------------------------------------------------------------------
# The recursion for one up card under one set of rules.


class Play:
    """Hit/stand values and decisions for one up card, shoe, soft-17 rule and peek rule.

    Values are integers at scale ``D[s]`` (see the module docstring), computed
    bottom-up per context (children before parents, so every child is ready).
    ``chart`` (optional) fixes the hit/stand decision by (total, soft).
    """

    def __init__(
        self, up: UpCard, peek: bool, chart: dict[tuple[int, bool], bool] | None = None
    ) -> None:
        self.u = up
        self.peek = peek
        self.chart = chart
        self.best: dict[int, dict[int, int]] = {}
        self.hit_values: dict[int, dict[int, int]] = {}
        self.hits: dict[int, dict[int, bool]] = {}
        self._dist: dict[int, dict[int, int]] = {}
        #: Results derived from this pass that several rule sets share (e.g. split hands
        #: valued with further pair cards out of the shoe, :mod:`.splits`).
        #: Keyed by a tuple naming the result (``("tree", x, actions)``, …); its values are
        #: of as many types as there are kinds of result, typed where they are read.
        self.memo: dict[tuple[Hashable, ...], Any] = {}

    # -- leaves -------------------------------------------------------------

    def stand(self, key: int, s: int, total: int) -> int:
        u = self.u
        packed, mask = u.packed(key), u.lane_mask
        a, b, c = u.stand_shifts[total, self.peek]
        lanes = ((packed >> a) & mask) + ((packed >> b) & mask) - ((packed >> c) & mask)
        return lanes * u.stand_scale[s]

    def bust(self, removed: list[int] | Counts, s: int) -> int:
        """Value of a busted hand with ``s`` removed cards (per unit staked)."""
        if not self.peek:
            return -self.u.scale[s]
        avoid, left = self.u.no_blackjack(list(removed), s)
        return -(self.u.scale[s] // left) * avoid

    def busts(self, s: int, bust_weight: int, bust_ranks: frozenset[int], removed: Counts) -> int:
        """Σ over busting cards of (their count) · (loss), as a positive number at ``D[s]``.

        ``bust_weight`` counts the busting cards in the full shoe; the up card's
        rank is taken off here.
        """
        u = self.u
        if u.up in bust_ranks:
            bust_weight -= 1
        if not bust_weight:
            return 0
        if not self.peek or u.blackjack_rank is None:
            return bust_weight * u.scale[s + 1]
        bj = u.blackjack_rank
        left = u.size - s - 1
        bj_left = u.n[bj] - removed[bj]
        avoid = (left - bj_left) * bust_weight
        if bj in bust_ranks:
            avoid += bj_left
        return (u.scale[s + 1] // left) * avoid

    def drawn(
        self, worth: dict[int, int], entry: Prepared, packed: bool, x: int = 0, a: int = 0
    ) -> int:
        """Σ over the next card of (cards of that rank left) · (value after it), busts
        included: a value at ``D[s]`` or (``packed``) ``(lose, push, win)`` numerators.

        The entry's weights count the full shoe; the up card comes off here, and ``a``
        further cards of rank ``x`` (a split hand valued with more pair cards out,
        :class:`.splits.ShiftedHands`: then at ``D[s + a]``). Hands not in ``worth``
        count 0.
        """
        _, s, _, _, kids, weights, position, bust_weight, bust_ranks, removed, _ = entry
        get = worth.get
        value: int = sum(map(mul, weights, map(get, kids, _ZEROS)))
        j = position[self.u.up]
        if j >= 0:
            value -= get(kids[j], 0)
        if a:
            j = position[x]
            if j >= 0:
                value -= a * get(kids[j], 0)
            if x in bust_ranks:
                bust_weight -= a
            removed = (*removed[:x], removed[x] + a, *removed[x + 1 :])
        loss = self.busts(s + a, bust_weight, bust_ranks, removed)
        return value + loss if packed else value - loss

    # -- the bottom-up pass -------------------------------------------------

    def context(self, ctx: int) -> dict[int, int]:
        """Best hit/stand value of every hand of the context (computed once).

        The hot loop of the engine, a group of hands with one hard total at a
        time (:meth:`.shoes.ShoeHands.weights`): every step is one pass over the group's
        hands (``map``), so the interpreter's cost is per group, not per hand.
        A hand the shoe cannot hold with this up card gets a value that is never
        used (every card leading to it has weight 0).
        """
        found = self.best.get(ctx)
        if found is not None:
            return found
        u = self.u
        best: dict[int, int] = {}
        hit_values: dict[int, int] = {}
        hits: dict[int, bool] = {}
        chart = self.chart
        up, get = u.up, best.__getitem__  # every child is a hand of the context, valued first
        for (group, weights, busting), stands in zip(
            u.hands.weights(ctx), u.stand_values(ctx, self.peek), strict=True
        ):
            keys = group.keys
            if group.total >= 21:
                best.update(zip(keys, stands, strict=True))
                continue
            value: Any = None
            for r, (kids, count) in enumerate(zip(group.kids, weights, strict=True)):
                drawn = map(sub, count, repeat(1)) if r == up else count  # the up card is out
                term = map(mul, drawn, map(get, kids))
                value = term if value is None else map(plus, value, term)
            loss = self._losses(group, busting)
            hit = list(map(sub, value, loss)) if loss is not None else list(value)
            hit_values.update(zip(keys, hit, strict=True))
            if chart is not None:
                take = chart[group.total, group.soft]
                hits.update(zip(keys, repeat(take)))
                best.update(zip(keys, hit if take else stands, strict=True))
            else:
                more = list(map(gt, hit, stands))
                hits.update(zip(keys, more, strict=True))
                best.update(zip(keys, stands, strict=True))
                best.update(zip(compress(keys, more), compress(hit, more), strict=True))
        self.best[ctx], self.hit_values[ctx], self.hits[ctx] = best, hit_values, hits
        return best

    def _losses(self, group: Group, busting: list[int]) -> Any:
        """Σ over busting cards of (their count) · (loss), per hand of the group (``None``: 0)."""
        u = self.u
        if not busting or group.first_bust >= RANKS:
            return None
        if u.up >= group.first_bust:
            busting = list(map(sub, busting, repeat(1)))
        scale = u.scale + [0] * (RANKS * 3)  # hands the shoe cannot hold: 0
        steps = map(scale.__getitem__, map(plus, group.sizes, repeat(1)))
        bj = u.blackjack_rank
        if not self.peek or bj is None:
            return map(mul, busting, steps)
        # Under a peek a bust loses only when the dealer has no blackjack.
        left = [max(u.size - s - 1, 1) for s in group.sizes]  # (1: a hand beyond the shoe)
        bj_left = list(map(sub, repeat(u.n[bj]), group.removed[bj]))
        avoid = map(mul, map(sub, left, bj_left), busting)
        if bj >= group.first_bust:
            avoid = map(plus, avoid, bj_left)
        return map(mul, map(floordiv, steps, left), avoid)

    def hit(self, ctx: int, key: int) -> int:
        self.context(ctx)
        return self.hit_values[ctx][key]

    def double(self, removed: list[int], key: int, s: int, hard: int, aces: int) -> int:
        return 2 * self._double(removed, key, s, hard, aces, None)

    # -- distributions (lose, push, win) for the decided policy ----------------

    def distributions(self, ctx: int, width: int) -> dict[int, int]:
        """Packed ``(lose, push, win)`` numerators at scale ``D[s]`` of every hand."""
        found = self._dist.get(ctx)
        if found is not None:
            return found
        self.context(ctx)
        hits = self.hits[ctx]
        dist: dict[int, int] = {}
        for entry in self.u.prepared(ctx):
            key, s, total = entry[0], entry[1], entry[2]
            if not hits.get(key, False):
                dist[key] = self.stand_distribution(key, s, total, width)
            else:
                dist[key] = self.drawn(dist, entry, True)
        self._dist[ctx] = dist
        return dist

    def hit_packed(self, ctx: int, key: int, width: int) -> int:
        """Distribution of hitting the hand ``key`` once, then playing on by the decisions."""
        dist = self.distributions(ctx, width)
        entry = self.u.entry(ctx, key)
        return self.drawn(dist, entry, True)

    def stand_distribution(self, key: int, s: int, total: int, width: int) -> int:
        """Packed ``(lose, push, win)`` of standing: the dealer's blackjack voided by a
        peek is none of them (the round never happened)."""
        u = self.u
        packed, mask = u.packed(key), u.lane_mask
        a, b, c = u.stand_shifts[total, self.peek]
        win, above, last = ((packed >> shift) & mask for shift in (a, b, c))
        push = above - win if a != b else 0
        lose = last - above
        scale = u.stand_scale[s]
        return (lose * scale) | ((push * scale) << width) | ((win * scale) << (2 * width))

    def double_distribution(
        self, removed: list[int], key: int, s: int, hard: int, aces: int, width: int
    ) -> int:
        return self._double(removed, key, s, hard, aces, width)

    def _double(
        self, removed: list[int], key: int, s: int, hard: int, aces: int, width: int | None
    ) -> int:
        """One card, then stand: the value at ``D[s]`` per unit staked (``width`` None) or
        the packed ``(lose, push, win)`` numerators (:meth:`stand_distribution`)."""
        n = self.u.n
        value = 0
        for r in range(RANKS):
            w = n[r] - removed[r]
            if not w:
                continue
            removed[r] += 1
            if hard + r + 1 > 21:
                bust = self.bust(removed, s + 1)
                value += w * (bust if width is None else -bust)
            else:
                total, _ = total_of(hard + r + 1, aces + (r == 0) > 0)
                if width is None:
                    value += w * self.stand(key + STEP[r], s + 1, total)
                else:
                    value += w * self.stand_distribution(key + STEP[r], s + 1, total, width)
            removed[r] -= 1
        return value


_ZEROS = (0,) * RANKS
