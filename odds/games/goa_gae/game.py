"""The Goa Gae game: its schema, analysis, one-round settlement, strength and bench, wired."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from odds.core.cards import hand_text
from odds.core.numbers import payout_ratio
from odds.core.settlement import SettledHand, Settlement
from odds.games.base import BenchCase, Game, HandKey
from odds.games.events import by_key, settled_bet
from odds.games.goa_gae import bench, counting
from odds.games.goa_gae.options import GoaGaeConfig
from odds.games.goa_gae.rules import (
    HAND_SIZE,
    Ranking,
    check_paytable,
    explain_showdown,
    player_events,
    settle_player,
)
from odds.games.goa_gae.shoe_state import GoaGaeShoeState
from odds.games.goa_gae.strength import GoaGaeStrength
from odds.stats.analysis import Analysis


class GoaGae(Game[GoaGaeConfig]):
    """Goa Gae: three cards each, one position against the dealer."""

    name = "goa-gae"
    title = "Goa Gae (Kao Gae, 9K), three cards"
    config_type = GoaGaeConfig
    positions = ("dealer", "player")
    bet_names = ("player",)
    hand_size = HAND_SIZE
    shared_positions = ("dealer",)
    hand_example = "three cards, e.g. 'As Ks 8s'"
    strength = GoaGaeStrength()
    shoe_state = GoaGaeShoeState()

    def validate(self, config: GoaGaeConfig) -> None:
        check_paytable(config)
        config.shoe.build().require(counting.DEAL_CARDS)

    def analyse(self, config: GoaGaeConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable)

    def hand_keys(self, config: GoaGaeConfig) -> Callable[[tuple[Any, ...]], HandKey]:
        """A hand's class label and category, and which hand is stronger, decide a round."""
        ranking = Ranking(config.rules)

        def key(cards: tuple[Any, ...]) -> HandKey:
            hand = ranking.rank(cards)
            return HandKey((hand.label, hand.category), hand.strength)

        return key

    def settle(self, config: GoaGaeConfig, hands: Mapping[str, str], stake: Fraction) -> Settlement:
        shoe = config.shoe.build()
        dealer = self.read_hand(config, hands, "dealer")
        player = self.read_hand(config, hands, "player")
        shoe.check_holds(dealer + player, "the dealer's and player's cards")
        ranking = Ranking(config.rules)
        d, p = ranking.rank(dealer), ranking.rank(player)
        event = by_key(player_events(config))[settle_player(p, d, config.payouts)]
        # A push has no payout to name: "…; tie (equal hands): push".
        paid = f": {payout_ratio(event.net)}" if event.net else ""
        reason = f"{explain_showdown(ranking, p, d)}; {event.label}{paid}"
        return Settlement(
            hands=(
                SettledHand("dealer", hand_text(dealer), ranking.describe(d), d.label),
                SettledHand("player", hand_text(player), ranking.describe(p), p.label),
            ),
            bets=(
                settled_bet(
                    "player", event, stake, stake * (1 + config.payouts.withholding), reason
                ),
            ),
        )

    def bench_cases(self, config: GoaGaeConfig) -> list[BenchCase]:
        return bench.bench_cases(config)
