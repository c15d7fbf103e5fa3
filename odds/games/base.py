"""What every game module provides, and the shape of a settled round."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Generic, TypeVar

from odds.analysis import Analysis
from odds.cards import parse_cards
from odds.config import describe, to_plain
from odds.games.features import CrosscheckFeature, ShoeStateFeature, StrengthFeature
from odds.shoe import Shoe

ConfigT = TypeVar("ConfigT")


@dataclass(frozen=True)
class SettledBet:
    """One bet of one settled round, in money.

    ``debited`` is taken when the bet is placed; ``returned`` is paid back
    after the round (stake and withholding included); ``net`` = returned − debited.
    """

    bet: str
    stake: Fraction
    debited: Fraction
    returned: Fraction
    reason: str
    event: str = ""  # the label of this result's row in the bet's outcome table

    @property
    def net(self) -> Fraction:
        return self.returned - self.debited


@dataclass(frozen=True)
class SettledHand:
    """One hand of a settled round.

    ``hand_class`` is the hand's label in the analysis's ``hand_classes``
    (so observed hands can be counted against the exact class probabilities);
    ``description`` is what a person reads.
    """

    position: str
    cards: str
    description: str
    hand_class: str


@dataclass(frozen=True)
class Settlement:
    """A settled round: the hands as read, what each hand is, and every bet."""

    hands: tuple[SettledHand, ...]
    bets: tuple[SettledBet, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BenchCase:
    """One engine-versus-brute-force timing: both must give the same answer.

    ``engine`` and ``brute`` return comparable values (e.g. probabilities per
    bet and event); ``odds bench`` times both and compares them exactly.
    ``view``, when given, turns the engine's full result into the brute force's
    shape after the timing (e.g. picks the hands a partial brute force checked),
    so the engine is timed on exactly the analysis it is credited with.
    """

    label: str
    engine: Callable[[], Any]
    brute: Callable[[], Any] | None  # None: nothing to compare with (timing only)
    note: str = ""
    view: Callable[[Any], Any] | None = None


class Game(ABC, Generic[ConfigT]):
    """A game: its name, its paytable schema and its rules.

    ``config_type`` is a dataclass whose fields are paytable sections (see
    :mod:`odds.config`). ``positions`` are the hand names ``odds settle``
    accepts (``--banker``, ``--player`` …). ``hand_size`` is the number of
    cards or tiles each position receives in a showdown game (0 for a drawing
    game such as blackjack, where hands grow); tools that deal or read whole
    rounds (simulated logs, audits) use it.

    Optional features are declared, not probed: a game that offers one sets
    the attribute to a feature object (see :mod:`odds.games.features`), the
    others leave it ``None``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    config_type: type[ConfigT]
    positions: ClassVar[tuple[str, ...]]
    hand_size: ClassVar[int] = 0

    #: ``odds strength``: one hand's chance against the dealer.
    strength: StrengthFeature[ConfigT] | None = None
    #: ``odds crosscheck``: a seeded simulation against the exact EV.
    crosscheck: CrosscheckFeature[ConfigT] | None = None
    #: ``odds shoe`` / ``eor`` / ``exposure``: exact per-state EVs and the dealing procedure.
    shoe_state: ShoeStateFeature[ConfigT] | None = None

    def validate(self, config: ConfigT) -> None:
        """Raise :class:`odds.errors.OddsError` for a contradictory paytable."""

    @abstractmethod
    def analyse(self, config: ConfigT, paytable: str) -> Analysis:
        """The exact analysis of every bet of one paytable."""

    @abstractmethod
    def settle(self, config: ConfigT, hands: Mapping[str, str], stake: Fraction) -> Settlement:
        """Settle one round given as hand texts per position."""

    def new_analysis(self, config: ConfigT, paytable: str, **fields: Any) -> Analysis:
        """An :class:`Analysis` with the parts every game fills alike (name, title, rules).

        ``fields`` are the game's own: shoe, deals, counting, bets, tables ….
        """
        return Analysis(
            game=self.name,
            title=self.title,
            paytable=paytable,
            rules=tuple(describe(config)),
            rules_plain=to_plain(config),
            **fields,
        )

    def bench_cases(self, config: ConfigT) -> list[BenchCase]:
        """Engine-versus-brute-force timings for ``odds bench``."""
        return []

    # -- hooks for tools that read or deal whole rounds (odds audit, odds simulate) --

    def shoe(self, config: ConfigT) -> Shoe[Any]:
        """The composition one round is dealt from.

        Default: the ``[shoe]`` section's ``build()`` (every card game's
        :class:`odds.games.cardshoe.CardShoeOptions`). A game whose set lives
        elsewhere (e.g. a tile set) overrides this.
        """
        return config.shoe.build()

    def parse_hand(self, config: ConfigT, text: str) -> tuple[Any, ...]:
        """One position's hand as written in a log, as shoe types.

        Default: cards (``Kh 9h``); a tile game overrides this with its tile parser.
        Unknown symbols raise :class:`odds.errors.OddsError`.
        """
        return parse_cards(text)

    def hand_text(self, items: tuple[Any, ...]) -> str:
        """Shoe types written so that :meth:`parse_hand` reads them back (logs)."""
        return " ".join(str(item) for item in items)
