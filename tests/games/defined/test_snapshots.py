"""Every coded paytable and every coded reading, counted from its definition: the snapshot.

``tests/snapshots/coded/<paytable>.json`` and ``readings/<game>.json`` hold the coded games'
exact figures, taken before the definitions replace them (tests/snapshots/README.md). Each
is reproduced here from a ``*-defined`` table under the same paytable options (``--set``):
bet by bet, every outcome's ways, net, probability and return, every bet's EV, variance,
RTP and hit frequency, exactly (fraction strings compared as written). Outcomes are matched
by (label, net); hand classes where the definition's categories are the coded classes
(Pok Deng's, a coded class "N points, special pattern" being part of the category "N points").

Cheap: the bets alone (``analyse_bets``), one analysis per distinct paytable and reading.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from odds.core.numbers import read_toml
from odds.core.table import json_value
from odds.games.paytable import TABLES, from_data
from odds.output.data import bets_table
from tests.paths import ROOT

SNAPSHOTS = ROOT / "tests" / "snapshots"

#: Coded game → the defined game that replaces it. A coded paytable ``tables/<name>.toml`` is
#: read as a paytable of the defined game (its ``game`` renamed: the same sections, the same
#: keys), less ``[dealing]`` (shoe-state studies only: no bet reads it); a reading is that
#: paytable with the snapshot's ``--set`` options.
DEFINED: dict[str, str] = {
    "pok-deng": "pok-deng",
    "dragon-tiger": "dragon-tiger",
    "baccarat": "baccarat",
    "goa-gae": "goa-gae",
}
#: The coded paytables of ``coded/`` (Mahjong's are the ``mahjong`` helper's).
CODED = ("pok-deng", "pok-deng-example9", "dragon-tiger", "baccarat", "baccarat-ez",
         "baccarat-no-commission", "baccarat-tie-9", "goa-gae", "goa-gae-bonus")  # fmt: skip
#: The coded games whose ``readings/<game>.json`` are checked (keyed by their paytable).
READINGS = ("pok-deng", "dragon-tiger", "baccarat", "goa-gae", "goa-gae-bonus")
#: The figures of a bet compared (every exact one the JSON has; SD, VI and the confidence
#: ranges are floats computed from the exact variance).
BET_FIGURES = ("name", "title", "withholding", "ev", "house_edge", "rtp", "rtp_debited",
               "variance", "variance_exact", "hit_frequency", "total_ways")  # fmt: skip
OUTCOME_FIGURES = ("event", "net", "ways", "probability", "return")


def _exact(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items() if not k.endswith("_decimal")}
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return value


@cache
def defined(coded: str, sets: tuple[str, ...]) -> dict[str, Any]:
    """The definition's bets and hand classes for the coded paytable ``coded`` under these
    ``--set`` options (computed once)."""
    data = read_toml((TABLES / f"{coded}.toml").read_text("utf-8"), coded)
    data["game"] = DEFINED[data["game"]]
    data.pop("dealing", None)
    paytable = from_data(data, f"tables/{coded}.toml as {data['game']}").with_overrides(sets)
    analysis = paytable.bet_analysis()
    bets = _exact(json.loads(json.dumps(json_value(bets_table(analysis)))))
    return {"bets": bets, "classes": dict(analysis.hand_classes), "game": paytable.game}


def bets_of(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    return {b["name"]: b for b in snapshot["bets"]}


def check_bets(expected: Mapping[str, Any], found: Mapping[str, Any]) -> None:
    """Every bet, in the coded order, with every exact figure and every outcome."""
    assert [b["name"] for b in found["bets"]] == [b["name"] for b in expected["bets"]]
    for want, got in zip(expected["bets"], found["bets"], strict=True):
        assert {k: got[k] for k in BET_FIGURES} == {k: want[k] for k in BET_FIGURES}, want["name"]
        by_label = {(o["event"], o["net"]): {k: o[k] for k in OUTCOME_FIGURES}
                    for o in got["outcomes"]}  # fmt: skip
        wanted = {(o["event"], o["net"]): {k: o[k] for k in OUTCOME_FIGURES}
                  for o in want["outcomes"]}  # fmt: skip
        assert by_label == wanted, want["name"]


def check_pok_deng_classes(expected: list[dict[str, Any]], found: dict[str, Any]) -> None:
    """The coded hand classes, a "special pattern" class counted in its category."""
    game = found["game"]
    labels = {c.name: c.label for c in game.definition.categories}
    coded: dict[str, int] = {}
    for row in expected:
        name = row["name"].removesuffix(", special pattern")
        coded[name] = coded.get(name, 0) + row["ways"]
    assert {labels[k]: v for k, v in found["classes"].items()} == coded


@pytest.mark.parametrize("coded", CODED)
def test_coded_paytable(coded: str) -> None:
    snapshot = json.loads((SNAPSHOTS / "coded" / f"{coded}.json").read_text("utf-8"))
    found = defined(coded, ())
    check_bets(snapshot, found)
    if coded.startswith("pok-deng"):
        check_pok_deng_classes(snapshot["hand_classes"], found)


def _readings() -> list[tuple[str, str]]:
    cases = []
    for game in READINGS:
        data = json.loads((SNAPSHOTS / "readings" / f"{game}.json").read_text("utf-8"))
        cases += [(game, key) for key in sorted(data)]
    return cases


@pytest.mark.parametrize(("game", "reading"), _readings())
def test_reading(game: str, reading: str) -> None:
    data = json.loads((SNAPSHOTS / "readings" / f"{game}.json").read_text("utf-8"))
    snapshot = data[reading]
    found = defined(game, tuple(reading.split(" ")))
    check_bets(snapshot, found)
    if "hand_classes" in snapshot and game == "pok-deng":
        check_pok_deng_classes(snapshot["hand_classes"], found)


def test_the_check_can_fail() -> None:
    """Another reading's figures are not this one's: the comparison reads the figures."""
    snapshot = json.loads((SNAPSHOTS / "coded" / "pok-deng.json").read_text("utf-8"))
    with pytest.raises(AssertionError):
        check_bets(snapshot, defined("pok-deng", ("rules.eight_nine_override=false",)))
