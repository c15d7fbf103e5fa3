"""A tableau deal's report tables from any definition: the coded baccarat's figures, and a
plain enumeration of every six-card sequence on reduced shoes (tests/reference/report_tables.py).

The drawing tableau, the coups by winner and cards dealt and the final totals are generated
from the definition (:mod:`odds.games.defined.tableau_tables`); the snapshots are the coded
baccarat's tables (tests/snapshots/coded, taken before the definitions replace it).
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from odds.core.cards import STANDARD_DECK
from odds.core.numbers import read_toml
from odds.core.table import Table, json_value
from odds.games.defined.tableau_tables import tableau_tables
from odds.games.paytable import TABLES, from_data, load
from tests.paths import ROOT
from tests.reference.report_tables import tableau_coups

SNAPSHOTS = ROOT / "tests" / "snapshots" / "coded"
BASE = ROOT / "odds" / "games" / "defined" / "bases" / "baccarat.toml"


def exact(value: Any) -> Any:
    """JSON without the decimal twins (the snapshots keep the exact figures only)."""
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items() if not k.endswith("_decimal")}
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value


def tables_of(paytable: Any) -> dict[str, Table]:
    shoe = paytable.config.shoe.build()
    return {t.key: t for t in tableau_tables(paytable.game.definition, shoe.types, shoe.counts)}


@pytest.mark.parametrize(
    "snapshot", ["baccarat", "baccarat-ez", "baccarat-no-commission", "baccarat-tie-9"]
)
def test_baccarat_tables_are_the_coded_reports(snapshot: str) -> None:
    """Every paytable of the coded baccarat deals the same tableau from 8 decks: its three
    tables, every way and probability, come out of baccarat's definition."""
    coded = json.loads((SNAPSHOTS / f"{snapshot}.json").read_text(encoding="utf-8"))
    tables = tables_of(load("baccarat"))
    for key in ("tableau", "results", "final_totals"):
        assert exact(json_value(tables[key])) == coded[key], key


def test_the_report_carries_them() -> None:
    """``odds report`` of a tableau definition has the three tables, after the bets' counting."""
    analysis = load("lucky-6").analysis()
    assert [t.key for t in analysis.tables] == ["tableau", "results", "final_totals"]


def reduced(data: dict[str, Any], cards: list[str]) -> Any:
    """The paytable data with a shoe of exactly these cards (a card listed twice: two copies)."""
    wanted = Counter(cards)
    data = dict(data, shoe={"decks": 1, "counts": {c.code: wanted[c.code] for c in STANDARD_DECK}})
    return from_data(data, "reduced")


#: Naturals, draws on both sides, zero-valued cards, ties: every row of the results.
SHOE = ["Ac", "Ac", "3d", "4h", "5s", "6c", "Kd", "Qh", "9s"]

#: Another tableau with other position names: a natural only on 9, the first draws on 0-4,
#: the second by two rows only (and never when the first stood on 5-8).
OTHER = {
    "positions": ["punto", "banco"],
    "tableau": {
        "naturals": [9],
        "first_draws": [0, 1, 2, 3, 4],
        "second_draws_first_stood": [0, 1, 2, 3, 4],
        # one row per non-natural total (the schema asks for each): two that draw
        "second_draws": {
            str(total): {0: list(range(10)), 5: [3, 4, 5]}.get(total, []) for total in range(9)
        },
    },
}


def other_paytable() -> dict[str, Any]:
    """Lucky 6 on a copy of the baccarat base with another deal (a base's deal is the
    base's game and cannot be changed in place: the copy is a game of its own)."""
    data = read_toml((TABLES / "lucky-6.toml").read_text(), "lucky-6")
    base = read_toml(BASE.read_text(), "baccarat")
    own = {k: v for k, v in data["definition"].items() if k != "base"}
    data["definition"] = dict(base, **own, deal=OTHER)
    bets = data["definition"].get("bets", [])
    # Lucky 6 reads the banker: name the second position "banco".
    data["definition"]["bets"] = json.loads(json.dumps(bets).replace('"banker"', '"banco"'))
    return data


@pytest.mark.parametrize("which", ["baccarat", "other"])
def test_tables_equal_every_six_card_sequence(which: str) -> None:
    """Coups by winner and cards dealt, and the final totals, against every ordered six-card
    sequence of a nine-card shoe (60,480 of them), for punto banco's tableau and another one
    whose positions are named punto and banco."""
    if which == "baccarat":
        data = read_toml((TABLES / "baccarat.toml").read_text(), "baccarat")
    else:
        data = other_paytable()
    paytable = reduced(data, SHOE)
    definition = paytable.game.definition
    shoe = paytable.config.shoe.build()
    cards = [card for card, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    results, totals = tableau_coups(definition, cards)
    deals = sum(results.values())
    assert deals == 9 * 8 * 7 * 6 * 5 * 4
    tables = tables_of(paytable)
    first, second = definition.deal.positions
    title = {p: f"{p[:1].upper()}{p[1:]} wins" for p in (first, second)} | {"tie": "Tie"}
    expected = []
    for winner in (second, first, "tie"):
        for cards_dealt in (4, 5, 6):
            ways = results[winner, cards_dealt]
            expected.append((title[winner], str(cards_dealt), ways, Fraction(ways, deals)))
        ways = sum(results[winner, n] for n in (4, 5, 6))
        expected.append((title[winner], "any", ways, Fraction(ways, deals)))
    found = [(r["result"], r["cards"], r["ways"], r["probability"]) for r in tables["results"].rows]
    assert found == expected
    assert sum(w for _, c, w, _ in found if c != "any") == deals
    for row in tables["final_totals"].rows:
        for position in (first, second):
            ways = totals[position][row["total"]]
            assert row[f"{position}_ways"] == ways
            assert row[f"{position}_probability"] == Fraction(ways, deals)
    assert sum(r[f"{first}_ways"] for r in tables["final_totals"].rows) == deals


def test_drawing_table_is_the_definition_as_written() -> None:
    """The second position's rows as the definition gives them, keys named by the positions."""
    definition = from_data(other_paytable(), "other").game.definition
    table = tables_of(from_data(other_paytable(), "other"))["tableau"]
    rows = json_value(table)
    assert [r["banco_total"] for r in rows] == [0, 1, 2, 3, 4, 5, 6, 7, 8]  # 9 is a natural
    by_total = {r["banco_total"]: r for r in rows}
    assert by_total[0]["draws_on"] == list(range(10))
    assert by_total[5]["draws_on"] == [3, 4, 5]
    assert by_total[7]["draws_on"] == []  # a total with no row never draws after a third card
    assert [by_total[t]["punto_stood"] for t in range(9)] == [t <= 4 for t in range(9)]
    marks = {row["banco_total"]: row["third_5"] for row in table.rows}
    assert marks[5] == "D" and marks[6] == "S"
    assert definition.deal.positions == ("punto", "banco")
    assert "Banco" in table.title or "Banco" in table.note
