"""Where a round log comes from: the named file, copied privately, as a DuckDB relation.

DuckDB never sees the user's path. It would expand glob patterns and ``~`` in
it (``table[1].csv`` reads ``table1.csv``, ``logs/s*.csv`` every match) and
read the file again for every query, so what it audited could differ from
what was named or hashed. Instead the file is opened once by its literal name
(:class:`odds.runtime.inputs.InputFile`: a regular file, every byte hashed) and

* a text log (CSV, optionally gzipped; LF, CRLF or CR line ends; UTF-8 with or
  without a BOM, UTF-16 told by itself, or the ``--encoding`` given: cp1252 from
  Excel on Windows …, transcoded to UTF-8) is validated line by line
  (:func:`odds.runtime.inputs.text_blocks`) and written to a private copy with LF line ends;
* a Parquet file (told by its first bytes, ``PAR1``, whatever its name) is
  copied byte for byte;

and DuckDB reads only the copy, in a private temporary folder. The digest in
the result is of exactly the bytes the copy was made from.

Both kinds become the same relation, one row per log row: ``line`` (the CSV
line, or the Parquet row counted from 1), ``nf`` (the number of fields),
``blank``, ``bad_quotes``, ``open_quote``, and the fields ``f1 … fk`` as text, trimmed. The
header is checked against the game's positions before any row is read, and
the first :data:`FIRST_ROWS` rows are offered on their own
(:meth:`StagedLog.first_rows`) so a malformed log is refused before a large
file is copied. See :mod:`odds.tools.audit.reader` for what is done with the rows.
"""

from __future__ import annotations

import contextlib
import csv
import errno
import itertools
import re
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from odds.core.errors import OddsError, ResourceError
from odds.games.base import Game
from odds.runtime.inputs import Digest, InputFile, TextBlock, private_folder, text_blocks
from odds.tools.audit.layout import Layout, read_layout

#: DuckDB's memory budget; beyond it, joins and aggregations spill to disk.
MEMORY_LIMIT = "400MB"
#: Rows checked on their own before the rest of the log is read.
FIRST_ROWS = 1000
#: The field separators a text log may use, told apart by its header (the first that splits
#: it into the most fields).
DELIMITERS = (",", ";", "\t", "|")


class Source(Protocol):
    """A log as SQL: ``relation()`` selects (line, nf, blank, bad_quotes, open_quote, f1 … fk)."""

    unit: str
    columns: list[str]

    def relation(self) -> str: ...


@dataclass(frozen=True)
class Database:
    """An open DuckDB connection and the private folder its spills and log copies live in."""

    con: Any
    folder: Path


@contextlib.contextmanager
def database() -> Iterator[Database]:
    try:
        import duckdb
    except ImportError:  # pragma: no cover - a core dependency
        raise OddsError("odds audit needs DuckDB: pip install duckdb") from None
    folder = private_folder("odds-audit-")
    try:
        spill = folder / "spill"
        spill.mkdir()
        # A database file in the private folder, not an in-memory one: the tables of a
        # 10-million-row log (gigabytes) are then evicted to disk within MEMORY_LIMIT, where
        # in-memory tables stayed resident (7 GB measured by python -m tests.measure.scale).
        con = duckdb.connect(str(folder / "audit.duckdb"), config={"enable_external_access": True})
        try:
            con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
            con.execute("SET temp_directory = ?", [str(spill)])
            con.execute("SET enable_progress_bar = false")
            con.execute("SET preserve_insertion_order = true")  # CSV line numbers need it
            # The database is deleted with its folder once closed: no checkpoint writing its
            # tables into the file on the way out (closing took 8.7 ms of CPU, now 5.3).
            con.execute("PRAGMA disable_checkpoint_on_shutdown")
            yield Database(con, folder)
        except duckdb.Error as exc:  # a query run outside _Log._query: named all the same
            resource = resource_error("the audit", exc)
            if resource is None:
                raise
            raise resource from None
        finally:
            con.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def small_side_built(con: Any) -> Iterator[None]:
    """Joins in this block build their hash tables on the right side, as written.

    The log's rows are joined to the small hand table (a few thousand texts),
    once per position and seat. DuckDB's plan estimates a text log at a
    handful of rows (``~8 rows`` for a 19 MB log) and so swaps the sides: it
    built a hash table of the *log* for each of the seven joins of a five-seat
    Pok Deng log, ran out of its 400 MB at 200,000 rounds and
    exited 2 as if the log were malformed (issue 33; 476 MiB peak then, 394 MiB
    and PASS with the hand table built). Parquet files state their row counts,
    so only text logs were hit; the queries here put the small table on the
    right of every join, and the optimizer that would swap them is off.
    """
    con.execute("SET disabled_optimizers = 'build_side_probe_side'")
    try:
        yield
    finally:
        con.execute("RESET disabled_optimizers")


def first_line(exc: Exception) -> str:
    """The first line of a (DuckDB) error message."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


#: How DuckDB says that memory or temporary disk space ran out.
_RESOURCE = re.compile(r"Out of Memory|No space left on device|Disk quota exceeded", re.I)


def resource_error(what: str, exc: Exception) -> ResourceError | None:
    """A :class:`ResourceError` when ``exc`` says memory or disk ran out (None otherwise).

    Not "cannot read the log", exit 2: the log is probably fine, and the
    remedy is the machine's (free memory, point TMPDIR at a larger disk).
    """
    if not _RESOURCE.search(str(exc)):
        return None
    return ResourceError(
        f"{what} ran out of memory or temporary disk space ({first_line(exc)}); the log "
        f"may be fine: free memory or point TMPDIR at a folder with room, and run it again"
    )


# ---------------------------------------------------------------------------
# A log being read: header checked, first rows, then the whole file


class StagedLog(Protocol):
    """A log whose header is checked; its first rows, then every row, as a :class:`Source`."""

    columns: list[str]
    layout: Layout
    whole: bool  # the first rows are every row of the log

    def first_rows(self) -> Source: ...

    def everything(self, update: Callable[[float], None]) -> tuple[Source, Digest]:
        """Every row (``update`` gets the share of the file read, 0 to 1) and the digest."""
        ...


def stage_log(
    db: Database,
    game: Game,
    file: InputFile,
    mapping: dict[str, str] | None = None,
    encoding: str | None = None,
) -> StagedLog:
    """The log as a :class:`StagedLog`, its header read into a :class:`Layout`.

    ``mapping`` is ``--columns`` (:func:`odds.tools.audit.layout.parse_mapping`). A header
    that cannot be read is a one-line error.
    """
    staged: StagedLog = (
        _ParquetLog(db, file) if file.kind() == "parquet" else _CsvLog(db, file, encoding)
    )
    staged.layout = read_layout(game, staged.columns, file.label, mapping)
    return staged


class StagedTable(Protocol):
    """A table read like a log but not checked against a game (a wager log): its columns,
    its first rows, then every row."""

    columns: list[str]

    def first_rows(self) -> Source: ...

    def everything(self, update: Callable[[float], None]) -> tuple[Source, Digest]: ...


def stage_table(db: Database, file: InputFile, encoding: str | None = None) -> StagedTable:
    """Any table (CSV, gzip, Parquet) as the same relation a round log becomes.

    The wager log of ``odds audit --wagers`` (:mod:`odds.tools.audit.wagers`) is read
    through this: the same private copy, digest, encodings and line numbers as the round
    log, without a game's header check (its columns are the wager log's own).
    """
    if file.kind() == "parquet":
        return _ParquetLog(db, file)
    return _CsvLog(db, file, encoding)


def sniff_delimiter(header: str) -> str:
    """The separator that splits a header line into the most fields (a comma on a tie).

    >>> sniff_delimiter("shoe;round;banker;player"), sniff_delimiter("banker,player")
    (';', ',')
    """
    counts = [len(next(csv.reader([header], delimiter=d), [])) for d in DELIMITERS]
    return DELIMITERS[counts.index(max(counts))]


class _CsvLog:
    """A text log: the header and first rows read ahead; the rest copied on demand."""

    layout: Layout

    def __init__(self, db: Database, file: InputFile, encoding: str | None = None) -> None:
        self.db, self.file = db, file
        self.blocks = text_blocks(file, encoding=encoding)
        self.ahead: list[TextBlock] = []
        self.whole = False
        while sum(b.count for b in self.ahead) <= FIRST_ROWS:
            block = next(self.blocks, None)
            if block is None:
                self.whole = True
                break
            self.ahead.append(block)
        if not self.ahead:
            raise OddsError(f"{file.label}: empty log (expected a header line)")
        header = self.ahead[0].data[: self.ahead[0].data.index(b"\n")].decode("utf-8").strip()
        self.delimiter = sniff_delimiter(header)
        try:
            raw = next(csv.reader([header], delimiter=self.delimiter), [])
        except csv.Error as exc:  # pragma: no cover - NUL bytes are refused before
            raise OddsError(f"{file.label} line 1: malformed header ({exc})") from None
        self.columns = [c.strip() for c in raw]

    def first_rows(self) -> Source:
        path = self.db.folder / "first-rows.csv"
        data = b"".join(b.data for b in self.ahead)
        end = -1
        for _ in range(FIRST_ROWS + 1):  # the header and the first rows, each ending in \n
            end = data.find(b"\n", end + 1)
            if end < 0:
                end = len(data) - 1
                break
        with _writing(path):
            path.write_bytes(data[: end + 1])
        return _CsvSource(path, self.columns, self.delimiter)

    def everything(self, update: Callable[[float], None]) -> tuple[Source, Digest]:
        """The whole log copied; blank lines at its end are cut off the copy (not rows).

        Exporters end a file with an empty line, and one flagged an honest log as
        a rejected row (issue 33). Only the copy is cut, after its last line that
        is not blank (spaces and tabs count as blank, as :class:`_CsvSource`
        says), so memory stays one block whatever the number of blank lines; a
        blank line with rows after it stays a row, rejected and named. The digest
        is of every byte read, the cut lines included.
        """
        path = self.db.folder / "log.csv"
        size = max(self.file.size, 1)
        with _writing(path), path.open("wb") as copy:
            end = 0  # the copy's length up to the end of its last line that is not blank
            for block in itertools.chain(self.ahead, self.blocks):
                start = copy.tell()
                copy.write(block.data)
                text = block.data.rstrip(b" \t\n")
                if text:  # blocks hold whole lines: the last non-blank one ends at this \n
                    end = start + block.data.index(b"\n", len(text)) + 1
                update(min(self.file.bytes_read / size, 1.0))
            self.ahead = []
            copy.truncate(end)
        return _CsvSource(path, self.columns, self.delimiter), self.file.digest()


@contextlib.contextmanager
def _writing(path: Path) -> Iterator[None]:
    """Writing the private copy: a full disk is a one-line error naming the folder."""
    try:
        yield
    except OSError as exc:
        kind = ResourceError if exc.errno in (errno.ENOSPC, errno.EDQUOT) else OddsError
        raise kind(
            f"cannot copy the log to the temporary folder {path.parent} ({exc.strerror}); "
            "set TMPDIR to a folder with room for it"
        ) from None


class _ParquetLog:
    """A Parquet log, copied byte for byte before its schema is read."""

    layout: Layout
    whole = False

    def __init__(self, db: Database, file: InputFile) -> None:
        self.db, self.file = db, file
        self.path = db.folder / "log.parquet"
        self.digest = file.copy_to(self.path)
        try:
            described = db.con.execute(
                "DESCRIBE SELECT * FROM read_parquet(?)", [str(self.path)]
            ).fetchall()
        except Exception as exc:  # duckdb raises its own error types
            raise OddsError(
                f"{file.label}: not a readable Parquet file ({first_line(exc)})"
            ) from None
        self.names = [row[0] for row in described]
        self.columns = [name.strip() for name in self.names]

    def first_rows(self) -> Source:
        return _ParquetSource(self.path, self.names, FIRST_ROWS)

    def everything(self, update: Callable[[float], None]) -> tuple[Source, Digest]:
        update(1.0)
        return _ParquetSource(self.path, self.names), self.digest


def malformed(where: str, nf: int, width: int, bad_quotes: bool, open_quote: bool) -> OddsError:
    """Why a row cannot be split into the header's fields, in one line naming ``where``.

    A quote left open comes first: a field with a line break inside its quotes
    (CSV allows it; a line-by-line reader cannot, and a round log has no use
    for it) splits into two lines that each miscount their fields, and "wrong
    number of fields" sent people looking for a missing separator (issue 33).
    """
    if open_quote:
        return OddsError(
            f"{where}: a quoted field does not close on its line (a line break inside "
            "quotes?); a field may not span lines"
        )
    if nf != width:
        return OddsError(f"{where}: wrong number of fields ({nf}; the header has {width})")
    assert bad_quotes
    return OddsError(f"{where}: malformed quoting (a quote inside a field?)")


# ---------------------------------------------------------------------------
# Sources: both give a relation (line, nf, blank, bad_quotes, open_quote, f1 … fk)


def sql_text(text: str) -> str:
    """Text as an SQL string literal (a view cannot take parameters)."""
    return "'" + text.replace("'", "''") + "'"


def _identifier(name: str) -> str:
    """A column name as an SQL identifier, whatever it holds (spaces, quotes)."""
    return '"' + name.replace('"', '""') + '"'


class _CsvSource:
    """Each line of the private copy is one value (no quoting rules in the scanner), split in SQL.

    Reading lines rather than records keeps line numbers exact: a blank line is
    a (rejected) row — but not at the end of the file, where the copy stops
    (:meth:`_CsvLog.everything`) — and a field may not span lines
    (``open_quote``: an odd number of quotes, a line break inside a quoted field).
    A line with a double quote is split by a regular expression that honours CSV quoting and must
    reassemble the line exactly, or its quoting is malformed. The copy holds
    validated UTF-8 with LF line ends and no byte 0x01 (the scanner's
    separator), so the scanner sees each line whole.
    """

    unit = "line"

    def __init__(self, path: Path, columns: list[str], delimiter: str = ",") -> None:
        self.path, self.columns, self.width = path, columns, len(columns)
        self.delimiter = delimiter

    def relation(self) -> str:
        sep = self.delimiter
        outside = {"\t": "\\t", "|": "\\|"}.get(sep, sep)
        regex = '("(?:[^"]|"")*"|[^' + sep + '"]*)' + outside
        quoted = f"regexp_extract_all(text || {sql_text(sep)}, {sql_text(regex)}, 1)"
        fields = ", ".join(
            f"trim(CASE WHEN raw[{i}] LIKE '\"%' THEN replace(raw[{i}][2:-2], '\"\"', '\"') "
            f"ELSE raw[{i}] END, ' \t') AS f{i}"
            for i in range(1, self.width + 1)
        )
        return f"""
            SELECT line, len(raw) AS nf, text IS NULL OR trim(text, ' \t') = '' AS blank,
                   strpos(text, '"') > 0 AND array_to_string(raw, {sql_text(sep)}) <> text
                       AS bad_quotes,
                   strpos(text, '"') > 0
                       AND (length(text) - length(replace(text, '"', ''))) % 2 = 1
                       AS open_quote,
                   {fields}
            FROM (
                SELECT line, text,
                       CASE WHEN strpos(text, '"') = 0 THEN string_split(text, {sql_text(sep)})
                            ELSE {quoted} END AS raw
                FROM (
                    SELECT row_number() OVER () AS line, text
                    FROM read_csv({sql_text(str(self.path))}, columns = {{'text': 'VARCHAR'}},
                                  header = false, delim = '\x01', quote = '', escape = '',
                                  comment = '', auto_detect = false, strict_mode = false,
                                  new_line = '\\n', encoding = 'utf-8',
                                  max_line_size = 1048576)
                )
            )
            WHERE line > 1
        """


class _ParquetSource:
    """Parquet columns cast to text; rows are numbered from 1 in file order."""

    unit = "row"

    def __init__(self, path: Path, names: Sequence[str], limit: int | None = None) -> None:
        self.path, self.names, self.limit = path, list(names), limit
        self.columns = [name.strip() for name in names]

    def relation(self) -> str:
        names = [_identifier(n) for n in self.names]
        fields = ", ".join(
            f"trim(coalesce(CAST({n} AS VARCHAR), ''), ' \t') AS f{i}"
            for i, n in enumerate(names, 1)
        )
        all_null = " AND ".join(f"{n} IS NULL" for n in names)
        where = "" if self.limit is None else f"WHERE file_row_number < {self.limit}"
        return f"""
            SELECT file_row_number + 1 AS line, {len(names)} AS nf, ({all_null}) AS blank,
                   false AS bad_quotes, false AS open_quote, {fields}
            FROM read_parquet({sql_text(str(self.path))}, file_row_number = true)
            {where}
        """
