"""Every command speaks JSON: each is run with ``--format json`` and its output parsed.

Exact numbers travel as fraction strings (each with its ``_decimal``); the parsed
documents are checked for the one fact each command exists to give, and every
document is checked to be its command's tables, written by the one writer
(:mod:`odds.output.json_document`).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from odds.core.table import Column, Kind, Table, fields_table, json_value
from odds.core.version import __version__
from odds.output import json_document
from odds.output.provenance import Provenance
from tests.paths import ROOT


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
    data = _json(run, "bench", "dragon-tiger", "--repeat", "1")
    assert all(row["equal"] for row in data["bench"])


def test_games(run):
    data = _json(run, "games")
    assert {g["game"] for g in data["games"]} >= {"pok-deng", "mahjong-28", "goa-gae", "blackjack"}


@pytest.mark.parametrize("command", ["report", "bench", "games"])
def test_csv(run, command: str):
    """One tidy table per output: a header row and rows of one width, nothing else."""
    args = {"report": ("report", "pok-deng", "--decks", "1", "--table", "summary"),
            "bench": ("bench", "dragon-tiger", "--repeat", "1"),
            "games": ("games", "--table", "games")}[command]  # fmt: skip
    code, out, err = run(*args, "--format", "csv")
    assert code == 0, err
    import csv
    import io

    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) > 1 and len({len(row) for row in rows}) == 1
    assert not out.startswith("#")


# ---------------------------------------------------------------------------
# One writer: every command's JSON is its tables (odds.output.json_document)

#: One run of every command that speaks JSON (quick cases; the log is made first).
COMMANDS = {
    "report": ("report", "pok-deng", "--decks", "1"),
    "report-sections": ("report", "dragon-tiger", "--shift", "100", "--symbolic"),
    "report-shoe": ("report", "dragon-tiger", "--shoe", "--decks", "1"),  # 1 deck: half the CPU
    "report-overrides": ("report", "dragon-tiger", "--decks", "6", "--set", "payouts.tie=11"),
    "settle": ("settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h"),
    "strength": ("strength", "goa-gae", "As Ks 8s"),
    "strength-estimate": ("strength", "goa-gae", "As Ks 8s", "--opponents", "3", "--trials", "300"),
    "crosscheck": ("crosscheck", "blackjack", "--rounds", "2000", "--decks", "1"),
    "verify": ("verify", "pok-deng", "--bet", "player", "--rtp", "98.75%"),
    "verify-every-bet": ("verify", "dragon-tiger", "--house-edge", "32.77%"),
    "solve": ("solve", "pok-deng", "--bet", "player-pair", "--target-rtp", "96%",
              "--vary", "payouts.pair"),
    "audit": ("audit", "mahjong-28", "--log", "LOG"),
    "games": ("games", "baccarat"),
    "bench": ("bench", "dragon-tiger", "--repeat", "1"),
    "compare": ("compare", "baccarat", "baccarat-ez"),
    "sweep": ("sweep", "dragon-tiger", "--vary", "payouts.tie=8..9"),
    "shoe": ("shoe", "baccarat", "--seen", "9h 9d 9c"),
    "shoe-seen-file": ("shoe", "mahjong-28", "--seen-file", "LOG"),
    "eor": ("eor", "dragon-tiger"),
    "exposure": ("exposure", "mahjong-28-20", "--workers", "1"),
}  # fmt: skip


def _keeps_the_shoe_it_was_dealt_from(data: dict) -> None:
    """The Shoe section once wrote over the report's ``shoe`` (the shoe analysed) in JSON.

    Checked on the ``report-shoe`` case of the one-writer test below, which runs the same
    ``odds report dragon-tiger --shoe --decks 1 --format json``: a second run found nothing
    more. One deck rather than eight (0.8 CPU-s rather than 1.6): the section's key is the
    same whatever the shoe."""
    assert data["shoe"] == "1 deck (52 cards)"
    assert data["shoe_state"]["paragraphs"][0].startswith("How the shoe is dealt")
    assert {"effect_of_removal", "counts"} <= set(data["shoe_state"])


@pytest.fixture
def written(monkeypatch):
    """Every list of tables the one JSON writer turns into a document, in call order."""
    calls: list[list[Table]] = []
    real = json_document.document

    def spy(tables, provenance=None):
        calls.append(list(tables))
        return real(tables, provenance)

    monkeypatch.setattr(json_document, "document", spy)
    return calls


def _top_keys(tables: list[Table]) -> list[str]:
    """The document's top-level keys, as its tables declare them, in order."""
    keys: list[str] = []
    if not any(t.key == json_document.VERSION_KEY and t.json_fields for t in tables):
        keys += ["version", "command", "overrides"]
    for table in tables:
        found = list(json_value(table)) if table.json_fields else [table.key.split(".")[0]]
        keys += [k for k in found if k not in keys]
    return keys


def _at(data: dict, key: str):
    for part in key.split("."):
        data = data[part]
    return data


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_writes_its_tables_through_the_one_writer(
    name: str, run, written, tmp_path: Path
):
    """The document is its tables: its keys are theirs, each table's JSON is under its key.

    A command that builds a dict by hand (or prints ``json.dumps`` itself) never reaches
    the writer, or prints keys no table declares: either fails here.
    """
    args = list(COMMANDS[name])
    if "LOG" in args:
        log = tmp_path / "rounds.csv"
        code, _, err = run(
            "simulate", "mahjong-28", "--rounds", "40", "--seed", "3", "-o", str(log)
        )
        assert code == 0, err
        args[args.index("LOG")] = str(log)
    code, out, err = run(*args, "--format", "json")
    assert code == 0, err
    assert len(written) == 1, "the JSON did not come from the one writer"
    (tables,) = written
    data = json.loads(out)
    assert list(data) == _top_keys(tables)
    for table in tables:
        if table.json_fields:
            assert {k: data[k] for k in json_value(table)} == json_value(table)
        elif not table.json_record:  # a section's paragraphs share its key with its tables
            assert _at(data, table.key) == json_value(table), table.key
    assert data["version"] == __version__
    if name == "report-shoe":  # one run of the section (1 CPU-s: its exposure simulation)
        _keeps_the_shoe_it_was_dealt_from(data)
    if name.startswith("report") and "--set" not in args:
        return  # a report's provenance: tests/output/test_provenance.py
    assert data["command"].startswith(f"odds {args[0]} ")


@pytest.mark.parametrize("name", ["verify", "solve", "settle", "strength", "audit", "crosscheck"])
def test_exact_numbers_have_their_decimals_everywhere(name: str, run, tmp_path: Path):
    """``"ev": "-43/415"`` comes with ``"ev_decimal"``, in every command's JSON, at any depth.

    Every exact number is a string (a fraction or a whole number) with its double beside it.
    """
    args = list(COMMANDS[name])
    if "LOG" in args:
        log = tmp_path / "rounds.csv"
        run("simulate", "mahjong-28", "--rounds", "40", "--seed", "3", "-o", str(log))
        args[args.index("LOG")] = str(log)
    code, out, err = run(*args, "--format", "json")
    assert code == 0, err
    found = []

    def walk(value, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k in DATA_KEYS:
                    continue
                if isinstance(v, str) and _is_fraction(v):
                    assert value.get(f"{k}_decimal") == float(Fraction(v)), (name, k, v)
                    found.append(k)
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)

    walk(json.loads(out))
    assert found, f"{name}: no exact fraction in its JSON to check"


#: Structured values carried as they are (a reading's options, a formula's roots).
DATA_KEYS = frozenset(
    {"reading", "matched", "rules", "solutions", "break_even", "refused", "labels"}
)


def _is_fraction(text: str) -> bool:
    try:
        Fraction(text)
    except ValueError:
        return False
    return True


#: The only ``json.dumps`` calls outside the writer, and why they are not documents.
NOT_DOCUMENTS = {
    "odds/games/paytable.py": "the canonical form of the options that options_sha256 digests",
    "odds/tools/shoe/simulate.py": "a worker's cache key for the paytable it rebuilt",
    "odds/games/defined/registry.py": "the canonical form of a definition that its digest hashes",
    "odds/runtime/kept.py": "the data files blackjack keeps in the user's own folder (not output)",
}


def test_no_command_prints_json_by_hand():
    """``json.dumps`` appears in the writer only (and in the digests that are not documents)."""
    package = ROOT / "odds"
    found = {
        path.relative_to(ROOT).as_posix()
        for path in package.rglob("*.py")
        if re.search(r"\bjson\.dump", path.read_text(encoding="utf-8"))
    }
    assert found == {"odds/output/json_document.py", *NOT_DOCUMENTS}


def test_two_tables_never_write_one_key():
    """A key written twice would silently lose a field: the writer refuses it."""
    one = fields_table("a", "A", [(Column("verdict", "verdict"), "PASS")])
    two = fields_table("b", "B", [(Column("verdict", "verdict"), "FAIL")])
    with pytest.raises(ValueError, match="verdict"):
        json_document.document([one, two])
    rows = Table("verdict", "V", (Column("x", "x"),), ({"x": 1},))
    with pytest.raises(ValueError, match="verdict"):
        json_document.document([one, rows])


def test_the_version_and_provenance_come_once_and_first():
    table = Table("rows", "Rows", (Column("x", "x", Kind.EXACT),), ({"x": Fraction(1, 3)},))
    data = json_document.document([table], Provenance("odds x --decks 6", ("--decks 6",)))
    assert list(data) == ["version", "command", "overrides", "rows"]
    assert data["overrides"] == ["--decks 6"]
    assert data["rows"] == [{"x": "1/3", "x_decimal": 1 / 3}]
    placed = json_document.document([table, json_document.version_table()])
    assert list(placed) == ["rows", "version"]


def test_the_command_a_document_states_leaves_out_where_it_goes(run, tmp_path: Path):
    """``-o FILE`` and ``--workers`` change where and how, not what: the same document."""
    target = tmp_path / "eor.json"
    code, _, err = run("eor", "dragon-tiger", "--format", "json", "-o", str(target))
    assert code == 0, err
    shown = _json(run, "eor", "dragon-tiger")
    assert json.loads(target.read_text(encoding="utf-8")) == shown
    assert shown["command"] == "odds eor dragon-tiger --format json"
