"""Mahjong 2-8 tiles as data (``tables/mahjong-28.toml``): the coded game's every figure.

The definition is counted by the shared engine over a set of tile types
(odds/games/defined/tile_*.py). These tests hold it to:

* every exact figure of the coded game's reports (``tests/snapshots/coded/mahjong-28*.json``,
  taken before the definitions replace the coded packages): bets, the tile hierarchy,
  the fair payouts, and the exact shoe-state tables (effects of removal, counts, the
  enumerated exposure by round and by set);
* a plain second implementation of the rule book (``tests/reference/mahjong.py``: tiles as
  code strings, the order spelled out as comparisons) over every deal of reduced sets;
* the rule book's worked hands (docs/rules/mahjong-28.md), tiles as people type them,
  and one-line errors for bad input.
"""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, pairwise
from math import comb
from typing import Any

import pytest

import tests.reference.mahjong as ref
from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.core.table import json_value
from odds.core.tiles import parse_tiles
from odds.games.paytable import from_data, load
from odds.output.data import bets_table
from tests.paths import ROOT
from tests.reference.ordered import brute_force, ordering_factor
from tests.snapshots.take import exact

GAME = "mahjong-28"
SNAPSHOTS = ROOT / "tests" / "snapshots" / "coded"


def toml_value(value: Any) -> str:
    """A TOML value as ``--set`` reads it."""
    if isinstance(value, dict):
        return "{" + ", ".join(f'"{k}" = {toml_value(v)}' for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, bool):
        return str(value).lower()
    return json.dumps(value) if isinstance(value, str) else str(value)


def coded_overrides(paytable: str, sections: tuple[str, ...] = ("tiles", "dealing")) -> list[str]:
    """A coded Mahjong paytable's sections (its tile set, its dealing) as ``--set`` overrides."""
    data = read_toml((ROOT / "tables" / f"{paytable}.toml").read_text("utf-8"), paytable)
    return [
        f"{section}.{key}={toml_value(value)}"
        for section in sections
        for key, value in data.get(section, {}).items()
    ]


#: Each report the tests read, run once (by its arguments): the tests get copies.
_REPORTS: dict[tuple[str, ...], dict[str, Any]] = {}

#: The sets of a coded paytable's report: its tile set, rules, payouts and dealing.
HOUSE = {
    "mahjong-28": (),
    "mahjong-28-36": ("tiles", "dealing"),
    "mahjong-28-20": ("tiles", "rules", "payouts", "dealing"),
}


def report_json(run: Any, *overrides: str, shoe: bool = False) -> dict[str, Any]:
    args = ("report", GAME, "--format", "json", *(["--shoe"] if shoe else []))
    for override in overrides:
        args += ("--set", override)
    if args not in _REPORTS:
        code, out, err = run(*args)
        assert code == 0, err
        _REPORTS[args] = exact(json.loads(out))
    return copy.deepcopy(_REPORTS[args])


def coded_report(run: Any, paytable: str) -> dict[str, Any]:
    """The report of the definition set as the coded ``paytable`` (with its Shoe section)."""
    return report_json(run, *coded_overrides(paytable, HOUSE[paytable]), shoe=True)


#: Every exact figure of a bet (the prose and the approximations aside).
BET_FIGURES = ("name", "title", "total_ways", "ev", "house_edge", "rtp", "rtp_debited",
               "hit_frequency", "variance", "withholding", "stake")  # fmt: skip


def assert_bets_equal(mine: list[dict[str, Any]], coded: list[dict[str, Any]]) -> None:
    assert [b["name"] for b in mine] == [b["name"] for b in coded]
    for got, want in zip(mine, coded, strict=True):
        for key in BET_FIGURES:
            assert got[key] == want[key], (want["name"], key)
        assert got["outcomes"] == want["outcomes"], want["name"]


def assert_report_equal(mine: dict[str, Any], coded: dict[str, Any]) -> None:
    """Every exact figure of the coded report is the definition's.

    With all 0-point hands equal (``rules.zero_points = "equal"``) those hands are the
    definition's category ``zero``: the coded hierarchy called it ``points``.
    """
    assert_bets_equal(mine["bets"], coded["bets"])
    for row in mine["hierarchy"]:
        row["category"] = "points" if row["category"] == "zero" else row["category"]
    for key in ("deals", "shoe", "hierarchy", "fair_payouts", "top_awards"):
        assert mine[key] == coded[key], key
    if "shoe_state" in coded:
        for key, table in coded["shoe_state"].items():
            assert mine["shoe_state"][key] == table, key


# ---------------------------------------------------------------------------
# The coded reports' figures


def test_the_forty_tile_report_is_the_coded_one(run):
    coded = json.loads((SNAPSHOTS / "mahjong-28.json").read_text("utf-8"))
    assert_report_equal(coded_report(run, "mahjong-28"), coded)


def test_the_thirty_six_tile_set_is_the_coded_one(run):
    coded = json.loads((SNAPSHOTS / "mahjong-28-36.json").read_text("utf-8"))
    assert_report_equal(coded_report(run, "mahjong-28-36"), coded)


def positions_figures(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The coded several-positions table read from the whole table of a definition with seats:
    each bet's covariance between two seats, its correlation (the covariance over the bet's
    variance), and the same bet on every seat (EV, variance)."""
    whole = data["positions"]
    bets = {b["name"]: b for b in data["bets"]}
    seats = max(row["positions"] for row in whole["several"])
    found = []
    for name, bet in bets.items():
        (pair,) = [
            r
            for r in whole["correlations"]
            if r["first_bet"] == r["second_bet"] == name and not r["same_hand"]
        ]
        (every,) = [
            r for r in whole["several"] if r["bets"] == bet["title"] and r["positions"] == seats
        ]
        covariance = Fraction(pair["covariance"])
        found.append(
            {
                "bet": name,
                "positions": seats,
                "covariance": str(covariance),
                "correlation": str(covariance / Fraction(bet["variance"])),
                "ev_all_positions": every["ev"],
                "variance_all_positions": every["variance"],
            }
        )
    return found


@pytest.mark.parametrize("paytable", ["mahjong-28", "mahjong-28-36", "mahjong-28-20"])
def test_the_several_positions_table_is_the_coded_one(run, paytable):
    """The coded table of 3 positions against one banker, from the definition's whole table
    (in the report the paytable's other tests read: the report is counted once)."""
    coded = json.loads((SNAPSHOTS / f"{paytable}.json").read_text("utf-8"))
    assert positions_figures(coded_report(run, paytable)) == coded["positions"]


def test_the_twenty_tile_house_table_is_the_coded_one(run):
    """Ten tiles, all 0-point hands equal, ties to the banker, commission on the banker."""
    coded = json.loads((SNAPSHOTS / "mahjong-28-20.json").read_text("utf-8"))
    assert_report_equal(coded_report(run, "mahjong-28-20"), coded)


def _readings() -> list[str]:
    data = json.loads((ROOT / "tests" / "snapshots" / "readings" / "mahjong-28.json").read_text())
    return sorted(data)


@pytest.mark.parametrize("reading", _readings())
def test_every_coded_reading_is_an_option(reading):
    """Each reading no shipped paytable holds, set with --set on the definition."""
    data = json.loads((ROOT / "tests" / "snapshots" / "readings" / "mahjong-28.json").read_text())
    analysis = load(GAME, reading.split(" ")).bet_analysis()
    mine = exact(json.loads(json.dumps(json_value(bets_table(analysis)))))
    assert_bets_equal(mine, data[reading]["bets"])


def test_the_readings_change_the_figures():
    """The check can fail: a reading's figures are not the default's."""
    data = json.loads((ROOT / "tests" / "snapshots" / "readings" / "mahjong-28.json").read_text())
    analysis = load(GAME).bet_analysis()
    mine = exact(json.loads(json.dumps(json_value(bets_table(analysis)))))
    with pytest.raises(AssertionError):
        assert_bets_equal(mine, data["rules.zero_points=equal"]["bets"])


# ---------------------------------------------------------------------------
# Published: Wizard of Odds, "Mah Jong Pai Gow"


def test_wizard_of_odds_mah_jong_pai_gow():
    """Wizard of Odds, "Mah Jong Pai Gow" (wizardofodds.com/mahjongpaigow): 20 tiles (1-9 and
    two "window" tiles that count 0, the highest pair), no 2-8 Kong, all 0-point hands equal,
    an exact tie or two 0-point hands go to the banker, 5% commission on every winning wager.
    "The probability of the banker winning is 50.64%, and the player 49.36%. The house edge
    as banker, when playing against one opponent, is 1.25%. When playing against a banking
    player, the house edge is 3.75%." The house table of tables/mahjong-28-20.toml with
    rules.two_eight_special = false."""
    sections = ("tiles", "rules", "payouts", "dealing")
    overrides = [
        *(o for o in coded_overrides("mahjong-28-20", sections) if "two_eight" not in o),
        "rules.two_eight_special=false",
    ]
    analysis = load(GAME, overrides).bet_analysis()  # the bets; no whole table to count
    player = {o.event: o for o in analysis.bet("player-wins").outcomes}
    total = sum(o.ways for o in player.values())
    banker_wins = (
        player["banker beats the position"].ways + player["equal hands go to the banker"].ways
    )
    assert player["equal hands: push"].ways == 0  # every tie goes to the banker
    assert round(Fraction(banker_wins, total) * 10_000) == 5064
    assert round(Fraction(player["position beats the banker"].ways, total) * 10_000) == 4936
    assert round(analysis.bet("banker").stats.house_edge * 10_000) == 125
    assert round(analysis.bet("player-wins").stats.house_edge * 10_000) == 375
    # the exact figures behind the published roundings
    assert (banker_wins, total) == (14721, 29070)
    assert analysis.bet("player-wins").stats.house_edge == Fraction(2421, 64600)


# ---------------------------------------------------------------------------
# Every deal of reduced sets, settled by the plain reference rules


def check_against_reference(paytable: Any) -> None:
    """Each bet's ways per outcome and its nets equal the reference's, deal by deal."""
    config = paytable.config  # the coded option names: the reference reads them as they are
    shoe = config.tiles.build()
    codes = [t.code for t in shoe.types]

    def settle(deal: tuple[tuple[int, ...], ...]) -> dict[str, str]:
        player, banker = (tuple(codes[t] for t in hand) for hand in deal)
        return ref.settle(player, banker, config)

    factor = ordering_factor((2, 2))
    expected = {
        bet: {e: w // factor for e, w in events.items()}
        for bet, events in brute_force(shoe.counts, (2, 2), settle).items()
    }
    nets = ref.nets(config)
    analysis = paytable.bet_analysis()  # the bets alone: the whole table is not compared
    game = paytable.game
    assert {bet.name for bet in analysis.bets} == set(expected)
    for bet, spec in zip(analysis.bets, game.definition.bets, strict=True):
        events = game.events(paytable.config, spec)
        for event, outcome in zip(events, bet.outcomes, strict=True):
            assert outcome.ways == expected[bet.name].get(event.key, 0), (bet.name, event.key)
            assert outcome.net == nets[bet.name][event.key], (bet.name, event.key)
        assert sum(o.ways for o in bet.outcomes) == comb(shoe.size, 2) * comb(shoe.size - 2, 2)


REDUCED = [
    ["tiles.copies={1=2,2=2,8=2,9=1,W=2}"],
    ["tiles.copies={1=3,2=2,3=1,7=2,8=3,W=2}", 'tiles.removed=["8"]'],
    ['tiles.single_order=["1","2","3","4","5","6","7","8","9","W"]',
     "tiles.copies={1=2,2=2,5=2,8=2,9=2,W=1}"],
    ['tiles.pair_order=["5","W","9","8","7","6","4","3","2","1"]',
     "tiles.copies={1=2,5=2,8=1,9=2,W=2}"],
    ["tiles.points={1=1,2=2,3=3,4=4,5=5,6=6,7=7,8=8,9=9,W=0}", "tiles.copies={1=2,2=2,9=2,W=3}"],
    ['payouts.commission_on=["player-wins","tie","pair","banker"]', "payouts.commission=7%",
     "tiles.copies={2=2,4=2,6=2,8=2,W=1}"],
    ["payouts.player_wins=3/2", "payouts.pair=11", "tiles.copies={1=2,3=2,7=2,9=2}"],
    ["rules.two_eight_special=false", "tiles.copies={1=2,2=2,8=2,9=1,W=2}"],
    ["rules.zero_points=equal", "tiles.copies={1=2,3=2,7=2,9=2,W=1}"],
    ["rules.zero_points=equal", "rules.zero_tie_to_banker=true",
     "tiles.copies={1=2,2=1,3=2,7=2,8=1,9=2}"],
    ["rules.zero_tie_to_banker=true", "tiles.copies={1=2,3=2,7=2,9=2}"],
    ["rules.exact_tie_to_banker=true", "rules.tie_result=lose", "tiles.copies={1=2,2=2,8=2,W=2}"],
    ["rules.zero_points=equal", "rules.two_eight_special=false", "rules.exact_tie_to_banker=true",
     'payouts.commission_on=["player-loses","banker"]', "tiles.copies={2=2,3=1,7=2,8=2,9=1,W=1}"],
]  # fmt: skip


@pytest.mark.parametrize("overrides", REDUCED, ids=lambda o: " ".join(o))
def test_reduced_sets_equal_the_reference_deal_by_deal(overrides):
    check_against_reference(load(GAME, overrides))


def test_the_hierarchy_follows_the_reference_order():
    for overrides in ([], coded_overrides("mahjong-28-36")):
        paytable = load(GAME, overrides)
        config = paytable.config
        shoe = config.tiles.build()
        rows = json_value(paytable.bet_analysis().table("hierarchy"))  # no whole table
        hands = list(combinations_with_replacement([t.code for t in shoe.types], 2))
        copies = {t.code: n for t, n in zip(shoe.types, shoe.counts, strict=True)}
        possible = [h for h in hands if all(copies[t] >= n for t, n in Counter(h).items())]
        assert len(rows) == len(possible)
        assert sum(r["ways"] for r in rows) == comb(shoe.size, 2)
        for upper, lower in pairwise(rows):
            a, b = tuple(upper["hand"].split("-")), tuple(lower["hand"].split("-"))
            c = ref.compare(a, b, config)
            assert c >= 0
            assert (c == 0) == (upper["rank"] == lower["rank"])


# ---------------------------------------------------------------------------
# One round: the rule book's worked hands (docs/rules/mahjong-28.md)


def settle(run, banker, player, *options):
    """Settle one round (stake 100): {bet: returned}, the hands, the JSON."""
    args = ["settle", GAME, "--banker", banker, "--player", player, "--format", "json"]
    for option in options:
        args += ["--set", option]
    code, out, err = run(*args)
    assert code == 0, err
    data = json.loads(out)
    returned = {b["bet"]: b["returned"] for b in data["bets"]}
    return returned, {h["position"]: h for h in data["hands"]}, data


@pytest.mark.parametrize(
    ("tiles", "hand_class", "hand"),
    [
        ("4 8", "2 points", "2 points (8-4)"),
        ("3 7", "0 points", "0 points (7-3)"),
        ("W 9", "9.5 points", "9.5 points (W-9)"),
        ("W 5", "5.5 points", "5.5 points (W-5)"),
        ("2 8", "2-8 Kong", "2-8 Kong"),
        ("W W", "pair W-W", "pair W-W"),
        ("🀆 🀆", "pair W-W", "pair W-W"),
    ],
)
def test_hand_values(run, tiles, hand_class, hand):
    _, hands, _ = settle(run, "1 1", tiles)
    assert hands["player"]["hand_class"] == hand_class
    assert hands["player"]["hand"] == hand


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
        ("8 4", "3 7"),  # 2 points above 0
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
    returned, _, _ = settle(run, "4 2", "3 3")  # 6 points against a pair
    assert returned["tie"] == "0"
    assert returned["player-wins"] == "195"
    assert returned["pair"] == "700"
    returned, _, _ = settle(run, "4 2", "9 7")  # 6 points each: the 9 decides
    assert returned["tie"] == "0"
    assert returned["player-wins"] == "195"


FLIPS = [
    # (option, banker, player, bet, returned by default, returned with the option)
    ("rules.two_eight_special=false", "W 9", "2 8", "player-wins", "195", "0"),
    ("rules.two_eight_special=false", "W 1", "2 8", "player-loses", "0", "195"),
    ("rules.zero_points=equal", "3 7", "1 9", "player-wins", "195", "100"),
    ("rules.exact_tie_to_banker=true", "4 2", "4 2", "player-wins", "100", "0"),
    ("rules.exact_tie_to_banker=true", "4 2", "4 2", "player-loses", "100", "195"),
    ("rules.exact_tie_to_banker=true", "4 2", "4 2", "tie", "6100", "6100"),
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
    ('tiles.pair_order=["1","W","9","8","7","6","5","4","3","2"]', "9 9", "1 1", "player-wins",
     "0", "195"),
    ('tiles.single_order=["W","1","2","3","4","5","6","7","8","9"]', "6 1", "9 8",
     "player-wins", "195", "0"),
    ("tiles.points={1=1,2=2,3=3,4=4,5=5,6=6,7=7,8=8,9=9,W=1}", "9 6", "W 4", "player-wins",
     "0", "195"),
]  # fmt: skip


@pytest.mark.parametrize(("option", "banker", "player", "bet", "before", "after"), FLIPS)
def test_option_flips_a_result(run, option, banker, player, bet, before, after):
    returned, _, _ = settle(run, banker, player)
    assert returned[bet] == before
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


def test_the_twenty_tile_house_table_settles_as_the_rule_book_says(run):
    house = coded_overrides("mahjong-28-20", ("tiles", "rules", "payouts"))
    returned, hands, _ = settle(run, "9 9", "T T", *house)
    assert hands["player"]["hand_class"] == "pair T-T"  # the ten pair is the highest
    assert returned["player-wins"] == "195"
    _, hands, _ = settle(run, "1 1", "ten 8", *house)  # a ten counts 0; its name is read
    assert hands["player"]["hand"] == "8 points (T-8)"
    returned, _, _ = settle(run, "3 7", "1 9", *house)  # 0-point hands: the banker's
    assert (returned["player-wins"], returned["player-loses"]) == ("0", "195")
    assert returned["banker"] == "195"  # the banker pays commission at this table
    returned, _, _ = settle(run, "4 2", "4 2", *house)  # an exact tie: the banker's
    assert (returned["player-wins"], returned["tie"]) == ("0", "6100")


def test_the_positions_option_is_the_seats():
    for k in (1, 2, 4):
        paytable = load(GAME, [f"rules.positions={k}", "dealing.rounds=3"])
        assert paytable.game.definition.deal.seats == k
        procedure = paytable.game.shoe_state.procedure(paytable.config)
        assert procedure.round_cards == 2 * (k + 1)


def test_default_hierarchy_spot_checks():
    rows = json_value(load(GAME).analysis().table("hierarchy"))
    rank = {r["hand"]: r["rank"] for r in rows}
    assert len(rows) == 55
    assert rank["W-W"] == 1 and rank["9-9"] == 2 and rank["1-1"] == 10
    assert rank["8-2"] == 11 and rank["W-9"] == 12
    assert rank["9-8"] < rank["6-1"] and rank["5-2"] < rank["4-3"]
    assert rank["9-1"] < rank["7-3"] < rank["6-4"] == 55
    ways = {r["hand"]: r["ways"] for r in rows}
    assert ways["W-W"] == 6 and ways["9-8"] == 16


def test_hand_classes_and_events_match_settlements():
    paytable = load(GAME)
    analysis = paytable.analysis()
    assert sum(analysis.hand_classes.values()) == comb(40, 2)
    labels = {bet.name: {o.event for o in bet.outcomes} for bet in analysis.bets}
    for banker, player in [("4 2", "4 2"), ("6 1", "9 8"), ("W W", "2 8"), ("3 7", "1 9")]:
        hands = {"banker": banker, "player": player}
        result = paytable.game.settle(paytable.config, hands, Fraction(100))
        for hand in result.hands:
            assert hand.hand_class in analysis.hand_classes
        for bet in result.bets:
            assert bet.event in labels[bet.bet]


def test_tile_parsing_forms():
    shoe = load(GAME).config.tiles.build()
    assert [t.code for t in parse_tiles("w 9", shoe)] == ["W", "9"]
    assert [t.code for t in parse_tiles("W9", shoe)] == ["W", "9"]
    assert [t.code for t in parse_tiles("4,2", shoe)] == ["4", "2"]
    assert [t.code for t in parse_tiles("4-2", shoe)] == ["4", "2"]
    assert [t.code for t in parse_tiles("🀜 🀡", shoe)] == ["4", "9"]
    assert [t.code for t in parse_tiles("🀙🀡", shoe)] == ["1", "9"]
    with pytest.raises(OddsError, match="unknown tile"):
        parse_tiles("🀘", shoe)  # U+1F018 is a bamboo tile, not a dot


# ---------------------------------------------------------------------------
# Bad input: one line, exit 2


BAD = [
    (["settle", GAME, "--banker", "X 2", "--player", "4 2"], "unknown tile 'X'"),
    (["settle", GAME, "--banker", "0 2", "--player", "4 2"], "unknown tile '0'"),
    (["settle", GAME, "--banker", "4 2 1", "--player", "4 2"], "must be two tiles"),
    (["settle", GAME, "--banker", "7 7", "--player", "7 7", "--set", 'tiles.removed=["7"]'],
     "cannot hold the round's cards 7 7 7 7: it has 3 7"),
    (["report", GAME, "--set", 'tiles.removed=["7","7","7","7","7"]'], "it has 4 7"),
    (["report", GAME, "--set", "tiles.copies={1=4,2=4,3=4,4=4,5=4,6=4,7=5,8=4,9=4,W=3}"],
     "tiles.copies.7: 5 is above the maximum 4"),
    (["report", GAME, "--set", "payouts.commission=150%"], "above the maximum 1"),
    (["report", GAME, "--set", 'payouts.commission_on=["everyone"]'], "'everyone'"),
    (["settle", GAME, "--banker", "W 2", "--player", "4 2", "--set",
      "tiles.copies={1=4,2=4,3=4,4=4,5=4,6=4,7=4,8=4,9=4}"],
     "tile W is not in this game's tile set"),
    (["report", GAME, "--set", 'tiles.pair_order=["9","8"]'], "missing from the order"),
    (["report", GAME, "--set", "tiles.copies={1=4,T=4}"], "no point value for tile T"),
    (["report", GAME, "--set", "tiles.copies={1=2,2=2,3=2,4=1}"], "need 8"),
    (["report", GAME, "--decks", "2"], "has no decks"),
    (["report", GAME, "--set", "rules.zero_points=sometimes"], "'sometimes' is not one"),
    (["report", GAME, "--set", "rules.positions=30"], "above the maximum"),
    (["report", GAME, "--set", "rules.positions=4", "--set",
      "tiles.copies={1=2,2=2,3=2,4=2}"], "need 10"),
    (["settle", GAME, "--player", "4 2"], "missing --banker"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "message"), BAD, ids=lambda a: str(a)[:40])
def test_bad_input_is_one_line(run, args, message):
    code, _, err = run(*args)
    assert code == 2
    assert err.startswith("error: ")
    assert message in err, err
    assert err.count("\n") == 1
    assert "Traceback" not in err


def test_a_set_without_pairs_never_wins_the_pair_bet():
    """A paytable's own set is a composition: what it cannot deal has no ways (the rule
    book's set is checked: a category or outcome it never deals is refused)."""
    paytable = load(GAME, ["tiles.copies={1=1,2=1,3=1,4=1,5=1,6=1,7=1,8=1,9=1}"])
    analysis = paytable.analysis()
    assert [o.ways for o in analysis.bet("pair").outcomes] == [0, comb(9, 2) * comb(7, 2)]
    assert next(o.ways for o in analysis.bet("tie").outcomes) == 0
    assert "fair_payouts" not in analysis.table_keys()


def test_simulated_log_passes_the_audit(run, tmp_path):
    """The auditor's toolkit reads tiles through the game's hooks (shoe, parse_hand)."""
    log = tmp_path / "mahjong.csv"
    code, _, err = run("simulate", GAME, "--rounds", "600", "--seed", "7", "--out", str(log))
    assert code == 0, err
    assert log.read_text("utf-8").splitlines()[0] == "shoe,round,banker,player"
    code, out, err = run("audit", GAME, "--log", str(log), "--format", "json")
    assert code == 0, err
    assert json.loads(out)["rounds"] == 600


# ---------------------------------------------------------------------------
# The tile vocabulary refuses what a tile hand cannot be asked, in one line


def _definition(**changes: Any) -> dict[str, Any]:
    data = read_toml((ROOT / "tables" / f"{GAME}.toml").read_text("utf-8"), GAME)
    definition = dict(data["definition"])
    definition.update(changes)
    return dict(data, definition=definition)


def _categories(**pattern: Any) -> list[dict[str, Any]]:
    data = read_toml((ROOT / "tables" / f"{GAME}.toml").read_text("utf-8"), GAME)
    categories = [dict(c) for c in data["definition"]["categories"]]
    categories[1]["pattern"] = pattern
    return categories


BAD_DEFINITIONS = [
    (_definition(categories=_categories(flush=True)), "flush: a tile hand has no ranks or suits"),
    (_definition(categories=_categories(tiles=["2", "X"])),
     "tile X is not in the definition's tile set"),
    (_definition(tiles={"copies": {"1": 4}, "colours": {}}), "unknown key 'colours'"),
    (_definition(tiles={"copies": {"1": 5}}), "tiles.copies.1: 5 is above the maximum 4"),
    (_definition(tiles={"copies": {"1": 4, "T": 4}}), "no point value for tile T"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "message"), BAD_DEFINITIONS, ids=lambda x: str(x)[:30])
def test_a_tile_definition_is_refused_in_one_line(data, message):
    with pytest.raises(OddsError, match=re.escape(message)) as caught:
        from_data(data, "bad.toml")
    assert "\n" not in str(caught.value)


def test_a_tile_feature_is_refused_on_cards_and_a_card_feature_on_tiles():
    lucky = read_toml((ROOT / "tables" / "dragon-tiger.toml").read_text("utf-8"), "dt")
    definition = dict(lucky["definition"], categories=[
        {"name": "kong", "pattern": {"tiles": ["2", "8"]}}, {"name": "any"},
    ])  # fmt: skip
    with pytest.raises(OddsError, match="tiles: the definition deals cards"):
        from_data(dict(lucky, definition=definition), "bad.toml")
    data = _definition()
    bets = [dict(b) for b in data["definition"]["bets"]]
    bets[3] = dict(bets[3], outcomes=[
        {"name": "pair", "when": {"player": {"suit": "h"}}, "pays": "pair"},
        {"name": "no-pair", "otherwise": True, "loses": 1},
    ])  # fmt: skip
    data["definition"]["bets"] = bets
    with pytest.raises(OddsError, match="suit"):
        from_data(data, "bad.toml")
