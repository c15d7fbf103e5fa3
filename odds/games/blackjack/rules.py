"""Hand totals and the settlement of one finished round (``odds settle blackjack``).

A round is written the way it was dealt: the player's cards in the order they
came (``--player "8s 8d 3c Kh 10d"``), the actions in the order they were
taken (``--actions "split, hit, stand, stand"``) and the dealer's cards, up
card first (``--dealer "9c 7d 5s"``). The round is replayed card by card:
the first two cards are the initial hand; a split deals each split hand its
second card when its turn comes; hit and double take the next card; a hand that
reaches 21 is finished without an action. A log may also write the ``stand`` of a hand
at 21 (or of a split ace that may not draw): the round is replayed both ways, and the
reading that uses every action and card is the round (two that settle differently are
refused as ambiguous). Anything
the rules do not allow (splitting unequal cards, acting on a busted hand,
hitting a split ace, cards left over or missing, a dealer who drew wrongly) is
a one-line error.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.cards import Card, Rank, hand_text, parse_cards, split_tokens
from odds.core.errors import OddsError, PositionError
from odds.games.blackjack.actions import Action
from odds.games.blackjack.dealer import RANK_NAMES, total_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.play import PlayedRound, PlayerHand, hand_net, play


def rank_index(card: Card) -> int:
    """0 = A, 1 = 2, …, 9 = any ten-value card (10, J, Q, K)."""
    return min(int(card.rank), 10) - 1


def total_text(cards: list[Card]) -> str:
    """``"17"``, ``"soft 18"`` or ``"23, bust"``."""
    hard = sum(rank_index(c) + 1 for c in cards)
    total, soft = total_of(hard, any(c.rank == Rank.ACE for c in cards))
    if total > 21:
        return f"{total}, bust"
    return f"soft {total}" if soft else str(total)


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
    actions = parse_actions(actions_text)
    settled: list[RoundSettlement] = []
    refused: OddsError | None = None
    for stands_logged in (False, True):
        logged = _Logged(rules, cards, dealer, actions, stands_logged)
        try:
            played = play(logged.draw, logged, rules, rank=rank_index)
            logged.check_finished(played)
        except OddsError as exc:
            refused = refused or exc  # the first reading's error: a 21 needs no action
            continue
        settled.append(_settle(rules, played))
    if not settled:
        assert refused is not None
        raise refused
    if any(s != settled[0] for s in settled):
        raise OddsError(
            "the actions fit two rounds: a stand after a hand reached 21 may be that hand's "
            "or the next one's; leave out the stand of a hand at 21"
        )
    return settled[0]


class _Logged:
    """A logged round as the cards to deal and the strategy to follow (:func:`.play.play`):
    the player's cards and the dealer's in order, the actions as taken. Every step the
    rules forbid, and anything missing or left over, is a one-line error."""

    def __init__(
        self,
        rules: BlackjackRules,
        cards: list[Card],
        dealer: list[Card],
        actions: list[Action],
        stands_logged: bool = False,
    ) -> None:
        """``stands_logged``: the log writes a ``stand`` for a hand that stood without a
        choice (at 21, a split ace that may not draw), which is then that hand's."""
        self.rules, self.cards, self.dealer = rules, cards, dealer
        self.stands_logged = stands_logged
        self.player_used = self.dealer_used = 0
        self.queue = list(actions)
        self.taken = tuple(actions)
        self.last: Action | None = None
        #: The hand that took the last player card (until the round moves on from it).
        self.open: PlayerHand[Card] | None = None

    def _moved_on(self, hand: PlayerHand[Card] | None = None) -> None:
        """The round has moved on from the last hand dealt to (to ``hand``, the dealer or the
        end) without asking for its action: at 21, or a split ace that may not draw, it stood,
        and with :attr:`stands_logged` a ``stand`` logged next is its."""
        left, self.open = self.open, None
        if left is None or left is hand or left.stake != 1:
            return
        one_card_ace = left.pair == 0 and self.rules.split_aces_one_card
        if left.total[0] != 21 and not (one_card_ace and not left.busted):
            return
        if self.stands_logged and self.queue[:1] == [Action.STAND]:
            self.last = self.queue.pop(0)

    def draw(self, hand: PlayerHand[Card] | None) -> Card:
        self._moved_on(hand)
        if hand is None:
            return self._dealer_card()
        self.open = hand
        if self.player_used == len(self.cards):
            why = self.last.word if self.last in (Action.HIT, Action.DOUBLE) else ""
            if len(hand.cards) < 2:
                why = f"split hand {hand.position + 1}"
            raise PositionError(
                "player", f"{{position}} has too few cards: {why} needs another card"
            )
        self.player_used += 1
        return self.cards[self.player_used - 1]

    def _dealer_card(self) -> Card:
        text = hand_text(self.dealer)
        if self.dealer_used == len(self.dealer):
            if self.dealer_used == 1:
                raise OddsError(f"dealer {text}: the dealer must complete the hand")
            raise OddsError(f"dealer {text}: the dealer must draw to {total_text(self.dealer)}")
        self.dealer_used += 1
        return self.dealer[self.dealer_used - 1]

    def action(self, hand: PlayerHand[Card], up: int, allowed: frozenset[Action]) -> Action:
        """The next logged action, if the rules allow it here."""
        self._moved_on(hand)
        if allowed == {Action.STAND, Action.SPLIT} and hand.pair == 0:  # a split ace's ace
            logged = (Action.SPLIT, Action.STAND) if self.stands_logged else (Action.SPLIT,)
            if self.queue and self.queue[0] in logged:
                return self.queue.pop(0)
            return Action.STAND  # split aces stop at one card unless split again
        if not self.queue:
            shown = f"{hand_text(hand.cards)}, {total_text(hand.cards)}"
            where = f"no action for hand {hand.position + 1} ({shown})"
            if not self.taken:
                raise OddsError(
                    f"{where}: give the player's actions in order with --actions, "
                    'e.g. --actions "hit, stand"'
                )
            taken = ", ".join(a.word for a in self.taken)
            raise OddsError(
                f'{where}: --actions "{taken}" ends before it; give every action, in order'
            )
        action = self.last = self.queue.pop(0)
        if action not in allowed:
            raise OddsError(self._refused(action, hand))
        return action

    def _refused(self, action: Action, hand: PlayerHand[Card]) -> str:
        """Why the rules do not allow ``action`` on ``hand``."""
        one_card = hand.pair == 0 and self.rules.split_aces_one_card
        if action == Action.SURRENDER:
            if not self.rules.surrender:
                return "the rules do not allow surrender"
            return "surrender only on the first two cards, before any split"
        if action in (Action.HIT, Action.DOUBLE) and one_card:
            return f"split aces receive one card each: no {action.word}"
        if action == Action.DOUBLE:
            if len(hand.cards) != 2:
                return f"double on {len(hand.cards)} cards: only the first two"
            where = " after a split" if hand.pair is not None else ""
            return f"the rules do not allow doubling {hand.total[0]}{where}"
        ranks = hand.ranks
        if len(ranks) != 2 or ranks[0] != ranks[1]:
            return f"cannot split {hand_text(hand.cards)}: only two cards of equal value"
        limit = self.rules.split_limit(ranks[0])
        return (
            f"no more splits: the rules allow {limit} hands from a pair of {RANK_NAMES[ranks[0]]}s"
        )

    def check_finished(self, played: PlayedRound[Card]) -> None:
        """Nothing left over once the round is played: no action, no card of either side."""
        self._moved_on()
        hands = played.seats[0]
        if self.queue:
            word = self.queue[0].word
            if played.peeked:
                raise OddsError("the dealer peeked a blackjack: the round ends before any action")
            if hands[-1].busted:
                shown = hand_text(hands[-1].cards)
                raise OddsError(f"action {word!r} after hand {len(hands)} busted ({shown})")
            one_card = self.rules.split_aces_one_card and hands[0].pair == 0
            if self.queue[0] in (Action.HIT, Action.DOUBLE) and one_card:
                raise OddsError(f"split aces receive one card each: no {word}")
            raise OddsError(f"action {word!r} left over: every hand is finished")
        if self.player_used != len(self.cards):
            rest = self.cards[self.player_used :]
            more = f"{len(rest)} card(s) more than the actions use: {hand_text(rest)}"
            raise PositionError("player", f"{{position}} has {more}")
        if self.dealer_used != len(self.dealer):
            text = hand_text(self.dealer)
            if played.dealer_blackjack:
                raise OddsError(f"dealer {text}: a blackjack does not draw")
            if not any(h.live for h in hands):
                raise OddsError(f"dealer {text}: no live player hand, so the dealer does not draw")
            stood = total_text(self.dealer[: self.dealer_used])
            raise OddsError(f"dealer {text}: the dealer stands on {stood}")


def _settle(rules: BlackjackRules, played: PlayedRound[Card]) -> RoundSettlement:
    hands, dealer = played.seats[0], played.dealer
    dealer_total, dealer_bj = played.dealer_total, played.dealer_blackjack
    dealer_text = "blackjack" if dealer_bj else total_text(dealer)
    settled = []
    for index, hand in enumerate(hands, 1):
        total = hand.total[0]
        label = f"hand {index}" if len(hands) > 1 else "hand"
        if hand.natural:
            desc = "blackjack"
        elif hand.pair is not None and len(hand.cards) == 2 and total == 21:
            desc = "21 (ace and ten after a split count 21, not blackjack)"
        else:
            desc = total_text(hand.cards)
        stake = hand.stake
        net = Fraction(hand_net(rules, hand, index == 1, dealer_total, dealer_bj))
        if hand.surrendered:
            why = "surrendered: half the stake is returned"
            if dealer_bj:
                why = "surrendered, but the dealer's blackjack takes the stake"
        elif hand.natural:
            why = f"blackjack pays {rules.blackjack_pays}"
            if dealer_bj:
                why = "blackjack against dealer blackjack: push"
        elif dealer_bj:
            why = f"dealer blackjack takes every stake (no hole card): loses {stake}"
            if rules.dealer_checks_first:
                why = "dealer blackjack takes the original stake (peek)"
            elif rules.peek:  # OBO: the round's original stake, the first hand's
                why = "dealer blackjack takes the original stake only (no hole card, OBO)"
                why += f": {stake + net} returned" if stake > -net else ""
        elif total > 21:
            why = f"bust: loses {stake}"
        elif dealer_total > 21:
            why = f"dealer busts: wins {stake}"
        else:
            why = {
                1: f"{total} beats {dealer_total}: wins {stake}",
                -1: f"{total} loses to {dealer_total}: loses {stake}",
                0: f"{total} ties {dealer_total}: push",
            }[(total > dealer_total) - (total < dealer_total)]
        if stake == 2:
            why = "doubled; " + why
        if hand.pair == 0 and rules.split_aces_one_card:
            why = "split ace, one card; " + why
        settled.append(HandSettlement(tuple(hand.cards), f"{label}: {desc}", stake, net, why))
    net = sum((h.net for h in settled), Fraction(0))
    first = Action.NATURAL if hands[0].natural else Action.SPLIT if len(hands) > 1 else Action.STAND
    return RoundSettlement(tuple(settled), tuple(dealer), dealer_text, net, round_event(first, net))


def round_event(first: Action, net: Fraction) -> str:
    """The label of a round's row in the main bet's outcome table, by its first action."""
    if first == Action.NATURAL:
        return NATURAL_WIN if net else NATURAL_PUSH
    return split_label(net) if first == Action.SPLIT else single_label(net)


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
