"""Baccarat: the engine against independent brute force, invariants, published figures, settle."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odds.core.cards import Card, Rank, Suit
from odds.core.shoe import Shoe
from odds.engine.bruteforce import brute_force, brute_force_drawing
from odds.games.baccarat import bets
from odds.games.baccarat import counting as a
from odds.games.baccarat.game import Baccarat
from odds.games.baccarat.options import BaccaratConfig, Tableau
from odds.games.baccarat.rules import DrawingRules
from odds.games.baccarat.state_values import state_ev
from odds.games.paytable import load
from tests.reference.baccarat import banker_draws, coup, nets, pair_nets, summary

GAME = Baccarat()
CONFIG = BaccaratConfig()
EIGHT_DECKS = 416 * 415 * 414 * 413 * 412 * 411


# ---------------------------------------------------------------------------
# The tableau as data


def test_default_tableau_is_the_standard_tableau():
    drawing = DrawingRules.of(Tableau())
    for total in range(8):
        assert drawing.banker_draws_on(total, None) == banker_draws(total, None)
        for third in range(10):
            assert drawing.banker_draws_on(total, third) == banker_draws(total, third), (
                total,
                third,
            )
    assert sorted(drawing.player_draws) == [0, 1, 2, 3, 4, 5]
    assert sorted(drawing.naturals) == [8, 9]


def test_paytable_tableau_is_the_standard_tableau():
    assert load("baccarat").config.tableau == Tableau()


# ---------------------------------------------------------------------------
# The engine against a plain brute force with the reference rules


def _reference_coup_nets(rank_counts: list[int], ranks: list[Rank]) -> dict[str, Counter]:
    """Net-payout ways per coup bet: every ordered rank sequence, dealt by the reference."""
    values = [0 if rank >= Rank.TEN else int(rank) for rank in ranks]

    def play(draw):
        player, banker = coup(lambda: values[draw()])
        return {"coup": summary(player, banker)}

    found = brute_force_drawing(rank_counts, play, a.COUP_CARDS)["coup"]
    result: dict[str, Counter] = {}
    for outcome, ways in found.items():
        for bet, net in nets(*outcome).items():
            result.setdefault(bet, Counter())[net] += ways
    return result


def _reference_pair_nets(shoe: Shoe[Card]) -> dict[str, Counter]:
    """The pair bets over every ordered four-card sequence, extended to six cards."""
    types = shoe.types

    def settle(deal):
        player = tuple((int(types[t].rank), int(types[t].suit)) for t in deal[0])
        banker = tuple((int(types[t].rank), int(types[t].suit)) for t in deal[1])
        return pair_nets(player, banker)

    extend = (shoe.size - 4) * (shoe.size - 5)
    found = brute_force(shoe.counts, (2, 2), settle)
    return {
        bet: Counter({net: w * extend for net, w in nets_.items()}) for bet, nets_ in found.items()
    }


def _engine_nets(shoe: Shoe[Card]) -> dict[str, Counter]:
    groups = a.TypeGroups.of(shoe.types, "identical")
    ways = a.coup_event_ways(CONFIG, shoe.counts, groups)
    event_nets = bets.event_nets(CONFIG)
    result: dict[str, Counter] = {}
    for bet, events in ways.items():
        merged: Counter = Counter()
        for event, w in events.items():
            if w:
                merged[event_nets[bet][event]] += w
        result[bet] = merged
    return result


def _rank_counts(shoe: Shoe[Card]) -> tuple[list[Rank], list[int]]:
    ranks = sorted({card.rank for card in shoe.types})
    counts = [
        sum(n for card, n in zip(shoe.types, shoe.counts, strict=True) if card.rank == rank)
        for rank in ranks
    ]
    return ranks, counts


def test_engine_equals_brute_force_one_deck():
    """Every coup bet from one 52-card deck: every ordered value sequence the rules deal.

    The ten values stand for the thirteen ranks (10, J, Q, K are one value
    with sixteen cards): the coup bets look at values only.
    """
    values = [Rank.TEN, *(Rank(v) for v in range(1, 10))]  # value 0 first, then 1-9
    counts = [16, *([4] * 9)]
    slow = _reference_coup_nets(counts, values)
    fast = _engine_nets(Shoe.of_decks(tuple(Card(r, s) for r in Rank for s in Suit), 1))
    for bet, distribution in slow.items():
        assert fast[bet] == distribution, bet
        assert sum(distribution.values()) == 52 * 51 * 50 * 49 * 48 * 47


SMALL_RANKS = (Rank.ACE, Rank.TWO, Rank.THREE, Rank.SIX, Rank.SEVEN, Rank.EIGHT, Rank.KING)
SMALL_TYPES = tuple(Card(r, s) for r in SMALL_RANKS for s in (Suit.CLUBS, Suit.HEARTS))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=len(SMALL_TYPES), max_size=len(SMALL_TYPES)))
def test_engine_equals_brute_force_random_compositions(counts):
    """Random reduced shoes (seven ranks, two suits, 0-2 copies): every bet, pairs included."""
    if sum(counts) < 6:
        return
    shoe = Shoe(SMALL_TYPES, tuple(counts), "random composition")
    fast = _engine_nets(shoe)
    ranks, rank_counts = _rank_counts(shoe)
    slow = _reference_coup_nets(rank_counts, ranks)
    slow.update(_reference_pair_nets(shoe))
    for bet, distribution in slow.items():
        assert fast[bet] == +distribution, bet


HOUSE_TABLEAU = [
    "tableau.player_draws=[0, 1, 2, 3, 4]",
    "tableau.banker_draws_player_stood=[0, 1, 2, 3, 4, 5, 6]",
    "tableau.banker_draws.3=[1, 2, 3]",
    "tableau.banker_draws.4=[]",
    "tableau.banker_draws.5=[5]",
    "tableau.banker_draws.7=[9]",
    "rules.banker_pays=ez",
]


@pytest.mark.parametrize("changes", [[], HOUSE_TABLEAU, ["rules.perfect_pair=same-colour"]])
def test_bench_brute_force_agrees_on_a_reduced_shoe(changes):
    """The bench's brute force (the game's rules, dealt by replay) equals the engine.

    Also for a house tableau given as data and the other readings.
    """
    from odds.games.baccarat.bench import brute_event_ways, fresh_event_ways

    config = load("baccarat", changes).config
    shoe = Shoe(SMALL_TYPES[:8], (1, 2, 1, 1, 2, 1, 1, 2), "reduced")
    assert fresh_event_ways(config, shoe) == brute_event_ways(config, shoe)


# ---------------------------------------------------------------------------
# Invariants and published figures (8 decks)


@pytest.fixture(scope="module")
def analysis():
    return load("baccarat").analysis()


def _bet(analysis, name):
    return {o.event: o for o in analysis.bet(name).outcomes}


def test_main_results_add_up_to_one(analysis):
    banker, player, tie = _bet(analysis, "banker"), _bet(analysis, "player"), _bet(analysis, "tie")
    wins = banker["Banker wins (less commission)"].ways + player["Player wins"].ways
    assert wins + tie["tie"].ways == EIGHT_DECKS
    assert all(b.stats.total == EIGHT_DECKS for b in analysis.bets)


def test_pair_bets_have_equal_odds(analysis):
    assert analysis.bet("player-pair").outcomes == analysis.bet("banker-pair").outcomes


def test_published_eight_deck_figures(analysis):
    """Wizard of Odds' baccarat tables (8 decks), to their printed precision and exact counts."""
    edges = {b.name: b.stats.house_edge for b in analysis.bets}
    assert round(float(edges["banker"]) * 100, 4) == 1.0579
    assert round(float(edges["player"]) * 100, 4) == 1.2351
    assert round(float(edges["tie"]) * 100, 4) == 14.3596
    assert round(float(edges["dragon-7"]) * 100, 2) == 7.61
    assert round(float(edges["panda-8"]) * 100, 2) == 10.19
    assert round(float(edges["dragon-bonus-player"]) * 100, 2) == 2.65
    assert round(float(edges["dragon-bonus-banker"]) * 100, 2) == 9.37
    assert round(float(edges["perfect-pair"]) * 100, 2) == 13.03
    banker = _bet(analysis, "banker")
    assert banker["Banker wins (less commission)"].ways == 2_292_252_566_437_888
    assert banker["Player wins"].ways == 2_230_518_282_592_256
    assert banker["tie (push)"].ways == 475_627_426_473_216
    assert _bet(analysis, "dragon-7")["Banker wins with a three-card 7"].ways == 112_633_011_329_024
    assert _bet(analysis, "panda-8")["Player wins with a three-card 8"].ways == 172_660_763_262_976
    bonus = _bet(analysis, "dragon-bonus-player")
    assert bonus["Player wins by 9, no natural"].ways == 18_409_431_764_992
    assert bonus["Player wins with a natural"].ways == 812_685_054_124_032


@pytest.mark.parametrize(
    ("settings_", "bet", "edge"),
    [
        (["rules.banker_pays=ez"], "banker", "1.0183"),
        (["rules.banker_pays=no-commission"], "banker", "1.4581"),
        (["payouts.tie=9"], "tie", "4.8440"),
        (["payouts.perfect_pair_both=250"], "perfect-pair", "6.6235"),
    ],
)
def test_published_variants(settings_, bet, edge):
    analysis = load("baccarat", settings_).analysis()
    assert f"{float(analysis.bet(bet).stats.house_edge) * 100:.4f}" == edge


# ---------------------------------------------------------------------------
# Per-state EV


@settings(max_examples=8, deadline=None)
@given(
    st.lists(st.sampled_from(["Ah", "9c", "Kd", "5s", "6h", "Qc", "8d", "2s", "7h"]), max_size=8)
)
def test_state_ev_equals_full_analysis(removed):
    """The exposure hook on a partly dealt shoe equals the full analysis with shoe.removed."""
    config = load("baccarat").config
    changed = load("baccarat", [f"shoe.removed={json.dumps(removed)}"])
    counts = changed.config.shoe.build().counts
    expected = {b.name: b.stats.ev for b in changed.analysis().bets}
    assert state_ev(config, counts) == expected


# ---------------------------------------------------------------------------
# Settle


def test_settle_gives_the_tableau_reasons(run):
    code, out, _ = run("settle", "baccarat", "--player", "4h Ac 6d", "--banker", "5s Kd 7d")
    assert code == 0
    assert "Banker draws: 5 against a Player third card 6" in out
    assert "Player draws on 5" in out


@pytest.mark.parametrize(
    ("player", "banker", "message"),
    [
        ("4h 2c 6d", "3s 2d 9c", "--player cannot have a third card (6♦): Player stands on 6"),
        ("4h Ac 6d", "5s Kd", "--banker must have a third card (Banker draws: 5 against a "
         "Player third card 6), but has two"),
        ("9h Kc 6d", "3s 2d", "natural (Player 9)"),
        ("4h Ac", "5s Kd", "--player must have a third card (Player draws on 5)"),
        ("4h Ac 6d 2c", "5s Kd 7d", "--player must be two or three cards, got 4"),
        ("4h Kc 5d", "6s Kd 7d", "--banker cannot have a third card (7♦): Banker stands: 6 "
         "against a Player third card 5"),
    ],
)  # fmt: skip
def test_settle_refuses_hands_the_tableau_forbids(run, player, banker, message):
    code, out, err = run("settle", "baccarat", "--player", player, "--banker", banker)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def _recorder(cards, dealt: list[Card]):
    """A card source for the reference coup that records the cards it gives."""

    def draw() -> int:
        card = next(cards)
        dealt.append(card)
        return 0 if card.rank >= Rank.TEN else int(card.rank)

    return draw


def test_settle_agrees_with_the_reference_on_random_coups():
    """Random coups from a shuffled shoe: every bet's net equals the plain reference's."""
    rng = random.Random(13)
    deck = [Card(r, s) for r in Rank for s in Suit] * 8
    for _ in range(300):
        dealt: list[Card] = []
        player_values, banker_values = coup(_recorder(iter(rng.sample(deck, 6)), dealt))
        order = ["p", "b", "p", "b"] + (["p"] if len(player_values) == 3 else [])
        order += ["b"] * (len(dealt) - len(order))
        player = tuple(c for c, who in zip(dealt, order, strict=True) if who == "p")
        banker = tuple(c for c, who in zip(dealt, order, strict=True) if who == "b")
        settled = GAME.settle(
            CONFIG, {"player": " ".join(c.code for c in player),
                     "banker": " ".join(c.code for c in banker)}, Fraction(1),
        )  # fmt: skip
        expected = nets(*summary(player_values, banker_values))
        expected.update(
            pair_nets(
                tuple((int(c.rank), int(c.suit)) for c in player[:2]),
                tuple((int(c.rank), int(c.suit)) for c in banker[:2]),
            )
        )
        assert {b.bet: b.net for b in settled.bets} == expected


# ---------------------------------------------------------------------------
# Bad paytables


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("[tableau.banker_draws]\n0 = [0]\n1 = [0]\n2 = [0]\n3 = [0]\n4 = [0]\n6 = [6]\n7 = []\n",
         "the row for Banker total 5 is missing"),
        ("[tableau]\nplayer_draws = [0, 1, 8]\n", "tableau.player_draws: 8 is a natural"),
        ("[tableau]\nnaturals = [8, 9, 12]\n", "12 is not a total or card value 0-9"),
        ("[bets]\nside_bets = [\"lucky-7\"]\n", "unknown side bet 'lucky-7'"),
        ("[payouts]\ndragon_bonus = { 9 = 30 }\n", "the 'natural' entry"),
        ("[rules]\nbanker_pays = \"free\"\n", "'free' is not one of"),
    ],
)  # fmt: skip
def test_bad_paytables_are_one_line_errors(run, tmp_path, extra, message):
    path = tmp_path / "bad.toml"
    path.write_text('game = "baccarat"\n' + extra, encoding="utf-8")
    code, out, err = run("report", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_simulated_log_audits_clean(run, tmp_path):
    log = tmp_path / "coups.csv"
    assert run("simulate", "baccarat", "--rounds", "400", "--seed", "3", "--out", str(log))[0] == 0
    code, out, _ = run("audit", "baccarat", "--log", str(log))
    assert code == 0 and "Overall verdict: PASS" in out


# ---------------------------------------------------------------------------
# Dealing a shoe (the [dealing] section)


def _shoe_run(changes, seed=7):
    """One shuffled shoe dealt by the paytable's procedure: the config, order and states."""
    config = load("baccarat", changes).config
    full = config.shoe.build().counts
    order = [t for t, n in enumerate(full) for _ in range(n)]
    random.Random(seed).shuffle(order)
    procedure = GAME.shoe_state.procedure(config)
    return config, order, procedure, procedure.states(order, full)


def _coup_starts(procedure, order, coups: int) -> list[int]:
    """Where each coup's first card sits in the shuffled order, and where the last one ended."""
    value = 0 if order[0] // 4 >= 9 else order[0] // 4 + 1  # types run A♣ A♦ … K♠
    position = 1 + (value or 10)
    starts = [position]
    for _ in range(coups):
        cards = iter(order[position:])
        position += len(procedure.deal_round(cards.__next__))
        starts.append(position)
    return starts


@pytest.mark.parametrize("last_round", ["one-more", "finish"])
def test_a_shoe_is_dealt_to_the_cut_card(last_round):
    """Burn by the turned card's value, coups until one reaches the cut card, then one more."""
    config, order, procedure, states = _shoe_run([f"dealing.last_round={last_round}"])
    full = config.shoe.build()
    assert sum(states[0]) == full.size - 1  # the turned card is seen, the burned ones are not
    starts = _coup_starts(procedure, order, len(states))
    for i in range(1, len(states)):  # the watcher saw exactly the coups dealt
        assert sum(states[i - 1]) - sum(states[i]) == starts[i] - starts[i - 1]
    behind = full.size - config.dealing.cut_card  # the first card behind the cut card
    reached = next(i for i in range(len(starts) - 1) if starts[i + 1] > behind)
    assert len(states) == reached + (2 if last_round == "one-more" else 1)


def test_without_a_burn_the_first_coup_sees_the_full_shoe():
    config, _, _, states = _shoe_run(["dealing.burn_first_card=false"])
    assert states[0] == config.shoe.build().counts


def test_a_baccarat_shoe_is_about_eighty_coups():
    lengths = {len(_shoe_run([], seed)[3]) for seed in range(5)}
    assert lengths <= set(range(70, 90)) and len(lengths) > 1


# ---------------------------------------------------------------------------
# Audits group logged hands by their keys


def test_a_coup_settles_by_its_hand_keys():
    """Coups whose hands have equal keys settle identically (the audit's promise), sampled."""
    from odds.core.settlement import Settlement

    def signature(settled: Settlement) -> tuple:
        return tuple((b.bet, b.event, b.net) for b in settled.bets) + tuple(
            (h.position, h.hand_class) for h in settled.hands
        )

    rng = random.Random(5)
    deck = [Card(r, s) for r in Rank for s in Suit] * 8
    keyer = GAME.hand_keys(CONFIG)
    by_keys: dict = {}
    for _ in range(3000):
        hands = GAME.deal_round(CONFIG, iter(rng.sample(deck, 6)).__next__)
        keys = (keyer(hands["player"]).key, keyer(hands["banker"]).key)
        by_keys.setdefault(keys, []).append(hands)
    checked = 0
    for coups in by_keys.values():
        settled = {
            signature(
                GAME.settle(CONFIG, {p: GAME.hand_text(h) for p, h in coup.items()}, Fraction(1))
            )
            for coup in coups[:5]
        }
        assert len(settled) == 1
        checked += len(coups) > 1
    assert checked > 100


def test_a_log_with_a_coup_the_tableau_forbids_is_flagged(run, tmp_path):
    log = tmp_path / "coups.csv"
    assert run("simulate", "baccarat", "--rounds", "40", "--seed", "2", "--out", str(log))[0] == 0
    with log.open("a", encoding="utf-8") as handle:
        handle.write("41,41,4h 2c 6d,3s 2d 9c\n")  # shoe, round, banker, player
    code, out, _ = run("audit", "baccarat", "--log", str(log))
    assert code == 1
    assert "rejected line 42: player cannot have a third card (6♦): Player stands on 6" in out


def test_exposure_runs_the_same_on_one_worker_and_two(run):
    """The shoe-state study of baccarat: coups of varying size, identical for 1 and 2 workers."""
    args = ("exposure", "baccarat", "--shoes", "3", "--seed", "5", "--format", "json")
    one = run(*args, "--workers", "1")
    two = run(*args, "--workers", "2")
    assert one[0] == two[0] == 0, one[2]
    assert one[1] == two[1]
    study = json.loads(one[1])
    assert "dragon-7" in json.dumps(study)
