"""``odds report blackjack --decks infinite``: the infinite shoe's report, and ``--decks`` errors.

The infinite shoe's values are the limit of ever more decks (the finite kernel's, checked
in test_published.py and test_blackjack_ev.py); here: its outcome table is a distribution
whose mean is the exact EV, every rule option is valued, the edge lies beyond 8 decks',
and a chart played from an infinite shoe is worth what a brute-force player of the same
chart, written from the rules (tests/reference/blackjack_infinite.py), gets.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import inf

import pytest

from odds.cli import main
from odds.games.blackjack.actions import SPLIT
from odds.games.blackjack.dealer import OUTCOMES
from odds.games.blackjack.infinite import analyse_infinite
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_decks, analyse_round, shoe_counts
from odds.games.blackjack.strategy import build_chart
from tests.reference.blackjack_charts import simple_chart
from tests.reference.blackjack_infinite import chart_round_ev

#: Rule sets that reach every branch of a chart's round: the European rule and the peek,
#: surrender, doubles after a split, resplits (aces too) and split aces that may be hit.
CHART_RULES = [
    BlackjackRules(),
    BlackjackRules(hole_card="peek", surrender=True, dealer_hits_soft_17=True),
    BlackjackRules(double="10-11", double_after_split=True, split_hands=4),
    BlackjackRules(
        hole_card="obo",
        split_hands=4,
        resplit_aces=True,
        split_aces_one_card=False,
        double_after_split=True,
    ),
    BlackjackRules(dealer_hits_soft_17=True, double_after_split=True, split_aces_one_card=False),
]


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


@pytest.mark.parametrize("rules", CHART_RULES)
def test_a_chart_is_worth_what_a_brute_force_chart_player_gets(rules: BlackjackRules) -> None:
    """The report's chart, and a small chart far from optimal (hit below 12, double 10-11,
    split aces and eights, surrender 16 against a ten), each played by analyse_infinite
    and by the reference's card-by-card player: the same exact EV."""
    chart = build_chart(analyse_infinite(rules))
    assert analyse_infinite(rules, chart=chart).ev == chart_round_ev(chart, rules)
    far = simple_chart(rules.surrender)
    found = analyse_infinite(rules, chart=far).ev
    assert found == chart_round_ev(far, rules)
    assert found < -Fraction(4, 100)  # that chart gives away over 4% (the reference: 4.3-4.9%)


def test_the_chart_is_optimal_play_but_where_its_cells_cannot_say() -> None:
    """From an infinite shoe every decision depends on the total alone, so the chart the
    values derive plays optimally and its edge is the optimal one; except where a chart
    cell cannot hold the optimal decision. Dealer hits soft 17, double after a split, split
    aces may be hit: a split ace that draws an ace is soft 12, which only A-A reaches in two
    cards, so the chart has no soft-12 row and its split hands fall back to hitting; the
    optimum doubles it against a 6. That one hand is the whole difference."""
    rules = BlackjackRules()
    optimal = analyse_infinite(rules)
    assert analyse_infinite(rules, chart=build_chart(optimal)).ev == optimal.ev
    rules = BlackjackRules(
        dealer_hits_soft_17=True, double_after_split=True, split_aces_one_card=False
    )
    optimal = analyse_infinite(rules)
    charted = analyse_infinite(rules, chart=build_chart(optimal))
    differ = [(o, c) for o, c in zip(optimal.hands, charted.hands, strict=True) if o.ev != c.ev]
    assert [(o.cards, o.up, o.best, c.best) for o, c in differ] == [((0, 0), 5, SPLIT, SPLIT)]
    ((o, c),) = differ
    assert o.split is not None and c.split is not None
    assert (o.split.actions[0], c.split.actions[0]) == ("D", "H")  # A then A: double v hit
    assert optimal.ev - charted.ev == o.probability * (o.ev - c.ev)
    assert 0 < float(optimal.ev - charted.ev) < 1e-6


def test_the_report_from_an_infinite_shoe(capsys) -> None:
    """The infinite report has the finite report's strategy rows: optimal play and the
    chart's own edge (equal here, above), and the paytable's 8 decks as a rule option."""
    assert main(["report", "blackjack", "--decks", "infinite", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["overrides"] == ["--decks infinite"]
    text = json.dumps(data)
    assert "every card dealt with replacement" in text
    edge = -analyse_decks(inf).ev
    assert f'"{edge}"' in text or str(edge) in text
    # Past eight decks' edge (0.7154%), below a single deck's advantage-free limit.
    eight = -analyse_round(shoe_counts(8), BlackjackRules()).ev
    assert edge > eight
    strategy = data["strategy"]
    assert Fraction(strategy["house_edge_chart"]) == Fraction(strategy["house_edge_optimal"])
    assert [r["strategy"] for r in data["house_edge"]][1:] == ["the basic strategy chart below"]
    decks = next(r for r in data["rule_options"] if r["option"] == "decks = 8")
    assert Fraction(decks["house_edge"]) == eight
    assert Fraction(decks["change"]) == eight - edge


def test_the_decks_row_names_a_shoe_with_cards_removed(capsys) -> None:
    """The decks' row is the paytable's own finite shoe; with cards removed it is not the
    full 8 decks, and the row says which shoe it is (8 decks less a king is not 8 decks)."""
    args = ["report", "blackjack", "--decks", "infinite", "--set", 'shoe.removed=["Kh"]']
    assert main([*args, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rule_options"]
    less = (32,) * 9 + (127,)
    assert [Fraction(r["house_edge"]) for r in rows if r["option"] == "shoe = 8 decks less K♥"] == [
        -analyse_round(less, BlackjackRules()).ev
    ]
    assert not [r for r in rows if r["option"].startswith("decks")]


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
