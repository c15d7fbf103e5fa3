"""Pok Deng: rule-book examples, an independent reference, brute force, invariants."""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.core.cards import STANDARD_DECK, Card, Rank, Suit, card_shoe
from odds.core.shoe import Shoe
from odds.engine import deal_count, joint_class_distribution
from odds.engine.bruteforce import brute_force, ordering_factor
from odds.games.paytable import load
from odds.games.pok_deng.bench import brute_event_ways
from odds.games.pok_deng.counting import event_ways
from odds.games.pok_deng.options import PokDengConfig, PokDengRules
from odds.games.pok_deng.rules import classify, pair_events, player_events
from tests.reference.pok_deng import pair_net, player_net, special, value

PAYOUTS = PokDengConfig().payouts
NETS = {e.key: e.net for e in player_events(PAYOUTS) + pair_events(PAYOUTS)}

# ---------------------------------------------------------------------------
# Rule-book examples 1-9 (docs/rules/pok-deng.md §Rule-book examples), stake 100,
# through the CLI.

EXAMPLES = [
    (1, "4h 8c", "6c 7s", "player", 300),
    (2, "2c 3d", "9c 2d", "player", 100),
    (3, "Qc 10c", "Qc Jc", "player", 400),
    (4, "8c Jc", "9d 6c", "player", 0),
    (5, "6c 5c", "Jd Ac", "player", 200),
    (6, "Jc Kd", "5s 9h", "player", 0),
    (7, "6s 8s", "10c 10h", "player-pair", 1200),
    (8, "2h 4h", "5c 5c", "player", 300),
    (9, "9d 7c", "Kh 9h", "player", 400),
]


@pytest.mark.parametrize(("number", "banker", "player", "bet", "returned"), EXAMPLES)
def test_rule_book_examples(run, number, banker, player, bet, returned):
    code, out, err = run(
        "settle", "pok-deng", "--banker", banker, "--player", player, "--format", "json"
    )
    assert code == 0, err
    settled = {b["bet"]: b for b in json.loads(out)["bets"]}
    assert settled[bet]["returned"] == str(returned), f"example {number}"


def test_example_nine_by_its_arithmetic(run):
    code, out, _ = run(
        "settle",
        "tables/pok-deng-example9.toml",
        "--banker",
        "9d 7c",
        "--player",
        "Kh 9h",
        "--format",
        "json",
    )
    assert code == 0
    assert json.loads(out)["bets"][0]["returned"] == "300"


def test_settle_text_gives_reasons(run):
    code, out, _ = run("settle", "pok-deng", "--banker", "J♣ K♦", "--player", "5♠ 9♥")
    assert code == 0
    assert "Face-card Combo" in out and "banker wins with a special pattern: loses 2" in out


# ---------------------------------------------------------------------------
# The game module against the plain reference implementation.


def _plain(card: Card) -> tuple[int, str]:
    return int(card.rank), "cdhs"[card.suit]


def test_every_hand_classified_as_the_reference_does():
    for a, b in combinations_with_replacement(STANDARD_DECK, 2):
        hand = classify(a, b)
        assert Fraction(hand.tenths, 10) == value(_plain(a), _plain(b)), (a, b)
        assert hand.special == special(_plain(a), _plain(b)), (a, b)


@pytest.mark.parametrize("raw_total", [False, True])
@pytest.mark.parametrize("override", [False, True])
def test_settlement_matches_reference_for_every_class_pair(raw_total, override):
    rules = PokDengRules(
        banker_zero_or_six="raw-total" if raw_total else "ordinary", eight_nine_override=override
    )
    samples: dict[object, tuple[Card, Card]] = {}
    for a, b in combinations_with_replacement(STANDARD_DECK, 2):
        samples.setdefault(classify(a, b), (a, b))
    from odds.games.pok_deng.rules import settle_player

    for banker in samples.values():
        for player in samples.values():
            event = settle_player(classify(*player), classify(*banker), rules)
            expected = player_net(
                tuple(map(_plain, banker)), tuple(map(_plain, player)), raw_total, override
            )
            assert NETS[event] == expected, (banker, player)


# ---------------------------------------------------------------------------
# The engine against brute force with the reference rules.


def _reference_brute(shoe: Shoe[Card]) -> dict[str, Counter]:
    """Net-payout ways per bet: ordered enumeration settled by the reference rules."""
    types = shoe.types

    def settle(deal):
        player = tuple(_plain(types[t]) for t in deal[0])
        banker = tuple(_plain(types[t]) for t in deal[1])
        return {"player": player_net(banker, player), "player-pair": pair_net(player)}

    return brute_force(shoe.counts, (2, 2), settle)


def _engine_nets(shoe: Shoe[Card]) -> dict[str, dict[Fraction, Fraction]]:
    ways = event_ways(PokDengConfig(), shoe)
    result = {}
    for bet, events in ways.items():
        total = sum(events.values())
        merged: Counter = Counter()
        for event, w in events.items():
            merged[NETS[event]] += Fraction(w, total)
        result[bet] = {k: v for k, v in merged.items() if v}
    return result


def _as_probabilities(found: dict[str, dict]) -> dict[str, dict[Fraction, Fraction]]:
    result = {}
    for bet, nets in found.items():
        total = sum(nets.values())
        result[bet] = {Fraction(k): Fraction(v, total) for k, v in nets.items() if v}
    return result


def _two_suit_deck() -> Shoe[Card]:
    return card_shoe(1).restricted(lambda c: c.suit in (Suit.CLUBS, Suit.HEARTS), "2-suit deck")


def test_engine_equals_brute_force_two_suit_deck():
    shoe = _two_suit_deck()
    assert _engine_nets(shoe) == _as_probabilities(_reference_brute(shoe))


#: Every suit (so all 24 suit symmetries apply) and ranks that make every special pattern:
#: AK Flush, Special Pairs (A 5 6 10), Face-card Combos (J K), a 10 with a face, Flush with
#: No Point (A 9 suited), 8/9 points with a flush or pair, Banker ordinary 0 and 6.
ALL_SUITS_RANKS = (Rank.ACE, Rank.FIVE, Rank.SIX, Rank.NINE, Rank.TEN, Rank.JACK, Rank.KING)


def test_engine_equals_brute_force_every_suit():
    """Four suits of seven ranks (28 cards), every ordered deal; the full deck is `odds bench`'s."""
    shoe = card_shoe(1).restricted(lambda c: c.rank in ALL_SUITS_RANKS, "4 suits × 7 ranks")
    fast = event_ways(PokDengConfig(), shoe)
    slow = brute_event_ways(PokDengConfig(), shoe)
    assert fast == {bet: {e: w for e, w in events.items() if w} for bet, events in slow.items()}
    assert sum(fast["player"].values()) == deal_count(shoe.counts, (2, 2)) == 378 * 325
    assert len(fast["player"]) == 7  # every event of the Player bet occurs


SMALL_TYPES = tuple(
    Card(r, s)
    for r in (Rank.ACE, Rank.FIVE, Rank.NINE, Rank.KING)
    for s in (Suit.CLUBS, Suit.SPADES)
)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=len(SMALL_TYPES), max_size=len(SMALL_TYPES)))
def test_engine_equals_brute_force_random_compositions(counts):
    if sum(counts) < 4:
        return
    shoe = Shoe(SMALL_TYPES, tuple(counts), "random composition")
    assert _engine_nets(shoe) == _as_probabilities(_reference_brute(shoe))


def test_brute_force_ordering_factor():
    shoe = _two_suit_deck()
    ordered = brute_force(shoe.counts, (2, 2), lambda deal: {"all": "deal"})
    assert ordered["all"]["deal"] == deal_count(shoe.counts, (2, 2)) * ordering_factor((2, 2))


# ---------------------------------------------------------------------------
# Invariants of the full 8-deck analysis.


@pytest.fixture(scope="module")
def default_analysis():
    return load("pok-deng").analysis()


def test_distributions_sum_to_the_number_of_deals(default_analysis):
    player, pair = default_analysis.bets
    assert player.stats.total == deal_count((8,) * 52, (2, 2)) == 86320 * 85491
    assert pair.stats.total == 86320
    assert sum(default_analysis.hand_classes.values()) == 86320


def test_player_and_banker_hand_distributions_identical():
    shoe = card_shoe(8)
    joint = joint_class_distribution(
        shoe.counts, 2, lambda h: classify(shoe.types[h[0]], shoe.types[h[1]])
    )
    first: Counter = Counter()
    second: Counter = Counter()
    for (a, b), ways in joint.items():
        first[a] += ways
        second[b] += ways
    assert first == second


def test_special_pattern_symmetric_except_banker_zero_or_six(default_analysis):
    ways = {o.event: o.ways for o in default_analysis.bet("player").outcomes}
    wins_with_special = (
        ways["player wins with a special pattern"]
        + ways["player wins with 8 or 9 and a flush or pair, banker has 0 or 6"]
        + ways["player wins with a special pattern, banker has 0 or 6 (paid as an ordinary win)"]
    )
    assert wins_with_special == ways["banker wins with a special pattern"]
    assert ways["player wins, no special pattern"] == ways["banker wins, no special pattern"]


def test_known_exact_figures(default_analysis):
    assert default_analysis.bet("player-pair").stats.ev == Fraction(-43, 415)
    player = default_analysis.bet("player").stats
    assert player.ev == Fraction(-11531456, 461223945)
    assert player.rtp_debited == (2 + player.ev) / 2


def test_override_only_ever_helps_the_player():
    on = load("pok-deng").analysis().bet("player").stats.ev
    off = load("pok-deng-example9").analysis().bet("player").stats.ev
    assert on > off


def test_raising_a_payout_raises_the_return():
    base = load("pok-deng").analysis().bet("player-pair").stats.ev
    richer = load("pok-deng", ["payouts.pair=12"]).analysis().bet("player-pair").stats.ev
    assert richer - base == Fraction(6448, 86320)


def test_partly_dealt_shoe_changes_the_pair_odds():
    removed = load("pok-deng", ['shoe.removed=["Ah", "Ad", "As"]']).analysis()
    pair = removed.bet("player-pair").stats
    assert pair.total == 413 * 412 // 2
    # 12 full ranks of 32 cards and 29 aces: 12·C(32,2) + C(29,2) pairs of C(413,2) hands.
    pairs = 12 * 496 + 406
    assert pair.ev == Fraction(12 * pairs - pair.total, pair.total)
