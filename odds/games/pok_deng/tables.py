"""Pok Deng's report tables (beside the bets' outcome tables every report has)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from odds.games.pok_deng.options import PokDengPayouts
from odds.games.pok_deng.rules import PokDengHand, class_label
from odds.numbers import short_number
from odds.table import Column, Kind, Table


def hand_class_table(distribution: Mapping[PokDengHand, int], payouts: PokDengPayouts) -> Table:
    """Ways per hand value and special pattern of one two-card hand, strongest first."""
    total = sum(distribution.values())
    merged: dict[tuple[int, bool], int] = {}
    for hand, ways in distribution.items():
        key = (hand.tenths, hand.special)
        merged[key] = merged.get(key, 0) + ways
    rows = []
    for (tenths, special), ways in sorted(merged.items(), reverse=True):
        sample = PokDengHand(tenths, 0, special, False)
        rows.append(
            {
                "name": class_label(sample),
                "value": sample.value_text,
                "special_pattern": special,
                "ways": ways,
                "probability": Fraction(ways, total),
            }
        )
    return Table(
        key="hand_classes",
        title="Hand classes (one two-card hand)",
        columns=(
            Column("name", "hand"),
            Column("value", "value"),
            Column("special_pattern", "special pattern", Kind.FLAG),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"name": "Total", "ways": total, "probability": Fraction(1)},
        note="Special pattern: a flush, a pair, or a 7.1–7.5 combination (pays "
        f"{short_number(payouts.player_win_special)}:1 when it wins, costs "
        f"{short_number(payouts.player_lose_special)} when the Banker holds it).",
    )


def withheld(amount: Fraction) -> str:
    """What a bet debits beyond the stake: ``1 more withheld (debited 2)``."""
    if not amount:
        return "nothing more withheld"
    return f"{short_number(amount)} more withheld (debited {short_number(1 + amount)})"
