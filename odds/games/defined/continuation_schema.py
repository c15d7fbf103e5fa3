"""``[definition.continuation]``: a deal that goes on after a condition, as data.

Casino War's war: when the two positions' first cards tie, the dealer burns three cards face
down and deals one more card to each position, compared as the first ones were. A
definition says it in three keys::

    [definition.continuation]
    when = { winner = "tie" }   # a condition on the first deal
    burn = 3                    # cards burned face down first
    cards = 1                   # then this many to each position

A bet reads the continued deal with the condition ``continued``: ``true`` (the deal went
on), ``false`` (it did not), or a condition on the continued deal's hands (``{ winner =
"player" }``). Reading only; the counting is :mod:`odds.games.defined.continuation`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

#: The condition key that reads the continued deal.
CONTINUED = "continued"
#: ``[definition.decision] at``: when the decision is taken.
DECISION_AT = ("deal", "continuation")


@dataclass(frozen=True)
class Continuation:
    """The deal goes on when ``when`` holds on the first deal: ``burn`` cards burned face
    down, then ``cards`` more to each position (a hand of its own, compared as the first)."""

    when: Any  # a Condition on the first deal (odds.games.defined.schema)
    burn: int
    cards: int
    line: int = field(default=0, compare=False)
    #: ``to = "third"``: the continued cards go to this one new position (Red Dog's third
    #: card), not to each position; ``None``: to each position.
    to: str | None = None

    def dealt(self, positions: int) -> int:
        """The cards the continuation takes from the shoe (burns included)."""
        return self.burn + self.cards * (1 if self.to else positions)

    def positions(self, first: tuple[str, ...]) -> tuple[str, ...]:
        """The positions of the continued deal: ``to``, or the first deal's."""
        return (self.to,) if self.to else first


def read_continuation(
    table: Any,
    deal: Any,
    loc: Any,
    condition: Callable[[Any, str], Any],
    number: Callable[[Any, str, int, int, int], int],
) -> Continuation:
    """``[definition.continuation]`` checked: ``when`` (read by ``condition``: a round
    condition on the first deal, no action, nothing of the continued deal), ``burn`` (0–52)
    and ``cards`` (1–26). Refused in one line on a deal it cannot follow."""
    where_ = "definition.continuation"
    line = loc.line("[definition.continuation")
    if not isinstance(table, Mapping):
        raise loc.error(
            where_, 'expected a table: when = { winner = "tie" }, burn = 3, cards = 1', line
        )
    loc.known(table, ("when", "burn", "cards", "to"), where_, line, by_key=False)
    if deal.tableau is not None or deal.draw_at_most or deal.seats > 1 or len(deal.positions) != 2:
        raise loc.error(
            where_,
            "a deal goes on for two positions of fixed-size hands, one seat (no tableau, "
            "draw_at_most or seats)",
            line,
        )
    if "when" not in table:
        raise loc.error(
            where_, 'missing when: the condition on the first deal, e.g. { winner = "tie" }', line
        )
    when = condition(table["when"], f"{where_}.when")
    if when is True or when is False:
        raise loc.error(
            f"{where_}.when",
            "the condition is "
            + ("always true" if when else "never true")
            + " under this reading: the deal must go on after some rounds and not others",
            loc.at("when", line),
        )
    burn = number(table.get("burn", 0), f"{where_}.burn", 0, 52, loc.at("burn", line))
    cards = number(table.get("cards"), f"{where_}.cards", 1, 26, loc.at("cards", line))
    to = table.get("to")
    if to is not None and (
        not isinstance(to, str) or not re.fullmatch(r"[a-z][a-z0-9_-]*", to) or to in deal.positions
    ):
        raise loc.error(
            f"{where_}.to",
            f"expected the name of a new position (lower-case, not one of "
            f"{', '.join(deal.positions)}), got {to!r}",
            loc.at("to", line),
        )
    return Continuation(when, burn, cards, line, to)


#: A settled round whose deal went on but whose continued cards were not given (``odds
#: settle --actions surrender`` on a tie): enough for a bet that does not read them.
NOT_DEALT = "not dealt"


def continued_holds(condition: Any, continued: Any, definition: Any, holds: Any) -> bool:
    """Whether a condition on the continued deal holds on its key (``holds``:
    :func:`odds.games.defined.rounds.holds`); refused in one line when its cards were not
    given."""
    if not isinstance(continued, tuple):
        from odds.core.errors import OddsError

        raise OddsError(
            "the deal goes on and a bet reads the continued deal: "
            + (
                f"give the {definition.continuation.to} its {definition.continuation.cards} card(s)"
                if definition.continuation.to
                else "give each position "
                f"{definition.deal.cards + definition.continuation.cards} cards (its first "
                f"{definition.deal.cards}, then its next {definition.continuation.cards})"
            )
        )
    return bool(holds(condition, continued, definition))


#: Features of a continued position's card read against the first deal (Red Dog's third
#: card): ``between``, its rank strictly between the first deal's lowest and highest card by
#: the rank order; ``matches``, its rank that of a card of the first deal.
AGAINST_FIRST = ("between", "matches")


def against_first(name: str, rank: Any, first_ranks: Any, order: Any) -> bool:
    """``between``/``matches`` of a continued card of ``rank`` (``order``: a rank's order)."""
    if name == "matches":
        return rank in first_ranks
    orders = [order(r) for r in first_ranks]
    return bool(min(orders) < order(rank) < max(orders))
