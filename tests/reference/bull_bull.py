"""A plain count of Bull Bull (Bull Fight), written from docs/rules/bull-bull.md with no
project imports: every hand of five of the cards given, and every Red hand against every Blue
hand of the cards left, one by one.

Cards are codes as ``odds settle`` reads them (``"10s"``, ``"Ah"``); a code listed twice is two
identical cards, each a card of its own. A = 1, 2–9 their pips, 10 J Q K = 10.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from math import comb

#: The ranking, strongest first.
CATEGORIES = (
    "five-calf", "bomb", "gold-bull", "silver-bull", "bull-bull",
    "bull-9", "bull-8", "bull-7", "bull-6", "bull-5", "bull-4", "bull-3", "bull-2", "bull-1",
    "no-bull",
)  # fmt: skip
_VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10, "10": 10, "T": 10}
_VALUE.update({str(n): n for n in range(2, 10)})


def category(codes: Sequence[str]) -> str:
    """The category of five cards."""
    ranks = [code[:-1].upper() for code in codes]
    values = [_VALUE[r] for r in ranks]
    if max(values) <= 4 and sum(values) <= 10:
        return "five-calf"
    if max(Counter(ranks).values()) == 4:
        return "bomb"
    if all(r in ("J", "Q", "K") for r in ranks):
        return "gold-bull"
    if all(v == 10 for v in values):
        return "silver-bull"
    for three in combinations(range(5), 3):  # three cards adding up to 10, 20 or 30
        if sum(values[i] for i in three) % 10 == 0:
            rest = sum(values) % 10  # the other two cards' points
            return "bull-bull" if rest == 0 else f"bull-{rest}"
    return "no-bull"


def categories_by_ranks(decks: int = 1) -> Counter[str]:
    """Hands per category of five cards from full decks, every rank multiset once, times its
    suit choices (a category reads no suit): the same numbers as :func:`categories` over the
    2,598,960 hands of one deck, in a fraction of its ~25 s."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    found: Counter[str] = Counter()
    for hand in combinations_with_replacement(ranks, 5):
        held = Counter(hand)
        ways = 1
        for n in held.values():
            ways *= comb(4 * decks, n)
        if ways:
            found[category([f"{r}s" for r in hand])] += ways
    return found


def categories(codes: Sequence[str]) -> Counter[str]:
    """Hands per category over every five of the cards (each copy a card of its own)."""
    return Counter(category(hand) for hand in combinations(codes, 5))


def showdown(codes: Sequence[str]) -> Counter[tuple[str, str]]:
    """(winner, Red's category) per deal: every Red hand, then every Blue hand of the cards
    left; the higher category wins, equal categories tie."""
    found: Counter[tuple[str, str]] = Counter()
    index = range(len(codes))
    known = {hand: category([codes[i] for i in hand]) for hand in combinations(index, 5)}
    for red in combinations(index, 5):
        left = [i for i in index if i not in red]
        mine = known[red]
        for blue in combinations(left, 5):
            theirs = known[blue]
            a, b = CATEGORIES.index(mine), CATEGORIES.index(theirs)
            found["red" if a < b else "blue" if b < a else "tie", mine] += 1
    return found
