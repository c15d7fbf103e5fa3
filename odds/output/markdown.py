"""Markdown tables and text: pipe tables, numbers right-aligned; text from users kept as text.

Every Markdown table of the tool goes through :func:`markdown_table`, so the
reports, the audit and the CLI align and escape cells the same way. The
alignment is written into the separator row (``|:---|---:|``), which GitHub,
pandoc and every CommonMark-with-tables renderer read, and the text itself is
padded to match, so the table reads aligned as plain text too.

Text a user wrote (a paytable's title and description, a bet's title, an
outcome's label, an option's value, a log's field) reaches Markdown through
:func:`inline_text` (a cell, a heading: one line), :func:`paragraph_text` (a
note) or :func:`code_span` (a file name, an override as typed), so it renders
as the text it is: no raw HTML (``<script>``, ``<img onerror=…>``), no link or
image, no table broken by a ``|`` or a line break. Code spans are left as they
are (nothing in them is markup), and the tool's own text has none of the
characters escaped, so a report without such text is byte for byte what it was.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.core.numbers import decimal, grouped
from odds.core.table import (
    CELL_LIMIT,
    LONG_NUMBER_NOTE,
    Table,
    has_long_numbers,
    markdown_alignment,
    markdown_cells,
    markdown_headers,
)
from odds.output.terminal import width_of


def _cell(value: Any, digits: int) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, Fraction):
        return grouped(decimal(value, digits))
    return str(value)


# ---------------------------------------------------------------------------
# Text from users, as text

_PUNCTUATION = frozenset(string.punctuation)
#: After ``]``, the characters that would make a link, an image or a link definition.
_LINK_AFTER = frozenset("([:")


def escape_markdown(text: str) -> str:
    """``text`` with every character that could act as HTML or a link escaped, outside code spans.

    ``&`` and ``<`` become entities (no tag, comment or autolink can start:
    ``<script>`` shows as ``&lt;script>``, which renders ``<script>``); a ``]``
    followed by ``(``, ``[`` or ``:`` has that character backslash-escaped (no
    link, image or link definition). A code span (a backtick run closed by one
    of the same length, as CommonMark reads it) and a backslash escape are kept
    as they are: nothing in them is markup.

    >>> escape_markdown("<img src=x onerror=alert(1)> & [x](javascript:y) `<b>`")
    '&lt;img src=x onerror=alert(1)> &amp; [x]\\\\(javascript:y) `<b>`'
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n and text[i + 1] in _PUNCTUATION:
            out.append(text[i : i + 2])
            i += 2
            continue
        if ch == "`":
            run = _run_end(text, i)
            close = _closing_run(text, run, run - i)
            end = run if close is None else close + (run - i)
            out.append(text[i:end])
            i = end
            continue
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == "]" and i + 1 < n and text[i + 1] in _LINK_AFTER:
            out.append("]\\")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _run_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end] == "`":
        end += 1
    return end


def _closing_run(text: str, start: int, length: int) -> int | None:
    """Where the backtick run of exactly ``length`` that closes a code span starts (or None)."""
    i = start
    while i < len(text):
        if text[i] == "`":
            end = _run_end(text, i)
            if end - i == length:
                return i
            i = end
        else:
            i += 1
    return None


def one_line(text: str) -> str:
    """Line breaks, tabs and other control characters as spaces (a cell or a heading is one line).

    >>> one_line("a\\r\\nb\\tc")
    'a  b c'
    """
    return "".join(" " if _breaks(ch) else ch for ch in text)


def _breaks(ch: str) -> bool:
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp")


def inline_text(text: str) -> str:
    """User text for one line of Markdown (a table cell, a heading): escaped, on one line."""
    return escape_markdown(one_line(text))


_BLOCK_START = frozenset("#>+-*=|_~")


def paragraph_text(text: str) -> str:
    """User text as one Markdown paragraph: escaped, one line, never starting a block.

    A leading ``#``, ``>``, ``-``, ``+``, ``*``, ``=``, ``|`` (a heading, a
    quote, a list, a rule, a table) or ``1.`` is backslash-escaped, so the
    text is a paragraph whatever it starts with.

    >>> paragraph_text("- not a list <b>")
    '\\\\- not a list &lt;b>'
    """
    text = inline_text(text).strip()
    if text[:1] in _BLOCK_START:
        return "\\" + text
    digits = len(text) - len(text.lstrip("0123456789"))
    if 0 < digits <= 9 and text[digits : digits + 1] in (".", ")"):
        return text[:digits] + "\\" + text[digits:]
    return text


def code_span(text: str) -> str:
    """``text`` as an inline code span whatever backticks it holds (a fence longer than any run).

    >>> code_span("my `odd` file.toml"), code_span("plain")
    ('`` my `odd` file.toml ``', '`plain`')
    """
    text = one_line(text)
    longest, run = 0, 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if longest or text.startswith((" ", "`")) or text.endswith((" ", "`")) else ""
    return f"{fence}{pad}{text}{pad}{fence}"


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
    rows = [[_table_text(_cell(v, digits)) for v in row] for row in rows]
    headers = [_table_text(h) for h in headers]
    given = list(align or ())
    colalign: list[str] = []
    for i in range(len(headers)):
        chosen = given[i] if i < len(given) else None
        if chosen is not None:
            colalign.append(chosen)
            continue
        column = [row[i] for row in rows if i < len(row) and row[i] != ""]
        numeric = bool(column) and all(_looks_numeric(v) for v in column)
        colalign.append("right" if numeric else "left")
    found = _pipe_table(headers, rows, colalign)
    if found is not None:
        return found
    from tabulate import tabulate

    return tabulate(
        rows, headers=list(headers), tablefmt="pipe", colalign=colalign, disable_numparse=True
    )


#: How each alignment pads a cell (``format`` specs, as tabulate pads) and marks its column.
_PAD = {"left": "<", "right": ">", "center": "^"}


def _pipe_table(headers: list[str], rows: list[list[str]], align: list[str]) -> str | None:
    """The pipe table tabulate writes for these text cells (``tablefmt="pipe"``, numbers not
    parsed, every column's alignment given), byte for byte; ``None`` for what only tabulate
    handles (a row of another length, another alignment).

    Written here because importing tabulate costs every report about 0.03 s of CPU (it reads
    its own version from the installed packages' metadata); tabulate still writes the rare
    tables this does not (tests/output/test_markdown_tables.py compares the two). A cell is
    stripped and padded to the column's width, at least its header's and two more; widths are
    display columns (:func:`~odds.output.terminal.width_of`: a wide character two, a combining
    mark none), measured by the standard library whatever is installed, so a report is the same
    bytes everywhere (tabulate would measure with ``wcwidth`` only where it is installed). The
    cells reach here on one line, control characters replaced (:func:`one_line`), so
    tabulate's handling of line breaks and terminal escape codes never applies.
    """
    count = len(headers)
    if (
        len(align) != count
        or any(a not in _PAD for a in align)
        or any(len(row) != count for row in rows)
    ):
        return None
    width = width_of
    if not rows:  # tabulate then pads every header left and marks no alignment
        wide = [width(h) + 2 for h in headers]
        heads = [f"{h:<{w + len(h) - width(h)}}" for h, w in zip(headers, wide, strict=True)]
        return "\n".join([_row(heads), "|" + "|".join("-" * (w + 2) for w in wide) + "|"])
    columns: list[list[str]] = []
    widths: list[int] = []
    for i, header in enumerate(headers):
        spec = _PAD[align[i]]
        cells = [row[i].strip() for row in rows]
        seen = [width(cell) for cell in cells]
        most = max([*seen, width(header) + 2])
        padded = [
            f"{cell:{spec}{most - (w - len(cell))}}" for cell, w in zip(cells, seen, strict=True)
        ]
        columns.append(padded)
        widths.append(max([width(header) + 2, *(width(cell) for cell in padded)]))
    heads = [
        f"{h:{_PAD[a]}{w + len(h) - width(h)}}"
        for h, a, w in zip(headers, align, widths, strict=True)
    ]
    rule = "|".join(
        "-" * (w + 1) + ":" if a == "right" else ":" + "-" * w + (":" if a == "center" else "-")
        for a, w in zip(align, widths, strict=True)
    )
    lines = [_row(heads), f"|{rule}|"]
    lines += [_row(list(row)) for row in zip(*columns, strict=True)]
    return "\n".join(lines)


def _row(cells: Sequence[str]) -> str:
    return ("| " + " | ".join(cells) + " |").rstrip()


def _table_text(text: str) -> str:
    """A cell or header: user text kept as text, and every ``|`` escaped (the table stays one)."""
    return inline_text(text).replace("|", "\\|")


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
    lines = [f"## {inline_text(table.title)}", "", table_markdown(table, digits), ""]
    if table.note:
        lines += [paragraph_text(table.note), ""]
    return lines


def tables_markdown(tables: Sequence[Table], digits: int = 6) -> str:
    """Tables as Markdown sections (title, table, note)."""
    lines: list[str] = []
    for table in tables:
        lines += table_section(table, digits)
    return "\n".join(lines).rstrip() + "\n"
