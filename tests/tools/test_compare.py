"""odds compare (paytables side by side) and odds sweep (one entry varied, break-even exact)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from odds.core.errors import OddsError
from odds.games.paytable import TABLES, load
from odds.output.charts import svg_text
from odds.stats.bets import volatility_index
from odds.tools.compare import ABSENT, Expanded, compare, expand
from odds.tools.solve import solve
from odds.tools.sweep import MAX_POINTS, parse_vary, sweep, sweep_chart
from odds.tools.variants import variant

# ---------------------------------------------------------------------------
# compare


@pytest.fixture(scope="module")
def baccaratish():
    return compare(["baccarat-ez", "dragon-tiger", "baccarat-tie-9"])


def test_every_figure_is_the_report_s_own_and_a_missing_bet_is_absent(baccaratish):
    edges = {t.key: t for t in baccaratish.tables()}["house_edge"]
    by_bet = {row["bet"]: row for row in edges.rows}
    ez, tie9 = load("baccarat-ez").analyse(), load("baccarat-tie-9").analyse()
    assert by_bet["tie"]["baccarat-ez"] == ez.bet("tie").house_edge
    assert by_bet["tie"]["baccarat-tie-9"] == tie9.bet("tie").house_edge
    # Dragon 7 is an EZ bet only: absent elsewhere, never 0 (0 would read as a fair bet).
    assert by_bet["dragon-7"]["baccarat-tie-9"] == ABSENT
    assert by_bet["dragon-7"]["dragon-tiger"] == ABSENT
    assert "absent" in edges.note
    vi = {t.key: t for t in baccaratish.tables()}["volatility_index"]
    assert {r["bet"]: r for r in vi.rows}["tie"]["baccarat-tie-9"] == volatility_index(
        tie9.bet("tie").stats
    )
    assert baccaratish.notes()  # two games: bets matched by name only, said so


def test_cli_formats_go_through_the_report_renderers(run, tmp_path):
    code, out, err = run("compare", "baccarat-ez", "baccarat-tie-9", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["house_edge"]["tie"]["baccarat-tie-9"] == str(
        load("baccarat-tie-9").analyse().bet("tie").house_edge
    )
    assert data["house_edge"]["dragon-7"]["baccarat-tie-9"] == "absent"
    assert data["paytables"]["baccarat-ez"]["paytable"] == "tables/baccarat-ez.toml"
    code, out, _ = run(
        "compare", "baccarat-ez", "baccarat-tie-9", "--format", "csv", "--table", "house_edge"
    )
    assert code == 0 and not out.startswith("#") and ",absent" in out  # one tidy table
    code, _, err = run("compare", "baccarat-ez", "baccarat-tie-9", "--format", "csv")
    assert code == 2 and "--table NAME (paytables, house_edge" in err
    code, out, _ = run("compare", "baccarat-ez", "baccarat-tie-9")
    assert code == 0 and "## Top award" in out and "| absent" in out


def test_a_quoted_glob_is_expanded_and_output_goes_to_a_file(run, tmp_path):
    target = tmp_path / "cmp.md"
    pattern = str(TABLES / "baccarat-[et]*.toml")
    code, out, err = run("compare", pattern, "-o", str(target))
    assert code == 0, err
    assert out == ""
    text = target.read_text()
    assert "baccarat-ez" in text and "baccarat-tie-9" in text


# Issue 34, item 5: a quoted pattern matched only the files of the working folder: in an empty
# folder 'baccarat*' matched nothing, and beside the docs' baccarat-par.xlsx it failed on it.


def test_a_quoted_name_pattern_matches_the_packaged_paytables(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an empty folder
    assert expand(["baccarat*"]) == Expanded(
        ["baccarat", "baccarat-ez", "baccarat-no-commission", "baccarat-tie-9"],
        [],
    )
    assert expand(["baccarat-tie*.toml"]).names == ["baccarat-tie-9"]


def test_files_a_pattern_catches_that_are_no_paytables_are_skipped(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "baccarat-par.xlsx").write_bytes(b"PK\x03\x04\xff\x00")
    (tmp_path / "baccarat-extra.toml").write_text('[project]\nname = "notes"\n')
    (tmp_path / "baccarat-tenner.toml").write_text(
        (TABLES / "baccarat-tie-9.toml").read_text().replace("tie = 9", "tie = 10")
    )
    expanded = expand(["baccarat-[et]*"])
    assert expanded.names == ["baccarat-ez", "baccarat-tie-9", "baccarat-tenner.toml"]
    assert expanded.skipped == ["baccarat-extra.toml"]
    code, out, err = run("compare", "baccarat-[ept]*", "--format", "json")
    assert code == 0, err
    assert err == "note: skipped (not paytables): baccarat-extra.toml, baccarat-par.xlsx\n"
    data = json.loads(out)
    assert list(data["paytables"]) == ["baccarat-ez", "baccarat-tie-9", "baccarat-tenner"]
    code, _, err = run("compare", "baccarat-ez", "*.xlsx")
    assert code == 2
    assert (
        err == "error: no paytable matches '*.xlsx' (caught only baccarat-par.xlsx: no paytable)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("baccarat-ez",), "at least two paytables"),
        (("baccarat-ez", "baccarat-ez"), "given twice"),
        (("baccarat-ez", str(TABLES / "baccarat-ez.toml")), "given twice"),
        (("baccarat-ez", "nowhere/*.toml"), "no paytable matches"),
        (("baccarat-ez", "no-such-game"), "unknown game or paytable"),
    ],
)
def test_bad_arguments_are_one_line_errors(run, args, message):
    code, out, err = run("compare", *args)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_the_output_may_not_be_an_input(run, tmp_path):
    table = tmp_path / "t.toml"
    table.write_bytes((TABLES / "baccarat-ez.toml").read_bytes())
    code, _, err = run("compare", str(table), "baccarat-tie-9", "--output", str(table))
    assert code == 2 and "is one of this command's inputs" in err
    assert table.read_bytes() == (TABLES / "baccarat-ez.toml").read_bytes()


# ---------------------------------------------------------------------------
# sweep


def test_vary_forms():
    assert parse_vary("payouts.tie=8..10").values == (8, 9, 10)
    assert parse_vary("payouts.tie=8..9:0.25").values == tuple(
        Fraction(32 + k, 4) for k in range(5)
    )
    assert parse_vary("payouts.tie=9, 8 ,11").values == (8, 9, 11)
    assert parse_vary("payouts.tie=8..9:0.3").values[-1] == Fraction(89, 10)  # on the grid only


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("payouts.tie", "expected KEY=VALUES"),
        ("payouts.tie=10..8", "below where it starts"),
        ("payouts.tie=8..10:0", "step must be positive"),
        ("payouts.tie=8..10:", "step after ':' is missing"),
        ("payouts.tie=8,,9", "empty value"),
        ("payouts.tie=eight..9", "payouts.tie"),
    ],
)
def test_malformed_vary_is_refused(text, message):
    with pytest.raises(OddsError, match=message):
        parse_vary(text)


def test_a_million_points_are_refused_with_the_estimate_before_any_work():
    with pytest.raises(OddsError) as caught:
        parse_vary("payouts.tie=0..1000000")
    message = str(caught.value)
    assert "1,000,001 points are too many" in message
    assert f"at most {MAX_POINTS:,}" in message and "would take about" in message


@pytest.fixture(scope="module")
def tie_sweep():
    return sweep(load("baccarat"), parse_vary("payouts.tie=7..10:0.5"), "tie")


def test_sweep_values_equal_the_analysis_run_at_each_value(tie_sweep):
    paytable = load("baccarat")
    (bet,) = tie_sweep.bets
    for point in (bet.points[0], bet.points[3], bet.points[-1]):
        stats = variant(paytable, {"payouts.tie": str(point.value)}).analysis().bet("tie").stats
        assert point.ev == stats.ev
        assert point.variance == stats.variance


def test_break_even_equals_odds_solve_for_rtp_100_percent(tie_sweep):
    (bet,) = tie_sweep.bets
    answer = solve(load("baccarat"), "tie", "payouts.tie", Fraction(1))
    assert tuple(b.root for b in bet.break_even) == answer.solutions
    (root,) = bet.break_even
    assert root.accepted and root.exact is not None
    # Put back into the paytable, the break-even payout gives a house edge of exactly 0.
    fair = variant(load("baccarat"), {"payouts.tie": str(root.exact)}).analysis().bet("tie")
    assert fair.house_edge == 0


def test_a_bet_the_entry_does_not_change_is_left_out_or_refused():
    paytable = load("baccarat")
    result = sweep(paytable, parse_vary("payouts.tie=8,9"))
    assert [b.name for b in result.bets] == ["tie"]
    with pytest.raises(OddsError, match=r"does not depend on payouts\.tie"):
        sweep(paytable, parse_vary("payouts.tie=8,9"), "player")


def test_a_value_the_paytable_refuses_is_named(run):
    code, _, err = run("sweep", "baccarat", "--vary", "payouts.tie=-3..2")
    assert code == 2 and "--vary payouts.tie=-3" in err and len(err.splitlines()) == 1


def test_sweep_cli_chart_and_json(run, tmp_path, tie_sweep):
    charts = tmp_path / "charts"
    code, out, err = run(
        "sweep",
        "baccarat",
        "--vary",
        "payouts.tie=7..10:0.5",
        "--bet",
        "tie",
        "--charts",
        str(charts),
    )
    assert code == 0, err
    (svg,) = charts.glob("*.svg")
    assert svg.name == "baccarat-sweep-payouts-tie-tie.svg"
    assert f"]({charts.as_posix()}/{svg.name})" in out
    assert svg.read_text() == svg_text(sweep_chart(tie_sweep, tie_sweep.bets[0]), svg.stem)
    code, out, _ = run("sweep", "baccarat", "--vary", "payouts.tie=8,9", "--format", "json")
    data = json.loads(out)
    (root,) = data["break_even"]
    assert Fraction(root["value"]) == tie_sweep.bets[0].break_even[0].exact
    assert data["sweep_tie"][0]["value"] == "8"


def test_compare_and_sweep_write_workbooks_whose_values_are_the_exact_figures(run, tmp_path):
    """--format xlsx: one sheet per table; each value is the exact figure's nearest double and
    the exact text stands beside it (read back with openpyxl, independent of the writer)."""
    import openpyxl

    target = tmp_path / "cmp.xlsx"
    code, out, err = run(
        "compare", "baccarat-ez", "baccarat-tie-9", "--format", "xlsx", "-o", str(target)
    )
    assert code == 0 and out == "", err
    book = openpyxl.load_workbook(target)
    assert book.sheetnames[0] == "About" and "house_edge" in book.sheetnames
    sheet = book["house_edge"]
    rows = list(sheet.iter_rows(values_only=True))
    header = next(r for r in rows if r and r[0] == "bet")
    tie = next(r for r in rows if r and r[0] == "tie")
    exact = load("baccarat-tie-9").analyse().bet("tie").house_edge
    assert abs(tie[header.index("baccarat-tie-9")] - float(exact)) < 1e-15
    assert tie[header.index("baccarat-tie-9 (exact)")] == str(exact)  # the exact text beside
    first = target.read_bytes()
    run("compare", "baccarat-ez", "baccarat-tie-9", "--format", "xlsx", "-o", str(target))
    assert target.read_bytes() == first  # the same command, the same bytes
    sweep_book = tmp_path / "s.xlsx"
    vary = ("--vary", "payouts.tie=8..11")
    code, _, err = run("sweep", "dragon-tiger", *vary, "--format", "xlsx", "-o", str(sweep_book))
    assert code == 0, err
    sheet = openpyxl.load_workbook(sweep_book)["break_even"]
    rows = list(sheet.iter_rows(values_only=True))
    assert any("384/31" in [str(v) for v in r] for r in rows)  # Tie breaks even at 384/31 to 1
    code, _, err = run(
        "compare", "baccarat-ez", "baccarat-tie-9", "--format", "xlsx", "--table", "x"
    )
    assert code == 2 and "--format csv" in err
