"""One blackjack round played card by card, for any strategy: the one loop that deals.

The seeded simulation (:mod:`.simulate`), a shoe dealt to its cut card
(:mod:`.shoe_state`) and the replay of a logged round (:mod:`.rules`) all deal
through :func:`play`, as baccarat's ``deal_coup`` serves every use of a coup:
what differs is where the cards come from (``draw``, told who each card is for) and who decides
(a :class:`Strategy`).

The order is a live table's: a first card to each player, the up card, a second
card to each player; under a peek the hole card at once, and a dealer blackjack
ends the round there. Then each player's hands in turn: a split hand receives its
second card when its turn comes, a pair card dealt to it may be split again, and
it is played to the end before the next hand's second card. Without a peek the
hole card comes after the players; the dealer draws only while some hand is live
(not busted, surrendered or a natural). The round is returned as plain data
(:class:`PlayedRound`); :func:`hand_net` settles one of its hands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from odds.games.blackjack.actions import DOUBLE, HIT, SPLIT, STAND, SURRENDER, Action
from odds.games.blackjack.dealer import dealer_stands, total_of
from odds.games.blackjack.options import BlackjackRules

C = TypeVar("C")


@dataclass(eq=False)
class PlayerHand(Generic[C]):
    """One hand as it is played: what a :class:`Strategy` reads, and what is settled.

    ``ranks`` are the cards' rank indices (0 = A … 9 = ten-value), in the order dealt;
    ``pair`` is the rank split to make this hand (None for the initial hand);
    ``position`` its place among the player's hands (0: the first);
    ``hands`` is how many hands the player's round had when the strategy was last
    asked about this hand (what CDPN's split hands depend on).
    """

    cards: list[C]
    ranks: list[int]
    pair: int | None = None
    position: int = 0
    hands: int = 1
    stake: int = 1
    surrendered: bool = False

    def take(self, card: C, rank: int) -> None:
        self.cards.append(card)
        self.ranks.append(rank)

    @property
    def total(self) -> tuple[int, bool]:
        """The best total and whether it is soft."""
        ranks = self.ranks
        return total_of(sum(ranks) + len(ranks), 0 in ranks)

    @property
    def natural(self) -> bool:
        """A blackjack: 21 on the initial two cards (21 on two cards after a split is not)."""
        ranks = self.ranks
        return self.pair is None and len(ranks) == 2 and 0 in ranks and 9 in ranks

    @property
    def busted(self) -> bool:
        return self.total[0] > 21

    @property
    def live(self) -> bool:
        """Still waiting for the dealer's hand (not busted, surrendered or paid at once)."""
        return not (self.surrendered or self.natural or self.busted)


class Strategy(Protocol):
    """Who decides: the action for ``hand`` against ``up`` among the ``allowed`` ones.

    :func:`play` asks only when there is a choice (never on 21 or over, never for a
    split ace that may not draw), and only with actions the rules allow there.
    """

    def action(self, hand: PlayerHand[Any], up: int, allowed: frozenset[Action]) -> Action: ...


@dataclass(eq=False)
class PlayedRound(Generic[C]):
    """A round as it was dealt: each player's hands (one list per seat) and the dealer's cards.

    ``peeked``: the dealer checked the hole card first and had a blackjack, so the
    round ended before any player acted.
    """

    seats: list[list[PlayerHand[C]]]
    dealer: list[C]
    dealer_ranks: list[int] = field(default_factory=list)
    peeked: bool = False

    @property
    def dealer_total(self) -> int:
        ranks = self.dealer_ranks
        return total_of(sum(ranks) + len(ranks), 0 in ranks)[0]

    @property
    def dealer_blackjack(self) -> bool:
        return len(self.dealer_ranks) == 2 and self.dealer_total == 21

    def net(self, rules: BlackjackRules, seat: int = 0) -> Fraction | int:
        """One player's net for the round, per initial stake (exact: an int or a Fraction)."""
        total, blackjack = self.dealer_total, self.dealer_blackjack
        return sum(
            hand_net(rules, h, i == 0, total, blackjack) for i, h in enumerate(self.seats[seat])
        )


def hand_net(
    rules: BlackjackRules,
    hand: PlayerHand[Any],
    first: bool,
    dealer_total: int,
    dealer_blackjack: bool,
) -> Fraction | int:
    """What one finished hand wins or loses (``first``: the round's initial stake is on it).

    A dealer blackjack takes the original stake only under a peek or original bets
    only (the first hand's one unit), every stake under no hole card.
    """
    if hand.surrendered:
        return -1 if dealer_blackjack else Fraction(-1, 2)
    if hand.natural:
        return 0 if dealer_blackjack else rules.blackjack_payout
    stake = hand.stake
    if dealer_blackjack:
        return -int(first) if rules.peek else -stake
    total = hand.total[0]
    if total > 21:
        return -stake
    if dealer_total > 21 or total > dealer_total:
        return stake
    return -stake if total < dealer_total else 0


def _same(card: Any) -> int:
    return int(card)


#: ``draw(hand)``: the next card, for ``hand`` (None: for the dealer).
Draw = Callable[[PlayerHand[C] | None], C]


def play(
    draw: Draw[C],
    strategy: Strategy,
    rules: BlackjackRules,
    *,
    players: int = 1,
    rank: Callable[[C], int] = _same,
) -> PlayedRound[C]:
    """Deal and play one round: ``draw(hand)`` gives the next card, ``rank`` its rank index.

    Every player follows ``strategy``; an action it gives that is not allowed is a bug
    in the strategy (an error, never a silently different round).
    """
    seats: list[list[PlayerHand[C]]] = [[PlayerHand([], [])] for _ in range(players)]
    for hands in seats:
        _deal(hands[0], draw, rank)
    up_card = draw(None)
    for hands in seats:
        _deal(hands[0], draw, rank)
    result = PlayedRound(seats, [up_card], [rank(up_card)])
    if rules.dealer_checks_first:
        _dealer_card(result, draw, rank)
        if result.dealer_blackjack:
            result.peeked = True
            return result
    up = result.dealer_ranks[0]
    for hands in seats:
        _play_hands(hands, up, strategy, rules, draw, rank)
    if len(result.dealer) == 1:
        _dealer_card(result, draw, rank)
    if any(h.live for hands in seats for h in hands):
        ranks, hits_soft_17 = result.dealer_ranks, rules.dealer_hits_soft_17
        hard = sum(ranks) + 2
        while True:
            total, soft = total_of(hard, 0 in ranks)
            if total > 21 or dealer_stands(total, soft, hits_soft_17):
                break
            hard += _dealer_card(result, draw, rank) + 1
    return result


def _deal(hand: PlayerHand[C], draw: Draw[C], rank: Callable[[C], int]) -> None:
    card = draw(hand)
    hand.take(card, rank(card))


def _dealer_card(result: PlayedRound[C], draw: Draw[C], rank: Callable[[C], int]) -> int:
    """Deal the dealer a card; its rank."""
    card = draw(None)
    result.dealer.append(card)
    result.dealer_ranks.append(found := rank(card))
    return found


def _play_hands(
    hands: list[PlayerHand[C]],
    up: int,
    strategy: Strategy,
    rules: BlackjackRules,
    draw: Draw[C],
    rank: Callable[[C], int],
) -> None:
    """One player's hands in turn, split hands inserted after the hand they came from."""
    i = 0
    while i < len(hands):
        hand = hands[i]
        hand.position = i
        if len(hand.ranks) == 1:  # a split hand's second card comes when its turn comes
            _deal(hand, draw, rank)
        while True:
            allowed = allowed_actions(hand, len(hands), rules)
            if not allowed:
                break
            hand.hands = len(hands)
            action = strategy.action(hand, up, allowed)
            if action not in allowed:
                raise AssertionError(f"the strategy chose {action.word}, not one of {allowed}")
            if action == STAND:
                break
            if action == SURRENDER:
                hand.surrendered = True
                break
            if action == SPLIT:
                pair = hand.ranks[0]
                hands.insert(i + 1, PlayerHand([hand.cards.pop()], [hand.ranks.pop()], pair))
                hand.pair = pair
            elif action == DOUBLE:
                hand.stake = 2
                _deal(hand, draw, rank)
                break
            _deal(hand, draw, rank)
        i += 1


_HIT_OR_STAND = frozenset({STAND, HIT})
_STAND_OR_SPLIT = frozenset({STAND, SPLIT})


def allowed_actions(hand: PlayerHand[Any], hands: int, rules: BlackjackRules) -> frozenset[Action]:
    """What the rules let ``hand`` do with ``hands`` hands in the round (empty: it is finished).

    21 or over is finished; a split ace under one-card rules only splits again (when
    another ace comes and the round may grow); two cards may double (after a split as
    the rules say), split a pair while the round may grow, surrender before any split.
    """
    ranks = hand.ranks
    total, _ = hand.total
    if total >= 21:
        return frozenset()
    two = len(ranks) == 2
    pair = two and ranks[0] == ranks[1] and hands < rules.split_limit(ranks[0])
    if hand.pair == 0 and rules.split_aces_one_card:
        return _STAND_OR_SPLIT if pair else frozenset()
    if not two:
        return _HIT_OR_STAND
    allowed = {STAND, HIT}
    if rules.may_double(total, after_split=hand.pair is not None):
        allowed.add(DOUBLE)
    if pair:
        allowed.add(SPLIT)
    if rules.surrender and hand.pair is None and hands == 1:
        allowed.add(SURRENDER)
    return frozenset(allowed)
