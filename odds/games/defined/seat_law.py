"""One seat's exact outcome law given the dealer's hand: the shoe-aware audit of a table with seats.

Several seats play one dealer hand (Pok Deng's five positions against the Banker), so
the seats of one round are not independent given the shoe state; each seat *is* a
fresh hand from the state less the dealer's hand and the seats shown before it. The
audit reveals the dealer's hand first, then the seats one by one
(:class:`odds.games.shoe_state.OutcomeLaw`, ``given``), and asks for this law at
every step.

For any definition with ``seats`` (:func:`odds.games.defined.seats.has_whole_table`):
every hand of the deal's size is classified once, as the whole table classifies it
(:class:`odds.games.defined.seats.SeatClasses`); a dealer class settles every seat
class into each bet's outcome once (remembered); a batch of states is then one array of
each hand's ways per state (products of ``C(count, multiplicity)``) summed by outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, factorial
from typing import TYPE_CHECKING, Any

from odds.engine import hands as engine_hands
from odds.games.defined.seats import SeatClasses
from odds.games.shoe_state import OutcomeLaw, StateWays

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig


class SeatLaw(OutcomeLaw):
    """Each bet's ways per outcome label for one seat, given the dealer's hand, per state."""

    seconds_per_round = 1e-3  # measured: Pok Deng's five seats and Banker, about 1 ms

    def __init__(self, game: DefinedGame, config: DefinedConfig) -> None:
        import numpy as np

        definition = game.definition
        size = definition.deal.cards
        super().__init__(size)
        self.given = (definition.deal.positions[1],)
        shoe = config.shoe.build()
        self.classes = SeatClasses(game, config, shoe.types)
        self.hands = [hand for hand, _ in engine_hands(shoe.counts, size)]
        # each hand as (type, multiplicity) slots, padded with multiplicity 0
        slots = [sorted({t: hand.count(t) for t in hand}.items()) for hand in self.hands]
        width = max(len(s) for s in slots)
        self.slot_type = np.array([[t for t, _ in s] + [0] * (width - len(s)) for s in slots])
        self.slot_count = np.array([[m for _, m in s] + [0] * (width - len(s)) for s in slots])
        self.divisor = np.prod(np.vectorize(factorial)(self.slot_count), axis=1)
        self.seat_class = [self.classes(hand) for hand in self.hands]
        # the distinct seat classes, and each hand's: a dealer class settles each class once
        self.distinct = list(dict.fromkeys(self.seat_class))
        number = {c: i for i, c in enumerate(self.distinct)}
        self.class_of_hand = np.array([number[c] for c in self.seat_class], dtype=np.int64)
        self.bets = [bet.name for bet in definition.bets]
        events = [game.events(config, bet) for bet in definition.bets]
        self.labels = [list(dict.fromkeys(e.label for e in listed)) for listed in events]
        self.label_of = [{e.key: e.label for e in listed} for listed in events]
        self._columns: dict[Any, list[Any]] = {}

    def _columns_for(self, dealer: tuple[int, ...]) -> list[Any]:
        """Per bet, each seat hand's outcome against this dealer hand, as a 0/1 matrix (seat
        hands × the bet's labels): a state's ways per label are then one product."""
        import numpy as np

        dealer_class = self.classes(dealer)
        found = self._columns.get(dealer_class)
        if found is None:
            settled = [self.classes.settle(seat, dealer_class) for seat in self.distinct]
            found = []
            for b in range(len(self.bets)):
                by_class = [self.labels[b].index(self.label_of[b][keys[b]]) for keys in settled]
                place = np.array(by_class, dtype=np.int64)[self.class_of_hand]
                chosen = np.zeros((len(place), len(self.labels[b])), dtype=np.int64)
                chosen[np.arange(len(place)), place] = 1
                found.append(chosen)
            self._columns[dealer_class] = found
        return found

    def hand_ways(self, states: Any) -> Any:
        """Every hand's ways in every state (states × hands), exact in int64."""
        import numpy as np

        states = np.asarray(states, dtype=np.int64)
        if states.size and states.min() >= 0:
            # C(count, multiplicity) looked up per slot: the same integers as the falling
            # factorials below divided by the multiplicities' factorials, with no division
            most = int(self.slot_count.max())
            table = np.array(
                [[comb(c, m) for m in range(most + 1)] for c in range(int(states.max()) + 1)],
                dtype=np.int64,
            )
            ways = table[states[:, self.slot_type[:, 0]], self.slot_count[:, 0]]
            for j in range(1, self.slot_type.shape[1]):
                ways *= table[states[:, self.slot_type[:, j]], self.slot_count[:, j]]
            return ways
        ways = np.ones((len(states), len(self.hands)), dtype=np.int64)
        for j in range(self.slot_type.shape[1]):
            counts = states[:, self.slot_type[:, j]]
            taken = self.slot_count[:, j]
            for k in range(int(taken.max())):  # the falling factorial c (c-1) … (c-m+1)
                ways *= np.where(taken > k, counts - k, 1)
        return ways // self.divisor

    def __call__(self, states: Any, shared: Sequence[tuple[int, ...]] | None = None) -> StateWays:
        import numpy as np

        if shared is None or len(shared) != len(states):
            raise ValueError("a seat's law needs the dealer's hand of every state")
        ways = self.hand_ways(states)
        found: StateWays = {}
        rows_of: dict[tuple[int, ...], list[int]] = {}
        for row, dealer in enumerate(shared):
            rows_of.setdefault(tuple(sorted(dealer)), []).append(row)
        tables = [np.zeros((len(states), len(labels)), dtype=np.int64) for labels in self.labels]
        for dealer, listed in rows_of.items():
            rows = np.array(listed, dtype=np.int64)
            chosen_ways = ways[rows]
            for b, chosen in enumerate(self._columns_for(dealer)):
                tables[b][rows] = chosen_ways @ chosen
        for b, name in enumerate(self.bets):
            found[name] = (self.labels[b], tables[b])
        return found
