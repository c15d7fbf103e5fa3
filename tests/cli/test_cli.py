"""The command line as a new user meets it: reports, JSON, errors."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from rich.console import Console

from odds.games.paytable import REPORTS, TABLES
from odds.runtime.progress import reporting


def test_report_markdown_has_every_part(run):
    code, out, _ = run("report", "pok-deng")
    assert code == 0
    for part in (
        "## Rules and readings used",
        "`rules.banker_zero_or_six`",
        "## Hand classes",
        "## Summary",
        "| event",
        "| Total",
        "RTP per debited",
    ):
        assert part in out


def test_report_is_deterministic(run):
    assert run("report", "pok-deng")[1] == run("report", "pok-deng")[1]


def test_report_json_shape(run):
    code, out, _ = run("report", "pok-deng", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert {"game", "paytable", "rules", "bets"} <= set(data)
    assert data["rules"]["rules"]["eight_nine_override"] is True
    names = [b["name"] for b in data["bets"]]
    assert names == ["player", "player-pair"]
    pair = data["bets"][1]
    assert pair["ev"] == "-43/415"
    for key in ("ev", "house_edge", "rtp", "rtp_debited", "variance", "hit_frequency"):
        Fraction(pair[key])  # every exact number is a Fraction string
    total = sum(o["ways"] for o in pair["outcomes"])
    assert all(isinstance(o["ways"], int) for o in pair["outcomes"])
    assert sum(Fraction(o["probability"]) for o in pair["outcomes"]) == 1
    assert total == 86320


def test_decks_option_changes_the_shoe(run):
    code, out, _ = run("report", "pok-deng", "--decks", "1", "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["shoe"].startswith("1 deck") and data["deals"] == 1326 * 1225


def test_committed_reports_are_fresh(run):
    """Fresh, and (on a terminal) the long check shows a progress bar on stderr."""
    console = Console(record=True, force_terminal=True, width=100, file=io.StringIO())
    with reporting(console, delay=0):
        code, out, err = run("reports", "--check")
    assert code == 0, err
    assert "reports" in console.export_text() and "reports" not in err
    assert out.endswith("reports are fresh\n")
    assert REPORTS is not None
    for table in TABLES.glob("*.toml"):
        assert (REPORTS / f"{table.stem}.md").exists()


def _write(tmp_path, text: str):
    path = tmp_path / "table.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


BAD_INPUT = [
    (("settle", "pok-deng", "--banker", "9x 7c", "--player", "Kh 9h"), "unknown card '9x'"),
    (
        ("settle", "pok-deng", "--banker", "5c 5c", "--player", "2d 3d", "--decks", "1"),
        "cannot hold",
    ),
    (("settle", "pok-deng", "--banker", "5c", "--player", "2d 3d"), "must be two cards"),
    (("settle", "pok-deng", "--player", "2d 3d"), "missing --banker"),
    (("settle", "pok-deng", "--dealer", "2d 3d", "--player", "2d 3d"), "has no --dealer"),
    (("report", "pok-deng", "--bogus"), "No such option"),
    (("report", "pok-deng", "--decks", "0"), "shoe.decks: 0 is below the minimum 1"),
    (("report", "pok-deng", "--set", "shoe.counts={Kh = -2}"), "impossible composition"),
    (("report", "pok-deng", "--decks", "9"), "above the maximum"),
    (("report", "no-such-game"), "unknown game or paytable"),
    (("report", "missing.toml"), "no paytable file"),
    (("report", "pok-deng", "--set", "rules.colour=red"), "unknown key 'colour'"),
    (("report", "pok-deng", "--set", "rules.banker_zero_or_six=maybe"), "is not one of"),
    (("report", "pok-deng", "--set", "payouts.pair=-1"), "below the minimum"),
    (("report", "pok-deng", "--set", "payouts.pair=lots"), "expected a number"),
    (("report", "pok-deng", "--set", "payouts.player_lose_special=3"), "withholding"),
    (("report", "pok-deng", "--set", 'shoe.removed=["Zz"]'), "unknown card"),
    (("settle", "pok-deng", "--banker", "2c 3c", "--player", "2d 3d", "--stake", "-5"), "stake"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_non_zero(run, args, message):
    code, out, err = run(*args)
    assert code != 0
    assert message in err
    assert err.startswith("error: ") and err.count("\n") == 1
    assert "Traceback" not in err + out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "pok-deng"\n[rules\n', "not valid TOML"),
        ('game = "pok-deng"\n[rules]\nbanker_zero_or_six = 0\n', 'expected one of "ordinary"'),
        ('game = "pok-deng"\n[shoe]\ndecks = "eight"\n', "expected a whole number"),
        ('game = "pok-deng"\n[payouts]\npair = true\n', "expected a number"),
        ('game = "pok-deng"\nflavour = 1\n', "unknown key 'flavour'"),
        ('title = "no game"\n', "missing 'game"),
        ('game = "poker"\n', "unknown game 'poker'"),
        ('game = "pok-deng"\n[shoe]\ndecks = 1\nremoved = ["Kh", "Kh"]\n', "cannot hold"),
    ],
)
def test_bad_paytables(run, tmp_path, text, message):
    code, _, err = run("report", _write(tmp_path, text))
    assert code == 2
    assert message in err and err.count("\n") == 1
