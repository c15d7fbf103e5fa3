"""Tie-breaks that compare single cards: ``top_cards`` and ``sequence_suits``.

Goa Gae (docs/rules/goa-gae.md §Tie-breaks) compares hands of one category card by
card from the top down, each card by its rank and then its suit (``top_cards``: the
higher top card wins, then its suit, then the second card …), and two straights of one
sequence by the suits of their cards taken from the sequence's top down, where the top
of Q-K-A is the ace and the top of A-2-3 is the 3 (``sequence_suits``). Kept apart from
:mod:`odds.games.defined.patterns` because they read suits card by card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from odds.core.cards import Card, Rank
from odds.games.defined.schema import ShoeRules

#: The tie-break keys this module computes.
KEYS = ("top_cards", "sequence_suits")


def top_cards(cards: Sequence[Card], shoe: ShoeRules) -> tuple[tuple[int, int], ...]:
    """Every card from the highest down as (rank order, suit order): rank first, then suit."""
    places = [(shoe.order(c.rank), shoe.suit_order.index(c.suit)) for c in cards]
    return tuple(sorted(places, reverse=True))


def sequence_suits(cards: Sequence[Card], shoe: ShoeRules) -> tuple[int, ...]:
    """The suits from the sequence's top card down (an ace at the other end moved there).

    A hand that is no sequence takes its cards by rank order, like ``suits``.
    """
    top = len(shoe.rank_order) - 1
    orders = sorted(shoe.order(c.rank) for c in cards)
    natural = orders == list(range(orders[0], orders[0] + len(orders)))
    ace = shoe.order(Rank.ACE)

    def place(card: Card) -> int:
        order = shoe.order(card.rank)
        if card.rank == Rank.ACE and not natural:
            return -1 if ace == top else top + 1
        return order

    ordered = sorted(cards, key=lambda c: (place(c), shoe.suit_order.index(c.suit)), reverse=True)
    return tuple(shoe.suit_order.index(c.suit) for c in ordered)


def tiebreak(cards: Sequence[Card], key: str, shoe: ShoeRules) -> tuple[Any, ...]:
    """The tie-break ``key`` (one of :data:`KEYS`) as a comparable tuple."""
    if key == "top_cards":
        return top_cards(cards, shoe)
    return sequence_suits(cards, shoe)
