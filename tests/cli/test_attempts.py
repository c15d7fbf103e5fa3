"""The attempt list (issue 20): adversarial commands, each run as its own test.

Every ``tests/cli/attempts/*.txt`` file holds blocks separated by blank lines. In a block,
``#`` lines are comments; ``$ `` lines are bash commands run in order in a fresh
temporary folder (``TABLES`` = the repo's ``tables/``, ``ROOT`` = the repo root,
``odds`` on ``PATH``): every ``$`` line but the last is setup (it must succeed), the
last is judged. Then optional expectations:

* ``exit: 0`` / ``exit: nonzero`` / ``exit: N`` — the judged exit status (default nonzero);
* ``stderr: REGEX`` / ``stdout: REGEX`` — :func:`re.search` on that stream;
* ``timeout: SECONDS`` — for each command (default 30); on timeout the whole
  process group is killed and the attempt fails (a hang).

A non-zero exit must explain itself: stderr is one line and holds no ``Traceback``.

A plain ``odds …`` command (no shell syntax: no pipe, redirection, variable, glob or
quoting of such characters) runs as ``odds`` would, in a child forked from this test
process, with the package already imported: the same entry point
(``odds.__main__.run``), arguments, folder, environment, standard streams (files),
signal dispositions, warning filters and exit code, but not another interpreter's start and
imports (0.15 to 0.45 s of CPU each, for some 250 commands). So does a plain ``odds …`` at
the head of a list, with at most a ``> FILE`` and a ``2> FILE`` (``odds audit … > out.md;
test $? -eq 1 && grep … out.md``): it runs forked with those files as its streams, and the
rest of the list runs through ``bash`` as ``(exit STATUS) SEPARATOR REST`` (the same
``$?``, the same and-or logic), on the same output files. A child's caches are this
process's after :func:`_warmed`: nothing an earlier test computed, only what most attempts
need of the packaged paytables they name, computed once before the first fork (a figure is
the same from a warm cache: see there). Every other command, and so every pipe, closed
stream (``>&-``), background job, variable, and Ctrl-C or kill here, runs the installed
``odds`` through ``bash``. So does every command once this process runs a native thread
pool it did not run after its imports: Typst's compiler starts one on its first PDF (an
in-process test of this worker may have made one), and a forked child inherits the pool's
locks without its threads and waits on them forever (``odds report … --format pdf`` hung
so).

This file is self-contained so that any branch can copy it verbatim.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import functools
import importlib
import io
import os
import pkgutil
import re
import select
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import traceback
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

from tests.paths import ROOT

ATTEMPTS = Path(__file__).resolve().parent / "attempts"
DEFAULT_TIMEOUT = 30.0


@dataclass
class Attempt:
    """One block of an attempt file."""

    file: str
    line: int
    commands: list[str] = field(default_factory=list)
    exit: str = "nonzero"
    stderr: str | None = None
    stdout: str | None = None
    timeout: float = DEFAULT_TIMEOUT

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"


def parse(path: Path) -> list[Attempt]:
    """The blocks of one attempt file; a malformed line fails loudly (not silently skipped)."""
    attempts: list[Attempt] = []
    current: Attempt | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.rstrip()
        if not line.strip():
            current = None
            continue
        if current is None:
            current = Attempt(path.name, number)
            attempts.append(current)
        if line.lstrip().startswith("#"):
            continue
        if line.startswith("$ "):
            current.commands.append(line[2:])
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep or key not in ("exit", "stderr", "stdout", "timeout"):
            raise ValueError(f"{path.name}:{number}: not a comment, command or expectation")
        if key == "exit" and not re.fullmatch(r"0|nonzero|\d+", value):
            raise ValueError(f"{path.name}:{number}: exit: 0, nonzero or a number")
        if key == "timeout":
            current.timeout = float(value)
        else:
            setattr(current, key, value)
    return [a for a in attempts if a.commands]


def _all() -> list[Attempt]:
    return [a for path in sorted(ATTEMPTS.glob("*.txt")) for a in parse(path)]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_folder = str(Path(sys.executable).parent)
    env["PATH"] = bin_folder + os.pathsep + env.get("PATH", "")
    env["TABLES"] = str(ROOT / "tables")
    env["ROOT"] = str(ROOT)
    return env


#: Characters that make a command more than ``odds`` and its words: outside quotes (a pipe,
#: a redirection, a glob…), or anywhere (what bash expands even in double quotes).
UNQUOTED_SYNTAX = set("|&;<>()*?[]{}~!#\n")
EXPANDED_SYNTAX = set("$`\\")


def _plain_odds(command: str) -> list[str] | None:
    """The arguments of ``odds ARGS`` when the command is nothing more; else ``None``."""
    if EXPANDED_SYNTAX & set(command):
        return None
    quote = ""
    for char in command:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in UNQUOTED_SYNTAX:
            return None
    args = shlex.split(command)
    return args[1:] if args and args[0] == "odds" else None


def _forked(
    arguments: list[str],
    folder: Path,
    timeout: float,
    out: IO[bytes],
    err: IO[bytes],
    redirects: dict[int, str],
) -> int:
    """The exit status of ``odds ARGUMENTS`` run in a forked child with standard output and
    error on ``out`` and ``err``, or on the files ``redirects`` names for 1 and 2 (opened as
    bash opens ``> FILE``, in ``folder``)."""
    import odds.__main__

    _import_once()

    pid = os.fork()
    if pid == 0:  # the child: from here on, only what ``odds`` itself would do
        code = 1
        try:
            os.setsid()
            os.chdir(folder)
            os.environ.clear()
            os.environ.update(_environment())
            nothing = os.open(os.devnull, os.O_RDONLY)
            for fd, target in ((0, nothing), (1, out.fileno()), (2, err.fileno())):
                os.dup2(target, fd)
            for fd, name in sorted(redirects.items()):
                try:
                    opened = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
                except OSError as exc:  # as bash says it, and its status 1
                    os.write(2, f"bash: {name}: {exc.strerror}\n".encode())
                    os._exit(1)
                os.dup2(opened, fd)
                os.close(opened)
            _as_a_fresh_interpreter(arguments)
            odds.__main__.run()
            code = 0
        except SystemExit as exc:
            if isinstance(exc.code, int) or exc.code is None:
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
        finally:
            with contextlib.suppress(BaseException):
                threading._shutdown()  # type: ignore[attr-defined]
                atexit._run_exitfuncs()
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(BaseException):
                    stream.flush()
            os._exit(code)
    watch = os.pidfd_open(pid)
    try:
        if not select.select([watch], [], [], timeout)[0]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail(f"timed out after {timeout:g} s (a hang): odds {shlex.join(arguments)}")
    finally:
        os.close(watch)
    _, status = os.waitpid(pid, 0)
    with contextlib.suppress(ProcessLookupError):  # whatever it left running behind
        os.killpg(pid, signal.SIGKILL)
    code = os.waitstatus_to_exitcode(status)
    # A child killed by a signal: what bash reports for it (128 + the signal's number).
    return 128 - code if code < 0 else code


def _completed(
    command: str, code: int, out: IO[bytes], err: IO[bytes]
) -> subprocess.CompletedProcess[str]:
    texts = []
    for stream in (out, err):
        stream.seek(0)
        texts.append(stream.read().decode("utf-8", errors="replace"))
    return subprocess.CompletedProcess(command, code, *texts)


def _native_threads() -> int:
    """The threads of this process that Python did not start (a native library's pool)."""
    return len(os.listdir("/proc/self/task")) - threading.active_count()


def _import_all() -> int:
    """Import every module of ``odds`` and the readers its commands load when used (DuckDB,
    Parquet) here, once, rather than in every child: a child imports nothing on its own.
    The native threads then running are those a forked child may safely inherit."""
    import odds

    for module in pkgutil.walk_packages(odds.__path__, "odds."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    for optional in ("duckdb", "pyarrow.parquet", "xlsxwriter"):
        with contextlib.suppress(ImportError):
            importlib.import_module(optional)
    return _native_threads()


#: Measured while pytest collects this module, before any test of this process has run.
NATIVE_THREADS_AFTER_IMPORTS = _import_all()


def _fork_safe() -> bool:
    """No native pool has started since the imports (see the module's docstring)."""
    return _native_threads() <= NATIVE_THREADS_AFTER_IMPORTS


@functools.cache
def _import_once() -> None:
    """This process forgets what earlier tests computed (as a new ``odds`` knows nothing)
    and freezes its objects out of the cycle collector's reach: a child that freed or scanned
    an inherited cache would copy every page of it (the suite's system time doubled)."""
    import gc

    from odds.core.caching import clear_caches

    clear_caches()
    gc.collect()
    gc.freeze()


#: The packaged paytables the attempts name most (pok-deng in some 110 commands,
#: dragon-tiger in 35), analysed in this process before its first fork, with their shoe-state
#: evaluators (``odds shoe``, ``odds exposure``, shoe-by-shoe audits: Pok Deng's takes 0.9 s,
#: and seven children built it each).
WARMED = ("pok-deng", "dragon-tiger")


@functools.cache
def _warmed() -> None:
    """What many children would each compute from nothing, computed once here, after
    :func:`_import_once` and before the first attempt's fork: every definition of ``tables/``
    compiled, and the analyses and evaluators of :data:`WARMED` (2 s here; the attempts'
    children 45.9 -> 37.9 CPU-s). What an attempt catches does not change: a figure does not
    depend on a warm cache, since every cache is keyed on content (a copy an attempt edits
    is another key, counted cold in its child); tests/core/test_caching.py checks that these
    games' whole analyses after :func:`odds.core.caching.clear_caches` equal the warm ones,
    and tests/tools/test_shoe_state.py Pok Deng's evaluator against full analyses in a
    process that keeps it; no cached computation writes to standard error (a line a cold
    run would add); every other game is counted cold in each child, and the attempts run
    through ``bash`` start a new ``odds`` from nothing."""
    import gc

    from odds.games.defined.registry import table_games
    from odds.games.paytable import load
    from odds.tools.shoe.questions import feature_of

    table_games()
    for name in WARMED:
        paytable = load(name)
        paytable.analysis()
        paytable.bet_analysis()
        feature_of(paytable).evaluator(paytable.config)
    gc.collect()
    gc.freeze()


def _as_a_fresh_interpreter(arguments: list[str]) -> None:
    """What a new ``python`` starts with, where pytest's process differs: arguments, standard
    streams on file descriptors 0-2, default signal dispositions and warning filters."""
    sys.argv = ["odds", *arguments]
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(
        open(2, "wb", buffering=0, closefd=False),  # noqa: SIM115
        encoding="utf-8",
        errors="backslashreplace",
        line_buffering=True,
    )
    faulthandler.disable()
    for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGALRM):
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    warnings.resetwarnings()
    for category in (ResourceWarning, ImportWarning, PendingDeprecationWarning):
        warnings.filterwarnings("ignore", category=category)
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")


#: ``> FILE`` and ``2> FILE`` at the end of a command, FILE a plain name (nothing to expand).
REDIRECT = re.compile(r"\s+(2?)>\s*([\w./-]+)$")


def _odds_head(command: str) -> tuple[list[str], dict[int, str], str, str] | None:
    """``(arguments, redirects, separator, rest)`` when ``command`` is a plain ``odds ARGS``
    with at most ``> FILE`` and ``2> FILE``, then ``;``, ``&&``, ``||`` or nothing, then the
    rest of the list; else ``None`` (a pipe or ``&`` first, or more than those words)."""
    quote, index, separator = "", 0, ""
    while index < len(command):
        char = command[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "\\":
            index += 1
        elif char == ";" or command.startswith(("&&", "||"), index):
            separator = command[index : index + (1 if char == ";" else 2)]
            break
        elif char in "|&":
            return None
        index += 1
    head, rest = command[:index].rstrip(), command[index + len(separator) :]
    redirects: dict[int, str] = {}
    while match := REDIRECT.search(head):
        fd = 2 if match.group(1) else 1
        if fd in redirects:
            return None
        redirects[fd] = match.group(2)
        head = head[: match.start()]
    arguments = _plain_odds(head.strip())
    return None if arguments is None else (arguments, redirects, separator, rest.strip())


def _bash(command: str, folder: Path, timeout: float, out: IO[bytes], err: IO[bytes]) -> int:
    """The exit status of ``bash -c command`` in its own process group, killed whole on
    timeout."""
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=folder,
        env=_environment(),
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=err,
        start_new_session=True,
    )
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"timed out after {timeout:g} s (a hang): {command}")
    finally:
        with contextlib.suppress(ProcessLookupError):  # whatever it left running behind
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    return process.returncode


def _run(command: str, folder: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    """``bash -c command``, or as much of it as is plain ``odds`` forked (the docstring).

    Output goes to files, not pipes: a background process the command started
    (a test server) would hold a pipe open and make the wait outlast the command.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        rest, code, separator = command, 0, ""
        while _fork_safe() and (head := _odds_head(rest)) is not None:
            arguments, redirects, separator, rest = head
            code = _forked(arguments, folder, timeout, out, err, redirects)
            if not rest or not (separator == ";" or (separator == "&&") == (code == 0)):
                break  # nothing more, or bash skips what follows (with this status)
        if rest:
            script = f"(exit {code}) {separator} {rest}" if separator else rest
            code = _bash(script, folder, timeout, out, err)
        return _completed(command, code, out, err)


@pytest.mark.parametrize("attempt", _all(), ids=lambda a: a.id)
def test_attempt(attempt: Attempt, tmp_path: Path) -> None:
    _import_once()
    _warmed()
    *setup, judged = attempt.commands
    for command in setup:
        done = _run(command, tmp_path, attempt.timeout)
        if done.returncode != 0:
            pytest.fail(f"setup failed (exit {done.returncode}): {command}\n{done.stderr}")
    done = _run(judged, tmp_path, attempt.timeout)
    shown = (
        f"$ {judged}\nexit {done.returncode}\n"
        f"stdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}"
    )
    wanted = attempt.exit
    if wanted == "nonzero" and done.returncode == 0:
        pytest.fail(f"expected a non-zero exit\n{shown}")
    if wanted != "nonzero" and done.returncode != int(wanted):
        pytest.fail(f"expected exit {wanted}\n{shown}")
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        if "Traceback" in done.stderr or len(lines) != 1:
            pytest.fail(f"a failure must be one line of stderr, no traceback\n{shown}")
    if attempt.stderr is not None and not re.search(attempt.stderr, done.stderr):
        pytest.fail(f"stderr does not match {attempt.stderr!r}\n{shown}")
    if attempt.stdout is not None and not re.search(attempt.stdout, done.stdout):
        pytest.fail(f"stdout does not match {attempt.stdout!r}\n{shown}")
