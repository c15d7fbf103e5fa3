"""The audit as it was before DuckDB: every row read by Python's csv and settled one by one.

Kept as an independent reference (the slow path) for the database reader: on a
log both can read, they must find the same rows, rejections, counts and
statistics. Statistics here are the large-sample ones the audit used then
(chi-square survival function, normal z), which it still uses from
:data:`odds.stats.significance.ASYMPTOTIC_FROM` rounds on.
"""

from __future__ import annotations

import csv
import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.games.paytable import Paytable
from odds.stats.chisquare import Cell, goodness_of_fit


@dataclass(frozen=True)
class Reference:
    rows: int
    rounds: int
    rejected: list[tuple[int, str]]
    fits: dict[str, tuple[Fraction | None, int, float | None]]  # name: (χ², df, p)
    returns: dict[str, tuple[Fraction, float, float]]  # bet: (observed RTP, z, p)


def read_rows(paytable: Paytable, path: Path) -> tuple[list[Any], list[tuple[int, str]], int]:
    """Every row settled by the game, row by row (rejections keep their line numbers)."""
    game, config = paytable.game, paytable.config
    shoe = game.shoe(config)
    settled, rejected, rows = [], [], 0
    with path.open(newline="", encoding="utf-8-sig") as handle:
        reader = csv.DictReader(handle)
        for row in reader:
            rows += 1
            hands = {p: row[p].strip() for p in game.positions}
            items = [i for text in hands.values() for i in game.parse_hand(config, text)]
            try:
                shoe.check_holds(items, "this round's hands")
                settled.append(game.settle(config, hands, Fraction(1)))
            except OddsError as exc:
                rejected.append((reader.line_num, str(exc)))
    return settled, rejected, rows


def reference_audit(paytable: Paytable, path: Path) -> Reference:
    settled, rejected, rows = read_rows(paytable, path)
    analysis = paytable.analysis()
    fits, returns = {}, {}
    for bet in analysis.bets:
        mine = [b for s in settled for b in s.bets if b.bet == bet.name]
        counts = Counter(b.event for b in mine)
        cells = _cells([(o.event, o.ways) for o in bet.outcomes], bet.stats.total, counts)
        fit = goodness_of_fit(cells)
        fits[f"bet {bet.name}: outcome events"] = (fit.statistic, fit.df, fit.p_value)
        observed = 1 + sum((b.net / b.stake for b in mine), Fraction(0)) / len(mine)
        sd = float(bet.stats.sd)
        z = (float(observed) - float(bet.stats.rtp)) / (sd / math.sqrt(len(mine)))
        returns[bet.name] = (observed, z, math.erfc(abs(z) / math.sqrt(2)))
    total = sum(analysis.hand_classes.values())
    for position in paytable.game.positions:
        counts = Counter(h.hand_class for s in settled for h in s.hands if h.position == position)
        fit = goodness_of_fit(_cells(list(analysis.hand_classes.items()), total, counts))
        fits[f"hand classes: {position}"] = (fit.statistic, fit.df, fit.p_value)
    return Reference(rows, len(settled), rejected, fits, returns)


def _cells(ways: list[tuple[str, int]], total: int, counts: Counter[str]) -> tuple[Cell, ...]:
    merged: dict[str, int] = {}
    for label, w in ways:
        merged[label] = merged.get(label, 0) + w
    return tuple(Cell((k,), Fraction(w, total), counts.get(k, 0)) for k, w in merged.items())
