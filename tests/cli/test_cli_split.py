"""``odds split``: the conventions beside the optimal split, and its one-line refusals."""

from __future__ import annotations

import json

import pytest


def test_split_prints_every_convention_and_the_bound(run) -> None:
    code, out, err = run("split", "blackjack", "--decks", "1", "--pair", "A", "--up", "6")
    assert code == 0, err
    for name in ("CDZ-", "CDP1", "CDP", "CDPN", "optimal split, upper bound"):
        assert f"| {name} " in out
    assert "given no dealer blackjack" not in out  # no peek: one column


def test_split_json_is_exact(run) -> None:
    code, out, _ = run(
        "split", "blackjack", "--decks", "1", "--pair", "A", "--up", "10",
        "--set", "house.hole_card=peek", "--format", "json",
    )  # fmt: skip
    assert code == 0
    rows = json.loads(out)["split"]
    assert rows[-1]["strategy"] == "optimal split, upper bound"
    assert all("/" in row["ev"] and "given" in row for row in rows)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--pair", "11", "--up", "6"), "--pair '11' is not a rank"),
        (("--pair", "8", "--up", "X"), "--up 'X' is not a rank"),
        (("--pair", "8", "--up", "10", "--set", "house.split_hands=4"), "card multisets"),
    ],
)
def test_split_refuses_in_one_line(run, args, needle) -> None:
    code, out, err = run("split", "blackjack", "--decks", "1", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err


def test_split_is_for_blackjack(run) -> None:
    code, _, err = run("split", "pok-deng", "--pair", "8", "--up", "10")
    assert code == 2 and "odds split is for blackjack" in err
