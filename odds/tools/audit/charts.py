"""``odds audit --charts DIR``: each goodness-of-fit test's observed and expected counts as SVG.

One chart per test, its rows the cells of the test's table (before sparse
cells are merged), drawn by :func:`odds.output.charts.build.observed_expected_chart`
from the same counts the table prints.
"""

from __future__ import annotations

import re
from pathlib import Path

from odds.core.charts import BarChart
from odds.output.charts import svg_text
from odds.output.charts.build import observed_expected_chart
from odds.output.charts.report_charts import check_folder, image_line, make_folder
from odds.runtime.atomic import Inputs, write_text
from odds.stats.chisquare import Cell


def fit_chart(name: str, cells: tuple[Cell, ...], rounds: int) -> BarChart:
    """Observed against expected counts of one test's cells (``rounds`` = the test's n)."""
    return observed_expected_chart(
        name,
        [cell.label for cell in cells],
        [cell.observed for cell in cells],
        [cell.expected(rounds) for cell in cells],
    )


def chart_name(log: str, test: str) -> str:
    """``rounds-hand-classes-banker.svg``: the log's name, then the test's, as a file name."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{Path(log).stem} {test}".lower()).strip("-")
    return f"{slug}.svg"


def write_fit_charts(
    log: str,
    tests: list[tuple[str, tuple[Cell, ...], int]],
    folder: Path,
    inputs: Inputs = (),
) -> dict[str, str]:
    """Write one chart per test (name, cells, rounds) to ``folder``; the Markdown image per test."""
    check_folder(folder)
    make_folder(folder)
    links = {}
    for name, cells, rounds in tests:
        chart = fit_chart(name, cells, rounds)
        file = chart_name(log, name)
        write_text(folder / file, svg_text(chart, file.removesuffix(".svg")), inputs)
        links[name] = image_line(f"{folder.as_posix()}/{file}", chart.alt)
    return links
