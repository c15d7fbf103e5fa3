"""``odds report blackjack --decks infinite``: the infinite shoe's report, and ``--decks`` errors.

The infinite shoe's values are the limit of ever more decks (the finite kernel's, checked
in test_published.py and test_blackjack_ev.py); here: its outcome table is a distribution
whose mean is the exact EV, every rule option is valued, and the edge lies beyond 8 decks'.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import inf

import pytest

from odds.cli import main
from odds.games.blackjack.dealer import OUTCOMES
from odds.games.blackjack.infinite import analyse_infinite
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_decks, analyse_round, shoe_counts


@pytest.mark.parametrize(
    "rules",
    [
        BlackjackRules(),
        BlackjackRules(hole_card="peek", surrender=True, dealer_hits_soft_17=True),
        BlackjackRules(hole_card="obo", split_hands=4, resplit_aces=True, double_after_split=True),
    ],
)
def test_every_hand_distribution_is_its_value(rules: BlackjackRules) -> None:
    """Each hand's outcome table adds up to 1 with its exact value as its mean (a split's
    hands convolved; the mean stays exact), and the round's is the EV analyse_decks gives."""
    analysis = analyse_infinite(rules, distributions=True)
    for hand in analysis.hands:
        assert sum(hand.distribution.values()) == 1
        assert sum(net * p for net, p in hand.distribution.items()) == hand.ev
        assert hand.split_distribution_exact == (hand.best != "P")
    assert analysis.ev == analyse_decks(inf, rules).ev


def test_a_stand_on_20_against_a_ten_by_hand() -> None:
    """Hard 20 stands against a ten: it wins on the dealer's bust or 17-19, pushes on 20 and
    loses to 21 or a blackjack: its outcome table from the dealer's, by hand."""
    analysis = analyse_infinite(BlackjackRules(), distributions=True)
    hand = analysis.hand(9, 9, 9)
    assert hand.best == "S"
    d = dict(zip(OUTCOMES, analysis.dealer[9], strict=True))
    assert hand.distribution == {
        Fraction(-1): d["21"] + d["blackjack"],
        Fraction(0): d["20"],
        Fraction(1): d["bust"] + d["17"] + d["18"] + d["19"],
    }
    assert d["blackjack"] == Fraction(1, 13)  # an ace under a ten, dealt with replacement


def test_the_report_from_an_infinite_shoe(capsys) -> None:
    assert main(["report", "blackjack", "--decks", "infinite", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["overrides"] == ["--decks infinite"]
    text = json.dumps(data)
    assert "every card dealt with replacement" in text
    edge = -analyse_decks(inf).ev
    assert f'"{edge}"' in text or str(edge) in text
    # Past eight decks' edge (0.7154%), below a single deck's advantage-free limit.
    assert edge > -analyse_round(shoe_counts(8), BlackjackRules()).ev


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["report", "blackjack", "--decks", "x"], "whole number of decks"),
        (["report", "blackjack", "--decks", "2.5"], "whole number of decks"),
        (["report", "baccarat", "--decks", "infinite"], "no infinite-shoe analysis"),
        (["report", "blackjack", "--decks", "infinite", "--shoe"], "no --stakes, --shift"),
        (
            ["settle", "blackjack", "--decks", "inf", "--player", "Ts 9d", "--dealer", "7c Kd"],
            "only `odds report blackjack`",
        ),
    ],
)
def test_bad_decks_are_one_line_errors(capsys, args: list[str], message: str) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err
