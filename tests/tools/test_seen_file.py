"""Issue 19 item 6, issue 20: ``odds shoe --seen-file`` reads the cards of one shoe of a log.

The README's own ``odds shoe pok-deng --seen-file rounds.csv`` failed with the
README's 5,000-round log ("seen 374 × 8♥, but the shoe holds 8"): every card
of every shoe was taken as seen in one shoe. With a shoe column (``odds
simulate`` writes one) the last shoe is read, or ``--shoe ID``; without one, a
log holding more cards than a shoe is a one-line error. The file itself is read
as ``odds audit`` reads a log: literally, a regular file, any line ending,
gzip or Parquet by its bytes, and every unreadable file a one-line error.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from odds.cli import main
from odds.games.paytable import load


def _simulate(path: Path, rounds: int, seed: int, *extra: str) -> None:
    args = ["simulate", "pok-deng", "--rounds", str(rounds), "--seed", str(seed)]
    assert main([*args, "--out", str(path), *extra]) == 0


def _shoe(capsys, *args: str) -> tuple[int, dict | None, str]:
    code = main(["shoe", "pok-deng", *args, "--format", "json"])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if code == 0 else None), captured.err


def _seen_in(rows: list[dict[str, str]]) -> Counter[str]:
    """The cards of rows, counted independently of the reader (Python's csv, the game's parser)."""
    paytable = load("pok-deng")
    seen: Counter[str] = Counter()
    for row in rows:
        for position in ("banker", "player"):
            seen.update(str(c) for c in paytable.game.parse_hand(paytable.config, row[position]))
    return seen


def _unseen_less(data: dict) -> Counter[str]:
    """The cards the result says are gone: 8 of each less what is unseen."""
    return Counter({card: 8 - n for card, n in data["unseen_counts"].items() if n < 8})


@pytest.fixture(scope="module")
def readme_log(tmp_path_factory) -> Path:
    """The README's log: ``odds simulate pok-deng --rounds 5000 --seed 2024 --out rounds.csv``."""
    path = tmp_path_factory.mktemp("readme") / "rounds.csv"
    _simulate(path, 5000, 2024)
    return path


def test_the_readme_example_reads_the_last_shoe(capsys, readme_log):
    code, data, err = _shoe(capsys, "--seen-file", str(readme_log))
    assert code == 0, err  # was: seen 374 × 8♥, but the shoe (8 decks) holds 8
    assert data["seen_file"]["shoe"] == "5000" and data["seen_file"]["shoe_chosen"] == "last"
    with readme_log.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert data["seen"] == 4 and _unseen_less(data) == _seen_in(rows[-1:])
    assert data["seen_file"]["sha256"] == hashlib.sha256(readme_log.read_bytes()).hexdigest()
    assert main(["shoe", "pok-deng", "--seen-file", str(readme_log)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        f"Seen: the hands of shoe 5000 in {readme_log} (the last shoe in the file; --shoe ID "
        "picks another), 1 row."
    )


def test_a_shoe_dealt_to_its_cut_card_is_read_whole(capsys, tmp_path):
    path = tmp_path / "shoes.csv"
    _simulate(path, 200, 8, "--penetration", "75%")
    with path.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    code, data, err = _shoe(capsys, "--seen-file", str(path), "--shoe", "2")
    assert code == 0, err
    shoe_two = [r for r in rows if r["shoe"] == "2"]
    assert len(shoe_two) == 78 and data["seen"] == 312
    assert _unseen_less(data) == _seen_in(shoe_two)
    assert data["seen_file"]["shoe_chosen"] == "given" and data["seen_file"]["rows"] == 78


def test_a_log_of_many_shoes_without_a_shoe_column_is_one_line(capsys, tmp_path, readme_log):
    old = tmp_path / "old.csv"
    old.write_text(
        "".join(line.split(",", 1)[1] for line in readme_log.read_text("utf-8").splitlines(True)),
        encoding="utf-8",
    )
    code, _, err = _shoe(capsys, "--seen-file", str(old))
    assert code == 2 and err.count("\n") == 1
    assert "20,000 seen in 5,000 rows, more than one shoe holds (416)" in err
    assert "needs a shoe column" in err and "--shoe ID" in err
    code, _, err = _shoe(capsys, "--seen-file", str(old), "--shoe", "1")
    assert code == 2 and "--shoe 1: " in err and "has no shoe column" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--shoe", "3"], "--shoe picks a shoe of the --seen-file log; give --seen-file too"),
        (["--shoe", "9999"], "--shoe 9999: no rows of shoe 9999 in"),
    ],
)
def test_shoe_choices_that_cannot_be_met(capsys, readme_log, args, needle):
    extra = [] if args[1] == "3" else ["--seen-file", str(readme_log)]
    code, _, err = _shoe(capsys, *extra, *args)
    assert code == 2 and needle in err and err.count("\n") == 1


def test_a_shoe_label_that_comes_back_is_two_shoes(capsys, tmp_path):
    path = tmp_path / "s.csv"
    path.write_text(
        "shoe,round,banker,player\n1,1,9d 7c,Kh 9h\n2,1,5s 5h,2c 3c\n1,2,Qs Js,4d 4h\n",
        encoding="utf-8",
    )
    code, _, err = _shoe(capsys, "--seen-file", str(path))
    assert code == 2 and "line 4: shoe 1 again, after other shoes" in err


def test_a_round_s_banker_hand_is_seen_once_not_once_per_position(capsys, tmp_path):
    path = tmp_path / "table.csv"
    path.write_text(
        "shoe,round,position,banker,player\n"
        "1,1,1,9d 7c,Kh 9h\n1,1,2,9d 7c,2c 3c\n1,1,3,7c 9d,4d 4h\n"  # one banker hand, any order
        "1,2,1,Qs Js,5s 6s\n1,2,2,Qs Js,8h 8d\n",
        encoding="utf-8",
    )
    code, data, err = _shoe(capsys, "--seen-file", str(path))
    assert code == 0, err
    assert data["seen"] == 2 * 2 + 5 * 2  # two banker hands and five player hands
    path.write_text(
        "round,position,banker,player\n1,1,9d 7c,Kh 9h\n1,2,9d 7h,2c 3c\n", encoding="utf-8"
    )
    code, _, err = _shoe(capsys, "--seen-file", str(path))
    assert code == 2 and "line 3: round 1's banker hand differs from line 2's" in err


@pytest.mark.parametrize("form", ["csv.gz", "parquet", "crlf.csv", "cr.csv"])
def test_every_log_format_gives_the_same_state(capsys, tmp_path, form):
    csv_path = tmp_path / "r.csv"
    _simulate(csv_path, 300, 9, "--penetration", "75%")
    if form in ("csv.gz", "parquet"):
        other = tmp_path / f"r.{form}"
        _simulate(other, 300, 9, "--penetration", "75%")
    else:
        ending = b"\r\n" if form == "crlf.csv" else b"\r"
        other = tmp_path / form
        other.write_bytes(csv_path.read_bytes().replace(b"\n", ending))
    a, b = _shoe(capsys, "--seen-file", str(csv_path)), _shoe(capsys, "--seen-file", str(other))
    assert a[0] == b[0] == 0, b[2]
    assert a[1]["unseen_counts"] == b[1]["unseen_counts"] and a[1]["seen"] == 300 % 78 * 4


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ("shoe,round,banker,player\n1,1,9d\x1b 7c,Kh 9h\n".encode("utf-16"), "a control byte"),
        ("shoe,round,banker,player\n1,1,9d 7c,Kh 9h\n".encode("utf-32"), "UTF-32 text"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text"),
        (b"\x7fELF\x02\x01\x01\x00\x00\x00", "a control byte 0x7f"),
        (b"round,banker,player\n1,9d 7c," + b"K" * 140_000 + b"\n", "line 2: a line longer"),
        (b'round,banker,player\n1,9d 7c,"Kh 9h\n', "line 2: malformed CSV"),
        (b"round,banker,player\n1,9d 7c\n", "line 2: wrong number of fields (2"),
        (b"round,dealer\n", "no hand column (a pok-deng log has banker, player"),
        (b"round,banker,banker\n", "the column 'banker' appears twice"),
        (b"", "empty log"),
        (b"PAR1\x00\x00", "not a readable Parquet file"),
        (gzip.compress(b"round,banker,player\n", mtime=0)[:-9], "not a readable gzip file"),
    ],
)
def test_unreadable_seen_files_are_one_line(capsys, tmp_path, data, needle):
    """Each of these used to end in a traceback (UTF-16, binary, a >128 KiB field …)."""
    path = tmp_path / "seen.csv"
    path.write_bytes(data)
    code, _, err = _shoe(capsys, "--seen-file", str(path))
    assert code == 2 and needle in err and err.count("\n") == 1, err
    assert "Traceback" not in err


def test_blank_lines_and_a_header_only_log(capsys, tmp_path):
    path = tmp_path / "seen.csv"
    path.write_text("round,banker,player\n\n1,9d 7c,Kh 9h\n\n", encoding="utf-8")
    code, data, err = _shoe(capsys, "--seen-file", str(path))
    assert code == 0 and data["seen"] == 4, err
    path.write_text("shoe,round,banker,player\n", encoding="utf-8")
    code, data, err = _shoe(capsys, "--seen-file", str(path))
    assert code == 0 and data["seen"] == 0, err
