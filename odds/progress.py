"""Progress for long work: a bar on a terminal, nothing in a pipe, no coupling in the library.

Library code marks its long loops with :func:`track` (``for flip in
track(flips, "rule options"): …``) and never prints. Whether anything is shown
is decided once, by the command line: :func:`shown_on_terminal` installs a
reporter when standard error is a terminal, and the reporter draws a ``rich``
bar only once the work has taken longer than :data:`DELAY` seconds, so quick
commands stay clean. In a pipe, in CI and in tests nothing is installed and
:func:`track` is a plain loop.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

#: Seconds of work before a bar appears.
DELAY = 1.5


class Reporter:
    """Draws bars with ``rich`` on one console, lazily (after :data:`DELAY` seconds)."""

    def __init__(self, console: Any = None, delay: float = DELAY) -> None:
        self.console = console
        self.delay = delay
        self.started = time.monotonic()
        self._progress: Any = None

    def _bars(self) -> Any:
        if self._progress is None:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            console = self.console or Console(stderr=True)
            self._progress = Progress(
                TextColumn("{task.description}", markup=False),  # file names are not markup
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=console,
                transient=True,
            )
            self._progress.start()
        return self._progress

    def due(self) -> bool:
        """Whether enough time has passed to show a bar."""
        return self._progress is not None or time.monotonic() - self.started >= self.delay

    def track(self, items: Iterable[T], description: str, total: int | None) -> Iterator[T]:
        task = None
        for done, item in enumerate(items, start=1):
            yield item
            if task is None and self.due():
                task = self._bars().add_task(description, total=total, completed=done)
            elif task is not None:
                self._progress.update(task, completed=done)
        if task is not None:
            self._progress.remove_task(task)

    @contextmanager
    def task(self, description: str, total: float) -> Iterator[Callable[[float], None]]:
        """A bar for work that is not a loop: the caller reports how much is done."""
        state: dict[str, Any] = {}

        def update(completed: float) -> None:
            if "task" not in state and self.due():
                state["task"] = self._bars().add_task(description, total=total)
            if "task" in state:
                self._progress.update(state["task"], completed=completed)

        try:
            yield update
        finally:
            if "task" in state:
                self._progress.remove_task(state["task"])

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()


_REPORTER: ContextVar[Reporter | None] = ContextVar("odds_progress", default=None)


def track(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """Iterate ``items``, reporting progress when a reporter is installed.

    ``total`` defaults to ``len(items)`` when the items have a length.
    """
    reporter = _REPORTER.get()
    if reporter is None:
        yield from items
        return
    if total is None and isinstance(items, Sized):
        total = len(items)
    yield from reporter.track(items, description, total)


@contextmanager
def task(description: str, total: float = 100) -> Iterator[Callable[[float], None]]:
    """Progress of work that is not a loop (a database query): call ``update(completed)``.

    Without a reporter the update does nothing.
    """
    reporter = _REPORTER.get()
    if reporter is None:
        yield lambda completed: None
        return
    with reporter.task(description, total) as update:
        yield update


@contextmanager
def reporting(console: Any = None, delay: float = DELAY) -> Iterator[Reporter]:
    """Install a reporter for the duration (tests pass a recording ``rich`` console)."""
    reporter = Reporter(console, delay)
    token = _REPORTER.set(reporter)
    try:
        yield reporter
    finally:
        _REPORTER.reset(token)
        reporter.close()


@contextmanager
def shown_on_terminal() -> Iterator[None]:
    """Show progress bars when standard error is a terminal; otherwise nothing."""
    isatty = getattr(sys.stderr, "isatty", None)
    if isatty is None or not isatty():
        yield
        return
    with reporting():
        yield
