"""Blackjack's vocabulary: a player's actions, the strategy chart's codes, and a chart.

An action is named three ways: the engine's letter (``"S"``, the chart's
``"P"``), the word reports print (``"stand"``) and what a user types to
``odds settle --actions`` (``"stand"`` or ``"s"``). :class:`Action` holds all
three and :meth:`Action.parse` is the one place typed text is read. A chart
cell is an action with, for a double or a surrender, the fallback when it is
not allowed (``"Dh"``: double, else hit): :class:`ChartCode`. Both are
:class:`enum.StrEnum` s, so every printed label, JSON key and CSV cell reads
exactly as the bare strings did.

>>> Action.parse("Hit"), Action.parse("p").word
(<Action.HIT: 'H'>, 'split')
>>> Action.parse("fold")
Traceback (most recent call last):
...
odds.OddsError: unknown action 'fold' (use hit, stand, double, split, surrender)
>>> code = ChartCode.of(Action.DOUBLE, Action.HIT)
>>> str(code), code.action.word, code.fallback
('Dh', 'double', <Action.HIT: 'H'>)
"""

from __future__ import annotations

from collections.abc import Container, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from odds.core.errors import OddsError


class Action(StrEnum):
    """A decision on a hand (its value is the engine's and the chart's letter)."""

    STAND = "S"
    HIT = "H"
    DOUBLE = "D"
    SPLIT = "P"
    SURRENDER = "R"
    #: Not a choice: a player blackjack is paid at once (the action of a natural).
    NATURAL = "BJ"

    @property
    def word(self) -> str:
        """What reports print and ``--actions`` takes: ``stand``, ``hit`` … ``blackjack``."""
        return _WORDS[self]

    @classmethod
    def parse(cls, text: str) -> Action:
        """An action the player took, as typed: the word or its letter, any case.

        A one-line error names an unknown one (a blackjack is not an action one takes).
        """
        found = _TYPED.get(text.strip().lower())
        if found is None:
            typed = ", ".join(_WORDS[a] for a in _TYPEABLE)
            raise OddsError(f"unknown action {text!r} (use {typed})")
        return found


#: The engine's short names for the actions (``STAND is Action.STAND``).
STAND, HIT, DOUBLE, SPLIT, SURRENDER, NATURAL = (
    Action.STAND,
    Action.HIT,
    Action.DOUBLE,
    Action.SPLIT,
    Action.SURRENDER,
    Action.NATURAL,
)

#: Ties between actions of equal value (rare, exact) go to the simplest, in this order.
PREFERENCE = (STAND, HIT, DOUBLE, SPLIT, SURRENDER, NATURAL)


def best_action(values: Mapping[Action, Fraction] | Mapping[Action, int]) -> Action:
    """The action of the highest value (ties: the simplest, :data:`PREFERENCE`)."""
    return max(values, key=lambda k: (values[k], -PREFERENCE.index(k)))


_WORDS = {
    Action.STAND: "stand",
    Action.HIT: "hit",
    Action.DOUBLE: "double",
    Action.SPLIT: "split",
    Action.SURRENDER: "surrender",
    Action.NATURAL: "blackjack",
}
#: What ``--actions`` accepts, in the order the error lists them.
_TYPEABLE = (Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)
_TYPED = {
    **{_WORDS[a]: a for a in _TYPEABLE},
    **{a.value.lower(): a for a in _TYPEABLE},
}


class ChartCode(StrEnum):
    """A strategy chart cell: the action, and after a double or surrender its fallback."""

    STAND = "S"
    HIT = "H"
    SPLIT = "P"
    DOUBLE_ELSE_HIT = "Dh"
    DOUBLE_ELSE_STAND = "Ds"
    SURRENDER_ELSE_HIT = "Rh"
    SURRENDER_ELSE_STAND = "Rs"
    SURRENDER_ELSE_SPLIT = "Rp"

    @classmethod
    def of(cls, action: Action, fallback: Action | None = None) -> ChartCode:
        """The cell for ``action`` (``fallback`` required after a double or a surrender)."""
        if action in (Action.DOUBLE, Action.SURRENDER):
            if fallback is None:
                raise ValueError(f"{action.word} needs a fallback in a chart cell")
            return cls(action.value + fallback.value.lower())
        return cls(action.value)

    @property
    def action(self) -> Action:
        """The action the cell asks for first."""
        return Action(self.value[0])

    @property
    def fallback(self) -> Action | None:
        """What to do when :attr:`action` is not allowed (None: it always is)."""
        return Action(self.value[1].upper()) if len(self.value) > 1 else None

    def choose(self, allowed: Container[str]) -> Action:
        """What a player following this cell does where only ``allowed`` actions are open:
        the cell's action, else its fallback, else stand."""
        for action in (self.action, self.fallback):
            if action is not None and action in allowed:
                return action
        return Action.STAND


#: A chart row: ``("hard", 16)``, ``("soft", 18)``, ``("pair", rank index)``.
RowKey = tuple[str, int]


@dataclass(frozen=True)
class Chart:
    """A basic strategy chart and the decisions a player following it makes.

    ``rows``: the printed code per row and up card (``"Dh"``, ``"P"`` …);
    ``hit``: hit (True) or stand, per (up card, total, soft), for hands of three or
    more cards; ``first``: the first action per (up card, first card, second card);
    ``post_split``: the action per (up card, pair card, second card) of a split hand.
    Up cards and cards are rank indices (0 = A … 9 = ten-value).
    """

    rows: dict[RowKey, dict[int, ChartCode]]
    hit: dict[tuple[int, int, bool], bool]
    first: dict[tuple[int, int, int], Action]
    post_split: dict[tuple[int, int, int], ChartCode]
