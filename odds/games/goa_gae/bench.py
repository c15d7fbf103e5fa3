"""``odds bench goa-gae``: the engine's showdown against brute-force enumeration.

Two kinds of case. On a reduced deck the plain ordered enumerator
(:func:`odds.engine.bruteforce.brute_force`) deals every sequence of six cards and
settles it with the rules: the whole Player bet is compared. On full decks a
full brute force is out of reach, so a few spread-out player hands are checked
against every dealer hand instead (their exact counts, not a speed-up).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from odds.core.cards import Card, Rank, Suit
from odds.core.shoe import Shoe
from odds.engine import Hand, HandShowdown, deal_count, hands
from odds.engine.bruteforce import brute_force, ordering_factor
from odds.games.base import BenchCase
from odds.games.events import probabilities
from odds.games.goa_gae.counting import compute_showdown, event_ways
from odds.games.goa_gae.options import GoaGaeConfig
from odds.games.goa_gae.rules import HAND_SIZE, GoaGaeHand, Ranking, settle_player

#: The reduced deck the brute force can finish on: 3 suits × ranks A 2 J Q K (15 cards,
#: 3.6 million ordered six-card sequences). Every category occurs: triples, straight
#: flushes and straights (J-Q-K, Q-K-A), JQK hands, flushes, points (K-A-2 is none).
BENCH_RANKS = (Rank.ACE, Rank.TWO, Rank.JACK, Rank.QUEEN, Rank.KING)
BENCH_SUITS = (Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
#: Player hands the full-deck spot check enumerates every dealer hand for.
SPOT_CHECK_HANDS = 12

#: Win, tie and lose ways of one player hand against one dealer hand.
Tally = tuple[int, int, int]


def reduced_shoe(
    shoe: Shoe[Card],
    ranks: Sequence[Rank] = BENCH_RANKS,
    suits: Sequence[Suit] = BENCH_SUITS,
) -> Shoe[Card]:
    """A sub-shoe of some ranks and suits (for brute-force comparisons)."""
    label = (
        f"{shoe.description}, reduced to {len(suits)} suits ({''.join(s.symbol for s in suits)}) "
        f"× ranks {' '.join(r.symbol for r in ranks)}"
    )
    return shoe.restricted(lambda c: c.rank in ranks and c.suit in suits, label)


def brute_event_ways(config: GoaGaeConfig, shoe: Shoe[Card]) -> dict[str, int]:
    """The Player bet's ways per event by the plain ordered enumerator, scaled to unordered."""
    ranking = Ranking(config.rules)
    types = shoe.types
    cache: dict[Hand, GoaGaeHand] = {}

    def ranked(hand: Hand) -> GoaGaeHand:
        found = cache.get(hand)
        if found is None:
            found = cache[hand] = ranking.rank([types[t] for t in hand])
        return found

    def settle(deal: tuple[Hand, ...]) -> dict[str, str]:
        return {"player": settle_player(ranked(deal[0]), ranked(deal[1]), config.payouts)}

    found = brute_force(shoe.counts, (HAND_SIZE, HAND_SIZE), settle)["player"]
    factor = ordering_factor((HAND_SIZE, HAND_SIZE))
    return {str(event): w // factor for event, w in found.items()}


def spot_hands(shoe: Shoe[Card]) -> list[Hand]:
    """A few player hands spread over the hand list, for the partial brute force."""
    all_hands = hands(shoe.counts, HAND_SIZE)
    step = max(1, len(all_hands) // SPOT_CHECK_HANDS)
    return [hand for hand, _ in all_hands[::step]][:SPOT_CHECK_HANDS]


def spot_view(rows: Sequence[HandShowdown], chosen: Sequence[Hand]) -> dict[Hand, Tally]:
    """The engine's win/tie/lose ways of the chosen hands (applied after timing)."""
    by_hand = {row.hand: (row.weaker, row.equal, row.stronger) for row in rows}
    return {hand: by_hand[hand] for hand in chosen}


def spot_check(config: GoaGaeConfig, shoe: Shoe[Card], chosen: Sequence[Hand]) -> dict[Hand, Tally]:
    """Win/tie/lose of the chosen player hands by enumerating every dealer hand."""
    ranking = Ranking(config.rules)
    types = shoe.types
    result: dict[Hand, Tally] = {}
    for hand in chosen:
        mine = ranking.rank([types[t] for t in hand]).strength
        counts = list(shoe.counts)
        for t in hand:
            counts[t] -= 1
        tally = [0, 0, 0]
        for other, weight in hands(counts, HAND_SIZE):
            key = ranking.rank([types[t] for t in other]).strength
            tally[0 if key < mine else 1 if key == mine else 2] += weight
        result[hand] = (tally[0], tally[1], tally[2])
    return result


def bench_cases(config: GoaGaeConfig) -> list[BenchCase]:
    """Reduced deck against the full brute force; full decks against a spot check."""
    shoe = config.shoe.build()
    small = reduced_shoe(shoe)
    cases = [
        BenchCase(
            f"Goa Gae Player bet, {small.description}",
            lambda: probabilities(
                {"player": event_ways(config, compute_showdown(config, small, True))}
            ),
            lambda: probabilities({"player": brute_event_ways(config, small)}),
            note="brute force: every ordered sequence of the six cards (plain enumerator)",
        )
    ]
    for decks in (1, 2):
        full = Shoe.of_decks(shoe.types, decks) if not config.shoe.counts else shoe
        cases.append(_spot_case(config, full))
    return cases


def _spot_case(config: GoaGaeConfig, full: Shoe[Card]) -> BenchCase:
    """Every hand's showdown on a full shoe, checked for a few hands by enumeration."""
    n = deal_count(full.counts, (HAND_SIZE, HAND_SIZE))
    chosen = spot_hands(full)

    def view(rows: Any) -> dict[Hand, Tally]:
        return spot_view(rows, chosen)

    return BenchCase(
        f"Goa Gae showdown, every hand, {full.description} (brute: {SPOT_CHECK_HANDS} hands only)",
        lambda: compute_showdown(config, full).rows,
        lambda: spot_check(config, full, chosen),
        note=(
            f"engine: every player hand against every dealer hand ({n:,} deals); "
            f"the brute force of all deals is out of reach, so the brute column "
            f"enumerates every dealer hand for {SPOT_CHECK_HANDS} spread-out player "
            "hands only and compares those hands' exact counts (its time is not a "
            "full brute force; the ratio is not a speed-up)"
        ),
        view=view,
    )
