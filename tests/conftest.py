"""Shared test helpers, and how xdist splits the suite between its workers."""

from __future__ import annotations

import pytest

from odds.cli import main
from odds.games.paytable import load


@pytest.fixture
def run(capsys):
    """Run the CLI in-process: returns (exit code, stdout, stderr)."""

    def invoke(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return invoke


@pytest.fixture(scope="session")
def pok_deng():
    """The Pok Deng paytable, loaded once per session (auditor's toolkit tests)."""
    return load("pok-deng")


@pytest.fixture(scope="session")
def pok_deng_analysis(pok_deng):
    return pok_deng.analysis()


# ---------------------------------------------------------------------------
# How xdist splits the suite (``--dist loadfile``, pyproject.toml)

#: Files whose tests are split into several work units, by the parameter's key: the attempt
#: list (~60 s of CPU in about 400 commands, most forked from the test process) by attempt
#: file.
SPLIT_BY_PARAMETER = {"tests/cli/test_attempts.py": lambda param: param.split(":")[0]}
#: Files started first: few tests, much CPU (one report per path regenerated, ~12 s).
#: xdist orders the files by their number of tests, so these used to start last and one
#: worker finished them alone.
STARTED_FIRST = ("tests/cli/test_cli.py", "tests/cli/test_cli_conventions.py")
#: Then the attempt list's units, before any file that starts a native thread pool in its
#: worker (Typst's, by an in-process PDF): after one, a forked ``odds`` could inherit the
#: pool's locks without its threads, so the attempts run a whole interpreter each instead
#: (``tests/cli/test_attempts.py``), and cost twice the CPU (218 of ~400 commands did).
FORKED_FIRST = "tests/cli/test_attempts.py"


def work_unit(nodeid: str) -> str:
    """The work unit of a test: its file, or its file and parameter key (see above)."""
    path = nodeid.split("::", 1)[0]
    split = SPLIT_BY_PARAMETER.get(path)
    if split is None or "[" not in nodeid:
        return path
    return f"{path}[{split(nodeid[nodeid.index('[') + 1 : nodeid.rindex(']')])}]"


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` with :func:`work_unit`'s units, :data:`STARTED_FIRST` first, then
    :data:`FORKED_FIRST`'s.

    (``--dist loadgroup`` would be the documented way to group, but with pytest 9 its marks
    are ignored: xdist 3.8 sets ``item._nodeid``, which pytest 9 no longer reads.)
    """
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Scheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

        def _assign_work_unit(self, node) -> None:
            forked = [scope for scope in self.workqueue if scope.startswith(FORKED_FIRST)]
            for scope in reversed(forked):
                self.workqueue.move_to_end(scope, last=False)
            for scope in reversed(STARTED_FIRST):
                if scope in self.workqueue:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return Scheduling(config, log)
