"""Several positions against one banker: the correlation between positions, exactly.

Positions share the banker's hand and the tiles, so their results move
together. The engine deals the banker and *two* positions with tile removal
(:func:`odds.engine.sequential_distribution`); by exchangeability every pair
of positions has that joint, so the same bet on all ``k`` positions has EV
``k·EV`` and variance ``k·Var + k(k−1)·Cov`` exactly, without dealing ``k``
hands (:class:`odds.stats.bets.PositionMoments`, shared with Pok Deng's whole table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from odds.core.shoe import Shoe
from odds.core.tiles import Tile
from odds.engine import sequential_distribution
from odds.games.mahjong.options import MahjongConfig
from odds.games.mahjong.rules import BetRule, Result, hand_infos, result
from odds.stats.bets import Bet, PositionMoments

#: Ways per sorted pair of two positions' results against the same banker.
PairResults = dict[tuple[Result, ...], int]


def pair_results(config: MahjongConfig, shoe: Shoe[Tile]) -> PairResults:
    """Ways per (sorted) pair of position results: the banker and two positions.

    Counted by :func:`odds.engine.sequential_distribution` (banker first,
    then two positions, tiles removed as they are dealt).
    """
    by_hand = hand_infos(config, shoe)
    infos = list(by_hand.values())
    # Classes are the hands' positions in ``by_hand`` (small integers hash fast).
    index = {hand: i for i, hand in enumerate(by_hand)}
    # Results interned as small integers: the fold runs ~10^5 times.
    distinct: dict[Result, int] = {}
    table = [
        [distinct.setdefault(result(p, b, config.rules), len(distinct)) for b in infos]
        for p in infos
    ]

    def fold(state: tuple[int, ...], hand: int) -> tuple[int, ...]:
        """() → (banker) → (banker, first result) → the sorted pair of results."""
        if not state:
            return (hand,)
        if len(state) == 1:
            return (state[0], table[hand][state[0]])
        return tuple(sorted((state[1], table[hand][state[0]])))

    start: tuple[int, ...] = ()
    ways = sequential_distribution(shoe.counts, 2, 3, index.__getitem__, fold, start)
    named = list(distinct)
    found: PairResults = {}
    for (a, b), w in ways.items():
        key = tuple(sorted((named[a], named[b])))
        found[key] = found.get(key, 0) + w
    return found


@dataclass(frozen=True)
class SeveralPositions:
    """One bet staked 1 on each of ``positions`` positions: exact moments.

    ``covariance`` / ``correlation`` are between any two positions' nets;
    ``ev`` and ``variance`` are the total's over all positions.
    """

    bet: Bet
    positions: int
    covariance: Fraction
    correlation: Fraction
    ev: Fraction
    variance: Fraction

    @property
    def independent_variance(self) -> Fraction:
        """The total's variance if the positions were independent: ``k·Var``."""
        return self.positions * self.bet.stats.variance


def several_positions(
    pairs: Mapping[tuple[Result, ...], int],
    rules: tuple[BetRule, ...],
    bets: tuple[Bet, ...],
    k: int,
) -> list[SeveralPositions]:
    """Every bet's moments on ``k`` positions, from the two-position joint.

    The statistics are the shared :class:`odds.stats.bets.PositionMoments` (Pok
    Deng's whole table uses the same). The marginal of either position must
    reproduce the bet's own EV and variance: a different one would mean the
    two counts disagree, so it is asserted.
    """
    moments = position_moments(pairs, rules)
    found = []
    for bet in bets:
        stats = bet.stats
        if (moments.mean[bet.name], moments.variance(bet.name)) != (stats.ev, stats.variance):
            raise AssertionError(f"{bet.name}: positions' marginal differs from the bet's table")
        covariance = moments.covariance(bet.name, bet.name, same_position=False)
        correlation = covariance / stats.variance if stats.variance else Fraction(0)
        ev, variance = moments.selection([{bet.name: Fraction(1)}] * k)
        found.append(SeveralPositions(bet, k, covariance, correlation, ev, variance))
    return found


def position_moments(
    pairs: Mapping[tuple[Result, ...], int], rules: tuple[BetRule, ...]
) -> PositionMoments:
    """Every bet's moments on two positions, from the ways per pair of results."""
    nets = [{e.key: e.net for e in rule.events} for rule in rules]

    def values(r: Result) -> tuple[Fraction, ...]:
        return tuple(net[rule.settle(r)] for rule, net in zip(rules, nets, strict=True))

    joint: dict[tuple[tuple[Fraction, ...], tuple[Fraction, ...]], int] = {}
    for (a, b), w in pairs.items():
        key = (values(a), values(b))
        joint[key] = joint.get(key, 0) + w
    return PositionMoments.of(tuple(rule.name for rule in rules), joint)
