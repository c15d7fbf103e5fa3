"""Dragon Tiger rules: one card each, rank against rank, and every bet's events.

Rules only (docs/rules/dragon-tiger.md). A round deals one card to the
Dragon, then one to the Tiger. Ranks order A (low), 2, …, 10, J, Q, K (high);
suits matter only to the suited tie.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from odds.core.cards import Card, Rank
from odds.games.dragon_tiger.options import DragonTigerPayouts, DragonTigerRules
from odds.games.events import Event


class DragonTigerEvent(StrEnum):
    """A Dragon Tiger bet's event keys (what the ``settle_*`` functions return).

    A :class:`enum.StrEnum`: each prints, compares and serialises as its key, so tables and
    JSON read as before; :class:`odds.games.events.Event` keys are these members.
    """

    WIN = "win"
    TIE = "tie"
    LOSE = "lose"
    SEVEN = "seven"


#: The two sides, in dealing order.
SIDES: tuple[str, str] = ("dragon", "tiger")

BIG: frozenset[Rank] = frozenset(
    {Rank.EIGHT, Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING}
)
SMALL: frozenset[Rank] = frozenset({Rank.ACE, *(Rank(v) for v in range(2, 7))})
ODD: frozenset[Rank] = frozenset(r for r in Rank if r % 2 == 1 and r != Rank.SEVEN)
EVEN: frozenset[Rank] = frozenset(r for r in Rank if r % 2 == 0)
#: Which ranks win each kind of per-side bet (a 7 is in none of them).
KINDS: dict[str, frozenset[Rank]] = {"big": BIG, "small": SMALL, "odd": ODD, "even": EVEN}


def order(rank: Rank) -> int:
    """A card's place in the ranking: A = 1 (lowest) … K = 13 (highest)."""
    return int(rank)


@dataclass(frozen=True, order=True)
class Round:
    """What the bets need to know about a round: both ranks, and whether the suits match."""

    dragon: Rank
    tiger: Rank
    same_suit: bool

    @classmethod
    def of(cls, dragon: Card, tiger: Card) -> Round:
        return cls(dragon.rank, tiger.rank, dragon.suit == tiger.suit)

    @property
    def winner(self) -> str:
        """``"dragon"``, ``"tiger"`` or ``"tie"``."""
        if self.dragon == self.tiger:
            return "tie"
        return "dragon" if order(self.dragon) > order(self.tiger) else "tiger"

    def card(self, side: str) -> Rank:
        return self.dragon if side == "dragon" else self.tiger


_LOSE = Fraction(-1)


def side_events(side: str, rules: DragonTigerRules, p: DragonTigerPayouts) -> tuple[Event, ...]:
    """The Dragon or Tiger bet: a win, a tie (loses half or all), a loss."""
    other = "tiger" if side == "dragon" else "dragon"
    half = rules.tie_on_main_bets == "lose-half"
    return (
        Event(DragonTigerEvent.WIN, f"{side.capitalize()} ranks higher", getattr(p, side)),
        Event(
            DragonTigerEvent.TIE,
            "tie (loses half)" if half else "tie (loses all)",
            Fraction(-1, 2) if half else _LOSE,
        ),
        Event(DragonTigerEvent.LOSE, f"{other.capitalize()} ranks higher", _LOSE),
    )


def settle_side(side: str, round_: Round) -> DragonTigerEvent:
    winner = round_.winner
    return (
        DragonTigerEvent.TIE
        if winner == "tie"
        else (DragonTigerEvent.WIN if winner == side else DragonTigerEvent.LOSE)
    )


def tie_events(p: DragonTigerPayouts) -> tuple[Event, ...]:
    return (
        Event(DragonTigerEvent.WIN, "same rank", p.tie),
        Event(DragonTigerEvent.LOSE, "different ranks", _LOSE),
    )


def suited_tie_events(p: DragonTigerPayouts) -> tuple[Event, ...]:
    return (
        Event(DragonTigerEvent.WIN, "same rank and suit", p.suited_tie),
        Event(DragonTigerEvent.LOSE, "not a suited tie", _LOSE),
    )


def settle_tie(round_: Round) -> DragonTigerEvent:
    return DragonTigerEvent.WIN if round_.winner == "tie" else DragonTigerEvent.LOSE


def settle_suited_tie(round_: Round) -> DragonTigerEvent:
    return (
        DragonTigerEvent.WIN
        if round_.winner == "tie" and round_.same_suit
        else DragonTigerEvent.LOSE
    )


KIND_TEXT = {"big": "8–K", "small": "A–6", "odd": "A 3 5 9 J K", "even": "2 4 6 8 10 Q"}


_OPPOSITE = {"big": "small", "small": "big", "odd": "even", "even": "odd"}


def kind_events(side: str, kind: str, p: DragonTigerPayouts) -> tuple[Event, ...]:
    """Big, small, odd or even on one side's card; a 7 loses."""
    name = side.capitalize()
    pays = p.big_small if kind in ("big", "small") else p.odd_even
    return (
        Event(DragonTigerEvent.WIN, f"{name} card {KIND_TEXT[kind]}", pays),
        Event(DragonTigerEvent.SEVEN, f"{name} card 7", _LOSE),
        Event(DragonTigerEvent.LOSE, f"{name} card {KIND_TEXT[_OPPOSITE[kind]]}", _LOSE),
    )


def settle_kind(side: str, kind: str, round_: Round) -> DragonTigerEvent:
    rank = round_.card(side)
    if rank == Rank.SEVEN:
        return DragonTigerEvent.SEVEN
    return DragonTigerEvent.WIN if rank in KINDS[kind] else DragonTigerEvent.LOSE
