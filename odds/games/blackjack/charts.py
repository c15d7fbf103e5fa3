"""Blackjack's own report charts: the dealer's bust rate by up card, the edge by rule option.

Both are read from the finished analysis's tables through their JSON (the
``dealer`` and ``rule_options`` tables' published shape: exact fractions as
strings), not from the recursion that computed them, so how the tables are
computed or laid out in Markdown can change without touching the charts.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from odds.core.charts import BarChart, Panel, ReportChart, Unit
from odds.core.numbers import percent
from odds.core.table import json_value
from odds.games.features import ChartsFeature
from odds.output.charts.build import share_text
from odds.stats.analysis import Analysis


class BlackjackCharts(ChartsFeature):
    """The dealer-bust chart after the dealer table, the rule-option chart after its table."""

    def charts(self, analysis: Analysis) -> list[ReportChart]:
        return [
            ReportChart("dealer-bust", "table:dealer", dealer_bust_chart(analysis)),
            ReportChart("rule-options", "table:rule_options", rule_option_chart(analysis)),
        ]


def dealer_bust_chart(analysis: Analysis) -> BarChart:
    """P(the dealer busts) for each up card, from the ``dealer`` table."""
    rows: list[dict[str, Any]] = json_value(analysis.table("dealer"))
    ups = tuple(str(row["up"]) for row in rows)
    busts = tuple(Fraction(row["bust"]) for row in rows)
    texts = tuple(share_text(p) for p in busts)
    worst = max(range(len(ups)), key=lambda i: busts[i])
    best = min(range(len(ups)), key=lambda i: busts[i])
    return BarChart(
        title="Dealer busts by up card",
        subtitle=(
            "Exact probability that the dealer's final hand busts, from the full shoe less the "
            "up card, before any player card is seen (the dealer table above)."
        ),
        rows=tuple(f"up card {up}" for up in ups),
        panels=(Panel("P(dealer busts)", Unit.PERCENT, busts, texts),),
        alt=(
            "Bar chart of the dealer's bust probability by up card: "
            + "; ".join(f"{up} {text}" for up, text in zip(ups, texts, strict=True))
            + f". Highest with {ups[worst]} up, lowest with {ups[best]} up."
        ),
    )


def rule_option_chart(analysis: Analysis) -> BarChart:
    """The change in house edge when each rule option is flipped, from ``rule_options``.

    Sorted from the change that helps the player most to the one that costs
    the most.
    """
    base = analysis.bet("main").house_edge
    rows: list[dict[str, Any]] = json_value(analysis.table("rule_options"))
    flips = [
        (
            str(row["option"]),
            Fraction(row["change"]),
            Fraction(row["house_edge"]),
        )
        for row in rows
        if "change" in row  # the first row is the paytable itself
    ]
    flips.sort(key=lambda flip: flip[1])
    texts = tuple(f"{_signed_percent(change)} → {percent(edge, 4)}" for _, change, edge in flips)
    return BarChart(
        title="House edge by rule option",
        subtitle=(
            f"Change in the house edge of optimal play from the paytable's "
            f"{percent(base, 4)} when one option is flipped and everything recomputed (the "
            "table above); right of zero costs the player, left helps."
        ),
        rows=tuple(label for label, _, _ in flips),
        panels=(
            Panel(
                "change in house edge (percentage points)",
                Unit.PERCENT,
                tuple(change for _, change, _ in flips),
                texts,
                positive_is_good=False,
            ),
        ),
        alt=(
            f"Bar chart of the house edge by rule option, from the paytable's {percent(base, 4)}: "
            + "; ".join(f"{label} {text}" for (label, _, _), text in zip(flips, texts, strict=True))
            + "."
        ),
    )


def _signed_percent(change: Fraction) -> str:
    text = percent(change, 4)
    if change > 0:
        return "+" + text
    return "−" + text[1:] if text.startswith("-") else text
