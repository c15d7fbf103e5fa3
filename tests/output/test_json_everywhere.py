"""Every command speaks JSON: each is run with ``--format json`` and its output parsed.

Exact numbers travel as fraction strings; the parsed documents are checked
for the one fact each command exists to give.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest


def _json(run, *args: str, expect: int = 0) -> object:
    code, out, err = run(*args, "--format", "json")
    assert code == expect, err
    return json.loads(out)


def test_report(run):
    data = _json(run, "report", "pok-deng", "--decks", "1")
    assert Fraction(data["bets"][1]["ev"]) < 0


def test_settle(run):
    data = _json(run, "settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h")
    assert data["bets"][0]["returned"] == "400"


def test_strength(run):
    data = _json(run, "strength", "goa-gae", "As Ks 8s")
    assert data["win"] == "17613/18424"


def test_crosscheck(run):
    data = _json(run, "crosscheck", "blackjack", "--rounds", "2000", "--decks", "1")
    assert data["rounds"] == 2000 and "exact_ev" in data


def test_verify(run):
    data = _json(run, "verify", "pok-deng", "--bet", "player", "--rtp", "98.75%")
    assert data["verified"] is True


def test_solve(run):
    args = ("solve", "pok-deng", "--bet", "player-pair", "--target-rtp", "96%")
    data = _json(run, *args, "--vary", "payouts.pair")
    assert data["solutions"] == ["1837/155"]


def test_simulate_and_audit(run, tmp_path: Path):
    rounds = _json(run, "simulate", "mahjong-28", "--rounds", "40", "--seed", "3")
    assert [r["round"] for r in rounds] == list(range(1, 41))
    log = tmp_path / "rounds.csv"
    code, _, err = run("simulate", "mahjong-28", "--rounds", "40", "--seed", "3", "--out", str(log))
    assert code == 0, err
    code, out, err = run("audit", "mahjong-28", "--log", str(log), "--format", "json")
    data = json.loads(out)
    assert data["rows"] == 40


def test_bench(run):
    data = _json(run, "bench", "mahjong-28-20", "--repeat", "1")
    assert all(row["equal"] for row in data["bench"])


def test_games(run):
    data = _json(run, "games")
    assert {g["game"] for g in data["games"]} >= {"pok-deng", "mahjong-28", "goa-gae", "blackjack"}


@pytest.mark.parametrize("command", ["report", "bench", "games"])
def test_csv(run, command: str):
    """One tidy table per output: a header row and rows of one width, nothing else."""
    args = {"report": ("report", "pok-deng", "--decks", "1", "--table", "summary"),
            "bench": ("bench", "mahjong-28-20", "--repeat", "1"),
            "games": ("games", "--table", "games")}[command]  # fmt: skip
    code, out, err = run(*args, "--format", "csv")
    assert code == 0, err
    import csv
    import io

    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) > 1 and len({len(row) for row in rows}) == 1
    assert not out.startswith("#")
