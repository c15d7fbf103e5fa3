"""``odds solve`` and ``odds report --symbolic``: a bet's EV as an exact formula of its paytable.

No game has to say how its payouts enter its bets. The ways of every event
do not depend on the payouts, and each event's net payout is a polynomial (in
practice linear) in any one paytable entry. So the game's own exact analysis
is run at a few values of the entry (through the strict paytable loader); the
event labels and ways must not change, each event's net is interpolated
exactly (sympy, rationals), and the degree is confirmed at one more value.
The EV is then Σ ways · net(x) / total — exact, and solvable for a target.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import sympy

from odds.core.errors import OddsError
from odds.core.table import Column, Kind, Table, fields_table
from odds.games.paytable import Paytable
from odds.stats.analysis import Analysis
from odds.tools.variants import check_entry, entry_bounds, numeric_entries, variant

#: Highest degree tried before giving up on a polynomial net.
MAX_DEGREE = 3
#: Offsets and values tried as sample points (invalid ones are skipped).
_STEPS = (1, 2, 3, 4, Fraction(1, 2), Fraction(3, 2))
_VALUES = (0, Fraction(1, 2), Fraction(1, 4), Fraction(3, 4), Fraction(1, 10), Fraction(1, 20), 5)


@dataclass(frozen=True)
class BetShape:
    """What an analysis says about one bet at one set of paytable values."""

    events: tuple[tuple[str, int], ...]  # (label, ways), which must not depend on payouts
    nets: tuple[Fraction, ...]
    debited: Fraction


class Evaluator:
    """Runs the game's exact analysis at changed paytable values, with a cache."""

    def __init__(self, paytable: Paytable) -> None:
        self.paytable = paytable
        self.entries = numeric_entries(paytable.config)
        self._cache: dict[frozenset[tuple[str, Fraction]], dict[str, BetShape] | None] = {}

    def shapes(self, changes: Mapping[str, Fraction]) -> dict[str, BetShape] | None:
        """Every bet's shape at these values; None when the game refuses the values."""
        key = frozenset((k, Fraction(v)) for k, v in changes.items() if self.entries[k] != v)
        if key not in self._cache:
            try:
                analysis = variant(self.paytable, {k: str(v) for k, v in key}).bet_analysis()
            except OddsError:
                self._cache[key] = None
            else:
                self._cache[key] = {
                    b.name: BetShape(
                        tuple((o.event, o.ways) for o in b.outcomes),
                        tuple(o.net for o in b.outcomes),
                        b.debited,
                    )
                    for b in analysis.bets
                }
        return self._cache[key]

    def candidates(self, key: str) -> list[Fraction]:
        """Values of ``key`` to sample: the current one first."""
        current = self.entries[key]
        values = [
            current,
            *(current + s for s in _STEPS),
            current / 2,
            *(Fraction(v) for v in _VALUES),
        ]
        return list(dict.fromkeys(Fraction(v) for v in values))


def symbol_for(key: str) -> sympy.Symbol:
    return sympy.Symbol(key)


def _same_events(shapes: Sequence[BetShape], bet: str, key: str, ways: bool = True) -> None:
    """The events (and their ways, unless a decision re-optimised at each value moves them)
    are the same at every sample."""
    if ways:
        found = [s.events for s in shapes]
    else:
        found = [tuple(label for label, _ in s.events) for s in shapes]  # type: ignore[misc]
    if any(f != found[0] for f in found):
        raise OddsError(
            f"bet {bet}: its events or their ways change with {key}; "
            "the EV is not a polynomial in that entry"
        )


def univariate(
    evaluator: Evaluator, bet: str, key: str, same_ways: bool = True
) -> tuple[list[sympy.Expr], sympy.Expr, list[Fraction]]:
    """Each event's net and the debited amount of ``bet`` as exact polynomials in ``key``.

    Returns (nets, debited, the sample values used). Fits degree 1, 2 …
    through the first points and confirms the fit at one more value. ``same_ways`` False:
    a bet a player's decision settles, whose events' ways move with the strategy optimal at
    each value (their nets do not).
    """
    x = symbol_for(key)
    points: list[tuple[Fraction, BetShape]] = []
    pending = iter(evaluator.candidates(key))
    for degree in range(1, MAX_DEGREE + 1):
        while len(points) < degree + 2:
            value = next(pending, None)
            if value is None:
                raise OddsError(
                    f"cannot sample {key} at enough valid values to find the EV's formula"
                )
            shapes = evaluator.shapes({key: value})
            if shapes is None:
                continue
            if bet not in shapes:
                raise OddsError(f"bet {bet} disappears when {key} = {value}")
            points.append((value, shapes[bet]))
        shapes_seen = [s for _, s in points]
        _same_events(shapes_seen, bet, key, same_ways)
        fit, check = points[: degree + 1], points[degree + 1]
        nets = [
            _interpolate([(v, s.nets[i]) for v, s in fit], x) for i in range(len(points[0][1].nets))
        ]
        debited = _interpolate([(v, s.debited) for v, s in fit], x)
        value, shape = check
        if (
            all(value_at(net, x, value) == shape.nets[i] for i, net in enumerate(nets))
            and value_at(debited, x, value) == shape.debited
        ):
            return nets, debited, [v for v, _ in points]
    raise OddsError(f"bet {bet}: its nets are not polynomials of degree ≤ {MAX_DEGREE} in {key}")


def _interpolate(points: Sequence[tuple[Fraction, Fraction]], x: sympy.Symbol) -> sympy.Expr:
    data = [(sympy.Rational(v.numerator, v.denominator), _rational(y)) for v, y in points]
    if all(y == data[0][1] for _, y in data):
        return data[0][1]
    return sympy.expand(sympy.interpolate(data, x))


def _rational(value: Fraction) -> sympy.Rational:
    return sympy.Rational(value.numerator, value.denominator)


def value_at(expr: sympy.Expr, x: sympy.Symbol, value: Fraction) -> Fraction:
    """The exact value of ``expr`` at ``x = value``."""
    return fraction_of(sympy.Rational(sympy.sympify(expr).subs(x, _rational(value))))


def fraction_of(number: sympy.Expr) -> Fraction:
    """A sympy number as a Fraction: exact when rational, else a close rational (the paytable
    loader takes exact numbers)."""
    if number.is_Rational:
        return Fraction(int(number.p), int(number.q))
    return Fraction(float(number)).limit_denominator(10**9)


def ev_expression(events: Sequence[tuple[str, int]], nets: Sequence[sympy.Expr]) -> sympy.Expr:
    """EV = Σ ways · net / total, expanded."""
    total = sum(w for _, w in events)
    return sympy.expand(
        sum(sympy.Integer(w) * n for (_, w), n in zip(events, nets, strict=True)) / total
    )


# ---------------------------------------------------------------------------
# odds solve


@dataclass(frozen=True)
class Solution:
    """The answer of ``odds solve``.

    ``solutions`` are the values the paytable loader accepts (a payout below its
    minimum, or one the game refuses, is no solution); ``refused`` are the
    roots it would reject, and ``achievable`` says which RTPs valid values reach.
    """

    bet: str
    key: str
    basis: str
    current: Fraction
    target: Fraction
    ev: sympy.Expr
    rtp: sympy.Expr
    solutions: tuple[sympy.Expr, ...]
    fair: tuple[sympy.Expr, ...]
    practical: tuple[tuple[Fraction, Fraction], ...]  # (value, exact RTP)
    refused: tuple[sympy.Expr, ...] = ()
    achievable: str = ""
    #: A bet a player's decision settles: the optimal strategy at the solution (at the
    #: current value when there is none), re-optimised there; the formulas are its.
    strategy: str = ""
    strategy_at: Fraction | None = None  # the value of the entry it is optimal at

    @property
    def symbol(self) -> sympy.Symbol:
        return symbol_for(self.key)


def solve(
    paytable: Paytable, bet: str, key: str, target_rtp: Fraction, basis: str = "stake"
) -> Solution:
    """The value of ``key`` that gives ``bet`` the target RTP, exactly."""
    current = check_entry(paytable.config, key)
    analysis = paytable.bet_analysis()
    found = analysis.bet(bet)
    if basis == "debited" and not found.withholding:
        basis = "stake"  # the same figure when nothing is withheld
    evaluator = Evaluator(paytable)
    decided = _decided(paytable, bet)
    nets, debited, _ = univariate(evaluator, bet, key, same_ways=not decided)
    x = symbol_for(key)
    events = tuple((o.event, o.ways) for o in found.outcomes)
    if decided:  # the strategy re-optimised at every value tried (odds.games.defined)
        return _solve_decided(evaluator, bet, key, nets, basis, current, target_rtp)
    ev = ev_expression(events, nets)
    if value_at(ev, x, current) != found.stats.ev:  # pragma: no cover - an interpolation bug
        raise AssertionError("the EV formula does not reproduce the analysis")
    if x not in sympy.sympify(ev).free_symbols:
        raise OddsError(f"the EV of bet {bet} does not depend on {key}; nothing to solve")
    rtp = sympy.simplify(1 + ev if basis == "stake" else (debited + ev) / debited)
    target = _rational(target_rtp)
    roots = _real_roots(sympy.Eq(rtp, target), x)
    solutions = tuple(r for r in roots if _accepted(evaluator, key, r))
    refused = tuple(r for r in roots if r not in solutions)
    fair = tuple(r for r in _real_roots(sympy.Eq(ev, 0), x) if _accepted(evaluator, key, r))
    practical = []
    for root in solutions:
        if not root.is_Rational:
            continue
        value = fraction_of(root)
        near = {
            Fraction(math.floor(value)),
            Fraction(math.ceil(value)),
            Fraction(math.floor(value * 2), 2),
            Fraction(math.ceil(value * 2), 2),
        }
        for v in sorted(near):
            if evaluator.shapes({key: v}) is not None:
                practical.append((v, value_at(rtp, x, v)))
    achievable = "" if solutions else _achievable(paytable, evaluator, key, rtp, basis)
    return Solution(
        bet,
        key,
        basis,
        current,
        target_rtp,
        ev,
        rtp,
        solutions,
        fair,
        tuple(practical),
        refused,
        achievable,
    )


def _decided(paytable: Paytable, bet: str) -> bool:
    """Whether a player's decision settles ``bet`` (its strategy depends on the payouts)."""
    definition = getattr(paytable.game, "definition", None)
    if definition is None or getattr(definition, "decision", None) is None:
        return False
    from odds.games.defined.decisions import decision_bets

    return any(b.name == bet for b in decision_bets(paytable.game))  # type: ignore[arg-type]


#: Strategies a decided solve may pass through before giving up (each step changes it).
MAX_STRATEGIES = 64


def _strategy_rtp(shape: BetShape, nets: Sequence[sympy.Expr], basis: str) -> sympy.Expr:
    """The RTP formula of the strategy a shape was settled under (its ways, the nets)."""
    ev = ev_expression(shape.events, nets)
    debited = _rational(shape.debited)
    return sympy.expand(1 + ev if basis == "stake" else (debited + ev) / debited)


def _shape_rtp(shape: BetShape, basis: str) -> Fraction:
    """The exact RTP at one value, the strategy re-optimised there."""
    total = sum(w for _, w in shape.events)
    ev = Fraction(sum(w * n for (_, w), n in zip(shape.events, shape.nets, strict=True)), total)
    return 1 + ev if basis == "stake" else (shape.debited + ev) / shape.debited


def _decided_root(
    evaluator: Evaluator,
    bet: str,
    key: str,
    nets: Sequence[sympy.Expr],
    basis: str,
    target: Fraction,
    start: Fraction,
) -> tuple[Fraction | None, Fraction, BetShape]:
    """The value of ``key`` at which the bet, played by the strategy optimal there, returns
    ``target`` exactly (``None``: no value the paytable accepts), the last value tried and
    its shape (the strategy optimal there).

    The optimal RTP is the greatest of the strategies' RTPs, each linear in a payout: convex
    and, a payout only adding to what the player may win, rising. Newton's steps on it —
    solve the line of the strategy optimal at the current value, re-optimise there — end
    after one step at or above the target and then fall to the root, changing strategy each
    time, so they stop after finitely many. A strategy whose line is flat above the target
    means no value reaches it (every value returns at least that much); one flat below it is
    left by climbing (:func:`_climb`) to a larger value that reaches it."""
    x = symbol_for(key)
    value = start
    for _ in range(MAX_STRATEGIES):
        shapes = evaluator.shapes({key: value})
        assert shapes is not None
        shape = shapes[bet]
        if _shape_rtp(shape, basis) == target:
            return value, value, shape
        rtp = _strategy_rtp(shape, nets, basis)
        slope = sympy.diff(rtp, x)
        if slope.free_symbols or slope < 0:
            raise OddsError(
                f"bet {bet}: with a player's decision, {key} is solved where the RTP rises "
                "linearly with it; here it does not"
            )
        below = _shape_rtp(shape, basis) < target
        roots = _real_roots(sympy.Eq(rtp, _rational(target)), x) if slope else []
        if roots and roots[0].is_Rational and _accepted(evaluator, key, roots[0]):
            value = fraction_of(roots[0])
            continue
        if not below:  # flat above the target, or its root refused below: none reaches it
            return None, value, shape
        # Below the target, on a strategy whose line is flat or whose root the paytable
        # refuses: a strategy of larger values may still reach it; climb to one that does.
        higher = _climb(evaluator, bet, key, basis, target, value)
        if higher is None:
            return None, value, shape
        value = higher
    raise OddsError(f"bet {bet}: the optimal strategy changed {MAX_STRATEGIES} times; not solved")


def _climb(
    evaluator: Evaluator, bet: str, key: str, basis: str, target: Fraction, value: Fraction
) -> Fraction | None:
    """A larger value whose optimal RTP reaches the target, by doubling steps (1, 2, 4 …
    units more) within the entry's bounds; ``None`` when none does up to 2^40 more."""
    for power in range(41):
        higher = value + 2**power
        shapes = evaluator.shapes({key: higher})
        if shapes is None:
            return None  # past what the paytable accepts
        if _shape_rtp(shapes[bet], basis) >= target:
            return higher
    return None


def _solve_decided(
    evaluator: Evaluator,
    bet: str,
    key: str,
    nets: Sequence[sympy.Expr],
    basis: str,
    current: Fraction,
    target_rtp: Fraction,
) -> Solution:
    """:func:`solve` for a bet a player's decision settles: the strategy re-optimised at
    every value, and named at the solution."""
    root, last, shape = _decided_root(evaluator, bet, key, nets, basis, target_rtp, current)
    fair, _, _ = _decided_root(evaluator, bet, key, nets, "stake", Fraction(1), current)
    rtp = _strategy_rtp(shape, nets, basis)
    ev = sympy.expand(rtp - 1) if basis == "stake" else ev_expression(shape.events, nets)
    solutions = () if root is None else (_rational(root),)
    practical = []
    if root is not None:
        near = {Fraction(math.floor(root)), Fraction(math.ceil(root)),
                Fraction(math.floor(root * 2), 2), Fraction(math.ceil(root * 2), 2)}  # fmt: skip
        for v in sorted(near):
            shapes = evaluator.shapes({key: v})
            if shapes is not None:
                practical.append((v, _shape_rtp(shapes[bet], basis)))
    achievable = ""
    if root is None:
        low = next((Fraction(b) for b in entry_bounds(evaluator.paytable.config, key)
                    if b is not None), None)  # fmt: skip
        at = evaluator.shapes({key: low}) if low is not None else None
        if at is not None:
            from odds.core.numbers import percent

            where = "per unit staked" if basis == "stake" else "per unit debited"
            achievable = (
                f"RTP {where} {percent(_shape_rtp(at[bet], basis), 4)} at {key} = {low} "
                f"(the strategy optimal there), never falling as {key} grows"
            )
    at_solution = variant(evaluator.paytable, {key: str(last)})
    from odds.games.defined.decision_tables import strategy_line

    strategy = strategy_line(at_solution.game, at_solution.config)  # type: ignore[arg-type]
    return Solution(bet, key, basis, current, target_rtp, ev, rtp, solutions,
                    () if fair is None else (_rational(fair),), tuple(practical), (), achievable,
                    strategy, last)  # fmt: skip


def _accepted(evaluator: Evaluator, key: str, root: sympy.Expr) -> bool:
    """Whether the paytable loader and the game accept this value of ``key``."""
    try:
        return evaluator.shapes({key: fraction_of(root)}) is not None
    except OddsError:
        return False


def _achievable(
    paytable: Paytable, evaluator: Evaluator, key: str, rtp: sympy.Expr, basis: str
) -> str:
    """The RTPs valid values reach: the RTP at each bound the entry has, and which way it goes."""
    from odds.core.numbers import percent

    x = symbol_for(key)
    bounds = [b for b in entry_bounds(paytable.config, key) if b is not None]
    valid = [Fraction(b) for b in bounds if evaluator.shapes({key: Fraction(b)}) is not None]
    where = "per unit staked" if basis == "stake" else "per unit debited"
    parts = [f"RTP {where} {percent(value_at(rtp, x, b), 4)} at {key} = {b}" for b in valid]
    slope = sympy.sympify(sympy.diff(rtp, x))
    if len(valid) == 1 and not slope.free_symbols and slope != 0:
        grows = valid[0] == min(bounds)  # the other side is open: the entry can only grow
        rising = (slope > 0) == grows
        moving = "grows" if grows else "shrinks"
        parts[0] += f", {'rising' if rising else 'falling'} as {key} {moving}"
    return "; ".join(parts)


def _real_roots(equation: sympy.Eq, x: sympy.Symbol) -> list[sympy.Expr]:
    roots = sympy.solve(equation, x)
    return sorted((r for r in roots if r.is_real), key=lambda r: float(r))


def formula_text(expr: sympy.Expr) -> str:
    """A formula with exact rational coefficients: ``31*payouts.pair/415 - 384/415``."""
    return sympy.sstr(sympy.expand(expr))


def value_text(expr: sympy.Expr) -> str:
    """An exact value and its decimal: ``1121/100 (= 11.21)``."""
    if expr.is_Rational and expr.q == 1:
        return str(expr.p)
    return f"{sympy.sstr(expr)} (≈ {sympy.N(expr, 12)})"


def _units(value: Fraction) -> str:
    """Whole and half units as people write payouts: ``11``, ``11.5``."""
    return str(value.numerator) if value.denominator == 1 else str(float(value))


def no_solution_line(solution: Solution) -> str:
    """Why a solve failed, in one line (``odds solve`` says it on stderr and exits 1)."""
    from odds.core.numbers import percent

    basis = "per unit staked" if solution.basis == "stake" else "per unit debited"
    achievable = f"; achievable: {solution.achievable}" if solution.achievable else ""
    return (
        f"no solution: no value of {solution.key} the paytable accepts gives bet "
        f"{solution.bet} RTP {percent(solution.target, 4)} {basis}{achievable}"
    )


def solution_text(solution: Solution) -> str:
    """The answer for the terminal."""
    from odds.core.numbers import percent
    from odds.output.markdown import markdown_table

    basis = "per unit staked" if solution.basis == "stake" else "per unit debited"
    lines = [
        f"Bet {solution.bet}, varying {solution.key} (now {solution.current}).",
        "",
        f"EV per unit staked = {formula_text(solution.ev)}",
        f"RTP {basis} = {formula_text(solution.rtp)}",
        "",
    ]
    if solution.strategy:
        at = "the solution" if solution.solutions else f"{solution.key} = {solution.strategy_at}"
        lines[1:1] = [
            "",
            "A player's decision settles this bet: the strategy is re-optimised at every value "
            f"tried. The optimal strategy at {at}: {solution.strategy}. The formulas below are "
            "that strategy's (they hold while it stays optimal); every RTP stated is exact, "
            "under the strategy optimal at its value.",
        ]
    if solution.solutions:
        for root in solution.solutions:
            lines.append(
                f"{solution.key} = {value_text(root)} gives RTP {percent(solution.target, 4)} "
                f"{basis} exactly."
            )
    else:
        lines.append(
            f"No valid payout reaches that target: no value of {solution.key} the paytable "
            f"accepts gives RTP {percent(solution.target, 4)} {basis}."
        )
        for root in solution.refused:
            lines.append(
                f"({solution.key} = {value_text(root)} would, but the paytable refuses that value.)"
            )
        if solution.achievable:
            lines.append(f"Achievable with valid values: {solution.achievable}.")
    for root in solution.fair:
        lines.append(f"Break-even (fair, EV = 0): {solution.key} = {value_text(root)}.")
    if solution.practical:
        lines += ["", "Nearest practical values (whole and half units):", ""]
        rows = [
            (_units(v), f"{percent(r, 4)}", str(r), "yes" if r >= solution.target else "no")
            for v, r in solution.practical
        ]
        lines.append(
            markdown_table((solution.key, f"RTP {basis}", "exact RTP", "meets target"), rows, 2)
        )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# odds report --symbolic


def symbolic_ev(paytable: Paytable) -> dict[str, sympy.Expr]:
    """Each bet's EV as a formula of every paytable entry it depends on.

    Each entry is first varied alone (its univariate degree per event); an
    event that depends on several entries is interpolated over the grid of
    their sample values (tensor-product Lagrange) and the whole formula is
    confirmed at one point where every entry differs from the paytable.
    """
    evaluator = Evaluator(paytable)
    analysis = paytable.bet_analysis()
    entries = evaluator.entries
    result: dict[str, sympy.Expr] = {}
    for bet in analysis.bets:
        count = len(bet.outcomes)
        # For each entry: the sample values and the events whose net depends on it.
        samples: dict[str, list[Fraction]] = {}
        depends: dict[int, list[str]] = {i: [] for i in range(count)}
        for key in entries:
            nets, _, values = univariate(evaluator, bet.name, key)
            x = symbol_for(key)
            for i, net in enumerate(nets):
                if x in sympy.sympify(net).free_symbols:
                    depends[i].append(key)
                    degree = sympy.degree(net, x)
                    samples[key] = values[: max(len(samples.get(key, [])), degree + 1)]
        formulas = [
            _multivariate(evaluator, bet.name, i, depends[i], samples) for i in range(count)
        ]
        ev = ev_expression([(o.event, o.ways) for o in bet.outcomes], formulas)
        _confirm(evaluator, bet.name, ev, formulas, samples)
        result[bet.name] = ev
    return result


def _multivariate(
    evaluator: Evaluator, bet: str, index: int, keys: list[str], samples: dict[str, list[Fraction]]
) -> sympy.Expr:
    base = evaluator.shapes({})
    assert base is not None
    if not keys:
        return _rational(base[bet].nets[index])
    total: sympy.Expr = sympy.Integer(0)
    for corner in itertools.product(*(samples[k] for k in keys)):
        shapes = evaluator.shapes(dict(zip(keys, corner, strict=True)))
        if shapes is None:
            raise OddsError(f"bet {bet}: cannot evaluate at {dict(zip(keys, corner, strict=True))}")
        term: sympy.Expr = _rational(shapes[bet].nets[index])
        for key, value in zip(keys, corner, strict=True):
            x = symbol_for(key)
            for other in samples[key]:
                if other != value:
                    term *= (x - _rational(other)) / (_rational(value) - _rational(other))
        total += term
    return sympy.expand(total)


def _confirm(
    evaluator: Evaluator,
    bet: str,
    ev: sympy.Expr,
    formulas: list[sympy.Expr],
    samples: dict[str, list[Fraction]],
) -> None:
    """Check the formula where every entry it uses takes a value not used to fit it."""
    if not samples:
        return
    for attempt in range(12):
        changes = {}
        for key, used in samples.items():
            fresh = [v for v in evaluator.candidates(key) if v not in used]
            changes[key] = fresh[attempt % len(fresh)]
        shapes = evaluator.shapes(changes)
        if shapes is None:
            continue
        subs = {symbol_for(k): _rational(v) for k, v in changes.items()}
        for i, formula in enumerate(formulas):
            if sympy.sympify(formula).subs(subs) != _rational(shapes[bet].nets[i]):
                raise OddsError(f"bet {bet}: its nets are not polynomial in the paytable entries")
        return
    raise OddsError(f"bet {bet}: could not confirm the EV formula at any valid point")


SYMBOLIC_NOTE = (
    "Exact: found by re-running the analysis at other values of each entry and "
    "interpolating each event's net payout (event ways do not depend on payouts), then "
    "confirmed at a point where every entry differs."
)


def symbolic_table(paytable: Paytable) -> Table:
    """Each bet's EV as a formula of its paytable entries (``odds report --symbolic``)."""
    rows = tuple({"bet": bet, "ev": formula_text(ev)} for bet, ev in symbolic_ev(paytable).items())
    return Table(
        key="symbolic_ev",
        title="EV as a formula of the paytable entries",
        columns=(Column("bet", "bet"), Column("ev", "EV per unit staked")),
        rows=rows,
        note=SYMBOLIC_NOTE,
        json_index="bet",
    )


def with_symbolic(analysis: Analysis, table: Table) -> Analysis:
    """The analysis with the formula table added to its tables."""
    return dataclasses.replace(analysis, tables=(*analysis.tables, table))


def solution_tables(solution: Solution) -> list[Table]:
    """``odds solve --format json``: formulas as text, exact values as fraction strings.

    The question and its exact answers, the nearest practical values (a table,
    as the text shows it), then the values the paytable refuses.
    """
    roots = Kind.LIST
    answer = fields_table(
        "solution",
        "The solution",
        [
            (Column("bet", "bet"), solution.bet),
            (Column("vary", "entry varied"), solution.key),
            (Column("basis", "basis"), solution.basis),
            (Column("current", "current value", Kind.EXACT), solution.current),
            (Column("target_rtp", "target RTP", Kind.EXACT), solution.target),
            (Column("ev", "EV per unit staked"), formula_text(solution.ev)),
            (Column("rtp", "RTP"), formula_text(solution.rtp)),
            (Column("solutions", "solutions", roots), [sympy.sstr(r) for r in solution.solutions]),
            (Column("break_even", "break-even", roots), [sympy.sstr(r) for r in solution.fair]),
            *(
                [(Column("strategy", "optimal strategy at the solution"), solution.strategy)]
                if solution.strategy
                else []
            ),
        ],
    )
    practical = Table(
        key="practical",
        title="Nearest practical values (whole and half units)",
        columns=(
            Column("value", solution.key, Kind.EXACT),
            Column("rtp", "exact RTP", Kind.EXACT),
            Column("meets_target", "meets target", Kind.FLAG),
        ),
        rows=tuple(
            {"value": value, "rtp": rtp, "meets_target": rtp >= solution.target}
            for value, rtp in solution.practical
        ),
    )
    refused = fields_table(
        "refused",
        "Values refused",
        [
            (Column("refused", "refused", roots), [sympy.sstr(r) for r in solution.refused]),
            (Column("achievable", "achievable"), solution.achievable),
        ],
    )
    return [answer, practical, refused]
