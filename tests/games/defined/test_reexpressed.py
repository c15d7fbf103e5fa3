"""Coded games re-expressed as definitions: every bet of the coded analysis, bet by bet.

Baccarat's pair bets (ranks and suits of a tableau deal's first two cards), Pok Deng
(special patterns, both exceptions, withholding) and Goa Gae's showdown (suit
tie-breaks, the triple order) are counted from their definitions and compared with the
coded counting outcome by outcome: (label, net, ways).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
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
    removed = ["shoe.removed=[\"Kh\", \"Kh\", \"Kd\", \"7c\", \"Ad\"]"]
    defined = figures(load("baccarat-defined", removed).analysis())
    coded = figures(load("baccarat", removed).analysis())
    for name in ("player-pair", "banker-pair", "either-pair", "perfect-pair"):
        assert defined[name] == coded[name], name
