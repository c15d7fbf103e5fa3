"""Markdown tables: GitHub-flavoured, numbers right-aligned, from plain rows or a :class:`Table`.

Every Markdown table of the tool goes through :func:`markdown_table`, so the
reports, the audit and the CLI align and escape cells the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from tabulate import tabulate

from odds.numbers import decimal
from odds.table import (
    CELL_LIMIT,
    LONG_NUMBER_NOTE,
    Table,
    has_long_numbers,
    markdown_cells,
    markdown_headers,
)


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, Fraction):
        return decimal(value, digits)
    return str(value)


def markdown_table(headers: tuple[str, ...] | list[str], rows: Any, digits: int) -> str:
    """A GitHub-flavoured Markdown table; numbers right-aligned, text left."""
    rows = [[_cell(v, digits).replace("|", "\\|") for v in row] for row in rows]
    align = []
    for i in range(len(headers)):
        column = [row[i] for row in rows if i < len(row) and row[i] != ""]
        numeric = bool(column) and all(_looks_numeric(v) for v in column)
        align.append("right" if numeric else "left")
    return tabulate(
        rows, headers=list(headers), tablefmt="github", colalign=align, disable_numparse=True
    )


def _looks_numeric(text: str) -> bool:
    stripped = text.replace(",", "").replace("%", "").replace("−", "-").lstrip("-+")
    return stripped.replace(".", "", 1).replace("/", "", 1).isdigit()


def table_markdown(table: Table, digits: int) -> str:
    """A :class:`odds.table.Table` as a GitHub-flavoured Markdown table.

    Exact numbers too long for a cell are rounded and marked ``≈``, with a
    footnote under the table (JSON and CSV keep them exact).
    """
    text = markdown_table(markdown_headers(table), markdown_cells(table, digits), digits)
    if has_long_numbers(table):
        text += "\n\n" + LONG_NUMBER_NOTE.format(limit=CELL_LIMIT)
    return text


def table_section(table: Table, digits: int) -> list[str]:
    if not table.markdown:
        return []
    lines = [f"## {table.title}", "", table_markdown(table, digits), ""]
    if table.note:
        lines += [table.note, ""]
    return lines


def tables_markdown(tables: Sequence[Table], digits: int = 6) -> str:
    """Tables as Markdown sections (title, table, note)."""
    lines: list[str] = []
    for table in tables:
        lines += table_section(table, digits)
    return "\n".join(lines).rstrip() + "\n"
