"""Round logs: their shape, and dealing an honest one (``odds simulate``).

A log has one row per round and position, one column per hand of
``Game.positions`` (``banker``, ``player`` …) holding the cards or tiles as
the CLI parses them, and optionally ``shoe``, ``round`` and ``position``
columns that label the row (a round is named by its round label within its
shoe: live tables number rounds within each shoe). ``odds simulate`` writes
``shoe`` and ``round``. Logs are CSV (optionally gzip-compressed) or Parquet; reading
one for an audit is :mod:`odds.tools.audit.reader`'s job. Everything here is
generic: the game's hooks (:meth:`~odds.games.base.Game.shoe`, ``parse_hand``,
``hand_text``, ``hand_size``) say what a hand is.
"""

from __future__ import annotations

import csv
import gzip
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_EVEN, Decimal
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

from more_itertools import chunked

from odds.core.errors import OddsError
from odds.games.base import Game
from odds.runtime.atomic import Inputs, atomic_path, check_output_path
from odds.runtime.progress import track
from odds.tools.audit.faults import Faults
from odds.tools.audit.layout import MAX_SEATS

#: The label columns ``odds simulate`` writes, before the hands.
WRITTEN_LABELS = ("shoe", "round")
#: Rows handed to DuckDB at a time when writing Parquet (each batch a part; see _write_parquet).
PARQUET_BATCH = 10_000
#: DuckDB's memory budget when it joins the parts into the Parquet log.
PARQUET_MEMORY = "64MB"


def log_hand_sizes(game: Game) -> tuple[int, ...]:
    """The sizes a logged hand may have; a one-line refusal for games a log cannot show.

    A fixed-hand game has one size (``hand_size``); a game whose rules draw
    cards declares its sizes (baccarat: 2 or 3, ``Game.log_hand_sizes``). A
    drawing game whose play is a player's choice (blackjack: hand size 0, no
    sizes) is refused.
    """
    sizes = tuple(getattr(game, "log_hand_sizes", ()))
    if sizes:
        return sizes
    if game.hand_size <= 0:
        raise OddsError(
            f"{game.name} is a drawing game (hands grow card by card); round logs need a "
            "fixed number of cards or tiles per position"
        )
    return (game.hand_size,)


def round_cards(game: Game) -> int:
    """The most cards one round can take (all its hands)."""
    return game.max_round_cards or max(log_hand_sizes(game)) * len(game.positions)


class LogFormat(StrEnum):
    """How a log is stored."""

    csv = "csv"
    json = "json"
    parquet = "parquet"


def log_format(path: Path | None, given: str | None = None) -> LogFormat:
    """The format of a log: as given, else from the name (``.parquet``; else CSV)."""
    if given is not None:
        return LogFormat(given)
    name = path.name.lower() if path is not None else ""
    if name.endswith(".parquet"):
        return LogFormat.parquet
    if name.endswith((".json", ".json.gz")):
        return LogFormat.json
    return LogFormat.csv


def deal_rounds(
    game: Game,
    config: Any,
    rounds: int,
    seed: int,
    penetration: Fraction | None = None,
    seats: int = 0,
    faults: Faults | None = None,
) -> Iterator[dict[str, str]]:
    """Deal ``rounds`` rounds from a seeded, physically shuffled shoe.

    ``faults`` (:mod:`odds.tools.audit.faults`) plants faults for the audit to find;
    the shoe's own faults need ``penetration`` (shoes dealt through).

    With ``penetration`` None every round comes from a freshly shuffled shoe,
    as the exact odds assume. Otherwise the shoe is dealt continuously and
    reshuffled once that fraction of it has been dealt (as at a live table);
    every round then still has the exact distribution, but rounds of one shoe
    are slightly dependent. Each row names its ``shoe`` (counted from 1: one
    per round without a penetration) and its ``round`` (counted over the log).

    Everything is checked here, before the first round is dealt (and so before
    any output is opened): a drawing game or a shoe too small for a round is a
    one-line error.
    """
    log_hand_sizes(game)
    shoe = game.shoe(config)
    per_round = round_cards(game)
    positions = list(game.positions)
    if seats:
        if not game.shared_positions or game.max_round_cards:
            raise OddsError(
                f"--seats: {game.name} has no shared hand to seat players against; "
                "its log has one row per round as it is"
            )
        if not 1 <= seats <= MAX_SEATS:
            raise OddsError(f"--seats must be 1 to {MAX_SEATS}, got {seats}")
        own = next(p for p in game.positions if p not in game.shared_positions)
        positions = [*game.shared_positions, *(f"{own}_{k}" for k in range(1, seats + 1))]
        per_round = game.hand_size * len(positions)
    shoe.require(per_round)
    if rounds < 1:
        raise OddsError(f"rounds must be at least 1, got {rounds}")
    if penetration is not None and int(shoe.size * penetration) < per_round:
        raise OddsError(
            f"a penetration of {float(penetration):.0%} deals fewer cards than one round needs"
        )
    faults = faults or Faults()
    if faults.shoe_faults and penetration is None:
        raise OddsError(
            "a fault of the shoe (extra or missing cards, a weak shuffle, a slug) needs shoes "
            "dealt through: add --penetration (e.g. 80%)"
        )
    if faults.improve_banker and not (
        game.max_round_cards and "banker" in game.positions and "player" in game.positions
    ):
        raise OddsError(f"--improve-banker: {game.name} has no Banker and Player coup to re-deal")
    if game.max_round_cards:
        return _deal_drawn(game, config, shoe, rounds, seed, penetration, faults)
    return _deal(game, shoe, rounds, seed, penetration, game.hand_size, positions, faults)


class _Stack:
    """A shoe being dealt: cards popped from the end, and the order they left in."""

    def __init__(self, kinds: list[int], faults: Faults, rng: random.Random, types: Any) -> None:
        self.kinds, self.faults, self.rng = faults.composition(kinds), faults, rng
        self.rank = (lambda t: int(types[t].rank)) if hasattr(types[0], "rank") else int
        self.cards: list[int] = []
        self.dealt: list[int] = []
        self.previous: list[int] | None = None

    def fresh(self) -> None:
        if self.cards or self.dealt:
            self.previous = self.dealt + self.cards[::-1]
        order = self.faults.new_order(self.rng, self.kinds, self.previous, self.rank)
        self.cards, self.dealt = order[::-1], []

    def pop(self) -> int:
        card = self.cards.pop()
        self.dealt.append(card)
        return card

    def __len__(self) -> int:
        return len(self.cards)


def _deal(
    game: Game,
    shoe: Any,
    rounds: int,
    seed: int,
    penetration: Fraction | None,
    size: int,
    positions: list[str],
    faults: Faults,
) -> Iterator[dict[str, str]]:
    # Physical cards as type indices: the shuffle depends only on the number of cards,
    # so the deal is the same as shuffling the cards themselves; texts are cached per hand.
    kinds = [i for i, n in enumerate(shoe.counts) for _ in range(n)]
    texts: dict[tuple[int, ...], str] = {}

    def text(hand: tuple[int, ...]) -> str:
        found = texts.get(hand)
        if found is None:
            found = texts[hand] = game.hand_text(tuple(shoe.types[i] for i in hand))
        return found

    per_round = size * len(positions)
    rng = random.Random(seed)
    stack = _Stack(kinds, faults, rng, shoe.types)
    kinds = stack.kinds
    limit = len(kinds) if penetration is None else int(len(kinds) * penetration)
    shoes = 0
    for number in range(1, rounds + 1):
        if penetration is None:
            dealt = [kinds[j] for j in rng.sample(range(len(kinds)), per_round)]
            shoes += 1
        else:
            if len(stack) < per_round or len(kinds) - len(stack) >= limit:
                stack.fresh()
                shoes += 1
            dealt = [stack.pop() for _ in range(per_round)]
        row = {"shoe": str(shoes), "round": str(number)}
        for i, position in enumerate(positions):
            row[position] = text(tuple(dealt[i * size : (i + 1) * size]))
        yield row


def _deal_drawn(
    game: Game,
    config: Any,
    shoe: Any,
    rounds: int,
    seed: int,
    penetration: Fraction | None,
    faults: Faults,
) -> Iterator[dict[str, str]]:
    """Rounds of a game whose rules draw cards: the game deals each from the shuffled cards."""
    kinds = [i for i, n in enumerate(shoe.counts) for _ in range(n)]
    per_round = round_cards(game)
    rng = random.Random(seed)
    cheat = random.Random(f"improve {seed}")
    stack = _Stack(kinds, faults, rng, shoe.types)
    kinds = stack.kinds
    limit = len(kinds) if penetration is None else int(len(kinds) * penetration)
    need = 2 * per_round if faults.improve_banker else per_round  # a re-dealt coup takes two
    shoes = 0
    for number in range(1, rounds + 1):
        draw: Callable[[], int]
        if penetration is None:
            fresh = [kinds[j] for j in rng.sample(range(len(kinds)), need)]
            draw = iter(fresh).__next__
            shoes += 1
        else:
            if len(stack) < need or len(kinds) - len(stack) >= limit:
                stack.fresh()
                shoes += 1
            draw = stack.pop
        hands = game.deal_round(config, _as_types(shoe, draw))
        if (
            faults.improve_banker
            and _banker_loses(game, config, hands)
            and cheat.random() < faults.improve_banker
        ):  # the coup is dealt again
            hands = game.deal_round(config, _as_types(shoe, draw))
        row = {"shoe": str(shoes), "round": str(number)}
        for position in game.positions:
            row[position] = game.hand_text(hands[position])
        yield row


def _banker_loses(game: Game, config: Any, hands: Any) -> bool:
    """Whether the Player's hand beats the Banker's (the coup an improving dealer re-deals)."""
    texts = {p: game.hand_text(hands[p]) for p in game.positions}
    settled = game.settle(config, texts, Fraction(1))
    return any(b.bet == "banker" and b.net < 0 for b in settled.bets)


def _as_types(shoe: Any, draw: Callable[[], int]) -> Callable[[], Any]:
    """A card source giving shoe types from one giving type indices."""
    return lambda: shoe.types[draw()]


def write_log(
    game: Game,
    rows: Iterator[dict[str, str]],
    path: Path | None,
    form: LogFormat = LogFormat.csv,
    total: int | None = None,
    inputs: Inputs = (),
    fields: list[str] | None = None,
) -> int:
    """Write rows (to stdout when ``path`` is None); the number of rows.

    A file is written whole or not at all (:mod:`odds.runtime.atomic`): an existing log
    survives an error or Ctrl-C. CSV is gzip-compressed when the name ends in
    ``.gz``; Parquet is written by DuckDB from rows handed over in batches (no
    file name of the user's ever reaches DuckDB's readers, which expand globs).
    """
    fields = fields or [*WRITTEN_LABELS, *game.positions]
    if path is None:
        if form is LogFormat.parquet:
            raise OddsError("Parquet is binary: give --out FILE.parquet")
        writer = _write_json if form is LogFormat.json else _write_csv
        return writer(sys.stdout, fields, rows, total)
    check_output_path(path, inputs)
    with atomic_path(path, inputs) as temporary:
        if form is LogFormat.parquet:
            count = _write_parquet(temporary, fields, rows, total)
        else:
            writer = _write_json if form is LogFormat.json else _write_csv
            opener = gzip.open if path.name.lower().endswith(".gz") else open
            with opener(temporary, "wt", newline="", encoding="utf-8") as handle:
                count = writer(handle, fields, rows, total)
    return count


def _write_csv(
    handle: IO[str], fields: list[str], rows: Iterator[dict[str, str]], total: int | None
) -> int:
    writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    count = 0
    for row in track(rows, "dealing rounds", total):
        writer.writerow(row)
        count += 1
    return count


def _write_json(
    handle: IO[str], fields: list[str], rows: Iterator[dict[str, str]], total: int | None
) -> int:
    """A JSON array, one round object per line (streamed: no round is held back)."""
    from odds.output.json_document import write_records

    records = (
        {f: int(row[f]) if f in WRITTEN_LABELS else row[f] for f in fields}
        for row in track(rows, "dealing rounds", total)
    )
    return write_records(handle, records)


def _write_parquet(
    target: Path, fields: list[str], rows: Iterator[dict[str, str]], total: int | None
) -> int:
    """Rows written a batch at a time, in bounded memory (labels as integers).

    Each batch of :data:`PARQUET_BATCH` rows becomes a Parquet part in a private
    folder, and one ``COPY`` streams the parts, in order, into the target (in
    DuckDB's row groups). The log used to gather in an in-memory table until
    the end: 127 MB at 100,000 rounds, 822 MB at 10 million (CSV: 28 MB); now
    the process holds one batch and DuckDB's :data:`PARQUET_MEMORY` at most, and
    the parts take about the target's size on disk meanwhile (issue 33).
    """
    import shutil

    import duckdb
    import numpy as np

    from odds.runtime.inputs import private_folder

    quoted = {f: '"' + f.replace('"', '""') + '"' for f in fields}  # table, player-pair_1 …
    typed = {f: "BIGINT" if f in WRITTEN_LABELS else "VARCHAR" for f in fields}
    columns = ", ".join(f"{quoted[f]}::{typed[f]} AS {quoted[f]}" for f in fields)
    count = 0
    folder = private_folder("odds-simulate-")
    try:
        with duckdb.connect() as con:
            con.execute("SET enable_progress_bar = false")
            con.execute("SET preserve_insertion_order = true")  # the parts' rows in order
            con.execute(f"SET memory_limit = '{PARQUET_MEMORY}'")
            con.execute("SET temp_directory = ?", [str(folder)])
            # One thread: the dealing, in Python, is the slow part; every thread of DuckDB's
            # Parquet writer buffers a row group of its own.
            con.execute("SET threads = 1")
            parts: list[str] = []
            for batch in chunked(track(rows, "dealing rounds", total), PARQUET_BATCH):
                log_batch = {  # noqa: F841 - read by DuckDB's replacement scan below
                    f: np.array([int(r[f]) for r in batch], dtype=np.int64)
                    if f in WRITTEN_LABELS
                    else np.array([r[f] for r in batch], dtype=object)
                    for f in fields
                }
                part = str(folder / f"part-{len(parts):08d}.parquet")
                con.execute(f"COPY (SELECT {columns} FROM log_batch) TO ? (FORMAT parquet)", [part])
                parts.append(part)
                count += len(batch)
            if parts:
                source = "read_parquet(?)"
                arguments: list[Any] = [parts]
            else:  # no rows: the columns alone
                source = "(SELECT " + ", ".join(f"NULL::{typed[f]} AS {quoted[f]}" for f in fields)
                source += " WHERE false)"
                arguments = []
            # an absolute path: DuckDB reads a leading ~ as the home folder
            con.execute(
                f"COPY (SELECT * FROM {source}) TO ? (FORMAT parquet, COMPRESSION zstd)",
                [*arguments, os.path.abspath(target)],
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return count


# ---------------------------------------------------------------------------
# The operator layout: table, dealer, timestamp, rounds within shoes, stakes and payouts

#: The operator layout's label columns, before the hands.
OPERATOR_LABELS = ("shoe", "round", "table", "dealer", "timestamp")
#: The staff column's name in a game with a hand called ``dealer`` (Goa Gae): the croupier.
CROUPIER = "croupier"


def staff_label(game: Game) -> str:
    """The column naming who dealt: ``dealer``, or ``croupier`` where a hand is the dealer's.

    A log cannot hold two ``dealer`` columns, and the hand keeps its game's name.
    """
    return CROUPIER if "dealer" in game.positions else "dealer"


#: Stakes a simulated seat places on a bet (0: no bet), chosen at random.
STAKES = (0, 10, 20, 50, 100)
#: Dealers take turns shoe by shoe; rounds are this many seconds apart.
DEALERS, ROUND_SECONDS = 4, 45
START = datetime(2026, 1, 1, tzinfo=UTC)


def operator_log(
    game: Game,
    config: Any,
    rows: Iterator[dict[str, str]],
    seats: int,
    seed: int,
    bets: Sequence[str] = (),
    mis_settle: Fraction = Fraction(0),
    table: str = "T1",
) -> tuple[list[str], Iterator[dict[str, str]]]:
    """Dealt rows in the operator layout: its fields, and the rows.

    Rounds are numbered within each shoe; the dealer changes with the shoe
    (``D1`` … ``D4``); timestamps are UTC, :data:`ROUND_SECONDS` apart. With
    ``bets`` (the paytable's), each seat stakes a random amount of :data:`STAKES` on every bet
    and is paid what the game's settlement returns (to the cent); a share
    ``mis_settle`` of the bets placed is paid wrongly (a fault to find: the stake
    more, or nothing when something was due), seeded apart from the deal. In a game with a
    ``dealer`` hand the staff column is ``croupier`` (:func:`staff_label`).
    """
    own = next((p for p in game.positions if p not in game.shared_positions), "")
    seat_names = [f"{own}_{k}" for k in range(1, seats + 1)] if seats else [""]
    hands = [*game.shared_positions, *seat_names] if seats else list(game.positions)
    money = [
        f"{kind}_{bet}" + (f"_{seat.rsplit('_', 1)[1]}" if seat else "")
        for seat in seat_names
        for bet in bets
        for kind in ("stake", "paid")
    ]
    staff = staff_label(game)
    labels = [staff if label == "dealer" else label for label in OPERATOR_LABELS]
    fields = [*labels, *hands, *money]
    rng = random.Random(f"stakes {seed}")

    def rows_out() -> Iterator[dict[str, str]]:
        shoe, number = "", 0
        for index, row in enumerate(rows):
            number = number + 1 if row["shoe"] == shoe else 1
            shoe = row["shoe"]
            out = {"shoe": shoe, "round": str(number), "table": table}
            out[staff] = f"D{(int(shoe) - 1) % DEALERS + 1}"
            when = START + timedelta(seconds=ROUND_SECONDS * index)
            out["timestamp"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
            out |= {h: row[h] for h in hands}
            for seat in seat_names:
                if not bets:
                    break
                played = {p: row[p] for p in game.positions if p != own or not seat}
                if seat:
                    played[own] = row[seat]
                settled = game.settle(config, played, Fraction(1))
                returned = {b.bet: b.returned for b in settled.bets}
                suffix = f"_{seat.rsplit('_', 1)[1]}" if seat else ""
                for bet in bets:
                    stake = rng.choice(STAKES)
                    paid = stake * returned[bet]
                    if stake and rng.random() < mis_settle:
                        paid = paid + stake if paid == 0 else Fraction(0)
                    out[f"stake_{bet}{suffix}"] = str(stake) if stake else ""
                    out[f"paid_{bet}{suffix}"] = _cents(paid) if stake else ""
            yield out

    return fields, rows_out()


def results_only(
    game: Game,
    config: Any,
    fields: Sequence[str],
    rows: Iterator[dict[str, str]],
    bets: Sequence[str],
) -> tuple[list[str], Iterator[dict[str, str]]]:
    """Operator-layout rows with the cards replaced by each bet's outcome: a results-only log.

    Each seat's round is settled by the game and every bet's outcome written as its
    outcome table names it, in ``result_<bet>`` (``result_<bet>_<seat>`` with seats;
    empty at a seat nobody played), as :mod:`odds.tools.audit.results` reads it back. The
    labels, stakes and payouts stay as they were.
    """
    own = next((p for p in game.positions if p not in game.shared_positions), "")
    seats = [f for f in fields if game.shared_positions and f.startswith(f"{own}_")]
    seats = [f for f in seats if f.rsplit("_", 1)[1].isdigit()]
    hands = set(game.positions) | set(seats)
    labels = [f for f in fields if f not in hands and not f.startswith(("stake_", "paid_"))]
    money = [f for f in fields if f.startswith(("stake_", "paid_"))]
    suffixes = [f"_{s.rsplit('_', 1)[1]}" for s in seats] or [""]
    results = [f"result_{bet}{suffix}" for suffix in suffixes for bet in bets]

    def rows_out() -> Iterator[dict[str, str]]:
        for row in rows:
            out = {f: row[f] for f in (*labels, *money)}
            for seat, suffix in zip(seats or [""], suffixes, strict=True):
                played = {p: row[p] for p in game.positions if p != own or not seat}
                if seat:
                    played[own] = row[seat]
                if seat and not row[seat]:
                    events = {}
                else:
                    settled = game.settle(config, played, Fraction(1))
                    events = {b.bet: b.event for b in settled.bets}
                for bet in bets:
                    out[f"result_{bet}{suffix}"] = events.get(bet, "")
            yield out

    return [*labels, *results, *money], rows_out()


def _cents(amount: Fraction) -> str:
    """An amount to the cent (half to even), as an operator's log writes it."""
    cents = Decimal(amount.numerator) / Decimal(amount.denominator)
    return str(cents.quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))
