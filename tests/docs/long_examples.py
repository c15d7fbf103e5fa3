"""The benchmark page, measured: ``python -m tests.docs.long_examples``.

Writes ``docs/reference/benchmarks.md``, the one page of the documentation that holds timings:

* every example a page marks ``# long: about N s of CPU (docs/reference/benchmarks.md)``
  (too long for the tests, which parse it but do not run it), run as written in an empty
  folder with its CPU time (user and system, the process and its children) and elapsed time;
  each page's mark is rewritten with the figure measured;
* ``odds bench`` of each game the game pages describe: the engine against its reference (the
  ``odds bench GAME`` examples above give theirs; the other games are run here);
* the test suite: the README's test command (``python -m pytest``) run in this checkout, its
  CPU time, elapsed time and number of tests, and its 30 slowest tests. The README gives that CPU
  figure (``tests/docs/test_readme.py`` holds it to the page).

The machine, its load and the date are written in the page: timings are only comparable
on the same machine. ``--check`` compares the marks with the page instead of measuring
(what the tests do).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.docs.doc_pages import page_id, pages
from tests.docs.test_readme import LONG, Example, examples
from tests.paths import ROOT

PAGE = ROOT / "docs" / "reference" / "benchmarks.md"
#: The games whose speed the game pages describe: each has an ``odds bench`` section.
BENCHED = ("pok-deng", "mahjong-28", "goa-gae", "blackjack", "baccarat", "dragon-tiger")
COMMAND = "python -m tests.docs.long_examples"
#: The README's test command, without its install (the suite it runs is what is measured).
SUITE = "python -m pytest"
#: The suite's budget in CPU seconds (issue 34): the page says whether the measure is within it.
BUDGET = 300
#: How many of the slowest test phases the page lists (``pytest --durations``).
SLOWEST = 30
#: The pages that give the suite's CPU figure, and its phrase there.
SUITE_PAGES = (ROOT / "README.md", ROOT / "docs" / "install.md")
SUITE_FIGURE = re.compile(r"took about (\d+) s of CPU")


@dataclass(frozen=True)
class Measured:
    example: Example
    cpu: float
    wall: float
    exit_code: int
    stdout: str


def long_examples() -> list[tuple[Path, Example]]:
    """Every example marked long, with its page, in page order."""
    return [(page, e) for page in pages() for e in examples(page) if e.long]


def run(command: str) -> tuple[float, float, int, str]:
    """``command`` in a POSIX shell, in an empty folder, with this environment's ``odds``:
    its CPU seconds (user + system of everything it started), elapsed seconds, exit code and
    standard output."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    with tempfile.TemporaryDirectory() as folder:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", command], cwd=folder, env=env, capture_output=True, text=True
        )
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.returncode, done.stdout


@dataclass(frozen=True)
class Suite:
    """One run of the test suite: what the README's figure is."""

    cpu: float
    wall: float
    exit_code: int
    tests: int
    machine: str
    slowest: tuple[tuple[str, str, str], ...]


def run_suite() -> Suite:
    """:data:`SUITE` in this checkout, with ``--durations`` for the slowest tests.

    CPU time is that of pytest and everything it waited for (its xdist workers and the
    commands they run), so it is the same figure ``time python -m pytest`` prints as user
    plus system time.
    """
    machine = _machine()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"--durations={SLOWEST}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    passed = re.search(r"(\d+) passed", done.stdout)
    slowest = tuple(
        (m.group(1), m.group(2), m.group(3))
        for m in re.finditer(r"^(\d+\.\d+)s (call|setup|teardown) +(\S.*)$", done.stdout, re.M)
    )
    return Suite(
        cpu, wall, done.returncode, int(passed.group(1)) if passed else 0, machine, slowest
    )


def _suite_section(suite: Suite) -> list[str]:
    lines = [
        "## The test suite",
        "",
        f"`{SUITE}` in the checkout (the README's second line after its install), run by "
        f"`{COMMAND}`: {suite.machine}. The README gives this CPU figure; the budget is "
        f"{BUDGET} CPU-seconds ([contributor's guide](../guides/contributor.md)).",
        "",
        "| command | exit | tests passed | CPU (s) | elapsed (s) |",
        "|---|--:|--:|--:|--:|",
        f"| `{SUITE}` | {suite.exit_code} | {suite.tests:,} | {suite.cpu:.0f} | {suite.wall:.0f} |",
        "",
        f"The {len(suite.slowest)} slowest tests (`--durations={SLOWEST}`: elapsed seconds of a "
        "test's call, or of its setup where a fixture does the work):",
        "",
        "| elapsed (s) | phase | test |",
        "|--:|---|---|",
    ]
    lines += [f"| {seconds} | {phase} | `{test}` |" for seconds, phase, test in suite.slowest]
    return lines


def rewrite_suite_figure(suite: Suite) -> None:
    """The README's (and the install page's) figure for the suite, set to the one measured."""
    for page in SUITE_PAGES:
        text = page.read_text(encoding="utf-8")
        page.write_text(
            SUITE_FIGURE.sub(f"took about {round(suite.cpu)} s of CPU", text), encoding="utf-8"
        )


def suite_cpu() -> int:
    """The suite's CPU seconds the page gives."""
    row = re.compile(rf"^\| `{re.escape(SUITE)}` \| \d+ \| [\d,]+ \| (\d+) \| \d+ \|$", re.M)
    match = row.search(PAGE.read_text(encoding="utf-8"))
    if match is None:
        raise ValueError(f"{PAGE.name} has no row for `{SUITE}`")
    return int(match.group(1))


def _bench_table(stdout: str) -> str:
    """The table ``odds bench`` prints after its progress lines."""
    lines = stdout.strip().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    return "\n".join(lines[start:])


def _machine() -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{os.cpu_count()} cores ({platform.machine()}, {platform.system()}), Python "
        f"{platform.python_version()}; load average at the start {load}"
    )


def write_page(
    measured: list[Measured], benches: dict[str, str], machine: str, suite: Suite
) -> str:
    lines = [
        "# Benchmarks",
        "",
        f"Generated by `{COMMAND}` (do not edit by hand): the examples the pages mark long,",
        "`odds bench` of each game the game pages describe and the test suite, measured by that",
        f"command on {datetime.date.today().isoformat()}: {machine}.",
        "CPU time is user plus system time of the command and everything it starts (a loaded",
        "machine inflates it far less than elapsed time).",
        "",
        "## Long examples",
        "",
        "The examples the pages mark `# long:`; the tests parse them but do not run them.",
        "",
        "| page | command | exit | CPU (s) | elapsed (s) |",
        "|---|---|--:|--:|--:|",
    ]
    for m in measured:
        page = page_id(m.example.block.page)
        lines.append(
            f"| {page} | `{m.example.command}` | {m.exit_code} | {m.cpu:.0f} | {m.wall:.0f} |"
        )
    lines += [
        "",
        "## `odds bench`: the engine against its reference",
        "",
        "Best of 5 engine runs against one brute-force run (`odds bench GAME`; each row's",
        "notes say what it times): [`odds bench`](../commands/bench.md).",
    ]
    for game, table in benches.items():
        lines += ["", f"### `odds bench {game}`", "", table]
    lines += ["", *_suite_section(suite)]
    return "\n".join(lines) + "\n"


def rewrite_marks(measured: list[Measured]) -> None:
    """Each page's ``# long: about N s of CPU`` mark, set to the figure measured."""
    by_page: dict[Path, list[Measured]] = {}
    for m in measured:
        by_page.setdefault(m.example.block.page, []).append(m)
    for page, found in by_page.items():
        text = page.read_text(encoding="utf-8")
        for m in found:
            line = next(
                line for line in text.splitlines() if line.startswith(m.example.command + " ")
            )
            figure = f"long: about {round(m.cpu)} s of CPU"
            text = text.replace(line, re.sub(r"long: about \d+ s of CPU", figure, line), 1)
        page.write_text(text, encoding="utf-8")


def page_figures() -> dict[str, int]:
    """The CPU seconds the page gives each long example, by command."""
    figures = {}
    row = re.compile(r"^\| [^|]+ \| `(.+)` \| \d+ \| (\d+) \| \d+ \|$")
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if match := row.match(line):
            figures[match.group(1)] = int(match.group(2))
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    machine = _machine()
    measured = []
    benches: dict[str, str] = {}
    for _, example in long_examples():
        print(f"timing: {example.command}", file=sys.stderr, flush=True)
        cpu, wall, code, stdout = run(example.command)
        measured.append(Measured(example, cpu, wall, code, stdout))
        words = shlex.split(example.command)
        if words[:2] == ["odds", "bench"] and len(words) == 3 and code == 0:
            benches[words[2]] = _bench_table(stdout)
    for game in BENCHED:
        if game not in benches:
            print(f"timing: odds bench {game}", file=sys.stderr, flush=True)
            benches[game] = _bench_table(run(f"odds bench {game}")[3])
    print(f"timing: {SUITE}", file=sys.stderr, flush=True)
    suite = run_suite()
    if suite.exit_code != 0 or suite.cpu > BUDGET:
        print(
            f"{COMMAND}: the suite exited {suite.exit_code} after {suite.cpu:.0f} CPU-s "
            f"(budget {BUDGET})",
            file=sys.stderr,
        )
    PAGE.write_text(
        write_page(measured, {g: benches[g] for g in BENCHED}, machine, suite), encoding="utf-8"
    )
    rewrite_marks(measured)
    rewrite_suite_figure(suite)
    print(f"wrote {PAGE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "BUDGET",
    "LONG",
    "SUITE_FIGURE",
    "SUITE_PAGES",
    "Measured",
    "Suite",
    "long_examples",
    "main",
    "page_figures",
    "suite_cpu",
]
