"""How an audit reads: Markdown for the terminal, and the tables its JSON is."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

from odds.core.numbers import decimal, fraction_text, grouped, percent
from odds.core.table import Column, Kind, Table, fields_table, json_value
from odds.stats.chisquare import MERGE_RULE
from odds.stats.significance import (
    ASYMPTOTIC_FROM,
    DRAWS,
    EXACT_SUM,
    MONTE_CARLO,
    NORMAL_FROM_EXPECTED,
    SUM_PRECISION,
)
from odds.tools.audit.audit import NOT_ROUNDS, AuditResult, FitTest, ReturnTest
from odds.tools.audit.reader import KINDS, MAX_LISTED
from odds.tools.audit.shoe_report import shoe_lines, shoe_table

#: Rejected rows named in the Markdown output (JSON names up to MAX_LISTED).
SHOWN = 20

OVERALL = {
    "PASS": "PASS: the log is consistent with the exact odds.",
    "FLAGGED": "FLAGGED: the log is not consistent with the exact odds.",
    "INCONCLUSIVE": "INCONCLUSIVE: not enough rounds to test anything.",
}
#: The verdict when rows that are not rounds (a blank line …) are all that keeps it from a pass.
NOT_READ = (
    "INCONCLUSIVE: rows that are not rounds were rejected; a log with such rows is never a "
    "pass: correct them and audit again."
)


def overall(result: AuditResult) -> str:
    """The overall verdict in words: INCONCLUSIVE says why (too few rounds, or rows not
    rounds); flagged by the wagers alone, it says the rounds are fine."""
    if result.verdict == "INCONCLUSIVE" and result.not_rounds:
        return NOT_READ
    if result.verdict == "FLAGGED" and not result.rounds_flagged:
        return "FLAGGED: the rounds are consistent with the exact odds; the wagers are not."
    return OVERALL[result.verdict]


def _text(text: object) -> str:
    """A field of the log or the paytable (a bet, a round, a reason) as Markdown text."""
    from odds.output.markdown import inline_text

    return inline_text(str(text))


def _code(text: object) -> str:
    """A file's name as a Markdown code span, whatever it holds."""
    from odds.output.markdown import code_span

    return code_span(str(text))


def p_text(p: float | None) -> str:
    """A p-value for people: 4 significant digits, tiny ones in scientific form."""
    if p is None:
        return "n/a"
    if p == 0:
        return "< 1e-300"
    return f"{p:.4g}" if p >= 1e-4 else f"{p:.3e}"


def p_is(p: float | None, method: str = "") -> str:
    """``p = 0.04412``, ``p < 1e-300``; at the resolution limit of a method, ``p ≤ …``."""
    if p is not None and method == MONTE_CARLO and p <= 1 / (DRAWS + 1):
        return f"p ≤ {p_text(p)}"
    if p is not None and method == EXACT_SUM and p <= SUM_PRECISION:
        return f"p < {SUM_PRECISION:g}"
    text = p_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def method_text(result: AuditResult) -> str:
    k = result.k
    return (
        "Method: Pearson chi-square goodness of fit against the exact probabilities "
        f"({MERGE_RULE}), and the observed return per unit staked against the exact RTP. "
        f"P-values: from {ASYMPTOTIC_FROM:,} rounds on, the chi-square and normal "
        f"approximations (the normal one where each result of the bet is expected at least "
        f"{NORMAL_FROM_EXPECTED} times); otherwise never an approximation: the exact "
        "distribution of a "
        "bet's total (binomial for two outcomes) and, for a chi-square over three or more "
        f"cells, a seeded Monte Carlo of {DRAWS:,} logs drawn from the exact distribution. "
        "Rounds are treated as independent deals from the "
        f"full shoe. Tarone's modified Bonferroni: {result.tests} test(s) can reach "
        f"α/{k} = {result.threshold:.4g} with this many rounds and are each judged there, for "
        f"an overall false-alarm rate of at most α = {result.alpha:g}; rows the shoe cannot "
        "hold, rounds whose rows contradict each other and hands the game cannot settle flag "
        "the log by themselves; rows that are not rounds (a blank line inside the log, a row "
        "of empty fields) make it inconclusive, never a pass."
    )


def audit_text(result: AuditResult, charts: Mapping[str, str] | None = None) -> str:
    """The audit as Markdown for the terminal; ``charts``: an image per test name (optional)."""
    from odds.output.markdown import markdown_table

    counts = result.counts
    out = [f"# Audit of {_code(result.log)} against {_code(result.paytable)}", ""]
    out += [log_line(result), ""]
    out += [_rows_line(result), ""]
    out += [dealing_line(result), ""]
    out += _rejected_lines(result)
    out += [method_text(result), "", "## Chi-square goodness of fit", ""]
    for test in result.fits:
        out += [f"### {_text(test.name)}", "", _cells_table(test), ""]
        out += [f"Verdict, {_text(test.name)}: {_fit_verdict(result, test)}", ""]
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
        out.append(f"Verdict, return of {_text(r.bet)}: {_return_verdict(result, r)}")
    out.append("")
    out += shoe_lines(result, p_text, p_is)  # the shoe-level tests (odds.tools.audit.shoe_report)
    out += _payout_lines(result)
    if result.groups is not None:  # --by (odds.tools.audit.group_report)
        from odds.tools.audit.group_report import group_lines

        out += group_lines(result.groups, charts)
    if result.wagers is not None:  # --wagers (odds.tools.audit.wager_report)
        from odds.tools.audit.wager_report import wager_lines

        out += wager_lines(result.wagers)
    if result.play is not None:  # a decision's actions (odds.tools.audit.play)
        out += ["## Play: the recorded actions against the strategy", "", result.play.text(), ""]
    for note in result.notes:
        out.append(f"Note: {_text(note)}")
    if result.mis_settled:
        payouts = counts.payouts
        assert payouts is not None
        out.append(
            f"Finding: {payouts.mis_settled:,} of {payouts.bets:,} bets mis-settled (overpaid "
            f"{grouped(decimal(payouts.overpaid, 2))}, underpaid "
            f"{grouped(decimal(payouts.underpaid, 2))})."
        )
    for finding in counts.findings:
        out.append(f"Finding: {_text(finding.text)}.")
    if result.groups is not None:
        from odds.tools.audit.group_report import finding_lines

        out += finding_lines(result.groups)
    hidden = result.findings - len(counts.findings)
    if hidden > 0:
        out.append(f"Finding: … and {hidden:,} more of the same kinds ({_finding_kinds(result)}).")
    if result.rejected_evidence:
        out.append(
            f"Finding: {result.rejected_evidence:,} row(s) rejected "
            f"({_kinds(result, evidence=True)}); an audit with rejected rows is never a pass."
        )
    if result.not_rounds:
        out.append(
            f"Rows not rounds: {result.not_rounds:,} ({_kinds(result, evidence=False)}), "
            "rejected: no evidence against the odds, and never a pass."
        )
    out.append(f"Overall verdict: {overall(result)}")
    return "\n".join(out) + "\n"


def verdict_line(result: AuditResult) -> str:
    """The verdict in one line, with what decided it: what ``odds audit`` says on stderr."""
    reasons = []
    failed = sum(result.fit_fails(f) for f in result.fits)
    failed += sum(result.return_fails(r) for r in result.returns)
    if result.shoes is not None:
        failed += sum(result.shoes.fails(t, result.threshold) for t in result.shoes.tests)
    if failed:
        reasons.append(f"{failed:,} test(s) failed")
    if result.mis_settled:
        reasons.append(f"{result.mis_settled:,} bet(s) mis-settled")
    if result.findings:
        reasons.append(f"{result.findings:,} finding(s): {_finding_kinds(result)}")
    if result.rejected_evidence:
        reasons.append(
            f"{result.rejected_evidence:,} row(s) rejected ({_kinds(result, evidence=True)})"
        )
    if result.groups is not None and result.groups.flagged:
        reasons.append(f"{len(result.groups.rejected):,} group test(s) failed (--by)")
    if result.not_rounds:
        slips = f"{result.not_rounds:,} row(s) not rounds ({_kinds(result, evidence=False)})"
        if result.verdict == "INCONCLUSIVE":
            return (
                f"INCONCLUSIVE: {slips}: no evidence against the odds, but never a pass; "
                f"correct them and audit again: {result.log}"
            )
        reasons.append(slips)
    if result.wagers is not None:
        from odds.tools.audit.wager_report import verdict_reason

        reasons += verdict_reason(result.wagers)
    because = f" ({'; '.join(reasons)})" if reasons else ""
    return f"{overall(result).removesuffix('.')}{because}: {result.log}"


def log_line(result: AuditResult) -> str:
    """Which bytes were audited: the file as named, its size and SHA-256."""
    counts = result.counts
    return f"Log: {_code(result.log)}, {counts.size:,} bytes, SHA-256 {counts.sha256}."


def dealing_line(result: AuditResult) -> str:
    """The dealing procedure the tests' null assumes (:mod:`odds.tools.audit.procedure`)."""
    return f"Dealing procedure assumed: {result.dealing.text}."


def _rows_line(result: AuditResult) -> str:
    counts = result.counts
    text = (
        f"Rows read: {counts.rows:,}; used: {counts.used:,}; rejected: {counts.rejected_total:,}."
    )
    if counts.untested:
        text = text[:-1] + f"; checked but not tested: {counts.untested:,}."
    return text


def _payout_lines(result: AuditResult) -> list[str]:
    """The settlement audit: totals, the mis-settled bets named, the drift table."""
    from odds.output.markdown import markdown_table

    payouts = result.counts.payouts
    if payouts is None:
        return []
    out = [
        "## Settlement",
        "",
        f"Every bet with a stake paid again from the paytable: {payouts.bets:,} bets, staked "
        f"{payouts.staked:,}, paid {payouts.paid:,}, due by the paytable "
        f"{grouped(decimal(payouts.due, 2))}; a payout more than {payouts.tolerance} from the "
        "exact amount is mis-settled.",
        "",
    ]
    if payouts.mis_settled:
        out.append(f"Mis-settled: {payouts.mis_settled:,} bets.")
        out.append("")
        for m in payouts.named[:SHOWN]:
            out.append(
                f"- {result.counts.unit} {m.line} ({_text(m.round)})"
                f"{' ' + _text(m.seat) if m.seat else ''}, bet {_text(m.bet)}: staked "
                f"{_text(m.stake)}, paid {_text(m.paid)}, should have paid "
                f"{grouped(decimal(m.due, 2))}"
            )
        hidden = payouts.mis_settled - min(SHOWN, len(payouts.named))
        if hidden:
            out.append(
                f"- … and {hidden:,} more (`--format json` names the first {len(payouts.named):,})"
            )
        out.append("")
    rows = [
        (
            f"{s.first}–{s.last}",
            s.bets,
            s.mis_settled,
            s.paid,
            grouped(decimal(s.due, 2)),
            grouped(decimal(Fraction(s.paid) - s.due, 2)),
        )
        for s in payouts.slices
    ]
    out.append("Paid against due, by tenth of the log (a drifting payout rule shows as a trend):")
    out.append("")
    out.append(
        markdown_table(
            (f"{result.counts.unit}s", "bets", "mis-settled", "paid", "due", "paid − due"), rows, 2
        )
    )
    out.append("")
    verdict = "FAIL" if payouts.mis_settled else "pass"
    out.append(f"Verdict, settlement: {verdict} — {payouts.mis_settled:,} bets mis-settled.")
    out.append("")
    return out


def _finding_kinds(result: AuditResult) -> str:
    return ", ".join(f"{n:,} {k}" for k, n in result.counts.finding_kinds.items())


def _kinds(result: AuditResult, evidence: bool | None = None) -> str:
    """The rejected rows by kind: all, or only those that flag (``evidence``) or do not."""
    kinds = result.counts.rejected_kinds
    return ", ".join(
        f"{n:,} {KINDS[k]}"
        for k, n in kinds.items()
        if evidence is None or (k not in NOT_ROUNDS) == evidence
    )


def _rejected_lines(result: AuditResult) -> list[str]:
    counts = result.counts
    if not counts.rejected_total:
        return []
    out = [f"Rejected: {_kinds(result)}.", ""]
    for r in counts.rejected[:SHOWN]:
        out.append(f"- rejected {counts.unit} {r.line}: {_text(r.reason)}")
    hidden = counts.rejected_total - min(SHOWN, len(counts.rejected))
    if hidden:
        listed = min(MAX_LISTED, counts.rejected_total)
        out.append(
            f"- … and {hidden:,} more (`--format json` names the first {listed:,} by {counts.unit})"
        )
    return [*out, ""]


def _cells_table(test: FitTest) -> str:
    from odds.output.markdown import markdown_table

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
                grouped(decimal(cell.expected(test.fit.n), 2)),
                cell.probability,
                tag,
            )
        )
    return markdown_table(("cell", "observed", "expected", "exact probability", "merging"), rows, 6)


def _pct(value: Decimal) -> str:
    return percent(Fraction(value), 4)


def _method_note(test: FitTest | ReturnTest) -> str:
    if test.p is None or test.p.method in ("chi-square approximation", "normal approximation"):
        return ""
    return f" ({test.p.method})"


def _too_few(result: AuditResult, test: FitTest | ReturnTest) -> str | None:
    if test.p is not None and not test.judged:
        return (
            f"not enough rounds to test — even the most extreme log would give "
            f"{p_is(test.p.floor)} > {result.threshold:.4g}."
        )
    return None


def _fit_verdict(result: AuditResult, test: FitTest) -> str:
    fit = test.fit
    if fit.impossible:
        return f"FAIL — an event of probability 0 was observed ({', '.join(fit.impossible)})."
    if test.p is None:
        return "not testable — too few rounds (fewer than two cells after merging)."
    summary = (
        f"χ² = {decimal(fit.statistic or 0, 3)}, df = {fit.df}, {p_is(test.p.value, test.p.method)}"
    )
    too_few = _too_few(result, test)
    if too_few:
        return too_few
    if result.fit_fails(test):
        return (
            f"FAIL — {summary} < {result.threshold:.4g}{_method_note(test)}: "
            "frequencies differ from the exact odds."
        )
    return f"pass — {summary}{_method_note(test)}."


def _return_verdict(result: AuditResult, test: ReturnTest) -> str:
    summary = f"z = {test.z:+.3f}, {p_is(test.p_value, test.p.method)}{_method_note(test)}"
    too_few = _too_few(result, test)
    if too_few:
        return too_few
    if result.return_fails(test):
        return f"FAIL — {summary}: the exact RTP is far outside the observed interval."
    exact = Decimal(test.exact.numerator) / Decimal(test.exact.denominator)
    if test.low <= exact <= test.high:
        return f"pass — {summary}; the exact RTP is inside the 95% interval."
    return (
        f"pass — {summary}; the exact RTP is outside the 95% interval, which for one test "
        f"alone is not significant at the audit's threshold {result.threshold:.4g}."
    )


def audit_tables(result: AuditResult) -> list[Table]:
    """``--format json``: the bytes audited, every test (exact numbers as fraction strings,
    statistics as floats), the rejected rows and the verdict."""
    counts = result.counts
    log = fields_table(
        "log",
        "The log audited",
        [
            (Column("paytable", "paytable"), result.paytable),
            (Column("log", "log"), result.log),
            (Column("log_bytes", "bytes", Kind.WAYS), counts.size),
            (Column("log_sha256", "SHA-256"), counts.sha256),
            (Column("rows", "rows read", Kind.WAYS), counts.rows),
            (Column("rounds", "rounds used", Kind.WAYS), counts.used),
            (Column("untested", "checked but not tested", Kind.WAYS), counts.untested),
            (Column("rejected_total", "rejected", Kind.WAYS), counts.rejected_total),
            (Column("rejected_kinds", "rejected by kind", Kind.DATA), dict(counts.rejected_kinds)),
        ],
    )
    rejected = Table(
        key="rejected",
        title=f"Rejected rows (the first {MAX_LISTED:,})",
        columns=(Column(counts.unit, counts.unit, Kind.WAYS), Column("reason", "reason")),
        rows=tuple({counts.unit: r.line, "reason": r.reason} for r in counts.rejected),
    )
    method = fields_table(
        "method",
        "Method",
        [
            (Column("alpha", "α", Kind.APPROXIMATE), result.alpha),
            (Column("tarone_k", "Tarone's K", Kind.WAYS), result.k),
            (
                Column("threshold_per_test", "threshold per test", Kind.APPROXIMATE),
                result.threshold,
            ),
            (Column("merge_rule", "merge rule"), MERGE_RULE),
            (Column("dealing", "dealing procedure"), result.dealing.name),
            (Column("dealing_text", "dealing procedure, in words"), result.dealing.text),
        ],
    )
    findings = Table(
        key="findings",
        title="Findings",
        columns=(
            Column("kind", "kind"),
            Column("shoe", "shoe", json_null=True),
            Column("finding", "finding"),
        ),
        rows=tuple({"kind": f.kind, "shoe": f.shoe, "finding": f.text} for f in counts.findings),
    )
    verdict = fields_table(
        "verdict",
        "Verdict",
        [
            (Column("settlement", "settlement", Kind.DATA, json_null=True), _payouts_json(result)),
            (Column("finding_kinds", "findings by kind", Kind.DATA), dict(counts.finding_kinds)),
            (Column("notes", "notes", Kind.LIST), list(result.notes)),
            (Column("verdict", "verdict"), result.verdict),
            (Column("flagged", "flagged", Kind.FLAG), result.flagged),
        ],
    )
    tables = [log, rejected, method, fit_table(result), return_table(result), findings]
    if result.shoes is not None:  # the shoe-level tests (odds.tools.audit.shoe_report)
        tables.insert(-1, shoe_table(result))
    if result.groups is not None:  # --by (odds.tools.audit.group_report)
        from odds.tools.audit.group_report import drivers_table, groups_table

        tables += [groups_table(result.groups), drivers_table(result.groups)]
    if result.wagers is not None:  # --wagers (odds.tools.audit.wager_report)
        from odds.tools.audit.wager_report import wager_tables

        tables += wager_tables(result.wagers)
    if result.play is not None:  # a decision's actions (odds.tools.audit.play)
        from odds.tools.audit.play import play_table

        tables.append(play_table(result.play))
    return [*tables, verdict]


def fit_table(result: AuditResult) -> Table:
    """Each chi-square test: its statistic (exact), df, p-value, method and verdict, its cells."""
    return Table(
        key="chi_square",
        title="Chi-square goodness of fit",
        columns=(
            Column("test", "test"),
            Column("statistic", "χ²", Kind.EXACT, json_null=True),
            Column("df", "df", Kind.WAYS, json_null=True),
            Column("p_value", "p-value", Kind.APPROXIMATE, json_null=True),
            Column("method", "method", json_null=True),
            Column("judged", "judged", Kind.FLAG),
            Column("impossible", "impossible", Kind.LIST),
            Column("pass", "pass", Kind.FLAG),
            Column("cells", "cells", Kind.DATA),
        ),
        rows=tuple(
            {
                "test": t.name,
                "statistic": t.fit.statistic,
                "df": t.fit.df,
                "p_value": t.p_value,
                "method": None if t.p is None else t.p.method,
                "judged": t.judged,
                "impossible": list(t.fit.impossible),
                "pass": not result.fit_fails(t),
                "cells": json_value(cells_table(t)),
            }
            for t in result.fits
        ),
    )


def cells_table(test: FitTest) -> Table:
    """The cells a chi-square test compared (after merging): observed and expected counts."""
    return Table(
        key="cells",
        title=f"Cells of {test.name}",
        columns=(
            Column("labels", "labels", Kind.LIST),
            Column("observed", "observed", Kind.WAYS),
            Column("expected", "expected", Kind.EXACT),
        ),
        rows=tuple(
            {"labels": list(c.labels), "observed": c.observed, "expected": c.expected(test.fit.n)}
            for c in test.fit.cells
        ),
    )


def return_table(result: AuditResult) -> Table:
    """Each bet's observed return against its exact RTP: interval, z, p-value, verdict."""
    return Table(
        key="returns",
        title="Observed return",
        columns=(
            Column("bet", "bet"),
            Column("rounds", "rounds", Kind.WAYS),
            Column("observed_rtp", "observed RTP", Kind.EXACT),
            Column("exact_rtp", "exact RTP", Kind.EXACT),
            Column("interval_95", "95% interval", Kind.DATA),
            Column("z", "z", Kind.APPROXIMATE),
            Column("p_value", "p-value", Kind.APPROXIMATE, json_null=True),
            Column("method", "method"),
            Column("judged", "judged", Kind.FLAG),
            Column("pass", "pass", Kind.FLAG),
        ),
        rows=tuple(
            {
                "bet": r.bet,
                "rounds": r.rounds,
                "observed_rtp": r.observed,
                "exact_rtp": r.exact,
                "interval_95": [float(r.low), float(r.high)],
                "z": r.z,
                "p_value": r.p_value,
                "method": r.p.method,
                "judged": r.judged,
                "pass": not result.return_fails(r),
            }
            for r in result.returns
        ),
    )


def _payouts_json(result: AuditResult) -> dict[str, Any] | None:
    payouts = result.counts.payouts
    if payouts is None:
        return None
    return {
        "bets": payouts.bets,
        "staked": str(payouts.staked),
        "paid": str(payouts.paid),
        "due": fraction_text(payouts.due),
        "tolerance": str(payouts.tolerance),
        "mis_settled": payouts.mis_settled,
        "overpaid": fraction_text(payouts.overpaid),
        "underpaid": fraction_text(payouts.underpaid),
        "mis_settled_bets": [
            {
                result.counts.unit: m.line,
                "round": m.round,
                "seat": m.seat,
                "bet": m.bet,
                "stake": str(m.stake),
                "paid": str(m.paid),
                "due": fraction_text(m.due),
            }
            for m in payouts.named
        ],
        "slices": [
            {
                "first": s.first,
                "last": s.last,
                "bets": s.bets,
                "mis_settled": s.mis_settled,
                "paid": str(s.paid),
                "due": fraction_text(s.due),
            }
            for s in payouts.slices
        ],
    }
