"""The baccarat and Dragon Tiger rules pages: every option named, every worked example true."""

from __future__ import annotations

import json
import shlex

import pytest

from odds.core.options import describe
from odds.games import game_named
from tests.paths import ROOT

DOCS = ROOT / "docs" / "rules"
PAGES = {"baccarat": DOCS / "baccarat.md", "dragon-tiger": DOCS / "dragon-tiger.md"}


@pytest.mark.parametrize("name", sorted(PAGES))
def test_page_names_every_option(name):
    text = PAGES[name].read_text(encoding="utf-8")
    keys = [line.key for line in describe(game_named(name).config_type())]
    assert [key for key in keys if f"`{key}`" not in text] == []


def _examples() -> list:
    cases = []
    for name, page in sorted(PAGES.items()):
        lines = page.read_text(encoding="utf-8").split("## Worked examples", 1)[1]
        lines = lines.split("\n## ", 1)[0].splitlines()
        header: list[str] = []
        for line in lines:
            if not line.startswith("|"):
                header = []
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set("".join(cells)) <= set("-: "):
                continue
            if not header:
                header = [c.lower() for c in cells]
                continue
            row = dict(zip(header, cells, strict=True))
            if {"bet", "returned", "command"} <= set(row):
                argv = shlex.split(row["command"].strip("`"))[1:]
                cases.append(
                    pytest.param(argv, row["bet"], row["returned"], id=f"{name}-{row['#']}")
                )
    return cases


@pytest.mark.parametrize(("argv", "bet", "returned"), _examples())
def test_worked_example_is_true(run, argv, bet, returned):
    code, out, err = run(*argv, "--format", "json")
    assert code == 0, err
    assert {b["bet"]: b["returned"] for b in json.loads(out)["bets"]}[bet] == returned


def test_refusals_on_the_page_are_the_tool_s(run):
    text = PAGES["baccarat"].read_text(encoding="utf-8").split("are refused with one line", 1)[1]
    rows = [line for line in text.splitlines() if line.startswith("| `--player")]
    assert len(rows) == 3
    for row in rows:
        hands, error = (c.strip().strip("`") for c in row.strip("|").split("|"))
        code, _, err = run("settle", "baccarat", *shlex.split(hands))
        assert code == 2 and err == f"error: {error}\n"
