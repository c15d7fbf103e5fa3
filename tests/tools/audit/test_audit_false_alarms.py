"""An honest log is flagged with probability at most α, at any number of rounds, on every path.

Honest logs are not dealt and written here: their counts are drawn directly
from the exact distribution (numpy's multinomial over each bet's outcomes and
over each position's hand classes), many logs at once, and judged by the
audit's own merging rule, p-value functions and Tarone threshold. By the union
bound the audit's false-alarm rate is at most the sum of its tests' rejection
rates, so the test counts every rejection of every test over the seeded honest
logs and requires the total to stay within α per log (plus binomial noise).
With the large-sample approximations at every size (the audit before exact and
Monte Carlo p-values) the same check fails.

The check runs per path, not per game: the rate is a property of the p-value
method each test takes (exact binomial, exact total, Monte Carlo, chi-square,
normal), and Pok Deng's tests take every one but a return's Monte Carlo, which
only 6-Card Bonus's long-shot payouts take (there, the normal approximation at
10,000 rounds flagged an honest log three times too often). The last test says
that the two still cover every method.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import odds.stats.significance as significance
from odds.games.paytable import load_file, table_files
from odds.stats.chisquare import merge_plan
from odds.stats.significance import chi_square_ps, return_ps, tarone
from odds.tools.audit.audit import net_distribution

SIZES = (1, 5, 20, 100, 10_000)
LOGS = 2000
ALPHA = 0.01
#: The tables whose tests take every p-value method between them (see the module docstring).
TABLES = [p for p in table_files() if p.stem in ("pok-deng", "six-card-bonus")]
#: Each method a test took, (kind, method), over the logs judged so far.
TAKEN: set[tuple[str, str]] = set()


def _allowed(logs: int, alpha: float) -> float:
    """Rejections an honest audit may show over ``logs`` logs: α·logs plus 3 SD of noise."""
    expected = alpha * logs
    return expected + 3 * math.sqrt(expected) + 1


def _label_cells(rows: list[tuple[str, int]]) -> tuple[list[str], list[int]]:
    labels: dict[str, int] = {}
    for label, ways in rows:
        labels[label] = labels.get(label, 0) + ways
    return list(labels), list(labels.values())


def _tests(analysis, positions):
    """Each test of an audit: (name, kind, outcome probabilities, outcome → column mapping).

    Outcomes are what is drawn (a bet's outcome rows, a position's hand classes);
    a chi-square's columns are its label cells, a return's columns its distinct nets.
    """
    found = []
    for bet in analysis.bets:
        total = bet.stats.total
        probabilities = [Fraction(o.ways, total) for o in bet.outcomes]
        labels, ways = _label_cells([(o.event, o.ways) for o in bet.outcomes])
        columns = [labels.index(o.event) for o in bet.outcomes]
        cells = [Fraction(w, total) for w in ways]
        found.append((f"bet {bet.name}: outcome events", "fit", probabilities, columns, cells))
        nets = net_distribution(bet)
        columns = [[net for net, _ in nets].index(o.net) for o in bet.outcomes]
        found.append((f"return of {bet.name}", "return", probabilities, columns, nets))
    total = sum(analysis.hand_classes.values())
    classes = [Fraction(w, total) for w in analysis.hand_classes.values()]
    for position in positions:
        columns = list(range(len(classes)))
        found.append((f"hand classes: {position}", "fit", classes, columns, classes))
    return found


def _p_values(name, kind, columns, cells, draws, n):
    """The audit's p-values for simulated logs (one row of outcome counts per log)."""
    counts = np.zeros((len(draws), len(cells)), dtype=np.int64)
    for outcome, column in enumerate(columns):
        counts[:, column] += draws[:, outcome]
    if kind == "return":
        return return_ps(name, cells, counts)
    plan = merge_plan(tuple(cells), n)
    if len(plan) < 2:
        return None  # not testable: the audit says "too few rounds"
    merged = np.stack([counts[:, list(group)].sum(axis=1) for group in plan], axis=1)
    probabilities = [sum((cells[i] for i in group), Fraction(0)) for group in plan]
    return chi_square_ps(name, probabilities, merged)


def rejections(paytable, analysis, n: int, logs: int, alpha: float, seed: int) -> int:
    """Rejections by every test, summed over ``logs`` seeded honest logs of ``n`` rounds."""
    rng = np.random.default_rng(seed)
    results = []
    for name, kind, probabilities, columns, cells in _tests(analysis, paytable.game.positions):
        p = np.array([float(x) for x in probabilities])
        draws = rng.multinomial(n, p / p.sum(), size=logs)
        results.append(_p_values(name, kind, columns, cells, draws, n))
        if results[-1] is not None:
            TAKEN.add((kind, results[-1].method))
    floors = [1.0 if r is None else r.floor for r in results]
    k, judged = tarone(floors, alpha)
    return sum(
        int((r.values < alpha / k).sum())
        for r, j in zip(results, judged, strict=True)
        if j and r is not None
    )


@pytest.fixture(scope="module", params=TABLES, ids=[p.stem for p in TABLES])
def table(request):
    """A paytable and the analysis the audit judges a log against: its bets alone
    (``Paytable.bet_analysis``, what :func:`odds.tools.audit.audit.audit` reads), the same
    bets' outcomes and hand classes as the full report's without its game tables and charts."""
    paytable = load_file(request.param)
    return paytable, paytable.bet_analysis()


def test_honest_logs_are_flagged_at_most_alpha_of_the_time(table):
    paytable, analysis = table
    for n in SIZES:
        found = rejections(paytable, analysis, n, LOGS, ALPHA, seed=n)
        assert found <= _allowed(LOGS, ALPHA), (paytable.source, n, found)


def test_the_tables_checked_take_every_method():
    """The tables checked take every p-value method there is, between them."""
    for path in TABLES:
        paytable = load_file(path)
        for n in SIZES:
            rejections(paytable, paytable.bet_analysis(), n, 10, ALPHA, seed=n)
    methods = {
        significance.EXACT,
        significance.EXACT_SUM,
        significance.MONTE_CARLO,
        significance.CHI_SQUARE,
        significance.NORMAL,
    }
    returns = methods - {significance.CHI_SQUARE}
    fits = methods - {significance.EXACT_SUM, significance.NORMAL}
    assert {("return", m) for m in returns} | {("fit", m) for m in fits} <= TAKEN


def test_the_check_fails_with_large_sample_approximations_at_every_size(monkeypatch):
    """Today's normal approximation at 1 round: a single pair is a '3.5 SD' event."""
    paytable = load_file(next(p for p in TABLES if p.stem == "pok-deng"))
    analysis = paytable.bet_analysis()
    monkeypatch.setattr(significance, "ASYMPTOTIC_FROM", 1)
    monkeypatch.setattr(significance, "NORMAL_FROM_EXPECTED", 0)
    found = rejections(paytable, analysis, 1, LOGS, ALPHA, seed=1)
    assert found > _allowed(LOGS, ALPHA)


def test_detection_is_kept_at_small_sizes(pok_deng, pok_deng_analysis):
    """A log where the player's pairs come three times as often is flagged at 100 rounds."""
    analysis = pok_deng_analysis
    bet = analysis.bet("player-pair")
    nets = net_distribution(bet)
    rng = np.random.default_rng(7)
    pair = Fraction(next(o.ways for o in bet.outcomes if o.net > 0), bet.stats.total)
    wins = rng.binomial(100, float(3 * pair), size=500)
    counts = np.stack([100 - wins, wins], axis=1)  # nets sorted: loss first
    assert [net for net, _ in nets] == [-1, 11]
    p = return_ps("return of player-pair", nets, counts)
    assert (p.values < ALPHA / 6).mean() > 0.5
