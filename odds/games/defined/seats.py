"""What the engine is asked for a whole table: a dealer and ``seats`` positions, counted together.

A definition with ``seats = n`` deals its first position at n seats, each settled
against the second, the dealer (docs/reference/definitions.md, "Seats"). One seat's
odds need one seat against the dealer; a table of seats needs more, because the seats
share the dealer's hand and the shoe. Everything here is counted as hand *classes*
(what some bet reads of a hand: its strength when a bet reads the winner, and the
features the bets read of the seat or the dealer), never as outcomes, so payouts and
stakes come later (:mod:`odds.games.defined.whole_table`):

* **the dealer and two seats** — the engine's three-hand joint
  (:func:`odds.engine.triple_class_distribution`, exact with card removal). By
  exchangeability every pair of seats has this joint, so it gives the exact EV and
  variance of any set of bets on any set of seats, and its marginal is one seat
  against the dealer (the same deals as the bets' own tables);
* **a hand-only bet on every seat** — a bet that reads the seat's own hand alone
  (a pair) ignores the dealer; the n hands are counted one after another
  (:func:`odds.engine.sequential_distribution`) with the card types merged as far as
  the bet reads (by rank for a pair) and, where the bet sees only a hand's shape,
  compositions that differ by a relabelling of the types merged: exact and quick;
* **the dealer and every seat** — the n seats' total of a bet against the dealer.
  Given the dealer's hand the seats are *not* independent (each seat's cards leave
  the next seat's shoe), so their total is no sum over dealer hands of products of
  one seat's distribution; it is an (n + 1)-hand count, exact here when its work is
  within bounds (small shoes), else :mod:`odds.games.defined.seat_simulation` deals
  it and says so.

Every count's total is asserted, and the work of each is estimated before it starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

from odds.core.cards import Card
from odds.core.errors import OddsError
from odds.engine import sequential_distribution, triple_class_array
from odds.engine.sequential import sequential_steps, shape_classifier
from odds.games.defined import counting, ranking, threshold
from odds.games.defined.rounds import RoundKey, bet_needs
from odds.games.defined.schema import Definition

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig

#: The most (composition, hand) steps an exact count of every seat may take
#: (:func:`odds.engine.sequential.sequential_steps`; a few seconds at most).
MAX_SEQUENTIAL_STEPS = 200_000
#: The most hand-pair corrections the three-hand joint may take for hands of three
#: cards or more (the closed form of one or two cards has none).
MAX_TRIPLE_WORK = 40_000_000

#: A hand's class as the whole table reads it: (strength or None, features read).
HandClass = tuple[Any, tuple[tuple[str, Any], ...]]


def has_whole_table(definition: Definition) -> bool:
    """Whether the definition deals seats against a dealer, hand by hand (no tableau, no draw)."""
    deal = definition.deal
    return deal.seats > 1 and deal.tableau is None and not deal.draw_at_most


def counting_text(definition: Definition, types: int, shoe_size: int) -> str:
    """How the whole table is counted, for the report's counting paragraph ("" without seats,
    or where the whole table is not analysed: a note says why)."""
    deal = definition.deal
    if not has_whole_table(definition) or shoe_size < deal.cards * (deal.seats + 1):
        return ""
    try:
        check_three_hands(definition, types, deal.cards)
    except OddsError:
        return ""
    dealer = definition.deal.positions[1]
    n = definition.deal.seats
    return (
        f" The whole-table sections count the {dealer} and two seats together (three hands, "
        "exact: the engine's three-hand joint), a bet that reads the seat's own hand alone on "
        f"all {n} seats (exact, by the card types it reads), and the {n} seats' total of the "
        f"bets against the {dealer} exactly where that count of {n + 1} hands is within "
        f"bounds, else by a seeded simulation: given the {dealer}'s hand the seats still "
        "share the shoe, so their total is no product of one seat's distribution."
    )


def hand_only(definition: Definition, bet: Any) -> bool:
    """Whether a bet reads the seat's own hand and nothing else (no winner, no dealer)."""
    seat, dealer = definition.deal.positions
    winner, reads = bet_needs(bet, definition.deal.positions)
    return not winner and not reads[dealer] and bool(reads[seat])


class SeatClasses:
    """Hands as the whole table reads them, and one seat's round against the dealer settled.

    A class is ``(strength, view)``: the strength when some bet reads the winner, the
    features any bet reads of the seat or the dealer (one classifier for both: a hand
    dealt to a seat could have been the dealer's). :meth:`settle` turns a (seat class,
    dealer class) pair into each bet's outcome key, as the bets' own counting settles
    their rounds (:meth:`odds.games.defined.game.DefinedGame.settle_rounds`).
    """

    def __init__(self, game: DefinedGame, config: DefinedConfig, types: Sequence[Card]) -> None:
        definition = game.definition
        self.game, self.config, self.definition = game, config, definition
        self.positions = definition.deal.positions
        self.needs = [bet_needs(bet, self.positions) for bet in definition.bets]
        self.winner = any(winner for winner, _ in self.needs)
        names: set[str] = set()
        for _, reads in self.needs:
            names |= reads[self.positions[0]] | reads[self.positions[1]]
        self.exceptions = self.winner and ranking.has_exceptions(definition)
        if self.exceptions:  # the category decides an exception (``beats``)
            names.add("category")
        self.names = frozenset(names)
        self._names = set(names)
        self._classes: dict[tuple[int, ...], HandClass] = {}
        self.classifier = counting.classifier_for(definition, types)
        self._reads: dict[tuple[int, int, tuple[Any, ...]], tuple[Any, ...]] = {}

    def __call__(self, hand: tuple[int, ...]) -> HandClass:
        found = self._classes.get(hand)
        if found is None:
            strength = self.classifier.strength(hand) if self.winner else None
            found = self._classes[hand] = (strength, self.classifier.view(hand, self._names))
        return found

    def symmetries(self) -> list[tuple[int, ...]]:
        """Type permutations the classes are invariant under (the suits', when nothing
        reads a particular suit or colour)."""
        return counting._symmetries(self.classifier, set(self.names))

    def winner_of(self, seat: HandClass, dealer: HandClass) -> str:
        definition = self.definition
        if self.exceptions:
            index = {c.name: i for i, c in enumerate(definition.categories)}
            a, b = dict(seat[1])["category"], dict(dealer[1])["category"]
            if a is not None and b is not None:
                found = ranking._exception(definition, index[a], index[b])
                if found is not None:
                    return found
        return counting.winner_of(definition, seat[0], dealer[0])

    def round_key(self, bet_index: int, seat: HandClass, dealer: HandClass) -> RoundKey:
        """The round one seat plays against the dealer, as bet ``bet_index`` reads it."""
        winner = self.needs[bet_index][0]
        return (
            self.winner_of(seat, dealer) if winner else None,
            self._read(bet_index, 0, seat[1]),
            self._read(bet_index, 1, dealer[1]),
        )

    def _read(self, bet_index: int, side: int, view: tuple[Any, ...]) -> tuple[Any, ...]:
        """What bet ``bet_index`` reads of a position's view (remembered: a class meets
        every other class)."""
        key = (bet_index, side, view)
        found = self._reads.get(key)
        if found is None:
            names = sorted(self.needs[bet_index][1][self.positions[side]])
            features = dict(view)
            found = self._reads[key] = tuple((n, features[n]) for n in names)
        return found

    def settle(self, seat: HandClass, dealer: HandClass) -> tuple[str, ...]:
        """Every bet's outcome key for one seat's hand against the dealer's."""
        return tuple(
            self.outcome(i, self.round_key(i, seat, dealer))
            for i in range(len(self.definition.bets))
        )

    def outcome(self, bet_index: int, key: RoundKey) -> str:
        """The outcome that settles the round ``key`` of bet ``bet_index``, as the bets' own
        counting settles it (:meth:`odds.games.defined.game.DefinedGame.settled_outcome`,
        which remembers the rounds the bets settled already)."""
        return self.game.settled_outcome(self.definition.bets[bet_index], key)


@dataclass(frozen=True, eq=False)
class SeatCounts:
    """The dealer and two seats as hand classes; what the whole table's exact figures need.

    ``classes[i]`` is class ``i``; ``three[d, s, t]`` (a numpy array) the ways to deal the
    dealer a hand of class ``d``, then seat 1 one of class ``s``, then seat 2 one of class
    ``t`` (hands unordered inside, in that order between; ``C(N,k)·C(N−k,k)·C(N−2k,k)``
    deals).
    """

    classes: tuple[HandClass, ...]
    three: Any
    shoe_size: int
    size: int

    def one_seat(self) -> Any:
        """Ways per (dealer class, seat class) of two hands: the three-hand marginal, exactly
        ``C(N − 2k, k)`` times each two-hand deal (asserted)."""
        rest = comb(self.shoe_size - 2 * self.size, self.size)
        marginal = self.three.sum(axis=2)
        if (marginal % rest).any():
            raise AssertionError("three hands: a seat's marginal is not a two-hand deal")
        return marginal // rest


def three_hands(classes: SeatClasses, counts: Sequence[int]) -> SeatCounts:
    """The dealer and two seats, exact (the engine's three-hand joint), as class numbers."""
    size = classes.definition.deal.cards
    check_three_hands(classes.definition, len(counts), size)
    names, three = triple_class_array(counts, size, classes, classes.symmetries())
    return SeatCounts(tuple(names), three, sum(counts), size)


def check_three_hands(definition: Definition, types: int, size: int) -> None:
    """Refuse, before starting, a three-hand joint past its bound (hands of three or more)."""
    if size <= 2:
        return
    hands_ = counting.estimate_hands(types, size)
    work = hands_ * min(hands_, size * size * hands_ // max(types, 1))
    if work > MAX_TRIPLE_WORK:
        raise OddsError(
            f"{definition.source}: the whole table's three hands of {size} cards from {types} "
            f"card types need ~{work:,} hand-pair corrections (limit {MAX_TRIPLE_WORK:,})"
        )


# ---------------------------------------------------------------------------
# One bet on every seat


@dataclass(frozen=True)
class EverySeat:
    """Ways per sorted tuple of outcome keys, one per seat, of a hand-only bet on every seat.

    ``level`` is how finely the cards were told apart (0 value, 1 rank, 2 the card);
    ``symmetric`` whether compositions that differ by a relabelling were merged.
    """

    bet: str
    ways: dict[tuple[str, ...], int]
    level: int
    symmetric: bool


def hand_only_every_seat(
    game: DefinedGame, config: DefinedConfig, types: Sequence[Card], counts: Sequence[int]
) -> dict[str, EverySeat | None]:
    """Each hand-only bet on all seats, exact; ``None`` for a bet whose count is out of bounds."""
    definition = game.definition
    return {
        bet.name: _every_seat(game, config, bet, types, counts)
        for bet in definition.bets
        if hand_only(definition, bet)
    }


def _every_seat(
    game: DefinedGame,
    config: DefinedConfig,
    bet: Any,
    types: Sequence[Card],
    counts: Sequence[int],
) -> EverySeat | None:
    definition = game.definition
    seat = definition.deal.positions[0]
    size, number = definition.deal.cards, definition.deal.seats
    names = bet_needs(bet, definition.deal.positions)[1][seat]
    level = threshold.detail(definition, False, {seat: names})
    merged, merged_counts = threshold.merged_types(definition, types, counts, level)
    classifier = counting.classifier_for(definition, merged)
    settled: dict[RoundKey, str] = {}

    def outcome(hand: tuple[int, ...]) -> str:
        key = (None, classifier.view(hand, names), ())
        found = settled.get(key)
        if found is None:
            ways = game.settle_rounds(config, bet, {key: 1}, full_shoe=False)
            found = settled[key] = next(k for k, n in ways.items() if n)
        return found

    symmetric = shape_classifier(len(merged), size, outcome)
    if sequential_steps(merged_counts, size, number, symmetric) > MAX_SEQUENTIAL_STEPS:
        return None
    start: tuple[str, ...] = ()
    ways = sequential_distribution(
        merged_counts, size, number, outcome, _add_sorted, start, symmetric=symmetric
    )
    return EverySeat(bet.name, ways, level, symmetric)


def _add_sorted(state: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    return tuple(sorted((*state, item)))


# ---------------------------------------------------------------------------
# The dealer and every seat


#: A round of the whole table as hand classes: the dealer's and the seats' (sorted).
TableHands = tuple[int, tuple[int, ...]]


def every_seat_steps(classes: SeatClasses, counts: Sequence[int]) -> int:
    """The work of counting the dealer and every seat exactly (an upper bound)."""
    deal = classes.definition.deal
    return sequential_steps(counts, deal.cards, deal.seats + 1, False)


def dealer_and_every_seat(
    classes: SeatClasses, counts: Sequence[int], index: dict[HandClass, int]
) -> dict[TableHands, int]:
    """Ways per (dealer's class, the seats' classes sorted): the dealer then every seat, dealt
    one after another with card removal (exact; call when :func:`every_seat_steps` allows).

    The table is read only through each seat's settlement against the dealer (every bet's
    outcome, :meth:`SeatClasses.settle`), so a seat's class is replaced, as it is dealt, by
    the first class seen that settles alike against that dealer: deals that differ only by
    seats that settle alike merge as they are dealt (Mahjong 2-8's 20 tiles, dealer and three
    seats: 5.4 s of a report to under 2, the same totals). ``index`` numbers the classes
    (new ones are added to it).
    """
    deal = classes.definition.deal
    named: list[HandClass] = list(index)
    alike: dict[tuple[int, int], int] = {}  # (seat, dealer) -> the first seat settled alike
    first_of: dict[tuple[int, tuple[str, ...]], int] = {}  # (dealer, settlement) -> that seat

    def number(hand: tuple[int, ...]) -> int:
        found = classes(hand)
        n = index.setdefault(found, len(index))
        if n == len(named):
            named.append(found)
        return n

    def settled_alike(seat: int, dealer: int) -> int:
        found = alike.get((seat, dealer))
        if found is None:
            settlement = classes.settle(named[seat], named[dealer])
            found = alike[seat, dealer] = first_of.setdefault((dealer, settlement), seat)
        return found

    def fold(state: Any, hand: int) -> Any:
        if state is None:  # the dealer's hand comes first
            return (hand, ())
        dealer, seated = state
        return (dealer, tuple(sorted((*seated, settled_alike(hand, dealer)))))

    start: Any = None
    found: dict[TableHands, int] = sequential_distribution(
        counts, deal.cards, deal.seats + 1, number, fold, start
    )
    return found
