"""Shoe-aware tests beyond baccarat and Dragon Tiger: every game's outcome law, checked.

Pok Deng's seat law (a seat's events given the Banker's hand and the cards seen)
is compared with a brute force over every two-card hand of a reduced shoe,
settled by the plain second implementation (``tests/reference/pok_deng.py``);
averaged over every Banker hand it must be the two-hand law of the state (the
exchangeability the seat-by-seat steps rest on). A doctored reduced shoe is
flagged by the shoe-aware tests and not off the top, on a small seeded log from
the independent dealer.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from odds.core.overrides import decks_override
from odds.games.paytable import TABLES, load_file
from odds.tools.audit.faults import Faults
from odds.tools.audit.shoe_tests import aware_tests, default_rounds, evaluate_rounds, state_odds
from odds.tools.audit.shoes import DealtRound, DealtShoe
from tests.measure import power
from tests.measure.independent_dealer import dealer_for
from tests.reference import pok_deng as reference


@pytest.fixture(scope="module")
def one_deck():
    return load_file(TABLES / "pok-deng.toml", [decks_override(1, "--decks 1")])


def _plain(card):
    return int(card.rank), str(card.suit)


def _state(table, removed: int, seed: int) -> list[int]:
    counts = list(table.game.shoe(table.config).counts)
    rng = random.Random(seed)
    for _ in range(removed):
        i = rng.choice([t for t, c in enumerate(counts) if c])
        counts[i] -= 1
    return counts


def _hands(counts):
    """Every two-card hand of a composition, as type pairs with their ways."""
    for i, j in itertools.combinations_with_replacement(range(len(counts)), 2):
        ways = counts[i] * (counts[i] - 1) // 2 if i == j else counts[i] * counts[j]
        if ways:
            yield (i, j), ways


def _player_nets(table):
    """The Player bet's net per outcome label (the paytable's own outcome table)."""
    return {o.event: o.net for o in table.bet_analysis().bet("player").outcomes}


def _by_net(table, labels, row):
    nets = _player_nets(table)
    found: Counter[Fraction] = Counter()
    for label, ways in zip(labels, row, strict=True):
        found[nets[label]] += int(ways)
    return {net: n for net, n in found.items() if n}


@pytest.mark.parametrize("seed", [1, 2])
def test_pok_deng_seat_law_is_the_brute_force_given_the_banker(one_deck, seed):
    table = one_deck
    types = table.game.shoe(table.config).types
    counts = _state(table, 20, seed)
    banker = next(h for h, _ in _hands(counts))
    left = list(counts)
    for t in banker:
        left[t] -= 1
    law, _ = state_odds(table.game, table.config)
    found = law(np.array([left]), [banker])
    nets: Counter[Fraction] = Counter()
    pairs: Counter[int] = Counter()
    b = tuple(_plain(types[t]) for t in banker)
    for (i, j), ways in _hands(left):
        player = (_plain(types[i]), _plain(types[j]))
        nets[Fraction(reference.player_net(b, player))] += ways
        pairs[reference.pair_net(player)] += ways
    labels, rows = found["player"]
    assert _by_net(table, labels, rows[0]) == dict(nets)
    pair_labels, pair_rows = found["player-pair"]
    assert [int(x) for x in pair_rows[0]] == [pairs[11], pairs[-1]]
    assert pair_labels[0] == "player's two cards are a pair"


def test_seat_laws_averaged_over_the_banker_are_the_two_hand_law(one_deck):
    """Σ over Banker hands of P(banker) · P(seat event | banker) = two hands from the state."""
    table = one_deck
    types = table.game.shoe(table.config).types
    counts = _state(table, 30, 3)
    law, _ = state_odds(table.game, table.config)
    size = sum(counts)
    mixed: Counter[str] = Counter()
    total = Fraction(0)
    bankers = list(_hands(counts))
    states = []
    for banker, _ in bankers:
        left = list(counts)
        for t in banker:
            left[t] -= 1
        states.append(left)
    labels, rows = law(np.array(states), [b for b, _ in bankers])["player"]
    for (_, ways), row in zip(bankers, rows, strict=True):
        weight = Fraction(ways, size * (size - 1) // 2)
        total += weight
        for label, n in zip(labels, row, strict=True):
            mixed[label] += weight * Fraction(int(n), int(row.sum()))
    assert total == 1
    # the two-hand law by brute force: every ordered pair of disjoint hands, plainly settled
    two: Counter[Fraction] = Counter()
    hands = list(_hands(counts))
    for (bh, bw), (ph, _) in itertools.product(hands, hands):
        left = list(counts)
        for t in bh:
            left[t] -= 1
        i, j = ph
        ways = left[i] * (left[i] - 1) // 2 if i == j else left[i] * left[j]
        if ways:
            b = tuple(_plain(types[t]) for t in bh)
            p = (_plain(types[i]), _plain(types[j]))
            two[Fraction(reference.player_net(b, p))] += bw * ways
    denominator = sum(two.values())
    nets = _player_nets(table)
    by_net: Counter[Fraction] = Counter()
    for label, share in mixed.items():
        by_net[nets[label]] += share
    assert {n: v for n, v in by_net.items() if v} == {
        n: Fraction(w, denominator) for n, w in two.items()
    }


def test_seats_of_a_round_are_steps_given_the_banker_and_the_seats_before(one_deck):
    table = one_deck
    shoe = table.game.shoe(table.config)
    text = ["Ah Kd", "9s 9c", "2h 3h", "", "Qs Js", "5d 5h"]
    cards = tuple(shoe.index(c) for t in text if t for c in table.game.parse_hand(table.config, t))
    hands = tuple(text[0] if p == "banker" else "" for p in table.game.positions)
    dealt = DealtShoe("1", (DealtRound(2, "1", cards, hands, tuple(text[1:])),))
    law, round_cards = state_odds(table.game, table.config)
    rounds = evaluate_rounds(table.game, table.config, law, round_cards, [dealt])
    assert len(rounds.events) == 4  # four occupied seats
    _, ways = rounds.ways["player-pair"]
    # seat 1 is dealt from 50 cards, seat 2 from 48, seat 3 (the empty seat skipped) from 46
    assert [int(w.sum()) for w in ways] == [50 * 49 // 2, 48 * 47 // 2, 46 * 45 // 2, 44 * 43 // 2]
    assert "seats" in rounds.notes[-1]


def test_a_doctored_shoe_is_seen_shoe_aware_before_off_the_top():
    """Every 9 taken out of each 8-deck Pok Deng shoe: 24 seeded shoes from the independent dealer.

    Off the top (the first seat of each round, as the audit counts it) the missing rank
    barely moves the bets' events; given the cards seen, the shoe claims ever more 9s
    among ever fewer cards (the power table in docs/commands/audit.md: 80% of logs of 32
    shoes flagged shoe-aware, none by the bets' off-the-top tests).
    """
    table = load_file(TABLES / "pok-deng.toml")
    shoe = table.game.shoe(table.config)
    nines = tuple(shoe.index(c) for c in table.game.parse_hand(table.config, "9c 9d 9h 9s"))
    dealer = dealer_for(table.game, table.config, Faults(missing=nines * 8))
    shoes = dealer.shoes(24, seed=2)  # flagged shoe-aware in 6 of seeds 1–10, off the top in 2
    threshold = power.ALPHA / power.audit_tests(table)
    law, round_cards = state_odds(table.game, table.config)
    aware = aware_tests(evaluate_rounds(table.game, table.config, law, round_cards, shoes), "line")
    assert [t.name for t in aware] == ["shoe-aware: bet player", "shoe-aware: bet player-pair"]
    failing = [t for t in aware if t.p is not None and t.p.value < threshold]
    assert failing and all("shoe " in t.finding for t in failing)
    assert not power.off_the_top_fails(table, shoes, threshold)
    assert not power.off_the_top_fails(table, shoes, threshold, hand_classes=False)


def test_honest_pok_deng_logs_rarely_flag_shoe_aware(one_deck):
    """20 honest logs of two 8-deck shoes: the shoe-aware tests at α = 5% within α + 3 SD."""
    table = load_file(TABLES / "pok-deng.toml")
    dealer = dealer_for(table.game, table.config)
    law, round_cards = state_odds(table.game, table.config)
    logs, flagged = 20, Counter()
    for seed in range(logs):
        shoes = dealer.shoes(2, seed)
        tests = aware_tests(
            evaluate_rounds(table.game, table.config, law, round_cards, shoes), "line"
        )
        for test in tests:
            assert test.p is not None
            flagged[test.name] += test.p.value < 0.05
    assert max(flagged.values()) <= power.allowed(logs, 0.05)


def test_the_bound_names_the_shoes_tested_and_not(one_deck):
    table = load_file(TABLES / "dragon-tiger.toml")
    shoes = dealer_for(table.game, table.config).shoes(3, seed=2)
    law, round_cards = state_odds(table.game, table.config)
    first = len(shoes[0].rounds)
    rounds = evaluate_rounds(
        table.game, table.config, law, round_cards, shoes, max_rounds=first + 1
    )
    assert set(rounds.shoe_of) == {0}
    assert rounds.notes[0].startswith(f"the shoe-aware tests cover shoes 1 ({first:,} rounds")
    assert "shoes 2 … 3" in rounds.notes[0] and "tested off the top only" in rounds.notes[0]
    tested = [t.name for t in aware_tests(rounds, "line") if t.p is not None]
    assert len(tested) == len(rounds.ways) - 1  # all but the suited tie (too rare in one shoe)
    teen_patti = load_file(TABLES / "teen-patti-2020.toml")
    slow, _ = state_odds(teen_patti.game, teen_patti.config)
    assert default_rounds(slow) == 60  # a declared second a state: a minute's work


def test_every_game_with_an_outcome_law_gets_the_shoe_aware_tests():
    """The defined games (a side bet, a three-card showdown) and Goa Gae: the same code path."""
    for name in ("dragon-tiger-side-bets", "teen-patti-2020", "goa-gae"):
        table = load_file(TABLES / f"{name}.toml")
        assert state_odds(table.game, table.config) is not None, name
    table = load_file(TABLES / "mahjong-28.toml")  # five rounds a set: never dealt through
    assert state_odds(table.game, table.config) is None
