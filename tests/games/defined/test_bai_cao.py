"""Bài Cào (``tables/bai-cao.toml``, docs/rules/bai-cao.md), a game written from the docs alone
(issue 35): every bet's ways, under both readings of equal hands, equal the designer's own
independent enumeration (``tests/reference/bai_cao.py``), exactly."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from odds.games.paytable import load
from odds.stats.analysis import Analysis
from tests.reference import bai_cao as reference


@cache
def analysis(decks: int, ties: str) -> Analysis:
    return load("bai-cao", [f"shoe.decks={decks}", f"rules.ties={ties}"]).analysis()


def test_every_bet_equals_the_designers_enumeration() -> None:
    """Six decks, the paytable's (one deck takes as long and is checked on a reduced shoe)."""
    decks = 6
    player = reference.player_ways(decks)
    hands = reference.player_hand_ways(decks)
    total = reference.deals(decks)
    for ties, expected in (("push", player.push), ("top-card", player.top_card)):
        found = analysis(decks, ties)
        assert found.deals == total
        ways = {bet.name: [o.ways for o in bet.outcomes] for bet in found.bets}
        assert ways["player"] == list(expected)  # win, tie (push), lose
        assert ways["three-faces"] == [hands.three_faces, total - hands.three_faces]
        assert ways["flush"] == [hands.flush, total - hands.flush]
    assert player.top_card[1] == 70_941_370_640  # identical top cards: the push remains


def test_house_edges_of_the_designers_notes() -> None:
    """The exact figures the designer's enumeration printed for six decks (issue 35)."""
    bets = {bet.name: bet.ev for bet in analysis(6, "push").bets}
    assert bets["player"] == Fraction(-172090318368, 7629072976525)
    assert bets["three-faces"] == Fraction(-4562, 125333)
    assert bets["flush"] == Fraction(-863, 9641)
    top = {bet.name: bet.ev for bet in analysis(6, "top-card").bets}
    assert top["player"] == Fraction(-5433502713, 217973513615)
