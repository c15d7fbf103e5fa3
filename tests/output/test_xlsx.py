"""The Excel PAR sheet: every formula recalculated by an independent engine equals the exact value.

pycel (a formula engine of its own, reading the file through openpyxl) evaluates
every formula of the workbook from the ways cells; each figure is compared with
the exact value the analysis computed (``Fraction``), to 1e-12. The layout is
found by reading the sheets (header texts, the "Total" row, figure labels), not
from the renderer's constants, so a misplaced reference fails here.
"""

from __future__ import annotations

import io
import math
import zipfile
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from odds.games.paytable import load, table_files
from odds.output.xlsx import to_xlsx
from odds.output.xlsx_cells import PART_DIGITS, WaysLayout

pytest.importorskip("xlsxwriter")
pycel = pytest.importorskip("pycel")
openpyxl = pytest.importorskip("openpyxl")

TOLERANCE = 1e-12
#: Blackjack is here for its counts of 30 digits and more, which the sheets split into parts:
#: its infinite-shoe report (``--decks infinite``, 47 digits, 2 CPU-s) rather than the finite
#: one (89 digits, 4 CPU-s). The workbook is written from the analysis alone: the same
#: coded report, sheets and split layout.
INFINITE = {"blackjack"}


def close(value: object, exact: Fraction | Decimal) -> bool:
    """``value`` (a double from the engine) equals ``exact`` to 1e-12 (relative past 1)."""
    exact = Fraction(exact)
    return abs(Fraction(float(value)) - exact) <= TOLERANCE * max(1, abs(exact))  # type: ignore[arg-type]


class Workbook:
    """A written workbook, read back with openpyxl (layout) and evaluated with pycel."""

    def __init__(self, path: Path) -> None:
        from pycel import ExcelCompiler

        self.book = openpyxl.load_workbook(path)
        self.engine = ExcelCompiler(filename=str(path))
        # pycel starts from the values the file caches beside its formulas (the renderer's
        # own floats) and answers those; recalculate() computes only the cells it has read.
        # Every formula read, then every one computed, so that a wrong formula fails
        # (measured: split ways recombined at reversed powers passed before).
        for sheet, where in self.formulas():
            self.value(sheet, where)
        self.engine.recalculate()

    def value(self, sheet: str, coordinate: str) -> object:
        return self.engine.evaluate(f"'{sheet}'!{coordinate}")

    def formulas(self) -> list[tuple[str, str]]:
        found = []
        for ws in self.book.worksheets:
            for row in ws.iter_rows():
                for c in row:
                    if isinstance(c.value, str) and c.value.startswith("="):
                        found.append((ws.title, c.coordinate))
        return found

    def find(self, sheet: str, text: str, column: int | None = None) -> tuple[int, int]:
        """The (row, column), 1-based, of the first cell holding exactly ``text``."""
        for row in self.book[sheet].iter_rows():
            for c in row:
                if c.value == text and (column is None or c.column == column):
                    return c.row, c.column
        raise AssertionError(f"{sheet}: no cell {text!r}")

    def header(self, sheet: str, row: int) -> dict[str, int]:
        return {c.value: c.column for c in self.book[sheet][row] if isinstance(c.value, str)}


def coordinate(row: int, column: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(column)}{row}"


#: One paytable per kind of report: blackjack (coded), a tableau, seats with a whole table,
#: a showdown with stakes withheld, tiles, one card each, a side bet on a base. The workbook is
#: written from the analysis alone, so the other paytables add time and no new path.
WORKBOOK_TABLES = ("blackjack", "baccarat", "pok-deng", "goa-gae-bonus", "mahjong-28",
                   "dragon-tiger", "lucky-6")  # fmt: skip


def workbook_tables() -> list[Path]:
    return [p for p in table_files() if p.stem in WORKBOOK_TABLES]


@pytest.fixture(scope="module")
def workbooks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, Workbook]]:
    """Every paytable's analysis and its workbook (built once for the module)."""
    folder = tmp_path_factory.mktemp("xlsx")
    found = {}
    for path in workbook_tables():
        paytable = load(str(path))
        infinite = path.stem in INFINITE
        analysis = paytable.infinite_analysis() if infinite else paytable.analysis()
        command = f"odds report {path.stem}{' --decks infinite' * infinite} --format xlsx"
        target = folder / f"{path.stem}.xlsx"
        data = to_xlsx(analysis, command)
        # Deterministic for every paytable: a second rendering is byte-identical.
        assert to_xlsx(analysis, command) == data, path.stem
        target.write_bytes(data)
        found[path.stem] = (analysis, Workbook(target))
    return found


def stems() -> list[str]:
    return [p.stem for p in workbook_tables()]


@pytest.mark.parametrize("stem", stems())
def test_every_formula_recalculates_to_the_exact_value(workbooks, stem: str):
    analysis, book = workbooks[stem]
    for sheet, where in book.formulas():
        value = book.value(sheet, where)
        assert isinstance(value, int | float) and math.isfinite(value), (sheet, where, value)
    summary_header_row, _ = book.find("Summary", "bet", column=1)
    summary = book.header("Summary", summary_header_row)
    for i, bet in enumerate(analysis.bets):
        _check_bet_sheet(book, bet)
        row = summary_header_row + 1 + i
        assert book.book["Summary"].cell(row, 1).value == bet.title
        s = bet.stats
        expected = {
            "EV": s.ev,
            "house edge": s.house_edge,
            "RTP per stake": s.rtp,
            "RTP per debited": s.rtp_debited,
            "hit frequency": s.hit_frequency,
            "variance": s.variance,
            "SD": s.sd,
            "VI (90%)": Decimal("1.6448536269514722") * s.sd,
        }
        for header, exact in expected.items():
            got = book.value("Summary", coordinate(row, summary[header]))
            assert close(got, exact), (stem, bet.name, header, got, float(exact))
        # The exact fractions beside are the analysis's own.
        assert book.book["Summary"].cell(row, summary["EV (exact)"]).value == str(s.ev)


def _check_bet_sheet(book: Workbook, bet) -> None:
    sheet = bet.name
    header_row, _ = book.find(sheet, "event", column=1)
    columns = book.header(sheet, header_row)
    ways_header = next(h for h in columns if h.startswith("ways") and "exact" not in h)
    divisor = int(ways_header.split("÷")[1].replace(",", "")) if "÷" in ways_header else 1
    parts = sorted((h for h in columns if " part " in h), key=columns.get)
    total_ways = bet.stats.total
    ws = book.book[sheet]
    for i, outcome in enumerate(bet.outcomes):
        row = header_row + 1 + i
        assert ws.cell(row, 1).value == outcome.event
        p = Fraction(outcome.ways, total_ways)
        # The ways as written lose no digit: the number itself, or its parts, times the divisor.
        if parts:
            value = 0
            for header in parts:
                part = ws.cell(row, columns[header]).value
                assert isinstance(part, int) and 0 <= part < 10**PART_DIGITS
                value = value * 10**PART_DIGITS + part
            assert value * divisor == outcome.ways
        else:
            written = ws.cell(row, columns[ways_header]).value
            assert isinstance(written, int) and written < 10**15
            assert written * divisor == outcome.ways
        assert ws.cell(row, columns["ways (exact)"]).value == str(outcome.ways)
        assert ws.cell(row, columns["probability (exact)"]).value == str(p)
        probability = book.value(sheet, coordinate(row, columns["probability"]))
        assert close(probability, p), (sheet, outcome.event)
        returned = book.value(sheet, coordinate(row, columns["return"]))
        assert close(returned, p * outcome.net), (sheet, outcome.event)
    total_row = header_row + 1 + len(bet.outcomes)
    assert ws.cell(total_row, 1).value == "Total"
    assert close(book.value(sheet, coordinate(total_row, columns["probability"])), Fraction(1))
    assert close(book.value(sheet, coordinate(total_row, columns["return"])), bet.stats.ev)
    got = book.value(sheet, coordinate(total_row, columns[ways_header]))
    assert close(got, Fraction(total_ways, divisor))
    figure_row, value_column = book.find(sheet, "figure", column=1)[0], None
    figure_header = book.header(sheet, figure_row)
    value_column = figure_header["value"]
    s = bet.stats
    expected = {
        "EV per unit staked": s.ev,
        "house edge": s.house_edge,
        "RTP per unit staked": s.rtp,
        "RTP per unit debited": s.rtp_debited,
        "hit frequency (net wins)": s.hit_frequency,
        "push probability": s.push_probability,
        "variance per unit staked": s.variance,
        "SD per unit staked": s.sd,
    }
    for label, exact in expected.items():
        row, _ = book.find(sheet, label, column=1)
        got = book.value(sheet, coordinate(row, value_column))
        assert close(got, exact), (sheet, label, got, float(exact))


def test_the_engine_recalculates_rather_than_reading_cached_values(workbooks):
    """Changing a ways cell moves the EV as the exact arithmetic says (the test can fail)."""
    analysis, book = workbooks["dragon-tiger"]
    bet = analysis.bet("tie")
    header_row, _ = book.find("tie", "event", column=1)
    columns = book.header("tie", header_row)
    win = next(i for i, o in enumerate(bet.outcomes) if o.net > 0)
    address = f"'tie'!{coordinate(header_row + 1 + win, columns['ways'])}"
    ways = [o.ways for o in bet.outcomes]
    ways[win] += 1000
    book.engine.set_value(address, ways[win])
    summary_row, _ = book.find("Summary", "Tie", column=1)
    ev_column = book.header("Summary", book.find("Summary", "bet", column=1)[0])["EV"]
    got = book.engine.evaluate(f"'Summary'!{coordinate(summary_row, ev_column)}")
    changed = Fraction(sum(o.net * w for o, w in zip(bet.outcomes, ways, strict=True)), sum(ways))
    assert close(got, changed) and not close(got, bet.stats.ev)


def test_counts_past_15_digits_are_divided_or_split_and_the_sheet_says_so(workbooks):
    """Baccarat's 16-digit counts are divided by their common factor; blackjack's
    47-digit ones (infinite shoe) split into parts; each sheet says which."""
    analysis, book = workbooks["baccarat"]
    banker = analysis.bet("banker")
    layout = WaysLayout.of([o.ways for o in banker.outcomes] + [banker.stats.total])
    assert layout.divisor > 1 and not layout.split
    notes = [c.value for row in book.book["banker"].iter_rows(max_row=5) for c in row if c.value]
    assert any("greatest common divisor" in str(n) for n in notes)
    analysis, book = workbooks["blackjack"]
    main = analysis.bets[0]
    assert len(str(main.stats.total)) > 30
    notes = [c.value for row in book.book[main.name].iter_rows(max_row=5) for c in row if c.value]
    assert any("split into" in str(n) for n in notes)
    # A game table of 19-digit counts (baccarat's final totals) keeps every digit too.
    _, book = workbooks["baccarat"]
    sheet = book.book["T final_totals"]
    texts = [c.value for row in sheet.iter_rows() for c in row if isinstance(c.value, str)]
    assert "4998398275503360" in texts
    numbers = [c.value for row in sheet.iter_rows() for c in row if isinstance(c.value, int)]
    assert numbers and max(numbers) < 10**15


def test_split_layout_round_trips():
    layout = WaysLayout.of([10**40 + 7, 3 * 10**30])
    assert layout.split and layout.divisor == 1
    parts = layout.part_values(10**40 + 7)
    assert sum(p * 10 ** (PART_DIGITS * i) for i, p in enumerate(reversed(parts))) == 10**40 + 7
    assert WaysLayout.of([2 * 10**20, 4 * 10**20]) == WaysLayout(2 * 10**20, 1)
    assert WaysLayout.of([5, 7]) == WaysLayout()


def test_the_same_inputs_give_byte_identical_workbooks():
    analysis = load("mahjong-28").analysis()
    first = to_xlsx(analysis, "odds report mahjong-28 --format xlsx")
    again = to_xlsx(load("mahjong-28").analysis(), "odds report mahjong-28 --format xlsx")
    assert first == again
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        core = archive.read("docProps/core.xml").decode()
    assert "2000-01-01T00:00:00Z" in core


def test_the_rules_sheet_states_every_option_and_the_command(workbooks):
    analysis, book = workbooks["pok-deng"]
    sheet = book.book["Rules and readings"]
    texts = {c.value for row in sheet.iter_rows() for c in row if isinstance(c.value, str)}
    assert {r.key for r in analysis.rules} <= texts
    assert "odds report pok-deng --format xlsx" in texts
    assert analysis.file_sha256 in texts
