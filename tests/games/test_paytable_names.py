"""Which paytable a name reads (issue 34): "a file ``my-bet.toml`` is the game ``my-bet``".

The order (``odds.games.paytable.load``): a packaged paytable, then a game's built-in
defaults, then a paytable file in the working folder. A local file read by name, or one a
packaged name hides, is named in one line on standard error; the document on standard output
is the same as the file's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import ROOT

LUCKY_6 = (ROOT / "tables" / "lucky-6.toml").read_text(encoding="utf-8")
SETTLE = ["--player", "Kh 2d 2c", "--banker", "3c 3d"]  # Banker 6 with two cards


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_file_in_the_folder_is_read_by_its_name(folder, run):
    (folder / "my-bet.toml").write_text(LUCKY_6.replace("two_cards = 12", "two_cards = 13"))
    code, by_name, err = run("settle", "my-bet", *SETTLE)
    assert code == 0
    assert err == (
        "note: my-bet: the paytable file ./my-bet.toml in this folder "
        "(no packaged game or paytable has that name)\n"
    )
    assert "wins 13:1" in by_name  # the file's payout, not the packaged Lucky 6's 12:1
    code, by_path, err = run("settle", "my-bet.toml", *SETTLE)
    assert (code, err, by_path) == (0, "", by_name)


def test_a_packaged_name_wins_and_says_which_file_it_hid(folder, run):
    (folder / "lucky-6.toml").write_text(LUCKY_6.replace("two_cards = 12", "two_cards = 13"))
    code, out, err = run("settle", "lucky-6", *SETTLE)
    assert code == 0 and "wins 12:1" in out
    assert err == (
        "note: lucky-6 is the packaged paytable tables/lucky-6.toml, not ./lucky-6.toml in "
        "this folder (give ./lucky-6.toml to read that one)\n"
    )
    code, out, err = run("settle", "./lucky-6.toml", *SETTLE)
    assert (code, err) == (0, "") and "wins 13:1" in out


def test_a_name_alone_says_nothing(folder, run):
    code, _, err = run("settle", "lucky-6", *SETTLE)
    assert (code, err) == (0, "")


def test_an_unknown_name_says_where_a_file_would_be(folder, run):
    code, out, err = run("settle", "my-bet", *SETTLE)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "unknown game or paytable 'my-bet'" in err and "./my-bet.toml" in err
