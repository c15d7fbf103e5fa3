"""Cross-check: a seeded simulation of the analysed strategy contains the exact EV."""

from __future__ import annotations

from odds.cli import main
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.simulate import simulate


def test_simulation_interval_contains_the_exact_ev() -> None:
    for counts, rules in (
        ((4,) * 9 + (16,), BlackjackRules()),
        ((4,) * 9 + (16,), BlackjackRules(hole_card="peek", surrender=True)),
        ((32,) * 9 + (128,), BlackjackRules()),
    ):
        analysis = analyse_round(counts, rules)
        result = simulate(analysis, 40_000, seed=7)
        exact = float(analysis.ev)
        assert result.contains(exact), (rules, result, exact)
        # The check can fail: a figure one house edge off by 5% would be rejected.
        assert not result.contains(exact + 0.05)


def test_simulation_is_reproducible() -> None:
    analysis = analyse_round((4,) * 9 + (16,), BlackjackRules())
    assert simulate(analysis, 2_000, seed=3) == simulate(analysis, 2_000, seed=3)


def test_simulate_command(capsys) -> None:
    assert main(["crosscheck", "blackjack", "--decks", "1", "--rounds", "5000", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "95% interval" in out and "inside" in out
    assert main(["crosscheck", "pok-deng", "--rounds", "10"]) == 2
    assert "no simulation" in capsys.readouterr().err
