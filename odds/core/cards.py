"""Playing cards: ranks, suits, and parsing of ``K♥``, ``Kh``, ``10d``, ``Td``, ``A♠``.

A card's identity is its (rank, suit) pair; copies of one card in a multi-deck
shoe are interchangeable, so a :class:`Card` is a *card type* and a shoe keeps
a count per type (see :mod:`odds.core.shoe`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING

from odds.core.caching import cached
from odds.core.errors import OddsError

if TYPE_CHECKING:  # the shoe is built at call time (card_shoe): the annotation only
    from odds.core.shoe import Shoe


class Rank(IntEnum):
    """Card ranks, ace low by number (games decide their own orders)."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """``A``, ``2`` … ``10``, ``J``, ``Q``, ``K``."""
        return _RANK_SYMBOLS[self]

    @property
    def baccarat_points(self) -> int:
        """A = 1, 2–9 face value, 10 J Q K = 0 (Pok Deng, Goa Gae)."""
        return 0 if self >= Rank.TEN else int(self)


#: Each rank's symbol by its number (a card is written millions of times in a test run).
_RANK_SYMBOLS = ("", "A", *map(str, range(2, 11)), "J", "Q", "K")


class Suit(IntEnum):
    """Suits in the order ♣ < ♦ < ♥ < ♠ (the Goa Gae tie-break order)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """``♣ ♦ ♥ ♠``."""
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        """``c d h s``."""
        return "cdhs"[self]


_RANKS = {r.symbol: r for r in Rank} | {"T": Rank.TEN, "1": Rank.ACE}
_SUITS = {s.symbol: s for s in Suit} | {s.letter.upper(): s for s in Suit}
_SUITS |= {"♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS, "♤": Suit.SPADES}
_CARD = re.compile(r"^(10|[2-9AJQKT])([CDHS♣♦♥♠♧♢♡♤])$")


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One card type: rank and suit."""

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return _RANK_SYMBOLS[self.rank] + "♣♦♥♠"[self.suit]

    @property
    def code(self) -> str:
        """ASCII form, ``Kh``."""
        return f"{self.rank.symbol}{self.suit.letter}"


#: The 52 card types in rank-major order (A♣ A♦ A♥ A♠ 2♣ … K♠).
STANDARD_DECK: tuple[Card, ...] = tuple(Card(r, s) for r in Rank for s in Suit)


@cached(maxsize=1024)
def parse_card(text: str) -> Card:
    """Parse one card, case-insensitively (kept per text: a log's hands repeat its 52 cards).

    >>> parse_card("K♥"), parse_card("kh"), parse_card("10d"), parse_card("Td")
    (Card(rank=<Rank.KING: 13>, suit=<Suit.HEARTS: 2>), \
Card(rank=<Rank.KING: 13>, suit=<Suit.HEARTS: 2>), \
Card(rank=<Rank.TEN: 10>, suit=<Suit.DIAMONDS: 1>), \
Card(rank=<Rank.TEN: 10>, suit=<Suit.DIAMONDS: 1>))
    """
    match = _CARD.match(text.strip().upper().replace("\ufe0f", ""))
    if not match:
        raise OddsError(
            f"unknown card {text!r}: write a rank (A, 2-10, T, J, Q, K) and a suit "
            "(c d h s or ♣ ♦ ♥ ♠), e.g. Kh, 10d, A♠"
        )
    return Card(_RANKS[match.group(1)], _SUITS[match.group(2)])


def split_tokens(text: str) -> list[str]:
    """Split a hand written as ``"9d 7c"``, ``"9d,7c"`` or ``"K♥ 9♥"`` into card tokens."""
    return [token for token in re.split(r"[\s,;]+", text.strip()) if token]


@cached(maxsize=4096)
def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a space- or comma-separated list of cards (the last few thousand hands kept: a
    log writes the same hands again and again).

    >>> [str(c) for c in parse_cards("9d 7c, A♠")]
    ['9♦', '7♣', 'A♠']
    """
    tokens = split_tokens(text)
    if not tokens:
        raise OddsError("empty hand: write cards such as '9d 7c'")
    return tuple(parse_card(token) for token in tokens)


def hand_text(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards as people write them: ``K♥ 9♥``."""
    return " ".join(str(c) for c in cards)


def suit_symmetries(types: tuple[Card, ...]) -> list[tuple[int, ...]]:
    """The suit permutations as permutations of type indices.

    For rules that ask only whether suits are equal, every relabelling of the
    suits maps a hand onto one of the same class (see
    :func:`odds.engine.joint_class_distribution`). Permutations that would send
    a present card to an absent one (reduced decks) are left out.
    """
    from itertools import permutations

    position = {card: i for i, card in enumerate(types)}
    result: list[tuple[int, ...]] = []
    for order in permutations(Suit):
        try:
            perm = tuple(position[Card(c.rank, order[c.suit])] for c in types)
        except KeyError:
            continue
        if perm not in result:
            result.append(perm)
    return result


def card_shoe(
    decks: int, removed: tuple[str, ...] = (), counts: dict[str, int] | None = None
) -> Shoe[Card]:
    """A shoe of standard decks, optionally partly dealt or with explicit counts.

    ``removed`` lists cards already out of the shoe; ``counts`` sets the number
    of copies of particular cards (``{"K♥": 0}``). Both are validated.
    """
    from odds.core.shoe import Shoe

    shoe = Shoe.of_decks(STANDARD_DECK, decks)
    if counts:
        changes = {parse_card(text): n for text, n in counts.items()}
        for card, n in changes.items():
            if n < 0:
                raise OddsError(f"impossible composition: {n} copies of {card}")
        listed = ", ".join(f"{card} × {n}" for card, n in changes.items())
        shoe = shoe.with_counts(changes, f"{shoe.description} with {listed}")
    if removed:
        shoe = shoe.without([parse_card(text) for text in removed])
    return shoe
