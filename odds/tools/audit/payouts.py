"""The settlement audit: every bet of a log with stakes and payouts paid again from the paytable.

A log with ``stake_<bet>[_<seat>]`` and ``paid_<bet>[_<seat>]`` columns says
what each seat staked on each bet and what it was paid back (the stake
included; 0 on a loss; for Pok Deng's Player bet, what is left of the amount
debited). A round's settlement depends only on its combination of hands (the
game's promise, :mod:`odds.tools.audit.reader`), so each combination is settled
once by the game at a stake of 1 and every bet's due amount is its stake times
that unit return: exact (the stake is an exact decimal; the unit return a
fraction), compared in the database without rounding.

A bet is **mis-settled** when what was paid differs from what was due by more
than the tolerance (default half a cent: a payout rounded to the cent is
correct). Each mis-settled bet is named (line, round, seat, bet, stake, paid,
due); the over- and underpayments are totalled; and the log is cut into tenths
in file order with the paid-minus-due of each, so that a payout rule that
drifts over time (an engine tuning payouts towards a target return) shows as a
trend rather than a scatter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

#: Mis-settled bets named in the result (all are counted and totalled).
MAX_NAMED = 1000
#: The default tolerance: a payout within half a cent of the exact amount is correct.
TOLERANCE = Decimal("0.005")
#: Slices of the log, in file order, for the drift table.
SLICES = 10


@dataclass(frozen=True)
class BetColumns:
    """One (seat, bet) of the log: its stake and paid fields and its combination column."""

    seat: str
    bet: str
    stake: str  # a column of the compact table (m0, m1 …)
    paid: str
    combo: str  # combo, or scombo0 …
    hands: tuple[str, ...]  # the hand-id columns of the position's hands, in game order


@dataclass(frozen=True)
class MisSettled:
    line: int
    round: str
    seat: str
    bet: str
    stake: Decimal
    paid: Decimal
    due: Fraction


@dataclass(frozen=True)
class Slice:
    """One tenth of the log's settled bets, in file order."""

    first: int
    last: int
    bets: int
    mis_settled: int
    paid: Decimal
    due: Fraction


@dataclass(frozen=True)
class SettlementAudit:
    bets: int
    staked: Decimal
    paid: Decimal
    due: Fraction
    mis_settled: int
    overpaid: Fraction  # the sum of paid − due over bets paid too much
    underpaid: Fraction  # the sum of due − paid over bets paid too little
    named: tuple[MisSettled, ...]
    slices: tuple[Slice, ...]
    tolerance: Decimal


def amount(value: Any) -> Decimal:
    """An amount from the database as a log writes it: to the cent, or as many decimals as it has.

    >>> amount(Decimal("10.000000")), amount(Decimal("0.125000"))
    (Decimal('10.00'), Decimal('0.125'))
    """
    value = Decimal(value or 0)
    cents = value.quantize(Decimal("0.01"))
    return cents if cents == value else value.normalize()


def _fraction(value: Any) -> Fraction:
    return Fraction(Decimal(value)) if value is not None else Fraction(0)


def audit_payouts(
    con: Any,
    columns: Sequence[BetColumns],
    labels: str,
    unit_returns: Callable[[list[tuple[int, tuple[int, ...]]]], dict[int, dict[str, Fraction]]],
    tolerance: Decimal = TOLERANCE,
) -> SettlementAudit:
    """Every bet paid again. ``labels`` is SQL naming the round (``shoe || ', round ' || round``).

    ``unit_returns`` takes (combination, example hand ids) pairs and gives each
    combination's return per unit staked, per bet (the game's settlement).
    """
    parts = [
        f"""SELECT line, {labels} AS round, '{c.seat}' AS seat, '{c.bet}' AS bet,
                   {c.combo} AS combo, [{", ".join(c.hands)}] AS hands,
                   coalesce({c.stake}, 0) AS stake, coalesce({c.paid}, 0) AS paid
            FROM final WHERE kind IS NULL"""
        for c in columns
    ]
    con.execute(
        "CREATE OR REPLACE TEMP TABLE bets AS SELECT * FROM ("
        + " UNION ALL ".join(parts)
        + ") WHERE stake <> 0 OR paid <> 0"
    )
    examples = con.execute("SELECT combo, arg_min(hands, line) FROM bets GROUP BY combo").fetchall()
    returns = unit_returns([(combo, tuple(h)) for combo, h in examples])
    rows = [
        (combo, bet, r.numerator, r.denominator)
        for combo, bets in returns.items()
        for bet, r in bets.items()
    ]
    con.execute(
        "CREATE OR REPLACE TEMP TABLE unit_returns "
        "(combo BIGINT, bet VARCHAR, num BIGINT, den BIGINT)"
    )
    if rows:
        con.executemany("INSERT INTO unit_returns VALUES (?, ?, ?, ?)", rows)
    tol = str(tolerance)
    con.execute(f"""
        CREATE OR REPLACE TEMP TABLE checked AS
        SELECT b.*, u.num, u.den,
               b.paid * u.den - b.stake * u.num AS excess_den,
               abs(b.paid * u.den - b.stake * u.num) > {tol} * u.den AS wrong,
               ntile({SLICES}) OVER (ORDER BY b.line) AS slice
        FROM bets b JOIN unit_returns u USING (combo, bet)
    """)
    totals = con.execute("""
        SELECT count(*), sum(stake), sum(paid), count(*) FILTER (WHERE wrong) FROM checked
    """).fetchone()
    count, staked, paid, wrong = totals
    due = _sum_due(con, "TRUE")
    over = _sum_excess(con, "wrong AND excess_den > 0")
    under = -_sum_excess(con, "wrong AND excess_den < 0")
    named = [
        MisSettled(
            line,
            str(round_),
            seat,
            bet,
            amount(stake),
            amount(paid_),
            Fraction(int(n), int(d)) * _fraction(stake),
        )
        for line, round_, seat, bet, stake, paid_, n, d in con.execute(f"""
            SELECT line, round, seat, bet, stake, paid, num, den FROM checked WHERE wrong
            ORDER BY line, seat, bet LIMIT {MAX_NAMED}
        """).fetchall()
    ]
    slices = []
    for number, first, last, n, bad, slice_paid in con.execute("""
        SELECT slice, min(line), max(line), count(*), count(*) FILTER (WHERE wrong), sum(paid)
        FROM checked GROUP BY slice ORDER BY slice
    """).fetchall():
        slices.append(
            Slice(first, last, n, bad, amount(slice_paid), _sum_due(con, f"slice = {number}"))
        )
    return SettlementAudit(
        bets=count,
        staked=amount(staked),
        paid=amount(paid),
        due=due,
        mis_settled=wrong or 0,
        overpaid=over,
        underpaid=under,
        named=tuple(named),
        slices=tuple(slices),
        tolerance=tolerance,
    )


def _sum_due(con: Any, where: str) -> Fraction:
    """Σ stake × unit return, exactly: the stakes summed per unit return in the database."""
    total = Fraction(0)
    for staked, num, den in con.execute(
        f"SELECT sum(stake), num, den FROM checked WHERE {where} GROUP BY num, den"
    ).fetchall():
        total += _fraction(staked) * Fraction(int(num), int(den))
    return total


def _sum_excess(con: Any, where: str) -> Fraction:
    """Σ (paid − due) over some bets, exactly (summed per denominator in the database)."""
    total = Fraction(0)
    for excess, den in con.execute(
        f"SELECT sum(excess_den), den FROM checked WHERE {where} GROUP BY den"
    ).fetchall():
        total += _fraction(excess) / int(den)
    return total
