"""What a game's analysis hands to the renderers: rules, tables and bets.

Games fill an :class:`Analysis`; :mod:`odds.render` turns it into Markdown,
JSON or CSV. Keeping the data apart from the formatting lets every output
(reports, JSON, verification, audits) read the same exact figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from odds.config import OptionLine
from odds.errors import OddsError
from odds.stats import Bet
from odds.table import Table


@dataclass(frozen=True)
class Analysis:
    """Everything one report says about one paytable.

    ``tables`` are the game's own tables, in report order, each with a JSON
    key; ``hand_classes`` gives the ways per hand-class label of one hand from
    the full shoe (the labels :class:`odds.settlement.SettledHand` uses), for
    the audit's goodness-of-fit tests.
    """

    game: str
    title: str
    paytable: str
    rules: tuple[OptionLine, ...]
    rules_plain: dict[str, Any]
    shoe: str
    deals: int
    counting: str
    bets: tuple[Bet, ...]
    tables: tuple[Table, ...] = ()
    notes: tuple[str, ...] = ()
    hand_classes: dict[str, int] = field(default_factory=dict)

    def bet(self, name: str) -> Bet:
        """The bet called ``name``; a one-line error listing the bets otherwise."""
        for bet in self.bets:
            if bet.name == name:
                return bet
        known = ", ".join(b.name for b in self.bets)
        raise OddsError(f"unknown bet {name!r} (this game has: {known})")

    def table(self, key: str) -> Table:
        """The game table whose JSON key is ``key``."""
        for table in self.tables:
            if table.key == key:
                return table
        raise KeyError(key)
