"""A second, deliberately plain count of Three Card Poker's Ante and Play, written from
docs/rules/three-card-poker.md only.

It shares nothing with the engine or the definition: cards are (rank, suit) pairs of small
integers, hands ranked by a hand-written key, every player hand dealt against every dealer
hand from what it left (one deck, or the cards given), the player's decision taken per hand
by exact Fraction EV (play on a tie of EVs, the first action), or by a strategy given as a
plain function of the player's cards (:func:`at_least`, :func:`pair_or_better`). Used on a
reduced deck by
``tests/games/defined/test_three_card_poker.py`` (the engine runs the same reduced shoe).

Rules counted: ranks 2 < … < K < A; straight flush > three of a kind > straight > flush >
pair > high card; A-2-3 is the lowest straight and Q-K-A the highest; within a category
the ranks decide (a straight by its top card, A-2-3's top being the 3; a pair by its rank,
then the kicker; a flush and a high card by their ranks from the highest). The dealer
qualifies with Q-high or better (a hand at least Q-3-2 high card). Fold: the Ante is lost.
Play (a Play wager equal to the Ante): the dealer does not qualify, the Ante wins 1 and the
Play pushes; the dealer qualifies, both win 1, push, or both lose. The Ante Bonus pays 1
(straight), 4 (three of a kind), 5 (straight flush) per Ante whenever the player plays.

Teen Patti (docs/rules/teen-patti.md, :data:`TEEN_PATTI`) is the same game but for the hand
order, three of a kind above a straight flush, and an Ante Bonus that may pay three aces
otherwise than the other threes of a kind: :class:`Rules` says which.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

Card = tuple[int, int]  # (rank 2..14, suit 0..3)
RANK_OF = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10}
RANK_OF.update({str(n): n for n in range(2, 10)})
SUIT_OF = {"c": 0, "d": 1, "h": 2, "s": 3}

STRAIGHT_FLUSH, TRIPS, STRAIGHT, FLUSH, PAIR, HIGH = 6, 5, 4, 3, 2, 1


@dataclass(frozen=True)
class Rules:
    """What differs between the games counted here: whether three of a kind ranks above a
    straight flush (Teen Patti), and the Ante Bonus per Ante by the player's hand (``three
    aces`` paid apart when given)."""

    trips_over_straight_flush: bool = False
    straight_flush: int = 5
    trips: int = 4
    three_aces: int | None = None
    straight: int = 1

    def bonus(self, hand: tuple[Card, ...]) -> int:
        category = key(hand)[0]
        if category == TRIPS and hand[0][0] == 14 and self.three_aces is not None:
            return self.three_aces
        return {STRAIGHT_FLUSH: self.straight_flush, TRIPS: self.trips,
                STRAIGHT: self.straight}.get(category, 0)  # fmt: skip

    def strength(self, hand: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
        """The hand's key in this game's order."""
        category, ranks = key(hand)
        if self.trips_over_straight_flush and category in (TRIPS, STRAIGHT_FLUSH):
            category = STRAIGHT_FLUSH if category == TRIPS else TRIPS
        return (category, ranks)


THREE_CARD_POKER = Rules()
#: Teen Patti's order; its Ante Bonus as tables/teen-patti.toml gives it by default.
TEEN_PATTI = Rules(trips_over_straight_flush=True, three_aces=4)


def card(code: str) -> Card:
    """``"Qh"`` → (12, 2)."""
    return (RANK_OF[code[:-1]], SUIT_OF[code[-1]])


@cache
def key(hand: tuple[Card, ...]) -> tuple[int, tuple[int, ...]]:
    """The hand's strength: (category, ranks that break ties), greater is stronger (kept per
    hand: the enumeration meets each dealer hand hundreds of times)."""
    ranks = sorted((r for r, _ in hand), reverse=True)
    flush = len({s for _, s in hand}) == 1
    straight_top = None
    if len(set(ranks)) == 3:
        if ranks[0] - ranks[2] == 2:
            straight_top = ranks[0]
        elif ranks == [14, 3, 2]:
            straight_top = 3  # A-2-3: the lowest straight
    counts = Counter(ranks)
    if straight_top is not None and flush:
        return (STRAIGHT_FLUSH, (straight_top,))
    if len(counts) == 1:
        return (TRIPS, (ranks[0],))
    if straight_top is not None:
        return (STRAIGHT, (straight_top,))
    if flush:
        return (FLUSH, tuple(ranks))
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return (PAIR, (pair, kicker))
    return (HIGH, tuple(ranks))


#: Q-3-2 of three suits: the weakest hand that qualifies.
QUALIFIES = (HIGH, (12, 3, 2))


@dataclass
class Result:
    """What the enumeration found: the ways per (net per Ante, total wager in Antes), the
    best action of every player hand (its cards, sorted), and the deals."""

    outcomes: Counter[tuple[Fraction, int]]
    actions: dict[tuple[Card, ...], str]
    deals: int

    def ev(self) -> Fraction:
        return Fraction(sum(net * n for (net, _), n in self.outcomes.items()), self.deals)

    def average_wager(self) -> Fraction:
        return Fraction(sum(w * n for (_, w), n in self.outcomes.items()), self.deals)


def play_net(
    player: tuple[Card, ...], dealer: tuple[Card, ...], rules: Rules = THREE_CARD_POKER
) -> int:
    """Net per Ante when the player plays (two units at risk)."""
    return _net(rules.strength(player), rules.strength(dealer), rules.bonus(player))


def _net(mine: tuple[int, tuple[int, ...]], theirs: tuple[int, tuple[int, ...]], bonus: int) -> int:
    """:func:`play_net` from the two hands' strengths and the player's bonus."""
    if theirs < QUALIFIES:
        return 1 + bonus  # the Ante wins, the Play pushes
    if mine > theirs:
        return 2 + bonus
    if mine == theirs:
        return bonus
    return -2 + bonus


#: A fixed strategy: whether the player plays a hand.
Strategy = Callable[[tuple[Card, ...]], bool]


def at_least(ranks: str) -> Strategy:
    """Play a hand at least as strong as the high-card hand of these ranks of three suits
    ("Q 3 2": Q-high or better, the dealer's qualifier: "mimic the dealer")."""
    reference = (HIGH, tuple(sorted((RANK_OF[r] for r in ranks.split()), reverse=True)))
    return lambda hand: key(hand) >= reference


def pair_or_better(hand: tuple[Card, ...]) -> bool:
    """Play a pair or better, fold every high card."""
    return key(hand)[0] >= PAIR


def enumerate_game(
    deck: Sequence[Card], strategy: Strategy | None = None, rules: Rules = THREE_CARD_POKER
) -> Result:
    """Every player hand, the best action by exact EV (or the ``strategy``'s), every dealer
    hand from the rest."""
    outcomes: Counter[tuple[Fraction, int]] = Counter()
    actions: dict[tuple[Card, ...], str] = {}
    deals = 0
    # Each hand's strength once (a dealer hand is met hundreds of times): the hands of the
    # cards left come in the deck's order, as the deck's own hands do.
    strength = {hand: rules.strength(hand) for hand in combinations(deck, 3)}
    for player in combinations(deck, 3):
        rest = [c for c in deck if c not in player]
        mine, bonus = strength[player], rules.bonus(player)
        nets = Counter(_net(mine, strength[dealer], bonus) for dealer in combinations(rest, 3))
        nets = Counter({Fraction(net): n for net, n in nets.items()})
        hands = sum(nets.values())
        deals += hands
        play = Fraction(sum(net * n for net, n in nets.items()), hands)
        # Playing at least as good as folding (-1): play, the first action; or as told.
        if (play >= -1) if strategy is None else strategy(player):
            actions[tuple(sorted(player))] = "play"
            for net, n in nets.items():
                outcomes[net, 2] += n
        else:
            actions[tuple(sorted(player))] = "fold"
            outcomes[Fraction(-1), 1] += hands
    return Result(outcomes, actions, deals)


def reduced_deck(ranks: Sequence[str]) -> list[Card]:
    """Every suit of each rank given."""
    return [(RANK_OF[r], s) for r in ranks for s in range(4)]
