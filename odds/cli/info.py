"""``odds games``: what the other commands accept."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.options import Format
from odds.cli.report_output import CsvTableOpt
from odds.errors import OddsError


@app.command()
def games(
    game: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="One game's options only.")
    ] = None,
    format: Annotated[
        Format, typer.Option("--format", help="markdown, json or csv (one table: --table).")
    ] = Format.markdown,
    table: CsvTableOpt = None,
) -> None:
    """List the games, their paytables, bets and every option with its default."""
    from odds.catalogue import catalogue
    from odds.games import game_named
    from odds.render import tables_csv, tables_json, tables_markdown

    if game is not None:
        game_named(game)
    if table is not None and format is not Format.csv:
        raise OddsError("--table chooses one CSV table: give it with --format csv")
    tables = catalogue(game)
    if format is Format.json:
        sys.stdout.write(tables_json(tables))
    elif format is Format.csv:
        sys.stdout.write(tables_csv(tables, table))
    else:
        sys.stdout.write(tables_markdown(tables))
