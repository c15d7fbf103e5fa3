"""Showdown tables and ``odds strength`` from any definition ranked by categories: the coded
Goa Gae's figures, and plain enumerations of every pair of hands on reduced decks
(tests/reference/report_tables.py), exceptions (Win Three Cards' 2-3-5) included.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from math import sqrt
from typing import Any

import pytest

from odds.core.cards import STANDARD_DECK, Card, hand_text, parse_card
from odds.core.errors import ParameterError
from odds.core.numbers import read_toml
from odds.core.table import json_value
from odds.games.defined import patterns
from odds.games.defined.showdown_tables import showdown_report_tables
from odds.games.defined.strength import hand_strength
from odds.games.paytable import TABLES, from_data, load
from tests.paths import ROOT
from tests.reference.report_tables import against, showdown_hands, strongest_and_weakest

SNAPSHOTS = ROOT / "tests" / "snapshots"


def exact(value: Any) -> Any:
    """JSON without the decimal twins (the snapshots keep the exact figures only)."""
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items() if not k.endswith("_decimal")}
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value


@pytest.mark.parametrize("game", ["goa-gae", "goa-gae-bonus"])
def test_showdown_tables_are_the_coded_reports(game: str) -> None:
    """The category, showdown and hand-strength tables: every way, probability and hand of the
    coded Goa Gae's report, from goa-gae (goa-gae-bonus)."""
    coded = json.loads((SNAPSHOTS / "coded" / f"{game}.json").read_text(encoding="utf-8"))
    analysis = load(game).analysis()
    tables = {t.key: exact(json_value(t)) for t in analysis.tables}
    assert tables["showdown"] == coded["showdown"]
    assert tables["hand_strength"] == coded["hand_strength"]
    assert [(r["category"], r["ways"], r["probability"]) for r in tables["categories"]] == [
        (r["name"], r["ways"], r["probability"]) for r in coded["hand_categories"]
    ]
    assert [r["category"] for r in tables["hand_order"]] == [
        r["category"] for r in coded["hand_order"]
    ]


def reduced(name: str, cards: list[str]) -> tuple[Any, list[Card]]:
    """The paytable ``name`` with a shoe of exactly these cards (a card listed twice: two)."""
    data = read_toml((TABLES / f"{name}.toml").read_text(), name)
    wanted = Counter(cards)
    data["shoe"] = {"decks": 1, "counts": {c.code: wanted[c.code] for c in STANDARD_DECK}}
    paytable = from_data(data, f"{name} (reduced)")
    shoe = paytable.config.shoe.build()
    dealt = [card for card, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    return paytable, dealt


#: Reduced decks: hands tie (identical cards, equal points), categories and exceptions meet.
DECKS = {
    # An unsuited 2-3-5 against three of a kind, in both seats; a flush; pairs.
    "win-three-cards": ["2c", "3d", "5h", "7c", "7d", "7h", "5c", "Kc", "Qc", "3c"],
    # Goa Gae with bonuses: a triple, a straight flush, JQK, identical cards that tie.
    "goa-gae-bonus": ["3c", "3d", "3h", "2h", "4h", "Kh", "Qh", "Jh", "Jh", "9s"],
    # San Gong: three of a kind, three faces, equal points decided by the top card.
    "san-gong": ["Kc", "Kd", "Kh", "Qs", "5c", "Ac", "9h", "4d", "4s"],
}


@pytest.mark.parametrize("name", sorted(DECKS))
def test_showdown_tables_equal_every_pair_of_hands(name: str) -> None:
    """The showdown by category and each class's strength, weakest and strongest hands,
    against every first hand met with every second hand left (exceptions hand by hand)."""
    paytable, cards = reduced(name, DECKS[name])
    definition = paytable.game.definition
    analysis = paytable.analysis()
    tables = {t.key: t for t in analysis.tables}
    found = showdown_hands(definition, cards)

    def category(hand: tuple[Card, ...]) -> str:
        index = patterns.category_of(list(hand), definition)
        assert index is not None
        return definition.categories[index].label

    by_category: dict[str, list[int]] = {}
    for hand, (ways, weaker, equal, stronger) in found.items():
        acc = by_category.setdefault(category(hand), [0, 0, 0])
        for k, n in enumerate((weaker, equal, stronger)):
            acc[k] += ways * n
    for row in tables["showdown"].rows:
        win, tie, lose = by_category.get(row["name"], [0, 0, 0])
        assert (row["win_ways"], row["tie_ways"], row["lose_ways"]) == (win, tie, lose), row
    assert tables["showdown"].total is not None
    wins = sum(v[0] for v in by_category.values())
    assert tables["showdown"].total["win_ways"] == wins == tables["showdown"].total["lose_ways"]

    def key(hand: tuple[Card, ...]) -> Any:
        return patterns.strength(list(hand), definition)

    def label(hand: tuple[Card, ...]) -> str:
        index = patterns.category_of(list(hand), definition)
        assert index is not None
        points = patterns.points(hand, definition.shoe)
        points_label = "1 point" if points == 1 else f"{points} points"
        c = definition.categories[index]
        return (
            points_label if c.pattern == (("any", True),) and c.tiebreak[0] == "points" else c.label
        )

    classes: dict[str, list[tuple[Card, ...]]] = {}
    for hand in found:
        classes.setdefault(label(hand), []).append(hand)
    rows = {r["name"]: r for r in tables["hand_strength"].rows}
    assert set(rows) == set(classes)
    for name_, hands in classes.items():
        row = rows[name_]
        deals = sum(found[h][0] * sum(found[h][1:]) for h in hands)
        assert row["ways"] == sum(found[h][0] for h in hands)
        assert row["win"] == Fraction(sum(found[h][0] * found[h][1] for h in hands), deals)
        assert row["tie"] == Fraction(sum(found[h][0] * found[h][2] for h in hands), deals)
        weakest, strongest = strongest_and_weakest(definition, hands, key)
        for which, hand in (("weakest", weakest), ("strongest", strongest)):
            assert row[f"{which}.hand"] == hand_text(hand), (name_, which)
            assert row[f"{which}.win"] == Fraction(found[hand][1], sum(found[hand][1:]))
    # Classes strongest first: by each class's strongest hand.
    order = [r["name"] for r in tables["hand_strength"].rows]
    tops = [max(key(h) for h in classes[n]) for n in order]
    assert tops == sorted(tops, reverse=True)


def test_showdown_tables_can_fail() -> None:
    """The harness sees a changed order: swapping two categories changes the enumeration."""
    paytable, cards = reduced("goa-gae-bonus", DECKS["goa-gae-bonus"])
    data = dict(paytable.data)  # a paytable of goa-gae: the definition is that game's
    own = read_toml((TABLES / "goa-gae.toml").read_text(), "goa-gae")
    definition = dict(own["definition"])
    definition["compare"] = dict(
        definition.get("compare", {}),
        order=["straight-flush", "triple", "jqk", "straight", "flush", "points"],
    )
    changed = from_data(dict(data, game="changed", definition=definition), "changed")
    tables = {t.key: t for t in changed.analysis().tables}
    found = showdown_hands(paytable.game.definition, cards)
    triple = [h for h in found if patterns.category_of(list(h), paytable.game.definition) == 0]
    wins = sum(found[h][0] * found[h][1] for h in triple)
    row = next(r for r in tables["showdown"].rows if r["name"] == "Triple")
    assert row["win_ways"] != wins


# -- odds strength ----------------------------------------------------------------


def test_strength_answers_are_the_coded_goa_gae() -> None:
    """Every ``odds strength`` answer of the coded Goa Gae (readings/strength.json), from
    the definitions: the hand's class, the shoe left, every way and probability."""
    coded = json.loads((SNAPSHOTS / "readings" / "strength.json").read_text(encoding="utf-8"))
    paytables = {name: load(name) for name in ("goa-gae", "goa-gae-bonus")}
    for key, want in coded.items():
        name, hand = key.split(" ", 1)
        paytable = paytables[name]
        cards = paytable.game.read_hand(paytable.config, {"hand": hand}, "hand")
        result = paytable.game.strength.strength(paytable.config, cards, 1, 100_000, 1)
        got = exact(json_value(result.tables()[0]))
        assert got.pop("game") == "goa-gae"  # the bonus is a paytable of it
        assert got == {k: v for k, v in want.items() if k not in ("game", "overrides")}, key


CASES = [
    ("win-three-cards", ["2c", "3d", "5h"]),  # the 2-3-5 that beats three of a kind
    ("win-three-cards", ["7c", "7d", "7h"]),  # three of a kind, beaten by it
    ("goa-gae-bonus", ["Jh", "Qh", "Kh"]),
    ("goa-gae-bonus", ["3c", "2h", "9s"]),
]


@pytest.mark.parametrize(("name", "hand"), CASES)
def test_strength_equals_every_deal_of_one_and_two_opponents(name: str, hand: list[str]) -> None:
    deck = DECKS[name] + ["Ad", "6s"]
    paytable, cards = reduced(name, deck)
    definition = paytable.game.definition
    mine = [parse_card(c) for c in hand]
    for opponents in (1, 2):
        result = hand_strength(paytable.game, paytable.config, mine, opponents)
        assert result.exact
        win, tie, deals = against(definition, cards, mine, opponents)
        assert (result.win, result.tie, result.total) == (win, tie, deals), opponents


def test_several_opponents_are_a_seeded_estimate_of_the_exact_chance() -> None:
    """Three opponents: a seeded simulation (labelled an estimate) within five standard
    errors of every deal counted, and the same counts again for the same seed."""
    deck = DECKS["goa-gae-bonus"] + ["Ad", "6s"]  # twelve cards: four hands of three
    paytable, cards = reduced("goa-gae-bonus", deck)
    mine = [parse_card(c) for c in ("Jh", "Qh", "Kh")]
    result = hand_strength(paytable.game, paytable.config, mine, 3, trials=4000, seed=7)
    again = hand_strength(paytable.game, paytable.config, mine, 3, trials=4000, seed=7)
    assert not result.exact and (result.win, result.tie) == (again.win, again.tie)
    exact_win, _, exact_deals = against(paytable.game.definition, cards, mine, 3)
    p = exact_win / exact_deals
    assert abs(result.win / result.trials - p) <= 5 * sqrt(p * (1 - p) / result.trials) + 1e-9


def test_strength_refuses_what_it_cannot_serve() -> None:
    paytable = load("goa-gae")
    feature = paytable.game.strength
    with pytest.raises(ParameterError):
        feature.check(6, 1000)
    with pytest.raises(ParameterError):
        feature.check(1, 0)
    assert load("baccarat").game.strength is None  # no categories: no strength
    report = showdown_report_tables(paytable.game.definition, paytable.config.shoe.build(), "x")
    assert [t.key for t in report] == ["hand_order", "showdown", "hand_strength"]
