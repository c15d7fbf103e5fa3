"""Arguments and options shared by the commands, and how they reach the paytable.

``--decks`` and ``--set`` become typed :class:`odds.core.overrides.Override` s here
and nowhere else; the paytable layer merges and validates them once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odds.cli.completion import complete_game, complete_setting
from odds.cli.output import check_output, emit, paytable_inputs, write_json
from odds.core.errors import OddsError
from odds.core.overrides import Override, decks_override
from odds.games.paytable import Paytable, load

if TYPE_CHECKING:
    from odds.core.table import Table


Format = StrEnum("Format", ["markdown", "json", "csv"])


TextFormat = StrEnum("TextFormat", ["text", "json"])


TextFormatOpt = Annotated[TextFormat, typer.Option("--format", help="text or json.")]


GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME_OR_PAYTABLE",
        help="A game or paytable name (pok-deng, baccarat-ez …; my-bet reads ./my-bet.toml "
        "when no packaged name is my-bet), or a .toml path.",
        autocompletion=complete_game,
    ),
]
DecksOpt = Annotated[
    str | None,
    typer.Option(
        "--decks",
        metavar="N",
        help="Override the number of decks in the shoe (odds report blackjack: also "
        "infinite, every card dealt with replacement).",
    ),
]
#: What ``--decks`` takes for an infinite shoe.
INFINITE = ("infinite", "inf")
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


def is_infinite(decks: int | str | None) -> bool:
    """``--decks infinite``: cards dealt with replacement (only ``odds report`` takes it)."""
    return isinstance(decks, str) and decks.strip().lower() in INFINITE


def decks_count(decks: int | str | None) -> int | None:
    """``--decks`` as a whole number of decks (None: not given); anything else is a one-line
    error, ``infinite`` included (a command that takes it asks :func:`is_infinite` first)."""
    if decks is None or isinstance(decks, int):
        return decks
    if is_infinite(decks):
        raise OddsError(
            "--decks infinite: only `odds report blackjack` deals from an infinite shoe"
        )
    try:
        return int(decks.strip())
    except ValueError:
        raise OddsError(
            f"--decks takes a whole number of decks (or infinite for the blackjack report), "
            f"not {decks!r}"
        ) from None


def overrides(decks: int | str | None, settings: list[str] | None) -> list[Override]:
    """The command line's overrides, typed, in the order given (``--decks`` first)."""
    count = decks_count(decks)
    result = [decks_override(count, f"--decks {count}")] if count is not None else []
    return result + [Override.parse(text) for text in settings or ()]


def override_texts(decks: int | str | None, settings: list[str] | None) -> tuple[str, ...]:
    """The overrides as typed (``--decks 6``, ``rules.x=false``): what a document says it used."""
    return tuple(o.source for o in overrides(decks, settings))


def load_paytable(
    game: str, decks: int | str | None = None, settings: list[str] | None = None
) -> Paytable:
    """Resolve a game or paytable path with the command line's overrides applied."""
    return load(game, overrides(decks, settings))


def load_checked(
    game: str,
    decks: int | str | None,
    settings: list[str] | None,
    output: Path | None,
    inputs: Sequence[Path | None] = (),
) -> Paytable:
    """:func:`load_paytable`, then ``--output`` checked against every file the command reads."""
    paytable = load_paytable(game, decks, settings)
    check_output(output, [*paytable_inputs(game), *inputs])
    return paytable


def answer(
    format: str,
    output: Path | None,
    overrides: Sequence[str],
    tables: Callable[[], Sequence[Table]],
    text: Callable[[], str],
) -> None:
    """A command's document: with ``--format json`` its ``tables``, else its ``text``."""
    if format == "json":
        write_json(tables(), output, overrides)
    else:
        emit(text(), output)
