"""Mahjong 2-8 shoe states: exact EVs for any unseen tiles, and the set's dealing.

Every bet settles on one position's two tiles and the banker's, so each EV is
an :class:`odds.engine.polynomial.FallingPolynomial` over the tile types (canonical
form: 715 coefficients for ten tile types). The set is dealt over
``[dealing] rounds`` rounds of two tiles to the banker and to each position,
every tile face up: a watching player knows the unseen tiles exactly, and
the states before each round can be enumerated exactly.
"""

from __future__ import annotations

from fractions import Fraction

from odds.engine.polynomial import two_hand_polynomial
from odds.games.dealing import Procedure, set_procedure
from odds.games.features import ShoeStateFeature
from odds.games.mahjong.options import MahjongConfig
from odds.games.mahjong.rules import HandInfo, Ranking, bet_rules, check_config, result
from odds.games.shoe_state import PolynomialEvaluator, StateBet


def round_tiles(config: MahjongConfig) -> int:
    """Tiles one round deals: two to the banker and two to each position."""
    return 2 * (config.rules.positions + 1)


class MahjongShoeState(ShoeStateFeature[MahjongConfig]):
    """Per-state EVs of every bet (one position against the banker) and the set's rounds."""

    removed_option = "tiles.removed"

    def evaluator(self, config: MahjongConfig) -> PolynomialEvaluator:
        shoe = check_config(config)
        ranking = Ranking(config.tiles, config.rules, shoe)
        rules = bet_rules(config)
        nets = [{e.key: e.net for e in rule.events} for rule in rules]
        types = shoe.types

        def payoff(player: HandInfo, banker: HandInfo) -> list[Fraction]:
            outcome = result(player, banker, config.rules)
            return [net[rule.settle(outcome)] for rule, net in zip(rules, nets, strict=True)]

        polynomial = two_hand_polynomial(
            shoe.counts,
            2,
            lambda hand: ranking.hand(types[hand[0]], types[hand[1]]),
            [rule.name for rule in rules],
            payoff,
        )
        bets = [StateBet(rule.name, rule.title) for rule in rules]
        return PolynomialEvaluator(shoe, bets, round_tiles(config), shoe.size, polynomial)

    def procedure(self, config: MahjongConfig) -> Procedure:
        shoe = check_config(config)
        positions = config.rules.positions
        return set_procedure(
            config.dealing,
            shoe.size,
            round_tiles(config),
            f"two tiles each to the banker and {positions} position"
            + ("s" if positions != 1 else ""),
        )
