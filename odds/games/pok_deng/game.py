"""The Pok Deng game: its schema, analysis, one-round settlement and bench, wired together."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from odds.core.cards import hand_text
from odds.core.settlement import SettledHand, Settlement
from odds.games.base import BenchCase, Game, HandKey
from odds.games.events import by_key, reason, settled_bet
from odds.games.features import StakesFeature
from odds.games.pok_deng import bench, counting
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.positions import JSON_KEY, whole_table
from odds.games.pok_deng.report_tables import whole_table_tables
from odds.games.pok_deng.rules import (
    check_paytable,
    class_label,
    classify,
    describe_hand,
    pair_events,
    player_events,
    settle_pair,
    settle_player,
)
from odds.games.pok_deng.shoe_state import PokDengShoeState
from odds.games.pok_deng.stakes import BETS, Stakes
from odds.stats.analysis import Analysis


class PokDengStakes(StakesFeature[PokDengConfig]):
    """The whole-table section at the stakes the user gives (``player=1,player-pair=0.2``)."""

    bets = BETS

    def parse(self, text: str) -> Stakes:
        return Stakes.parse(text)

    def with_stakes(self, config: PokDengConfig, analysis: Analysis, stakes: Any) -> Analysis:
        table = whole_table(config, stakes)
        kept = tuple(t for t in analysis.tables if not t.key.startswith(f"{JSON_KEY}."))
        return dataclasses.replace(analysis, tables=kept + whole_table_tables(table))


class PokDeng(Game[PokDengConfig]):
    """Pok Deng: two cards each, one position against the Banker."""

    name = "pok-deng"
    title = "Pok Deng (live dealer, 8 decks)"
    config_type = PokDengConfig
    positions = ("banker", "player")
    bet_names = ("player", "player-pair")
    hand_size = 2
    shared_positions = ("banker",)
    hand_example = "two cards, e.g. '9d 7c'"
    #: ``odds report --stakes``: Player N and Player N Pair at the user's stakes.
    stakes = PokDengStakes()
    shoe_state = PokDengShoeState()

    def validate(self, config: PokDengConfig) -> None:
        check_paytable(config)
        config.shoe.build().require(counting.DEAL_CARDS)

    def analyse(self, config: PokDengConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable)

    def analyse_bets(self, config: PokDengConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable, whole_table=False)

    def hand_keys(self, config: PokDengConfig) -> Callable[[tuple[Any, ...]], HandKey]:
        """A hand's value (with its special pattern) and whether it is a pair decide a round."""
        return lambda cards: HandKey((classify(*cards), cards[0].rank == cards[1].rank))

    def settle(
        self, config: PokDengConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        shoe = config.shoe.build()
        banker = self.read_hand(config, hands, "banker")
        player = self.read_hand(config, hands, "player")
        shoe.check_holds(banker + player, "the banker's and player's cards")
        b, p = classify(*banker), classify(*player)
        payouts = config.payouts
        player_event = by_key(player_events(payouts))[settle_player(p, b, config.rules)]
        pair_event = by_key(pair_events(payouts))[settle_pair(player)]
        return Settlement(
            hands=(
                SettledHand("banker", hand_text(banker), describe_hand(b), class_label(b)),
                SettledHand("player", hand_text(player), describe_hand(p), class_label(p)),
            ),
            bets=(
                settled_bet(
                    "player",
                    player_event,
                    stake,
                    stake * (1 + payouts.player_withholding),
                    reason(player_event),
                ),
                settled_bet("player-pair", pair_event, stake, stake, reason(pair_event)),
            ),
        )

    def bench_cases(self, config: PokDengConfig) -> list[BenchCase]:
        return bench.bench_cases(config)
