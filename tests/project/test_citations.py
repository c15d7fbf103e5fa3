"""Everything the code cites is in the repository: files named in docstrings and comments.

A docstring that sends the reader to ``docs/rules/baccarat.md`` or
``tests/games/baccarat/test_baccarat.py`` must name a file that exists (after a move, the
old name would otherwise stay behind, as a note to a file outside the repository once did).
"""

from __future__ import annotations

import re

import pytest

from tests.paths import ROOT

#: A repository path as code cites it: a top-level folder, then a file with an extension.
CITED = re.compile(r"(?<![\w./-])((?:docs|tests|odds|tables|reports)/[\w./-]*\.(?:md|py|toml|txt))")


#: File names that stand for any file in an example (a doctest of a link formatter).
PLACEHOLDERS = {"x.md"}


def citations() -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "odds").rglob("*.py")):
        text = path.read_text("utf-8")
        for match in CITED.finditer(text):
            found.append((path.relative_to(ROOT).as_posix(), match.group(1)))
    return found


def test_there_are_citations_to_check():
    assert len(citations()) > 20


@pytest.mark.parametrize(("source", "cited"), citations(), ids=lambda value: value)
def test_a_cited_file_exists(source, cited):
    if "*" in cited or "<" in cited or cited.rpartition("/")[2] in PLACEHOLDERS:
        return
    assert (ROOT / cited).exists(), f"{source} cites {cited}"
