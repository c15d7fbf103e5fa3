"""Charts: the figures they show are the exact ones, the SVG is valid and byte-stable,
and ``odds reports --check`` notices a stale, missing or orphaned chart file."""

from __future__ import annotations

import decimal
import functools
import re
import xml.etree.ElementTree as ET
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import odds.tools.regenerate as regenerate
from odds.core.charts import Scale
from odds.core.table import Column, Table
from odds.games.blackjack.charts import dealer_bust_chart, rule_option_chart
from odds.games.paytable import REPORTS, TABLES
from odds.output.charts import svg_text
from odds.output.charts.build import (
    distribution_chart,
    funnel_chart,
    funnel_rounds,
    log_or_linear,
    observed_expected_chart,
)
from odds.output.charts.report_charts import chart_files, chart_links
from odds.output.markdown_report import to_markdown
from odds.stats.analysis import Analysis
from odds.stats.bets import (
    CONFIDENCE_LEVELS,
    CONFIDENCE_ROUNDS,
    Bet,
    Outcome,
    return_range,
    rounds_to_clear,
)
from tests.docs import doc_pages

SVG = "{http://www.w3.org/2000/svg}"
IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)]+)\)")

# A 60:1 tie next to a −1 loss, and a rare top award: the hard cases for a scale.
TIE = Bet(
    "tie",
    "Tie",
    "",
    (
        Outcome("tiles not identical", Fraction(-1), 541_800),
        Outcome("identical tiles", Fraction(60), 6_540),
    ),
)
RARE = Bet(
    "rare",
    "Rare jackpot",
    "",
    (
        Outcome("loses", Fraction(-1), 600_000),
        Outcome("small win", Fraction(1), 399_000),
        Outcome("push", Fraction(0), 999),
        Outcome("jackpot", Fraction(500), 1),
        Outcome("never", Fraction(1000), 0),
    ),
)


def test_distribution_bars_are_the_outcome_table_merged_by_net() -> None:
    chart = distribution_chart(RARE)
    probability, contribution = chart.panels
    assert chart.rows == ("loses 1", "push", "wins 1:1", "wins 500:1")  # impossible net left out
    assert sum(probability.values) == 1
    assert probability.values == (
        Fraction(600_000, 10**6),
        Fraction(999, 10**6),
        Fraction(399_000, 10**6),
        Fraction(1, 10**6),
    )
    assert sum(contribution.values) == RARE.ev
    # One in a million next to 60%: a linear bar would vanish, so the scale is logarithmic.
    assert probability.scale is Scale.LOG and "0.0001%" in probability.texts


def test_a_sixty_to_one_tie_stays_linear_and_labelled() -> None:
    chart = distribution_chart(TIE)
    probability = chart.panels[0]
    assert probability.scale is Scale.LINEAR
    assert chart.rows == ("loses 1", "wins 60:1")
    assert probability.texts == ("98.81%", "1.19%")
    assert "wins 60:1 1.19%" in chart.alt


def test_log_scale_only_when_values_span_more_than_two_decades() -> None:
    assert log_or_linear([Fraction(1, 2), Fraction(1, 150)]) is Scale.LINEAR
    assert log_or_linear([Fraction(1, 2), Fraction(1, 250)]) is Scale.LOG
    assert log_or_linear([None, Fraction(0), Fraction(1)]) is Scale.LINEAR


def test_funnel_points_are_the_report_table_ranges() -> None:
    chart = funnel_chart(TIE)
    assert [b.level for b in chart.bands] == sorted(CONFIDENCE_LEVELS, reverse=True)
    for band in chart.bands:
        points = {n: (low, high) for n, low, high in band.points}
        for rounds in CONFIDENCE_ROUNDS:  # the rows of the report's confidence table
            assert points[rounds] == return_range(TIE.stats, rounds, band.level)
        widths = [high - low for _, low, high in band.points]
        assert widths == sorted(widths, reverse=True)  # the funnel narrows
    assert (
        funnel_rounds()[0] == CONFIDENCE_ROUNDS[0] and funnel_rounds()[-1] == CONFIDENCE_ROUNDS[-1]
    )


def test_break_even_rounds_is_where_the_range_leaves_one_hundred_percent() -> None:
    level = Fraction(95, 100)
    n = rounds_to_clear(TIE.stats, level)
    assert n is not None
    assert return_range(TIE.stats, n, level)[1] < 1 <= return_range(TIE.stats, n - 1, level)[1]
    even = Bet(
        "even", "Even", "", (Outcome("lose", Fraction(-1), 1), Outcome("win", Fraction(1), 1))
    )
    assert rounds_to_clear(even.stats, level) is None


def test_observed_expected_counts_and_residuals() -> None:
    chart = observed_expected_chart(
        "bet x", ["a", "b", "c"], [90, 110, 0], [Fraction(100), Fraction(100), Fraction(0)]
    )
    counts, residuals = chart.panels
    assert counts.values == (90, 110, 0) and counts.markers == (100, 100, 0)
    assert residuals.values[:2] == (Decimal(-1), Decimal(1)) and residuals.values[2] is None
    assert residuals.texts == ("−1.00", "+1.00", "")
    assert "a 90 observed, 100.0 expected" in chart.alt


def _fake_blackjack() -> Analysis:
    """An analysis with blackjack's tables as JSON gives them (no recursion needed)."""
    dealer = [
        {"up": up, "bust": bust} for up, bust in (("2", "7/20"), ("6", "21/50"), ("A", "3/25"))
    ]
    options = [
        {"option": "decks = 6", "house_edge": "1/100", "change": "-1/1000"},
        {"option": "blackjack_pays = 6:5", "house_edge": "1/40", "change": "7/500"},
        {"option": "split_hands = 4", "house_edge": "9/1000", "change": "-1/500"},
    ]
    bet = Bet(
        "main", "Round", "", (Outcome("lose", Fraction(-1), 111), Outcome("win", Fraction(1), 89))
    )
    return Analysis(
        game="blackjack",
        title="Blackjack",
        paytable="x",
        rules=(),
        rules_plain={},
        shoe="",
        deals=1,
        counting="",
        bets=(bet,),
        tables=(
            _data_table("dealer", dealer),
            _data_table("rule_options", options),
        ),
    )


def _data_table(key: str, rows: list[dict[str, object]]) -> Table:
    """A table whose JSON is ``rows`` (text cells, as the charts read them)."""
    columns = tuple(Column(name, name) for name in rows[0])
    return Table(key, key, columns, tuple(rows))


def test_blackjack_charts_read_the_dealer_and_rule_option_tables() -> None:
    analysis = _fake_blackjack()
    bust = dealer_bust_chart(analysis)
    assert bust.rows == ("up card 2", "up card 6", "up card A")
    assert bust.panels[0].values == (Fraction(7, 20), Fraction(21, 50), Fraction(3, 25))
    options = rule_option_chart(analysis)
    # Sorted from the most helpful change to the costliest (every row exact: no marks).
    assert options.rows == ("split_hands = 4", "decks = 6", "blackjack_pays = 6:5")
    assert options.panels[0].values == (Fraction(-1, 500), Fraction(-1, 1000), Fraction(7, 500))
    assert options.panels[0].texts[2] == "+1.4000% → 2.5000%"
    assert "11.0000%" in options.subtitle  # the paytable's own edge, from the main bet


def _documents(analysis: Analysis) -> list[str]:
    return [f.text for f in chart_files(analysis, "test")]


def test_svg_is_byte_identical_and_ignores_the_callers_decimal_context(pok_deng_analysis) -> None:
    first = _documents(pok_deng_analysis)
    with decimal.localcontext() as ctx:
        ctx.prec, ctx.rounding = 6, decimal.ROUND_DOWN
        second = _documents(pok_deng_analysis)
    assert first == second
    assert svg_text(distribution_chart(RARE), "k") == svg_text(distribution_chart(RARE), "k")


@pytest.mark.parametrize(
    "chart",
    [
        distribution_chart(RARE),
        funnel_chart(TIE),
        observed_expected_chart("t", ["a & <b>"], [3], [Fraction(5, 2)]),
    ],
    ids=["distribution-log", "funnel", "audit-escaping"],
)
def test_every_kind_of_chart_is_valid_accessible_svg(chart) -> None:
    root = ET.fromstring(svg_text(chart, "key").encode("utf-8"))
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.findtext(f"{SVG}title") == chart.title
    assert root.findtext(f"{SVG}desc") == chart.alt
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts and all(texts)
    for element in root.iter():
        for name in ("x", "y", "width", "height", "cx", "cy"):
            if element.get(name) is not None:
                float(element.get(name))  # every coordinate is a plain number


def test_committed_charts_are_valid_linked_and_every_report_has_them() -> None:
    assert REPORTS is not None
    folder = REPORTS / "charts"
    linked: set[str] = set()
    for report in sorted(REPORTS.glob("*.md")):
        text = report.read_text(encoding="utf-8")
        images = IMAGE.findall(text)
        assert any("-distribution.svg" in path for _, path in images), report.name
        assert any("-funnel.svg" in path for _, path in images), report.name
        for alt, path in images:
            assert alt and (REPORTS / path).is_file(), path
            linked.add(Path(path).name)
    assert {p.name for p in folder.glob("*.svg")} == linked  # nothing unlinked
    for path in folder.glob("*.svg"):
        ET.parse(path)
    blackjack = (REPORTS / "blackjack.md").read_text(encoding="utf-8")
    assert "charts/blackjack-dealer-bust.svg" in blackjack
    assert "charts/blackjack-rule-options.svg" in blackjack


def test_report_on_stdout_links_charts_only_when_written(run, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("report", "goa-gae")
    assert code == 0 and "![" not in out
    code, out, _ = run("report", "goa-gae", "--charts", "figures")
    assert code == 0
    paths = [path for _, path in IMAGE.findall(out)]
    assert paths == ["figures/goa-gae-player-distribution.svg", "figures/goa-gae-player-funnel.svg"]
    assert all((tmp_path / p).is_file() for p in paths)
    (tmp_path / "file").write_text("", encoding="utf-8")
    code, _, err = run("report", "goa-gae", "--charts", "file")
    assert code == 2 and "not a folder" in err


def test_audit_links_one_chart_per_test(run, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("simulate", "goa-gae", "--rounds", "300", "--out", "rounds.csv")[0] == 0
    code, out, _ = run("audit", "goa-gae", "--log", "rounds.csv", "--charts", "charts")
    assert code in (0, 1)
    paths = [path for _, path in IMAGE.findall(out)]
    assert paths and all((tmp_path / p).is_file() for p in paths)
    assert "charts/rounds-bet-player-outcome-events.svg" in paths


@pytest.fixture
def one_report(tmp_path, monkeypatch) -> Path:
    """A reports/ folder of its own, generated from one small paytable (one bet, two charts:
    a few hundredths of a second, the bookkeeping under test needs no more)."""
    reports = tmp_path / "reports"
    table = TABLES / "perfect-pairs.toml"
    monkeypatch.setattr(regenerate, "REPORTS", reports)
    monkeypatch.setattr(regenerate, "table_files", lambda: [table])
    # The file bookkeeping is under test, not the analysis: compute it once.
    monkeypatch.setattr(regenerate, "report_output", functools.cache(regenerate.report_output))
    return reports


def test_reports_check_flags_stale_missing_and_orphan_charts(run, one_report) -> None:
    code, out, _ = run("reports")
    assert code == 0 and "wrote reports/charts/perfect-pairs-perfect-pairs-funnel.svg" in out
    assert run("reports", "--check")[1] == "2 charts and 1 reports are fresh\n"
    chart = one_report / "charts" / "perfect-pairs-perfect-pairs-funnel.svg"
    chart.write_text(chart.read_text(encoding="utf-8").replace("#ffffff", "#fffffe"), "utf-8")
    code, _, err = run("reports", "--check")
    assert code == 1 and "reports/charts/perfect-pairs-perfect-pairs-funnel.svg" in err
    chart.unlink()
    code, _, err = run("reports", "--check")
    assert code == 1 and "perfect-pairs-perfect-pairs-funnel.svg (missing)" in err
    run("reports")
    orphan = one_report / "charts" / "perfect-pairs-old-bet-funnel.svg"
    orphan.write_text("<svg/>", encoding="utf-8")
    code, _, err = run("reports", "--check")
    assert code == 1 and "perfect-pairs-old-bet-funnel.svg (no report draws it)" in err
    code, out, _ = run("reports")
    assert orphan.exists() and "not removed" in out  # never deleted behind the user's back


def test_markdown_places_each_chart_after_its_section(pok_deng_analysis) -> None:
    files = chart_files(pok_deng_analysis, "pok-deng")
    text = to_markdown(pok_deng_analysis, charts=chart_links(files, "charts"))
    for bet in pok_deng_analysis.bets:
        table = text.index(f"## Bet: {bet.title} (`{bet.name}`)")
        distribution = text.index(f"(charts/pok-deng-{bet.name}-distribution.svg)")
        ranges = text.index(f"for {bet.title} — normal approximation")
        funnel = text.index(f"(charts/pok-deng-{bet.name}-funnel.svg)")
        assert table < distribution < ranges < funnel
    assert to_markdown(pok_deng_analysis) == to_markdown(pok_deng_analysis, charts={})


def test_docs_show_committed_charts() -> None:
    """Every image on a documentation page (README.md, docs/**) is a committed file."""
    paths = []
    for page in doc_pages.pages():
        images = [
            line for line in page.read_text(encoding="utf-8").splitlines() if line.startswith("![")
        ]
        paths += [page.parent / path for line in images for _, path in IMAGE.findall(line)]
    assert paths and all(path.is_file() for path in paths), paths
