"""``odds reports``: regenerate ``reports/*.md`` and their charts from ``tables/*.toml``, or check.

Reports and charts are deterministic, so a committed file that differs from
what the code generates now is stale. Each report is built on a core of its
own (the slowest, blackjack, dominates), with its charts
(``reports/charts/<report>-<chart>.svg``, linked from the report), then
compared or written.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from odds.core.errors import OddsError
from odds.games.paytable import REPORTS, load_file, table_files
from odds.output.charts.report_charts import REPORT_FOLDER, chart_files, chart_links
from odds.output.markdown_report import to_markdown
from odds.runtime.progress import track


@dataclass(frozen=True)
class FileStatus:
    """One generated file: where it goes, the text it should hold, whether it does."""

    target: Path
    text: str
    fresh: bool

    @property
    def missing(self) -> bool:
        return not self.target.exists()

    @classmethod
    def of(cls, target: Path, text: str) -> FileStatus:
        current = target.read_text(encoding="utf-8") if target.exists() else None
        return cls(target, text, current == text)


@dataclass(frozen=True)
class ReportStatus(FileStatus):
    """One paytable's report and its chart files."""

    table: Path = Path()
    charts: tuple[FileStatus, ...] = ()

    def files(self) -> Iterator[FileStatus]:
        """The charts, then the report (written in that order: no link ever points nowhere)."""
        yield from self.charts
        yield self


@dataclass(frozen=True)
class ReportOutput:
    """What one worker returns: the report's Markdown and its charts by file name."""

    text: str
    charts: tuple[tuple[str, str], ...]


def report_output(path: Path) -> ReportOutput:
    """The Markdown report of one paytable file and its charts (run in a worker process)."""
    from odds.tools.shoe.questions import with_shoe_section

    paytable = load_file(path)
    analysis = with_shoe_section(paytable, paytable.analysis())
    files = chart_files(analysis, path.stem)
    text = to_markdown(analysis, charts=chart_links(files, REPORT_FOLDER))
    return ReportOutput(text, tuple((f.name, f.text) for f in files))


def reports_folder() -> Path:
    """The checkout's ``reports/``; an installed copy has none (a one-line error)."""
    if REPORTS is None:
        raise OddsError(
            "no reports/ folder: reports are kept in a source checkout of odds "
            "(run `odds reports` there); `odds report NAME` works anywhere"
        )
    return REPORTS


def charts_folder() -> Path:
    """Where the reports' chart files live: ``reports/charts/``."""
    return reports_folder() / REPORT_FOLDER


def statuses(paths: list[Path] | None = None) -> list[ReportStatus]:
    """Every paytable's report and charts, generated now and compared with the files on disk."""
    folder = reports_folder()
    paths = table_files() if paths is None else paths
    # Every paytable validated before any report is built (one broken table used to cost
    # every other report's minutes first).
    games = [load_file(path).game.name for path in paths]
    outputs = _outputs(paths, games)
    result = []
    for path, output in zip(paths, outputs, strict=True):
        target = folder / f"{path.stem}.md"
        charts = tuple(FileStatus.of(charts_folder() / name, svg) for name, svg in output.charts)
        report = FileStatus.of(target, output.text)
        result.append(ReportStatus(target, output.text, report.fresh, path, charts))
    return result


def report_outputs(paths: tuple[Path, ...]) -> list[ReportOutput]:
    """The reports of several paytables of one game, in one worker: what a game's
    paytables share (its shoe-state layouts, its tables of hands) is built once."""
    return [report_output(path) for path in paths]


def _outputs(paths: list[Path], games: list[str] | None = None) -> list[ReportOutput]:
    """Every report and its charts, on every core (:func:`odds.runtime.pool.in_order`: Ctrl-C kills
    the workers and exits at once, without their tracebacks). The paytables of one game
    (``games``: each path's) go to one worker together."""
    from odds.runtime.pool import in_order, local_workers

    by_game: dict[str, list[int]] = {}
    for index, game in enumerate(games or [str(path) for path in paths]):
        by_game.setdefault(game, []).append(index)
    groups = list(by_game.values())
    workers = local_workers(None, len(groups))
    if workers == 1:
        return [report_output(path) for path in track(paths, "reports")]
    units = [tuple(paths[i] for i in group) for group in groups]
    results = in_order(report_outputs, units, workers, ahead=len(units))
    found: dict[int, ReportOutput] = {}

    def each() -> Iterator[ReportOutput]:
        for group, outputs in zip(groups, results, strict=True):
            for index, output in zip(group, outputs, strict=True):
                found[index] = output
                yield output

    with contextlib.closing(results):
        for _ in track(each(), "reports", len(paths)):
            pass
    return [found[index] for index in range(len(paths))]


def orphans(paths: list[Path] | None = None) -> list[Path]:
    """Reports with no paytable behind them (a renamed or deleted table)."""
    stems = {p.stem for p in (table_files() if paths is None else paths)}
    return sorted(p for p in reports_folder().glob("*.md") if p.stem not in stems)


def orphan_charts(found: list[ReportStatus]) -> list[Path]:
    """Chart files no report draws any more (a renamed bet, a removed paytable)."""
    drawn = {chart.target.name for status in found for chart in status.charts}
    folder = charts_folder()
    return sorted(p for p in folder.glob("*.svg") if p.name not in drawn) if folder.is_dir() else []


def write(status: FileStatus) -> None:
    """Write one report or chart whole: to a temporary file beside it, renamed over the old
    one (:mod:`odds.runtime.atomic`; an error or Ctrl-C leaves the old file and no partial file)."""
    from odds.runtime.atomic import write_text

    status.target.parent.mkdir(parents=True, exist_ok=True)
    write_text(status.target, status.text)
