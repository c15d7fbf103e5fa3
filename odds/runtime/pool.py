"""Local worker processes: how many, and how they stop on Ctrl-C.

Two rules, for every command that forks (``odds reports``, ``odds exposure``):

* **Bounded.** A CPU-bound worker beyond the machine's cores only adds memory
  and start-up time, and beyond the number of chunks it has nothing to do:
  :func:`local_workers` caps the count (and says so) and refuses an absurd one
  (``--workers 1000000`` was a fork bomb).
* **Stoppable.** Ctrl-C (or SIGTERM/SIGHUP, :func:`odds.runtime.atomic.signals_as_interrupts`)
  kills the workers, cancels what is queued and returns within a second, with
  no pool or ``threading`` traceback — also when Ctrl-C is pressed again while
  it cleans up (:func:`in_order`).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Generator, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

from odds.core.errors import OddsError
from odds.runtime.atomic import default_signals

T = TypeVar("T")
R = TypeVar("R")

#: More local workers than this is a typing error, not a machine: refused.
MAX_WORKERS = 1024


def cores() -> int:
    """The cores this process may run on (its affinity, not the whole machine's)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def local_workers(
    requested: int | None, chunks: int, option: str = "--workers", warn: bool = True
) -> int:
    """Worker processes for ``chunks`` units of CPU-bound work.

    ``None`` means every core. At most the cores and the chunks; a capped
    request is noted on stderr; below 1 or above :data:`MAX_WORKERS` refused.
    """
    available = cores()
    if requested is None:
        return max(1, min(available, chunks))
    if requested < 1:
        raise OddsError(f"{option} must be at least 1, got {requested}")
    if requested > MAX_WORKERS:
        raise OddsError(
            f"{option} {requested}: at most {MAX_WORKERS} worker processes "
            f"(this machine has {available} cores)"
        )
    chosen = max(1, min(requested, available, chunks))
    if chosen < requested and warn:
        import sys

        why = f"{available} cores" if chosen == available else f"{chunks} chunks of work"
        sys.stderr.write(f"note: {option} {requested} capped to {chosen} ({why})\n")
    return chosen


def _worker_start() -> None:
    default_signals(ignore_ctrl_c=True)


def pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers leave Ctrl-C to the parent and die at once on SIGTERM."""
    return ProcessPoolExecutor(workers, initializer=_worker_start)


def in_order(
    function: Callable[[T], R], items: Iterable[T], workers: int, ahead: int = 2
) -> Generator[R, None, None]:
    """``map(function, items)`` on ``workers`` processes, results in the items' order.

    At most ``workers * ahead`` items are queued at a time, so a lazy
    ``items`` is never read ahead of the work (a billion chunks are not built
    first). On any exception, KeyboardInterrupt included, the workers are
    killed and the pool closed without waiting (see :func:`stop`).
    """
    executor = pool(workers)
    queued: list[Future[R]] = []
    source = iter(items)
    try:
        for item in source:
            queued.append(executor.submit(function, item))
            if len(queued) >= workers * ahead:
                yield queued.pop(0).result()
        while queued:
            yield queued.pop(0).result()
    except BaseException:
        stop(executor)
        raise
    executor.shutdown(wait=True)


def stop(executor: ProcessPoolExecutor) -> None:
    """Kill the pool's workers and drop its queue; a second Ctrl-C meanwhile is ignored.

    ``shutdown(wait=True)`` after Ctrl-C could wait for a report that takes
    minutes, and Python's exit hook joins the pool's thread again (a second
    Ctrl-C there printed a ``threading`` traceback): the workers are killed
    first, then the pool's thread is joined for at most a second.
    """
    import contextlib
    import threading

    main = threading.current_thread() is threading.main_thread()
    previous: Any = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        processes = list((getattr(executor, "_processes", None) or {}).values())
        for process in processes:
            with contextlib.suppress(Exception):
                process.kill()
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.join(1)
        manager = getattr(executor, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(1)
    finally:
        if main and previous is not None:
            signal.signal(signal.SIGINT, previous)
