"""Card parsing and shoe compositions."""

from __future__ import annotations

import pytest

from odds.core.cards import Card, Rank, Suit, card_shoe, parse_card, parse_cards, suit_symmetries
from odds.core.errors import OddsError
from odds.core.shoe import Shoe


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("K♥", Card(Rank.KING, Suit.HEARTS)),
        ("Kh", Card(Rank.KING, Suit.HEARTS)),
        ("kH", Card(Rank.KING, Suit.HEARTS)),
        ("10d", Card(Rank.TEN, Suit.DIAMONDS)),
        ("Td", Card(Rank.TEN, Suit.DIAMONDS)),
        ("A♠", Card(Rank.ACE, Suit.SPADES)),
        ("2c", Card(Rank.TWO, Suit.CLUBS)),
        (" q♦ ", Card(Rank.QUEEN, Suit.DIAMONDS)),
    ],
)
def test_parse_card(text, card):
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "K", "11h", "1x", "Kx", "Z♠", "10", "KhKh", "0c"])
def test_parse_card_rejects(text):
    with pytest.raises(OddsError, match="unknown card"):
        parse_card(text)


def test_card_text_round_trips():
    for card in card_shoe(1).types:
        assert parse_card(str(card)) == card == parse_card(card.code)


def test_parse_cards_separators():
    assert parse_cards("9d 7c") == parse_cards("9d,7c") == parse_cards(" 9♦  7♣ ")


def test_shoe_counts_and_removal():
    shoe = card_shoe(8)
    assert shoe.size == 416
    dealt = shoe.without(parse_cards("Kh Kh 9d"))
    assert dealt.size == 413 and dealt.count(parse_card("Kh")) == 6
    with pytest.raises(OddsError, match="cannot hold"):
        card_shoe(1).check_holds(parse_cards("5c 5c"))


@pytest.mark.parametrize("decks", [0, -1, True])
def test_impossible_deck_counts(decks):
    with pytest.raises(OddsError, match="impossible composition"):
        card_shoe(decks)


def test_negative_and_custom_counts():
    with pytest.raises(OddsError, match="impossible composition"):
        card_shoe(1, counts={"Kh": -1})
    custom = card_shoe(2, counts={"Kh": 0, "As": 5})
    assert custom.count(parse_card("Kh")) == 0 and custom.count(parse_card("As")) == 5
    with pytest.raises(OddsError, match="impossible composition"):
        Shoe(("a", "b"), (1, -2), "bad")


def test_suit_symmetries_are_permutations():
    full = suit_symmetries(card_shoe(1).types)
    assert len(full) == 24
    for perm in full:
        assert sorted(perm) == list(range(52))
    two = tuple(c for c in card_shoe(1).types if c.suit in (Suit.CLUBS, Suit.SPADES))
    assert len(suit_symmetries(two)) == 2
