"""Reading a round log of any size with DuckDB: validated, settled once per kind of round.

An operator's log can hold tens of millions of rounds, so no row is kept in
Python. DuckDB (embedded, columnar, out of core) reads the file
(:mod:`odds.tools.audit.sources`) twice:

1. the distinct hand texts (a few thousand at most in a real log) are read, and
   each is parsed *once* in Python into the game's
   :class:`~odds.games.base.HandKey` (a small hand table the game provides) or
   into the reason it is unreadable or impossible;
2. every row is joined to that table into a compact table of small integers:
   why it is rejected (if it is), its hands' table ids, and the combination of
   its hands' keys and strength order.

Everything else is a query on that table: the first malformed row (wrong
number of fields, unreadable hand) stops the audit with a one-line error naming
its line; blank, empty and impossible rows and rows whose round labels
contradict each other are *rejected*: counted and named by line — the
impossible and contradicting ones a finding that flags the log, the blank and
empty ones rows that are not rounds (:data:`odds.tools.audit.audit.NOT_ROUNDS`);
the rest are counted per combination, and the game settles one example row of
each. A round's settlement depends only on its combination (the
game's promise, checked in the tests), so every count the statistics need
follows. Memory stays flat in the log's length (the database spills to disk).

The first :data:`~odds.tools.audit.sources.FIRST_ROWS` rows go through the same
steps on their own first, so a log that is malformed from its start is refused
before a large file is read (a text log of no more rows is read once: its first
malformed row is the same; each hand text is parsed once for both readings). A file of at
most :data:`FIRST_ROWS_LATER` bytes is read whole at once, its first rows checked on their own
only when that reading fails (:func:`_first_rows_later`): the same error, one reading fewer.
Rows of one round are told apart by their labels (``shoe`` and ``round``); a log
that repeats the shared (banker) hand row after row without such labels is one
row per position, and is refused rather than tested as if its rounds were
independent (:meth:`_Log._check_independent`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.settlement import Settlement
from odds.core.shoe import Shoe
from odds.games.base import Game
from odds.runtime.inputs import InputFile
from odds.runtime.progress import task
from odds.tools.audit.counts import LogCounts, Rejected, SettledGroup
from odds.tools.audit.groups import (
    Dimension,
    GroupCounts,
    GroupPath,
    check_groups,
    count_groups,
    dimensions,
)
from odds.tools.audit.integrity import Finding, shoe_findings
from odds.tools.audit.layout import Layout
from odds.tools.audit.logs import log_hand_sizes, round_cards
from odds.tools.audit.payouts import (
    AMOUNT_PATTERN,
    AMOUNT_RULE,
    TOLERANCE,
    BetColumns,
    SettlementAudit,
    audit_payouts,
    bets_sql,
    money_columns,
    round_label_sql,
)
from odds.tools.audit.results import read_results
from odds.tools.audit.shoes import (
    MAX_ROWS,
    MIN_ROUNDS_PER_SHOE,
    ShoeLog,
    hand_columns,
    shoes_from_rows,
)
from odds.tools.audit.sources import (
    Source,
    database,
    first_line,
    malformed,
    resource_error,
    small_side_built,
    sql_text,
    stage_log,
)

#: How the compact table is stored. Written once and read by a handful of queries, it costs
#: more to compress (DuckDB analyses every column of every segment) than it saves: a third of
#: the time of writing it, measured on a seated Pok Deng log (python -m tests.measure.scale).
LOG_COMPRESSION = "uncompressed"
#: Rejected rows named by line in the result (all are counted).
MAX_LISTED = 1000
#: Why a row is rejected: its code in the database and how the summary names the kind.
KINDS = {
    "blank": "blank line",
    "empty": "empty row (every field empty)",
    "impossible": "hands the shoe cannot hold",
    "round": "round labels contradict each other",
    "seats": "no seat has a hand",
    "refused": "the game refuses to settle",
    "results": "no bet has a result",  # a results-only log (odds.tools.audit.results)
}
_CODES = {kind: code for code, kind in enumerate(KINDS, 1)}
_FATAL = 99


#: The share of the progress bar for reading (and copying) the file.
READING = 30.0


def read_log(
    game: Game,
    config: Any,
    path: Path,
    mapping: dict[str, str] | None = None,
    by: tuple[str, ...] = (),
    paths: bool = False,
    encoding: str | None = None,
    shoe_rows: int = MAX_ROWS,
    shoes_dealt: bool = True,
) -> LogCounts:
    """Read, validate and settle a log (see the module docstring).

    The file is the one named, taken literally (:mod:`odds.runtime.inputs`); the counts
    carry the size and SHA-256 of the bytes read. ``mapping`` is ``--columns``
    (:mod:`odds.tools.audit.layout`); ``by`` the ``--by`` columns (each group counted
    apart, :mod:`odds.tools.audit.groups`), ``paths`` whether their cumulative nets are
    drawn; ``encoding`` the text log's encoding when it is not UTF-8 (``--encoding``).
    A log with a shoe column also gets its shoes card by card, from the same pass
    (:meth:`_Log.dealt_shoes`): at most ``shoe_rows`` rows, whole shoes, from the first.
    ``shoes_dealt`` False (a continuous shuffle, :mod:`odds.tools.audit.procedure`): the
    shoe column only labels rounds; no shoe integrity, no shoes read card by card (each
    round's own cards are still checked against the full shoe: an impossible row).
    A results-only log (no hand column; each bet's outcome) is read by
    :mod:`odds.tools.audit.results`.
    """
    log_hand_sizes(game)
    label = str(path)
    with InputFile(path) as file, database() as db, task(f"reading {path.name}") as update:
        staged = stage_log(db, game, file, mapping, encoding)
        layout = staged.layout
        fields = {
            n: f"f{i + 1}" for table in (layout.labels, layout.extra) for n, i in table.items()
        }
        dims = dimensions(by, fields, list(layout.hands), label)
        if layout.results:  # no cards: each bet's outcome (odds.tools.audit.results)
            return read_results(db.con, game, config, staged, label, dims, paths, update)
        known: dict[str, tuple[HandEntry, Any]] = {}  # each hand text read, for both readings

        def check_first_rows(first_rows: Source) -> None:
            first = _Log(db.con, game, config, label, first_rows, layout, lambda _: None, dims=dims)
            first.known = known
            first.check_rows()

        # A log longer than its first rows: they are checked on their own, before the rest is
        # read. A small file is read whole at once, and its first rows are checked only when
        # the whole reading fails (see _first_rows_later): the same error, one reading fewer.
        first_rows = None if staged.whole else staged.first_rows()
        if first_rows is not None and not _first_rows_later(file.size):
            check_first_rows(first_rows)
            first_rows = None
        try:
            source, digest = staged.everything(lambda share: update(READING * share))
            log = _Log(
                db.con, game, config, label, source, layout, update, start=READING, dims=dims
            )
            log.paths, log.shoes_dealt, log.known = paths, shoes_dealt, known
            counts = log.counts()
        except OddsError:
            if first_rows is not None:  # their error, if any, is the one reading them first gave
                check_first_rows(first_rows)
            raise
        # Under a continuous shuffle the rounds are still read card by card, for their rank
        # and suit counts (odds.tools.audit.round_frequencies), when the game's rounds never
        # draw, the law of the cards its drawing deals is known, or its deal goes on after a
        # first deal (that first deal's cards are tested).
        dealt = "shoe" in log.col and (
            shoes_dealt
            or not game.max_round_cards
            or game.goes_on()
            or game.dealt_moments(config) is not None
        )
        shoes, in_log = log.dealt_shoes(shoe_rows, shoes_dealt) if dealt else (None, 0)
        return dataclasses.replace(
            counts, size=digest.size, sha256=digest.sha256, shoes=shoes, shoes_in_log=in_log
        )


#: A log file of at most this many bytes (as stored: a gzipped log's compressed size) is read
#: whole without checking its first rows on their own first (:func:`_first_rows_later`).
FIRST_ROWS_LATER = 1 << 20


def _first_rows_later(size: int) -> bool:
    """Whether a log of ``size`` bytes is read whole before its first rows are checked.

    The first rows are checked on their own so that a large malformed file is refused before
    it is copied and read. A small one costs little to read whole, and the separate check
    (the hand table, the compact table and their queries, again) was 35 of the 150 ms of
    CPU of auditing a 2,000-round Pok Deng log in-process (now 124). The outcome is the
    same: any failure of the first rows' check is a failure of the whole reading (the first
    malformed row is the first of the log; a group value missing in them is missing in the
    log; more groups in them are more in the log), so a whole reading that succeeds would
    have passed it, and when the whole reading fails, the first rows are checked then, their
    error first, as reading them first gave.
    """
    return size <= FIRST_ROWS_LATER


# ---------------------------------------------------------------------------
# The hand table


@dataclass(frozen=True)
class HandEntry:
    """One distinct hand text: a fatal problem, an impossible hand, or its key and rank."""

    fatal: str | None = None
    impossible: str | None = None
    key: int = -1
    rank: int = 0
    items: tuple[int, ...] = ()


def classify_texts(
    game: Game,
    config: Any,
    shoe: Shoe[Any],
    texts: Sequence[str],
    known: dict[str, tuple[HandEntry, Any]] | None = None,
) -> tuple[list[HandEntry], int]:
    """Parse each distinct hand text once: keys numbered, strengths ranked densely.

    Returns the entries and the number of distinct keys. ``known`` keeps each text's
    reading (its entry and :class:`~odds.games.base.HandKey`) for the next call on the
    same game and config: the whole log's texts hold its first rows' again.
    """
    keyer = game.hand_keys(config)
    types = set(shoe.types)
    known = {} if known is None else known
    found = []
    for text in texts:
        reading = known.get(text)
        if reading is None:
            reading = known[text] = _classify(game, config, shoe, types, keyer, text)
        found.append(reading)
    keys: dict[Any, int] = {}
    strengths = sorted({k.strength for _, k in found if k is not None} - {None})
    rank = {None: 0} | {s: i + 1 for i, s in enumerate(strengths)}
    entries = [
        e
        if k is None
        else dataclasses.replace(e, key=keys.setdefault(k.key, len(keys)), rank=rank[k.strength])
        for e, k in found
    ]
    return entries, len(keys)


def _classify(
    game: Game, config: Any, shoe: Shoe[Any], types: set[Any], keyer: Any, text: str
) -> tuple[HandEntry, Any]:
    """One hand text read: its entry (a fatal problem, an impossible hand, or its items) and,
    for a hand the shoe can hold, its key (None otherwise)."""
    try:
        parsed = game.parse_hand(config, text)
    except OddsError as exc:
        return HandEntry(fatal=str(exc)), None
    problem = _hand_problem(game, shoe, types, parsed, text)
    if problem is not None:
        return HandEntry(fatal=problem), None
    items = tuple(sorted(shoe.index(item) for item in parsed))
    try:
        shoe.check_holds(parsed, "the hand")
    except OddsError as exc:
        return HandEntry(impossible=str(exc), items=items), None
    return HandEntry(items=items), keyer(tuple(parsed))


def _hand_problem(
    game: Game, shoe: Shoe[Any], known: set[Any], parsed: Sequence[Any], text: str
) -> str | None:
    sizes = log_hand_sizes(game)
    if len(parsed) not in sizes:
        size = " or ".join(map(str, sizes))
        return f"{len(parsed)} cards or tiles ({text!r}); {game.name} deals {size} per position"
    for item in parsed:
        if item not in known:
            return f"{item} is not used in this game's shoe ({shoe.description})"
    return None


# ---------------------------------------------------------------------------
# The queries


class _Log:
    """One open log: the queries that read it, with the progress bar they move."""

    def __init__(
        self,
        con: Any,
        game: Game,
        config: Any,
        label: str,
        source: Source,
        layout: Layout,
        update: Callable[[float], None],
        start: float = 0.0,
        dims: Sequence[Dimension] = (),
    ) -> None:
        self.con, self.game, self.config, self.label = con, game, config, label
        #: --by: the group columns (g0, g1 … in the compact table) and whether to draw them.
        self.dims, self.paths = tuple(dims), False
        self.shoes_dealt = True  # False: a continuous shuffle, the shoe column a label
        self.settled: dict[int, Settlement] = {}
        self.known: dict[str, tuple[HandEntry, Any]] = {}  # each hand text read (classify_texts)
        self.bet_columns: list[BetColumns] = []
        self.update, self.unit, self.layout = update, source.unit, layout
        self.shoe = game.shoe(config)
        self.col = {
            name: f"f{i + 1}"
            for table in (layout.hands, layout.labels, layout.extra)
            for name, i in table.items()
        }
        self.labels = tuple(name for name in ("shoe", "round", "position") if name in self.col)
        self.width = len(source.columns)
        self.positions = game.positions
        #: The seat columns of a one-row-per-round log (empty otherwise).
        self.seats = layout.seat_names if layout.seated else ()
        self._done = start
        self._scale = (100 - start) / 100
        self.con.execute(f"CREATE OR REPLACE TEMP VIEW rows AS {source.relation()}")

    def check_rows(self) -> None:
        """The malformed-row check alone (the first rows of a log, before the rest is read)."""
        self._prepare()

    def counts(self) -> LogCounts:
        self._prepare()
        self._check_rounds()
        self._make_final()
        self._check_independent()
        rows, untested, kinds = self._summary()
        groups, refused = self._groups()
        if refused:
            kinds["refused"] = sum(refused.values())
        findings, finding_kinds = self._check_shoes()
        payouts = self._check_payouts()
        by_groups, group_paths = self._count_groups(rows)
        return LogCounts(
            source=self.label,
            unit=self.unit,
            rows=rows,
            used=sum(g.count for g in groups),
            untested=untested,
            rejected=tuple(self._listed(refused)),
            rejected_kinds={k: n for k, n in kinds.items() if n},
            groups=tuple(groups),
            labels=self.labels,
            findings=tuple(findings),
            finding_kinds=finding_kinds,
            payouts=payouts,
            by_groups=tuple(by_groups),
            group_paths=tuple(group_paths),
        )

    def dealt_shoes(self, limit: int, through: bool = True) -> tuple[ShoeLog | None, int]:
        """The log's shoes from the compact table (no second reading), and how many it has.

        The rows a second reading of the file would give (``tests/reference/shoes.py``: every
        row but blank lines and rows of empty fields; malformed rows have stopped the
        audit already), in line order, their hands' texts from the hand table, turned
        into shoes by the same :func:`~odds.tools.audit.shoes.shoes_from_rows`. A log
        whose shoes are not dealt through gets no shoes; ``limit`` 0 reads none.
        ``through`` False (a continuous shuffle): the rounds are read whatever their
        number per label (no shoe integrity, whose per-shoe counts the gate reads).

        A row of empty fields is no round of any shoe: read as one (shoe ``''``, no
        hands) it cut its shoe in two and reached the shoe-aware tests as a round
        without hands, which stopped the audit with "empty hand" and no file or line
        (issue 33). It stays a rejected row, named by its line.
        """
        blank, empty = _CODES["blank"], _CODES["empty"]
        if through:
            # Those rows are shoe integrity's, counted per shoe in shoe_summary (no
            # count(DISTINCT) over the log).
            ((rows_total, shoes_total),) = self.con.execute(
                "SELECT coalesce(sum(row_count), 0), count(*) FROM shoe_summary"
            ).fetchall()
        else:  # a continuous shuffle: no shoe integrity; the shoe column a label of rounds
            c = _CODES
            ((rows_total,),) = self.con.execute(
                f"SELECT count(*) FROM log WHERE why IS NULL OR why IN ({c['impossible']}, "
                f"{c['seats']})"
            ).fetchall()
            shoes_total = 0
        if limit <= 0 or (through and rows_total < MIN_ROUNDS_PER_SHOE * max(1, shoes_total)):
            return ShoeLog((), self.unit, 0 if limit <= 0 else rows_total), shoes_total
        columns = []
        for name in hand_columns(self.layout):
            if name in self.seats:
                columns.append(f"sid{self.seats.index(name)}")
            else:
                columns.append(f"hid{self.positions.index(name)}")
        round_ = "round" if "round" in self.col else "''"
        result = self.con.execute(
            f"SELECT line, shoe, {round_}, {', '.join(columns)} FROM log "
            f"WHERE why IS NULL OR why NOT IN ({blank}, {empty}) ORDER BY line LIMIT {limit + 1}"
        )
        texts = [*self.texts, ""]  # a NULL hand id (no hand at a seat): index -1

        def rows() -> Iterator[tuple[Any, ...]]:
            while batch := result.fetchmany(10_000):
                for line, shoe, round_label, *hids in batch:
                    yield (line, shoe, round_label, *(texts[-1 if h is None else h] for h in hids))

        total = min(limit, rows_total)
        found = shoes_from_rows(
            self.game, self.config, self.layout, rows(), self.unit, limit, total
        )
        return found, shoes_total

    def _count_groups(self, rows: int) -> tuple[list[GroupCounts], list[GroupPath]]:
        """--by: each group's counts (:mod:`odds.tools.audit.groups`), money included."""
        if not self.dims:
            return [], []
        money = bets_sql(self.bet_columns, TOLERANCE, rows) if self.bet_columns else None
        return count_groups(self.con, self.dims, self.settled, money, self.paths)

    def _prepare(self) -> None:
        """The hand table, the compact table, and the first malformed row (an error)."""
        texts = self._distinct_texts()
        entries, key_count = classify_texts(self.game, self.config, self.shoe, texts, self.known)
        self.texts, self.entries = texts, entries
        self._store_hands(entries)
        self._materialize(key_count)
        self._first_fatal()
        if self.dims:
            check_groups(self.con, self.dims, f"{self.label} {self.unit}")

    # -- running a query with progress ----------------------------------------

    def _query(self, sql: str, weight: float = 10) -> list[Any]:
        """Run one statement in a worker thread; its progress moves the bar by ``weight``%."""
        weight *= self._scale
        result: dict[str, Any] = {}

        def run() -> None:
            try:
                result["rows"] = self.con.execute(sql).fetchall()
            except Exception as exc:  # re-raised below, in the calling thread
                result["error"] = exc

        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        try:
            while worker.is_alive():
                worker.join(0.2)
                with contextlib.suppress(Exception):
                    done = self.con.query_progress()
                    if done >= 0:
                        self.update(self._done + weight * min(done, 100) / 100)
        except KeyboardInterrupt:  # stop the query before the connection closes
            self.con.interrupt()
            worker.join()
            raise
        self._done += weight
        self.update(self._done)
        if "error" in result:
            raise self._error(result["error"])
        return result.get("rows", [])

    def _error(self, exc: Exception) -> Exception:
        text = str(exc)
        resource = resource_error(f"reading {self.label}", exc)
        if resource is not None:
            return resource
        found = re.search(r"Line: (\d+)", text)
        where = f" {self.unit} {found.group(1)}" if found else ""
        if re.search(r"unicode|utf-?8", text, re.IGNORECASE):
            return OddsError(f"{self.label}{where}: not UTF-8 text; save the log as UTF-8")
        return OddsError(f"{self.label}{where}: cannot read ({first_line(exc)})")

    # -- step 1: the hand table ---------------------------------------------------

    def _fields_ok(self, prefix: str = "") -> str:
        """SQL: the row has the header's fields, well quoted, not all empty, not blank."""
        empty = " AND ".join(f"{prefix}f{i} = ''" for i in range(1, self.width + 1))
        return (
            f"NOT {prefix}blank AND {prefix}nf = {self.width} AND NOT {prefix}bad_quotes "
            f"AND NOT ({empty})"
        )

    def _tested(self, position: str, prefix: str = "") -> str:
        """SQL: the hand text tested for a game position (with seats: the first seat played)."""
        hands = self.layout.seats[position]
        if len(hands) == 1 and hands[0] == position:
            return f"{prefix}{self.col[position]}"
        return "coalesce(" + ", ".join(f"nullif({prefix}{self.col[h]}, '')" for h in hands) + ")"

    def _distinct_texts(self) -> list[str]:
        fixed = [self.col[h] for h in self.layout.hands if h not in self.seats]
        cols = ", ".join(fixed + [f"nullif({self.col[s]}, '')" for s in self.seats])
        rows = self._query(
            f"SELECT DISTINCT t FROM (SELECT unnest([{cols}]) AS t FROM rows "
            f"WHERE {self._fields_ok()}) WHERE t IS NOT NULL ORDER BY t",
            weight=25,
        )
        return [r[0] for r in rows]

    def _store_hands(self, entries: list[HandEntry]) -> None:
        import numpy as np

        hand_table = {  # noqa: F841 - read by DuckDB's replacement scan below
            "hid": np.arange(len(entries), dtype=np.int64),
            "text": np.array(self.texts, dtype=object),
            "fatal": np.array([e.fatal is not None for e in entries], dtype=bool),
            "impossible": np.array([e.impossible is not None for e in entries], dtype=bool),
            "key": np.array([e.key for e in entries], dtype=np.int64),
            "rank": np.array([e.rank for e in entries], dtype=np.int64),
            "items": np.array([",".join(map(str, e.items)) for e in entries], dtype=object),
            "cards": np.array(_numbered(e.items for e in entries), dtype=np.int64),
            "mask": np.array([_type_mask(e.items) for e in entries], dtype=np.uint64),
        }
        self.con.execute(
            "CREATE OR REPLACE TABLE hands AS SELECT hid, text, fatal, impossible, key, rank, "
            "cards, mask, "
            "CASE WHEN items = '' THEN []::INTEGER[] "
            "ELSE list_transform(string_split(items, ','), lambda x: x::INTEGER) END AS items "
            "FROM hand_table"
        )

    # -- step 2: the compact table --------------------------------------------------

    def _materialize(self, key_count: int) -> None:
        """One row per log row: line, why it is rejected, hand ids, key combination, labels."""
        n = len(self.positions)
        joins = " ".join(
            f"LEFT JOIN hands h{i} ON {self._tested(p, 'r.')} = h{i}.text"
            for i, p in enumerate(self.positions)
        ) + "".join(
            f" LEFT JOIN hands s{j} ON nullif(r.{self.col[seat]}, '') = s{j}.text"
            for j, seat in enumerate(self.seats)
        )
        combo = _combo([f"h{i}" for i in range(n)], key_count)
        seats = range(len(self.seats))
        self.key_count = key_count
        fatal = " OR ".join(
            [f"h{i}.fatal" for i in range(n)] + [f"coalesce(s{j}.fatal, false)" for j in seats]
        )
        impossible = " OR ".join(
            [f"h{i}.impossible" for i in range(n)]
            + [f"coalesce(s{j}.impossible, false)" for j in seats]
        )
        if self.seats:  # the shared hands once, and every seat's
            shared = [self.positions.index(p) for p in self.game.shared_positions]
            parts = [f"h{i}.items" for i in shared] + [f"s{j}.items" for j in seats]
        else:
            parts = [f"h{i}.items" for i in range(n)]
        items = "list_concat(" + ", ".join(parts) + ")"
        joint = "false"
        if self._joint_needed(1):
            joint = _overflow(items, self.shoe)
            shared_type = _shared_type([p.split(".")[0] for p in parts], self._hands_sharing())
            if shared_type is not None:
                joint = f"(CASE WHEN {shared_type} THEN {joint} END)"
        no_seat = " AND ".join(f"r.{self.col[s]} = ''" for s in self.seats) or "false"
        empty = " AND ".join(f"r.f{i} = ''" for i in range(1, self.width + 1))
        labels = "".join(f", r.{self.col[name]} AS {name}" for name in self.labels)
        labels += "".join(f", {dim.sql} AS g{k}" for k, dim in enumerate(self.dims))
        hids = ", ".join(
            [f"h{i}.hid AS hid{i}" for i in range(n)] + [f"s{j}.hid AS sid{j}" for j in seats]
        )
        if self.layout.money and self.seats:  # each seat's own combination, to settle its bets
            player = self._seated_position()
            for j in seats:
                aliases = [f"s{j}" if i == player else f"h{i}" for i in range(n)]
                hids += f", {_combo(aliases, key_count)}::BIGINT AS scombo{j}"
        sizes = ""
        if "shoe" in self.labels:  # the cards each row adds to its shoe (shoe integrity)
            own, shared_sizes = self._card_parts("h", "s")
            sizes = "".join(
                f", ({' + '.join(f'coalesce(len({part}), 0)' for part in parts) or '0'})"
                f"::USMALLINT AS {name}"
                for name, parts in (("own_cards", own), ("shared_cards", shared_sizes))
            )
        c = _CODES
        self.con.execute(f"PRAGMA force_compression = '{LOG_COMPRESSION}'")
        sql = f"""CREATE OR REPLACE TABLE log AS
            SELECT r.line,
                   CASE WHEN r.blank THEN {c["blank"]}
                        WHEN {empty} THEN {c["empty"]}
                        WHEN r.nf <> {self.width} OR r.bad_quotes OR {fatal} THEN {_FATAL}
                        WHEN {self._money_bad()} THEN {_FATAL}
                        WHEN {no_seat} THEN {c["seats"]}
                        WHEN {impossible} OR {joint} THEN {c["impossible"]}
                   END::UTINYINT AS why,
                   {combo}::BIGINT AS combo, {hids}{labels}{money_columns(self.layout)}{sizes}
            FROM rows r {joins}"""
        with small_side_built(self.con):  # the hand table is built, the log probes it
            self._query(sql, weight=45)
        self.con.execute("PRAGMA force_compression = 'auto'")

    def _hands_sharing(self) -> int:
        """How many hands must hold a type for a round to hold it more often than the shoe.

        A hand the shoe can hold has at most ``min(S, c)`` cards of a type the
        shoe holds ``c`` times (``S``: the largest hand), so ``c + 1`` of them
        need ``⌈(c + 1) / min(S, c)⌉`` hands — at least 2, and least for the
        scarcest type. Masks of 64 bits cover shoes of at most 64 types; 0 for
        a larger shoe (no shortcut).
        """
        if len(self.shoe.types) > MASK_TYPES:
            return 0
        fewest = min(c for c in self.shoe.counts if c > 0)
        size = max(log_hand_sizes(self.game))
        return max(2, -(-(fewest + 1) // min(size, fewest)))

    def _joint_needed(self, rows: int) -> bool:
        """Whether hands the shoe holds one by one could still be too many together."""
        present = [count for count in self.shoe.counts if count > 0]
        per_row = round_cards(self.game)
        if self.seats:  # the shared hands once, and a hand at every seat
            size = max(log_hand_sizes(self.game))
            per_row = size * (len(self.game.shared_positions) + len(self.seats))
        return bool(present) and per_row * rows > min(present)

    def _money_bad(self) -> str:
        """SQL: some money field holds text that is not an amount (a negative amount included).

        The distinct texts of the money columns (a few hundred in a real log:
        stakes times multiples) are checked once here against
        :data:`AMOUNT_PATTERN`; each row then only asks whether a field is one
        of the bad ones (none: no question at all). A regular expression per
        field and row costs more than the rest of the row's reading.
        """
        fields = self.layout.money_fields()
        if not fields:
            return "false"
        texts = ", ".join(f"r.{f}" for _, f in fields)
        rows = self._query(
            f"SELECT DISTINCT t FROM (SELECT unnest([{texts}]) AS t FROM rows r "
            f"WHERE {self._fields_ok('r.')}) WHERE t <> ''",
            weight=5,
        )
        bad = sorted(t for (t,) in rows if not re.fullmatch(AMOUNT_PATTERN, t))
        if not bad:
            return "false"
        listed = ", ".join(sql_text(t) for t in bad)
        return " OR ".join(f"r.{f} IN ({listed})" for _, f in fields)

    def _first_fatal(self) -> None:
        found = self._query(
            f"SELECT line FROM log WHERE why = {_FATAL} ORDER BY line LIMIT 1", weight=1
        )
        if not found:
            return
        (line,) = found[0]
        fields_sql = ", ".join(f"f{i}" for i in range(1, self.width + 1))
        (row,) = self.con.execute(
            f"SELECT nf, bad_quotes, open_quote, {fields_sql} FROM rows WHERE line = {line}"
        ).fetchall()
        nf, bad_quotes, open_quote, *fields = row
        where = f"{self.label} {self.unit} {line}"
        if nf != self.width or bad_quotes or open_quote:
            raise malformed(where, nf, self.width, bad_quotes, open_quote)
        index = {text: i for i, text in enumerate(self.texts)}
        for name, i in self.layout.hands.items():
            text = fields[i]
            if name in self.seats and not text:
                continue
            entry = self.entries[index[text]]
            if entry.fatal is not None:
                raise OddsError(f"{where}, column {self.layout.columns[i]}: {entry.fatal}")
        for money in self.layout.money:
            text = fields[self.layout.columns.index(money.column)]
            if not text:
                continue
            if not re.fullmatch(AMOUNT_PATTERN, text):
                raise OddsError(
                    f"{where}, column {money.column}: {text!r} is not an amount ({AMOUNT_RULE})"
                )
        raise AssertionError(f"{where}: flagged as malformed for no reason")  # pragma: no cover

    # -- step 3: round labels ---------------------------------------------------------

    def _round_key(self, prefix: str = "") -> list[str]:
        """The columns that name a round: (shoe, round), or round alone."""
        return [f"{prefix}{name}" for name in ("shoe", "round") if name in self.col]

    def _round_name(self, shoe: Any, round_: Any) -> str:
        return f"shoe {shoe}, round {round_}" if "shoe" in self.col else f"round {round_}"

    def _check_rounds(self) -> None:
        """Rows sharing a round label: one shared hand, distinct positions, a holdable deal.

        A round is named by its ``round`` label, within its ``shoe`` when the log
        has a shoe column (round numbers that restart with each shoe). Every row
        of a round that fails is rejected. Of a consistent round with several
        rows only the first (by line) is tested: positions share the banker's
        hand, so they are not independent of each other; the others are checked
        and counted as "not tested".
        """
        key = self._round_key()
        columns = ", ".join(f"{name} VARCHAR" for name in key) or "round VARCHAR"
        self.con.execute(
            f"CREATE OR REPLACE TABLE rounds ({columns}, first BIGINT, problem VARCHAR)"
        )
        if "round" not in self.col:
            return
        names = ", ".join(key)
        self._query(
            f"CREATE OR REPLACE TABLE multi AS SELECT {names} FROM log "
            f"WHERE why IS NULL AND round <> '' GROUP BY {names} HAVING count(*) > 1",
            weight=15,
        )
        (count,) = self.con.execute("SELECT count(*) FROM multi").fetchone()
        if not count:
            return
        if self.seats:  # one row per round: a round on two rows is a repeated round number
            self.con.execute(f"""
                INSERT INTO rounds
                SELECT {names}, min(line),
                       'the round is on ' || count(*) || ' rows (lines ' ||
                       string_agg(line::VARCHAR, ', ' ORDER BY line) || '): a round number repeated'
                FROM log SEMI JOIN multi USING ({names}) WHERE why IS NULL GROUP BY {names}
            """)
            return
        shared = [self.positions.index(p) for p in self.game.shared_positions]
        own = [i for i in range(len(self.positions)) if i not in shared]
        differs = " OR ".join(f"min(h{i}.items) <> max(h{i}.items)" for i in shared) or "false"
        joins = " ".join(
            f"JOIN hands h{i} ON l.hid{i} = h{i}.hid" for i in range(len(self.positions))
        )
        deal = (
            "list_concat("
            + ", ".join(
                [f"any_value(h{i}.items)" for i in shared]
                + [f"flatten(list(h{i}.items))" for i in own]
            )
            + ")"
        )
        duplicate = (
            "WHEN count(position) FILTER (WHERE position <> '') "
            "<> count(DISTINCT position) FILTER (WHERE position <> '') "
            "THEN 'a position appears twice' "
            if "position" in self.col
            else ""
        )
        shared_names = "/".join(self.game.shared_positions) or "shared"
        grouped = ", ".join(f"l.{name}" for name in key)
        self.con.execute(f"""
            INSERT INTO rounds
            SELECT {grouped}, min(l.line),
                   CASE WHEN {differs} THEN 'the {shared_names} hand differs between its rows'
                        {duplicate}
                        WHEN {_overflow(deal, self.shoe)}
                             THEN 'the shoe cannot hold all of its hands at once'
                   END
            FROM log l SEMI JOIN multi USING ({names}) {joins}
            WHERE l.why IS NULL
            GROUP BY {grouped}
        """)
        if "shoe" not in self.col:
            self._check_restarts()

    def _check_restarts(self) -> None:
        """Round numbers that restart (with each shoe?) and contradict: refused, with the remedy.

        Without a shoe column, a log numbering rounds within each shoe repeats
        every round number with other hands: every row would be rejected and an
        honest log flagged. When the numbers go back somewhere in the file and
        most rows are in rounds that contradict themselves, the log is refused
        with a one-line error saying to add a shoe column. A few contradicting
        rows (a doctored log) stay rejected rows: a finding.
        """
        (rows, bad) = self.con.execute("""
            SELECT count(*), count(*) FILTER (WHERE k.problem IS NOT NULL)
            FROM log l LEFT JOIN rounds k USING (round)
            WHERE l.why IS NULL AND l.round <> ''
        """).fetchone()
        if not bad or 2 * bad < rows:
            return
        found = self.con.execute("""
            SELECT line, number, previous FROM (
                SELECT line, TRY_CAST(round AS BIGINT) AS number,
                       lag(TRY_CAST(round AS BIGINT)) OVER (ORDER BY line) AS previous
                FROM log WHERE why IS NULL AND round <> '')
            WHERE number < previous ORDER BY line LIMIT 1
        """).fetchall()
        if not found:
            return
        line, number, previous = found[0]
        raise OddsError(
            f"{self.label} {self.unit} {line}: round {number} follows round {previous}, and "
            f"{bad:,} of {rows:,} rows are in rounds whose rows hold other hands: if the rounds "
            "are numbered within each shoe, add a shoe column (rounds are then told apart by "
            "shoe and round)"
        )

    def _check_independent(self) -> None:
        """Tested rounds that repeat the shared hand far more often than chance: refused.

        A log with one row per position but no labels that group a round's rows
        (no round column, or a round label per row) repeats the banker's hand
        on the rows of each round; tested as independent rounds, it counts that
        hand once per position and an honest log is flagged. Two pairings are
        counted: consecutive rows, and — with a position column — the k-th rows
        of the positions (a log sorted by position). By chance a pair repeats
        the hand with probability about ``(Σ c² − m) / (m (m − 1))`` (``c``: how
        often each hand occurs among the ``m`` tested rows); a count whose
        Poisson tail is below :data:`REPEATS_P` refuses the log with a one-line
        error (never a verdict: nothing is said about an honest log).
        """
        if not self.game.shared_positions:
            return
        shared = self.positions.index(self.game.shared_positions[0])
        position = ", f.position" if "position" in self.col else ""
        self._query(
            f"""CREATE OR REPLACE TABLE tested AS
            SELECT f.line{position}, h.cards FROM final f JOIN hands h ON f.hid{shared} = h.hid
            WHERE f.kind IS NULL AND NOT f.extra ORDER BY f.line""",
            weight=3,
        )
        ((m, squares, adjacent),) = self._query(
            """SELECT (SELECT count(*) FROM tested),
                      (SELECT sum(c * c) FROM (SELECT count(*) AS c FROM tested GROUP BY cards)),
                      (SELECT count(*) FROM (
                           SELECT cards, lag(cards) OVER (ORDER BY line) AS before FROM tested)
                       WHERE cards = before)""",
            weight=2,
        )
        pairs = across = 0
        if "position" in self.col:
            ((pairs, across),) = self.con.execute("""
                WITH ranked AS (
                    SELECT *, row_number() OVER (PARTITION BY position ORDER BY line) AS k
                    FROM tested)
                SELECT (SELECT count(*) - count(DISTINCT k) FROM ranked),
                       (SELECT count(*) FROM (
                            SELECT cards, lag(cards) OVER (PARTITION BY k ORDER BY position, line)
                                   AS before FROM ranked)
                        WHERE cards = before)
            """).fetchall()
        if m < 2:
            return
        chance = (int(squares) - m) / (m * (m - 1))
        name = self.game.shared_positions[0]
        for repeats, compared, which in (
            (adjacent, m - 1, "the row before"),
            (across, pairs, "the same-numbered row of another position"),
        ):
            expected = compared * chance
            if repeats and _poisson_tail(repeats, expected) < REPEATS_P:
                raise OddsError(
                    f"{self.label}: {repeats:,} of {compared:,} rows repeat the {name} hand of "
                    f"{which} (about {expected:.1f} by chance): one row per position without "
                    "labels that group a round's rows? Give the rows of one round the same round "
                    "label, so each round is tested once"
                )

    def _check_payouts(self) -> SettlementAudit | None:
        """The settlement audit (:mod:`odds.tools.audit.payouts`), for a log with payouts."""
        money = self.layout.money
        if not money:
            return None
        n = len(self.positions)
        where = {(m.kind, m.bet, m.seat): f"m{k}" for k, m in enumerate(money)}
        columns = []
        for (kind, bet, seat), stake in where.items():
            if kind != "stake":
                continue
            if self.seats:
                j = self.seats.index(seat)
                player = self._seated_position()
                hands = tuple(f"sid{j}" if i == player else f"hid{i}" for i in range(n))
                combo = f"scombo{j}"
            else:
                hands, combo = tuple(f"hid{i}" for i in range(n)), "combo"
            columns.append(BetColumns(seat, bet, stake, where["paid", bet, seat], combo, hands))
        self.bet_columns = columns
        labels = round_label_sql(self.col, self.unit)

        def unit_returns(
            examples: list[tuple[int, tuple[int, ...]]],
        ) -> dict[int, dict[str, Fraction]]:
            found = {}
            for combo, hids in examples:
                hands = {p: self.texts[h] for p, h in zip(self.positions, hids, strict=True)}
                try:
                    settled = self.game.settle(self.config, hands, Fraction(1))
                except OddsError:
                    continue
                found[combo] = {b.bet: b.returned for b in settled.bets}
            return found

        return audit_payouts(self.con, columns, labels, unit_returns)

    def _seated_position(self) -> int:
        """The index of the game position spread over numbered seats."""
        return next(
            i
            for i, p in enumerate(self.positions)
            if len(self.layout.seats[p]) > 1 or self.layout.seats[p][0] != p
        )

    def _check_shoes(self) -> tuple[list[Finding], dict[str, int]]:
        """Shoe integrity (:mod:`odds.tools.audit.integrity`), for a log with a shoe column."""
        if "shoe" not in self.col or not self.shoes_dealt:
            return [], {}
        n = len(self.positions)
        joins = " ".join(f"LEFT JOIN hands h{i} ON f.hid{i} = h{i}.hid" for i in range(n))
        joins += "".join(
            f" LEFT JOIN hands s{j} ON f.sid{j} = s{j}.hid" for j in range(len(self.seats))
        )
        own, shared_parts = self._card_parts("h", "s")
        parts = own + [f"CASE WHEN NOT f.extra THEN {part} END" for part in shared_parts]
        items = "list_concat(" + ", ".join(parts) + ")" if len(parts) > 1 else parts[0]
        round_ = "f.round" if "round" in self.col else "NULL"
        c = _CODES
        used = f"f.why IS NULL OR f.why IN ({c['impossible']}, {c['seats']})"
        sql = f"""
            SELECT f.line, f.shoe, {round_} AS round, coalesce({items}, []) AS items
            FROM final f {joins}
            WHERE {used}
        """
        counts = f"""
            SELECT f.line, f.shoe, {round_} AS round,
                   f.own_cards + CASE WHEN f.extra THEN 0 ELSE f.shared_cards END AS n
            FROM final f WHERE {used}
        """
        one_row = False
        if "round" in self.col:  # no round on two rows: then a shoe's rounds are its rows
            (shared_labels,) = self.con.execute(f"""
                SELECT (SELECT count(*) FROM multi) + (SELECT count(*) FROM log
                    WHERE why IN ({c["impossible"]}, {c["seats"]})
                       OR (why IS NULL AND round = ''))
            """).fetchone()
            one_row = not shared_labels
        return shoe_findings(
            self.con, self.shoe, sql, lambda line: f"{self.unit} {line}", counts, one_row
        )

    def _card_parts(self, position: str, seat: str) -> tuple[list[str], list[str]]:
        """SQL: the item lists a row adds to its shoe: its own hands', and the shared hands'.

        ``position`` and ``seat`` are the aliases' prefixes of the hands joined for
        the game positions and the numbered seats. The shared hands (the banker's)
        count once per round; with seats, every seat's hand counts, the position
        spread over the seats not again.
        """
        n = len(self.positions)
        shared = [self.positions.index(p) for p in self.game.shared_positions]
        shared_parts = [f"{position}{i}.items" for i in shared]
        if self.seats:
            return [f"{seat}{j}.items" for j in range(len(self.seats))], shared_parts
        return [f"{position}{i}.items" for i in range(n) if i not in shared], shared_parts

    def _make_final(self) -> None:
        """The ``final`` table; a view over ``log`` when no round spans several rows.

        Only rounds on several rows (the ``rounds`` table) change a row's kind or
        mark it untested; without any, ``final`` is ``log`` with constant columns,
        and copying it (a second table as large as the log) would cost a full
        write of the log for nothing.
        """
        (multi_row,) = self.con.execute("SELECT count(*) FROM rounds").fetchone()
        if "round" not in self.col or not multi_row:
            self.con.execute(
                "CREATE OR REPLACE VIEW final AS SELECT *, why AS kind, false AS extra, "
                "NULL::VARCHAR AS problem FROM log"
            )
            return
        self._query(f"CREATE OR REPLACE TABLE final AS {self._final()}", weight=5)

    def _final(self) -> str:
        """SQL: every row with its kind of rejection (NULL: used) and whether it is untested."""
        if "round" not in self.col:
            return "SELECT *, why AS kind, false AS extra, NULL AS problem FROM log"
        same = " AND ".join(f"l.{name} = k.{name}" for name in self._round_key())
        return f"""
            SELECT l.*, coalesce(l.why, CASE WHEN k.problem IS NOT NULL
                                             THEN {_CODES["round"]} END) AS kind,
                   coalesce(k.problem IS NULL AND l.line <> k.first, false) AS extra,
                   k.problem AS problem
            FROM log l LEFT JOIN rounds k ON l.why IS NULL AND {same}
        """

    # -- step 4: counts ---------------------------------------------------------------

    def _summary(self) -> tuple[int, int, dict[str, int]]:
        kinds = [k for k in KINDS if k != "refused"]
        counts = ", ".join(f"count(*) FILTER (WHERE kind = {_CODES[k]})" for k in kinds)
        (row,) = self._query(
            f"SELECT count(*), count(*) FILTER (WHERE kind IS NULL AND extra), {counts} FROM final",
            weight=5,
        )
        return row[0], row[1], dict(zip(kinds, row[2:], strict=True))

    def _groups(self) -> tuple[list[SettledGroup], dict[int, int]]:
        """Each combination's count, settled by the game on its first row."""
        n = len(self.positions)
        hids = ", ".join(f"hid{i}" for i in range(n))
        rows = self._query(
            f"SELECT combo, count(*), arg_min([{hids}], line) FROM final "
            "WHERE kind IS NULL AND NOT extra GROUP BY combo ORDER BY combo",
            weight=5,
        )
        groups, refused = [], {}
        for combo, count, example in rows:
            hands = {p: self.texts[h] for p, h in zip(self.positions, example, strict=True)}
            try:
                settlement = self.game.settle(self.config, hands, Fraction(1))
            except OddsError:
                refused[combo] = count
                continue
            groups.append(SettledGroup(settlement, count))
            self.settled[combo] = settlement
        return groups, refused

    def _listed(self, refused: dict[int, int]) -> list[Rejected]:
        """The first rejected rows in file order, each with its reason in words."""
        n = len(self.positions)
        hids = ", ".join(
            [f"hid{i}" for i in range(n)] + [f"sid{j}" for j in range(len(self.seats))]
        )
        refusal = "false"
        if refused:
            combos = ", ".join(str(c) for c in refused)
            refusal = f"(kind IS NULL AND NOT extra AND combo IN ({combos}))"
        labels = ", ".join(name if name in self.col else "NULL" for name in ("shoe", "round"))
        rows = self._query(
            f"SELECT line, kind, {labels}, problem, [{hids}] "
            f"FROM final WHERE kind IS NOT NULL OR {refusal} "
            f"ORDER BY line LIMIT {MAX_LISTED}",
            weight=4,
        )
        return [
            Rejected(line, self._reason(kind, self._round_name(shoe, r), p, h))
            for line, kind, shoe, r, p, h in rows
        ]

    def _reason(self, code: int | None, round_name: str, problem: Any, hids: list[Any]) -> str:
        kind = next((k for k, c in _CODES.items() if c == code), "refused")
        if kind in ("blank", "empty", "seats"):
            return KINDS[kind]
        if kind == "round":
            return f"{round_name}: {problem}"
        n = len(self.positions)
        texts = [self.texts[h] for h in hids[:n]]
        held = texts
        if self.seats:  # the shared hands once, and every seat's
            shared = [texts[self.positions.index(p)] for p in self.game.shared_positions]
            held = shared + [self.texts[h] for h in hids[n:] if h is not None]
        items = [item for text in held for item in self.game.parse_hand(self.config, text)]
        try:
            self.shoe.check_holds(items, "this round's hands")
            self.game.settle(
                self.config, dict(zip(self.positions, texts, strict=True)), Fraction(1)
            )
        except OddsError as exc:
            return str(exc)
        return KINDS[kind]  # pragma: no cover - the database and Python agree


#: Repeats of the shared hand this unlikely by chance refuse a log (see _check_independent).
REPEATS_P = 1e-9


def _combo(aliases: Sequence[str], key_count: int) -> str:
    """SQL: the combination of the hands' keys and their strength order against the first."""
    combo = f"{aliases[0]}.key"
    for alias in aliases[1:]:
        combo = f"({combo} * {key_count} + {alias}.key)"
    for alias in aliases[1:]:
        combo = f"({combo} * 3 + sign({aliases[0]}.rank - {alias}.rank) + 1)"
    return combo


#: Shoes of at most this many types get a bit mask of the types in each hand.
MASK_TYPES = 64
#: At most this many groups of hands are tested for a shared type (else no shortcut).
MAX_SHARING_GROUPS = 200


def _type_mask(items: Iterable[int]) -> int:
    """The types in a hand as bits (bit t: type t); 0 for a shoe of more than MASK_TYPES types."""
    mask = 0
    for item in items:
        if item >= MASK_TYPES:
            return 0
        mask |= 1 << item
    return mask


def _shared_type(aliases: Sequence[str], sharing: int) -> str | None:
    """SQL: some type is in at least ``sharing`` of the hands (their ``mask`` columns).

    A necessary condition for a round to hold a type more often than the shoe
    (:meth:`_Log._hands_sharing`), in integer operations, before the exact count
    (lists, costly: a third of reading a seated Pok Deng row). None: no shortcut
    (``sharing`` 0, or too many groups of hands to test). A seat without a hand
    has no mask (0).
    """
    import itertools

    if sharing < 2:
        return None
    if len(aliases) < sharing:
        return "false"
    groups = list(itertools.combinations(aliases, sharing))
    if len(groups) > MAX_SHARING_GROUPS:
        return None
    masks = {a: f"coalesce({a}.mask, 0::UBIGINT)" for a in aliases}
    anded = [" & ".join(masks[a] for a in group) for group in groups]
    return "((" + ") | (".join(anded) + ")) <> 0"


def _numbered(hands: Iterable[tuple[int, ...]]) -> list[int]:
    """Each hand's number, equal for hands of the same cards (in any order)."""
    numbers: dict[tuple[int, ...], int] = {}
    return [numbers.setdefault(hand, len(numbers)) for hand in hands]


def _poisson_tail(k: int, mean: float) -> float:
    """P(X ≥ k) for X ~ Poisson(mean), as a float: only to decide a refusal.

    At or below the mean the tail is about a half or more (returned as 1); above
    it the terms fall (each ``mean / j`` times the one before) and are summed
    until they no longer change the total (an underflow to 0 included).
    """
    if k <= mean:
        return 1.0
    log_term = -mean + k * math.log(mean) - math.lgamma(k + 1) if mean > 0 else -math.inf
    total, j = 0.0, k
    while True:
        term = math.exp(log_term)
        total += term
        if term <= total * 1e-17:
            return min(total, 1.0)
        j += 1
        log_term += math.log(mean / j)


def _overflow(items: str, shoe: Shoe[Any]) -> str:
    """SQL: some shoe type occurs in ``items`` (type indices) more often than the shoe has it.

    A type the shoe holds ``c`` times can only be over with at least ``c + 1``
    copies, so a row with fewer than ``c`` repeats among its cards (``len −
    distinct``, native and fast) cannot be; only the rare others are counted
    type by type (a lambda per card, costly).
    """
    counts = "[" + ", ".join(str(c) for c in shoe.counts) + "]"
    fewest = min((c for c in shoe.counts if c > 0), default=0)
    exact = (
        f"list_bool_or(list_transform({items}, lambda x: "
        f"len(list_filter({items}, lambda y: y = x)) > {counts}[x + 1]))"
    )
    return f"(CASE WHEN len({items}) - len(list_distinct({items})) >= {fewest} THEN {exact} END)"
