"""``odds reports``: regenerate ``reports/*.md`` and their charts from ``tables/*.toml``, or check.

Reports and charts are deterministic, so a committed file that differs from
what the code generates now is stale. Each report is built on a core of its
own (the slowest, blackjack, dominates), with its charts
(``reports/charts/<report>-<chart>.svg``, linked from the report), then
compared or written.

``reports/SHA256SUMS`` names, by SHA-256 in ``sha256sum``'s format (read from the checkout's
root), every file the reports were generated from (the package's files, the paytables) and
every file generated: ``sha256sum -c reports/SHA256SUMS`` shows that nothing has changed since
``odds reports`` wrote them. The freshness test reads it instead of regenerating every report
(and regenerates one report per path, to show that this install reproduces the bytes).
"""

from __future__ import annotations

import contextlib
import hashlib
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


SUMS = "SHA256SUMS"


def _digest(data: bytes) -> str:
    """A file's SHA-256, its line endings read as LF (a checkout made on Windows is the same)."""
    return hashlib.sha256(data.replace(b"\r\n", b"\n")).hexdigest()


def _sources(paths: list[Path]) -> dict[str, str]:
    """The digest of every file a report is generated from, by its name in the checkout: the
    package's files (its code and data) and the paytables ``paths``."""
    package = Path(__file__).resolve().parents[1]
    files = sorted(
        p for p in package.rglob("*") if p.is_file() and p.suffix not in (".pyc", ".pyo")
    )
    found = {f"odds/{p.relative_to(package).as_posix()}": _digest(p.read_bytes()) for p in files}
    found.update((f"tables/{p.name}", _digest(p.read_bytes())) for p in paths)
    return found


def _sums_text(digests: dict[str, str]) -> str:
    return "".join(f"{digest}  {name}\n" for name, digest in digests.items())


def sums_status(found: list[ReportStatus]) -> FileStatus:
    """``reports/SHA256SUMS`` as it should be: the sources' digests, then the generated files'
    (the reports' texts in ``found`` and their charts)."""
    digests = _sources(table_files())
    folder = reports_folder()
    digests.update(
        (f"reports/{f.target.relative_to(folder).as_posix()}", _digest(f.text.encode()))
        for status in found
        for f in status.files()
    )
    return FileStatus.of(folder / SUMS, _sums_text(digests))


def sums_differences() -> list[str]:
    """The names whose files differ from what ``reports/SHA256SUMS`` says, without generating
    anything: a source changed since ``odds reports`` ran, a report or chart edited, a file
    added or removed. Empty: the reports are those generated from these very files."""
    folder = reports_folder()
    sums = folder / SUMS
    if not sums.is_file():
        return [f"reports/{SUMS} (missing)"]
    listed = {}
    for line in sums.read_text(encoding="utf-8").splitlines():
        digest, _, name = line.partition("  ")
        listed[name] = digest
    current = _sources(table_files())
    generated = [*folder.glob("*.md"), *folder.glob(f"{REPORT_FOLDER}/*.svg")]
    current.update(
        (f"reports/{p.relative_to(folder).as_posix()}", _digest(p.read_bytes())) for p in generated
    )
    names = listed.keys() | current.keys()
    return sorted(name for name in names if listed.get(name) != current.get(name))


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
