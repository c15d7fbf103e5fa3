"""A second, deliberately plain count of Bài Cào, written from docs/rules/bai-cao.md only.

Written by the game's designer, who read no code (issue 35), as an independent check of
``tables/bai-cao.toml``. It shares nothing with the engine or the definition: ranks are
strings, suits letters, ways exact integers from ``math.comb``. Every deal of three cards to
the player, then three to the dealer, is counted by composition with exact card-removal
weights, so the total is C(52d, 3) · C(52d − 3, 3) for d decks.

Rules counted: card points A = 1, 2–9 face value, 10 J Q K = 10, a hand's points their sum
mod 10; three face cards (J, Q, K in any mix) beat every points hand and two of them are
equal; otherwise more points wins. Equal hands tie (reading ``push``), or (reading
``top-card``) the highest card decides, ace high, then that card's suit, ♦ > ♥ > ♠ > ♣ (the
best suit among the cards of the top rank).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement, product
from math import comb

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
VALUE = {r: (i + 1 if i < 9 else 10) for i, r in enumerate(RANKS)}
FACES = {"J", "Q", "K"}
#: Ace high for the top card: 2 lowest … K, A highest.
HIGH = {
    r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])
}
SUITS = ["c", "s", "h", "d"]  # lowest first: clubs < spades < hearts < diamonds

RankCounts = tuple[int, ...]


def deals(decks: int) -> int:
    """Every deal: the player's three cards, then the dealer's three."""
    n = 52 * decks
    return comb(n, 3) * comb(n - 3, 3)


def rank_hands() -> Iterator[RankCounts]:
    """Every rank multiset of three cards, as 13 counts."""
    for combo in combinations_with_replacement(range(13), 3):
        counts = [0] * 13
        for i in combo:
            counts[i] += 1
        yield tuple(counts)


def strength(counts: RankCounts) -> tuple[int, int]:
    """(category, points): category 1 for three faces, 0 for a points hand."""
    ranks = [RANKS[i] for i in range(13) for _ in range(counts[i])]
    if all(r in FACES for r in ranks):
        return (1, 0)
    return (0, sum(VALUE[r] for r in ranks) % 10)


def top_rank(counts: RankCounts) -> int:
    return max((i for i in range(13) if counts[i]), key=lambda i: HIGH[RANKS[i]])


def suit_split(a: int, b: int, decks: int) -> tuple[int, int, int]:
    """Ways to give the player a cards and then the dealer b cards of one rank (4 suits of
    ``decks`` copies), split by the comparison of the two top suits: (player higher, equal,
    dealer higher)."""
    win = tie = lose = 0
    for x in product(range(decks + 1), repeat=4):
        if sum(x) != a:
            continue
        wx = 1
        for s in range(4):
            wx *= comb(decks, x[s])
        top_x = max(s for s in range(4) if x[s])
        for y in product(range(decks + 1), repeat=4):
            if sum(y) != b or any(x[s] + y[s] > decks for s in range(4)):
                continue
            w = wx
            for s in range(4):
                w *= comb(decks - x[s], y[s])
            top_y = max(s for s in range(4) if y[s])
            if top_x > top_y:
                win += w
            elif top_x == top_y:
                tie += w
            else:
                lose += w
    per_rank = 4 * decks
    assert win + tie + lose == comb(per_rank, a) * comb(per_rank - a, b)
    return win, tie, lose


@dataclass(frozen=True)
class PlayerWays:
    """The Player bet's ways (win, tie, lose) under each reading of equal hands."""

    push: tuple[int, int, int]
    top_card: tuple[int, int, int]


def player_ways(decks: int) -> PlayerWays:
    """The Player bet under both readings, by every pair of rank compositions."""
    per_rank = 4 * decks
    info = [(h, strength(h), top_rank(h)) for h in rank_hands()]
    splits = {(a, b): suit_split(a, b, decks) for a in range(1, 4) for b in range(1, 4)}
    push = [0, 0, 0]
    top = [0, 0, 0]
    for p, sp, tp in info:
        for d, sd, td in info:
            w = 1
            for i in range(13):
                if p[i] + d[i] > per_rank:
                    w = 0
                    break
                w *= comb(per_rank, p[i]) * comb(per_rank - p[i], d[i])
            if not w:
                continue
            if sp != sd:
                k = 0 if sp > sd else 2
                push[k] += w
                top[k] += w
                continue
            push[1] += w
            hp, hd = HIGH[RANKS[tp]], HIGH[RANKS[td]]
            if hp != hd:
                top[0 if hp > hd else 2] += w
                continue
            # The same top rank: the suits of that rank's cards decide.
            r = tp
            rest = w // (comb(per_rank, p[r]) * comb(per_rank - p[r], d[r]))
            win, tie, lose = splits[(p[r], d[r])]
            top[0] += rest * win
            top[1] += rest * tie
            top[2] += rest * lose
    assert sum(push) == sum(top) == deals(decks)
    return PlayerWays((push[0], push[1], push[2]), (top[0], top[1], top[2]))


@dataclass(frozen=True)
class HandWays:
    """Deals in which the player's hand is three faces, a flush, three of a kind."""

    three_faces: int
    flush: int
    trips: int


def player_hand_ways(decks: int) -> HandWays:
    """The one-hand bets, by every multiset of the 52 card types (``decks`` copies each), each
    times the dealer's hands from what is left."""
    cards = [(r, s) for r in RANKS for s in SUITS]
    faces = flush = trips = total = 0
    for combo in combinations_with_replacement(range(52), 3):
        w = 1
        for c in set(combo):
            w *= comb(decks, combo.count(c))
        if not w:
            continue
        hand = [cards[c] for c in combo]
        total += w
        if all(r in FACES for r, _ in hand):
            faces += w
        if len({s for _, s in hand}) == 1:
            flush += w
        if len({r for r, _ in hand}) == 1:
            trips += w
    n = 52 * decks
    assert total == comb(n, 3)
    dealer = comb(n - 3, 3)
    return HandWays(faces * dealer, flush * dealer, trips * dealer)
