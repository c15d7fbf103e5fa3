"""The Markdown pipe tables are tabulate's, byte for byte, without importing tabulate.

:func:`odds.output.markdown.markdown_table` writes the pipe table itself (importing
tabulate cost every report about 0.03 s of CPU); these tests compare it with tabulate on
generated tables: wide (CJK) and zero-width characters, padding, every alignment, cells
shorter and longer than their header.

Widths are measured by the standard library (:func:`odds.output.terminal.width_of`), not by
``wcwidth``, which tabulate uses only where it is installed: a report must be the same bytes
everywhere. So tabulate is compared here measuring with that same function, and a test checks
that the output does not change when ``wcwidth`` is importable.
"""

from __future__ import annotations

import random

import pytest

from odds.output import markdown
from odds.output.markdown import markdown_table
from odds.output.terminal import width_of

tabulate_module = pytest.importorskip("tabulate")
tabulate = tabulate_module.tabulate


class _StandardWidths:
    """Stands in for ``wcwidth`` inside tabulate: the width function the writer uses."""

    @staticmethod
    def wcswidth(text: str) -> int:
        return width_of(text)


@pytest.fixture(autouse=True)
def _tabulate_measures_as_we_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tabulate_module, "wcwidth", _StandardWidths, raising=False)
    monkeypatch.setattr(tabulate_module, "WIDE_CHARS_MODE", True, raising=False)


#: Characters of every width class: ASCII, accented, wide, zero-width, combining, signs.
ALPHABET = "ab Z09,.-−%≈±√ éÅ漢字テスト\u200b\u0301\u00a0 |*_<>`"


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 9)))


def _tabulated(headers: list[str], rows: list[list[str]], align: list[str]) -> str:
    return str(
        tabulate(rows, headers=headers, tablefmt="pipe", colalign=align, disable_numparse=True)
    )


@pytest.mark.parametrize("seed", range(300))
def test_a_generated_table_is_tabulates(seed: int) -> None:
    rng = random.Random(seed)
    columns = rng.randint(1, 5)
    headers = [_text(rng) for _ in range(columns)]
    rows = [[_text(rng) for _ in range(columns)] for _ in range(rng.randint(1, 6))]
    align = [rng.choice(("left", "right", "center")) for _ in range(columns)]
    written = markdown._pipe_table(headers, rows, align)
    assert written == _tabulated(headers, rows, align)


def test_the_tables_it_leaves_to_tabulate_are_tabulates() -> None:
    """A ragged row: tabulate writes the table, as before. A table with no row is written
    here, as tabulate writes it."""
    assert markdown._pipe_table(["a", "b"], [["1"]], ["left", "right"]) is None
    for headers in (["a", "b"], ["漢字", "e\u0301x"]):
        assert markdown_table(headers, [], 6) == _tabulated(headers, [], ["left", "left"])
        assert markdown._pipe_table(headers, [], ["left", "right"]) == _tabulated(
            headers, [], ["left", "right"]
        )


def test_the_table_is_the_same_whether_wcwidth_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A report is the same bytes wherever it is made: a ``wcwidth`` module that measures
    every character as ten columns changes nothing."""
    import sys
    import types

    rows = [("漢字テスト", 1200), ("e\u0301\u200b", 3)]
    before = markdown_table(("event", "ways"), rows, 6)
    fake = types.ModuleType("wcwidth")
    fake.wcswidth = lambda text, n=None: 10 * len(text)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "wcwidth", fake)
    assert markdown_table(("event", "ways"), rows, 6) == before
    assert "| 漢字テスト |  1,200 |" in before


def test_markdown_table_with_numbers_and_user_text_is_tabulates() -> None:
    rows = [("win | 漢字", 1200), ("  loss  ", 3), ("≈ tie", -5)]
    cells = [[markdown._table_text(markdown._cell(v, 6)) for v in row] for row in rows]
    assert markdown_table(("event", "ways"), rows, 6) == _tabulated(
        ["event", "ways"], cells, ["left", "right"]
    )
