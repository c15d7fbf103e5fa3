"""Mahjong 2-8's report tables (beside the bets' outcome tables every report has).

* the tile hierarchy: every hand of one two-tile deal, ranked, with its ways;
* the fair payouts of the Tie and Pair bets;
* the several-positions table: correlation between positions, and the same
  bet on every position (figures from :mod:`odds.games.mahjong.positions`).

Rows hold exact values; :mod:`odds.output` formats them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from odds.core.table import Column, Kind, Row, Table
from odds.engine import Hand
from odds.games.mahjong.options import MahjongRules
from odds.games.mahjong.positions import SeveralPositions
from odds.games.mahjong.rules import BetRule, HandInfo, strongest_first
from odds.stats.bets import Bet, sqrt_decimal


def hierarchy_table(
    infos: Mapping[Hand, HandInfo], weights: Mapping[Hand, int], rules: MahjongRules
) -> Table:
    """The tile hierarchy: every hand the set can deal, its rank (1 = highest), ways, probability.

    ``weights`` are the ways per hand of one two-tile deal; hands the set
    cannot deal (0 ways) are left out. Equal hands share a rank.
    """
    total = sum(weights.values())
    present = sorted(
        ((infos[hand], w) for hand, w in weights.items() if w),
        key=lambda iw: strongest_first(iw[0]),
    )
    rows: list[Row] = []
    rank, previous = 0, None
    for info, ways in present:
        if info.strength != previous:
            rank, previous = rank + 1, info.strength
        rows.append(
            {
                "rank": rank,
                "hand": info.text,
                "class": info.label,
                "category": info.category,
                "points": info.points,
                "points_shown": info.points if info.category == "points" else None,
                "ways": ways,
                "probability": Fraction(ways, total),
            }
        )
    zero = "all equal" if rules.zero_points == "equal" else "ranked by the higher tile"
    return Table(
        key="hierarchy",
        title="Tile hierarchy (one two-tile hand)",
        columns=(
            Column("rank", "rank", Kind.WAYS),
            Column("hand", "hand"),
            Column("class", "class"),
            Column("category", "category", markdown=False),
            Column("points", "points", Kind.EXACT, markdown=False),
            Column("points_shown", "points", Kind.NUMBER, json=False),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"hand": "Total", "ways": total, "probability": Fraction(1)},
        note=(
            "Rank 1 is the highest hand; equal ranks are equal hands. Pairs beat every "
            f"non-pair{', then the 2-8 Kong' if rules.two_eight_special else ''}, then "
            f"points; 0-point hands are {zero}. Ways are per one hand of two tiles."
        ),
    )


def fair_table(rules: Sequence[BetRule], bets: Sequence[Bet]) -> Table:
    """For Tie and Pair: the stated payout that would make the bet's EV zero.

    Commission scales a win: the fair stated payout keeps the same share,
    fair = (1 − p) / (p · share) with share = net win / stated payout.
    """
    rows: list[Row] = []
    for rule, bet in zip(rules, bets, strict=True):
        if bet.name not in ("tie", "pair"):
            continue
        win = bet.outcomes[0]
        p = Fraction(win.ways, bet.stats.total)
        share = win.net / rule.payout
        fair = (1 - p) / (p * share)
        rows.append(
            {
                "bet": bet.name,
                "title": bet.title,
                "pays": rule.payout,
                "win_probability": p,
                "fair_payout": fair,
                "fair_payout_decimal": fair,
                "house_edge": bet.stats.house_edge,
            }
        )
    return Table(
        key="fair_payouts",
        title="Fair payouts (Tie and Pair)",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("pays", "pays", Kind.PAYOUT),
            Column("win_probability", "win probability", Kind.PROBABILITY),
            Column("fair_payout", "fair payout (to 1, exact)", Kind.EXACT),
            Column("fair_payout_decimal", "fair payout", Kind.PROBABILITY, json=False),
            Column("house_edge", "house edge", Kind.PERCENT, places=4),
        ),
        rows=tuple(rows),
        note="The fair payout makes the bet's EV exactly 0 (before commission, when the bet "
        "pays one): fair = (1 − p) / (p · (1 − commission)).",
    )


def positions_table(rows: Sequence[SeveralPositions], k: int, deals: int) -> Table:
    """Correlation between two positions and the same bet on all ``k`` positions.

    ``deals`` is the number of (banker, two positions) deals the joint counted.
    The SDs are square roots, so they are approximate (Markdown only); JSON
    carries the exact variance instead.
    """
    return Table(
        key="positions",
        title=f"Several positions ({k} player positions, one banker)",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("positions", "positions", Kind.WAYS, markdown=False),
            Column("covariance", "covariance", Kind.EXACT, markdown=False),
            Column("correlation", "correlation between two positions", Kind.PROBABILITY),
            Column("ev_all_positions", f"EV, same bet on all {k}", Kind.PROBABILITY),
            Column("sd_all_positions", f"SD, same bet on all {k}", Kind.APPROXIMATE, json=False),
            Column("variance_all_positions", "variance", Kind.EXACT, markdown=False),
            Column("sd_independent", "SD if independent", Kind.APPROXIMATE, json=False),
        ),
        rows=tuple(
            {
                "bet": row.bet.name,
                "title": row.bet.title,
                "positions": row.positions,
                "covariance": row.covariance,
                "correlation": row.correlation,
                "ev_all_positions": row.ev,
                "sd_all_positions": sqrt_decimal(row.variance),
                "variance_all_positions": row.variance,
                "sd_independent": sqrt_decimal(row.independent_variance),
            }
            for row in rows
        ),
        note=(
            "Positions share the banker's hand and the tiles, so their results are "
            "correlated. The banker and two positions are dealt together with tile removal "
            f"(C·C·C = {deals:,} deals); by exchangeability every pair of positions has this "
            f"joint, so with stake 1 on each of {k} positions the total has EV k·EV and "
            "variance k·Var + k(k−1)·Cov exactly. The banker's side is the banker against "
            "every position staking 1 on Player wins."
        ),
    )
