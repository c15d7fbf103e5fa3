"""How ``--by`` reads: the groups' table and findings (Markdown) and their JSON table."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from odds.core.numbers import decimal, percent
from odds.core.table import Column, Kind, Table
from odds.tools.audit.groups import GroupAudit, GroupTest, p_text

#: Group rows shown in the Markdown per dimension (the flagged ones, then the most
#: extreme); JSON has every one.
SHOWN = 30


def _hold_range(test: GroupTest) -> str:
    """Where an honest game's hold of this many rounds falls 95% of the time."""
    centre = float(test.theoretical_hold)
    return f"[{(centre - test.half_width) * 100:.3f}%, {(centre + test.half_width) * 100:.3f}%]"


def method_line(audit: GroupAudit) -> str:
    return (
        f"Groups by {', '.join(audit.dimensions)}: each group's return of each bet against "
        "its exact RTP (the hold is 1 − the return per unit staked; the range is where an "
        "honest game's hold of that many rounds falls 95% of the time: exact below 10,000 "
        "rounds, normal from there). Multiple testing: Tarone's screen, then Holm's "
        f"step-down over the {audit.k} test(s) judged, at α = {audit.alpha:g} (the pooled "
        "tests above get the other half of the audit's α): the chance of naming any honest "
        "group stays at most α whatever the dependence between groups. Holm rather than "
        "Benjamini–Hochberg because a flagged group names a dealer, table or shoe: the "
        "error to bound is naming any honest one."
    )


def group_lines(audit: GroupAudit, charts: Mapping[str, str] | None = None) -> list[str]:
    """The ``## Groups`` section: per dimension a table, then its charts."""
    from odds.output.markdown import inline_text, markdown_table

    out = ["## Groups", "", method_line(audit), ""]
    for dim in audit.dimensions:
        tests = [t for t in audit.tests if t.dimension == dim]
        groups = [g for g in audit.groups if g.dimension == dim]
        shown = _shown(tests)
        out += [f"### By {inline_text(dim)} ({len(groups):,} groups)", ""]
        rows = [
            (
                t.group,
                t.bet,
                t.rounds,
                percent(t.hold, 3),
                percent(t.theoretical_hold, 3),
                _hold_range(t),
                p_text(t.p),
                _verdict(t),
            )
            for t in shown
        ]
        out.append(
            markdown_table(
                (
                    dim,
                    "bet",
                    "rounds",
                    "actual hold",
                    "theoretical hold",
                    "95% range",
                    "p-value",
                    "verdict",
                ),
                rows,
                2,
            )
        )
        if len(shown) < len(tests):
            out.append("")
            out.append(
                f"{len(tests) - len(shown):,} more (group, bet) rows in the JSON output "
                "(--format json); the flagged and the most extreme are shown."
            )
        money = [g for g in groups if g.money is not None]
        if money:
            out += ["", f"Settlement by {dim}:", ""]
            money_rows = [
                (
                    g.group,
                    g.money.bets,
                    decimal(Fraction(g.money.staked), 2),
                    decimal(Fraction(g.money.paid), 2),
                    decimal(g.money.due, 2),
                    decimal(Fraction(g.money.paid) - g.money.due, 2),
                    g.money.mis_settled,
                )
                for g in sorted(money, key=lambda g: -g.money.mis_settled)[:SHOWN]  # type: ignore[union-attr]
                if g.money is not None
            ]
            out.append(
                markdown_table(
                    (dim, "bets", "staked", "paid", "due", "paid − due", "mis-settled"),
                    money_rows,
                    2,
                )
            )
        out.append("")
        for key, line in (charts or {}).items():
            if key.startswith(f"{dim}\t"):
                out += [line, ""]
    return out


def _shown(tests: list[GroupTest]) -> list[GroupTest]:
    """The flagged tests, then the smallest p-values, up to SHOWN; in group order."""
    chosen = sorted(range(len(tests)), key=lambda i: (not tests[i].rejected, tests[i].p))[:SHOWN]
    return [tests[i] for i in sorted(chosen)]


def _verdict(test: GroupTest) -> str:
    if test.rejected:
        return f"FLAGGED (p < {test.threshold:.3g})"
    if not test.judged:
        return "too few rounds"
    return "pass"


def finding_lines(audit: GroupAudit) -> list[str]:
    """``Finding:`` lines: each flagged group named, and who drives each pooled finding."""
    from odds.output.markdown import inline_text

    out = []
    for t in audit.rejected:
        direction = "more" if t.observed > t.rtp else "less"
        where = inline_text(f"{t.dimension} {t.group}")  # the log's own labels, as text
        out.append(
            f"Finding: {where}: the return of {inline_text(t.bet)} is {percent(t.observed, 4)} "
            f"over {t.rounds:,} rounds against the exact {percent(t.rtp, 4)} (hold "
            f"{percent(t.hold, 3)}, theoretical {percent(t.theoretical_hold, 3)}): the players "
            f"got {direction} than the game gives, p = {p_text(t.p)} "
            f"(Holm's level {t.threshold:.3g})."
        )
    for driver in audit.drivers:
        out.append(f"Finding: {inline_text(driver.text)}.")
    return out


def groups_table(audit: GroupAudit) -> Table:
    """``--format json``: every (group, bet) test."""
    columns = (
        Column("dimension", "dimension"),
        Column("group", "group"),
        Column("bet", "bet"),
        Column("rounds", "rounds", Kind.WAYS),
        Column("observed_return", "observed return", Kind.PROBABILITY),
        Column("rtp", "exact RTP", Kind.PROBABILITY),
        Column("hold", "actual hold", Kind.PROBABILITY),
        Column("theoretical_hold", "theoretical hold", Kind.PROBABILITY),
        Column("range_half_width", "95% range half-width", Kind.APPROXIMATE),
        Column("range_method", "range method"),
        Column("p_value", "p-value", Kind.APPROXIMATE),
        Column("method", "method"),
        Column("judged", "judged", Kind.FLAG),
        Column("flagged", "flagged", Kind.FLAG),
    )
    rows = tuple(
        {
            "dimension": t.dimension,
            "group": t.group,
            "bet": t.bet,
            "rounds": t.rounds,
            "observed_return": t.observed,
            "rtp": t.rtp,
            "hold": t.hold,
            "theoretical_hold": t.theoretical_hold,
            "range_half_width": t.half_width,
            "range_method": t.range_method,
            "p_value": t.p,
            "method": t.method,
            "judged": t.judged,
            "flagged": t.rejected,
        }
        for t in audit.tests
    )
    return Table(key="groups", title="Groups (--by)", columns=columns, rows=rows)


def drivers_table(audit: GroupAudit) -> Table:
    """``--format json``: the group of each dimension that drives each pooled finding."""
    columns = (
        Column("finding", "finding"),
        Column("dimension", "dimension"),
        Column("group", "group"),
        Column("text", "text"),
    )
    rows = tuple(
        {"finding": d.finding, "dimension": d.dimension, "group": d.group, "text": d.text}
        for d in audit.drivers
    )
    return Table(key="drivers", title="Who drives each finding (--by)", columns=columns, rows=rows)
