"""Output conventions of every command (issue 19): ``--output``/``-o`` written atomically and
never over an input, one working example in each ``--help``, shell completion of games,
paytables, bets and ``--set`` keys, and ``odds games`` without gaps.
"""

from __future__ import annotations

import json
import os
import re
import shlex

import pytest
import typer

from odds.cli import app, main
from tests.paths import ROOT

COMMANDS = sorted(
    command.name or (command.callback.__name__ if command.callback else "")
    for command in app.registered_commands
)
#: Commands that print a document (and so take --output).
DOCUMENTS = [
    "report", "settle", "strength", "crosscheck", "verify", "audit", "solve", "shoe", "eor",
    "exposure", "games", "bench",
]  # fmt: skip


def _help(command: str, capsys) -> str:
    assert main([command, "--help"]) == 0
    return capsys.readouterr().out


def _examples(text: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^\s*Example:\s*(odds .+)$", text, re.M)]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_shows_one_example(command, capsys):
    examples = _examples(_help(command, capsys))
    assert len(examples) == 1, f"odds {command} --help shows {examples}"
    assert examples[0].startswith(f"odds {command} ") or f"&& odds {command} " in examples[0]


def test_every_example_shown_in_help_runs(capsys, tmp_path, monkeypatch):
    """Each Example: line is run as written (from an empty folder), and must exit 0.

    It runs as the attempt list runs a command (:func:`tests.cli.test_attempts._run`): a
    plain ``odds …`` (and each ``odds …`` of an ``&&`` list) in a child forked from this
    process, with the package imported once, rather than a new interpreter for each: the
    same entry point, arguments, folder, environment and exit status, so an example that
    no longer parses or fails still fails here (measured: ``--bett`` in verify's
    example, ``goa-gaee`` in strength's)."""
    from tests.cli.test_attempts import _run

    monkeypatch.delenv("ODDS_PROGRESS_DELAY", raising=False)
    failures = []
    for command in COMMANDS:
        if command in ("reports",):  # checks the checkout's reports: run from its root below
            continue
        for example in _examples(_help(command, capsys)):
            folder = tmp_path / command
            folder.mkdir()
            done = _run(example, folder, 600)
            if done.returncode != 0:
                failures.append(f"{example}: exit {done.returncode}: {done.stderr[-300:]}")
    assert not failures, "\n".join(failures)


def test_the_reports_example_is_the_check(capsys):
    assert _examples(_help("reports", capsys)) == ["odds reports --check"]


@pytest.mark.parametrize("command", DOCUMENTS)
def test_document_commands_take_output(command, capsys):
    text = _help(command, capsys)
    assert "--output" in text and "-o" in text


def test_output_is_atomic_and_equals_stdout(run, tmp_path):
    target = tmp_path / "games.json"
    code, out, _ = run("games", "pok-deng", "--format", "json", "-o", str(target))
    assert code == 0 and out == ""
    _, shown, _ = run("games", "pok-deng", "--format", "json")
    assert target.read_text(encoding="utf-8") == shown
    assert [p.name for p in tmp_path.iterdir()] == ["games.json"]  # no temporary left


def test_bad_input_leaves_an_existing_output_as_it_was(run, tmp_path):
    target = tmp_path / "keep.md"
    target.write_text("precious\n", encoding="utf-8")
    code, _, err = run("report", "pok-deng", "--set", "payouts.nope=1", "-o", str(target))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    assert target.read_text(encoding="utf-8") == "precious\n"


def test_output_over_an_input_is_refused(run, tmp_path):
    table = tmp_path / "mine.toml"
    table.write_bytes((ROOT / "tables" / "pok-deng.toml").read_bytes())
    before = table.read_bytes()
    code, _, err = run("report", str(table), "-o", str(table))
    assert code == 2 and "is one of this command's inputs" in err and err.count("\n") == 1
    assert table.read_bytes() == before
    log = tmp_path / "rounds.csv"
    assert run("simulate", "pok-deng", "--rounds", "50", "--out", str(log))[0] == 0
    code, _, err = run("audit", "pok-deng", "--log", str(log), "-o", str(log))
    assert code == 2 and "inputs" in err


@pytest.mark.parametrize(
    ("target", "needle"), [("", "is a directory"), ("missing/x.md", "does not exist")]
)
def test_output_that_cannot_be_written_is_one_line(run, tmp_path, target, needle):
    path = str(tmp_path / target) if target else str(tmp_path)
    code, out, err = run("games", "-o", path)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err


def test_output_that_is_a_fifo_is_refused(run, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, _, err = run("games", "-o", str(fifo))
    assert code == 2 and "not a regular file" in err


# -- shell completion: tests/cli/test_completion.py (as bash and zsh call it) ----------------


# -- odds games ------------------------------------------------------------------------------


def test_games_lists_every_choice_with_its_meaning(run):
    _, out, _ = run("games", "baccarat")
    row = next(line for line in out.splitlines() if "rules.banker_pays" in line)
    assert "How a winning Banker bet is paid: commission: 1:1 less the commission" in row
    assert "no-commission: 1:1 with no commission" in row and "ez: EZ Baccarat" in row
    _, out, _ = run("games", "baccarat", "--format", "json")
    options = {o["option"]: o for o in json.loads(out)["options_baccarat"]}
    chosen = options["rules.banker_pays"]
    assert set(chosen["choices"]) == {"commission", "no-commission", "ez"}
    assert not chosen["meaning"].endswith(":")


def test_no_option_of_any_game_has_a_gap():
    from odds.core.options import option_specs
    from odds.games import games

    gaps = [
        f"{game.name} {spec.key}"
        for game in games().values()
        for spec in option_specs(game.config_type)
        if not spec.meaning.strip()
        or spec.meaning.rstrip().endswith(":")
        or any(not meaning.strip() for meaning in spec.choices.values())
    ]
    assert gaps == []


def test_games_with_a_game_shows_only_that_game(run):
    _, out, _ = run("games", "pok-deng")
    games_section = out.split("## Options", 1)[0]
    assert "| pok-deng" in games_section and "baccarat" not in games_section
    assert "## Options of pok-deng" in out and "## Options of baccarat" not in out
    _, out, _ = run("games", "pok-deng", "--format", "json")
    assert [g["game"] for g in json.loads(out)["games"]] == ["pok-deng"]


def test_games_without_a_game_lists_them_all(run):
    _, out, _ = run("games", "--format", "json")
    assert len(json.loads(out)["games"]) >= 6


def test_examples_are_shell_words():
    """Guard for the harness: an example with quotes survives shlex (as bash reads it)."""
    assert shlex.split("odds settle pok-deng --banker '9d 7c'")[-1] == "9d 7c"


def test_typer_is_the_app():
    assert isinstance(app, typer.Typer)


def test_games_takes_a_paytable_name_for_its_game(run):
    code, out, _ = run("games", "baccarat-ez", "--format", "json")
    assert code == 0 and [g["game"] for g in json.loads(out)["games"]] == ["baccarat"]
    code, _, err = run("games", "no-such-game")
    assert code == 2 and err.startswith("error: unknown game 'no-such-game'")
    assert err.count("\n") == 1
