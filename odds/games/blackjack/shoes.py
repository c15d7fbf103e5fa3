"""One shoe's tables, kept across analyses: dealer numerators and scales per up card.

An :class:`UpCard` holds, for one up card of one shoe, the dealer's outcome
numerators of every composition the player can leave (packed cumulative lanes,
:mod:`odds.games.blackjack.dealer`), by composition key, and the scales of the
player's values (:mod:`odds.games.blackjack.player`). A :class:`Family` is a
shoe and soft-17 rule: it computes every up card's numerators together
(:mod:`odds.games.blackjack.dealer_batches`) and keeps the per-shoe card weights of
every context's hands. Families are cached per process (:func:`family`), so
every rule set on one shoe shares them.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import add, and_, ge, gt, itemgetter, le, mul, rshift, sub
from typing import Any, Literal, TypeAlias

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.engine.polynomial import falling
from odds.games.blackjack.dealer import (
    OUTCOMES,
    RANK_NAMES,
    RANKS,
    Counts,
    DealerPlan,
    longest_draw,
    plan,
    stand_lanes,
)
from odds.games.blackjack.dealer_batches import Lanes, RemovalSet, shoe_moments, up_card_numerators
from odds.games.blackjack.dealer_batches import numerators as packed_numerators
from odds.games.blackjack.nodes import EXTRA, Group, context_groups, context_nodes, hand_multisets
from odds.games.blackjack.options import BlackjackRules

#: A context's hand with its card weights from one shoe (:meth:`ShoeHands.prepared`):
#: ``(key, s, total, soft, kids, kid_weights, kid_position, bust_weight, bust_ranks,
#: removed, kid_ranks)``.
Prepared: TypeAlias = tuple[
    int,
    int,
    int,
    bool,
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    frozenset[int],
    Counts,
    tuple[int, ...],
]
#: A context's groups with their card weights (:meth:`ShoeHands.weights`).
GroupWeights: TypeAlias = list[tuple[Group, tuple[list[int], ...], list[int]]]


class LayoutsDoubt(AssertionError):
    """Numerators computed through the shoe-independent layouts do not add up: a bug, or a
    kept layout that is not what its builder made (:func:`.rounds.analyse_round` then
    discards the kept files and counts again, :func:`odds.runtime.kept.distrust`)."""


# ---------------------------------------------------------------------------
# One up card of one shoe: dealer numerators and the scale of every value.


class UpCard:
    """Dealer numerators and scales for one up card and one shoe (after the up card).

    Shared by every rule variant with the same shoe and soft-17 rule; packed
    dealer numerators are computed lazily for the removed multisets asked for.
    """

    def __init__(self, fam: Family, up: int) -> None:
        counts, hits_soft_17 = fam.counts, fam.hits_soft_17
        #: The shoe's hands (not the family: no reference cycle, so a shoe's tables are freed
        #: when its family is dropped, even frozen out of the collector, :mod:`.rounds`).
        self.hands = fam.hands
        after = list(counts)
        if after[up] <= 0:
            raise OddsError(f"the shoe has no {RANK_NAMES[up]} for the dealer's up card")
        after[up] -= 1
        self.up = up
        self.n: Counts = tuple(after)
        self.size = sum(after)
        self.plan: DealerPlan = plan(self.n, up, hits_soft_17, fam.kmax)
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
        self.lane_mask = (1 << self.plan.lane_bits) - 1
        #: Per (total, peek): the shifts of the lanes ``(a, b, c)`` of :func:`.dealer.stand_lanes`.
        self.stand_shifts = {
            (t, peek): tuple(self.plan.lane_bits * j for j in stand_lanes(t, peek))
            for t in range(2, 22)
            for peek in (False, True)
        }
        self.last_lane = self.plan.lane_bits * (len(OUTCOMES) - 1)
        self.denominators = [self.plan.denominator(s) for s in range(self.smax + 1)]
        self._prepared: dict[int, list[Prepared]] = {}
        self._index: dict[int, dict[int, Prepared]] = {}
        self._stands: dict[tuple[int, bool], list[list[int]]] = {}
        # Rank that completes a dealer blackjack with this up card (None: impossible).
        self.blackjack_rank = 9 if up == 0 else (0 if up == 9 else None)

    def ensure(
        self, pairs: Sequence[tuple[Counts, int]], removal: RemovalSet | None = None
    ) -> None:
        """Dealer numerators for the ``(multiset, key)`` pairs not computed yet (multisets
        the shoe cannot hold are skipped); ``removal``: a set holding the pairs' multisets,
        used while most of them are still missing."""
        missing = [(r, key) for r, key in pairs if key not in self._packed]
        if not missing:
            return
        if 2 * len(missing) < len(pairs):
            removal = None
        numerators = up_card_numerators(self.plan, (r for r, _ in missing), removal)
        for r, key in missing:
            value = numerators.get(r)
            if value is None:
                continue
            # The last cumulative lane counts every outcome.
            if value >> self.last_lane != self.denominators[sum(r)]:
                raise LayoutsDoubt("dealer probabilities do not add up to 1")
            self._packed[key] = value

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

    def prepared(self, ctx: int) -> list[Prepared]:
        """The context's hands this shoe can hold (see :meth:`ShoeHands.prepared`)."""
        found = self._prepared.get(ctx)
        if found is None:
            u, limit = self.up, self.n[self.up]
            entries, most = self.hands.prepared(ctx), self.hands.most(ctx)
            if most[u] <= limit:
                found = entries
            else:
                found = [entry for entry in entries if entry[9][u] <= limit]
            self._prepared[ctx] = found
            self._index[ctx] = {entry[0]: entry for entry in found}
        return found

    def entry(self, ctx: int, key: int) -> Prepared:
        self.prepared(ctx)
        return self._index[ctx][key]

    def index(self, ctx: int) -> dict[int, Prepared]:
        """The context's hands this shoe can hold, by key (after :meth:`prepared`)."""
        return self._index[ctx]

    def stand_values(self, ctx: int, peek: bool) -> list[list[int]]:
        """Per group of the context (:meth:`ShoeHands.weights`), each hand's stand value at
        ``D[s]`` (:meth:`.player.Play.stand`), kept: every pass of this up card and peek rule
        reads them (the optimal play's and a chart's). A hand the shoe cannot hold: 0."""
        found = self._stands.get((ctx, peek))
        if found is not None:
            return found
        mask, known = self.lane_mask, self._packed.get
        extra = [0] * (RANKS * 3)
        stand_scale, denominators = self.stand_scale + extra, self.denominators + extra
        found = self._stands[ctx, peek] = []
        for group, _, _ in self.hands.weights(ctx):
            keys, sizes = group.keys, group.sizes
            a, b, c = self.stand_shifts[group.total, peek]
            packed = list(map(known, keys, repeat(0)))
            first = list(map(and_, map(rshift, packed, repeat(a)), repeat(mask)))
            second = first if b == a else map(and_, map(rshift, packed, repeat(b)), repeat(mask))
            if peek:
                last = map(and_, map(rshift, packed, repeat(c)), repeat(mask))
            else:  # the last lane is the denominator
                last = map(denominators.__getitem__, sizes)
            lanes = map(sub, map(add, first, second), last)
            found.append(list(map(mul, lanes, map(stand_scale.__getitem__, sizes))))
        return found

    def no_blackjack(self, removed: list[int], s: int) -> tuple[int, int]:
        """``(cards that avoid a dealer blackjack, cards left)`` after ``s`` removed cards."""
        left = self.size - s
        if self.blackjack_rank is None:
            return left, left
        return left - (self.n[self.blackjack_rank] - removed[self.blackjack_rank]), left


#: Byte order of the packed numerators, for ``map``.
LITTLE: repeat[Literal["little"]] = repeat("little")


class Family:
    """Everything that depends only on the shoe and the soft-17 rule."""

    def __init__(self, counts: Counts, hits_soft_17: bool) -> None:
        self.counts = counts
        self.hits_soft_17 = hits_soft_17
        self.size = sum(counts)
        self._up: dict[int, UpCard] = {}
        #: The shoe's hands depend on no dealer rule: an H17 family reads its S17 family's.
        self.hands: ShoeHands = family(counts, False).hands if hits_soft_17 else ShoeHands(counts)
        #: The player's hit/stand passes, by ``("play", up card, peek)`` (:func:`.rounds._play`).
        #: (:class:`odds.games.blackjack.player.Play` objects: the player's module is built
        #: on this one, so it is not named here.)
        self.memos: dict[tuple[str, int, bool], Any] = {}
        self.smax = max(sum(h) for h in hand_multisets() if all(map(le, h, counts))) + EXTRA
        self._kmax: int | None = None
        self._sets: set[tuple[RemovalSet, tuple[int, ...]]] = set()

    @property
    def ups(self) -> tuple[int, ...]:
        """The up cards this family computes (the shoe holds one; see :meth:`owner`)."""
        return tuple(u for u in range(RANKS) if self.counts[u] and self.owner(u) is self)

    @property
    def kmax(self) -> int | None:
        """One numerator scale for all of the family's up cards (so that they can be
        computed together, :mod:`.removal`): the longest dealer draw of any of them;
        ``None`` (each up card its own) when a shoe this small could not hold a
        round at that scale."""
        if self._kmax is None:
            longest = [
                longest_draw(
                    tuple(c - (i == u) for i, c in enumerate(self.counts)), u, self.hits_soft_17
                )
                for u in self.ups
            ]
            self._kmax = max(longest, default=0)
            if self.size - 1 < self.smax + self._kmax:
                self._kmax = -1
        return self._kmax if self._kmax >= 0 else None

    def ensure_set(
        self, removal: RemovalSet, keys: dict[Counts, int], ups: Sequence[int] | None = None
    ) -> None:
        """Dealer numerators of every multiset of ``removal`` (key by multiset) for the
        up cards ``ups`` (default: all), computed together per owning family.

        A multiset the walk cannot value for every up card (it holds every card of
        some rank) goes to each up card it leaves possible, one at a time.
        """
        wanted = range(RANKS) if ups is None else ups
        for owner in {self.owner(u) for u in wanted}:
            owner._ensure_own(removal, keys, tuple(u for u in owner.ups if u in wanted))

    def _ensure_own(
        self, removal: RemovalSet, keys: dict[Counts, int], ups: tuple[int, ...]
    ) -> None:
        if (removal, ups) in self._sets:
            return
        n = self.counts
        kmax = self.kmax
        if kmax is None:
            for u in ups:
                self.up(u).ensure([(r, keys[r]) for r in removal.items], removal)
            self._sets.add((removal, ups))
            return
        numerators, lanes = packed_numerators(removal, n, ups, self.hits_soft_17, kmax)
        safe: list[Counts] = []
        rest: list[Counts] = []
        for r in removal.items:
            if not any(map(ge, r, n)):
                safe.append(r)
            elif not any(map(gt, r, n)):  # it holds every card of a rank: not every up card
                rest.append(r)
        data = list(
            map(int.to_bytes, map(numerators.__getitem__, safe), repeat(lanes.bytes), LITTLE)
        )
        safe_keys = [keys[r] for r in safe]
        expected = [self.up(ups[0]).denominators[sum(r)] for r in safe]
        for u in ups:
            card = self.up(u)
            start, end = lanes.block(u)
            values = list(map(int.from_bytes, map(itemgetter(slice(start, end)), data), LITTLE))
            # The last cumulative lane counts every outcome.
            if list(map(rshift, values, repeat(card.last_lane))) != expected:
                raise LayoutsDoubt("dealer probabilities do not add up to 1")
            card._packed.update(zip(safe_keys, values, strict=True))
        if rest:
            self._ensure_rest(rest, keys, ups, (numerators, lanes), kmax)
        self._sets.add((removal, ups))

    def _ensure_rest(
        self,
        rest: list[Counts],
        keys: dict[Counts, int],
        ups: tuple[int, ...],
        below: tuple[dict[Counts, int], Lanes],
        kmax: int,
    ) -> None:
        """Multisets that hold every card of some rank: that up card is impossible, and its
        lanes spoil the ones packed above them. The up cards below every such rank are read
        from the walk already made (``below``), those above from one walk of these
        multisets with the up cards in reverse order, and any between, one at a time."""
        n = self.counts
        above: tuple[dict[Counts, int], Lanes] | None = None
        alone: dict[int, list[tuple[Counts, int]]] = {}
        for r in rest:
            impossible = [i for i, u in enumerate(ups) if r[u] >= n[u]]  # (maybe none here)
            first, last = (impossible[0], impossible[-1]) if impossible else (len(ups), -1)
            for i, u in enumerate(ups):
                if i in impossible:
                    continue
                if first < i < last:  # spoiled in both walks
                    alone.setdefault(u, []).append((r, keys[r]))
                    continue
                if i > last and above is None:
                    reverse = RemovalSet(rest, exact_roots=False)
                    above = packed_numerators(reverse, n, ups[::-1], self.hits_soft_17, kmax)
                numerators, lanes = below if i < first or above is None else above
                value = lanes.unpack(numerators[r], u)
                card = self.up(u)
                if value >> card.last_lane != card.denominators[sum(r)]:
                    raise LayoutsDoubt("dealer probabilities do not add up to 1")
                card._packed[keys[r]] = value
        for u, pairs in alone.items():
            self.up(u).ensure(pairs)

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


class ShoeHands:
    """Every context's hands with their card weights from one full shoe (any soft-17 rule).

    Kept apart from :class:`Family` so that up cards and player passes can hold them
    without holding the family (no reference cycle).
    """

    def __init__(self, counts: Counts) -> None:
        self.counts = counts
        self._prepared: dict[int, list[Prepared]] = {}
        self._most: dict[int, tuple[int, ...]] = {}
        self._weights: dict[int, GroupWeights] = {}

    def prepared(self, ctx: int) -> list[Prepared]:
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
        result: list[Prepared] = []
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

    def weights(self, ctx: int) -> GroupWeights:
        """Per group of the context (:func:`.nodes.context_groups`): for each rank below
        the busting ones, the cards of that rank each hand can draw, and each hand's
        count of busting cards, from the full shoe (the up card comes off in the pass)."""
        found = self._weights.get(ctx)
        if found is None:
            n = self.counts
            found = self._weights[ctx] = [
                (
                    group,
                    tuple(
                        list(map(sub, repeat(n[r]), group.removed[r]))
                        for r in range(group.first_bust)
                    ),
                    list(map(sub, repeat(sum(n[group.first_bust :])), group.bust_removed)),
                )
                for group in context_groups(ctx)
            ]
        return found

    def most(self, ctx: int) -> tuple[int, ...]:
        """Largest count of each rank among the context's hands."""
        self.prepared(ctx)
        return self._most[ctx]


def family(counts: Counts, hits_soft_17: bool) -> Family:
    """The (process-wide, cached) family of a shoe and soft-17 rule."""
    return _family(tuple(counts), hits_soft_17)


@cached(maxsize=8)  # a family holds a shoe's every table: a few shoes at a time
def _family(counts: Counts, hits_soft_17: bool) -> Family:
    return Family(counts, hits_soft_17)


def forget_shoes() -> None:
    """Drop every shoe's tables but keep the shoe-independent layouts (a "cold" bench run;
    :func:`odds.core.caching.clear_caches` drops both)."""
    _family.cache_clear()
    shoe_moments.cache_clear()
