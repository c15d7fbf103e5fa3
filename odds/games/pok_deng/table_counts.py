"""The whole table's counts: what the engine is asked, once per shoe, settled per rule reading.

Hand classes (a hand's value and whether it is a pair) are counted for one
position with the Banker, for the Banker and two positions (the engine's
exact three-hand joint), for pairs among five positions (by rank), and for
the Banker with five positions (exact on small shoes, else the seeded
simulation of :mod:`odds.games.pok_deng.simulate`). They depend on the shoe
alone (:func:`shoe_counts`, remembered); :func:`table_counts` settles them by
a paytable's rule readings into events. Payouts and stakes come later
(:mod:`odds.games.pok_deng.positions`), so payout what-ifs (``odds solve``)
and reading variants (``odds verify``) do not recount.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from typing import Any

from odds.core.caching import cached
from odds.core.cards import Card, suit_symmetries
from odds.core.errors import OddsError
from odds.core.shoe import Shoe
from odds.engine import (
    deal_count,
    joint_class_distribution,
    sequential_distribution,
    settle_distribution,
    triple_class_distribution,
)
from odds.games.pok_deng import simulate
from odds.games.pok_deng.options import PokDengConfig, PokDengRules
from odds.games.pok_deng.rules import PokDengEvent, settle_player
from odds.games.pok_deng.simulate import TableSimulation
from odds.games.pok_deng.table_hands import (
    TABLE_CARDS,
    TABLE_POSITIONS,
    HandClass,
    PositionEvents,
    TableHands,
    TableOutcome,
    hand_classifier,
)

# ---------------------------------------------------------------------------
# Counting


def position_events(player: HandClass, banker: HandClass, rules: PokDengRules) -> PositionEvents:
    """One position's events on both bets."""
    return (
        settle_player(player[0], banker[0], rules),
        PokDengEvent.PAIR if player[1] else PokDengEvent.NO_PAIR,
    )


def one_position_hands(shoe: Shoe[Card]) -> dict[tuple[HandClass, HandClass], int]:
    """Ways per (position's hand class, Banker's hand class): the position first, then the Banker.

    The same deals as the single-bet analysis, so each bet's marginal is its
    outcome table. Rules are applied later (:func:`one_position_ways`).
    """
    key = hand_classifier(shoe)
    return joint_class_distribution(shoe.counts, 2, key, suit_symmetries(shoe.types))


def two_position_hands(shoe: Shoe[Card]) -> dict[tuple[HandClass, HandClass, HandClass], int]:
    """Ways per (Banker's, position 1's, position 2's hand class): the Banker and two positions.

    Hands dealt one after another with card removal, the Banker's first:
    C(N,2)·C(N−2,2)·C(N−4,2) deals. Exact (the engine's three-hand joint).
    """
    key = hand_classifier(shoe)
    return triple_class_distribution(shoe.counts, 2, key, suit_symmetries(shoe.types))


def one_position_ways(config: PokDengConfig, shoe: Shoe[Card]) -> dict[PositionEvents, int]:
    """Ways per (Player event, Pair event) of one position's hand against the Banker's."""
    return settle_distribution(
        one_position_hands(shoe), lambda pb: position_events(pb[0], pb[1], config.rules)
    )


def two_position_ways(
    config: PokDengConfig, shoe: Shoe[Card]
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """Ways per (position 1's events, position 2's events) against one Banker."""
    return settle_two(two_position_hands(shoe), config.rules)


def settle_two(
    hands: Mapping[tuple[HandClass, HandClass, HandClass], int], rules: PokDengRules
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """The Banker-and-two-positions hand classes settled into both positions' events."""
    return settle_distribution(
        hands,
        lambda bpp: (
            position_events(bpp[1], bpp[0], rules),
            position_events(bpp[2], bpp[0], rules),
        ),
    )


def settle_table(hands: Mapping[TableHands, int], rules: PokDengRules) -> dict[TableOutcome, int]:
    """Whole-table hand classes (the Banker's, the positions' sorted) settled into outcomes."""
    events: dict[tuple[HandClass, HandClass], str] = {}
    found: dict[TableOutcome, int] = {}
    for (banker, players), n in hands.items():
        settled = []
        for player in players:
            event = events.get((player, banker))
            if event is None:
                event = events[player, banker] = settle_player(player[0], banker[0], rules)
            settled.append(event)
        outcome = (tuple(sorted(settled)), sum(player[1] for player in players))
        found[outcome] = found.get(outcome, 0) + n
    return dict(sorted(found.items()))


def pair_count_ways(shoe: Shoe[Card], positions: int) -> dict[int, int]:
    """Ways per number of pairs among ``positions`` hands dealt one after another.

    Only ranks decide a pair, so the cards are counted by rank (13 types) and
    compositions that differ by a relabelling of ranks are merged
    (``symmetric``). The Banker's hand is unseen by these bets, so by
    exchangeability it is left out.
    """
    ranks: dict[object, int] = {}
    for card, n in zip(shoe.types, shoe.counts, strict=True):
        ranks[card.rank] = ranks.get(card.rank, 0) + n
    counts = tuple(ranks.values())
    return sequential_distribution(
        counts,
        2,
        positions,
        lambda hand: int(hand[0] == hand[1]),
        lambda pairs, pair: pairs + pair,
        0,
        symmetric=True,
    )


def position_hand_ways(shoe: Shoe[Card], positions: int) -> dict[TableHands, int]:
    """Ways per (Banker's hand class, the positions' hand classes sorted), ``positions`` positions.

    Exact: the Banker and every position dealt one after another with card
    removal (:func:`odds.engine.sequential_distribution`). The compositions it
    walks grow like the number of ways to take ``2·positions`` cards from the
    types, so this is for shoes with few types (see :func:`totals_reachable`).
    """

    def fold(state: Any, hand: HandClass) -> Any:
        if state is None:  # the Banker's hand comes first
            return (hand, ())
        banker, players = state
        return (banker, tuple(sorted((*players, hand))))

    return sequential_distribution(shoe.counts, 2, positions + 1, hand_classifier(shoe), fold, None)


def position_outcome_ways(
    config: PokDengConfig, shoe: Shoe[Card], positions: int
) -> dict[TableOutcome, int]:
    """Ways per table outcome of ``positions`` positions (exact; small shoes only)."""
    return settle_table(position_hand_ways(shoe, positions), config.rules)


#: The most (composition, hand) steps :func:`position_hand_ways` may take before the
#: whole table falls back to a simulation (about a second of work).
REACHABLE_STEPS = 5_000


def totals_reachable(shoe: Shoe[Card], positions: int) -> bool:
    """Whether the exact totals of ``positions`` positions are within reach.

    The work grows with the compositions a layer of the deal can leave: the
    ways to take ``2·j`` cards from the shoe's counts (a multiset, each type at
    most its count), at the worst layer ``j``, times the hands each can deal.
    Eight decks leave ~10¹² compositions after five hands: a simulation then.
    """
    layers = [1]  # layers[m]: multisets of m cards the counts can give
    for n in shoe.counts:
        grown = [0] * (len(layers) + n)
        for m, ways in enumerate(layers):
            for take in range(n + 1):
                grown[m + take] += ways
        layers = grown[: 2 * positions + 1]
    present = sum(1 for n in shoe.counts if n)
    worst = max(layers[2 * j] for j in range(positions + 1) if 2 * j < len(layers))
    return worst * comb(present + 1, 2) <= REACHABLE_STEPS


# ---------------------------------------------------------------------------
# Counted once per shoe, settled once per rule reading


@dataclass(frozen=True)
class TableCounts:
    """Everything counted for the whole table; nothing here depends on stakes.

    ``five`` is the distribution of table outcomes of all five positions
    (their Player events and the number of pairs): exact ways when the shoe is
    small enough (``simulation`` is None), otherwise rounds of the seeded
    ``simulation``. Events, not nets: payouts are applied by
    :class:`odds.games.pok_deng.positions.WholeTable`.
    """

    shoe: Shoe[Card]
    one_position: dict[PositionEvents, int]
    two_positions: dict[tuple[PositionEvents, PositionEvents], int]
    pair_counts: dict[int, int]
    five: dict[TableOutcome, int]
    simulation: TableSimulation | None


@dataclass(frozen=True)
class ShoeCounts:
    """The whole table's counts as hand classes: they depend on the shoe alone.

    Rule readings and payouts are applied afterwards, so the readings an audit
    compares (``odds verify``) and the payouts a solver varies reuse them.
    ``five`` holds exact ways when :func:`totals_reachable` (``simulation``
    is None), else is empty and ``simulation`` holds the rounds.
    """

    shoe: Shoe[Card]
    one: dict[tuple[HandClass, HandClass], int]
    two: dict[tuple[HandClass, HandClass, HandClass], int]
    pair_counts: dict[int, int]
    five: dict[TableHands, int]
    simulation: TableSimulation | None


@cached(maxsize=4)  # what-ifs and ``--stakes`` ask a few shoes again
def shoe_counts(shoe: Shoe[Card], rounds: int, seed: int) -> ShoeCounts:
    """The whole table's hand-key counts for one shoe (remembered for the process)."""
    if shoe.size < TABLE_CARDS:
        raise OddsError(
            f"the whole table needs {TABLE_CARDS} cards (the Banker and {TABLE_POSITIONS} "
            f"positions); the shoe ({shoe.description}) has {shoe.size}"
        )
    simulation, five = None, {}
    if totals_reachable(shoe, TABLE_POSITIONS):
        five = position_hand_ways(shoe, TABLE_POSITIONS)
    else:
        simulation = simulate.simulate_table(shoe, rounds, seed)
    return ShoeCounts(
        shoe,
        one_position_hands(shoe),
        two_position_hands(shoe),
        pair_count_ways(shoe, TABLE_POSITIONS),
        five,
        simulation,
    )


def table_counts(
    config: PokDengConfig, rounds: int | None = None, seed: int | None = None
) -> TableCounts:
    """The whole table's counts for one paytable's shoe and rule readings (no payouts)."""
    rounds = simulate.DEFAULT_ROUNDS if rounds is None else rounds
    seed = simulate.DEFAULT_SEED if seed is None else seed
    return settled_counts(config.shoe.build(), config.rules, rounds, seed)


@cached(maxsize=8)  # by shoe and rule readings: payouts and stakes change none of them
def settled_counts(shoe: Shoe[Card], rules: PokDengRules, rounds: int, seed: int) -> TableCounts:
    """The whole table's counts for one shoe, settled by the rule readings."""
    counted = shoe_counts(shoe, rounds, seed)
    one = settle_distribution(counted.one, lambda pb: position_events(pb[0], pb[1], rules))
    two = settle_two(counted.two, rules)
    check_marginals(one, two, shoe)
    if counted.simulation is not None:
        five = counted.simulation.outcomes(rules)
    else:
        five = settle_table(counted.five, rules)
    return TableCounts(shoe, one, two, counted.pair_counts, five, counted.simulation)


def check_marginals(
    one: Mapping[PositionEvents, int],
    two: Mapping[tuple[PositionEvents, PositionEvents], int],
    shoe: Shoe[Card],
) -> None:
    """Assert that each position of the two-position joint is the one-position table.

    The third hand multiplies every one-position deal by C(N − 4, 2) exactly.
    """
    rest = comb(shoe.size - 4, 2)
    for position in (0, 1):
        marginal: dict[PositionEvents, int] = {}
        for key, w in two.items():
            marginal[key[position]] = marginal.get(key[position], 0) + w
        if marginal != {k: w * rest for k, w in one.items() if w}:
            raise AssertionError(f"position {position + 1}: marginal is not the one-position table")
    if sum(two.values()) != deal_count(shoe.counts, (2, 2, 2)):
        raise AssertionError("two positions: the ways do not add up to the deals")
