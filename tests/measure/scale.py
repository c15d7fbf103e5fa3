"""How long ``odds audit`` takes on a large operator log, and how much memory: a command to run.

``python -m tests.measure.scale --rows 10000000`` measures the audit of a
10-million-row operator log (Parquet; ``--csv``: the same rows as a CSV file, as
operators export them) on this machine:

1. ``odds simulate GAME --seats 5 --stakes`` deals a seed log (default
   20,000 rounds of Pok Deng, five seats, every bet staked and paid); dealing
   costs about a millisecond a round in Python, so a 10-million-round log
   would take hours;
2. DuckDB repeats the seed log to ``--rows`` rows, each copy with its own
   shoe ids, its shoes in another order and later timestamps (so every shoe is
   whole and used once, and neighbouring rows are not the seed's neighbours:
   the audit's check for a hand repeated row after row would otherwise see
   the seed's few chance repeats hundreds of times over and refuse the log);
3. ``odds audit GAME --log big.parquet --format json`` runs as a child
   process, timed: wall seconds, CPU seconds (user + system) and its peak
   resident memory (``ru_maxrss``; the log is made in a process of its own, so that
   figure is the audit's alone).

It prints one line per step and a last line with the figures. Nothing here is
a test: timings depend on the machine and on what else runs on it (the CPU
seconds say how much work there was; the wall seconds what a user waits).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _odds(*args: str) -> list[str]:
    return [sys.executable, "-m", "odds", *args]


def make_log(
    game: str,
    seed_rounds: int,
    rows: int,
    folder: Path,
    seats: int = 5,
    penetration: str | None = None,
    kind: str = "parquet",
) -> Path:
    """The seed log dealt by ``odds simulate``, repeated to ``rows`` rows (Parquet or CSV).

    ``penetration`` deals each shoe through to that fraction (``75%``: a baccarat
    shoe of about 60 rounds, so the shoe-level tests run); without it every
    round is a fresh shuffle. The log is ``big-<rows>.parquet`` (``kind`` "csv":
    ``big-<rows>.csv``, read line by line by the audit, which Parquet is not) in
    ``folder``; the seed ``seed.parquet`` beside it is reused by later calls.
    """
    import duckdb

    seed = folder / "seed.parquet"
    extra = ["--seats", str(seats)] if seats else ["--operator"]
    if penetration:
        extra += ["--penetration", penetration]
    if not seed.exists():
        deal = ["simulate", game, "--rounds", str(seed_rounds), "--stakes", *extra, "-o", str(seed)]
        subprocess.run(_odds(*deal), check=True)
    big = folder / f"big-{rows}.{kind}"
    written = "FORMAT csv, HEADER true" if kind == "csv" else "FORMAT parquet, COMPRESSION zstd"
    with duckdb.connect() as con:
        con.execute("SET preserve_insertion_order = true")
        described = con.execute("DESCRIBE SELECT * FROM read_parquet(?)", [str(seed)]).fetchall()
        names = [r[0] for r in described]
        found = con.execute("SELECT max(shoe) FROM read_parquet(?)", [str(seed)]).fetchone()
        shoes = found[0] if found else 0
        span = seed_rounds * 45
        copies = -(-rows // seed_rounds)
        columns = ", ".join(
            f"shoe + k * {shoes} AS shoe"
            if n == "shoe"
            else f'strftime(CAST("timestamp" AS TIMESTAMP) + to_seconds(k * {span}), '
            "'%Y-%m-%dT%H:%M:%SZ') AS \"timestamp\""
            if n == "timestamp"
            else '"' + n.replace('"', '""') + '"'
            for n in names
        )
        con.execute(
            f"COPY (SELECT {columns} FROM range({copies}) c(k), read_parquet(?) "
            f"ORDER BY k, hash(k, shoe), round LIMIT {rows}) "
            f"TO ? ({written})",
            [str(seed), str(big)],
        )
    return big


def make_log_apart(
    game: str,
    seed_rounds: int,
    rows: int,
    folder: Path,
    seats: int,
    penetration: str | None,
    kind: str = "parquet",
) -> Path:
    """:func:`make_log` in a process of its own, so that the audit's peak memory is its own.

    On Linux a child's ``ru_maxrss`` starts from the peak of the process that started
    it (the memory map it was forked from, high-water mark included): a parent that had
    just repeated the seed with DuckDB (gigabytes for ten million rows) would lend the
    audit its peak. A spawned process makes the log and exits; this one stays small.
    """
    import multiprocessing

    with multiprocessing.get_context("spawn").Pool(1) as pool:
        made: Path = pool.apply(
            make_log, (game, seed_rounds, rows, folder, seats, penetration, kind)
        )
    return made


def time_audit(game: str, log: Path, extra: list[str]) -> tuple[float, float, int, int]:
    """Wall seconds, CPU seconds, peak resident bytes and the exit code of ``odds audit``."""
    out = log.with_suffix(".json")
    start = time.perf_counter()
    process = subprocess.Popen(
        _odds("audit", game, "--log", str(log), "--format", "json", "-o", str(out), *extra)
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, process.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="pok-deng")
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--seed-rounds", type=int, default=20_000)
    parser.add_argument("--seats", type=int, default=5, help="0: the game's own positions")
    parser.add_argument("--penetration", help="deal each shoe through to this fraction (e.g. 75%%)")
    parser.add_argument("--keep", type=Path, help="keep the logs in this folder")
    parser.add_argument("--csv", action="store_true", help="write the log as CSV, not Parquet")
    parser.add_argument("audit_args", nargs="*", help="more options for odds audit (after --)")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="odds-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        kind = "csv" if args.csv else "parquet"
        log = folder / f"big-{args.rows}.{kind}"
        if not log.exists():
            begun = time.perf_counter()
            log = make_log_apart(
                args.game, args.seed_rounds, args.rows, folder, args.seats, args.penetration, kind
            )
            print(
                f"log: {args.rows:,} rows, {log.stat().st_size:,} bytes, made in "
                f"{time.perf_counter() - begun:.0f} s",
                flush=True,
            )
        wall, cpu, peak, code = time_audit(args.game, log, args.audit_args)
        print(
            f"odds audit {args.game} {' '.join(args.audit_args)}: {args.rows:,} rows in "
            f"{wall:.1f} s wall, {cpu:.1f} s CPU, peak memory {peak / 2**20:,.0f} MiB, "
            f"exit {code} (on {os.cpu_count()} cores)"
        )
        return 0
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
