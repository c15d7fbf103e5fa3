"""Drawing a :class:`odds.core.charts.LineChart`: one line per group between control limits.

The limits are drawn as a shaded band (``−limit`` to ``+limit``) with a dashed
edge, zero as a solid line, and each series as a coloured polyline labelled in
a legend. The palette is fixed (and legible in grey), so the bytes depend only
on the figures.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from odds.core.charts import LineChart, Scale, Unit
from odds.output.charts.svg import AXIS, GRID, MUTED, Axis, Svg, wrap

WIDTH = Decimal(720)
PLOT_HEIGHT = Decimal(260)
LEFT = Decimal(78)
RIGHT = Decimal(40)
BAND = "#eef3f8"
LIMIT = "#7a8ca3"
#: Line colours, one per series (Tableau 10, in order).
COLOURS = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
)


def line_chart_svg(chart: LineChart, key: str) -> str:
    """The chart as an SVG document (``key`` prefixes its element ids)."""
    subtitle = wrap(chart.subtitle, WIDTH - 28)
    legend_rows = (len(chart.series) + 2) // 3
    top = Decimal(76) + 16 * len(subtitle) + 18 * legend_rows
    bottom = top + PLOT_HEIGHT
    svg = Svg(WIDTH, bottom + 56, chart.title, chart.alt, key)
    svg.heading(chart.title, subtitle)
    xs = [x for s in chart.series for x, _ in s.points] + [x for x, _ in chart.limits]
    x_axis = Axis(
        [Fraction(min(xs, default=0)), Fraction(max(xs, default=1))],
        Unit.COUNT,
        Scale.LINEAR,
        LEFT,
        WIDTH - RIGHT,
    )
    ys = [Fraction(y) for s in chart.series for _, y in s.points]
    ys += [Fraction(v) * sign for _, v in chart.limits for sign in (1, -1)]
    y_axis = Axis(ys or [Fraction(0)], chart.y_unit, Scale.LINEAR, bottom, top, vertical=True)
    if chart.limits:
        upper = [(x_axis.at(x), y_axis.at(v)) for x, v in chart.limits]
        lower = [(x_axis.at(x), y_axis.at(-Fraction(v))) for x, v in reversed(chart.limits)]
        svg.add("polygon", points=svg.points(upper + lower), fill=BAND)
    for pixel, label in y_axis.labels():
        svg.line(LEFT, pixel, WIDTH - RIGHT, pixel, GRID)
        svg.text(LEFT - 8, pixel + 4, label, size=11, anchor="end", fill=MUTED)
    for pixel, label in x_axis.labels():
        svg.line(pixel, bottom, pixel, bottom + 5, AXIS)
        svg.text(pixel, bottom + 19, label, size=11, anchor="middle", fill=MUTED)
    if chart.limits:
        for sign in (1, -1):
            edge = [(x_axis.at(x), y_axis.at(Fraction(v) * sign)) for x, v in chart.limits]
            svg.add(
                "polyline",
                points=svg.points(edge),
                fill="none",
                stroke=LIMIT,
                stroke_width=1,
                stroke_dasharray="5 4",
            )
    svg.line(LEFT, y_axis.at(0), WIDTH - RIGHT, y_axis.at(0), AXIS, stroke_width=1)
    svg.line(LEFT, top, LEFT, bottom, AXIS)
    for series, colour in zip(chart.series, COLOURS * (len(chart.series) // 10 + 1), strict=False):
        points = [(x_axis.at(x), y_axis.at(y)) for x, y in series.points]
        if len(points) == 1:
            svg.add("circle", cx=points[0][0], cy=points[0][1], r=2, fill=colour)
        else:
            svg.add(
                "polyline",
                points=svg.points(points),
                fill="none",
                stroke=colour,
                stroke_width=Decimal("1.6"),
            )
    svg.text((LEFT + WIDTH - RIGHT) / 2, bottom + 40, chart.x_title, size=12, anchor="middle")
    svg.text(
        Decimal(18),
        (top + bottom) / 2,
        chart.y_title,
        size=12,
        anchor="middle",
        transform=f"rotate(-90 18 {(top + bottom) / 2})",
    )
    _legend(svg, chart, Decimal(62) + 16 * len(subtitle))
    return svg.render()


def _legend(svg: Svg, chart: LineChart, y: Decimal) -> None:
    """The series' names in three columns, then the limits' label."""
    entries = [(s.name, c) for s, c in zip(chart.series, COLOURS * 10, strict=False)]
    column = (WIDTH - 28) / 3
    for i, (name, colour) in enumerate(entries):
        x = Decimal(14) + column * (i % 3)
        row = y + 18 * (i // 3)
        svg.line(x, row - 4, x + 18, row - 4, colour, stroke_width=3)
        svg.text(x + 24, row, name, size=11)
    row = y + 18 * ((len(entries) + 2) // 3)
    svg.rect(Decimal(14), row - 10, Decimal(18), Decimal(10), BAND)
    svg.text(Decimal(38), row, chart.limit_label, size=11, fill=MUTED)
