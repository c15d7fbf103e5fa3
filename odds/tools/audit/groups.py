"""``odds audit --by table,dealer,shoe,day``: the audit repeated group by group.

Test labs look for trends by table, dealer, shoe and day (UK RTS 17, the GLI
live-dealer clauses): a dealer whose rounds favour the house, a table that
pays too much, one bad day. Each ``--by`` column is a **dimension** (any
column of the log that is not a hand, a stake or a payout; ``day`` is the date
a ``timestamp`` column is written with, ``YYYY-MM-DD…``), and each of its
values a **group**. For every group and bet:

* the **actual hold** (1 − the observed return per unit staked, every tested
  round staking 1) against the **theoretical hold** (1 − the exact RTP), with
  the exact 95% range the hold of that many rounds falls in for an honest
  game (:func:`odds.stats.significance.return_range`), and the two-sided
  p-value of the observed return (:func:`odds.stats.significance.return_ps`:
  exact below 10,000 rounds, normal from there);
* with stakes and payouts in the log, the money: staked, paid, paid against
  what the paytable made due, and the mis-settled bets (the settlement audit
  by group).

**Multiple testing: Holm, after Tarone's screen.** All (group, bet) tests of
every dimension form one family. Tests that cannot reach significance with
their group's rounds (Tarone: the smallest K with at most K floors ≤ α/K)
are not judged; the K others go through Holm's step-down at α: the smallest
p-value is judged at α/K, the next at α/(K − 1), and so on until one
passes. Holm, not Benjamini–Hochberg, because a flagged group *names* a
dealer, a table or a shoe: the error that matters is naming any honest one,
the family-wise error rate, which Holm holds at α under any dependence
between the tests (a round is in its dealer's group and in its day's, so the
dimensions' tests are dependent). Benjamini–Hochberg holds only the expected
share of false names among those named, and only under positive dependence.
With ``--by``, the pooled tests (Tarone) and this family each get α/2, so
the whole audit still flags an honest log with probability at most α.

**Who drives a finding.** When a pooled test fails or bets are mis-settled,
the group of each dimension that contributes most is named: the one with the
smallest p-value on that bet, or the most mis-settled bets.

**Control charts.** With ``--charts DIR``, one SVG per dimension and bet: each
group's cumulative deviation ``Σ (net − EV)`` over its rounds in log order (a
CUSUM of the per-unit result against its expectation), between the ±3σ√n
control limits of an honest game; a line leaving the band is out of control.
At most :data:`MAX_LINES` groups are drawn per chart (those furthest out, by
|z| at their end), the others are said to be left out.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.core.settlement import Settlement

#: The name of the derived dimension, and the column it is derived from.
DAY, TIMESTAMP = "day", "timestamp"
#: The most groups one dimension may have (each is tested; more is a one-line error).
MAX_GROUPS = 200_000
#: Groups drawn per control chart; points drawn per group.
MAX_LINES, MAX_POINTS = 10, 240


@dataclass(frozen=True)
class Dimension:
    """One ``--by`` column: its name, and the SQL (over the log's rows ``r``) of its value."""

    name: str
    sql: str


def parse_by(text: str | None) -> tuple[str, ...]:
    """``--by table,dealer,day``: the dimension names, each once.

    >>> parse_by("Dealer, table")
    ('dealer', 'table')
    """
    if text is None:
        return ()
    names = [part.strip().lower().replace(" ", "_") for part in text.split(",")]
    if not all(names):
        raise OddsError(f"--by: expected column names separated by commas, got {text!r}")
    for name in names:
        if names.count(name) > 1:
            raise OddsError(f"--by: {name} is given twice")
    return tuple(names)


def dimensions(
    names: Sequence[str], columns: Mapping[str, str], hands: Sequence[str], label: str
) -> list[Dimension]:
    """Each name's SQL: a column the log has (``columns``: name → field), or ``day``.

    A hand column or an unknown name is a one-line error naming the columns
    that can be used.
    """
    found = []
    usable = sorted(n for n in columns if n not in hands)
    if TIMESTAMP in columns:
        usable = sorted([*usable, DAY])
    for name in names:
        if name in hands:
            raise OddsError(f"--by {name}: a hand column; group by a label such as dealer")
        if name in columns:
            found.append(Dimension(name, f"r.{columns[name]}"))
        elif name == DAY and TIMESTAMP in columns:
            ts = f"r.{columns[TIMESTAMP]}"
            found.append(
                Dimension(
                    DAY,
                    f"CASE WHEN regexp_matches({ts}, '^\\d{{4}}-\\d{{2}}-\\d{{2}}') "
                    f"THEN {ts}[1:10] END",
                )
            )
        else:
            extra = f" ({DAY} needs a {TIMESTAMP} column)" if name == DAY else ""
            raise OddsError(
                f"--by {name}: {label} has no such column{extra}; columns to group by: "
                f"{', '.join(usable) or 'none'}"
            )
    return found


# ---------------------------------------------------------------------------
# What the log says per group (counted in the database)


@dataclass(frozen=True)
class GroupMoney:
    """The settlement audit of one group (with stakes and payouts in the log)."""

    bets: int
    staked: Decimal
    paid: Decimal
    due: Fraction
    mis_settled: int


@dataclass(frozen=True)
class GroupCounts:
    """One group's tested rounds: per bet, how many rounds had each net per unit staked."""

    dimension: str
    group: str
    rounds: int
    first: int  # its first and last line (or Parquet row)
    last: int
    nets: Mapping[str, Mapping[Fraction, int]]
    money: GroupMoney | None = None


@dataclass(frozen=True)
class GroupPath:
    """One group's cumulative net per bet, sampled: ``(k, Σ net of its first k rounds)``."""

    dimension: str
    group: str
    bet: str
    points: tuple[tuple[int, Fraction], ...]


def check_groups(con: Any, dims: Sequence[Dimension], unit: str) -> None:
    """A group value missing, or a timestamp ``day`` cannot read: a one-line error naming it."""
    for k, dim in enumerate(dims):
        found = con.execute(
            f"SELECT line FROM log WHERE why IS NULL AND (g{k} IS NULL OR g{k} = '') "
            "ORDER BY line LIMIT 1"
        ).fetchall()
        if found:
            what = (
                f"the {TIMESTAMP} is not a date and time written YYYY-MM-DD…"
                if dim.name == DAY
                else f"the {dim.name} is empty"
            )
            raise OddsError(f"{unit} {found[0][0]}: {what} (--by {dim.name})")
        (count,) = con.execute(f"SELECT count(DISTINCT g{k}) FROM log").fetchone()
        if count > MAX_GROUPS:
            raise OddsError(
                f"--by {dim.name}: {count:,} groups (at most {MAX_GROUPS:,}); group by a "
                "coarser column"
            )


def count_groups(
    con: Any,
    dims: Sequence[Dimension],
    settled: Mapping[int, Settlement],
    money_sql: str | None = None,
    paths: bool = False,
) -> tuple[list[GroupCounts], list[GroupPath]]:
    """Every group's counts (and, with ``paths``, its cumulative nets) from the ``final`` table.

    ``settled`` maps each tested combination to its settlement at a stake of 1;
    the counting is one aggregate per dimension over (group, bet, net): no row
    reaches Python. ``money_sql`` selects the log's bets (``line, stake, paid,
    num, den, wrong``) for the settlement audit by group.
    """
    from odds.tools.audit.payouts import store_fractions

    unit_nets = [
        (combo, bet.bet, bet.net / bet.stake)
        for combo, settlement in settled.items()
        for bet in settlement.bets
    ]
    store_fractions(con, "combo_nets", unit_nets)
    tested = "kind IS NULL AND NOT extra"
    found: list[GroupCounts] = []
    drawn: list[GroupPath] = []
    for k, dim in enumerate(dims):
        sizes = {
            g: (n, first, last)
            for g, n, first, last in con.execute(
                f"SELECT g{k}, count(*), min(line), max(line) FROM final WHERE {tested} "
                f"GROUP BY g{k}"
            ).fetchall()
        }
        nets: dict[str, dict[str, Counter[Fraction]]] = {g: {} for g in sizes}
        for g, bet, num, den, n in con.execute(
            f"SELECT g{k}, c.bet, c.num, c.den, count(*) FROM final f "
            f"JOIN combo_nets c USING (combo) WHERE {tested} GROUP BY ALL"
        ).fetchall():
            nets[g].setdefault(bet, Counter())[Fraction(num, den)] += n
        money = _group_money(con, k, money_sql) if money_sql else {}
        for g in sorted(sizes, key=_natural):
            n, first, last = sizes[g]
            found.append(GroupCounts(dim.name, str(g), n, first, last, nets[g], money.get(g)))
        if paths:
            scale = math.lcm(*(net.denominator for _, _, net in unit_nets)) if unit_nets else 1
            drawn += _paths(con, k, dim.name, tested, scale)
    return found, drawn


def _natural(value: Any) -> tuple[Any, ...]:
    """Sort D2 before D10 and 9 before 10: digits compared as numbers."""
    import re

    return tuple(
        (0, int(part), "") if part.isdigit() else (1, 0, part)
        for part in re.split(r"(\d+)", str(value))
    )


def _group_money(con: Any, k: int, bets_sql: str) -> dict[Any, GroupMoney]:
    """Per group: bets, staked, paid, due (exact: stakes summed per unit return), mis-settled."""
    totals: dict[Any, list[Any]] = {}
    for g, num, den, n, staked, paid, wrong in con.execute(f"""
        SELECT f.g{k}, b.num, b.den, count(*), sum(b.stake), sum(b.paid),
               count(*) FILTER (WHERE b.wrong)
        FROM ({bets_sql}) b JOIN final f USING (line) GROUP BY ALL
    """).fetchall():
        entry = totals.setdefault(g, [0, Decimal(0), Decimal(0), Fraction(0), 0])
        entry[0] += n
        entry[1] += Decimal(staked)
        entry[2] += Decimal(paid)
        entry[3] += Fraction(Decimal(staked)) * Fraction(int(num), int(den))
        entry[4] += wrong
    return {g: GroupMoney(*entry) for g, entry in totals.items()}


def _paths(con: Any, k: int, name: str, tested: str, scale: int) -> list[GroupPath]:
    """Each group's cumulative net per bet at about :data:`MAX_POINTS` evenly spaced rounds."""
    found: dict[tuple[Any, str], list[tuple[int, Fraction]]] = {}
    for g, bet, i, num in con.execute(f"""
        SELECT g, bet, i, num FROM (
            SELECT f.g{k} AS g, c.bet,
                   row_number() OVER w AS i, count(*) OVER (PARTITION BY f.g{k}, c.bet) AS n,
                   sum(c.num * ({scale} // c.den)) OVER w AS num
            FROM final f JOIN combo_nets c USING (combo)
            WHERE {tested}
            WINDOW w AS (PARTITION BY f.g{k}, c.bet ORDER BY f.line
                         ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW))
        WHERE i = n OR i % greatest(1, n // {MAX_POINTS}) = 0
        ORDER BY ALL
    """).fetchall():
        found.setdefault((g, bet), []).append((i, Fraction(int(num), scale)))
    return [
        GroupPath(name, str(g), bet, tuple(points))
        for (g, bet), points in sorted(found.items(), key=lambda kv: (_natural(kv[0][0]), kv[0][1]))
    ]


# ---------------------------------------------------------------------------
# The tests


@dataclass(frozen=True)
class GroupTest:
    """The return of one bet in one group against its exact RTP."""

    dimension: str
    group: str
    bet: str
    rounds: int
    observed: Fraction  # return per unit staked
    rtp: Fraction
    half_width: float  # of the 95% range of an honest game's return over this many rounds
    range_method: str
    p: float
    method: str
    floor: float
    judged: bool = False
    rejected: bool = False
    threshold: float | None = None  # Holm's level for this test, when reached

    @property
    def hold(self) -> Fraction:
        return 1 - self.observed

    @property
    def theoretical_hold(self) -> Fraction:
        return 1 - self.rtp


@dataclass(frozen=True)
class Driver:
    """The group of one dimension that contributes most to a pooled finding."""

    finding: str  # "return of banker", "mis-settled bets"
    dimension: str
    group: str
    text: str


@dataclass(frozen=True)
class GroupAudit:
    """Every group's tests, judged together (Holm after Tarone's screen at ``alpha``)."""

    dimensions: tuple[str, ...]
    groups: tuple[GroupCounts, ...]
    tests: tuple[GroupTest, ...]
    alpha: float
    k: int
    paths: tuple[GroupPath, ...] = ()
    drivers: tuple[Driver, ...] = field(default=())

    @property
    def rejected(self) -> tuple[GroupTest, ...]:
        return tuple(t for t in self.tests if t.rejected)

    @property
    def flagged(self) -> bool:
        return bool(self.rejected)


def evaluate_groups(
    distributions: Mapping[str, Sequence[tuple[Fraction, Fraction]]],
    groups: Sequence[GroupCounts],
    alpha: float,
    paths: Sequence[GroupPath] = (),
) -> GroupAudit:
    """Each (group, bet)'s return test, then Tarone's screen and Holm's step-down at ``alpha``.

    ``distributions`` gives each bet's (net per unit staked, exact probability).
    Groups with the same number of rounds are tested together (one exact table
    per bet and size).
    """
    from odds.stats.significance import return_ps, return_range, tarone

    tests: list[GroupTest] = []
    by_size: dict[tuple[str, int], list[GroupCounts]] = {}
    for group in groups:
        for bet in distributions:
            if bet in group.nets:
                by_size.setdefault((bet, group.rounds), []).append(group)
    for (bet, n), members in sorted(by_size.items()):
        distribution = distributions[bet]
        index = {net: i for i, (net, _) in enumerate(distribution)}
        counts = []
        for group in members:
            row = [0] * len(distribution)
            for net, c in group.nets[bet].items():
                if net not in index:
                    raise OddsError(f"bet {bet}: a settled net of {net} is not in its table")
                row[index[net]] += c
            counts.append(row)
        ps = return_ps(f"group return of {bet}", distribution, counts)
        half, range_method = return_range(distribution, n)
        rtp = 1 + sum((net * p for net, p in distribution), Fraction(0))
        for group, row, p in zip(members, counts, ps.values, strict=True):
            total = sum(
                (net * c for (net, _), c in zip(distribution, row, strict=True)), Fraction(0)
            )
            tests.append(
                GroupTest(
                    group.dimension,
                    group.group,
                    bet,
                    n,
                    1 + total / n,
                    rtp,
                    half,
                    range_method,
                    float(p),
                    ps.method,
                    ps.floor,
                )
            )
    order = {(g.dimension, g.group): i for i, g in enumerate(groups)}
    tests.sort(key=lambda t: (order[t.dimension, t.group], list(distributions).index(t.bet)))
    k, judged = tarone([t.floor for t in tests], alpha)
    tests = holm([_replace(t, judged=j) for t, j in zip(tests, judged, strict=True)], alpha, k)
    return GroupAudit(
        tuple(dict.fromkeys(g.dimension for g in groups)),
        tuple(groups),
        tuple(tests),
        alpha,
        k,
        tuple(paths),
    )


def _replace(test: GroupTest, **changes: Any) -> GroupTest:
    from dataclasses import replace

    return replace(test, **changes)


def holm(tests: Sequence[GroupTest], alpha: float, k: int) -> list[GroupTest]:
    """Holm's step-down over the judged tests: the i-th smallest p at α/(k − i), until one passes.

    >>> t = GroupTest("d", "a", "b", 1, Fraction(1), Fraction(1), 0.0, "", 0.004, "", 0.0, True)
    >>> [x.rejected for x in holm([t, _replace(t, p=0.02)], 0.05, 2)]
    [True, True]
    """
    judged = sorted((i for i, t in enumerate(tests) if t.judged), key=lambda i: tests[i].p)
    out = list(tests)
    for step, i in enumerate(judged):
        level = alpha / (k - step) if k > step else alpha
        out[i] = _replace(out[i], threshold=level)
        if tests[i].p >= level:
            break
        out[i] = _replace(out[i], rejected=True)
    return out


def drivers(
    audit: GroupAudit, failing_bets: Sequence[str], mis_settled: bool
) -> tuple[Driver, ...]:
    """For each pooled finding, the group of each dimension that contributes most."""
    found = []
    for bet in failing_bets:
        for dim in audit.dimensions:
            candidates = [t for t in audit.tests if t.dimension == dim and t.bet == bet]
            if not candidates:
                continue
            worst = min(candidates, key=lambda t: (t.p, -t.rounds))
            found.append(
                Driver(
                    f"return of {bet}",
                    dim,
                    worst.group,
                    f"the return of {bet} is driven most by {dim} {worst.group}: "
                    f"{_pct(worst.observed)} over {worst.rounds:,} rounds against "
                    f"{_pct(worst.rtp)} (p = {p_text(worst.p)})",
                )
            )
    if mis_settled:
        for dim in audit.dimensions:
            money = [g for g in audit.groups if g.dimension == dim and g.money is not None]
            worst_group = max(money, key=lambda g: (g.money.mis_settled, g.rounds), default=None)  # type: ignore[union-attr]
            if worst_group is None or worst_group.money is None:
                continue
            m = worst_group.money
            found.append(
                Driver(
                    "mis-settled bets",
                    dim,
                    worst_group.group,
                    f"mis-settled bets are most in {dim} {worst_group.group}: "
                    f"{m.mis_settled:,} of {m.bets:,} bets, paid {_money(m.paid)} "
                    f"against {_money(m.due)} due",
                )
            )
    return tuple(found)


def _pct(value: Fraction) -> str:
    from odds.core.numbers import percent

    return percent(value, 4)


def p_text(p: float) -> str:
    """A p-value for people: four significant digits, or scientific below 1e-4."""
    if p == 0:
        return "< 1e-300"
    return f"{p:.4g}" if p >= 1e-4 else f"{p:.3e}"


def _money(value: Fraction | Decimal) -> str:
    from odds.core.numbers import decimal

    return decimal(Fraction(value), 2)


def sd_per_round(distribution: Sequence[tuple[Fraction, Fraction]]) -> float:
    """The standard deviation of one round's net per unit staked (a float: for drawing)."""
    mean = sum((net * p for net, p in distribution), Fraction(0))
    return math.sqrt(float(sum((p * (net - mean) ** 2 for net, p in distribution), Fraction(0))))
