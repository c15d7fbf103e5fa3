"""``odds bench dragon-tiger``: the engine against the plain enumerator of ordered card pairs."""

from __future__ import annotations

from collections.abc import Hashable

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.engine.bruteforce import brute_force
from odds.engine.drawing import ordered_deal_polynomial
from odds.games.base import BenchCase
from odds.games.dragon_tiger import counting as a
from odds.games.dragon_tiger.options import DragonTigerConfig
from odds.games.dragon_tiger.rules import Round


def fresh_event_ways(config: DragonTigerConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
    """The engine's event ways with the round table built anew (for timing)."""
    specs = a.bet_specs(config)
    polynomial = ordered_deal_polynomial(a.RoundProcedure(shoe.types), len(shoe.types), 2)
    partitions = [[(s.name, e.key) for e in s.events] for s in specs]
    ways = polynomial.regroup(
        lambda round_: [(s.name, s.settle(round_)) for s in specs], partitions
    ).ways(shoe.counts)
    return {
        s.name: {e.key: ways[(s.name, e.key)] for e in s.events if ways.get((s.name, e.key))}
        for s in specs
    }


def brute_event_ways(config: DragonTigerConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
    """Every ordered pair of cards (Dragon's, then Tiger's), settled by the rules."""
    specs = a.bet_specs(config)
    types = shoe.types

    def settle(deal: tuple[tuple[int, ...], ...]) -> dict[str, Hashable]:
        round_ = Round.of(types[deal[0][0]], types[deal[1][0]])
        return {s.name: s.settle(round_) for s in specs}

    found = brute_force(shoe.counts, (1, 1), settle)
    return {bet: {str(e): w for e, w in events.items()} for bet, events in found.items()}


def bench_cases(config: DragonTigerConfig) -> list[BenchCase]:
    shoe = config.shoe.build()
    return [
        BenchCase(
            f"Dragon Tiger, every bet ({len(a.bet_specs(config))}), {shoe.description}",
            lambda: fresh_event_ways(config, shoe),
            lambda: brute_event_ways(config, shoe),
            note="engine: round table built from scratch each run; brute force: every "
            "ordered pair of the 52 cards",
        )
    ]
