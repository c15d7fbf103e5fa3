"""Cells of the Excel PAR sheet: addresses, counts past 15 digits, text limits, formats.

The pieces :mod:`odds.output.xlsx` and :mod:`odds.output.xlsx_tables` write every
cell with; no XlsxWriter import here (a workbook object is passed in).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any

#: The workbook's creation date: fixed, so the same inputs give the same bytes.
DOCUMENT_DATE = datetime(2000, 1, 1)
#: Excel shows (and reads back) 15 significant digits; counts from 10^15 up are rescaled.
EXCEL_DIGITS = 15
#: Digits of each part of a split count (sums of thousands of parts stay exact in a double).
PART_DIGITS = 12
#: The most characters Excel keeps in a cell.
EXCEL_CELL_LIMIT = 32_767
#: The decimals shown for probabilities and returns (the exact value is beside).
SHOWN_PLACES = 12


# ---------------------------------------------------------------------------
# Counts beyond Excel's 15 digits


@dataclass(frozen=True)
class WaysLayout:
    """How one table's counts are written so that no digit is lost.

    ``divisor`` divides every count of the table (their greatest common
    divisor, when dividing brings them under 10^15; 1 otherwise); ``parts``
    is how many :data:`PART_DIGITS`-digit parts each divided count is split
    into (1: not split). The exact count is always written beside as text.
    """

    divisor: int = 1
    parts: int = 1

    @classmethod
    def of(cls, counts: Sequence[int]) -> WaysLayout:
        counts = [c for c in counts if c]
        if not counts or max(counts) < 10**EXCEL_DIGITS:
            return cls()
        divisor = math.gcd(*counts)
        largest = max(counts) // divisor
        if largest < 10**EXCEL_DIGITS:
            return cls(divisor, 1)
        parts = -(-len(str(largest)) // PART_DIGITS)
        return cls(divisor, parts)

    @property
    def split(self) -> bool:
        return self.parts > 1

    def scaled(self, ways: int) -> int:
        """The count as the ``ways`` column holds it (divided by :attr:`divisor`)."""
        if ways % self.divisor:
            raise AssertionError(f"{ways} is not a multiple of the table's divisor {self.divisor}")
        return ways // self.divisor

    def part_values(self, ways: int) -> list[int]:
        """The divided count's parts, most significant first (each under 10^PART_DIGITS)."""
        value = self.scaled(ways)
        base = 10**PART_DIGITS
        parts = []
        for _ in range(self.parts):
            value, low = divmod(value, base)
            parts.append(low)
        if value:
            raise AssertionError("a count has more parts than its table's layout")
        return parts[::-1]

    def part_headers(self, name: str) -> list[str]:
        """``ways part 1 (× 10^24)`` … ``ways part 3 (× 1)``."""
        headers = []
        for i in range(self.parts):
            power = PART_DIGITS * (self.parts - 1 - i)
            scale = "1" if power == 0 else f"10^{power}"
            headers.append(f"{name} part {i + 1} (× {scale})")
        return headers

    def note(self, name: str = "ways") -> str:
        """What the sheet says about its ``ways`` column ("" when written as they are)."""
        if self.divisor == 1 and not self.split:
            return ""
        text = [f"The {name} reach 10^{EXCEL_DIGITS}, past the 15 significant digits Excel keeps."]
        if self.divisor > 1:
            text.append(
                f"Every count in the {name} column is divided by {self.divisor:,}, the greatest "
                "common divisor of the table's counts (probabilities and returns are unchanged)."
            )
        if self.split:
            text.append(
                f"Each count is split into {self.parts} parts of {PART_DIGITS} digits (at the "
                f"right of the table); the {name} column adds them up (to Excel's precision)."
            )
        text.append(f"The exact count is the text in the '{name} (exact)' column.")
        return " ".join(text)


# ---------------------------------------------------------------------------
# Cell addresses


def cell(row: int, col: int, absolute: bool = False) -> str:
    """``C7`` (``$C$7`` absolute) for 0-based ``row``, ``col``."""
    letters = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    if absolute:
        return f"${letters}${row + 1}"
    return f"{letters}{row + 1}"


def sheet_ref(sheet: str, row: int, col: int) -> str:
    """``'player-pair'!$E$12``: a cell of another sheet, always quoted."""
    return "'" + sheet.replace("'", "''") + "'!" + cell(row, col, absolute=True)


def sheet_name(wanted: str, taken: set[str]) -> str:
    """A valid, unique sheet name (at most 31 characters, none of ``[]:*?/\\``)."""
    name = "".join("_" if c in "[]:*?/\\" else c for c in wanted).strip("'") or "Sheet"
    name = name[:31]
    candidate, n = name, 2
    while candidate.lower() in {t.lower() for t in taken}:
        suffix = f" ({n})"
        candidate = name[: 31 - len(suffix)] + suffix
        n += 1
    taken.add(candidate)
    return candidate


def number(value: Any) -> float | int:
    """A cell's number: an int as it is (exact below 2^53), an exact fraction's nearest double."""
    if isinstance(value, int):
        return value
    return float(Fraction(value))


def cell_text(value: str) -> str:
    """Text within Excel's cell limit (a longer exact number is cut, and says so)."""
    if len(value) <= EXCEL_CELL_LIMIT:
        return value
    mark = " … (cut: the exact value is in --format json)"
    return value[: EXCEL_CELL_LIMIT - len(mark)] + mark


def paragraph(sheet: Any, row: int, text: str, last_col: int, fmt: Any, width: int) -> None:
    """A paragraph across columns 0…``last_col`` (merged, wrapped; ``width``: its characters
    per line, for the row's height)."""
    text = cell_text(text)
    if last_col > 0:  # merged blank, then the text written as a string (never a formula)
        sheet.merge_range(row, 0, row, last_col, "", fmt)
    sheet.write_string(row, 0, text, fmt)
    lines = max(1, -(-len(text) // max(20, width)))
    if lines > 1:
        sheet.set_row(row, 15 * lines)


# ---------------------------------------------------------------------------
# The workbook


@dataclass
class Formats:
    """The workbook's cell formats, made once."""

    book: Any
    made: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Any:
        if name not in self.made:
            self.made[name] = self.book.add_format(FORMATS[name])
        return self.made[name]


FORMATS: dict[str, dict[str, Any]] = {
    "title": {"bold": True, "font_size": 14},
    "bold": {"bold": True},
    "header": {"bold": True, "bottom": 1, "text_wrap": True, "valign": "top"},
    "wrap": {"text_wrap": True, "valign": "top"},
    "note": {"italic": True, "text_wrap": True, "valign": "top"},
    "text": {"valign": "top"},
    "exact": {"font_name": "Consolas", "valign": "top", "indent": 1},
    "ways": {"num_format": "#,##0"},
    "ways_total": {"num_format": "#,##0", "bold": True, "top": 1},
    # A split count recombined: past 15 digits, shown in scientific notation (exact beside).
    "ways_scientific": {"num_format": "0.000000000E+00"},
    "ways_scientific_total": {"num_format": "0.000000000E+00", "bold": True, "top": 1},
    "probability": {"num_format": "0." + "0" * SHOWN_PLACES},
    "probability_total": {"num_format": "0." + "0" * SHOWN_PLACES, "bold": True, "top": 1},
    "percent": {"num_format": "0.0000%"},
    "number": {"num_format": "General"},
    "total_label": {"bold": True, "top": 1},
    "total_blank": {"top": 1},
}
