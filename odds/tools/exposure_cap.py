"""``odds solve --max-exposure``: a solved payout whose exposure stays under a cap.

The cap is on the figure ``odds exposure`` reports for the solved bet: what a
watching player — one who stakes 1 unit only when the bet's exact EV for the
unseen cards is positive — wins per shoe (per set, for the tile sets), per unit
bet. Every value is applied through the strict paytable loader
(:func:`odds.tools.variants.variant`) and its exposure is computed by the very call
``odds exposure`` makes (:func:`odds.tools.shoe.questions.exposure`): exact where
every state can be enumerated, else a seeded simulation of ``--shoes`` shoes.

When the value solved for the target RTP is over the cap, the nearest value
within it is searched in the direction that lowers the bet's RTP, on a grid of
``step`` (whole and half units by default), down (or up) to the entry's bound:
the far end first (over the cap there: no value is, and the search says so),
then bisection. Bisection assumes the exposure is monotone along the grid; that
is checked on every value tried, and a value that breaks it stops the search
with what was found. The work is bounded before the first evaluation:
``1 + 1 + ⌈log2 n⌉`` exposure studies for ``n`` grid values, refused over
:data:`MAX_EVALUATIONS`.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import sympy

from odds.core.errors import OddsError
from odds.core.numbers import decimal, fraction_text, percent, short_number
from odds.core.table import Column, Kind, Table, fields_table
from odds.games.paytable import Paytable
from odds.runtime.progress import phase
from odds.tools.solve import Solution, fraction_of, symbol_for, value_at
from odds.tools.variants import entry_bounds, variant

#: The most exposure studies one search may start (2 + ⌈log2 n⌉ for n grid values).
MAX_EVALUATIONS = 24
#: The grid's default step: whole and half units, as the practical values.
DEFAULT_STEP = Fraction(1, 2)


@dataclass(frozen=True)
class Study:
    """How the exposure is computed: as ``odds exposure`` would, with these settings."""

    shoes: int | None = None
    seed: int = 1
    workers: int | None = None
    simulate: bool = False  # simulate even where the exact study applies (odds exposure --simulate)


@dataclass(frozen=True)
class Trial:
    """One value of the entry and its exposure on the solved bet."""

    value: Fraction
    rtp: Fraction  # exact, on the solve's basis
    method: str  # exact, simulated or nil
    exact: Fraction | None  # the watcher's gain per shoe, exact (exact and nil studies)
    mean: float  # the same as a decimal, or the simulation's estimate
    low: float | None = None  # the simulation's 95% interval
    high: float | None = None
    reason: str = ""  # why the simulation gives no interval
    within: bool = False

    @property
    def judged(self) -> float | Fraction:
        """The figure compared with the cap: the exact gain, else the simulation's mean (the
        figure odds exposure states; with the same shoes for every value it moves with the
        payout shoe by shoe, where the bootstrap interval's ends need not)."""
        return self.exact if self.exact is not None else self.mean

    def figure_text(self) -> str:
        if self.exact is not None:
            return decimal(self.exact, 6)
        if self.high is None or self.low is None:
            return f"{self.mean:.4f} (no interval: {self.reason})"
        return f"{self.mean:.4f} [{self.low:.4f}, {self.high:.4f}]"


@dataclass(frozen=True)
class Capped:
    """The answer of ``odds solve --max-exposure``."""

    bet: str
    key: str
    basis: str
    cap: Fraction
    step: Fraction
    unit: str  # set (tile sets, exact) or shoe
    method: str
    study: Study
    target: sympy.Expr  # the value solved for the target RTP
    target_value: Fraction | None  # the same, when rational (a value the loader can take)
    target_rtp: Fraction
    trials: tuple[Trial, ...]  # in the order they were run
    lowering: str  # "down" or "up": the way the RTP falls
    grid: tuple[Fraction, Fraction, int] | None  # first, last, how many (None: no search)
    most: int  # the evaluations the search could take, said before it started
    chosen: Trial | None
    refusal: str = ""

    @property
    def tried(self) -> list[Trial]:
        """Every value tried, from the target outward (the direction that lowers the RTP)."""
        sign = -1 if self.lowering == "down" else 1
        return sorted(self.trials, key=lambda t: sign * t.value)

    @property
    def neighbour(self) -> Trial | None:
        """The value tried next to the chosen one toward the target (over the cap)."""
        if self.chosen is None:
            return None
        tried = self.tried
        at = tried.index(self.chosen)
        return tried[at - 1] if at else None


def parse_cap(text: str) -> Fraction:
    """``--max-exposure 0.05``: an exact number of units, at least 0."""
    from odds.core.numbers import parse_rational

    cap = parse_rational(text, "--max-exposure", percent=False)
    if cap < 0:
        raise OddsError(f"--max-exposure must be at least 0 units, got {text}")
    return cap


def parse_step(text: str) -> Fraction:
    """``--step 1/2``: the grid the search walks, greater than 0."""
    from odds.core.numbers import parse_rational

    step = parse_rational(text, "--step")
    if step <= 0:
        raise OddsError(f"--step must be greater than 0, got {text}")
    return step


def evaluate(
    paytable: Paytable, bet: str, key: str, value: Fraction, rtp: Fraction, study: Study
) -> Trial:
    """The exposure of ``bet`` with ``key = value``: the call ``odds exposure`` makes."""
    from odds.tools.shoe import questions

    try:
        changed = variant(paytable, {key: fraction_text(value)})
    except OddsError as exc:
        raise OddsError(f"{key} = {value}: {exc}; give a --step whose values it accepts") from None
    result = questions.exposure(
        changed, study.shoes, study.seed, study.workers, simulate=study.simulate
    )
    if result.nil or result.evaluator is None:
        return Trial(value, rtp, "nil", Fraction(0), 0.0)
    if bet not in {b.name for b in result.evaluator.bets}:
        raise OddsError(f"bet {bet} is not in {paytable.game.name}'s exposure study")
    if result.exact is not None:
        gain = result.exact.per_set_gain(bet)
        return Trial(value, rtp, "exact", gain, float(gain))
    assert result.simulated is not None
    (found,) = [b for b in result.simulated.bets if b.name == bet]
    w = found.watcher
    return Trial(value, rtp, "simulated", None, w.mean, w.low, w.high, w.reason)


class _Grid:
    """Multiples of ``step`` strictly beyond ``start`` toward ``bound``, then ``bound`` itself
    when it is not one of them (indexed arithmetically: never a list of every value)."""

    def __init__(self, start: Fraction, bound: Fraction, step: Fraction, down: bool) -> None:
        self.step, self.down, self.bound = step, down, bound
        if down:
            self.k0 = math.ceil(start / step) - 1
            self.k1 = math.ceil(bound / step)
            self.count = max(0, self.k0 - self.k1 + 1)
        else:
            self.k0 = math.floor(start / step) + 1
            self.k1 = math.floor(bound / step)
            self.count = max(0, self.k1 - self.k0 + 1)
        beyond = bound < start if down else bound > start
        self.extra = beyond and (self.count == 0 or self[self.count - 1] != bound)

    def __len__(self) -> int:
        return self.count + int(self.extra)

    def __getitem__(self, i: int) -> Fraction:
        if i == self.count:
            return self.bound
        return (self.k0 - i if self.down else self.k0 + i) * self.step


def evaluations(n: int, target_tried: bool) -> int:
    """The most exposure studies a search over ``n`` grid values takes."""
    return int(target_tried) + 1 + math.ceil(math.log2(n)) if n else int(target_tried)


def capped(
    paytable: Paytable,
    solution: Solution,
    cap: Fraction,
    study: Study = Study(),
    step: Fraction = DEFAULT_STEP,
) -> Capped:
    """The solved value if its exposure is within ``cap``, else the nearest one that is."""
    key, bet = solution.key, solution.bet
    x = symbol_for(key)
    root = solution.solutions[0]
    exact_root = fraction_of(root) if root.is_Rational else None
    start = exact_root if exact_root is not None else Fraction(float(root)).limit_denominator()
    slope = sympy.sympify(sympy.diff(solution.rtp, x)).subs(x, sympy.nsimplify(root))
    if slope == 0:
        raise OddsError(f"the RTP of bet {bet} is flat in {key} at the solution; nothing to search")
    down = bool(slope > 0)
    low, high = entry_bounds(paytable.config, key)
    bound = low if down else high
    grid = None if bound is None else _Grid(start, Fraction(bound), step, down)
    n = 0 if grid is None else len(grid)
    most = evaluations(n, exact_root is not None)
    if most > MAX_EVALUATIONS:
        raise OddsError(
            f"--step {step}: {n:,} values to search between {key} = {start} and {bound}, up to "
            f"{most} exposure studies (at most {MAX_EVALUATIONS}); give a larger --step"
        )

    trials: list[Trial] = []
    started = time.perf_counter()
    unit = "shoe"

    def run(value: Fraction) -> Trial:
        nonlocal unit
        label = f"exposure {len(trials) + 1} of at most {most}: {key} = {value}"
        if trials and trials[0].method == "simulated":
            spent = time.perf_counter() - started
            left = spent / len(trials) * (most - len(trials))
            from odds.tools.shoe.simulate import MAX_SECONDS

            if left > MAX_SECONDS:
                raise OddsError(
                    f"--max-exposure: about {left / 3600:,.0f} more hours of simulation "
                    f"({len(trials)} studies took {spent:,.0f} s); at most "
                    f"{MAX_SECONDS // 3600} hours is started: give fewer --shoes"
                )
        with phase(label):
            trial = evaluate(paytable, bet, key, value, value_at(solution.rtp, x, value), study)
        trial = _judge(trial, cap)
        if trial.method == "exact":
            unit = "set"
        trials.append(trial)
        return trial

    def result(chosen: Trial | None, refusal: str = "", searched: bool = True) -> Capped:
        method = trials[0].method if trials else "exact"
        shown = None if grid is None or not searched or not n else (grid[0], grid[n - 1], n)
        return Capped(
            bet,
            key,
            solution.basis,
            cap,
            step,
            unit,
            method,
            study,
            root,
            exact_root,
            solution.target,
            tuple(trials),
            "down" if down else "up",
            shown,
            most,
            chosen,
            refusal,
        )

    if exact_root is not None:
        first = run(exact_root)
        if first.within:
            return result(first, searched=False)
    if grid is None or not n:
        where = "no bound" if grid is None else "no other value"
        figure = f" ({_over_text(trials[0], cap, unit)})" if trials else ""
        return result(
            None,
            f"exposure cap: {key} = {start} gives bet {bet}{figure}, and {key} has {where} "
            f"in the direction that lowers the RTP ({'down' if down else 'up'}) to search",
        )
    far = run(grid[n - 1])
    broken = _monotone(trials, down)
    if broken:
        return result(None, broken)
    if not far.within:
        return result(
            None,
            f"exposure cap: even {key} = {far.value}, the far end of the search, gives bet "
            f"{bet} {_over_text(far, cap, unit)}; no value the paytable accepts holds the cap",
        )
    lo, hi = -1, n - 1  # lo: over the cap (or the target, not on the grid); hi: within it
    while hi - lo > 1:
        mid = (lo + hi) // 2
        trial = run(grid[mid])
        broken = _monotone(trials, down)
        if broken:
            return result(None, broken)
        if trial.within:
            hi = mid
        else:
            lo = mid
    (chosen,) = [t for t in trials if t.value == grid[hi]]
    return result(chosen)


def _judge(trial: Trial, cap: Fraction) -> Trial:
    from dataclasses import replace

    judged = trial.judged
    within = judged <= cap if isinstance(judged, Fraction) else judged <= float(cap)
    return replace(trial, within=within)


def _monotone(trials: list[Trial], down: bool) -> str:
    """A one-line refusal when the values tried are not monotone (non-increasing as the RTP
    falls), or ``""``."""
    ordered = sorted(trials, key=lambda t: -t.value if down else t.value)
    for a, b in itertools.pairwise(ordered):
        if b.judged > a.judged:
            return (
                f"exposure cap: the exposure is not monotone in the values tried "
                f"({a.figure_text()} at {a.value}, {b.figure_text()} at {b.value}, further "
                "toward a lower RTP); the search cannot bisect it"
            )
    return ""


def _over_text(trial: Trial, cap: Fraction, unit: str) -> str:
    return (
        f"a watching player {trial.figure_text()} units per {unit} per unit bet, over the cap "
        f"{short_number(cap)}"
    )


# ---------------------------------------------------------------------------
# Output


def _study_text(c: Capped) -> str:
    if c.method == "exact":
        return "exact, every state of every round enumerated, as odds exposure computes it"
    if c.method == "nil":
        return "nil, the cards are reshuffled after every round"
    forced = " --simulate" if c.study.simulate else ""
    return (
        f"simulated, as odds exposure{forced} --shoes {c.study.shoes} --seed {c.study.seed} "
        "computes it (the same shoes for every value); a value is within the cap when the "
        "simulation's mean is, its 95% interval shown beside it"
    )


def capped_text(c: Capped) -> str:
    """The exposure part of ``odds solve --max-exposure``'s answer."""
    from odds.output.markdown import markdown_table
    from odds.tools.solve import value_text

    basis = "per unit staked" if c.basis == "stake" else "per unit debited"
    lines = [
        "",
        f"Exposure cap: a watching player wins at most {short_number(c.cap)} units per {c.unit} "
        f"per unit bet on bet {c.bet} (the figure odds exposure states).",
        f"Exposure: {_study_text(c)}.",
    ]
    first = c.trials[0] if c.trials else None
    target_tried = first is not None and first.value == c.target_value
    if first is not None and target_tried:
        state = "within" if first.within else "over"
        lines.append(
            f"At the target, {c.key} = {value_text(c.target)}: {first.figure_text()} units per "
            f"{c.unit}, {state} the cap."
        )
    if c.grid is not None:
        start, end, n = c.grid
        way = "down" if c.lowering == "down" else "up"
        lines.append(
            f"Search: {c.key} {way} the grid of {short_number(c.step)} from {short_number(start)} "
            f"to {short_number(end)} ({n:,} values, the way the RTP falls): at most {c.most} "
            "exposure studies in all (the target, the far end, then bisection), the exposure "
            "checked monotone on every value tried."
        )
    if c.trials:
        exact = c.method != "simulated"
        rows = []
        for t in c.tried:
            rows.append(
                (
                    short_number(t.value),
                    percent(t.rtp, 4),
                    str(t.rtp),
                    t.figure_text(),
                    *((str(t.exact),) if exact else ()),
                    short_number(c.cap),
                    "yes" if t.within else "no",
                    "chosen" if t is c.chosen else "",
                )
            )
        header = (
            c.key,
            f"RTP {basis}",
            "exact RTP",
            f"watcher per {c.unit}" + ("" if exact else " [95%]"),
            *(("exact",) if exact else ()),
            "cap",
            "within",
            "",
        )
        lines += ["", markdown_table(header, rows, 2), ""]
    if c.chosen is not None:
        t = c.chosen
        kept = "the target RTP" if t is first and target_tried else "not the target RTP"
        lines.append(
            f"Chosen: {c.key} = {short_number(t.value)} ({kept}): RTP {percent(t.rtp, 4)} {basis} "
            f"(exact {t.rtp}); a watching player wins {t.figure_text()} units per {c.unit} per "
            f"unit bet, within the cap {short_number(c.cap)}."
        )
        if t.exact is None and (t.high is None or t.high > c.cap):
            lines.append(
                "The simulation cannot tell it from the cap: its 95% interval reaches over it "
                "(or no interval is given); more --shoes narrow it."
            )
        near = c.neighbour
        if near is not None:
            lines.append(
                f"One step toward the target, {c.key} = {short_number(near.value)} gives "
                f"{near.figure_text()}: over the cap."
            )
    else:
        lines.append(c.refusal.replace("exposure cap: ", "No value: ", 1) + ".")
    return "\n".join(lines) + "\n"


def capped_tables(c: Capped) -> list[Table]:
    """``odds solve --max-exposure --format json``: the cap, the study, every value tried."""
    simulated = c.method == "simulated"
    fields: list[tuple[Column, Any]] = [
        (Column("max_exposure", "cap (units per shoe, per unit bet)", Kind.EXACT), c.cap),
        (Column("exposure_per", "per"), c.unit),
        (Column("exposure_method", "method"), c.method),
        (Column("exposure_shoes", "shoes", Kind.WAYS), c.study.shoes if simulated else None),
        (Column("exposure_seed", "seed", Kind.WAYS), c.study.seed if simulated else None),
        (Column("exposure_step", "step", Kind.EXACT), c.step),
        (Column("exposure_most_studies", "most exposure studies", Kind.WAYS), c.most),
        (Column("exposure_studies", "exposure studies run", Kind.WAYS), len(c.trials)),
        (
            Column("exposure_chosen", "chosen value", Kind.EXACT),
            None if c.chosen is None else c.chosen.value,
        ),
        (Column("exposure_refusal", "refusal"), c.refusal),
    ]
    tried = Table(
        key="exposure_tried",
        title="Values tried against the exposure cap",
        columns=(
            Column("value", c.key, Kind.EXACT),
            Column("rtp", "exact RTP", Kind.EXACT),
            Column("method", "method"),
            Column("watcher", "watcher per shoe, exact", Kind.EXACT),
            Column("watcher_mean", "watcher per shoe", Kind.APPROXIMATE),
            Column("watcher_low", "95% low", Kind.APPROXIMATE),
            Column("watcher_high", "95% high", Kind.APPROXIMATE),
            Column("within_cap", "within cap", Kind.FLAG),
            Column("chosen", "chosen", Kind.FLAG),
        ),
        rows=tuple(
            {
                "value": t.value,
                "rtp": t.rtp,
                "method": t.method,
                "watcher": t.exact,
                "watcher_mean": t.mean,
                "watcher_low": t.low,
                "watcher_high": t.high,
                "within_cap": t.within,
                "chosen": t is c.chosen,
            }
            for t in c.tried
        ),
    )
    return [fields_table("exposure_cap", "The exposure cap", fields), tried]
