"""``odds bench``'s whole-process cases: a child's CPU time, another program's time beside it.

The clock must measure the child process (a child that burns CPU reads as at
least what it burned, a sleeping one as almost nothing, whatever the machine's
load), and the other program's figure must reach the table only where a case
has one.
"""

from __future__ import annotations

import sys

import pytest

from odds.core.errors import OddsError
from odds.games.base import BenchCase
from odds.games.blackjack import bench as blackjack_bench
from odds.tools.benchmark import bench_table, run_case

_BURN = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass"


def _child(code: str):
    import subprocess

    return lambda: subprocess.run([sys.executable, "-c", code], check=True)


def test_child_cpu_counts_the_childs_cpu_not_its_wall_time():
    burn = run_case(BenchCase("burn", _child(_BURN), None, clock="child-cpu"), 1)
    sleep = run_case(
        BenchCase("sleep", _child("import time; time.sleep(0.5)"), None, clock="child-cpu"), 1
    )
    assert burn.engine_seconds >= 0.3
    assert sleep.engine_seconds < 0.3  # the interpreter's start, not the half second asleep


def test_the_other_programs_time_shows_only_where_a_case_has_one():
    plain = run_case(BenchCase("plain", lambda: 1, None), 1)
    assert [c.key for c in bench_table([plain]).columns][-1] == "result"
    other = run_case(BenchCase("other", lambda: 1, None, reference=(0.12, "C++")), 1)
    table = bench_table([plain, other])
    assert [c.key for c in table.columns][-2:] == ["reference_seconds", "reference"]
    assert [row["reference_seconds"] for row in table.rows] == [None, 0.12]


def test_blackjack_cases_name_farmers_rules_and_times():
    """The CA was timed on 8 decks, S17, double any two, DAS, peek, CDP1 (issue 25)."""
    rules = blackjack_bench.CA_RULES
    assert not rules.dealer_hits_soft_17 and rules.double == "any-two"
    assert rules.double_after_split and rules.hole_card == "peek"
    assert rules.split_strategy == "CDP1"
    cases = blackjack_bench.whole_process_cases()
    assert [case.reference for case in cases] == [
        (0.12, blackjack_bench.CA_SOURCE),
        (0.62, blackjack_bench.CA_SOURCE),
        None,
    ]
    assert {case.clock for case in cases} == {"child-cpu"}


def test_a_failing_child_is_one_line():
    with pytest.raises(OddsError, match=r"the timed process failed: .*ZeroDivisionError"):
        blackjack_bench._child(["-c", "1 / 0"])


def test_the_simulation_case_times_the_rounds_beside_the_old_loop():
    """The simulation row (issue 25: play made as fast as the loop it replaced) gives a
    time per round and the old loop's time for as many rounds, 6 µs each."""
    from odds.games.blackjack.options import BlackjackRules

    case = blackjack_bench.simulation_case((4,) * 9 + (16,), BlackjackRules(), rounds=2_000)
    assert case.reference == (2_000 * 6e-6, blackjack_bench.OLD_LOOP_SOURCE)
    assert "1 deck, 2,000 rounds" in case.label
    row = run_case(case, 1)
    per_round = float(row.result.split(" µs a round")[0])
    assert 0 < per_round * 2_000 <= row.engine_seconds * 1e6 * 1.5  # its own clock, CPU
    assert "mean net" in row.result
