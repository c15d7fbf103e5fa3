"""Dealing procedures as data: the paytable's ``[dealing]`` section, and dealing a shoe.

The off-the-top odds do not depend on how a shoe is dealt; what a watching
player can learn does. Each game's paytable says how its shoe or set is dealt
(one of the option sections below), and its shoe-state feature turns that into
a :class:`Procedure`: which cards are shown, which are burned face down, and
when the shoe is reshuffled. :meth:`Procedure.states` deals one shuffled shoe
and lists the states a watching player sees before each round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.core.options import option

# ---------------------------------------------------------------------------
# Paytable sections (one per kind of procedure; games pick theirs)


@dataclass(frozen=True)
class CutCardDealing:
    """A card shoe dealt to a cut card, with burn cards (Pok Deng; baccarat-like games)."""

    cut_card: int = option(
        52,
        "Cards behind the cut card: when it comes out, the round being dealt is the shoe's "
        "last, then the shoe is reshuffled.",
        minimum=0,
    )
    burn_first_card: bool = option(
        True,
        "At the start of a shoe one card is turned face up and as many cards as its points "
        "are burned face down (10, J, Q, K burn 10).",
    )
    burn_per_round: int = option(
        1, "Cards burned face down at the start of every round.", minimum=0, maximum=10
    )


@dataclass(frozen=True)
class SetDealing:
    """A tile set dealt over a fixed number of rounds, every tile face up (Mahjong 2-8)."""

    rounds: int = option(
        5,
        "Rounds dealt from one shuffled set, every tile face up, before it is reshuffled "
        "(a round deals two tiles to the banker and to each position).",
        minimum=1,
    )


@dataclass(frozen=True)
class PenetrationDealing:
    """A shoe dealt to a penetration, every card face up (blackjack)."""

    penetration: Fraction = option(
        Fraction(3, 4),
        "Share of the shoe dealt before it is reshuffled (a round starts only while less "
        "than this share has been dealt).",
        minimum=Fraction(1, 100),
        maximum=1,
    )
    players: int = option(
        1,
        "Players at the table, each playing the report's strategy chart; every card dealt is seen.",
        minimum=1,
        maximum=7,
    )


# ---------------------------------------------------------------------------
# Continuous shuffling

#: ``[dealing] shuffle = "continuous"``: a continuous shuffling machine (CSM).
CONTINUOUS = "continuous"


def every_round_from_full_shoe(dealing: object) -> bool:
    """Whether every round is dealt from the full shoe: a continuous shuffling machine
    (``shuffle = "continuous"``) or a fresh shuffle every round (``reshuffle_every_round``).

    The two are one procedure: the cards a round deals never depend on earlier rounds.
    ``shuffle`` names it as a table's equipment is named (a CSM), ``reshuffle_every_round``
    as a shoe-state study deals it; a dealing section with neither key deals shoes.
    """
    return getattr(dealing, "shuffle", "shoe") == CONTINUOUS or bool(
        getattr(dealing, "reshuffle_every_round", False)
    )


def check_shuffle(data: Mapping[str, Any], source: str) -> None:
    """Refuse, in one line, a paytable that writes a continuous shuffle and a shoe that is
    not reshuffled every round: a CSM deals every round from the full shoe, so
    ``reshuffle_every_round = false`` written beside it contradicts it (left unwritten, it
    is implied)."""
    sections = [("dealing", data.get("dealing"))]
    definition = data.get("definition")
    if isinstance(definition, Mapping):
        sections.append(("definition.dealing", definition.get("dealing")))
    for name, section in sections:
        if not isinstance(section, Mapping):
            continue
        if section.get("shuffle") == CONTINUOUS and section.get("reshuffle_every_round") is False:
            raise OddsError(
                f'{source}: {name}.shuffle = "continuous" deals every round from the full shoe, '
                f"but {name}.reshuffle_every_round = false says the shoe is dealt through: "
                "drop one of them"
            )


# ---------------------------------------------------------------------------
# Procedures

#: A round dealer: draws the round's cards with ``draw()`` and returns the ones shown.
RoundDealer = Callable[[Callable[[], int]], list[int]]


@dataclass(frozen=True)
class Procedure:
    """How one shuffled shoe is dealt, as a watching player sees it.

    * ``first_burn``: at the start of the shoe one card is turned face up and
      ``first_burn(its type)`` cards are burned face down (``None``: no such burn).
    * Each round burns ``burn_per_round`` cards face down, then deals
      ``round_cards`` cards face up — or, for games whose rounds use a varying
      number of cards, ``deal_round`` deals the round and returns the cards shown.
    * A round starts only while fewer than ``max_rounds`` rounds were dealt and
      its first card is at a position ≤ ``last_start`` (0-based; a cut card
      ``k`` cards from the end gives ``N − k``: the round that draws the cut
      card is the last), and then ``rounds_after_cut`` more rounds (baccarat
      deals one more coup after the one that drew the cut card).
      ``reshuffled_each_round``: one round per shuffle.
    """

    description: str
    round_cards: int
    max_rounds: int | None = None
    last_start: int | None = None
    first_burn: Callable[[int], int] | None = None
    burn_per_round: int = 0
    deal_round: RoundDealer | None = None
    reshuffled_each_round: bool = False
    #: Rounds still dealt once the cut card has come out (baccarat: one more coup).
    rounds_after_cut: int = 0

    @property
    def multi_round(self) -> bool:
        """Whether a watching player sees cards of one shuffle before later rounds."""
        return not self.reshuffled_each_round and self.max_rounds != 1

    def fixed_seen(self) -> tuple[int, ...] | None:
        """Cards seen before each round when that never depends on the cards (tile sets).

        Then the state before round ``k`` is the full set less a uniformly random
        ``fixed_seen()[k]`` cards: exact enumeration applies.
        """
        if (
            self.first_burn is not None
            or self.burn_per_round
            or self.deal_round is not None
            or self.max_rounds is None
        ):
            return None
        return tuple(k * self.round_cards for k in range(self.max_rounds))

    def rounds_depend_on_values(self) -> bool:
        """Whether the number of rounds dealt can depend on the cards' values."""
        return self.first_burn is not None or self.deal_round is not None

    def states(self, order: Sequence[int], full: Sequence[int]) -> list[tuple[int, ...]]:
        """The unseen counts before each round of one shuffled shoe (``order``: types dealt)."""
        unseen = list(full)
        position = 0
        cards = iter(order)
        size = len(order)

        def draw() -> int:
            nonlocal position
            try:
                card = next(cards)
            except StopIteration:
                raise _OutOfCards from None
            position += 1
            return card

        try:
            if self.first_burn is not None:
                first = draw()
                unseen[first] -= 1
                for _ in range(self.first_burn(first)):
                    draw()
            states: list[tuple[int, ...]] = []
            last_start = size if self.last_start is None else self.last_start
            extra = self.rounds_after_cut
            while self.max_rounds is None or len(states) < self.max_rounds:
                if position > last_start:  # the cut card has come out
                    if extra == 0:
                        break
                    extra -= 1
                state = tuple(unseen)
                for _ in range(self.burn_per_round):
                    draw()
                shown = (
                    self.deal_round(draw)
                    if self.deal_round is not None
                    else [draw() for _ in range(self.round_cards)]
                )
                states.append(state)
                for card in shown:
                    unseen[card] -= 1
                if self.reshuffled_each_round:
                    break
        except _OutOfCards:
            pass  # the round that ran out is not played
        return states

    def rounds_after_first(self, first: int, size: int) -> int:
        """Rounds a shoe of ``size`` cards deals when its first card is of type ``first``.

        For procedures with a first-card burn and a fixed number of cards per
        round: the number of rounds depends on the first card only.
        """
        if self.deal_round is not None:
            raise ValueError("rounds of varying size: the number of rounds is not fixed")
        position = 1 + self.first_burn(first) if self.first_burn is not None else 0
        last_start = size if self.last_start is None else self.last_start
        rounds, extra = 0, self.rounds_after_cut
        step = self.burn_per_round + self.round_cards
        while position + step <= size:
            if self.max_rounds is not None and rounds >= self.max_rounds:
                break
            if position > last_start:  # the cut card has come out
                if extra == 0:
                    break
                extra -= 1
            rounds += 1
            position += step
        return rounds


class _OutOfCards(Exception):
    """The shoe ran out during a round."""


def cut_card_procedure(
    options: CutCardDealing,
    size: int,
    round_cards: int,
    first_burn: Callable[[int], int],
    what: str,
) -> Procedure:
    """Pok Deng's procedure (and any game dealt like it) from its ``[dealing]`` options."""
    needed = options.burn_per_round + round_cards
    if options.cut_card < needed:
        raise OddsError(
            f"dealing.cut_card: {options.cut_card} cards behind the cut card cannot complete "
            f"the last round ({needed} cards: {options.burn_per_round} burned, {what})"
        )
    if options.cut_card >= size:
        raise OddsError(
            f"dealing.cut_card: {options.cut_card} is not inside the shoe ({size} cards)"
        )
    parts = ["one card turned face up, then as many burned as its points"] * bool(
        options.burn_first_card
    )
    burned = _cards(options.burn_per_round)
    parts.append(
        f"every round {burned} burned face down, then {what}"
        if options.burn_per_round
        else f"every round {what}"
    )
    parts.append(
        f"the round that draws the cut card ({options.cut_card} cards before the end) is the last"
    )
    return Procedure(
        description="; ".join(parts) + ".",
        round_cards=round_cards,
        last_start=size - options.cut_card,
        first_burn=first_burn if options.burn_first_card else None,
        burn_per_round=options.burn_per_round,
    )


def set_procedure(options: SetDealing, size: int, round_cards: int, what: str) -> Procedure:
    """A tile set dealt over ``options.rounds`` rounds of ``round_cards`` tiles, all shown."""
    if options.rounds * round_cards > size:
        most = size // round_cards
        raise OddsError(
            f"dealing.rounds: {options.rounds} rounds of {round_cards} tiles need "
            f"{options.rounds * round_cards} tiles, the set has {size} (at most {most} rounds)"
        )
    return Procedure(
        description=(
            f"{options.rounds} round{'s' if options.rounds != 1 else ''} from one shuffled set "
            f"of {size}, {what} ({round_cards} tiles a round), every tile face up; then the set "
            "is reshuffled."
        ),
        round_cards=round_cards,
        max_rounds=options.rounds,
    )


def _cards(n: int) -> str:
    return "one card" if n == 1 else f"{n} cards"


def points_burn(card_points: Callable[[int], int]) -> Callable[[int], int]:
    """The burn of a turned card: its points, 10 for a 0-point card (10, J, Q, K)."""
    return lambda t: card_points(t) or 10
