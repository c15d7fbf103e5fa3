"""Tableau bets that read the drawn cards (``two_card_points``, ``third_value``,
``highest_value``): Tie Max and 3 Giving 8 (``tables/tie-max.toml``,
``tables/3-giving-8.toml``) against the plain baccarat of ``tests/reference/baccarat.py`` (its
own tableau, card values dealt one by one) on a reduced shoe outcome by outcome, and against
the published combinations on the full eight-deck shoe; their shoe states; the refusals.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import pytest

from odds.core.errors import OddsError
from odds.games.defined.shoe_state import DefinedEvaluator, TableauEvaluator
from odds.games.paytable import load, load_file
from tests.games.defined.reduced import reduced
from tests.reference import baccarat as plain

#: Ordered six-card deals of eight decks: (416)_6.
EIGHT_DECKS = 4_998_398_275_503_360

#: Wizard of Odds, "Tie Max (formerly Lucky Max)",
#: https://wizardofodds.com/games/baccarat/side-bets/lucky-max/ (eight decks): a low tie
#: (highest card 0-5) in 74,570,116,880,640 combinations, house edge 16.45%; a high tie
#: (6-9) in 401,057,309,592,576, 11.74%. Wizard of Odds, "3 Giving 8 Baccarat Side Bet",
#: https://wizardofodds.com/games/baccarat/side-bets/3-giving-8/: a win in
#: 22,708,577,366,016 combinations, house edge 8.68% at 200 to 1 (17.77% at 180 to 1).
#: (The pages print the losing combinations rounded in their last digits: 4,923,828,158,622,710
#: for 4,923,828,158,622,720; every winning count is printed exactly.)
PUBLISHED = {
    "low-tie-max": (74_570_116_880_640, "16.45"),
    "high-tie-max": (401_057_309_592_576, "11.74"),
    "3-giving-8": (22_708_577_366_016, "8.68"),
}

#: A reduced shoe holding low ties (every card 0-5), high ties (highest card 6 or 8), a Banker
#: two-card 3 (A+2, 3+K) and a Player third card 8: 8 cards, 20,160 ordered six-card deals.
#: (It held a second 8 and a second 2, 151,200 deals, 7.5 times the count: what each bet
#: reads is here without them. Checked: a low tie read as 0-4 or 0-6, a high tie as 7-9, a
#: Banker two-card 2 or 4, or a Player third card 6 instead, each fails this count.)
CARDS = ["Ac", "2d", "Kh", "Qs", "3c", "5h", "8c", "6h"]

_VALUES = {"A": 1, "K": 0, "Q": 0, "J": 0}


def _value(code: str) -> int:
    rank = code[:-1]
    return _VALUES[rank] if rank in _VALUES else int(rank) % 10


def _analyses() -> dict[str, dict[str, int]]:
    found = {}
    for name in ("tie-max", "3-giving-8"):
        analysis = load(name).analysis()
        for bet in analysis.bets:
            assert bet.stats.total == EIGHT_DECKS
            assert sum(o.ways for o in bet.outcomes) == EIGHT_DECKS
            found[bet.name] = {o.event: o.ways for o in bet.outcomes}
            edge = f"{float(-bet.stats.ev) * 100:.2f}"
            assert edge == PUBLISHED[bet.name][1], bet.name
    return found


def test_eight_decks_equal_the_published_combinations() -> None:
    """The definitions' counts (one tableau polynomial carrying the drawn cards' classes) give
    the published wins exactly. (The plain baccarat is compared outcome by outcome on the
    reduced shoe below; its eight-deck count, 2 s of CPU, caught nothing more.)"""
    mine = _analyses()
    for bet, (published, _) in PUBLISHED.items():
        (win,) = (n for label, n in mine[bet].items() if label != "all other")
        assert win == published, bet


def test_every_outcome_equals_the_plain_enumeration_on_a_reduced_shoe() -> None:
    """Every ordered deal of six of the ten cards (each copy distinct), dealt by the plain
    tableau: each outcome's ways equal the definition's, exactly (not only the ratios)."""
    expected: dict[str, Counter[Fraction]] = {}
    for order in permutations(range(len(CARDS)), 6):
        values = iter(_value(CARDS[i]) for i in order)
        player, banker = plain.coup(lambda values=values: next(values))
        for bet, net in plain.drawn_nets(player, banker).items():
            expected.setdefault(bet, Counter())[net] += 1
    checked = 0
    for name in ("tie-max", "3-giving-8"):
        paytable, _ = reduced(name, CARDS)
        for bet in paytable.analysis().bets:
            found = Counter({Fraction(o.net): o.ways for o in bet.outcomes if o.ways})
            assert found == expected[bet.name], bet.name
            assert min(found.values()) > 0 and len(found) == 2, bet.name  # wins and losses
            checked += 1
    assert checked == 3


def test_settle_reads_the_drawn_cards() -> None:
    giving = load("3-giving-8")
    won = giving.game.settle(
        giving.config, {"player": "Ah 2d 8c", "banker": "Kc 3d"}, Fraction(1)
    ).bets[0]
    assert won.returned == 201
    # A Player third card 9: the Banker draws on its 3 (to 8), and the bet loses.
    lost = giving.game.settle(
        giving.config, {"player": "Ah 2d 9c", "banker": "Kc 3d 5h"}, Fraction(1)
    ).bets[0]
    assert lost.returned == 0
    ties = load("tie-max")
    by_bet = {
        b.bet: b.returned
        for b in ties.game.settle(
            ties.config, {"player": "Ah 2d 3c", "banker": "Kc 4d 2h"}, Fraction(1)
        ).bets
    }
    assert by_bet == {"low-tie-max": 56, "high-tie-max": 0}  # 6-6, highest card 4
    by_bet = {
        b.bet: b.returned
        for b in ties.game.settle(
            ties.config, {"player": "Ah 2d 3c", "banker": "Kc 6d"}, Fraction(1)
        ).bets
    }
    assert by_bet == {"low-tie-max": 0, "high-tie-max": 11}  # 6-6, highest card 6


def test_a_partly_dealt_shoe_equals_the_counting() -> None:
    """The shoe states (one polynomial regrouped by outcome) equal the counting of the same
    composition, with the eights and threes that decide 3 Giving 8 taken out."""
    for name in ("tie-max", "3-giving-8"):
        paytable = load(name)
        evaluator = paytable.game.shoe_state.evaluator(paytable.config)
        assert isinstance(evaluator, TableauEvaluator), name
        counting = DefinedEvaluator(paytable.game, paytable.config)
        counts = list(evaluator.full)
        for t in (7, 20, 33, 2, 15, 5, 5):  # three 8s, two 3s, two 6s
            counts[t] -= 1
        assert evaluator.evs(tuple(counts)) == counting.evs(tuple(counts)), name
        assert evaluator.evs(tuple(counts)) != evaluator.evs(evaluator.full), name


BET = """game = "my-bet"
[payouts]
win = 10
[definition]
base = "baccarat"
[[definition.bets]]
name = "my-bet"
outcomes = [
  { when = WHEN, pays = "win" },
  { otherwise = true, loses = 1 },
]
"""


def _refusal(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bet.toml"
    path.write_text(text)
    with pytest.raises(OddsError) as info:
        load_file(path).analysis()
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_bet_whose_drawn_cards_give_too_many_classes_is_refused_before_counting(
    tmp_path: Path,
) -> None:
    """Every third card and highest card of both positions told apart: 11·11·10·10 classes
    of each coup, refused in one line naming the estimate, before the count."""
    when = (
        "{ any = ["
        + ", ".join(
            f"{{ player = {{ third_value = {v}, highest_value = {v} }}, "
            f"banker = {{ third_value = {v}, highest_value = {v} }} }}"
            for v in range(10)
        )
        + "] }"
    )
    message = _refusal(tmp_path, BET.replace("WHEN", when))
    assert "needs ~2,480,500 coup classes (limit 3,000)" in message, message  # 205·10·11·10·11
    assert "player.third_value" in message and "banker.highest_value" in message


def test_a_drawn_card_feature_needs_a_tableau(tmp_path: Path) -> None:
    text = BET.replace('base = "baccarat"', '[definition.deal]\npositions = ["a", "b"]\ncards = 2')
    message = _refusal(tmp_path, text.replace("WHEN", "{ a = { third_value = 8 } }"))
    assert "third_value reads a tableau deal's drawing" in message, message


def test_the_first_cards_and_the_drawn_cards_together_are_refused(tmp_path: Path) -> None:
    message = _refusal(
        tmp_path,
        BET.replace("WHEN", "{ player = { pair = true, third_value = 8 } }"),
    )
    assert "first two cards' ranks or suits" in message and "third_value" in message


def test_the_coup_s_highest_card_and_a_pair_together_are_refused_by_their_names(
    tmp_path: Path,
) -> None:
    message = _refusal(
        tmp_path, BET.replace("WHEN", "{ highest_value = 9, player = { pair = true } }")
    )
    assert "the coup (highest_value) together" in message, message
