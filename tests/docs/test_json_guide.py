"""The JSON guide names every key of every command's document (docs/guides/json.md).

The guide's table "What each command's document holds" lists, per command, its
fields and its tables. A table added to a command's JSON without a word in the
guide (the audit's ``groups`` and ``drivers`` were) fails here: each command is
run with ``--format json`` on inputs that fill every table it can have, and
every top-level key of the document must be named in that command's row.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.paths import ROOT

GUIDE = ROOT / "docs" / "guides" / "json.md"
#: The provenance every document starts with (described once, above the table).
PROVENANCE = {"version", "command", "overrides"}


def _rows() -> dict[str, str]:
    """Each command's row of the guide's table, by command name."""
    rows: dict[str, str] = {}
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`"):
            for name in re.findall(r"`([a-z-]+)`", cells[0]):
                rows[name] = cells[1] + " " + cells[2]
    return rows


def _named(row: str) -> set[str]:
    return set(re.findall(r"`([a-z0-9_]+)`", row))


def _operator_log(run, folder: Path) -> Path:
    """A baccarat operator log dealt shoe by shoe with stakes, some mis-settled: every table."""
    log = folder / "op.csv"
    code, _, err = run(
        "simulate", "baccarat", "--rounds", "300", "--stakes", "--mis-settle", "2%",
        "--penetration", "80%", "--seed", "2", "-o", str(log),
    )  # fmt: skip
    assert code == 0, err
    return log


CASES = {
    "audit": ["audit", "baccarat", "--log", "LOG", "--by", "dealer"],
    "verify": ["verify", "dragon-tiger", "--bet", "tie", "--house-edge", "32.77%"],
    "settle": ["settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h"],
    "shoe": ["shoe", "baccarat", "--seen", "9h 9d 9c"],
}


@pytest.mark.parametrize("command", list(CASES))
def test_the_guide_names_every_key_of_the_document(command, run, tmp_path):
    args = list(CASES[command])
    if "LOG" in args:
        args[args.index("LOG")] = str(_operator_log(run, tmp_path))
    code, out, err = run(*args, "--format", "json")
    assert code in (0, 1), err
    data = json.loads(out)
    if command == "audit":  # the case fills the tables that only some logs have
        assert data["groups"] and data["drivers"] and data["settlement"]["mis_settled"]
        assert data["shoe_tests"]
    row = _rows()[command]
    missing = sorted(set(data) - PROVENANCE - _named(row))
    assert not missing, f"docs/guides/json.md, the {command} row does not name {missing}"
