"""``odds settle blackjack``: finished rounds with reasons, and bad input as one-line errors."""

from __future__ import annotations

import json

import pytest

from odds.cli import main


def settle(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["settle", "blackjack", *args])
    out, err = capsys.readouterr()
    return code, out, err


def settle_json(capsys, *args: str) -> dict:
    code, out, err = settle(capsys, *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)


def test_a_plain_win(capsys) -> None:
    data = settle_json(capsys, "--player", "Th 9s", "--actions", "stand", "--dealer", "7c Kd")
    (bet,) = data["bets"]
    assert bet["net"] == "100"
    assert "19 beats 17" in bet["reason"]
    assert bet["event"] == "wins 1"


def test_blackjack_pays_3_to_2_and_6_to_5(capsys) -> None:
    data = settle_json(capsys, "--player", "As Kd", "--dealer", "9c 8d")
    assert data["bets"][0]["net"] == "150"
    data = settle_json(
        capsys, "--player", "As Kd", "--dealer", "9c 8d", "--set", 'house.blackjack_pays="6:5"'
    )
    assert data["bets"][0]["net"] == "120"


def test_split_aces_get_one_card_and_ace_ten_is_21_only(capsys) -> None:
    data = settle_json(capsys, "--player", "As Ad Kc 5h", "--actions", "split", "--dealer", "9c 8d")
    hands = data["hands"]
    assert "21 (ace and ten after a split count 21, not blackjack)" in hands[0]["hand"]
    bet = data["bets"][0]
    assert bet["net"] == "0"  # A-K wins 1 (not 3:2), A-5 loses 1
    assert bet["debited"] == "200"
    assert "split ace, one card" in bet["reason"]
    assert bet["event"] == "split round, net 0"


def test_split_ace_ten_against_dealer_21_pushes(capsys) -> None:
    data = settle_json(
        capsys, "--player", "As Ad Kc Qh", "--actions", "split", "--dealer", "9c 5d 7s"
    )
    assert data["bets"][0]["net"] == "0"
    assert "21 ties 21" in data["bets"][0]["reason"]


def test_no_hole_card_dealer_blackjack_takes_a_double(capsys) -> None:
    data = settle_json(capsys, "--player", "5s 6d Tc", "--actions", "double", "--dealer", "Ac Kd")
    assert data["bets"][0]["net"] == "-200"
    data = settle_json(
        capsys,
        "--player",
        "5s 6d",
        "--dealer",
        "Ac Kd",
        "--set",
        'house.hole_card="peek"',
    )
    assert data["bets"][0]["net"] == "-100"


def test_split_then_hit_and_double_after_split(capsys) -> None:
    data = settle_json(
        capsys,
        "--player",
        "8s 8d 3c Kh 2d 9c",
        "--actions",
        "split, hit, double",  # 21 finishes hand 1
        "--dealer",
        "Tc 6d 5s",
        "--set",
        "house.double_after_split=true",
    )
    bet = data["bets"][0]
    # Hand 1: 8 3 K = 21 pushes the dealer's 21; hand 2: 8 2 doubled with 9 = 19 loses 2.
    assert bet["net"] == "-200"
    assert bet["debited"] == "300"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--player", "8s 9d", "--actions", "split", "--dealer", "Tc 7d"], "cannot split"),
        (["--player", "Ts 6d 9c", "--actions", "hit, hit", "--dealer", "Tc 7d"], "busted"),
        (["--player", "As Ad Kc 5h", "--actions", "split, hit", "--dealer", "9c 8d"], "one card"),
        (["--player", "Ts 6d", "--actions", "stand", "--dealer", "Tc 6d"], "must draw"),
        (["--player", "Ts 6d", "--actions", "stand", "--dealer", "Tc 7d 2s"], "stands on 17"),
        (["--player", "Ts 6d 5c", "--actions", "double", "--dealer", "Tc 7d"], "cannot hold"),
        (["--player", "Ts 6d", "--actions", "jump", "--dealer", "Tc 7d"], "unknown action"),
        (["--player", "Ts 6d", "--actions", "surrender", "--dealer", "Tc 7d"], "surrender"),
        (["--decks", "9", "--player", "Ts 6d", "--actions", "stand", "--dealer", "Tc 7d"], "9"),
    ],
)
def test_bad_rounds_are_one_line_errors(capsys, args, message) -> None:
    if message == "cannot hold":
        args = [*args, "--set", "shoe.counts={'5C' = 0}"]
    code, _out, err = settle(capsys, *args)
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1
    assert message in err


def test_other_games_keep_their_settle(capsys) -> None:
    assert main(["settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h"]) == 0
    capsys.readouterr()
    assert (
        main(["settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h", "--actions", "hit"])
        == 2
    )
    assert "no --actions" in capsys.readouterr().err


# Issue 34, item 12: a log that writes the stand of a hand at 21 was refused ("action 'stand'
# left over"), and the error for a missing action did not name --actions.


@pytest.mark.parametrize(
    ("player", "actions", "dealer", "net"),
    [
        ("Kh 5d 6c", "hit, stand", "9c 8d", "100"),  # hit to 21, then its stand
        ("Kh 5d 6c", "hit", "9c 8d", "100"),  # the same round without it
        ("As Kd", "stand", "9c 8d", "150"),  # a blackjack stood on
        ("8s 8d 3c Kh Td", "split, hit, stand, stand", "9c 8d", "200"),  # hand 1 at 21
        ("8s 8d 3c Kh Td", "split, hit, stand", "9c 8d", "200"),  # its stand left out
        ("As Ad Kc 5h", "split, stand, stand", "9c 8d", "0"),  # split aces' stands
    ],
)
def test_a_stand_logged_on_a_hand_that_stood_is_that_hands(capsys, player, actions, dealer, net):
    data = settle_json(capsys, "--player", player, "--actions", actions, "--dealer", dealer)
    assert data["bets"][0]["net"] == net


def test_a_stand_at_21_is_never_taken_as_the_next_hands():
    """``split, hit, stand`` when hand 1 hit to 21 and hand 2 then hit too: the stand is hand
    1's or hand 2's. Read as hand 2's the log leaves a card over; read as hand 1's, hand 2
    has no action: refused either way, never settled with hand 2 standing on 8♦ 2♣."""
    code = main(["settle", "blackjack", "--player", "8s 8d 3c Kh 2c Td", "--actions",
                 "split, hit, stand, hit", "--dealer", "9c 8d"])  # fmt: skip
    assert code == 2


def test_a_missing_action_names_the_option(capsys):
    code, _, err = settle(capsys, "--player", "Kh 5d", "--dealer", "9c 8d")
    assert code == 2
    assert err == (
        "error: no action for hand 1 (K♥ 5♦, 15): give the player's actions in order with "
        '--actions, e.g. --actions "hit, stand"\n'
    )
    code, _, err = settle(capsys, "--player", "8s 8d 3c Kh Td", "--dealer", "9c 8d",
                          "--actions", "split, hit, stand")  # fmt: skip
    assert code == 0
    code, _, err = settle(capsys, "--player", "8s 8d 3c 5h Td 9c", "--dealer", "9c 8d",
                          "--actions", "split, hit, hit")  # fmt: skip
    assert code == 2
    assert '--actions "split, hit, hit" ends before it' in err
