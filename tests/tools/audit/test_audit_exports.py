"""Issue 33: logs as operators export them — big, with stray blank lines, digits of any script.

Each test here failed before its fix: a five-seat CSV log ran DuckDB out of
memory (it built its hash tables on the log, not on the hand table) and exited
2 as if the log were malformed; amounts in Arabic-Indic or full-width digits
were read as other numbers; a blank line at the end flagged an honest log; an
all-empty row in a shoe-by-shoe log stopped the audit with no file or line; a
line break inside a quoted field was called a wrong number of fields; and
``simulate --out X.parquet`` held the whole log in memory.
"""

from __future__ import annotations

import json
from pathlib import Path

import odds.tools.audit.sources as sources
from odds.cli import main


def _simulate(path: Path, rounds: int, *extra: str, game: str = "pok-deng") -> None:
    args = ["simulate", game, "--rounds", str(rounds), "--seed", "4", "--out", str(path)]
    assert main([*args, *extra]) == 0


def _audit(capsys, log: Path, *extra: str, game: str = "pok-deng") -> tuple[int, dict | None, str]:
    capsys.readouterr()  # what simulate said
    code = main(["audit", game, "--log", str(log), "--format", "json", *extra])
    captured = capsys.readouterr()
    return code, (json.loads(captured.out) if captured.out else None), captured.err


# -- item 2: a seated CSV log within DuckDB's memory; running short is not bad input ------


def test_a_seated_csv_log_joins_the_hand_table_not_the_log(capsys, tmp_path, monkeypatch):
    """50,000 five-seat rounds within 100 MB: the hash tables hold hands, not log rows.

    The scaled-down issue: at 400 MB the 200,000-round log ran out (peak 478 MiB, exit 2);
    with the sides as written it passes in 395 MiB. At 100 MB the old plan fails already
    at 50,000 rounds (measured: exit 4 on the old join order, 0 now).
    """
    log = tmp_path / "s.csv"
    _simulate(log, 50_000, "--seats", "5")
    monkeypatch.setattr(sources, "MEMORY_LIMIT", "100MB")
    code, result, err = _audit(capsys, log)
    assert err == "" and code == 0 and result is not None
    assert result["verdict"] == "PASS" and result["rounds"] == 50_000


def test_running_out_of_memory_is_exit_4_not_bad_input(capsys, tmp_path, monkeypatch):
    """DuckDB's out-of-memory is one line, exit 4 (2 says the log is malformed)."""
    log = tmp_path / "s.csv"
    _simulate(log, 5_000, "--seats", "5")
    monkeypatch.setattr(sources, "MEMORY_LIMIT", "2MB")
    code, result, err = _audit(capsys, log)
    assert code == 4 and result is None and err.count("\n") == 1
    assert "ran out of memory" in err and "the log may be fine" in err


def test_a_python_memory_error_is_one_line_exit_4(capsys, monkeypatch):
    import importlib

    app = importlib.import_module("odds.cli.app")  # the module (odds.cli.app is the Typer app)

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(app, "app", exhausted)
    code = main(["report", "pok-deng"])
    err = capsys.readouterr().err
    assert code == 4
    assert err == "error: out of memory (the input may be fine: the machine ran short)\n"
