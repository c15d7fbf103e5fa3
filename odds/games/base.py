"""What every game provides: the :class:`Game` base class and the bench case shape.

A game is a package under ``odds/games/`` (see docs/guides/contributor.md, "How
to add a game"); its ``game.py`` subclasses :class:`Game` and its ``__init__`` exposes
one instance as ``GAME``, which :mod:`odds.games` discovers.
"""

from __future__ import annotations

import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from odds.core.cards import parse_cards
from odds.core.errors import PositionError
from odds.core.options import describe, to_plain
from odds.core.settlement import Settlement
from odds.core.shoe import Shoe
from odds.games.features import (
    ChartsFeature,
    CrosscheckFeature,
    InfiniteShoeFeature,
    ShoeStateFeature,
    StakesFeature,
    StrengthFeature,
)
from odds.stats.analysis import Analysis

if TYPE_CHECKING:
    from odds.engine.drawing import DealtMoments

ConfigT = TypeVar("ConfigT")


@dataclass(frozen=True)
class HandKey:
    """What settling a round needs to know of one hand (``odds audit``'s hand table).

    A game promises that a round's :class:`~odds.core.settlement.Settlement` (every
    bet's event and every hand's class label) depends only on its hands' ``key``
    values and on how their ``strength`` values compare (``None``: the keys alone
    decide). So an audit settles one example round per distinct combination and
    counts the rest in the database. The tests check the promise on sampled pairs
    of deals with equal keys.
    """

    key: Hashable
    strength: Any = None


@dataclass(frozen=True)
class BenchCase:
    """One engine-versus-brute-force timing: both must give the same answer.

    ``engine`` and ``brute`` return comparable values (e.g. probabilities per
    bet and event); ``odds bench`` times both and compares them exactly.
    ``view``, when given, turns the engine's full result into the brute force's
    shape after the timing (e.g. picks the hands a partial brute force checked),
    so the engine is timed on exactly the analysis it is credited with.

    ``clock`` is what is timed: ``"wall"`` (the call's elapsed time) or
    ``"child-cpu"`` (the CPU time of the processes the call runs: a whole
    process, imports included, however loaded the machine). ``reference`` is
    another program's time for the same analysis, ``(seconds, who and the
    source)``, printed beside the engine's.
    """

    label: str
    engine: Callable[[], Any]
    brute: Callable[[], Any] | None  # None: nothing to compare with (timing only)
    note: str = ""
    view: Callable[[Any], Any] | None = None
    clock: str = "wall"
    reference: tuple[float, str] | None = None


class Game(ABC, Generic[ConfigT]):
    """A game: its name, its paytable schema and its rules.

    ``config_type`` is a dataclass whose fields are paytable sections (see
    :mod:`odds.core.options`). ``positions`` are the hand names ``odds settle``
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
    #: Every bet the game can offer (a paytable may leave some out), for listings.
    bet_names: ClassVar[tuple[str, ...]] = ()
    hand_size: ClassVar[int] = 0
    #: Positions whose hand every row of one round shares (the banker's): a log with
    #: several rows per round must repeat the same hand there.
    shared_positions: ClassVar[tuple[str, ...]] = ()
    #: Where the paytable keeps the number of decks (``--decks``); ``None``: no decks.
    decks_path: ClassVar[tuple[str, ...] | None] = ("shoe", "decks")
    #: For a game without decks: what to say to ``--decks`` (after the game's name).
    no_decks_reason: ClassVar[str] = "has no decks"
    #: How a position's hand is written, for messages: "two cards, e.g. '9d 7c'".
    hand_example: ClassVar[str] = "cards, e.g. '9d 7c'"

    #: Hand sizes a round log may show when the rules draw cards (baccarat: 2 or 3);
    #: empty when every hand has ``hand_size`` cards.
    log_hand_sizes: ClassVar[tuple[int, ...]] = ()
    #: The most cards one round can take when the rules draw (baccarat: 6);
    #: 0 means ``hand_size`` × the number of positions.
    max_round_cards: ClassVar[int] = 0

    #: ``odds strength``: one hand's chance against the dealer.
    strength: StrengthFeature[ConfigT] | None = None
    #: ``odds crosscheck``: a seeded simulation against the exact EV.
    crosscheck: CrosscheckFeature[ConfigT] | None = None
    #: Report charts of the game's own tables (beside every bet's distribution and funnel).
    charts: ChartsFeature | None = None
    #: ``odds report --stakes``: bets played together at the user's stakes.
    stakes: StakesFeature[ConfigT] | None = None
    #: ``odds shoe`` / ``eor`` / ``exposure``: exact per-state EVs and the dealing procedure.
    shoe_state: ShoeStateFeature[ConfigT] | None = None
    #: ``odds report --decks infinite``: the analysis of cards dealt with replacement.
    infinite_shoe: InfiniteShoeFeature[ConfigT] | None = None

    def validate(self, config: ConfigT) -> None:
        """Raise :class:`odds.core.errors.OddsError` for a contradictory paytable."""

    def for_config(self, config: ConfigT) -> Game[ConfigT]:
        """The game that analyses this paytable: this one, except for a defined game whose
        options choose a reading (:meth:`odds.games.defined.game.DefinedGame.for_config`)."""
        return self

    @abstractmethod
    def analyse(self, config: ConfigT, paytable: str) -> Analysis:
        """The exact analysis of every bet of one paytable."""

    def analyse_bets(self, config: ConfigT, paytable: str) -> Analysis:
        """The analysis's bets and hand classes without the game's costlier tables of its own.

        What an audit, a claim check or a solver reads: the same bets as
        :meth:`analyse`'s. A game whose report adds tables no bet needs (Pok
        Deng's whole table, ~80% of its analysis) leaves them out here.
        """
        return self.analyse(config, paytable)

    @abstractmethod
    def settle(self, config: ConfigT, hands: Mapping[str, str], stake: Fraction) -> Settlement:
        """Settle one round given as hand texts per position."""

    def settled_events(self, config: ConfigT, hands: Mapping[str, str]) -> dict[str, str]:
        """Each bet's event key for one round given as hand texts: what a test of the outcomes
        reads (an audit's shoe-aware tests settle every seat of every round), refused as
        :meth:`settle` refuses. A game that can tell it without writing the settlement
        overrides this."""
        return {b.bet: b.event for b in self.settle(config, hands, Fraction(1)).bets}

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

    def dealt_moments(self, config: ConfigT) -> DealtMoments | None:
        """The exact mean and covariance of each shoe type's count among the cards one
        drawing round deals from the full shoe (``odds audit`` under a continuous shuffle).

        None (the default) for a game whose rounds never draw (each round a uniform
        sample of the shoe) or whose drawing deal is not counted this way yet.
        """
        return None

    def goes_on(self) -> bool:
        """Whether a round's deal may go on after a first deal of fixed size, on the rules'
        reading of it (a war, Red Dog's third card): :meth:`first_deal` then reads that deal."""
        return False

    def first_deal(self, config: ConfigT, hands: Sequence[str]) -> tuple[Any, ...] | None:
        """The cards a round showed before its deal went on, from its hands as a log writes
        them (one per position of :attr:`positions`): a uniform sample of the shoe, whatever
        the rules decide later. None (the default) for a deal that does not go on that way.
        """
        return None

    def shoe(self, config: ConfigT) -> Shoe[Any]:
        """The composition one round is dealt from.

        Default: the ``[shoe]`` section's ``build()`` (every card game's
        :class:`odds.games.cardshoe.CardShoeOptions`). A game whose set lives
        elsewhere (e.g. a tile set) overrides this.
        """
        shoe: Shoe[Any] = typing.cast(Any, config).shoe.build()
        return shoe

    def parse_hand(self, config: ConfigT, text: str) -> tuple[Any, ...]:
        """One position's hand as written in a log, as shoe types.

        Default: cards (``Kh 9h``); a tile game overrides this with its tile parser.
        Unknown symbols raise :class:`odds.core.errors.OddsError`.
        """
        return parse_cards(text)

    def read_hand(
        self, config: ConfigT, hands: Mapping[str, str], position: str
    ) -> tuple[Any, ...]:
        """One position's hand from the hands given per position, checked for size.

        A missing hand or one of the wrong size is a :class:`PositionError`
        naming the position (the CLI names its flag instead).
        """
        text = hands.get(position)
        if not text:
            raise PositionError(position, f"missing {{position}} ({self.hand_example})")
        items = self.parse_hand(config, text)
        if self.hand_size and len(items) != self.hand_size:
            size = self.hand_example.split(",")[0]
            raise PositionError(
                position, f"{{position}} must be {size}, got {len(items)}: {text!r}"
            )
        return items

    def deal_round(self, config: ConfigT, draw: Callable[[], Any]) -> dict[str, tuple[Any, ...]]:
        """One round dealt card by card (``draw()`` gives the next card), as hands per position.

        Default: ``hand_size`` cards to each position in turn. A game whose
        rules draw cards (baccarat's tableau) overrides it (``odds simulate``).
        """
        return {
            position: tuple(draw() for _ in range(self.hand_size)) for position in self.positions
        }

    def hand_text(self, items: tuple[Any, ...]) -> str:
        """Shoe types written so that :meth:`parse_hand` reads them back (logs)."""
        return " ".join(str(item) for item in items)

    def hand_keys(self, config: ConfigT) -> Callable[[tuple[Any, ...]], HandKey]:
        """How ``odds audit`` groups hands: a function from a hand's shoe types to its key.

        Default: every distinct hand (as a multiset) is its own key, which is
        always correct; a game with many hands gives coarser keys (see :class:`HandKey`).
        """
        shoe = self.shoe(config)
        return lambda items: HandKey(tuple(sorted(shoe.index(item) for item in items)))
