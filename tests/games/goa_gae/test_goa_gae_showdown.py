"""The exact Goa Gae showdown against brute force over every pair of disjoint hands.

The reference here shares nothing with the game module: a plain pairwise
comparison written from docs/rules/goa-gae.md §Tie-breaks (no strength keys, no categories table),
and a plain double loop over every first hand and every second hand left in
the shoe. Reduced decks keep it to seconds; one and two decks, every reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest

from odds.core.cards import Card, Rank, Suit
from odds.core.options import build
from odds.engine import showdown
from odds.games.goa_gae.bench import reduced_shoe
from odds.games.goa_gae.counting import compute_showdown
from odds.games.goa_gae.options import GoaGaeConfig

TRIPLES = [2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 3]  # weakest first


class Plain:
    """docs/rules/goa-gae.md §Tie-breaks read again, as a comparison of two hands (no keys)."""

    def __init__(self, straight_above_jqk=False, kqj_mixed="straight", single_card_order="ace-high",
                 straight_flush_above_triple=False):  # fmt: skip
        self.straight_above_jqk = straight_above_jqk
        self.kqj_as_jqk = kqj_mixed == "jqk"
        self.ace_high = single_card_order == "ace-high"
        self.sf_above_triple = straight_flush_above_triple
        self._categories: dict[tuple[Card, ...], str] = {}

    def value(self, card: Card) -> int:
        if card.rank == Rank.ACE:
            return 14 if self.ace_high else 1
        return int(card.rank)

    @staticmethod
    def run(cards: Sequence[Card]) -> int | None:
        """The sequence's height (top rank, A-high Q-K-A = 14) or None."""
        r = sorted(c.rank.value for c in cards)
        if r == [1, 12, 13]:
            return 14
        if r[0] + 1 == r[1] and r[1] + 1 == r[2]:
            return r[2]
        return None

    def category(self, cards: Sequence[Card]) -> str:
        key = tuple(cards)
        if key not in self._categories:
            self._categories[key] = self._category(cards)
        return self._categories[key]

    def _category(self, cards: Sequence[Card]) -> str:
        ranks = sorted(c.rank.value for c in cards)
        suited = len({c.suit for c in cards}) == 1
        if ranks[0] == ranks[2]:
            return "triple"
        run = self.run(cards)
        if run is not None and suited:
            return "sf"
        if ranks[0] >= 11 and (ranks != [11, 12, 13] or self.kqj_as_jqk):
            return "jqk"
        if run is not None:
            return "straight"
        if suited:
            return "flush"
        return "points"

    def order(self) -> list[str]:
        order = ["points", "flush", "straight", "jqk", "sf", "triple"]
        if self.straight_above_jqk:
            order[2], order[3] = order[3], order[2]
        if self.sf_above_triple:
            order[4], order[5] = order[5], order[4]
        return order

    def compare(self, a: Sequence[Card], b: Sequence[Card]) -> int:
        """+1 if a beats b, -1 if b beats a, 0 for a tie."""
        ca, cb = self.category(a), self.category(b)
        if ca != cb:
            order = self.order()
            return 1 if order.index(ca) > order.index(cb) else -1
        if ca == "triple":
            return _sign(TRIPLES.index(a[0].rank.value) - TRIPLES.index(b[0].rank.value))
        if ca == "sf":
            return _sign(a[0].suit - b[0].suit) or _sign(self.run(a) - self.run(b))
        if ca == "straight":
            height = _sign(self.run(a) - self.run(b))
            if height:
                return height
            # The same ranks: compare suits from the top of the sequence down.
            return self._cards(self._sequence_down(a), self._sequence_down(b), ranks=False)
        if ca in ("points", "flush"):
            pa = sum(c.rank.baccarat_points for c in a) % 10
            pb = sum(c.rank.baccarat_points for c in b) % 10
            if pa != pb:
                return _sign(pa - pb)
        return self._cards(self._down(a), self._down(b), ranks=True)

    def _down(self, cards):
        return sorted(cards, key=lambda c: (self.value(c), c.suit), reverse=True)

    def _sequence_down(self, cards):
        top_ace = self.run(cards) == 14
        return sorted(cards, key=lambda c: 14 if top_ace and c.rank == Rank.ACE else c.rank,
                      reverse=True)  # fmt: skip

    def _cards(self, a, b, ranks: bool) -> int:
        """Card by card from the top: the higher card (if ranks count), then the suit."""
        for x, y in zip(a, b, strict=True):
            if ranks and x.rank != y.rank:
                return _sign(self.value(x) - self.value(y))
            if x.suit != y.suit:
                return _sign(x.suit - y.suit)
        return 0


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def brute_showdown(counts: Sequence[int], types: Sequence[Card], plain: Plain):
    """For every first hand: (weaker, equal, stronger) ways of a second hand, by a double loop."""
    from math import comb

    def hands_of(left):
        for h in combinations_with_replacement(range(len(left)), 3):
            ways = 1
            for t in set(h):
                ways *= comb(left[t], h.count(t))
            if ways:
                yield h, ways

    result = {}
    for first, _ in hands_of(counts):
        left = list(counts)
        for t in first:
            left[t] -= 1
        a = [types[t] for t in first]
        tally = [0, 0, 0]
        for second, ways in hands_of(left):
            outcome = plain.compare(a, [types[t] for t in second])
            tally[1 - outcome] += ways  # a wins → the second is weaker
        result[first] = tuple(tally)
    return result


READINGS = [
    {},
    {"straight_above_jqk": True},
    {"kqj_mixed": "jqk"},
    {"single_card_order": "king-high"},
    {"straight_flush_above_triple": True},
    {"straight_above_jqk": True, "kqj_mixed": "jqk", "single_card_order": "king-high",
     "straight_flush_above_triple": True},
]  # fmt: skip


def _check(decks: int, ranks, suits, readings) -> None:
    config = build(GoaGaeConfig, {"shoe": {"decks": decks}, "rules": readings}, "")
    shoe = reduced_shoe(config.shoe.build(), ranks, suits)
    fast = {
        row.hand: (row.weaker, row.equal, row.stronger)
        for row in compute_showdown(config, shoe).rows
    }
    slow = brute_showdown(shoe.counts, shoe.types, Plain(**readings))
    assert fast == slow


SMALL_RANKS = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)


@pytest.mark.parametrize("readings", READINGS)
def test_one_deck_two_suits_every_reading(readings) -> None:
    _check(1, SMALL_RANKS, (Suit.HEARTS, Suit.SPADES), readings)


def test_one_deck_three_suits() -> None:
    ranks = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.JACK, Rank.QUEEN, Rank.KING)
    _check(1, ranks, (Suit.CLUBS, Suit.HEARTS, Suit.SPADES), {})


@pytest.mark.parametrize("readings", [READINGS[0], READINGS[-1]])
def test_two_decks(readings) -> None:
    ranks = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING)
    _check(2, ranks, (Suit.DIAMONDS, Suit.SPADES), readings)


def test_three_decks_partly_dealt() -> None:
    """Uneven counts (a partly dealt three-deck shoe) exercise every removal pattern."""
    config = build(GoaGaeConfig, {"shoe": {"decks": 3, "removed": ["As", "As", "Kh"]}}, "")
    shoe = reduced_shoe(config.shoe.build(), (Rank.ACE, Rank.QUEEN, Rank.KING),
                        (Suit.HEARTS, Suit.SPADES))  # fmt: skip
    fast = {r.hand: (r.weaker, r.equal, r.stronger) for r in compute_showdown(config, shoe).rows}
    assert fast == brute_showdown(shoe.counts, shoe.types, Plain())


def test_engine_is_generic_over_hand_size() -> None:
    """Two-card hands under an arbitrary order: the same prefix-sum method."""
    counts = (2, 1, 3, 0, 2)
    order = {}

    def strength(hand):
        return order.setdefault(hand, (sum(hand) * 7) % 5)

    rows = showdown(counts, 2, strength)
    from math import comb

    for row in rows:
        left = list(counts)
        for t in row.hand:
            left[t] -= 1
        tally = [0, 0, 0]
        for other in combinations_with_replacement(range(len(counts)), 2):
            ways = 1
            for t in set(other):
                ways *= comb(left[t], other.count(t))
            key, mine = strength(other), strength(row.hand)
            tally[0 if key < mine else 1 if key == mine else 2] += ways
        assert (row.weaker, row.equal, row.stronger) == tuple(tally)
