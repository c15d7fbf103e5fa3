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
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

from odds.games.blackjack.actions import DOUBLE, HIT, NATURAL, SPLIT, SURRENDER, Action
from odds.games.blackjack.dealer import RANKS, dealer_stands, total_of
from odds.games.blackjack.nodes import STEP
from odds.games.blackjack.options import BlackjackConfig, BlackjackRules
from odds.games.blackjack.player import Play
from odds.games.blackjack.results import HandResult, RoundAnalysis
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.splits import HitLookup, PostSplitPlay, split_hand_strategy
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
    rng = random.Random(seed)
    rules = analysis.rules
    if analysis.plays:  # a convention no player can follow is refused before any round
        split_hand_strategy(next(iter(analysis.plays.values())), rules, 9, 0)
    best = {(h.cards, h.up): h for h in analysis.hands}
    base = list(analysis.counts)
    plays = analysis.plays
    h17 = rules.dealer_hits_soft_17
    bj_pay = float(rules.blackjack_payout)
    s1 = s2 = 0.0
    shoe = _Shoe(rng, base)
    draw = shoe.draw
    for _ in range(rounds):
        shoe.reset()
        a, up, b = draw(), draw(), draw()
        cards = (min(a, b), max(a, b))
        result = best[cards, up]
        hole = draw() if rules.dealer_checks_first else None
        net = 0.0
        if hole is not None and total_of(up + hole + 2, 0 in (up, hole))[0] == 21:
            net = 0.0 if result.best == NATURAL else -1.0
        else:
            net = _play_round(rules, result, plays[up], a, b, up, hole, draw, h17, bj_pay)
        s1 += net
        s2 += net * net
    mean = s1 / rounds
    variance = max(s2 / rounds - mean * mean, 0.0)
    return SimulationResult(rounds, seed, mean, sqrt(variance * rounds / max(rounds - 1, 1)))


class _Shoe:
    """A full shoe of rank counts, drawn without replacement and refilled each round."""

    def __init__(self, rng: random.Random, base: list[int]) -> None:
        self.rng, self.base = rng, base
        self.reset()

    def reset(self) -> None:
        self.counts = list(self.base)
        self.left = sum(self.base)

    def draw(self) -> int:
        pick = self.rng.randrange(self.left)
        for r in range(RANKS):
            if pick < self.counts[r]:
                self.counts[r] -= 1
                self.left -= 1
                return r
            pick -= self.counts[r]
        raise AssertionError("empty shoe")


def _play_round(
    rules: BlackjackRules,
    result: HandResult,
    play: Play,
    a: int,
    b: int,
    up: int,
    hole: int | None,
    draw: Callable[[], int],
    h17: bool,
    bj_pay: float,
) -> float:
    action = result.best
    hands: list[tuple[int, int]] = []  # (total, stake)
    if action == NATURAL:
        if hole is None:
            hole = draw()
        dealer_bj = total_of(up + hole + 2, 0 in (up, hole))[0] == 21
        return 0.0 if dealer_bj else bj_pay
    if action == SURRENDER:
        if hole is None:
            hole = draw()
            if total_of(up + hole + 2, 0 in (up, hole))[0] == 21:
                return -1.0
        return -0.5
    if action == SPLIT:
        if result.split is None:  # a split is chosen only for a pair, which has its result
            raise AssertionError(f"split chosen for {result.cards} without a split result")
        # Each hand gets its second card in turn; a pair card is resplit while the
        # round has fewer hands than the strategy's limit; the hand then plays the
        # convention's strategy (CDPN: the one for the splits made so far).
        limit, waiting, count = result.split.hands, 2, 2
        while waiting:
            waiting -= 1
            y = draw()
            while y == a and count < limit:
                count += 1
                waiting += 1
                y = draw()
            strategy = split_hand_strategy(play, rules, a, count - 2)
            hands.append(_play_split_hand(strategy, a, y, draw))
    else:
        hands.append(_play_hand(play, a, b, action, draw))
    if hole is None:
        hole = draw()
    hard, aces, cards = up + hole + 2, (up == 0) + (hole == 0), 2
    dealer_bj = total_of(hard, aces > 0)[0] == 21
    if dealer_bj and rules.peek:  # no hole card, original bets only: the original stake
        return -1.0
    while True:
        dealer_total, soft = total_of(hard, aces > 0)
        if dealer_total > 21 or dealer_stands(dealer_total, soft, h17):
            break
        r = draw()
        hard, aces, cards = hard + r + 1, aces + (r == 0), cards + 1
    net = 0.0
    for player_total, stake in hands:
        if player_total > 21:
            net -= stake
        elif dealer_bj:
            net -= stake  # no hole card, all bets lost: every stake (peek rounds never get here)
        elif dealer_total > 21 or player_total > dealer_total:
            net += stake
        elif player_total < dealer_total:
            net -= stake
    return net


def _play_hand(
    play: Play, a: int, b: int, action: Action, draw: Callable[[], int]
) -> tuple[int, int]:
    removed = [0] * RANKS
    removed[a] += 1
    removed[b] += 1
    key = STEP[a] + STEP[b]
    hard, aces = a + b + 2, (a == 0) + (b == 0)
    if action == DOUBLE:
        r = draw()
        return total_of(hard + r + 1, aces + (r == 0) > 0)[0], 2
    if action == HIT:
        r = draw()
        hard, aces, key = hard + r + 1, aces + (r == 0), key + STEP[r]
        return _hit_on(play.hits[-1], key, hard, aces, draw), 1
    return total_of(hard, aces > 0)[0], 1


def _hit_on(hits: HitLookup, key: int, hard: int, aces: int, draw: Callable[[], int]) -> int:
    """Hit while the composition-dependent decision says so; the final total."""
    while hard <= 21 and hits.get(key, False):
        r = draw()
        hard, aces, key = hard + r + 1, aces + (r == 0), key + STEP[r]
    return total_of(hard, aces > 0)[0]


def _play_split_hand(
    strategy: PostSplitPlay, x: int, y: int, draw: Callable[[], int]
) -> tuple[int, int]:
    key = 2 * STEP[x] + STEP[y]
    hard, aces = x + y + 2, (x == 0) + (y == 0)
    action = strategy.actions[y]
    if action == DOUBLE:
        r = draw()
        return total_of(hard + r + 1, aces + (r == 0) > 0)[0], 2
    if action == HIT:
        r = draw()
        hard, aces, key = hard + r + 1, aces + (r == 0), key + STEP[r]
        return _hit_on(strategy.hits, key, hard, aces, draw), 1
    return total_of(hard, aces > 0)[0], 1


class BlackjackCrosscheck(CrosscheckFeature[BlackjackConfig]):
    """``odds crosscheck``: the seeded simulation of optimal play against its exact EV."""

    def exact_ev(self, config: BlackjackConfig) -> Fraction:
        """EV per round of optimal play (what ``simulate`` must reproduce)."""
        from odds.games.blackjack.counting import rank_counts

        return analyse_round(rank_counts(config.shoe.build()), config.house).ev

    def simulate(self, config: BlackjackConfig, rounds: int, seed: int) -> SimulationResult:
        from odds.games.blackjack.counting import rank_counts

        return simulate(analyse_round(rank_counts(config.shoe.build()), config.house), rounds, seed)
