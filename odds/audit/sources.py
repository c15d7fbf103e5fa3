"""Where a round log comes from: a DuckDB relation over a CSV, gzipped CSV or Parquet file.

Both kinds of file become the same relation, one row per log row:
``line`` (the CSV line, or the Parquet row counted from 1), ``nf`` (the number
of fields), ``blank``, ``bad_quotes``, and the fields ``f1 … fk`` as text,
trimmed. The header is checked against the game's positions before any row is
read. See :mod:`odds.audit.reader` for what is done with the rows.
"""

from __future__ import annotations

import contextlib
import csv
import gzip
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from odds.audit.logs import LABEL_COLUMNS
from odds.errors import OddsError
from odds.games.base import Game
from odds.paytable import decode_utf8

#: DuckDB's memory budget; beyond it, joins and aggregations spill to disk.
MEMORY_LIMIT = "400MB"


class Source(Protocol):
    """A log file as SQL: ``relation()`` selects (line, nf, blank, bad_quotes, f1 … fk)."""

    unit: str
    columns: list[str]

    def relation(self) -> str: ...


@contextlib.contextmanager
def database() -> Iterator[Any]:
    try:
        import duckdb
    except ImportError:  # pragma: no cover - a core dependency
        raise OddsError("odds audit needs DuckDB: pip install duckdb") from None
    spill = tempfile.mkdtemp(prefix="odds-audit-")
    con = duckdb.connect(config={"enable_external_access": True})
    try:
        con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
        con.execute("SET temp_directory = ?", [spill])
        con.execute("SET enable_progress_bar = false")
        con.execute("SET preserve_insertion_order = true")  # CSV line numbers need it
        yield con
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)


def open_source(con: Any, game: Game, path: Path) -> Source:
    """The log as a :class:`Source`, its header checked; a one-line error if it cannot be read."""
    label = str(path)
    if not path.is_file():
        reason = "is a folder" if path.is_dir() else "No such file or directory"
        raise OddsError(f"{label}: cannot read ({reason})")
    if path.name.lower().endswith(".parquet"):
        columns = _parquet_columns(con, path, label)
        source: Source = _ParquetSource(path, columns)
    else:
        columns = _csv_header(path, label)
        source = _CsvSource(path, columns)
    _check_columns(game, columns, label)
    return source


# ---------------------------------------------------------------------------
# Sources: both give a relation (line, nf, blank, bad_quotes, f1 … fk)


def _csv_header(path: Path, label: str) -> list[str]:
    """The header line, read directly; the rest of the file is checked for stray bytes."""
    first, stray = _scan(path, label)
    if first is None:
        raise OddsError(f"{label}: empty log (expected a header line)")
    if stray is not None:
        line, what = stray
        raise OddsError(f"{label} line {line}: {what}")
    return next(csv.reader([first]))


def _scan(path: Path, label: str) -> tuple[str | None, tuple[int, str] | None]:
    """The first line, and the first byte that would break line-by-line reading.

    DuckDB reads each line as one value: a control byte 0x01 (the column
    separator it is given) or a carriage return not followed by a newline would
    split or cut a line silently, and text that is not UTF-8 would stop it with
    a long message. A quick byte scan names the line instead.
    """
    opener = gzip.open if path.name.lower().endswith(".gz") else open
    first: str | None = None
    line = 1
    tail = b""
    try:
        with opener(path, "rb") as handle:
            while chunk := handle.read(1 << 22):
                data = tail + chunk
                if first is None:
                    end = data.find(b"\n")
                    if end < 0 and len(data) < 1 << 20:
                        tail = data
                        continue
                    head = data[: end if end >= 0 else len(data)].rstrip(b"\r")
                    first = decode_utf8(head, label).strip()
                problem = _stray(data[: len(data) - 1])
                if problem is not None:
                    offset, what = problem
                    return first, (line + data.count(b"\n", 0, offset), what)
                line += data.count(b"\n", 0, len(data) - 1)
                tail = data[-1:]
            if first is None and tail:
                first = decode_utf8(tail.rstrip(b"\r\n"), label).strip()
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise OddsError(f"{label}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    if tail == b"\r":
        return first, (line, "a carriage return inside a line")
    return (first or None), None


_STRAY = re.compile(rb"\x01|\x00|\r(?!\n)")


def _stray(data: bytes) -> tuple[int, str] | None:
    found = _STRAY.search(data)
    if found is None:
        return None
    what = {b"\x01": "a control byte 0x01", b"\x00": "a NUL byte"}.get(
        found.group(), "a carriage return inside a line"
    )
    return found.start(), f"{what}: not a text log"


def _parquet_columns(con: Any, path: Path, label: str) -> list[str]:
    try:
        described = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [str(path)]).fetchall()
    except Exception as exc:  # duckdb raises its own error types
        raise OddsError(f"{label}: not a readable Parquet file ({first_line(exc)})") from None
    return [row[0] for row in described]


def _literal(path: Path) -> str:
    """A path as an SQL string literal (a view cannot take parameters)."""
    return "'" + str(path).replace("'", "''") + "'"


def first_line(exc: Exception) -> str:
    """The first line of a (DuckDB) error message."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


class _CsvSource:
    """Each physical line is one value (no quoting rules in the scanner), fields split in SQL.

    Reading lines rather than records keeps line numbers exact: a blank line is
    a (rejected) row, and a field may not span lines. A line with a double
    quote is split by a regular expression that honours CSV quoting and must
    reassemble the line exactly, or its quoting is malformed.
    """

    unit = "line"

    def __init__(self, path: Path, columns: list[str]) -> None:
        self.path, self.columns, self.width = path, [c.strip() for c in columns], len(columns)

    def relation(self) -> str:
        quoted = 'regexp_extract_all(text || \',\', \'("(?:[^"]|"")*"|[^,"]*),\', 1)'
        fields = ", ".join(
            f"trim(CASE WHEN raw[{i}] LIKE '\"%' THEN replace(raw[{i}][2:-2], '\"\"', '\"') "
            f"ELSE raw[{i}] END, ' \t') AS f{i}"
            for i in range(1, self.width + 1)
        )
        sql = f"""
            SELECT line, len(raw) AS nf, text IS NULL OR trim(text, ' \t') = '' AS blank,
                   strpos(text, '"') > 0 AND array_to_string(raw, ',') <> text AS bad_quotes,
                   {fields}
            FROM (
                SELECT line, text,
                       CASE WHEN strpos(text, '"') = 0 THEN string_split(text, ',')
                            ELSE {quoted} END AS raw
                FROM (
                    SELECT row_number() OVER () AS line, text
                    FROM read_csv(?, columns = {{'text': 'VARCHAR'}}, header = false,
                                  delim = '\x01', quote = '', escape = '', comment = '',
                                  auto_detect = false, strict_mode = false,
                                  new_line = '\\r\\n', encoding = 'utf-8')
                )
            )
            WHERE line > 1
        """
        return sql.replace("read_csv(?", f"read_csv({_literal(self.path)}")


class _ParquetSource:
    """Parquet columns cast to text; rows are numbered from 1 in file order."""

    unit = "row"

    def __init__(self, path: Path, columns: Sequence[str]) -> None:
        self.path, self.columns = path, [c.strip() for c in columns]

    def relation(self) -> str:
        names = [f'"{c}"' for c in self.columns]
        fields = ", ".join(
            f"trim(coalesce(CAST({n} AS VARCHAR), ''), ' \t') AS f{i}"
            for i, n in enumerate(names, 1)
        )
        all_null = " AND ".join(f"{n} IS NULL" for n in names)
        sql = f"""
            SELECT file_row_number + 1 AS line, {len(names)} AS nf, ({all_null}) AS blank,
                   false AS bad_quotes, {fields}
            FROM read_parquet(?, file_row_number = true)
        """
        return sql.replace("read_parquet(?", f"read_parquet({_literal(self.path)}")


def _check_columns(game: Game, columns: Sequence[str], label: str) -> None:
    names = [c.strip() for c in columns]
    if not any(names):
        raise OddsError(f"{label}: empty log (expected a header: {', '.join(game.positions)})")
    allowed = set(game.positions) | set(LABEL_COLUMNS)
    for column in names:
        if column not in allowed:
            raise OddsError(
                f"{label}: unknown column {column!r} (a {game.name} log has "
                f"{', '.join(game.positions)}; optional {', '.join(LABEL_COLUMNS)})"
            )
    for position in game.positions:
        if position not in names:
            raise OddsError(f"{label}: missing column {position!r} (one per hand)")
    if len(set(names)) != len(names):
        raise OddsError(f"{label}: a column appears twice")


# ---------------------------------------------------------------------------
# The hand table
