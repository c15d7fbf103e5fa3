"""Mahjong 2-8 tiles: the rule book's worked cases, every house option, tiles, bad input."""

from __future__ import annotations

import json

import pytest

from odds.core.errors import OddsError
from odds.core.tiles import parse_tiles
from odds.games.paytable import load


def settle(run, banker, player, *options, table="mahjong-28"):
    """Settle one round (stake 100) and return {bet: returned}, the hands and the JSON."""
    args = ["settle", table, "--banker", banker, "--player", player, "--format", "json"]
    for option in options:
        args += ["--set", option]
    code, out, err = run(*args)
    assert code == 0, err
    data = json.loads(out)
    returned = {b["bet"]: b["returned"] for b in data["bets"]}
    hands = {h["position"]: h for h in data["hands"]}
    return returned, hands, data


# ---------------------------------------------------------------------------
# The worked cases of docs/rules/mahjong-28.md §Hand order and §Ties


@pytest.mark.parametrize(
    ("tiles", "hand"),
    [
        ("4 8", "2 points"),
        ("3 7", "0 points"),
        ("W 9", "9.5 points"),
        ("W 5", "5.5 points"),
        ("2 8", "2-8 Kong"),
        ("W W", "pair W-W"),
    ],
)
def test_hand_values(run, tiles, hand):
    _, hands, _ = settle(run, "1 1", tiles)
    assert hands["player"]["hand_class"] == hand


@pytest.mark.parametrize(
    ("winner", "loser"),
    [
        ("9 8", "6 1"),  # 7 points each: the higher single tile
        ("5 2", "3 4"),  # 7 points each
        ("1 9", "3 7"),  # 0 points each
        ("2 8", "W 9"),  # 2-8 Kong above 9.5
        ("W W", "9 9"),  # W-W the highest pair
        ("1 1", "2 8"),  # any pair above 2-8
        ("W 9", "1 8"),  # 9.5 above 9
    ],
)
def test_higher_hand_wins(run, winner, loser):
    returned, _, _ = settle(run, loser, winner)
    assert returned["player-wins"] == "195"  # 1:1 less 5%
    assert returned["player-loses"] == "0"
    assert returned["tie"] == "0"
    returned, _, _ = settle(run, winner, loser)
    assert returned["player-wins"] == "0"
    assert returned["player-loses"] == "195"
    assert returned["banker"] == "200"  # the house-banked banker pays no commission


def test_identical_tiles_tie(run):
    returned, _, data = settle(run, "4 2", "4 2")
    assert returned == {
        "player-wins": "100",
        "player-loses": "100",
        "tie": "6100",
        "pair": "0",
        "banker": "100",
    }
    events = {b["bet"]: b["event"] for b in data["bets"]}
    assert events["tie"] == "identical tiles"
    assert events["player-wins"] == "equal hands: push"


def test_equal_points_different_tiles_is_no_tie(run):
    # 3-3 against 4-2: both would be 6 points, but 3-3 is a pair; no tie either way.
    returned, _, _ = settle(run, "4 2", "3 3")
    assert returned["tie"] == "0"
    assert returned["player-wins"] == "195"
    assert returned["pair"] == "700"
    # 9-7 and 4-2 are both 6 points: decided by the higher tile, never a tie.
    returned, _, _ = settle(run, "4 2", "9 7")
    assert returned["tie"] == "0"
    assert returned["player-wins"] == "195"


def test_settle_text_has_reasons(run):
    code, out, err = run("settle", "mahjong-28", "--banker", "4 2", "--player", "4 2")
    assert code == 0, err
    assert "identical tiles 4-2: a tie" in out
    assert "wins 60:1" in out


# ---------------------------------------------------------------------------
# Every house option flips a result


FLIPS = [
    # (option, banker, player, bet, returned by default, returned with the option)
    ("rules.two_eight_special=false", "W 9", "2 8", "player-wins", "195", "0"),
    ("rules.zero_points=equal", "3 7", "1 9", "player-wins", "195", "100"),
    ("rules.exact_tie_to_banker=true", "4 2", "4 2", "player-wins", "100", "0"),
    ("rules.exact_tie_to_banker=true", "4 2", "4 2", "player-loses", "100", "195"),
    ("rules.zero_tie_to_banker=true", "3 7", "3 7", "player-wins", "100", "0"),
    ("rules.tie_result=lose", "4 2", "4 2", "player-wins", "100", "0"),
    ("rules.tie_result=lose", "4 2", "4 2", "player-loses", "100", "0"),
    ("rules.tie_result=lose", "4 2", "4 2", "banker", "100", "200"),
    ("payouts.commission=0", "6 1", "9 8", "player-wins", "195", "200"),
    ("payouts.commission=10%", "6 1", "9 8", "player-wins", "195", "190"),
    ('payouts.commission_on=["player-loses"]', "6 1", "9 8", "player-wins", "195", "200"),
    ('payouts.commission_on=["banker"]', "9 8", "6 1", "banker", "200", "195"),
    ('payouts.commission_on=["tie"]', "4 2", "4 2", "tie", "6100", "5800"),
    ('payouts.commission_on=["pair"]', "4 2", "3 3", "pair", "700", "670"),
    ("payouts.player_wins=2", "6 1", "9 8", "player-wins", "195", "290"),
    ("payouts.player_loses=2", "9 8", "6 1", "player-loses", "195", "290"),
    ("payouts.tie=50", "4 2", "4 2", "tie", "6100", "5100"),
    ("payouts.pair=11", "4 2", "3 3", "pair", "700", "1200"),
    (
        'tiles.pair_order=["1","W","9","8","7","6","5","4","3","2"]',
        "9 9",
        "1 1",
        "player-wins",
        "0",
        "195",
    ),
    (
        'tiles.single_order=["W","1","2","3","4","5","6","7","8","9"]',
        "6 1",
        "9 8",
        "player-wins",
        "195",
        "0",
    ),
    ("tiles.points.W=1", "9 6", "W 4", "player-wins", "0", "195"),
]


@pytest.mark.parametrize(("option", "banker", "player", "bet", "before", "after"), FLIPS)
def test_option_flips_a_result(run, option, banker, player, bet, before, after):
    returned, _, _ = settle(run, banker, player)
    assert returned[bet] == before
    if option.startswith("tiles.points."):
        # points is a table: give every value so the set keeps its other tiles' values
        values = ", ".join(f'"{n}" = {n}' for n in range(1, 10))
        option = f"tiles.points={{{values}, W = 1}}"
    returned, _, _ = settle(run, banker, player, option)
    assert returned[bet] == after


def test_zero_tie_to_banker_with_equal_zero_hands(run):
    returned, _, _ = settle(run, "3 7", "1 9", "rules.zero_points=equal")
    assert returned["player-wins"] == "100"
    returned, _, _ = settle(
        run, "3 7", "1 9", "rules.zero_points=equal", "rules.zero_tie_to_banker=true"
    )
    assert returned["player-wins"] == "0"
    assert returned["player-loses"] == "195"


def test_unoffered_bets_are_left_out(run):
    returned, _, _ = settle(run, "4 2", "3 3", "payouts.pair=0", "payouts.tie=0")
    assert set(returned) == {"player-wins", "player-loses", "banker"}


def test_positions_option_scales_the_several_positions_table(run):
    for k in (1, 2, 4):
        code, out, err = run(
            "report", "mahjong-28", "--format", "json", "--set", f"rules.positions={k}"
        )
        assert code == 0, err
        data = json.loads(out)
        ev = {b["name"]: b["ev"] for b in data["bets"]}
        for row in data["positions"]:
            assert row["positions"] == k
            from fractions import Fraction

            assert Fraction(row["ev_all_positions"]) == k * Fraction(ev[row["bet"]])


# ---------------------------------------------------------------------------
# The 20-tile set: ten tiles


def test_twenty_tile_set(run):
    table = "tables/mahjong-28-20.toml"
    # T-T is the highest pair
    returned, hands, _ = settle(run, "9 9", "T T", table=table)
    assert hands["player"]["hand_class"] == "pair T-T"
    assert returned["player-wins"] == "195"
    # a ten counts 0: T-8 is 8 points; "ten" is accepted as the tile's name
    _, hands, _ = settle(run, "1 1", "ten 8", table=table)
    assert hands["player"]["hand"] == "8 points (T-8)"
    # all 0-point hands are equal and go to the banker
    returned, _, _ = settle(run, "3 7", "1 9", table=table)
    assert returned["player-wins"] == "0"
    assert returned["player-loses"] == "195"
    assert returned["banker"] == "195"  # the banker pays commission in this variant
    # an exact tie goes to the banker, the Tie bet still wins
    returned, _, _ = settle(run, "4 2", "4 2", table=table)
    assert returned["player-wins"] == "0"
    assert returned["tie"] == "6100"


# ---------------------------------------------------------------------------
# Tiles


def test_tile_parsing_forms():
    shoe = load("mahjong-28").config.tiles.build()
    assert [t.code for t in parse_tiles("w 9", shoe)] == ["W", "9"]
    assert [t.code for t in parse_tiles("W9", shoe)] == ["W", "9"]
    assert [t.code for t in parse_tiles("4,2", shoe)] == ["4", "2"]
    assert [t.code for t in parse_tiles("4-2", shoe)] == ["4", "2"]
    assert [t.code for t in parse_tiles("🀜 🀡", shoe)] == ["4", "9"]
    assert [t.code for t in parse_tiles("🀙🀡", shoe)] == ["1", "9"]
    assert [t.code for t in parse_tiles("🀆 🀜", shoe)] == ["W", "4"]
    with pytest.raises(OddsError, match="unknown tile"):
        parse_tiles("X", shoe)
    with pytest.raises(OddsError, match="unknown tile"):
        parse_tiles("🀘", shoe)  # U+1F018 is a bamboo tile, not a dot


def test_unicode_tiles_through_the_cli(run):
    returned, hands, _ = settle(run, "🀙 🀙", "🀆 🀆")
    assert hands["player"]["hand_class"] == "pair W-W"
    assert returned["player-wins"] == "195"


# ---------------------------------------------------------------------------
# Bad input: one line, exit 2


BAD = [
    (["settle", "mahjong-28", "--banker", "X 2", "--player", "4 2"], "unknown tile 'X'"),
    (["settle", "mahjong-28", "--banker", "0 2", "--player", "4 2"], "unknown tile '0'"),
    (["settle", "mahjong-28", "--banker", "4 2 1", "--player", "4 2"], "must be two tiles"),
    (
        [
            "settle",
            "mahjong-28",
            "--banker",
            "7 7",
            "--player",
            "7 7",
            "--set",
            'tiles.removed=["7"]',
        ],
        "cannot hold the banker's and player's tiles 7 7 7 7: it has 3 7",
    ),
    (["report", "mahjong-28", "--set", 'tiles.removed=["7","7","7","7","7"]'], "it has 4 7"),
    (
        ["report", "mahjong-28", "--set", "tiles.copies={1=4,2=4,3=4,4=4,5=4,6=4,7=5,8=4,9=4,W=3}"],
        "tiles.copies.7: 5 is above the maximum 4",
    ),
    (
        [
            "report",
            "mahjong-28",
            "--set",
            "tiles.copies={1=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1}",
            "--set",
            "payouts.tie=0",
        ],
        "has no pairs but payouts.pair pays 6:1",
    ),
    (["report", "mahjong-28", "--set", "payouts.commission=150%"], "above the maximum 1"),
    (["report", "mahjong-28", "--set", 'payouts.commission_on=["everyone"]'], "'everyone'"),
    (
        ["settle", "tables/mahjong-28-36.toml", "--banker", "W 2", "--player", "4 2"],
        "tile W is not in this game's tile set",
    ),
    (["report", "mahjong-28", "--set", 'tiles.pair_order=["9","8"]'], "missing from the order"),
    (["report", "mahjong-28", "--set", "tiles.copies={1=4,T=4}"], "no point value for tile T"),
    (["report", "mahjong-28", "--set", "rules.zero_points=sometimes"], "'sometimes' is not one"),
    (["report", "mahjong-28", "--set", "rules.positions=30"], "above the maximum"),
    (["settle", "mahjong-28", "--player", "4 2"], "missing --banker"),
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_bad_input_is_one_line(run, args, message):
    code, _, err = run(*args)
    assert code == 2
    assert err.startswith("error: ")
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_too_many_positions_for_a_small_set(run):
    code, _, err = run(
        "report",
        "mahjong-28",
        "--set",
        "tiles.copies={1=2,2=2,3=2,4=1}",
        "--set",
        "rules.positions=3",
    )
    assert code == 2
    assert "need 8" in err


def test_simulated_log_passes_the_audit(run, tmp_path):
    """The auditor's toolkit reads tiles through the game's hooks (shoe, parse_hand)."""
    log = tmp_path / "mahjong.csv"
    code, _, err = run(
        "simulate", "mahjong-28", "--rounds", "600", "--seed", "7", "--out", str(log)
    )
    assert code == 0, err
    assert log.read_text("utf-8").splitlines()[0] == "shoe,round,banker,player"
    code, out, err = run("audit", "mahjong-28", "--log", str(log), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["rounds"] == 600
