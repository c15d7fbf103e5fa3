"""Hand totals and the settlement of one finished round (``odds settle blackjack``).

A round is written the way it was dealt: the player's cards in the order they
came (``--player "8s 8d 3c Kh 10d"``), the actions in the order they were
taken (``--actions "split, hit, stand, stand"``) and the dealer's cards, up
card first (``--dealer "9c 7d 5s"``). The round is replayed card by card:
the first two cards are the initial hand; a split deals each split hand its
second card when its turn comes; hit and double take the next card; a hand that
reaches 21 is finished without an action. Anything
the rules do not allow (splitting unequal cards, acting on a busted hand,
hitting a split ace, cards left over or missing, a dealer who drew wrongly) is
a one-line error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from odds.core.cards import Card, Rank, hand_text, parse_cards, split_tokens
from odds.core.errors import OddsError, PositionError
from odds.games.blackjack.actions import Action
from odds.games.blackjack.dealer import RANK_NAMES, dealer_stands, total_of
from odds.games.blackjack.options import BlackjackRules


def rank_index(card: Card) -> int:
    """0 = A, 1 = 2, …, 9 = any ten-value card (10, J, Q, K)."""
    return min(int(card.rank), 10) - 1


def hand_total(cards: list[Card]) -> tuple[int, bool]:
    """Best total and softness."""
    hard = sum(rank_index(c) + 1 for c in cards)
    return total_of(hard, any(c.rank == Rank.ACE for c in cards))


def total_text(cards: list[Card]) -> str:
    total, soft = hand_total(cards)
    if total > 21:
        return f"{total}, bust"
    return f"soft {total}" if soft else str(total)


@dataclass
class PlayedHand:
    """One player hand as it was played."""

    cards: list[Card]
    stake: int = 1
    from_split: bool = False
    split_aces: bool = False
    surrendered: bool = False
    done: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def natural(self) -> bool:
        return len(self.cards) == 2 and self.total == 21 and not self.from_split


@dataclass(frozen=True)
class HandSettlement:
    """A settled player hand: its cards, stake units, net result and why."""

    cards: tuple[Card, ...]
    description: str
    stake: int
    net: Fraction
    reason: str


@dataclass(frozen=True)
class RoundSettlement:
    hands: tuple[HandSettlement, ...]
    dealer: tuple[Card, ...]
    dealer_description: str
    net: Fraction
    event: str


def parse_actions(text: str | None) -> list[Action]:
    """``--actions "split, hit, stand"``: the actions in order (words or letters, any case)."""
    if not text:
        return []
    return [Action.parse(token) for token in split_tokens(text.lower())]


def replay(
    rules: BlackjackRules, player_text: str, dealer_text: str, actions_text: str | None
) -> RoundSettlement:
    """Replay and settle one round: the player's cards as dealt, the actions as taken."""
    cards = list(parse_cards(player_text))
    dealer = list(parse_cards(dealer_text))
    if len(cards) < 2:
        raise PositionError("player", "{position} needs at least the two initial cards")
    if not dealer:
        raise PositionError("dealer", "{position} needs at least the up card")
    hands = _Replay(rules, cards, dealer, parse_actions(actions_text)).play()
    _check_dealer(rules, dealer, hands)
    return _settle(rules, hands, dealer)


class _Replay:
    """One round replayed card by card; every step the rules forbid is a one-line error."""

    def __init__(
        self, rules: BlackjackRules, cards: list[Card], dealer: list[Card], actions: list[Action]
    ) -> None:
        self.rules = rules
        self.cards = cards
        self.deck = iter(cards[2:])
        self.used = 2
        self.queue = list(actions)
        self.hands = [PlayedHand(cards[:2])]
        self.dealer_blackjack = len(dealer) >= 2 and hand_total(dealer[:2])[0] == 21

    def next_card(self, why: str) -> Card:
        try:
            card = next(self.deck)
        except StopIteration:
            raise PositionError(
                "player", f"{{position}} has too few cards: {why} needs another card"
            ) from None
        self.used += 1
        return card

    def play(self) -> list[PlayedHand]:
        """Every hand in turn; then nothing may be left over (actions or cards)."""
        first = self.hands[0]
        first.done = first.natural
        if self.rules.dealer_checks_first and self.dealer_blackjack:
            if self.queue:
                raise OddsError("the dealer peeked a blackjack: the round ends before any action")
            first.done = True
        i = 0
        while i < len(self.hands):
            self.play_hand(i)
            i += 1
        if self.queue:
            one_card = self.rules.split_aces_one_card and any(h.split_aces for h in self.hands)
            if self.queue[0] in (Action.HIT, Action.DOUBLE) and one_card:
                raise OddsError(f"split aces receive one card each: no {self.queue[0].word}")
            raise OddsError(f"action {self.queue[0].word!r} left over: every hand is finished")
        if self.used != len(self.cards):
            raise PositionError(
                "player",
                f"{{position}} has {len(self.cards) - self.used} card(s) more than the actions "
                f"use: {hand_text(self.cards[self.used :])}",
            )
        return self.hands

    def play_hand(self, i: int) -> None:
        hand = self.hands[i]
        if len(hand.cards) == 1:  # a split hand's second card comes when its turn comes
            self.second_card(hand, i, self.rules.split_limit(0))
        while not hand.done:
            if hand.total >= 21:
                hand.done = True
                break
            if not self.queue:
                shown = f"{hand_text(hand.cards)}, {total_text(hand.cards)}"
                raise OddsError(f"no action for hand {i + 1} ({shown})")
            self.act(self.queue.pop(0), hand, i)
        if hand.total > 21 and self.queue and i == len(self.hands) - 1:
            raise OddsError(
                f"action {self.queue[0].word!r} after hand {i + 1} busted ({hand_text(hand.cards)})"
            )

    def second_card(self, hand: PlayedHand, i: int, limit: int) -> None:
        """Deal a split hand its second card; split aces stop there unless resplit."""
        hand.cards.append(self.next_card(f"split hand {i + 1}"))
        if hand.split_aces and self.rules.split_aces_one_card:
            can_resplit = hand.cards[1].rank == Rank.ACE and len(self.hands) < limit
            if not (can_resplit and self.queue and self.queue[0] == Action.SPLIT):
                hand.done = True

    def act(self, action: Action, hand: PlayedHand, i: int) -> None:
        one_card = hand.split_aces and self.rules.split_aces_one_card
        if action == Action.STAND:
            hand.done = True
        elif action == Action.HIT:
            if one_card:
                raise OddsError("split aces receive one card each: no hit")
            hand.cards.append(self.next_card("hit"))
        elif action == Action.DOUBLE:
            self.double(hand, one_card)
        elif action == Action.SPLIT:
            self.split(hand, i)
        elif action == Action.SURRENDER:
            if not self.rules.surrender:
                raise OddsError("the rules do not allow surrender")
            if len(hand.cards) != 2 or len(self.hands) > 1:
                raise OddsError("surrender only on the first two cards, before any split")
            hand.surrendered = hand.done = True

    def double(self, hand: PlayedHand, one_card: bool) -> None:
        total = hand.total
        if len(hand.cards) != 2:
            raise OddsError(f"double on {len(hand.cards)} cards: only the first two")
        if one_card:
            raise OddsError("split aces receive one card each: no double")
        if not self.rules.may_double(total, hand.from_split):
            where = " after a split" if hand.from_split else ""
            raise OddsError(f"the rules do not allow doubling {total}{where}")
        hand.stake = 2
        hand.cards.append(self.next_card("double"))
        hand.done = True

    def split(self, hand: PlayedHand, i: int) -> None:
        ranks = [rank_index(c) for c in hand.cards]
        if len(ranks) != 2 or ranks[0] != ranks[1]:
            raise OddsError(f"cannot split {hand_text(hand.cards)}: only two cards of equal value")
        limit = self.rules.split_limit(ranks[0])
        if len(self.hands) >= limit:
            raise OddsError(
                f"no more splits: the rules allow {limit} hands from a pair of "
                f"{RANK_NAMES[ranks[0]]}s"
            )
        aces = ranks[0] == 0
        self.hands.insert(i + 1, PlayedHand([hand.cards[1]], from_split=True, split_aces=aces))
        hand.cards = [hand.cards[0]]
        hand.from_split, hand.split_aces = True, aces
        self.second_card(hand, i, limit)


def _check_dealer(rules: BlackjackRules, dealer: list[Card], hands: list[PlayedHand]) -> None:
    live = any(not h.surrendered and h.total <= 21 and not h.natural for h in hands)
    text = hand_text(dealer)
    if len(dealer) >= 2 and hand_total(dealer[:2])[0] == 21:
        if len(dealer) > 2:
            raise OddsError(f"dealer {text}: a blackjack does not draw")
        return
    if not live:
        if len(dealer) > 2:
            raise OddsError(f"dealer {text}: no live player hand, so the dealer does not draw")
        return
    if len(dealer) < 2:
        raise OddsError(f"dealer {text}: the dealer must complete the hand")
    for k in range(2, len(dealer) + 1):
        total, soft = hand_total(dealer[:k])
        stands = total > 21 or dealer_stands(total, soft, rules.dealer_hits_soft_17)
        if stands and k < len(dealer):
            raise OddsError(f"dealer {text}: the dealer stands on {total_text(dealer[:k])}")
        if not stands and k == len(dealer):
            raise OddsError(f"dealer {text}: the dealer must draw to {total_text(dealer)}")


def _settle(rules: BlackjackRules, hands: list[PlayedHand], dealer: list[Card]) -> RoundSettlement:
    dealer_total, _ = hand_total(dealer)
    dealer_bj = len(dealer) == 2 and dealer_total == 21
    dealer_text = "blackjack" if dealer_bj else total_text(dealer)
    settled = []
    for index, hand in enumerate(hands, 1):
        total = hand.total
        label = f"hand {index}" if len(hands) > 1 else "hand"
        if hand.natural:
            desc = "blackjack"
        elif hand.from_split and len(hand.cards) == 2 and total == 21:
            desc = "21 (ace and ten after a split count 21, not blackjack)"
        else:
            desc = total_text(hand.cards)
        stake = hand.stake
        if hand.surrendered:
            if dealer_bj:
                net, why = Fraction(-1), "surrendered, but the dealer's blackjack takes the stake"
            else:
                net, why = Fraction(-1, 2), "surrendered: half the stake is returned"
        elif hand.natural:
            if dealer_bj:
                net, why = Fraction(0), "blackjack against dealer blackjack: push"
            else:
                net = rules.blackjack_payout
                why = f"blackjack pays {rules.blackjack_pays}"
        elif dealer_bj:
            lost = 1 if rules.peek else stake
            if rules.dealer_checks_first:
                why = "dealer blackjack takes the original stake (peek)"
            elif rules.peek:  # OBO: the round's original stake, the first hand's
                lost = 0 if index > 1 else 1
                why = "dealer blackjack takes the original stake only (no hole card, OBO)"
                if stake > lost:
                    why += f": {stake - lost} returned"
            else:
                why = f"dealer blackjack takes every stake (no hole card): loses {lost}"
            net = Fraction(-lost)
        elif total > 21:
            net, why = Fraction(-stake), f"bust: loses {stake}"
        elif dealer_total > 21:
            net, why = Fraction(stake), f"dealer busts: wins {stake}"
        elif total > dealer_total:
            net, why = Fraction(stake), f"{total} beats {dealer_total}: wins {stake}"
        elif total < dealer_total:
            net, why = Fraction(-stake), f"{total} loses to {dealer_total}: loses {stake}"
        else:
            net, why = Fraction(0), f"{total} ties {dealer_total}: push"
        if stake == 2:
            why = "doubled; " + why
        if hand.split_aces and rules.split_aces_one_card:
            why = "split ace, one card; " + why
        settled.append(HandSettlement(tuple(hand.cards), f"{label}: {desc}", stake, net, why))
    net = sum((h.net for h in settled), Fraction(0))
    return RoundSettlement(tuple(settled), tuple(dealer), dealer_text, net, round_event(hands, net))


def round_event(hands: list[PlayedHand], net: Fraction) -> str:
    """The label of this round's row in the main bet's outcome table."""
    if len(hands) > 1:
        return split_label(net)
    hand = hands[0]
    if hand.natural:
        return NATURAL_PUSH if net == 0 else NATURAL_WIN
    if hand.surrendered:
        return SURRENDER_LABEL if net < 0 and net != -1 else LOSE_LABEL
    return single_label(net)


NATURAL_WIN = "player blackjack"
NATURAL_PUSH = "player and dealer blackjack (push)"
SURRENDER_LABEL = "surrender"
LOSE_LABEL = "loses 1"


def single_label(net: Fraction) -> str:
    return {
        Fraction(-2): "loses a double (2)",
        Fraction(-1): LOSE_LABEL,
        Fraction(-1, 2): SURRENDER_LABEL,
        Fraction(0): "push",
        Fraction(1): "wins 1",
        Fraction(2): "wins a double (2)",
    }[net]


def split_label(net: Fraction) -> str:
    sign = "+" if net > 0 else ""
    return f"split round, net {sign}{net}"
