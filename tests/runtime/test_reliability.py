"""Issue 11: no lost data, no wrong answer, one line instead of a traceback or a hang.

Each test names the item of the issue it covers; each failed before its fix.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import odds.games.paytable
import odds.tools.audit.logs
import odds.tools.regenerate
from odds.core.errors import OddsError
from odds.core.numbers import parse_rational
from tests.paths import ROOT

# -- 1. simulate never loses an existing log ---------------------------------------------


def test_simulate_checks_its_input_before_touching_the_output(run, tmp_path):
    out = tmp_path / "r.csv"
    out.write_text("precious\n", encoding="utf-8")
    code, _, err = run("simulate", "blackjack", "--rounds", "10", "--out", str(out))
    assert code == 2 and "drawing game" in err
    assert out.read_text(encoding="utf-8") == "precious\n"


def test_an_interrupted_simulation_leaves_the_old_log_and_no_partial_file(
    run, tmp_path, monkeypatch
):
    out = tmp_path / "r.csv"
    out.write_text("precious\n", encoding="utf-8")
    real = odds.tools.audit.logs._deal

    def interrupted(*args, **kwargs):
        for number, row in enumerate(real(*args, **kwargs)):
            if number == 500:
                raise KeyboardInterrupt
            yield row

    monkeypatch.setattr(odds.tools.audit.logs, "_deal", interrupted)
    code, _, _ = run("simulate", "pok-deng", "--rounds", "1000", "--out", str(out))
    assert code == 130
    assert out.read_text(encoding="utf-8") == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


@pytest.mark.parametrize("suffix", ["r.csv", "r.csv.gz", "r.parquet"])
def test_a_finished_simulation_replaces_the_log_whole(run, tmp_path, suffix):
    out = tmp_path / suffix
    out.write_text("old\n", encoding="utf-8")
    assert run("simulate", "pok-deng", "--rounds", "50", "--out", str(out))[0] == 0
    assert out.read_bytes() != b"old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [suffix]
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)  # not the temporary file's mode


# -- 10. bad outputs are one line ----------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "needle"), [("logs", "is a directory"), ("missing/x.csv", "does not exist")]
)
def test_bad_output_paths(run, tmp_path, target, needle):
    (tmp_path / "logs").mkdir()
    code, _, err = run("simulate", "pok-deng", "--rounds", "5", "--out", str(tmp_path / target))
    assert code == 2 and needle in err and err.count("\n") == 1


def test_parquet_needs_a_file(run):
    code, _, err = run("simulate", "pok-deng", "--rounds", "5", "--format", "parquet")
    assert code == 2 and "give --out FILE.parquet" in err


def _odds(*args: str, env: dict[str, str] | None = None, **options) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "odds", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
        **options,
    )


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_on_stdout_is_one_line():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "odds", "settle", "pok-deng", "--banker", "9d 7c",
             "--player", "Kh 9h"],
            cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "error: cannot write the output (No space left on device)\n"


def test_an_encoding_without_suit_symbols_is_no_traceback():
    done = _odds(
        "settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h",
        env={"PYTHONIOENCODING": "ascii"},
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    assert "9d 7c" in done.stdout


def _children(pid: int) -> list[str]:
    """The process ids of ``pid``'s children (Linux's /proc; none once it has ended)."""
    found: list[str] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError):
            found += task.read_text().split()
    return found


def test_ctrl_c_on_reports_exits_with_130_and_no_worker_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "odds", "reports", "--check"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Ctrl-C once the reports are being built by the workers (on a loaded machine a fixed
    # delay could fall in the interpreter's own start, before odds runs at all).
    deadline = time.monotonic() + 60
    while not _children(process.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and err.count("\n") <= 1


# -- 1/10. reports are replaced whole; orphans fail the check (11) -----------------------


@pytest.fixture
def tables(tmp_path, monkeypatch):
    """A tables/ and reports/ of our own, with one small paytable."""
    (tmp_path / "tables").mkdir()
    (tmp_path / "reports").mkdir()
    (tmp_path / "tables" / "small.toml").write_text(
        'game = "pok-deng"\n[shoe]\ndecks = 1\n', encoding="utf-8"
    )
    monkeypatch.setattr(odds.games.paytable, "TABLES", tmp_path / "tables")
    monkeypatch.setattr(odds.games.paytable, "REPORTS", tmp_path / "reports")
    monkeypatch.setattr(odds.tools.regenerate, "REPORTS", tmp_path / "reports")
    # The files are under test, not the analysis: each report is computed once per test.
    regenerate = odds.tools.regenerate
    monkeypatch.setattr(regenerate, "report_output", functools.cache(regenerate.report_output))
    return tmp_path


def test_reports_are_written_whole_and_an_orphan_fails_the_check(run, tables):
    assert run("reports")[0] == 0
    assert sorted(p.name for p in (tables / "reports").iterdir()) == [
        "SHA256SUMS",
        "charts",
        "small.md",
    ]
    charts = sorted(p.name for p in (tables / "reports" / "charts").iterdir())
    assert charts == [
        f"small-{bet}-{kind}.svg"
        for bet in ("player", "player-pair")
        for kind in ("distribution", "funnel")
    ]  # whole files, no partial ones
    assert run("reports", "--check")[0] == 0
    (tables / "reports" / "gone.md").write_text("# an old report\n", encoding="utf-8")
    code, _, err = run("reports", "--check")
    assert code == 1 and "reports/gone.md (no paytable)" in err


def test_the_sums_name_every_change_since_the_reports_were_written(run, tables):
    """``reports/SHA256SUMS`` (what the freshness test reads instead of regenerating): what it
    lists matches the files until a source, a report, a chart or the set of files changes."""
    regenerate = odds.tools.regenerate
    assert run("reports")[0] == 0
    assert regenerate.sums_differences() == []
    sums = (tables / "reports" / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    names = [line.split("  ", 1)[1] for line in sums]
    assert "odds/tools/regenerate.py" in names and "tables/small.toml" in names
    assert "reports/small.md" in names and "reports/charts/small-player-funnel.svg" in names
    report = tables / "reports" / "small.md"
    report.write_text(report.read_text(encoding="utf-8") + "edited\n", encoding="utf-8")
    assert regenerate.sums_differences() == ["reports/small.md"]
    assert run("reports")[0] == 0 and regenerate.sums_differences() == []
    table = tables / "tables" / "small.toml"
    table.write_text(table.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (tables / "reports" / "gone.md").write_text("# an old report\n", encoding="utf-8")
    assert regenerate.sums_differences() == ["reports/gone.md", "tables/small.toml"]
    (tables / "reports" / "gone.md").unlink()
    run("reports")
    assert run("reports", "--check")[0] == 0
    assert regenerate.sums_differences() == []
    # A source of the package that changes is a change: the sums are written from its bytes.
    lines = [line for line in sums if not line.endswith("  odds/tools/regenerate.py")]
    (tables / "reports" / "SHA256SUMS").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "odds/tools/regenerate.py" in regenerate.sums_differences()
    code, _, err = run("reports", "--check")
    assert code == 1 and "reports/SHA256SUMS" in err


def test_a_binary_file_in_tables_is_one_line(run, tables):
    (tables / "tables" / "broken.toml").write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    code, _, err = run("reports", "--check")
    assert code == 2 and "tables/broken.toml: not UTF-8 text (byte 0x89 on line 1)" in err


# -- 8. non-UTF-8 paytables ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ('game = "pok-deng"\n'.encode("utf-16"), "UTF-16 text; save it as UTF-8"),
        (b'game = "pok-deng"\ntitle = "caf\xe9"\n', "not UTF-8 text (byte 0xe9 on line 2)"),
        (b'game = "pok-deng"\x00\n', "binary data"),
    ],
)
def test_non_utf8_paytables_are_one_line(run, tmp_path, data, needle):
    path = tmp_path / "t.toml"
    path.write_bytes(data)
    code, _, err = run("report", str(path))
    assert code == 2 and needle in err and err.count("\n") == 1


# -- 9. numbers are bounded before they become Fractions -------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["report", "pok-deng", "--set", "payouts.pair=inf"],
        ["report", "pok-deng", "--set", "payouts.pair=nan"],
        ["report", "pok-deng", "--set", "payouts.pair=1e5000"],
        ["report", "pok-deng", "--set", "payouts.pair=1e300"],
        ["report", "pok-deng", "--set", 'payouts.pair="1e-5000"'],
        ["report", "pok-deng", "--set", 'payouts.pair="1e999999999"'],
        ["settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h", "--stake", "1e5000"],
        ["settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h", "--stake", "1e999999999"],
    ],
)
def test_extreme_numbers_are_one_line_and_quick(run, args):
    start = time.perf_counter()
    code, _, err = run(*args)
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    assert "finite" in err or "out of range" in err
    assert time.perf_counter() - start < 5


def test_numbers_keep_their_exact_meaning():
    from fractions import Fraction

    assert parse_rational("0.05", "x") == Fraction(1, 20)
    assert parse_rational("1e12", "x") == 10**12
    assert parse_rational("1e-30", "x") == Fraction(1, 10**30)
    assert parse_rational(0.1, "x") == Fraction(1, 10)
    with pytest.raises(OddsError, match="out of range"):
        parse_rational("1e13", "x")


# -- 7. nonsense options ---------------------------------------------------------------------


def test_a_stake_is_an_amount_not_a_percentage(run):
    code, _, err = run("settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h",
                       "--stake", "10%")  # fmt: skip
    assert code == 2 and "--stake: expected an amount, not a percentage" in err


def test_bench_repeat_must_be_at_least_one(run):
    code, _, err = run("bench", "pok-deng", "--repeat", "0")
    assert code == 2 and "--repeat" in err


# -- 4. solve never offers a payout the paytable refuses --------------------------------------


def test_an_unreachable_target_is_no_solution(run):
    code, out, _ = run(
        "solve", "pok-deng", "--bet", "player-pair", "--target-rtp", "5%", "--vary", "payouts.pair"
    )
    assert code == 1
    assert "No valid payout reaches that target" in out
    assert "payouts.pair = -41/124 (≈ -0.330645161290) would, but the paytable refuses" in out
    assert "7.4699% at payouts.pair = 0, rising as payouts.pair grows" in out
    assert "Nearest practical values" not in out and "meets target" not in out


def test_choices_are_not_payout_keys(run):
    code, _, err = run(
        "solve", "blackjack", "--bet", "main", "--target-rtp", "99%",
        "--vary", "house.blackjack_pays",
    )  # fmt: skip
    assert code == 2 and "is a choice (3:2, 6:5, 1:1), not a number" in err
    code, _, err = run("report", "blackjack", "--set", "house.blackjack_pays=1.5")
    assert code == 2 and 'expected one of "3:2", "6:5", "1:1"' in err


# -- 5. Pok Deng's events are worded from the rules, never against the payouts ------------------


def test_pok_deng_wording_follows_the_payouts(run):
    code, out, _ = run(
        "report", "pok-deng",
        "--set", "payouts.player_win=2", "--set", "payouts.player_win_special=1",
        "--set", "payouts.player_withholding=3",
    )  # fmt: skip
    assert code == 0
    assert "stays 1:1" not in out and "wins 2:1 even" not in out
    assert "Stake 1 with 3 more withheld (debited 4)" in out
    bet = out.split("## Bet: Player N (`player`)")[1]  # the bet's table, not the whole table's
    row = next(line for line in bet.splitlines() if "banker has 0 or 6 (paid as" in line)
    assert "(paid as an ordinary win) | wins 2:1" in row


# -- 6. a tile's display name may not shadow another tile -------------------------------------


@pytest.mark.parametrize(
    ("names", "needle"),
    [
        ('{W="5"}', "a name may not shadow a tile"),
        ('{W="w"}', None),
        ('{W="dragon", "9"="DRAGON"}', "also the name of tile W"),
        ('{W="white dragon"}', "holds a space"),
    ],
)
def test_tile_names_cannot_shadow_tiles(run, names, needle):
    code, _, err = run(
        "settle",
        "mahjong-28",
        "--banker",
        "5 5",
        "--player",
        "2 3",
        "--set",
        f"tiles.names={names}",
    )
    if needle is None:
        assert code == 0
    else:
        assert code == 2 and needle in err


# -- 11. clearer messages (the library's part) ---------------------------------------------


def test_tile_messages_offer_only_the_sets_tiles(run):
    code, _, err = run("settle", "mahjong-28-20", "--banker", "Z 1", "--player", "2 3")
    assert code == 2 and "write 1-9, T (ten)" in err and "W" not in err
    code, _, err = run("settle", "mahjong-28", "--banker", "Z 1", "--player", "2 3")
    assert "write 1-9, W (or the tiles 🀙…🀡, 🀆)" in err


def test_a_game_that_is_not_a_name(run, tmp_path):
    path = tmp_path / "t.toml"
    path.write_text("game = 5\n", encoding="utf-8")
    code, _, err = run("report", str(path))
    assert code == 2 and "game must be a string naming a game, got 5" in err
    assert "missing" not in err


def test_a_game_name_wins_over_a_folder_of_that_name(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pok-deng").mkdir()
    assert run("settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h")[0] == 0
    code, _, err = run("report", "./pok-deng")
    assert code == 2 and "is a folder" in err


def test_an_empty_strength_hand_names_no_missing_option(run):
    code, _, err = run("strength", "goa-gae", "")
    assert code == 2 and "--hand" not in err and "missing HAND" in err
