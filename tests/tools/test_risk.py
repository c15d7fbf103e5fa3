"""The operator's shift risk (odds report --shift) and the player's risk (odds exposure)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from odds.core.errors import OddsError
from odds.games.paytable import load
from odds.tools.shift import RoundResult, fft_bound, parse_shifts, shift_risk, shift_tables
from odds.tools.shoe.risk import bankroll_for, n0, parse_risks


@pytest.fixture(scope="module")
def baccarat():
    return load("baccarat").analyse()


def _brute(result: RoundResult, rounds: int):
    """Every sequence of ``rounds`` per-round results, one by one (no lattice, no multinomial)."""
    items = list(result.ways.items())
    total = result.total**rounds
    loses = even = 0
    holds = []
    for combo in itertools.product(items, repeat=rounds):
        player = sum(v for v, _ in combo)
        ways = math.prod(w for _, w in combo)
        loses += ways if player > 0 else 0
        even += ways if player == 0 else 0
        holds.append((-player / rounds, ways))
    holds.sort()
    band = []
    for q in (Fraction(5, 100), Fraction(95, 100)):
        cumulative = 0
        for hold, ways in holds:
            cumulative += ways
            if cumulative >= q * total:
                band.append(hold)
                break
    return Fraction(loses, total), Fraction(even, total), band


@pytest.mark.parametrize("bet", ["banker", "player", "tie", "dragon-bonus-player"])
def test_exact_three_round_shift_equals_brute_force_enumeration(baccarat, bet):
    result = RoundResult.of_bet(baccarat.bet(bet))
    risk = shift_risk(result, 3, "exact")
    loses, even, (low, high) = _brute(result, 3)
    assert risk.house_loses_exact == loses
    assert risk.even == float(even)
    # The hold's quantiles: brute force sorts holds ascending; the 5% hold is the low end.
    assert (risk.hold_low, risk.hold_high) == (low, high)


def test_fft_agrees_with_exact_within_its_stated_bound(baccarat):
    result = RoundResult.of_bet(baccarat.bet("banker"))
    exact = shift_risk(result, 100, "exact")
    fft = shift_risk(result, 100, "fft")
    assert fft.error == fft_bound(100, 3, 39 * 100 + 1)
    assert abs(fft.house_loses - float(exact.house_loses_exact)) <= fft.error
    assert abs(fft.even - exact.even) <= fft.error
    assert (fft.hold_low, fft.hold_high) == (exact.hold_low, exact.hold_high)


def test_normal_is_within_its_berry_esseen_bound(baccarat):
    for bet in ("banker", "tie", "dragon-7"):
        result = RoundResult.of_bet(baccarat.bet(bet))
        exact = shift_risk(result, 100, "exact")
        normal = shift_risk(result, 100, "normal")
        assert normal.method == "normal approximation"
        assert abs(normal.house_loses - float(exact.house_loses_exact)) <= normal.error


@pytest.mark.parametrize(("bet", "rounds"), [("banker", 100), ("tie", 1000), ("dragon-7", 1000)])
def test_shift_risk_equals_a_seeded_simulation_within_its_interval(baccarat, bet, rounds):
    result = RoundResult.of_bet(baccarat.bet(bet))
    risk = shift_risk(result, rounds)
    values = np.array([float(v) for v in result.ways])
    p = np.array([w / result.total for w in result.ways.values()])
    rng = np.random.default_rng(20261201)
    shifts = 20_000
    totals = np.zeros(shifts)
    for _ in range(rounds):
        totals += rng.choice(values, size=shifts, p=p)
    simulated = float(np.mean(totals > 1e-9))
    half = 4.5 * math.sqrt(risk.house_loses * (1 - risk.house_loses) / shifts)
    assert abs(simulated - risk.house_loses) <= half
    holds = -totals / rounds
    assert np.mean(holds < float(risk.hold_low)) <= 0.05 + 0.01
    assert np.mean(holds > float(risk.hold_high)) <= 0.05 + 0.01


def test_the_method_is_chosen_by_the_work_and_says_so(baccarat):
    banker = RoundResult.of_bet(baccarat.bet("banker"))
    assert shift_risk(banker, 100).method.startswith("exact")
    assert shift_risk(banker, 10_000).method.startswith("FFT")
    assert shift_risk(banker, 1_000_000).method == "normal approximation"
    with pytest.raises(OddsError, match="at least one round"):
        shift_risk(banker, 0)


def test_shift_tables_and_liability():
    paytable = load("dragon-tiger")
    risk, liability = shift_tables(paytable, (100,), Fraction(5000))
    assert {row["rounds"] for row in risk.rows} == {100}
    tie = {row["bet"]: row for row in liability.rows}["Tie"]
    assert tie["liability"] == 5000 * max(o.net for o in paytable.analyse().bet("tie").outcomes)


def test_report_has_the_shift_section_only_when_asked(run):
    code, out, _ = run("report", "dragon-tiger")
    assert code == 0 and "Operator's risk" not in out
    code, out, _ = run("report", "dragon-tiger", "--shift", "100,200", "--table-max", "500")
    assert code == 0
    assert "## Operator's risk" in out and "### Maximum liability in one round" in out
    code, out, _ = run("report", "dragon-tiger", "--shift", "100", "--format", "json")
    assert code == 0 and '"shift_risk"' in out and '"house_loses_exact"' in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--shift", "0"), "out of range"),
        (("--shift", "1e3"), "whole numbers of rounds"),
        (("--table-max", "5"), "give --shift too"),
        (("--shift", "100", "--table-max", "-5"), "must be positive"),
    ],
)
def test_bad_shift_options_are_one_line_errors(run, args, message):
    code, out, err = run("report", "dragon-tiger", *args)
    assert code == 2 and out == "" and message in err and len(err.splitlines()) == 1


def test_parse_shifts_keeps_order_and_drops_repeats():
    assert parse_shifts("1000,100,1000") == (1000, 100)


# ---------------------------------------------------------------------------
# The player's risk: the diffusion approximation against a simulated random walk


def test_risk_of_ruin_formula_against_a_seeded_random_walk():
    # Steps of ±1 with drift μ = 0.05 (σ² = 1 − μ²), started at the bankroll the formula
    # gives for a 5% risk of ruin: the share of walkers ruined is that risk. A long horizon
    # stands in for "ever" (40 times the bankroll's expected crossing, 30 / 0.05 = 600 steps);
    # the rounding of the bankroll and the diffusion approximation move the risk by < 0.001.
    mu, risk = 0.05, 0.05
    variance = 1 - mu**2
    start = round(bankroll_for(mu, variance, risk))
    rng = np.random.default_rng(7)
    walkers, horizon = 2_000, 2_000
    steps = np.where(rng.random((walkers, horizon)) < (1 + mu) / 2, 1, -1).astype(np.int32)
    paths = start + np.cumsum(steps, axis=1)
    ruined = float(np.mean(paths.min(axis=1) <= 0))
    assert abs(ruined - risk) <= 4 * math.sqrt(risk * (1 - risk) / walkers) + 0.005


def test_n0_against_a_seeded_random_walk():
    # After N0 rounds the mean win equals one SD: P(behind) ≈ Φ(−1) ≈ 15.9%.
    mu, sd = 0.02, 1.0
    rounds = round(n0(mu, sd**2))
    rng = np.random.default_rng(11)
    totals = rng.normal(mu * rounds, sd * math.sqrt(rounds), size=20_000)
    assert abs(float(np.mean(totals)) / float(np.std(totals)) - 1) < 0.03


def test_no_edge_means_certain_ruin():
    assert bankroll_for(-0.01, 1, 0.05) == math.inf


def test_exposure_ends_with_the_player_risk(run):
    code, out, err = run(
        "exposure",
        "dragon-tiger",
        "--decks",
        "1",
        "--shoes",
        "6",
        "--workers",
        "1",
        "--ruin",
        "1%,10%",
    )
    assert code == 0, err
    assert "## The player's risk (diffusion approximation)" in out
    assert "bankroll, 10% ruin" in out and "R = exp(−2·μ·B/σ²)" in out
    assert "watching player" in out and "counter" in out


def test_the_players_risk_reads_the_bets_analysis_alone(run, monkeypatch):
    """The variances it needs are the bets': Pok Deng's full report analysis (its whole
    table, ~1 s of the command's fixed cost) is never counted."""
    from odds.games.paytable import Paytable

    def refused(self):
        raise AssertionError("odds exposure counted the full report analysis")

    monkeypatch.setattr(Paytable, "analysis", refused)
    code, out, err = run("exposure", "pok-deng", "--shoes", "2", "--workers", "1")
    assert code == 0, err
    assert "## The player's risk (diffusion approximation)" in out


def test_bad_ruin_is_refused():
    with pytest.raises(OddsError, match="above 0 and below 100%"):
        parse_risks("0%")


def test_pok_deng_whole_table_is_labelled_and_its_liability_bounds_every_round(pok_deng):
    from odds.games.defined.whole_table import Stakes, whole_table
    from odds.tools.shift import mix_result

    result, liability = mix_result(pok_deng)
    assert not result.exact and not liability.exact  # eight decks: a seeded simulation
    assert liability.stake == 10  # five positions, one unit on each of two bets
    assert liability.top == Fraction(5 * (2 + 11), 10)  # every top award at once, per unit
    assert max(result.ways) <= liability.top
    risk = shift_risk(result, 100)
    assert risk.estimated
    # The simulated round is the one the report checks against the exact whole-table moments.
    table = whole_table(pok_deng.game, pok_deng.config, pok_deng.bet_analysis().bets)
    check = table.simulation_check(Stakes.each(table.names))
    assert check.consistent
    assert result.mean == check.mean / 10
