"""Pok Deng at the whole table: positions against one Banker, and Player + Pair on one hand.

The references here share nothing with the fast path: a plain enumerator of
ordered card sequences (written below, dealing in any order) settled by the
plain rules of ``reference_pok_deng``.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from odds.core.cards import Card, Rank, Suit, card_shoe
from odds.core.errors import OddsError
from odds.core.shoe import Shoe
from odds.engine import deal_count
from odds.games.paytable import load
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.positions import (
    event_net,
    outcome_net,
    position_moments,
    whole_table,
)
from odds.games.pok_deng.simulate import simulate_table
from odds.games.pok_deng.stakes import PAIR, PLAYER, Stakes
from odds.games.pok_deng.table_counts import (
    pair_count_ways,
    position_outcome_ways,
    settle_table,
    totals_reachable,
    two_position_ways,
)
from odds.stats.chisquare import Cell, goodness_of_fit
from tests.reference.pok_deng import pair_net, player_net

CONFIG = PokDengConfig()


def _plain(card: Card) -> tuple[int, str]:
    return int(card.rank), "cdhs"[card.suit]


def reference_deals(shoe: Shoe[Card], seats: int, order: list[int]) -> Counter:
    """Ordered ways per tuple of seats' hands (plain cards, sorted within a hand).

    Card ``i`` of every ordered sequence goes to seat ``order[i]``; a sequence
    is weighted by the falling factorials of the counts it uses.
    """
    types = [_plain(card) for card in shoe.types]
    left = list(shoe.counts)
    hands: list[list[tuple[int, str]]] = [[] for _ in range(seats)]
    found: Counter = Counter()

    def walk(i: int, ways: int) -> None:
        if i == len(order):
            found[tuple(tuple(sorted(hand)) for hand in hands)] += ways
            return
        for t, n in enumerate(left):
            if n:
                left[t] -= 1
                hands[order[i]].append(types[t])
                walk(i + 1, ways * n)
                hands[order[i]].pop()
                left[t] += 1

    walk(0, 1)
    return found


def reference_nets(deals: Counter, banker: int) -> dict[tuple, Fraction]:
    """Probability per tuple of (Player net, Pair net) of every non-banker seat, in seat order."""
    total = sum(deals.values())
    found: Counter = Counter()
    for hands, ways in deals.items():
        nets = []
        for seat, hand in enumerate(hands):
            if seat != banker:
                nets.append((player_net(hands[banker], hand), pair_net(hand)))
        found[tuple(nets)] += ways
    return {key: Fraction(w, total) for key, w in found.items()}


def engine_nets(shoe: Shoe[Card]) -> dict[tuple, Fraction]:
    ways = two_position_ways(CONFIG, shoe)
    total = sum(ways.values())
    found: Counter = Counter()
    for positions, w in ways.items():
        key = tuple(tuple(int(event_net(e, CONFIG)) for e in events) for events in positions)
        found[key] += w
    return {key: Fraction(w, total) for key, w in found.items()}


def two_suits(*ranks: Rank, copies: int = 1) -> Shoe[Card]:
    """A reduced deck: clubs and hearts of the given ranks, ``copies`` of each card."""
    types = tuple(Card(r, s) for r in ranks for s in (Suit.CLUBS, Suit.HEARTS))
    return Shoe(types, (copies,) * len(types), f"2 suits of {len(ranks)} ranks")


#: Every hand value the rules have can occur: AK Flush, Special Pairs (A, 6, 10),
#: Face-card Combo (K K), a 10 with a K, flushes with no point (4-6 suited), 8 and 9
#: with a pair or a flush (4-4, 3-6), ordinary 0 and 6 points for the Banker.
SIX_RANKS = two_suits(Rank.ACE, Rank.THREE, Rank.FOUR, Rank.SIX, Rank.TEN, Rank.KING)
#: Two copies of every card: identical-card pairs (a suited 4-4) and heavier removal.
DOUBLED = two_suits(Rank.ACE, Rank.FOUR, Rank.SIX, Rank.KING, copies=2)


# ---------------------------------------------------------------------------
# Two positions against one Banker: exact joint against the plain enumerator


@pytest.mark.parametrize("shoe", [SIX_RANKS, DOUBLED], ids=["2-suit deck", "2 suits doubled"])
def test_two_positions_equal_reference_brute_force(shoe):
    """Banker then Player 1 then Player 2, hand by hand, card removal throughout."""
    reference = reference_nets(reference_deals(shoe, 3, [0, 0, 1, 1, 2, 2]), banker=0)
    assert engine_nets(shoe) == reference


def test_dealing_order_does_not_change_the_odds():
    """Exchangeability: the rule book's order (one card at a time to Player 1, Player 2 and
    the Banker, twice) and the Banker dealt last give the engine's joint exactly."""
    shoe = two_suits(Rank.ACE, Rank.FOUR, Rank.SIX, Rank.TEN, Rank.KING)
    rule_book = reference_nets(reference_deals(shoe, 3, [0, 1, 2, 0, 1, 2]), banker=2)
    banker_last = reference_nets(reference_deals(shoe, 3, [0, 0, 1, 1, 2, 2]), banker=2)
    assert rule_book == banker_last == engine_nets(shoe)


def test_three_positions_equal_reference_brute_force():
    """The exact totals of three positions (small shoes only) against the plain enumerator."""
    shoe = Shoe(
        tuple(
            Card(r, s) for r in (Rank.ACE, Rank.FOUR, Rank.SIX) for s in (Suit.CLUBS, Suit.HEARTS)
        ),
        (2, 1, 2, 1, 1, 2),
        "9 cards",
    )
    deals = reference_deals(shoe, 4, [0, 1, 2, 3] * 2)  # rule-book order, Banker last
    total = sum(deals.values())
    expected: Counter = Counter()
    pairs: Counter = Counter()
    for key, p in reference_nets(deals, banker=3).items():
        expected[sum(x for x, _ in key), sum(y for _, y in key)] += p
        pairs[sum(1 for _, y in key if y > 0)] += p
    outcomes = position_outcome_ways(CONFIG, shoe, 3)
    assert sum(outcomes.values()) == deal_count(shoe.counts, (2, 2, 2, 2))
    found: Counter = Counter()
    for outcome, w in outcomes.items():
        nets = (outcome_net(outcome, s, CONFIG) for s in (Stakes(1, 0), Stakes(0, 1)))
        found[tuple(nets)] += Fraction(w, sum(outcomes.values()))
    assert found == expected
    pair_ways = pair_count_ways(shoe, 3)
    assert {k: Fraction(w, sum(pair_ways.values())) for k, w in pair_ways.items()} == dict(pairs)
    assert total > 0


# ---------------------------------------------------------------------------
# The full 8-deck table: marginals, sums of EVs, variance of sums


@pytest.fixture(scope="module")
def table():
    return whole_table(CONFIG, Stakes(Fraction(1), Fraction(1, 5)), rounds=20_000)


@pytest.fixture(scope="module")
def single():
    return load("pok-deng").analysis()


def test_marginals_equal_the_single_position_analysis(table, single):
    shoe = table.shoe
    two = table.counts.two_positions
    third_hand = comb(shoe.size - 4, 2)  # the other position's hand, after two are dealt
    banker_and_other = deal_count(shoe.counts, (2, 2, 2)) // comb(shoe.size, 2)
    for bet, index, scale in ((PLAYER, 0, third_hand), (PAIR, 1, banker_and_other)):
        expected = {o.net: 0 for o in single.bet(bet).outcomes}
        for o in single.bet(bet).outcomes:
            expected[o.net] += o.ways * scale
        for position in (0, 1):
            found = {net: 0 for net in expected}
            for key, w in two.items():
                found[event_net(key[position][index], CONFIG)] += w
            assert found == expected, (bet, position)
    assert table.moments.mean == {
        PLAYER: single.bet(PLAYER).stats.ev,
        PAIR: single.bet(PAIR).stats.ev,
    }
    assert table.moments.variance(PLAYER) == single.bet(PLAYER).stats.variance


def test_combined_table_is_the_single_analysis_on_one_hand(table, single):
    """Player N + Player N Pair: each bet's marginal is its own outcome table."""
    player: Counter = Counter()
    pair: Counter = Counter()
    for row in table.combined:
        player[row.player.label] += row.ways
        pair[row.pair.label] += row.ways
    assert player == {o.event: o.ways for o in single.bet(PLAYER).outcomes if o.ways}
    # The Pair table counts one hand; the combined table counts it with the Banker's.
    banker = comb(table.shoe.size - 2, 2)
    assert pair == {o.event: o.ways * banker for o in single.bet(PAIR).outcomes}


def test_ev_of_a_combination_is_the_sum_of_evs(table, single):
    ev_player, ev_pair = single.bet(PLAYER).stats.ev, single.bet(PAIR).stats.ev
    for stakes, bet in zip(table.stakes, table.combined_bets(), strict=True):
        assert bet.stats.ev * stakes.staked == stakes.player * ev_player + stakes.pair * ev_pair
    for chosen in table.selections():
        s = chosen.stakes
        assert chosen.ev == chosen.positions * (s.player * ev_player + s.pair * ev_pair)


def test_variance_of_a_sum_is_the_variances_plus_twice_the_covariances(table):
    """Var(Σ) = Σ Var + 2 Σ Cov, against the variance of the exact distribution of the sum."""
    stakes = table.stakes[1]  # player 1, pair 1/5
    total = sum(table.counts.two_positions.values())
    sums: Counter = Counter()
    for (one, two), w in table.counts.two_positions.items():
        nets = [event_net(e, CONFIG) for e in (*one, *two)]
        sums[stakes.player * (nets[0] + nets[2]) + stakes.pair * (nets[1] + nets[3])] += w
    mean = sum(v * w for v, w in sums.items()) / Fraction(total)
    direct = sum(v * v * w for v, w in sums.items()) / Fraction(total) - mean**2

    m = table.moments
    bets = [(PLAYER, stakes.player), (PAIR, stakes.pair)]
    variances = 2 * sum(s * s * m.variance(b) for b, s in bets)
    covariances = 2 * stakes.player * stakes.pair * m.covariance(
        PLAYER, PAIR, same_position=True
    ) + sum(s * t * m.covariance(a, b, same_position=False) for a, s in bets for b, t in bets)
    assert direct == variances + 2 * covariances == m.selection([stakes.per_position()] * 2)[1]
    assert mean == 2 * (stakes.player * m.mean[PLAYER] + stakes.pair * m.mean[PAIR])


def test_positions_are_positively_correlated(table):
    """Two Player bets share the Banker: correlated; the same hand's Player and Pair too."""
    m = table.moments
    assert 0.3 < m.correlation(PLAYER, PLAYER, same_position=False) < 0.45
    assert m.covariance(PLAYER, PAIR, same_position=True) > 0
    player_5 = next(s for s in table.selections() if s.label == "Player N" and s.positions == 5)
    assert player_5.variance > player_5.variance_if_independent


def test_pairs_on_five_positions_match_the_two_position_moments(table):
    """The exact count of pairs among five hands (rank level) has the moments' EV and SD."""
    ways = table.counts.pair_counts
    total = sum(ways.values())
    assert total == deal_count(table.shoe.counts, (2,) * 5)
    nets = {k: 12 * k - 5 for k in ways}  # k pairs win 11 each, the others lose 1
    mean = sum(nets[k] * w for k, w in ways.items()) / Fraction(total)
    variance = sum(nets[k] ** 2 * w for k, w in ways.items()) / Fraction(total) - mean**2
    assert (mean, variance) == table.moments.selection([{PAIR: Fraction(1)}] * 5)


def test_simulated_totals_are_consistent_with_the_exact_moments(table):
    sim = table.counts.simulation
    assert sim is not None and sim.rounds == 20_000 and sim.seed == 1
    for stakes in (Stakes(1, 0), Stakes(0, 1), Stakes(1, Fraction(1, 5))):
        check = table.simulation_check(stakes)
        ev, variance = table.moments.selection([stakes.per_position()] * 5)
        assert (check.exact_mean, check.exact_variance) == (ev, variance)
        assert check.rounds == 20_000 and check.consistent, (stakes, check)


def test_simulation_deals_the_exact_distribution_on_a_small_shoe():
    """Where the five-position totals are exact, the simulation fits them (chi-square)."""
    types = tuple(
        Card(r, s) for r in (Rank.ACE, Rank.SIX, Rank.KING) for s in (Suit.CLUBS, Suit.HEARTS)
    )
    shoe = Shoe(types, (2, 2, 2, 2, 2, 3), "13 cards")
    assert totals_reachable(shoe, 5)
    exact = position_outcome_ways(CONFIG, shoe, 5)
    total = sum(exact.values())
    simulated = settle_table(simulate_table(shoe, rounds=20_000, seed=3).hands, CONFIG.rules)
    cells = [
        Cell((str(key),), Fraction(w, total), simulated.get(key, 0)) for key, w in exact.items()
    ]
    assert set(simulated) <= set(exact)
    fit = goodness_of_fit(cells)
    assert fit.p_value is not None and fit.p_value > 0.001, fit


@pytest.mark.parametrize("override", [False, True])
def test_simulated_outcomes_settle_as_the_exact_tables_do(override, monkeypatch):
    """The array settling of simulated rounds equals the exact path's settler, round by round.

    ``settle_table`` (the five-position count's own settler, a Python loop) is the reference;
    merging the rounds every two chunks must change no count either.
    """
    from dataclasses import replace

    from odds.games.pok_deng import simulate

    rules = replace(CONFIG.rules, eight_nine_override=override)
    shoe = card_shoe(8)
    whole = simulate_table(shoe, rounds=3_000, seed=5)
    monkeypatch.setattr(simulate, "MERGE_CHUNKS", 2)
    merged = simulate_table(shoe, rounds=3_000, seed=5)
    assert merged.tally == whole.tally and sum(whole.tally.values()) == 3_000
    assert whole.outcomes(rules) == settle_table(whole.hands, rules)


def test_eight_decks_are_out_of_exact_reach():
    assert not totals_reachable(card_shoe(8), 5)


def test_two_positions_are_exchangeable(table):
    """The engine deals position 1 before position 2; swapping them changes no count."""
    two = table.counts.two_positions
    assert all(two.get((b, a)) == w for (a, b), w in two.items())
    assert position_moments(two, CONFIG).same == table.moments.same


# ---------------------------------------------------------------------------
# Stakes


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("player=1,player-pair=0.2", Stakes(Fraction(1), Fraction(1, 5))),
        ("player-pair=1", Stakes(Fraction(0), Fraction(1))),
        (" player = 2 , player-pair = 1/2 ", Stakes(Fraction(2), Fraction(1, 2))),
    ],
)
def test_stakes_parse(text, expected):
    assert Stakes.parse(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("player", "expected bet=amount"),
        ("player=1,banker=1", "unknown bet 'banker'"),
        ("player=1,player=2", "given twice"),
        ("player=-1", "must not be negative"),
        ("player=0,player-pair=0", "at least one stake"),
        ("player=abc", "player"),
    ],
)
def test_bad_stakes_are_one_line_errors(text, message):
    with pytest.raises(OddsError, match=message):
        Stakes.parse(text)


# ---------------------------------------------------------------------------
# Through the command line


def test_report_with_stakes_adds_the_users_ratio(run, single):
    code, out, err = run(
        "report", "pok-deng", "--stakes", "player=1,player-pair=0.2", "--format", "json"
    )
    assert code == 0, err
    positions = json.loads(out)["positions"]
    stats = positions["combined_stats"]
    assert [row["stakes"] for row in stats] == [
        "player 1, player-pair 1",
        "player 1, player-pair 0.2",
    ]
    expected = single.bet(PLAYER).stats.ev + Fraction(1, 5) * single.bet(PAIR).stats.ev
    assert Fraction(stats[1]["ev_per_round"]) == expected
    assert {"combined", "correlations", "several", "pairs", "five_players"} <= set(positions)


@pytest.mark.parametrize(
    ("game", "stakes", "message"),
    [
        ("pok-deng", "player=1;player-pair=2", "expected a number"),
        ("pok-deng", "player-pair", "expected bet=amount"),
        ("pok-deng", "banker=1", "unknown bet 'banker'"),
        ("mahjong-28", "player=1", "mahjong-28 has no stakes to combine"),
    ],
)
def test_bad_stakes_on_the_command_line(run, game, stakes, message):
    code, out, err = run("report", game, "--stakes", stakes)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_python_api_takes_the_same_stakes():
    import odds

    analysis = odds.load("pok-deng").analyse(stakes="player=1,player-pair=0.2")
    rows = analysis.table("positions.combined_stats").rows
    assert [row["stakes"] for row in rows] == [
        "player 1, player-pair 1",
        "player 1, player-pair 0.2",
    ]
    with pytest.raises(OddsError, match="unknown bet"):
        odds.load("pok-deng").analyse(stakes="tie=1")


def test_small_custom_shoe_gets_the_exact_five_position_total():
    """A composition small enough: the five Player bets' total is counted, not simulated."""
    import odds
    from odds.core.cards import STANDARD_DECK

    kept = {"Ac": 2, "Ah": 2, "6c": 2, "6h": 2, "Kc": 2, "Kh": 3}
    counts = {card.code: kept.get(card.code, 0) for card in STANDARD_DECK}
    analysis = odds.load("pok-deng", decks=1, shoe={"counts": counts}).analyse()
    keys = [table.key for table in analysis.tables]
    assert "positions.five_players" in keys and "positions.simulation_check" not in keys
    five = analysis.table("positions.five_players")
    assert "(exact)" in five.title
    assert sum(row["ways"] for row in five.rows) == deal_count((2, 2, 2, 2, 2, 3), (2,) * 6)


def test_shoe_too_small_for_the_whole_table_is_named():
    import odds
    from odds.core.cards import STANDARD_DECK

    removed = [card.code for card in STANDARD_DECK][:42]
    analysis = odds.load("pok-deng", decks=1, shoe={"removed": removed}).analyse()
    assert not [t for t in analysis.tables if t.key.startswith("positions.")]
    assert any("Whole table: not analysed" in note for note in analysis.notes)


def test_the_bets_analysis_has_the_reports_bets_without_the_whole_table(
    monkeypatch, run, tmp_path, pok_deng_analysis
):
    """Audits, claim checks and solvers read the bets alone: the report's very bets and hand
    classes, and the whole table (most of the analysis' work) is never counted for them."""
    from odds.games.pok_deng import counting

    full = pok_deng_analysis
    assert any(t.key.startswith("positions") for t in full.tables)

    def refused(*args, **kwargs):
        raise AssertionError("the whole table was counted for the bets alone")

    monkeypatch.setattr(counting, "table_analysis", refused)
    paytable = load("pok-deng")
    bets = paytable.bet_analysis()
    assert bets.bets == full.bets and bets.hand_classes == full.hand_classes
    assert bets.title == full.title and bets.options_sha256 == full.options_sha256
    assert not any(t.key.startswith("positions") for t in bets.tables) and not bets.charts
    assert paytable.bet_analysis() is bets  # once per paytable object
    log = tmp_path / "rounds.csv"
    assert run("simulate", "pok-deng", "--rounds", "200", "--stakes", "--out", str(log))[0] == 0
    code, out, err = run("audit", "pok-deng", "--log", str(log))
    assert code in (0, 1) and "Traceback" not in err and "Verdict" in out, err
    assert run("verify", "pok-deng", "--rtp", "99%")[0] in (0, 1)
