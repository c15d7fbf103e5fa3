"""Pok Deng's rules (docs/rules/pok-deng.md): hand values, special patterns, settlement.

Rules only: how a two-card hand is valued, what a special pattern is, and how
the Player and Player Pair bets settle. No loops over the shoe (the counting is
:mod:`odds.games.pok_deng.counting`'s) and no formatting of numbers.

Hand values are kept in tenths so that the rule book's 7.1 … 7.5 combinations
sit between 7 and 8 points as integers (9 points = 90, AK Flush = 75).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from odds.core.cards import Card, Rank
from odds.core.errors import OddsError
from odds.games.events import Event
from odds.games.pok_deng.options import PokDengConfig, PokDengPayouts, PokDengRules


class PokDengEvent(StrEnum):
    """A Pok Deng bet's event keys (what :func:`settle_player` and :func:`settle_pair` return).

    A :class:`enum.StrEnum`: each prints, compares and serialises as its key, so tables and
    JSON read as before; :class:`odds.games.events.Event` keys are these members.
    """

    WIN_SPECIAL = "win-special"
    WIN_SPECIAL_8_9 = "win-special-8-9"
    WIN_SPECIAL_BANKER_0_6 = "win-special-banker-0-6"
    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    LOSE_SPECIAL = "lose-special"
    PAIR = "pair"
    NO_PAIR = "no-pair"


# ---------------------------------------------------------------------------
# Hand values, declared strongest first


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


#: The combinations between 7 and 8 points, strongest first (docs/rules/pok-deng.md §Hand order).
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

    >>> from odds.core.cards import parse_cards
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

    >>> from odds.core.cards import parse_cards
    >>> class_label(classify(*parse_cards("Kh 9h"))), class_label(classify(*parse_cards("Qc Jd")))
    ('9 points, special pattern', 'Face-card Combo')
    """
    if not hand.is_ordinary:
        return hand.name
    return f"{hand.name}, special pattern" if hand.special else hand.name


def describe_hand(hand: PokDengHand) -> str:
    """A hand as a reason reads it: ``9 points (9), special pattern``."""
    extra = ", special pattern" if hand.special else ""
    return f"{hand.name} ({hand.value_text}){extra}"


# ---------------------------------------------------------------------------
# Bets


def player_events(payouts: PokDengPayouts) -> tuple[Event, ...]:
    """The Player bet's events, in the outcome table's order (docs/rules/pok-deng.md §Player N)."""
    p = payouts
    return (
        Event(PokDengEvent.WIN_SPECIAL, "player wins with a special pattern", p.player_win_special),
        Event(
            PokDengEvent.WIN_SPECIAL_8_9,
            "player wins with 8 or 9 and a flush or pair, banker has 0 or 6",
            p.player_win_special,
        ),
        Event(
            PokDengEvent.WIN_SPECIAL_BANKER_0_6,
            "player wins with a special pattern, banker has 0 or 6 (paid as an ordinary win)",
            p.player_win,
        ),
        Event(PokDengEvent.WIN, "player wins, no special pattern", p.player_win),
        Event(PokDengEvent.PUSH, "push (equal values)", Fraction(0)),
        Event(PokDengEvent.LOSE, "banker wins, no special pattern", -p.player_lose),
        Event(
            PokDengEvent.LOSE_SPECIAL, "banker wins with a special pattern", -p.player_lose_special
        ),
    )


def pair_events(payouts: PokDengPayouts) -> tuple[Event, ...]:
    """The Player Pair bet's events."""
    return (
        Event(PokDengEvent.PAIR, "player's two cards are a pair", payouts.pair),
        Event(PokDengEvent.NO_PAIR, "no pair", Fraction(-1)),
    )


def banker_zero_or_six(banker: PokDengHand, rules: PokDengRules) -> bool:
    """Whether the Banker 'has 0 or 6 points' (docs/rules/pok-deng.md §Banker 0 or 6)."""
    if rules.banker_zero_or_six == "raw-total":
        return banker.points in (0, 6)
    return banker.is_ordinary and banker.points in (0, 6)


def settle_player(player: PokDengHand, banker: PokDengHand, rules: PokDengRules) -> PokDengEvent:
    """The Player bet's event key for one player hand against the banker."""
    if player.tenths == banker.tenths:
        return PokDengEvent.PUSH
    if player.tenths < banker.tenths:
        return PokDengEvent.LOSE_SPECIAL if banker.special else PokDengEvent.LOSE
    if not player.special:
        return PokDengEvent.WIN
    if not banker_zero_or_six(banker, rules):
        return PokDengEvent.WIN_SPECIAL
    if rules.eight_nine_override and player.tenths >= 80 and player.flush_or_pair:
        return PokDengEvent.WIN_SPECIAL_8_9
    return PokDengEvent.WIN_SPECIAL_BANKER_0_6


def settle_pair(cards: tuple[Card, Card]) -> PokDengEvent:
    """The Player Pair bet's event key."""
    return PokDengEvent.PAIR if cards[0].rank == cards[1].rank else PokDengEvent.NO_PAIR


def check_paytable(config: PokDengConfig) -> None:
    """Refuse a paytable whose withholding does not cover the largest Player loss."""
    p = config.payouts
    worst = max(p.player_lose, p.player_lose_special)
    if worst > 1 + p.player_withholding:
        raise OddsError(
            f"[payouts] a Player loss of {worst} per unit exceeds the stake plus "
            f"player_withholding ({1 + p.player_withholding}): raise the withholding"
        )
