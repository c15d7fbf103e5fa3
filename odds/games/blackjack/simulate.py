"""A seeded simulation of the analysed strategy: the cross-check of the exact figure.

Every round is dealt from a freshly shuffled full shoe (the exact analysis is
"off the top"), and the player follows the decisions the exact analysis chose:
the best first action per two-card hand and up card, then hit/stand per
composition (split hands: their own cards and the pair, resplitting pair cards
up to the strategy's number of hands). The mean net per round must land within
its 95% interval of the exact EV.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

from odds.games.blackjack.dealer import RANKS
from odds.games.blackjack.options import BlackjackConfig
from odds.games.blackjack.play import PlayerHand, Table
from odds.games.blackjack.results import RoundAnalysis
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.strategy import OptimalStrategy
from odds.games.features import CrosscheckFeature


@dataclass(frozen=True)
class SimulationResult:
    rounds: int
    seed: int
    mean: float
    sd: float

    @property
    def half_width(self) -> float:
        return 1.959963984540054 * self.sd / sqrt(self.rounds)

    @property
    def interval(self) -> tuple[float, float]:
        return self.mean - self.half_width, self.mean + self.half_width

    def contains(self, value: float) -> bool:
        low, high = self.interval
        return low <= value <= high


def simulate(analysis: RoundAnalysis, rounds: int, seed: int) -> SimulationResult:
    """Play ``rounds`` rounds with the analysed strategy; mean and SD of the net per round."""
    rules = analysis.rules
    strategy = OptimalStrategy(analysis)  # a convention no player can follow is refused here
    draw, refill = _shoe(random.Random(seed), analysis.counts)
    deal = Table(rules).play
    s1 = s2 = 0.0
    for _ in range(rounds):
        refill()
        net = float(deal(draw, strategy).net(rules))
        s1 += net
        s2 += net * net
    mean = s1 / rounds
    variance = max(s2 / rounds - mean * mean, 0.0)
    return SimulationResult(rounds, seed, mean, sqrt(variance * rounds / max(rounds - 1, 1)))


def _shoe(
    rng: random.Random, counts: Sequence[int]
) -> tuple[Callable[[PlayerHand[int] | None], int], Callable[[], None]]:
    """A full shoe of ``counts``, drawn without replacement: ``(draw, refill)``.

    ``draw(hand)`` deals a card to anyone (one shoe deals the player and the dealer
    alike); ``refill()`` makes the shoe full again, as before each round. The shoe is
    its cards' ranks in rank order, one byte each, and a draw takes the byte at a
    uniform position: the card that counting down the rank counts would give, for a C
    ``bytearray.pop`` in place of a Python loop over ten ranks; a refill is one copy
    of the shoe's bytes (416 for eight decks). The position is
    :meth:`random.Random.randrange`'s own (its rejection sampling of ``getrandbits``,
    without the two calls around it), so a seed deals the rounds ``randrange`` would.
    """
    bits = rng.getrandbits
    full = bytes(r for r in range(RANKS) for _ in range(counts[r]))
    cards = bytearray(full)
    widths = [left.bit_length() for left in range(len(full) + 1)]

    def draw(hand: PlayerHand[int] | None = None) -> int:
        left = len(cards)
        if not left:
            raise AssertionError("empty shoe")
        k = widths[left]
        pick = bits(k)
        while pick >= left:
            pick = bits(k)
        return cards.pop(pick)

    def refill() -> None:
        cards[:] = full

    return draw, refill


class BlackjackCrosscheck(CrosscheckFeature[BlackjackConfig]):
    """``odds crosscheck``: the seeded simulation of optimal play against its exact EV."""

    def exact_ev(self, config: BlackjackConfig) -> Fraction:
        """EV per round of optimal play (what ``simulate`` must reproduce)."""
        from odds.games.blackjack.counting import rank_counts

        return analyse_round(rank_counts(config.shoe.build()), config.house).ev

    def simulate(self, config: BlackjackConfig, rounds: int, seed: int) -> SimulationResult:
        from odds.games.blackjack.counting import rank_counts

        return simulate(analyse_round(rank_counts(config.shoe.build()), config.house), rounds, seed)
