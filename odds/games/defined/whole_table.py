"""The whole table of a definition with seats: its bets played together, on one hand and on many.

The single-seat analysis is right for one bet; people play a seat's bets together
(Player N and Player N Pair on the same two cards) and several seats at once, and
those results are correlated (one hand for both bets, one dealer for every seat, card
removal between every hand dealt). :mod:`odds.games.defined.seats` counts hand classes
once per shoe (:class:`TableCounts`, settled into each bet's outcome keys by the
definition's own conditions); this module pays them and derives

* **one seat, every bet**: the joint of the bets' outcomes on one hand, settled for
  any stakes into one outcome table (:meth:`WholeTable.combined_bets`);
* **two seats against one dealer**: by exchangeability every pair of seats has the
  exact joint of the dealer and two seats, so it gives the exact EV and variance of
  any set of bets on any set of seats (:class:`odds.stats.bets.PositionMoments`) and
  the two seats' total net;
* **every seat**: a hand-only bet's total, exact; a bet against the dealer's total,
  exact where the (n + 1)-hand count is within bounds, else the seeded simulation's
  (labelled approximate, its mean and SD checked against the exact ones).

:class:`WholeTable` is the analysis at the paytable's stakes (one unit on each bet)
and the user's (``odds report --stakes``: the game's declared feature, with the report's
tables in :mod:`odds.games.defined.whole_table_tables`). Nothing here names a game: the
bets, positions and titles are the definition's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import product
from math import comb, lcm
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.core.numbers import fraction_text, parse_rational, short_number
from odds.games.defined import seats
from odds.games.defined.seat_simulation import (
    DEFAULT_ROUNDS,
    DEFAULT_SEED,
    SimulationCheck,
    TableSimulation,
    simulate_table,
)
from odds.games.defined.seats import EverySeat, HandClass, SeatClasses, SeatCounts, TableHands
from odds.games.events import Event
from odds.stats.bets import Bet, Outcome, PositionMoments

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig

# ---------------------------------------------------------------------------
# Stakes


@dataclass(frozen=True)
class Stakes:
    """What one seat stakes on each of the definition's bets when they are played together.

    The paytable's stakes are one unit on each bet (:meth:`each`); :meth:`parse` reads
    the command line's ``player=1,player-pair=0.2`` (a bet left out stakes 0).
    """

    bets: tuple[str, ...]
    amounts: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        for name, value in zip(self.bets, self.amounts, strict=True):
            if value < 0:
                raise OddsError(f"--stakes: the {name} stake must not be negative, got {value}")
        if not any(self.amounts):
            raise OddsError("--stakes: at least one stake must be positive")

    @classmethod
    def each(cls, bets: Sequence[str]) -> Stakes:
        """One unit on every bet (the paytable's stakes)."""
        return cls(tuple(bets), (Fraction(1),) * len(bets))

    @classmethod
    def parse(cls, text: str, bets: Sequence[str]) -> Stakes:
        """``player=1,player-pair=0.2``: the named bets' stakes, the others 0.

        >>> Stakes.parse("player=1, player-pair=0.2", ("player", "player-pair")).text
        'player 1, player-pair 0.2'
        """
        example = ",".join(f"{b}={1 if i == 0 else '0.2'}" for i, b in enumerate(bets))
        found: dict[str, Fraction] = {}
        for part in text.split(","):
            name, sep, value = part.partition("=")
            name = name.strip()
            if not sep or not name or not value.strip():
                raise OddsError(
                    f"--stakes: expected bet=amount pairs such as '{example}', got {text!r}"
                )
            if name not in bets:
                raise OddsError(f"--stakes: unknown bet {name!r} (bets: {', '.join(bets)})")
            if name in found:
                raise OddsError(f"--stakes: {name} is given twice")
            found[name] = parse_rational(value.strip(), f"--stakes {name}", percent=False)
        return cls(tuple(bets), tuple(found.get(b, Fraction(0)) for b in bets))

    def of(self, bet: str) -> Fraction:
        return self.amounts[self.bets.index(bet)]

    @property
    def text(self) -> str:
        """``player 1, player-pair 0.2``."""
        return ", ".join(
            f"{b} {short_number(a)}" for b, a in zip(self.bets, self.amounts, strict=True)
        )

    @property
    def key(self) -> str:
        """``player=1,player-pair=1/5``: the stakes in a JSON column name."""
        return ",".join(
            f"{b}={fraction_text(a)}" for b, a in zip(self.bets, self.amounts, strict=True)
        )

    @property
    def staked(self) -> Fraction:
        """Total stake per seat."""
        return sum(self.amounts, Fraction(0))

    def per_position(self) -> dict[str, Fraction]:
        """``{bet: stake}`` for :meth:`odds.stats.bets.PositionMoments.selection`."""
        return dict(zip(self.bets, self.amounts, strict=True))


# ---------------------------------------------------------------------------
# Counted once per shoe


@dataclass(frozen=True)
class TableCounts:
    """Everything the whole table counts for one shoe, as outcome keys; nothing depends on
    payouts or stakes.

    ``one[keys]``: ways per tuple of every bet's outcome key of one seat against the
    dealer (two hands); ``two[keys1, keys2]``: of two seats against one dealer (three
    hands). ``settled[s][d]``: the bets' outcome keys of a seat of class ``s`` against a
    dealer of class ``d`` (class numbers as in ``classes``). ``every_seat``: each
    hand-only bet on every seat, exact (``None``: out of bounds). ``table``: the dealer
    and every seat as classes, exact when ``steps`` was within bounds, else
    ``simulation`` holds the dealt rounds.
    """

    classes: tuple[HandClass, ...]
    seat_counts: SeatCounts
    one: dict[tuple[str, ...], int]
    two: dict[tuple[tuple[str, ...], tuple[str, ...]], int]
    settled: tuple[tuple[tuple[str, ...], ...], ...]
    every_seat: dict[str, EverySeat | None]
    table: dict[TableHands, int] | None
    simulation: TableSimulation | None
    steps: int
    shoe_size: int


def table_counts(
    game: DefinedGame,
    config: DefinedConfig,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SEED,
) -> TableCounts:
    """The whole table's counts for the paytable's shoe (remembered by the game per shoe).

    The counts depend on the definition and the shoe only (outcome keys, not nets), so
    payout what-ifs and ``--stakes`` reuse them.
    """
    shoe = config.shoe.build()
    key = (shoe.types, shoe.counts, rounds, seed)
    cache: dict[Any, TableCounts] = game.__dict__.setdefault("_whole_table_cache", {})
    found = cache.get(key)
    if found is None:
        found = _count(game, config, shoe.types, shoe.counts, rounds, seed)
        if len(cache) >= 4:
            cache.clear()
        cache[key] = found
    return found


def _count(
    game: DefinedGame,
    config: DefinedConfig,
    types: Any,
    counts: tuple[int, ...],
    rounds: int,
    seed: int,
) -> TableCounts:
    definition = game.definition
    size, number = definition.deal.cards, definition.deal.seats
    size_total = sum(counts)
    table_cards = size * (number + 1)
    if size_total < table_cards:
        raise OddsError(
            f"the whole table needs {table_cards} cards (the {definition.deal.positions[1]} and "
            f"{number} seats); the shoe has {size_total}"
        )
    classes = SeatClasses(game, config, types)
    three = seats.three_hands(classes, counts)
    index = {c: i for i, c in enumerate(three.classes)}
    steps = seats.every_seat_steps(classes, counts)
    table = simulation = None
    if not all(seats.hand_only(definition, bet) for bet in definition.bets):
        if steps <= seats.MAX_SEQUENTIAL_STEPS:
            table = seats.dealer_and_every_seat(classes, counts, index)
        else:
            simulation = simulate_table(classes, counts, index, rounds, seed)
    ordered = tuple(index)
    settled = tuple(tuple(classes.settle(s, d) for d in ordered) for s in ordered)
    one, two = _settle(three, settled)
    _check_marginals(one, two, size_total, size)
    every = seats.hand_only_every_seat(game, config, types, counts)
    return TableCounts(
        ordered, three, one, two, settled, every, table, simulation, steps, size_total
    )


def _settle(
    three: SeatCounts, settled: Sequence[Sequence[tuple[str, ...]]]
) -> tuple[dict[tuple[str, ...], int], dict[tuple[tuple[str, ...], tuple[str, ...]], int]]:
    """One seat's and two seats' ways per outcome keys, from the class counts, in bulk: each
    (seat class, dealer class) is one tuple of the bets' outcomes, so two seats' joint is,
    per dealer class, the three-hand ways summed by those tuples (a product of matrices)."""
    import numpy as np

    kinds = len(three.classes)
    found = list(dict.fromkeys(keys for row in settled[:kinds] for keys in row[:kinds]))
    number = {keys: i for i, keys in enumerate(found)}
    # outcome[s, d]: the outcome tuple of a seat of class s against a dealer of class d
    outcome = np.array([[number[k] for k in row[:kinds]] for row in settled[:kinds]])
    ways = three.three
    one_ways = np.zeros(len(found), dtype=ways.dtype)
    np.add.at(one_ways, outcome.T.reshape(-1), three.one_seat().reshape(-1))
    two_ways = np.zeros((len(found), len(found)), dtype=ways.dtype)
    for d in range(kinds):
        chosen = np.zeros((kinds, len(found)), dtype=ways.dtype)
        chosen[np.arange(kinds), outcome[:, d]] = 1
        two_ways += chosen.T @ ways[d] @ chosen
    one = {found[i]: int(n) for i, n in enumerate(one_ways.tolist()) if n}
    two = {
        (found[i], found[j]): int(two_ways[i, j])
        for i, j in zip(*np.nonzero(two_ways), strict=True)
    }
    return one, two


def _check_marginals(
    one: Mapping[tuple[str, ...], int],
    two: Mapping[tuple[tuple[str, ...], tuple[str, ...]], int],
    shoe_size: int,
    size: int,
) -> None:
    """Assert that each seat of the two-seat joint is the one-seat table: the third hand
    multiplies every two-hand deal by ``C(N − 2k, k)`` exactly."""
    rest = comb(shoe_size - 2 * size, size)
    for seat in (0, 1):
        marginal: dict[tuple[str, ...], int] = {}
        for key, ways in two.items():
            marginal[key[seat]] = marginal.get(key[seat], 0) + ways
        if marginal != {k: w * rest for k, w in one.items()}:
            raise AssertionError(f"seat {seat + 1}: marginal is not the one-seat table")


# ---------------------------------------------------------------------------
# Settled at a paytable's payouts and the stakes


@dataclass(frozen=True)
class SeatBet:
    """One of the definition's bets as every seat plays it."""

    name: str
    title: str
    events: tuple[Event, ...]
    withholding: Fraction
    #: Reads the seat's own hand alone (no winner, no dealer): Player N Pair.
    hand_only: bool

    def net(self, key: str) -> Fraction:
        return next(e.net for e in self.events if e.key == key)

    @property
    def other_seat(self) -> str:
        """The bet's title at another seat: the title's word N becomes M (``Player M``)."""
        if re.search(r"\bN\b", self.title):
            return re.sub(r"\bN\b", "M", self.title)
        return f"{self.title} (another seat)"


@dataclass(frozen=True)
class CombinedRow:
    """One tuple of the bets' outcomes on one hand, with its ways."""

    events: tuple[Event, ...]
    ways: int

    def net(self, stakes: Stakes) -> Fraction:
        """The round's net for these stakes (per seat)."""
        return sum(
            (a * e.net for a, e in zip(stakes.amounts, self.events, strict=True)), Fraction(0)
        )


@dataclass(frozen=True)
class Selection:
    """The same stakes on each of ``positions`` seats: exact EV and variance."""

    label: str
    positions: int
    stakes: Stakes
    ev: Fraction
    variance: Fraction
    variance_if_independent: Fraction


@dataclass(frozen=True)
class WholeTable:
    """The whole-table analysis of one paytable at one or two stake settings.

    ``stakes`` are the paytable's (one unit on each bet) and, when the user gives a
    ratio, theirs.
    """

    game: DefinedGame
    config: DefinedConfig
    counts: TableCounts
    stakes: tuple[Stakes, ...]
    #: What each bet withholds per unit staked (the bets' analysis says: ``Bet.withholding``).
    withholding: tuple[tuple[str, Fraction], ...]

    @cached_property
    def bets(self) -> tuple[SeatBet, ...]:
        definition = self.game.definition
        withholding = dict(self.withholding)
        return tuple(
            SeatBet(
                b.name,
                b.title,
                self.game.events(self.config, b),
                withholding[b.name],
                seats.hand_only(definition, b),
            )
            for b in definition.bets
        )

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bets)

    @property
    def seats(self) -> int:
        return self.game.definition.deal.seats

    @property
    def dealer(self) -> str:
        return self.game.definition.deal.positions[1]

    def nets(self, keys: Sequence[str]) -> tuple[Fraction, ...]:
        return tuple(bet.net(k) for bet, k in zip(self.bets, keys, strict=True))

    @cached_property
    def moments(self) -> PositionMoments:
        """Every bet's moments on one seat and on two (the two-seat joint).

        Counted with the nets as integers over one denominator (Python integers add and
        multiply far faster than fractions), then scaled back, exactly."""
        scale = lcm(1, *(e.net.denominator for b in self.bets for e in b.events))
        joint: dict[Any, int] = {}
        for (one, two), ways in self.counts.two.items():
            key = tuple(tuple(int(n * scale) for n in self.nets(seat)) for seat in (one, two))
            joint[key] = joint.get(key, 0) + ways
        scaled = PositionMoments.of(self.names, joint)
        square = scale * scale
        return PositionMoments(
            scaled.bets,
            scaled.total,
            {k: v / scale for k, v in scaled.mean.items()},
            {k: v / square for k, v in scaled.same.items()},
            {k: v / square for k, v in scaled.cross.items()},
        )

    @property
    def combined(self) -> tuple[CombinedRow, ...]:
        """Every tuple of the bets' outcomes on one hand, in the bets' declaration order."""
        one = self.counts.one
        return tuple(
            CombinedRow(events, one[tuple(e.key for e in events)])
            for events in product(*(b.events for b in self.bets))
            if one.get(tuple(e.key for e in events))
        )

    def combined_title(self) -> str:
        titles = [b.title for b in self.bets]
        return " and ".join([", ".join(titles[:-1]), titles[-1]]) if len(titles) > 1 else titles[0]

    def combined_bets(self) -> tuple[Bet, ...]:
        """Every bet on one hand as one bet, per unit staked in total, at each stake setting.

        Nets are the round's net divided by the total stake, so the bet's EV, SD and
        volatility index are per unit staked; a withholding becomes
        ``stake · withholding / total`` per unit staked.
        """
        rows = self.combined
        found = []
        for stakes in self.stakes:
            staked = stakes.staked
            withholding = sum(
                (a * b.withholding for a, b in zip(stakes.amounts, self.bets, strict=True)),
                Fraction(0),
            )
            found.append(
                Bet(
                    "+".join(self.names),
                    f"{' + '.join(b.title for b in self.bets)} ({stakes.text})",
                    "Every bet on one seat's hand.",
                    tuple(
                        Outcome(
                            "; ".join(e.label for e in row.events),
                            row.net(stakes) / staked,
                            row.ways,
                        )
                        for row in rows
                    ),
                    withholding=withholding / staked,
                )
            )
        return tuple(found)

    def bet_sets(self) -> list[tuple[str, Stakes]]:
        """The bets the tables follow: each bet alone, then all of them at each stake setting."""
        chosen = [
            (bet.title, Stakes(self.names, tuple(Fraction(b == bet) for b in self.bets)))
            for bet in self.bets
        ]
        if len(self.bets) > 1:
            together = " + ".join(b.title for b in self.bets)
            chosen += [(f"{together} ({s.text})", s) for s in self.stakes]
        return chosen

    def selections(self) -> list[Selection]:
        """Each set of bets on 1 … n seats, exact EV and variance."""
        moments = self.moments
        found = []
        for label, stakes in self.bet_sets():
            single = moments.selection([stakes.per_position()])[1]
            for k in range(1, self.seats + 1):
                ev, variance = moments.selection([stakes.per_position()] * k)
                found.append(Selection(label, k, stakes, ev, variance, k * single))
        return found

    def two_seat_totals(self, bet: SeatBet) -> dict[Fraction, int]:
        """Ways per total net of ``bet`` on two seats (stake 1 on each)."""
        i = self.bets.index(bet)
        found: dict[Fraction, int] = {}
        for (one, two), ways in self.counts.two.items():
            total = bet.net(one[i]) + bet.net(two[i])
            found[total] = found.get(total, 0) + ways
        return dict(sorted(found.items()))

    def every_seat(self, bet: SeatBet) -> list[tuple[tuple[str, ...], Fraction, int]]:
        """A hand-only bet on every seat, exact: (outcome keys, total net, ways) rows."""
        counted = self.counts.every_seat.get(bet.name)
        if counted is None:
            return []
        return [
            (keys, sum((bet.net(k) for k in keys), Fraction(0)), ways)
            for keys, ways in sorted(counted.ways.items(), key=lambda kv: _order(bet, kv[0]))
        ]

    def simulated_every_seat(self, bet: SeatBet) -> dict[tuple[str, ...], int]:
        """The simulation's rounds per outcome keys of a hand-only bet on every seat."""
        sim = self.counts.simulation
        if sim is None:
            return {}
        i = self.bets.index(bet)
        keys = [e.key for e in bet.events]
        outcome = [keys.index(row[0][i]) for row in self.counts.settled]
        return {
            tuple(sorted(keys[k] for k in ks)): n
            for ks, n in sim.tallies(outcome, len(keys)).items()
        }

    @cached_property
    def outcome_numbers(self) -> tuple[Any, ...]:
        """Per bet, ``numbers[s, d]``: the outcome (its place among the bet's events) of a
        seat of class ``s`` against a dealer of class ``d`` (numpy arrays)."""
        import numpy as np

        settled = self.counts.settled
        found = []
        for i, bet in enumerate(self.bets):
            place = {e.key: k for k, e in enumerate(bet.events)}
            found.append(np.array([[place[keys[i]] for keys in row] for row in settled]))
        return tuple(found)

    def seat_nets(self, stakes: Stakes) -> tuple[Any, int]:
        """One seat's net at ``stakes`` for every (seat class, dealer class), as integers over
        one denominator: ``(nets[s, d], scale)``."""
        import numpy as np

        values = [
            [a * e.net for e in bet.events]
            for a, bet in zip(stakes.amounts, self.bets, strict=True)
        ]
        scale = lcm(1, *(v.denominator for row in values for v in row))
        # Integers over one denominator: 64-bit while every seat's total fits, Python's own
        # otherwise (a payout written to 30 decimals makes the scale that large).
        widest = sum(max(abs(v) for v in row) for row in values) * scale * self.seats
        kind: Any = np.int64 if widest < 2**62 else object
        nets = sum(
            np.array([int(v * scale) for v in row], dtype=kind)[numbers]
            for row, numbers in zip(values, self.outcome_numbers, strict=True)
        )
        return nets, scale

    def table_totals(self, stakes: Stakes) -> dict[Fraction, int]:
        """Ways (or simulated rounds) per total net of every seat at ``stakes``."""
        found = self.__dict__.setdefault("_table_totals", {}).get(stakes)
        if found is not None:
            return dict(found)
        nets, scale = self.seat_nets(stakes)
        if self.counts.simulation is not None:
            found = self.counts.simulation.totals(nets, scale)
        else:
            assert self.counts.table is not None
            by_numerator: dict[int, int] = {}  # integer keys: hashing a Fraction is slow
            column = {d: [int(v) for v in nets[:, d]] for d in range(nets.shape[1])}
            for (dealer, seated), ways in self.counts.table.items():
                row = column[dealer]
                total = sum(row[s] for s in seated)
                by_numerator[total] = by_numerator.get(total, 0) + ways
            found = {Fraction(n, scale): w for n, w in by_numerator.items()}
        found = dict(sorted(found.items()))
        self.__dict__["_table_totals"][stakes] = found
        return dict(found)

    def simulation_check(self, stakes: Stakes) -> SimulationCheck:
        """The simulated total of every seat at ``stakes`` against its exact mean and SD."""
        ev, variance = self.moments.selection([stakes.per_position()] * self.seats)
        return SimulationCheck.of(self.table_totals(stakes), ev, variance)


def _order(bet: SeatBet, keys: tuple[str, ...]) -> tuple[int, ...]:
    """Seats' outcome tuples by how many seats take each outcome, the bet's first outcome
    fewest first (no pair, one pair, … for a Pair bet listed as pair, no pair)."""
    order = [e.key for e in bet.events]
    return tuple(keys.count(k) for k in order)


def whole_table(
    game: DefinedGame,
    config: DefinedConfig,
    bets: Sequence[Bet],
    stakes: Stakes | None = None,
    rounds: int | None = None,
    seed: int | None = None,
) -> WholeTable:
    """The whole-table analysis at the paytable's stakes (1 on each bet), and ``stakes``
    when given (the Python API of ``odds report --stakes``); ``bets`` are the bets'
    analysis (what each withholds).

    >>> from odds.games.paytable import load
    >>> paytable = load("pok-deng")
    >>> game, bets = paytable.game, paytable.bet_analysis().bets
    >>> stakes = Stakes.parse("player=1,player-pair=0.2", ("player", "player-pair"))
    >>> table = whole_table(game, paytable.config, bets, stakes)
    >>> [bet.stats.ev for bet in table.combined_bets()]
    [Fraction(-11864185, 184489578), Fraction(-105446749, 2767343670)]
    """
    names = tuple(b.name for b in game.definition.bets)
    paytables = Stakes.each(names)
    settings = (paytables,) if stakes is None or stakes == paytables else (paytables, stakes)
    counts = table_counts(
        game,
        config,
        DEFAULT_ROUNDS if rounds is None else rounds,
        DEFAULT_SEED if seed is None else seed,
    )
    withholding = tuple((b.name, Fraction(b.withholding)) for b in bets)
    return WholeTable(game, config, counts, settings, withholding)
