"""JSON and CSV renderings: exact numbers as fraction strings, counts as integers.

The same tables as the Markdown report (:mod:`odds.render.bet_tables` and the
game's own), so a spreadsheet or a script reads every figure without losing a
digit.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.analysis import Analysis
from odds.numbers import fraction_text
from odds.render.bet_tables import outcome_table, summary_table, top_award_table
from odds.render.confidence import confidence_json
from odds.render.provenance import Provenance, adjusted_title
from odds.stats import Bet, volatility_index
from odds.table import Column, Table, csv_rows, json_value
from odds.version import __version__


def bet_json(bet: Bet) -> dict[str, Any]:
    s = bet.stats
    return {
        "name": bet.name,
        "title": bet.title,
        "stake": 1,
        "withholding": fraction_text(bet.withholding),
        "ev": fraction_text(s.ev),
        "house_edge": fraction_text(s.house_edge),
        "rtp": fraction_text(s.rtp),
        "rtp_debited": fraction_text(s.rtp_debited),
        "variance": fraction_text(s.variance),
        "variance_exact": bet.sd_is_exact,
        "sd": float(s.sd),
        "hit_frequency": fraction_text(s.hit_frequency),
        "volatility_index": float(volatility_index(s)),
        "confidence_ranges": confidence_json(bet),
        "total_ways": s.total,
        "outcomes": [
            {
                "event": o.event,
                "net": fraction_text(o.net),
                "ways": o.ways,
                "probability": fraction_text(Fraction(o.ways, s.total)),
            }
            for o in bet.outcomes
        ],
    }


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


def to_csv(analysis: Analysis, provenance: Provenance | None = None) -> str:
    """Every table of the analysis as CSV blocks (summary, outcome tables, game tables).

    With ``provenance``, a first block says how it was made (command, overrides).
    """
    tables = [] if provenance is None else [provenance_table(analysis, provenance)]
    tables += [summary_table(analysis), top_award_table(analysis)]
    tables += [outcome_table(b) for b in analysis.bets]
    extra = [table for section in analysis.sections for table in section.tables]
    return tables_csv([*tables, *analysis.tables, *extra])


def tables_csv(tables: Sequence[Table]) -> str:
    """Tables as CSV blocks, each started by a ``# key: title`` line, then a header row.

    Exact numbers are fraction strings and counts integers, so a spreadsheet
    reads them without losing a digit.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for i, table in enumerate(tables):
        if i:
            out.write("\n")
        out.write(f"# {table.key}: {table.title}\n")
        writer.writerows(csv_rows(table))
    return out.getvalue()


def tables_json(tables: Sequence[Table], **extra: Any) -> str:
    """Tables as one JSON object keyed by each table's key (after any ``extra`` fields)."""
    data: dict[str, Any] = dict(extra)
    for table in tables:
        data[table.key] = json_value(table)
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
