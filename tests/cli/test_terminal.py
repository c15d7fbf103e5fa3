"""What a person at a terminal sees: stdout redirected while stderr is a terminal, a pipe closed
early, Ctrl-C. Real subprocesses with stderr on a pseudo-terminal (tests/cli/pty_harness.py).

Issue 19, item 1: ``odds report blackjack > bj.md`` in an interactive shell wrote a 0-byte file
and exited 0, because the progress bar (rich, ``redirect_stdout=True``) sent everything printed
while it was up to the terminal. Item 7: long work was silent; bars now have an ETA and a
spinner covers the work before the first step.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.cli.pty_harness import command, environment, run_on_terminal, run_piped, wait_for

#: A report (Dragon Tiger's, 0.1 s of work): the spinner, the redirection and the writer are
#: those of every report; Pok Deng's one-deck report (what these tests ran before) costs
#: 0.45 s more per process and goes through the same code.
REPORT = command("report", "dragon-tiger")


def test_report_redirected_on_a_terminal_is_whole_and_the_bar_stays_on_stderr():
    """Issue 19's fault (the bar's ``redirect_stdout=True`` sending the report to the
    terminal) fails it: stdout empty, the report on the screen."""
    args = REPORT
    piped = run_piped(args)
    assert piped.returncode == 0 and piped.stderr == b""
    shown = run_on_terminal(args)
    assert shown.code == 0
    assert shown.stdout == piped.stdout  # byte-identical to the piped run
    assert shown.stdout.startswith(b"# Dragon Tiger")
    screen = shown.screen_text
    assert "odds report dragon-tiger" in screen  # the spinner of the whole command was drawn
    assert "# Dragon Tiger" not in screen and "Summary" not in screen  # none of the report


def test_report_to_a_file_on_a_terminal(tmp_path):
    """The issue's own reproduction: stdout a file (not a pipe), stderr the terminal."""
    target = tmp_path / "pd.md"
    args = [*REPORT, "--format", "json"]
    with target.open("wb") as handle:
        shown = run_on_terminal(args, stdout=handle)
    assert shown.code == 0
    assert target.read_bytes() == run_piped(args).stdout
    assert target.stat().st_size > 1000


def test_a_counted_loop_shows_steps_and_an_eta_and_stdout_is_untouched():
    args = command("simulate", "pok-deng", "--rounds", "3000", "--seed", "3")
    shown = run_on_terminal(args)
    assert shown.code == 0
    assert shown.stdout == run_piped(args).stdout
    screen = shown.screen_text
    assert "dealing rounds" in screen and "ETA" in screen and "/3000" in screen
    assert "banker" not in screen  # no CSV on the terminal


def test_work_shorter_than_the_delay_draws_nothing():
    shown = run_on_terminal(command("games", "pok-deng"), env=environment(delay=30))
    assert shown.code == 0 and shown.stdout.startswith(b"## Games")
    assert shown.screen_text.strip() == ""


def test_nothing_on_stderr_in_a_pipe_even_with_no_delay():
    done = run_piped(command("simulate", "pok-deng", "--rounds", "500"))
    assert done.returncode == 0 and done.stderr == b""


def test_a_pipe_closed_early_exits_quietly():
    done = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + " ".join(command("games")) + " | head -1"],
        capture_output=True,
        env=environment(delay=None),
        timeout=120,
    )
    assert done.stdout == b"## Games\n"
    assert done.stderr == b""
    # The reader gone before anything is written: no traceback, no BrokenPipe noise, exit 0.
    process = subprocess.Popen(
        REPORT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment(delay=None),
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()
    err = process.stderr.read()
    assert process.wait(timeout=120) == 0
    assert err == b""


def test_a_pipe_closed_early_with_the_bar_up():
    def close_stdout(process: subprocess.Popen[bytes], screen) -> None:
        assert process.stdout is not None
        process.stdout.close()

    shown = run_on_terminal(REPORT, while_running=close_stdout)
    assert shown.code == 0
    assert "Traceback" not in shown.screen_text and "Broken" not in shown.screen_text


def _wait_for_cpu(pid: int, seconds: float, timeout: float = 120) -> bool:
    """Whether process ``pid`` has used ``seconds`` of CPU (user and system) within
    ``timeout`` seconds of the clock, still running."""
    tick = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return False
        if fields[0] == "Z":
            return False
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:
            return True
        time.sleep(0.02)
    return False


def _interrupt_mid_work(process: subprocess.Popen[bytes], screen) -> None:
    """Ctrl-C with the command's spinner drawn and the child 0.8 s of CPU in (its imports take
    0.4 s): mid-way through blackjack's main analysis, under the spinner of the one watcher
    a Ctrl-C must take down. (The rule options' bar, drawn after the whole main analysis,
    cost ~1 s more of the child's CPU for the same path.)"""
    assert wait_for(screen, b"odds report blackjack"), screen()
    assert _wait_for_cpu(process.pid, 0.8), "the report ended or never started"
    process.send_signal(signal.SIGINT)


@pytest.mark.parametrize("stderr_on_terminal", [True, False])
def test_ctrl_c_mid_work_is_one_line_and_exit_130(stderr_on_terminal):
    args = command("report", "blackjack")
    if stderr_on_terminal:
        shown = run_on_terminal(args, while_running=_interrupt_mid_work)
        assert shown.code == 130
        assert shown.stdout == b""
        screen = shown.screen_text
        assert "Traceback" not in screen and "KeyboardInterrupt" not in screen
        assert screen.count("error: interrupted") == 1
        return
    process = subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(delay=None)
    )
    # Mid-work: after 0.8 s of the child's CPU (its imports take 0.4 s, the whole report 4.3 s),
    # not after 2.5 s of the clock (2.5 s of CPU on an idle machine, perhaps still importing
    # on a loaded one).
    assert _wait_for_cpu(process.pid, 0.8), "the report ended or never started"
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert out == b""
    assert err == b"error: interrupted\n"


def test_bench_progress_on_the_terminal_its_lines_on_stdout():
    shown = run_on_terminal(command("bench", "dragon-tiger", "--repeat", "1"))
    assert shown.code == 0
    out = shown.stdout.decode()
    assert "dragon-tiger" in out and "engine" in out and "| analysis" in out
    screen = shown.screen_text
    assert "bench" in screen and "ETA" in screen
    assert "engine " not in screen and "| analysis" not in screen
