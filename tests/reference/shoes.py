"""The shoes of a log by a second reading of the file: the reference for the audit's one pass.

The audit takes a log's shoes from its reader's single pass
(``dealt_shoes`` of :mod:`odds.tools.audit.reader`); :func:`read_shoes` reads the
file again on its own, and :func:`shoe_study` runs the shoe-level tests on what it read,
so a test can check that the shortcut gives the same shoes and the same figures. Both end
in :func:`odds.tools.audit.shoes.shoes_from_rows`, as the audit does.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from odds.games.base import Game
from odds.runtime.inputs import InputFile
from odds.runtime.progress import task
from odds.tools.audit.shoe_study import ShoeStudy, run_tests
from odds.tools.audit.shoes import (
    MAX_ROWS,
    MIN_ROUNDS_PER_SHOE,
    ShoeLog,
    hand_columns,
    shoes_from_rows,
)
from odds.tools.audit.sources import database, stage_log


def read_shoes(
    game: Game,
    config: Any,
    path: Path,
    mapping: dict[str, str] | None = None,
    encoding: str | None = None,
    limit: int = MAX_ROWS,
) -> ShoeLog | None:
    """The log's shoes card by card, or None when it has no shoe column.

    ``encoding`` is the text log's (``--encoding``), as the main reader got it.
    """
    with InputFile(path) as file, database() as db:
        staged = stage_log(db, game, file, mapping, encoding)
        layout = staged.layout
        if "shoe" not in layout.labels:
            return None
        with task(f"reading the shoes of {path.name}") as update:
            source, _ = staged.everything(lambda share: update(50 * share))
        width = len(source.columns)
        shoe_field = f"f{layout.labels['shoe'] + 1}"
        empty = " AND ".join(f"f{i} = ''" for i in range(1, width + 1))
        ok = f"NOT blank AND nf = {width} AND NOT bad_quotes AND NOT ({empty})"
        ((rows_total, shoes_total),) = db.con.execute(
            f"SELECT count(*), count(DISTINCT {shoe_field}) FROM ({source.relation()}) WHERE {ok}"
        ).fetchall()
        if rows_total < MIN_ROUNDS_PER_SHOE * max(1, shoes_total):
            return ShoeLog((), source.unit, rows_total)  # not dealt through: nothing to read
        fields = ", ".join(f"f{layout.hands[h] + 1}" for h in hand_columns(layout))
        round_field = f"f{layout.labels['round'] + 1}" if "round" in layout.labels else "''"
        sql = (
            f"SELECT line, {shoe_field}, {round_field}, {fields} "
            f"FROM ({source.relation()}) WHERE {ok} ORDER BY line LIMIT {limit + 1}"
        )
        return shoes_from_rows(
            game, config, layout, _batches(db.con.execute(sql)), source.unit, limit
        )


def _batches(result: Any) -> Iterator[tuple[Any, ...]]:
    while batch := result.fetchmany(10_000):
        yield from batch


def shoe_study(
    game: Game,
    config: Any,
    log: Path,
    columns: dict[str, str] | None = None,
    encoding: str | None = None,
    aware_rounds: int | None = None,
) -> ShoeStudy | None:
    """Every shoe-level test of a log, or None when its shoes are not dealt through.

    ``aware_rounds`` bounds the rounds the shoe-aware tests evaluate (None: the
    default of :func:`odds.tools.audit.shoe_tests.default_rounds`).
    """
    read = read_shoes(game, config, log, columns, encoding)
    if read is None or not read.shoes:
        return None
    if read.rounds < MIN_ROUNDS_PER_SHOE * len(read.shoes):
        return None
    notes = []
    if read.truncated:
        notes.append(f"the shoe-level tests read the first {read.rows:,} rows of the log")
    return run_tests(game, config, read.shoes, read.unit, tuple(notes), aware_rounds=aware_rounds)
