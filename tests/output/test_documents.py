"""Output conventions (issue 19) and how ``odds report`` writes each format (issue 24).

CSV is one tidy table per file that pandas and a spreadsheet open as they are;
every exact number travels with its decimal; Markdown tables carry their
alignment in the separator row, as a CommonMark renderer reads it; the binary
formats are written to files (never to a terminal); every table of a report
is available as records and as a data frame.
"""

from __future__ import annotations

import csv
import io
import json
import os
import pty
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from odds.games.paytable import load
from odds.output.data import csv_files, report_tables, table_csv
from odds.output.markdown import table_markdown
from tests.paths import ROOT


@pytest.fixture(scope="module")
def dragon_tiger():
    return load("dragon-tiger").analysis()


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


# ---------------------------------------------------------------------------
# CSV: one tidy table per file


def test_every_report_table_is_a_tidy_csv_with_decimals_beside_the_exact_values(dragon_tiger):
    pandas = pytest.importorskip("pandas")
    for table in report_tables(dragon_tiger):
        text = table_csv(table)
        assert not text.startswith("#")
        rows = list(csv.reader(io.StringIO(text)))
        assert len({len(r) for r in rows}) == 1, table.key  # a rectangle: header and rows
        frame = pandas.read_csv(io.StringIO(text))
        assert len(frame) == len(table.rows) + (1 if table.json_total and table.total else 0)
        for column in frame.columns:
            if not column.endswith("_decimal"):
                continue
            exact = column.removesuffix("_decimal")
            assert exact in frame.columns
            assert frame[column].dtype.kind == "f", (table.key, column)  # numbers, not text
            for fraction, number in zip(frame[exact], frame[column], strict=True):
                try:
                    value = Fraction(str(fraction))
                except ValueError:  # an empty cell or a mark: no number beside it either
                    assert pandas.isna(number), (table.key, column, fraction)
                    continue
                assert number == float(value), (table.key, column)


def test_the_outcome_csv_leaves_the_total_row_out(dragon_tiger):
    """A tidy table holds observations: summing its ways gives the total, once."""
    table = next(t for t in report_tables(dragon_tiger) if t.key == "outcomes_dragon")
    rows = _rows(table_csv(table))
    assert "Total" not in {r["event"] for r in rows}
    assert sum(int(r["ways"]) for r in rows) == 416 * 415  # two cards from 8 decks, ordered
    assert sum(Fraction(r["probability"]) for r in rows) == 1
    assert Fraction(rows[0]["return"]) + Fraction(rows[1]["return"]) + Fraction(
        rows[2]["return"]
    ) == Fraction(-31, 830)


def test_a_csv_folder_has_an_index_of_every_table(run, tmp_path: Path, dragon_tiger):
    folder = tmp_path / "dt"
    code, out, err = run("report", "dragon-tiger", "--format", "csv", "--output", f"{folder}/")
    assert code == 0 and out == "" and err == "", err
    index = _rows((folder / "index.csv").read_text(encoding="utf-8"))
    keys = [t.key for t in report_tables(dragon_tiger)]
    assert [r["table"] for r in index] == ["provenance", *keys]  # how it was made, first
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["index.csv", *(r["file"] for r in index)]
    )
    for row in index:
        assert len(_rows((folder / row["file"]).read_text(encoding="utf-8"))) == int(row["rows"])
    # The same files as the library writes.
    assert dict(csv_files(report_tables(dragon_tiger)))["summary.csv"] == (
        folder / "summary.csv"
    ).read_text(encoding="utf-8")


def test_csv_to_standard_output_is_the_summary_and_says_so(run):
    """``odds report GAME --format csv > file.csv`` is the summary table (issue 34: the
    analyst's guide's example exited 2 and left an empty file), and one line on stderr names
    the other tables and how to get them."""
    code, out, err = run("report", "dragon-tiger", "--format", "csv")
    assert code == 0
    assert out == run("report", "dragon-tiger", "--format", "csv", "--table", "summary")[1]
    assert len(err.strip().splitlines()) == 1 and err.startswith("note: ")
    assert "--table NAME" in err and "outcomes_suited-tie" in err and "--output DIR/" in err
    code, out, err = run("report", "dragon-tiger", "--format", "csv", "--table", "outcomes_tie")
    assert code == 0, err
    assert out.splitlines()[0] == "event,net,net_decimal,ways,probability,probability_decimal," + (
        "return,return_decimal"
    )
    code, _, err = run("report", "dragon-tiger", "--format", "csv", "--table", "nope")
    assert code == 2 and "no such table" in err and "summary" in err


def test_a_csv_file_for_several_tables_is_refused_before_any_work(run, tmp_path: Path):
    target = tmp_path / "all.csv"
    code, _, err = run("report", "blackjack", "--format", "csv", "--output", str(target))
    assert code == 2 and "--table NAME" in err and not target.exists()
    existing = tmp_path / "kept.csv"
    existing.write_text("mine\n", encoding="utf-8")
    code, _, err = run("report", "dragon-tiger", "--format", "csv", "--output", str(existing))
    assert code == 2 and existing.read_text(encoding="utf-8") == "mine\n"


def test_json_gives_each_exact_number_a_decimal(run):
    code, out, err = run("report", "dragon-tiger", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    dragon = data["bets"][0]
    assert dragon["ev"] == "-31/830" and dragon["ev_decimal"] == float(Fraction(-31, 830))
    assert dragon["outcomes"][0]["probability_decimal"] == float(
        Fraction(dragon["outcomes"][0]["probability"])
    )
    tie = data["bets"][2]["outcomes"][0]
    assert tie["probability_decimal"] == float(Fraction(tie["probability"]))


# ---------------------------------------------------------------------------
# Records and data frames


def test_records_and_data_frames_of_every_table(dragon_tiger):
    pandas = pytest.importorskip("pandas")
    keys = dragon_tiger.table_keys()
    assert keys[:3] == ["summary", "top_awards", "rules"] and "outcomes_tie" in keys
    for key in keys:
        rows = dragon_tiger.records(key)
        frame = dragon_tiger.to_pandas(key)
        assert isinstance(frame, pandas.DataFrame) and len(frame) == len(rows), key
    summary = dragon_tiger.to_pandas("summary")
    assert summary.loc[0, "ev"] == Fraction(-31, 830)
    assert summary.loc[0, "ev_decimal"] == float(Fraction(-31, 830))
    outcomes = dragon_tiger.to_pandas()
    assert list(outcomes.columns)[:3] == ["bet", "event", "net"]
    assert outcomes["probability_decimal"].dtype.kind == "f"
    with pytest.raises(Exception, match="no such table"):
        dragon_tiger.records("nope")


def test_to_pandas_without_pandas_is_a_one_line_error(dragon_tiger, monkeypatch):
    from odds.core.errors import OddsError

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(OddsError, match="pip install pandas"):
        dragon_tiger.to_pandas()


# ---------------------------------------------------------------------------
# Markdown: the alignment a renderer reads


def test_markdown_tables_right_align_numbers_for_a_commonmark_renderer(dragon_tiger):
    """GitHub and pandoc align by the separator row; markdown-it (GFM tables) reads it the same."""
    from markdown_it import MarkdownIt

    table = next(t for t in report_tables(dragon_tiger) if t.key == "outcomes_dragon")
    text = table_markdown(table, 6)
    separator = text.splitlines()[1]
    assert separator.startswith("|:-") and separator.endswith("-:|")
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert '<th style="text-align:left">event</th>' in html
    assert '<th style="text-align:right">ways</th>' in html
    assert '<td style="text-align:right">79,872</td>' in html


# ---------------------------------------------------------------------------
# Binary formats: files, a pipe, never a terminal


def test_xlsx_and_pdf_are_written_to_the_output_file(run, tmp_path: Path):
    pytest.importorskip("xlsxwriter")
    pytest.importorskip("typst")
    book, sheet = tmp_path / "par.xlsx", tmp_path / "par.pdf"
    code, out, err = run("report", "dragon-tiger", "--format", "xlsx", "-o", str(book))
    assert code == 0 and out == "", err
    assert book.read_bytes()[:2] == b"PK"
    code, out, err = run("report", "dragon-tiger", "--format", "pdf", "-o", str(sheet))
    assert code == 0 and out == "", err
    assert sheet.read_bytes()[:5] == b"%PDF-"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["par.pdf", "par.xlsx"]  # no leftovers


def test_a_binary_format_is_refused_on_a_terminal_and_flows_down_a_pipe(tmp_path: Path):
    pytest.importorskip("xlsxwriter")
    command = [sys.executable, "-m", "odds", "report", "dragon-tiger", "--format", "xlsx"]
    primary, secondary = pty.openpty()
    try:
        done = subprocess.run(
            command, cwd=tmp_path, stdout=secondary, stderr=subprocess.PIPE, timeout=60
        )
    finally:
        os.close(secondary)
        os.close(primary)
    assert done.returncode == 2
    message = done.stderr.decode()
    assert len(message.strip().splitlines()) == 1 and "--output FILE" in message
    piped = subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=60)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout[:2] == b"PK"


def test_a_missing_extra_is_named_before_any_work(run, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "typst" else real(name, *a)
    )
    code, _, err = run("report", "blackjack", "--format", "pdf", "--output", "x.pdf")
    assert code == 2 and 'pip install "odds-exact[pdf]"' in err


def test_output_checks(run, tmp_path: Path):
    code, _, err = run("report", "dragon-tiger", "--format", "json", "-o", str(tmp_path))
    assert code == 2 and "folder" in err
    paytable = tmp_path / "mine.toml"
    paytable.write_text((ROOT / "tables" / "dragon-tiger.toml").read_text(), encoding="utf-8")
    code, _, err = run("report", str(paytable), "-o", str(paytable))
    assert code == 2 and "inputs" in err
    code, _, err = run("report", "dragon-tiger", "--table", "summary")
    assert code == 2 and "--format csv" in err
    code, out, err = run("report", "dragon-tiger", "-o", str(tmp_path / "r.md"))
    assert code == 0 and out == ""
    assert (tmp_path / "r.md").read_text(encoding="utf-8").startswith("# Dragon Tiger")
