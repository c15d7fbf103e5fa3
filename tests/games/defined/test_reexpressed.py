"""Definitions that re-express the rule books: baccarat's pair bets, Goa Gae's showdown, Pok Deng.

Baccarat's pair bets (ranks and suits of a tableau deal's first two cards), Pok Deng
(special patterns, both exceptions, withholding) and Goa Gae's showdown (suit tie-breaks,
the triple order), their readings told apart on reduced shoes, and the definition
language's refusals. The coded games' figures are the snapshots (test_snapshots.py).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.games.paytable import TABLES, from_data, load, load_file


def figures(analysis: Any) -> dict[str, list[tuple[str, Fraction, int]]]:
    return {b.name: [(o.event, o.net, o.ways) for o in b.outcomes] for b in analysis.bets}


def defined_from_text(text: str, source: str = "changed") -> Any:
    return from_data(read_toml(text, source), source)


# -- Baccarat's pair bets ---------------------------------------------------------


def test_pair_bets_read_the_first_two_cards_only() -> None:
    """K-5 then a third K is no pair; the Banker's 6-6 is, and identical 6♥ 6♥ is perfect."""
    paytable = load("baccarat")
    settled = paytable.game.settle(
        paytable.config, {"player": "Kh 5d Kc", "banker": "6h 6h 2c"}, Fraction(1)
    )
    by_bet = {b.bet: b.returned for b in settled.bets}
    assert by_bet["player-pair"] == 0
    assert by_bet["banker-pair"] == 12
    assert by_bet["either-pair"] == 6
    assert by_bet["perfect-pair"] == 26


def test_same_colour_perfect_pair_reproduces_the_coded_reading() -> None:
    """colour_pair (same rank and colour) is the coded rules.perfect_pair = same-colour."""
    text = (TABLES / "baccarat.toml").read_text()
    text = text.replace("suited_pair", "colour_pair")
    defined = figures(defined_from_text(text).analysis())["perfect-pair"]
    coded = figures(load("baccarat", ["rules.perfect_pair=same-colour"]).analysis())
    assert [(n, w) for _, n, w in defined] == [(n, w) for _, n, w in coded["perfect-pair"]]
    assert defined != figures(load("baccarat").analysis())["perfect-pair"]


MIXED_PAIRS = """game = "mixed-pairs"
[payouts]
plain = 5
perfect = 20
[definition]
base = "baccarat"
[[definition.bets]]
name = "mixed-pairs"
[[definition.bets.outcomes]]
when = { player = { suited_pair = true } }
pays = "perfect"
[[definition.bets.outcomes]]
when = { player = { pair = true, suited_pair = false }, banker = { colour_pair = true } }
pays = "plain"
[[definition.bets.outcomes]]
otherwise = true
loses = 1
"""


def test_first_cards_read_together_equal_the_plain_enumeration() -> None:
    """A bet reading several first-card features (the joint path, not the closed form)."""
    from odds.core.cards import parse_cards
    from tests.reference.defined import brute_force

    cards = ["Ac", "Ac", "Ad", "Ah", "Kh", "Kd", "6h", "6h"]
    data = with_shoe(read_toml(MIXED_PAIRS, "mixed"), cards)
    paytable = from_data(data, "mixed")
    game = paytable.game
    bet = game.definition.bets[0]
    ways = game.settle_rounds(
        paytable.config, bet, game.rounds(paytable.config, bet), full_shoe=False
    )
    total = sum(ways.values())
    counted = {k: Fraction(n, total) for k, n in ways.items() if n}
    assert counted == brute_force(game, parse_cards(" ".join(cards)))["mixed-pairs"]
    assert len(counted) == 3


# -- Goa Gae's showdown ---------------------------------------------------------------

#: A reduced shoe with identical cards (ties, suits deciding), every category possible.
GOA_GAE_SHOE = ["Ac", "Ac", "2c", "3c", "3d", "3h", "Kh", "Qh", "Jh", "Js", "Qs", "5d"]


def with_shoe(data: dict[str, Any], cards: list[str]) -> dict[str, Any]:
    """The paytable data with a shoe of exactly these cards (a card twice: two copies)."""
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    from odds.core.cards import STANDARD_DECK

    data = dict(data)
    data["shoe"] = {"decks": 1, "counts": {c.code: counts.get(c.code, 0) for c in STANDARD_DECK}}
    return data


#: Each coded reading (a paytable option the definition declares too).
READINGS: dict[str, dict[str, Any]] = {
    "default": {},
    "king-high": {"single_card_order": "king-high"},
    "straight-above-jqk": {"straight_above_jqk": True},
    "kqj-mixed-jqk": {"kqj_mixed": "jqk"},
    "straight-flush-above-triple": {"straight_flush_above_triple": True},
    "straight-above-jqk-kqj-mixed-jqk": {"straight_above_jqk": True, "kqj_mixed": "jqk"},
    "both-orders": {"straight_above_jqk": True, "straight_flush_above_triple": True},
}


def test_goa_gae_readings_differ_on_the_reduced_shoe() -> None:
    """The reduced shoe tells the readings apart (so the test above can fail), but for the
    King-high order: a tie-break inside a category moves a hand pair's ways from a win to a
    loss and its mirror pair's back, so no bet figure reads it (the round below does)."""
    found = set()
    for name, rules in READINGS.items():
        data = read_toml((TABLES / "goa-gae-bonus.toml").read_text(), "bonus")
        data = dict(data, game="goa-gae", rules={**data["rules"], **rules})
        data.pop("dealing")
        if name != "king-high":
            analysis = from_data(with_shoe(data, GOA_GAE_SHOE), "x").analysis()
            found.add(tuple(figures(analysis)["player"]))
    assert len(found) == len(READINGS) - 1


@pytest.mark.parametrize(("order", "returned"), [("ace-high", 0), ("king-high", 2)])
def test_goa_gae_single_card_order_settles_a_round(order: str, returned: int) -> None:
    """9 points each: the dealer's ace is the top card ace-high, the player's king king-high."""
    paytable = load("goa-gae", [f"rules.single_card_order={order}"])
    hands = {"player": "Kh 7d 2c", "dealer": "Ac 6d 2s"}
    settled = paytable.game.settle(paytable.config, hands, Fraction(1))
    assert settled.bets[0].returned == returned


def test_goa_gae_tie_breaks_settle_as_the_rule_book() -> None:
    """docs/rules/goa-gae.md §Worked examples, through the definition."""
    paytable = load("goa-gae")
    cases = [
        ("4c 5d 6d", "4d 5c 6h", 2),  # two 4-5-6 Straights: ♥ over ♦
        ("Kc 4s 4h", "Kd 5c 3h", 2),  # 8 points each, top cards K: ♦ over ♣
        ("Kc Ad 2h", "Ac 2d 3h", 2),  # K-A-2 is 3 points; A-2-3 is a Straight
        ("Jc Jd Qh", "Qs Kd Ac", 0),  # JQK beats the highest Straight
        ("Qh Kh Ah", "2s 3s 4s", 2),  # straight flushes: the suit first
        ("Ac Ad Ah", "3c 3d 3s", 2),  # triple 3 is the highest triple
    ]
    for dealer, player, returned in cases:
        settled = paytable.game.settle(
            paytable.config, {"dealer": dealer, "player": player}, Fraction(1)
        )
        assert settled.bets[0].returned == returned, (dealer, player)


# -- Pok Deng: special patterns, both exceptions, withholding ----------------------------

#: Small enough for the coded counting to skip its whole-table section (12 cards), with
#: every Player outcome possible: pairs, flushes, combinations, 0- and 6-point Bankers.
POK_DENG_SHOE = ["Ac", "Kc", "5d", "5d", "Qh", "10h", "6s", "Js", "4c", "9h", "3h"]


def _pok_deng_reading(text: str, raw_total: bool, override: bool) -> dict[str, Any]:
    """The definition's paytable under a reading of docs/rules/pok-deng.md §Readings: the
    definition declares both readings as options (as the coded paytable's)."""
    data = read_toml(text, "defined")
    data["rules"] = {
        "banker_zero_or_six": "raw-total" if raw_total else "ordinary",
        "eight_nine_override": override,
    }
    return data


def test_pok_deng_readings_differ_on_the_reduced_shoe() -> None:
    """The reduced shoe tells the readings apart (so the test above can fail)."""
    base = (TABLES / "pok-deng.toml").read_text()
    found = set()
    for raw_total in (False, True):
        for override in (True, False):
            data = _pok_deng_reading(base, raw_total, override)
            paytable = from_data(with_shoe(data, POK_DENG_SHOE), "defined")
            found.add(paytable.analysis().bet("player").ev)
    assert len(found) == 4


def figures_of(bet: Any) -> list[tuple[str, Fraction, int]]:
    return [(o.event, o.net, o.ways) for o in bet.outcomes]


def test_pok_deng_rule_book_examples_through_the_definition() -> None:
    """docs/rules/pok-deng.md §Rule-book examples (stake 1, returned of 2 debited)."""
    paytable = load("pok-deng")
    cases = [
        ("4h 8c", "6c 7s", "player", 3),
        ("2c 3d", "9c 2d", "player", 1),
        ("Qc 10c", "Qc Jc", "player", 4),
        ("8c Jc", "9d 6c", "player", 0),
        ("6c 5c", "Jd Ac", "player", 2),
        ("Jc Kd", "5s 9h", "player", 0),
        ("6s 8s", "10c 10h", "player-pair", 12),
        ("2h 4h", "5c 5c", "player", 3),
        ("9d 7c", "Kh 9h", "player", 4),
    ]
    for banker, player, bet, returned in cases:
        settled = paytable.game.settle(
            paytable.config, {"player": player, "banker": banker}, Fraction(1)
        )
        by_bet = {b.bet: b for b in settled.bets}
        assert by_bet[bet].returned == returned, (banker, player, by_bet[bet])


# -- The new settlements' one-line errors -------------------------------------------------


def refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bet.toml"
    path.write_text(text)
    with pytest.raises(OddsError) as info:
        load_file(path).analysis()
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_loss_beyond_the_withholding_is_refused(tmp_path: Path) -> None:
    text = (TABLES / "pok-deng.toml").read_text()
    message = refusal(tmp_path, text.replace("player_lose_special = 2", "player_lose_special = 3"))
    assert "loses 3 per unit staked but only 2 is debited" in message
    assert "definition.bets.player (line" in message


def test_a_numbered_loss_needs_a_withholding(tmp_path: Path) -> None:
    text = (TABLES / "pok-deng.toml").read_text()
    text = text.replace('loses = "player_lose_special"', "loses = 2")
    text = text.replace('withholding = "player_withholding"\n', "")
    text = text.replace("player_withholding = 1\n", "")
    message = refusal(tmp_path, text)
    assert "a bet cannot lose more than its stake plus its withholding (1)" in message


def test_per_hand_reads_one_position_only(tmp_path: Path) -> None:
    text = (TABLES / "pok-deng.toml").read_text()
    text = text.replace(
        "when = { player = { pair = true } }",
        "when = { player = { pair = true }, banker = { pair = true } }",
    )
    message = refusal(tmp_path, text)
    assert "per_hand counts one position's hands alone" in message


def test_an_impossible_tie_needs_optional(tmp_path: Path) -> None:
    """One deck: two Goa Gae hands never tie; without optional = true that is refused."""
    text = (TABLES / "goa-gae.toml").read_text().replace(", optional = true", "")
    message = refusal(tmp_path, text)
    assert "the outcome 'tie (equal hands): push' never happens" in message


# -- Seats: a dealer against several players ---------------------------------------------


def test_a_seat_against_the_dealer_ignores_the_other_seats() -> None:
    """Exchangeability, checked: seat 2's Player bet, with seat 1's two cards dealt first
    and unseen, has the probabilities the definition counts for one seat."""
    from itertools import combinations

    cards = ["Ac", "Kc", "5d", "5h", "Qh", "10h", "6s"]
    paytable = from_data(with_shoe(read_toml(pok_deng_text(), "pok"), cards), "pok")
    game, config = paytable.game, paytable.config
    counted = {o.event: Fraction(o.ways) for o in paytable.analysis().bet("player").outcomes}
    total = sum(counted.values())
    seen: dict[str, int] = {}
    indices = range(len(cards))
    for seat_1 in combinations(indices, 2):
        rest = [i for i in indices if i not in seat_1]
        for seat_2 in combinations(rest, 2):
            left = [i for i in rest if i not in seat_2]
            for dealer in combinations(left, 2):
                hands = {
                    "player": " ".join(cards[i] for i in seat_2),
                    "banker": " ".join(cards[i] for i in dealer),
                }
                event = game.settle(config, hands, Fraction(1)).bets[0].event
                seen[event] = seen.get(event, 0) + 1
    deals = sum(seen.values())
    assert {k: Fraction(n, deals) for k, n in seen.items()} == {
        k: n / total for k, n in counted.items() if n
    }


def pok_deng_text() -> str:
    return (TABLES / "pok-deng.toml").read_text()


def test_seats_are_named_in_the_counting_and_change_no_figure() -> None:
    five = load("pok-deng")
    one = defined_from_text(pok_deng_text().replace("seats = 5\n", ""))
    assert "one of 5 seats" in five.analysis().counting
    assert "seats" not in one.analysis().counting
    assert figures(five.analysis()) == figures(one.analysis())


def test_seats_need_a_dealer_and_no_tableau(tmp_path: Path) -> None:
    text = pok_deng_text().replace("seats = 5", "seats = 11")
    assert "11 is outside 1–10" in refusal(tmp_path, text)
    tableau = """game = "seated"
[payouts]
two = 12
[definition]
[definition.deal]
positions = ["player", "banker"]
seats = 3
[definition.deal.tableau]
naturals = [8, 9]
first_draws = [0, 1, 2, 3, 4, 5]
second_draws_first_stood = [0, 1, 2, 3, 4, 5]
second_draws = { "0" = [0] }
[[definition.bets]]
name = "seated"
outcomes = [{ when = { winner = "banker" }, pays = "two" }, { otherwise = true, loses = 1 }]
"""
    assert "a tableau deals two hands, not seats" in refusal(tmp_path, tableau)


# -- odds bench: each definition beside its coded game ------------------------------------


# -- A threshold draw: one card more on k points or fewer ----------------------------------

THRESHOLD = """game = "third-card"
[payouts]
win = 1
three = 5
[definition]
[definition.shoe]
decks = 1
values = { A = 1, "10" = 0, J = 0, Q = 0, K = 0 }
[definition.deal]
positions = ["player", "dealer"]
cards = 2
draw_at_most = { player = 3, dealer = 4 }
[[definition.categories]]
name = "three-faces"
pattern = { faces = 3 }
[[definition.categories]]
name = "pair"
pattern = { same_rank = 2, cards = 2 }
[[definition.categories]]
name = "points"
pattern = { any = true }
tiebreak = ["points"]
[[definition.bets]]
name = "player"
outcomes = [
  { when = { winner = "player", player = { cards = 3 } }, pays = "three" },
  { when = { winner = "player", player = { cards = 2 } }, pays = "win" },
  { when = { winner = "tie" }, push = true },
  { when = { winner = "dealer" }, loses = 1 },
]
[[definition.bets]]
name = "dealer-flush"
outcomes = [
  { when = { dealer = { flush = true, cards = 3 } }, pays = 20 },
  { otherwise = true, loses = 1 },
]
[[definition.bets]]
name = "totals"
outcomes = [
  { when = { total_points = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }, pays = 1 },
  { otherwise = true, loses = 1 },
]
"""

SUITED_DUEL = """
[[definition.bets]]
name = "flush-duel"
outcomes = [
  { when = { winner = "player", player = { flush = true } }, pays = 3 },
  { otherwise = true, loses = 1 },
]
"""


def counted(paytable: Any) -> dict[str, dict[str, Fraction]]:
    game, config = paytable.game, paytable.config
    found = {}
    for bet in game.definition.bets:
        ways = game.settle_rounds(config, bet, game.rounds(config, bet), full_shoe=False)
        total = sum(ways.values())
        found[bet.name] = {k: Fraction(n, total) for k, n in ways.items() if n}
    return found


@pytest.mark.parametrize(
    "cards",
    [
        ["Ac", "2c", "Kh", "Qh", "Jh", "5d", "9s", "3s"],
        ["Ac", "Ac", "2c", "Kh", "Kh", "Qh", "3c"],  # identical cards
    ],
)
def test_threshold_draw_equals_the_plain_enumeration(cards: list[str]) -> None:
    """Values (totals), ranks (the category showdown) and suits (a flush, one hand; a
    flush with the winner, on both hands) against every ordered deal, draws included."""
    from odds.core.cards import parse_cards
    from tests.reference.defined import brute_force

    paytable = from_data(with_shoe(read_toml(THRESHOLD + SUITED_DUEL, "t"), cards), "t")
    assert counted(paytable) == brute_force(paytable.game, parse_cards(" ".join(cards)))


def test_threshold_draw_catches_another_threshold() -> None:
    """The check can fail: a dealer drawing on 5 counts differently."""
    from odds.core.cards import parse_cards
    from tests.reference.defined import brute_force

    cards = ["Ac", "2c", "Kh", "Qh", "Jh", "5d", "9s", "3s"]
    paytable = from_data(with_shoe(read_toml(THRESHOLD, "t"), cards), "t")
    other = from_data(
        with_shoe(read_toml(THRESHOLD.replace("dealer = 4", "dealer = 5"), "o"), cards), "o"
    )
    assert counted(other) != brute_force(paytable.game, parse_cards(" ".join(cards)))


def test_threshold_draw_on_a_full_deck_merges_cards_by_what_is_read() -> None:
    """One deck in a few seconds: the showdown reads ranks (13 types), the totals values."""
    analysis = from_data(read_toml(THRESHOLD, "t"), "t").analysis()
    assert analysis.deals == 22_100 * 3 * 18_424 * 3  # C(52,3)·3 · C(49,3)·3
    assert "one card more to the player on 3 points or fewer" in analysis.counting


def test_threshold_draw_settles_and_checks_the_draws() -> None:
    paytable = from_data(read_toml(THRESHOLD, "t"), "t")
    settled = paytable.game.settle(
        paytable.config, {"player": "Ac 2d 5h", "dealer": "Kc 7s"}, Fraction(1)
    )
    assert settled.bets[0].returned == 6  # player 8 on three cards beats 7: pays 5
    with pytest.raises(OddsError, match="player draws a card on 3 points"):
        paytable.game.settle(paytable.config, {"player": "Ac 2d", "dealer": "Kc 7s"}, Fraction(1))
    with pytest.raises(OddsError, match="dealer stands on 7 points"):
        paytable.game.settle(
            paytable.config, {"player": "Ac 2d 5h", "dealer": "Kc 7s 2h"}, Fraction(1)
        )


def test_threshold_draw_with_suits_on_both_hands_is_estimated_and_refused(
    tmp_path: Path,
) -> None:
    text = THRESHOLD.split("[[definition.bets]]")[0] + SUITED_DUEL  # the suited bet alone
    text = text.replace("win = 1\nthree = 5\n", "")
    message = refusal(tmp_path, text)
    assert "a threshold draw read on both hands needs ~" in message
    assert "hand-pair corrections" in message
