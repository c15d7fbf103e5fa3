"""The blackjack report: JSON shape, and paytable validation."""

from __future__ import annotations

import json
import re
from contextlib import redirect_stdout
from fractions import Fraction
from functools import cache
from io import StringIO
from typing import Any

from odds.cli import main


@cache
def one_deck_json() -> Any:
    """``odds report blackjack --decks 1 --format json``, run once for both tests that read
    it (a second run, its analyses cached, still costs ~0.7 s of CPU); never changed."""
    out = StringIO()
    with redirect_stdout(out):
        assert main(["report", "blackjack", "--decks", "1", "--format", "json"]) == 0
    return json.loads(out.getvalue())


def test_json_report_shape() -> None:
    data = one_deck_json()
    (bet,) = data["bets"]
    assert bet["name"] == "main"
    assert Fraction(bet["house_edge"]) == -Fraction(bet["ev"])
    assert sum(Fraction(o["probability"]) for o in bet["outcomes"]) == 1
    assert sum(Fraction(o["net"]) * Fraction(o["probability"]) for o in bet["outcomes"]) == (
        Fraction(bet["ev"])
    )
    assert next(row["up"] for row in data["dealer"]) == "2"
    for row in data["dealer"]:
        assert (
            sum(Fraction(row[o]) for o in ("17", "18", "19", "20", "21", "bust", "blackjack")) == 1
        )
    strategy = data["strategy"]
    assert Fraction(strategy["house_edge_optimal"]) == Fraction(bet["house_edge"])
    assert Fraction(strategy["house_edge_chart"]) >= Fraction(strategy["house_edge_optimal"])
    assert strategy["chart"]["pair"]["A-A"]["6"] == "P"
    assert len(strategy["hands"]) == 550
    assert {row["option"] for row in data["rule_options"]} >= {"hole_card = peek", "decks = 8"}
    # Per-hand values, named for what they include; no hole card: nothing is conditioned.
    eights = next(h for h in strategy["hands"] if h["cards"] == ["8", "8"] and h["up"] == "10")
    assert eights["ev_given_no_dealer_blackjack"] is None
    assert Fraction(eights["p_dealer_blackjack"]) == Fraction(4, 49)
    assert set(eights["ev_unconditional"]) >= {"stand", "hit", "split"}
    assert eights["split"]["most_hands"] == 2
    hand_values = data["hand_values"]
    assert strategy["given_no_dealer_blackjack"] is False
    assert Fraction(hand_values["8-8"]["10"]["ev"]) == max(
        Fraction(v) for v in eights["ev_unconditional"].values()
    )
    assert all(
        Fraction(row["p_dealer_blackjack"]) == Fraction(row["blackjack"]) for row in data["dealer"]
    )


def test_bad_paytable_values(capsys) -> None:
    assert main(["report", "blackjack", "--decks", "9"]) == 2
    assert "maximum 8" in capsys.readouterr().err
    assert main(["report", "blackjack", "--set", 'house.double="9-10"']) == 2
    assert "not one of" in capsys.readouterr().err
    assert main(["report", "blackjack", "--set", "house.split_hands=5"]) == 2
    assert "maximum 4" in capsys.readouterr().err


def test_the_house_edge_note_says_how_long_its_fractions_are(capsys) -> None:
    """The note under the house edges gives its fractions' length; one deck's are about 20
    digits (not 8 decks' 40 to 50, which the note said whatever the shoe)."""
    assert main(["report", "blackjack", "--decks", "1"]) == 0
    text = capsys.readouterr().out
    match = re.search(r"Exact fractions \(of (\d+) to (\d+) digits\)", text)
    assert match is not None
    low, high = int(match[1]), int(match[2])
    rows = one_deck_json()["house_edge"]
    assert all(low <= len(str(Fraction(r["edge"]).denominator)) <= high for r in rows)
    assert high <= 30
