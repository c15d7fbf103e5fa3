"""The one table model every report, command and output format shares.

A :class:`Table` declares its columns once — a key, a header and a *kind*
(text, ways, probability, exact, percent …) — and holds one set of rows keyed
by column. Games put exact values in the rows (ints, ``Fraction`` s, bools,
text) and never format a number: :mod:`odds.output` turns the same rows into
Markdown (decimals with the report's digits), JSON (exact fractions as strings,
counts as integers), CSV (one tidy table per file) and the Excel and PDF PAR sheets.

Every exact number a data format carries (JSON, CSV, :func:`records`) comes
with its nearest double beside it, under the column's key and ``_decimal``
(``ev`` ``"-43/415"``, ``ev_decimal`` ``-0.10361445783132531``): a
spreadsheet or a data frame reads the decimal as a number, and the exact value
stays the reference.

>>> from fractions import Fraction
>>> t = Table(
...     key="demo",
...     title="Demo",
...     columns=(Column("event", "event"), Column("ways", "ways", Kind.WAYS),
...              Column("probability", "probability", Kind.PROBABILITY)),
...     rows=({"event": "win", "ways": 1200, "probability": Fraction(1, 3)},),
... )
>>> markdown_cells(t, 4)
[['win', '1,200', '0.3333']]
>>> json_value(t)
[{'event': 'win', 'ways': 1200, 'probability': '1/3', 'probability_decimal': 0.3333333333333333}]
>>> csv_rows(t)[1]
['win', '1200', '1/3', '0.3333333333333333']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from operator import attrgetter
from typing import Any

from odds.core.numbers import (
    decimal,
    fraction_text,
    grouped,
    payout_ratio,
    percent,
    percent_places,
    short_number,
)

Row = Mapping[str, Any]

#: Longest exact number (in characters) a Markdown cell shows; longer ones are
#: rounded there, marked ``≈``, and left exact in JSON and CSV.
CELL_LIMIT = 24
#: The footnote a Markdown table carries when it rounded a long number.
LONG_NUMBER_NOTE = (
    "≈ marks an exact number too long for a table (over {limit} characters), rounded "
    "here; JSON (`--format json`) and CSV give it exactly."
)


class Kind(StrEnum):
    """How a column's exact values are shown.

    Markdown shows decimals for people; JSON and CSV keep every exact number
    as a fraction string and every count as an integer.
    """

    #: Words, hand names, labels: shown as they are.
    TEXT = "text"
    #: A count of ways or any whole number: ``1,234`` in Markdown, an integer in JSON.
    WAYS = "ways"
    #: A probability or any exact number read as a decimal: the report's digits.
    PROBABILITY = "probability"
    #: An exact number shown as a fraction everywhere: ``-43/415``.
    EXACT = "exact"
    #: An exact number as people write it (``9.5``, ``7``, ``1/3``); a fraction in JSON.
    NUMBER = "number"
    #: An exact share shown as a percentage (``2.5002%``); a fraction in JSON.
    PERCENT = "percent"
    #: A payout to 1 (``60:1``); the exact multiple in JSON.
    PAYOUT = "payout"
    #: A net result per unit staked: ``wins 2:1``, ``loses 1``, ``push``; exact in JSON.
    NET = "net"
    #: Yes or no; a boolean in JSON.
    FLAG = "flag"
    #: A value that is not exact (a square root, a simulation): a decimal in
    #: Markdown, a float in JSON. Reports say which figures are approximate.
    APPROXIMATE = "approximate"
    #: A list of words: comma-separated in Markdown and CSV, a list in JSON.
    LIST = "list"
    #: Structured data for JSON only (lists, mappings of exact values).
    DATA = "data"


@dataclass(frozen=True)
class Column:
    """One column: its key in the rows (dots nest in JSON), header, kind and formatting.

    ``places`` overrides the decimals shown in Markdown (default: the report's
    digits; percentages :func:`odds.core.numbers.percent_places`). ``signed``
    prefixes positive values with ``+`` (percentages and decimals). ``markdown`` /
    ``json`` choose the outputs the column appears in (a decimal next to its exact
    fraction is for people only).
    """

    key: str
    header: str
    kind: Kind = Kind.TEXT
    places: int | None = None
    signed: bool = False
    markdown: bool = True
    json: bool = True
    #: Markdown only: the key of a text shown after the value in the same cell
    #: (a hand's value and its best action: ``+0.1234 S``).
    suffix: str | None = None
    #: JSON keeps the key (``null``, and its decimal ``null``) when the value is ``None``:
    #: a field every document of a command has, so a reader never tests for it.
    json_null: bool = False


@dataclass(frozen=True)
class Table:
    """A titled table: declared columns, one set of rows, an optional total row and a note.

    ``total`` is printed as the last Markdown row (and included in JSON only
    with ``json_total``). ``json_index`` names a column whose values key the
    JSON (a mapping instead of a list of records). ``markdown=False`` keeps the
    whole table out of Markdown (data only JSON readers want).
    """

    key: str
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    total: Row | None = None
    note: str = ""
    json_total: bool = False
    json_index: str | None = None
    markdown: bool = True
    #: JSON is the one row's record itself (a table of one row of facts).
    json_record: bool = False
    #: A document's own fields: the one row's record is spread at the top of the
    #: command's JSON (its paytable, its verdict) instead of under :attr:`key`
    #: (:func:`odds.output.json_document.document`).
    json_fields: bool = False

    def column(self, key: str) -> Column:
        """The column called ``key``."""
        for column in self.columns:
            if column.key == key:
                return column
        raise KeyError(key)

    def values(self, key: str) -> list[Any]:
        """One column's values, row by row (the total row excluded)."""
        return [row.get(key) for row in self.rows]


def markdown_headers(table: Table) -> list[str]:
    """The headers of the columns Markdown shows."""
    return [c.header for c in table.columns if c.markdown]


#: Kinds whose values are numbers: right-aligned in Markdown, with a decimal beside
#: the exact value in CSV.
NUMERIC_KINDS = frozenset(
    {
        Kind.WAYS,
        Kind.PROBABILITY,
        Kind.EXACT,
        Kind.NUMBER,
        Kind.PERCENT,
        Kind.PAYOUT,
        Kind.APPROXIMATE,
    }
)


#: Kinds whose exact values (fractions) data formats accompany with a ``_decimal`` sibling.
EXACT_KINDS = frozenset(
    {Kind.PROBABILITY, Kind.EXACT, Kind.NUMBER, Kind.PERCENT, Kind.PAYOUT, Kind.NET}
)
#: What a column's decimal sibling is called: ``ev`` → ``ev_decimal``.
DECIMAL_SUFFIX = "_decimal"


def has_decimal(column: Column) -> bool:
    """Whether data formats give ``column`` a decimal sibling (an exact number shown as a fraction).

    A percentage's decimal is the share itself (``0.025`` for 2.5%), as a spreadsheet
    formats it.
    """
    return column.json and column.kind in EXACT_KINDS


def decimal_value(value: Any) -> float | None:
    """The nearest double to an exact value: what a spreadsheet holds (``None``: no number).

    A labelled approximation (its column ends in ``_decimal``); the exact value is beside it.

    >>> decimal_value(Fraction(-43, 415)), decimal_value("Total")
    (-0.10361445783132531, None)
    """
    if value is None or isinstance(value, bool | str):
        return None
    try:
        return float(Fraction(value))
    except (TypeError, ValueError, OverflowError):
        return None


def decimal_text(value: Any) -> str:
    """:func:`decimal_value` as CSV text: the shortest digits that read back as the same double.

    >>> decimal_text(Fraction(1, 40)), decimal_text(Fraction(-1, 2)), decimal_text(None)
    ('0.025', '-0.5', '')
    """
    number = decimal_value(value)
    return "" if number is None else repr(number)


def markdown_alignment(table: Table) -> list[str | None]:
    """Per Markdown column: ``"right"`` for a numeric kind, ``None`` (read the cells) otherwise.

    A text column of numbers (a deck count) is still right-aligned by its cells.
    """
    return ["right" if c.kind in NUMERIC_KINDS else None for c in table.columns if c.markdown]


def markdown_cells(table: Table, digits: int) -> list[list[str]]:
    """Every Markdown row as text, the total row last."""
    rows = list(table.rows) + ([table.total] if table.total is not None else [])
    shown = [c for c in table.columns if c.markdown]
    return [[_with_suffix(row, c, digits) for c in shown] for row in rows]


def _with_suffix(row: Row, column: Column, digits: int) -> str:
    text = cell_text(row.get(column.key), column, digits)
    if column.suffix is not None and row.get(column.suffix) is not None and text:
        text += f" {row[column.suffix]}"
    return text


def cell_text(value: Any, column: Column, digits: int) -> str:
    """One value as Markdown shows it in ``column``; ``None`` is an empty cell.

    A ``str`` in a numeric column is shown as it is (a mark such as ``≈``).

    >>> cell_text(Fraction(19, 2), Column("points", "points", Kind.NUMBER), 6)
    '9.5'
    """
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    kind = column.kind
    if kind is Kind.FLAG:
        return "yes" if value else "no"
    if kind is Kind.WAYS:
        text = f"{value:,}"
        return text if len(text) <= CELL_LIMIT else f"≈ {_scientific(value)}"
    if kind is Kind.EXACT:
        text = fraction_text(value)
        return text if len(text) <= CELL_LIMIT else f"≈ {grouped(decimal(Fraction(value), digits))}"
    if kind is Kind.NUMBER:
        return short_number(Fraction(value))
    if kind is Kind.PERCENT:
        places = column.places if column.places is not None else percent_places(digits)
        text = percent(value, places)
        return ("+" + text) if column.signed and value > 0 else text
    if kind is Kind.PAYOUT:
        return f"{short_number(Fraction(value))}:1"
    if kind is Kind.NET:
        return payout_ratio(value)
    if kind is Kind.LIST:
        return ", ".join(str(v) for v in value)
    if kind in (Kind.PROBABILITY, Kind.APPROXIMATE):
        text = grouped(
            decimal(Fraction(value), column.places if column.places is not None else digits)
        )
        return ("+" + text) if column.signed and value > 0 else text
    if kind is Kind.DATA:
        raise ValueError(f"column {column.key!r}: data columns are for JSON only")
    return str(value)


def _scientific(value: int) -> str:
    """``4.7471×10^47``: five significant digits of a huge count."""
    text = f"{value:.4e}"
    mantissa, exponent = text.split("e")
    return f"{mantissa}×10^{int(exponent)}"


def is_long(value: Any, kind: Kind) -> bool:
    """Whether Markdown shows ``value`` rounded (see :data:`CELL_LIMIT`)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return False
    if kind is Kind.WAYS:
        return len(f"{value:,}") > CELL_LIMIT
    if kind is Kind.EXACT:
        return len(fraction_text(value)) > CELL_LIMIT
    return False


def has_long_numbers(table: Table) -> bool:
    """Whether any Markdown cell of the table is a rounded long number."""
    rows = list(table.rows) + ([table.total] if table.total is not None else [])
    return any(is_long(row.get(c.key), c.kind) for row in rows for c in table.columns if c.markdown)


def json_cell(value: Any, kind: Kind) -> Any:
    """One value as JSON carries it: exact numbers as fraction strings, counts as ints."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):  # a mark in a numeric column (``absent``, ``never``): as it is
        return value
    if kind is Kind.APPROXIMATE:
        return float(value)
    if kind in (Kind.DATA, Kind.LIST):
        return plain(value)
    if kind in (Kind.PROBABILITY, Kind.EXACT, Kind.NUMBER, Kind.PERCENT, Kind.PAYOUT, Kind.NET):
        return fraction_text(value)
    return plain(value)


def plain(value: Any) -> Any:
    """Nested data made JSON-ready: Fractions become fraction strings, tuples lists."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def json_record(row: Row, columns: Sequence[Column]) -> dict[str, Any]:
    """One row as a JSON object; dotted keys nest (``weakest.hand``).

    ``None`` is left out, unless the column keeps it (:attr:`Column.json_null`).
    """
    record: dict[str, Any] = {}
    for column in columns:
        value = row.get(column.key)
        if not column.json or (value is None and not column.json_null):
            continue
        target = record
        *parents, leaf = column.key.split(".")
        for part in parents:
            target = target.setdefault(part, {})
        target[leaf] = json_cell(value, column.kind)
        if has_decimal(column):
            number = decimal_value(value)
            if number is not None or value is None:
                target[leaf + DECIMAL_SUFFIX] = number
    return record


def json_value(table: Table) -> Any:
    """The table's JSON: a list of records, or a mapping keyed by ``json_index``."""
    rows = list(table.rows)
    if table.json_total and table.total is not None:
        rows.append(table.total)
    if table.json_record or table.json_fields:
        if len(rows) != 1:
            raise ValueError(f"table {table.key}: a one-record JSON needs exactly one row")
        return json_record(rows[0], table.columns)
    if table.json_index is None:
        return [json_record(row, table.columns) for row in rows]
    others = [c for c in table.columns if c.key != table.json_index]
    return {str(row[table.json_index]): json_record(row, others) for row in rows}


def data_rows(table: Table) -> list[Row]:
    """The rows data formats carry: the total row only where the JSON has it (``json_total``).

    A total row is a sum, not an observation: left in, it would be counted twice
    by anyone summing a column of a tidy table.
    """
    rows = list(table.rows)
    if table.json_total and table.total is not None:
        rows.append(table.total)
    return rows


def data_columns(table: Table) -> list[Column]:
    """The columns of a tidy table: the JSON columns less the structured (JSON-only) ones."""
    return [c for c in table.columns if c.json and c.kind is not Kind.DATA]


def csv_header(table: Table) -> list[str]:
    """The CSV header: every column's key, each exact one followed by its ``_decimal`` sibling."""
    header = []
    for column in data_columns(table):
        header.append(column.key)
        if has_decimal(column):
            header.append(column.key + DECIMAL_SUFFIX)
    return header


def csv_rows(table: Table) -> list[list[str]]:
    """Header and rows of one tidy table: exact values as text, each with its decimal beside.

    Counts are integers, exact numbers fractions (``-43/415``), flags ``yes``/``no``,
    lists comma-separated; the Markdown total row is left out (see :func:`data_rows`).
    """
    columns = data_columns(table)
    out = [csv_header(table)]
    for row in data_rows(table):
        cells = []
        for column in columns:
            raw = row.get(column.key)
            value = json_cell(raw, column.kind)
            if isinstance(value, list):
                value = ", ".join(str(v) for v in value)
            if isinstance(value, bool):
                value = "yes" if value else "no"
            cells.append("" if value is None else str(value))
            if has_decimal(column):
                cells.append(decimal_text(raw))
        out.append(cells)
    return out


def record(row: Row, columns: Sequence[Column]) -> dict[str, Any]:
    """One row of a tidy table as Python values: exact numbers stay ``Fraction`` s.

    Keys are the column keys as they are (``weakest.hand`` is not nested).
    """
    return {c.key: row.get(c.key) for c in columns}


def records(table: Table) -> list[dict[str, Any]]:
    """The tidy table's rows as records of exact values
    (:meth:`odds.stats.analysis.Analysis.records`)."""
    columns = data_columns(table)
    return [record(row, columns) for row in data_rows(table)]


def fields_table(key: str, title: str, fields: Sequence[tuple[Column, Any]]) -> Table:
    """A command's own facts as a one-row table of :attr:`Table.json_fields`.

    Each field is declared like any column (its kind says how JSON carries it:
    an exact number as a fraction string with its decimal), so a command's
    top-level facts follow the same conventions as its tables' cells.

    >>> t = fields_table("verdict", "Verdict", [(Column("verified", "verified", Kind.FLAG), True)])
    >>> json_value(t)
    {'verified': True}
    """
    return Table(
        key=key,
        title=title,
        columns=tuple(column for column, _ in fields),
        rows=({column.key: value for column, value in fields},),
        markdown=False,
        json_fields=True,
    )


#: A column of :func:`objects_table`: read from each item's attribute of the column's key, or
#: of the name given beside it, or by the function given beside it.
ItemColumn = Column | tuple[Column, str | Callable[[Any], Any]]


def objects_table(
    key: str, title: str, items: Iterable[Any], columns: Sequence[ItemColumn], **options: Any
) -> Table:
    """A table of one row per item, each column read from the item (the other
    :class:`Table` fields as ``options``).

    >>> from types import SimpleNamespace as Item
    >>> columns = [Column("name", "name"), (Column("ways", "ways", Kind.WAYS), "n")]
    >>> objects_table("t", "T", [Item(name="a", n=2)], columns).rows
    ({'name': 'a', 'ways': 2},)
    """
    read: list[tuple[str, Callable[[Any], Any]]] = []
    for given in columns:
        column, how = given if isinstance(given, tuple) else (given, given.key)
        read.append((column.key, how if callable(how) else attrgetter(how)))
    rows = tuple({name: get(item) for name, get in read} for item in items)
    shown = tuple(c[0] if isinstance(c, tuple) else c for c in columns)
    return Table(key=key, title=title, columns=shown, rows=rows, **options)
