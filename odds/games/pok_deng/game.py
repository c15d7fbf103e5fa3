"""Pok Deng, live-dealer version with 8 decks (RULES.md §2).

Rules only: how a two-card hand is valued, what a special pattern is, and how
the Player and Player Pair bets settle. The counting is :mod:`odds.engine`'s.

Hand values are kept in tenths so that the rule book's 7.1 … 7.5 combinations
sit between 7 and 8 points as integers (9 points = 90, AK Flush = 75).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.analysis import Analysis, Table
from odds.bruteforce import brute_force, ordering_factor
from odds.cards import Card, Rank, hand_text, parse_cards, suit_symmetries
from odds.config import option, section
from odds.engine import (
    Hand,
    class_distribution,
    deal_count,
    joint_class_distribution,
    settle_distribution,
)
from odds.errors import OddsError
from odds.games.base import BenchCase, Game, SettledBet, SettledHand, Settlement
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.pok_deng.shoe_state import PokDengShoeState
from odds.shoe import Shoe
from odds.shoe_state.dealing import CutCardDealing
from odds.stats import Bet, Outcome

# ---------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class PokDengShoe(CardShoeOptions):
    """Eight decks by default."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class PokDengRules:
    """The readings of the rule book's ambiguous sentences (RULES.md §2)."""

    banker_zero_or_six: str = option(
        "ordinary",
        "When 'the Banker has 0 or 6 points' (a special-pattern win then stays 1:1):",
        choices={
            "ordinary": "the Banker's hand is an ordinary 0- or 6-point hand; "
            "a 7.1–7.5 combination is not '0 points' (default).",
            "raw-total": "the Banker's raw card total is 0 or 6, 7.1–7.5 combinations included.",
        },
    )
    eight_nine_override: bool = option(
        True,
        "A player with 8 or 9 points and a flush or a pair wins 2:1 even against a Banker "
        "0 or 6 (on = the rule text, default; off = rule-book example 9's arithmetic).",
    )


@dataclass(frozen=True)
class PokDengPayouts:
    """Payouts per unit staked."""

    player_win: Fraction = option(
        Fraction(1), "Player bet: an ordinary win pays this to 1.", minimum=0
    )
    player_win_special: Fraction = option(
        Fraction(2), "Player bet: a win with a special pattern pays this to 1.", minimum=0
    )
    player_lose: Fraction = option(
        Fraction(1), "Player bet: an ordinary loss costs this per unit staked.", minimum=0
    )
    player_lose_special: Fraction = option(
        Fraction(2),
        "Player bet: a loss to a Banker special pattern costs this per unit staked.",
        minimum=0,
    )
    player_withholding: Fraction = option(
        Fraction(1),
        "Player bet: debited on top of the stake, returned unless lost.",
        minimum=0,
    )
    pair: Fraction = option(Fraction(11), "Player Pair bet: a pair pays this to 1.", minimum=0)


@dataclass(frozen=True)
class PokDengConfig:
    """A Pok Deng paytable."""

    shoe: PokDengShoe = section(PokDengShoe, "The shoe.")
    rules: PokDengRules = section(PokDengRules, "Rule readings.")
    payouts: PokDengPayouts = section(PokDengPayouts, "Payouts.")
    dealing: CutCardDealing = section(CutCardDealing, "How the shoe is dealt (shoe states only).")


# ---------------------------------------------------------------------------
# Hand values, declared weakest to strongest


@dataclass(frozen=True)
class Combination:
    """A named 7.1–7.5 hand."""

    tenths: int
    name: str
    test: Callable[[Card, Card], bool]


def _special_pair(a: Card, b: Card) -> bool:
    return a.rank == b.rank and a.rank in (Rank.ACE, Rank.FIVE, Rank.SIX, Rank.TEN)


def _flush_no_point(a: Card, b: Card) -> bool:
    return a.suit == b.suit and not a.rank.is_face and not b.rank.is_face and points(a, b) == 0


#: The combinations between 7 and 8 points, strongest first.
COMBINATIONS: tuple[Combination, ...] = (
    Combination(
        75, "AK Flush", lambda a, b: a.suit == b.suit and {a.rank, b.rank} == {Rank.ACE, Rank.KING}
    ),
    Combination(74, "Special Pair", _special_pair),
    Combination(73, "Face-card Combo", lambda a, b: a.rank.is_face and b.rank.is_face),
    Combination(
        72,
        "Single Face-card with No Point",
        lambda a, b: (
            {a.rank.is_face, b.rank.is_face} == {True, False} and Rank.TEN in (a.rank, b.rank)
        ),
    ),
    Combination(71, "Flush with No Point", _flush_no_point),
)


def points(a: Card, b: Card) -> int:
    """Card points, tens digit dropped: A = 1, 2–9 face value, 10 J Q K = 0."""
    return (a.rank.baccarat_points + b.rank.baccarat_points) % 10


@dataclass(frozen=True, order=True)
class PokDengHand:
    """What the rules need to know about a two-card hand.

    ``tenths`` orders hands (equal tenths tie); ``points`` is the raw total;
    ``special`` is the 2:1 special pattern (flush, pair, or a 7.1–7.5
    combination); ``flush_or_pair`` is the 8/9 override's condition.
    """

    tenths: int
    points: int
    special: bool
    flush_or_pair: bool

    @property
    def name(self) -> str:
        """``9 points``, ``AK Flush`` …"""
        for combination in COMBINATIONS:
            if combination.tenths == self.tenths:
                return combination.name
        whole = self.tenths // 10
        return f"{whole} point" if whole == 1 else f"{whole} points"

    @property
    def value_text(self) -> str:
        """The rule book's value: ``9``, ``7.5``."""
        whole, tenth = divmod(self.tenths, 10)
        return f"{whole}.{tenth}" if tenth else str(whole)

    @property
    def is_ordinary(self) -> bool:
        """A points hand, not a 7.1–7.5 combination."""
        return self.tenths % 10 == 0


def classify(a: Card, b: Card) -> PokDengHand:
    """Value a two-card hand: the highest value it qualifies for.

    >>> from odds.cards import parse_cards
    >>> classify(*parse_cards("5c 5c")).name, classify(*parse_cards("4h 4h")).name
    ('Special Pair', '8 points')
    """
    total = points(a, b)
    flush_or_pair = a.suit == b.suit or a.rank == b.rank
    tenths = total * 10
    if total < 8:
        for combination in COMBINATIONS:
            if combination.test(a, b):
                tenths = combination.tenths
                break
    special = flush_or_pair or tenths % 10 != 0
    return PokDengHand(tenths, total, special, flush_or_pair)


def class_label(hand: PokDengHand) -> str:
    """The hand-class table's label: value name, and whether it is a special pattern.

    >>> from odds.cards import parse_cards
    >>> class_label(classify(*parse_cards("Kh 9h"))), class_label(classify(*parse_cards("Qc Jd")))
    ('9 points, special pattern', 'Face-card Combo')
    """
    if not hand.is_ordinary:
        return hand.name
    return f"{hand.name}, special pattern" if hand.special else hand.name


def describe_hand(hand: PokDengHand) -> str:
    """A hand as a reason reads it: ``9 points, special pattern``."""
    extra = ", special pattern" if hand.special else ""
    return f"{hand.name} ({hand.value_text}){extra}"


# ---------------------------------------------------------------------------
# Bets


@dataclass(frozen=True)
class Event:
    """A bet event: a key, the label a report prints, and its net payout."""

    key: str
    label: str
    net: Callable[[PokDengPayouts], Fraction]


PLAYER_EVENTS: tuple[Event, ...] = (
    Event("win-special", "player wins with a special pattern", lambda p: p.player_win_special),
    Event(
        "win-special-8-9",
        "player wins with 8 or 9 and a flush or pair, banker has 0 or 6",
        lambda p: p.player_win_special,
    ),
    Event(
        "win-special-banker-0-6",
        "player wins with a special pattern, banker has 0 or 6 (win stays 1:1)",
        lambda p: p.player_win,
    ),
    Event("win", "player wins, no special pattern", lambda p: p.player_win),
    Event("push", "push (equal values)", lambda p: Fraction(0)),
    Event("lose", "banker wins, no special pattern", lambda p: -p.player_lose),
    Event("lose-special", "banker wins with a special pattern", lambda p: -p.player_lose_special),
)

PAIR_EVENTS: tuple[Event, ...] = (
    Event("pair", "player's two cards are a pair", lambda p: p.pair),
    Event("no-pair", "no pair", lambda p: Fraction(-1)),
)

_EVENTS = {e.key: e for e in PLAYER_EVENTS + PAIR_EVENTS}


def banker_zero_or_six(banker: PokDengHand, rules: PokDengRules) -> bool:
    """Whether the Banker 'has 0 or 6 points' under the chosen reading."""
    if rules.banker_zero_or_six == "raw-total":
        return banker.points in (0, 6)
    return banker.is_ordinary and banker.points in (0, 6)


def settle_player(player: PokDengHand, banker: PokDengHand, rules: PokDengRules) -> str:
    """The Player bet's event key for one player hand against the banker."""
    if player.tenths == banker.tenths:
        return "push"
    if player.tenths < banker.tenths:
        return "lose-special" if banker.special else "lose"
    if not player.special:
        return "win"
    if not banker_zero_or_six(banker, rules):
        return "win-special"
    if rules.eight_nine_override and player.tenths >= 80 and player.flush_or_pair:
        return "win-special-8-9"
    return "win-special-banker-0-6"


def settle_pair(cards: tuple[Card, Card]) -> str:
    """The Player Pair bet's event key."""
    return "pair" if cards[0].rank == cards[1].rank else "no-pair"


# ---------------------------------------------------------------------------
# The game


class PokDeng(Game[PokDengConfig]):
    """Pok Deng: two cards each, one position against the Banker."""

    name = "pok-deng"
    title = "Pok Deng (live dealer, 8 decks)"
    config_type = PokDengConfig
    positions = ("banker", "player")
    hand_size = 2
    shoe_state = PokDengShoeState()

    def validate(self, config: PokDengConfig) -> None:
        p = config.payouts
        worst = max(p.player_lose, p.player_lose_special)
        if worst > 1 + p.player_withholding:
            raise OddsError(
                f"[payouts] a Player loss of {worst} per unit exceeds the stake plus "
                f"player_withholding ({1 + p.player_withholding}): raise the withholding"
            )
        config.shoe.build().require(4)

    # -- counting ---------------------------------------------------------

    def event_ways(self, config: PokDengConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
        """Exact ways per bet and event, one position against the Banker.

        The player's hand is the first of two hands dealt from the shoe; by
        exchangeability this is every position's view.
        """
        types = shoe.types
        classes: dict[Hand, PokDengHand] = {}

        def hand_class(hand: Hand) -> PokDengHand:
            found = classes.get(hand)
            if found is None:
                found = classes[hand] = classify(types[hand[0]], types[hand[1]])
            return found

        joint = joint_class_distribution(shoe.counts, 2, hand_class, suit_symmetries(types))
        player = settle_distribution(joint, lambda pb: settle_player(pb[0], pb[1], config.rules))
        pair = class_distribution(shoe.counts, 2, lambda h: settle_pair((types[h[0]], types[h[1]])))
        return {"player": player, "player-pair": pair}

    def brute_event_ways(
        self, config: PokDengConfig, shoe: Shoe[Card]
    ) -> dict[str, dict[str, int]]:
        """The same table by the plain enumerator, scaled to unordered ways."""
        types = shoe.types

        def settle(deal: tuple[Hand, ...]) -> dict[str, str]:
            player = (types[deal[0][0]], types[deal[0][1]])
            banker = (types[deal[1][0]], types[deal[1][1]])
            return {
                "player": settle_player(classify(*player), classify(*banker), config.rules),
                "player-pair": settle_pair(player),
            }

        factor = ordering_factor((2, 2))
        found = brute_force(shoe.counts, (2, 2), settle)
        result = {}
        for bet, events in found.items():
            result[bet] = {event: ways // factor for event, ways in events.items()}
        # The pair bet counts one hand; the brute force saw it inside two-hand deals.
        rest = deal_count(shoe.counts, (2, 2)) // deal_count(shoe.counts, (2,))
        result["player-pair"] = {e: w // rest for e, w in result["player-pair"].items()}
        return result

    def hand_classes(self, shoe: Shoe[Card]) -> dict[PokDengHand, int]:
        """Ways per hand class of one two-card hand."""
        types = shoe.types
        return class_distribution(shoe.counts, 2, lambda h: classify(types[h[0]], types[h[1]]))

    # -- analysis ---------------------------------------------------------

    def analyse(self, config: PokDengConfig, paytable: str) -> Analysis:
        shoe = config.shoe.build()
        shoe.require(4)
        ways = self.event_ways(config, shoe)
        payouts = config.payouts
        bets = (
            Bet(
                "player",
                "Player N",
                "Stake 1 with 1 more withheld (debited 2); one position against the Banker.",
                _outcomes(PLAYER_EVENTS, ways["player"], payouts),
                withholding=payouts.player_withholding,
            ),
            Bet(
                "player-pair",
                "Player N Pair",
                f"Stake 1, nothing withheld; pays {payouts.pair}:1 when the position's two "
                "cards have the same rank.",
                _outcomes(PAIR_EVENTS, ways["player-pair"], payouts),
            ),
        )
        deals = deal_count(shoe.counts, (2, 2))
        classes = self.hand_classes(shoe)
        by_label: dict[str, int] = {}
        for hand, count in sorted(classes.items(), reverse=True):
            by_label[class_label(hand)] = by_label.get(class_label(hand), 0) + count
        return self.new_analysis(
            config,
            paytable,
            shoe=f"{shoe.description} ({shoe.size} cards)",
            deals=deals,
            counting=(
                "Unordered hands, dealt one after the other with card removal: the player's "
                f"two cards, then the Banker's, from {shoe.size} cards: C({shoe.size},2) × "
                f"C({shoe.size - 2},2) = {deals:,} deals. The Pair bet counts the player's "
                f"hand alone: C({shoe.size},2) = {deal_count(shoe.counts, (2,)):,} hands. "
                "Other positions' cards are unseen, so by exchangeability they change "
                "nothing."
            ),
            bets=bets,
            tables=(self._hand_class_table(classes),),
            hand_classes=by_label,
        )

    def _hand_class_table(self, distribution: Mapping[PokDengHand, int]) -> Table:
        total = sum(distribution.values())
        merged: dict[tuple[int, bool], int] = {}
        for hand, ways in distribution.items():
            key = (hand.tenths, hand.special)
            merged[key] = merged.get(key, 0) + ways
        body, json_rows = [], []
        for (tenths, special), ways in sorted(merged.items(), reverse=True):
            sample = PokDengHand(tenths, 0, special, False)
            label = class_label(sample)
            body.append(
                (label, sample.value_text, "yes" if special else "no", ways, Fraction(ways, total))
            )
            json_rows.append(
                {
                    "name": label,
                    "value": sample.value_text,
                    "special_pattern": special,
                    "ways": ways,
                    "probability": str(Fraction(ways, total)),
                }
            )
        body.append(("Total", "", "", total, Fraction(1)))
        return Table(
            key="hand_classes",
            title="Hand classes (one two-card hand)",
            headers=("hand", "value", "special pattern", "ways", "probability"),
            rows=tuple(body),
            note="Special pattern: a flush, a pair, or a 7.1–7.5 combination (pays 2:1 "
            "when it wins, costs 2 when the Banker holds it).",
            json=json_rows,
        )

    # -- one round --------------------------------------------------------

    def settle(
        self, config: PokDengConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        shoe = config.shoe.build()
        banker = _two_cards(hands, "banker")
        player = _two_cards(hands, "player")
        shoe.check_holds(banker + player, "the banker's and player's cards")
        b, p = classify(*banker), classify(*player)
        payouts = config.payouts
        player_event = _EVENTS[settle_player(p, b, config.rules)]
        net = player_event.net(payouts)
        debited = stake * (1 + payouts.player_withholding)
        pair_event = _EVENTS[settle_pair(player)]
        pair_net = pair_event.net(payouts)
        return Settlement(
            hands=(
                SettledHand("banker", hand_text(banker), describe_hand(b), class_label(b)),
                SettledHand("player", hand_text(player), describe_hand(p), class_label(p)),
            ),
            bets=(
                SettledBet(
                    "player",
                    stake,
                    debited,
                    debited + net * stake,
                    _reason(player_event, net),
                    player_event.label,
                ),
                SettledBet(
                    "player-pair",
                    stake,
                    stake,
                    stake + pair_net * stake,
                    _reason(pair_event, pair_net),
                    pair_event.label,
                ),
            ),
        )

    def bench_cases(self, config: PokDengConfig) -> list[BenchCase]:
        shoe = config.shoe.build()
        return [
            BenchCase(
                f"Pok Deng, both bets, {shoe.description}",
                lambda: _probabilities(self.event_ways(config, shoe)),
                lambda: _probabilities(self.brute_event_ways(config, shoe)),
            )
        ]


def _two_cards(hands: Mapping[str, str], position: str) -> tuple[Card, Card]:
    text = hands.get(position)
    if not text:
        raise OddsError(f"missing --{position} (two cards, e.g. '9d 7c')")
    cards = parse_cards(text)
    if len(cards) != 2:
        raise OddsError(f"--{position} must be two cards, got {len(cards)}: {text!r}")
    return cards[0], cards[1]


def _reason(event: Event, net: Fraction) -> str:
    from odds.numbers import payout_ratio

    return f"{event.label}: {payout_ratio(net)}"


def _outcomes(
    events: tuple[Event, ...], ways: Mapping[str, int], payouts: PokDengPayouts
) -> tuple[Outcome, ...]:
    """Outcome rows in declaration order; events that cannot happen show 0 ways."""
    return tuple(Outcome(e.label, Fraction(e.net(payouts)), ways.get(e.key, 0)) for e in events)


def _probabilities(ways: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, Any]]:
    result = {}
    for bet, events in ways.items():
        total = sum(events.values())
        result[bet] = {event: Fraction(w, total) for event, w in sorted(events.items()) if w}
    return result
