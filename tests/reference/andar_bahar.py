"""A second, deliberately plain Andar Bahar, written from docs/rules/andar-bahar.md only.

It shares nothing with the engine or the definition (``tables/andar-bahar.toml``): cards are
``(rank, suit)`` pairs of ints and letters. Two independent counts:

* :func:`orderings` deals every ordering of a small deck card by card (the first card the
  joker, then Andar and Bahar in turn until a card of the joker's rank) and counts the
  orderings per (joker, cards dealt after it, winning side): every ordering of the deck is
  one equally likely shuffle, so the counts are exact ways over ``N!``;
* :func:`sequential` walks the deal as draws without replacement, one card at a time, the
  chance of a match at each draw exact (a recursion on the cards left, no closed form).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations

Card = tuple[int, str]


def first_side(joker: Card, first: str) -> str:
    """The side dealt first: ``first`` ("andar"/"bahar"), or "by-colour": Andar on a black
    joker (clubs, spades), Bahar on a red one."""
    if first == "by-colour":
        return "andar" if joker[1] in "cs" else "bahar"
    return first


def same(a: Card, b: Card, match: str) -> bool:
    """Whether ``b`` matches ``a``: the same rank (the game's rule), suit or colour."""
    if match == "rank":
        return a[0] == b[0]
    if match == "suit":
        return a[1] == b[1]
    return (a[1] in "hd") == (b[1] in "hd")


def play(order: tuple[Card, ...], first: str, match: str = "rank") -> tuple[Card, int, str]:
    """One shuffled deck dealt: (joker, cards dealt after it up to the match, winning side)."""
    joker = order[0]
    starts = first_side(joker, first)
    other = "bahar" if starts == "andar" else "andar"
    for dealt, card in enumerate(order[1:], start=1):
        if same(joker, card, match):
            return joker, dealt, starts if dealt % 2 == 1 else other
    raise ValueError(f"no card matches the joker {joker}")


def orderings(
    deck: list[Card], first: str = "andar", match: str = "rank"
) -> Counter[tuple[Card, int, str]]:
    """Orderings of ``deck`` per (joker, cards dealt, winner); they add up to len(deck)!."""
    found: Counter[tuple[Card, int, str]] = Counter()
    for order in permutations(deck):
        found[play(order, first, match)] += 1
    return found


def sequential(cards: int, matching: int) -> dict[int, Fraction]:
    """The chance that the first of ``matching`` cards among ``cards`` comes at draw k,
    drawing one card at a time without replacement."""
    law: dict[int, Fraction] = {}
    missed = Fraction(1)  # the chance that no match came in the draws so far
    left = cards
    k = 0
    while missed and left:
        k += 1
        hit = Fraction(matching, left)
        law[k] = missed * hit
        missed *= 1 - hit
        left -= 1
    assert sum(law.values()) == 1
    return law


def side_chances(decks: int = 1) -> tuple[Fraction, Fraction]:
    """(the side dealt first wins, the other wins) from ``decks`` full decks."""
    law = sequential(52 * decks - 1, 4 * decks - 1)
    first = sum(p for k, p in law.items() if k % 2 == 1)
    return first, 1 - first
