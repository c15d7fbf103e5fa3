"""Blackjack's actions and chart codes are enums, read in one place, printed as before."""

from __future__ import annotations

import json

import pytest

from odds.core.errors import OddsError
from odds.games.blackjack.actions import Action, ChartCode
from odds.games.blackjack.rules import parse_actions


def test_typed_actions_are_words_or_letters_in_any_case():
    assert parse_actions("Split, h, STAND,d , surrender") == [
        Action.SPLIT,
        Action.HIT,
        Action.STAND,
        Action.DOUBLE,
        Action.SURRENDER,
    ]
    assert parse_actions(None) == parse_actions("") == []


@pytest.mark.parametrize("typed", ["fold", "bj", "blackjack", "hit me", "x"])
def test_an_unknown_action_is_one_line_naming_it(typed):
    with pytest.raises(OddsError) as error:
        Action.parse(typed)
    message = str(error.value)
    assert "\n" not in message
    assert message == f"unknown action {typed!r} (use hit, stand, double, split, surrender)"


def test_actions_print_as_the_bare_strings_did():
    """StrEnum: equal to and hashed like the old letters; JSON and f-strings unchanged."""
    assert Action.SPLIT == "P" and hash(Action.SPLIT) == hash("P")
    assert f"{Action.STAND}{ChartCode.DOUBLE_ELSE_HIT}" == "SDh"
    assert json.dumps({Action.HIT: ChartCode.SURRENDER_ELSE_SPLIT}) == '{"H": "Rp"}'
    assert [a.word for a in Action] == [
        "stand",
        "hit",
        "double",
        "split",
        "surrender",
        "blackjack",
    ]


def test_every_chart_code_is_its_action_and_fallback():
    for code in ChartCode:
        assert ChartCode.of(code.action, code.fallback) is code
        assert code.action in Action
    with pytest.raises(ValueError):
        ChartCode.of(Action.DOUBLE)  # a double needs its fallback
    with pytest.raises(ValueError):
        ChartCode("Dx")


@pytest.mark.parametrize(
    ("code", "allowed", "taken"),
    [
        ("Dh", {"S", "H", "D"}, Action.DOUBLE),
        ("Dh", {"S", "H"}, Action.HIT),
        ("Ds", {"S", "H"}, Action.STAND),
        ("Rp", {"S", "H", "P"}, Action.SPLIT),
        ("Rh", {"S"}, Action.STAND),
        ("P", {"S", "H"}, Action.STAND),
    ],
)
def test_a_chart_player_falls_back_as_the_cell_says(code, allowed, taken):
    assert ChartCode(code).choose(allowed) is taken
