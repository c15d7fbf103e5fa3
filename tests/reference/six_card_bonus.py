"""A plain count of Three Card Poker's 6-Card Bonus, written from docs/rules/six-card-bonus.md
with no project imports: every six of the cards given, one by one, each read by the best
five-card poker hand among its six five-card subsets.

Cards are codes as ``odds settle`` reads them (``"10s"``, ``"Ah"``); a code listed twice is
two identical cards (two decks), each a card of its own in the count. Aces are high or low
in a straight (A-2-3-4-5 and 10-J-Q-K-A; no wrap-around).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

#: The categories, weakest first (the index is the strength).
CATEGORIES = (
    "nothing", "trips", "straight", "flush", "full-house", "quads", "straight-flush",
    "royal-flush",
)  # fmt: skip
_VALUE = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "T": 10}
_VALUE.update({str(n): n for n in range(2, 10)})


def card(code: str) -> tuple[int, str]:
    """``"10s"`` -> (10, "s"); aces are 14."""
    return _VALUE[code[:-1].upper()], code[-1].lower()


def five_card(hand: Sequence[tuple[int, str]]) -> int:
    """The strength (an index of :data:`CATEGORIES`) of five cards."""
    values = sorted(v for v, _ in hand)
    flush = len({s for _, s in hand}) == 1
    shape = sorted(Counter(values).values(), reverse=True)
    straight = shape[0] == 1 and (values[4] - values[0] == 4 or values == [2, 3, 4, 5, 14])
    if straight and flush:
        return 7 if values[0] == 10 else 6
    if shape[0] == 4:
        return 5
    if shape[:2] == [3, 2]:
        return 4
    if flush:
        return 3
    if straight:
        return 2
    if shape[0] == 3:
        return 1
    return 0


def six_card(
    hand: Sequence[tuple[int, str]],
    strength: Callable[[Sequence[tuple[int, str]]], int] = five_card,
) -> str:
    """The category of the best five of six cards."""
    return CATEGORIES[max(strength(five) for five in combinations(hand, 5))]


def count(codes: Sequence[str]) -> Counter[str]:
    """Hands per category over every six of the cards (each copy a card of its own); each
    five cards read once (22 cards: 26,334 fives, each in 17 of the 74,613 sixes)."""
    cards = [card(c) for c in codes]
    strength = cache(five_card)
    return Counter(six_card(hand, strength) for hand in combinations(cards, 6))
