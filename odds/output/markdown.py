"""Markdown tables: pipe tables, numbers right-aligned, from plain rows or a :class:`Table`.

Every Markdown table of the tool goes through :func:`markdown_table`, so the
reports, the audit and the CLI align and escape cells the same way. The
alignment is written into the separator row (``|:---|---:|``), which GitHub,
pandoc and every CommonMark-with-tables renderer read, and the text itself is
padded to match, so the table reads aligned as plain text too.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from tabulate import tabulate

from odds.core.numbers import decimal
from odds.core.table import (
    CELL_LIMIT,
    LONG_NUMBER_NOTE,
    Table,
    has_long_numbers,
    markdown_alignment,
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


def markdown_table(
    headers: tuple[str, ...] | list[str],
    rows: Any,
    digits: int,
    align: Sequence[str | None] | None = None,
) -> str:
    """A Markdown pipe table; numbers right-aligned, text left.

    ``align`` gives a column's alignment (``"right"``/``"left"``); a column it
    leaves ``None`` (or every column, without it) is right-aligned when every
    non-empty cell reads as a number.

    >>> print(markdown_table(("event", "ways"), [("win", 1200), ("loss", 3)], 6))
    | event   |   ways |
    |:--------|-------:|
    | win     |  1,200 |
    | loss    |      3 |
    """
    rows = [[_cell(v, digits).replace("|", "\\|") for v in row] for row in rows]
    given = list(align or ())
    colalign = []
    for i in range(len(headers)):
        if i < len(given) and given[i] is not None:
            colalign.append(given[i])
            continue
        column = [row[i] for row in rows if i < len(row) and row[i] != ""]
        numeric = bool(column) and all(_looks_numeric(v) for v in column)
        colalign.append("right" if numeric else "left")
    return tabulate(
        rows, headers=list(headers), tablefmt="pipe", colalign=colalign, disable_numparse=True
    )


def _looks_numeric(text: str) -> bool:
    stripped = text.replace(",", "").replace("%", "").replace("−", "-").lstrip("-+")
    return stripped.replace(".", "", 1).replace("/", "", 1).isdigit()


def table_markdown(table: Table, digits: int) -> str:
    """A :class:`odds.core.table.Table` as a GitHub-flavoured Markdown table.

    Exact numbers too long for a cell are rounded and marked ``≈``, with a
    footnote under the table (JSON and CSV keep them exact).
    """
    text = markdown_table(
        markdown_headers(table), markdown_cells(table, digits), digits, markdown_alignment(table)
    )
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
