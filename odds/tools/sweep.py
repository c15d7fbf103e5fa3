r"""``odds sweep``: a bet's house edge and volatility as one paytable entry varies, exactly.

A designer tuning a paytable asks what the house edge becomes at each payout
between 8 and 14, and where it crosses zero. The answer comes from the same
exact formula as ``odds solve`` (:mod:`odds.tools.solve`): the game's analysis is
run at a few values of the entry, each event's net is interpolated exactly
and confirmed at one more value, and the event ways do not depend on payouts.
So at any value ``x``

* EV(x) = Σ ways · net(x) / total, house edge = −EV(x), RTP = 1 + EV(x);
* Var(x) = Σ ways · net(x)² / total − EV(x)² (exact), SD and VI = z · SD decimals;
* the break-even payout is the root of EV(x) = 0, found symbolically (sympy) —
  the value ``odds solve --target-rtp 100%`` gives, as a fraction.

Every value swept is first validated by the paytable loader (a payout below the
entry's minimum is refused as it would be in a ``.toml`` file), and the sweep is
bounded: more than :data:`MAX_POINTS` points are refused with the estimate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import sympy

from odds.core.errors import OddsError
from odds.core.numbers import fraction_text, parse_rational, short_number
from odds.core.table import Column, Kind, Table
from odds.games.paytable import Paytable
from odds.stats.bets import BetStats, sqrt_decimal, volatility_index
from odds.tools.solve import (
    Evaluator,
    _real_roots,
    ev_expression,
    fraction_of,
    symbol_for,
    univariate,
)
from odds.tools.variants import check_entry, variant

#: The most points one sweep evaluates (each is validated by the paytable loader).
MAX_POINTS = 10_000
#: Seconds the loader takes to validate one value, measured on the development machine
#: (about 1.4 ms for Pok Deng): the basis of the estimate a refused sweep quotes.
SECONDS_PER_POINT = 0.0015

_FORMS = "payouts.pair=8..14, payouts.pair=8..14:0.5 or payouts.pair=8,9,11"


@dataclass(frozen=True)
class Vary:
    """The entry swept and the values it takes, ascending."""

    key: str
    values: tuple[Fraction, ...]


def parse_vary(text: str) -> Vary:
    """``KEY=FROM..TO`` (step 1), ``KEY=FROM..TO:STEP`` or ``KEY=V1,V2,…``; values exact.

    The number of points is checked before any list is built, so a million-point
    range is refused at once.

    >>> parse_vary("payouts.pair=8..10:0.5").values
    (Fraction(8, 1), Fraction(17, 2), Fraction(9, 1), Fraction(19, 2), Fraction(10, 1))
    >>> parse_vary("payouts.pair=11,8,9").values
    (Fraction(8, 1), Fraction(9, 1), Fraction(11, 1))
    """
    key, sep, spec = text.partition("=")
    key, spec = key.strip(), spec.strip()
    if not sep or not key or not spec:
        raise OddsError(f"--vary: expected KEY=VALUES such as {_FORMS}; got {text!r}")
    where = f"--vary {key}"
    if ".." in spec:
        low_text, _, rest = spec.partition("..")
        high_text, colon, step_text = rest.partition(":")
        if colon and not step_text.strip():
            raise OddsError(f"{where}: a step after ':' is missing (e.g. {key}=8..14:0.5)")
        low = parse_rational(low_text, where)
        high = parse_rational(high_text, where)
        step = parse_rational(step_text, where) if colon else Fraction(1)
        if step <= 0:
            raise OddsError(f"{where}: the step must be positive, got {short_number(step)}")
        if high < low:
            raise OddsError(
                f"{where}: the range ends ({short_number(high)}) below where it starts "
                f"({short_number(low)})"
            )
        count = math.floor((high - low) / step) + 1
        check_points(count, where)
        return Vary(key, tuple(low + k * step for k in range(count)))
    parts = [p.strip() for p in spec.split(",")]
    if any(not p for p in parts):
        raise OddsError(f"{where}: an empty value in the list {spec!r}")
    check_points(len(parts), where)
    return Vary(key, tuple(sorted({parse_rational(p, where) for p in parts})))


def check_points(count: int, where: str) -> None:
    """Refuse a sweep over :data:`MAX_POINTS` points, quoting the work it would take."""
    if count > MAX_POINTS:
        seconds = count * SECONDS_PER_POINT
        raise OddsError(
            f"{where}: {count:,} points are too many (at most {MAX_POINTS:,}; validating them "
            f"alone would take about {_duration(seconds)} and the table would have {count:,} "
            "rows); use a coarser step"
        )


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@dataclass(frozen=True)
class Point:
    """One value of the entry: the bet's exact EV and variance there."""

    value: Fraction
    ev: Fraction
    variance: Fraction
    debited: Fraction

    @property
    def stats(self) -> BetStats:
        # Hit frequency and pushes are not swept (they change only where a net crosses 0).
        return BetStats(1, self.ev, self.variance, Fraction(0), Fraction(0), self.debited)


@dataclass(frozen=True)
class BreakEven:
    """A root of EV(x) = 0: exact, and whether the paytable loader accepts it."""

    root: sympy.Expr
    accepted: bool

    @property
    def exact(self) -> Fraction | None:
        """The root as a fraction (``None`` for an irrational root of a non-linear EV)."""
        return fraction_of(self.root) if self.root.is_Rational else None

    @property
    def approximate(self) -> Decimal:
        return Decimal(str(sympy.N(self.root, 30)))


@dataclass(frozen=True)
class BetSweep:
    """One bet over every value swept, its EV formula and its break-even values."""

    name: str
    title: str
    withheld: bool
    ev: sympy.Expr
    points: tuple[Point, ...]
    break_even: tuple[BreakEven, ...]


@dataclass(frozen=True)
class Sweep:
    """The sweep of one entry of one paytable."""

    paytable: Paytable
    key: str
    current: Fraction
    bets: tuple[BetSweep, ...]

    def tables(self) -> list[Table]:
        """The break-even table, then one table per bet swept."""
        return [break_even_table(self), *(sweep_table(self, b) for b in self.bets)]


def _polynomial(expr: sympy.Expr, x: sympy.Symbol) -> list[Fraction]:
    """Coefficients, highest degree first, as Fractions (fast to evaluate at many points)."""
    coefficients = sympy.Poly(sympy.sympify(expr), x).all_coeffs()
    return [fraction_of(c) for c in coefficients]


def _horner(coefficients: Sequence[Fraction], value: Fraction) -> Fraction:
    result = Fraction(0)
    for c in coefficients:
        result = result * value + c
    return result


def sweep(paytable: Paytable, vary: Vary, bet: str | None = None) -> Sweep:
    """Every bet whose EV depends on ``vary.key`` (or just ``bet``), at every value."""
    from odds.runtime.progress import track

    current = check_entry(paytable.config, vary.key)
    for value in track(vary.values, "checking values", len(vary.values)):
        _validated(paytable, vary.key, value)
    analysis = paytable.analyse()
    chosen = [analysis.bet(bet)] if bet is not None else list(analysis.bets)
    evaluator = Evaluator(paytable)
    x = symbol_for(vary.key)
    swept = []
    for found in chosen:
        nets, debited, _ = univariate(evaluator, found.name, vary.key)
        depends = any(x in sympy.sympify(e).free_symbols for e in (*nets, debited))
        if not depends:
            if bet is not None:
                raise OddsError(f"the EV of bet {bet} does not depend on {vary.key}")
            continue
        events = tuple((o.event, o.ways) for o in found.outcomes)
        total = sum(w for _, w in events)
        ev = ev_expression(events, nets)
        polynomials = [_polynomial(n, x) for n in nets]
        debit = _polynomial(debited, x)
        points = []
        for value in vary.values:
            at = [_horner(p, value) for p in polynomials]
            mean = Fraction(sum(w * n for (_, w), n in zip(events, at, strict=True)), total)
            second = Fraction(sum(w * n * n for (_, w), n in zip(events, at, strict=True)), total)
            points.append(Point(value, mean, second - mean * mean, _horner(debit, value)))
        roots = _real_roots(sympy.Eq(ev, 0), x)
        swept.append(
            BetSweep(
                found.name,
                found.title,
                bool(found.withholding) or any(d != debit[-1] for d in debit[:-1]),
                ev,
                tuple(points),
                tuple(BreakEven(r, _accepts(paytable, vary.key, r)) for r in roots),
            )
        )
    if not swept:
        raise OddsError(f"no bet's EV depends on {vary.key}; nothing to sweep")
    return Sweep(paytable, vary.key, current, tuple(swept))


def _validated(paytable: Paytable, key: str, value: Fraction) -> None:
    try:
        variant(paytable, {key: str(value)})
    except OddsError as exc:
        raise OddsError(f"--vary {key}={short_number(value)}: {exc}") from None


def _accepts(paytable: Paytable, key: str, root: sympy.Expr) -> bool:
    """Whether the paytable loader accepts ``root`` (an irrational one by a close fraction)."""
    try:
        variant(paytable, {key: str(fraction_of(root))})
    except OddsError:
        return False
    return True


def break_even_table(result: Sweep) -> Table:
    """Each bet's break-even value of the entry (house edge 0), exact."""
    values = [p.value for b in result.bets for p in b.points]
    low, high = min(values), max(values)
    rows: list[dict[str, Any]] = []
    for bet in result.bets:
        if not bet.break_even:
            rows.append({"bet": bet.title, "name": bet.name, "value": "none (never fair)"})
        for root in bet.break_even:
            exact = root.exact
            rows.append(
                {
                    "bet": bet.title,
                    "name": bet.name,
                    # The fraction in full, even when long: it is the figure asked for.
                    "value": fraction_text(exact) if exact is not None else sympy.sstr(root.root),
                    "decimal": exact if exact is not None else root.approximate,
                    "in_sweep": low <= Fraction(root.approximate) <= high,
                    "accepted": root.accepted,
                }
            )
    return Table(
        key="break_even",
        title=f"Break-even {result.key} (house edge 0)",
        columns=(
            Column("bet", "bet"),
            Column("name", "name", markdown=False),
            Column("value", f"{result.key} (exact)"),
            Column("decimal", "decimal", Kind.APPROXIMATE, json=False),
            Column("in_sweep", "within the sweep", Kind.FLAG),
            Column("accepted", "the paytable accepts it", Kind.FLAG),
        ),
        rows=tuple(rows),
        note=f"The root of EV = 0 found symbolically from the exact EV formula: the value "
        f"`odds solve PAYTABLE --bet BET --vary {result.key} --target-rtp 100%` gives.",
    )


def sweep_table(result: Sweep, bet: BetSweep) -> Table:
    """The bet's exact EV, house edge, RTP and variance, and SD and VI, at every value."""
    rows = []
    for point in bet.points:
        stats = point.stats
        rows.append(
            {
                "value": point.value,
                "ev": point.ev,
                "house_edge": -point.ev,
                "rtp": 1 + point.ev,
                "rtp_debited": stats.rtp_debited,
                "variance": point.variance,
                "sd": sqrt_decimal(point.variance),
                "volatility_index": volatility_index(stats),
                "current": "← paytable" if point.value == result.current else "",
            }
        )
    debited = (Column("rtp_debited", "RTP per debited", Kind.PERCENT),) if bet.withheld else ()
    return Table(
        key=f"sweep_{bet.name}",
        title=f"{bet.title} (`{bet.name}`) as {result.key} varies",
        columns=(
            Column("value", result.key, Kind.NUMBER),
            Column("ev", "EV (exact)", Kind.EXACT),
            Column("house_edge", "house edge", Kind.PERCENT),
            Column("rtp", "RTP per stake", Kind.PERCENT),
            *debited,
            Column("variance", "variance", Kind.PROBABILITY),
            Column("sd", "SD", Kind.APPROXIMATE),
            Column("volatility_index", "VI (90%)", Kind.APPROXIMATE),
            Column("current", "", json=False),
        ),
        rows=tuple(rows),
        note=f"EV per unit staked = {sympy.sstr(sympy.expand(bet.ev))} (exact). House edge, "
        "RTP and variance are exact (fractions in JSON); SD and VI are square roots (decimals).",
    )


def sweep_chart(result: Sweep, bet: BetSweep) -> Any:
    """House edge and VI against the entry's value: a bar per value (the report charts' code)."""
    from odds.core.charts import BarChart, Panel, Unit
    from odds.core.numbers import decimal, percent
    from odds.output.charts.svg import minus

    edges = tuple(-p.ev for p in bet.points)
    vis = tuple(volatility_index(p.stats) for p in bet.points)
    fair = ", ".join(sympy.sstr(r.root) for r in bet.break_even) or "none"
    rows = tuple(
        short_number(p.value) + (" (paytable)" if p.value == result.current else "")
        for p in bet.points
    )
    return BarChart(
        title=f"{bet.title}: house edge and volatility as {result.key} varies",
        subtitle=f"{result.paytable.source}; break-even {result.key} = {fair} (exact)",
        rows=rows,
        panels=(
            Panel(
                "House edge",
                Unit.PERCENT,
                edges,
                tuple(minus(percent(e, 2)) for e in edges),
                positive_is_good=False,
            ),
            Panel(
                "Volatility index (90%)",
                Unit.NUMBER,
                vis,
                tuple(decimal(Fraction(v), 3) for v in vis),
            ),
        ),
        alt=f"House edge of {bet.title} from {percent(edges[0], 2)} at {result.key} = "
        f"{rows[0]} to {percent(edges[-1], 2)} at {rows[-1]}; it is 0 at {result.key} = {fair}.",
    )
