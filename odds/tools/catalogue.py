"""``odds games``: every game, its paytables, bets and options, as tables.

What a new user needs before the first report: which names the commands
accept, which bets each game has, and every option with its default and the
values it takes (the same declarations the paytable loader enforces).
"""

from __future__ import annotations

from typing import Any

from odds.core.options import option_specs, to_plain, value_text
from odds.core.table import Column, Kind, Table
from odds.games import game_named, games
from odds.games.base import Game
from odds.games.paytable import read_file, table_files


def paytables_by_game() -> dict[str, list[str]]:
    """The paytable names in ``tables/`` for each game (unreadable files are skipped)."""
    found: dict[str, list[str]] = {}
    for path in table_files():
        try:
            data, _ = read_file(path)
        except ValueError:
            continue
        name = data.get("game")
        if isinstance(name, str):
            found.setdefault(name, []).append(path.stem)
    return found


def features(game: Game[Any]) -> list[str]:
    """The optional commands a game offers."""
    declared = {"strength": game.strength, "crosscheck": game.crosscheck}
    return [name for name, feature in declared.items() if feature is not None]


def games_table(name: str | None = None, tables: dict[str, list[str]] | None = None) -> Table:
    """One row per game (only ``name``'s when given): title, positions, bets, paytables …
    (``tables``: :func:`paytables_by_game`, when the caller has read it already)."""
    tables = paytables_by_game() if tables is None else tables
    chosen = [game_named(name)] if name else list(games().values())
    rows = tuple(
        {
            "game": game.name,
            "title": game.title,
            "positions": list(game.positions),
            "bets": list(game.bet_names),
            "paytables": tables.get(game.name, []),
            "features": features(game),
        }
        for game in chosen
    )
    listed = ("positions", "bets", "paytables", "features")
    headers = ("positions (settle)", "bets", "paytables (tables/)", "extra commands")
    return Table(
        key="games",
        title="Games",
        columns=(
            Column("game", "game"),
            Column("title", "title"),
            *(Column(key, header, Kind.LIST) for key, header in zip(listed, headers, strict=True)),
        ),
        rows=rows,
        note="Every command takes a game name, a paytable name or the path of a .toml paytable.",
    )


def own_paytable_values(
    game: Game[Any], tables: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    """The options the game's own paytable (``tables/<game>.toml``) sets to other values than
    the game's defaults, by key: ``odds games bai-cao`` listed the cut card at the game's 14
    where Bài Cào's table sets 52, which read as if the setting were ignored (issue 35, F10)."""
    from odds.core.options import describe
    from odds.games.paytable import TABLES, load

    path = TABLES / f"{game.name}.toml"
    tables = paytables_by_game() if tables is None else tables
    if not path.is_file() or game.name not in tables.get(game.name, []):
        return {}
    defaults = {spec.key: spec.default for spec in option_specs(game.config_type)}
    own = {line.key: line.value for line in describe(load(game.name).config)}
    return {k: v for k, v in own.items() if k in defaults and v != defaults[k]}


def options_table(game: Game[Any], tables: dict[str, list[str]] | None = None) -> Table:
    """Every option of one game with its default, the values it takes and its meaning; where
    the game's own paytable sets another value, the default column says both."""
    own = own_paytable_values(game, tables)
    rows = tuple(
        {
            "option": spec.key,
            "default": (
                f"{value_text(own[spec.key])} (tables/{game.name}.toml; game default "
                f"{value_text(spec.default)})"
                if spec.key in own
                else value_text(spec.default)
            ),
            "default_value": to_plain(spec.default),
            "kind": spec.kind,
            "accepts": spec.accepts,
            "meaning": spec.meaning,
            "choices": spec.choices,
        }
        for spec in option_specs(game.config_type)
    )
    return Table(
        key=f"options_{game.name}",
        title=f"Options of {game.name}",
        columns=(
            Column("option", "option"),
            Column("default", "default", json=False),
            Column("default_value", "default", Kind.DATA, markdown=False),
            Column("kind", "kind"),
            Column("accepts", "accepts"),
            Column("meaning", "meaning"),
            Column("choices", "choices", Kind.DATA, markdown=False),
        ),
        rows=rows,
        note="Set any option in a paytable file or with --set SECTION.KEY=VALUE.",
    )


def catalogue(name: str | None = None) -> list[Table]:
    """The games table and every game's options (or one game's)."""
    chosen = [game_named(name)] if name else list(games().values())  # one game: its file only
    tables = paytables_by_game()  # read once: every game's options table asks (567 reads)
    return [games_table(name, tables), *(options_table(game, tables) for game in chosen)]
