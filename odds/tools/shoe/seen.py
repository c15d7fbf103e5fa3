"""The cards or tiles a watching player has seen, read from text or a round log.

``odds shoe --seen "Kh 9h 5c"`` and ``--seen-file rounds.csv`` (the
``odds simulate`` log format: optional ``shoe``, ``round`` and ``position``
columns and one column per hand; or the operator layout ``odds audit`` leads
with — ``shoe;round;table;dealer;timestamp;banker;player_1 … player_5``, any
other column, stakes and payouts ignored; names matched without regard to case;
``,`` ``;`` tab or ``|`` between fields; CSV, gzipped CSV or Parquet, told by
the file's first bytes; UTF-8 or UTF-16, or the ``--encoding`` given: cp1252 …).
A log usually holds many shoes, and only the cards of the shoe being dealt say
anything about what is left in it, so

* with a ``shoe`` column, the cards of one shoe are read: ``--shoe ID``, or by
  default the last shoe in the file (the output says which); a shoe's rows
  must be together (a shoe label that comes back after another shoe is an
  error: two shoes with one label);
* without one, every card is read, and a log holding more cards than one shoe
  is an error that says to add a shoe column;
* with a ``round`` column, a hand every position shares (Pok Deng's banker)
  is counted once per round, not once per row.

The file is opened by its literal name, must be a regular file and is read
through one SHA-256 (:mod:`odds.runtime.inputs`). Every problem is a one-line error
naming the card, the line or the column; a card seen more often than the shoe
holds it names the card and both counts.
"""

from __future__ import annotations

import csv
import re
import shutil
from collections import Counter
from collections.abc import Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.shoe import Shoe
from odds.core.table import Column, Kind
from odds.games.base import Game
from odds.runtime.inputs import InputFile, private_folder, text_blocks
from odds.runtime.progress import track

#: Log columns that label a row (or record play) rather than hold cards.
NOT_CARDS = ("shoe", "round", "position", "actions")


def parse_seen_text(game: Game, config: Any, text: str) -> list[Any]:
    """Cards or tiles written as ``odds settle`` reads a hand, any number of them."""
    if not text.strip():
        return []
    return list(game.parse_hand(config, text))


@dataclass(frozen=True)
class SeenFile:
    """What a round log says was seen: the cards, from which shoe, and the bytes read."""

    path: str
    items: list[Any]
    rows: int  # rows whose cards were read
    shoe: str | None  # the shoe whose cards these are (None: the log has no shoe column)
    shoe_given: bool  # chosen with --shoe (else the last shoe in the file)
    size: int
    sha256: str

    def sentence(self) -> str:
        """Which cards were read, in words (the text output's line)."""
        rows = f"{self.rows:,} row{'' if self.rows == 1 else 's'}"
        if not self.rows:
            return f"Seen: nothing in {self.path} (no rows)."
        if self.shoe is None:
            return f"Seen: every hand in {self.path} (no shoe column), {rows}."
        which = "" if self.shoe_given else " (the last shoe in the file; --shoe ID picks another)"
        return f"Seen: the hands of shoe {self.shoe} in {self.path}{which}, {rows}."

    def fields(self, prefix: str = "seen_file.") -> list[tuple[Column, Any]]:
        """The file read, as a command's JSON fields (``seen_file.sha256`` …)."""
        chosen = None if self.shoe is None else "given" if self.shoe_given else "last"
        values: list[tuple[str, Kind, Any]] = [
            ("path", Kind.TEXT, self.path),
            ("bytes", Kind.WAYS, self.size),
            ("sha256", Kind.TEXT, self.sha256),
            ("shoe", Kind.TEXT, self.shoe),
            ("shoe_chosen", Kind.TEXT, chosen),
            ("rows", Kind.WAYS, self.rows),
            ("cards", Kind.WAYS, len(self.items)),
        ]
        return [
            (Column(prefix + key, key, kind, json_null=True), value) for key, kind, value in values
        ]


def read_seen_file(
    game: Game, config: Any, path: Path, shoe: str | None = None, encoding: str | None = None
) -> SeenFile:
    """The cards of one shoe of a round log (see the module docstring).

    ``encoding`` is a text log's encoding when it is not UTF-8 (``--encoding cp1252``), read
    as :func:`odds.runtime.inputs.text_blocks` reads the audit's logs.
    """
    label = str(path)
    with InputFile(path) as file:
        if file.kind() == "parquet":
            folder = private_folder("odds-seen-")
            try:
                copy = folder / "log.parquet"
                digest = file.copy_to(copy)
                found = _Reader(game, config, label, shoe).read(_parquet_rows(copy, label))
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        else:
            found = _Reader(game, config, label, shoe).read(_csv_rows(file, label, encoding))
            digest = file.digest()
    items, rows, chosen = found
    size = game.shoe(config).size
    if chosen is None and len(items) > size:
        raise OddsError(
            f"{label}: {len(items):,} seen in {rows:,} rows, more than one shoe holds ({size}): "
            "a log of several shoes needs a shoe column to tell them apart (odds simulate "
            "writes one; the last shoe is then read, or the one --shoe ID names)"
        )
    return SeenFile(label, items, rows, chosen, shoe is not None, digest.size, digest.sha256)


#: A row of a log: its line (or Parquet row) and its fields by column, or None for a blank line.
Row = tuple[str, dict[str, str] | None]


#: What a log reader yields: the columns, then the rows.
Rows = Generator[tuple[list[str], Iterator[Row]], None, None]


def _csv_rows(file: InputFile, label: str, encoding: str | None = None) -> Rows:
    """The header, then each row (a blank line as None), from a text or gzipped log."""
    blocks = text_blocks(file, encoding=encoding)

    def lines() -> Iterator[tuple[int, str]]:
        for block in blocks:
            yield from enumerate(block.lines(), block.first)

    numbered = lines()
    first = next(numbered, None)
    if first is None:
        raise OddsError(f"{label}: empty log (expected a header such as shoe,round,banker,player)")
    from odds.tools.audit.sources import sniff_delimiter

    delimiter = sniff_delimiter(first[1])
    header = _fields(label, *first, delimiter)
    columns = [c.strip() for c in header]

    def rows() -> Iterator[Row]:
        for number, text in numbered:
            where = f"line {number}"
            if not text.strip():
                yield where, None
                continue
            values = _fields(label, number, text, delimiter)
            if len(values) != len(columns):
                raise OddsError(
                    f"{label} {where}: wrong number of fields ({len(values)}; the header has "
                    f"{len(columns)})"
                )
            yield where, dict(zip(columns, (v.strip() for v in values), strict=True))

    yield columns, rows()


def _fields(label: str, number: int, text: str, delimiter: str = ",") -> list[str]:
    try:
        return next(csv.reader([text], delimiter=delimiter, strict=True), [])
    except csv.Error as exc:
        raise OddsError(f"{label} line {number}: malformed CSV ({exc})") from None


def _parquet_rows(copy: Path, label: str) -> Rows:
    """The columns, then each row as text, of a Parquet log (its private copy)."""
    import duckdb

    con = duckdb.connect()
    try:
        con.execute("SET enable_progress_bar = false")
        try:
            names = [
                r[0]
                for r in con.execute(
                    "DESCRIBE SELECT * FROM read_parquet(?)", [str(copy)]
                ).fetchall()
            ]
            quoted = ", ".join(
                "coalesce(CAST(" + '"' + n.replace('"', '""') + '"' + " AS VARCHAR), '')"
                for n in names
            )
            result = con.execute(
                f"SELECT {quoted} FROM read_parquet(?, file_row_number = true) "
                "ORDER BY file_row_number",
                [str(copy)],
            )
        except duckdb.Error as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise OddsError(f"{label}: not a readable Parquet file ({first})") from None
        columns = [n.strip() for n in names]

        def rows() -> Iterator[Row]:
            number = 0
            while batch := result.fetchmany(10_000):
                for values in batch:
                    number += 1
                    yield (
                        f"row {number}",
                        dict(zip(columns, (v.strip() for v in values), strict=True)),
                    )

        yield columns, rows()
    finally:
        con.close()


class _Reader:
    """The cards of the chosen shoe, checked row by row (see the module docstring)."""

    def __init__(self, game: Game, config: Any, label: str, shoe: str | None) -> None:
        self.game, self.config, self.label, self.wanted = game, config, label, shoe
        self.shared = set(game.shared_positions)

    def read(self, source: Rows) -> tuple[list[Any], int, str | None]:
        """The items seen, how many rows held them, and the shoe they are from."""
        try:
            return self._read(*next(source))
        finally:
            source.close()

    def _read(self, columns: list[str], rows: Iterator[Row]) -> tuple[list[Any], int, str | None]:
        cards, labels = self._check_columns(columns)
        rows = (
            (where, None if row is None else row | {k: row[c] for k, c in labels.items()})
            for where, row in rows
        )
        by_shoe = "shoe" in labels
        if self.wanted is not None and not by_shoe:
            raise OddsError(f"--shoe {self.wanted}: {self.label} has no shoe column")
        finished: dict[str, str] = {}  # shoe label -> where its rows started
        current: str | None = None
        started = ""
        items: list[Any] = []
        shared_of: dict[str, tuple[str, str]] = {}  # round -> (shared hands, where first seen)
        count = 0
        kept: tuple[list[Any], int, str] | None = None
        for where, row in track(rows, f"reading {Path(self.label).name}"):
            if row is None:
                continue
            label = row["shoe"] if by_shoe else ""
            if by_shoe and not label:
                raise OddsError(f"{self.label} {where}: no shoe label (the log has a shoe column)")
            if label != current:
                if current is not None:
                    finished[current] = started
                    if current == self.wanted:
                        kept = (items, count, current)
                if label in finished:
                    raise OddsError(
                        f"{self.label} {where}: shoe {label} again, after other shoes (its rows "
                        f"began at {finished[label]}): one label for two shoes?"
                    )
                current, started, items, count, shared_of = label, where, [], 0, {}
            if self.wanted is not None and label != self.wanted:
                continue
            items.extend(self._row_items(row, cards, where, shared_of))
            count += 1
        if not by_shoe:
            return items, count, None
        if self.wanted is None:
            if current is None:
                return [], 0, None
            return items, count, current
        if current == self.wanted:
            kept = (items, count, current)
        if kept is None:
            raise OddsError(f"--shoe {self.wanted}: no rows of shoe {self.wanted} in {self.label}")
        return kept

    def _check_columns(self, columns: list[str]) -> tuple[list[str], dict[str, str]]:
        """The hand columns, and the label columns by their names (shoe, round, position).

        A column is a hand when its name (case and spaces aside) is a position
        (``banker``) or a numbered seat of a position that is not shared
        (``player_3``, ``Player 3``); a label when it is ``shoe``, ``round``,
        ``position`` or ``actions``; anything else (``table``, ``dealer``,
        ``timestamp``, stakes and payouts) is not read.
        """
        if not any(columns):
            raise OddsError(
                f"{self.label}: empty log (expected a header such as shoe,round,banker,player)"
            )
        twice = [c for c in columns if columns.count(c) > 1]
        if twice:
            raise OddsError(f"{self.label}: the column {twice[0]!r} appears twice")
        own = [p for p in self.game.positions if p not in self.shared]
        seat = re.compile("(" + "|".join(map(re.escape, own)) + r")_?\d+") if own else None
        cards: list[str] = []
        labels: dict[str, str] = {}
        for column in columns:
            name = re.sub(r"\s+", "_", column.strip().lower())
            if name in NOT_CARDS:
                if name in labels:
                    raise OddsError(f"{self.label}: the column {name!r} appears twice")
                labels[name] = column
            elif name in self.game.positions or (seat is not None and seat.fullmatch(name)):
                cards.append(column)
        names = [re.sub(r"\s+", "_", c.strip().lower()) for c in columns]
        if not cards and any(n.startswith(("result_", "winner")) for n in names):
            raise OddsError(
                f"{self.label}: a results-only log (each bet's outcome, no cards): it shows no "
                "card seen; give a log with the hands"
            )
        if not cards:
            raise OddsError(
                f"{self.label}: no hand column (a {self.game.name} log has "
                f"{', '.join(self.game.positions)}; or numbered seats such as "
                f"{own[0] if own else self.game.positions[0]}_1)"
            )
        self.shared_columns = {
            c for c in cards if re.sub(r"\s+", "_", c.strip().lower()) in self.shared
        }
        return cards, labels

    def _row_items(
        self,
        row: dict[str, str],
        cards: list[str],
        where: str,
        shared_of: dict[str, tuple[str, str]],
    ) -> list[Any]:
        """The row's cards; a shared hand only on the first row of its round."""
        round_ = row.get("round", "")
        first_of_round = True
        if round_ and self.shared:
            hands = "|".join(row[c] for c in cards if c in self.shared_columns)
            earlier = shared_of.get(round_)
            if earlier is None:
                shared_of[round_] = (hands, where)
            else:
                first_of_round = False
                if not self._same(earlier[0], hands):
                    names = "/".join(sorted(self.shared))
                    raise OddsError(
                        f"{self.label} {where}: round {round_}'s {names} hand differs from "
                        f"{earlier[1]}'s"
                    )
        found: list[Any] = []
        for column in cards:
            text = row[column]
            if not text or (column in self.shared_columns and not first_of_round):
                continue
            try:
                found.extend(self.game.parse_hand(self.config, text))
            except OddsError as exc:
                raise OddsError(f"{self.label} {where}, column {column}: {exc}") from None
        return found

    def _same(self, a: str, b: str) -> bool:
        """Two rows' shared hands hold the same cards (in any order)."""
        if a == b:
            return True
        try:
            parts = [
                [sorted(map(str, self.game.parse_hand(self.config, t))) for t in x.split("|")]
                for x in (a, b)
            ]
        except OddsError:
            return False
        return parts[0] == parts[1]


def unseen_counts(shoe: Shoe[Any], seen: Iterable[Any], round_cards: int) -> tuple[int, ...]:
    """The state after ``seen``: the shoe's counts less every seen card.

    A card the shoe does not hold that often, and a state left with fewer
    cards than one round needs, are one-line errors.
    """
    tally = Counter(seen)
    counts = list(shoe.counts)
    for item, n in tally.items():
        i = shoe.index(item)
        if n > counts[i]:
            raise OddsError(
                f"seen {n} × {item}, but the shoe ({shoe.description}) holds {counts[i]}"
            )
        counts[i] -= n
    left = sum(counts)
    if left < round_cards:
        seen_total = sum(tally.values())
        raise OddsError(
            f"{seen_total} seen leave {left} unseen in the shoe ({shoe.description}); "
            f"a round needs {round_cards}"
        )
    return tuple(counts)
