"""Progress for long work: a bar with an ETA on a terminal, nothing in a pipe, no library coupling.

Library code marks its long loops with :func:`track` (``for flip in
track(flips, "rule options"): …``), work that is not a loop with :func:`task`,
and a stretch with no steps to count (building tables before the first step)
with :func:`phase`; it never prints. Whether anything is shown is decided
once, by the command line: :func:`shown_on_terminal` installs a reporter when
standard error is a terminal. In a pipe, in CI and in tests nothing is
installed and :func:`track` is a plain loop.

The reporter draws a task only once it has been open for :data:`DELAY`
seconds (quick work stays clean), and a watcher thread draws it then even if
its first step has not finished (so a slow first step is not silent). Bars
have a step count and an ETA; a phase is a spinner with the time elapsed.

Progress never captures the standard streams: ``rich``'s ``redirect_stdout``
and ``redirect_stderr`` are off, because a document printed while a bar was
up would otherwise be sent to the bar's console (standard error) and a
redirected ``odds report … > file`` would be left empty. What the command
prints goes through :func:`echo` (a line while work goes on, drawn above the
bar) or after :func:`finish` (the bar is erased and never comes back), so the
bar and the output never overwrite each other on one terminal.

The hidden environment variable ``ODDS_PROGRESS_DELAY`` (seconds) changes the
delay; tests set it to 0 to see the bar of a short command.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

#: Seconds a task is open before it is drawn.
DELAY = 1.5

#: The environment variable that overrides :data:`DELAY` (for tests and the impatient).
DELAY_VARIABLE = "ODDS_PROGRESS_DELAY"


def configured_delay() -> float:
    """:data:`DELAY`, or the number in ``ODDS_PROGRESS_DELAY`` when that is one."""
    text = os.environ.get(DELAY_VARIABLE, "")
    try:
        value = float(text)
    except ValueError:
        return DELAY
    return value if value >= 0 else DELAY


@dataclass
class _Task:
    description: str
    total: float | None
    opened: float = field(default_factory=time.monotonic)
    completed: float = 0
    shown: Any = None  # the rich task id once drawn


def _columns() -> tuple[Any, ...]:
    """Description, bar (a pulse for a phase), steps done, elapsed and remaining time."""
    from rich.progress import BarColumn, ProgressColumn, SpinnerColumn, TextColumn
    from rich.progress import Task as RichTask
    from rich.table import Column
    from rich.text import Text

    class Steps(ProgressColumn):
        def render(self, task: RichTask) -> Text:
            if task.total is None:
                return Text("")
            total = int(task.total)
            return Text(
                f"{int(task.completed):>{len(str(total))}}/{total}", style="progress.download"
            )

    class Times(ProgressColumn):
        """``0:00:12`` elapsed, then ``ETA 0:00:30`` when the total is known."""

        max_refresh = 0.5

        def render(self, task: RichTask) -> Text:
            elapsed = _clock(task.finished_time if task.finished else task.elapsed)
            if task.total is None:
                return Text(elapsed, style="progress.elapsed")
            left = task.time_remaining
            eta = "ETA -:--:--" if left is None else f"ETA {_clock(left)}"
            return Text(f"{elapsed} {eta}", style="progress.remaining")

    # One line whatever the terminal's width: the counts and times never wrap nor shrink,
    # the bar keeps 20 columns and the description takes the room left (cut with "…").
    return (
        SpinnerColumn(),
        TextColumn(
            "{task.description}",
            markup=False,  # descriptions name files: "[bold]x.csv" is a name, not markup
            table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1),
        ),
        BarColumn(bar_width=20),
        Steps(table_column=Column(no_wrap=True)),
        Times(table_column=Column(no_wrap=True)),
    )


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "-:--:--"
    whole = int(max(0, seconds))
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class Reporter:
    """Draws open tasks with ``rich`` on one console, each once it is :data:`DELAY` seconds old."""

    def __init__(self, console: Any = None, delay: float = DELAY) -> None:
        self.console = console
        self.delay = delay
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._open: dict[int, _Task] = {}
        self._next = 0
        self._progress: Any = None
        self._watcher: threading.Thread | None = None
        self._finished = False
        #: The process that draws: a worker forked from it (a process pool) inherits the
        #: reporter but must never draw, nor take a lock another thread held at the fork.
        self.pid = os.getpid()

    # -- the tasks -----------------------------------------------------------------

    def begin(self, description: str, total: float | None) -> int:
        """Open a task; it is drawn once it has been open for the delay."""
        with self._lock:
            handle = self._next
            self._next += 1
            self._open[handle] = _Task(description, total)
            if self.delay <= 0:
                self._draw_due()
            else:
                self._watch()
            return handle

    def advance(self, handle: int, completed: float, description: str | None = None) -> None:
        with self._lock:
            item = self._open.get(handle)
            if item is None:
                return
            item.completed = completed
            if description is not None:
                item.description = description
            if item.shown is not None and self._progress is not None:
                self._progress.update(item.shown, completed=completed, description=item.description)

    def end(self, handle: int) -> None:
        with self._lock:
            item = self._open.pop(handle, None)
            if item is not None and item.shown is not None and self._progress is not None:
                self._progress.remove_task(item.shown)
            if self._progress is not None and not any(
                t.shown is not None for t in self._open.values()
            ):
                self._stop_drawing()

    def track(
        self,
        items: Iterable[T],
        description: str,
        total: int | None,
        label: Callable[[T], str] | None = None,
    ) -> Iterator[T]:
        handle = self.begin(description, total)
        try:
            for done, item in enumerate(items):
                if label is not None:
                    self.advance(handle, done, f"{description}: {label(item)}")
                yield item
                self.advance(handle, done + 1)
        finally:
            self.end(handle)

    @contextmanager
    def task(self, description: str, total: float | None) -> Iterator[Callable[[float], None]]:
        """A bar for work that is not a loop: the caller reports how much is done."""
        handle = self.begin(description, total)
        try:
            yield lambda completed: self.advance(handle, completed)
        finally:
            self.end(handle)

    # -- printing beside the bar -----------------------------------------------------

    def echo(self, text: str, err: bool) -> None:
        """Print a line without breaking the bar (drawn above it)."""
        with self._lock:
            stream = sys.stderr if err else sys.stdout
            if self._progress is None:
                stream.write(text + "\n")
                stream.flush()
                return
            self._progress.stop()  # transient: the bar is erased, the cursor where it began
            stream.write(text + "\n")
            stream.flush()
            self._progress.start()

    def finish(self) -> None:
        """Erase the bar for good: the command is about to print its document."""
        with self._lock:
            self._finished = True
            self._stop_drawing()
            self._wake.notify_all()

    def close(self) -> None:
        self.finish()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=1)

    # -- drawing -----------------------------------------------------------------------

    def _bars(self) -> Any:
        if self._progress is None:
            from rich.console import Console
            from rich.progress import Progress

            self._progress = Progress(
                *_columns(),
                console=self.console or Console(stderr=True),
                transient=True,
                expand=True,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._progress.start()
        return self._progress

    def _stop_drawing(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
        for item in self._open.values():
            item.shown = None

    def _draw_due(self) -> float | None:
        """Draw every task old enough; the seconds until the next one is due (None: none)."""
        if self._finished:
            return None
        now = time.monotonic()
        waiting = None
        for item in self._open.values():
            if item.shown is not None:
                continue
            due = item.opened + self.delay - now
            if due <= 0:
                item.shown = self._bars().add_task(
                    item.description, total=item.total, completed=item.completed
                )
            elif waiting is None or due < waiting:
                waiting = due
        return waiting

    def _watch(self) -> None:
        if self._watcher is None:
            self._watcher = threading.Thread(
                target=self._watching, name="odds-progress", daemon=True
            )
            self._watcher.start()
        else:
            self._wake.notify_all()

    def _watching(self) -> None:
        with self._lock:
            while not self._finished:
                waiting = self._draw_due()
                self._wake.wait(timeout=waiting)


_REPORTER: ContextVar[Reporter | None] = ContextVar("odds_progress", default=None)


def _current() -> Reporter | None:
    """The reporter of this process (``None`` in a forked worker: only the parent draws)."""
    reporter = _REPORTER.get()
    if reporter is None or reporter.pid != os.getpid():
        return None
    return reporter


def track(
    items: Iterable[T],
    description: str,
    total: int | None = None,
    label: Callable[[T], str] | None = None,
) -> Iterator[T]:
    """Iterate ``items``, reporting progress when a reporter is installed.

    ``total`` defaults to ``len(items)`` when the items have a length;
    ``label(item)`` (optional) names the step under way beside the description.
    """
    reporter = _current()
    if reporter is None:
        yield from items
        return
    if total is None and isinstance(items, Sized):
        total = len(items)
    yield from reporter.track(items, description, total, label)


@contextmanager
def task(description: str, total: float = 100) -> Iterator[Callable[[float], None]]:
    """Progress of work that is not a loop (a database query): call ``update(completed)``.

    Without a reporter the update does nothing.
    """
    reporter = _current()
    if reporter is None:
        yield lambda completed: None
        return
    with reporter.task(description, total) as update:
        yield update


@contextmanager
def phase(description: str) -> Iterator[None]:
    """A stretch of work with no steps to count (building layouts): a spinner on a terminal."""
    reporter = _current()
    if reporter is None:
        yield
        return
    with reporter.task(description, None):
        yield


def echo(text: str, err: bool = True) -> None:
    """Print one line (stderr by default) while work goes on, without breaking a bar."""
    reporter = _current()
    if reporter is None:
        stream = sys.stderr if err else sys.stdout
        stream.write(text + "\n")
        stream.flush()
        return
    reporter.echo(text, err)


def finish() -> None:
    """Erase any bar for good before a command prints its document (no-op without a reporter)."""
    reporter = _current()
    if reporter is not None:
        reporter.finish()


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
def shown_on_terminal(description: str | None = None) -> Iterator[None]:
    """Show progress when standard error is a terminal; otherwise nothing.

    ``description`` (the command) opens an outer spinner, so work before the
    first counted step is never silent.
    """
    isatty = getattr(sys.stderr, "isatty", None)
    if isatty is None or not isatty():
        yield
        return
    with reporting(delay=configured_delay()):
        if description is None:
            yield
        else:
            with phase(description):
                yield
