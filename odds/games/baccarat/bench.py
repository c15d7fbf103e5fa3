"""``odds bench baccarat``: the engine against the brute force.

* Every bet, full shoe. The engine starts from nothing each run (the
  tableau's counting table is rebuilt, not taken from the cache). The brute
  force shares none of its counting: it walks every ordered sequence of
  *ranks* the tableau deals (replaying the coup from the first card, so only
  the rules decide when it stops) for the coup bets and the rank pairs, and
  every ordered sequence of four *cards* (52 types) for the perfect pair.
  Both give ordered ways extended to six cards, so they must be equal.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from odds.core.caching import clear_caches
from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.engine.bruteforce import brute_force, brute_force_drawing
from odds.games.baccarat import counting as a
from odds.games.baccarat import rules as r
from odds.games.baccarat.bets import bet_specs
from odds.games.baccarat.options import BaccaratConfig
from odds.games.base import BenchCase


def fresh_event_ways(config: BaccaratConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
    """The engine's event ways from a cold start (every cache cleared: the tableau's
    counting table is built anew), for timing."""
    clear_caches()
    groups = a.TypeGroups.of(shoe.types, config.rules.perfect_pair)
    result = a.coup_event_ways(config, shoe.counts, groups)
    return {bet: {e: w for e, w in events.items() if w} for bet, events in result.items()}


def brute_event_ways(config: BaccaratConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
    """Every offered bet by plain enumeration of card sequences (see the module docstring)."""
    drawing = r.DrawingRules.of(config.tableau)
    specs = bet_specs(config)
    offered = {s.name for s in specs}
    ranks = sorted({card.rank for card in shoe.types})
    rank_counts = [sum(n for c, n in zip(shoe.types, shoe.counts, strict=True) if c.rank == k)
                   for k in ranks]  # fmt: skip
    values = [r.card_value(k) for k in ranks]
    coup_specs = [s for s in specs if s.settle is not None]

    def play(draw: Any) -> dict[str, Hashable]:
        dealt: list[int] = []

        def next_value(_: str) -> int:
            dealt.append(draw())
            return values[dealt[-1]]

        coup = r.deal_coup(next_value, drawing).coup
        events: dict[str, Hashable] = {s.name: s.settle(coup) for s in coup_specs}  # type: ignore[misc]
        player_pair, banker_pair = dealt[0] == dealt[2], dealt[1] == dealt[3]
        events["player-pair"] = "win" if player_pair else "lose"
        events["banker-pair"] = "win" if banker_pair else "lose"
        both, one = player_pair and banker_pair, player_pair or banker_pair
        events["either-pair"] = "both" if both else ("one" if one else "lose")
        return events

    found = brute_force_drawing(rank_counts, play, a.COUP_CARDS)
    result = {bet: events for bet, events in found.items() if bet in offered}
    if "perfect-pair" in offered:
        result["perfect-pair"] = _brute_perfect_pair(config, shoe)
    return {bet: {str(e): w for e, w in events.items()} for bet, events in result.items()}


def _brute_perfect_pair(config: BaccaratConfig, shoe: Shoe[Card]) -> dict[Hashable, int]:
    """Every ordered four-card sequence of the 52 card types: Player 1st, 3rd; Banker 2nd, 4th."""
    types = shoe.types

    def settle(deal: tuple[tuple[int, ...], ...]) -> dict[str, Hashable]:
        # brute_force deals hand 1 then hand 2; the order between the hands does not
        # matter to a pair, so hand 1 plays the Player's two cards and hand 2 the Banker's.
        player = (types[deal[0][0]], types[deal[0][1]])
        banker = (types[deal[1][0]], types[deal[1][1]])
        return {"perfect-pair": r.settle_pairs(player, banker, config.rules)["perfect-pair"]}

    found = brute_force(shoe.counts, (2, 2), settle)["perfect-pair"]
    extend = (shoe.size - 4) * (shoe.size - 5)
    return {event: ways * extend for event, ways in found.items()}


def bench_cases(config: BaccaratConfig) -> list[BenchCase]:
    """Every bet on the paytable's shoe, engine against brute force.

    (The per-state EV is timed by the shared shoe-state bench, against the full
    analysis of the same composition.)
    """
    shoe = config.shoe.build()
    return [
        BenchCase(
            f"Baccarat, every bet ({len(bet_specs(config))}), {shoe.description}",
            lambda: fresh_event_ways(config, shoe),
            lambda: brute_event_ways(config, shoe),
            note="engine: counting table built from scratch each run; brute force: every "
            "ordered rank sequence the tableau deals, and every ordered 4-card sequence of "
            "the 52 cards for the perfect pair",
        ),
    ]
