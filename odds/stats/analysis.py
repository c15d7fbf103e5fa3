"""What a game's analysis hands to the renderers: rules, tables and bets.

Games fill an :class:`Analysis`; :mod:`odds.output` turns it into Markdown,
JSON, CSV, Excel or PDF (``odds.api.to_json_data(analysis)`` is what
``odds report --format json`` prints). Keeping the data apart from the formatting lets every output
(reports, JSON, verification, audits) read the same exact figures.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.core.options import OptionLine
from odds.core.table import Table
from odds.stats.bets import Bet

if TYPE_CHECKING:  # only a game with charts makes them (a report without: ~5 ms less to start)
    from odds.core.charts import ReportChart


@dataclass(frozen=True)
class Section:
    """A report section after the bets: paragraphs and tables (e.g. the Shoe section).

    Markdown prints ``## title``, the paragraphs, then each table under
    ``### table title``; JSON keeps the section under ``key``.
    """

    key: str
    title: str
    paragraphs: tuple[str, ...]
    tables: tuple[Table, ...] = ()


@dataclass(frozen=True)
class Analysis:
    """Everything one report says about one paytable.

    ``tables`` are the game's own tables, in report order, each with a JSON
    key; ``hand_classes`` gives the ways per hand-class label of one hand from
    the full shoe (the labels :class:`odds.core.settlement.SettledHand` uses), for
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
    #: SHA-256 of the paytable file analysed (``None``: not one file as written).
    file_sha256: str | None = None
    #: SHA-256 of the effective options (see :attr:`odds.games.paytable.Paytable.options_sha256`).
    options_sha256: str | None = None
    #: Sections printed after the bets (the Shoe section of reports).
    sections: tuple[Section, ...] = ()
    #: The game's own charts (its ``charts`` feature), drawn after every bet's charts.
    charts: tuple[ReportChart, ...] = ()

    def bet(self, name: str) -> Bet:
        """The bet called ``name``; a one-line error listing the bets otherwise."""
        for bet in self.bets:
            if bet.name == name:
                return bet
        known = ", ".join(b.name for b in self.bets)
        raise OddsError(f"unknown bet {name!r} (this game has: {known})")

    def __repr__(self) -> str:
        bets = "; ".join(
            f"{b.name}: EV {b.ev} ({float(b.house_edge):.4%} house edge)" for b in self.bets
        )
        return f"Analysis({self.game!r}, {self.title!r}, {self.shoe}; {bets})"

    def records(self, table: str | None = None) -> list[dict[str, Any]]:
        """Rows of exact values: one flat row per bet and event, or one table's rows.

        Without ``table``: ``bet``, ``event``, ``net``, ``ways``, ``total_ways``,
        ``probability`` for every outcome of every bet
        (``pandas.DataFrame(analysis.records())``). With ``table``, the rows of
        that report table (a key of :meth:`table_keys`: ``summary``,
        ``outcomes_player``, a game table …) keyed by column, as CSV has them.
        Exact values stay :class:`fractions.Fraction`; ways are integers.
        """
        if table is not None:
            from odds.core.table import records

            return records(self.report_table(table))
        rows = []
        for bet in self.bets:
            total = bet.stats.total
            for outcome in bet.outcomes:
                rows.append(
                    {
                        "bet": bet.name,
                        "event": outcome.event,
                        "net": outcome.net,
                        "ways": outcome.ways,
                        "total_ways": total,
                        "probability": Fraction(outcome.ways, total),
                    }
                )
        return rows

    def to_pandas(self, table: str | None = None) -> Any:
        """:meth:`records` as a ``pandas.DataFrame``, each exact column with a float ``_decimal``.

        The exact columns hold :class:`fractions.Fraction` objects (``object``
        dtype); compute with the ``_decimal`` columns beside them. pandas is not
        a dependency of odds: without it, a one-line error says how to get it.
        """
        try:
            import pandas
        except ImportError:
            raise OddsError(
                "Analysis.to_pandas() needs pandas, which odds does not install: "
                "pip install pandas (or use Analysis.records(), plain rows)"
            ) from None
        from odds.core.table import DECIMAL_SUFFIX, data_columns, decimal_value, has_decimal

        rows = self.records(table)
        if table is None:
            exact = ["net", "probability"]
            order = ["bet", "event", "net", "ways", "total_ways", "probability"]
        else:
            columns = data_columns(self.report_table(table))
            exact = [c.key for c in columns if has_decimal(c)]
            order = [c.key for c in columns]
        names = []
        for key in order:
            names.append(key)
            if key in exact:
                names.append(key + DECIMAL_SUFFIX)
        data = [
            {
                **row,
                **{key + DECIMAL_SUFFIX: decimal_value(row.get(key)) for key in exact},
            }
            for row in rows
        ]
        return pandas.DataFrame(data, columns=names)

    def table_keys(self) -> list[str]:
        """The key of every report table, in report order (for :meth:`records`)."""
        from odds.stats.bet_tables import analysis_tables

        return [t.key for t in analysis_tables(self)]

    def report_table(self, key: str) -> Table:
        """Any table of the report by key (summary, outcomes, game and section tables).

        An unknown key is a one-line error listing the keys.
        """
        from odds.stats.bet_tables import analysis_tables, choose_table

        return choose_table(analysis_tables(self), key)

    def table(self, key: str) -> Table:
        """The game table whose JSON key is ``key``."""
        for table in self.tables:
            if table.key == key:
                return table
        raise KeyError(key)
