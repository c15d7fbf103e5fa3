"""``odds bench pok-deng``: the engine against the plain brute-force enumerator.

The brute force walks every ordered sequence of four card types (52⁴ for a full
shoe), weights it by falling factorials and settles it with the rules; it shares
no counting code with the engine. The whole table's two positions (six cards,
52⁶ sequences) are out of its reach on a full shoe: there it checks a reduced
2-suit deck, and the engine's 8-deck run is timed on its own.
"""

from __future__ import annotations

from odds.core.cards import Card, Rank, Suit
from odds.core.shoe import Shoe
from odds.engine import Hand, deal_count
from odds.engine.bruteforce import brute_force, ordering_factor
from odds.games.base import BenchCase
from odds.games.events import probabilities
from odds.games.pok_deng.counting import event_ways
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.rules import classify, settle_pair, settle_player
from odds.games.pok_deng.table_counts import position_events, two_position_ways
from odds.games.pok_deng.table_hands import PositionEvents, hand_classifier


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


def brute_two_position_ways(
    config: PokDengConfig, shoe: Shoe[Card]
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """The Banker and two positions by the plain enumerator (every ordered six-card sequence)."""
    key = hand_classifier(shoe)

    def settle(deal: tuple[Hand, ...]) -> dict[str, tuple[PositionEvents, PositionEvents]]:
        banker, one, two = (key(hand) for hand in deal)
        return {
            "positions": (
                position_events(one, banker, config.rules),
                position_events(two, banker, config.rules),
            )
        }

    found = brute_force(shoe.counts, (2, 2, 2), settle)["positions"]
    factor = ordering_factor((2, 2, 2))
    return {positions: ways // factor for positions, ways in found.items()}  # type: ignore[misc]


#: The reduced shoe the two-position brute force can walk in seconds: clubs and hearts
#: of seven ranks, one card each, with every hand value the rules know (AK Flush, Special
#: Pairs, Face-card Combo, a 10 with a face card, Flush with No Point, 8 and 9 points with
#: a pair or a flush, ordinary 0 and 6 points).
BENCH_RANKS = (Rank.ACE, Rank.THREE, Rank.FOUR, Rank.SIX, Rank.TEN, Rank.JACK, Rank.KING)


def reduced_shoe(shoe: Shoe[Card]) -> Shoe[Card]:
    """Clubs and hearts of :data:`BENCH_RANKS`, one of each."""
    return Shoe(
        tuple(
            c for c in shoe.types if c.suit in (Suit.CLUBS, Suit.HEARTS) and c.rank in BENCH_RANKS
        ),
        tuple(
            1 for c in shoe.types if c.suit in (Suit.CLUBS, Suit.HEARTS) and c.rank in BENCH_RANKS
        ),
        f"2 suits × {len(BENCH_RANKS)} ranks, one deck ({2 * len(BENCH_RANKS)} cards)",
    )


def _deals(ways: dict[tuple[PositionEvents, PositionEvents], int]) -> str:
    return f"{sum(ways.values()):,} deals, {len(ways)} event pairs"


def bench_cases(config: PokDengConfig) -> list[BenchCase]:
    """Both bets on the paytable's shoe; the Banker and two positions, reduced and full."""
    shoe = config.shoe.build()
    small = reduced_shoe(shoe)
    return [
        BenchCase(
            f"Pok Deng, both bets, {shoe.description}",
            lambda: probabilities(event_ways(config, shoe)),
            lambda: probabilities(brute_event_ways(config, shoe)),
        ),
        BenchCase(
            f"Pok Deng, Banker and two positions, {small.description}",
            lambda: probabilities({"positions": two_position_ways(config, small)}),
            lambda: probabilities({"positions": brute_two_position_ways(config, small)}),
            note="brute force: every ordered sequence of the six cards (plain enumerator)",
        ),
        BenchCase(
            f"Pok Deng, Banker and two positions, {shoe.description}",
            lambda: _deals(two_position_ways(config, shoe)),
            None,
            note="the exact three-hand joint; checked against the brute force on the reduced "
            "shoe above (the full shoe's 52⁶ sequences are out of its reach)",
        ),
    ]
