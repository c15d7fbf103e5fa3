"""The shoe-level tests of an audit: hypergeometric frequencies, shoe-aware tests, shuffle quality.

The permutation moments of the shuffle statistics and the hypergeometric means
are checked against brute force over every order (or every draw) of small
multisets; the independent dealer's tableau against the game's settlement;
the faults of ``odds simulate`` end to end, each caught and named. All runs
are small and seeded (the full power table is ``python -m tests.measure.power``).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from math import comb

import pytest

from odds.core.overrides import decks_override
from odds.games.paytable import TABLES, load_file
from odds.tools.audit.faults import Faults, riffle, stack_slug
from odds.tools.audit.frequencies import frequency_tests
from odds.tools.audit.shoe_study import run_tests
from odds.tools.audit.shoe_tests import aware_tests, evaluate_rounds, state_odds
from odds.tools.audit.shoes import DealtShoe, dealt_shoe
from odds.tools.audit.shuffle import (
    kept_pairs_moments,
    runs_moments,
    serial_moments,
    shuffle_tests,
)
from tests.measure import power
from tests.measure.independent_dealer import baccarat_coup, baccarat_totals, dealer_for


def _orders(values):
    return set(itertools.permutations(values))


def _brute(values, statistic):
    orders = _orders(values)
    found = [Fraction(statistic(o)) for o in orders]
    mean = sum(found, Fraction(0)) / len(found)
    return mean, sum(((x - mean) ** 2 for x in found), Fraction(0)) / len(found)


@pytest.mark.parametrize("values", [(1, 1, 2, 3, 3, 5), (2, 2, 2, 7, 9), (1, 4, 4, 4, 4, 13, 13)])
def test_serial_moments_are_those_of_every_order(values):
    moments = serial_moments(values)
    mean, variance = _brute(values, lambda o: sum(a * b for a, b in itertools.pairwise(o)))
    assert (moments.mean, moments.variance) == (mean, variance)


@pytest.mark.parametrize("high", [(True, True, False, False, False), (True,) * 3 + (False,) * 4])
def test_runs_moments_are_those_of_every_order(high):
    moments = runs_moments(high)
    mean, variance = _brute(high, lambda o: 1 + sum(a != b for a, b in itertools.pairwise(o)))
    assert (moments.mean, moments.variance) == (mean, variance)


@pytest.mark.parametrize(
    ("previous", "cards"),
    [
        ((0, 1, 2, 0, 1), (0, 1, 1, 2, 0, 3)),
        ((2, 2, 1, 0), (2, 2, 1, 1, 0, 0)),
        ((0, 1), (1, 0, 1, 0, 2)),
    ],
)
def test_kept_pairs_moments_are_those_of_every_order(previous, cards):
    moments = kept_pairs_moments(previous, cards)
    pairs = set(itertools.pairwise(previous))
    mean, variance = _brute(cards, lambda o: sum(p in pairs for p in itertools.pairwise(o)))
    assert (moments.mean, moments.variance) == (mean, variance)


def test_the_dispersion_statistic_has_mean_groups_less_one_exactly():
    """E[Σ_g (x_g − n p_g)² / (w p_g)] = G − 1 over every hypergeometric draw (a 3-group shoe)."""
    holds, n = (3, 2, 4), 4
    size = sum(holds)
    w = Fraction(n * (size - n), size - 1)
    total, weight = Fraction(0), 0
    for x in itertools.product(*(range(h + 1) for h in holds)):
        if sum(x) != n:
            continue
        ways = math.prod(comb(h, k) for h, k in zip(holds, x, strict=True))
        stat = sum(
            (Fraction(k) - Fraction(n * h, size)) ** 2 / (w * Fraction(h, size))
            for h, k in zip(holds, x, strict=True)
        )
        total += ways * stat
        weight += ways
    assert weight == comb(size, n)
    assert total / weight == len(holds) - 1


@pytest.fixture(scope="module")
def baccarat():
    return load_file(TABLES / "baccarat.toml")


@pytest.fixture(scope="module")
def two_decks():
    return load_file(TABLES / "baccarat.toml", [decks_override(2, "--decks 2")])


@pytest.fixture(scope="module")
def dragon_tiger():
    return load_file(TABLES / "dragon-tiger.toml")


def test_the_independent_dealer_agrees_with_the_game(baccarat):
    """Two implementations of the tableau: the dealer's totals decide what the game settles."""
    dealer = dealer_for(baccarat.game, baccarat.config)
    (shoe,) = dealer.shoes(1, seed=3)
    for dealt in shoe.rounds:
        hands = dict(zip(baccarat.game.positions, dealt.hands, strict=True))
        settled = baccarat.game.settle(baccarat.config, hands, Fraction(1))
        banker = next(b for b in settled.bets if b.bet == "banker")
        cards = {p: [c for c in h.split()] for p, h in hands.items()}
        assert len(cards["player"]) in (2, 3) and len(cards["banker"]) in (2, 3)
        # the game refuses a coup the tableau cannot deal, so settling it checks the drawing
        assert banker.event


def coup_outcomes(count: int, seed: int) -> Iterator[tuple[int, int]]:
    """(Player total, Banker total) of ``count`` coups from fresh 8-deck shoes (for checks)."""
    rng = random.Random(seed)
    cards = [c for c in range(52) for _ in range(8)]
    for _ in range(count):
        order = rng.sample(cards, 6)
        draw = iter(order).__next__
        yield baccarat_totals(*baccarat_coup(draw))


def test_the_independent_dealer_deals_the_exact_odds(baccarat):
    """Banker, Player and tie frequencies of 20,000 fresh coups against the exact odds."""
    bet = next(b for b in baccarat.analysis().bets if b.name == "banker")
    exact = {o.event: Fraction(o.ways, bet.stats.total) for o in bet.outcomes}
    seen = Counter(
        "banker" if b > p else "player" if p > b else "tie" for p, b in coup_outcomes(20_000, 1)
    )
    labels = {
        "banker": "Banker wins (less commission)",
        "player": "Player wins",
        "tie": "tie (push)",
    }
    for kind, label in labels.items():
        p = float(exact[label])
        z = (seen[kind] - 20_000 * p) / math.sqrt(20_000 * p * (1 - p))
        assert abs(z) < 4, (kind, z)


def test_baccarat_totals():
    # 9♣ K♦ against 4♥ 3♠ A♣: 9 against 8
    assert baccarat_totals([8 * 4, 12 * 4 + 1], [3 * 4 + 2, 2 * 4 + 3, 0]) == (9, 8)


def test_riffle_and_slug_keep_the_cards():
    import random

    cards = list(range(60))
    assert sorted(riffle(random.Random(1), cards)) == cards
    slugged = stack_slug(random.Random(2), cards[::-1], 10, lambda c: c)
    assert sorted(slugged) == cards
    runs = [b - a for a, b in itertools.pairwise(slugged)]
    assert any(all(d > 0 for d in runs[i : i + 9]) for i in range(len(runs) - 8))


def test_frequency_tests_name_the_rank_and_the_shoes(baccarat):
    """Four extra 9s in each of six shoes: the pooled test fails on rank 9, naming shoes."""
    table = baccarat
    shoe = table.game.shoe(table.config)
    extra = tuple(shoe.index(c) for c in table.game.parse_hand(table.config, "9h 9s 9d 9c"))
    dealer = dealer_for(table.game, table.config, Faults(extra=extra))
    shoes = dealer.shoes(6, seed=4)
    pooled, *_ = frequency_tests(shoe, shoes, "line")
    assert pooled.p is not None and pooled.p.value < 0.01
    assert "rank 9 is more common" in pooled.finding and "shoe " in pooled.finding
    honest = dealer_for(table.game, table.config).shoes(6, seed=4)
    assert all(t.p is not None and t.p.value > 1e-3 for t in frequency_tests(shoe, honest, "line"))


def test_a_shoe_showing_more_than_it_holds_is_impossible(two_decks):
    shoe = two_decks.game.shoe(two_decks.config)
    nine = shoe.index(two_decks.game.parse_hand(two_decks.config, "9h")[0])
    rounds = [(nine,)] * 6 + [(c,) for c in range(40)]
    dealt = dealt_shoe("7", rounds)
    tests = frequency_tests(shoe, [dealt], "line")
    assert tests[0].p is not None and tests[0].p.value == 0
    assert "shoe 7 shows" in tests[0].finding and "rounds 1–46" in tests[0].finding


def test_shuffle_tests_catch_a_weak_shuffle_and_a_slug(baccarat):
    weak = dealer_for(baccarat.game, baccarat.config, Faults(weak_shuffle=True)).shoes(2, 5)
    kept = run_tests(baccarat.game, baccarat.config, tuple(weak), aware=False).tests[-1]
    assert kept.name == "shuffle: the previous shoe's order kept"
    assert kept.p is not None and kept.p.value < 1e-10 and "shoe 2" in kept.finding
    slugged = dealer_for(baccarat.game, baccarat.config, Faults(slug=104)).shoes(3, 5)
    tests = run_tests(baccarat.game, baccarat.config, tuple(slugged), aware=False).tests
    serial = next(t for t in tests if t.name == "shuffle: serial correlation of ranks")
    runs = next(t for t in tests if t.name == "shuffle: runs of high and low cards")
    assert serial.p is not None and serial.p.value < 1e-3 and serial.statistic > 0
    assert runs.p is not None and runs.p.value < 1e-3 and runs.statistic < 0  # clumped


def test_honest_shoes_keep_each_shuffle_test_within_alpha(baccarat):
    """25 honest 2-shoe logs: each shuffle test rejects at most α·logs + 3 SD at α = 5%."""
    dealer = dealer_for(baccarat.game, baccarat.config)
    rejected: Counter[str] = Counter()
    logs = 25
    shoe = baccarat.game.shoe(baccarat.config)
    for seed in range(logs):
        for test in shuffle_tests(shoe, dealer.shoes(2, seed), "line"):
            assert test.p is not None
            rejected[test.name] += test.p.value < 0.05
    assert len(rejected) == 3
    assert max(rejected.values()) <= power.allowed(logs, 0.05)


def test_shoe_aware_is_more_powerful_than_off_the_top_for_a_doctored_shoe(dragon_tiger):
    """Eight extra 7s in each of eight Dragon Tiger shoes: the shoe-aware tests see it first."""
    table = dragon_tiger
    shoe = table.game.shoe(table.config)
    sevens = tuple(shoe.index(c) for c in table.game.parse_hand(table.config, "7c 7d 7h 7s")) * 2
    shoes = dealer_for(table.game, table.config, Faults(extra=sevens)).shoes(8, seed=1)
    found = state_odds(table.game, table.config)
    assert found is not None
    aware = aware_tests(evaluate_rounds(table.game, table.config, *found, shoes), "line")
    threshold = power.ALPHA / power.audit_tests(table)
    assert min(t.p.value for t in aware if t.p is not None) < threshold
    assert not power.off_the_top_fails(table, shoes, threshold)
    failing = [t for t in aware if t.p is not None and t.p.value < threshold]
    assert any("card 7" in t.finding and "shoe " in t.finding for t in failing)


def test_shoe_aware_state_is_the_shoe_less_the_cards_seen(dragon_tiger):
    """The first round's odds are the full shoe's; the second's lack the first round's cards."""
    table = dragon_tiger
    (shoe,) = dealer_for(table.game, table.config).shoes(1, seed=1)
    shoe = DealtShoe(shoe.label, shoe.rounds[:2])
    found = state_odds(table.game, table.config)
    assert found is not None
    rounds = evaluate_rounds(table.game, table.config, *found, [shoe])
    labels, ways = rounds.ways["tie"]
    full = table.game.shoe(table.config)
    counts = list(full.counts)
    ties = [sum(c * (c - 1) for c in _rank_counts(full, counts))]
    for card in shoe.rounds[0].cards:
        counts[card] -= 1
    ties.append(sum(c * (c - 1) for c in _rank_counts(full, counts)))
    assert labels == ["same rank", "different ranks"]
    sizes = [full.size, full.size - len(shoe.rounds[0].cards)]
    for i in range(2):
        assert Fraction(int(ways[i][0]), int(ways[i].sum())) == Fraction(
            ties[i], sizes[i] * (sizes[i] - 1)
        )


def _rank_counts(shoe, counts):
    ranks: Counter[int] = Counter()
    for t, c in zip(shoe.types, counts, strict=True):
        ranks[int(t.rank)] += c
    return list(ranks.values())


def test_power_search_and_the_computed_faults():
    grid = tuple(range(1, 101))
    size, rate, tried = power.smallest_size(lambda n: min(1.0, n / 50), grid)
    assert size == 40 and rate == 0.8 and len(tried) < 15
    assert power.smallest_size(lambda n: 0.0, (1, 2, 3))[0] is None
    assert power.mis_settled_rounds() == 1609  # ln 0.2 / ln 0.999 = 1608.6
    assert 1 - 0.999**1609 >= 0.8 > 1 - 0.999**1608


def test_simulated_faults_are_caught_and_named(tmp_path, capsys):
    """``odds simulate`` plants the fault; ``odds audit`` flags it and names the shoe.

    In-process, as the docs' examples run (the same ``main`` the command line calls): the
    two interpreters it started cost 1.02 CPU-s, the two commands in-process 0.42 (its file
    alone, pytest -n0)."""
    from odds.cli import main

    log = tmp_path / "weak.csv"
    made = main(
        ["simulate", "dragon-tiger", "--rounds", "340", "--seed", "3", "--penetration", "80%",
         "--weak-shuffle", "--out", str(log)]
    )  # fmt: skip
    assert made == 0, capsys.readouterr().err
    capsys.readouterr()
    audited = main(["audit", "dragon-tiger", "--log", str(log)])
    stdout = capsys.readouterr().out
    assert audited == 1, stdout
    assert "Finding: shuffle: the previous shoe's order kept" in stdout
    assert "most extreme: shoe 2 " in stdout
    assert "## Shoe by shoe" in stdout


def test_honest_logs_keep_the_off_the_top_family_within_alpha():
    """The power study's off-the-top rows (quick sizes, 1 to 1,000 rounds) on honest logs.

    The independent dealer deals them, so a bias in the games' own dealing cannot make the
    exact off-the-top laws agree with it by construction.
    """
    rows = power.off_the_top_alarms(reps=1, seed=3, quick=True)
    assert [row[1] for row in rows] == ["1 rounds", "10 rounds", "100 rounds", "1,000 rounds"]
    for name, _, logs, flagged, _, _ in rows:
        assert name == "off the top, baccarat (28 tests)"
        assert flagged <= power.allowed(logs)


def test_by_dealer_names_no_honest_dealer_and_names_a_biased_one():
    """The power study's ``--by dealer`` row (quick size) on honest logs, then one dealer whose
    shoes deal the Player a win every round: the groups' family must name that dealer.

    The audit's own group tests judge both (Holm after Tarone at α/2), so the honest row can
    only pass by the tests holding their level, and the biased log only fail by their power.
    """
    from dataclasses import replace

    rows = power.by_dealer_alarms(reps=1, seed=3, quick=True)
    assert [row[1:3] for row in rows] == [("1,000 rounds", 4)]
    assert all(flagged <= power.allowed(logs, power.ALPHA / 2) for _, _, logs, flagged, *_ in rows)

    bac = power.paytable("baccarat")
    dealer = power.dealer_for(bac.game, bac.config)
    # Seed 11 would fail here: its honest log is one the family flags, as an honest log may be
    # (a dealer's 25 Banker Pairs in 134 rounds, p = 1.9e-5, under Holm's first level 4.5e-5).
    shoes = power._rounds(dealer, 2_000, 12)
    bet_nets = power._bet_nets(bac)
    assert not power.by_dealer_fails(bac, shoes, 8, power.ALPHA / 2, bet_nets)
    player_win = next(
        r for s in shoes for r in s.rounds if dict(bet_nets(r.hands)).get("player") == 1
    )
    first = shoes[0]
    biased = [replace(first, rounds=(player_win,) * len(first.rounds)), *shoes[1:]]
    assert power.by_dealer_fails(bac, biased, 8, power.ALPHA / 2, bet_nets)
