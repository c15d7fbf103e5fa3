"""odds audit reads logs of any size with DuckDB: same answers as reading them row by row.

The reference is the audit as it was (Python's csv, every row settled by the
game); the database reader must find the same rows, rejections, counts and
statistics, on CSV, gzipped CSV and Parquet alike, name every rejected line,
and stop at the first malformed one.
"""

from __future__ import annotations

import gzip
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest

from odds.cli import main
from odds.core.errors import OddsError
from odds.games.paytable import load
from odds.stats.significance import ASYMPTOTIC_FROM
from odds.tools.audit.audit import audit
from odds.tools.audit.reader import read_log
from tests.reference.audit import reference_audit


def _simulate(path: Path, game: str, rounds: int, seed: int, *extra: str) -> None:
    args = ["simulate", game, "--rounds", str(rounds), "--seed", str(seed), "--out", str(path)]
    assert main([*args, *extra]) == 0


@pytest.fixture(scope="module")
def log10k(tmp_path_factory):
    """The smallest log whose p-values are the large-sample ones the reference computes
    (ASYMPTOTIC_FROM rounds; below it the audit's are exact and differ by design)."""
    path = tmp_path_factory.mktemp("logs") / "rounds.csv"
    _simulate(path, "pok-deng", ASYMPTOTIC_FROM, 2024)
    return path


def test_same_verdict_and_statistics_as_reading_row_by_row(pok_deng, log10k):
    new = audit(pok_deng, log10k)
    old = reference_audit(pok_deng, log10k)
    assert (new.rows, new.rounds, new.rejected) == (old.rows, old.rounds, 0)
    assert new.rounds == ASYMPTOTIC_FROM
    assert {t.name: (t.fit.statistic, t.fit.df) for t in new.fits} == {
        name: (statistic, df) for name, (statistic, df, _) in old.fits.items()
    }
    for test in new.fits:  # 10,000 rounds: the chi-square approximation, as before
        assert test.p.value == pytest.approx(old.fits[test.name][2], rel=1e-9)
    for test in new.returns:
        observed, z, p = old.returns[test.bet]
        assert test.observed == observed
        assert (test.z, test.p.value) == pytest.approx((z, p), rel=1e-9)
    assert new.verdict == "PASS"


@pytest.fixture(scope="module")
def log2000(tmp_path_factory):
    """A 2,000-round log of the 8-deck game (rejections against one deck, progress)."""
    path = tmp_path_factory.mktemp("log2000") / "rounds.csv"
    _simulate(path, "pok-deng", 2000, 1)
    return path


def test_same_rejections_as_reading_row_by_row(log2000):
    one_deck = load("pok-deng", ["shoe.decks=1"])
    path = log2000
    new = read_log(one_deck.game, one_deck.config, path)
    old = reference_audit(one_deck, path)
    assert new.rejected_kinds == {"impossible": len(old.rejected)} and len(old.rejected) > 100
    assert [(r.line, r.reason) for r in new.rejected] == old.rejected
    assert new.used == old.rounds


@pytest.fixture(scope="module")
def csv1000(tmp_path_factory, pok_deng):
    """The CSV log the gzip and Parquet copies are held to, and its audit (once for both)."""
    csv_path = tmp_path_factory.mktemp("csv1000") / "a.csv"
    _simulate(csv_path, "pok-deng", 1000, 5)  # the same log in each format: any size does
    return csv_path, audit(pok_deng, csv_path)


@pytest.mark.parametrize("suffix", [".csv.gz", ".parquet"])
def test_gzip_and_parquet_logs_give_the_same_counts(tmp_path, pok_deng, csv1000, suffix):
    (csv_path, a), other = csv1000, tmp_path / f"a{suffix}"
    _simulate(other, "pok-deng", 1000, 5)
    if suffix == ".csv.gz":
        assert gzip.decompress(other.read_bytes()) == csv_path.read_bytes()
    b = audit(pok_deng, other)
    assert [(t.name, t.fit.statistic, t.p) for t in a.fits] == [
        (t.name, t.fit.statistic, t.p) for t in b.fits
    ]
    assert [(t.observed, t.p) for t in a.returns] == [(t.observed, t.p) for t in b.returns]
    assert (b.counts.unit, a.counts.unit) == ("row" if suffix == ".parquet" else "line", "line")


def _audit_json(capsys, log: Path, *extra: str) -> tuple[int, dict]:
    code = main(["audit", "pok-deng", "--log", str(log), "--format", "json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_impossible_rows_flag_the_log(capsys, log2000):
    """Issue 11.2: rows a 1-deck shoe cannot hold are a finding, never a PASS."""
    path = log2000
    code, result = _audit_json(capsys, path, "--decks", "1")
    assert code == 1 and result["verdict"] == "FLAGGED"
    assert result["rejected_kinds"] == {"impossible": result["rejected_total"]}
    assert all(t["pass"] for t in result["chi_square"] + result["returns"])
    assert main(["audit", "pok-deng", "--log", str(path), "--decks", "1"]) == 1
    out = capsys.readouterr().out
    assert "hands the shoe cannot hold" in out and "Overall verdict: FLAGGED" in out


def _log(tmp_path: Path, text: str, name: str = "log.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def test_blank_and_empty_rows_are_counted_and_named(capsys, tmp_path):
    """Issue 11.7: a ``,,`` row used to be skipped without a word."""
    log = _log(
        tmp_path,
        "round,banker,player\r\n"
        "1,9d 7c,Kh 9h\r\n"
        ",,\r\n"  # line 3: empty
        "\r\n"  # line 4: blank
        '2,"Qs Js","As, Ad"\n',  # line 5: quoted fields (a comma inside one)
    )
    code, result = _audit_json(capsys, log)
    assert result["rows"] == 4 and result["rounds"] == 2
    assert result["rejected"] == [
        {"line": 3, "reason": "empty row (every field empty)"},
        {"line": 4, "reason": "blank line"},
    ]
    assert code == 3 and result["verdict"] == "INCONCLUSIVE"  # not rounds: never evidence


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("banker,player\n9d 7c,Kh 9h\n\n9d 7c,Kh 9h,Qs\n", "line 4: wrong number of fields (3"),
        ('banker,player\n9d 7c,"Kh 9h"x\n', "line 2: malformed quoting"),
        ('banker,player\n9d 7c,"Kh\n9h"\n', "line 2: a quoted field does not close on its line"),
        ("banker,player\n9d 7c,Kh 9h\n9d 7c,Kh 1x\n", "line 3, column player: unknown card '1x'"),
        ("banker,player\n9d 7c\r2c,Kh 9h\n", "line 2: a carriage return inside a line"),
        ("banker,player\n9d 7c,Kh 9h\n9d\x017c,Kh 9h\n", "line 3: a control byte 0x01"),
        (b"banker,player\n9d 7c,Kh 9h\n9d 7c,\xff\xfe\n", "line 3"),
        ("\ufeffbanker,player\n9d 7c,Kh 9h\n5c 5c 5c,Kh 9h\n", "line 3, column banker: 3 cards"),
    ],
)
def test_the_first_malformed_line_is_named(capsys, tmp_path, text, needle):
    log = _log(tmp_path, text)
    assert main(["audit", "pok-deng", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ("banker,player\n".encode("utf-16"), "no rounds in the log"),  # UTF-16 is read now
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text"),
        (b"", "empty log"),
    ],
)
def test_non_text_logs_are_one_line_errors(capsys, tmp_path, data, needle):
    """Issue 11.8: a binary or UTF-16 log used to end in UnicodeDecodeError."""
    log = _log(tmp_path, data)
    assert main(["audit", "pok-deng", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1, err


def test_round_labels_are_cross_checked(capsys, tmp_path):
    """Issue 11.7: two different banker hands in one round used to pass."""
    log = _log(
        tmp_path,
        "round,position,banker,player\n"
        "1,1,9d 7c,Kh 9h\n"
        "1,2,7c 9d,2s 3s\n"  # the same banker hand, written the other way round
        "2,1,9d 7c,Kh 9h\n"
        "2,2,Qs Js,2s 3s\n"  # line 5: round 2's banker differs
        "3,1,Ah Ad,Kh Kd\n"
        "3,1,Ah Ad,2c 2d\n",  # line 7: position 1 twice in round 3
    )
    code, result = _audit_json(capsys, log)
    reasons = {r["line"]: r["reason"] for r in result["rejected"]}
    assert reasons == {
        4: "round 2: the banker hand differs between its rows",
        5: "round 2: the banker hand differs between its rows",
        6: "round 3: a position appears twice",
        7: "round 3: a position appears twice",
    }
    assert result["rounds"] == 1 and result["untested"] == 1  # round 1: its first row is tested
    assert code == 1


def test_a_round_the_shoe_cannot_hold_at_once_is_rejected(capsys, tmp_path):
    log = _log(tmp_path, "round,banker,player\n1,As Ad,Kh Kd\n1,As Ad,Kh Qd\n2,2c 3c,4c 5c\n")
    code, result = _audit_json(capsys, log, "--decks", "1")
    assert [r["line"] for r in result["rejected"]] == [2, 3]
    assert result["rejected"][0]["reason"] == (
        "round 1: the shoe cannot hold all of its hands at once"
    )
    assert code == 1


def test_parquet_rows_are_named_by_row_number(capsys, tmp_path):
    import duckdb

    path = tmp_path / "log.parquet"
    with duckdb.connect() as con:  # not duckdb.sql: its default database lives on, threads too
        con.sql(
            "SELECT * FROM (VALUES ('9d 7c', 'Kh 9h'), ('9d 7c', 'Kh 1x')) t(banker, player)"
        ).write_parquet(str(path))
    assert main(["audit", "pok-deng", "--log", str(path)]) == 2
    assert "log.parquet row 2, column player: unknown card '1x'" in capsys.readouterr().err


def test_too_few_rounds_to_test_anything_is_inconclusive(capsys, tmp_path):
    log = _log(tmp_path, "banker,player\n9d 7c,Kh 9h\n")
    assert main(["audit", "pok-deng", "--log", str(log)]) == 3
    out = capsys.readouterr().out
    assert "not enough rounds to test" in out
    assert "Overall verdict: INCONCLUSIVE" in out


def test_audit_shows_progress_on_a_terminal_and_nothing_in_a_pipe(capsys, log2000):
    import io

    from rich.console import Console

    from odds.runtime.progress import reporting

    log = log2000  # the bar shows with no delay: a small log does
    screen = io.StringIO()
    with reporting(Console(file=screen, force_terminal=True, width=80), delay=0):
        assert main(["audit", "pok-deng", "--log", str(log)]) == 0
    assert "reading rounds.csv" in screen.getvalue()
    assert main(["audit", "pok-deng", "--log", str(log)]) == 0
    assert capsys.readouterr().err == ""


def test_simulate_shows_progress_on_a_terminal(tmp_path):
    import io

    from rich.console import Console

    from odds.runtime.progress import reporting

    screen = io.StringIO()
    with reporting(Console(file=screen, force_terminal=True, width=80), delay=0):
        _simulate(tmp_path / "r.csv", "pok-deng", 2000, 1)
    assert "dealing rounds" in screen.getvalue()


# -- the games' promise: a round settles by its hands' keys and strength order --------------


def _signature(settlement) -> tuple:
    return tuple((b.bet, b.event, b.net) for b in settlement.bets) + tuple(
        (h.position, h.hand_class) for h in settlement.hands
    )


@pytest.mark.parametrize(
    "table",
    [
        "pok-deng",
        "mahjong-28",
        "mahjong-28-20",
        "goa-gae-bonus",
        # a definition's keys are what its bets read (DefinedGame.hand_keys): games reading
        # points, suits, categories, tie-breaks, an exception to the order (win-three-cards),
        # one card, five cards, and one position alone
        "bai-cao",
        "san-gong",
        "teen-patti-2020",
        "win-three-cards",
        "dragon-tiger-side-bets",
        "bull-bull",
        "pair-plus",
        "21-plus-3",
    ],
)
def test_a_round_settles_by_its_hand_keys(table):
    """Pairs of deals with equal keys and strength order settle identically (sampled)."""
    paytable = load(table)
    game, config = paytable.game, paytable.config
    shoe, keyer = game.shoe(config), game.hand_keys(config)
    rng = random.Random(3)
    cards = [t for t, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    size = game.hand_size
    hands = [tuple(rng.sample(cards, size)) for _ in range(400)]
    keyed: dict = {}
    for hand in hands:
        keyed.setdefault(keyer(hand).key, []).append(hand)

    def order(a, b) -> int:
        sa, sb = keyer(a).strength, keyer(b).strength
        return 0 if sa is None else (sa > sb) - (sa < sb)

    def settle(banker, player):
        hands = (banker, player)[: len(game.positions)]
        texts = {p: game.hand_text(h) for p, h in zip(game.positions, hands, strict=True)}
        return _signature(game.settle(config, texts, Fraction(1)))

    checked = 0
    for _ in range(1500):
        a, b = rng.choice(hands), rng.choice(hands)
        c, d = rng.choice(keyed[keyer(a).key]), rng.choice(keyed[keyer(b).key])
        if order(a, b) != order(c, d):
            continue
        try:
            first, second = settle(a, b), settle(c, d)
        except OddsError:
            continue  # the two hands together are more than the shoe holds
        assert first == second, (a, b, c, d)
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("table", ["baccarat-ez", "lucky-7", "tie-max", "3-giving-8"])
def test_a_tableau_round_settles_by_its_hand_keys(table):
    """Coups dealt by the tableau whose hands have equal keys settle identically: the keys
    are the hands' drawing and first two cards, what the bets read (dealt coups, sampled)."""
    paytable = load(table)
    game, config = paytable.game, paytable.config
    shoe, keyer = game.shoe(config), game.hand_keys(config)
    rng = random.Random(4)
    cards = [t for t, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    by_keys: dict = {}
    for _ in range(3000):
        deck = rng.sample(cards, 6)
        held = game.deal_round(config, iter(deck).__next__)
        texts = {p: game.hand_text(held[p]) for p in game.positions}
        key = tuple(keyer(held[p]).key for p in game.positions)
        by_keys.setdefault(key, []).append(texts)
    compared = 0
    for rounds in by_keys.values():
        first = _signature(game.settle(config, rounds[0], Fraction(1)))
        for texts in rounds[1:]:
            assert _signature(game.settle(config, texts, Fraction(1))) == first, texts
            compared += 1
    assert compared > 500 and len(by_keys) > 100


def test_default_hand_keys_are_the_hands_themselves(pok_deng):
    from odds.games.base import Game

    keyer = Game.hand_keys(pok_deng.game, pok_deng.config)
    a = pok_deng.game.parse_hand(pok_deng.config, "9d 7c")
    b = pok_deng.game.parse_hand(pok_deng.config, "7c 9d")
    assert keyer(a) == keyer(b) and keyer(a).strength is None


def test_a_folder_or_a_missing_log_is_one_line(capsys, tmp_path):
    assert main(["audit", "pok-deng", "--log", str(tmp_path)]) == 2
    assert "cannot read (is a folder)" in capsys.readouterr().err
    assert main(["audit", "pok-deng", "--log", str(tmp_path / "nope.parquet")]) == 2
    assert "cannot read (No such file or directory)" in capsys.readouterr().err
