"""Progress for long commands: a bar on a terminal, nothing at all in a pipe.

Commands that can run for more than a couple of seconds (dealing a large log,
auditing one) report their steps through :func:`progress`. When stderr is a
terminal the steps show as a `rich` progress bar on stderr; otherwise (a pipe,
a file, CI) nothing is printed and `rich` is not even imported, so scripted
output stays byte-for-byte what the command prints.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, Protocol


class Step(Protocol):
    """One step of a long command: ``advance`` by an amount, or ``update`` to a fraction."""

    def advance(self, amount: float = 1) -> None: ...

    def update(self, completed: float) -> None: ...


class _Silent:
    def advance(self, amount: float = 1) -> None:
        pass

    def update(self, completed: float) -> None:
        pass


class _Bar:
    def __init__(self, bar: Any, task: Any) -> None:
        self._bar, self._task = bar, task

    def advance(self, amount: float = 1) -> None:
        self._bar.advance(self._task, amount)

    def update(self, completed: float) -> None:
        self._bar.update(self._task, completed=completed)


#: Tests set this to a ``rich.console.Console`` to see what a terminal would show.
console_override: Any = None


def _console() -> Any:
    if console_override is not None:
        return console_override
    stream = sys.stderr
    if stream is None or not stream.isatty():
        return None
    from rich.console import Console

    return Console(file=stream)


@contextlib.contextmanager
def progress(description: str, total: float | None = None) -> Iterator[Step]:
    """A progress step: a bar on a terminal (with ``total``: a known amount of work)."""
    console = _console()
    if console is None:
        yield _Silent()
        return
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    columns = [TextColumn("{task.description}"), BarColumn(), TaskProgressColumn()]
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as bar:
        yield _Bar(bar, bar.add_task(description, total=total))
