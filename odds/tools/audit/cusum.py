"""``odds audit --by … --charts DIR``: a control chart per dimension and bet, as SVG.

Each group's line is its CUSUM: the cumulative deviation ``Σ (net − EV)`` of
its rounds in log order, per unit staked (:class:`odds.tools.audit.groups.GroupPath`
holds the cumulative nets, exact; the EV is the bet's exact one). An honest
group's line wanders inside ``±3σ√n`` (σ the standard deviation of one round's
net; the band a sum of ``n`` honest rounds leaves with probability about
0.27% at any given ``n``); a dealer or table that pays too little drifts down
and out. The lines drawn are the :data:`~odds.tools.audit.groups.MAX_LINES`
groups with the largest ``|z|`` at their end; the subtitle says how many are
left out. Drawn by :mod:`odds.output.charts.lines` from the chart model
:class:`odds.core.charts.LineChart`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from odds.core.charts import LineChart, Series, Unit
from odds.tools.audit.groups import MAX_LINES, GroupAudit, GroupPath, sd_per_round

#: Points of the control limits drawn.
LIMIT_POINTS = 60


def cusum_charts(
    audit: GroupAudit, distributions: Mapping[str, Sequence[tuple[Fraction, Fraction]]]
) -> list[tuple[str, str, LineChart]]:
    """(dimension, bet, chart) for every dimension and bet with paths."""
    charts = []
    for dim in audit.dimensions:
        for bet, distribution in distributions.items():
            paths = [p for p in audit.paths if p.dimension == dim and p.bet == bet]
            if paths:
                charts.append((dim, bet, cusum_chart(dim, bet, paths, distribution)))
    return charts


def cusum_chart(
    dimension: str,
    bet: str,
    paths: Sequence[GroupPath],
    distribution: Sequence[tuple[Fraction, Fraction]],
) -> LineChart:
    """One dimension's groups for one bet: each group's Σ (net − EV) between ±3σ√n."""
    ev = sum((net * p for net, p in distribution), Fraction(0))
    sd = sd_per_round(distribution)

    def z(path: GroupPath) -> float:
        n, total = path.points[-1]
        return abs(float(total - n * ev)) / (sd * math.sqrt(n)) if sd else 0.0

    chosen = sorted(paths, key=lambda p: (-z(p), p.group))[:MAX_LINES]
    chosen.sort(key=lambda p: paths.index(p))
    series = tuple(
        Series(
            f"{dimension} {p.group} (z = {z(p):.2f})",
            tuple((n, total - n * ev) for n, total in p.points),
        )
        for p in chosen
    )
    longest = max(p.points[-1][0] for p in paths)
    steps = sorted({max(1, round(longest * i / LIMIT_POINTS)) for i in range(LIMIT_POINTS + 1)})
    limits = tuple((n, Decimal(repr(3 * sd * math.sqrt(n)))) for n in steps)
    left_out = len(paths) - len(chosen)
    subtitle = (
        f"Cumulative net per unit staked minus the exact EV ({float(ev):+.5f} a round), "
        f"each {dimension}'s rounds in log order; the band is ±3σ√n of an honest game."
    )
    if left_out:
        subtitle += (
            f" The {len(chosen)} {dimension}s furthest out are drawn; {left_out:,} left out."
        )
    worst = sorted(chosen, key=z)[-1]
    alt = (
        f"Control chart of the {bet} bet by {dimension}: {len(chosen)} lines of the cumulative "
        f"deviation from the exact EV between ±3σ√n limits; the furthest out is "
        f"{dimension} {worst.group} at z = {z(worst):.2f}."
    )
    return LineChart(
        title=f"CUSUM of the {bet} bet by {dimension}",
        subtitle=subtitle,
        x_title=f"rounds of the {dimension}",
        y_title="Σ (net − EV), units",
        y_unit=Unit.NUMBER,
        series=series,
        limits=limits,
        limit_label="±3σ√n: an honest game's range",
        alt=alt,
    )


def chart_file(log: str, dimension: str, bet: str) -> str:
    """``rounds-cusum-dealer-banker.svg``: the log's name, then the chart's, as a file name."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{Path(log).stem} cusum {dimension} {bet}".lower())
    return f"{slug.strip('-')}.svg"


def write_cusum_charts(
    log: str,
    audit: GroupAudit,
    distributions: Mapping[str, Sequence[tuple[Fraction, Fraction]]],
    folder: Path,
    inputs: Sequence[Path] = (),
) -> dict[str, str]:
    """Write every control chart to ``folder``; the Markdown image per ``"dimension\\tbet"``."""
    from odds.output.charts import svg_text
    from odds.output.charts.report_charts import check_folder, image_line, make_folder
    from odds.runtime.atomic import write_text

    check_folder(folder)
    make_folder(folder)
    links = {}
    for dim, bet, chart in cusum_charts(audit, distributions):
        file = chart_file(log, dim, bet)
        write_text(folder / file, svg_text(chart, file.removesuffix(".svg")), inputs)
        links[f"{dim}\t{bet}"] = image_line(f"{folder.as_posix()}/{file}", chart.alt)
    return links
