"""Pok Deng at the whole table: five positions and the Pair on the same hand.

The single-position analysis is right for one bet; people bet a Player and its
Pair together, or several positions at once, and those results are correlated
(the same two cards for Player N and Player N Pair; one Banker for all
positions; card removal between every hand dealt). The counts are
:mod:`odds.games.pok_deng.table_counts`'s; this module pays them and derives

* **one position, both bets**: the (Player event, Pair event) table settled
  for any stakes into one outcome table (:func:`combined_bet`);
* **two positions against one Banker**: by exchangeability every pair of
  positions has the exact joint of the Banker and two positions, so it gives
  the exact EV and variance of any set of bets on any set of positions
  (:func:`position_moments`, :class:`odds.stats.bets.PositionMoments`);
* **all five positions**: the total's distribution, exact on small shoes and
  otherwise the seeded simulation's (labelled approximate; its mean and SD
  are checked against the exact ones, :meth:`WholeTable.simulation_check`).

:class:`WholeTable` is the whole-table analysis at the paytable's stakes (one
unit on each bet) and the user's ratio (:func:`whole_table`, the Python API of
``odds report --stakes``; :class:`PokDengStakes`, the game's declared feature).

The rule book deals one card at a time to Player 1 … 5 and the Banker, twice.
The engine deals whole hands, the Banker first: by exchangeability (no drawing
decisions) the order does not change the odds; a test shows it on a reduced shoe.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.games.events import Event, by_key
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.rules import pair_events, player_events
from odds.games.pok_deng.stakes import BETS, Stakes
from odds.games.pok_deng.table_counts import TableCounts, table_counts
from odds.games.pok_deng.table_hands import TABLE_POSITIONS, PositionEvents, TableOutcome
from odds.stats.bets import Bet, Outcome, PositionMoments

if TYPE_CHECKING:
    from odds.games.pok_deng.simulate import SimulationCheck

#: The report's tables sit under this JSON key (``positions.combined`` …).
JSON_KEY = "positions"


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


def outcome_net(outcome: TableOutcome, stakes: Stakes, config: PokDengConfig) -> Fraction:
    """The round's net of a table outcome when every position stakes ``stakes``."""
    player, pairs = outcome
    table = events(config)
    pair_total = pairs * table["pair"].net + (len(player) - pairs) * table["no-pair"].net
    return (
        stakes.player * sum((table[e].net for e in player), Fraction(0)) + stakes.pair * pair_total
    )


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

    >>> from odds.games.paytable import load
    >>> table = whole_table(load("pok-deng").config, Stakes.parse("player=1,player-pair=0.2"))
    >>> [bet.stats.ev for bet in table.combined_bets()]
    [Fraction(-11864185, 184489578), Fraction(-105446749, 2767343670)]
    """
    settings = (Stakes(),) if stakes is None or stakes == Stakes() else (Stakes(), stakes)
    return WholeTable(config, table_counts(config, rounds, seed), settings)
