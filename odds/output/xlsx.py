"""The Excel PAR sheet (``odds report … --format xlsx``): every figure a formula over the ways.

A test lab audits a PAR sheet in a spreadsheet: it wants to see each
probability, return, total and statistic *computed* from the counts, not
typed in. So each bet gets a sheet of its outcome table (event | pays | ways |
probability | return) where the probability and return columns, the totals,
the EV, house edge, RTPs, hit frequency, variance, SD and volatility index are
Excel formulas over the ``ways`` cells; the Summary sheet refers to those
cells. The exact value of every figure stands beside it as text (a fraction),
and each formula also carries its exact value, rounded, as the cached result,
for viewers that do not recalculate.

Excel holds numbers as doubles and shows 15 significant digits; a count with
more digits would be rounded without a word. A table whose ways reach 10^15
is divided by the common factor of its ways when that brings them below
(probabilities are unchanged), and otherwise each count is split into parts
of :data:`PART_DIGITS` digits that the ``ways`` formula recombines; the sheet
says which, and the exact integer is beside as text
(:class:`odds.output.xlsx_cells.WaysLayout`).

The same inputs give a byte-identical file: the document's creation date is
fixed (:data:`DOCUMENT_DATE`) and nothing else in it depends on the clock.

XlsxWriter is an optional dependency (``pip install "odds-exact[xlsx]"``), imported
only here.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.core.numbers import fraction_text
from odds.core.table import Table
from odds.core.version import __version__
from odds.output.data import report_tables
from odds.output.xlsx_cells import (
    DOCUMENT_DATE,
    PART_DIGITS,
    Formats,
    WaysLayout,
    cell,
    cell_text,
    number,
    paragraph,
    sheet_name,
    sheet_ref,
)
from odds.output.xlsx_tables import write_rules, write_table
from odds.stats.analysis import Analysis
from odds.stats.bet_tables import summary_table
from odds.stats.bets import VOLATILITY_LEVEL, Bet, volatility_index, z_value

#: XlsxWriter's options: text is written as text, whatever it starts with. By default
#: ``write()`` turns a string starting with ``=`` (or ``{=…}``) into a formula and one
#: starting with ``http://`` into a live link; a title, a description or an outcome's label
#: is a user's text, never a formula or a link (the workbook's own links are written with
#: ``write_url``, its formulas with ``write_formula``).
TEXT_IS_TEXT = {
    "in_memory": True,
    "strings_to_numbers": False,
    "strings_to_formulas": False,
    "strings_to_urls": False,
}

SUMMARY_SHEET = "Summary"
#: The first sheet of a workbook of plain tables (compare, sweep).
ABOUT_SHEET = "About"
RULES_SHEET = "Rules and readings"
#: Sheets of the report's own tables are named after the table's key with this prefix.
TABLE_PREFIX = "T "


def _xlsxwriter() -> Any:
    try:
        import xlsxwriter
    except ImportError:
        raise OddsError(
            "--format xlsx needs XlsxWriter: "
            'pip install "odds-exact[xlsx]" (or pip install XlsxWriter)'
        ) from None
    return xlsxwriter


def _workbook(properties: dict[str, Any]) -> tuple[Any, io.BytesIO]:
    """A new workbook written to memory, with its properties and the fixed creation date."""
    buffer = io.BytesIO()
    book = _xlsxwriter().Workbook(buffer, TEXT_IS_TEXT)
    book.set_properties({**properties, "created": DOCUMENT_DATE})
    return book, buffer


def _page_setup(book: Any, header: str | None = None) -> None:
    """Every sheet prints landscape, one page wide; a report's sheets are headed by ``header``."""
    for sheet in book.worksheets():
        sheet.set_landscape()
        sheet.set_paper(9)  # A4
        sheet.fit_to_pages(1, 0)
        if header is not None:
            sheet.set_margins(left=0.4, right=0.4, top=0.7, bottom=0.6)
            sheet.set_header(header)
        sheet.set_footer("&L&8&A&R&8page &P of &N")


def _report_header(analysis: Analysis) -> str:
    """A report's page header: its title, the version and the paytable's digest."""
    digest = (analysis.file_sha256 or analysis.options_sha256 or "")[:16]
    title = analysis.title.replace("&", "&&")
    if len(title) > 120:
        title = title[:119] + "…"
    return f"&L&8{title}&R&8odds {__version__}   paytable SHA-256 {digest}…"


def to_xlsx(analysis: Analysis, command: str | None = None) -> bytes:
    """The workbook's bytes: Summary, Rules and readings, one sheet per bet, then the tables.

    ``command`` (the command line that made it) is stated on the rules sheet.
    """
    book, buffer = _workbook(
        {
            "title": f"PAR sheet: {analysis.title}",
            "subject": f"{analysis.game}: {analysis.paytable}",
            "author": "odds",
            "comments": f"paytable SHA-256 {analysis.file_sha256 or 'none'}; "
            f"options SHA-256 {analysis.options_sha256 or 'none'}",
        }
    )
    formats = Formats(book)
    taken = {SUMMARY_SHEET, RULES_SHEET}
    summary = book.add_worksheet(SUMMARY_SHEET)
    rules = book.add_worksheet(RULES_SHEET)
    bet_sheets = []
    for bet in analysis.bets:
        name = sheet_name(bet.name, taken)
        bet_sheets.append(_write_bet(book.add_worksheet(name), name, bet, formats))
    _write_summary(summary, analysis, bet_sheets, formats)
    write_rules(rules, analysis, command, formats)
    shown = {"summary", "rules"} | {f"outcomes_{b.name}" for b in analysis.bets}
    for table in report_tables(analysis):
        if table.key in shown:
            continue
        name = sheet_name(TABLE_PREFIX + table.key, taken)
        write_table(book.add_worksheet(name), table, formats)
    _page_setup(book, _report_header(analysis))
    book.close()
    return buffer.getvalue()


def tables_xlsx(
    tables: Sequence[Table], title: str, notes: Sequence[str] = (), command: str | None = None
) -> bytes:
    """A workbook of plain tables (``odds compare``, ``odds sweep``): one sheet per table.

    The first sheet, "About", states the title, the notes and the command;
    each table follows on its own sheet as values with the exact text beside
    (the same cells as a report's other tables). Byte-identical for the same
    inputs, like :func:`to_xlsx`.
    """
    book, buffer = _workbook({"title": title, "author": "odds"})
    formats = Formats(book)
    about = book.add_worksheet(ABOUT_SHEET)
    about.write_string(0, 0, cell_text(title), formats["title"])
    row = 2
    for text in [*notes, *([f"Command: {command}"] if command else []), f"odds {__version__}"]:
        paragraph(about, row, text, 2, formats["wrap"], 160)
        row += 1
    about.set_column(0, 2, 60)
    taken = {ABOUT_SHEET}
    for table in tables:
        write_table(book.add_worksheet(sheet_name(table.key, taken)), table, formats)
    _page_setup(book)
    book.close()
    return buffer.getvalue()


# ---------------------------------------------------------------------------
# One bet: its outcome table and figures, all formulas over the ways


@dataclass(frozen=True)
class BetSheet:
    """Where one bet's figures are on its sheet (0-based rows, values in :data:`FIGURE_VALUE`)."""

    name: str
    bet: Bet
    figures: dict[str, int]

    def ref(self, figure: str) -> str:
        return sheet_ref(self.name, self.figures[figure], FIGURE_VALUE)


#: The figures each bet sheet computes, in order: key, label.
FIGURES: tuple[tuple[str, str], ...] = (
    ("total", "total ways"),
    ("ev", "EV per unit staked"),
    ("house_edge", "house edge"),
    ("rtp", "RTP per unit staked"),
    ("debited", "debited per unit staked (stake plus withholding)"),
    ("rtp_debited", "RTP per unit debited"),
    ("hit_frequency", "hit frequency (net wins)"),
    ("push_probability", "push probability"),
    ("variance", "variance per unit staked"),
    ("sd", "SD per unit staked"),
    ("z", f"z for the volatility index ({float(VOLATILITY_LEVEL):.0%})"),
    ("volatility_index", "volatility index (z · SD)"),
)

# Columns of a bet sheet's outcome table.
_EVENT, _PAYS, _WAYS, _PROBABILITY, _RETURN = range(5)
_PAYS_EXACT, _WAYS_EXACT, _PROBABILITY_EXACT, _RETURN_EXACT = range(5, 9)
_FIRST_PART = 9
#: The columns of a bet sheet's figures (under its table): label, value (a formula), exact.
FIGURE_LABEL, FIGURE_VALUE, FIGURE_EXACT = 0, _WAYS, _PROBABILITY


def _write_bet(sheet: Any, name: str, bet: Bet, formats: Formats) -> BetSheet:
    stats = bet.stats
    layout = WaysLayout.of([o.ways for o in bet.outcomes] + [stats.total])
    sheet.write_string(0, 0, cell_text(f"Bet: {bet.title} ({bet.name})"), formats["title"])
    paragraph(sheet, 1, bet.description, 4, formats["wrap"], 120)
    paragraph(
        sheet,
        2,
        "Probability = ways / total ways; return = pays × probability; every figure below "
        "is a formula over the ways column. The exact values are the text columns at the right.",
        4,
        formats["note"],
        120,
    )
    note = layout.note()
    if note:
        paragraph(sheet, 3, note, 4, formats["note"], 120)
    header_row = 5
    headers = [
        "event",
        "pays (net per unit staked)",
        "ways" if layout.divisor == 1 else f"ways ÷ {layout.divisor:,}",
        "probability",
        "return",
        "pays (exact)",
        "ways (exact)",
        "probability (exact)",
        "return (exact)",
        *(layout.part_headers("ways") if layout.split else []),
    ]
    sheet.write_row(header_row, 0, headers, formats["header"])
    sheet.set_row(header_row, 30)
    first = header_row + 1
    last = first + len(bet.outcomes) - 1
    total_row = last + 1
    total_ways = cell(total_row, _WAYS, absolute=True)
    for i, outcome in enumerate(bet.outcomes):
        row = first + i
        p = Fraction(outcome.ways, stats.total)
        sheet.write_string(row, _EVENT, cell_text(outcome.event), formats["text"])
        sheet.write_number(row, _PAYS, number(outcome.net), formats["number"])
        _write_ways(sheet, row, outcome.ways, layout, formats["ways"], formats["ways_scientific"])
        sheet.write_formula(
            row,
            _PROBABILITY,
            f"={cell(row, _WAYS)}/{total_ways}",
            formats["probability"],
            float(p),
        )
        sheet.write_formula(
            row,
            _RETURN,
            f"={cell(row, _PAYS)}*{cell(row, _PROBABILITY)}",
            formats["probability"],
            float(p * outcome.net),
        )
        sheet.write_string(row, _PAYS_EXACT, fraction_text(outcome.net), formats["exact"])
        sheet.write_string(row, _WAYS_EXACT, str(outcome.ways), formats["exact"])
        sheet.write_string(row, _PROBABILITY_EXACT, cell_text(fraction_text(p)), formats["exact"])
        sheet.write_string(
            row, _RETURN_EXACT, cell_text(fraction_text(p * outcome.net)), formats["exact"]
        )
    sheet.write_string(total_row, _EVENT, "Total", formats["total_label"])
    sheet.write_blank(total_row, _PAYS, None, formats["total_blank"])
    _write_total_ways(sheet, total_row, first, [o.ways for o in bet.outcomes], layout, formats)
    for col, value in ((_PROBABILITY, Fraction(1)), (_RETURN, stats.ev)):
        span = f"{cell(first, col)}:{cell(last, col)}"
        sheet.write_formula(
            total_row, col, f"=SUM({span})", formats["probability_total"], float(value)
        )
    sheet.write_blank(total_row, _PAYS_EXACT, None, formats["total_blank"])
    sheet.write_string(total_row, _WAYS_EXACT, str(stats.total), formats["exact"])
    sheet.write_string(total_row, _PROBABILITY_EXACT, "1", formats["exact"])
    sheet.write_string(
        total_row, _RETURN_EXACT, cell_text(fraction_text(stats.ev)), formats["exact"]
    )
    figures = _write_figures(sheet, bet, layout, total_row + 2, first, last, total_row, formats)
    longest = max(len(o.event) for o in bet.outcomes)
    sheet.set_column(_EVENT, _EVENT, min(90, max(30, longest + 2)))
    sheet.set_column(_PAYS, _PAYS, 13)
    sheet.set_column(_WAYS, _WAYS, 24)
    sheet.set_column(_PROBABILITY, _RETURN, 18)
    sheet.set_column(_PAYS_EXACT, _RETURN_EXACT, 24)
    if layout.split:
        sheet.set_column(_FIRST_PART, _FIRST_PART + layout.parts - 1, 18)
    sheet.freeze_panes(first, 1)
    return BetSheet(name, bet, figures)


def _write_ways(
    sheet: Any, row: int, ways: int, layout: WaysLayout, fmt: Any, scientific: Any
) -> None:
    """One count: the number itself, divided by the layout's divisor, or recombined from parts."""
    if not layout.split:
        sheet.write_number(row, _WAYS, layout.scaled(ways), fmt)
        return
    parts = layout.part_values(ways)
    for i, part in enumerate(parts):
        sheet.write_number(row, _FIRST_PART + i, part, fmt)
    sheet.write_formula(
        row, _WAYS, _recombined(row, layout), scientific, float(layout.scaled(ways))
    )


def _recombined(row: int, layout: WaysLayout) -> str:
    """``=J7*10^24+K7*10^12+L7``: a split count added up from its parts."""
    terms = []
    for i in range(layout.parts):
        power = PART_DIGITS * (layout.parts - 1 - i)
        ref = cell(row, _FIRST_PART + i)
        terms.append(ref if power == 0 else f"{ref}*10^{power}")
    return "=" + "+".join(terms)


def _write_total_ways(
    sheet: Any,
    total_row: int,
    first: int,
    counts: Sequence[int],
    layout: WaysLayout,
    formats: Formats,
) -> None:
    """The total ways: the sum of the column (of each part's column, for split counts)."""
    fmt = formats["ways_total"]
    last = first + len(counts) - 1
    total = sum(counts)
    if not layout.split:
        span = f"{cell(first, _WAYS)}:{cell(last, _WAYS)}"
        sheet.write_formula(total_row, _WAYS, f"=SUM({span})", fmt, layout.scaled(total))
        return
    parts = [layout.part_values(c) for c in counts]
    for i in range(layout.parts):
        col = _FIRST_PART + i
        span = f"{cell(first, col)}:{cell(last, col)}"
        # Each part column summed as it is (no carries): still exact in a double.
        sheet.write_formula(total_row, col, f"=SUM({span})", fmt, sum(p[i] for p in parts))
    sheet.write_formula(
        total_row,
        _WAYS,
        _recombined(total_row, layout),
        formats["ways_scientific_total"],
        float(layout.scaled(total)),
    )


def _write_figures(
    sheet: Any,
    bet: Bet,
    layout: WaysLayout,
    start: int,
    first: int,
    last: int,
    total_row: int,
    formats: Formats,
) -> dict[str, int]:
    """The bet's figures under its table: label | formula | exact value."""
    stats = bet.stats
    rows = {key: start + 1 + i for i, (key, _) in enumerate(FIGURES)}

    def at(key: str) -> str:
        return cell(rows[key], FIGURE_VALUE, absolute=True)

    pays = f"{cell(first, _PAYS, True)}:{cell(last, _PAYS, True)}"
    ways = f"{cell(first, _WAYS, True)}:{cell(last, _WAYS, True)}"
    z = z_value(VOLATILITY_LEVEL)
    sd_note = "" if bet.sd_is_exact else " (the outcome table merges dependent parts: approximate)"
    # key: (formula, "" for a typed value; value; its exact text, None for its fraction; format)
    entries: dict[str, tuple[str, Any, str | None, str]] = {
        "total": (
            f"={cell(total_row, _WAYS, True)}",
            layout.scaled(stats.total),
            str(stats.total),
            "ways",
        ),
        "ev": (f"={cell(total_row, _RETURN, True)}", stats.ev, None, "probability"),
        "house_edge": (f"=-{at('ev')}", stats.house_edge, None, "pct"),
        "rtp": (f"=1+{at('ev')}", stats.rtp, None, "pct"),
        "debited": ("", bet.debited, None, "number"),
        "rtp_debited": (
            f"=({at('debited')}+{at('ev')})/{at('debited')}",
            stats.rtp_debited,
            None,
            "pct",
        ),
        "hit_frequency": (
            f'=SUMIF({pays},">0",{ways})/{at("total")}',
            stats.hit_frequency,
            None,
            "pct",
        ),
        "push_probability": (
            f'=SUMIF({pays},"=0",{ways})/{at("total")}',
            stats.push_probability,
            None,
            "pct",
        ),
        "variance": (
            f"=SUMPRODUCT({pays},{pays},{ways})/{at('total')}-{at('ev')}^2",
            stats.variance,
            fraction_text(stats.variance) + sd_note,
            "probability",
        ),
        "sd": (
            f"=SQRT({at('variance')})",
            Fraction(stats.sd),
            f"≈ {stats.sd:.20f} (a square root: not a fraction)",
            "probability",
        ),
        "z": ("", Fraction(z), f"≈ {z} (normal quantile)", "number"),
        "volatility_index": (
            f"={at('z')}*{at('sd')}",
            Fraction(volatility_index(stats)),
            "≈ (z · SD)",
            "probability",
        ),
    }
    sheet.write_string(start, FIGURE_LABEL, "figure", formats["header"])
    sheet.write_string(start, FIGURE_VALUE, "value", formats["header"])
    sheet.write_string(start, FIGURE_EXACT, "exact", formats["header"])
    number_formats = {
        "ways": formats["ways_scientific"] if layout.split else formats["ways"],
        "probability": formats["probability"],
        "pct": formats["percent"],
        "number": formats["number"],
    }
    for key, label in FIGURES:
        formula, value, exact, kind = entries[key]
        row = rows[key]
        if key == "total" and layout.divisor > 1:
            label += f" ÷ {layout.divisor:,}"
        sheet.write_string(row, FIGURE_LABEL, label, formats["text"])
        fmt = number_formats[kind]
        if formula:
            sheet.write_formula(row, FIGURE_VALUE, formula, fmt, number(value))
        else:
            sheet.write_number(row, FIGURE_VALUE, number(value), fmt)
        exact = fraction_text(value) if exact is None else exact
        sheet.write_string(row, FIGURE_EXACT, cell_text(exact), formats["exact"])
    return rows


# ---------------------------------------------------------------------------
# Summary: every bet at a glance, each figure a reference to its bet's sheet

#: The Summary's figure columns: figure key, header, number format.
SUMMARY_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("ev", "EV", "probability"),
    ("house_edge", "house edge", "percent"),
    ("rtp", "RTP per stake", "percent"),
    ("rtp_debited", "RTP per debited", "percent"),
    ("hit_frequency", "hit frequency", "percent"),
    ("variance", "variance", "probability"),
    ("sd", "SD", "probability"),
    ("volatility_index", "VI (90%)", "probability"),
)
#: The figures whose exact fraction the Summary shows beside (attributes of the bet's stats).
SUMMARY_EXACT = ("ev", "house_edge", "rtp", "rtp_debited", "hit_frequency", "variance")


def _write_summary(
    sheet: Any, analysis: Analysis, bets: Sequence[BetSheet], formats: Formats
) -> None:
    sheet.write_string(0, 0, cell_text(f"PAR sheet: {analysis.title}"), formats["title"])
    facts = [
        ("Paytable", analysis.paytable),
        ("Paytable file SHA-256", analysis.file_sha256 or "(not one file as written)"),
        ("Options SHA-256", analysis.options_sha256 or ""),
        ("Shoe", analysis.shoe),
        ("Generated by", f"odds {__version__} (deterministic: the same inputs give this file)"),
    ]
    for i, (label, value) in enumerate(facts):
        sheet.write_string(1 + i, 0, label, formats["bold"])
        sheet.write_string(1 + i, 1, cell_text(value), formats["text"])
    note_row = 2 + len(facts)
    paragraph(
        sheet,
        note_row,
        "Every figure is a formula over the ways on the bet's own sheet (click a cell to see "
        "it); the exact values are the fractions at the right. EV and SD are per unit staked; "
        "hit frequency counts net wins only; RTP per debited divides by stake plus withholding.",
        1 + len(SUMMARY_COLUMNS),
        formats["note"],
        150,
    )
    header_row = note_row + 2
    headers = ["bet", "sheet", *(h for _, h, _ in SUMMARY_COLUMNS)]
    titles = {k: h for k, h, _ in SUMMARY_COLUMNS}
    headers += [f"{titles[k]} (exact)" for k in SUMMARY_EXACT]
    sheet.write_row(header_row, 0, headers, formats["header"])
    summary = {row["bet"]: row for row in summary_table(analysis).rows}
    for i, bet_sheet in enumerate(bets):
        row = header_row + 1 + i
        bet, stats = bet_sheet.bet, bet_sheet.bet.stats
        sheet.write_string(row, 0, cell_text(bet.title), formats["text"])
        sheet.write_url(
            row, 1, f"internal:{sheet_ref(bet_sheet.name, 0, 0)}", string=bet_sheet.name
        )
        cached = {
            "variance": stats.variance,
            **{k: summary[bet.title][k] for k, _, _ in SUMMARY_COLUMNS if k != "variance"},
        }
        for j, (key, _, fmt) in enumerate(SUMMARY_COLUMNS):
            sheet.write_formula(
                row, 2 + j, f"={bet_sheet.ref(key)}", formats[fmt], number(cached[key])
            )
        for j, key in enumerate(SUMMARY_EXACT):
            text = cell_text(fraction_text(getattr(stats, key)))
            sheet.write_string(row, 2 + len(SUMMARY_COLUMNS) + j, text, formats["exact"])
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, 1, 16)
    sheet.set_column(2, 1 + len(SUMMARY_COLUMNS), 15)
    sheet.set_column(2 + len(SUMMARY_COLUMNS), 1 + len(SUMMARY_COLUMNS) + len(SUMMARY_EXACT), 24)
    sheet.freeze_panes(header_row + 1, 1)
    sheet.activate()
