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
hand's stand value (from the dealer's exact outcome numerators,
:mod:`odds.games.blackjack.dealer`) and best hit/stand value, bottom-up.

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

from collections.abc import Sequence
from operator import le, mul
from typing import Any

from odds.errors import OddsError
from odds.games.blackjack.dealer import (
    BLACKJACK,
    RANKS,
    Counts,
    DealerPlan,
    RemovalTree,
    dealer_numerators,
    falling,
    plan,
    total_of,
)
from odds.games.blackjack.nodes import (
    _STEP,
    ACTION_NAMES,
    DOUBLE,
    EXTRA,
    HIT,
    NATURAL,
    PAY_WEIGHTS,
    SPLIT,
    STAND,
    SURRENDER,
    add,
    context_nodes,
    hand_multisets,
    hard_total,
    key_of,
)
from odds.games.blackjack.options import BlackjackRules

__all__ = [  # the engine's vocabulary, importable from here as before
    "ACTION_NAMES",
    "DOUBLE",
    "HIT",
    "NATURAL",
    "SPLIT",
    "STAND",
    "SURRENDER",
    "_STEP",
    "Family",
    "Play",
    "UpCard",
    "add",
    "context_nodes",
    "family",
    "hand_multisets",
    "hard_total",
    "key_of",
]

# ---------------------------------------------------------------------------
# One up card of one shoe: dealer numerators and the scale of every value.


class UpCard:
    """Dealer numerators and scales for one up card and one shoe (after the up card).

    Shared by every rule variant with the same shoe and soft-17 rule; packed
    dealer numerators are computed lazily for the removed multisets asked for.
    """

    def __init__(self, fam: Family, up: int) -> None:
        counts, hits_soft_17 = fam.counts, fam.hits_soft_17
        self.family = fam
        after = list(counts)
        if after[up] <= 0:
            raise OddsError(f"the shoe has no {RANK_LABEL[up]} for the dealer's up card")
        after[up] -= 1
        self.up = up
        self.n: Counts = tuple(after)
        self.size = sum(after)
        self.plan: DealerPlan = plan(self.n, up, hits_soft_17)
        self.smax = fam.smax
        self.top = self.smax + self.plan.kmax
        if self.size < self.top:
            raise OddsError(
                f"impossible composition: a shoe of {self.size + 1} cards may run out during "
                "a round; use at least one full deck"
            )
        self.scale = [falling(self.size - s, self.top - s) for s in range(self.smax + 1)]
        self.stand_scale = [
            falling(self.size - s - self.plan.kmax, self.top - s - self.plan.kmax)
            for s in range(self.smax + 1)
        ]
        self._lanes: dict[int, tuple[int, ...]] = {}
        self._packed: dict[int, int] = {}
        self.modulus = (1 << self.plan.lane_bits) - 1
        self.masks = {
            (t, peek): tuple(
                self.plan.lane_mask(o for o, w in enumerate(PAY_WEIGHTS[t, peek]) if w == sign)
                for sign in (-1, 0, 1)
            )
            for (t, peek) in PAY_WEIGHTS
        }
        self._ensured: set[RemovalTree] = set()
        self._prepared: dict[int, list[tuple]] = {}
        self._index: dict[int, dict[int, tuple]] = {}
        # Rank that completes a dealer blackjack with this up card (None: impossible).
        self.blackjack_rank = 9 if up == 0 else (0 if up == 9 else None)

    def _fits(self, r: Counts) -> bool:
        return all(c <= self.n[i] for i, c in enumerate(r))

    def ensure(self, pairs: Sequence[tuple[Counts, int]], tree: RemovalTree | None = None) -> None:
        """Dealer numerators for the ``(multiset, key)`` pairs not computed yet.

        ``tree`` (optional) is the pairs' prefix tree, built once and shared by
        every up card and shoe; multisets the shoe cannot hold are skipped.
        """
        shared = tree
        if shared is not None and shared in self._ensured:
            return
        missing = [(r, key) for r, key in pairs if key not in self._packed]
        if missing:
            if tree is None or 2 * len(missing) < len(pairs):
                tree = RemovalTree(r for r, _ in missing)
            plan_ = self.plan
            mask = (1 << plan_.lane_bits) - 1
            denominators = [plan_.denominator(s) for s in range(self.smax + 1)]
            numerators = dealer_numerators(plan_, tree)
            for r, key in missing:
                value = numerators.get(r)
                if value is None:
                    continue
                # 2^bits ≡ 1 (mod 2^bits − 1): the residue is the sum of the lanes.
                if value % mask != denominators[sum(r)]:
                    raise AssertionError("dealer probabilities do not add up to 1")
                self._packed[key] = value
        if shared is not None:  # a set shared for the whole process: remember it is done
            self._ensured.add(shared)

    def lanes(self, key: int) -> tuple[int, ...]:
        found = self._lanes.get(key)
        if found is None:
            found = self._lanes[key] = self.plan.unpack(self._packed[key])
        return found

    def packed(self, key: int) -> int:
        return self._packed[key]

    @property
    def packed_table(self) -> dict[int, int]:
        """Packed dealer numerators by composition key (see :meth:`ensure`)."""
        return self._packed

    def prepared(self, ctx: int) -> list[tuple]:
        """The context's hands this shoe can hold (see :meth:`Family.prepared`)."""
        found = self._prepared.get(ctx)
        if found is None:
            u, limit = self.up, self.n[self.up]
            entries, most = self.family.prepared(ctx), self.family.most(ctx)
            if most[u] <= limit:
                found = entries
            else:
                found = [entry for entry in entries if entry[9][u] <= limit]
            self._prepared[ctx] = found
            self._index[ctx] = {entry[0]: entry for entry in found}
        return found

    def entry(self, ctx: int, key: int) -> tuple:
        self.prepared(ctx)
        return self._index[ctx][key]

    def index(self, ctx: int) -> dict[int, tuple]:
        """The context's hands this shoe can hold, by key (after :meth:`prepared`)."""
        return self._index[ctx]

    def holds(self, ctx: int, key: int) -> bool:
        """Whether the shoe (after the up card) can hold the context's hand ``key``."""
        self.prepared(ctx)
        return key in self._index[ctx]

    def no_blackjack(self, removed: list[int], s: int) -> tuple[int, int]:
        """``(cards that avoid a dealer blackjack, cards left)`` after ``s`` removed cards."""
        left = self.size - s
        if self.blackjack_rank is None:
            return left, left
        return left - (self.n[self.blackjack_rank] - removed[self.blackjack_rank]), left


RANK_LABEL = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


class Family:
    """Everything that depends only on the shoe and the soft-17 rule."""

    def __init__(self, counts: Counts, hits_soft_17: bool) -> None:
        self.counts = counts
        self.hits_soft_17 = hits_soft_17
        self.size = sum(counts)
        self._up: dict[int, UpCard] = {}
        self._prepared: dict[int, list[tuple]] = {}
        self._most: dict[int, tuple[int, ...]] = {}
        self.memos: dict[tuple, dict] = {}
        self.smax = max(sum(h) for h in hand_multisets() if all(map(le, h, counts))) + EXTRA

    @property
    def ready(self) -> bool:
        """Whether some up card's tables are built (a warm shoe)."""
        return bool(self._up)

    def forget_passes(self) -> None:
        """Drop the player passes (kept per up card for every rule set), keep the dealer's."""
        self.memos.clear()
        for u in range(RANKS):
            self.owner(u).memos.clear()

    def check_round(self, rules: BlackjackRules) -> None:
        """Refuse a shoe a round could empty (with up to ``rules.split_hands`` hands).

        A player hand draws only below 21, so its cards add up to at most 30
        (aces counted 1); the dealer's, up card included, to at most 26. A
        round whose cards could add up to the whole shoe's could run out.
        """
        budget = 30 * max(2, rules.split_hands) + 26
        if sum((r + 1) * c for r, c in enumerate(self.counts)) <= budget:
            raise OddsError(
                f"impossible composition: a shoe of {self.size} cards may run out during a round"
            )

    def up(self, u: int) -> UpCard:
        found = self._up.get(u)
        if found is None:
            owner = self.owner(u)
            found = self._up[u] = UpCard(self, u) if owner is self else owner.up(u)
        return found

    def owner(self, u: int) -> Family:
        """The family that computes up card ``u``: a soft 17 needs an up card of 6 or less
        (or an ace), so against 7–10 hitting soft 17 changes nothing and H17 shares S17's work.
        """
        if self.hits_soft_17 and u >= 6:
            return family(self.counts, False)
        return self

    def prepared(self, ctx: int) -> list[tuple]:
        """The context's hands the full shoe can hold, with their card weights.

        Entry: ``(key, s, total, soft, kids, kid_weights, kid_position,
        bust_weight, bust_ranks, removed, kid_ranks)`` with weights from the full shoe; an
        up card ``u`` takes one card of rank ``u`` away, which the evaluation
        corrects with ``kid_position[u]`` (−1: not a child) and ``bust_ranks``.
        """
        found = self._prepared.get(ctx)
        if found is not None:
            return found
        n = self.counts
        result = []
        for node in context_nodes(ctx):
            removed = node.removed
            if any(c > n[i] for i, c in enumerate(removed)):
                continue
            position = [-1] * RANKS
            for j, r in enumerate(node.kid_ranks):
                position[r] = j
            result.append(
                (
                    node.key,
                    node.s,
                    node.total,
                    node.soft,
                    node.kids,
                    tuple(n[r] - removed[r] for r in node.kid_ranks),
                    tuple(position),
                    sum(n[r] - removed[r] for r in node.bust_ranks),
                    frozenset(node.bust_ranks),
                    removed,
                    node.kid_ranks,
                )
            )
        self._prepared[ctx] = result
        self._most[ctx] = tuple(max((e[9][r] for e in result), default=0) for r in range(RANKS))
        return result

    def most(self, ctx: int) -> tuple[int, ...]:
        """Largest count of each rank among the context's hands."""
        self.prepared(ctx)
        return self._most[ctx]


_FAMILIES: dict[tuple[Counts, bool], Family] = {}


def family(counts: Counts, hits_soft_17: bool) -> Family:
    """The (process-wide, cached) family of a shoe and soft-17 rule."""
    key = (tuple(counts), hits_soft_17)
    found = _FAMILIES.get(key)
    if found is None:
        if len(_FAMILIES) >= 8:
            _FAMILIES.pop(next(iter(_FAMILIES)))
        found = _FAMILIES[key] = Family(tuple(counts), hits_soft_17)
    return found


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
        self.memo: dict[tuple, Any] = {}

    # -- leaves -------------------------------------------------------------

    def stand(self, key: int, s: int, total: int) -> int:
        u = self.u
        packed, q = u.packed(key), u.modulus
        lose, _, win = u.masks[max(total, 4), self.peek]
        return ((packed & win) % q - (packed & lose) % q) * u.stand_scale[s]

    def bust(self, removed: list[int] | Counts, s: int) -> int:
        """Value of a busted hand with ``s`` removed cards (per unit staked)."""
        if not self.peek:
            return -self.u.scale[s]
        avoid, left = self.u.no_blackjack(list(removed), s)
        return -(self.u.scale[s] // left) * avoid

    def _busts(self, s: int, bust_weight: int, bust_ranks: frozenset, removed: Counts) -> int:
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

    def _hit_sum(self, values: dict[int, int], entry: tuple) -> int:
        """Σ over cards of (count) · (child's value), busts included, at ``D[s]``."""
        kids, weights, position = entry[4], entry[5], entry[6]
        get = values.get
        value = sum(map(mul, weights, map(get, kids, _ZEROS)))
        j = position[self.u.up]
        if j >= 0:
            value -= get(kids[j], 0)
        return value

    # -- the bottom-up pass -------------------------------------------------

    def context(self, ctx: int) -> dict[int, int]:
        """Best hit/stand value of every hand of the context (computed once).

        The hot loop of the engine: :meth:`stand`, :meth:`_hit_sum` and
        :meth:`_busts` inlined, with the up card's constants bound locally.
        """
        found = self.best.get(ctx)
        if found is not None:
            return found
        u = self.u
        best: dict[int, int] = {}
        hit_values: dict[int, int] = {}
        hits: dict[int, bool] = {}
        chart = self.chart
        packed, q = u.packed_table, u.modulus
        masks = {t: u.masks[max(t, 4), self.peek] for t in range(2, 22)}
        stand_scale, scale = u.stand_scale, u.scale
        up, get = u.up, best.get
        peek_bj = u.blackjack_rank if self.peek else None
        for (
            key,
            s,
            total,
            soft,
            kids,
            weights,
            position,
            bust_w,
            bust_ranks,
            removed,
            _,
        ) in u.prepared(ctx):
            p = packed[key]
            lose, _, win = masks[total]
            stand = ((p & win) % q - (p & lose) % q) * stand_scale[s]
            if total >= 21:
                best[key] = stand
                continue
            hit = sum(map(mul, weights, map(get, kids, _ZEROS)))
            j = position[up]
            if j >= 0:
                hit -= get(kids[j], 0)
            if up in bust_ranks:
                bust_w -= 1
            if bust_w:
                if peek_bj is None:
                    hit -= bust_w * scale[s + 1]
                else:
                    left = u.size - s - 1
                    bj_left = u.n[peek_bj] - removed[peek_bj]
                    avoid = (left - bj_left) * bust_w + (bj_left if peek_bj in bust_ranks else 0)
                    hit -= (scale[s + 1] // left) * avoid
            hit_values[key] = hit
            take = chart[total, soft] if chart is not None else hit > stand
            hits[key] = take
            best[key] = hit if take else stand
        self.best[ctx], self.hit_values[ctx], self.hits[ctx] = best, hit_values, hits
        return best

    def hit(self, ctx: int, key: int) -> int:
        self.context(ctx)
        return self.hit_values[ctx][key]

    def double(self, removed: list[int], key: int, s: int, hard: int, aces: int) -> int:
        n = self.u.n
        value = 0
        for r in range(RANKS):
            w = n[r] - removed[r]
            if not w:
                continue
            removed[r] += 1
            if hard + r + 1 > 21:
                value += w * self.bust(removed, s + 1)
            else:
                total, _ = total_of(hard + r + 1, aces + (r == 0) > 0)
                value += w * self.stand(key + _STEP[r], s + 1, total)
            removed[r] -= 1
        return 2 * value

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
                dist[key] = self._hit_sum(dist, entry) + self._busts(
                    s, entry[7], entry[8], entry[9]
                )
        self._dist[ctx] = dist
        return dist

    def hit_packed(self, ctx: int, key: int, width: int) -> int:
        """Distribution of hitting the hand ``key`` once, then playing on by the decisions."""
        dist = self.distributions(ctx, width)
        entry = self.u.entry(ctx, key)
        return self._hit_sum(dist, entry) + self._busts(entry[1], entry[7], entry[8], entry[9])

    def stand_distribution(self, key: int, s: int, total: int, width: int) -> int:
        u = self.u
        packed, q = u.packed(key), u.modulus
        lose, push, win = ((packed & m) % q for m in u.masks[max(total, 4), self.peek])
        if self.peek:  # the blackjack lane weighs 0 but is not a push: the round never happened
            push -= (packed >> (BLACKJACK * u.plan.lane_bits)) & q
        scale = u.stand_scale[s]
        return (lose * scale) | ((push * scale) << width) | ((win * scale) << (2 * width))

    def double_distribution(
        self, removed: list[int], key: int, s: int, hard: int, aces: int, width: int
    ) -> int:
        n = self.u.n
        value = 0
        for r in range(RANKS):
            w = n[r] - removed[r]
            if not w:
                continue
            removed[r] += 1
            if hard + r + 1 > 21:
                value += w * -self.bust(removed, s + 1)
            else:
                total, _ = total_of(hard + r + 1, aces + (r == 0) > 0)
                value += w * self.stand_distribution(key + _STEP[r], s + 1, total, width)
            removed[r] -= 1
        return value


_ZEROS = (0,) * RANKS
