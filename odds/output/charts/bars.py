"""Drawing a :class:`odds.core.charts.BarChart`: row labels on the left, panels side by side.

Each panel has its own axis under the rows. Linear panels draw bars from
zero (both ways when values are negative); log panels draw dots on a faint
stem, since a bar's length from an arbitrary floor would mislead. The value
text sits at the end of each bar, so no figure has to be read off an axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from odds.core.charts import BarChart, Panel, Scale, Value
from odds.output.charts.svg import (
    AXIS,
    BAD,
    GOOD,
    GRID,
    MUTED,
    TEXT,
    Axis,
    Svg,
    text_width,
    wrap,
)

WIDTH = Decimal(720)
MARGIN = Decimal(14)
ROW = Decimal(24)
#: Extra height per wrapped line of a row label.
LINE = Decimal(14)
#: Row labels wider than this wrap onto more lines.
LABEL_MAX = Decimal(280)
BAR = Decimal(14)
GAP = Decimal(28)
#: The narrowest plot a panel gets before the chart grows wider.
MIN_PLOT = Decimal(150)
STRIPE = "#f6f7f9"
STEM = "#c8ccd2"


@dataclass(frozen=True)
class PanelArea:
    """Where one panel draws: its plot's left and right pixels, and its value texts' room."""

    left: Decimal
    right: Decimal
    pad: Decimal = Decimal(0)

    @property
    def width(self) -> Decimal:
        """Room for the panel's title: the plot and the texts right of it."""
        return self.right - self.left + self.pad


def _pads(panel: Panel) -> tuple[Decimal, Decimal]:
    """Room left and right of the plot for value texts and the end ticks' labels."""
    right = [
        text_width(t, 11)
        for v, t in zip(panel.values, panel.texts, strict=True)
        if t and (v is None or v >= 0)
    ]
    left = [
        text_width(t, 11)
        for v, t in zip(panel.values, panel.texts, strict=True)
        if t and v is not None and v < 0
    ]
    return max([Decimal(18), *(w + 8 for w in left)]), max([Decimal(18), *(w + 8 for w in right)])


def _areas(chart: BarChart, labels: Decimal) -> tuple[Decimal, list[PanelArea]]:
    """The chart's width and each panel's plot area (equal plots, wider chart if needed)."""
    pads = [_pads(p) for p in chart.panels]
    fixed = 2 * MARGIN + labels + sum(a + b for a, b in pads) + GAP * (len(pads) - 1)
    plot = max(MIN_PLOT, (WIDTH - fixed) / len(pads))
    width = max(WIDTH, fixed + plot * len(pads))
    areas, x = [], MARGIN + labels
    for left, right in pads:
        areas.append(PanelArea(x + left, x + left + plot, right))
        x += left + plot + right + GAP
    return width, areas


@dataclass(frozen=True)
class RowBox:
    """Where one row draws: its top, its height and its label's lines."""

    top: Decimal
    height: Decimal
    lines: tuple[str, ...]

    @property
    def middle(self) -> Decimal:
        return self.top + self.height / 2


def _rows(chart: BarChart, top: Decimal) -> list[RowBox]:
    """Rows stacked from ``top``; a long label wraps and makes its row taller."""
    boxes, y = [], top
    for label in chart.rows:
        lines = tuple(wrap(label, LABEL_MAX)) or ("",)
        height = ROW + LINE * (len(lines) - 1)
        boxes.append(RowBox(y, height, lines))
        y += height
    return boxes


def bar_chart_svg(chart: BarChart, key: str) -> str:
    """The chart as an SVG document (``key`` prefixes its element ids)."""
    wrapped = [line for row in chart.rows for line in wrap(row, LABEL_MAX)]
    labels = max(text_width(line) for line in wrapped) + 12
    width, areas = _areas(chart, labels)
    subtitle = wrap(chart.subtitle, width - 2 * MARGIN)
    legend = _legend_items(chart)
    legend_y = Decimal(42) + 16 * len(subtitle)
    titles = [wrap(p.title, a.width) for p, a in zip(chart.panels, areas, strict=True)]
    top = legend_y + (18 if legend else 0) + 22 + LINE * (max(len(t) for t in titles) - 1)
    rows = _rows(chart, top)
    bottom = rows[-1].top + rows[-1].height
    svg = Svg(width, bottom + 36, chart.title, chart.alt, key)
    svg.heading(chart.title, subtitle)
    if legend:
        _legend(svg, legend, width - MARGIN, legend_y)
    for i, row in enumerate(rows):
        if i % 2:
            svg.rect(MARGIN, row.top, width - 2 * MARGIN, row.height, STRIPE)
        first = row.middle + 4 - LINE * (len(row.lines) - 1) / 2
        for j, line in enumerate(row.lines):
            svg.text(MARGIN + labels - 10, first + LINE * j, line, anchor="end")
    for panel, area, title in zip(chart.panels, areas, titles, strict=True):
        for j, line in enumerate(title):
            svg.text(area.left, top - 8 - LINE * (len(title) - 1 - j), line, weight="bold")
        _panel(svg, panel, area, rows, top, bottom)
    return svg.render()


def _legend_items(chart: BarChart) -> list[tuple[str, str]]:
    """(swatch, word) pairs: a bar or dot for values, a tick or ring for markers."""
    items = []
    for panel in chart.panels:
        log = panel.scale is Scale.LOG
        if panel.value_label:
            items.append(("dot" if log else "bar", panel.value_label))
        if panel.marker_label:
            items.append(("ring" if log else "tick", panel.marker_label))
    return items


def _legend(svg: Svg, items: list[tuple[str, str]], right: Decimal, y: Decimal) -> None:
    """Legend entries right-aligned on one line: a swatch, then its word."""
    x = right
    for kind, label in reversed(items):
        x -= text_width(label)
        svg.text(x, y + 4, label, fill=MUTED)
        x -= 18
        if kind == "bar":
            svg.rect(x, y - 5, Decimal(12), Decimal(10), GOOD)
        elif kind == "dot":
            svg.add("circle", cx=x + 6, cy=y, r=Decimal("4.5"), fill=GOOD)
        elif kind == "ring":
            svg.add(
                "circle", cx=x + 6, cy=y, r=Decimal(6), fill="none", stroke=TEXT, stroke_width="1.5"
            )
        else:
            svg.line(x + 6, y - 7, x + 6, y + 7, TEXT, stroke_width=2)
        x -= 16


def _panel(
    svg: Svg, panel: Panel, area: PanelArea, rows: list[RowBox], top: Decimal, bottom: Decimal
) -> None:
    shown = [v for v in (*panel.values, *panel.markers, *panel.guides) if v is not None]
    axis = Axis(shown, panel.unit, panel.scale, area.left, area.right)
    for x, label in axis.labels():
        svg.line(x, top, x, bottom, GRID)
        svg.line(x, bottom, x, bottom + 4, AXIS)
        svg.text(x, bottom + 16, label, size=11, anchor="middle", fill=MUTED)
    svg.line(area.left, bottom, area.right, bottom, AXIS)
    if panel.scale is Scale.LINEAR:
        zero = axis.at(0)
        svg.line(zero, top, zero, bottom, AXIS)
    for guide in panel.guides:
        x = axis.at(guide)
        svg.line(x, top, x, bottom, AXIS, stroke_dasharray="4 3")
    for i, value in enumerate(panel.values):
        marker = panel.markers[i] if panel.markers else None
        _mark(svg, panel, axis, rows[i].middle, value, marker, panel.texts[i])


def _mark(
    svg: Svg,
    panel: Panel,
    axis: Axis,
    middle: Decimal,
    value: Value | None,
    marker: Value | None,
    text: str,
) -> None:
    """One row of a panel: its bar or dot, its marker, and its text."""
    ends = [axis.start if panel.scale is Scale.LOG else axis.at(0)]
    if value is not None:
        x = axis.at(value)
        ends.append(x)
        colour = _colour(panel, value)
        if panel.scale is Scale.LOG:
            svg.line(axis.start, middle, x, middle, STEM)
            svg.add("circle", cx=x, cy=middle, r=Decimal("4.5"), fill=colour)
        elif value != 0:
            left = min(x, axis.at(0))
            svg.rect(left, middle - BAR / 2, abs(x - axis.at(0)), BAR, colour)
    if marker is not None:
        x = axis.at(marker)
        ends.append(x)
        if panel.scale is Scale.LOG:
            svg.add(
                "circle",
                cx=x,
                cy=middle,
                r=Decimal(6),
                fill="none",
                stroke=TEXT,
                stroke_width="1.5",
            )
        else:
            svg.line(x, middle - 9, x, middle + 9, TEXT, stroke_width=2)
    if not text:
        return
    if value is not None and value < 0:
        svg.text(min(ends) - 5, middle + 4, text, size=11, anchor="end", halo=True)
    else:
        svg.text(
            max(ends) + (8 if panel.scale is Scale.LOG else 5), middle + 4, text, 11, halo=True
        )


def _colour(panel: Panel, value: Value) -> str:
    if panel.positive_is_good is None or value == 0:
        return GOOD
    return GOOD if (value > 0) == panel.positive_is_good else BAD
