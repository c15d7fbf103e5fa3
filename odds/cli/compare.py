"""``odds compare`` (paytables side by side) and ``odds sweep`` (one entry varied, exactly)."""

from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.completion import complete_game
from odds.cli.options import DecksOpt, GameArg, SetOpt, load_paytable, override_texts, overrides
from odds.cli.output import (
    DigitsOpt,
    OutputOpt,
    charts_folder,
    check_output,
    data_written,
    emit,
    paytable_inputs,
    printed_digits,
)
from odds.cli.report_output import CsvTableOpt, check_table_format
from odds.core.table import Table

#: The formats of a command whose output is tables (compare, sweep).
TablesFormat = StrEnum("TablesFormat", ["markdown", "json", "csv", "xlsx"])


FormatOpt = Annotated[
    TablesFormat,
    typer.Option("--format", help="markdown, json, csv (one table: --table) or xlsx (a workbook)."),
]


@app.command()
def compare(
    paytables: Annotated[
        list[str],
        typer.Argument(
            metavar="GAME_OR_PAYTABLE",
            help="Two or more games, paytable names or .toml paths; a quoted pattern "
            "('baccarat*') matches the packaged names and the folder's paytable files.",
            autocompletion=complete_game,
        ),
    ],
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: FormatOpt = TablesFormat.markdown,
    digits: DigitsOpt = None,
    output: OutputOpt = None,
    table: CsvTableOpt = None,
) -> None:
    """Paytables side by side: every bet's house edge, RTP, hit frequency, SD, VI, top award.

    --decks and --set apply to every paytable. A bet one paytable lacks is shown
    as absent, never as zero.

    \b
    Example: odds compare baccarat baccarat-ez baccarat-no-commission
    """
    from odds.tools.compare import compare as run_compare
    from odds.tools.compare import expand

    _check_table(table, format, output)
    expanded = expand(paytables)
    if expanded.skipped:
        typer.echo(f"note: skipped (not paytables): {', '.join(expanded.skipped)}", err=True)
    check_output(output, [p for name in expanded.names for p in paytable_inputs(name)])
    result = run_compare(expanded.names, overrides(decks, settings))
    if format is TablesFormat.xlsx:
        _emit_xlsx(result.tables(), "Paytables side by side", result.notes(), output)
    elif not data_written(
        format, output, result.tables(), table, None, override_texts(decks, settings)
    ):
        from odds.output.markdown import paragraph_text, tables_markdown

        notes = "".join(f"{paragraph_text(line)}\n\n" for line in result.notes())
        text = tables_markdown(result.tables(), printed_digits(digits))
        emit(f"# Paytables side by side\n\n{notes}{text}", output)


@app.command()
def sweep(
    game: GameArg,
    vary: Annotated[
        str,
        typer.Option(
            "--vary",
            metavar="KEY=VALUES",
            help="The entry and its values: payouts.pair=8..14, payouts.pair=8..14:0.5 "
            "(a step) or payouts.pair=8,9,11.",
        ),
    ],
    bet: Annotated[
        str | None, typer.Option("--bet", help="One bet (default: every bet the entry changes).")
    ] = None,
    charts: Annotated[
        Path | None,
        typer.Option(
            "--charts",
            metavar="DIR",
            help="Write each bet's chart as SVG to DIR and link it from the Markdown.",
        ),
    ] = None,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: FormatOpt = TablesFormat.markdown,
    digits: DigitsOpt = None,
    output: OutputOpt = None,
    table: CsvTableOpt = None,
) -> None:
    """A bet's house edge and VI as one paytable entry varies; the break-even value exactly.

    \b
    Example: odds sweep dragon-tiger --vary payouts.tie=8..11
    """
    from odds.tools.sweep import parse_vary, sweep_chart
    from odds.tools.sweep import sweep as run_sweep

    _check_table(table, format, output)
    chosen = parse_vary(vary)
    check_output(output, paytable_inputs(game))
    charts_folder(charts)
    paytable = load_paytable(game, decks, settings)
    result = run_sweep(paytable, chosen, bet)
    tables = result.tables()
    links: dict[str, str] = {}
    if charts is not None:
        from odds.output.charts import svg_text
        from odds.output.charts.report_charts import image_line, make_folder
        from odds.runtime.atomic import write_text

        make_folder(charts)
        stem = Path(game).stem
        for item in result.bets:
            chart = sweep_chart(result, item)
            name = f"{stem}-sweep-{chosen.key.replace('.', '-')}-{item.name}"
            write_text(charts / f"{name}.svg", svg_text(chart, name))
            links[f"sweep_{item.name}"] = image_line(f"{charts.as_posix()}/{name}.svg", chart.alt)
    if format is TablesFormat.xlsx:
        _emit_xlsx(tables, f"Sweep of {chosen.key}: {paytable.title}", [], output)
        return
    if data_written(format, output, tables, table, None, override_texts(decks, settings)):
        return
    from odds.output.markdown import code_span, inline_text, table_section

    lines = [
        f"# Sweep of {chosen.key}: {inline_text(paytable.title)}",
        "",
        f"Paytable: {code_span(paytable.source)}",
        "",
    ]
    for shown in tables:
        lines += table_section(shown, printed_digits(digits))
        if shown.key in links:
            lines += [links[shown.key], ""]
    emit("\n".join(lines).rstrip() + "\n", output)


def _check_table(table: str | None, format: TablesFormat, output: Path | None) -> None:
    """The format's own checks, before any work: --table is CSV's; a workbook is a file."""
    check_table_format(table, format is TablesFormat.csv)
    if format is TablesFormat.xlsx:
        from odds.cli.report_output import ReportFormat, check_report_output

        check_report_output(ReportFormat.xlsx, output, None)


def _emit_xlsx(
    tables: Sequence[Table], title: str, notes: Sequence[str], output: Path | None
) -> None:
    from odds.cli.app import command_line
    from odds.cli.report_output import write_binary
    from odds.output.xlsx import tables_xlsx

    write_binary(tables_xlsx(tables, title, notes, command_line()), output)
