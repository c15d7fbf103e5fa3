"""Dealer numerators by inclusion–exclusion: every up card at once against one at a time, and
against the plain recursion over every draw (tests/reference/blackjack_nhc.py)."""

from __future__ import annotations

from fractions import Fraction
from itertools import islice

import pytest

from odds.engine import falling
from odds.games.blackjack.dealer import OUTCOMES, RANKS, longest_draw, plan
from odds.games.blackjack.dealer_batches import RemovalSet, numerators, up_card_numerators
from odds.games.blackjack.nodes import add, hand_multisets
from tests.reference.blackjack_nhc import dealer_probabilities


def _removed_sets() -> list[tuple[int, ...]]:
    """Hands, split hands with their pair card, and a few with extra pair cards out."""
    hands = [h for h in hand_multisets() if 2 <= sum(h) <= 5]
    wanted = set(hands) | {(0,) * RANKS}
    for x in (0, 4, 9):
        wanted.update(add(h, x) for h in hands if h[x])
        wanted.update(add(h, x, 3) for h in islice((h for h in hands if h[x]), 40))
    return sorted(wanted)


REMOVED = _removed_sets()
SHOES = {
    "one deck": (4,) * 9 + (16,),
    "two decks": (8,) * 9 + (32,),
    "lopsided": (9, 7, 7, 6, 2, 2, 2, 2, 3, 20),
}


@pytest.mark.parametrize(
    ("shoe", "hits_soft_17", "exact_roots"),
    [
        ("one deck", False, True),
        ("one deck", True, False),
        ("two decks", True, True),
        ("lopsided", False, False),
    ],
)
def test_every_up_card_at_once_matches_one_at_a_time(
    shoe: str, hits_soft_17: bool, exact_roots: bool
):
    counts = SHOES[shoe]
    ups = tuple(range(RANKS))
    after = {u: tuple(c - (i == u) for i, c in enumerate(counts)) for u in ups}
    kmax = max(longest_draw(after[u], u, hits_soft_17) for u in ups)
    removal = RemovalSet(REMOVED, exact_roots=exact_roots)
    packed, lanes = numerators(removal, counts, ups, hits_soft_17, kmax)
    # Every up card possible: below the shoe's count of every rank.
    valued = [r for r in REMOVED if all(c < n for c, n in zip(r, counts, strict=True))]
    assert len(valued) > 200
    for u in ups:
        dp = plan(after[u], u, hits_soft_17, kmax)
        expected = up_card_numerators(dp, valued)
        for r in valued:
            assert lanes.unpack(packed[r], u) == expected[r], (shoe, u, r)
            assert sum(dp.unpack(expected[r])) == dp.denominator(sum(r))


def test_a_few_against_every_draw_sequence():
    counts = SHOES["lopsided"]
    ups = (0, 5, 9)
    removal = RemovalSet(REMOVED[:60:7])
    after = {u: tuple(c - (i == u) for i, c in enumerate(counts)) for u in ups}
    kmax = max(longest_draw(after[u], u, False) for u in ups)
    packed, lanes = numerators(removal, counts, ups, False, kmax)
    for r in removal.items:
        denominator = falling(sum(counts) - 1 - sum(r), kmax)
        for u in ups:
            lanes_ = plan(after[u], u, False, kmax).unpack(lanes.unpack(packed[r], u))
            left = tuple(n - c for n, c in zip(after[u], r, strict=True))
            reference = dealer_probabilities(left, u, False)
            assert [Fraction(c, denominator) for c in lanes_] == [reference[o] for o in OUTCOMES]
