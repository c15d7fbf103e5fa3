"""``odds reports``: regenerate ``reports/*.md`` from ``tables/*.toml``, or check them.

Reports are deterministic, so a committed report that differs from what the
code generates now is stale. Reports are built on every core (the slowest,
blackjack, dominates), then compared or written.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from odds.errors import OddsError
from odds.paytable import REPORTS, load_file, table_files
from odds.progress import track
from odds.render import to_markdown


@dataclass(frozen=True)
class ReportStatus:
    """One paytable's report: where it goes, the text it should hold, whether it does."""

    table: Path
    target: Path
    text: str
    fresh: bool


def report_text(path: Path) -> str:
    """The Markdown report of one paytable file (run in a worker process)."""
    from odds.shoe_state.api import with_shoe_section

    paytable = load_file(path)
    return to_markdown(with_shoe_section(paytable, paytable.analysis()))


def reports_folder() -> Path:
    """The checkout's ``reports/``; an installed copy has none (a one-line error)."""
    if REPORTS is None:
        raise OddsError(
            "no reports/ folder: reports are kept in a source checkout of odds "
            "(run `odds reports` there); `odds report NAME` works anywhere"
        )
    return REPORTS


def statuses(paths: list[Path] | None = None) -> list[ReportStatus]:
    """Every paytable's report, generated now and compared with the file on disk."""
    folder = reports_folder()
    paths = table_files() if paths is None else paths
    texts = _texts(paths)
    result = []
    for path, text in zip(paths, texts, strict=True):
        target = folder / f"{path.stem}.md"
        current = target.read_text(encoding="utf-8") if target.exists() else None
        result.append(ReportStatus(path, target, text, current == text))
    return result


def _texts(paths: list[Path]) -> list[str]:
    """Every report's text, on every core; Ctrl-C stops the workers without their tracebacks."""
    workers = max(1, min(len(paths), os.cpu_count() or 1))
    if workers == 1:
        return [report_text(path) for path in track(paths, "reports")]
    pool = ProcessPoolExecutor(workers, initializer=_leave_ctrl_c_to_the_parent)
    try:
        return list(track(pool.map(report_text, paths), "reports", len(paths)))
    except KeyboardInterrupt:
        running = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in running:
            process.terminate()
        raise
    finally:
        pool.shutdown(wait=True)


def _leave_ctrl_c_to_the_parent() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def orphans(paths: list[Path] | None = None) -> list[Path]:
    """Reports with no paytable behind them (a renamed or deleted table)."""
    stems = {p.stem for p in (table_files() if paths is None else paths)}
    return sorted(p for p in reports_folder().glob("*.md") if p.stem not in stems)


def write(status: ReportStatus) -> None:
    """Write one report whole: to a temporary file beside it, renamed over the old one
    (:mod:`odds.atomic`; an error or Ctrl-C leaves the old report and no partial file)."""
    from odds.atomic import write_text

    reports_folder().mkdir(exist_ok=True)
    write_text(status.target, status.text)
