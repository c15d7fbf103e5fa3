"""SVG text: the smallest set of shapes a chart needs, written deterministically.

No library draws here, so the bytes depend on nothing but this code and the
chart's figures: coordinates are computed in :class:`decimal.Decimal` under
a fixed context (logarithms and square roots are correctly rounded there, on
every platform) and printed to one decimal place; no ids from counters or
clocks, no dates, no fonts embedded. Text is plain SVG ``<text>`` in common
sans-serif fonts, so titles and labels stay selectable and searchable.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from fractions import Fraction
from html import escape

from odds.core.caching import cached
from odds.core.charts import Scale, Unit, Value

#: The arithmetic every coordinate is computed in (independent of the caller's context).
CONTEXT = Context(prec=34, rounding=ROUND_HALF_EVEN)
FONT = "Helvetica, Arial, 'DejaVu Sans', 'Liberation Sans', sans-serif"
#: An estimate of a character's width in ems, generous so that labels never collide.
CHAR_EM = Decimal("0.58")
TEXT = "#222222"
MUTED = "#555555"
GRID = "#e3e3e3"
AXIS = "#888888"
GOOD = "#3a78c2"
BAD = "#e0782f"


#: Characters XML 1.0 does not allow in a document (control characters but tab and line breaks).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str, quote: bool = True) -> str:
    """Text (a label a user wrote, a file name) as XML character data or an attribute value.

    ``<``, ``>``, ``&`` (and quotes, in an attribute) are escaped, and characters
    XML cannot carry are written as U+FFFD, so any text gives a well-formed file.

    >>> xml_text('<b a="1"> & \x01')
    '&lt;b a=&quot;1&quot;&gt; &amp; \ufffd'
    """
    return escape(_NOT_XML.sub("\ufffd", text), quote=quote)


def exact(value: Value | int) -> Decimal:
    """A value as a Decimal in :data:`CONTEXT` (Fractions divided there)."""
    if isinstance(value, Fraction):
        return CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))
    return Decimal(value)


@cached(maxsize=4096)
def log10(value: Value | int) -> Decimal:
    """log10 of a positive value, correctly rounded (a Fraction as log10(num) − log10(den)).

    Cached: a funnel asks for the same round counts once per band.
    """
    if isinstance(value, Fraction):
        return CONTEXT.subtract(
            CONTEXT.log10(Decimal(value.numerator)), CONTEXT.log10(Decimal(value.denominator))
        )
    return CONTEXT.log10(Decimal(value))


def number(value: Decimal | int) -> str:
    """A coordinate to one decimal place, half-even, without a trailing ``.0``.

    >>> number(Decimal("12.25")), number(Decimal("3.0")), number(Decimal("-0.04"))
    ('12.2', '3', '0')
    """
    text = str(CONTEXT.quantize(Decimal(value), Decimal("0.1")))
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text in ("-0", "-0.0") else text


def text_width(text: str, size: int = 12) -> Decimal:
    """Estimated width of ``text`` at ``size`` px (generous: fonts differ between viewers)."""
    return CHAR_EM * size * len(text)


def wrap(text: str, width: Decimal, size: int = 12) -> list[str]:
    """``text`` in lines no wider than ``width`` (by :func:`text_width`), broken at spaces."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return [*lines, line] if line else lines


def minus(text: str) -> str:
    """A typographic minus sign for a label (``-0.5`` → ``−0.5``)."""
    return "−" + text[1:] if text.startswith("-") else text


class Svg:
    """An SVG document built element by element; :meth:`render` gives the text."""

    def __init__(self, width: Decimal, height: Decimal, title: str, description: str, key: str):
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.title, self.description, self.key = title, description, key

    def add(self, tag: str, content: str | None = None, /, **attributes: object) -> None:
        """One element; attribute names use ``_`` for ``-``; ``None`` values are left out."""
        pairs = []
        for name, value in attributes.items():
            if value is None:
                continue
            shown = number(value) if isinstance(value, Decimal | int) else str(value)
            pairs.append(f'{name.rstrip("_").replace("_", "-")}="{xml_text(shown)}"')
        opening = " ".join([tag, *pairs])
        if content is None:
            self.parts.append(f"<{opening}/>")
        else:
            self.parts.append(f"<{opening}>{xml_text(content, quote=False)}</{tag}>")

    def text(
        self,
        x: Decimal,
        y: Decimal,
        content: str,
        size: int = 12,
        anchor: str = "start",
        fill: str = TEXT,
        weight: str | None = None,
        transform: str | None = None,
        halo: bool = False,
    ) -> None:
        """Text; with ``halo`` a white outline behind it keeps gridlines from crossing it."""
        self.add(
            "text",
            content,
            x=x,
            y=y,
            font_size=size,
            text_anchor=anchor if anchor != "start" else None,
            fill=fill,
            font_weight=weight,
            transform=transform,
            stroke="#ffffff" if halo else None,
            stroke_width=3 if halo else None,
            stroke_linejoin="round" if halo else None,
            paint_order="stroke" if halo else None,
        )

    def heading(self, title: str, subtitle: Iterable[str]) -> None:
        """The chart's title, then its subtitle's lines (every chart opens so)."""
        self.text(Decimal(14), Decimal(26), title, size=16, weight="bold")
        for i, line in enumerate(subtitle):
            self.text(Decimal(14), Decimal(46) + 16 * i, line, fill=MUTED)

    def line(
        self, x1: Decimal, y1: Decimal, x2: Decimal, y2: Decimal, stroke: str, **extra: object
    ) -> None:
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, **extra)

    def rect(self, x: Decimal, y: Decimal, w: Decimal, h: Decimal, fill: str) -> None:
        self.add("rect", x=x, y=y, width=w, height=h, fill=fill)

    def points(self, points: Iterable[tuple[Decimal, Decimal]]) -> str:
        return " ".join(f"{number(x)},{number(y)}" for x, y in points)

    def render(self) -> str:
        """The document: a white background (dark page themes stay readable), title, desc."""
        key = re.sub(r"[^A-Za-z0-9_.-]", "_", self.key)  # an id, whatever the file is named
        head = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{number(self.width)}" '
            f'height="{number(self.height)}" viewBox="0 0 {number(self.width)} '
            f'{number(self.height)}" role="img" aria-labelledby="{key}-title '
            f'{key}-desc" font-family="{escape(FONT)}">\n'
            f'<title id="{key}-title">{xml_text(self.title, quote=False)}</title>\n'
            f'<desc id="{key}-desc">{xml_text(self.description, quote=False)}</desc>\n'
            f'<rect width="{number(self.width)}" height="{number(self.height)}" fill="#ffffff"/>\n'
        )
        return head + "\n".join(self.parts) + "\n</svg>\n"


# ---------------------------------------------------------------------------
# Axes


def nice_step(span: Fraction, count: int = 5) -> Fraction:
    """A tick step of 1, 2, 2.5 or 5 times a power of ten giving about ``count`` intervals.

    >>> nice_step(Fraction(9, 10)), nice_step(Fraction(60)), nice_step(Fraction(3, 1000))
    (Fraction(1, 5), Fraction(20, 1), Fraction(1, 1000))
    """
    raw = span / count
    power = Fraction(10) ** (
        Decimal(raw.numerator).adjusted() - Decimal(raw.denominator).adjusted()
    )
    if power > raw:
        power /= 10
    for multiple in (1, 2, Fraction(5, 2), 5, 10):
        if multiple * power >= raw:
            return multiple * power
    raise AssertionError("unreachable")


def tick_label(value: Fraction, unit: Unit, signed: bool) -> str:
    """A tick's label: ``25%``, ``1,000``, ``−0.5`` (signed axes show ``+`` too).

    >>> tick_label(Fraction(1, 4), Unit.PERCENT, False)
    '25%'
    >>> tick_label(Fraction(-1, 2), Unit.NUMBER, True)
    '−0.5'
    """
    from odds.core.numbers import short_number

    if unit is Unit.PERCENT:
        text = short_number(abs(value) * 100) + "%"
    elif unit is Unit.COUNT and value.denominator == 1:
        text = f"{abs(value.numerator):,}"
    else:
        text = short_number(abs(value))
    if value < 0:
        return "−" + text
    return ("+" + text) if signed and value > 0 else text


class Axis:
    """A value axis from ``start`` to ``end`` pixels: linear (nice ticks) or log (decades).

    A linear axis includes zero unless ``from_zero`` is false (a return axis
    around 100% would waste its height on the way down to 0%). Ticks are
    thinned until their labels fit side by side (a ``vertical`` axis needs
    only a line's height between them).
    """

    def __init__(
        self,
        values: Sequence[Value],
        unit: Unit,
        scale: Scale,
        start: Decimal,
        end: Decimal,
        from_zero: bool = True,
        vertical: bool = False,
    ):
        self.unit, self.scale, self.start, self.end = unit, scale, start, end
        self.vertical = vertical
        exacts = [Fraction(v) for v in values]
        self.signed = any(v < 0 for v in exacts)
        if scale is Scale.LOG:
            self._decades(exacts)
        else:
            anchor = [Fraction(0)] if from_zero or not exacts else []
            low, high = min([*anchor, *exacts]), max([*anchor, *exacts])
            self._linear(low, high if high > low else low + 1)

    def _decades(self, values: list[Fraction]) -> None:
        """Log ticks at powers of ten around the positive values, every k-th if crowded."""
        positive = [v for v in values if v > 0] or [Fraction(1)]
        low = int(log10(min(positive)).to_integral_value(rounding="ROUND_FLOOR"))
        high = int(log10(max(positive)).to_integral_value(rounding="ROUND_CEILING"))
        high = max(high, low + 1)
        self.low, self.high = Decimal(low), Decimal(high)
        for every in range(1, high - low + 1):
            self.ticks = [Fraction(10) ** e for e in range(low, high + 1, every)]
            if self._fits():
                return

    def _linear(self, low: Fraction, high: Fraction) -> None:
        """Nice linear ticks covering ``low`` … ``high``, fewer if their labels collide."""
        for count in (5, 4, 3, 2, 1):
            step = nice_step(high - low, count)
            if self.unit is Unit.COUNT:
                step = max(step, Fraction(1))
            first, last = (low / step).__floor__(), (high / step).__ceil__()
            self.ticks = [step * k for k in range(first, last + 1)]
            self.low, self.high = exact(self.ticks[0]), exact(self.ticks[-1])
            if self._fits():
                return

    def _fits(self) -> bool:
        """Whether neighbouring tick labels keep clear of each other."""
        if len(self.ticks) < 2:
            return True
        labels = [tick_label(t, self.unit, self.signed) for t in self.ticks]
        need = Decimal(16) if self.vertical else max(text_width(x, 11) for x in labels) + 6
        return abs(self.at(self.ticks[1]) - self.at(self.ticks[0])) >= need

    def at(self, value: Value | int) -> Decimal:
        """The pixel of ``value`` on this axis."""
        with localcontext(CONTEXT):
            position = log10(value) if self.scale is Scale.LOG else exact(value)
            share = (position - self.low) / (self.high - self.low)
            return self.start + share * (self.end - self.start)

    def labels(self) -> list[tuple[Decimal, str]]:
        """Every tick's pixel and label."""
        return [(self.at(t), tick_label(t, self.unit, self.signed)) for t in self.ticks]
