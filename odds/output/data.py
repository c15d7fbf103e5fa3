"""JSON and CSV renderings: exact numbers as fraction strings, counts as integers.

The same tables as the Markdown report (:mod:`odds.stats.bet_tables` and the
game's own), so a spreadsheet or a script reads every figure without losing a
digit. Each exact number has its nearest double beside it (``ev`` and
``ev_decimal``), so a spreadsheet also gets a number it can compute with.

CSV is one tidy table per file (:func:`table_csv`): a header row and one row
per observation, nothing else, so Excel and pandas open it as it is. A report
has many tables: ``--table NAME`` prints one, ``--output DIR/`` writes them
all with an ``index.csv`` (:func:`write_csv_folder`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.numbers import fraction_text
from odds.core.table import Column, Kind, Table, csv_rows, data_rows, decimal_value, json_value
from odds.core.version import __version__
from odds.output.confidence import confidence_json
from odds.output.provenance import Provenance, adjusted_title
from odds.stats.analysis import Analysis
from odds.stats.bet_tables import (
    analysis_tables,
    choose_table,
    top_award_table,
)
from odds.stats.bets import Bet, volatility_index


def bet_json(bet: Bet) -> dict[str, Any]:
    """One bet's figures and outcomes: exact numbers as fractions, each with its ``_decimal``."""
    s = bet.stats
    return {
        "name": bet.name,
        "title": bet.title,
        "stake": 1,
        **_exact_and_decimal("withholding", bet.withholding),
        **_exact_and_decimal("ev", s.ev),
        **_exact_and_decimal("house_edge", s.house_edge),
        **_exact_and_decimal("rtp", s.rtp),
        **_exact_and_decimal("rtp_debited", s.rtp_debited),
        **_exact_and_decimal("variance", s.variance),
        "variance_exact": bet.sd_is_exact,
        "sd": float(s.sd),
        **_exact_and_decimal("hit_frequency", s.hit_frequency),
        "volatility_index": float(volatility_index(s)),
        "confidence_ranges": confidence_json(bet),
        "total_ways": s.total,
        "outcomes": [
            {
                "event": o.event,
                **_exact_and_decimal("net", o.net),
                "ways": o.ways,
                **_exact_and_decimal("probability", Fraction(o.ways, s.total)),
            }
            for o in bet.outcomes
        ],
    }


def _exact_and_decimal(key: str, value: Fraction) -> dict[str, Any]:
    """``{"ev": "-43/415", "ev_decimal": -0.10361445783132531}``."""
    return {key: fraction_text(value), f"{key}_decimal": decimal_value(value)}


def to_json_data(analysis: Analysis, provenance: Provenance | None = None) -> dict[str, Any]:
    """The analysis as JSON-ready data: the bets, then each game table under its key.

    With ``provenance`` (a report made by hand) the title is the one the
    Markdown header shows, and ``command`` and ``overrides`` say how it was made.
    """
    title = analysis.title
    if provenance is not None:
        title = adjusted_title(analysis.title, analysis.shoe, provenance.overrides)
    data: dict[str, Any] = {
        "game": analysis.game,
        "title": title,
        "paytable": analysis.paytable,
        "paytable_sha256": analysis.file_sha256,
        "options_sha256": analysis.options_sha256,
        "version": __version__,
        **({} if provenance is None else provenance.data()),
        "rules": analysis.rules_plain,
        "shoe": analysis.shoe,
        "deals": analysis.deals,
        "bets": [bet_json(b) for b in analysis.bets],
    }
    data["top_awards"] = json_value(top_award_table(analysis))
    for table in analysis.tables:
        # Dotted keys nest, as column keys do: positions.combined → data["positions"]["combined"].
        target = data
        *parents, leaf = table.key.split(".")
        for part in parents:
            target = target.setdefault(part, {})
        target[leaf] = json_value(table)
    for section in analysis.sections:
        data[section.key] = {
            "paragraphs": list(section.paragraphs),
            **{table.key: json_value(table) for table in section.tables},
        }
    return data


def to_json(analysis: Analysis, provenance: Provenance | None = None) -> str:
    """``--format json``: exact numbers as fraction strings, counts as integers."""
    return json.dumps(to_json_data(analysis, provenance), indent=2, ensure_ascii=False) + "\n"


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
    return Table(
        key="provenance",
        title="How this document was made",
        columns=(Column("field", "field"), Column("value", "value")),
        rows=tuple({"field": k, "value": v} for k, v in facts),
    )


def report_tables(analysis: Analysis, provenance: Provenance | None = None) -> list[Table]:
    """Every table of a report, in report order, each under a key unique in the report.

    The summary, the top awards, the rules, one outcome table per bet, the
    game's tables, then the tables of the sections after the bets (keyed
    ``<section>.<table>``). CSV, the Excel workbook and
    :meth:`odds.stats.analysis.Analysis.records` read the same list. With
    ``provenance`` (a report made by hand), a first table says how it was made
    (the command, the overrides).
    """
    tables = [] if provenance is None else [provenance_table(analysis, provenance)]
    return tables + analysis_tables(analysis)


def to_csv(
    analysis: Analysis, table: str | None = None, provenance: Provenance | None = None
) -> str:
    """``--format csv --table NAME``: one of :func:`report_tables` as a tidy CSV.

    Without ``table``, a one-line error names the tables (a report has several;
    :func:`write_csv_folder` writes them all).
    """
    return table_csv(choose_table(report_tables(analysis, provenance), table, FOLDER_HINT))


#: How to get every table of a report as CSV.
FOLDER_HINT = "every table with --output DIR/"


def table_csv(table: Table) -> str:
    """One table as a tidy CSV: a header row of column keys, then one row per observation.

    Nothing else in the file (no title or comment lines), so Excel, pandas and
    every CSV reader open it as it is. Exact numbers are fraction strings with
    a ``_decimal`` column beside (see :func:`odds.core.table.csv_rows`).
    """
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(csv_rows(table))
    return out.getvalue()


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
    return Table(
        key="index",
        title="Tables",
        columns=(
            Column("table", "table"),
            Column("title", "title"),
            Column("file", "file"),
            Column("rows", "rows", Kind.WAYS),
            Column("note", "note"),
        ),
        rows=tuple(
            {
                "table": t.key,
                "title": t.title,
                "file": csv_file_name(t.key),
                "rows": len(data_rows(t)),
                "note": t.note,
            }
            for t in tables
        ),
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


def tables_json(tables: Sequence[Table], **extra: Any) -> str:
    """Tables as one JSON object keyed by each table's key (after any ``extra`` fields)."""
    data: dict[str, Any] = dict(extra)
    for table in tables:
        data[table.key] = json_value(table)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
