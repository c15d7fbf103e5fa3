"""The shipped definitions against published figures and the plain rule-book references.

Baccarat, Dragon Tiger and Pok Deng are definitions (``tables/<game>.toml``) counted by the
one engine. Two kinds of check that share nothing with that engine or those definitions:

- published figures (Wizard of Odds' tables, the Pok Deng rule book's examples), to the
  precision printed, and exact counts where the source gives them;
- the plain second implementations in ``tests/reference/`` (written from the rules pages
  alone), enumerating every ordered deal of a reduced shoe, against the definition's counts
  for the same shoe.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import permutations
from typing import Any

import pytest

from odds.games.paytable import load
from tests.games.defined.reduced import reduced
from tests.reference import baccarat as plain_baccarat
from tests.reference import pok_deng as plain_pok_deng

EIGHT_DECKS_COUP = 416 * 415 * 414 * 413 * 412 * 411


def _ways(analysis: Any, bet: str) -> dict[str, int]:
    return {o.event: o.ways for o in analysis.bet(bet).outcomes}


# -- Baccarat --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def baccarat() -> Any:
    return load("baccarat").analysis()


def test_baccarat_matches_wizard_of_odds(baccarat: Any) -> None:
    """Wizard of Odds, "Baccarat" and "Baccarat Side Bets" (wizardofodds.com/games/baccarat/),
    eight decks: Banker 1.0579%, Player 1.2351%, Tie 14.3596% (to four places); Dragon 7
    7.61%, Panda 8 10.19%, Dragon Bonus Player 2.65% / Banker 9.37%, Perfect Pair 13.03%; the
    coup counts 2,292,252,566,437,888 Banker, 2,230,518,282,592,256 Player,
    475,627,426,473,216 ties of 4,998,398,275,503,360."""
    edges = {b.name: float(b.stats.house_edge) * 100 for b in baccarat.bets}
    assert round(edges["banker"], 4) == 1.0579
    assert round(edges["player"], 4) == 1.2351
    assert round(edges["tie"], 4) == 14.3596
    assert round(edges["dragon-7"], 2) == 7.61
    assert round(edges["panda-8"], 2) == 10.19
    assert round(edges["dragon-bonus-player"], 2) == 2.65
    assert round(edges["dragon-bonus-banker"], 2) == 9.37
    assert round(edges["perfect-pair"], 2) == 13.03
    banker = _ways(baccarat, "banker")
    assert banker["Banker wins (less commission)"] == 2_292_252_566_437_888
    assert banker["Player wins"] == 2_230_518_282_592_256
    assert banker["tie (push)"] == 475_627_426_473_216
    assert sum(banker.values()) == EIGHT_DECKS_COUP
    assert all(b.stats.total == EIGHT_DECKS_COUP for b in baccarat.bets)
    assert _ways(baccarat, "dragon-7")["Banker wins with a three-card 7"] == 112_633_011_329_024
    assert _ways(baccarat, "panda-8")["Player wins with a three-card 8"] == 172_660_763_262_976


def test_baccarat_pair_bets_have_equal_odds(baccarat: Any) -> None:
    assert [(o.net, o.ways) for o in baccarat.bet("player-pair").outcomes] == [
        (o.net, o.ways) for o in baccarat.bet("banker-pair").outcomes
    ]


@pytest.mark.parametrize(
    ("settings", "bet", "edge"),
    [
        # Wizard of Odds, "EZ Baccarat": Banker 1.0183%; "No-Commission Baccarat" (Banker
        # 6 pays 1:2): 1.4581%; "Baccarat", Tie at 9:1: 4.8440%; Perfect Pair 25/250: 6.6235%.
        (["rules.banker_pays=ez"], "banker", "1.0183"),
        (["rules.banker_pays=no-commission"], "banker", "1.4581"),
        (["payouts.tie=9"], "tie", "4.8440"),
        (["payouts.perfect_pair_both=250"], "perfect-pair", "6.6235"),
    ],
)
def test_baccarat_published_variants(settings: list[str], bet: str, edge: str) -> None:
    analysis = load("baccarat", settings).analysis()
    assert f"{float(analysis.bet(bet).stats.house_edge) * 100:.4f}" == edge


#: A reduced baccarat shoe: values 0 to 9, pairs, identical cards and same-suit pairs.
BACCARAT_CARDS = ["Ac", "Ac", "Ad", "Kh", "Kd", "3c", "6h", "9c"]

_CODES = {"A": 1, "J": 11, "Q": 12, "K": 13}
_SUITS = {"c": 0, "d": 1, "h": 2, "s": 3}


def _rank_suit(code: str) -> tuple[int, int]:
    rank = code[:-1]
    return (_CODES.get(rank) or int(rank), _SUITS[code[-1]])


def _baccarat_value(code: str) -> int:
    rank, _ = _rank_suit(code)
    return 0 if rank >= 10 else rank


def _plain_baccarat(cards: list[str]) -> dict[str, Counter[Fraction]]:
    """Every bet the reference knows, over every ordered deal of six of the cards (each card
    a distinct copy): a coup takes at most six, so each stands for the same number of orders
    of the whole shoe."""
    # The deals by what the bets read (the coup's values, the first four cards), each such
    # deal then settled once for all its orders.
    deals: Counter[tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]] = Counter()
    for order in permutations(range(len(cards)), 6):
        values = iter(_baccarat_value(cards[i]) for i in order)
        player, banker = plain_baccarat.coup(lambda values=values: next(values))
        deals[tuple(player), tuple(banker), tuple(_rank_suit(cards[i]) for i in order[:4])] += 1
    found: dict[str, Counter[Fraction]] = {}
    for (player, banker, first), n in deals.items():
        nets = plain_baccarat.nets(*plain_baccarat.summary(list(player), list(banker)))
        nets.update(plain_baccarat.pair_nets((first[0], first[2]), (first[1], first[3])))
        for bet, net in nets.items():
            found.setdefault(bet, Counter())[Fraction(net)] += n
    return found


def test_baccarat_equals_the_plain_reference_on_a_reduced_shoe() -> None:
    """Every coup and pair bet of the definition equals the rule-book reference's count of
    every ordered deal of six cards from an eight-card shoe (20,160 deals)."""
    paytable, _ = reduced("baccarat", BACCARAT_CARDS)
    analysis = paytable.analysis()
    mine = {b.name for b in analysis.bets}
    plain = _plain_baccarat(BACCARAT_CARDS)
    checked = 0
    for bet, nets in plain.items():
        if bet not in mine:
            continue
        total = sum(nets.values())
        expected = {net: Fraction(n, total) for net, n in nets.items()}
        found: Counter[Fraction] = Counter()
        for outcome in analysis.bet(bet).outcomes:
            found[Fraction(outcome.net)] += Fraction(outcome.ways, analysis.bet(bet).stats.total)
        assert {k: v for k, v in found.items() if v} == expected, bet
        checked += 1
    assert checked >= 6


# -- Dragon Tiger -----------------------------------------------------------------------


def test_dragon_tiger_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "Dragon Tiger" (wizardofodds.com/games/dragon-tiger/), eight decks:
    Dragon and Tiger 3.73%, Tie (8:1) 32.77%, Suited Tie 13.98%, Big/Small/Odd/Even 7.69%."""
    analysis = load("dragon-tiger").analysis()
    edges = {b.name: f"{float(b.stats.house_edge) * 100:.2f}" for b in analysis.bets}
    assert edges["dragon"] == edges["tiger"] == "3.73"
    assert edges["tie"] == "32.77"
    assert edges["suited-tie"] == "13.98"
    sides = {
        edges[f"{s}-{k}"] for s in ("dragon", "tiger") for k in ("big", "small", "odd", "even")
    }
    assert sides == {"7.69"}
    assert all(b.stats.total == 416 * 415 for b in analysis.bets)


def test_dragon_tiger_tie_loses_all_reading() -> None:
    """A tie (same rank) costs the whole stake: the edge is P(tie) = 13·32·31 / (416·415)."""
    bet = load("dragon-tiger", ["rules.tie_on_main_bets=lose-all"]).analysis().bet("dragon")
    assert bet.stats.house_edge == Fraction(13 * 32 * 31, 416 * 415)


# -- Pok Deng ---------------------------------------------------------------------------

#: The rule book's examples 1-9 (docs/rules/pok-deng.md, "Rule-book examples"), stake 100.
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
def test_pok_deng_rule_book_examples(
    run: Any, number: int, banker: str, player: str, bet: str, returned: int
) -> None:
    code, out, err = run(
        "settle", "pok-deng", "--banker", banker, "--player", player, "--format", "json"
    )
    assert code == 0, err
    settled = {b["bet"]: b for b in json.loads(out)["bets"]}
    assert settled[bet]["returned"] == str(returned), f"example {number}"


def test_pok_deng_example_nine_by_its_arithmetic(run: Any) -> None:
    """Example 9 as the book's arithmetic reads it (no 8/9 override): 300, not 400."""
    code, out, err = run(
        "settle", "pok-deng-example9", "--banker", "9d 7c", "--player", "Kh 9h", "--format", "json"
    )
    assert code == 0, err
    assert json.loads(out)["bets"][0]["returned"] == "300"


def test_pok_deng_known_exact_figures() -> None:
    """The Pair bet by hand: 13·C(32,2) pairs of C(416,2) hands at 11 to 1 is −43/415; the
    Player bet's EV and its RTP per debited stake (a loss may take two units)."""
    analysis = load("pok-deng").analysis()
    assert analysis.bet("player-pair").stats.ev == Fraction(13 * 496 * 12 - 86_320, 86_320)
    assert analysis.bet("player-pair").stats.ev == Fraction(-43, 415)
    player = analysis.bet("player").stats
    assert player.ev == Fraction(-11_531_456, 461_223_945)
    assert player.rtp_debited == (2 + player.ev) / 2


def test_pok_deng_partly_dealt_shoe_changes_the_pair_odds() -> None:
    """Three aces removed: 12 full ranks of 32 cards and 29 aces make 12·C(32,2) + C(29,2)
    pairs of C(413,2) hands."""
    pair = load("pok-deng", ['shoe.removed=["Ah", "Ad", "As"]']).analysis().bet("player-pair")
    assert pair.stats.total == 413 * 412 // 2
    pairs = 12 * 496 + 406
    assert pair.stats.ev == Fraction(12 * pairs - pair.stats.total, pair.stats.total)


#: A reduced Pok Deng shoe: pairs, flushes, an AK flush, face cards, 0- and 6-point hands.
POK_DENG_CARDS = ["Ac", "Kc", "5d", "5h", "Qh", "10h", "6s", "Js", "4c"]


def test_pok_deng_equals_the_plain_reference_on_a_reduced_shoe() -> None:
    """The Player and Pair bets of the definition equal the rule-book reference's count of
    every ordered four-card deal (banker's two, player's two) of a nine-card shoe."""
    paytable, _ = reduced("pok-deng", POK_DENG_CARDS)
    analysis = paytable.analysis()
    cards = [_rank_suit(c) for c in POK_DENG_CARDS]
    suits = "cdhs"
    plain = [(rank, suits[suit]) for rank, suit in cards]
    player_nets: Counter[Fraction] = Counter()
    pair_nets: Counter[Fraction] = Counter()
    for b1, b2, p1, p2 in permutations(range(len(plain)), 4):
        banker, player = (plain[b1], plain[b2]), (plain[p1], plain[p2])
        player_nets[Fraction(plain_pok_deng.player_net(banker, player))] += 1
        pair_nets[Fraction(plain_pok_deng.pair_net(player))] += 1
    for bet, expected in (("player", player_nets), ("player-pair", pair_nets)):
        total = sum(expected.values())
        found: Counter[Fraction] = Counter()
        for outcome in analysis.bet(bet).outcomes:
            found[Fraction(outcome.net)] += Fraction(outcome.ways, analysis.bet(bet).stats.total)
        assert {k: v for k, v in found.items() if v} == {
            k: Fraction(n, total) for k, n in expected.items()
        }, bet
