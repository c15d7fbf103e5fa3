"""Mahjong 2-8 tiles: the engine against brute force, the k-hand joint, the reports' tables."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, pairwise
from math import comb, factorial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.reference.mahjong as ref
from odds.cli import main
from odds.core.table import json_value
from odds.engine import deal_count, sequential_distribution
from odds.engine.bruteforce import brute_force, ordered_deals, ordering_factor
from odds.games.mahjong import GAME
from odds.games.mahjong.bench import brute_pair_results
from odds.games.mahjong.positions import pair_results
from odds.games.mahjong.rules import bet_rules, hand_infos
from odds.games.paytable import load, load_file, table_files
from odds.stats.bets import sqrt_decimal

MAHJONG_TABLES = [p for p in table_files() if load_file(p).game.name == GAME.name]


def codes(shoe, hand):
    return tuple(shoe.types[t].code for t in hand)


def reference_ways(config, shoe):
    """{bet: {event key: unordered ways}} by brute force with the reference rules."""

    def settle(deal):
        return ref.settle(codes(shoe, deal[0]), codes(shoe, deal[1]), config)

    found = brute_force(shoe.counts, (2, 2), settle)
    factor = ordering_factor((2, 2))
    return {bet: {e: w // factor for e, w in events.items()} for bet, events in found.items()}


def check_against_reference(paytable):
    config = paytable.config
    shoe = config.tiles.build()
    expected = reference_ways(config, shoe)
    nets = ref.nets(config)
    analysis = paytable.analysis()
    rules = {rule.name: rule for rule in bet_rules(config)}
    assert {bet.name for bet in analysis.bets} == set(expected)
    for bet in analysis.bets:
        rule = rules[bet.name]
        for event, outcome in zip(rule.events, bet.outcomes, strict=True):
            assert outcome.event == event.label
            assert outcome.ways == expected[bet.name].get(event.key, 0), (bet.name, event.key)
            assert outcome.net == nets[bet.name][event.key], (bet.name, event.key)
        total = deal_count(shoe.counts, (2, 2))
        ev = Fraction(sum(nets[bet.name][e] * w for e, w in expected[bet.name].items()), total)
        assert bet.stats.ev == ev
    return analysis


@pytest.mark.parametrize("path", MAHJONG_TABLES, ids=lambda p: p.stem)
def test_every_paytable_equals_brute_force(path):
    check_against_reference(load_file(path))


def test_there_are_three_mahjong_paytables():
    assert {p.stem for p in MAHJONG_TABLES} >= {"mahjong-28", "mahjong-28-36", "mahjong-28-20"}


VARIANTS = [
    ["rules.two_eight_special=false"],
    ["rules.zero_points=equal"],
    ["rules.zero_points=equal", "rules.zero_tie_to_banker=true"],
    ["rules.zero_tie_to_banker=true"],
    ["rules.exact_tie_to_banker=true", "rules.tie_result=lose"],
    ['payouts.commission_on=["player-wins","tie","pair","banker"]', "payouts.commission=7%"],
    ["payouts.player_wins=2", "payouts.pair=0"],
    ['tiles.single_order=["1","2","3","4","5","6","7","8","9","W"]'],
    ['tiles.pair_order=["5","W","9","8","7","6","4","3","2","1"]'],
    ["tiles.points={1=1,2=2,3=3,4=4,5=5,6=6,7=7,8=8,9=9,W=0}"],
    ['tiles.removed=["W","9","9","2"]'],
    ["tiles.copies={1=3,2=2,8=4,9=1,W=2}", "rules.positions=2"],
]


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: " ".join(o))
def test_variants_equal_brute_force(overrides):
    check_against_reference(load("mahjong-28", overrides))


def test_banker_and_player_are_symmetric_by_default():
    analysis = load("mahjong-28").analysis()
    wins = {o.event: o.ways for o in analysis.bet("player-wins").outcomes}
    assert wins["position beats the banker"] == wins["banker beats the position"]
    assert analysis.bet("banker").stats.ev == 0


# ---------------------------------------------------------------------------
# The k-hand joint distribution (engine.sequential_distribution)


@settings(max_examples=40, deadline=None)
@given(
    counts=st.lists(st.integers(0, 3), min_size=1, max_size=4).filter(lambda c: sum(c) >= 4),
    size=st.integers(1, 2),
    number=st.integers(1, 3),
)
def test_sequential_distribution_equals_ordered_enumeration(counts, size, number):
    if sum(counts) < size * number:
        return
    counts = tuple(counts)

    def classify(hand):
        return sum(hand) % 3

    def fold(state, cls):
        return (*state, cls)

    fast = sequential_distribution(counts, size, number, classify, fold, ())
    slow = Counter()
    for deal, ways in ordered_deals(counts, [size] * number).items():
        slow[tuple(classify(h) for h in deal)] += ways
    factor = factorial(size) ** number
    assert fast == {k: v // factor for k, v in slow.items() if v}


def test_sequential_distribution_total():
    counts = (4,) * 10
    d = sequential_distribution(counts, 2, 2, lambda h: h, lambda s, c: (*s, c), ())
    assert sum(d.values()) == comb(40, 2) * comb(38, 2)


def reference_pairs(config, shoe):
    """Banker then two positions, by brute force with the reference rules."""

    def settle(deal):
        banker = codes(shoe, deal[0])
        one = ref.settle(codes(shoe, deal[1]), banker, config)
        two = ref.settle(codes(shoe, deal[2]), banker, config)
        return {bet: tuple(sorted((one[bet], two[bet]))) for bet in one}

    factor = ordering_factor((2, 2, 2))
    found = brute_force(shoe.counts, (2, 2, 2), settle)
    return {bet: {e: w // factor for e, w in events.items()} for bet, events in found.items()}


@pytest.mark.parametrize(
    "overrides",
    [
        ["tiles.copies={1=2,2=2,8=2,9=1,W=2}"],
        [
            "tiles.copies={1=2,2=2,8=2,9=1,W=2}",
            "rules.zero_points=equal",
            "rules.zero_tie_to_banker=true",
            "rules.exact_tie_to_banker=true",
        ],
    ],
)
def test_two_positions_equal_brute_force(overrides):
    paytable = load("mahjong-28", overrides)
    config = paytable.config
    shoe = config.tiles.build()
    pairs = pair_results(config, shoe)
    expected = reference_pairs(config, shoe)
    for rule in bet_rules(config):
        mine = Counter()
        for (a, b), w in pairs.items():
            mine[tuple(sorted((rule.settle(a), rule.settle(b))))] += w
        assert dict(mine) == expected[rule.name]


def test_two_positions_twenty_tile_set_equals_brute_force():
    paytable = load_file(next(p for p in MAHJONG_TABLES if p.stem == "mahjong-28-20"))
    config = paytable.config
    shoe = config.tiles.build()
    assert pair_results(config, shoe) == brute_pair_results(config, shoe)
    assert sum(pair_results(config, shoe).values()) == comb(20, 2) * comb(18, 2) * comb(16, 2)


def test_all_positions_sd_equals_the_full_joint():
    """k·Var + k(k−1)·Cov from two positions equals the variance of the full k-position deal."""
    k = 3
    overrides = ["tiles.copies={1=3,2=2,5=2,8=3,W=2}", f"rules.positions={k}"]
    paytable = load("mahjong-28", overrides)
    config = paytable.config
    shoe = config.tiles.build()
    analysis = paytable.analysis()
    table = next(t for t in analysis.tables if t.key == "positions")
    ranking_infos = hand_infos(config, shoe)
    nets = ref.nets(config)

    def fold(state, info):
        if not state:
            return (info,)
        banker = state[0]
        outcome = ref.settle(info.tiles, banker.tiles, config)
        return (banker, *sorted((*state[1:], tuple(sorted(outcome.items())))))

    joint = sequential_distribution(shoe.counts, 2, k + 1, ranking_infos.__getitem__, fold, ())
    total = sum(joint.values())
    for row in json_value(table):
        bet = row["bet"]
        mean = second = Fraction(0)
        for state, ways in joint.items():
            value = sum(nets[bet][dict(o)[bet]] for o in state[1:])
            mean += value * ways
            second += value * value * ways
        mean /= total
        variance = second / total - mean * mean
        assert Fraction(row["ev_all_positions"]) == mean
        assert Fraction(row["variance_all_positions"]) == variance


# ---------------------------------------------------------------------------
# Hierarchy table, hand classes, JSON


def test_hierarchy_table_follows_the_reference_order():
    for path in MAHJONG_TABLES:
        paytable = load_file(path)
        config = paytable.config
        shoe = config.tiles.build()
        analysis = paytable.analysis()
        table = next(t for t in analysis.tables if t.key == "hierarchy")
        rows = json_value(table)
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
            assert lower["rank"] - upper["rank"] in (0, 1)


def test_default_hierarchy_spot_checks():
    analysis = load("mahjong-28").analysis()
    rows = json_value(next(t for t in analysis.tables if t.key == "hierarchy"))
    rank = {r["hand"]: r["rank"] for r in rows}
    assert len(rows) == 55
    assert rank["W-W"] == 1 and rank["9-9"] == 2 and rank["1-1"] == 10
    assert rank["8-2"] == 11 and rank["W-9"] == 12
    assert rank["9-8"] < rank["6-1"] and rank["5-2"] < rank["4-3"]
    assert rank["9-1"] < rank["7-3"] < rank["6-4"] == 55
    ways = {r["hand"]: r["ways"] for r in rows}
    assert ways["W-W"] == 6 and ways["9-8"] == 16


def test_equal_zero_hands_share_a_rank():
    path = next(p for p in MAHJONG_TABLES if p.stem == "mahjong-28-20")
    rows = json_value(load_file(path).analysis().table("hierarchy"))
    zero = {r["rank"] for r in rows if r["class"] == "0 points"}
    assert len(zero) == 1
    assert rows[0]["hand"] == "T-T"


def test_hand_classes_and_events_match_settlements():
    paytable = load("mahjong-28")
    analysis = paytable.analysis()
    assert sum(analysis.hand_classes.values()) == comb(40, 2)
    labels = {bet.name: {o.event for o in bet.outcomes} for bet in analysis.bets}
    for banker, player in [("4 2", "4 2"), ("6 1", "9 8"), ("W W", "2 8"), ("3 7", "1 9")]:
        result = GAME.settle(paytable.config, {"banker": banker, "player": player}, Fraction(100))
        for hand in result.hands:
            assert hand.hand_class in analysis.hand_classes
        for bet in result.bets:
            assert bet.event in labels[bet.bet]


def test_json_report_shape(capsys):
    assert main(["report", "mahjong-28", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "mahjong-28"
    assert data["deals"] == comb(40, 2) * comb(38, 2)
    assert {b["name"] for b in data["bets"]} == {
        "player-wins",
        "player-loses",
        "tie",
        "pair",
        "banker",
    }
    for bet in data["bets"]:
        assert sum(o["ways"] for o in bet["outcomes"]) == bet["total_ways"] == data["deals"]
    assert {"hierarchy", "fair_payouts", "positions"} <= set(data)
    fair = {r["bet"]: Fraction(r["fair_payout"]) for r in data["fair_payouts"]}
    assert fair["pair"] == 12  # P(pair) = 60/780 = 1/13
    assert fair["tie"] == Fraction(548340 - 6540, 6540)
    sd = next(r for r in data["positions"] if r["bet"] == "player-wins")
    assert Fraction(sd["correlation"]) > 0  # positions sharing a banker move together


def test_bench_runs_engine_and_brute_force(tmp_path, capsys):
    small = tmp_path / "small.toml"
    small.write_text(
        'game = "mahjong-28"\n[tiles]\ncopies = { 1 = 2, 2 = 2, 8 = 2, W = 2 }\n', "utf-8"
    )
    assert main(["bench", str(small), "--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "Mahjong 2-8, one position" in out and "banker and two positions" in out
    assert "| yes" in out


def test_sd_is_exact_enough():
    analysis = load("mahjong-28").analysis()
    bet = analysis.bet("pair")
    assert bet.stats.variance == Fraction(36 * 1 + 1 * 12, 13) - Fraction(36, 169)
    assert sqrt_decimal(bet.stats.variance) == bet.stats.sd
