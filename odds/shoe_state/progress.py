"""A progress bar on stderr for long runs, silent when stderr is not a terminal.

rich draws it (imported only when a terminal will show it), so pipes, logs and
tests see nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(n)``; draws a bar only when stderr is a terminal."""
    stream = sys.stderr
    if not (hasattr(stream, "isatty") and stream.isatty()):
        yield lambda n: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=stream),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)
