"""The cards or tiles a watching player has seen, read from text or a round log.

``odds shoe --seen "Kh 9h 5c"`` and ``--seen-file rounds.csv`` (the
``odds simulate`` log format: a ``round`` column and one column per hand, one
round per line). Every problem is a one-line error naming the card, the line
or the column; a card seen more often than the shoe holds it names the card and
both counts.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from odds.errors import OddsError
from odds.games.base import Game
from odds.shoe import Shoe

#: Log columns that label a row (or record play) rather than hold cards.
NOT_CARDS = ("round", "position", "actions")


def parse_seen_text(game: Game, config: Any, text: str) -> list[Any]:
    """Cards or tiles written as ``odds settle`` reads a hand, any number of them."""
    if not text.strip():
        return []
    return list(game.parse_hand(config, text))


def read_seen_file(game: Game, config: Any, path: Path) -> list[Any]:
    """Every card of every hand of a round log, in order."""
    from odds.inputs import check_regular

    label = str(path)
    check_regular(path, label)
    try:
        handle = path.open(newline="", encoding="utf-8-sig")
    except OSError as exc:
        raise OddsError(f"{label}: cannot read ({exc.strerror})") from None
    seen: list[Any] = []
    with handle:
        reader = csv.DictReader(handle)
        columns = [c.strip() for c in reader.fieldnames or ()]
        if not columns:
            raise OddsError(f"{label}: empty log (expected a header such as round,banker,player)")
        for column in columns:
            if column not in game.positions and column not in NOT_CARDS:
                raise OddsError(
                    f"{label}: unknown column {column!r} (a {game.name} log has "
                    f"{', '.join(game.positions)}; optional round, position)"
                )
        reader.fieldnames = columns
        for row in reader:
            line = reader.line_num
            if None in row or any(v is None for v in row.values()):
                raise OddsError(f"{label} line {line}: wrong number of fields")
            for column in columns:
                text = (row[column] or "").strip()
                if column in NOT_CARDS or not text:
                    continue
                try:
                    seen.extend(game.parse_hand(config, text))
                except OddsError as exc:
                    raise OddsError(f"{label} line {line}, column {column}: {exc}") from None
    return seen


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
