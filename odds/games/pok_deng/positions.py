"""Pok Deng at the whole table: five positions and the Pair on the same hand.

The single-position analysis is right for one bet; people bet a Player and its
Pair together, or several positions at once, and those results are correlated
(the same two cards for Player N and Player N Pair; one Banker for all
positions; card removal between every hand dealt). This module counts

* **one position, both bets**: ways per (Player event, Pair event) over the
  position's hand and the Banker's (:func:`one_position_ways`), settled for
  any stakes into one outcome table (:func:`combined_bet`);
* **two positions against one Banker**: ways per (Player 1, Pair 1, Player 2,
  Pair 2) events from the exact joint of three hands with card removal
  (:func:`two_position_ways`, :func:`odds.engine.triple_class_distribution`).
  By exchangeability every pair of positions has this joint, so it gives the
  exact EV and variance of any set of bets on any set of positions
  (:class:`odds.stats.PositionMoments`);
* **Pairs on k positions**: the exact distribution of the number of pairs
  among k hands (:func:`pair_count_ways`), at the rank level where the
  counting collapses (only ranks decide a pair).

The full distribution of the total of five Player bets is a six-hand count
the engine reaches only on small shoes (:func:`position_hand_ways`: the
compositions a deal of ten cards can leave from eight decks number about
10¹²); otherwise :mod:`odds.games.pok_deng.simulate` samples it, seeded and
labelled approximate, and its mean and SD are checked against the exact ones.

Counts depend on the shoe alone: :func:`shoe_counts` counts hand classes once
per shoe; :func:`table_counts` settles them by a paytable's rule readings,
and :class:`WholeTable` pays them for the stakes asked (the paytable's one
unit on each bet, and the user's ratio).

The rule book deals one card at a time to Player 1 … 5 and the Banker, twice.
The engine deals whole hands, the Banker first: by exchangeability (no drawing
decisions) the order does not change the odds; a test shows it on a reduced shoe.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import comb
from typing import TYPE_CHECKING, Any

from odds.cards import Card, suit_symmetries
from odds.engine import (
    Hand,
    deal_count,
    joint_class_distribution,
    sequential_distribution,
    settle_distribution,
    triple_class_distribution,
)
from odds.errors import OddsError
from odds.games.events import Event, by_key
from odds.games.features import StakesFeature
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.rules import (
    PokDengHand,
    classify,
    pair_events,
    player_events,
    settle_player,
)
from odds.games.pok_deng.stakes import BETS, Stakes
from odds.shoe import Shoe
from odds.stats import Bet, Outcome, PositionMoments

if TYPE_CHECKING:
    from odds.analysis import Analysis
    from odds.games.pok_deng.simulate import SimulationCheck, TableSimulation

#: Player positions at the table (the rule book's Player 1 … Player 5).
TABLE_POSITIONS = 5
#: Cards one whole-table round deals: the Banker's two and every position's two.
TABLE_CARDS = 2 * (TABLE_POSITIONS + 1)
#: The report's tables sit under this JSON key (``positions.combined`` …).
JSON_KEY = "positions"

#: A two-card hand as the whole table needs it: its value, and whether it is a pair.
HandClass = tuple[PokDengHand, bool]
#: Events of one position: (Player bet event, Player Pair bet event).
PositionEvents = tuple[str, str]
#: A round of the whole table: every position's Player event (sorted) and the number of pairs.
TableOutcome = tuple[tuple[str, ...], int]
#: A round of the whole table as hands: the Banker's hand class and the positions' (sorted).
TableHands = tuple[HandClass, tuple[HandClass, ...]]


# ---------------------------------------------------------------------------
# Counting


def hand_classifier(shoe: Shoe[Card]) -> Callable[[Hand], HandClass]:
    """The classifier of the whole-table counts: value class and pair, per hand of type indices."""
    types = shoe.types
    cache: dict[Hand, HandClass] = {}

    def key(hand: Hand) -> HandClass:
        found = cache.get(hand)
        if found is None:
            a, b = types[hand[0]], types[hand[1]]
            found = cache[hand] = (classify(a, b), a.rank == b.rank)
        return found

    return key


def position_events(player: HandClass, banker: HandClass, config: PokDengConfig) -> PositionEvents:
    """One position's events on both bets."""
    return (
        settle_player(player[0], banker[0], config.rules),
        "pair" if player[1] else "no-pair",
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
        one_position_hands(shoe), lambda pb: position_events(pb[0], pb[1], config)
    )


def two_position_ways(
    config: PokDengConfig, shoe: Shoe[Card]
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """Ways per (position 1's events, position 2's events) against one Banker."""
    return settle_two(two_position_hands(shoe), config)


def settle_two(
    hands: Mapping[tuple[HandClass, HandClass, HandClass], int], config: PokDengConfig
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """The Banker-and-two-positions hand classes settled into both positions' events."""
    return settle_distribution(
        hands,
        lambda bpp: (
            position_events(bpp[1], bpp[0], config),
            position_events(bpp[2], bpp[0], config),
        ),
    )


def settle_table(hands: Mapping[TableHands, int], config: PokDengConfig) -> dict[TableOutcome, int]:
    """Whole-table hand classes (the Banker's, the positions' sorted) settled into outcomes."""
    events: dict[tuple[HandClass, HandClass], str] = {}
    found: dict[TableOutcome, int] = {}
    for (banker, players), n in hands.items():
        settled = []
        for player in players:
            event = events.get((player, banker))
            if event is None:
                event = events[player, banker] = settle_player(player[0], banker[0], config.rules)
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
    return settle_table(position_hand_ways(shoe, positions), config)


def outcome_net(outcome: TableOutcome, stakes: Stakes, config: PokDengConfig) -> Fraction:
    """The round's net of a table outcome when every position stakes ``stakes``."""
    player, pairs = outcome
    table = events(config)
    pair_total = pairs * table["pair"].net + (len(player) - pairs) * table["no-pair"].net
    return (
        stakes.player * sum((table[e].net for e in player), Fraction(0)) + stakes.pair * pair_total
    )


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
# Settling into nets and statistics


def events(config: PokDengConfig) -> dict[str, Event]:
    """Both bets' events by key (the keys do not overlap)."""
    return by_key(player_events(config.payouts) + pair_events(config.payouts))


def event_net(event: str, config: PokDengConfig) -> Fraction:
    """The net per unit staked of a Player or Pair event."""
    return Fraction(events(config)[event].net)


def position_moments(
    ways: Mapping[tuple[PositionEvents, PositionEvents], int], config: PokDengConfig
) -> PositionMoments:
    """Both bets' moments on two exchangeable positions, from the two-position ways."""
    joint: dict[tuple[tuple[Fraction, ...], tuple[Fraction, ...]], int] = {}
    for (one, two), w in ways.items():
        key = (
            tuple(event_net(e, config) for e in one),
            tuple(event_net(e, config) for e in two),
        )
        joint[key] = joint.get(key, 0) + w
    return PositionMoments.of(BETS, joint)


@dataclass(frozen=True)
class CombinedRow:
    """One (Player event, Pair event) of one hand, with its nets per unit on each bet."""

    player: Event
    pair: Event
    ways: int

    @property
    def label(self) -> str:
        return f"{self.player.label}; {self.pair.label}"

    def net(self, stakes: Stakes) -> Fraction:
        """The round's net for these stakes."""
        return stakes.player * self.player.net + stakes.pair * self.pair.net


def combined_rows(
    ways: Mapping[PositionEvents, int], config: PokDengConfig
) -> tuple[CombinedRow, ...]:
    """Every possible (Player event, Pair event), in the bets' declaration order."""
    return tuple(
        CombinedRow(player, pair, ways[player.key, pair.key])
        for player in player_events(config.payouts)
        for pair in pair_events(config.payouts)
        if ways.get((player.key, pair.key))
    )


def combined_bet(rows: tuple[CombinedRow, ...], stakes: Stakes, config: PokDengConfig) -> Bet:
    """Player N and Player N Pair on one hand as one bet, per unit staked in total.

    Nets are the round's net divided by the total stake, so the bet's EV, SD
    and volatility index are per unit staked; the Player bet's withholding
    becomes ``stakes.player · withholding / total`` per unit staked.
    """
    staked = stakes.staked
    outcomes = tuple(Outcome(row.label, row.net(stakes) / staked, row.ways) for row in rows)
    return Bet(
        "player+player-pair",
        f"Player N + Player N Pair ({stakes.text})",
        "Both bets on one position's hand.",
        outcomes,
        withholding=stakes.player * config.payouts.player_withholding / staked,
    )


@dataclass(frozen=True)
class Selection:
    """The same stakes on each of ``positions`` positions: exact EV and variance."""

    label: str
    positions: int
    stakes: Stakes
    ev: Fraction
    variance: Fraction
    variance_if_independent: Fraction


# ---------------------------------------------------------------------------
# The whole table: counts (stake-free, computed once per paytable) and stakes


@dataclass(frozen=True)
class TableCounts:
    """Everything counted for the whole table; nothing here depends on stakes.

    ``five`` is the distribution of table outcomes of all five positions
    (their Player events and the number of pairs): exact ways when the shoe is
    small enough (``simulation`` is None), otherwise rounds of the seeded
    ``simulation``. Events, not nets: payouts are applied by :class:`WholeTable`.
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


#: Shoes counted in this process (a few: what-ifs and ``--stakes`` reuse them).
_COUNTED: dict[tuple[Any, ...], ShoeCounts] = {}


def shoe_counts(shoe: Shoe[Card], rounds: int, seed: int) -> ShoeCounts:
    """The whole table's hand-key counts for one shoe (remembered for the process)."""
    from odds.games.pok_deng import simulate

    key = (shoe.types, shoe.counts, rounds, seed)
    found = _COUNTED.get(key)
    if found is not None:
        return found
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
    found = ShoeCounts(
        shoe,
        one_position_hands(shoe),
        two_position_hands(shoe),
        pair_count_ways(shoe, TABLE_POSITIONS),
        five,
        simulation,
    )
    if len(_COUNTED) >= 4:
        _COUNTED.clear()
    _COUNTED[key] = found
    return found


#: Settled counts by shoe and rule readings (payouts and stakes change none of them).
_SETTLED: dict[tuple[Any, ...], TableCounts] = {}


def table_counts(
    config: PokDengConfig, rounds: int | None = None, seed: int | None = None
) -> TableCounts:
    """The whole table's counts for one paytable's shoe and rule readings (no payouts)."""
    from odds.games.pok_deng import simulate

    shoe = config.shoe.build()
    rounds = simulate.DEFAULT_ROUNDS if rounds is None else rounds
    seed = simulate.DEFAULT_SEED if seed is None else seed
    key = (shoe.types, shoe.counts, rounds, seed, config.rules)
    found = _SETTLED.get(key)
    if found is not None:
        return found
    counted = shoe_counts(shoe, rounds, seed)
    one = settle_distribution(counted.one, lambda pb: position_events(pb[0], pb[1], config))
    two = settle_two(counted.two, config)
    check_marginals(one, two, shoe)
    if counted.simulation is not None:
        five = counted.simulation.outcomes(config.rules)
    else:
        five = settle_table(counted.five, config)
    found = TableCounts(shoe, one, two, counted.pair_counts, five, counted.simulation)
    if len(_SETTLED) >= 8:
        _SETTLED.clear()
    _SETTLED[key] = found
    return found


@dataclass(frozen=True)
class WholeTable:
    """The whole-table analysis of one paytable at one or two stake settings.

    ``stakes`` are the paytable's (one unit on each bet) and, when the user
    gives a ratio, theirs.
    """

    config: PokDengConfig
    counts: TableCounts
    stakes: tuple[Stakes, ...]

    @property
    def shoe(self) -> Shoe[Card]:
        return self.counts.shoe

    @cached_property
    def moments(self) -> PositionMoments:
        """Both bets' moments on one position and on two (the two-position joint)."""
        return position_moments(self.counts.two_positions, self.config)

    @property
    def combined(self) -> tuple[CombinedRow, ...]:
        return combined_rows(self.counts.one_position, self.config)

    def combined_bets(self) -> tuple[Bet, ...]:
        """Player N + Player N Pair as one bet, for each stake setting."""
        rows = self.combined
        return tuple(combined_bet(rows, s, self.config) for s in self.stakes)

    def bet_sets(self) -> list[tuple[str, Stakes]]:
        """The bets the tables follow: Player, Pair, and both at each stake setting."""
        chosen = [
            ("Player N", Stakes(Fraction(1), Fraction(0))),
            ("Player N Pair", Stakes(Fraction(0), Fraction(1))),
        ]
        return chosen + [(f"Player N + Player N Pair ({s.text})", s) for s in self.stakes]

    def selections(self) -> list[Selection]:
        """Each set of bets on 1 … 5 positions, exact EV and variance."""
        moments = self.moments
        found = []
        for label, stakes in self.bet_sets():
            single = moments.selection([stakes.per_position()])[1]
            for k in range(1, TABLE_POSITIONS + 1):
                ev, variance = moments.selection([stakes.per_position()] * k)
                found.append(Selection(label, k, stakes, ev, variance, k * single))
        return found

    def two_player_totals(self) -> dict[Fraction, int]:
        """Ways per total net of the Player bet on two positions (stake 1 on each)."""
        found: dict[Fraction, int] = {}
        for (one, two), w in self.counts.two_positions.items():
            total = event_net(one[0], self.config) + event_net(two[0], self.config)
            found[total] = found.get(total, 0) + w
        return dict(sorted(found.items()))

    def five_totals(self, stakes: Stakes) -> dict[Fraction, int]:
        """Ways (or simulated rounds) per total net of all five positions at ``stakes``."""
        found: dict[Fraction, int] = {}
        for outcome, n in self.counts.five.items():
            net = outcome_net(outcome, stakes, self.config)
            found[net] = found.get(net, 0) + n
        return dict(sorted(found.items()))

    def simulation_check(self, stakes: Stakes) -> SimulationCheck:
        """The simulated five-position total at ``stakes`` against its exact mean and SD."""
        from odds.games.pok_deng.simulate import SimulationCheck

        ev, variance = self.moments.selection([stakes.per_position()] * TABLE_POSITIONS)
        return SimulationCheck.of(self.five_totals(stakes), ev, variance)


def whole_table(
    config: PokDengConfig,
    stakes: Stakes | None = None,
    rounds: int | None = None,
    seed: int | None = None,
) -> WholeTable:
    """The whole-table analysis at the paytable's stakes (1 and 1), and ``stakes`` when given.

    The Python API of ``odds report --stakes``; ``rounds`` and ``seed`` set the
    simulation of the five-position totals (used only when their exact
    distribution is out of reach).

    >>> from odds.paytable import load
    >>> table = whole_table(load("pok-deng").config, Stakes.parse("player=1,player-pair=0.2"))
    >>> [bet.stats.ev for bet in table.combined_bets()]
    [Fraction(-11864185, 184489578), Fraction(-105446749, 2767343670)]
    """
    settings = (Stakes(),) if stakes is None or stakes == Stakes() else (Stakes(), stakes)
    return WholeTable(config, table_counts(config, rounds, seed), settings)


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


# ---------------------------------------------------------------------------
# ``odds report --stakes``


class PokDengStakes(StakesFeature[PokDengConfig]):
    """The whole-table section at the stakes the user gives (``player=1,player-pair=0.2``)."""

    bets = BETS

    def parse(self, text: str) -> Stakes:
        return Stakes.parse(text)

    def with_stakes(self, config: PokDengConfig, analysis: Analysis, stakes: Any) -> Analysis:
        from odds.games.pok_deng.tables import whole_table_tables

        table = whole_table(config, stakes)
        kept = tuple(t for t in analysis.tables if not t.key.startswith(f"{JSON_KEY}."))
        return dataclasses.replace(analysis, tables=kept + whole_table_tables(table))
