"""The Dragon Tiger game: schema, analysis, one-round settlement and bench, wired together."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from odds.core.settlement import SettledHand, Settlement
from odds.games.base import BenchCase, Game
from odds.games.dragon_tiger import bench, counting
from odds.games.dragon_tiger import rules as r
from odds.games.dragon_tiger.options import SIDE_BETS, DragonTigerConfig
from odds.games.dragon_tiger.report_tables import rank_label
from odds.games.dragon_tiger.shoe_state import DragonTigerShoeState
from odds.games.events import by_key, check_side_bets, reason, settled_bet
from odds.stats.analysis import Analysis


class DragonTiger(Game[DragonTigerConfig]):
    """Dragon Tiger: one card each to Dragon and Tiger; the higher rank wins."""

    name = "dragon-tiger"
    title = "Dragon Tiger (8 decks)"
    config_type = DragonTigerConfig
    positions = ("dragon", "tiger")
    bet_names = ("dragon", "tiger", "tie", *SIDE_BETS)
    shoe_state = DragonTigerShoeState()
    hand_size = 1
    hand_example = "one card, e.g. 'Kh'"

    def validate(self, config: DragonTigerConfig) -> None:
        check_side_bets(config.bets.side_bets, SIDE_BETS)
        config.shoe.build().require(counting.ROUND_CARDS)

    def analyse(self, config: DragonTigerConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable)

    def settle(
        self, config: DragonTigerConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        (dragon,) = self.read_hand(config, hands, "dragon")
        (tiger,) = self.read_hand(config, hands, "tiger")
        config.shoe.build().check_holds((dragon, tiger), "the Dragon's and Tiger's cards")
        round_ = r.Round.of(dragon, tiger)
        settled = []
        for spec in counting.bet_specs(config):
            event = by_key(spec.events)[spec.settle(round_)]
            settled.append(settled_bet(spec.name, event, stake, stake, reason(event)))
        return Settlement(
            hands=tuple(
                SettledHand(
                    side,
                    str(card),
                    f"{card.rank.symbol} (order {r.order(card.rank)} of 13)",
                    rank_label(card.rank),
                )
                for side, card in (("dragon", dragon), ("tiger", tiger))
            ),
            bets=tuple(settled),
        )

    def bench_cases(self, config: DragonTigerConfig) -> list[BenchCase]:
        return bench.bench_cases(config)
