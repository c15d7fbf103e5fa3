"""``odds bench mahjong-28``: the engine against the plain brute-force enumerator.

The brute force walks every ordered sequence of tile types (four tiles for
one position against the banker, six for the banker and two positions),
weights it by falling factorials and settles it with the rules; it shares no
counting code with the engine.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import cast

from odds.core.shoe import Shoe
from odds.core.tiles import Tile
from odds.engine import Hand
from odds.engine.bruteforce import brute_force, ordering_factor
from odds.games.base import BenchCase
from odds.games.events import probabilities
from odds.games.mahjong.counting import event_ways
from odds.games.mahjong.options import MahjongConfig
from odds.games.mahjong.positions import PairResults, pair_results
from odds.games.mahjong.rules import Ranking, Result, bet_rules, check_config, result


def brute_event_ways(config: MahjongConfig, shoe: Shoe[Tile]) -> dict[str, dict[str, int]]:
    """The engine's one-position table by the plain enumerator, scaled to unordered ways."""
    ranking = Ranking(config.tiles, config.rules, shoe)
    types = shoe.types
    bets = bet_rules(config)

    def settle(deal: tuple[Hand, ...]) -> dict[str, str]:
        player = ranking.hand(types[deal[0][0]], types[deal[0][1]])
        banker = ranking.hand(types[deal[1][0]], types[deal[1][1]])
        outcome = result(player, banker, config.rules)
        return {bet.name: bet.settle(outcome) for bet in bets}

    factor = ordering_factor((2, 2))
    found = brute_force(shoe.counts, (2, 2), settle)
    return {bet: {str(e): w // factor for e, w in ev.items()} for bet, ev in found.items()}


def brute_pair_results(config: MahjongConfig, shoe: Shoe[Tile]) -> PairResults:
    """The banker-and-two-positions table by the plain enumerator."""
    ranking = Ranking(config.tiles, config.rules, shoe)
    types = shoe.types

    def settle(deal: tuple[Hand, ...]) -> dict[str, Hashable]:
        banker, one, two = (ranking.hand(types[h[0]], types[h[1]]) for h in deal)
        results = sorted((result(one, banker, config.rules), result(two, banker, config.rules)))
        return {"pair": tuple(results)}

    factor = ordering_factor((2, 2, 2))
    found = brute_force(shoe.counts, (2, 2, 2), settle)["pair"]
    # The event keys are the sorted result pairs ``settle`` built.
    return {cast(tuple[Result, ...], key): ways // factor for key, ways in found.items()}


def bench_cases(config: MahjongConfig) -> list[BenchCase]:
    """One position with every bet, and the banker with two positions: engine against brute."""
    shoe = check_config(config)
    return [
        BenchCase(
            f"Mahjong 2-8, one position, every bet, {shoe.size} tiles",
            lambda: probabilities(event_ways(config, shoe)),
            lambda: probabilities(brute_event_ways(config, shoe)),
        ),
        BenchCase(
            f"Mahjong 2-8, banker and two positions, {shoe.size} tiles",
            lambda: probabilities({"pairs": pair_results(config, shoe)}),
            lambda: probabilities({"pairs": brute_pair_results(config, shoe)}),
        ),
    ]
