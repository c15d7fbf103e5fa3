"""Andar Bahar (``tables/andar-bahar.toml``, docs/rules/andar-bahar.md): a deal that goes on
until a card matches the first, ``[definition.deal] until_match``.

* On reduced decks every round's ways (the joker, the cards dealt after it, the winning pile)
  equal a plain count of every ordering of the deck (``tests/reference/andar_bahar.py``),
  for the pile named first, the pile chosen by the joker's colour, and matches by rank, suit
  and colour; and a deck whose ranks are unequal (the jokers then leave different numbers of
  matching cards, on one common total).
* On the full deck the law of the match equals a draw-by-draw recursion, and the figures
  the sources publish: Wizard of Odds' rules ("Andar Bahar",
  https://wizardofodds.com/games/andar-bahar/, read in a mirror of the page:
  "If the count of cards dealt after the Middle Card is odd, the Andar bet wins. Depending
  on the game's variant, the payout for an Andar win can be either 0.9 to 1 or 0.95 to 1")
  and the side dealt first winning 51.5% of rounds, Bahar 48.5% ("Understanding Andar Bahar
  Odds and Probabilities", https://andarbahargames.in/guides/understanding-odds-and-probabilities:
  "Andar (Black Joker) | 51.5% | 48.5%"); exactly 429/833 and 404/833. The mirror's text
  holds no house edge: the exact ones, Andar at 0.9:1 −179/8330 (2.1489%) and Bahar at 1:1
  −25/833 (3.0012%), follow from those chances and the pays, and are asserted here.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from odds.core.cards import STANDARD_DECK, Card
from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.games.defined import until_match
from odds.games.defined.game import DefinedGame
from odds.games.paytable import TABLES, from_data, load
from tests.reference import andar_bahar as reference

PAYTABLE = TABLES / "andar-bahar.toml"


def paytable(cards: list[str] | None = None, **rules: Any) -> Any:
    """The Andar Bahar paytable, on a deck of exactly ``cards`` (one copy each) when given,
    with its ``[rules]`` and ``until_match`` changed as asked."""
    data = read_toml(PAYTABLE.read_text(encoding="utf-8"), "andar-bahar")
    if cards is not None:
        data["shoe"] = {"decks": 1, "counts": {c.code: int(c.code in cards) for c in STANDARD_DECK}}
    if "first_pile" in rules:
        data["rules"]["first_pile"] = rules.pop("first_pile")
    data["definition"]["deal"]["until_match"].update(rules)
    return from_data(data, "andar-bahar (test)")


def engine_rounds(table: Any) -> dict[tuple[str, int, str], Fraction]:
    """The engine's chance per (joker, cards dealt after it, winning pile)."""
    game = table.game
    assert isinstance(game, DefinedGame)
    shoe = table.config.shoe.build()
    reads = {"joker": {"rank", "suit"}, "andar": {"cards"}, "bahar": {"cards"}}
    found = until_match.rounds(game.definition, shoe.types, shoe.counts, True, reads)
    total = sum(found.values())
    out: dict[tuple[str, int, str], Fraction] = {}
    for (winner, joker, andar, bahar), n in found.items():
        card = Card(dict(joker)["rank"], dict(joker)["suit"])
        key = (card.code, dict(andar)["cards"] + dict(bahar)["cards"], winner)
        out[key] = out.get(key, Fraction(0)) + Fraction(n, total)
    return out


def plain_rounds(cards: list[str], first: str, match: str) -> dict[tuple[str, int, str], Fraction]:
    """The reference's count of every ordering, as chances keyed like :func:`engine_rounds`."""
    deck = [(c[:-1], c[-1]) for c in cards]
    counted = reference.orderings(deck, first, match)
    total = sum(counted.values())
    return {(r + s, k, w): Fraction(n, total) for ((r, s), k, w), n in counted.items()}


#: 3 ranks × 2 suits (720 orderings), 4 ranks × 2 suits (40,320), and unequal ranks: three
#: aces, two 2s, two kings (5,040), where an ace leaves two matches and a 2 or a king one.
DECKS = {
    "3x2": ["Ac", "Ah", "2d", "2s", "Kc", "Kd"],
    "4x2": ["Ac", "Ah", "2d", "2s", "Kc", "Kd", "Qh", "Qs"],
    "unequal": ["Ac", "Ah", "Ad", "2c", "2h", "Ks", "Kd"],
}


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("first", ["andar", "bahar", "by-colour"])
def test_every_round_equals_every_ordering(deck: str, first: str) -> None:
    cards = DECKS[deck]
    if first == "by-colour":
        table = paytable(cards, first_pile="by-colour")
    else:
        table = paytable(cards, first=first)
    assert engine_rounds(table) == plain_rounds(cards, first, "rank")


@pytest.mark.parametrize("match", ["suit", "colour"])
def test_a_match_by_suit_or_colour_equals_every_ordering(match: str) -> None:
    cards = ["Ac", "2c", "3h", "4h", "5d", "Kd"] if match == "suit" else DECKS["3x2"]
    assert engine_rounds(paytable(cards, match=match)) == plain_rounds(cards, "andar", match)


def test_the_comparison_can_fail() -> None:
    """Dealing Bahar first is another game: the plain count tells them apart."""
    cards = DECKS["3x2"]
    assert engine_rounds(paytable(cards, first="bahar")) != plain_rounds(cards, "andar", "rank")


@cache
def full() -> Any:
    return load("andar-bahar").analysis()


def bet(name: str) -> Any:
    return next(b for b in full().bets if b.name == name)


def chance(found: Any, event: str) -> Fraction:
    """The chance of the outcome ``event`` of a report's bet."""
    total = sum(o.ways for o in found.outcomes)
    return Fraction(next(o.ways for o in found.outcomes if o.event == event), total)


def test_the_full_deck_equals_a_draw_by_draw_recursion() -> None:
    table = load("andar-bahar")
    game = table.game
    assert isinstance(game, DefinedGame)
    shoe = table.config.shoe.build()
    found = until_match.places(game.definition, shoe.types, shoe.counts)
    total = sum(found.values())
    assert total == 52 * 20825  # the joker, and the places of the three cards of its rank
    law = reference.sequential(51, 3)
    assert {k: Fraction(n, total) for (k, _), n in found.items()} == law
    assert all(first == (k % 2 == 1) for k, first in found)


def test_published_chances_and_the_exact_house_edges() -> None:
    first, second = reference.side_chances()
    assert (first, second) == (Fraction(429, 833), Fraction(404, 833))
    andar, bahar = bet("andar"), bet("bahar")
    assert chance(andar, "Andar receives the match") == first
    assert round(float(first) * 100, 1) == 51.5 and round(float(second) * 100, 1) == 48.5
    assert andar.ev == Fraction(9, 10) * first - second == Fraction(-179, 8330)
    assert bahar.ev == second - first == Fraction(-25, 833)
    assert f"{float(-andar.ev):.4%}" == "2.1489%" and f"{float(-bahar.ev):.4%}" == "3.0012%"


def test_side_bets_on_the_cards_dealt() -> None:
    """Each range's chance is the law of the match summed over it; together they cover it."""
    law = reference.sequential(51, 3)
    ranges = {"dealt-1-5": (1, 5), "dealt-6-10": (6, 10), "dealt-11-15": (11, 15),
              "dealt-16-25": (16, 25), "dealt-26-30": (26, 30), "dealt-31-35": (31, 35),
              "dealt-36-40": (36, 40), "dealt-41-49": (41, 49)}  # fmt: skip
    chances = {}
    for name, (low, high) in ranges.items():
        found = bet(name)
        win = next(o for o in found.outcomes if o.net > 0)
        chances[name] = chance(found, win.event)
        assert chances[name] == sum(law[k] for k in range(low, high + 1)), name
    assert sum(chances.values()) == 1
    assert chances["dealt-41-49"] == Fraction(8580, 1082900)


def test_by_colour_makes_both_sides_even() -> None:
    table = paytable(first_pile="by-colour")
    analysis = table.analysis()
    evs = {b.name: b.ev for b in analysis.bets}
    first, second = reference.side_chances()
    # Each side is dealt first on half the jokers (every rank has two of each colour).
    expected = (Fraction(9, 10) * first + second) / 2 - (first + second) / 2
    assert evs["andar"] == evs["bahar"] == expected == Fraction(-429, 16660)


def test_settle_reads_the_piles() -> None:
    table = load("andar-bahar")
    hands = {"joker": "7h", "andar": "2c 5d 7s", "bahar": "3c 9d"}
    settled = table.game.settle(table.config, hands, Fraction(100))
    nets = {b.bet: b.net for b in settled.bets}
    assert nets["andar"] == 90 and nets["bahar"] == -100 and nets["dealt-1-5"] == 250
    bad = [
        ({"joker": "7h", "andar": "2c 7d", "bahar": "3c 9d"}, "must match the joker"),
        ({"joker": "7h", "andar": "7d 5d", "bahar": "3c 7s"}, "so the deal ends there"),
        ({"joker": "7h", "andar": "2c", "bahar": "3c 7s"}, "give the andar 2, got 1"),
        ({"joker": "7h 8h", "andar": "7s", "bahar": ""}, "must be one card"),
    ]
    for hands, message in bad:
        with pytest.raises(OddsError, match=re.escape(message)):
            table.game.settle(table.config, hands, Fraction(1))


def _defined(deal: str, bets: str = "", extra: str = "") -> str:
    return f"""
game = "t"
[definition]
{extra}
[definition.deal]
positions = ["andar", "bahar"]
{deal}
[[definition.bets]]
name = "andar"
outcomes = [
  {{ when = {{ winner = "andar" }}, pays = 1 }},
  {{ otherwise = true, loses = 1 }},
]
{bets}
"""


def _bet(when: str) -> str:
    """A second bet whose winning outcome has this condition."""
    return (
        f'[[definition.bets]]\nname = "t"\noutcomes = [{{ when = {when}, pays = 8 }}, '
        "{ otherwise = true, loses = 1 }]"
    )


PLAIN = 'until_match = { card = "joker", first = "andar" }'
BAD = [
    ('until_match = { card = "joker", first = "middle" }', "", "", "expected the pile dealt first"),
    ('until_match = { card = "andar", first = "andar" }', "", "", "names a pile"),
    ('until_match = { card = "joker", match = "value", first = "andar" }', "", "",
     "'value' is not one of rank, suit, colour"),
    (f"cards = 2\n{PLAIN}", "", "", "remove cards"),
    ('until_match = { card = "joker", first = { black = "andar" } }', "", "",
     "one per colour of the joker"),
    ('until_match = { card = "joker", first = "andar", start = 1 }', "", "",
     "unknown key 'start'"),
    (PLAIN, _bet('{ winner = "tie" }'), "", "unknown winner 'tie'"),
    (PLAIN, _bet("{ andar = { points = 3 } }"), "", "a pile is read by cards"),
    (PLAIN, _bet("{ joker = { cards = 1 } }"), "", "the joker is read by rank and suit"),
    (PLAIN, _bet("{ total_points = 3 }"), "", "reads winner and dealt"),
    (PLAIN, "", '[[definition.categories]]\nname = "x"\npattern = { any = true }',
     "no hands to class"),
    ("cards = 1", _bet("{ dealt = 3 }"), "", "dealt: the cards dealt after the turned card"),
]  # fmt: skip


@pytest.mark.parametrize(("deal", "bets", "extra", "message"), BAD)
def test_a_contradictory_definition_is_one_line(
    tmp_path: Path, deal: str, bets: str, extra: str, message: str
) -> None:
    path = tmp_path / "t.toml"
    path.write_text(_defined(deal, bets, extra), encoding="utf-8")
    from odds.games.paytable import load_file

    with pytest.raises(OddsError) as error:
        load_file(path).analysis()
    text = str(error.value)
    assert message in text and "\n" not in text, text


def test_a_shoe_without_a_match_and_too_much_work_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cards = ["Ac", "Ah", "2d", "2s", "Kc"]  # a king joker has nothing to match it
    with pytest.raises(OddsError, match=r"has no card of its rank left .* never end"):
        paytable(cards).analysis()
    # The work (joker types × places of the match) is estimated before counting.
    monkeypatch.setattr(until_match, "MAX_WORK", 52 * 52 - 1)
    with pytest.raises(OddsError, match=r"~2,704 terms .* over the limit of 2,703"):
        load("andar-bahar").analysis()


def test_a_deal_round_is_a_round_settle_accepts() -> None:
    """``deal_round`` deals the joker, then the piles in turn until the match."""
    import random

    table = load("andar-bahar")
    game = table.game
    assert isinstance(game, DefinedGame)
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for _ in range(50):
        deck = list(STANDARD_DECK)
        rng.shuffle(deck)
        hands = game.deal_round(table.config, deck.pop)
        texts = {p: " ".join(c.code for c in cards) for p, cards in hands.items()}
        settled = game.settle(table.config, texts, Fraction(1))
        seen[next(b.bet for b in settled.bets if b.net > 0 and b.bet in ("andar", "bahar"))] += 1
    assert set(seen) == {"andar", "bahar"}
