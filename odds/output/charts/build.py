"""Chart models from the exact figures the report tables print.

Every value a chart shows comes from the same objects as the tables next to
it: a bet's outcome table (:meth:`odds.stats.bets.Bet.distribution`), its
confidence ranges (:func:`odds.stats.bets.return_range`), a game's own tables, or
the audit's observed and expected counts. Nothing is recomputed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from fractions import Fraction

from odds.core.charts import (
    Band,
    BarChart,
    FunnelChart,
    Panel,
    ReportChart,
    Scale,
    Unit,
    Value,
)
from odds.core.numbers import decimal, payout_ratio, percent, short_number
from odds.stats.bets import CONFIDENCE_LEVELS, CONFIDENCE_ROUNDS, Bet, return_range, rounds_to_clear

#: A probability panel switches to a log scale when its smallest bar is below
#: this share of its largest (a linear bar would be under ~4 pixels long).
LOG_BELOW = Fraction(1, 100)
#: The confidence level whose range the funnel's break-even mark uses.
BREAK_EVEN_LEVEL = Fraction(95, 100)
#: The decimal arithmetic of every figure here: Python's default context, set
#: explicitly so that a caller's context cannot change a chart (or make it
#: differ from the report's tables, computed in the default context).
FIGURES = Context(prec=28, rounding=ROUND_HALF_EVEN)
#: Multiples of each power of ten the funnel's curves are sampled at.
FUNNEL_STEPS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)


def share_text(p: Value) -> str:
    """A probability for a chart label: ``45.86%``; small ones to three significant digits.

    >>> share_text(Fraction(1, 3)), share_text(Fraction(1, 7000)), share_text(Fraction(0))
    ('33.33%', '0.0143%', '0%')
    """
    p = Fraction(p)
    if p == 0:
        return "0%"
    if p >= Fraction(1, 100):
        return percent(p, 2)
    with localcontext(FIGURES):
        exponent = (Decimal(abs(p.numerator) * 100) / Decimal(p.denominator)).adjusted()
    places = max(2, 2 - exponent)
    text = percent(p, places)
    return text if places == 2 else text[:-1].rstrip("0").rstrip(".") + "%"


def count_text(value: Fraction) -> str:
    """An expected count to one decimal, with thousands separators: ``3,302.4``.

    >>> count_text(Fraction(66049, 20))
    '3,302.4'
    """
    whole, _, tenths = decimal(value, 1).partition(".")
    return f"{int(whole):,}.{tenths}"


def signed_text(value: Value, places: int = 4) -> str:
    """``+0.3337``, ``−0.4406``, ``0``: a signed figure for a label (a real minus sign)."""
    text = decimal(Fraction(value), places)
    if Fraction(text) == 0:
        return "0"
    return ("−" + text[1:]) if text.startswith("-") else ("+" + text)


def log_or_linear(values: Sequence[Value | None]) -> Scale:
    """Log when the positive values span more than :data:`LOG_BELOW` can show linearly."""
    shown = [Fraction(v) for v in values if v is not None and v > 0]
    if not shown or min(shown) >= max(shown) * LOG_BELOW:
        return Scale.LINEAR
    return Scale.LOG


def distribution_chart(bet: Bet) -> BarChart:
    """The net result of one unit staked: probability and contribution to the EV, per net.

    Events with the same net are merged (the outcome table above the chart
    lists them apart); nets that cannot happen are left out. The probabilities
    add up to exactly 1 and the contributions to exactly the EV.
    """
    total = bet.stats.total
    nets = [(net, Fraction(ways, total)) for net, ways in bet.distribution().items() if ways]
    if sum(p for _, p in nets) != 1:
        raise AssertionError(f"bet {bet.name}: the distribution does not add up to 1")
    probabilities = tuple(p for _, p in nets)
    contributions = tuple(p * net for net, p in nets)
    scale = log_or_linear(probabilities)
    rows = tuple(payout_ratio(net) for net, _ in nets)
    probability = Panel(
        title="probability" + (" (log scale)" if scale is Scale.LOG else ""),
        unit=Unit.PERCENT,
        values=probabilities,
        texts=tuple(share_text(p) for p in probabilities),
        scale=scale,
    )
    contribution = Panel(
        title="EV contribution (p × net)",
        unit=Unit.NUMBER,
        values=contributions,
        texts=tuple(signed_text(c) for c in contributions),
        positive_is_good=True,
    )
    listed = "; ".join(f"{row} {text}" for row, text in zip(rows, probability.texts, strict=True))
    return BarChart(
        title=f"{bet.title}: net result per unit staked",
        subtitle=(
            f"Exact probability of each net result (events with the same net merged) and its "
            f"share of the EV, which they add up to: EV = {signed_text(bet.ev, 6)}."
        ),
        rows=rows,
        panels=(probability, contribution),
        alt=(
            f"Bar chart of the net result of one unit staked on {bet.title}: {listed}. "
            f"The contributions (probability × net) add up to the EV, {signed_text(bet.ev, 6)}."
        ),
    )


def funnel_rounds() -> tuple[int, ...]:
    """Round counts the funnel is sampled at: ten per power of ten, the table's rows included."""
    first, last = CONFIDENCE_ROUNDS[0], CONFIDENCE_ROUNDS[-1]
    rounds = []
    power = first // 10
    while power * 10 < last:
        rounds += [power * step for step in FUNNEL_STEPS]
        power *= 10
    rounds.append(last)
    return tuple(r for r in rounds if first <= r <= last)


def funnel_chart(bet: Bet) -> FunnelChart:
    """How the observed return narrows with rounds: RTP ± z · SD / √n at each level.

    The points are :func:`odds.stats.bets.return_range` values, the very ranges
    the report's confidence table prints at its round counts.
    """
    stats = bet.stats
    samples = funnel_rounds()
    with localcontext(FIGURES):
        bands = tuple(
            Band(level, tuple((n, *return_range(stats, n, level)) for n in samples))
            for level in sorted(CONFIDENCE_LEVELS, reverse=True)
        )
    clear = rounds_to_clear(stats, BREAK_EVEN_LEVEL)
    side = "below" if stats.rtp < 1 else "above"
    clear_text = (
        f"the 95% range lies entirely {side} 100% (break-even) from {clear:,} rounds on"
        if clear is not None
        else "the RTP is exactly 100%: every range holds break-even"
    )
    level_text = "/".join(short_number(level * 100) for level in CONFIDENCE_LEVELS)
    source = "exact SD" if bet.sd_is_exact else "approximate SD"
    first, last = _band_at(bands, BREAK_EVEN_LEVEL, 0), _band_at(bands, BREAK_EVEN_LEVEL, -1)
    return FunnelChart(
        title=f"{bet.title}: observed return over rounds played",
        subtitle=(
            f"RTP {percent(stats.rtp, 4)} ± z · SD / √n at {level_text}% (normal approximation "
            f"from the {source}, rounds independent); {clear_text}."
        ),
        rtp=stats.rtp,
        bands=bands,
        marks=CONFIDENCE_ROUNDS,
        alt=(
            f"Confidence funnel of the observed return (RTP per unit staked) for {bet.title}: "
            f"centred on the exact RTP {percent(stats.rtp, 4)}, the 95% range is "
            f"{first} after {samples[0]:,} rounds and {last} after {samples[-1]:,}; "
            f"{clear_text}."
        ),
        break_even_rounds=clear,
    )


def _band_at(bands: Sequence[Band], level: Fraction, index: int) -> str:
    band = next(b for b in bands if b.level == level)
    _, low, high = band.points[index]
    return f"{_percent_decimal(low)} to {_percent_decimal(high)}"


def _percent_decimal(value: Decimal) -> str:
    return percent(Fraction(value), 2)


def observed_expected_chart(
    title: str, labels: Sequence[str], observed: Sequence[int], expected: Sequence[Fraction]
) -> BarChart:
    """An audit's counts per cell: observed bars, expected ticks, and Pearson residuals.

    The residual (observed − expected) / √expected is the cell's signed share
    of the chi-square statistic (its square); beyond ±2 a cell stands out.
    A cell expected never to happen has no residual (it is impossible if seen).
    """
    if not len(labels) == len(observed) == len(expected):
        raise AssertionError("one observed and one expected count per label")
    residuals = _pearson_residuals(observed, expected)
    scale = log_or_linear([*(Fraction(n) for n in observed), *expected])
    n = sum(observed)
    return BarChart(
        title=f"Observed against expected: {title}",
        subtitle=(
            f"{n:,} rounds. {'Dots' if scale is Scale.LOG else 'Bars'}: observed; "
            f"{'rings' if scale is Scale.LOG else 'ticks'}: expected from the exact "
            "probabilities (labels: observed / expected). Residuals beyond ±2 stand out."
        ),
        rows=tuple(labels),
        panels=(_counts_panel(observed, expected, scale), _residual_panel(residuals, observed)),
        alt=_observed_expected_alt(title, labels, observed, expected, residuals),
    )


def _pearson_residuals(observed: Sequence[int], expected: Sequence[Fraction]) -> list[Value | None]:
    """Each cell's (observed − expected) / √expected; ``None`` where nothing is expected."""
    residuals: list[Value | None] = []
    for seen, wanted in zip(observed, expected, strict=True):
        if wanted == 0:
            residuals.append(None)
            continue
        with localcontext(FIGURES):
            residuals.append(_decimal(seen - wanted) / _decimal(wanted).sqrt())
    return residuals


def _counts_panel(observed: Sequence[int], expected: Sequence[Fraction], scale: Scale) -> Panel:
    """Observed bars with expected markers; zero counts are left out on a log scale."""
    values: tuple[Value | None, ...] = tuple(
        Fraction(n) if n or scale is Scale.LINEAR else None for n in observed
    )
    markers = tuple(Fraction(e) if e or scale is Scale.LINEAR else None for e in expected)
    return Panel(
        title="rounds" + (" (log scale)" if scale is Scale.LOG else ""),
        unit=Unit.COUNT,
        values=values,
        texts=tuple(
            f"{n:,} / {count_text(e)}" if e else f"{n:,} (probability 0)"
            for n, e in zip(observed, expected, strict=True)
        ),
        scale=scale,
        markers=markers,
        value_label="observed",
        marker_label="expected",
    )


def _residual_panel(residuals: Sequence[Value | None], observed: Sequence[int]) -> Panel:
    """The residuals with guides at ±2; a cell seen though impossible is labelled so."""
    texts = tuple(
        signed_text(residual, 2) if residual is not None else ("impossible" if seen else "")
        for residual, seen in zip(residuals, observed, strict=True)
    )
    return Panel(
        title="residual (observed − expected) / √expected",
        unit=Unit.NUMBER,
        values=tuple(residuals),
        texts=texts,
        guides=(Fraction(-2), Fraction(2)),
    )


def _observed_expected_alt(
    title: str,
    labels: Sequence[str],
    observed: Sequence[int],
    expected: Sequence[Fraction],
    residuals: Sequence[Value | None],
) -> str:
    """The chart's text alternative: every cell's counts and the largest residual."""
    largest = max((r for r in residuals if r is not None), key=_magnitude, default=None)
    return (
        f"Bar chart of observed against expected counts for {title} over {sum(observed):,} rounds: "
        + "; ".join(
            f"{label} {seen:,} observed, {count_text(wanted)} expected"
            for label, seen, wanted in zip(labels, observed, expected, strict=True)
        )
        + (f". The largest residual is {signed_text(largest, 2)}." if largest is not None else ".")
    )


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


def _magnitude(value: Value) -> Fraction:
    return abs(Fraction(value))


def bet_charts(bet: Bet) -> list[ReportChart]:
    """The two charts every bet gets: its net-result distribution and its confidence funnel."""
    with localcontext(FIGURES):
        return _bet_charts(bet)


def _bet_charts(bet: Bet) -> list[ReportChart]:
    return [
        ReportChart(
            f"{bet.name}-distribution", f"bet:{bet.name}:outcomes", distribution_chart(bet)
        ),
        ReportChart(f"{bet.name}-funnel", f"bet:{bet.name}:confidence", funnel_chart(bet)),
    ]
