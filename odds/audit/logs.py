"""Round logs: reading an operator's CSV, and dealing an honest one.

A log has one row per round and position, one column per hand of
``Game.positions`` (``banker``, ``player`` …) holding the cards or tiles as
the CLI parses them, and optionally ``round`` and ``position`` columns that
only label the row. Everything here is generic: the game's hooks
(:meth:`~odds.games.base.Game.shoe`, ``parse_hand``, ``hand_text``,
``hand_size``) say what a hand is.
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.errors import OddsError
from odds.games.base import Game
from odds.settlement import Settlement

#: Columns that label a row without being a hand.
LABEL_COLUMNS = ("round", "position")


def require_fixed_hands(game: Game) -> int:
    """The game's hand size; a one-line refusal for drawing games (hand size 0)."""
    if game.hand_size <= 0:
        raise OddsError(
            f"{game.name} is a drawing game (hands grow card by card); round logs need a "
            "fixed number of cards or tiles per position"
        )
    return game.hand_size


@dataclass(frozen=True)
class Rejected:
    """A row that was read but not used, with why."""

    line: int
    reason: str


@dataclass(frozen=True)
class LoggedRound:
    """A valid row, settled with a stake of 1."""

    line: int
    settlement: Settlement


def read_log(game: Game, config: Any, path: Path) -> tuple[list[LoggedRound], list[Rejected]]:
    """Read, validate and settle every row.

    A malformed log (missing or unknown column, a symbol the game does not use,
    a hand of the wrong size) is a one-line error naming the column or line: it
    says the log is not a log of this game. A row whose hands the shoe cannot
    hold (or that the game refuses to settle) is rejected with its line number
    and excluded from every test.
    """
    size = require_fixed_hands(game)
    shoe = game.shoe(config)
    known = set(shoe.types)
    label = str(path)
    try:
        handle = path.open(newline="", encoding="utf-8-sig")
    except OSError as exc:
        raise OddsError(f"{label}: cannot read ({exc.strerror})") from None
    rounds: list[LoggedRound] = []
    rejected: list[Rejected] = []
    with handle:
        reader = csv.DictReader(handle)
        _check_columns(game, reader.fieldnames, label)
        reader.fieldnames = [c.strip() for c in reader.fieldnames or ()]
        for row in reader:
            line = reader.line_num
            if None in row or any(v is None for v in row.values()):
                raise OddsError(f"{label} line {line}: wrong number of fields")
            if not any((v or "").strip() for v in row.values()):
                continue  # a blank line
            hands: dict[str, str] = {}
            items: list[Any] = []
            for position in game.positions:
                text = row[position].strip()
                try:
                    parsed = game.parse_hand(config, text)
                except OddsError as exc:
                    raise OddsError(f"{label} line {line}, column {position}: {exc}") from None
                if len(parsed) != size:
                    raise OddsError(
                        f"{label} line {line}, column {position}: {len(parsed)} cards or tiles "
                        f"({text!r}); {game.name} deals {size} per position"
                    )
                for item in parsed:
                    if item not in known:
                        raise OddsError(
                            f"{label} line {line}, column {position}: {item} is not used in "
                            f"this game's shoe ({shoe.description})"
                        )
                hands[position] = text
                items.extend(parsed)
            try:
                shoe.check_holds(items, "this round's hands")
                settlement = game.settle(config, hands, Fraction(1))
            except OddsError as exc:
                rejected.append(Rejected(line, str(exc)))
                continue
            rounds.append(LoggedRound(line, settlement))
    return rounds, rejected


def _check_columns(game: Game, fieldnames: Any, label: str) -> None:
    if not fieldnames:
        raise OddsError(f"{label}: empty log (expected a header: {', '.join(game.positions)})")
    columns = [c.strip() for c in fieldnames]
    allowed = set(game.positions) | set(LABEL_COLUMNS)
    for column in columns:
        if column not in allowed:
            raise OddsError(
                f"{label}: unknown column {column!r} (a {game.name} log has "
                f"{', '.join(game.positions)}; optional {', '.join(LABEL_COLUMNS)})"
            )
    for position in game.positions:
        if position not in columns:
            raise OddsError(f"{label}: missing column {position!r} (one per hand)")
    if len(set(columns)) != len(columns):
        raise OddsError(f"{label}: a column appears twice")


def deal_rounds(
    game: Game, config: Any, rounds: int, seed: int, penetration: Fraction | None = None
) -> Iterator[dict[str, str]]:
    """Deal ``rounds`` rounds from a seeded, physically shuffled shoe.

    With ``penetration`` None every round comes from a freshly shuffled shoe,
    as the exact odds assume. Otherwise the shoe is dealt continuously and
    reshuffled once that fraction of it has been dealt (as at a live table);
    every round then still has the exact distribution, but rounds of one shoe
    are slightly dependent.
    """
    size = require_fixed_hands(game)
    shoe = game.shoe(config)
    cards = [t for t, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    per_round = size * len(game.positions)
    shoe.require(per_round)
    rng = random.Random(seed)
    stack: list[Any] = []
    limit = len(cards) if penetration is None else int(len(cards) * penetration)
    for number in range(1, rounds + 1):
        if penetration is None:
            dealt = rng.sample(cards, per_round)
        else:
            if len(stack) < per_round or len(cards) - len(stack) >= limit:
                stack = cards[:]
                rng.shuffle(stack)
            dealt = [stack.pop() for _ in range(per_round)]
        row = {"round": str(number)}
        for i, position in enumerate(game.positions):
            row[position] = game.hand_text(tuple(dealt[i * size : (i + 1) * size]))
        yield row


def write_log(game: Game, rows: Iterator[dict[str, str]], path: Path | None) -> int:
    """Write rows as CSV (to stdout when ``path`` is None); the number of rows."""
    import sys

    fields = ["round", *game.positions]
    handle = sys.stdout if path is None else path.open("w", newline="", encoding="utf-8")
    count = 0
    try:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow(row)
            count += 1
    finally:
        if path is not None:
            handle.close()
    return count
