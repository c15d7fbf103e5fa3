"""The Mahjong 2-8 game: its schema, analysis, one-round settlement and bench, wired together."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from odds.core.numbers import payout_ratio, short_number
from odds.core.settlement import SettledBet, SettledHand, Settlement
from odds.core.shoe import Shoe
from odds.core.tiles import Tile, parse_tiles, tiles_text
from odds.games.base import BenchCase, Game, HandKey
from odds.games.events import settled_bet
from odds.games.mahjong import bench, counting
from odds.games.mahjong.options import MahjongConfig
from odds.games.mahjong.rules import (
    BetRule,
    HandInfo,
    Ranking,
    Result,
    bet_rules,
    check_config,
    explain,
    result,
)
from odds.games.mahjong.shoe_state import MahjongShoeState
from odds.stats.analysis import Analysis


class Mahjong28(Game[MahjongConfig]):
    """Mahjong 2-8 tiles: two tiles each, every position against the banker on its own."""

    name = "mahjong-28"
    title = "Mahjong 2-8 tiles"
    config_type = MahjongConfig
    positions = ("banker", "player")
    bet_names = ("player-wins", "player-loses", "tie", "pair", "banker")
    hand_size = 2
    shoe_state = MahjongShoeState()
    shared_positions = ("banker",)
    hand_example = "two tiles, e.g. '4 2' or 'W 9'"
    decks_path = None
    no_decks_reason = (
        "is played with tiles and has no decks: the tile set is [tiles] copies "
        "(e.g. --set 'tiles.copies={W = 0}')"
    )

    def validate(self, config: MahjongConfig) -> None:
        check_config(config)

    def shoe(self, config: MahjongConfig) -> Shoe[Tile]:
        """The tile set (the ``[tiles]`` section), for tools that deal or read rounds."""
        return config.tiles.build()

    def parse_hand(self, config: MahjongConfig, text: str) -> tuple[Tile, ...]:
        """Tiles as written in a log (``4 2``, ``W9``, ``🀆 🀡``)."""
        return parse_tiles(text, config.tiles.build())

    def analyse(self, config: MahjongConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable)

    def hand_keys(self, config: MahjongConfig) -> Callable[[tuple[Any, ...]], HandKey]:
        """The two tiles (higher first) decide a round: there are only a few dozen hands."""
        ranking = Ranking(config.tiles, config.rules, check_config(config))
        return lambda tiles: HandKey(ranking.hand(*tiles).tiles)

    def settle(
        self, config: MahjongConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        shoe = check_config(config)
        banker_tiles = self.read_hand(config, hands, "banker")
        player_tiles = self.read_hand(config, hands, "player")
        shoe.check_holds(banker_tiles + player_tiles, "the banker's and player's tiles")
        ranking = Ranking(config.tiles, config.rules, shoe)
        banker, player = ranking.hand(*banker_tiles), ranking.hand(*player_tiles)
        outcome = result(player, banker, config.rules)
        why = explain(player, banker, config.rules)
        return Settlement(
            hands=(
                SettledHand("banker", tiles_text(banker_tiles), banker.description, banker.label),
                SettledHand("player", tiles_text(player_tiles), player.description, player.label),
            ),
            bets=tuple(
                _settled(rule, outcome, stake, why, banker, player) for rule in bet_rules(config)
            ),
        )

    def bench_cases(self, config: MahjongConfig) -> list[BenchCase]:
        return bench.bench_cases(config)


def _settled(
    rule: BetRule,
    outcome: Result,
    stake: Fraction,
    why: str,
    banker: HandInfo,
    player: HandInfo,
) -> SettledBet:
    """One bet of a settled round, with the reason in the rule book's words."""
    event = rule.event(rule.settle(outcome))
    if rule.name == "tie":
        same = "identical" if outcome.identical else "different"
        reason = f"banker {banker.text} and player {player.text}: {same} tiles"
    elif rule.name == "pair":
        reason = f"player {player.text} is {'a pair' if player.is_pair else 'not a pair'}"
    else:
        reason = f"{why} ({event.label})"
    paid = payout_ratio(event.net)
    if 0 < event.net != rule.payout:
        paid += f" ({short_number(rule.payout)}:1 less commission)"
    return settled_bet(rule.name, event, stake, stake * rule.debited, f"{reason}: {paid}")
