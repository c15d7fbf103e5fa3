"""The documentation shows real output: on every page, every report excerpt and every command.

The pages are the README and every ``docs/**/*.md`` page (:mod:`doc_pages`). On each:

* a block introduced as an excerpt of a committed report (``An excerpt of `reports/….md```,
  ``From `reports/….md```) is lines of that report, in the report's order;
* every example command is run, in the page's order, in a fresh folder per page (so a page's
  later commands see the files its earlier ones made): each ``$ …`` line of a block, and each
  plain ``odds …`` line of an ``sh``, ``text``, ``console`` or unmarked block. Each must exit
  as the page says (``# exit N``; an output starting ``error:`` means 2; otherwise 0), an
  error in one line; a ``$`` command prints what the page shows after it — exactly, or, where
  the page shows ``…`` in its output (or says "excerpt" or "verdict lines"), those lines in
  that order (a line ``… text`` ends a printed line);
* an example too long to run here is marked ``# long: about N s of CPU
  (docs/reference/benchmarks.md)``: that page, written by ``python -m
  tests.docs.long_examples``, measured it and gives the same figure;
* a synopsis (``odds report GAME_OR_PAYTABLE [--decks N] …``) and a command named in running
  text (inline code) names a real command with real options (parsed, not run).
"""

from __future__ import annotations

import functools
import json
import re
import shlex
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.main import get_command

from odds.cli import app, main
from tests.docs.doc_pages import ROOT, Block, all_blocks, blocks, page_id, pages

#: The README's two first commands: the tool alone and the main job; the test extra and the
#: tests (what .ci/run runs). The first installs no test tool (issue 34: it installed 735 MB
#: where the tool is 274 MB).
MAIN_JOB = "pip install -e . && odds report pok-deng"
TESTS = 'pip install -e ".[test]" && python -m pytest'


def test_readme_starts_with_the_two_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[2:6] == ["```sh", MAIN_JOB, TESTS, "```"]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"\n{TESTS}\n" in ci
    assert "mkdocs build --strict" in ci
    install = (ROOT / "docs" / "install.md").read_text(encoding="utf-8")
    first = install.split("```sh\n", 1)[1].split("```", 1)[0]  # the page's first commands
    shown = [_comment(line)[0] for line in first.splitlines() if line.startswith("pip ")]
    assert shown == [MAIN_JOB, TESTS]


def test_the_main_job_installs_no_test_tool():
    """``pip install -e .`` installs the dependencies alone: no pytest, ruff or mypy (the
    ``test`` extra's) and no docs tools."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(project["dependencies"]).lower()
    assert not any(tool in core for tool in ("pytest", "ruff", "mypy", "mkdocs", "hypothesis"))
    assert "[" not in MAIN_JOB.split("&&")[0]  # no extra


def test_the_readme_states_no_duration_without_its_command():
    """A duration in the README is produced by a command it names (`time .ci/run`)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for match in re.finditer(r"\b(?:about )?\d+(?:\.\d+)? ?(?:s|seconds|minutes?|min)\b", text):
        sentence = text[max(0, match.start() - 300) : match.end() + 300]
        assert "time .ci/run" in sentence or "benchmarks.md" in sentence, match.group(0)


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
# Every example command is run


def _console(block: Block) -> list[tuple[str, list[str]]]:
    """A block of ``$`` commands as (command, the lines shown after it)."""
    steps: list[tuple[str, list[str]]] = []
    for line in block.text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line.rstrip())
    return steps


def _comment(command: str) -> tuple[str, str]:
    """The command and its trailing ``# comment``."""
    match = re.search(r"\s+#\s*(.*)$", command)
    return (command[: match.start()], match.group(1)) if match else (command, "")


#: A synopsis, not an example: a placeholder (``GAME_OR_PAYTABLE``, ``N``-free words such as
#: ``CARDS``), an ellipsis, ``[optional]`` options or ``a|b`` alternatives. Parsed, never run.
SYNOPSIS = re.compile(r"\b[A-Z][A-Z_]{2,}\b|…|\[-|\|[a-z]|\[[A-Z]")
#: Blocks whose ``odds …`` lines are commands (a ``toml`` or ``python`` block is not).
COMMAND_BLOCKS = ("", "sh", "text", "console")
#: ``# long: about N s of CPU (docs/reference/benchmarks.md)``: an example too long for the
#: tests, its time measured by the command that writes that page (``python -m
#: tests.docs.long_examples``). Parsed, timed there, never run here.
LONG = re.compile(r"\blong: about (\d+) s of CPU \(docs/reference/benchmarks\.md\)")


@dataclass(frozen=True)
class Example:
    """One command a page shows: as a ``$`` line (``shown``: the lines printed after it) or a
    plain ``odds …`` line of a command block (``shown`` None: no output shown)."""

    block: Block
    command: str
    comment: str
    shown: list[str] | None

    @property
    def where(self) -> str:
        return f"{self.block.where}: {self.command}"

    @property
    def exit_code(self) -> int:
        """What the page says it exits with: ``# exit N``; an output shown that starts
        ``error:`` is 2; otherwise 0."""
        expected = re.search(r"\bexit (\d)", self.comment)
        if expected:
            return int(expected.group(1))
        return 2 if self.shown and self.shown[0].startswith("error:") else 0

    @property
    def long(self) -> bool:
        return bool(LONG.search(self.comment))


def examples(page: Path) -> list[Example]:
    """Every example command of a page, in the page's order."""
    found: list[Example] = []
    for block in blocks(page):
        if block.text.startswith("$ "):
            found += [Example(block, *_comment(c), shown) for c, shown in _console(block)]
        elif block.info in COMMAND_BLOCKS:
            for line in block.text.splitlines():
                command, comment = _comment(line)
                if command.startswith("odds ") and not SYNOPSIS.search(command):
                    found.append(Example(block, command, comment, None))
    return found


def _example_pages() -> list[Path]:
    return [p for p in pages() if examples(p)]


def _jq(document: str, path: str) -> int:
    """``| jq .a.b``: 0 when the JSON document has that path (jq's output is not shown)."""
    value = json.loads(document)
    for key in path.strip(".").split("."):
        if not isinstance(value, dict) or key not in value:
            return 1
        value = value[key]
    return 0


def _run(command: str, page: Path, capsys) -> tuple[int, list[str], list[str]]:
    """Run one shown command line in-process, as a POSIX shell would: ``&&`` (stopping at
    the first failure), ``> FILE`` and ``| jq PATH`` after odds; ``python script.py`` runs
    the page's ``python`` block that names it; ``head -N FILE``. Its exit code, stdout lines
    and stderr lines."""
    code = 0
    out: list[str] = []
    err: list[str] = []
    for part in command.split("&&"):
        part, _, piped = part.partition(" | ")
        part, _, target = part.partition(" > ")
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
        out, err = captured.out.splitlines(), captured.err.splitlines()
        if target:
            Path(target.strip()).write_text(captured.out, encoding="utf-8")
            out = []
        if piped:
            tool, *rest = shlex.split(piped)
            assert tool == "jq" and len(rest) == 1, f"{page_id(page)}: only | jq .PATH: {piped}"
            code = code or _jq(captured.out, rest[0])
            out = []
        if code:
            break
    return code, out, err


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


@pytest.mark.parametrize("page", _example_pages(), ids=page_id)
def test_every_example_runs_as_the_page_shows(page: Path, tmp_path, monkeypatch, capsys):
    """Each page's examples run in order in a fresh folder (a later one sees the files an
    earlier one made). Each exits as the page says; one shown with its output prints it
    (exactly, or, where the page shows ``…`` or says "excerpt" / "verdict lines", those
    lines in that order; a line ``… text`` ends a printed line); an error is one line. A
    line repeating a command the page runs with its output is not run twice."""
    monkeypatch.chdir(tmp_path)
    shown_runs = {e.command for e in examples(page) if e.shown is not None}
    done: set[str] = set()
    for example in examples(page):
        if example.long:
            continue  # timed by python -m tests.docs.long_examples (test_long_examples_...)
        if example.shown is None and (example.command in shown_runs | done):
            continue  # the same command is run on this page, with its output shown
        done.add(example.command)
        code, out, err = _run(example.command, page, capsys)
        where = example.where
        assert code == example.exit_code, (
            f"{where}: exit {code}, the page says {example.exit_code}: {err[-3:]}"
        )
        assert not any("Traceback" in line for line in err), f"{where}: {err}"
        if code == 2:
            assert len(err) == 1 and err[0].startswith("error: "), f"{where}: {err}"
        shown = example.shown
        if shown is None:
            continue
        excerpt = any(line == "…" or line.startswith("… ") for line in shown)
        if excerpt or re.search(r"excerpt|verdict lines", example.comment):
            missing = _shows(out + err, shown)
            assert missing is None, f"{where}: did not print {missing!r} (in this order)"
        else:
            # A success shows its stdout (a status line on stderr is not the output); an
            # error shows its one line on stderr.
            printed = out if code == 0 else out + err
            assert "\n".join(printed).strip() == "\n".join(shown).strip(), where


def test_long_examples_give_the_time_the_benchmark_page_measured():
    """An example marked long is not run by the tests: its mark gives the CPU time that
    ``python -m tests.docs.long_examples`` measured and wrote in docs/reference/benchmarks.md
    (and wrote back into the mark). Every such example is listed there, figure for figure."""
    page = (ROOT / "docs" / "reference" / "benchmarks.md").read_text(encoding="utf-8")
    row = re.compile(r"^\| ([^|]+) \| `(.+)` \| 0 \| (\d+) \| \d+ \|$", re.M)
    measured = {(p.strip(), c): int(s) for p, c, s in row.findall(page)}
    marked = {
        (page_id(p), e.command): int(LONG.search(e.comment).group(1))  # type: ignore[union-attr]
        for p in pages()
        for e in examples(p)
        if e.long
    }
    assert marked, "no example is marked long"
    assert measured == marked


def test_the_suite_s_cost_is_the_one_the_benchmark_page_measured():
    """The README and the install page give the test suite's CPU seconds that
    ``python -m tests.docs.long_examples`` measured and wrote on the benchmark page (and wrote
    back into both pages), and that figure is within the budget (docs/guides/contributor.md)."""
    # imported here: the generator imports this module for the examples it times
    from tests.docs.long_examples import BUDGET, SUITE_FIGURE, SUITE_PAGES, suite_cpu

    measured = suite_cpu()
    assert measured <= BUDGET, f"the suite took {measured} CPU-s, over its budget of {BUDGET}"
    for page in SUITE_PAGES:
        figures = SUITE_FIGURE.findall(page.read_text(encoding="utf-8"))
        assert figures == [str(measured)], page.name


def test_the_pages_show_commands_with_their_output():
    steps = [
        (e.command, e.shown) for p in _example_pages() for e in examples(p) if e.shown is not None
    ]
    assert len(steps) >= 20
    for command in ("report", "settle", "verify", "simulate", "audit", "solve", "shoe", "eor"):
        assert any(c.startswith(f"odds {command} ") for c, _ in steps), command


def test_the_pages_show_json_documents():
    """The pages show real ``--format json`` documents (run and matched above).

    Every command's JSON comes from one writer (``docs/guides/json.md``); a page
    showing one keeps the shown document true to it.
    """
    steps = [
        (e.command, e.shown) for p in _example_pages() for e in examples(p) if e.shown is not None
    ]
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
