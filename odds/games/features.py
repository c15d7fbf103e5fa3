"""Optional features a game declares (and the CLI asks for), beside the analysis every game has.

A :class:`odds.games.base.Game` names each feature it offers as a class
attribute holding a feature object (``strength = GoaGaeStrength()``); a game
without the feature leaves it ``None``. Commands ask ``game.strength is None``
instead of probing for methods, and the feature's type says what it returns.

Each feature lives in a module of its own (a definition's hand strength:
``odds/games/defined/strength.py``), so the rules and the analysis stay small.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from odds.core.charts import ReportChart
    from odds.core.table import Table
    from odds.games.dealing import Procedure
    from odds.games.shoe_state import OutcomeLaw, StateEvaluator
    from odds.stats.analysis import Analysis

ConfigT = TypeVar("ConfigT")


class StrengthResult(Protocol):
    """What ``odds strength`` prints: text for a terminal, tables for ``--format json``."""

    def text(self) -> str: ...

    def tables(self) -> list[Table]: ...


class StrengthFeature(ABC, Generic[ConfigT]):
    """``odds strength``: one hand's chance against the dealer or several opponents."""

    def check(self, opponents: int, trials: int) -> None:
        """A one-line error for a request the feature cannot serve (before the hand is read)."""

    @abstractmethod
    def strength(
        self, config: ConfigT, hand: tuple[Any, ...], opponents: int, trials: int, seed: int
    ) -> StrengthResult:
        """Win/tie/lose of ``hand`` (read by the game) against ``opponents`` hands from the
        rest of the shoe."""


class SimulationResult(Protocol):
    """A seeded simulation's mean net per round and its 95% interval."""

    @property
    def mean(self) -> float: ...

    @property
    def interval(self) -> tuple[float, float]: ...

    def contains(self, value: float) -> bool: ...


class CrosscheckFeature(ABC, Generic[ConfigT]):
    """``odds crosscheck``: a seeded simulation of the analysed play against the exact EV."""

    @abstractmethod
    def exact_ev(self, config: ConfigT) -> Fraction:
        """The exact EV per round the simulation must reproduce."""

    @abstractmethod
    def simulate(self, config: ConfigT, rounds: int, seed: int) -> SimulationResult:
        """Play ``rounds`` seeded rounds of the analysed strategy."""


class InfiniteShoeFeature(ABC, Generic[ConfigT]):
    """``odds report --decks infinite``: the analysis with every card dealt with replacement
    (the limit of ever more decks, which analysts extrapolate to)."""

    @abstractmethod
    def analyse(self, game: Any, config: ConfigT, paytable: str) -> Analysis:
        """The report's analysis from an infinite shoe of the paytable's rules."""


class ChartsFeature(ABC):
    """Report charts of a game's own tables (every bet's charts come without asking).

    Reads the finished :class:`odds.stats.analysis.Analysis` only (its tables, by
    key), so a game can change how it computes a table without touching its
    charts, as long as the table keeps its key and its JSON.
    """

    @abstractmethod
    def charts(self, analysis: Analysis) -> list[ReportChart]:
        """The game's charts, each anchored after the table it draws (``table:<key>``)."""


class StakesFeature(ABC, Generic[ConfigT]):
    """``odds report --stakes``: several bets played together, at the stakes the user gives."""

    #: The bet names ``--stakes`` accepts (``player=1,player-pair=0.2``).
    bets: tuple[str, ...]

    @abstractmethod
    def parse(self, text: str) -> Any:
        """The stakes ``text`` names, validated (a one-line
        :class:`odds.core.errors.OddsError` if not)."""

    @abstractmethod
    def with_stakes(self, config: ConfigT, analysis: Analysis, stakes: Any) -> Analysis:
        """The analysis with its combined-bet tables at ``stakes`` as well as the paytable's."""


class ShoeStateFeature(ABC, Generic[ConfigT]):
    """``odds shoe`` / ``eor`` / ``exposure``: what each bet is worth as the shoe is dealt.

    A game implements two hooks; everything else (effects of removal, counts,
    exact and simulated exposures, report sections) is shared
    (:mod:`odds.tools.shoe`):

    * :meth:`evaluator` — built once per paytable, it gives the exact EV of
      every bet for any composition of unseen cards or tiles. Two-hand games
      build an :class:`odds.engine.polynomial.FallingPolynomial` and wrap it in a
      :class:`odds.games.shoe_state.PolynomialEvaluator`.
    * :meth:`procedure` — how one shuffled shoe is dealt (the paytable's
      ``[dealing]`` section as a :class:`odds.games.dealing.Procedure`).

    A third, optional hook, :meth:`outcome_law`, gives every bet's whole event
    law for a state (the audit's shoe-aware tests; an EV is not enough to test
    a log's outcomes against).
    """

    #: Shoes the report's simulated exposure deals (a fixed seed; reports stay quick).
    report_shoes: int = 100
    #: Whether ``odds reports`` (and ``odds report --shoe``) add the Shoe section.
    in_reports: bool = True
    #: The paytable option that lists cards (tiles) already out of the shoe.
    removed_option: str = "shoe.removed"

    @abstractmethod
    def evaluator(self, config: ConfigT) -> StateEvaluator:
        """Exact per-state EVs of every bet (expensive once, cheap per state)."""

    @abstractmethod
    def procedure(self, config: ConfigT) -> Procedure:
        """How a shoe is dealt: burns, cards shown per round, when it is reshuffled."""

    def outcome_law(self, config: ConfigT) -> OutcomeLaw | None:
        """Every bet's exact event law for any state, or None (no shoe-aware tests)."""
        del config
        return None

    def reference_evs(
        self, paytable: Any, evaluator: StateEvaluator, counts: Sequence[int]
    ) -> dict[str, Fraction]:
        """Every bet's EV by the game's full analysis of the composition ``counts``.

        The reference ``odds bench`` times the evaluator against: the paytable
        with the missing cards in :attr:`removed_option`, analysed as
        ``odds report`` would. A game whose full analysis values another
        strategy (blackjack) overrides this.
        """
        shoe = evaluator.shoe
        missing = [
            str(getattr(item, "code", item))
            for item, full, now in zip(shoe.types, shoe.counts, counts, strict=True)
            for _ in range(full - now)
        ]
        listed = ", ".join(f'"{code}"' for code in missing)
        state = paytable.with_overrides([f"{self.removed_option}=[{listed}]"])
        evs = {bet.name: bet.stats.ev for bet in state.bet_analysis().bets}
        return {bet.name: evs[bet.name] for bet in evaluator.bets}
