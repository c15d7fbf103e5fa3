"""Independent brute force for Bài Cào (Ba Cây), 6 decks: no import of `odds`.

Every deal of 3 cards to the player, then 3 to the dealer, from a 312-card shoe (6 decks),
counted by composition with exact card-removal weights; hands unordered within, in dealing
order between, so the total is C(312,3) * C(309,3).

Rules counted:
* card points A=1, 2-9 face value, 10 J Q K = 10; a hand's points = sum mod 10;
* three face cards (J, Q, K in any mix) beat every points hand; two such hands are equal;
* otherwise more points wins; equal hands push (reading "push"), or (reading "top-card")
  the highest card decides, ace high, then that card's suit, diamonds > hearts > spades > clubs
  (three-face hands included).

Bets: player wins 1:1 less 5% commission, push on a tie, else loses 1;
three-faces (player's hand is three face cards) pays THREE_FACES:1; player flush pays FLUSH:1;
player trips (three cards of one rank) pays TRIPS:1.

Run: python docs-demo/bai_cao_check.py [three_faces_pay flush_pay trips_pay]
"""

import sys
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import comb

DECKS = 6
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
VALUE = {r: (i + 1 if i < 9 else 10) for i, r in enumerate(RANKS)}
FACES = {"J", "Q", "K"}
# ace high for the top card: 2 lowest ... K, A highest
HIGH = {r: i for i, r in enumerate(["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])}
SUITS = ["c", "s", "h", "d"]  # lowest first: clubs < spades < hearts < diamonds
PER_RANK = 4 * DECKS  # 24
PER_CARD = DECKS  # 6
N = 52 * DECKS

COMMISSION = Fraction(5, 100)
THREE_FACES, FLUSH, TRIPS = (Fraction(x) for x in (sys.argv[1:4] if len(sys.argv) > 3 else (80, 14, 30)))

TOTAL = comb(N, 3) * comb(N - 3, 3)


def rank_hands():
    """Every rank multiset of three cards, as a tuple of 13 counts."""
    for combo in combinations_with_replacement(range(13), 3):
        counts = [0] * 13
        for i in combo:
            counts[i] += 1
        yield tuple(counts)


def strength(counts):
    """(category, points): category 1 for three faces, 0 for a points hand."""
    ranks = [RANKS[i] for i in range(13) for _ in range(counts[i])]
    if all(r in FACES for r in ranks):
        return (1, 0)
    return (0, sum(VALUE[r] for r in ranks) % 10)


def top_rank(counts):
    return max((i for i in range(13) if counts[i]), key=lambda i: HIGH[RANKS[i]])


def suit_split(a, b):
    """Ways to give the player a cards and then the dealer b cards of one rank (24 = 4 suits x 6),
    split by the comparison of the two top suits: (player higher, equal, dealer higher)."""
    win = tie = lose = 0
    for x in product(range(PER_CARD + 1), repeat=4):
        if sum(x) != a:
            continue
        wx = 1
        for s in range(4):
            wx *= comb(PER_CARD, x[s])
        top_x = max(s for s in range(4) if x[s])
        for y in product(range(PER_CARD + 1), repeat=4):
            if sum(y) != b or any(x[s] + y[s] > PER_CARD for s in range(4)):
                continue
            w = wx
            for s in range(4):
                w *= comb(PER_CARD - x[s], y[s])
            top_y = max(s for s in range(4) if y[s])
            if top_x > top_y:
                win += w
            elif top_x == top_y:
                tie += w
            else:
                lose += w
    assert win + tie + lose == comb(PER_RANK, a) * comb(PER_RANK - a, b)
    return win, tie, lose


def main_bet():
    """Player bet ways (win, tie, lose) under both readings, by rank compositions."""
    hands = list(rank_hands())
    info = [(h, strength(h), top_rank(h)) for h in hands]
    splits = {(a, b): suit_split(a, b) for a in range(1, 4) for b in range(1, 4)}
    push = [0, 0, 0]  # win, tie, lose
    top = [0, 0, 0]
    total = 0
    for p, sp, tp in info:
        for d, sd, td in info:
            w = 1
            for i in range(13):
                if p[i] + d[i] > PER_RANK:
                    w = 0
                    break
                w *= comb(PER_RANK, p[i]) * comb(PER_RANK - p[i], d[i])
            if not w:
                continue
            total += w
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
            # same top rank: the suits of that rank's cards decide
            r = tp
            rest = w // (comb(PER_RANK, p[r]) * comb(PER_RANK - p[r], d[r]))
            win, tie, lose = splits[(p[r], d[r])]
            top[0] += rest * win
            top[1] += rest * tie
            top[2] += rest * lose
    assert total == TOTAL, (total, TOTAL)
    assert sum(push) == TOTAL and sum(top) == TOTAL
    return push, top


def player_hand_bets():
    """Ways of the one-hand bets, by every multiset of the 52 card types (6 copies each),
    each times the C(309, 3) dealer hands from what is left."""
    cards = [(r, s) for r in RANKS for s in SUITS]
    faces = flush = trips = total = 0
    for combo in combinations_with_replacement(range(52), 3):
        w = 1
        for c in set(combo):
            w *= comb(PER_CARD, combo.count(c))
        hand = [cards[c] for c in combo]
        total += w
        if all(r in FACES for r, _ in hand):
            faces += w
        if len({s for _, s in hand}) == 1:
            flush += w
        if len({r for r, _ in hand}) == 1:
            trips += w
    assert total == comb(N, 3)
    dealer = comb(N - 3, 3)
    return faces * dealer, flush * dealer, trips * dealer


def ev_player(ways):
    win, tie, lose = ways
    return (win * (1 - COMMISSION) - lose) / TOTAL


def ev_simple(win_ways, pays):
    return (win_ways * (pays + 1) - TOTAL) / TOTAL


def show(name, ev):
    print(f"{name:28} EV {ev}  house edge {-ev}  = {float(-ev):.6%}")


if __name__ == "__main__":
    print(f"deals: {TOTAL:,}")
    push, top = main_bet()
    print(f"player, reading push:     win {push[0]:,} tie {push[1]:,} lose {push[2]:,}")
    show("player (push)", ev_player(push))
    print(f"player, reading top-card: win {top[0]:,} tie {top[1]:,} lose {top[2]:,}")
    show("player (top-card)", ev_player(top))
    faces, flush, trips = player_hand_bets()
    print(f"three faces ways {faces:,}; flush ways {flush:,}; trips ways {trips:,}")
    show(f"three-faces at {THREE_FACES}:1", ev_simple(faces, THREE_FACES))
    show(f"flush at {FLUSH}:1", ev_simple(flush, FLUSH))
    show(f"trips at {TRIPS}:1", ev_simple(trips, TRIPS))
