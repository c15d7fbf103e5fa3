"""Arguments and options shared by the commands, and how they reach the paytable.

``--decks`` and ``--set`` become typed :class:`odds.core.overrides.Override` s here
and nowhere else; the paytable layer merges and validates them once.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from odds.cli.completion import complete_game, complete_setting
from odds.core.overrides import Override, decks_override
from odds.games.paytable import Paytable, load


class Format(StrEnum):
    markdown = "markdown"
    json = "json"
    csv = "csv"


class TextFormat(StrEnum):
    text = "text"
    json = "json"


GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME_OR_PAYTABLE",
        help="A game name (pok-deng …), a paytable name in tables/, or a .toml path.",
        autocompletion=complete_game,
    ),
]
DecksOpt = Annotated[
    int | None, typer.Option("--decks", help="Override the number of decks in the shoe.")
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="SECTION.KEY=VALUE",
        help="Override any paytable option, e.g. --set rules.eight_nine_override=false "
        "(repeatable).",
        autocompletion=complete_setting,
    ),
]


def overrides(decks: int | None, settings: list[str] | None) -> list[Override]:
    """The command line's overrides, typed, in the order given (``--decks`` first)."""
    result = [decks_override(decks, f"--decks {decks}")] if decks is not None else []
    return result + [Override.parse(text) for text in settings or ()]


def override_texts(decks: int | None, settings: list[str] | None) -> tuple[str, ...]:
    """The overrides as typed (``--decks 6``, ``rules.x=false``): what a document says it used."""
    return tuple(o.source for o in overrides(decks, settings))


def load_paytable(
    game: str, decks: int | None = None, settings: list[str] | None = None
) -> Paytable:
    """Resolve a game or paytable path with the command line's overrides applied."""
    return load(game, overrides(decks, settings))
