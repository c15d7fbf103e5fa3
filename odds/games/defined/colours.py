"""Suit colours, as data: hearts and diamonds are red, clubs and spades black.

A definition's ``same_colour`` pattern (Perfect Pairs' *coloured pair*: two cards
of one rank and one colour, of different suits) reads them. Colour is not kept
by every permutation of the suits (hearts for clubs turns a red pair into a
mixed one), so a definition that reads colour is counted without the suit
symmetries and classified by its cards' colours as well as its ranks
(:mod:`odds.games.defined.counting`).
"""

from __future__ import annotations

from collections.abc import Sequence

from odds.core.cards import Card, Suit
from odds.games.defined.schema import Definition, pattern_keys

#: The colour of each suit.
COLOUR: dict[Suit, str] = {
    Suit.HEARTS: "red",
    Suit.DIAMONDS: "red",
    Suit.CLUBS: "black",
    Suit.SPADES: "black",
}


def one_colour(cards: Sequence[Card]) -> bool:
    """Whether two cards or more are all of one colour."""
    return len(cards) > 1 and len({COLOUR[c.suit] for c in cards}) == 1


def reads_colour(definition: Definition) -> bool:
    """Whether some category of the definition asks for one colour."""
    return any("same_colour" in pattern_keys(c.pattern) for c in definition.categories)
