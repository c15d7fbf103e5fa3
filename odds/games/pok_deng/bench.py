"""``odds bench pok-deng``: the engine against the plain brute-force enumerator.

The brute force walks every ordered sequence of four card types (52⁴ for a full
shoe), weights it by falling factorials and settles it with the rules; it shares
no counting code with the engine.
"""

from __future__ import annotations

from odds.bruteforce import brute_force, ordering_factor
from odds.cards import Card
from odds.engine import Hand, deal_count
from odds.games.base import BenchCase
from odds.games.events import probabilities
from odds.games.pok_deng.analysis import event_ways
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.rules import classify, settle_pair, settle_player
from odds.shoe import Shoe


def brute_event_ways(config: PokDengConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
    """The engine's table by the plain enumerator, scaled to unordered ways."""
    types = shoe.types

    def settle(deal: tuple[Hand, ...]) -> dict[str, str]:
        player = (types[deal[0][0]], types[deal[0][1]])
        banker = (types[deal[1][0]], types[deal[1][1]])
        return {
            "player": settle_player(classify(*player), classify(*banker), config.rules),
            "player-pair": settle_pair(player),
        }

    factor = ordering_factor((2, 2))
    found = brute_force(shoe.counts, (2, 2), settle)
    result: dict[str, dict[str, int]] = {}
    for bet, events in found.items():
        result[bet] = {str(event): ways // factor for event, ways in events.items()}
    # The pair bet counts one hand; the brute force saw it inside two-hand deals.
    rest = deal_count(shoe.counts, (2, 2)) // deal_count(shoe.counts, (2,))
    result["player-pair"] = {e: w // rest for e, w in result["player-pair"].items()}
    return result


def bench_cases(config: PokDengConfig) -> list[BenchCase]:
    """Both bets on the paytable's shoe, engine against brute force."""
    shoe = config.shoe.build()
    return [
        BenchCase(
            f"Pok Deng, both bets, {shoe.description}",
            lambda: probabilities(event_ways(config, shoe)),
            lambda: probabilities(brute_event_ways(config, shoe)),
        )
    ]
