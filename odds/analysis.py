"""What a game's analysis hands to the renderers: rules, tables and bets.

Games fill an :class:`Analysis`; :mod:`odds.render` turns it into Markdown or
JSON. Keeping the data apart from the formatting lets every output (reports,
JSON, verification) read the same exact figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from odds.config import OptionLine
from odds.stats import Bet


@dataclass(frozen=True)
class Table:
    """A titled table. Cells may be ``str``, ``int`` (ways) or ``Fraction``.

    ``probability_columns`` names the headers whose Fraction cells print as
    probabilities (decimals with the report's digits); other Fractions print
    exactly. ``json`` is the table's structured form for ``--format json``
    (``None``: rows keyed by header).
    """

    key: str
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    note: str = ""
    json: Any = None
    align_right: tuple[str, ...] = ()


@dataclass(frozen=True)
class Analysis:
    """Everything one report says about one paytable."""

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
    extra_json: dict[str, Any] = field(default_factory=dict)
    #: Ways per hand-class label for one hand from the full shoe (the labels
    #: :class:`odds.games.base.SettledHand` uses), for goodness-of-fit tests.
    hand_classes: dict[str, int] = field(default_factory=dict)

    def bet(self, name: str) -> Bet:
        """The bet called ``name``."""
        for bet in self.bets:
            if bet.name == name:
                return bet
        from odds.errors import OddsError

        known = ", ".join(b.name for b in self.bets)
        raise OddsError(f"unknown bet {name!r} (this game has: {known})")
