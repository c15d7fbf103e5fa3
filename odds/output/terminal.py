"""Markdown fitted to a terminal's width: what a command shows when standard output is a terminal.

A pipe or ``--output`` gets the full Markdown, byte for byte (reports are
deterministic; ``odds reports --check`` compares them); a person at a
terminal gets the same document laid out for the window, as rich and ``gh``
do, with every figure kept whole:

* a table that fits is printed as it is;
* a wider one wraps its text cells and headers at spaces (numbers are never
  wrapped, and a text column is never narrower than the longest figure in
  it), and when that is not enough its columns are split into several tables
  of the same rows, the first column repeated in each (as pandas prints a wide
  frame);
* a paragraph, heading or list item wider than the window is wrapped at
  spaces, a list item's continuation indented under its text;
* a word wider than the window (a long path, a digest) is cut, as a terminal
  would cut it, so that no line is wider than the window.

Widths are display columns: an East Asian wide character (a mahjong tile)
takes two, a combining mark none.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

#: The narrowest window the layout is made for (a narrower one gets this width).
NARROWEST = 40
#: A text column is never wrapped narrower than this (unless its widest cell is narrower).
TEXT_COLUMN = 10
#: A word wider than this (a header's, a name in a cell) may be cut rather than widen its column.
LONG_WORD = 24
#: The first column names the rows (and is repeated in every part of a split table): it is
#: given at least this width when its text is that wide.
FIRST_COLUMN = 16

_SEPARATOR = re.compile(r"^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_PIPE = re.compile(r"(?<!\\)\|")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LIST_ITEM = re.compile(r"^(\s*(?:[-*+]|\d{1,9}[.)])\s+)")
_FIGURE = re.compile(r"\d")


def width_of(text: str) -> int:
    """Display columns of ``text``: 2 for a wide character, 0 for a combining mark or an
    invisible format character (a zero-width space), 1 for any other; the standard library's
    Unicode tables, so every installation measures alike.

    >>> width_of("abc"), width_of("🀄x"), width_of("e\\u0301"), width_of("a\\u200bb")
    (3, 3, 1, 2)
    """
    if text.isascii():
        return len(text)
    return sum(_char_width(ch) for ch in text)


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch) or (unicodedata.category(ch) == "Cf" and ch != "\u00ad"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def fit_markdown(text: str, width: int) -> str:
    """``text`` (Markdown) laid out for a window ``width`` columns wide."""
    width = max(width, NARROWEST)
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            in_fence = not in_fence
            out += _cut(line, width)
            i += 1
            continue
        if in_fence:
            out += _cut(line, width)
            i += 1
            continue
        end = table_end(lines, i)
        if end > i:
            block = lines[i:end]
            out += block if max(width_of(b) for b in block) <= width else _fit_table(block, width)
            i = end
            continue
        out += _fit_line(line, width)
        i += 1
    return "\n".join(out)


# ---------------------------------------------------------------------------
# Lines of text


def _fit_line(line: str, width: int) -> list[str]:
    """A paragraph line, heading or list item wrapped at spaces (continuations indented)."""
    if width_of(line) <= width:
        return [line]
    marker = _LIST_ITEM.match(line)
    indent = " " * width_of(marker.group(1)) if marker else ""
    lead = len(line) - len(line.lstrip(" "))
    indent = indent or " " * min(lead, width // 2)
    first, *rest = wrap(line.rstrip(), width, len(indent))
    return [first, *(indent + part for part in rest)]


def wrap(text: str, width: int, indent: int = 0) -> list[str]:
    """``text`` in lines of at most ``width`` columns (later lines ``indent`` narrower).

    Breaks at spaces; a word wider than a line is cut.

    >>> wrap("the quick brown fox jumps", 10)
    ['the quick', 'brown fox', 'jumps']
    >>> wrap("abcdefghijkl", 5)
    ['abcde', 'fghij', 'kl']
    """
    lines: list[str] = []
    current = ""
    room = width
    for word in text.split(" "):
        if not word and current:
            continue  # runs of spaces between words collapse where a line breaks anyway
        candidate = f"{current} {word}" if current else word
        if width_of(candidate) <= room:
            current = candidate
            continue
        if current:
            lines.append(current)
            room = max(1, width - indent)
        while width_of(word) > room:
            head, word = _split_at(word, room)
            lines.append(head)
            room = max(1, width - indent)
        current = word
    if current or not lines:
        lines.append(current)
    return lines


def _split_at(word: str, room: int) -> tuple[str, str]:
    """The longest head of ``word`` that fits ``room`` columns (at least one character)."""
    used = 0
    for k, ch in enumerate(word):
        used += _char_width(ch)
        if used > room:
            return word[: max(1, k)], word[max(1, k) :]
    return word, ""


def _cut(line: str, width: int) -> list[str]:
    """A line of code cut into pieces of ``width`` columns (code is never reflowed)."""
    pieces = []
    while width_of(line) > width:
        head, line = _split_at(line, width)
        pieces.append(head)
    return [*pieces, line]


# ---------------------------------------------------------------------------
# Tables


@dataclass(frozen=True)
class _Column:
    header: str
    cells: tuple[str, ...]
    right: bool
    first: bool = False

    @property
    def natural(self) -> int:
        return max([width_of(self.header), *(width_of(c) for c in self.cells)])

    @property
    def least(self) -> int:
        """The narrowest this column is laid out: figures and numbers never wrap."""
        header_word = min(LONG_WORD, _longest_word(self.header))
        if self.right:
            return max([header_word, *(width_of(c) for c in self.cells)])
        words = min(LONG_WORD, max([0, *(_longest_word(c) for c in self.cells)]))
        figures = [width_of(w) for c in self.cells for w in c.split(" ") if _FIGURE.search(w)]
        least = max([TEXT_COLUMN, header_word, words, *figures])
        if self.first:
            least = max(least, FIRST_COLUMN)
        return min(self.natural, least)


def _longest_word(text: str) -> int:
    return max([0, *(width_of(w) for w in text.split(" "))])


def table_cells(line: str) -> list[str]:
    """The cells of a pipe-table row (``\\|`` inside a cell is not a border)."""
    body = line.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return [cell.strip() for cell in _PIPE.split(body)]


def table_end(lines: Sequence[str], i: int) -> int:
    """Where the pipe table starting at line ``i`` ends (``i``: no table starts there)."""
    if not (lines[i].startswith("|") and i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1])):
        return i
    end = i + 2
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return end


def alignments(separator: str) -> list[str]:
    """Each column's alignment (left, right, center) as a table's separator row marks it."""
    return [
        "center"
        if c.startswith(":") and c.endswith(":")
        else "right"
        if c.endswith(":")
        else "left"
        for c in table_cells(separator)
    ]


def _fit_table(block: Sequence[str], width: int) -> list[str]:
    """A pipe table too wide for the window: wrapped, then split into parts if it must be."""
    headers = table_cells(block[0])
    rights = [a == "right" for a in alignments(block[1])]
    rows = [table_cells(line) for line in block[2:]]
    n = len(headers)
    rights = (rights + [False] * n)[:n]
    columns = [
        _Column(headers[j], tuple((r + [""] * n)[j] for r in rows), rights[j], first=j == 0)
        for j in range(n)
    ]
    out: list[str] = []
    for part in _parts(columns, width):
        if out:
            out.append("")
        out += _render([columns[j] for j in part], width)
    return out


def _span(widths: Sequence[int]) -> int:
    """A table's width: ``| a | b |`` is the cells plus three columns each, plus one."""
    return sum(widths) + 3 * len(widths) + 1


def _parts(columns: Sequence[_Column], width: int) -> Iterator[list[int]]:
    """The columns in groups that fit, each group led by the first column (the rows' names)."""
    part = [0]
    for j in range(1, len(columns)):
        if len(part) > 1 and _span([columns[k].least for k in [*part, j]]) > width:
            yield part
            part = [0]
        part.append(j)
    yield part


def _widths(columns: Sequence[_Column], width: int) -> list[int]:
    """Each column's width: its least, then the room left shared out up to its natural width."""
    widths = [c.least for c in columns]
    room = width - _span(widths)
    growing = sorted(range(len(columns)), key=lambda j: columns[j].natural - widths[j])
    for count, j in enumerate(growing):
        share = max(0, room) // (len(growing) - count)
        extra = min(columns[j].natural - widths[j], share)
        widths[j] += extra
        room -= extra
    return widths


def _render(columns: Sequence[_Column], width: int) -> list[str]:
    widths = _widths(columns, width)
    if _span(widths) > width:  # one column wider than the window even at its least: records
        return _records(columns, width)
    lines = _row([c.header for c in columns], columns, widths)
    rule = [
        ("-" * (w + 1) + ":") if c.right else (":" + "-" * (w + 1))
        for c, w in zip(columns, widths, strict=True)
    ]
    lines.append("|" + "|".join(rule) + "|")
    for i in range(len(columns[0].cells)):
        lines += _row([c.cells[i] for c in columns], columns, widths)
    return lines


def _row(cells: Sequence[str], columns: Sequence[_Column], widths: Sequence[int]) -> list[str]:
    """One table row, on as many lines as its tallest wrapped cell."""
    wrapped = [wrap(cell, w) for cell, w in zip(cells, widths, strict=True)]
    height = max(len(w) for w in wrapped)
    lines = []
    for k in range(height):
        parts = []
        for column, w, text in zip(columns, widths, wrapped, strict=True):
            piece = text[k] if k < len(text) else ""
            pad = " " * (w - width_of(piece))
            parts.append(f" {pad}{piece} " if column.right else f" {piece}{pad} ")
        lines.append("|" + "|".join(parts) + "|")
    return lines


def _records(columns: Sequence[_Column], width: int) -> list[str]:
    """Rows as blocks of ``header: value`` lines (a table no window this wide can show)."""
    out: list[str] = []
    for i in range(len(columns[0].cells)):
        if out:
            out.append("")
        for column in columns:
            first, *rest = wrap(f"{column.header}: {column.cells[i]}", width, 2)
            out += [first, *("  " + part for part in rest)]
    return out
