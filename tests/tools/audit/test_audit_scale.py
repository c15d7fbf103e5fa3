"""The audit's shortcuts for large logs give the figures of the plain way, on small logs.

For a 10-million-row log the audit reads the file once: the shoe-level tests
take their shoes from the reader's pass rather than reading the file again,
shoe integrity counts a shoe's cards without building its lists, a bit mask
of each hand's types stands before the exact count of a round's cards, and
``final`` is a view when no round spans several rows. Each is checked here
against the plain way on the same small log — the second reading of the file
(:func:`tests.reference.shoes.read_shoes`), the exact count alone — so an
optimisation cannot change a number unnoticed. The timings are not tests
(``python -m tests.measure.scale``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import odds.tools.audit.integrity as integrity
import odds.tools.audit.reader as reader
from odds.cli import main
from odds.games.paytable import load
from odds.tools.audit.audit import audit
from odds.tools.audit.reader import read_log
from tests.reference.shoes import read_shoes, shoe_study


def _simulate(path: Path, game: str, rounds: int, *extra: str) -> Path:
    args = ["simulate", game, "--rounds", str(rounds), "--seed", "11", "--out", str(path)]
    assert main([*args, "--stakes", *extra]) == 0
    return path


@pytest.fixture(scope="module")
def shoe_log(tmp_path_factory):
    """A baccarat operator log dealt shoe by shoe (about 60 rounds a shoe), stakes paid."""
    folder = tmp_path_factory.mktemp("scale")
    extra = ("--operator", "--penetration", "75%")
    return _simulate(folder / "shoes.parquet", "baccarat", 700, *extra)


def _figures(study):
    return [(t.name, t.statistic, t.df, t.p_value, t.detail) for t in study.tests]


def test_the_shoe_tests_from_the_one_pass_are_those_of_a_second_reading(shoe_log):
    paytable = load("baccarat")
    result = audit(paytable, shoe_log)  # its counts are the reader's one pass
    again = read_shoes(paytable.game, paytable.config, shoe_log)
    assert result.counts.shoes == again and len(again.shoes) >= 10
    reference = shoe_study(paytable.game, paytable.config, shoe_log)
    assert result.shoes is not None and reference is not None
    assert _figures(result.shoes) == _figures(reference)
    assert result.verdict == "PASS"


def test_a_cap_on_the_shoe_rows_keeps_whole_shoes_and_names_them(shoe_log):
    paytable = load("baccarat")
    whole = read_shoes(paytable.game, paytable.config, shoe_log)
    result = audit(paytable, shoe_log, shoe_rows=200)
    assert result.shoes is not None
    tested = result.shoes.shoes
    assert 0 < tested < len(whole.shoes)
    assert sum(len(s.rounds) for s in whole.shoes[:tested]) <= 200
    assert result.shoes.rounds == sum(len(s.rounds) for s in whole.shoes[:tested])
    (note,) = [n for n in result.notes if "shoe-level tests cover" in n]
    last = whole.shoes[tested - 1]
    assert f"first {tested:,} shoes" in note and f"shoe {last.label} last" in note
    assert f"other {len(whole.shoes) - tested:,} shoes" in note
    none = audit(paytable, shoe_log, shoe_rows=0)
    assert none.shoes is None and any("--shoe-rows 0" in n for n in none.notes)


@pytest.fixture(scope="module")
def seated_log(tmp_path_factory):
    """A seated Pok Deng log (300 rounds, five seats), simulated once for the module."""
    folder = tmp_path_factory.mktemp("seated")
    return _simulate(folder / "seated.csv", "pok-deng", 300, "--seats", "5")


def test_shoe_integrity_without_lists_finds_what_the_lists_find(seated_log, monkeypatch):
    """A seated Pok Deng log read as one deck: overfull shoes and rows, by both ways."""
    path = seated_log
    one_deck = load("pok-deng", ["shoe.decks=1"])
    fast = read_log(one_deck.game, one_deck.config, path)
    plain_findings = integrity.shoe_findings

    def plain(con, shoe, cards_sql, where, counts_sql=None, one_row_rounds=False):
        return plain_findings(con, shoe, cards_sql, where)

    monkeypatch.setattr(reader, "shoe_findings", plain)
    monkeypatch.setattr(reader, "_shared_type", lambda aliases, sharing: None)
    slow = read_log(one_deck.game, one_deck.config, path)
    assert fast.rejected_kinds == slow.rejected_kinds and fast.rejected_kinds["impossible"] > 50
    assert fast.rejected == slow.rejected
    assert (fast.findings, fast.finding_kinds) == (slow.findings, slow.finding_kinds)
    assert fast.payouts == slow.payouts and fast.used == slow.used


def _doctored(path: Path) -> Path:
    """Rows 1–40 one overfull shoe "1" (rounds 1–40), and shoe "1" again at row 60."""
    lines = path.read_text().splitlines()
    header = lines[0].split(",")
    shoe, round_ = header.index("shoe"), header.index("round")
    for k, row in [(k, k) for k in range(1, 41)] + [(60, 41)]:
        fields = lines[k].split(",")
        fields[shoe], fields[round_] = "1", str(row)
        lines[k] = ",".join(fields)
    doctored = path.with_name("doctored.csv")
    doctored.write_text("\n".join(lines) + "\n")
    return doctored


def test_shoe_integrity_shortcuts_name_the_same_shoes(seated_log, tmp_path, monkeypatch):
    """One row a round: the shoes' counts without grouping by round, the reuse check skipped
    only when every shoe fills its lines; against the plain grouping and walk."""
    copy = tmp_path / "seated.csv"
    copy.write_bytes(seated_log.read_bytes())
    path = _doctored(copy)
    paytable = load("pok-deng")
    fast = read_log(paytable.game, paytable.config, path)
    plain_findings = integrity.shoe_findings

    def plain(con, shoe, cards_sql, where, counts_sql=None, one_row_rounds=False):
        return plain_findings(con, shoe, cards_sql, where)

    monkeypatch.setattr(reader, "shoe_findings", plain)
    slow = read_log(paytable.game, paytable.config, path)
    assert set(fast.finding_kinds) == {"card over", "shoe over", "shoe reused"}
    assert (fast.findings, fast.finding_kinds) == (slow.findings, slow.finding_kinds)
