"""A player's decisions in a log: the action column ``odds simulate`` writes, and the audit's
finding about play.

A game with a player decision (``[definition.decision]``) is dealt and settled under a
strategy: the optimal one the engine solves, or the definition's fixed one
(:meth:`odds.games.defined.game.DefinedGame.playing`). ``odds simulate`` writes the action
taken each round in the column ``action`` (empty where the round never reaches the
decision). ``odds audit`` reads it back (:func:`read_play`): the strategy the log's actions
follow is the one they depart from least (the optimal one on a tie), the dealing is tested
against that strategy's outcome law, and the rounds whose action differs are a finding about
play — named, with what the departures won or cost exactly (each settled by its recorded
action) — never a fault of the dealing.
"""

from __future__ import annotations

import csv
import gzip
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.table import Column, Kind, Table, fields_table
from odds.games.base import Game

#: The log column holding the action taken (``odds simulate`` writes it).
ACTION_COLUMN = "action"
#: The departures named one by one (the rest are counted).
NAMED = 10


def strategies(game: Game[Any]) -> tuple[str, ...]:
    """The strategies a game's rounds may be played by (none without a decision)."""
    names = getattr(game, "strategy_names", None)
    return tuple(names()) if names is not None else ()


def with_actions(
    game: Game[Any], config: Any, rows: Iterator[dict[str, str]]
) -> Iterator[dict[str, str]]:
    """Each dealt round with the action the game's strategy takes (``action``; empty where
    nothing is decided)."""
    for row in rows:
        action = game.round_action(config, {p: row[p] for p in game.positions})  # type: ignore[attr-defined]
        yield {**row, ACTION_COLUMN: action or ""}


@dataclass(frozen=True)
class Play:
    """What the log's actions say: the strategy they follow and the rounds that depart."""

    strategy: str
    decided: int  # rounds that reach the decision
    departures: int  # rounds whose recorded action is not the strategy's
    named: tuple[tuple[str, str, str], ...]  # (round, recorded, strategy's) for the first ones
    #: Net of the bets that read the action over the departures, per initial unit: as
    #: recorded minus as the strategy plays (negative: the departures cost the player).
    cost: Fraction
    #: Departures against each strategy (the one followed has the fewest).
    against: tuple[tuple[str, int], ...]

    def text(self) -> str:
        """The finding in words (the audit's section on play)."""
        against = "; ".join(f"{name}: {n:,}" for name, n in self.against)
        lines = [
            f"The log records the action taken in {self.decided:,} decided rounds. They follow "
            f"the {self.strategy} strategy most closely (rounds played otherwise, per "
            f"strategy: {against}). The dealing tests above use its outcome law: the cards' "
            "frequencies do not depend on decisions, and each round's bets are settled by the "
            "strategy's action, so a round played otherwise is no fault of the dealing.",
            "",
        ]
        if not self.departures:
            lines.append(f"Every recorded action is the {self.strategy} strategy's.")
            return "\n".join(lines)
        shown = "; ".join(f"{r} ({a}, not {b})" for r, a, b in self.named)
        more = f" and {self.departures - len(self.named):,} more" if self.departures > NAMED else ""
        lines.append(
            f"Play finding (not a fault of the dealing): {self.departures:,} rounds were played "
            f"otherwise than the {self.strategy} strategy: {shown}{more}. Settled by their "
            f"recorded actions, the bets that read the action netted {_signed(self.cost)} "
            "initial units against what the strategy's actions net on the same cards (exact)."
        )
        return "\n".join(lines)


def _signed(value: Fraction) -> str:
    text = str(value.numerator) if value.denominator == 1 else f"{value} (≈ {float(value):.4f})"
    return f"+{text}" if value > 0 else text


def read_play(
    game: Game[Any],
    config: Any,
    log: Path,
    columns: Mapping[str, str] | None,
    encoding: str | None = None,
) -> Play | None:
    """The log's actions against each strategy (``None``: no decision, or no action column).

    Reads a CSV (``.gz`` too) or Parquet log of one row per round, streamed; the hands and the
    action by their column names (``--columns`` maps them). A recorded action that is not one
    of the game's, or one where the round reaches no decision, is a one-line error naming the
    row. A row whose cards cannot be read, or a log that cannot be decoded, is left to the
    audit's reader, which names it.
    """
    names = strategies(game)
    if not names:
        return None
    mapping = {canonical(theirs): ours for ours, theirs in (columns or {}).items()}
    try:
        return _read_play(game, config, log, _rows(log, mapping, encoding), names)
    except (UnicodeDecodeError, csv.Error):
        return None


def _read_play(
    game: Game[Any], config: Any, log: Path, rows: Iterator[dict[str, str]], names: Sequence[str]
) -> Play | None:
    first = next(rows, None)
    if first is None or ACTION_COLUMN not in first:
        return None
    played = {name: game.playing(name) for name in names}  # type: ignore[attr-defined]
    actions = game.definition.decision.actions  # type: ignore[attr-defined]
    tally = {name: _Tally() for name in names}
    memo: dict[tuple[str, ...], dict[str, str | None] | None] = {}
    for number, row in enumerate(_chain(first, rows), start=2):
        hands = {p: row.get(p, "") or "" for p in game.positions}
        key = tuple(hands[p] for p in game.positions)
        if key not in memo:
            if len(memo) > MEMO:
                memo.clear()
            memo[key] = _taken(played, config, hands)
        taken = memo[key]
        if taken is None:  # cards the reader rejects (and names)
            continue
        recorded = (row.get(ACTION_COLUMN) or "").strip()
        label = _round_label(row, number)
        if recorded and recorded not in actions:
            raise OddsError(
                f"{log}: round {label}: action {recorded!r} is not one of {', '.join(actions)}"
            )
        if recorded and taken[names[0]] is None:
            raise OddsError(f"{log}: round {label}: action {recorded!r} where nothing is decided")
        for name, found in tally.items():
            found.add(played[name], config, hands, label, recorded, taken[name])
    against = tuple((name, found.departures) for name, found in tally.items())
    strategy = min(against, key=lambda pair: pair[1])[0]
    found = tally[strategy]
    return Play(strategy, found.decided, found.departures, tuple(found.named), found.cost, against)


#: Distinct rounds whose actions are remembered before the memo starts again.
MEMO = 100_000


def _taken(
    played: Mapping[str, Any], config: Any, hands: Mapping[str, str]
) -> dict[str, str | None] | None:
    """Each strategy's action in a round (``None``: cards the game cannot read)."""
    try:
        return {name: game.round_action(config, hands) for name, game in played.items()}
    except OddsError:
        return None


@dataclass
class _Tally:
    """One strategy against the log's actions, as the rows stream by."""

    decided: int = 0
    departures: int = 0
    named: list[tuple[str, str, str]] = field(default_factory=list)
    cost: Fraction = Fraction(0)

    def add(
        self,
        game: Any,
        config: Any,
        hands: Mapping[str, str],
        label: str,
        recorded: str,
        wanted: str | None,
    ) -> None:
        if wanted is None:
            return
        self.decided += 1
        if recorded == wanted:
            return
        self.departures += 1
        if len(self.named) < NAMED:
            self.named.append((label, recorded or "none recorded", wanted))
        if recorded:
            self.cost += _net(game, config, hands, recorded) - _net(game, config, hands, wanted)


def _net(game: Any, config: Any, hands: Mapping[str, str], action: str) -> Fraction:
    """The net of the bets that read the action, one initial unit each, under ``action``."""
    from odds.games.defined.decisions import decision_bets

    reading = {b.name for b in decision_bets(game)}
    settled = game.settle(config, {**hands, "actions": action}, Fraction(1))
    return sum((b.net for b in settled.bets if b.bet in reading), Fraction(0))


def canonical(name: str) -> str:
    """A column name as the audit's layout reads it: lower case, spaces as underscores."""
    return re.sub(r"\s+", "_", name.strip().lower())


def _round_label(row: Mapping[str, str], line: int) -> str:
    labels = [f"{k} {row[k]}" for k in ("shoe", "round") if row.get(k)]
    return " ".join(labels) if labels else f"line {line}"


def _chain(first: dict[str, str], rest: Iterator[dict[str, str]]) -> Iterator[dict[str, str]]:
    yield first
    yield from rest


def _rows(
    log: Path, mapping: Mapping[str, str], encoding: str | None = None
) -> Iterator[dict[str, str]]:
    """The log's rows as dicts, its columns named as the layout reads them and renamed by
    ``--columns``: CSV (``.gz`` too; its separator sniffed from the header, in ``encoding``)
    or Parquet (read by DuckDB), as the audit reads logs."""
    from odds.tools.audit.sources import sniff_delimiter

    name = log.name.lower()

    def named(items: Iterable[tuple[str, Any]]) -> dict[str, str]:
        found = {}
        for column, value in items:
            if column:
                column = canonical(column)
                found[mapping.get(column, column)] = "" if value is None else str(value)
        return found

    if name.endswith(".parquet"):
        yield from (named(items) for items in _parquet(log))
        return
    opener: Any = gzip.open if name.endswith(".gz") else open
    if encoding is None:  # UTF-16 tells itself, as the reader finds it (odds.runtime.inputs)
        with opener(log, "rb") as raw:
            first = raw.read(8)
        if first.startswith((b"\xff\xfe", b"\xfe\xff")):
            encoding = "utf-16"
        elif b"\x00" in first:
            encoding = "utf-16-le" if first[1:2] == b"\x00" else "utf-16-be"
    with opener(log, "rt", encoding=encoding or "utf-8-sig", newline="") as handle:
        header = handle.readline()
        handle.seek(0)
        for row in csv.DictReader(handle, delimiter=sniff_delimiter(header)):
            yield named(row.items())


def _parquet(log: Path) -> Iterator[list[tuple[str, Any]]]:
    """A Parquet log's rows, through a link whose name DuckDB cannot read as a pattern."""
    import os
    import tempfile

    import duckdb

    from odds.tools.audit.sources import sql_text

    with tempfile.TemporaryDirectory() as folder:
        safe = Path(folder) / "log.parquet"
        os.symlink(log.resolve(), safe)
        con = duckdb.connect()
        try:
            cursor = con.execute(f"SELECT * FROM read_parquet({sql_text(str(safe))})")
            names = [d[0] for d in cursor.description]
            while batch := cursor.fetchmany(10_000):
                for values in batch:
                    yield list(zip(names, values, strict=True))
        finally:
            con.close()


def play_table(play: Play) -> Table:
    """``odds audit --format json``: the play finding, exact."""
    return fields_table(
        "play",
        "Play: the recorded actions against the strategy",
        [
            (Column("strategy", "strategy followed"), play.strategy),
            (Column("decided", "decided rounds", Kind.WAYS), play.decided),
            (Column("departures", "rounds played otherwise", Kind.WAYS), play.departures),
            (Column("named", "the first rounds played otherwise", Kind.DATA),
             [{"round": r, "recorded": a, "strategy": b} for r, a, b in play.named]),
            (Column("net", "their net against the strategy's (initial units)", Kind.EXACT),
             play.cost),
            (Column("against", "rounds played otherwise, per strategy", Kind.DATA),
             dict(play.against)),
        ],
    )  # fmt: skip
