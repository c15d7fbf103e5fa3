"""``odds games``: what the other commands accept."""

from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.completion import complete_game
from odds.cli.options import Format
from odds.cli.output import OutputOpt, check_output, data_written, emit
from odds.cli.report_output import CsvTableOpt, check_table_format
from odds.core.errors import OddsError


@app.command()
def games(
    game: Annotated[
        str | None,
        typer.Argument(
            metavar="[GAME]", help="One game's options only.", autocompletion=complete_game
        ),
    ] = None,
    format: Annotated[
        Format, typer.Option("--format", help="markdown, json or csv (one table: --table).")
    ] = Format.markdown,
    output: OutputOpt = None,
    table: CsvTableOpt = None,
) -> None:
    """List the games, their paytables, bets and every option with its default.

    With GAME (a game, or a paytable name or file: its game): that game's row and its
    options only.

    \b
    Example: odds games baccarat
    """
    from odds.output.markdown import tables_markdown
    from odds.tools.catalogue import catalogue

    name = None if game is None else _game_name(game)
    check_table_format(table, format is Format.csv)
    check_output(output)
    tables = catalogue(name)
    if not data_written(format, output, tables, table):
        emit(tables_markdown(tables), output)


def _game_name(given: str) -> str:
    """The game named, or the game of the paytable named (``baccarat-ez`` → baccarat)."""
    from odds.games import game_named
    from odds.games.paytable import load

    try:
        return game_named(given).name
    except OddsError:
        try:
            return load(given).game.name
        except OddsError:
            pass
        raise
