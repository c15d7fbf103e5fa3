"""The rules pages in docs/rules/: complete, cited correctly, and true.

The project carries its own rule text. These tests hold it to that: every game
has a page naming every option its paytable declares; every citation of a page
section in the project names a section that exists; the pages' links resolve;
every worked example on a page is settled by the tool exactly as the page says;
and nothing cites a rule text outside the repository.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from odds.core.options import describe
from odds.games import GAMES
from tests.docs import doc_pages
from tests.paths import ROOT

DOCS = ROOT / "docs" / "rules"
PAGES = sorted(DOCS.glob("*.md"))

#: ``docs/rules/pok-deng.md §Hand order``: a page, then a section title.
CITATION = re.compile(r"docs/rules/([a-z0-9-]+\.md) §")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def project_files() -> list[Path]:
    """Every text a user of the repository reads: code, tests, paytables, reports, docs."""
    found = [ROOT / "README.md", ROOT / "CHANGELOG.md"]
    for top in ("odds", "tests", "tables", "reports", "docs"):
        found += sorted(p for p in (ROOT / top).rglob("*") if p.suffix in {".py", ".md", ".toml"})
    return found


def headings(page: Path) -> list[str]:
    """The page's section titles (``#`` to ``###``)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    return [line.lstrip("#").strip() for line in lines if re.match(r"#{1,3} ", line)]


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it: ``The 8/9 override`` → ``the-89-override``."""
    return re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")


# ---------------------------------------------------------------------------
# One page per game, every option named


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_page_naming_every_option(name):
    page = DOCS / f"{name}.md"
    assert page.is_file(), f"no rules page for {name}"
    assert f"]({name}.md)" in (DOCS / "README.md").read_text(encoding="utf-8")
    assert f"](docs/rules/{name}.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    text = page.read_text(encoding="utf-8")
    options = [line.key for line in describe(GAMES[name].config_type())]
    assert options
    missing = [key for key in options if f"`{key}`" not in text]
    assert not missing, f"{page.name} does not name {missing}"


def test_reports_link_their_rules_page():
    for report in sorted((ROOT / "reports").glob("*.md")):
        text = report.read_text(encoding="utf-8")
        linked = re.search(r"^Rules: \[`(docs/rules/[a-z0-9-]+\.md)`\]\(\.\./\1\)", text, re.M)
        assert linked, report.name
        assert (ROOT / linked.group(1)).is_file()


# ---------------------------------------------------------------------------
# Citations and links resolve


def test_every_citation_names_a_section_that_exists():
    bad = []
    for path in project_files():
        # Lines joined, so that a citation wrapped across two lines still reads whole.
        text = " ".join(path.read_text(encoding="utf-8").split())
        for match in CITATION.finditer(text):
            page = DOCS / match.group(1)
            after = text[match.end() :]
            if not page.is_file() or not any(after.startswith(h) for h in headings(page)):
                bad.append(f"{path.relative_to(ROOT)}: {text[match.start() : match.end() + 30]}")
    assert not bad


#: Every page a reader follows links on: the site's pages (README.md, docs/**) and the changelog.
LINKED_PAGES = [*doc_pages.pages(), ROOT / "CHANGELOG.md"]


def _prose(page: Path) -> str:
    """The page without its fenced blocks and code spans (links there are not links)."""
    text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
    return re.sub(r"(`+).*?\1", "", text)


@pytest.mark.parametrize("page", LINKED_PAGES, ids=doc_pages.page_id)
def test_links_on_the_pages_resolve(page):
    """As GitHub resolves them: relative to the page, an anchor a heading's slug there."""
    for target in LINK.findall(_prose(page)):
        if re.match(r"[a-z]+:", target):
            continue
        name, _, anchor = target.partition("#")
        linked = (page.parent / name).resolve() if name else page
        assert linked.exists(), f"{page.relative_to(ROOT)}: {target}"
        assert linked.is_relative_to(ROOT), (
            f"{page.relative_to(ROOT)}: {target} leaves the repository"
        )
        if anchor:
            slugs = {doc_pages.github_slug(title) for _, title in doc_pages.headings(linked)}
            assert anchor in slugs, f"{page.relative_to(ROOT)}: {target}"


def test_nothing_cites_a_rule_text_outside_the_repository():
    # Spelled in pieces, so that this file does not match itself.
    outside = ("RULES" + ".md", "/work" + "/", ".." + "/sha" + "red")
    bad = [
        f"{path.relative_to(ROOT)}: {word}"
        for path in project_files()
        for word in outside
        if word in path.read_text(encoding="utf-8")
    ]
    assert not bad


# ---------------------------------------------------------------------------
# Every worked example is true

#: Mahjong's per-bet result columns.
BET_COLUMNS = {
    "player wins": "player-wins",
    "player loses": "player-loses",
    "tie": "tie",
    "pair": "pair",
}
BET_NAMES = {"player 1": "player", "player 1 pair": "player-pair"}


def _tables(section: str) -> list[list[tuple[int, list[str]]]]:
    """The Markdown tables of a section: rows of (line number, cells), header first."""
    tables: list[list[tuple[int, list[str]]]] = []
    current: list[tuple[int, list[str]]] = []
    for number, line in section:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                current.append((number, cells))
        elif current:
            tables.append(current)
            current = []
    if current:
        tables.append(current)
    return tables


def _unquote(cell: str) -> str:
    return cell.replace("`", "")


def _example(game: str, header: list[str], cells: list[str]) -> tuple[list[str], dict]:
    """One table row as ``odds settle`` arguments and the results the page states."""
    row = dict(zip(header, cells, strict=True))
    if "command" in row:
        argv = shlex.split(_unquote(row["command"]))
        assert argv[:2] == ["odds", "settle"], row["command"]
        argv = argv[1:]
    else:
        argv = ["settle", game]
        for position in ("banker", "dealer", "player"):
            if position in row:
                argv += [f"--{position}", row[position]]
        argv += shlex.split(_unquote(row.get("options", "")))
    # A page names a bet as the rule book does ("Player 1") or by its name in the tool.
    named = _unquote(row.get("bet", ""))
    bet = BET_NAMES.get(named.lower(), named or None)
    expected = {(bet, key): row[key] for key in ("returned", "debited") if key in row}
    expected |= {(BET_COLUMNS[c], "returned"): row[c] for c in BET_COLUMNS if c in row}
    return argv, expected


def _examples() -> list:
    cases = []
    for page in PAGES:
        if page.name == "README.md":
            continue
        lines = list(enumerate(page.read_text(encoding="utf-8").splitlines(), 1))
        heads = [i for i, (_, line) in enumerate(lines) if line == "## Worked examples"]
        if not heads:
            continue  # a defined game's page (test_every_page_has_worked_examples says which)
        start = heads[0]
        end = next(
            (i for i, (_, line) in enumerate(lines) if i > start and line.startswith("## ")),
            len(lines),
        )
        for table in _tables(lines[start:end]):
            header = [h.lower() for h in table[0][1]]
            for number, cells in table[1:]:
                argv, expected = _example(page.stem, header, cells)
                if expected:
                    cases.append(pytest.param(argv, expected, id=f"{page.name}:{number}"))
    return cases


EXAMPLES = _examples()


def test_every_page_has_worked_examples():
    pages = {case.id.split(":")[0] for case in EXAMPLES}
    assert pages == {f"{name}.md" for name in GAMES}  # coded and defined games alike
    assert len(EXAMPLES) >= 40


@pytest.mark.parametrize(("argv", "expected"), EXAMPLES)
def test_worked_example_settles_as_the_page_says(run, argv, expected):
    code, out, err = run(*argv, "--format", "json")
    assert code == 0, err
    bets = json.loads(out)["bets"]
    by_name = {b["bet"]: b for b in bets}
    for (bet, key), value in expected.items():
        settled = by_name[bet] if bet else bets[0]
        assert settled[key] == value, (bet, key)
