"""Blackjack (the rule book's drawing game), analysed exactly.

Blackjack is a drawing game: hands grow card by card, so the analysis is a
recursion over shoe *compositions* instead of a showdown of fixed hands. Suits
never matter, so the shoe is reduced to ten rank types (A, 2–9, ten-value).

Python API beyond the paytables' 1–8 decks: :func:`analyse_decks` takes any
number of decks or ``math.inf`` (an infinite shoe), :func:`analyse_round` any
rank composition. One rule set's exact round EV (a :class:`~fractions.Fraction`
per initial stake)::

    analyse_round(shoe_counts(8), BlackjackRules(split_strategy="CDPN")).ev

The truly optimal split of one pair against one up card (every decision on all the
cards the round has shown; an upper bound on every convention, tractable on one
deck split once), per initial stake, from
:func:`odds.games.blackjack.optimal_split.optimal_split` (rank indices, 0 = ace)::

    optimal_split(shoe_counts(1), 7, 9, BlackjackRules(hole_card="peek")).value

The game itself (``GAME``, :class:`Blackjack`: its report, settlement and
features) is imported on first use, so a script that only counts a round does
not load the report's modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_decks, analyse_round, shoe_counts

if TYPE_CHECKING:
    from odds.games.blackjack.game import Blackjack

    GAME: Blackjack


def __getattr__(name: str) -> Any:
    if name in ("GAME", "Blackjack"):
        from odds.games.blackjack.game import Blackjack

        globals().update(GAME=Blackjack(), Blackjack=Blackjack)
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["GAME", "Blackjack", "BlackjackRules", "analyse_decks", "analyse_round", "shoe_counts"]
