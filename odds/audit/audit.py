"""``odds audit``: do the rounds in a log behave like the game's exact odds?

Every valid round is settled by the game itself (``Game.settle``), which
names each bet's outcome event and each hand's class; the counts are then
tested against the exact analysis:

* a chi-square goodness-of-fit test over each bet's outcome events and over
  the hand classes of each position (expected counts from the exact
  probabilities; sparse cells merged by :data:`odds.audit.chisquare.MERGE_RULE`);
* the observed return of each bet against the exact RTP, with its 95%
  interval from the exact SD (normal approximation).

Rounds are treated as independent draws from the full shoe (what the exact
odds describe). With a significance level α for the whole audit, each of the
m tests is judged at α/m (Bonferroni), so an honest log is flagged with
probability at most α.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

from odds.analysis import Analysis
from odds.audit.chisquare import MERGE_RULE, Cell, GoodnessOfFit, goodness_of_fit
from odds.audit.logs import LoggedRound, Rejected, read_log
from odds.errors import OddsError
from odds.numbers import decimal, fraction_text, percent
from odds.paytable import Paytable

Z95 = Decimal(repr(NormalDist().inv_cdf(0.975)))


@dataclass(frozen=True)
class FitTest:
    """A chi-square test of one bet's events or one position's hand classes."""

    name: str
    fit: GoodnessOfFit
    exact: tuple[Cell, ...]  # the unmerged cells, for the detail table


@dataclass(frozen=True)
class ReturnTest:
    """The observed return of one bet against its exact RTP (per unit staked)."""

    bet: str
    rounds: int
    observed: Fraction
    exact: Fraction
    sd: Decimal

    @property
    def half_width(self) -> Decimal:
        return Z95 * self.sd / Decimal(self.rounds).sqrt()

    @property
    def low(self) -> Decimal:
        return _dec(self.observed) - self.half_width

    @property
    def high(self) -> Decimal:
        return _dec(self.observed) + self.half_width

    @property
    def z(self) -> float:
        if self.sd == 0:
            return 0.0 if self.observed == self.exact else math.inf
        return float(
            (_dec(self.observed) - _dec(self.exact)) / (self.sd / Decimal(self.rounds).sqrt())
        )

    @property
    def p_value(self) -> float:
        # erfc keeps tiny tails accurate where 1 − Φ(z) would round to 0.
        return math.erfc(abs(self.z) / math.sqrt(2)) if math.isfinite(self.z) else 0.0


def _dec(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


@dataclass(frozen=True)
class AuditResult:
    """Everything the audit found."""

    paytable: str
    log: str
    rows: int
    rounds: int
    rejected: tuple[Rejected, ...]
    fits: tuple[FitTest, ...]
    returns: tuple[ReturnTest, ...]
    alpha: float
    notes: tuple[str, ...]

    @property
    def tests(self) -> int:
        return sum(1 for f in self.fits if f.fit.testable) + len(self.returns)

    @property
    def threshold(self) -> float:
        return self.alpha / max(1, self.tests)

    def fit_fails(self, test: FitTest) -> bool:
        return test.fit.p_value is not None and test.fit.p_value < self.threshold

    def return_fails(self, test: ReturnTest) -> bool:
        return test.p_value < self.threshold

    @property
    def flagged(self) -> bool:
        return any(self.fit_fails(f) for f in self.fits) or any(
            self.return_fails(r) for r in self.returns
        )


def audit(paytable: Paytable, log: Path, alpha: float = 0.01) -> AuditResult:
    """Read the log, settle every round and run every test."""
    if not 0 < alpha < 1:
        raise OddsError(f"--alpha must be between 0 and 1, got {alpha}")
    rounds, rejected = read_log(paytable.game, paytable.config, log)
    if not rounds:
        raise OddsError(f"{log}: no valid rounds to audit ({len(rejected)} rejected)")
    analysis = paytable.analysis()
    fits, returns, notes = [], [], []
    for bet in analysis.bets:
        settled = [b for r in rounds for b in r.settlement.bets if b.bet == bet.name]
        if not settled:
            notes.append(f"bet {bet.name}: the game's settlement does not report it; not tested")
            continue
        counts = Counter(b.event for b in settled)
        labels = {o.event for o in bet.outcomes}
        unknown = sorted(set(counts) - labels)
        if unknown:
            raise OddsError(f"bet {bet.name}: settled event {unknown[0]!r} is not in its table")
        cells = _cells([(o.event, o.ways) for o in bet.outcomes], bet.stats.total, counts)
        fits.append(FitTest(f"bet {bet.name}: outcome events", goodness_of_fit(cells), cells))
        observed = 1 + sum((b.net / b.stake for b in settled), Fraction(0)) / len(settled)
        returns.append(ReturnTest(bet.name, len(settled), observed, bet.stats.rtp, bet.stats.sd))
    fits += _hand_class_tests(paytable, analysis, rounds, notes)
    return AuditResult(
        paytable=paytable.source,
        log=str(log),
        rows=len(rounds) + len(rejected),
        rounds=len(rounds),
        rejected=tuple(rejected),
        fits=tuple(fits),
        returns=tuple(returns),
        alpha=alpha,
        notes=tuple(notes),
    )


def _cells(ways: list[tuple[str, int]], total: int, counts: Counter[str]) -> tuple[Cell, ...]:
    """Cells in table order; labels that repeat in a table are counted once."""
    merged: dict[str, int] = {}
    for label, w in ways:
        merged[label] = merged.get(label, 0) + w
    if sum(merged.values()) != total:
        raise AssertionError("outcome ways do not add up to the total")
    return tuple(
        Cell((label,), Fraction(w, total), counts.get(label, 0)) for label, w in merged.items()
    )


def _hand_class_tests(
    paytable: Paytable, analysis: Analysis, rounds: list[LoggedRound], notes: list[str]
) -> list[FitTest]:
    classes = analysis.hand_classes
    if not classes:
        notes.append(f"{paytable.game.name} declares no hand classes; hand classes not tested")
        return []
    total = sum(classes.values())
    tests = []
    for position in paytable.game.positions:
        seen = [h.hand_class for r in rounds for h in r.settlement.hands if h.position == position]
        if not seen:
            continue
        counts = Counter(seen)
        unknown = sorted(set(counts) - set(classes))
        if unknown:
            raise OddsError(
                f"{position}: hand class {unknown[0]!r} is not among the analysis's hand classes"
            )
        cells = _cells(list(classes.items()), total, counts)
        tests.append(FitTest(f"hand classes: {position}", goodness_of_fit(cells), cells))
    return tests


# ---------------------------------------------------------------------------
# Rendering


def p_text(p: float | None) -> str:
    """A p-value for people: 4 significant digits, tiny ones in scientific form."""
    if p is None:
        return "n/a"
    if p == 0:
        return "< 1e-300"
    return f"{p:.4g}" if p >= 1e-4 else f"{p:.3e}"


def p_is(p: float | None) -> str:
    """``p = 0.04412`` or ``p < 1e-300``."""
    text = p_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def audit_text(result: AuditResult, charts: Mapping[str, str] | None = None) -> str:
    """The audit as Markdown for the terminal; ``charts``: an image per test name (optional)."""
    from odds.render import markdown_table

    out = [
        f"# Audit of `{result.log}` against `{result.paytable}`",
        "",
        f"Rows read: {result.rows:,}; used: {result.rounds:,}; rejected: {len(result.rejected):,}.",
        "",
    ]
    for r in result.rejected:
        out.append(f"- rejected line {r.line}: {r.reason}")
    if result.rejected:
        out.append("")
    out += [
        "Method: Pearson chi-square goodness of fit against the exact probabilities; "
        f"{MERGE_RULE}. "
        "Observed return per unit staked with a 95% interval from the exact SD (normal "
        "approximation). Rounds are treated as independent deals from the full shoe. "
        f"{result.tests} tests, each judged at α/{result.tests} = {result.threshold:.4g} "
        f"(Bonferroni) for an overall false-alarm rate of at most α = {result.alpha:g}.",
        "",
        "## Chi-square goodness of fit",
        "",
    ]
    for test in result.fits:
        out += [f"### {test.name}", ""]
        rows = []
        merged_of = {label: c for c in test.fit.cells for label in c.labels}
        for cell in test.exact:
            group = merged_of.get(cell.labels[0])
            tag = (
                ""
                if group is None or len(group.labels) == 1
                else f"merged #{test.fit.cells.index(group) + 1}"
            )
            if cell.probability == 0:
                tag = "impossible" if cell.observed else "probability 0 (dropped)"
            rows.append(
                (
                    cell.label,
                    cell.observed,
                    decimal(cell.expected(test.fit.n), 2),
                    cell.probability,
                    tag,
                )
            )
        out.append(
            markdown_table(
                ("cell", "observed", "expected", "exact probability", "merging"), rows, 6
            )
        )
        out += ["", f"Verdict, {test.name}: {_fit_verdict(result, test)}", ""]
        if charts and test.name in charts:
            out += [charts[test.name], ""]
    out += ["## Observed return", ""]
    rows = [
        (
            r.bet,
            r.rounds,
            percent(r.observed, 4),
            f"[{_pct(r.low)}, {_pct(r.high)}]",
            percent(r.exact, 4),
            f"{r.z:+.3f}",
            p_text(r.p_value),
        )
        for r in result.returns
    ]
    out.append(
        markdown_table(
            ("bet", "rounds", "observed RTP", "95% interval", "exact RTP", "z", "p-value"), rows, 2
        )
    )
    out.append("")
    for r in result.returns:
        out.append(f"Verdict, return of {r.bet}: {_return_verdict(result, r)}")
    out.append("")
    for note in result.notes:
        out.append(f"Note: {note}")
    overall = (
        "FLAGGED: the log is not consistent with the exact odds."
        if result.flagged
        else "PASS: the log is consistent with the exact odds."
    )
    out.append(f"Overall verdict: {overall}")
    return "\n".join(out) + "\n"


def _pct(value: Decimal) -> str:
    return percent(Fraction(value), 4)


def _fit_verdict(result: AuditResult, test: FitTest) -> str:
    fit = test.fit
    if fit.impossible:
        return f"FAIL — an event of probability 0 was observed ({', '.join(fit.impossible)})."
    if not fit.testable:
        return "not testable — too few rounds (fewer than two cells after merging)."
    summary = f"χ² = {decimal(fit.statistic, 3)}, df = {fit.df}, {p_is(fit.p_value)}"
    if result.fit_fails(test):
        return f"FAIL — {summary} < {result.threshold:.4g}: frequencies differ from the exact odds."
    return f"pass — {summary}."


def _return_verdict(result: AuditResult, test: ReturnTest) -> str:
    summary = f"z = {test.z:+.3f}, {p_is(test.p_value)}"
    if result.return_fails(test):
        return f"FAIL — {summary}: the exact RTP is far outside the observed interval."
    inside = test.low <= _dec(test.exact) <= test.high
    where = "inside" if inside else "outside"
    return f"pass — {summary}; the exact RTP is {where} the 95% interval."


def audit_json(result: AuditResult) -> dict[str, Any]:
    """``--format json``: exact numbers as fraction strings, statistics as floats."""
    return {
        "paytable": result.paytable,
        "log": result.log,
        "rows": result.rows,
        "rounds": result.rounds,
        "rejected": [{"line": r.line, "reason": r.reason} for r in result.rejected],
        "alpha": result.alpha,
        "threshold_per_test": result.threshold,
        "merge_rule": MERGE_RULE,
        "chi_square": [
            {
                "test": t.name,
                "statistic": None if t.fit.statistic is None else fraction_text(t.fit.statistic),
                "statistic_float": None if t.fit.statistic is None else float(t.fit.statistic),
                "df": t.fit.df,
                "p_value": t.fit.p_value,
                "impossible": list(t.fit.impossible),
                "pass": not result.fit_fails(t),
                "cells": [
                    {
                        "labels": list(c.labels),
                        "observed": c.observed,
                        "expected": fraction_text(c.expected(t.fit.n)),
                    }
                    for c in t.fit.cells
                ],
            }
            for t in result.fits
        ],
        "returns": [
            {
                "bet": r.bet,
                "rounds": r.rounds,
                "observed_rtp": fraction_text(r.observed),
                "exact_rtp": fraction_text(r.exact),
                "interval_95": [float(r.low), float(r.high)],
                "z": r.z,
                "p_value": r.p_value,
                "pass": not result.return_fails(r),
            }
            for r in result.returns
        ],
        "notes": list(result.notes),
        "flagged": result.flagged,
    }
