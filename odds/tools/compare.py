"""Paytables side by side (``odds compare``): every bet's figures across paytables.

A lab or a designer holding several paytables of a game (``tables/baccarat*.toml``)
wants each bet's house edge, RTP, hit frequency, SD, volatility index and top award
in one place, one column per paytable. The figures are the reports' own (each
paytable's exact :class:`odds.stats.analysis.Analysis`, the summary and top-award rows of
:mod:`odds.stats.bet_tables`), laid out as :class:`odds.core.table.Table` s so that
Markdown, JSON and CSV (and any later writer) render them through the one path.

Bets are matched by name (``banker``, ``tie`` …). A bet one paytable has and another
has not is shown as ``absent`` in the other's column — never as zero, which would
read as a fair bet.
"""

from __future__ import annotations

import glob
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.overrides import Override
from odds.core.table import Column, Kind, Table
from odds.games.paytable import TABLES, Paytable, load, looks_like_path
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet, volatility_index

#: What a cell says for a bet the paytable does not offer (not zero: zero is a fair bet).
ABSENT = "absent"
ABSENT_NOTE = (
    "`absent`: the paytable has no such bet (not zero). Bets are matched by name across paytables."
)
_GLOB_CHARACTERS = frozenset("*?[")


@dataclass(frozen=True)
class Metric:
    """One figure compared: its table key, title, column kind and how it is read from a bet."""

    key: str
    title: str
    kind: Kind
    value: Callable[[Bet], Any]
    note: str = ""


METRICS: tuple[Metric, ...] = (
    Metric(
        "house_edge", "House edge", Kind.PERCENT, lambda b: b.stats.house_edge, "Exact in JSON."
    ),
    Metric(
        "rtp",
        "RTP per unit staked",
        Kind.PERCENT,
        lambda b: b.stats.rtp,
        "Exact in JSON. A bet that withholds more than its stake (Pok Deng's Player) has its "
        "return per unit debited in each paytable's report.",
    ),
    Metric(
        "hit_frequency",
        "Hit frequency",
        Kind.PERCENT,
        lambda b: b.stats.hit_frequency,
        "Net wins only (pushes are not hits); exact in JSON.",
    ),
    Metric(
        "sd",
        "Standard deviation per unit staked",
        Kind.APPROXIMATE,
        lambda b: b.stats.sd,
        "A square root: decimals, not exact.",
    ),
    Metric(
        "volatility_index",
        "Volatility index (90%)",
        Kind.APPROXIMATE,
        lambda b: volatility_index(b.stats),
        "z · SD with z for 90% confidence (the PAR-sheet convention).",
    ),
    Metric(
        "top_award",
        "Top award (maximum win per unit staked)",
        Kind.NET,
        lambda b: b.top_award,
        "The largest net win one unit staked can bring in one round; exact in JSON.",
    ),
)


@dataclass(frozen=True)
class Expanded:
    """The paytables the arguments name, and the files a pattern caught that are none."""

    names: list[str]
    skipped: list[str]


def expand(arguments: Sequence[str]) -> Expanded:
    """The paytables named on the command line, a quoted pattern expanded.

    The shell expands ``tables/baccarat*.toml`` itself; a quoted pattern (or a shell that
    does not expand, such as Windows's) is expanded here. A pattern written as a name
    (``'baccarat*'``) matches the packaged games and paytables by name (``baccarat-ez``, or
    ``baccarat-ez.toml``), then the files of the working folder; one with a folder
    (``'dir/*.toml'``) matches files only. A file the pattern catches that is no paytable
    (not ``.toml``, a folder, or TOML naming no game) is skipped and listed in
    :attr:`Expanded.skipped`. A file whose name really holds ``*`` or ``[`` is taken as it is
    when it exists.
    """
    found: list[str] = []
    skipped: list[str] = []
    for argument in arguments:
        if not (_GLOB_CHARACTERS & set(argument)) or Path(argument).exists():
            found.append(argument)
            continue
        in_folder = "/" in argument or "\\" in argument
        matches = [] if in_folder else _packaged_matching(argument)
        for name in sorted(glob.glob(argument)):
            if _is_paytable(Path(name)):
                matches.append(name)  # a .toml name: read as a path, never as a packaged name
            else:
                skipped.append(name)
        if not matches:
            caught = f" (caught only {', '.join(skipped)}: no paytable)" if skipped else ""
            raise OddsError(f"no paytable matches {argument!r}{caught}")
        found += matches
    return Expanded(found, skipped)


def _packaged_matching(pattern: str) -> list[str]:
    """The packaged games and paytables whose name (or ``name.toml``) matches ``pattern``."""
    import fnmatch

    from odds.games import game_names

    names = sorted({*game_names(), *(p.stem for p in TABLES.glob("*.toml"))})
    return [
        n
        for n in names
        if fnmatch.fnmatchcase(n, pattern) or fnmatch.fnmatchcase(f"{n}.toml", pattern)
    ]


def _is_paytable(path: Path) -> bool:
    """Whether a file a pattern caught is meant as a paytable: a ``.toml`` file that names a
    game or defines one. (A broken ``.toml`` is read, and refused with its error, later.)"""
    if path.suffix.lower() != ".toml" or not path.is_file():
        return False
    from odds.games.paytable import read_file

    try:
        data, _ = read_file(path)
    except OddsError:
        return True
    return "game" in data or "definition" in data


def label_of(argument: str) -> str:
    """A paytable's column header: a file's stem, or the game or paytable name as given."""
    name = Path(argument).stem if looks_like_path(argument) else argument
    # A dot in a column key would nest in JSON (see odds.core.table.json_record).
    return name.replace(".", "_")


@dataclass(frozen=True)
class Comparison:
    """Several paytables' analyses, labelled, and the bets they offer (in first-seen order)."""

    labels: tuple[str, ...]
    paytables: tuple[Paytable, ...]
    analyses: tuple[Analysis, ...]

    @property
    def bets(self) -> tuple[tuple[str, str], ...]:
        """``(name, title)`` of every bet any paytable offers, in the order first seen."""
        seen: dict[str, str] = {}
        for analysis in self.analyses:
            for bet in analysis.bets:
                seen.setdefault(bet.name, bet.title)
        return tuple(seen.items())

    def paytable_table(self) -> Table:
        rows = tuple(
            {
                "label": label,
                "paytable": paytable.source,
                "game": paytable.game.name,
                "title": paytable.title,
                "shoe": analysis.shoe,
                "file_sha256": paytable.file_sha256,
                "options_sha256": paytable.options_sha256,
            }
            for label, paytable, analysis in zip(
                self.labels, self.paytables, self.analyses, strict=True
            )
        )
        return Table(
            key="paytables",
            title="Paytables compared",
            columns=(
                Column("label", "column"),
                Column("paytable", "paytable"),
                Column("game", "game"),
                Column("title", "title"),
                Column("shoe", "shoe"),
                Column("file_sha256", "file SHA-256", markdown=False),
                Column("options_sha256", "options SHA-256", markdown=False),
            ),
            rows=rows,
            json_index="label",
            note="JSON and CSV give each paytable's file and options SHA-256 (as its report does).",
        )

    def metric_table(self, metric: Metric) -> Table:
        """One figure of every bet, one column per paytable; ``absent`` where a bet is missing."""
        by_name = [{bet.name: bet for bet in analysis.bets} for analysis in self.analyses]
        rows = []
        for name, title in self.bets:
            row: dict[str, Any] = {"bet": name, "title": title}
            for label, bets in zip(self.labels, by_name, strict=True):
                bet = bets.get(name)
                row[label] = ABSENT if bet is None else metric.value(bet)
            rows.append(row)
        notes = [metric.note] if metric.note else []
        if any(any(row[label] == ABSENT for label in self.labels) for row in rows):
            notes.append(ABSENT_NOTE)
        return Table(
            key=metric.key,
            title=metric.title,
            columns=(
                Column("bet", "bet"),
                Column("title", "title"),
                *(Column(label, label, metric.kind) for label in self.labels),
            ),
            rows=tuple(rows),
            json_index="bet",
            note=" ".join(notes),
        )

    def tables(self) -> list[Table]:
        """The paytables, then one table per figure (the render path's input)."""
        return [self.paytable_table(), *(self.metric_table(m) for m in METRICS)]

    def notes(self) -> list[str]:
        """Sentences a reader needs before the tables (mixed games)."""
        games = sorted({p.game.name for p in self.paytables})
        if len(games) > 1:
            return [
                f"These paytables are of different games ({', '.join(games)}): bets are matched "
                "by name only, so a row may hold different bets."
            ]
        return []


def compare(arguments: Sequence[str], overrides: Sequence[Override] = ()) -> Comparison:
    """Load every paytable (a glob expanded), analyse each, and line them up.

    Every paytable is loaded and validated before any analysis starts, so a
    bad file is a one-line error at once, not after minutes of work.
    """
    names = expand(arguments).names
    if len(names) < 2:
        raise OddsError(
            f"compare needs at least two paytables, got {len(names)} "
            "(e.g. odds compare tables/baccarat*.toml)"
        )
    paytables = [load(name, overrides) for name in names]
    labels = _unique([label_of(name) for name in names])
    seen: dict[str, str] = {}
    for name, paytable in zip(names, paytables, strict=True):
        identity = _identity(name, paytable)
        if identity in seen:
            raise OddsError(f"{name}: the same paytable as {seen[identity]} (given twice)")
        seen[identity] = name
    from odds.runtime.progress import track

    analyses = [p.analyse() for p in track(paytables, "paytables", len(paytables))]
    return Comparison(tuple(labels), tuple(paytables), tuple(analyses))


def _identity(name: str, paytable: Paytable) -> str:
    """What makes two arguments the same paytable: the same file, or the same game's defaults."""
    named = TABLES / f"{name}.toml"
    if not looks_like_path(name) and named.exists():
        return f"file:{named.resolve()}"
    if looks_like_path(name) or Path(name).is_file():
        return f"file:{Path(name).resolve()}"
    return f"source:{paytable.source}"


def _unique(labels: list[str]) -> list[str]:
    """Labels made distinct (``baccarat``, ``baccarat-2``) when two files share a stem."""
    counts: dict[str, int] = {}
    result = []
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
        result.append(label if counts[label] == 1 else f"{label}-{counts[label]}")
    return result
