"""The Markdown pipe tables are tabulate's, byte for byte, without importing tabulate.

:func:`odds.output.markdown.markdown_table` writes the pipe table itself (importing
tabulate cost every report about 0.03 s of CPU); these tests compare it with tabulate on
generated tables: wide (CJK) and zero-width characters, padding, every alignment, cells
shorter and longer than their header.
"""

from __future__ import annotations

import random

import pytest

from odds.output import markdown
from odds.output.markdown import markdown_table

tabulate = pytest.importorskip("tabulate").tabulate

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
    """No row, or a ragged one: tabulate writes them, as before."""
    assert markdown._pipe_table(["a", "b"], [], ["left", "right"]) is None
    assert markdown._pipe_table(["a", "b"], [["1"]], ["left", "right"]) is None
    assert markdown_table(("a", "b"), [], 6) == _tabulated(["a", "b"], [], ["left", "left"])


def test_markdown_table_with_numbers_and_user_text_is_tabulates() -> None:
    rows = [("win | 漢字", 1200), ("  loss  ", 3), ("≈ tie", -5)]
    cells = [[markdown._table_text(markdown._cell(v, 6)) for v in row] for row in rows]
    assert markdown_table(("event", "ways"), rows, 6) == _tabulated(
        ["event", "ways"], cells, ["left", "right"]
    )
