"""Exact player expectations: the composition-dependent recursion.

Strategy definition (what the numbers are exact for)
---------------------------------------------------
* Every decision is made on the *composition*: the shoe less the up card and
  the cards of the hand being played (for a split hand: its own cards and the
  other card of the pair; the other split hand's drawn cards are ignored).
* Initial two-card hands choose the best of stand, hit, double, split and
  surrender (as the rules allow); later cards choose the best of hit and stand.
  A total of 21 is never hit.
* With one split per round (the rule book's rule) the two split hands are
  exchangeable: by the optional-stopping property of a shuffled shoe, the cards
  after a hand that stops by its own cards are distributed like a fresh draw,
  so the split is worth exactly twice one split hand played with the pair
  removed. Resplitting (``split_hands`` 3 or 4) is *approximated* (see
  :func:`resplit_value`).

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

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, lru_cache
from math import comb
from operator import le, mul

from odds.errors import OddsError
from odds.games.blackjack.dealer import (
    BLACKJACK,
    RANKS,
    Counts,
    DealerPlan,
    dealer_numerators,
    falling,
    plan,
    total_of,
)
from odds.games.blackjack.rules import BlackjackRules

STAND, HIT, DOUBLE, SPLIT, SURRENDER, NATURAL = "S", "H", "D", "P", "R", "BJ"
ACTION_NAMES = {
    STAND: "stand",
    HIT: "hit",
    DOUBLE: "double",
    SPLIT: "split",
    SURRENDER: "surrender",
    NATURAL: "blackjack",
}
_BASE = 64  # composition keys: Σ R_i · 64^i
_STEP = tuple(_BASE**i for i in range(RANKS))
_EXTRA = 4  # room above the largest hand for bust children and resplits


def key_of(r: Counts) -> int:
    return sum(map(mul, r, _STEP))


@lru_cache(maxsize=1)
def hand_multisets() -> tuple[Counts, ...]:
    """Every multiset of ranks with hard total ≤ 21 (aces counted 1)."""
    found: list[Counts] = []
    counts = [0] * RANKS

    def walk(start: int, total: int) -> None:
        found.append(tuple(counts))
        for r in range(start, RANKS):
            if total + r + 1 <= 21:
                counts[r] += 1
                walk(r, total + r + 1)
                counts[r] -= 1

    walk(0, 0)
    return tuple(found)


def hard_total(r: Counts) -> int:
    return sum((i + 1) * c for i, c in enumerate(r))


def add(r: Counts, rank: int, times: int = 1) -> Counts:
    return tuple(c + times if i == rank else c for i, c in enumerate(r))


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
                self.plan.lane_mask(o for o, w in enumerate(_WEIGHTS[t, peek]) if w == sign)
                for sign in (-1, 0, 1)
            )
            for (t, peek) in _WEIGHTS
        }
        self._ensured: set[int] = set()
        self._prepared: dict[int, list[tuple]] = {}
        self._index: dict[int, dict[int, tuple]] = {}
        # Rank that completes a dealer blackjack with this up card (None: impossible).
        self.blackjack_rank = 9 if up == 0 else (0 if up == 9 else None)

    def _fits(self, r: Counts) -> bool:
        return all(c <= self.n[i] for i, c in enumerate(r))

    def ensure(self, removed: tuple[tuple[Counts, int], ...]) -> None:
        """Dealer numerators for the ``(multiset, key)`` pairs not seen yet (once per set)."""
        if id(removed) in self._ensured:
            return
        lowest = min(self.n)
        missing = [
            r
            for r, key in removed
            if key not in self._packed and (max(r) <= lowest or self._fits(r))
        ]
        if missing:
            plan_ = self.plan
            mask = (1 << plan_.lane_bits) - 1
            denominators = [plan_.denominator(s) for s in range(self.smax + 1)]
            keys = dict(removed)
            for r, value in dealer_numerators(plan_, missing).items():
                # 2^bits ≡ 1 (mod 2^bits − 1): the residue is the sum of the lanes.
                if value % mask != denominators[sum(r)]:
                    raise AssertionError("dealer probabilities do not add up to 1")
                self._packed[keys[r]] = value
        self._ensured.add(id(removed))

    def lanes(self, key: int) -> tuple[int, ...]:
        found = self._lanes.get(key)
        if found is None:
            found = self._lanes[key] = self.plan.unpack(self._packed[key])
        return found

    def packed(self, key: int) -> int:
        return self._packed[key]

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
        self.smax = max(sum(h) for h in hand_multisets() if all(map(le, h, counts))) + _EXTRA

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
        bust_weight, bust_ranks, removed)`` with weights from the full shoe; an
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


def _pay_weights(total: int, peek: bool) -> tuple[int, ...]:
    """Result per dealer lane for a standing total (per unit staked)."""
    weights = []
    for o in range(5):
        dealer = 17 + o
        weights.append(-1 if total < dealer else (0 if total == dealer else 1))
    weights.append(1)  # dealer busts
    weights.append(0 if peek else -1)  # dealer blackjack
    return tuple(weights)


_WEIGHTS = {(t, p): _pay_weights(t, p) for t in range(4, 22) for p in (False, True)}


@dataclass(frozen=True)
class Node:
    """A hand in a context, with what the bottom-up pass needs (shoe-independent).

    ``removed`` = the hand's cards (plus the other pair card for a split hand);
    ``kids`` are the keys of the hands one card later that do not bust, drawn
    by ``kid_ranks``; ``bust_ranks`` bust the hand.
    """

    key: int
    removed: Counts
    s: int
    hard: int
    total: int
    soft: bool
    kids: tuple[int, ...]
    kid_ranks: tuple[int, ...]
    bust_ranks: tuple[int, ...]


@cache
def context_nodes(ctx: int) -> tuple[Node, ...]:
    """Every hand of a context, children before parents (highest hard total first).

    ``ctx`` is −1 for ordinary hands, or the rank of a split pair (the hand
    holds one pair card; the other is removed too).
    """
    extra = (0,) * RANKS if ctx < 0 else add((0,) * RANKS, ctx)
    nodes = []
    for hand in hand_multisets():
        if sum(hand) < 2 or (ctx >= 0 and hand[ctx] < 1):
            continue
        removed = tuple(a + b for a, b in zip(hand, extra, strict=True))
        hard = hard_total(hand)
        total, soft = total_of(hard, hand[0] > 0)
        kids, kid_ranks, bust_ranks = [], [], []
        for r in range(RANKS):
            if hard + r + 1 > 21:
                bust_ranks.append(r)
            else:
                kids.append(key_of(removed) + _STEP[r])
                kid_ranks.append(r)
        nodes.append(
            Node(
                key_of(removed),
                removed,
                sum(removed),
                hard,
                total,
                soft,
                tuple(kids),
                tuple(kid_ranks),
                tuple(bust_ranks),
            )
        )
    nodes.sort(key=lambda node: -node.hard)
    return tuple(nodes)


class Play:
    """Hit/stand values and decisions for one up card, shoe, soft-17 rule and peek rule.

    Values are integers at scale ``D[s]`` (see the module docstring), computed
    bottom-up per context (children before parents, so every child is ready).
    ``chart`` (optional) fixes the hit/stand decision by (total, soft).
    """

    def __init__(self, up: UpCard, peek: bool, chart: dict | None = None) -> None:
        self.u = up
        self.peek = peek
        self.chart = chart
        self.best: dict[int, dict[int, int]] = {}
        self.hit_values: dict[int, dict[int, int]] = {}
        self.hits: dict[int, dict[int, bool]] = {}
        self._dist: dict[int, dict[int, int]] = {}

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
        _, _s, _, _, kids, weights, position, _bust_w, _bust_ranks, _removed = entry
        get = values.get
        value = sum(map(mul, weights, map(get, kids, _ZEROS)))
        j = position[self.u.up]
        if j >= 0:
            value -= get(kids[j], 0)
        return value

    # -- the bottom-up pass -------------------------------------------------

    def context(self, ctx: int) -> dict[int, int]:
        """Best hit/stand value of every hand of the context (computed once)."""
        found = self.best.get(ctx)
        if found is not None:
            return found
        best: dict[int, int] = {}
        hit_values: dict[int, int] = {}
        hits: dict[int, bool] = {}
        chart = self.chart
        stand_of = self.stand
        busts = self._busts
        hit_sum = self._hit_sum
        for entry in self.u.prepared(ctx):
            key, s, total, soft = entry[0], entry[1], entry[2], entry[3]
            stand = stand_of(key, s, total)
            if total >= 21:
                best[key] = stand
                continue
            hit = hit_sum(best, entry) - busts(s, entry[7], entry[8], entry[9])
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


# ---------------------------------------------------------------------------
# Initial hands


@dataclass
class HandResult:
    """Exact values of one initial two-card hand against one up card.

    ``values`` maps actions to EVs per initial stake (the whole round for this
    hand, dealer blackjack included); ``best`` is the chosen action.
    ``split_actions`` records, for a split pair, the post-split play of each
    second card (stand/hit/double), and ``distribution`` the net payout
    probabilities of the chosen action, conditional on this hand and up card.
    """

    cards: tuple[int, int]
    up: int
    probability: Fraction
    values: dict[str, Fraction]
    best: str
    p_dealer_blackjack: Fraction
    distribution: dict[Fraction, Fraction] = field(default_factory=dict)
    split_distribution_exact: bool = True
    split_actions: dict[int, str] = field(default_factory=dict)

    @property
    def ev(self) -> Fraction:
        return self.values[self.best]


def initial_hands() -> Iterator[tuple[int, int]]:
    for a in range(RANKS):
        for b in range(a, RANKS):
            yield a, b


def two_card_total(a: int, b: int) -> tuple[int, bool]:
    return total_of(a + b + 2, a == 0 or b == 0)


def resplit_value(p_pair: Fraction, other: Fraction, pair_hand: Fraction, limit: int) -> Fraction:
    """Expected total of the split hands, resplitting pair cards up to ``limit`` hands.

    ``p_pair`` is the chance a split hand's second card is another pair card,
    ``other`` = Σ_{y ≠ pair} P(y)·E[hand | second card y], ``pair_hand`` =
    E[hand | second card is a pair card that may not be resplit].

    With ``limit`` 2 this is exactly ``2·(other + p_pair·pair_hand)``. Above 2
    it is an approximation: every second card is drawn with the pair-removed
    probabilities and every hand valued as a first split hand (the cards of the
    other split hands, including the extra pair cards, are not removed).
    """

    @cache
    def open_hands(open_: int, hands: int) -> Fraction:
        if open_ == 0:
            return Fraction(0)
        if hands < limit:
            paired = p_pair * open_hands(open_ + 1, hands + 1)
        else:
            paired = p_pair * (pair_hand + open_hands(open_ - 1, hands))
        return paired + other + (1 - p_pair) * open_hands(open_ - 1, hands)

    return open_hands(2, 2)


@dataclass
class RoundAnalysis:
    """All initial hands against all up cards, and the round's expected value."""

    rules: BlackjackRules
    counts: Counts
    hands: list[HandResult]
    exact: bool
    plays: dict[int, Play] = field(default_factory=dict)

    @property
    def ev(self) -> Fraction:
        return sum((h.probability * h.ev for h in self.hands), Fraction(0))

    def hand(self, a: int, b: int, up: int) -> HandResult:
        a, b = min(a, b), max(a, b)
        for h in self.hands:
            if h.cards == (a, b) and h.up == up:
                return h
        raise KeyError((a, b, up))


def deal_probability(counts: Counts, a: int, b: int, up: int) -> Fraction:
    """P(player's first two cards are {a, b} and the up card is ``up``)."""
    size = sum(counts)
    ways = comb(counts[a], 2) if a == b else counts[a] * counts[b]
    left = counts[up] - (a == up) - (b == up)
    return Fraction(ways * max(left, 0), comb(size, 2) * (size - 2))


def analyse_round(
    counts: Counts,
    rules: BlackjackRules,
    chart: dict | None = None,
    distributions: bool = False,
) -> RoundAnalysis:
    """Exact values of every initial hand against every up card.

    ``chart`` (optional) plays a fixed chart instead of optimising:
    ``{"hit": {(up, total, soft): bool}, "first": {(up, a, b): action},
    "post_split": {(up, x, y): action}}``.
    """
    fam = family(counts, rules.dealer_hits_soft_17)
    hands: list[HandResult] = []
    plays: dict[int, Play] = {}
    for u in range(RANKS):
        if counts[u] == 0:
            continue
        up = fam.up(u)
        _ensure_sets(up, rules)
        hit_chart = None
        if chart is not None:
            hit_chart = {
                (t, soft): chart["hit"][u, t, soft] for (uu, t, soft) in chart["hit"] if uu == u
            }
        memo_key = ("play", u, rules.peek)
        memos = fam.owner(u).memos
        play = memos.get(memo_key) if chart is None else None
        if play is None:
            play = Play(up, rules.peek, hit_chart)
            if chart is None:
                memos[memo_key] = play
        plays[u] = play
        for a, b in initial_hands():
            p = deal_probability(counts, a, b, u)
            if p == 0:
                continue
            result = _initial(play, rules, a, b, chart, distributions)
            result.probability = p
            hands.append(result)
    return RoundAnalysis(rules, tuple(counts), hands, rules.split_hands == 2, plays)


@lru_cache(maxsize=2)
def _reachable(split_aces_one_card: bool) -> tuple[tuple[Counts, int], ...]:
    """Every removed multiset a round can reach: hands, and split hands plus their pair card."""
    hands = [h for h in hand_multisets() if sum(h) >= 2]
    wanted = set(hands)
    for x in range(RANKS):
        if x == 0 and split_aces_one_card:
            wanted.update(add(add((0,) * RANKS, 0, 2), y) for y in range(RANKS))
        else:
            wanted.update(add(h, x) for h in hands if h[x] >= 1)
    return tuple((r, key_of(r)) for r in sorted(wanted))


def _ensure_sets(up: UpCard, rules: BlackjackRules) -> None:
    """Dealer numerators for every composition the play can reach."""
    up.ensure(_reachable(rules.split_aces_one_card))


def _initial(
    play: Play, rules: BlackjackRules, a: int, b: int, chart: dict | None, distributions: bool
) -> HandResult:
    u = play.u
    removed = [0] * RANKS
    removed[a] += 1
    removed[b] += 1
    key = _STEP[a] + _STEP[b]
    avoid, left = u.no_blackjack(removed, 2)
    p_bj = Fraction(left - avoid, left)
    scale = u.scale[2]
    total, _soft = two_card_total(a, b)
    values: dict[str, Fraction] = {}
    adjust = -p_bj if rules.peek else Fraction(0)
    if total == 21:
        values[NATURAL] = rules.blackjack_payout * (1 - p_bj)
        result = HandResult((a, b), u.up, Fraction(0), values, NATURAL, p_bj)
        if distributions:
            result.distribution = _clean({rules.blackjack_payout: 1 - p_bj, Fraction(0): p_bj})
        return result
    hard = a + b + 2
    aces = (a == 0) + (b == 0)
    values[STAND] = Fraction(play.stand(key, 2, total), scale) + adjust
    values[HIT] = Fraction(play.hit(-1, key), scale) + adjust
    if rules.may_double(total):
        values[DOUBLE] = Fraction(play.double(removed, key, 2, hard, aces), scale) + adjust
    if rules.surrender:
        values[SURRENDER] = -Fraction(1, 2) * (1 - p_bj) - p_bj
    split_info = None
    if a == b:
        split_value, split_info = _split(play, rules, a, chart)
        values[SPLIT] = split_value + adjust
    if chart is not None:
        best = chart["first"][u.up, a, b]
        if best not in values:
            raise AssertionError(f"chart action {best} not allowed for {a},{b} v {u.up}")
    else:
        best = max(values, key=lambda k: (values[k], -_PREFERENCE.index(k)))
    result = HandResult((a, b), u.up, Fraction(0), values, best, p_bj)
    if split_info is not None:
        result.split_actions = split_info
    if distributions:
        result.distribution, result.split_distribution_exact = _distribution(
            play, rules, a, b, best, split_info, p_bj
        )
    return result


# Ties (rare, exact) go to the simplest action.
_PREFERENCE = (STAND, HIT, DOUBLE, SPLIT, SURRENDER, NATURAL)


def _split(play: Play, rules: BlackjackRules, x: int, chart: dict | None) -> tuple[Fraction, dict]:
    """Value of splitting a pair of rank ``x``: per second card, the split hand's best play."""
    u = play.u
    base = [0] * RANKS
    base[x] = 2
    key0 = 2 * _STEP[x]
    left = u.size - 2
    other = Fraction(0)
    pair_hand = Fraction(0)
    actions: dict[int, str] = {}
    scale = u.scale[3]
    for y in range(RANKS):
        w = u.n[y] - base[y]
        if w <= 0:
            continue
        base[y] += 1
        key = key0 + _STEP[y]
        hard = x + y + 2
        aces = (x == 0) + (y == 0)
        total, _ = total_of(hard, aces > 0)
        options = {STAND: play.stand(key, 3, total)}
        if not (x == 0 and rules.split_aces_one_card):
            if total < 21:
                options[HIT] = play.hit(x, key)
            if rules.may_double(total, after_split=True):
                options[DOUBLE] = play.double(base, key, 3, hard, aces)
        if chart is not None:
            code = chart["post_split"][u.up, x, y]
            action = code[0]
            if action not in options:
                action = code[1].upper() if len(code) > 1 else STAND
            if action not in options:
                action = STAND
        else:
            action = max(options, key=lambda k: (options[k], -_PREFERENCE.index(k)))
        actions[y] = action
        value = Fraction(options[action], scale)
        base[y] -= 1
        p = Fraction(w, left)
        if y == x:
            pair_hand = value
        else:
            other += p * value
    p_pair = Fraction(max(u.n[x] - 2, 0), left)
    total_value = resplit_value(p_pair, other, pair_hand, rules.split_limit(x))
    return total_value, actions


def _clean(distribution: dict[Fraction, Fraction]) -> dict[Fraction, Fraction]:
    return {net: p for net, p in sorted(distribution.items()) if p}


def _unpack3(packed: int, width: int) -> tuple[int, int, int]:
    mask = (1 << width) - 1
    return packed & mask, (packed >> width) & mask, packed >> (2 * width)


def _distribution(
    play: Play,
    rules: BlackjackRules,
    a: int,
    b: int,
    best: str,
    split_actions: dict | None,
    p_bj: Fraction,
) -> tuple[dict[Fraction, Fraction], bool]:
    """Net payout probabilities of the chosen action for this hand and up card.

    Exact except for split rounds, whose two hands are convolved as if
    independent (the EV stays exact: the convolution keeps each hand's mean).
    """
    u = play.u
    width = u.scale[0].bit_length() + 4
    removed = [0] * RANKS
    removed[a] += 1
    removed[b] += 1
    key = _STEP[a] + _STEP[b]
    hard = a + b + 2
    aces = (a == 0) + (b == 0)
    peek_loss = p_bj if rules.peek else Fraction(0)
    if best == SURRENDER:
        return _clean({Fraction(-1, 2): 1 - p_bj, Fraction(-1): p_bj}), True
    if best in (STAND, HIT, DOUBLE):
        scale = u.scale[2]
        if best == DOUBLE:
            packed = play.double_distribution(removed, key, 2, hard, aces, width)
            factor = 2
        elif best == STAND:
            total, _ = total_of(hard, aces > 0)
            packed = play.stand_distribution(key, 2, total, width)
            factor = 1
        else:
            packed = play.hit_packed(-1, key, width)
            factor = 1
        lose, push, win = _unpack3(packed, width)
        return _clean(
            {
                Fraction(-factor): Fraction(lose, scale) + peek_loss,
                Fraction(0): Fraction(push, scale),
                Fraction(factor): Fraction(win, scale),
            }
        ), True
    # Split: one hand's distribution, convolved with itself.
    x = a
    base = [0] * RANKS
    base[x] = 2
    key0 = 2 * _STEP[x]
    left = u.size - 2
    single: dict[Fraction, Fraction] = {}
    scale = u.scale[3]
    assert split_actions is not None
    for y, action in split_actions.items():
        w = u.n[y] - base[y]
        base[y] += 1
        k = key0 + _STEP[y]
        hard = x + y + 2
        aces = (x == 0) + (y == 0)
        total, _ = total_of(hard, aces > 0)
        if action == DOUBLE:
            packed, factor = play.double_distribution(base, k, 3, hard, aces, width), 2
        elif action == HIT:
            packed, factor = play.hit_packed(x, k, width), 1
        else:
            packed, factor = play.stand_distribution(k, 3, total, width), 1
        base[y] -= 1
        p = Fraction(w, left)
        lose, push, win = _unpack3(packed, width)
        for net, c in ((-factor, lose), (0, push), (factor, win)):
            single[Fraction(net)] = single.get(Fraction(net), Fraction(0)) + p * Fraction(c, scale)
    # In peek mode the single-hand probabilities add up to P(no blackjack).
    mass = sum(single.values())
    combined: dict[Fraction, Fraction] = {}
    for n1, p1 in single.items():
        for n2, p2 in single.items():
            net = n1 + n2
            combined[net] = combined.get(net, Fraction(0)) + p1 * p2 / mass
    if peek_loss:
        combined[Fraction(-1)] = combined.get(Fraction(-1), Fraction(0)) + peek_loss
    return _clean(combined), False
