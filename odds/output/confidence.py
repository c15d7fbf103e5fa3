"""Confidence ranges of a bet's observed return: the report's table and the JSON.

Both say the same thing from the same :func:`odds.stats.bets.return_range`, so
their wording (levels, where the SD comes from) is kept here, once.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from odds.core.numbers import Digits, percent, percent_places
from odds.output.markdown import inline_text, markdown_table
from odds.stats.bets import CONFIDENCE_LEVELS, CONFIDENCE_ROUNDS, Bet, return_range


def _level_text(level: Fraction) -> str:
    return f"{level * 100:g}%" if level.denominator == 1 else percent(level, 0)


def _sd_source(bet: Bet) -> str:
    return "the exact SD" if bet.sd_is_exact else "the approximate SD (see the note above)"


def confidence_section(bet: Bet, digits: int) -> list[str]:
    """Where the observed return per unit staked lands after 1,000 … 1,000,000 rounds.

    Ranges are percentages two decimals coarser than the report's (they are
    approximations), at least two; with ``--digits N`` given, N.
    """
    places = percent_places(digits) if isinstance(digits, Digits) else max(2, digits - 4)
    rows = []
    for rounds in CONFIDENCE_ROUNDS:
        row: list[str] = [f"{rounds:,}"]
        for level in CONFIDENCE_LEVELS:
            low, high = return_range(bet.stats, rounds, level)
            row.append(f"{percent(Fraction(low), places)} to {percent(Fraction(high), places)}")
        rows.append(row)
    headers = ("rounds", *(f"{_level_text(level)} range" for level in CONFIDENCE_LEVELS))
    return [
        f"Confidence ranges of the observed return (RTP per unit staked) for "
        f"{inline_text(bet.title)} — normal approximation from {_sd_source(bet)}, "
        "RTP ± z · SD / √n, rounds independent:",
        "",
        markdown_table(headers, rows, digits),
        "",
    ]


def confidence_json(bet: Bet) -> dict[str, Any]:
    """The ranges as floats (approximations, unlike the fraction strings)."""
    return {
        "method": f"normal approximation from {_sd_source(bet)}: RTP ± z · SD / √rounds",
        "ranges": [
            {
                "rounds": rounds,
                **{
                    _level_text(level): [float(v) for v in return_range(bet.stats, rounds, level)]
                    for level in CONFIDENCE_LEVELS
                },
            }
            for rounds in CONFIDENCE_ROUNDS
        ],
    }
