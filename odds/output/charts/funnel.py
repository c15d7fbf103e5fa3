"""Drawing a :class:`odds.core.charts.FunnelChart`: nested bands over a log axis of rounds.

The bands are drawn widest first (99%, then 95%, then 90% on top), the exact
RTP as a solid line, break-even (100%) as a dashed one, and the round count
from which the 95% band leaves break-even as a dotted vertical line.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from odds.core.charts import FunnelChart, Scale, Unit
from odds.core.numbers import percent, short_number
from odds.output.charts.svg import AXIS, GRID, MUTED, Axis, Svg, log10, number, text_width, wrap

WIDTH = Decimal(720)
PLOT_HEIGHT = Decimal(250)
LEFT = Decimal(78)
RIGHT = Decimal(40)
#: Band fills, widest band first (light to dark blue, legible in grey too).
FILLS = ("#d6e6f5", "#9fc5e8", "#5b9bd5")
RTP_LINE = "#0b3d91"
BREAK_EVEN = "#c8511b"


def funnel_svg(chart: FunnelChart, key: str) -> str:
    """The funnel as an SVG document (``key`` prefixes its element ids)."""
    subtitle = wrap(chart.subtitle, WIDTH - 28)
    top = Decimal(74) + 16 * len(subtitle)
    bottom = top + PLOT_HEIGHT
    svg = Svg(WIDTH, bottom + 58, chart.title, chart.alt, key)
    svg.heading(chart.title, subtitle)
    rounds = [n for n, _, _ in chart.bands[0].points]
    x_axis = Axis(
        [Fraction(rounds[0]), Fraction(rounds[-1])], Unit.COUNT, Scale.LOG, LEFT, WIDTH - RIGHT
    )
    x_axis.low, x_axis.high = log10(rounds[0]), log10(rounds[-1])
    lows = [low for band in chart.bands for _, low, _ in band.points]
    highs = [high for band in chart.bands for _, _, high in band.points]
    span = [Fraction(min(lows)), Fraction(max(highs)), Fraction(1), chart.rtp]
    y_axis = _value_axis(span, bottom, top)
    _grid(svg, chart, x_axis, y_axis, top, bottom)
    for band, fill in zip(chart.bands, FILLS, strict=False):
        upper = [(x_axis.at(n), y_axis.at(high)) for n, _, high in band.points]
        lower = [(x_axis.at(n), y_axis.at(low)) for n, low, _ in reversed(band.points)]
        svg.add("polygon", points=svg.points(upper + lower), fill=fill)
    svg.line(
        LEFT,
        y_axis.at(1),
        WIDTH - RIGHT,
        y_axis.at(1),
        BREAK_EVEN,
        stroke_width=2,
        stroke_dasharray="7 4",
    )
    svg.line(
        LEFT, y_axis.at(chart.rtp), WIDTH - RIGHT, y_axis.at(chart.rtp), RTP_LINE, stroke_width=2
    )
    _break_even_mark(svg, chart, x_axis, top, bottom)
    _legend(svg, chart, top - 14)
    return svg.render()


def _value_axis(values: list[Fraction], bottom: Decimal, top: Decimal) -> Axis:
    """The return axis: nice percentage ticks around everything drawn (not from zero)."""
    return Axis(values, Unit.PERCENT, Scale.LINEAR, bottom, top, from_zero=False, vertical=True)


def _grid(svg: Svg, chart: FunnelChart, x: Axis, y: Axis, top: Decimal, bottom: Decimal) -> None:
    """Gridlines, ticks and the axes' titles."""
    for pixel, label in y.labels():
        svg.line(LEFT, pixel, WIDTH - RIGHT, pixel, GRID)
        svg.text(LEFT - 8, pixel + 4, label, size=11, anchor="end", fill=MUTED)
    decade = 10 ** (len(str(chart.marks[0])) - 1)
    while decade < chart.marks[-1]:
        for multiple in range(2, 10):
            pixel = x.at(decade * multiple)
            svg.line(pixel, top, pixel, bottom, GRID, stroke_dasharray="2 3")
        decade *= 10
    for mark in chart.marks:
        pixel = x.at(mark)
        svg.line(pixel, top, pixel, bottom + 4, AXIS if mark in (chart.marks[0],) else GRID)
        svg.text(pixel, bottom + 18, f"{mark:,}", size=11, anchor="middle", fill=MUTED)
    svg.line(LEFT, bottom, WIDTH - RIGHT, bottom, AXIS)
    svg.text((LEFT + WIDTH - RIGHT) / 2, bottom + 40, "rounds played (log scale)", anchor="middle")
    middle = (top + bottom) / 2
    svg.text(
        Decimal(18),
        middle,
        "observed return per unit staked",
        anchor="middle",
        transform=f"rotate(-90 18 {number(middle)})",
    )


def _break_even_mark(svg: Svg, chart: FunnelChart, x: Axis, top: Decimal, bottom: Decimal) -> None:
    n = chart.break_even_rounds
    if n is None or not chart.marks[0] < n <= chart.marks[-1]:
        return
    pixel = x.at(n)
    svg.line(pixel, top, pixel, bottom, BREAK_EVEN, stroke_width="1.5", stroke_dasharray="2 2")
    label = f"95% range clear of 100% from {n:,} rounds"
    right = pixel + 6 + text_width(label, 11) <= WIDTH - RIGHT
    svg.text(
        pixel + 6 if right else pixel - 6,
        top + 14,
        label,
        size=11,
        anchor="start" if right else "end",
        fill=BREAK_EVEN,
    )


def _legend(svg: Svg, chart: FunnelChart, y: Decimal) -> None:
    """Swatches for the bands (narrowest first), the RTP line and break-even."""
    x = LEFT
    for band, fill in reversed(list(zip(chart.bands, FILLS, strict=False))):
        svg.rect(x, y - 6, Decimal(14), Decimal(10), fill)
        label = f"{short_number(band.level * 100)}% range"
        svg.text(x + 18, y + 3, label, size=11, fill=MUTED)
        x += 18 + text_width(label, 11) + 12
    items = (
        (RTP_LINE, None, f"exact RTP {percent(chart.rtp, 4)}"),
        (BREAK_EVEN, "7 4", "break-even (100%)"),
    )
    for colour, dash, label in items:
        svg.line(x, y - 1, x + 22, y - 1, colour, stroke_width=2, stroke_dasharray=dash)
        svg.text(x + 26, y + 3, label, size=11, fill=MUTED)
        x += 26 + text_width(label, 11) + 12
