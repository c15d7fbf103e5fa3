"""``odds games``: what the other commands accept."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.options import Format


@app.command()
def games(
    game: Annotated[
        str | None, typer.Argument(metavar="[GAME]", help="One game's options only.")
    ] = None,
    format: Annotated[
        Format, typer.Option("--format", help="markdown, json or csv.")
    ] = Format.markdown,
) -> None:
    """List the games, their paytables, bets and every option with its default."""
    from odds.catalogue import catalogue
    from odds.games import game_named
    from odds.render import tables_csv, tables_json, tables_markdown

    if game is not None:
        game_named(game)
    tables = catalogue(game)
    if format is Format.json:
        sys.stdout.write(tables_json(tables))
    elif format is Format.csv:
        sys.stdout.write(tables_csv(tables))
    else:
        sys.stdout.write(tables_markdown(tables))
