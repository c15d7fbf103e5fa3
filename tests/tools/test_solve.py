"""odds solve and report --symbolic: exact formulas, answers that round-trip exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from odds.cli import main
from odds.tools.solve import solve, symbolic_ev
from odds.tools.variants import variant


def _rtp_after(paytable, key, value, bet, basis="stake"):
    stats = variant(paytable, {key: str(value)}).analysis().bet(bet).stats
    return stats.rtp if basis == "stake" else stats.rtp_debited


@pytest.mark.parametrize(
    ("bet", "key", "target", "basis"),
    [
        ("player-pair", "payouts.pair", Fraction(96, 100), "stake"),
        ("player", "payouts.player_win_special", Fraction(99, 100), "debited"),
        ("player", "payouts.player_lose_special", Fraction(98, 100), "stake"),
    ],
)
def test_solution_put_back_into_the_paytable_gives_the_target_exactly(
    pok_deng, bet, key, target, basis
):
    solution = solve(pok_deng, bet, key, target, basis)
    assert len(solution.solutions) == 1
    root = solution.solutions[0]
    value = Fraction(int(root.p), int(root.q))
    assert _rtp_after(pok_deng, key, value, bet, basis) == target
    fair = solution.fair[0]
    fair_value = Fraction(int(fair.p), int(fair.q))
    assert _rtp_after(pok_deng, key, fair_value, bet) == 1


def test_pair_bet_by_hand(pok_deng):
    # 6448 pairs in 86,320 hands: EV = (6448 x - 79872) / 86320; fair x = 79872/6448 = 384/31.
    solution = solve(pok_deng, "player-pair", "payouts.pair", Fraction(96, 100))
    x = sympy.Symbol("payouts.pair")
    assert sympy.simplify(solution.ev - (6448 * x - 79872) / sympy.Integer(86320)) == 0
    assert solution.fair == (sympy.Rational(384, 31),)
    # The practical payouts around 11.85: 11.5 and 12, with their exact RTP.
    practical = dict(solution.practical)
    assert practical[Fraction(12)] == Fraction(12 * 6448 + 6448, 86320)
    assert practical[Fraction(23, 2)] == _rtp_after(
        pok_deng, "payouts.pair", Fraction(23, 2), "player-pair"
    )


def test_symbolic_ev_reproduces_the_analysis_at_other_paytables(pok_deng):
    formulas = symbolic_ev(pok_deng)
    changes = {
        "payouts.player_win": Fraction(9, 10),
        "payouts.player_win_special": Fraction(5, 2),
        "payouts.player_lose_special": Fraction(3, 2),
        "payouts.pair": Fraction(10),
    }
    other = variant(pok_deng, {k: str(v) for k, v in changes.items()}).analysis()
    values = {
        sympy.Symbol(k): sympy.Rational(v.numerator, v.denominator) for k, v in changes.items()
    }
    values[sympy.Symbol("payouts.player_lose")] = 1
    for bet in other.bets:
        got = formulas[bet.name].subs(values)
        assert got == sympy.Rational(bet.stats.ev.numerator, bet.stats.ev.denominator)
    assert sympy.Symbol("payouts.player_withholding") not in formulas["player"].free_symbols


def test_cli_solve_and_symbolic(capsys):
    assert (
        main(
            [
                "solve",
                "pok-deng",
                "--bet",
                "player-pair",
                "--target-rtp",
                "96%",
                "--vary",
                "payouts.pair",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "payouts.pair = 1837/155" in out and "384/31" in out
    assert main(["report", "pok-deng", "--symbolic"]) == 0
    assert "| player-pair | 31*payouts.pair/415 - 384/415" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--vary", "payouts.nope"], "unknown payout key 'payouts.nope'"),
        (["--vary", "shoe.decks"], "unknown payout key 'shoe.decks'"),
        (["--vary", "payouts.player_withholding"], "does not depend on payouts.player_withholding"),
        (["--vary", "payouts.pair", "--target-rtp", "0.96"], "'0.96' is not a percentage"),
    ],
)
def test_bad_solve_input(capsys, argv, needle):
    args = ["solve", "pok-deng", "--bet", "player-pair", "--target-rtp", "96%", *argv]
    if argv.count("--target-rtp"):
        args = ["solve", "pok-deng", "--bet", "player-pair", *argv]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
