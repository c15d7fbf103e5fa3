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
of its rows, in file order with the paid-minus-due of each, so that a payout rule that
drifts over time (an engine tuning payouts towards a target return) shows as a
trend rather than a scatter.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from odds.tools.audit.layout import Layout

#: How amounts (stakes, payouts) are held in the database: exact decimals (64-bit, fast).
AMOUNT = "DECIMAL(18, 6)"
#: An amount as a log may write it (what fits AMOUNT exactly; no sign, no separators), in the
#: ASCII digits 0-9 alone: Python's ``\d`` also matches Arabic-Indic (``٢٤٠``) and full-width
#: (``２４０``) digits, which DuckDB's cast then read as no amount at all (a paid 240 as 0, a
#: false mis-settlement; issue 33). Those are refused, named by line and column.
AMOUNT_PATTERN = r"[0-9]{1,12}(\.[0-9]{0,6})?|\.[0-9]{1,6}"
#: What an amount is, in the one-line error naming one that is not.
AMOUNT_RULE = (
    "a number such as 12.50 in the digits 0-9: at most 12 digits, a decimal point, at most "
    "6 decimals, no sign"
)
#: Mis-settled bets named in the result (all are counted and totalled).
MAX_NAMED = 1000
#: The default tolerance: a payout within half a cent of the exact amount is correct.
TOLERANCE = Decimal("0.005")
#: Slices of the log, in file order, for the drift table.
SLICES = 10


def money_columns(layout: Layout) -> str:
    """SQL: every money field as an exact decimal, ``m0``, ``m1`` … (NULL when empty; a text
    that is not an amount is refused before, naming its line)."""
    return "".join(
        f", TRY_CAST(nullif(r.{f}, '') AS {AMOUNT}) AS m{k}" for k, f in layout.money_fields()
    )


def store_fractions(con: Any, name: str, rows: Sequence[tuple[int, str, Fraction]]) -> None:
    """DuckDB table ``name`` (combo, bet, num, den): an exact fraction per combination and bet."""
    import numpy as np

    fractions_by_combo = {  # noqa: F841 - read by DuckDB's replacement scan below
        "combo": np.array([combo for combo, _, _ in rows], dtype=np.int64),
        "bet": np.array([bet for _, bet, _ in rows], dtype=object),
        "num": np.array([f.numerator for _, _, f in rows], dtype=np.int64),
        "den": np.array([f.denominator for _, _, f in rows], dtype=np.int64),
    }
    con.execute(
        f"CREATE OR REPLACE TABLE {name} AS "
        "SELECT combo, bet::VARCHAR AS bet, num, den FROM fractions_by_combo"
    )


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


def round_label_sql(columns: Collection[str], unit: str) -> str:
    """The SQL naming a mis-settled row in a finding: its shoe and round, its round, or its line."""
    if "shoe" in columns and "round" in columns:
        return "'shoe ' || shoe || ', round ' || round"
    if "round" in columns:
        return "'round ' || round"
    return f"'{unit} ' || line"


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

    No table of bets is made: a log of 10 million rounds has tens of millions
    of them. Every bet is checked inside two aggregate queries over the rows
    (:func:`bets_sql`): one groups the bets by slice, unit return and whether
    they are right (a few hundred groups, summed exactly here); the other keeps
    only the mis-settled bets, to name them.
    """
    by_combo: dict[str, list[BetColumns]] = {}
    for column in columns:
        by_combo.setdefault(column.combo, []).append(column)
    parts = [
        f"SELECT {combo} AS combo, [{', '.join(group[0].hands)}] AS hands, line FROM final "
        f"WHERE kind IS NULL AND ({_placed(group)})"
        for combo, group in by_combo.items()
    ]
    examples = con.execute(
        f"SELECT combo, arg_min(hands, line) FROM ({' UNION ALL '.join(parts)}) GROUP BY combo"
    ).fetchall()
    returns = unit_returns([(combo, tuple(h)) for combo, h in examples])
    store_fractions(
        con,
        "unit_returns",
        [(combo, bet, r) for combo, bets in returns.items() for bet, r in bets.items()],
    )
    (rows_in_log,) = con.execute("SELECT coalesce(max(line), 0) FROM final").fetchone()
    bets = bets_sql(columns, tolerance, int(rows_in_log))
    groups = con.execute(f"""
        SELECT slice, num, den, wrong, sign(excess_den) AS side, count(*), sum(stake),
               sum(paid), sum(excess_den), min(line), max(line)
        FROM ({bets}) GROUP BY ALL ORDER BY ALL
    """).fetchall()
    count = wrong = 0
    staked = paid = Decimal(0)
    due = over = under = Fraction(0)
    per_slice: dict[int, list[Any]] = {}
    for slice_, num, den, bad, side, n, stake_sum, paid_sum, excess, first, last in groups:
        unit = Fraction(int(num), int(den))
        slice_due = _fraction(stake_sum) * unit
        count += n
        staked += Decimal(stake_sum)
        paid += Decimal(paid_sum)
        due += slice_due
        if bad:
            wrong += n
            if side > 0:
                over += _fraction(excess) / int(den)
            else:
                under -= _fraction(excess) / int(den)
        entry = per_slice.setdefault(slice_, [first, last, 0, 0, Decimal(0), Fraction(0)])
        entry[0], entry[1] = min(entry[0], first), max(entry[1], last)
        entry[2] += n
        entry[3] += n if bad else 0
        entry[4] += Decimal(paid_sum)
        entry[5] += slice_due
    named = (
        []
        if not wrong
        else [
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
            SELECT w.line, {labels} AS round, w.seat, w.bet, w.stake, w.paid, w.num, w.den
            FROM (SELECT * FROM ({bets}) WHERE wrong ORDER BY line, seat, bet LIMIT {MAX_NAMED}) w
            JOIN final USING (line) ORDER BY w.line, w.seat, w.bet
        """).fetchall()
        ]
    )
    slices = tuple(
        Slice(first, last, n, bad, amount(slice_paid), slice_due)
        for _, (first, last, n, bad, slice_paid, slice_due) in sorted(per_slice.items())
    )
    return SettlementAudit(
        bets=count,
        staked=amount(staked),
        paid=amount(paid),
        due=due,
        mis_settled=wrong,
        overpaid=over,
        underpaid=under,
        named=tuple(named),
        slices=slices,
        tolerance=tolerance,
    )


def _placed(columns: Sequence[BetColumns]) -> str:
    """SQL: some bet of these columns was placed or paid."""
    return " OR ".join(
        f"coalesce({c.stake}, 0) <> 0 OR coalesce({c.paid}, 0) <> 0" for c in columns
    )


def bets_sql(columns: Sequence[BetColumns], tolerance: Decimal, rows: int) -> str:
    """SQL: every bet placed (or paid) with its unit return, excess and slice; not stored.

    The excess ``paid × den − stake × num`` is the overpayment times the unit
    return's denominator: exact (amounts are exact decimals, the return a
    fraction). A slice is a tenth of the log's rows, in file order.
    """
    tol = str(tolerance)
    parts = [
        f"""SELECT line, '{c.seat}' AS seat, '{c.bet}' AS bet,
                   coalesce({c.stake}, 0) AS stake, coalesce({c.paid}, 0) AS paid,
                   {c.combo} AS combo
            FROM final WHERE kind IS NULL AND (coalesce({c.stake}, 0) <> 0
                                               OR coalesce({c.paid}, 0) <> 0)"""
        for c in columns
    ]
    return f"""
        SELECT b.line, b.seat, b.bet, b.stake, b.paid, u.num, u.den,
               b.paid * u.den - b.stake * u.num AS excess_den,
               abs(b.paid * u.den - b.stake * u.num) > {tol} * u.den AS wrong,
               ({SLICES} * (b.line - 1)) // {max(rows, 1)} + 1 AS slice
        FROM ({" UNION ALL ".join(parts)}) b JOIN unit_returns u USING (combo, bet)
    """
