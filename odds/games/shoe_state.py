"""What a game provides for shoe-state questions: an evaluator of exact per-state EVs.

A *state* is the composition of the cards (or tiles) a watching player has
not seen: the full shoe less every card shown so far. Burned cards are never
shown, so they stay in the state; by exchangeability the next round is dealt
from the state as if the burned cards were still in it.

A game's :class:`odds.games.features.ShoeStateFeature` builds one
:class:`StateEvaluator` per paytable (the expensive part, done once) and
evaluates it for any number of states. Shared code (effects of removal,
counts, exposures, the ``odds shoe`` table) only calls :meth:`StateEvaluator.evs`;
the exact enumeration of tile sets also uses :meth:`StateEvaluator.batch`.

The audit's shoe-aware tests need more than EVs: each bet's whole event law
for a state, which a game gives as an :class:`OutcomeLaw`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.cards import Card
from odds.core.errors import OddsError
from odds.core.shoe import Shoe

if TYPE_CHECKING:
    from odds.engine.polynomial import FallingPolynomial


@dataclass(frozen=True)
class StateBet:
    """A bet whose per-state EV is computed: its name (as in the report) and title."""

    name: str
    title: str


@dataclass(frozen=True)
class CountGroup:
    """Types a count treats alike: a rank (its suits), a tile, blackjack's ten-value cards."""

    label: str
    types: tuple[int, ...]


class StateEvaluator(ABC):
    """Exact EV of every bet for any composition below one full shoe.

    ``shoe`` is the full shoe (types and counts) the states are compositions
    of; ``round_cards`` is the fewest unseen cards a round needs (fewer is an
    impossible state); ``unit`` is the number of cards a *true count* divides
    by (52: per deck; a tile set's size: per set).
    """

    #: Whether :meth:`approximate` is faster than :meth:`evs` (a floating-point path).
    fast_path: bool = False
    #: Whether the effects of removal must add up to 0 (asserted; see :mod:`~odds.tools.shoe.eor`).
    checks_exchangeability: bool = True

    def __init__(
        self, shoe: Shoe[Any], bets: Sequence[StateBet], round_cards: int, unit: int
    ) -> None:
        self.shoe = shoe
        self.bets = tuple(bets)
        self.round_cards = round_cards
        self.unit = unit

    @property
    def full(self) -> tuple[int, ...]:
        return self.shoe.counts

    @abstractmethod
    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        """Exact EV per unit staked of every bet, dealing the next round from ``counts``."""

    def approximate(self, counts: Sequence[int]) -> dict[str, tuple[float, float]]:
        """``{bet: (EV, bound)}`` with ``|EV − exact| ≤ bound``: what simulations use.

        Default: the exact EVs (bound 0). An evaluator with a faster
        floating-point path overrides this; a simulation falls back to
        :meth:`evs` whenever ``|EV| ≤ bound`` (the sign would be in doubt), so
        which rounds are positive is always decided exactly.
        """
        return {name: (float(value), 0.0) for name, value in self.evs(counts).items()}

    def forget(self) -> None:  # noqa: B027 - a hook: most evaluators keep no cache
        """Drop any cache of evaluated states (so a benchmark times the evaluation itself)."""

    def batch(self) -> BatchEvaluator | None:
        """Integer numerators for many states at once (exact enumeration), if offered."""
        return None

    def groups(self) -> tuple[CountGroup, ...]:
        """How a count groups the types: cards by rank, anything else one group per type."""
        types = self.shoe.types
        if types and all(isinstance(t, Card) for t in types):
            ranks: dict[str, list[int]] = {}
            for i, card in enumerate(types):
                ranks.setdefault(card.rank.symbol, []).append(i)
            return tuple(CountGroup(label, tuple(members)) for label, members in ranks.items())
        return tuple(CountGroup(str(t), (i,)) for i, t in enumerate(types))

    def check(self, counts: Sequence[int]) -> tuple[int, ...]:
        """``counts`` as a state of this shoe, or a one-line error naming the problem."""
        counts = tuple(counts)
        if len(counts) != len(self.full):
            raise OddsError(f"a state needs one count per type ({len(self.full)})")
        for t, (c, f) in enumerate(zip(counts, self.full, strict=True)):
            if c < 0 or c > f:
                raise OddsError(
                    f"impossible state: {c} × {self.shoe.types[t]} unseen, "
                    f"the shoe ({self.shoe.description}) holds {f}"
                )
        if sum(counts) < self.round_cards:
            raise OddsError(
                f"impossible state: {sum(counts)} unseen cards or tiles left, "
                f"a round needs {self.round_cards}"
            )
        return counts


class BatchEvaluator(ABC):
    """Integer EV numerators for a batch of states (rows), for exact enumeration."""

    bets: tuple[str, ...]
    #: Number of types (columns of a state).
    types: int

    @abstractmethod
    def numerators(self, counts: Any) -> Any:
        """An integer array (states × bets); EV = numerator / :meth:`denominator`."""

    @abstractmethod
    def denominator(self, size: int) -> int:
        """The common denominator of every state of ``size`` cards."""

    def invariant_blocks(self) -> list[list[int]]:
        """Types every bet treats alike (exact enumeration enumerates their orbits once)."""
        return [[t] for t in range(self.types)]


class PolynomialEvaluator(StateEvaluator):
    """A :class:`StateEvaluator` over an :class:`odds.engine.polynomial.FallingPolynomial`.

    The polynomial's keys are the bets and its values their EVs (as
    :func:`odds.engine.polynomial.two_hand_polynomial` builds them): two-hand
    games (Mahjong 2-8, Pok Deng; baccarat-like games whose bets settle on the
    first cards) need only build the polynomial.
    """

    def __init__(
        self,
        shoe: Shoe[Any],
        bets: Sequence[StateBet],
        round_cards: int,
        unit: int,
        polynomial: FallingPolynomial[str],
    ) -> None:
        super().__init__(shoe, bets, round_cards, unit)
        self.polynomial = polynomial

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        return self.polynomial.fractions(self.check(counts))

    def batch(self) -> BatchEvaluator:
        return _PolynomialBatch(self.polynomial, self.full)


class _PolynomialBatch(BatchEvaluator):
    def __init__(self, polynomial: FallingPolynomial[str], full: Sequence[int]) -> None:
        self.polynomial = polynomial
        self.full = tuple(full)
        self.bets = polynomial.keys
        self.types = polynomial.types

    def numerators(self, counts: Any) -> Any:
        return self.polynomial.numerators(counts)

    def denominator(self, size: int) -> int:
        return self.polynomial.denominator(size)

    def invariant_blocks(self) -> list[list[int]]:
        return self.polynomial.invariant_blocks(self.full)


#: Each bet's event labels and ways for a batch of states: ``{bet: (labels, ways)}``, ``ways``
#: an integer array (states × events) whose rows each add up to the state's number of deals.
StateWays = dict[str, tuple[list[str], Any]]


class OutcomeLaw(ABC):
    """Every bet's exact event law for a round dealt from any composition (shoe-aware tests).

    What the audit's shoe-aware tests (:mod:`odds.tools.audit.shoe_tests`) ask of
    a game: called with a batch of states (an integer array, one row of type
    counts per state), it returns each bet's ways per event label — labels as
    the game's settlement names them, so a logged round's settled event is
    looked up directly. A game declares it through
    :meth:`odds.games.features.ShoeStateFeature.outcome_law`.

    ``given`` names the positions whose hands the law takes as already shown:
    in a game where several seats play against one shared hand (Pok Deng's
    Banker), the seats of one round are not independent given the state, but
    each seat *is* a fresh hand from the state less the shared hand and the
    seats before it. The audit reveals the shared hand first, then the seats
    one by one (any order of revealing the cards of a round gives the same
    joint law, the cards being exchangeable), so every step has an exact law
    and the steps are martingale differences. ``shared`` then holds, per
    state, the type indices of the given hands (the positions in ``given``
    order, concatenated).

    ``seconds_per_round`` is the CPU time one round's law takes, measured and
    declared (not timed on the run, so that the audit's default bound and its
    report do not depend on the machine).
    """

    given: tuple[str, ...] = ()
    seconds_per_round: float = 1e-3

    def __init__(self, round_cards: int) -> None:
        self.round_cards = round_cards

    @abstractmethod
    def __call__(self, states: Any, shared: Sequence[tuple[int, ...]] | None = None) -> StateWays:
        """Each bet's event labels and its ways for every state (row) of ``states``."""


def stacked_ways(
    states: Sequence[dict[str, dict[Any, int]]], names: dict[str, dict[str, str]]
) -> StateWays:
    """State-by-state ways (``{bet: {event key: ways}}``) as one array per bet, by label.

    Keys sharing a label are added up; integers stay exact (an object array).
    """
    import numpy as np

    found: StateWays = {}
    if not states:
        return found
    for bet, events in states[0].items():
        labels = list(dict.fromkeys(names[bet][str(k)] for k in events))
        column = {label: i for i, label in enumerate(labels)}
        ways = np.zeros((len(states), len(labels)), dtype=object)
        for i, state in enumerate(states):
            for key, w in state[bet].items():
                ways[i, column[names[bet][str(key)]]] += w
        found[bet] = (labels, ways)
    return found


class StateByStateLaw(OutcomeLaw):
    """An :class:`OutcomeLaw` from a function giving one state's ways per bet and event key."""

    def __init__(
        self,
        round_cards: int,
        ways_of: Callable[[tuple[int, ...]], dict[str, dict[Any, int]]],
        names: dict[str, dict[str, str]],
        seconds_per_round: float,
    ) -> None:
        super().__init__(round_cards)
        self.ways_of = ways_of
        self.names = names
        self.seconds_per_round = seconds_per_round

    def __call__(self, states: Any, shared: Sequence[tuple[int, ...]] | None = None) -> StateWays:
        return stacked_ways([self.ways_of(tuple(s)) for s in states.tolist()], self.names)
