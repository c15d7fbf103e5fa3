"""``odds bench``: time each game's engine against its independent brute force.

A game lists :class:`odds.games.base.BenchCase` s; each case's engine is run
``repeat`` times (the best time counts: the machine's load only ever adds
time), its brute force once, and the two results must be equal exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from odds.core.table import Column, Kind, Table
from odds.games.base import BenchCase
from odds.runtime.progress import track


@dataclass(frozen=True)
class BenchRow:
    """One timed case: engine best time, brute-force time (or ``None``) and agreement."""

    label: str
    engine_seconds: float
    brute_seconds: float | None
    agree: bool | None
    note: str = ""
    result: str = ""
    #: Another program's time for the same analysis, and whose (:attr:`BenchCase.reference`).
    reference: tuple[float, str] | None = None

    @property
    def ratio(self) -> float | None:
        """How many times faster the engine was (``None`` without a brute force)."""
        if self.brute_seconds is None or not self.engine_seconds:
            return None
        return self.brute_seconds / self.engine_seconds


def run_case(case: BenchCase, repeat: int) -> BenchRow:
    """Time one case: the engine's best of ``repeat`` runs, then the brute force once."""
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    clock = _CLOCKS[case.clock]
    times = []
    fast: Any = None
    for _ in range(repeat):
        start = clock()
        fast = case.engine()
        times.append(clock() - start)
    best = min(times)
    if case.brute is None:
        return BenchRow(case.label, best, None, None, case.note, str(fast), case.reference)
    start = time.perf_counter()
    slow = case.brute()
    brute = time.perf_counter() - start
    if case.view is not None:
        fast = case.view(fast)
    return BenchRow(case.label, best, brute, fast == slow, case.note)


def _children_cpu() -> float:
    """CPU seconds (user and system) of every finished child process so far (Unix)."""
    import resource

    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


#: What a case's ``clock`` names: elapsed time, or the CPU time of the processes it runs.
_CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "child-cpu": _children_cpu}


def run(
    cases: Iterable[BenchCase], repeat: int, report: Callable[[BenchRow], None] | None = None
) -> list[BenchRow]:
    """Time every case in order; ``report`` sees each row as soon as it is measured."""
    rows = []
    for case in track(list(cases), "bench case", label=lambda case: case.label):
        row = run_case(case, repeat)
        if report is not None:
            report(row)
        rows.append(row)
    return rows


def bench_table(rows: Iterable[BenchRow]) -> Table:
    """The timings as a table (seconds are measurements, not exact figures)."""
    records = [
        {
            "analysis": row.label,
            "engine_seconds": row.engine_seconds,
            "brute_seconds": row.brute_seconds,
            "ratio": row.ratio,
            "equal": row.agree,
            "result": row.result or None,
            "reference_seconds": row.reference[0] if row.reference else None,
            "reference": row.reference[1] if row.reference else None,
        }
        for row in rows
    ]
    columns = [
        Column("analysis", "analysis"),
        Column("engine_seconds", "engine, best (s)", Kind.APPROXIMATE, places=6),
        Column("brute_seconds", "brute force (s)", Kind.APPROXIMATE, places=2),
        Column("ratio", "ratio (×)", Kind.APPROXIMATE, places=0),
        Column("equal", "equal", Kind.FLAG),
        Column("result", "result (timing only)"),
    ]
    if any(row.reference for row in rows):  # another program's time beside ours
        columns += [
            Column("reference_seconds", "other program (s)", Kind.APPROXIMATE, places=2),
            Column("reference", "other program, source"),
        ]
    return Table(
        key="bench", title="Engine against brute force", columns=tuple(columns), rows=tuple(records)
    )
