"""Logs as Excel on Windows saves them: cp1252, UTF-8 with a BOM, UTF-16 (issue 23, item 1).

Each is the same two rounds; the audit must read the same rows and the same
dealer names from every encoding (told by itself, or given with --encoding),
and a byte the encoding cannot decode is one line naming the line.
"""

from __future__ import annotations

import json

import pytest

from odds.cli import main

TEXT = "shoe;round;dealer;dragon;tiger\nS1;1;José;K♦;2♣\nS1;2;Zoë;3♦;4♣\n"


@pytest.mark.parametrize(
    ("encoding", "option"),
    [
        ("utf-8", None),
        ("utf-8-sig", None),
        ("utf-16", None),  # a byte-order mark
        ("utf-16-le", None),  # none: told by its zero bytes
        ("utf-16-be", None),
        ("cp1252", "cp1252"),
        ("latin-1", "latin-1"),
    ],
)
def test_every_encoding_reads_the_same_rounds(capsys, tmp_path, encoding, option):
    text = (
        TEXT if encoding not in ("cp1252", "latin-1") else TEXT.replace("♦", "d").replace("♣", "c")
    )
    log = tmp_path / "r.csv"
    log.write_bytes(text.replace("\n", "\r\n").encode(encoding))
    extra = ["--encoding", option] if option else []
    code = main(
        ["audit", "dragon-tiger", "--log", str(log), "--format", "json", "--by", "dealer", *extra]
    )
    out, err = capsys.readouterr()
    assert code in (0, 3), err
    result = json.loads(out)
    assert result["rows"] == 2 and result["rejected_total"] == 0
    assert {t["group"] for t in result["groups"]} == {"José", "Zoë"}


def test_a_windows_log_without_encoding_says_how_to_read_it(capsys, tmp_path):
    log = tmp_path / "w.csv"
    log.write_bytes("dealer;dragon;tiger\nJosé;Kd;2c\n".encode("cp1252"))
    assert main(["audit", "dragon-tiger", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2: not UTF-8 text (byte 0xe9)" in err
    assert "--encoding (cp1252 for a file Excel saved on Windows)" in err


def test_undecodable_bytes_and_unknown_encodings_are_one_line_errors(capsys, tmp_path):
    log = tmp_path / "w.csv"
    log.write_bytes(b"dealer;dragon;tiger\nD1;Kd;2c\nD\x81;Kd;2c\n")  # 0x81: not in cp1252
    assert main(["audit", "dragon-tiger", "--log", str(log), "--encoding", "cp1252"]) == 2
    assert "w.csv line 3: not cp1252 text (byte 0x81)" in capsys.readouterr().err
    assert main(["audit", "dragon-tiger", "--log", str(log), "--encoding", "klingon"]) == 2
    assert "--encoding: unknown encoding 'klingon'" in capsys.readouterr().err


def test_the_seen_file_reads_the_operator_layout(capsys, tmp_path):
    """Banker once a round, each played seat once; table, dealer, stakes ignored."""
    log = tmp_path / "op.csv"
    log.write_text(
        "shoe;round;table;dealer;timestamp;banker;player_1;player_2;stake_player_1;paid_player_1\n"
        "S1;1;T1;D1;10:00;9♦ 7♣;K♥ 9♥;2♠ 2♣;10;20\n"
        "S1;2;T1;D1;10:01;3d 4d;5h 6h;;;\n",
        encoding="utf-16",
    )
    assert main(["shoe", "pok-deng", "--seen-file", str(log)]) == 0
    out = capsys.readouterr().out
    assert "2 rows" in out and "seen 10, unseen 406" in out


def test_the_seen_file_takes_an_encoding_as_the_audit_does(capsys, tmp_path):
    """``odds shoe --seen-file`` reads the audit's encodings; without it a cp1252 log is refused."""
    log = tmp_path / "w.csv"
    log.write_bytes("shoe;dealer;dragon;tiger\nS1;José;Kd;2c\nS1;Zoë;3d;4c\n".encode("cp1252"))
    assert main(["shoe", "dragon-tiger", "--seen-file", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--encoding" in err
    assert main(["shoe", "dragon-tiger", "--seen-file", str(log), "--encoding", "cp1252"]) == 0
    assert "seen 4, unseen 412" in capsys.readouterr().out
    assert main(["shoe", "dragon-tiger", "--seen", "Kd", "--encoding", "cp1252"]) == 2
    assert "give --seen-file too" in capsys.readouterr().err
    assert main(["shoe", "dragon-tiger", "--seen-file", str(log), "--encoding", "klingon"]) == 2
    assert "--encoding: unknown encoding 'klingon'" in capsys.readouterr().err
