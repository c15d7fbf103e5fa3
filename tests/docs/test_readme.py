"""The documentation shows real output: on every page, every report excerpt and every command.

The pages are the README and every ``docs/**/*.md`` page (:mod:`doc_pages`). On each:

* a block introduced as an excerpt of a committed report (``An excerpt of `reports/….md```,
  ``From `reports/….md```) is lines of that report, in the report's order;
* a block of ``$`` commands is run, in order, in a fresh folder per page (so a page's later
  blocks see the files its earlier ones made): each command must exit as the page says
  (``# exit N``; an output starting ``error:`` means 2; otherwise 0) and print what the page
  shows — exactly, or, where the page shows ``…`` in a command's output (or says "excerpt" or
  "verdict lines"), those lines in that order (a line ``… text`` ends a printed line);
* every other command line shown (in ``sh`` blocks, plain blocks and inline code) names a real
  command with real options (parsed by the command line itself, not run).
"""

from __future__ import annotations

import functools
import re
import shlex
import tomllib
from pathlib import Path

import pytest
from typer.main import get_command

from odds.cli import app, main
from tests.docs.doc_pages import ROOT, Block, all_blocks, blocks, page_id, pages


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    head = "\n".join(lines[:8])
    assert lines[2:6] == [
        "```sh",
        'pip install -e ".[test]" && odds report pok-deng',
        'pip install -e ".[test]" && python -m pytest',
        "```",
    ]
    assert 'pip install -e ".[test]" && python -m pytest' in head
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert '\npip install -e ".[test]" && python -m pytest\n' in ci
    assert "mkdocs build --strict" in ci


def test_readme_is_a_short_front_page():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 150


# ---------------------------------------------------------------------------
# Report excerpts

EXCERPT = re.compile(r"(?:[Ee]xcerpt of|[Ff]rom)\s+`(reports/[^`]+\.md)`")


def _excerpts() -> list[Block]:
    return [
        b
        for b in all_blocks()
        if EXCERPT.search(b.intro) and b.info in ("", "text") and not b.text.startswith("$ ")
    ]


def test_there_are_report_excerpts():
    assert len(_excerpts()) >= 5


@pytest.mark.parametrize("block", _excerpts(), ids=lambda b: b.where)
def test_report_excerpts_are_real(block: Block):
    """Each excerpt is lines of the committed report its paragraph names, in the report's order."""
    name = EXCERPT.search(block.intro).group(1)  # type: ignore[union-attr]
    report = (ROOT / name).read_text(encoding="utf-8").splitlines()
    where = []
    for line in block.text.splitlines():
        if line and line != "…":
            assert line in report, f"{block.where}: not in {name}: {line!r}"
            where.append(report.index(line))
    assert where == sorted(where), f"{block.where}: the excerpt's lines are out of order"


# ---------------------------------------------------------------------------
# Commands shown with their output


def _console(block: Block) -> list[tuple[str, list[str]]]:
    """A block of ``$`` commands as (command, the lines shown after it)."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line.rstrip())
    return steps


def _console_pages() -> list[Path]:
    return [p for p in pages() if any(b.text.startswith("$ ") for b in blocks(p))]


def _comment(command: str) -> tuple[str, str]:
    """The command and its trailing ``# comment``."""
    match = re.search(r"\s+#\s*(.*)$", command)
    return (command[: match.start()], match.group(1)) if match else (command, "")


def _run(command: str, page: Path, capsys) -> tuple[int, list[str], list[str]]:
    """Run one shown command line in-process: its exit code, stdout lines and stderr lines."""
    code = 0
    for part in command.split("&&"):
        args = shlex.split(part)
        if args[0] == "head":
            lines = Path(args[-1]).read_text(encoding="utf-8").splitlines()
            return 0, lines[: int(args[1].lstrip("-"))], []
        if args[0] == "python":
            (script,) = [
                b.text
                for b in blocks(page)
                if b.info == "python" and b.text.startswith(f"# {args[1]}")
            ]
            exec(compile(script, args[1], "exec"), {"__name__": "__main__"})
            continue
        assert args[0] == "odds", (
            f"{page_id(page)}: the docs run only odds, head and python: {part}"
        )
        code = main(args[1:])
    captured = capsys.readouterr()
    return code, captured.out.splitlines(), captured.err.splitlines()


def _shows(printed: list[str], shown: list[str]) -> str | None:
    """Where the excerpt ``shown`` is not in ``printed`` (in order), or None."""
    at = 0
    for line in shown:
        if line in ("…", ""):
            continue
        tail = line[2:] if line.startswith("… ") else None
        for index in range(at, len(printed)):
            text = printed[index].rstrip()
            if text.endswith(tail) if tail is not None else text == line:
                at = index + 1
                break
        else:
            return line
    return None


@pytest.mark.parametrize("page", _console_pages(), ids=page_id)
def test_every_command_prints_what_the_page_shows(page: Path, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for block in blocks(page):
        if not block.text.startswith("$ "):
            continue
        for shown_command, shown in _console(block):
            excerpt = any(line == "…" or line.startswith("… ") for line in shown)
            command, comment = _comment(shown_command)
            expected = re.search(r"\bexit (\d)", comment)
            if expected:
                exit_code = int(expected.group(1))
            else:
                exit_code = 2 if shown and shown[0].startswith("error:") else 0
            code, out, err = _run(command, page, capsys)
            where = f"{block.where}: {command}"
            assert code == exit_code, f"{where}: exit {code}, the page says {exit_code}"
            if excerpt or re.search(r"excerpt|verdict lines", comment):
                missing = _shows(out + err, shown)
                assert missing is None, f"{where}: did not print {missing!r} (in this order)"
            else:
                # A success shows its stdout (a status line on stderr is not the output); an
                # error shows its one line on stderr.
                printed = out if code == 0 else out + err
                assert "\n".join(printed).strip() == "\n".join(shown).strip(), where


def test_the_pages_show_commands_with_their_output():
    steps = [s for p in _console_pages() for b in blocks(p) for s in _console(b)]
    assert len(steps) >= 20
    for command in ("report", "settle", "verify", "simulate", "audit", "solve", "shoe", "eor"):
        assert any(c.startswith(f"odds {command} ") for c, _ in steps), command


def test_the_pages_show_json_documents():
    """The pages show real ``--format json`` documents (run and matched above).

    Every command's JSON comes from one writer (``docs/guides/json.md``); a page
    showing one keeps the shown document true to it.
    """
    steps = [s for p in _console_pages() for b in blocks(p) for s in _console(b)]
    shown = {c.split()[1] for c, lines in steps if "--format json" in c and lines}
    assert {"strength", "verify", "settle", "shoe"} <= shown


# ---------------------------------------------------------------------------
# Every other command line names a real command with real options

#: A placeholder in a synopsis (``GAME_OR_PAYTABLE``, ``FILE``): such lines are not commands.
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]+\b|…|\[")
INLINE = re.compile(r"(`+)(odds [^`]+?)\1")


def _command_lines() -> list[tuple[str, str, bool]]:
    """Every ``odds …`` line of the pages: (where, the line, whether it is inline code)."""
    found = []
    for page in pages():
        for block in blocks(page):
            if block.info not in ("", "sh", "text", "console"):
                continue
            for line in block.text.splitlines():
                line = line.removeprefix("$ ")
                if line.startswith("odds "):
                    found.append((f"{block.where}", line, False))
        fenced = False
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced:
                found += [
                    (f"{page_id(page)}:{number}", m.group(2), True) for m in INLINE.finditer(line)
                ]
    commands = []
    for where, line, inline in found:
        line = _comment(line)[0]
        for part in re.split(r"&&|\|(?=\s)|>", line):
            part = part.strip()
            if re.match(r"odds ([A-Z]|…)", part):
                continue  # `odds COMMAND --help`, `odds …`
            if part.startswith("odds ") and (inline or not PLACEHOLDER.search(part)):
                commands.append((where, part, inline))
    return commands


COMMAND_LINES = _command_lines()


@functools.cache
def _group():
    """The command line as click sees it, built once: typer reads every command's signature
    and type hints to build it (~25 ms), and 550 lines are checked against it."""
    return get_command(app)


def test_there_are_command_lines_to_check():
    assert len(COMMAND_LINES) >= 100
    assert sum(inline for _, _, inline in COMMAND_LINES) >= 30


@pytest.mark.parametrize(
    ("where", "line", "inline"), COMMAND_LINES, ids=[w for w, _, _ in COMMAND_LINES]
)
def test_every_command_line_shown_parses(where: str, line: str, inline: bool):
    """A command in a block parses whole; one named in running text (``odds report --stakes``)
    names a real command and real options."""
    group = _group()
    args = shlex.split(line)[1:]
    if args[:1] in (["--version"], ["-V"], ["--install-completion"], ["--show-completion"]):
        return  # options of `odds` itself, not of a command
    root = group.context_class(group, info_name="odds")
    command = group.get_command(root, args[0])  # type: ignore[attr-defined]
    assert command is not None, f"{where}: no command {args[0]!r}: {line}"
    if inline:
        known = {"-h", "--help"} | {opt for p in command.params for opt in p.opts}
        unknown = [a for a in args if a.startswith("--") and a.split("=")[0] not in known]
        assert not unknown, f"{where}: {line}: no option {unknown}"
        return
    try:
        command.make_context(args[0], args[1:], parent=root)
    except Exception as error:  # click's, perhaps vendored by typer: recognised by shape
        if type(error).__name__ == "MissingParameter":
            return  # named without its argument (`odds simulate --format parquet`)
        if not hasattr(error, "format_message"):
            raise
        pytest.fail(f"{where}: {line}: {error.format_message()}")


def test_every_command_has_its_page_in_the_commands_index():
    """docs/commands/<command>.md for every command, each linked from docs/commands/README.md."""
    group = get_command(app)
    names = sorted(group.list_commands(group.context_class(group, info_name="odds")))  # type: ignore[attr-defined]
    folder = ROOT / "docs" / "commands"
    index = (folder / "README.md").read_text(encoding="utf-8")
    assert [n for n in names if not (folder / f"{n}.md").is_file()] == []
    pages_there = sorted(p.name for p in folder.glob("*.md") if p.name != "README.md")
    assert [p for p in pages_there if f"]({p})" not in index] == []


# ---------------------------------------------------------------------------
# Paytables shown are the shipped ones


def _is_part(shown: object, shipped: object) -> bool:
    if isinstance(shown, dict):
        return isinstance(shipped, dict) and all(
            key in shipped and _is_part(value, shipped[key]) for key, value in shown.items()
        )
    return shown == shipped


TOML_BLOCKS = [b for b in all_blocks() if b.info == "toml"]


def test_there_are_paytables_shown():
    assert len(TOML_BLOCKS) >= 2


@pytest.mark.parametrize("block", TOML_BLOCKS, ids=lambda b: b.where)
def test_a_paytable_shown_is_part_of_the_shipped_one(block: Block):
    """A ``toml`` block is (part of) the paytable of its game in tables/, value for value."""
    shown = tomllib.loads(block.text)
    named = re.search(r"`tables/([a-z0-9-]+)\.toml`", block.intro)  # a block without its name
    game = shown.get("game", named.group(1) if named else block.page.stem)
    shipped = tomllib.loads((ROOT / "tables" / f"{game}.toml").read_text(encoding="utf-8"))
    assert _is_part(shown, shipped), f"{block.where}: not what tables/{game}.toml holds"
