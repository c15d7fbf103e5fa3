"""Three Card Poker's 6-Card Bonus (``tables/six-card-bonus.toml``, docs/rules/six-card-bonus.md):
the best five of six cards (``[definition.deal] best = 5``), counted by classes.

* On reduced decks every category's hands equal a plain count of every six cards, each read by
  its best five-card subset (``tests/reference/six_card_bonus.py``, no project imports): 22
  cards of nine ranks whose suits hold different cards (so the suits are not all alike), and
  12 cards with identical copies (two decks' worth).
* On the full deck the 20,358,520 six-card hands: the royal flushes, straight flushes, fours
  of a kind and full houses equal their closed forms, written here, and the whole table's
  house edge and hit frequency are the published ones. The pay table (1000-200-100-20-15-10-7)
  is "one of the most common versions", with "a house edge of just over 8.5%" and a hit
  frequency "slightly over 7.2%" (mypokercoaching.com, "What is a 6-Card Bonus in 3-Card
  Poker?", https://www.mypokercoaching.com/what-is-6-card-bonus-in-3-card-poker/): exactly
  12816/149695 = 8.5614% and 7.2798%. Wizard of Odds' table of the combinations (its "6-Card
  Bonus" page, version 1) could not be read from here, so none of its integers is quoted.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb
from typing import Any

import pytest

from odds.core.errors import OddsError
from odds.games.defined.game import DefinedGame
from odds.games.paytable import from_data, load
from tests.games.defined.reduced import reduced
from tests.reference import six_card_bonus as reference

#: Nine ranks: the wheel A-2-3-4-5 (a straight flush in spades or hearts), the royal 10-A;
#: spades and hearts whole, a few clubs and diamonds for four kings.
REDUCED = [f"{r}{s}" for r in ["A", "2", "3", "4", "5", "10", "J", "Q", "K"] for s in "sh"]
REDUCED += ["Ac", "Kc", "Kd", "5c"]
#: Two decks' worth: identical cards make a flush holding a pair, and five of a rank a four.
DOUBLED = ["10s", "10s", "Js", "Qs", "Ks", "As", "As", "Ah", "Ad", "Ac", "Kh", "Kd"]


def _ways(paytable: Any) -> dict[str, int]:
    """The bet's ways per outcome (the counting alone, not the whole report)."""
    game = paytable.game
    assert isinstance(game, DefinedGame)
    (bet,) = game.definition.bets
    rounds = game.rounds(paytable.config, bet)
    found = game.settle_rounds(paytable.config, bet, rounds, full_shoe=False)
    return {key: n for key, n in found.items() if n}


def _reference(cards: list[str]) -> dict[str, int]:
    counted = reference.count(cards)
    names = {"nothing": "lose"}
    return {names.get(name, name): n for name, n in counted.items()}


@pytest.mark.parametrize("cards", [REDUCED, DOUBLED], ids=["22-cards", "two-decks"])
def test_reduced_decks_equal_the_plain_count(cards: list[str]) -> None:
    paytable, _ = reduced("six-card-bonus", cards)
    ways = _ways(paytable)
    assert sum(ways.values()) == comb(len(cards), 6)
    assert ways == _reference(cards)


def test_the_full_deck() -> None:
    paytable = load("six-card-bonus")
    ways = _ways(paytable)
    assert sum(ways.values()) == comb(52, 6) == 20_358_520
    assert ways == {
        "royal-flush": 188,
        "straight-flush": 1_656,
        "quads": 14_664,
        "full-house": 165_984,
        "flush": 205_792,
        "straight": 361_620,
        "trips": 732_160,
        "lose": 18_876_456,
    }
    # Closed forms: a royal flush and any other card; a straight flush topped 5 to K and any
    # card but the one above it in its suit; four of a kind and any two others; three of one
    # rank with three of another, or with a pair and a single.
    assert ways["royal-flush"] == 4 * 47
    assert ways["straight-flush"] == 4 * 9 * 46
    assert ways["quads"] == 13 * comb(48, 2)
    assert ways["full-house"] == comb(13, 2) * 4 * 4 + 13 * 12 * 11 * 4 * 6 * 4
    game = paytable.game
    assert isinstance(game, DefinedGame)
    (bet,) = game.definition.bets
    nets = {e.key: e.net for e in game.events(paytable.config, bet)}
    total = sum(ways.values())
    ev = sum(Fraction(nets[k]) * n for k, n in ways.items()) / total
    hits = Fraction(sum(n for k, n in ways.items() if nets[k] > 0), total)
    assert ev == -Fraction(12816, 149695)
    assert 0.085 < float(-ev) < 0.086  # "just over 8.5%"
    assert 0.072 < float(hits) < 0.073  # "slightly over 7.2%"


def test_counted_by_classes_in_seconds() -> None:
    """The full deck's categories come from ~37,000 classes, not 20,358,520 hands; the work is
    estimated first and the count takes a few seconds at most."""
    from odds.games.defined import best_of

    paytable = load("six-card-bonus")
    game = paytable.game
    assert isinstance(game, DefinedGame)
    shoe = paytable.config.shoe.build()
    assert best_of.estimate(game.definition, shoe.types, shoe.counts) == 18_564 * 7
    start = time.process_time()
    classes = best_of.class_ways(game.definition, shoe.types, shoe.counts)
    assert time.process_time() - start < 5
    assert len(classes) < 40_000
    assert sum(classes.values()) == comb(52, 6)


def _variant(deal: dict[str, object]) -> dict[str, object]:
    data = dict(load("six-card-bonus").data)
    definition = dict(data["definition"])  # type: ignore[call-overload]
    definition["deal"] = deal
    data["definition"] = definition
    return data


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ({"positions": ["hand"], "cards": 6, "best": 6}, "best = 6: the hand holds 6 cards"),
        ({"positions": ["hand"], "cards": 6, "best": 3}, "two suits could each hold 3"),
        ({"positions": ["player", "dealer"], "cards": 3, "best": 2}, "best reads one hand"),
    ],
)
def test_bad_best_is_refused_in_one_line(deal: dict[str, object], message: str) -> None:
    with pytest.raises(OddsError, match=message) as caught:
        from_data(_variant(deal), "six-card-bonus (variant)")
    assert "\n" not in str(caught.value)


def test_too_much_work_is_refused_before_it_starts() -> None:
    """Nine cards from two decks: estimated, then refused in one line naming the cost."""
    data = _variant({"positions": ["hand"], "cards": 9, "best": 5})
    data["shoe"] = {"decks": 2}
    paytable = from_data(data, "six-card-bonus (nine cards)")
    start = time.process_time()
    with pytest.raises(OddsError, match=r"best 5 of 9 cards needs ~[\d,]+ class terms") as caught:
        _ways(paytable)
    assert time.process_time() - start < 2
    assert "\n" not in str(caught.value)


def test_settle_reads_the_best_five() -> None:
    game = load("six-card-bonus").game
    assert isinstance(game, DefinedGame)
    from odds.games.defined import patterns

    def category(codes: str) -> str:
        from odds.core.cards import parse_cards

        index = patterns.category_of(parse_cards(codes), game.definition)
        assert index is not None
        return game.definition.categories[index].name

    assert category("10s Js Qs Ks As 2d") == "royal-flush"
    assert category("Ad 2d 3d 4d 5d 6h") == "straight-flush"
    assert category("Qh Qc Qd 4s 4d 9c") == "full-house"
    assert category("Ad 2h 3c 4c 5s 5h") == "straight"
    assert category("Kh Kd 4c 4d 9s 2c") == "nothing"
