"""Dragon Tiger: the engine against a plain enumeration, published figures, settle, bad input."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.core.cards import Card, Rank, Suit, card_shoe
from odds.core.shoe import Shoe
from odds.games.dragon_tiger import counting as a
from odds.games.dragon_tiger.state_values import state_ev
from odds.games.paytable import load

CONFIG = load("dragon-tiger").config


def reference_nets(dragon: tuple[int, int], tiger: tuple[int, int]) -> dict[str, Fraction]:
    """A plain reading of the rules: (rank 1-13, suit) cards, A low, default payouts."""
    (d, ds), (t, ts) = dragon, tiger
    result = {
        "dragon": Fraction(1) if d > t else (Fraction(-1, 2) if d == t else Fraction(-1)),
        "tiger": Fraction(1) if t > d else (Fraction(-1, 2) if d == t else Fraction(-1)),
        "tie": Fraction(8) if d == t else Fraction(-1),
        "suited-tie": Fraction(50) if d == t and ds == ts else Fraction(-1),
    }
    for side, rank in (("dragon", d), ("tiger", t)):
        result[f"{side}-big"] = Fraction(1) if rank >= 8 else Fraction(-1)
        result[f"{side}-small"] = Fraction(1) if rank <= 6 else Fraction(-1)
        result[f"{side}-odd"] = Fraction(1) if rank % 2 == 1 and rank != 7 else Fraction(-1)
        result[f"{side}-even"] = Fraction(1) if rank % 2 == 0 else Fraction(-1)
    return result


def _brute(shoe: Shoe[Card]) -> dict[str, Counter]:
    """Every ordered pair of cards, weighted by the counts, settled by the reference."""
    result: dict[str, Counter] = {}
    for i, (first, n) in enumerate(zip(shoe.types, shoe.counts, strict=True)):
        for j, (second, m) in enumerate(zip(shoe.types, shoe.counts, strict=True)):
            ways = n * (m - (i == j))
            if ways <= 0:
                continue
            plain = ((int(first.rank), int(first.suit)), (int(second.rank), int(second.suit)))
            for bet, net in reference_nets(*plain).items():
                result.setdefault(bet, Counter())[net] += ways
    return result


def _engine(shoe: Shoe[Card]) -> dict[str, Counter]:
    ways = a.event_ways(CONFIG, shoe.types, shoe.counts)
    nets = a.event_nets(CONFIG)
    result: dict[str, Counter] = {}
    for bet, events in ways.items():
        merged: Counter = Counter()
        for event, w in events.items():
            merged[nets[bet][event]] += w
        result[bet] = +merged
    return result


def test_engine_equals_brute_force_one_deck():
    shoe = card_shoe(1)
    assert _engine(shoe) == _brute(shoe)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=52, max_size=52))
def test_engine_equals_brute_force_random_compositions(counts):
    if sum(counts) < 2:
        return
    shoe = Shoe(card_shoe(1).types, tuple(counts), "random composition")
    assert _engine(shoe) == _brute(shoe)


@pytest.fixture(scope="module")
def analysis():
    return load("dragon-tiger").analysis()


def test_published_eight_deck_figures(analysis):
    edges = {b.name: f"{float(b.stats.house_edge) * 100:.2f}" for b in analysis.bets}
    assert edges["dragon"] == edges["tiger"] == "3.73"
    assert edges["tie"] == "32.77"
    assert edges["suited-tie"] == "13.98"
    assert {
        edges[f"{s}-{k}"] for s in ("dragon", "tiger") for k in ("big", "small", "odd", "even")
    } == {"7.69"}
    assert all(b.stats.total == 416 * 415 for b in analysis.bets)


def test_tie_loses_all_reading():
    edge = load("dragon-tiger", ["rules.tie_on_main_bets=lose-all"]).analysis().bet("dragon")
    # A tie (same rank) then costs the whole stake: the edge is P(tie) = 13·32·31 / (416·415).
    assert edge.stats.house_edge == Fraction(13 * 32 * 31, 416 * 415)


def test_dragon_and_tiger_are_symmetric(analysis):
    dragon, tiger = analysis.bet("dragon").outcomes, analysis.bet("tiger").outcomes
    assert [o.ways for o in dragon] == [o.ways for o in tiger]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.sampled_from(["Ah", "7c", "Kd", "Ks", "6h", "Qc"]), max_size=8))
def test_state_ev_equals_full_analysis(removed):
    changed = load("dragon-tiger", [f"shoe.removed={json.dumps(removed)}"])
    expected = {b.name: b.stats.ev for b in changed.analysis().bets}
    assert state_ev(CONFIG, changed.config.shoe.build().counts) == expected


def test_settle(run):
    code, out, _ = run(
        "settle", "dragon-tiger", "--dragon", "7h", "--tiger", "7h", "--format", "json"
    )
    assert code == 0
    settled = {b["bet"]: b for b in json.loads(out)["bets"]}
    assert settled["dragon"]["returned"] == "50"  # loses half of 100
    assert settled["suited-tie"]["returned"] == "5100"
    assert settled["dragon-big"]["event"] == "Dragon card 7"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dragon", "7h 8h", "--tiger", "2c"], "--dragon must be one card, got 2"),
        (["--dragon", "7h"], "missing --tiger"),
        (["--dragon", "7x", "--tiger", "2c"], "unknown card '7x'"),
        (["--dragon", "7h", "--tiger", "2c", "--banker", "4d 5d"], "has no --banker"),
    ],
)
def test_bad_input_is_one_line(run, args, message):
    code, out, err = run("settle", "dragon-tiger", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_simulated_log_audits_clean(run, tmp_path):
    log = tmp_path / "rounds.csv"
    assert (
        run("simulate", "dragon-tiger", "--rounds", "500", "--seed", "8", "--out", str(log))[0] == 0
    )
    code, out, _ = run("audit", "dragon-tiger", "--log", str(log))
    assert code == 0 and "Overall verdict: PASS" in out
    assert "hand classes: dragon" in out


def test_ranks_order_ace_low():
    from odds.games.dragon_tiger.rules import Round

    ace, king = Card(Rank.ACE, Suit.SPADES), Card(Rank.KING, Suit.CLUBS)
    assert Round.of(ace, king).winner == "tiger"
    assert Round.of(king, ace).winner == "dragon"
