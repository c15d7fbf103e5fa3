"""Coded games re-expressed as definitions: every bet of the coded analysis, bet by bet.

Baccarat's pair bets (ranks and suits of a tableau deal's first two cards), Pok Deng
(special patterns, both exceptions, withholding) and Goa Gae's showdown (suit
tie-breaks, the triple order) are counted from their definitions and compared with the
coded counting outcome by outcome: (label, net, ways).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from odds.core.numbers import read_toml
from odds.games.paytable import TABLES, from_data, load


def figures(analysis: Any) -> dict[str, list[tuple[str, Fraction, int]]]:
    return {b.name: [(o.event, o.net, o.ways) for o in b.outcomes] for b in analysis.bets}


def defined_from_text(text: str, source: str = "changed") -> Any:
    return from_data(read_toml(text, source), source)


# -- Baccarat's pair bets ---------------------------------------------------------


def test_pair_bets_read_the_first_two_cards_only() -> None:
    """K-5 then a third K is no pair; the Banker's 6-6 is, and identical 6♥ 6♥ is perfect."""
    paytable = load("baccarat-defined")
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
    text = (TABLES / "baccarat-defined.toml").read_text()
    text = text.replace("suited_pair", "colour_pair")
    defined = figures(defined_from_text(text).analysis())["perfect-pair"]
    coded = figures(load("baccarat", ["rules.perfect_pair=same-colour"]).analysis())
    assert [(n, w) for _, n, w in defined] == [(n, w) for _, n, w in coded["perfect-pair"]]
    assert defined != figures(load("baccarat-defined").analysis())["perfect-pair"]


def test_pair_bets_on_a_partly_dealt_shoe() -> None:
    removed = ['shoe.removed=["Kh", "Kh", "Kd", "7c", "Ad"]']
    defined = figures(load("baccarat-defined", removed).analysis())
    coded = figures(load("baccarat", removed).analysis())
    for name in ("player-pair", "banker-pair", "either-pair", "perfect-pair"):
        assert defined[name] == coded[name], name


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


def _swap_categories(text: str, a: str, b: str) -> str:
    """The definition with categories ``a`` and ``b`` exchanged in the list (order)."""
    blocks = text.split("[[definition.categories]]")
    names = [block.split('name = "', 1)[1].split('"', 1)[0] if i else "" for i, block in
             enumerate(blocks)]  # fmt: skip
    i, j = names.index(a), names.index(b)
    blocks[i], blocks[j] = blocks[j], blocks[i]
    assert "[[definition.bets]]" not in blocks[i] + blocks[j], "not the last category"
    return "[[definition.categories]]".join(blocks)


#: Each coded reading (an option) and the definition that states it.
READINGS: dict[str, tuple[dict[str, Any], Any]] = {
    "default": ({}, lambda t: t),
    "king-high": (
        {"single_card_order": "king-high"},
        lambda t: t.replace('rank_order = "ace-high"', 'rank_order = "ace-low"'),
    ),
    "straight-above-jqk": (
        {"straight_above_jqk": True},
        lambda t: _swap_categories(t, "jqk", "straight"),
    ),
    "kqj-mixed-jqk": (
        {"kqj_mixed": "jqk"},
        lambda t: t.replace("pattern = { faces = 3, sequence = false }", "pattern = { faces = 3 }"),
    ),
    "straight-flush-above-triple": (
        {"straight_flush_above_triple": True},
        lambda t: _swap_categories(t, "triple", "straight-flush"),
    ),
}


@pytest.mark.parametrize("paytable", ["goa-gae", "goa-gae-bonus"])
@pytest.mark.parametrize("reading", sorted(READINGS))
def test_goa_gae_definition_states_every_coded_reading(paytable: str, reading: str) -> None:
    """On a reduced shoe with identical cards, each reading of the rule book as a definition
    gives the coded reading's Player bet outcome by outcome."""
    rules, edit = READINGS[reading]
    coded_data = read_toml((TABLES / f"{paytable}.toml").read_text(), paytable)
    coded_data["rules"] = {**coded_data["rules"], **rules}
    coded = from_data(with_shoe(coded_data, GOA_GAE_SHOE), "coded").analysis()
    text = edit((TABLES / f"{paytable}-defined.toml").read_text())
    defined = from_data(with_shoe(read_toml(text, "defined"), GOA_GAE_SHOE), "defined").analysis()
    # (the coded events follow the category order; the definition lists its outcomes once)
    assert sorted(figures(defined)["player"]) == sorted(figures(coded)["player"])
    assert defined.bet("player").withholding == coded.bet("player").withholding


def test_goa_gae_definition_reproduces_the_coded_game() -> None:
    """One deck, bonuses both ways: every figure of reports/goa-gae-bonus.md's Player bet
    (the plain paytable is the same showdown without the category split; the reduced-shoe
    readings above check it)."""
    coded = load("goa-gae-bonus").analysis()
    defined = load("goa-gae-bonus-defined").analysis()
    assert defined.deals == coded.deals == 407_170_400
    assert figures(defined) == figures(coded)
    assert defined.bet("player").description == coded.bet("player").description
    assert (defined.bet("player").ev, defined.bet("player").stats.variance) == (
        coded.bet("player").ev,
        coded.bet("player").stats.variance,
    )


def test_goa_gae_tie_breaks_settle_as_the_rule_book() -> None:
    """docs/rules/goa-gae.md §Worked examples, through the definition."""
    paytable = load("goa-gae-defined")
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
