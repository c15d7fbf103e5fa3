"""Optional features a game declares (and the CLI asks for), beside the analysis every game has.

A :class:`odds.games.base.Game` names each feature it offers as a class
attribute holding a feature object (``strength = GoaGaeStrength()``); a game
without the feature leaves it ``None``. Commands ask ``game.strength is None``
instead of probing for methods, and the feature's type says what it returns.

Each feature lives in its game's package, in a module of its own
(``odds/games/goa_gae/strength.py``), so the rules and the analysis stay small.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

if TYPE_CHECKING:
    from odds.analysis import Analysis
    from odds.charts.model import ReportChart

ConfigT = TypeVar("ConfigT")


class StrengthResult(Protocol):
    """What ``odds strength`` prints: text for a terminal, data for ``--format json``."""

    def text(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class StrengthFeature(ABC, Generic[ConfigT]):
    """``odds strength``: one hand's chance against the dealer or several opponents."""

    @abstractmethod
    def strength(
        self, config: ConfigT, hand: str, opponents: int, trials: int, seed: int
    ) -> StrengthResult:
        """Win/tie/lose of ``hand`` against ``opponents`` hands from the rest of the shoe."""


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


class ChartsFeature(ABC):
    """Report charts of a game's own tables (every bet's charts come without asking).

    Reads the finished :class:`odds.analysis.Analysis` only (its tables, by
    key), so a game can change how it computes a table without touching its
    charts, as long as the table keeps its key and its JSON.
    """

    @abstractmethod
    def charts(self, analysis: Analysis) -> list[ReportChart]:
        """The game's charts, each anchored after the table it draws (``table:<key>``)."""


class StakesFeature(ABC, Generic[ConfigT]):
    """``odds report --stakes``: several bets played together, at the stakes the user gives."""

    #: The bet names ``--stakes`` accepts (``player=1,player-pair=0.2``).
    bets: ClassVar[tuple[str, ...]]

    @abstractmethod
    def parse(self, text: str) -> Any:
        """The stakes ``text`` names, validated: one-line :class:`odds.errors.OddsError` if not."""

    @abstractmethod
    def with_stakes(self, config: ConfigT, analysis: Analysis, stakes: Any) -> Analysis:
        """The analysis with its combined-bet tables at ``stakes`` as well as the paytable's."""
