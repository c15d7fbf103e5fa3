"""Issues 19 and 20: ``odds audit`` reads exactly the file it names, and says which bytes.

Each test here failed before its fix: the log's path went to DuckDB's readers,
which expand glob patterns and ``~`` (an honest ``table1.csv`` was audited for
a doctored ``table[1].csv`` and passed); CRLF logs were refused and CR-only ones
ended in a traceback; a named pipe hung; a 2 GB log with a bad first row took
minutes to refuse; an honest log with one row per position and no round labels
was FLAGGED; and a log numbering its rounds within each shoe had every row
rejected.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from odds.cli import main
from odds.games.paytable import load


def _simulate(path: Path, rounds: int, seed: int, *extra: str) -> None:
    args = ["simulate", "pok-deng", "--rounds", str(rounds), "--seed", str(seed)]
    assert main([*args, "--out", str(path), *extra]) == 0


def _audit(capsys, log: Path | str, *extra: str) -> tuple[int, dict | None, str]:
    code = main(["audit", "pok-deng", "--log", str(log), "--format", "json", *extra])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if captured.out else None), captured.err


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


#: A doctored log: the player has a pair in each of its six rounds (p ≈ 0.0747 ** 6).
DOCTORED = "round,banker,player\n" + "".join(
    f"{n},9d 7c,{rank}h {rank}s\n" for n, rank in enumerate("AKQJ52", 1)
)


# -- 1. the file named, not a pattern's match; its bytes named by SHA-256 ----------------


@pytest.mark.parametrize(
    ("name", "decoy"),
    [
        ("table[1].csv", "table1.csv"),
        ("s*.csv", "s1.csv"),
        ("t?.csv", "t1.csv"),
        ("t{1,2}.csv", "t1.csv"),
        ("table[1].csv.gz", "table1.csv.gz"),
        ("t?.parquet", "t1.parquet"),
    ],
)
def test_a_name_with_pattern_characters_is_that_file(capsys, tmp_path, monkeypatch, name, decoy):
    """The honest decoy beside the named file used to be audited instead (and PASS)."""
    monkeypatch.chdir(tmp_path)
    _simulate(tmp_path / decoy, 2000, 1)
    named = tmp_path / name
    if name.endswith(".parquet"):
        import duckdb

        source = tmp_path / "doctored.csv"
        source.write_text(DOCTORED, encoding="utf-8")
        with duckdb.connect() as con:  # DuckDB never sees the pattern: a plain name, then renamed
            con.execute(f"COPY (FROM read_csv('{source}')) TO '{tmp_path / 'plain.parquet'}'")
        (tmp_path / "plain.parquet").rename(named)
    elif name.endswith(".gz"):
        named.write_bytes(gzip.compress(DOCTORED.encode()))
    else:
        named.write_text(DOCTORED, encoding="utf-8")
    code, result, err = _audit(capsys, name)
    assert result is not None, err
    assert result["rows"] == 6 and result["log"] == name
    assert result["log_sha256"] == _sha(named) and result["log_bytes"] == named.stat().st_size
    assert code == 1 and result["verdict"] == "FLAGGED"  # the decoy's PASS, before


def test_a_glob_of_a_folder_reads_one_file_not_every_match(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    for i in range(3):
        _simulate(tmp_path / "logs" / f"s{i}.csv", 1000, i)
    rows = "".join(f"{i},9d 7c,Kh 9h\n" for i in range(1, 11))
    (tmp_path / "logs" / "s*.csv").write_text("round,banker,player\n" + rows, encoding="utf-8")
    _, result, err = _audit(capsys, "logs/s*.csv")
    assert result is not None and result["rows"] == 10, err  # was 3,010: every match


def test_a_tilde_is_a_folder_named_tilde_not_home(capsys, tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    _simulate(home / "x.csv", 1000, 3)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    code, _, err = _audit(capsys, "~/x.csv")
    assert code == 2 and "~/x.csv: cannot read (No such file or directory)" in err
    (tmp_path / "~").mkdir()
    (tmp_path / "~" / "x.csv").write_text(DOCTORED, encoding="utf-8")
    code, result, err = _audit(capsys, "~/x.csv")
    assert result is not None and result["rows"] == 6, err


def test_the_markdown_names_the_bytes_audited(capsys, tmp_path):
    log = tmp_path / "a.csv"
    log.write_text(DOCTORED, encoding="utf-8")
    assert main(["audit", "pok-deng", "--log", str(log)]) == 1
    out = capsys.readouterr().out
    assert f"Log: `{log}`, {len(DOCTORED):,} bytes, SHA-256 {_sha(log)}." in out.splitlines()


def test_the_digest_is_of_the_stored_bytes_of_a_gzipped_log(capsys, tmp_path):
    log = tmp_path / "a.csv.gz"
    log.write_bytes(gzip.compress(DOCTORED.encode()) + gzip.compress(b"7,2c 3c,4c 5c\n"))
    _, result, err = _audit(capsys, log)
    assert result is not None, err
    assert result["rows"] == 7  # two gzip members: both read
    assert result["log_sha256"] == _sha(log) and result["log_bytes"] == log.stat().st_size


def test_the_digest_covers_every_byte_the_reader_saw(tmp_path):
    """Hash what you read: the digest is of the bytes returned, to the end of the file."""
    from odds.runtime.inputs import InputFile, text_blocks

    data = ("round,banker,player\r\n" + "1,9d 7c,Kh 9h\r\n" * 5000).encode()
    path = tmp_path / "a.csv"
    path.write_bytes(data)
    with InputFile(path) as file:
        lines = [line for block in text_blocks(file, chunk=4096) for line in block.lines()]
        digest = file.digest()
    assert len(lines) == 5001 and digest.size == len(data)
    assert digest.sha256 == hashlib.sha256(data).hexdigest()


# -- 2. line endings: LF, CRLF, CR alone, at every chunk boundary ------------------------


LOG_LINES = [
    "round,banker,player",
    "1,9d 7c,Kh 9h",
    ",,",
    "",
    '2,"Qs Js","As, Ad"',
    "3,5s 5h,2c 2d",
]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, None])
def test_crlf_and_cr_logs_read_like_lf_at_every_chunk_boundary(
    capsys, tmp_path, monkeypatch, ending, chunk
):
    """A CRLF log was refused ("a carriage return inside a line"); CR-only was a traceback."""
    import odds.runtime.inputs

    if chunk is not None:
        monkeypatch.setattr(odds.runtime.inputs, "CHUNK", chunk)
    log = tmp_path / "w.csv"
    log.write_bytes(ending.join(LOG_LINES).encode() + ending.encode())
    code, result, err = _audit(capsys, log)
    assert result is not None, err
    assert (result["rows"], result["rounds"]) == (5, 3)
    assert result["rejected"] == [
        {"line": 3, "reason": "empty row (every field empty)"},
        {"line": 4, "reason": "blank line"},
    ]
    assert code == 3  # rows that are not rounds: INCONCLUSIVE, not evidence (issue 33)


def test_the_issue_s_crlf_log(capsys, tmp_path):
    log = tmp_path / "w.csv"
    log.write_bytes(b"round,banker,player\r\n1,9d 7c,Kh 9h\r\n")
    code, result, err = _audit(capsys, log)
    assert code == 3 and result is not None and result["rows"] == 1, err


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        (b"round,banker,player\n1,9d 7c,Kh 9h\r\n2,9d 7c\r,Kh 9h\n", "line 3: a carriage return"),
        (b"round,banker,player\r1,9d 7c,Kh 9h\r2,9d\n7c,Kh 9h\r", "line 3: a line feed"),
        (b"round,banker,player\n1,9d 7c,Kh 9h\n1,9d\x1b[0m 7c,Kh 9h\n", "line 3: a control"),
        ("round,banker,player\n1,9d 7c,Kh 9h\n".encode("utf-32"), ": UTF-32 text"),
        (
            "round,banker,player\n1,9d 7c,Kh 9h\n1,9d\x1b 7c,Kh 9h\n".encode("utf-16-le"),
            "line 3: a control",
        ),
        ("round,banker,player\n1,9d 7c,Kh 9h\n".encode("utf-32-be"), ": UTF-32 text"),
        (b"round,banker,player\n1,9d 7c," + b"K" * 70_000 + b"\n", "line 2: a line longer"),
        (b"PK\x03\x04\x14\x00\x06\x00", "zip archive (an Excel workbook?)"),
        (
            gzip.compress(b"round,banker,player\n1,9d 7c,Kh 9h\n", mtime=0)[:-12],
            "not a readable gzip",
        ),
        (b"\xef\xbb\xbf", "empty log"),
        (b"\n\n", "empty log"),
    ],
)
def test_other_text_problems_are_one_line_naming_the_line(capsys, tmp_path, data, needle):
    log = tmp_path / "x.csv"
    log.write_bytes(data)
    code, _, err = _audit(capsys, log)
    assert code == 2 and needle in err and err.count("\n") == 1, err


def test_a_header_only_log_and_a_bom_log(capsys, tmp_path):
    log = tmp_path / "h.csv"
    log.write_bytes(b"\xef\xbb\xbfround,banker,player\r\n")
    code, _, err = _audit(capsys, log)
    assert code == 2 and "no rounds in the log" in err
    log.write_bytes(b"\xef\xbb\xbfround,banker,player\r\n1,9d 7c,Kh 9h\r\n")
    assert _audit(capsys, log)[0] == 3


def test_the_kind_of_file_is_told_by_its_bytes_not_its_name(capsys, tmp_path):
    """A Parquet file named .csv, a CSV named .parquet, a gzipped CSV named .csv: all read."""
    import duckdb

    csv_text = tmp_path / "log.csv"
    csv_text.write_text(DOCTORED, encoding="utf-8")
    parquet = tmp_path / "log.parquet"
    with duckdb.connect() as con:
        con.execute(f"COPY (FROM read_csv('{csv_text}')) TO '{parquet}'")
    for name, data in [
        ("parquet-named.csv", parquet.read_bytes()),
        ("csv-named.parquet", csv_text.read_bytes()),
        ("gzip-named.csv", gzip.compress(csv_text.read_bytes())),
    ]:
        path = tmp_path / name
        path.write_bytes(data)
        _, result, err = _audit(capsys, path)
        assert result is not None and result["rows"] == 6, (name, err)


def test_a_parquet_column_with_spaces_around_its_name(capsys, tmp_path):
    """``"banker "`` (a trailing space) used to end in a DuckDB binder traceback."""
    import duckdb

    path = tmp_path / "spaced.parquet"
    with duckdb.connect() as con:
        con.execute(
            "COPY (SELECT * FROM (VALUES ('9d 7c', 'Kh 9h'), ('5s 5h', 'As Ad')) "
            f't("banker ", " player")) TO \'{path}\''
        )
    _, result, err = _audit(capsys, path)
    assert result is not None and result["rows"] == 2, err


def test_a_corrupt_parquet_file_is_one_line(capsys, tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1" + b"\x00" * 20)
    code, _, err = _audit(capsys, path)
    assert code == 2 and "not a readable Parquet file" in err and err.count("\n") == 1


# -- 4/5. files that are not regular files ----------------------------------------------


def _odds(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    odds = Path(sys.executable).parent / "odds"
    return subprocess.run(
        [str(odds), *args], capture_output=True, text=True, timeout=timeout, check=False
    )


@pytest.mark.parametrize("command", ["audit", "shoe"])
def test_a_named_pipe_is_refused_not_waited_on(tmp_path, command):
    fifo = tmp_path / "fifo.csv"
    os.mkfifo(fifo)
    option = "--log" if command == "audit" else "--seen-file"
    done = _odds(command, "pok-deng", option, str(fifo))  # used to hang forever
    assert done.returncode == 2
    assert "is a named pipe (FIFO), not a regular file" in done.stderr
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("option", ["--log", "--seen-file"])
def test_devices_folders_and_links_are_named_as_what_they_are(capsys, tmp_path, option):
    loop = tmp_path / "loop.csv"
    loop.symlink_to(loop)
    broken = tmp_path / "broken.csv"
    broken.symlink_to(tmp_path / "gone.csv")
    command = "audit" if option == "--log" else "shoe"
    for path, needle in [
        ("/dev/zero", "is a character device, not a regular file"),
        ("/dev/null", "is a character device, not a regular file"),
        (str(tmp_path), "is a folder"),
        (str(loop), "a symbolic link loop"),
        (str(broken), "a broken symbolic link to"),
        (str(tmp_path / "nope.csv"), "No such file or directory"),
        (str(tmp_path / "nope.csv" / "x.csv"), "No such file or directory"),
    ]:
        assert main([command, "pok-deng", option, path]) == 2
        err = capsys.readouterr().err
        assert needle in err and err.count("\n") == 1, (path, err)


def test_a_big_log_with_a_bad_first_row_is_refused_before_it_is_read(tmp_path):
    """2 GB with a bad first row took 500 s to refuse; here 120 MB must take seconds."""
    path = tmp_path / "big.csv"
    row = b"1,1,9d 7c,Kh 9h\n"
    with path.open("wb") as handle:
        handle.write(b"shoe,round,banker,player\n1,1,9d 7c,Kh 1x\n")
        block = row * 65536
        for _ in range(120 * 2**20 // len(block)):
            handle.write(block)
    started = time.monotonic()
    done = _odds("audit", "pok-deng", "--log", str(path), timeout=60)
    elapsed = time.monotonic() - started
    assert done.returncode == 2 and "line 2, column player: unknown card '1x'" in done.stderr
    assert elapsed < 15, elapsed  # before: the whole file was scanned and loaded first


def test_a_small_log_read_whole_at_once_gives_the_error_its_first_rows_give(capsys, tmp_path):
    """A log longer than its first rows but small enough to be read whole at once
    (:data:`~odds.tools.audit.reader.FIRST_ROWS_LATER`) has its first rows checked on their
    own only when that reading fails: the error is still theirs (an empty ``--by`` value on
    line 301), not the whole reading's (the malformed line 1401), as reading them first gave.
    """
    from odds.tools.audit.reader import FIRST_ROWS_LATER
    from odds.tools.audit.sources import FIRST_ROWS

    log = tmp_path / "op.csv"
    _simulate(log, 1500, 1, "--operator")
    capsys.readouterr()
    lines = log.read_text(encoding="utf-8").splitlines()
    dealer = lines[0].split(",").index("dealer")
    row = lines[300].split(",")
    row[dealer] = ""
    lines[300] = ",".join(row)  # line 301
    lines[1400] += ",x"  # line 1401
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert 301 <= FIRST_ROWS + 1 < 1401  # line 301 among the first rows, line 1401 after them
    assert log.stat().st_size <= FIRST_ROWS_LATER
    code, _, err = _audit(capsys, log, "--by", "dealer")
    assert code == 2 and err.count("\n") == 1
    assert "op.csv line 301: the dealer is empty (--by dealer)" in err, err
    code, _, err = _audit(capsys, log)
    assert code == 2 and "op.csv line 1401: wrong number of fields (8; the header has 7)" in err


# -- 3. one row per position without round labels ------------------------------------------


def _multi_position_log(positions: int, rounds: int, seed: int) -> list[tuple[int, int, str, str]]:
    """An honest Pok Deng table: each round deals a banker and ``positions`` players (8 decks)."""
    paytable = load("pok-deng")
    game, config = paytable.game, paytable.config
    shoe = game.shoe(config)
    cards = [t for t, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    rng = random.Random(seed)
    rows = []
    for number in range(1, rounds + 1):
        dealt = rng.sample(cards, 2 * (positions + 1))
        banker = game.hand_text(tuple(dealt[:2]))
        for seat in range(1, positions + 1):
            player = game.hand_text(tuple(dealt[2 * seat : 2 * seat + 2]))
            rows.append((number, seat, banker, player))
    return rows


@pytest.fixture(scope="module")
def table_rows():
    return _multi_position_log(3, 2000, 11)


def _write(path: Path, header: str, lines: list[str]) -> Path:
    path.write_text(header + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_an_honest_table_log_with_round_labels_passes(capsys, tmp_path, table_rows):
    lines = [f"{r},{s},{b},{p}" for r, s, b, p in table_rows]
    code, result, err = _audit(
        capsys, _write(tmp_path / "t.csv", "round,position,banker,player", lines)
    )
    assert result is not None, err
    assert (result["rounds"], result["untested"]) == (2000, 4000)
    assert code == 0 and result["verdict"] == "PASS"


@pytest.mark.parametrize(
    ("header", "row", "order"),
    [
        ("banker,player", "{b},{p}", "round"),  # no labels at all
        ("round,banker,player", "{n},{b},{p}", "round"),  # a round label per row
        ("position,banker,player", "{s},{b},{p}", "round"),
        ("position,banker,player", "{s},{b},{p}", "position"),  # sorted by position
    ],
)
def test_an_honest_table_log_without_round_labels_is_refused_not_flagged(
    capsys, tmp_path, table_rows, header, row, order
):
    """Each position's row counted the banker again: FLAGGED, p = 4.6e-07, on an honest log."""
    rows = sorted(table_rows, key=lambda r: (r[1], r[0])) if order == "position" else table_rows
    lines = [row.format(n=n, s=s, b=b, p=p) for n, (_, s, b, p) in enumerate(rows, 1)]
    code, result, err = _audit(capsys, _write(tmp_path / "t.csv", header, lines))
    assert code == 2 and result is None
    assert "rows repeat the banker hand of" in err and "same round label" in err
    assert err.count("\n") == 1


def test_an_honest_log_of_independent_rounds_is_never_refused(capsys, tmp_path):
    """With a position per row but a fresh deal each row, nothing repeats beyond chance."""
    table = _multi_position_log(1, 3000, 12)
    lines = [f"{n % 5 + 1},{b},{p}" for n, (_, _, b, p) in enumerate(table)]
    code, result, err = _audit(capsys, _write(tmp_path / "t.csv", "position,banker,player", lines))
    assert code == 0 and result is not None and result["rounds"] == 3000, err


# -- 6. round numbers that restart with each shoe ---------------------------------------


@pytest.fixture(scope="module")
def shoe_log(tmp_path_factory):
    """A log dealt through shoes (75%: 78 rounds each), its rounds numbered within each shoe:
    400 rounds are six shoes, each restart read by the shoe column (any number of them does)."""
    folder = tmp_path_factory.mktemp("shoes")
    _simulate(folder / "dealt.csv", 400, 4, "--penetration", "75%")
    lines = (folder / "dealt.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "shoe,round,banker,player"
    out, first_of = [lines[0]], {}
    for line in lines[1:]:
        shoe, number, banker, player = line.split(",")
        first_of.setdefault(shoe, int(number))
        out.append(f"{shoe},{int(number) - first_of[shoe] + 1},{banker},{player}")
    path = folder / "per-shoe.csv"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def test_rounds_numbered_within_each_shoe_are_read_with_the_shoe_column(capsys, shoe_log):
    """Without a shoe column all 10,000 rows of such a log used to be rejected."""
    code, result, err = _audit(capsys, shoe_log)
    assert result is not None, err
    assert (result["rows"], result["rounds"], result["rejected_total"]) == (400, 400, 0)
    assert code == 0


def test_without_the_shoe_column_the_log_is_refused_with_the_remedy(capsys, tmp_path, shoe_log):
    lines = shoe_log.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "no-shoe.csv"
    path.write_text("\n".join(line.split(",", 1)[1] for line in lines) + "\n", encoding="utf-8")
    code, result, err = _audit(capsys, path)
    assert code == 2 and result is None
    assert "line 80: round 1 follows round 78" in err and "add a shoe column" in err


def test_a_repeated_shoe_and_round_with_other_hands_is_named(capsys, tmp_path):
    log = _write(
        tmp_path / "s.csv",
        "shoe,round,banker,player",
        ["1,1,9d 7c,Kh 9h", "1,2,Qs Js,2c 3c", "2,1,5s 5h,As Ad", "2,1,6s 6h,As Ad"],
    )
    code, result, err = _audit(capsys, log)
    assert result is not None, err
    assert result["rejected"] == [
        {"line": 4, "reason": "shoe 2, round 1: the banker hand differs between its rows"},
        {"line": 5, "reason": "shoe 2, round 1: the banker hand differs between its rows"},
    ]
    assert code == 1 and result["verdict"] == "FLAGGED"


def test_a_few_contradicting_rounds_are_rejected_with_a_hint(capsys, tmp_path):
    """Without a restart, contradictions are a finding (FLAGGED), with the shoe-column hint."""
    lines = [f"{n},9d 7c,Kh 9h" for n in range(1, 40)] + ["5,Qs Js,2c 3c"]
    code, result, err = _audit(capsys, _write(tmp_path / "r.csv", "round,banker,player", lines))
    assert result is not None, err
    assert code == 1 and result["rejected_total"] == 2
    assert any("add a shoe column" in note for note in result["notes"])


# -- simulate writes what the reader reads ------------------------------------------------


@pytest.mark.parametrize("name", ["r[1].parquet", "r*.csv.gz", "~r.parquet"])
def test_simulate_writes_the_named_file_whatever_its_characters(
    capsys, tmp_path, monkeypatch, name
):
    monkeypatch.chdir(tmp_path)
    _simulate(Path(name), 300, 6)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    _, result, err = _audit(capsys, name)
    assert result is not None and result["rows"] == 300, err


def test_parquet_and_json_logs_carry_the_shoe(capsys, tmp_path):
    import duckdb

    path = tmp_path / "r.parquet"
    _simulate(path, 100, 6, "--penetration", "50%")
    with duckdb.connect() as con:
        types = dict(
            con.execute(f"SELECT column_name, column_type FROM (DESCRIBE FROM '{path}')").fetchall()
        )
        shoes = con.execute(f"SELECT max(shoe) FROM '{path}'").fetchone()[0]
    assert types == {"shoe": "BIGINT", "round": "BIGINT", "banker": "VARCHAR", "player": "VARCHAR"}
    assert shoes == 2  # 208 cards a shoe at 50%: 52 rounds each
    assert main(["simulate", "pok-deng", "--rounds", "2", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["shoe"], r["round"]) for r in rows] == [(1, 1), (2, 2)]


def test_the_poisson_tail_behind_the_refusal():
    """P(X ≥ k) against the direct sum, and a tail that underflows ends (it once looped)."""
    import math

    from odds.tools.audit.reader import _poisson_tail

    for k, mean in [(2, 1.0), (10, 2.0), (30, 12.5), (5, 0.01)]:
        direct = 1 - sum(math.exp(-mean) * mean**j / math.factorial(j) for j in range(k))
        assert _poisson_tail(k, mean) == pytest.approx(direct, rel=1e-9, abs=1e-15)
    assert _poisson_tail(4000, 1.8) == 0.0 and _poisson_tail(3, 0.0) == 0.0
    assert _poisson_tail(3, 3.0) == 1.0  # at the mean: never a refusal


def test_a_name_that_looks_like_markup_shows_in_the_progress_bar(tmp_path):
    """``[bold]x.csv`` in a bar's description was rich markup: shown as ``x.csv``."""
    import io

    from rich.console import Console

    from odds.runtime.progress import reporting

    log = tmp_path / "[bold]x.csv"
    log.write_text(DOCTORED, encoding="utf-8")
    screen = io.StringIO()
    with reporting(Console(file=screen, force_terminal=True, width=100), delay=0):
        assert main(["audit", "pok-deng", "--log", str(log)]) == 1
    assert "reading [bold]x.csv" in screen.getvalue()


def test_a_full_disk_while_copying_the_log_is_one_line(capsys, tmp_path, monkeypatch):
    """The private copy meets a full disk (/dev/full): one line naming the folder and TMPDIR.

    Exit 4, the machine's shortage, not 2: the log itself may be fine (issue 33). Both
    copies are on /dev/full: a log of no more than its first rows is copied once, whole."""
    import odds.tools.audit.sources as sources

    folder = tmp_path / "private"

    def private(prefix: str) -> Path:
        folder.mkdir()
        for name in ("first-rows.csv", "log.csv"):
            (folder / name).symlink_to("/dev/full")
        return folder

    monkeypatch.setattr(sources, "private_folder", private)
    log = tmp_path / "a.csv"
    log.write_text(DOCTORED, encoding="utf-8")
    code, _, err = _audit(capsys, log)
    assert code == 4 and err.count("\n") == 1
    assert "cannot copy the log to the temporary folder" in err and "No space left" in err
    assert not folder.exists()  # removed all the same
