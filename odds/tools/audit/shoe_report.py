"""How the shoe-level tests read: their Markdown section and their JSON table."""

from __future__ import annotations

import math
from collections.abc import Callable

from odds.core.table import Column, Kind, Table
from odds.tools.audit.audit import AuditResult
from odds.tools.audit.shoes import ShoeTest

METHOD = (
    "Method: each shoe's rank and suit counts against the hypergeometric law (pooled over "
    "shoes: the most deviant rank's z; shoe by shoe: χ²); each round's events against their "
    "exact probabilities given the cards its shoe had already shown (the per-state engine; χ² "
    "of the summed deviations with their exact conditional covariance); the order of each "
    "shoe's cards against every order of the same cards (serial correlation of ranks, runs of "
    "high and low cards, pairs of the previous shoe kept). P-values of the frequency tests are "
    "exact (Monte Carlo from the hypergeometric law) below 10,000 cards; the others are "
    "large-sample (their false-alarm rates are measured: the docs of odds audit, Power and "
    "false alarms). "
    "They are judged in the same Tarone family as the tests above."
)

CONTINUOUS_METHOD = (
    "Method: the rounds are independent and none draws, so each round's cards are a uniform "
    "sample of the full shoe; each rank's (and suit's) count, summed over rounds, against its "
    "exact law (the hypergeometric law of each round, convolved); the most deviant group's z, "
    "its p-value Bonferroni over the groups. Judged in the same Tarone family as the tests above."
)

DRAWING_METHOD = (
    "Method: the rounds are independent, but how many cards a round takes depends on their "
    "values (the drawing), so its cards are not a uniform sample of the shoe. The exact law of "
    "the cards one round deals from the full shoe — the mean and covariance of each card's "
    "count, from the game's own ordered-deal count (each value's count; ranks and suits split "
    "within a value hypergeometrically) — gives the counts summed over R rounds mean R·μ and "
    "covariance R·Σ exactly; each grouping (ranks, suits) is tested with the quadratic form "
    "(T − Rμ)ᵀ(RΣ)⁻(T − Rμ) against χ² with rank(Σ) degrees of freedom. Judged in the same "
    "Tarone family as the tests above."
)


def shoe_lines(
    result: AuditResult,
    p_text: Callable[[float | None], str],
    p_is: Callable[[float | None, str], str],
) -> list[str]:
    """The section ``## Shoe by shoe``: every test, its verdict, and what drives a failure.

    ``p_text`` and ``p_is`` are the audit report's ways of writing a p-value.
    """
    from odds.output.markdown import markdown_table

    study = result.shoes
    if study is None:
        return []
    out = [
        "## Shoe by shoe",
        "",
        f"{study.shoes:,} shoes, {study.rounds:,} rounds, tested shoe by shoe.",
        "",
        METHOD,
        "",
    ]
    if study.continuous:
        out = [
            "## Rank and suit frequencies, round by round",
            "",
            f"{study.rounds:,} rounds, each dealt from the full shoe (a continuous shuffle).",
            "",
            DRAWING_METHOD
            if any(t.name.endswith("drawing rounds") for t in study.tests)
            else CONTINUOUS_METHOD,
            "",
        ]
    rows = [
        (
            t.name,
            "n/a" if t.p is None else f"{t.statistic:.4g}",
            "" if t.df is None else t.df,
            p_text(t.p_value),
            t.detail,
        )
        for t in study.tests
    ]
    out.append(markdown_table(("test", "statistic", "df", "p-value", "what it shows"), rows, 2))
    out.append("")
    for test in study.tests:
        out.append(f"Verdict, {test.name}: {_verdict(result, test, p_is)}")
    out.append("")
    named = dict.fromkeys(t.finding for t in study.tests if study.fails(t, result.threshold))
    for finding in named:  # the pooled and shoe-by-shoe tests name an impossible shoe alike
        out.append(f"Finding: {finding}.")
    for text in study.impossible:
        out.append(f"Note: {text}.")
    if any(study.fails(t, result.threshold) for t in study.tests) or study.impossible:
        out.append("")
    return out


def _verdict(result: AuditResult, test: ShoeTest, p_is: Callable[[float | None, str], str]) -> str:
    study = result.shoes
    assert study is not None
    if test.p is None:
        return f"not testable — {test.detail}."
    if study.fails(test, result.threshold):
        return f"FAIL — {p_is(test.p.value, test.p.method)} < {result.threshold:.4g}."
    if not test.judged:
        return (
            f"not enough rounds to test — even the most extreme log would give "
            f"p ≥ {test.p.floor:.4g} > {result.threshold:.4g}."
        )
    return f"pass — {p_is(test.p.value, test.p.method)}."


def shoe_table(result: AuditResult) -> Table:
    """``--format json``: every shoe-level test (empty when the log is not dealt shoe by shoe)."""
    study = result.shoes
    tests = () if study is None else study.tests
    return Table(
        key="shoe_tests",
        title="Shoe by shoe",
        columns=(
            Column("test", "test"),
            Column("statistic", "statistic", Kind.APPROXIMATE, json_null=True),
            Column("df", "df", Kind.WAYS, json_null=True),
            Column("p_value", "p-value", Kind.APPROXIMATE, json_null=True),
            Column("method", "method", json_null=True),
            Column("judged", "judged", Kind.FLAG),
            Column("pass", "pass", Kind.FLAG),
            Column("detail", "what it shows"),
            Column("finding", "finding", json_null=True),
        ),
        rows=tuple(
            {
                "test": t.name,
                "statistic": None if t.p is None or math.isinf(t.statistic) else t.statistic,
                "df": t.df,
                "p_value": t.p_value,
                "method": None if t.p is None else t.p.method,
                "judged": t.judged,
                "pass": study is None or not study.fails(t, result.threshold),
                "detail": t.detail,
                "finding": t.finding if study and study.fails(t, result.threshold) else None,
            }
            for t in tests
        ),
    )
