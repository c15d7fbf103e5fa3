"""The blackjack game: its schema, analysis, one-round settlement, bench and features, wired."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from odds.core.cards import hand_text
from odds.core.errors import OddsError, PositionError
from odds.core.settlement import SettledBet, SettledHand, Settlement
from odds.games.base import BenchCase, Game
from odds.games.blackjack import counting
from odds.games.blackjack.charts import BlackjackCharts
from odds.games.blackjack.counting import rank_counts
from odds.games.blackjack.options import MIN_CARDS, BlackjackConfig
from odds.games.blackjack.rules import replay
from odds.games.blackjack.shoe_state import BlackjackShoeState
from odds.games.blackjack.simulate import BlackjackCrosscheck
from odds.stats.analysis import Analysis


class Blackjack(Game[BlackjackConfig]):
    """Blackjack against the dealer, one player position, off the top of a full shoe."""

    name = "blackjack"
    title = "Blackjack (8 decks, no hole card)"
    config_type = BlackjackConfig
    positions = ("player", "dealer", "actions")
    bet_names = ("main",)
    hand_size = 0
    crosscheck = BlackjackCrosscheck()
    infinite_shoe = counting.BlackjackInfiniteShoe()
    charts = BlackjackCharts()
    shoe_state = BlackjackShoeState()

    def validate(self, config: BlackjackConfig) -> None:
        counts = rank_counts(config.shoe.build())
        if sum(counts) < MIN_CARDS:
            raise OddsError(
                f"impossible composition: {sum(counts)} cards may run out during a round "
                f"(blackjack needs at least {MIN_CARDS})"
            )

    def analyse(self, config: BlackjackConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable)

    def settle(
        self, config: BlackjackConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        player, dealer = hands.get("player"), hands.get("dealer")
        if not player:
            raise PositionError(
                "player", "missing {position} (the player's cards in the order dealt)"
            )
        if not dealer:
            raise PositionError("dealer", "missing {position} (the dealer's cards, up card first)")
        result = replay(config.house, player, dealer, hands.get("actions"))
        shoe = config.shoe.build()
        shoe.check_holds(
            [c for h in result.hands for c in h.cards] + list(result.dealer), "the round's cards"
        )
        settled_hands = [
            SettledHand("player", hand_text(h.cards), h.description, h.description.split(": ")[1])
            for h in result.hands
        ]
        settled_hands.append(
            SettledHand("dealer", hand_text(result.dealer), result.dealer_description, "")
        )
        wagered = sum(h.stake for h in result.hands)
        reason = "; ".join(f"{h.description.split(':')[0]}: {h.reason}" for h in result.hands)
        debited = stake * wagered
        bet = SettledBet("main", stake, debited, debited + result.net * stake, reason, result.event)
        return Settlement(tuple(settled_hands), (bet,))

    def bench_cases(self, config: BlackjackConfig) -> list[BenchCase]:
        from odds.games.blackjack.bench import bench_cases

        return bench_cases(self, config, lambda shoe: rank_counts(shoe.build()))
