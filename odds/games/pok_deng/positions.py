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

The full distribution of the sum of five Player bets is a six-hand problem the
engine cannot reach (the compositions left after the Banker and two positions
already number in the millions); :mod:`odds.games.pok_deng.simulate` samples it,
seeded and labelled, and checks its mean and SD against the exact ones here.

The rule book deals one card at a time to Player 1 … 5 and the Banker, twice.
The engine deals whole hands, the Banker first: by exchangeability (no drawing
decisions) the order does not change the odds; a test shows it on a reduced shoe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from odds.bruteforce import brute_force, ordering_factor
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
from odds.games.pok_deng.game import (
    PAIR_EVENTS,
    PLAYER_EVENTS,
    PokDengConfig,
    PokDengHand,
    classify,
    settle_player,
)
from odds.numbers import fraction_text, parse_rational
from odds.shoe import Shoe
from odds.stats import Bet, Outcome, PositionMoments

if TYPE_CHECKING:
    from odds.games.pok_deng.simulate import TableSimulation

#: Player positions at the table (RULES.md §2: Player 1 … Player 5).
TABLE_POSITIONS = 5
PLAYER, PAIR = "player", "player-pair"
BETS = (PLAYER, PAIR)

#: A two-card hand as the whole table needs it: its value, and whether it is a pair.
HandKey = tuple[PokDengHand, bool]
#: Events of one position: (Player bet event, Player Pair bet event).
PositionEvents = tuple[str, str]

_EVENTS = {event.key: event for event in PLAYER_EVENTS + PAIR_EVENTS}


# ---------------------------------------------------------------------------
# Stakes


@dataclass(frozen=True)
class Stakes:
    """What one position stakes on the Player bet and on the Player Pair bet.

    The paytable's stakes are one unit on each bet (the Player bet also
    withholds ``payouts.player_withholding`` per unit). ``Stakes.parse``
    reads the command line's ``player=1,player-pair=0.2``.
    """

    player: Fraction = Fraction(1)
    pair: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        for name, value in ((PLAYER, self.player), (PAIR, self.pair)):
            if value < 0:
                raise OddsError(f"--stakes: the {name} stake must not be negative, got {value}")
        if self.player == 0 and self.pair == 0:
            raise OddsError("--stakes: at least one stake must be positive")

    @classmethod
    def parse(cls, text: str) -> Stakes:
        """``player=1,player-pair=0.2`` (a bet left out stakes 0).

        >>> Stakes.parse("player=1, player-pair=0.2")
        Stakes(player=Fraction(1, 1), pair=Fraction(1, 5))
        """
        found: dict[str, Fraction] = {}
        for part in text.split(","):
            name, sep, value = part.partition("=")
            name = name.strip()
            if not sep or not name or not value.strip():
                raise OddsError(
                    f"--stakes: expected bet=amount pairs such as 'player=1,player-pair=0.2', "
                    f"got {text!r}"
                )
            if name not in BETS:
                raise OddsError(f"--stakes: unknown bet {name!r} (bets: {', '.join(BETS)})")
            if name in found:
                raise OddsError(f"--stakes: {name} is given twice")
            found[name] = parse_rational(value.strip(), f"--stakes {name}")
        return cls(found.get(PLAYER, Fraction(0)), found.get(PAIR, Fraction(0)))

    @property
    def text(self) -> str:
        """``player 1, player-pair 1/5``."""
        return f"{PLAYER} {fraction_text(self.player)}, {PAIR} {fraction_text(self.pair)}"

    @property
    def staked(self) -> Fraction:
        """Total stake per position."""
        return self.player + self.pair

    def per_position(self) -> dict[str, Fraction]:
        """``{bet: stake}`` for :meth:`odds.stats.PositionMoments.selection`."""
        return {PLAYER: self.player, PAIR: self.pair}


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


def brute_two_position_ways(
    config: PokDengConfig, shoe: Shoe[Card]
) -> dict[tuple[PositionEvents, PositionEvents], int]:
    """The same table by the plain enumerator (every ordered sequence of six cards)."""
    key = hand_keys(shoe)

    def settle(deal: tuple[Hand, ...]) -> dict[str, tuple[PositionEvents, PositionEvents]]:
        banker, one, two = (key(hand) for hand in deal)
        events = (position_events(one, banker, config), position_events(two, banker, config))
        return {"positions": events}

    found = brute_force(shoe.counts, (2, 2, 2), settle)["positions"]
    factor = ordering_factor((2, 2, 2))
    return {key: ways // factor for key, ways in found.items()}  # type: ignore[misc]


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
            events = position_events(hand, banker, config)
            found = nets[hand, banker] = (
                event_net(events[0], config),
                event_net(events[1], config),
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


def event_net(event: str, config: PokDengConfig) -> Fraction:
    """The net per unit staked of a Player or Pair event."""
    return Fraction(_EVENTS[event].net(config.payouts))


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

    player_event: str
    pair_event: str
    player_net: Fraction
    pair_net: Fraction
    ways: int

    @property
    def label(self) -> str:
        return f"{_EVENTS[self.player_event].label}; {_EVENTS[self.pair_event].label}"

    def net(self, stakes: Stakes) -> Fraction:
        """The round's net for these stakes."""
        return stakes.player * self.player_net + stakes.pair * self.pair_net


def combined_rows(
    ways: Mapping[PositionEvents, int], config: PokDengConfig
) -> tuple[CombinedRow, ...]:
    """Every possible (Player event, Pair event) in declaration order."""
    rows = []
    for player in PLAYER_EVENTS:
        for pair in PAIR_EVENTS:
            w = ways.get((player.key, pair.key), 0)
            if w:
                rows.append(
                    CombinedRow(
                        player.key,
                        pair.key,
                        event_net(player.key, config),
                        event_net(pair.key, config),
                        w,
                    )
                )
    return tuple(rows)


def combined_bet(rows: tuple[CombinedRow, ...], stakes: Stakes, config: PokDengConfig) -> Bet:
    """Player N and Player N Pair on one hand as one bet, per unit staked in total.

    Nets are the round's net divided by the total stake, so the bet's EV is
    per unit staked; the Player bet's withholding (per unit staked on it)
    becomes ``stakes.player · withholding / total`` per unit staked.
    """
    staked = stakes.staked
    outcomes = tuple(Outcome(row.label, row.net(stakes) / staked, row.ways) for row in rows)
    withholding = stakes.player * config.payouts.player_withholding / staked
    return Bet(
        "player+player-pair",
        f"Player N + Player N Pair ({stakes.text})",
        "Both bets on one position's hand.",
        outcomes,
        withholding=withholding,
    )


def player_sum_ways(
    ways: Mapping[tuple[PositionEvents, PositionEvents], int], config: PokDengConfig
) -> dict[Fraction, int]:
    """Ways per total net of the Player bet on two positions (stake 1 on each)."""
    found: dict[Fraction, int] = {}
    for (one, two), w in ways.items():
        total = event_net(one[0], config) + event_net(two[0], config)
        found[total] = found.get(total, 0) + w
    return dict(sorted(found.items()))


@dataclass(frozen=True)
class Selection:
    """A set of bets on ``positions`` positions (the same stakes on each): exact EV and variance."""

    label: str
    positions: int
    stakes: Stakes
    ev: Fraction
    variance: Fraction
    variance_if_independent: Fraction


def selection(moments: PositionMoments, label: str, stakes: Stakes, positions: int) -> Selection:
    """The same stakes on each of ``positions`` positions."""
    per_position = stakes.per_position()
    ev, variance = moments.selection([per_position] * positions)
    single = moments.selection([per_position])[1]
    return Selection(label, positions, stakes, ev, variance, positions * single)


# ---------------------------------------------------------------------------
# Everything the report shows


@dataclass(frozen=True)
class WholeTable:
    """The whole-table analysis of one paytable (see the module's docstring).

    ``totals`` is the distribution of (total Player net, total Pair net) over
    all five positions, stake 1 each: exact ways when the shoe is small enough
    (``simulation`` is None), otherwise rounds of the seeded ``simulation``.
    """

    shoe: Shoe[Card]
    stakes: tuple[Stakes, ...]
    combined: tuple[CombinedRow, ...]
    two_positions: dict[tuple[PositionEvents, PositionEvents], int]
    moments: PositionMoments
    pair_counts: dict[int, int]
    totals: dict[tuple[Fraction, Fraction], int]
    simulation: TableSimulation | None

    def combined_bets(self, config: PokDengConfig) -> tuple[Bet, ...]:
        """Player N + Player N Pair as one bet, for each stake setting."""
        return tuple(combined_bet(self.combined, s, config) for s in self.stakes)

    def selections(self) -> list[Selection]:
        """Player, Pair and each stake setting's pair of bets on 1 … 5 positions."""
        chosen = [
            ("Player N", Stakes(Fraction(1), Fraction(0))),
            ("Player N Pair", Stakes(Fraction(0), Fraction(1))),
        ]
        chosen += [(f"Player N + Pair ({s.text})", s) for s in self.stakes]
        return [
            selection(self.moments, label, stakes, k)
            for label, stakes in chosen
            for k in range(1, TABLE_POSITIONS + 1)
        ]

    def total_distribution(self, stakes: Stakes) -> dict[Fraction, int]:
        """Ways (or simulated rounds) per total net of all five positions at ``stakes``."""
        found: dict[Fraction, int] = {}
        for (player, pair), n in self.totals.items():
            net = stakes.player * player + stakes.pair * pair
            found[net] = found.get(net, 0) + n
        return dict(sorted(found.items()))


def whole_table(
    config: PokDengConfig,
    stakes: Stakes | None = None,
    rounds: int | None = None,
    seed: int | None = None,
) -> WholeTable:
    """The whole-table analysis: the paytable's stakes (1 and 1), and ``stakes`` when given.

    ``rounds`` and ``seed`` set the simulation of the five-position totals
    (used only when their exact distribution is out of reach).
    """
    from odds.games.pok_deng import simulate

    shoe = config.shoe.build()
    need = 2 * (TABLE_POSITIONS + 1)
    if shoe.size < need:
        raise OddsError(
            f"the whole table needs {need} cards (the Banker and {TABLE_POSITIONS} positions); "
            f"the shoe ({shoe.description}) has {shoe.size}"
        )
    settings = (Stakes(),) if stakes is None or stakes == Stakes() else (Stakes(), stakes)
    one = one_position_ways(config, shoe)
    two = two_position_ways(config, shoe)
    check_marginals(one, two, shoe)
    simulation = None
    if totals_reachable(shoe, TABLE_POSITIONS):
        totals = position_total_ways(config, shoe, TABLE_POSITIONS)
    else:
        simulation = simulate.simulate_table(
            config,
            shoe,
            simulate.DEFAULT_ROUNDS if rounds is None else rounds,
            simulate.DEFAULT_SEED if seed is None else seed,
        )
        totals = simulation.totals
    return WholeTable(
        shoe,
        settings,
        combined_rows(one, config),
        two,
        position_moments(two, config),
        pair_count_ways(shoe, TABLE_POSITIONS),
        totals,
        simulation,
    )


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
            raise AssertionError(
                f"position {position + 1}'s marginal is not the one-position table"
            )
    if sum(two.values()) != deal_count(shoe.counts, (2, 2, 2)):
        raise AssertionError("two positions: the ways do not add up to the deals")
