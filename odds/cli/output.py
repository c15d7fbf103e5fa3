"""Where a command's document goes: standard output, or ``--output FILE`` written atomically.

Every command that prints a document (a report, an audit, a verdict …) takes
``--output FILE`` / ``-o FILE`` and hands its text to :func:`emit`. The output
is checked before any work (:func:`check_output`: a writable file that is not
one of the command's inputs), and written through :func:`odds.runtime.atomic.atomic_path`
so an error or Ctrl-C leaves an existing file exactly as it was.
:func:`emit` first erases any progress bar for good, so the document never
meets the bar on a terminal.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odds.core.errors import OddsError

if TYPE_CHECKING:
    from odds.core.table import Table
    from odds.output.provenance import Provenance

OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        metavar="FILE",
        help="Write the document to FILE (replaced whole, only once complete) instead of "
        "standard output.",
    ),
]


#: ``--digits N``: the decimals of every printed probability, in the unit shown.
DigitsOpt = Annotated[
    int | None,
    typer.Option(
        "--digits",
        min=0,
        max=30,
        metavar="N",
        help="Decimals shown in every printed probability, in its unit: --digits 2 prints "
        "0.46 and 1.06%. [default: 6 for decimals, 4 for percentages]",
        show_default=False,
    ),
]


def printed_digits(given: int | None) -> int:
    """``--digits`` as the renderers take it: the reports' default (6 decimals, percentages 4)
    or, when given, exactly N in every unit (:class:`odds.core.numbers.Digits`)."""
    from odds.core.numbers import Digits

    return 6 if given is None else Digits(given)


def charts_folder(charts: Path | str | None) -> Path | None:
    """``--charts DIR`` checked before any work (None: not given)."""
    if charts is None:
        return None
    from odds.output.charts.report_charts import check_folder

    return check_folder(charts)


def paytable_inputs(game: str) -> list[Path]:
    """The files a ``GAME_OR_PAYTABLE`` argument may read (an output never replaces one)."""
    from odds.games.paytable import TABLES

    found = [Path(game), TABLES / f"{game}.toml", Path(f"{game}.toml")]
    return [p for p in found if p.is_file()]


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def check_output(output: Path | None, inputs: Iterable[Path | None] = ()) -> None:
    """A one-line error unless ``output`` can be replaced and is none of ``inputs``.

    Called before any work, so a bad ``--output`` costs nothing and touches nothing.
    """
    if output is None:
        return
    from odds.runtime.atomic import check_output_path

    for given in inputs:
        if given is not None and output.exists() and _same_file(output, given):
            raise OddsError(f"--output {output} is one of this command's inputs ({given})")
    check_output_path(output)  # a regular, writable file (not a device, FIFO, link) or none yet


def emit(text: str, output: Path | None = None, *, markdown: bool = True) -> None:
    """The document to standard output, or to ``output`` atomically (UTF-8).

    On a terminal, Markdown is laid out for the window's width
    (:func:`odds.output.terminal.fit_markdown`); a pipe, a file and ``--output``
    get it byte for byte. ``markdown=False`` (CSV, JSON) is never reflowed.
    """
    from odds.runtime.progress import finish

    finish()
    if output is None:
        if markdown:
            from odds.runtime.console import terminal_width

            width = terminal_width()
            if width is not None:
                from odds.output.terminal import fit_markdown

                text = fit_markdown(text, width)
        sys.stdout.write(text)
        return
    from odds.runtime.atomic import atomic_path

    with atomic_path(output) as temporary:
        temporary.write_text(text, encoding="utf-8", newline="")


def fail_verdict(code: int, line: str) -> None:
    """A verdict that is not a pass: its one line on stderr, then the exit ``code`` (if not 0).

    The document (standard output or ``--output``) says the same at length; a script or
    a pipe that keeps only stderr still learns, in one line, why the exit code is not 0.
    """
    if not code:
        return
    typer.echo(line, err=True)
    raise typer.Exit(code)


def write_json(
    tables: Sequence[Table],
    output: Path | None = None,
    overrides: Sequence[str] = (),
    provenance: Provenance | None = None,
) -> None:
    """A command's ``--format json``: its tables as one document (:mod:`odds.output.json_document`).

    The document names the version and the command that prints it again
    (:func:`document_command`), with the ``--decks`` / ``--set`` ``overrides`` as
    typed (``provenance``, when the command has its own, as ``odds report`` does).
    """
    from odds.output.json_document import json_text
    from odds.output.provenance import Provenance

    if provenance is None:
        provenance = Provenance(document_command(), tuple(overrides))
    emit(json_text(tables, provenance), output, markdown=False)


def data_written(
    format: str,
    output: Path | None,
    tables: Sequence[Table],
    table: str | None = None,
    json: Callable[[], Sequence[Table]] | None = None,
    overrides: Sequence[str] = (),
) -> bool:
    """``--format csv`` (one of ``tables``: :func:`odds.output.data.tables_csv`) or ``json``
    (``json()``, else the ``tables``) written; False for a document the command writes itself."""
    if format == "csv":
        from odds.output.data import tables_csv

        emit(tables_csv(tables, table), output, markdown=False)
    elif format == "json":
        write_json(tables if json is None else json(), output, overrides)
    else:
        return False
    return True


#: Options that say where a document goes or how it is computed, never what it holds: a
#: document's ``command`` leaves them out, so the same document states the same command.
NOT_CONTENT = ("--output", "-o", "--workers", "--scheduler")


def document_command() -> str:
    """The command line that prints this document again, to standard output.

    ``--output FILE`` and the work's spread (``--workers``, ``--scheduler``) are left
    out: the document is the same without them (the tests hold it so).
    """
    import shlex

    from odds.cli.app import command_line

    words = shlex.split(command_line())
    kept: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in NOT_CONTENT:
            skip = True
            continue
        if word.startswith(tuple(f"{option}=" for option in NOT_CONTENT if option[1] == "-")):
            continue
        kept.append(word)
    return shlex.join(kept)
