"""The PDF PAR sheet (``odds report … --format pdf``): the report typeset, with its charts.

What a lab files: a submission header (game, paytable, variant, shoe, the
paytable's digests, the version and the command that made it), a table of
contents, then the report exactly as the Markdown says it — the same
sections, tables (with the Markdown's column alignment), notes and charts —
with every page headed by the paytable's digest and the version.

The PDF is typeset from the Markdown report (:func:`odds.output.markdown_report.to_markdown`,
itself made from the report's tables) by Typst's compiler, which the
``typst`` wheel carries whole, fonts included: no TeX, no system fonts (they
are ignored, so every machine typesets the same pages). The Markdown the
report uses is a small fixed subset — headings, paragraphs, pipe tables,
images, inline code and links — and :func:`markdown_to_typst` converts
exactly that; every text goes into Typst as a string literal, so no
character of a paytable's names can act as Typst markup.

The same inputs give byte-identical PDFs: the document date and the
compiler's clock are fixed (:data:`DOCUMENT_DATE`).

``typst`` is an optional dependency (``pip install "odds-exact[pdf]"``), imported
only here.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.version import __version__
from odds.output.terminal import alignments, table_cells, table_end
from odds.stats.analysis import Analysis

#: The document's date, fixed so the same inputs give the same bytes.
DOCUMENT_DATE = datetime(2000, 1, 1, tzinfo=UTC)
#: Where the charts are put beside the Typst source while it compiles.
CHART_FOLDER = "charts"


def _typst() -> Any:
    try:
        import typst
    except ImportError:
        raise OddsError(
            "--format pdf needs Typst's compiler: "
            'pip install "odds-exact[pdf]" (or pip install typst)'
        ) from None
    return typst


def to_pdf(
    analysis: Analysis, digits: int = 6, command: str | None = None, own_rules: str | None = None
) -> bytes:
    """The PDF's bytes: submission header, contents, then the report with its charts.

    ``own_rules``: the file whose definition states the rules of a user's own game
    (``None``: a game of ``odds``, whose rules page the PDF names).
    """
    from odds.output.charts.report_charts import chart_files, chart_links
    from odds.output.markdown_report import to_markdown

    typst = _typst()
    files = chart_files(analysis, analysis.game)
    markdown = to_markdown(analysis, digits, chart_links(files, CHART_FOLDER))
    source = typst_document(analysis, markdown, command, own_rules)
    with tempfile.TemporaryDirectory(prefix="odds-pdf-") as folder:
        root = Path(folder)
        (root / CHART_FOLDER).mkdir()
        for item in files:
            (root / CHART_FOLDER / item.name).write_text(item.text, encoding="utf-8")
        (root / "report.typ").write_text(source, encoding="utf-8")
        fonts = typst.Fonts(include_system_fonts=False, include_embedded_fonts=True)
        compiler = typst.Compiler(root=str(root), font_paths=fonts, ignore_system_fonts=True)
        try:
            data = compiler.compile(
                str(root / "report.typ"),
                format="pdf",
                timestamp=DOCUMENT_DATE,
                pdf_standards="a-2b",
            )
        except typst.TypstError as error:  # a bug here, never the user's input: say so plainly
            raise OddsError(f"the PDF could not be typeset: {error.message}") from None
    if not isinstance(data, bytes):
        raise AssertionError("Typst returned no PDF")
    return data


# ---------------------------------------------------------------------------
# Typst source


def string(text: str) -> str:
    """A Typst string literal: ``"a \\"b\\""``; nothing in it is markup.

    >>> string('say "hi" \\\\ #1')
    '"say \\\\"hi\\\\" \\\\\\\\ #1"'
    """
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = escaped.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")
    return f'"{escaped}"'


_INLINE = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)|\[([^\]]*)\]\(([^)]*)\)")


def inline(text: str) -> str:
    """One line of the report's Markdown as Typst content: text, ``code`` and links.

    A link's target is dropped (the report's links point into the source tree,
    which a PDF does not carry); its text is kept.

    >>> inline("Rules: [`docs/x.md`](../docs/x.md) (all)")
    '#"Rules: "#raw("docs/x.md")#" (all)"'
    """
    out = []
    position = 0
    for match in _INLINE.finditer(text):
        if match.start() > position:
            out.append(_text(_plain(text[position : match.start()])))
        if match.group(1) is not None:
            out.append(f"#raw({string(_code(match.group(2)))})")
        else:
            out.append(inline(match.group(3)))
        position = match.end()
    if position < len(text):
        out.append(_text(_plain(text[position:])))
    return "".join(out)


def _code(text: str) -> str:
    """A code span's text: one space each side is padding when both are there (CommonMark)."""
    return text[1:-1] if len(text) > 2 and text[0] == text[-1] == " " else text


_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])|&(amp|lt|gt|quot);")
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"'}


def _plain(text: str) -> str:
    """Markdown's escapes undone: ``\\|`` in a table cell is ``|``, ``&lt;`` is ``<``.

    The report escapes a user's text so that Markdown shows it as written
    (:func:`odds.output.markdown.escape_markdown`); the PDF shows it as written too.

    >>> _plain("a \\\\| b &lt;i> &amp;lt; [x]\\\\(y)")
    'a | b <i> &lt; [x](y)'
    """
    return _ESCAPE.sub(lambda m: m.group(1) or _ENTITIES[m.group(2)], text)


_POWER = re.compile(r"×10\^(-?\d+)")


def _text(text: str) -> str:
    """Plain text as Typst: a string literal, with a count's ``×10^86`` as a superscript."""
    out = []
    position = 0
    for match in _POWER.finditer(text):
        out.append("#" + string(text[position : match.start()] + "×10"))
        out.append(f"#super[{match.group(1)}]")
        position = match.end()
    out.append("#" + string(text[position:]))
    return "".join(part for part in out if part != '#""')


def content(text: str) -> str:
    """``[…]``: an inline text as a Typst content block."""
    return "[" + inline(text) + "]"


@dataclass(frozen=True)
class _Table:
    headers: list[str]
    align: list[str]
    rows: list[list[str]]


_IMAGE = re.compile(r"^!\[(.*)\]\((<[^>]*>|[^)\s]*)\)$")


def _blocks(lines: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """The Markdown as blocks: ``heading`` (level, text), ``table``, ``image`` (path, alt),
    ``paragraph`` (lines)."""
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        heading = re.match(r"^(#{1,6}) (.*)$", line)
        if heading:
            yield "heading", (len(heading.group(1)), heading.group(2))
            i += 1
            continue
        end = table_end(lines, i)
        if end > i:
            rows = [table_cells(row) for row in lines[i + 2 : end]]
            yield "table", _Table(table_cells(line), alignments(lines[i + 1]), rows)
            i = end
            continue
        image = _IMAGE.match(line)
        if image:
            yield "image", (image.group(2).strip("<>"), image.group(1))
            i += 1
            continue
        paragraph = []
        while i < len(lines) and lines[i].strip() and not _starts_block(lines, i):
            paragraph.append(lines[i])
            i += 1
        yield "paragraph", paragraph


def _starts_block(lines: Sequence[str], i: int) -> bool:
    line = lines[i]
    return bool(re.match(r"^#{1,6} ", line) or _IMAGE.match(line) or table_end(lines, i) > i)


def markdown_to_typst(markdown: str) -> str:
    """The report's Markdown (headings, paragraphs, pipe tables, images) as Typst markup.

    ``##`` is a first-level heading (``#`` is the document's title, set apart).
    """
    out: list[str] = []
    for kind, value in _blocks(markdown.splitlines()):
        if kind == "heading":
            level, text = value
            if level == 2 and text.startswith("Bet: "):
                out.append("#pagebreak(weak: true)")  # each bet starts a page: its table and charts
            out.append(f"#heading(level: {max(1, level - 1)}, {content(text)})")
        elif kind == "table":
            out.append(_typst_table(value))
        elif kind == "image":
            path, alt = value
            out.append(f"#align(center, image({string(path)}, width: 88%, alt: {string(alt)}))")
        else:
            parts = []
            for line in value:
                hard_break = line.endswith("  ")
                parts.append(inline(line.strip()) + (" \\" if hard_break else ""))
            out.append("#par(" + "[" + "\n".join(parts) + "])")
        out.append("")
    return "\n".join(out)


def _typst_table(table: _Table) -> str:
    columns = len(table.headers)
    align = ", ".join(table.align[:columns] + ["left"] * (columns - len(table.align)))
    wide = sum(len(h) for h in table.headers) > 140 or columns > 8
    lines = [
        "#block(width: 100%, breakable: true, {",
        f"  set text(size: {'6.5pt' if wide else '8pt'})",
        "  table(",
        f"    columns: {columns},",
        f"    align: ({align},),",
        "    stroke: (x, y) => if y == 0 { (bottom: 0.6pt) } else { (bottom: 0.2pt + luma(200)) },",
        "    inset: (x: 4pt, y: 3pt),",
        "    table.header(" + ", ".join(f"[*{inline(h)}*]" for h in table.headers) + "),",
    ]
    for row in table.rows:
        cells = (row + [""] * columns)[:columns]
        lines.append("    " + ", ".join(content(c) for c in cells) + ",")
    lines += ["  )", "})"]
    return "\n".join(lines)


def _report_body(markdown: str) -> str:
    """The report after its header (title, digests, rules link: the submission header says it)."""
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Rules:"):
            return "\n".join(lines[i + 1 :])
    return "\n".join(lines[1:])


def typst_document(
    analysis: Analysis, markdown: str, command: str | None = None, own_rules: str | None = None
) -> str:
    """The whole Typst source: page set-up, submission header, contents, the report."""
    digest = analysis.file_sha256 or analysis.options_sha256 or ""
    short = f"{digest[:16]}…" if digest else "no file digest"
    facts = [
        ("Game", analysis.game),
        ("Paytable", analysis.paytable),
        ("Variant", analysis.title),
        ("Shoe", analysis.shoe),
        ("Paytable file SHA-256", analysis.file_sha256 or "— (not one file as written)"),
        ("Options SHA-256", analysis.options_sha256 or "—"),
        ("Produced by", f"odds {__version__}"),
    ]
    if command:
        facts.append(("Command", command))
    header = f"PAR sheet · {analysis.title}"
    if len(header) > 90:
        header = header[:89] + "…"
    lines = [
        "#set document(",
        f"  title: {string('PAR sheet: ' + analysis.title)},",
        '  author: "odds",',
        f"  keywords: ({string(analysis.game)}, {string(digest or 'no digest')}),",
        "  date: datetime(year: 2000, month: 1, day: 1, hour: 0, minute: 0, second: 0),",
        ")",
        '#set text(font: "Libertinus Serif", size: 10pt, lang: "en",'
        ' number-type: "lining", number-width: "tabular")',
        "#set par(justify: false, leading: 0.55em, spacing: 0.9em)",
        '#show raw: set text(font: "DejaVu Sans Mono", size: 0.85em)',
        '#set heading(numbering: "1.1")',
        "#set page(",
        '  paper: "a4",',
        "  margin: (x: 1.6cm, top: 2.2cm, bottom: 1.8cm),",
        "  header: {",
        "    set text(size: 7.5pt, fill: luma(90))",
        f"    grid(columns: (1fr, auto), {content(header)},"
        f" [#{string('paytable SHA-256 ' + short + ' · odds ' + __version__)}])",
        "    line(length: 100%, stroke: 0.3pt + luma(150))",
        "  },",
        "  footer: context {",
        "    set text(size: 7.5pt, fill: luma(90))",
        "    align(center)[page #counter(page).display() of #counter(page).final().first()]",
        "  },",
        ")",
        "",
        f'#text(size: 18pt, weight: "bold")[{inline("PAR sheet")}]',
        "",
        f"#text(size: 13pt)[{inline(analysis.title)}]",
        "",
        "#table(",
        "  columns: (auto, 1fr),",
        "  stroke: none,",
        "  inset: (x: 4pt, y: 3pt),",
    ]
    for label, value in facts:
        code = label in ("Command", "Paytable file SHA-256", "Options SHA-256", "Paytable")
        shown = f"[#raw({string(value)})]" if code else content(value)
        lines.append(f"  [*{inline(label)}*], {shown},")
    lines += [
        ")",
        "",
        f"#par[{inline(_rules_sentence(analysis, own_rules))}]",
        "",
        "#v(0.6em)",
        '#text(size: 12pt, weight: "bold")[Contents]',
        "#outline(title: none, depth: 1)",
        "#pagebreak()",
        "",
        markdown_to_typst(_report_body(markdown)),
    ]
    return "\n".join(lines) + "\n"


def _rules_sentence(analysis: Analysis, own_rules: str | None = None) -> str:
    from odds.output.markdown import code_span

    where = (
        f"the definition in {code_span(own_rules)} (a game of its own)"
        if own_rules is not None
        else f"`docs/rules/{analysis.game}.md` of the source of odds {__version__}"
    )
    return (
        "Every reading and option of the rules is stated in the section Rules and readings "
        f"used, and in full in {where}. Every figure is exact (fractions of integer counts of "
        "ways) unless marked ≈ or named an approximation; the JSON and CSV outputs give each "
        "exactly."
    )
