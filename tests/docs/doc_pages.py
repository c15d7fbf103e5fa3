"""The documentation's Markdown pages and their fenced blocks, for the tests that hold them true.

The pages are the README (the front page) and every ``docs/**/*.md`` page of the site; what one
test checks on the README it checks on all of them, so nothing shown goes unchecked when text
moves from one page to another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from tests.paths import ROOT


def pages() -> list[Path]:
    """README.md, then every Markdown page under docs/, in path order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


@dataclass(frozen=True)
class Block:
    """A fenced block: its page, info string (``text``, ``sh``, "" …), text and the paragraph
    before it (what introduces it)."""

    page: Path
    line: int
    info: str
    text: str
    intro: str

    @property
    def where(self) -> str:
        return f"{page_id(self.page)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """Every fenced block of a page, in order."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    prose: list[str] = []
    inside: tuple[int, str, list[str]] | None = None
    for number, line in enumerate(lines, 1):
        if inside is None:
            if line.startswith("```"):
                intro = "\n".join(prose).rstrip().rsplit("\n\n", 1)[-1].strip()
                inside = (number, line[3:].strip(), [])
                prose.append(f"(block {number})")
            else:
                prose.append(line)
        elif line.startswith("```"):
            start, info, body = inside
            found.append(Block(page, start, info, "\n".join(body) + "\n", intro))
            inside = None
        else:
            inside[2].append(line)
    return found


def all_blocks() -> list[Block]:
    return [block for page in pages() for block in blocks(page)]


#: ``## Heading`` lines (outside code), as (level, title).
HEADING = re.compile(r"^(#{1,6}) (.+)$")


def headings(page: Path) -> list[tuple[int, str]]:
    """A page's headings outside fenced blocks."""
    found, fenced = [], False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (match := HEADING.match(line)):
            found.append((len(match.group(1)), match.group(2).strip()))
    return found


def github_slug(title: str) -> str:
    """A heading's anchor as GitHub makes it: ``The 8/9 override`` → ``the-89-override``."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


def section(page: Path, title_start: str) -> str:
    """The text of the section whose heading starts with ``title_start``, up to the next heading
    of the same or a higher level."""
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    out: list[str] = []
    level = None
    fenced = False
    for line in lines:
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else HEADING.match(line.rstrip("\n"))
        if level is None:
            if match and match.group(2).startswith(title_start):
                level = len(match.group(1))
                out.append(line)
        elif match and len(match.group(1)) <= level:
            break
        else:
            out.append(line)
    return "".join(out)
