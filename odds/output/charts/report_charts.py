"""A report's charts: which charts, their file names, and the Markdown that shows them.

Every bet gets its net-result distribution and its confidence funnel; a game
adds charts of its own tables through its ``charts`` feature
(:class:`odds.games.features.ChartsFeature`), which the paytable's analysis
carries as :attr:`odds.stats.analysis.Analysis.charts`. Files are named
``<report>-<chart>.svg`` and linked from the report's Markdown with a
relative path, e.g. ``charts/blackjack-dealer-bust.svg`` from ``reports/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from odds.core.charts import ReportChart
from odds.core.errors import OddsError
from odds.output.charts import svg_text
from odds.output.charts.build import bet_charts
from odds.output.markdown import inline_text, one_line
from odds.runtime.atomic import Inputs, check_output_folder, write_text
from odds.stats.analysis import Analysis

#: Where ``odds reports`` keeps chart files, relative to ``reports/``.
REPORT_FOLDER = "charts"


@dataclass(frozen=True)
class ChartFile:
    """One chart as a file: its name, the SVG text, and the chart it draws."""

    name: str
    text: str
    chart: ReportChart


def report_charts(analysis: Analysis) -> list[ReportChart]:
    """Every chart of a report, in report order within each kind."""
    return [chart for bet in analysis.bets for chart in bet_charts(bet)] + list(analysis.charts)


def file_name(stem: str, chart: ReportChart) -> str:
    """``pok-deng-player-funnel.svg``: the report's name, then the chart's."""
    return f"{stem}-{chart.name}.svg"


def chart_files(analysis: Analysis, stem: str) -> list[ChartFile]:
    """Every chart of the report drawn as SVG, named after the report ``stem``."""
    files = []
    for chart in report_charts(analysis):
        name = file_name(stem, chart)
        files.append(ChartFile(name, svg_text(chart.chart, name.removesuffix(".svg")), chart))
    return files


def image_line(path: str, alt: str) -> str:
    """A Markdown image: alt text as text (no brackets), a path with spaces or brackets in ``<…>``.

    >>> image_line("my charts/a<b>.svg", "EV [%] <i>")
    '![EV (%) &lt;i>](<my charts/a\\\\<b\\\\>.svg>)'
    """
    alt = inline_text(alt.replace("[", "(").replace("]", ")"))
    if any(c in path for c in " <>()\\"):
        escaped = "".join("\\" + c if c in "<>\\" else c for c in one_line(path))
        return f"![{alt}](<{escaped}>)"
    return f"![{alt}]({path})"


def chart_links(files: Sequence[ChartFile], folder: str) -> dict[str, list[str]]:
    """The Markdown image lines per report anchor, linking ``folder/<file>``."""
    folder = folder.rstrip("/")
    links: dict[str, list[str]] = {}
    for item in files:
        path = f"{folder}/{item.name}" if folder else item.name
        links.setdefault(item.chart.anchor, []).append(image_line(path, item.chart.chart.alt))
    return links


def check_folder(folder: Path | str) -> Path:
    """Refuse a ``--charts`` path that is a file or empty, before any work is done; the folder.

    An empty name (``--charts ''``) would write into the working folder: refused.
    """
    return check_output_folder(folder, "--charts")


def write_charts(
    analysis: Analysis, stem: str, folder: Path, inputs: Inputs = ()
) -> dict[str, list[str]]:
    """``odds report --charts DIR``: every chart written to ``folder``; the links to them.

    Each file is written whole or not at all (:func:`odds.runtime.atomic.write_text`).

    The links use ``folder`` as given (POSIX separators), so a report saved
    where ``folder`` is relative to shows its images.
    """
    check_folder(folder)
    files = chart_files(analysis, stem)
    make_folder(folder)
    for item in files:
        write_text(folder / item.name, item.text, inputs)
    return chart_links(files, folder.as_posix())


def make_folder(folder: Path) -> None:
    """Create ``folder`` (and its parents) for ``--charts``; a one-line error if it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OddsError(f"--charts {folder}: {error.strerror or error}") from None
