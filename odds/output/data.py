"""A report's JSON and CSV: exact numbers as fraction strings, counts as integers.

The same tables as the Markdown report (:mod:`odds.stats.bet_tables` and the
game's own), so a spreadsheet or a script reads every figure without losing a
digit. Each exact number has its nearest double beside it (``ev`` and
``ev_decimal``), so a spreadsheet also gets a number it can compute with. The
JSON is written by the one writer every command uses
(:mod:`odds.output.json_document`), from :func:`report_json_tables`.

CSV is one tidy table per file (:func:`table_csv`): a header row and one row
per observation, nothing else, so Excel and pandas open it as it is. A report
has many tables: ``--table NAME`` prints one, ``--output DIR/`` writes them
all with an ``index.csv`` (:func:`write_csv_folder`).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.table import (
    Column,
    Kind,
    Table,
    csv_rows,
    data_rows,
    fields_table,
    json_value,
    objects_table,
)
from odds.core.version import __version__
from odds.output.confidence import confidence_json
from odds.output.json_document import document, version_table
from odds.output.provenance import Provenance, adjusted_title
from odds.stats.analysis import Analysis
from odds.stats.bet_tables import (
    analysis_tables,
    choose_table,
    facts_table,
    outcome_table,
    top_award_table,
)
from odds.stats.bets import Bet, volatility_index


def bets_table(analysis: Analysis) -> Table:
    """Every bet with its figures, confidence ranges and outcomes: the JSON's ``bets``.

    The summary's rows with every figure a program needs (the withholding,
    the exact variance, the ways), each bet's confidence ranges and its
    outcome table (:func:`odds.stats.bet_tables.outcome_table`, the rows CSV's
    ``outcomes_<bet>`` holds). Markdown shows these as the summary and each
    bet's section; this table is for JSON only.
    """
    exact, percent = Kind.EXACT, Kind.PERCENT
    outcomes = Column("outcomes", "outcomes", Kind.DATA)
    return objects_table(
        "bets",
        "Bets",
        analysis.bets,
        [
            Column("name", "bet"),
            Column("title", "title"),
            (Column("stake", "stake", Kind.WAYS), lambda bet: 1),
            Column("withholding", "withholding", exact),
            (Column("ev", "EV", exact), "stats.ev"),
            (Column("house_edge", "house edge", percent), "stats.house_edge"),
            (Column("rtp", "RTP per stake", percent), "stats.rtp"),
            (Column("rtp_debited", "RTP per debited", percent), "stats.rtp_debited"),
            (Column("variance", "variance", exact), "stats.variance"),
            (Column("variance_exact", "variance exact", Kind.FLAG), "sd_is_exact"),
            (Column("sd", "SD", Kind.APPROXIMATE), "stats.sd"),
            (Column("hit_frequency", "hit frequency", percent), "stats.hit_frequency"),
            (Column("volatility_index", "VI (90%)", Kind.APPROXIMATE), _volatility_index),
            (Column("confidence_ranges", "confidence ranges", Kind.DATA), confidence_json),
            (Column("total_ways", "total ways", Kind.WAYS), "stats.total"),
            (outcomes, lambda bet: json_value(outcome_table(bet))),
        ],
        markdown=False,
    )


def _volatility_index(bet: Bet) -> Decimal:
    return volatility_index(bet.stats)


def report_json_tables(analysis: Analysis, provenance: Provenance | None = None) -> list[Table]:
    """The tables of a report's JSON, in its order: what was analysed, then the data.

    The facts (game, title, paytable and its digests, then the version and,
    for a report made by hand, its command and overrides, then the rules read,
    the shoe and the deals), the bets (:func:`bets_table`), the top awards, the
    game's tables, then each section after the bets under its key (its
    paragraphs and its tables).
    """
    title = analysis.title
    if provenance is not None:
        title = adjusted_title(analysis.title, analysis.shoe, provenance.overrides)
    what = fields_table(
        "analysed",
        "What was analysed",
        [
            (Column("game", "game"), analysis.game),
            (Column("title", "title"), title),
            (Column("paytable", "paytable"), analysis.paytable),
            (Column("paytable_sha256", "paytable SHA-256", json_null=True), analysis.file_sha256),
            (Column("options_sha256", "options SHA-256", json_null=True), analysis.options_sha256),
        ],
    )
    read = fields_table(
        "read",
        "Rules and shoe",
        [
            (Column("rules", "rules", Kind.DATA), analysis.rules_plain),
            (Column("shoe", "shoe"), analysis.shoe),
            (Column("deals", "deals", Kind.WAYS), analysis.deals),
        ],
    )
    tables = [what, version_table(provenance), read, bets_table(analysis)]
    tables += [top_award_table(analysis), *analysis.tables]
    for section in analysis.sections:
        paragraphs = Column("paragraphs", "paragraphs", Kind.LIST)
        tables.append(
            Table(
                key=section.key,
                title=section.title,
                columns=(paragraphs,),
                rows=({"paragraphs": list(section.paragraphs)},),
                markdown=False,
                json_record=True,
            )
        )
        tables += [replace(t, key=f"{section.key}.{t.key}") for t in section.tables]
    return tables


def to_json_data(analysis: Analysis, provenance: Provenance | None = None) -> dict[str, Any]:
    """The analysis as JSON-ready data (:func:`report_json_tables` through the one writer).

    With ``provenance`` (a report made by hand) the title is the one the
    Markdown header shows, and ``command`` and ``overrides`` say how it was made.
    """
    return document(report_json_tables(analysis, provenance))


def provenance_table(analysis: Analysis, provenance: Provenance) -> Table:
    """CSV's first block: what was analysed and the command that reproduces it."""
    title = adjusted_title(analysis.title, analysis.shoe, provenance.overrides)
    facts = [
        ("title", title),
        ("paytable", analysis.paytable),
        ("options_sha256", analysis.options_sha256 or ""),
        ("shoe", analysis.shoe),
        ("version", __version__),
        ("command", provenance.command),
        *(("override", text) for text in provenance.overrides),
    ]
    return facts_table("provenance", "How this document was made", facts)


def report_tables(analysis: Analysis, provenance: Provenance | None = None) -> list[Table]:
    """Every table of a report (:func:`odds.stats.bet_tables.analysis_tables`), which CSV, the
    Excel workbook and :meth:`odds.stats.analysis.Analysis.records` read. With ``provenance``
    (a report made by hand), a first table says how it was made (the command, the overrides).
    """
    tables = [] if provenance is None else [provenance_table(analysis, provenance)]
    return tables + analysis_tables(analysis)


#: How to get every table of a report as CSV.
FOLDER_HINT = "every table with --output DIR/"


def table_csv(table: Table) -> str:
    """One table as a tidy CSV: a header row of column keys, then one row per observation.

    Nothing else in the file (no title or comment lines), so Excel, pandas and
    every CSV reader open it as it is. Exact numbers are fraction strings with
    a ``_decimal`` column beside (see :func:`odds.core.table.csv_rows`); text that
    a spreadsheet would take for a formula starts with ``'`` (:func:`spreadsheet_text`).
    """
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(
        [[spreadsheet_text(cell) for cell in row] for row in csv_rows(table)]
    )
    return out.getvalue()


#: What a spreadsheet reads as the start of a formula (or a DDE call) in a CSV cell.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?:/\d+)?%?|inf)")


def spreadsheet_text(cell: str) -> str:
    """A CSV cell a spreadsheet opens as the text it is: OWASP's rule against CSV injection.

    Text starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
    read by Excel, LibreOffice and Google Sheets as a formula (``=cmd|' /C calc'!A0``
    runs a program); such a cell gets a leading ``'``, which they show as text.
    A number (``-0.5``, ``-43/415``, ``-1.5e-07``) is left as it is: it is data.

    >>> spreadsheet_text("=1+1"), spreadsheet_text("-0.5"), spreadsheet_text("-43/415")
    ("'=1+1", '-0.5', '-43/415')
    >>> spreadsheet_text("-2+3"), spreadsheet_text("@SUM(A1)"), spreadsheet_text("banker")
    ("'-2+3", "'@SUM(A1)", 'banker')
    """
    if cell.startswith(FORMULA_START) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def tables_csv(tables: Sequence[Table], table: str | None = None) -> str:
    """One table of a command's output as a tidy CSV: the only one, or the one named.

    Several tables are never run together in one file: without a name, a
    one-line error lists them (:func:`choose_table`).
    """
    return table_csv(choose_table(tables, table))


#: The index of a folder of CSV files.
INDEX_FILE = "index.csv"


def csv_file_name(key: str) -> str:
    """``outcomes_player.csv``: a table's file in a folder of CSV files (safe on every system)."""
    return "".join(c if c.isalnum() or c in "._-" else "_" for c in key) + ".csv"


def index_table(tables: Sequence[Table]) -> Table:
    """The index of a folder of CSV files: each table's key, title, file and row count."""
    return objects_table(
        "index",
        "Tables",
        tables,
        [
            (Column("table", "table"), "key"),
            Column("title", "title"),
            (Column("file", "file"), lambda t: csv_file_name(t.key)),
            (Column("rows", "rows", Kind.WAYS), lambda t: len(data_rows(t))),
            Column("note", "note"),
        ],
    )


def csv_files(tables: Sequence[Table]) -> list[tuple[str, str]]:
    """A folder of tidy CSV files: ``index.csv`` first, then one file per table.

    Two tables whose keys map to the same file name are a bug (a one-line error).
    """
    files = [(INDEX_FILE, table_csv(index_table(tables)))]
    files += [(csv_file_name(t.key), table_csv(t)) for t in tables]
    names = [name for name, _ in files]
    if len(set(names)) != len(names):
        raise OddsError(f"two tables share a CSV file name: {sorted(names)}")
    return files


def write_csv_folder(tables: Sequence[Table], folder: Path) -> list[Path]:
    """Write :func:`csv_files` to ``folder`` (created if missing); each file whole or not at all.

    The tables go first and the index last, so an index never lists a file not
    yet written.
    """
    from odds.runtime.atomic import write_text

    if folder.exists() and not folder.is_dir():
        raise OddsError(f"--output {folder}: not a folder (one CSV per table needs a folder)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OddsError(f"--output {folder}: {error.strerror or error}") from None
    files = csv_files(tables)
    written = []
    for name, text in [*files[1:], files[0]]:
        write_text(folder / name, text)
        written.append(folder / name)
    return written
