"""The PDF PAR sheet: its text (extracted with pypdf) holds the report's key figures, every page
names the paytable's digest and the version, and the same inputs give the same bytes."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from odds.core.version import __version__
from odds.games.paytable import load
from odds.output.pdf import inline, markdown_to_typst, string, to_pdf

pytest.importorskip("typst")
pypdf = pytest.importorskip("pypdf")


def pages_text(data: bytes) -> list[str]:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


@pytest.fixture(scope="module")
def dragon_tiger():
    analysis = load("dragon-tiger").analysis()
    command = "odds report dragon-tiger --format pdf --output dt.pdf"
    data = to_pdf(analysis, 6, command)
    return analysis, data, pages_text(data)


def test_the_text_holds_the_key_figures(dragon_tiger):
    analysis, data, pages = dragon_tiger
    assert data.startswith(b"%PDF-")
    text = " ".join(pages)
    # House edges and ways totals as the Markdown report prints them (docs/rules/dragon-tiger.md:
    # 8 decks, 416 cards: 416 × 415 = 172,640 ordered deals of the two cards).
    assert "172,640" in text
    for bet in analysis.bets:
        edge = f"{float(bet.house_edge) * 100:.4f}%"
        assert edge in text, (bet.name, edge)
        assert bet.title in text
    assert "3.7349%" in text  # Dragon: 31/830
    assert "-31/830" in text
    # The submission header: game, paytable, variant, the command, the digests.
    assert "dragon-tiger" in text and "tables/dragon-tiger.toml" in text
    assert analysis.title in text
    assert "odds report dragon-tiger --format pdf --output dt.pdf" in text
    assert analysis.file_sha256 in text and analysis.options_sha256 in text
    assert "Contents" in text


def test_every_page_is_headed_by_the_digest_and_version(dragon_tiger):
    analysis, _, pages = dragon_tiger
    assert len(pages) > 5
    short = analysis.file_sha256[:16]
    for number, page in enumerate(pages, 1):
        assert f"paytable SHA-256 {short}" in page, number
        assert f"odds {__version__}" in page, number
        assert f"page {number} of {len(pages)}" in page, number


def test_the_charts_are_embedded(dragon_tiger):
    """Every chart of the report is drawn: its title and axis words are in the PDF's text
    (they exist only inside the SVG files, not in the Markdown)."""
    from odds.output.charts.report_charts import chart_files

    analysis, _, pages = dragon_tiger
    text = " ".join(pages)
    charts = chart_files(analysis, "dragon-tiger")
    assert len(charts) == 2 * len(analysis.bets)
    for chart in charts:
        assert chart.chart.chart.title in text, chart.name
    assert text.count("rounds played (log scale)") == len(analysis.bets)


def test_the_same_inputs_give_byte_identical_pdfs(dragon_tiger):
    _, data, _ = dragon_tiger
    again = to_pdf(
        load("dragon-tiger").analysis(), 6, "odds report dragon-tiger --format pdf --output dt.pdf"
    )
    assert again == data
    assert b"2000" in data  # the fixed document date, not the clock's


def test_typst_markup_in_a_paytable_is_text(tmp_path: Path):
    """A title full of Typst's markup characters is printed as it is, never interpreted.

    Any game's title and description reach the same header: casino-war's 5 pages (0.5 CPU-s
    with pypdf reading them) rather than mahjong-28's 13 (1.5 CPU-s)."""
    title = 'Odd #title $x$ *bold* _em_ [link] <label> @ref "quoted" \\ back // not a comment'
    path = tmp_path / "odd.toml"
    path.write_text(
        'game = "casino-war"\n'
        f"title = {_toml_string(title)}\n"
        'description = "Pays = #1; see `code` & <more>"\n',
        encoding="utf-8",
    )
    data = to_pdf(load(str(path)).analysis(), 6)
    text = " ".join(pages_text(data))
    assert title in text
    assert "Pays = #1; see code & <more>" in text


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_markdown_subset_conversion():
    assert string('a"b\\c') == '"a\\"b\\\\c"'
    assert inline("`x`") == '#raw("x")'
    typst = markdown_to_typst(
        "## Summary\n\n| bet | ways |\n|:----|-----:|\n| a \\| b | 1,200 |\n\ntext  \nmore\n"
    )
    assert '#heading(level: 1, [#"Summary"])' in typst
    assert "align: (left, right,)" in typst
    assert '[#"a | b"], [#"1,200"]' in typst
    assert re.search(r'#par\(\[#"text" \\\n#"more"\]\)', typst)
