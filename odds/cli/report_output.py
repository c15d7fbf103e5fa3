"""Where ``odds report`` writes each format, and the checks made before any work.

* Markdown and JSON: standard output, or ``--output FILE``.
* CSV: one tidy table per file. ``--table NAME`` prints one table (or writes
  it to ``--output FILE``); ``--output DIR/`` writes every table, one file
  each, with ``index.csv``. Without either, standard output gets the summary
  (``odds report baccarat --format csv > baccarat.csv`` is a CSV file, not an
  error and an empty file), and one line on standard error names the other
  tables and how to get them: several tables run together would be one file that
  neither Excel nor pandas opens, and the rest are never left out unsaid.
* Excel (``xlsx``) and PDF: binary files. ``--output FILE``, or standard output
  when it is not a terminal (``> par.xlsx``, a pipe); never a terminal.

Every output is checked before the analysis starts (a bad ``--output`` costs
nothing) and written whole or not at all (:mod:`odds.runtime.atomic`).
"""

from __future__ import annotations

import shlex
import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odds.cli.output import emit, write_json
from odds.core.errors import OddsError

if TYPE_CHECKING:
    from odds.games.paytable import Paytable
    from odds.output.provenance import Provenance

#: The table ``odds report --format csv`` prints without ``--table`` (the one read first).
SUMMARY_TABLE = "summary"

#: ``--table NAME``: the one table of a CSV output (commands whose output has several).
CsvTableOpt = Annotated[
    str | None,
    typer.Option(
        "--table",
        metavar="NAME",
        help="--format csv: the one table to write (an unknown name lists them).",
    ),
]


ReportFormat = StrEnum("ReportFormat", ["markdown", "json", "csv", "xlsx", "pdf"])


#: Formats that are binary files (never printed on a terminal).
BINARY = frozenset({ReportFormat.xlsx, ReportFormat.pdf})
#: The optional extra each binary format needs.
EXTRAS = {ReportFormat.xlsx: "xlsx", ReportFormat.pdf: "pdf"}


def is_folder_target(output: Path) -> bool:
    """Whether ``--output`` names a folder: an existing one, or a path ending with a separator."""
    text = str(output)
    return output.is_dir() or text.endswith(("/", "\\"))


def check_report_output(
    format: ReportFormat,
    output: Path | None,
    table: str | None,
    inputs: tuple[Path, ...] = (),
) -> None:
    """A one-line error for an output that cannot be written, before any work is done."""
    from odds.runtime.atomic import check_output_path

    check_table_format(table, format is ReportFormat.csv)
    if format in BINARY:
        _check_installed(format)
        if output is None and _stdout_is_terminal():
            raise OddsError(
                f"--format {format} writes a binary file: give --output FILE "
                f"(e.g. --output report.{format}) or redirect standard output to a file"
            )
    if output is None:
        return
    if format is ReportFormat.csv and table is None:
        if output.exists() and not output.is_dir():
            raise OddsError(
                f"--output {output}: a report has several tables; without --table NAME, "
                "--format csv writes one file per table to a folder (give a folder, e.g. "
                f"--output {output.with_suffix('')}/)"
            )
        if not is_folder_target(output) and output.suffix.lower() == ".csv":
            raise OddsError(
                f"--output {output}: a report has several tables; give --table NAME for "
                f"one file, or a folder (e.g. --output {output.with_suffix('')}/) for all"
            )
        parent = output.parent
        if parent.exists() and not parent.is_dir():
            raise OddsError(f"--output {output}: {parent} is not a folder")
        return
    if is_folder_target(output):
        raise OddsError(f"--output {output}: is a folder (give a file name)")
    check_output_path(output)
    if output.exists() and not output.is_file():
        raise OddsError(f"--output {output}: not a regular file (give a file name to write)")
    for given in inputs:
        if output.exists() and given.exists() and output.samefile(given):
            raise OddsError(f"--output {output} is one of this command's inputs ({given})")


def check_table_format(table: str | None, csv: bool) -> None:
    """``--table`` chooses one CSV table: a one-line error with another format."""
    if table is not None and not csv:
        raise OddsError("--table chooses one CSV table: give it with --format csv")


def _check_installed(format: ReportFormat) -> None:
    import importlib.util

    module = {ReportFormat.xlsx: "xlsxwriter", ReportFormat.pdf: "typst"}[format]
    if importlib.util.find_spec(module) is None:
        extra = EXTRAS[format]
        raise OddsError(
            f'--format {format} needs the optional extra "{extra}": '
            f'pip install "odds-exact[{extra}]" (it is not installed with odds itself)'
        )


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def own_rules(paytable: Paytable) -> str | None:
    """The file whose definition states the rules, when the game is the user's own; else None.

    A game of ``odds`` (a coded one, or a definition of ``tables/`` read from any
    copy) has its rules page, ``docs/rules/<game>.md``. A definition of a user's
    own has none, even when it calls itself by a packaged game's name
    (``game = "pok-deng"``): its report must not send the reader to another
    game's rules.
    """
    from odds.games import packaged_game

    game = paytable.game
    packaged = packaged_game(game.name)
    if packaged is game:
        return None
    definition = getattr(game, "definition", None)
    if definition is not None and definition == getattr(packaged, "definition", None):
        return None
    return paytable.source.removesuffix(" (with overrides)")  # named as the Paytable line names it


def report_command(
    game: str,
    decks: int | str | None,
    settings: list[str] | None,
    *,
    stakes: str | None = None,
    shoe: bool = False,
    symbolic: bool = False,
    digits: int | None = None,
    format: ReportFormat = ReportFormat.markdown,
    table: str | None = None,
    output: Path | None = None,
    shift: str | None = None,
    table_max: str | None = None,
) -> str:
    """The command that makes this report again, for the documents that state it.

    Rebuilt from the options (in a fixed order), not copied from the shell, so
    the same report states the same command; ``--output`` is given by its file
    name only (the folder is where the reader keeps it, not part of the report).
    """
    shown = digits if format in (ReportFormat.markdown, ReportFormat.pdf) else None
    name = None if output is None else output.name + ("/" if is_folder_target(output) else "")
    options = [("--decks", decks), *(("--set", setting) for setting in settings or ())]
    options += [("--stakes", stakes), ("--shoe", shoe), ("--symbolic", symbolic)]
    options += [("--shift", shift), ("--table-max", table_max), ("--digits", shown)]
    options += [("--format", format), ("--table", table), ("--output", name)]
    words = ["odds", "report", game]
    for flag, value in options:
        if value is True:
            words.append(flag)
        elif value is not None and value is not False:
            words += [flag, str(value)]
    return shlex.join(words)


def write_report(
    analysis: object,
    format: ReportFormat,
    output: Path | None,
    *,
    table: str | None = None,
    digits: int = 6,
    links: dict[str, list[str]] | None = None,
    command: str | None = None,
    provenance: Provenance | None = None,
) -> None:
    """Render ``analysis`` in ``format`` and write it where the options say.

    ``provenance`` (a report made by hand) puts the command and the overrides
    in the Markdown header, the JSON and the CSV; ``command`` is the one the
    binary PAR sheets state.
    """
    from odds.stats.analysis import Analysis

    if not isinstance(analysis, Analysis):
        raise TypeError("write_report takes an Analysis")
    if format is ReportFormat.csv:
        from odds.output.data import (
            FOLDER_HINT,
            choose_table,
            report_tables,
            table_csv,
            write_csv_folder,
        )

        tables = report_tables(analysis, provenance)
        if table is None and output is not None:
            write_csv_folder(tables, output)
            return
        if table is None:
            table = SUMMARY_TABLE
            others = ", ".join(t.key for t in tables if t.key != table)
            sys.stderr.write(
                f"note: --format csv: the {table} table, one of {len(tables)}; --table NAME "
                f"for another ({others}), or {FOLDER_HINT}\n"
            )
        emit(table_csv(choose_table(tables, table, FOLDER_HINT)), output, markdown=False)
        return
    if format is ReportFormat.xlsx:
        from odds.output.xlsx import to_xlsx

        write_binary(to_xlsx(analysis, command), output)
        return
    if format is ReportFormat.pdf:
        from odds.output.pdf import to_pdf

        own = None if provenance is None else provenance.own_rules
        write_binary(to_pdf(analysis, digits, command, own), output)
        return
    if format is ReportFormat.json:
        from odds.output.data import report_json_tables

        write_json(report_json_tables(analysis, provenance), output, provenance=provenance)
        return
    from odds.output.markdown_report import to_markdown

    emit(to_markdown(analysis, digits, links, provenance), output)


def write_binary(data: bytes, output: Path | None) -> None:
    """A binary document (xlsx, pdf) to ``output`` atomically, or down a pipe.

    The terminal was refused before any work (:func:`check_report_output`).
    """
    from odds.runtime.progress import finish

    finish()
    if output is None:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    from odds.runtime.atomic import atomic_open

    with atomic_open(output, "wb") as handle:
        handle.write(data)
