"""The Excel PAR sheet's value sheets: the rules and readings, and the report's other tables.

Numbers are written as numbers (counts as integers, exact values as their
nearest double) with each exact value's text beside; a count column past 15
digits is divided by its common factor, or shown as its nearest double, and
says so (:class:`odds.output.xlsx_cells.WaysLayout`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from odds.core.numbers import fraction_text
from odds.core.table import EXACT_KINDS, NUMERIC_KINDS, Column, Kind, Row, Table, data_columns
from odds.output.xlsx_cells import (
    EXCEL_DIGITS,
    Formats,
    WaysLayout,
    cell_text,
    number,
    paragraph,
)
from odds.stats.analysis import Analysis
from odds.stats.bet_tables import about_table, rules_table

# ---------------------------------------------------------------------------
# Rules and readings: what was analysed, every option, the report's notes


def write_rules(sheet: Any, analysis: Analysis, command: str | None, formats: Formats) -> None:
    sheet.write_string(0, 0, "Rules and readings used", formats["title"])
    row = 2
    row = write_table_at(sheet, about_table(analysis, command), row, formats, title=True) + 1
    row = write_table_at(sheet, rules_table(analysis), row, formats, title=True) + 1
    paragraphs = [*analysis.notes, f"Counting: {analysis.counting}"]
    for text in paragraphs:
        paragraph(sheet, row, text, 2, formats["wrap"], 160)
        row += 1
    sheet.set_column(0, 0, 34)
    sheet.set_column(1, 1, 40)
    sheet.set_column(2, 2, 90)


# ---------------------------------------------------------------------------
# The report's other tables, as values (with the exact text beside)


def write_table(sheet: Any, table: Table, formats: Formats) -> None:
    write_table_at(sheet, table, 0, formats, title=True)
    columns = data_columns(table)
    for i, column in enumerate(columns):
        sheet.set_column(i, i, 14 if column.kind in NUMERIC_KINDS else 28)
    sheet.set_column(len(columns), len(columns) + _exact_count(columns), 24)


def _exact_count(columns: Sequence[Column]) -> int:
    return sum(1 for c in columns if c.kind in EXACT_KINDS or c.kind is Kind.WAYS)


def write_table_at(
    sheet: Any, table: Table, row: int, formats: Formats, title: bool = False
) -> int:
    """A table from ``row``: title, notes, header, rows (the total row last); the next free row.

    Numbers are numbers (counts as integers, exact values as their nearest
    double); each exact column and each count column has its exact text in
    the columns after the last value column.
    """
    columns = data_columns(table)
    rows = list(table.rows) + ([table.total] if table.total is not None else [])
    layouts = {c.key: _column_layout(c, rows) for c in columns if c.kind is Kind.WAYS}
    if title:
        sheet.write_string(row, 0, cell_text(table.title), formats["bold"])
        row += 1
    notes = [table.note]
    notes += [_ways_note(c, layouts[c.key], rows) for c in columns if c.key in layouts]
    for note in notes:
        if note:
            last = max(2, len(columns) - 1)
            paragraph(sheet, row, note, last, formats["note"], 20 * (last + 1))
            row += 1
    exact_columns = [c for c in columns if c.kind in EXACT_KINDS or c.kind is Kind.WAYS]
    headers = [_header(c, layouts.get(c.key)) for c in columns]
    headers += [f"{c.header} (exact)" for c in exact_columns]
    for col, header in enumerate(headers):
        sheet.write_string(row, col, cell_text(header), formats["header"])
    row += 1
    for values in rows:
        for col, column in enumerate(columns):
            layout = layouts.get(column.key, WaysLayout())
            _write_value(sheet, row, col, values.get(column.key), column, layout, formats)
        for j, column in enumerate(exact_columns):
            value = values.get(column.key)
            if value is None or isinstance(value, bool):
                continue
            text = value if isinstance(value, str) else fraction_text(value)
            sheet.write_string(row, len(columns) + j, cell_text(text), formats["exact"])
        row += 1
    return row


def _column_layout(column: Column, rows: Sequence[Row]) -> WaysLayout:
    """A count column's layout: divided by its common factor when that brings it under 10^15.

    A table of display values is not split into parts: a count still past 10^15
    (or alone in its column) is shown as its nearest double, and the note and
    the exact text say so.
    """
    values = [r.get(column.key) for r in rows]
    counts: list[int] = [c for c in values if isinstance(c, int) and not isinstance(c, bool) and c]
    if len(set(counts)) < 2:
        return WaysLayout()  # dividing one count by itself would say nothing
    return WaysLayout(WaysLayout.of(counts).divisor, 1)


def _header(column: Column, layout: WaysLayout | None) -> str:
    if layout is not None and layout.divisor > 1:
        return f"{column.header} ÷ {layout.divisor:,}"
    return column.header


def _ways_note(column: Column, layout: WaysLayout, rows: Sequence[Row]) -> str:
    counts = [r.get(column.key) for r in rows]
    big = [c for c in counts if isinstance(c, int) and abs(c) // layout.divisor >= 10**EXCEL_DIGITS]
    if big:
        return (
            f"Some counts in '{column.header}' reach 10^15, past the 15 significant digits "
            "Excel keeps, with no common divisor that brings them below: those cells show the "
            "nearest double; the exact integer is the text in its '(exact)' column."
        )
    if layout.divisor > 1:
        return (
            f"The counts in '{column.header}' reach 10^15, past the 15 significant digits "
            f"Excel keeps: each is divided by {layout.divisor:,}, the greatest common divisor "
            "of the column (ratios unchanged); the exact integer is the text in its '(exact)' "
            "column."
        )
    return ""


def _write_value(
    sheet: Any,
    row: int,
    col: int,
    value: Any,
    column: Column,
    layout: WaysLayout,
    formats: Formats,
) -> None:
    kind = column.kind
    if value is None:
        return
    if isinstance(value, str):
        sheet.write_string(row, col, cell_text(value), formats["text"])
    elif kind is Kind.FLAG:
        sheet.write_string(row, col, "yes" if value else "no", formats["text"])
    elif kind is Kind.LIST:
        sheet.write_string(row, col, cell_text(", ".join(str(v) for v in value)), formats["text"])
    elif kind is Kind.WAYS and isinstance(value, int):
        scaled = value // layout.divisor if value % layout.divisor == 0 else value
        sheet.write_number(row, col, scaled, formats["ways"])
    elif kind is Kind.PERCENT:
        sheet.write_number(row, col, number(value), formats["percent"])
    elif kind in (Kind.PROBABILITY, Kind.APPROXIMATE):
        sheet.write_number(row, col, float(value), formats["probability"])
    elif kind in NUMERIC_KINDS or kind in EXACT_KINDS:
        sheet.write_number(row, col, number(value), formats["number"])
    else:
        sheet.write_string(row, col, cell_text(str(value)), formats["text"])
