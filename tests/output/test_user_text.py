"""Text from users is text in every format (issue 33, item 5).

``tests/output/hostile-names.toml`` puts a spreadsheet formula, raw HTML, a Markdown link,
a pipe and line breaks in every free-text field a definition has (the paytable's title and
description, the definition's title, a category's label, a bet's title and description,
outcomes' labels). Before: ``--format xlsx`` wrote the description as a live formula and the
``http://`` labels as live links, CSV wrote ``=…`` cells as they were, and Markdown passed
``<script>`` and ``<img onerror=…>`` through (a label with a line break broke its table).
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from odds.games.paytable import load
from odds.output.charts.report_charts import chart_files, chart_links
from odds.output.data import report_tables, spreadsheet_text, write_csv_folder
from odds.output.markdown import escape_markdown, inline_text
from odds.output.markdown_report import to_markdown
from odds.output.provenance import Provenance

HOSTILE = Path(__file__).with_name("hostile-names.toml")
MADE = Provenance("odds report hostile-names.toml", own_rules="hostile-names.toml")
TITLE = '=HYPERLINK("http://evil.example","x") <script>alert(1)</script> | title'
DESCRIPTION = (
    "=cmd|' /C calc'!A0 <img src=x onerror=alert(2)> [click](javascript:alert(3)) &amp; end"
)
BET = "-2+3 <script>bet title</script>"
WIN = "=1+1 <u>win</u> | pipe"
CATEGORY = "@SUM(A1) <i onmouseover=alert(4)>category</i>"
#: Every text the file holds that a spreadsheet would read as a formula or a link.
FORMULA_LIKE = (TITLE, DESCRIPTION, BET, WIN, CATEGORY)
LINK_LIKE = ("http://evil.example/lose", "http://evil.example/description")


@pytest.fixture(scope="module")
def analysis():
    return load(str(HOSTILE)).analysis()


# ---------------------------------------------------------------------------
# Markdown: no raw HTML, no link, tables stay tables


def _outside_code(markdown: str) -> str:
    return re.sub(r"(`+).*?\1", "", markdown)


def test_markdown_has_no_raw_tag_no_link_and_every_table_keeps_its_shape(analysis):
    text = to_markdown(analysis, provenance=MADE)
    plain = _outside_code(text)
    assert not re.search(r"<[A-Za-z/!?]", plain)  # no tag, comment or autolink can start
    assert "](" not in plain.replace("]\\(", "")  # no inline link or image
    for block in re.findall(r"(?:^\|.*\n)+", text, re.MULTILINE):
        pipes = {len(re.findall(r"(?<!\\)\|", line)) for line in block.splitlines()}
        assert len(pipes) == 1, block  # a label's pipe or line break splits no row
    # The text is all there, as text.
    assert '# =HYPERLINK("http://evil.example","x") &lt;script>alert(1)&lt;/script>' in text
    assert "&lt;img src=x onerror=alert(2)>" in text and "&amp;amp; end" in text
    assert "| =1+1 &lt;u>win&lt;/u> \\| pipe" in text
    assert "TAB  new line &lt;a href=x>tie&lt;/a>" in text


def test_the_report_of_a_users_file_names_no_rules_page(run):
    code, out, err = run("report", str(HOSTILE))
    assert code == 0, err
    assert "docs/rules/" not in out
    assert re.search(r"^Rules: the definition in `[^`]*hostile-names\.toml`", out, re.MULTILINE)


def test_escaping_keeps_code_spans_and_the_tools_own_text_as_they_are():
    for text in ("`<b>` as code", "EV > 0", "E[max(EV, 0)]", "A > K > Q", "wins 2:1"):
        assert escape_markdown(text) == text
    # A backslash-escaped backtick opens no code span: what follows is still escaped.
    assert escape_markdown("\\`<script>`") == "\\`&lt;script>`"
    assert inline_text("a\nb|c") == "a b|c"


# ---------------------------------------------------------------------------
# Excel: strings, never formulas or links


def test_xlsx_cells_of_user_text_are_strings_not_formulas_or_links(analysis):
    openpyxl = pytest.importorskip("openpyxl")
    pytest.importorskip("xlsxwriter")
    from odds.output.xlsx import to_xlsx

    book = openpyxl.load_workbook(io.BytesIO(to_xlsx(analysis, "odds report hostile-names.toml")))
    found: dict[str, str] = {}
    for sheet in book:
        for row in sheet.iter_rows():
            for cell in row:
                value = cell.value
                if cell.hyperlink is not None:
                    assert cell.hyperlink.location or "internal" in str(cell.hyperlink.target)
                    assert "evil" not in str(cell.hyperlink.target)
                if cell.data_type == "f":
                    assert not any(t in str(value) for t in ("cmd", "HYPERLINK", "SUM(1", "1+1"))
                    continue
                if isinstance(value, str):
                    for text in (*FORMULA_LIKE, *LINK_LIKE):
                        if text in value:
                            found[text] = cell.data_type
    assert set(found) == {*FORMULA_LIKE, *LINK_LIKE}, set(FORMULA_LIKE) - set(found)
    assert set(found.values()) == {"s"}


# ---------------------------------------------------------------------------
# CSV: OWASP's rule for text, numbers as they are


def test_csv_text_cells_get_a_leading_quote_and_numbers_do_not(analysis, tmp_path):
    write_csv_folder(report_tables(analysis, MADE), tmp_path)
    cells = []
    for path in tmp_path.glob("*.csv"):
        cells += [c for row in csv.reader(io.StringIO(path.read_text("utf-8"))) for c in row]
    for text in (TITLE, BET, WIN, CATEGORY):  # the description is no CSV table's
        assert "'" + text in cells, text
        assert text not in cells
    assert any(c.startswith("'\t") for c in cells)  # the tab-led label
    risky = [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")]
    assert risky == []
    negatives = [c for c in cells if c.startswith("-")]
    assert negatives and all(re.fullmatch(r"-[\d./e-]+", c) for c in negatives)  # -1, -8/17 …


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("-0.5", "-0.5"),
        ("-43/415", "-43/415"),
        ("+1.5e-07", "+1.5e-07"),
        ("-2+3", "'-2+3"),
        ("=SUM(A1)", "'=SUM(A1)"),
        ("@cmd", "'@cmd"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("banker", "banker"),
    ],
)
def test_spreadsheet_text(cell, written):
    assert spreadsheet_text(cell) == written


# ---------------------------------------------------------------------------
# SVG, PDF and JSON


def test_svg_charts_are_well_formed_with_the_labels_as_text(analysis):
    files = chart_files(analysis, 'a"b<c>')
    assert files
    for item in files:
        root = ElementTree.fromstring(item.text.encode("utf-8"))  # well-formed XML
        assert not root.findall(".//{http://www.w3.org/2000/svg}script")
    texts = " ".join(t for item in files for t in ElementTree.fromstring(item.text).itertext())
    assert BET in texts
    for lines in chart_links(files, "my charts").values():
        for line in lines:
            assert "<script" not in line and line.startswith("![")


def test_pdf_shows_the_text_as_written(analysis):
    pytest.importorskip("typst")
    from odds.output.pdf import inline, markdown_to_typst

    typst = markdown_to_typst(to_markdown(analysis))
    assert '[#"=1+1 <u>win</u> | pipe"]' in typst  # a Typst string: the text as written
    assert "&lt;" not in typst and "\\(" not in inline("[click]\\(x)")


def test_json_is_data_and_keeps_the_text_as_written(run):
    code, out, _ = run("report", str(HOSTILE), "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["title"] == TITLE
    assert BET in [b["title"] for b in data["bets"]]


def test_a_file_name_and_the_logs_fields_are_text_in_the_commands_that_echo_them(
    run, tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    name = "<img src=x>&.toml"
    Path(name).write_text(HOSTILE.read_text("utf-8"), encoding="utf-8")
    code, out, _ = run("verify", name, "--rtp", "97%")
    assert code == 1 and "(&lt;img src=x>&amp;.toml)" in out and "<img" not in out
    code, _, err = run("simulate", name, "--rounds", "200", "--seed", "1", "-o", "log.csv")
    assert code == 0, err
    lines = Path("log.csv").read_text("utf-8").splitlines()
    lines[1:3] = [re.sub(r"^\d+", "<b>shoe</b>", line) for line in lines[1:3]]
    Path("log.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = run("audit", name, "--log", "log.csv", "--by", "shoe")
    assert code in (0, 1), err
    assert not re.search(r"<[A-Za-z/]", _outside_code(out))
    assert "# Audit of `log.csv` against `<img src=x>&.toml`" in out  # a code span: literal
