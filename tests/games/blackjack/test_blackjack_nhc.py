"""European no hole card: "all bets lost" and "original bets only" (``house.hole_card``).

Both readings are checked against :mod:`tests.reference.blackjack_nhc`, a
literal round dealt in the table's order (the player acts, then the hole card
comes) in Fractions, on a small shoe: every two-card hand against each up card
that can make a dealer blackjack, every first action the reference plays (stand,
hit on, double, surrender, the natural).
"""

from __future__ import annotations

import json

import pytest

from odds.cli import main
from odds.games.blackjack.actions import Action, Chart
from odds.games.blackjack.options import BlackjackConfig, BlackjackRules
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.shoe_state import RoundDealer
from odds.games.blackjack.simulate import simulate
from tests.reference.blackjack_nhc import NoHoleCardRound

#: One ace, two of each of 2-9 and six ten-value cards: 23 cards that cannot run out in a
#: round (the kernel refuses smaller shoes), small enough for the literal round (~2 s).
SMALL = (1,) + (2,) * 8 + (6,)
#: The up cards that can make a blackjack: against the others the three readings are one
#: game (tests/games/blackjack/test_blackjack_ev.py checks them against a recursion).
BLACKJACK_UPS = (0, 9)


@pytest.mark.parametrize("reading", ["none", "obo"])
def test_every_first_action_matches_a_literal_no_hole_card_round(reading: str) -> None:
    rules = BlackjackRules(hole_card=reading, surrender=True)
    analysis = analyse_round(SMALL, rules)
    reference = NoHoleCardRound(SMALL, reading)
    checked = 0
    for hand in analysis.hands:
        (a, b), up = hand.cards, hand.up
        if up not in BLACKJACK_UPS:
            continue
        expected = reference.values(a, b, up, rules.blackjack_payout)
        for action, value in expected.items():
            assert hand.values[action] == value, (reading, a, b, up, action)
            checked += 1
    # One ace: against the ace 45 hands without one, against a ten 54 hands (one natural).
    assert checked == 45 * 4 + 53 * 4 + 1


def test_original_bets_only_is_the_peek_game_and_all_bets_lost_costs_more() -> None:
    """OBO: every value, decision and outcome table of the peek game (the player's extra
    stakes are never at risk to a blackjack); all bets lost is dearer."""
    obo = analyse_round(SMALL, BlackjackRules(hole_card="obo", double_after_split=True))
    peek = analyse_round(SMALL, BlackjackRules(hole_card="peek", double_after_split=True))
    lost = analyse_round(SMALL, BlackjackRules(hole_card="none", double_after_split=True))
    assert obo.ev == peek.ev > lost.ev
    for x, y in zip(obo.hands, peek.hands, strict=True):
        assert (x.values, x.best) == (y.values, y.best)
    # Against a ten, all bets lost makes doubling 11 worth less than under OBO.
    assert lost.hand(4, 5, 9).values["D"] < obo.hand(4, 5, 9).values["D"]


def settle(capsys, *args: str) -> dict:
    code = main(["settle", "blackjack", *args, "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def test_settle_original_bets_only(capsys) -> None:
    """The player acts (the hole card comes after), then loses only the original stake."""
    obo = 'house.hole_card="obo"'
    data = settle(capsys, "--player", "5s 6d Tc", "--actions", "double", "--dealer", "Ac Kd",
                  "--set", obo)  # fmt: skip
    (bet,) = data["bets"]
    assert (bet["debited"], bet["net"]) == ("200", "-100")
    assert "original stake only (no hole card, OBO): 1 returned" in bet["reason"]
    # All bets lost (the default) takes the double.
    data = settle(capsys, "--player", "5s 6d Tc", "--actions", "double", "--dealer", "Ac Kd")
    assert data["bets"][0]["net"] == "-200"
    # Split 8s against an ace, dealer blackjack: one original stake under OBO.
    data = settle(capsys, "--player", "8s 8d 3c Kh", "--actions", "split, stand, stand",
                  "--dealer", "Ac Kd", "--set", obo)  # fmt: skip
    assert data["bets"][0]["net"] == "-100"
    # Under a peek the round ends before any action; under OBO an action is expected.
    assert main(["settle", "blackjack", "--player", "5s 6d", "--dealer", "Ac Kd",
                 "--set", obo]) != 0  # fmt: skip
    assert "no action for hand 1" in capsys.readouterr().err


def test_the_shoe_is_dealt_in_the_no_hole_card_order() -> None:
    """Under either no-hole-card reading the players draw before the dealer's second card;
    under a peek a dealer blackjack ends the round after four cards."""
    chart = Chart(
        rows={},
        hit={(up, t, s): t < 17 for up in range(10) for t in range(4, 22) for s in (False, True)},
        first={(u, a, b): Action.HIT for u in range(10) for a in range(10) for b in range(10)},
        post_split={},
    )
    # Player 5, 6; dealer ace up; player hits a 2 (13), a 3 (16), a 4 (20); then the hole
    # (ten). Under a peek the hole card is the fourth card.
    for reading, order in (("none", [4, 0, 5, 1, 2, 3, 9]), ("obo", [4, 0, 5, 1, 2, 3, 9]),
                           ("peek", [4, 0, 5, 9])):  # fmt: skip
        cards = iter([*order, 9, 9, 9])
        dealer = RoundDealer(BlackjackRules(hole_card=reading), chart, list(range(10)), 1)
        seen = dealer(cards.__next__)
        dealt = len(order)
        assert len(seen) == dealt, reading
        if reading != "peek":
            assert seen[-1] == 9  # the hole card came last


def test_simulation_settles_original_bets_only() -> None:
    """A seeded simulation of OBO agrees with the exact value within its error."""
    rules = BlackjackRules(hole_card="obo", double_after_split=True)
    analysis = analyse_round(SMALL, rules)
    result = simulate(analysis, 20_000, seed=8)
    assert result.contains(float(analysis.ev)), result


def test_the_report_prices_both_readings() -> None:
    from odds.games.blackjack.counting import flips

    labels = [f.label for f in flips(BlackjackConfig())]
    assert "hole_card = peek" in labels and "hole_card = obo" in labels
    peek = BlackjackConfig(house=BlackjackRules(hole_card="peek"))
    assert [f.label for f in flips(peek)][-2:] == ["hole_card = none", "hole_card = obo"]
