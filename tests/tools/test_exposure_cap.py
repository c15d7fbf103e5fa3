"""odds solve --max-exposure: the value returned is within the cap by ``odds exposure`` itself.

Every check of a returned value runs ``odds exposure`` apart (its JSON, with the value set by
``--set``), so a search that picked a value on the wrong side of the cap, or a study that is
not the one ``odds exposure`` makes, fails here. The mahjong sets' exposure is exact and
quick (one study of Mahjong 2-8 with 36 tiles is a fraction of a second).
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from odds.core.numbers import short_number
from odds.games.paytable import load
from odds.tools import exposure_cap
from odds.tools.exposure_cap import Trial, _Grid, evaluations
from odds.tools.variants import variant

GAME = "mahjong-28-36"
CAP = Fraction(1, 20)
SOLVE = ("solve", GAME, "--bet", "pair", "--vary", "payouts.pair", "--max-exposure", "0.05")


def _solved(run, *args: str) -> tuple[int, dict, str]:
    code, out, err = run(*args, "--format", "json")
    return code, json.loads(out), err


def _exposure(run, value: Fraction, *study: str) -> Fraction | float:
    """The pair bet's exposure with ``payouts.pair = value``, as ``odds exposure`` reports it:
    the exact gain per set, or a simulation's mean."""
    code, out, err = run(
        "exposure", GAME, "--set", f"payouts.pair={value}", *study, "--format", "json"
    )
    assert code == 0, err
    document = json.loads(out)
    if document["method"] == "exact":
        (row,) = [r for r in document["exposure_sets"] if r["bet"] == "pair"]
        return Fraction(row["watcher_gain_per_set"])
    (row,) = [r for r in document["exposure_players"] if r["bet"] == "pair"]
    return row["watcher"]


def test_a_target_over_the_cap_gives_the_nearest_value_within_it(run):
    # 86% needs payouts.pair = 271/30, where a watcher wins 0.0529 a set: over 0.05.
    code, found, err = _solved(run, *SOLVE, "--target-rtp", "86%")
    assert code == 0, err
    chosen = Fraction(found["exposure_chosen"])
    assert found["exposure_method"] == "exact" and found["exposure_per"] == "set"
    assert _exposure(run, Fraction(271, 30)) > CAP  # the target itself is over
    assert _exposure(run, chosen) <= CAP  # the value returned is within, by odds exposure
    assert _exposure(run, chosen + Fraction(1, 2)) > CAP  # one step past it is over
    assert chosen == Fraction(17, 2)
    (row,) = [r for r in found["exposure_tried"] if r["chosen"]]
    # Its RTP is the paytable's own, exactly, through the strict loader.
    paytable = variant(load(GAME), {"payouts.pair": "17/2"})
    assert Fraction(row["rtp"]) == paytable.bet_analysis().bet("pair").stats.rtp
    assert found["exposure_studies"] <= found["exposure_most_studies"] == 7


def test_a_target_within_the_cap_is_the_answer(run):
    code, found, err = _solved(run, *SOLVE, "--target-rtp", "80%")
    assert code == 0, err
    chosen = Fraction(found["exposure_chosen"])
    assert chosen == Fraction(25, 3)  # the exact root: RTP 3(x + 1)/35 = 4/5
    assert found["exposure_studies"] == 1
    assert _exposure(run, chosen) <= CAP


def test_a_simulated_study_is_the_one_odds_exposure_runs(run):
    study = ("--simulate", "--shoes", "100", "--seed", "3", "--workers", "1")
    code, found, err = _solved(run, *SOLVE, "--target-rtp", "86%", *study)
    assert code == 0, err
    assert found["exposure_method"] == "simulated" and found["exposure_shoes"] == 100
    chosen = Fraction(found["exposure_chosen"])
    shown = {Fraction(r["value"]): r for r in found["exposure_tried"]}
    within = _exposure(run, chosen, *study)
    assert within <= float(CAP)  # by odds exposure with the same shoes
    assert within == shown[chosen]["watcher_mean"]
    assert _exposure(run, chosen + Fraction(1, 2), *study) > float(CAP)


# ---------------------------------------------------------------------------
# The search itself, on exposures made up to break it


def _fake(monkeypatch, exposure):
    """Replace the exposure study by ``exposure(value)`` (exact), counting the calls."""
    calls: list[Fraction] = []

    def evaluate(paytable, bet, key, value, rtp, study):
        calls.append(value)
        gain = Fraction(exposure(value))
        return Trial(value, rtp, "exact", gain, float(gain))

    monkeypatch.setattr(exposure_cap, "evaluate", evaluate)
    return calls


def test_a_non_monotone_exposure_stops_the_search(run, monkeypatch):
    # Over at the target, within at the far end, and lower in between than at the far end.
    figures = {Fraction(271, 30): Fraction(1, 10), Fraction(0): Fraction(1, 50)}
    calls = _fake(monkeypatch, lambda v: figures.get(v, Fraction(1, 100)))
    code, _, err = run(*SOLVE, "--target-rtp", "86%")
    assert code == 1 and len(calls) == 3
    assert err.count("\n") == 1 and "not monotone" in err
    assert "0.010000 at 5, 0.020000 at 0" in err


def test_a_cap_no_value_holds_is_refused_naming_the_exposure_and_the_cap(run, monkeypatch):
    calls = _fake(monkeypatch, lambda v: Fraction(1, 10))
    code, _, err = run(*SOLVE, "--target-rtp", "86%")
    assert code == 1
    assert calls == [Fraction(271, 30), Fraction(0)]  # the target, then the far end: no bisection
    assert err.count("\n") == 1
    assert "payouts.pair = 0" in err and "0.100000" in err and "over the cap 0.05" in err


def test_the_search_bisects_within_its_bound(run, monkeypatch):
    calls = _fake(monkeypatch, lambda v: v / 100)  # within 0.05 up to 5
    code, found, _ = _solved(run, *SOLVE, "--target-rtp", "86%")
    assert code == 0 and Fraction(found["exposure_chosen"]) == 5
    assert len(calls) <= found["exposure_most_studies"] == evaluations(19, True)


def test_too_much_work_is_refused_before_any_study(run, monkeypatch):
    calls = _fake(monkeypatch, lambda v: 0)
    code, _, err = run(*SOLVE, "--target-rtp", "86%", "--step", "1/10000000")
    assert code == 2 and not calls
    assert "exposure studies (at most 24); give a larger --step" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--max-exposure", "-1"), "--max-exposure must be at least 0"),
        (("--max-exposure", "0.05", "--step", "0"), "--step must be greater than 0"),
        (("--shoes", "10"), "--shoes sets the exposure study: give --max-exposure too"),
    ],
)
def test_bad_input_is_one_line(run, args, message):
    code, _, err = run("solve", GAME, "--bet", "pair", "--vary", "payouts.pair",
                       "--target-rtp", "80%", *args)  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and message in err


def test_a_game_reshuffled_every_round_has_nil_exposure(run):
    code, found, err = _solved(
        run, "solve", "pair-plus", "--bet", "pair-plus", "--vary", "payouts.pair",
        "--target-rtp", "95%", "--max-exposure", "0",
    )  # fmt: skip
    assert code == 0, err
    assert found["exposure_method"] == "nil" and found["exposure_studies"] == 1


def test_the_grid_walks_away_from_the_target_to_the_bound():
    down = _Grid(Fraction(13, 10), Fraction(1, 4), Fraction(1, 2), down=True)
    assert [down[i] for i in range(len(down))] == [1, Fraction(1, 2), Fraction(1, 4)]
    on_grid = _Grid(Fraction(3), Fraction(0), Fraction(1), down=True)
    assert [on_grid[i] for i in range(len(on_grid))] == [2, 1, 0]
    up = _Grid(Fraction(1, 20), Fraction(1), Fraction(1, 4), down=False)
    assert [up[i] for i in range(len(up))] == [Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 1]
    assert len(_Grid(Fraction(0), Fraction(0), Fraction(1), down=True)) == 0
    assert short_number(Fraction(17, 2)) == "8.5" and short_number(Fraction(271, 30)) == "271/30"
