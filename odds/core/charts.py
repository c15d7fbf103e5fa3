"""What a chart shows, apart from how it is drawn.

A chart model holds the exact figures (``Fraction`` for exact values,
``Decimal`` for the few that are square roots) and the words a reader needs
(title, axis titles, the text printed at each mark, alt text). Drawing it
(:mod:`odds.output.charts.svg`) is a separate step, so tests can check the figures a
chart shows against the analysis without reading SVG.

Two shapes cover every chart the reports draw:

* :class:`BarChart`: categorical rows (net results, up cards, rule options,
  audit cells) against one or more :class:`Panel` s side by side, each with
  its own value axis (a probability, a change in house edge, a count …);
* :class:`FunnelChart`: how the range of the observed return narrows as
  rounds accumulate, one :class:`Band` per confidence level;
* :class:`LineChart`: cumulative results against rounds, one :class:`Series`
  per group, between control limits (an audit's CUSUM chart by dealer, table …).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

#: An exact value or a high-precision decimal (square roots).
Value = Fraction | Decimal


class Unit(StrEnum):
    """How an axis labels its ticks."""

    #: A share or probability, ticks as percentages (``25%``).
    PERCENT = "percent"
    #: A count of rounds or observations (``1,000``).
    COUNT = "count"
    #: A plain number (``-0.5``, ``2``): net units, residuals.
    NUMBER = "number"


class Scale(StrEnum):
    """A value axis: linear from zero, or logarithmic (decades) for values spanning many."""

    LINEAR = "linear"
    LOG = "log"


@dataclass(frozen=True)
class Panel:
    """One value axis of a bar chart: a value (and optionally a marker) per row.

    ``values`` are bar lengths (``None``: nothing drawn for that row);
    ``texts`` are printed beside each bar (the exact figure rounded for
    people). ``markers`` (e.g. expected counts) are drawn as ticks over the
    bars. A panel with negative values is drawn diverging from zero. On a
    log scale, marks are dots (a length from an arbitrary floor would mislead).
    ``guides`` are reference lines (e.g. ±2 for residuals).
    """

    title: str
    unit: Unit
    values: tuple[Value | None, ...]
    texts: tuple[str, ...]
    scale: Scale = Scale.LINEAR
    markers: tuple[Value | None, ...] = ()
    value_label: str = ""
    marker_label: str = ""
    guides: tuple[Value, ...] = ()
    #: Colour by sign: ``True`` positive values are good for the player (the
    #: EV's share), ``False`` bad (a higher house edge), ``None`` one colour.
    positive_is_good: bool | None = None

    def __post_init__(self) -> None:
        if len(self.texts) != len(self.values):
            raise AssertionError(f"panel {self.title!r}: one text per value")
        if self.markers and len(self.markers) != len(self.values):
            raise AssertionError(f"panel {self.title!r}: one marker per value")
        if self.scale is Scale.LOG and any(
            v is not None and v <= 0 for v in (*self.values, *self.markers)
        ):
            raise AssertionError(f"panel {self.title!r}: a log scale needs positive values")


@dataclass(frozen=True)
class BarChart:
    """Rows of categories against one or more panels (shared row labels on the left)."""

    title: str
    subtitle: str
    rows: tuple[str, ...]
    panels: tuple[Panel, ...]
    #: One or two sentences for readers who cannot see the chart (Markdown alt, SVG desc).
    alt: str

    def __post_init__(self) -> None:
        for panel in self.panels:
            if len(panel.values) != len(self.rows):
                raise AssertionError(f"{self.title}: panel {panel.title!r} needs a value per row")


@dataclass(frozen=True)
class Band:
    """The range of the observed return at one confidence level, at each sampled round count."""

    level: Fraction
    #: ``(rounds, low, high)``, rounds increasing.
    points: tuple[tuple[int, Decimal, Decimal], ...]


@dataclass(frozen=True)
class FunnelChart:
    """Observed return per unit staked against rounds played (log scale), bands widest first."""

    title: str
    subtitle: str
    rtp: Fraction
    bands: tuple[Band, ...]
    #: Round counts marked on the axis (the report table's rows).
    marks: tuple[int, ...]
    alt: str
    #: Rounds after which the widest-but-one band (95%) no longer holds break-even.
    break_even_rounds: int | None = None


@dataclass(frozen=True)
class Series:
    """One line of a :class:`LineChart`: its name and ``(x, y)`` points, x increasing."""

    name: str
    points: tuple[tuple[int, Value], ...]


@dataclass(frozen=True)
class LineChart:
    """Lines against a count axis, between symmetric control limits ``±limit(x)``.

    ``limits`` are ``(x, limit)`` points, x increasing (drawn as ``+limit`` and
    ``−limit``); a series that leaves them is out of control.
    """

    title: str
    subtitle: str
    x_title: str
    y_title: str
    y_unit: Unit
    series: tuple[Series, ...]
    limits: tuple[tuple[int, Value], ...]
    limit_label: str
    alt: str


Chart = BarChart | FunnelChart | LineChart


@dataclass(frozen=True)
class ReportChart:
    """A chart of a report: its file name part, where the report shows it, and the chart.

    ``anchor`` names the report section the chart follows: ``table:<key>`` (a
    game table), ``bet:<name>:outcomes`` or ``bet:<name>:confidence``.
    """

    name: str
    anchor: str
    chart: Chart
