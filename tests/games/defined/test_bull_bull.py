"""Bull Bull (``tables/bull-bull.toml``, docs/rules/bull-bull.md): five cards each to Red and
Blue, ranked Five Calf > Bomb > Gold Bull > Silver Bull > Bull Bull > Bull 9 … Bull 1 > No Bull
(a Bull: some three cards' values add up to a multiple of 10, the pattern key
``subset_points``), equal ranks tie. Five-card hands of one deck are counted by rank classes
(6,188 rank multisets, not 3.8 million hands by card).

* On reduced decks every bet's ways per outcome equal a plain count of every Red hand against
  every Blue hand of the cards left (``tests/reference/bull_bull.py``, no project imports): 14
  cards holding every special hand, counted by rank (the limit lowered so that the merge the
  full deck takes is taken here), and 11 cards with identical copies (two decks' worth),
  counted by card and by rank.
* On the full deck the one hand's 15 categories equal the plain count (every rank multiset
  times its suit choices; the same numbers as the ~25 s count of all 2,598,960 hands one by
  one, run once), and the showdown's totals add up to every deal.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from math import comb
from typing import Any

import pytest

from odds.games.defined import counting
from odds.games.defined.game import DefinedGame
from odds.games.paytable import load
from tests.games.defined.reduced import reduced
from tests.reference import bull_bull as reference

#: Every special hand: Five Calf (A A 2 2 3), Bomb (four Ks), Gold Bull (K K K Q J), Silver Bull
#: (10 K K Q J), and cards for the Bulls between.
REDUCED = ["As", "Ah", "2s", "2h", "3s", "Ks", "Kh", "Kd", "Kc", "Qs", "Js", "10s", "7s", "5h"]
#: Two decks' worth: identical kings and aces.
DOUBLED = ["Ks", "Ks", "Kh", "Kd", "Kc", "As", "As", "2s", "3s", "10s", "5h"]


def _ways(paytable: Any, name: str) -> dict[str, int]:
    """One bet's ways per outcome (the counting alone, not the whole report)."""
    game = paytable.game
    assert isinstance(game, DefinedGame)
    (bet,) = [b for b in game.definition.bets if b.name == name]
    rounds = game.rounds(paytable.config, bet)
    found = game.settle_rounds(paytable.config, bet, rounds, full_shoe=False)
    return {key: n for key, n in found.items() if n}


@cache
def _expected(cards: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """The plain count's ways per bet and outcome, counted once per deck (the by-card and
    by-rank cases compare the engine's two ways of counting with the same numbers)."""
    plain = reference.showdown(list(cards))
    winners: Counter[str] = Counter()
    for (who, _), n in plain.items():
        winners[who] += n
    both = plain["tie", "bull-bull"]
    found = {
        "red": {"win": winners["red"], "tie": winners["tie"], "lose": winners["blue"]},
        "blue": {"win": winners["blue"], "tie": winners["tie"], "lose": winners["red"]},
        "tie": {"win": winners["tie"], "lose": winners["red"] + winners["blue"]},
        "double-bull-bull": {"win": both, "lose": sum(plain.values()) - both},
    }
    return {bet: {k: n for k, n in ways.items() if n} for bet, ways in found.items()}


@pytest.mark.parametrize(
    ("cards", "by_rank"),
    [(REDUCED, True), (DOUBLED, False), (DOUBLED, True)],
    ids=["14-cards-by-rank", "two-decks-by-card", "two-decks-by-rank"],
)
def test_reduced_decks_equal_the_plain_count(
    cards: list[str], by_rank: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By card on the two decks' cards only: by card and by rank share the categories, the
    strengths and the showdown count (a misread Silver Bull fails the 14 cards by rank), and
    counting by card costs 2.2 s of CPU whatever the deck (the engine's hands walk all 52
    card types, present or not); these eleven cards' count by card is the one
    test_defined.py's plain enumeration of Bull Bull makes (its pinned shoe), so it is
    counted once in a run."""
    if by_rank:  # the full deck's way: card types merged by rank past the hands' limit
        by_card = counting.estimate_hands(len(set(cards)), 5)  # distinct hands by card
        monkeypatch.setattr(counting, "MAX_HANDS", by_card - 1)
    paytable, _ = reduced("bull-bull", cards)
    expected = _expected(tuple(cards))
    assert sum(expected["red"].values()) == comb(len(cards), 5) * comb(len(cards) - 5, 5)
    for bet, ways in expected.items():
        assert _ways(paytable, bet) == ways, bet


def test_reduced_deck_reaches_every_category() -> None:
    assert set(reference.categories(REDUCED)) == set(reference.CATEGORIES)


def test_the_full_deck() -> None:
    paytable = load("bull-bull")
    game = paytable.game
    assert isinstance(game, DefinedGame)
    shoe = paytable.config.shoe.build()
    counted = counting.category_distribution(game.definition, shoe.types, shoe.counts)
    named = {game.definition.categories[i].name: n for i, n in counted.items() if n}
    assert named == dict(reference.categories_by_ranks())
    assert named == {
        "five-calf": 776,
        "bomb": 608,
        "gold-bull": 768,
        "silver-bull": 3_552,
        "bull-bull": 187_424,
        "bull-9": 171_288,
        "bull-8": 168_072,
        "bull-7": 171_288,
        "bull-6": 168_072,
        "bull-5": 177_408,
        "bull-4": 168_072,
        "bull-3": 171_288,
        "bull-2": 168_072,
        "bull-1": 171_288,
        "no-bull": 870_984,
    }
    assert sum(named.values()) == comb(52, 5)
    red = _ways(paytable, "red")
    assert red == {"win": 1_681_700_912_536, "tie": 623_244_278_368, "lose": 1_681_700_912_536}
    assert sum(red.values()) == comb(52, 5) * comb(47, 5)
    assert _ways(paytable, "double-bull-bull")["win"] == 20_709_013_952
