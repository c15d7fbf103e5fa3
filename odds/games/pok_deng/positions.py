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
the engine reaches only on small shoes (:func:`position_total_ways`: the
compositions a deal of ten cards can leave from eight decks number about
10¹²); otherwise :mod:`odds.games.pok_deng.simulate` samples it, seeded and
labelled approximate, and its mean and SD are checked against the exact ones.

Counts do not depend on stakes: :func:`table_counts` does them once per
paytable, and :class:`WholeTable` settles them for the stakes asked
(the paytable's one unit on each bet, and the user's ratio).

The rule book deals one card at a time to Player 1 … 5 and the Banker, twice.
The engine deals whole hands, the Banker first: by exchangeability (no drawing
decisions) the order does not change the odds; a test shows it on a reduced shoe.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from odds.cards import Card, suit_symmetries
from odds.config import to_plain
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
    from odds.games.pok_deng.simulate import TableSimulation

#: Player positions at the table (the rule book's Player 1 … Player 5).
TABLE_POSITIONS = 5
#: Cards one whole-table round deals: the Banker's two and every position's two.
TABLE_CARDS = 2 * (TABLE_POSITIONS + 1)
#: The report's tables sit under this JSON key (``positions.combined`` …).
JSON_KEY = "positions"

#: A two-card hand as the whole table needs it: its value, and whether it is a pair.
HandKey = tuple[PokDengHand, bool]
#: Events of one position: (Player bet event, Player Pair bet event).
PositionEvents = tuple[str, str]


# ---------------------------------------------------------------------------
# Counting


def hand_keys(shoe: Shoe[Card]) -> Callable[[Hand], HandKey]:
    """The classifier of the whole-table counts: value class and pair, per hand of type indices."""
    types = shoe.types
    cache: dict[Hand, HandKey] = {}

    def key(hand: Hand) -> HandKey:
        found = cache.get(hand)
        if found is None:
            a, b = types[hand[0]], types[hand[1]]
            found = cache[hand] = (classify(a, b), a.rank == b.rank)
        return found

    return key


def position_events(player: HandKey, banker: HandKey, config: PokDengConfig) -> PositionEvents:
    """One position's events on both bets."""
    return (
        settle_player(player[0], banker[0], config.rules),
        "pair" if player[1] else "no-pair",
    )


def one_position_ways(config: PokDengConfig, shoe: Shoe[Card]) -> dict[PositionEvents, int]:
    """Ways per (Player event, Pair event) of one position's hand against the Banker's.

    The position's hand is dealt first, then the Banker's: the same deals as
    the single-bet analysis, so each bet's marginal is its outcome table.
    """
    key = hand_keys(shoe)
    joint = joint_class_distribution(shoe.counts, 2, key, suit_symmetries(shoe.types))
    return settle_distribution(joint, lambda pb: position_events(pb[0], pb[1], config))


def two_position_ways(
    config: PokDengConfig, shoe: Shoe[Card]
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """Ways per (position 1's events, position 2's events): the Banker and two positions.

    Hands dealt one after another with card removal, the Banker's first:
    C(N,2)·C(N−2,2)·C(N−4,2) deals. Exact (the engine's three-hand joint).
    """
    key = hand_keys(shoe)
    joint = triple_class_distribution(shoe.counts, 2, key, suit_symmetries(shoe.types))
    return settle_distribution(
        joint,
        lambda bpp: (
            position_events(bpp[1], bpp[0], config),
            position_events(bpp[2], bpp[0], config),
        ),
    )


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


def position_total_ways(
    config: PokDengConfig, shoe: Shoe[Card], positions: int
) -> dict[tuple[Fraction, Fraction], int]:
    """Ways per (total Player net, total Pair net) of ``positions`` positions, stake 1 each.

    Exact: the Banker and every position dealt one after another with card
    removal (:func:`odds.engine.sequential_distribution`). The compositions it
    walks grow like the number of ways to take ``2·positions`` cards from the
    types, so this is for shoes with few types (see :func:`totals_reachable`).
    """
    key = hand_keys(shoe)
    nets: dict[tuple[HandKey, HandKey], tuple[Fraction, Fraction]] = {}

    def fold(state: Any, hand: HandKey) -> Any:
        if state is None:  # the Banker's hand comes first
            return (hand, Fraction(0), Fraction(0))
        banker, player, pair = state
        found = nets.get((hand, banker))
        if found is None:
            settled = position_events(hand, banker, config)
            found = nets[hand, banker] = (
                event_net(settled[0], config),
                event_net(settled[1], config),
            )
        return (banker, player + found[0], pair + found[1])

    ways = sequential_distribution(shoe.counts, 2, positions + 1, key, fold, None)
    totals: dict[tuple[Fraction, Fraction], int] = {}
    for (_, player, pair), w in ways.items():
        totals[player, pair] = totals.get((player, pair), 0) + w
    return dict(sorted(totals.items()))


#: The most (composition, hand) steps :func:`position_total_ways` may take before the
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

    ``totals`` is the distribution of (total Player net, total Pair net) over
    all five positions, stake 1 each: exact ways when the shoe is small enough
    (``simulation`` is None), otherwise rounds of the seeded ``simulation``.
    """

    shoe: Shoe[Card]
    one_position: dict[PositionEvents, int]
    two_positions: dict[tuple[PositionEvents, PositionEvents], int]
    pair_counts: dict[int, int]
    totals: dict[tuple[Fraction, Fraction], int]
    simulation: TableSimulation | None


#: Counts of the paytables analysed in this process (``odds report --stakes`` analyses
#: the paytable, then re-derives the stake-dependent tables: the counting is done once).
_COUNTED: dict[str, TableCounts] = {}


def table_counts(
    config: PokDengConfig, rounds: int | None = None, seed: int | None = None
) -> TableCounts:
    """The whole table's counts for one paytable (remembered for the process)."""
    from odds.games.pok_deng import simulate

    rounds = simulate.DEFAULT_ROUNDS if rounds is None else rounds
    seed = simulate.DEFAULT_SEED if seed is None else seed
    key = json.dumps([to_plain(config), rounds, seed], sort_keys=True)
    found = _COUNTED.get(key)
    if found is not None:
        return found
    shoe = config.shoe.build()
    if shoe.size < TABLE_CARDS:
        raise OddsError(
            f"the whole table needs {TABLE_CARDS} cards (the Banker and {TABLE_POSITIONS} "
            f"positions); the shoe ({shoe.description}) has {shoe.size}"
        )
    one = one_position_ways(config, shoe)
    two = two_position_ways(config, shoe)
    check_marginals(one, two, shoe)
    simulation = None
    if totals_reachable(shoe, TABLE_POSITIONS):
        totals = position_total_ways(config, shoe, TABLE_POSITIONS)
    else:
        simulation = simulate.simulate_table(config, shoe, rounds, seed)
        totals = simulation.totals
    found = TableCounts(shoe, one, two, pair_count_ways(shoe, TABLE_POSITIONS), totals, simulation)
    if len(_COUNTED) >= 8:
        _COUNTED.clear()
    _COUNTED[key] = found
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

    @property
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
        for (player, pair), n in self.counts.totals.items():
            net = stakes.player * player + stakes.pair * pair
            found[net] = found.get(net, 0) + n
        return dict(sorted(found.items()))


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
