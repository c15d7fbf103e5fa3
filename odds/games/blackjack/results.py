"""A round's results as plain data: each initial hand's action values, and the whole round.

:mod:`odds.games.blackjack.rounds` (a finite shoe) and
:mod:`odds.games.blackjack.infinite` (cards dealt with replacement) both fill these; the
report's tables, the strategy chart and the shoe states only read them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction

from odds.games.blackjack.actions import NATURAL, Action
from odds.games.blackjack.actions import PREFERENCE as PREFERENCE  # (rounds reads it here)
from odds.games.blackjack.dealer import RANKS, Counts, total_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.player import Play
from odds.games.blackjack.splits import SplitResult


@dataclass
class HandResult:
    """Exact values of one initial two-card hand against one up card.

    ``values`` maps actions to EVs per initial stake (the whole round for this
    hand, dealer blackjack included); ``best`` is the chosen action.
    ``split`` holds, for a pair, how the split is played (post-split action
    per second card, the number of hands) and ``distribution`` the net payout
    probabilities of the chosen action, conditional on this hand and up card.
    """

    cards: tuple[int, int]
    up: int
    probability: Fraction
    values: dict[Action, Fraction]
    best: Action
    p_dealer_blackjack: Fraction
    peek: bool = False
    distribution: dict[Fraction, Fraction] = field(default_factory=dict)
    split: SplitResult | None = None

    @property
    def ev(self) -> Fraction:
        return self.values[self.best]

    @property
    def values_given_no_dealer_blackjack(self) -> dict[Action, Fraction] | None:
        """The values a player who acts after the peek sees (None without a peek).

        With a peek the player acts only when the dealer has no blackjack;
        a dealer blackjack takes the original stake (a natural pushes).
        """
        if not self.peek:
            return None
        p = self.p_dealer_blackjack
        if p == 1:
            return None
        return {
            action: (value if action == NATURAL else value + p) / (1 - p)
            for action, value in self.values.items()
        }


def initial_hands() -> Iterator[tuple[int, int]]:
    for a in range(RANKS):
        for b in range(a, RANKS):
            yield a, b


def two_card_total(a: int, b: int) -> tuple[int, bool]:
    return total_of(a + b + 2, a == 0 or b == 0)


@dataclass
class RoundAnalysis:
    """All initial hands against all up cards, and the round's expected value."""

    rules: BlackjackRules
    counts: Counts
    hands: list[HandResult]
    plays: dict[int, Play] = field(default_factory=dict)
    #: P(each final dealer outcome, in :data:`.dealer.OUTCOMES` order) per up card, from the
    #: full shoe less the up card (the report's dealer table reads this, not the engine).
    dealer: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)

    @property
    def ev(self) -> Fraction:
        return sum((h.probability * h.ev for h in self.hands), Fraction(0))

    def hand(self, a: int, b: int, up: int) -> HandResult:
        a, b = min(a, b), max(a, b)
        for h in self.hands:
            if h.cards == (a, b) and h.up == up:
                return h
        raise KeyError((a, b, up))
