"""Shell completion (``odds --install-completion``): games, paytables, bets and ``--set`` keys.

Each function is a typer ``autocompletion`` callback: given what has been
typed so far (and, for bets and keys, the game already on the command line)
it returns the candidates. They read only declarations (game classes, the
paytable files' ``game =`` lines, option declarations), never run an analysis,
and never raise: a completion that fails offers nothing instead of a traceback
in the user's shell.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def game_names() -> list[str]:
    """Every game name and paytable name the commands accept, games first."""
    from odds.games import games
    from odds.games.paytable import table_files

    names = list(games())
    return names + [p.stem for p in table_files() if p.stem not in names]


def complete_game(incomplete: str) -> list[str]:
    """Games and paytables starting with what was typed."""
    return [name for name in game_names() if name.startswith(incomplete)]


def _game_of(given: str) -> Any:
    """The game a ``GAME_OR_PAYTABLE`` names (``None`` when it names none yet)."""
    from odds.games import game_named, games
    from odds.games.paytable import TABLES, read_file

    if not given:
        return None
    try:
        return game_named(given)
    except Exception:
        pass
    named = TABLES / f"{given}.toml"
    try:
        data, _ = read_file(named if named.is_file() else Path(given))
    except Exception:
        return None
    name = data.get("game")
    return games().get(name) if isinstance(name, str) else None


def _games_of(given: str) -> list[Any]:
    """That game, or every game when it is not known."""
    from odds.games import games

    found = _game_of(given)
    return [found] if found is not None else list(games().values())


def bet_names(game: str) -> list[str]:
    """The bets of a game or paytable (every game's when it is not known)."""
    return list(dict.fromkeys(name for g in _games_of(game) for name in g.bet_names))


def complete_bet(ctx: typer.Context, incomplete: str) -> list[str]:
    """The bets of the game already given."""
    return [b for b in bet_names(ctx.params.get("game") or "") if b.startswith(incomplete)]


def setting_keys(game: str) -> list[str]:
    """``SECTION.KEY=`` for every option of the game (every game's when it is not known)."""
    from odds.core.options import option_specs

    keys = (spec.key for g in _games_of(game) for spec in option_specs(g.config_type))
    return [f"{key}=" for key in dict.fromkeys(keys)]


def setting_values(game: str, key: str) -> list[str]:
    """The values an option takes, when it has a fixed set (choices, yes/no)."""
    from odds.core.options import option_specs

    for g in _games_of(game):
        for spec in option_specs(g.config_type):
            if spec.key != key:
                continue
            if spec.choices:
                return list(spec.choices)
            if spec.kind == "yes/no":
                return ["true", "false"]
    return []


def complete_setting(ctx: typer.Context, incomplete: str) -> list[str]:
    """``--set`` keys of the game already given, then a key's values after ``=``."""
    game = ctx.params.get("game") or ""
    if "=" in incomplete:
        key, _, typed = incomplete.partition("=")
        return [f"{key}={v}" for v in setting_values(game, key) if v.startswith(typed)]
    return [k for k in setting_keys(game) if k.startswith(incomplete)]
