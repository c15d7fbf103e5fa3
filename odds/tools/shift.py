r"""The operator's risk over a shift: the house's result after N rounds, exactly where it can be.

A PAR sheet gives the house edge; an operator also asks how likely the table is to
*lose* over a shift of 100, 1,000 or 10,000 rounds, where the hold lands, and the
most one round can cost at the table maximum. The per-round result of a bet takes
a few rational values (its outcome table, :meth:`odds.stats.bets.Bet.distribution`);
rounds are independent (a fresh shuffle, or the off-the-top odds for a shoe), so
the sum over N rounds is a distribution over a small lattice. It is computed by
the first method that applies:

* **exact** — a multinomial over the values (Python integers): every way of
  splitting the N rounds among the per-round values, when there are at most
  :data:`EXACT_TERMS` of them (small N or few values); probabilities are Fractions;
* **FFT** — the lattice's characteristic function raised to the N-th power and
  inverted (numpy, double precision), when the lattice has at most
  :data:`FFT_POINTS` points; every probability sum is within a stated bound
  (:func:`fft_bound`);
* **normal** — the central limit theorem from the exact mean and variance, labelled
  approximate, with the Berry–Esseen bound on P(house loses) (constant 0.4748,
  Shevtsova 2011).

*Hold* is the house's result divided by the amount staked (N units): its 5% and 95%
quantiles are the band the hold lands in 90% of shifts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.core.table import Column, Kind, Table
from odds.stats.bets import Bet

if TYPE_CHECKING:
    from odds.stats.analysis import Section

#: Shift lengths a report gives when asked for the shift section without a length.
SHIFTS: tuple[int, ...] = (100, 1_000, 10_000)
#: The longest shift accepted (the normal approximation only, beyond the FFT's reach).
MAX_ROUNDS = 10_000_000
#: The most multinomial terms the exact method enumerates.
EXACT_TERMS = 20_000
#: The most work the exact method takes on: terms × rounds × bits of a round's ways (its
#: integers have rounds × bits bits; ~1 s at this bound).
EXACT_WORK = 100_000_000
#: The most lattice points the FFT method transforms (~64 MB of complex numbers).
FFT_POINTS = 1 << 22
#: The hold band's quantiles.
BAND = (Fraction(5, 100), Fraction(95, 100))
#: Berry–Esseen constant for independent identically distributed sums (Shevtsova 2011).
BERRY_ESSEEN = 0.4748
_UNIT_ROUNDOFF = 2.0**-53


@dataclass(frozen=True)
class RoundResult:
    """What the player nets in one round, per unit staked: ``{net: ways}`` (or simulated counts).

    ``exact`` is false when the ways are a simulation's counts (Pok Deng's five
    positions on a full shoe): everything derived is then an estimate.
    """

    label: str
    ways: Mapping[Fraction, int]
    exact: bool = True
    staked: Fraction = Fraction(1)

    @classmethod
    def of_bet(cls, bet: Bet) -> RoundResult:
        return cls(bet.title, bet.distribution())

    @property
    def total(self) -> int:
        return sum(self.ways.values())

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(v * w for v, w in self.ways.items()), self.total)

    @property
    def variance(self) -> Fraction:
        second = Fraction(sum(v * v * w for v, w in self.ways.items()), self.total)
        return second - self.mean**2

    def lattice(self) -> tuple[int, int, list[tuple[int, int]]]:
        """(denominator d, the lowest net · d, [(net · d − lowest, ways)]): integer steps."""
        values = [v for v, w in self.ways.items() if w]
        d = math.lcm(*(v.denominator for v in values))
        low = min(values) * d
        return d, int(low), [(int(v * d - low), self.ways[v]) for v in sorted(values)]


@dataclass(frozen=True)
class ShiftRisk:
    """The house's result over ``rounds`` rounds of one bet (or mix), and how it was found."""

    label: str
    rounds: int
    method: str
    #: P(the house's total over the shift is below zero).
    house_loses: float
    house_loses_exact: Fraction | None
    #: P(the house's total is exactly zero).
    even: float
    #: The 5% and 95% quantiles of the hold (house result per unit staked).
    hold_low: Fraction
    hold_high: Fraction
    expected_hold: Fraction
    #: Largest error of the probabilities (``0``: exact; ``None``: not bounded).
    error: float | None
    estimated: bool = False


def multinomial_terms(rounds: int, values: int) -> int:
    """How many ways N rounds split among ``values`` per-round results: C(N + k − 1, k − 1)."""
    return math.comb(rounds + values - 1, values - 1)


def exact_work(result: RoundResult, rounds: int) -> int:
    """The exact method's work: terms × rounds × bits (its integers grow as total^N)."""
    terms = multinomial_terms(rounds, len(result.lattice()[2]))
    if terms > EXACT_TERMS:
        return EXACT_WORK + 1
    return terms * rounds * result.total.bit_length()


def shift_risk(result: RoundResult, rounds: int, method: str | None = None) -> ShiftRisk:
    """The house's result after ``rounds`` independent rounds: exact, FFT or normal.

    ``method`` forces one (tests compare them); by default the first that applies.
    """
    if rounds < 1:
        raise OddsError(f"a shift needs at least one round, got {rounds}")
    if rounds > MAX_ROUNDS:
        raise OddsError(f"a shift of {rounds:,} rounds is too long (at most {MAX_ROUNDS:,})")
    _, _, steps = result.lattice()
    span = steps[-1][0]
    points = span * rounds + 1
    if method is None:
        if exact_work(result, rounds) <= EXACT_WORK:
            method = "exact"
        elif points <= FFT_POINTS:
            method = "fft"
        else:
            method = "normal"
    if method == "exact":
        return _exact(result, rounds)
    if method == "fft":
        if points > FFT_POINTS:
            raise OddsError(f"{points:,} lattice points are beyond the FFT's {FFT_POINTS:,}")
        return _fft(result, rounds)
    if method == "normal":
        return _normal(result, rounds)
    raise ValueError(method)


def _band(
    mass: Sequence[Any], low: int, d: int, rounds: int, total: Any
) -> tuple[Fraction, Fraction]:
    """The hold's 5% and 95% quantiles from the player's total's mass (ascending lattice).

    The house's hold is −(player total)/N: its q-quantile is minus the player
    total's (1 − q)-quantile. A quantile is the first lattice value whose
    cumulative mass reaches the level.
    """
    found = []
    for q in (1 - BAND[1], 1 - BAND[0]):
        cumulative = 0 * total
        index = len(mass) - 1
        for i, m in enumerate(mass):
            cumulative += m
            if cumulative >= q * total:
                index = i
                break
        found.append(Fraction(index + rounds * low, d * rounds))
    high_player, low_player = found[1], found[0]
    return -high_player, -low_player


def _exact(result: RoundResult, rounds: int) -> ShiftRisk:
    """Every split of the rounds among the values: multinomial × ∏ ways^count, by lattice point."""
    d, low, steps = result.lattice()
    if multinomial_terms(rounds, len(steps)) > 10 * EXACT_TERMS:
        raise OddsError("too many terms for the exact shift distribution")
    span = steps[-1][0]
    mass = [0] * (span * rounds + 1)
    powers = [[w**c for c in range(rounds + 1)] for _, w in steps]

    def walk(i: int, left: int, position: int, weight: int) -> None:
        step, _ = steps[i]
        if i == len(steps) - 1:
            mass[position + step * left] += weight * powers[i][left]
            return
        for c in range(left + 1):
            walk(i + 1, left - c, position + step * c, weight * math.comb(left, c) * powers[i][c])

    # weight carries the multinomial as a product of binomials, C(N, c₁)·C(N − c₁, c₂)…, times
    # ∏ ways^count: products of integers only (dividing by factorials, as this did, was the
    # cost: a long division per term, seconds for a 100-round shift of a three-result bet).
    walk(0, rounds, 0, 1)
    total = result.total**rounds
    if sum(mass) != total:
        raise AssertionError("the shift distribution does not sum to the ways of N rounds")
    zero = -rounds * low  # the lattice index of a player total of 0
    loses = Fraction(sum(mass[zero + 1 :]), total) if zero + 1 <= len(mass) else Fraction(0)
    even = Fraction(mass[zero], total) if 0 <= zero < len(mass) else Fraction(0)
    hold_low, hold_high = _band(mass, low, d, rounds, total)
    return ShiftRisk(
        result.label,
        rounds,
        "exact (multinomial)",
        float(loses),
        loses,
        float(even),
        hold_low,
        hold_high,
        -result.mean,
        0.0,
        not result.exact,
    )


def fft_bound(rounds: int, values: int, points: int) -> float:
    """A bound on any sum of the FFT's probabilities (a tail, P(house loses)).

    Each frequency of the characteristic function carries a relative error of
    about (k + 2)·u from its k terms, raised to the N-th power it is N times
    larger; the inverse transform adds ~5·log2(n)·u. By Parseval the errors of
    the n probabilities have a 2-norm at most that, so a sum of up to L of them
    errs by at most √L times it (Cauchy–Schwarz). A factor 4 covers the constants.
    """
    size = 1 << max(1, (points - 1).bit_length())
    per_frequency = (rounds * (values + 2) + 5 * math.log2(size)) * _UNIT_ROUNDOFF
    return 4 * math.sqrt(points) * per_frequency


def _fft(result: RoundResult, rounds: int) -> ShiftRisk:
    import numpy as np

    d, low, steps = result.lattice()
    span = steps[-1][0]
    points = span * rounds + 1
    size = 1 << max(1, (points - 1).bit_length())
    total = result.total
    k = np.arange(size // 2 + 1, dtype=np.float64)
    phi = np.zeros(size // 2 + 1, dtype=np.complex128)
    for step, ways in steps:
        phi += (ways / total) * np.exp(-2j * np.pi * k * (step / size))
    mass = np.fft.irfft(phi**rounds, size)[:points]
    bound = fft_bound(rounds, len(steps), points)
    if abs(float(mass.sum()) - 1) > bound:  # pragma: no cover - a numerical failure
        raise AssertionError("the FFT's shift distribution does not sum to 1")
    zero = -rounds * low
    loses = float(mass[zero + 1 :].sum()) if zero + 1 <= points else 0.0
    even = float(mass[zero]) if 0 <= zero < points else 0.0
    hold_low, hold_high = _band(mass.tolist(), low, d, rounds, 1.0)
    return ShiftRisk(
        result.label,
        rounds,
        "FFT (double precision)",
        min(1.0, max(0.0, loses)),
        None,
        min(1.0, max(0.0, even)),
        hold_low,
        hold_high,
        -result.mean,
        bound,
        not result.exact,
    )


def _normal(result: RoundResult, rounds: int) -> ShiftRisk:
    """The central limit theorem from the exact mean and variance; Berry–Esseen on P(loss)."""
    from statistics import NormalDist

    d = result.lattice()[0]
    mean, variance = result.mean, result.variance
    sd = math.sqrt(variance)
    if sd == 0:
        raise OddsError(f"{result.label}: the bet's result never varies")
    third = sum(abs(float(v - mean)) ** 3 * w for v, w in result.ways.items() if w) / result.total
    error = BERRY_ESSEEN * third / (sd**3 * math.sqrt(rounds))
    total = NormalDist(float(mean) * rounds, sd * math.sqrt(rounds))
    loses = 1 - total.cdf(0)
    z = NormalDist().inv_cdf(float(BAND[1]))
    spread = z * sd / math.sqrt(rounds)

    def on_lattice(hold: float) -> Fraction:
        return Fraction(round(hold * d * rounds), d * rounds)

    return ShiftRisk(
        result.label,
        rounds,
        "normal approximation",
        loses,
        None,
        0.0,
        on_lattice(-float(mean) - spread),
        on_lattice(-float(mean) + spread),
        -mean,
        min(1.0, error),
        not result.exact,
    )


# ---------------------------------------------------------------------------
# Tables: what the report's shift section and the PAR sheet show


def shift_table(risks: Sequence[ShiftRisk]) -> Table:
    """Per bet and shift length: P(the house loses), the hold's 90% band, the method."""
    rows = []
    for r in risks:
        rows.append(
            {
                "bet": r.label,
                "rounds": r.rounds,
                "house_loses": r.house_loses,
                "house_loses_exact": r.house_loses_exact,
                "even": r.even,
                "expected_hold": r.expected_hold,
                "hold_low": r.hold_low,
                "hold_high": r.hold_high,
                "method": r.method + (" of a simulated round" if r.estimated else ""),
                "error": _error_text(r),
                "error_bound": r.error,
            }
        )
    return Table(
        key="shift_risk",
        title="The operator's risk over a shift",
        columns=(
            Column("bet", "bet"),
            Column("rounds", "rounds", Kind.WAYS),
            Column("house_loses", "P(house loses)", Kind.APPROXIMATE, places=6),
            Column("house_loses_exact", "P(house loses), exact", Kind.EXACT, markdown=False),
            Column("even", "P(house even)", Kind.APPROXIMATE, places=6),
            Column("expected_hold", "expected hold", Kind.PERCENT, places=3),
            Column("hold_low", "hold 5%", Kind.PERCENT, places=3),
            Column("hold_high", "hold 95%", Kind.PERCENT, places=3),
            Column("method", "method"),
            Column("error", "error", json=False),
            Column("error_bound", "error bound", Kind.APPROXIMATE, markdown=False),
        ),
        rows=tuple(rows),
        note=SHIFT_NOTE,
    )


SHIFT_NOTE = (
    "The house's result over a shift of independent rounds, one unit staked per round on the "
    "bet (the off-the-top odds every round). Hold = the house's result ÷ the amount staked; "
    "90% of shifts hold between the 5% and 95% figures. Exact: a multinomial over the bet's "
    "per-round results (JSON gives P exactly). FFT: the same distribution in double precision, "
    "every probability within the error shown. Normal: the central limit theorem from the exact "
    "mean and variance; the error shown bounds P(house loses) (Berry–Esseen), the band is "
    "approximate."
)


def _error_text(risk: ShiftRisk) -> str:
    if risk.error is None:
        return "not bounded"
    if risk.error == 0:
        return "exact"
    return f"± {risk.error:.1e}"


@dataclass(frozen=True)
class Liability:
    """The most the house can pay out net in one round on a bet (or a mix) at a stake."""

    label: str
    stake: Fraction
    top: Fraction  # per unit staked
    exact: bool  # False: a bound, or the largest seen in a simulation

    @property
    def amount(self) -> Fraction:
        return self.top * self.stake


def liability_table(liabilities: Sequence[Liability], note: str = "") -> Table:
    rows = tuple(
        {
            "bet": item.label,
            "stake": item.stake,
            "top": item.top,
            "liability": item.amount,
            "exact": item.exact,
        }
        for item in liabilities
    )
    return Table(
        key="liability",
        title="Maximum liability in one round",
        columns=(
            Column("bet", "bet"),
            Column("stake", "stake", Kind.NUMBER),
            Column("top", "top award per unit", Kind.NET),
            Column("liability", "maximum paid out", Kind.NUMBER),
            Column("exact", "attainable", Kind.FLAG),
        ),
        rows=rows,
        note=note
        or "The largest net win the house pays on the bet in one round at the stake shown (the "
        "table maximum given with --table-max; 1 unit by default).",
    )


def parse_shifts(text: str) -> tuple[int, ...]:
    """``100,1000,10000`` (or one length): round counts, each at least 1.

    >>> parse_shifts("100, ten")
    Traceback (most recent call last):
    odds.OddsError: --shift: expected whole numbers of rounds such as 100,1000; got ' ten'
    >>> parse_shifts("100,10000")
    (100, 10000)
    >>> parse_shifts("100,1,000")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    odds.OddsError: --shift: '000' is not a shift length (... write 1000, not 1,000)
    """
    found = []
    for part in text.split(","):
        if not part.strip().isdigit():
            raise OddsError(
                f"--shift: expected whole numbers of rounds such as 100,1000; got {part!r}"
            )
        rounds = int(part)
        if part.strip().startswith("0") and len(part.strip()) == 3:
            raise OddsError(
                f"--shift: {part.strip()!r} is not a shift length (commas separate lengths: "
                "write 1000, not 1,000)"
            )
        if not 1 <= rounds <= MAX_ROUNDS:
            raise OddsError(f"--shift: {rounds:,} rounds is out of range (1 to {MAX_ROUNDS:,})")
        found.append(rounds)
    return tuple(dict.fromkeys(found))


def mix_result(paytable: Any) -> tuple[RoundResult, Liability] | None:
    """The table's bet mix as one round result, where the game deals a whole table (a
    definition with ``seats``: Pok Deng's five positions with a Player and a Pair bet each,
    one unit on each bet).

    The whole table's total is exact where the engine can count it and a seeded simulation
    otherwise (:func:`odds.games.defined.whole_table.whole_table`); its liability is then
    each position's top awards at once, a bound.
    """
    definition = getattr(paytable.game, "definition", None)
    if definition is None:
        return None
    from odds.games.defined import seats
    from odds.games.defined.whole_table import Stakes, whole_table

    if not seats.has_whole_table(definition):
        return None
    bets = paytable.bet_analysis().bets
    table = whole_table(paytable.game, paytable.config, bets)
    stakes = Stakes.each(table.names)
    totals = table.table_totals(stakes)
    staked = stakes.staked * table.seats
    exact = table.counts.simulation is None
    titles = " + ".join(b.title for b in bets)
    label = f"All {table.seats} positions, {titles} each"
    per_unit = {net / staked: n for net, n in totals.items()}
    result = RoundResult(label, per_unit, exact, staked)
    tops = sum(b.top_award for b in bets)
    top = max(per_unit) if exact else tops * table.seats / staked
    return result, Liability(label, staked, top, exact)


def has_mix(paytable: Any) -> bool:
    """Whether the game deals a whole table (its shift figures include the mix)."""
    definition = getattr(paytable.game, "definition", None)
    if definition is None:
        return False
    from odds.games.defined import seats

    return seats.has_whole_table(definition)


def shift_tables(
    paytable: Any, rounds: Sequence[int] = SHIFTS, table_max: Fraction = Fraction(1)
) -> list[Table]:
    """The PAR sheet's operator-risk tables: each bet (and the table's mix) over each shift,
    and the maximum liability in one round at ``table_max`` per bet."""
    analysis = paytable.analyse()
    results = [RoundResult.of_bet(b) for b in analysis.bets]
    liabilities = [Liability(b.title, table_max, b.top_award, True) for b in analysis.bets]
    mix = mix_result(paytable)
    if mix is not None:
        results.append(mix[0])
        item = mix[1]
        liabilities.append(Liability(item.label, item.stake * table_max, item.top, item.exact))
    risks = [shift_risk(r, n) for r in results for n in rounds]
    note = ""
    if mix is not None and not mix[1].exact:
        note = (
            "The whole table's per-round result is a seeded simulation (the exact one is out of "
            "reach on this shoe): its shift figures are estimates, and its liability is every "
            "position's top awards at once (a bound). " + liability_table([]).note
        )
    return [shift_table(risks), liability_table(liabilities, note)]


def shift_section(
    paytable: Any, rounds: Sequence[int] = SHIFTS, table_max: Fraction = Fraction(1)
) -> Section:
    """``odds report --shift``: the operator's risk as a report section (absent by default)."""
    from odds.stats.analysis import Section

    paragraphs = (
        "What a shift of independent rounds can do to the house, one unit staked per round on "
        "each bet alone"
        + (" and on the whole table" if has_mix(paytable) else "")
        + ": the chance the house ends the shift behind, the band its hold lands in (90% of "
        "shifts), and the most one round can cost it.",
    )
    return Section(
        "shift", "Operator's risk", paragraphs, tuple(shift_tables(paytable, rounds, table_max))
    )


def with_shift_section(
    paytable: Any, analysis: Any, rounds: Sequence[int], table_max: Fraction
) -> Any:
    """The analysis with the shift section added after its other sections."""
    import dataclasses

    section = shift_section(paytable, rounds, table_max)
    return dataclasses.replace(analysis, sections=(*analysis.sections, section))
