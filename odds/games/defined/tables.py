"""Where the paytables are: :data:`odds.games.paytable.TABLES` finds them the same way.

That module sits above the registry (it imports the game list, which lists the
defined games), so the few lines that locate the folder are repeated here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import Any

_PACKAGE = Path(__file__).resolve().parents[2]  # the odds package


def tables_folder() -> Path:
    """``odds/tables`` (a link to the checkout's ``tables/`` or the wheel's files), or the
    checkout's folder where the link did not survive a clone."""
    inside = _PACKAGE / "tables"
    checkout = _PACKAGE.parent
    if inside.is_dir() or not (checkout / "pyproject.toml").is_file():
        return inside
    return checkout / "tables"


#: What a game may be called (a file name too: ``tables/<name>.toml``).
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def game_name_of(data: Mapping[str, Any], source: str) -> Any:
    """The game a definition's paytable names: its ``game``, else its file's stem when that is
    a game name (a designer's ``my-bet.toml`` is the game ``my-bet``); ``None`` otherwise."""
    name = data.get("game")
    if name is None:
        stem = PurePath(source).stem
        name = stem if GAME_NAME.fullmatch(stem) else None
    return name


def defined_game_names() -> list[str]:
    """The games defined in ``tables/``, named from each file's TOML alone, nothing compiled
    or checked: what shell completion lists (compiling every definition costs about a second
    of every Tab). A file that does not parse is left out; the command run names its error."""
    import tomllib

    names = []
    for path in sorted(tables_folder().glob("*.toml")):
        try:
            text = path.read_text(encoding="utf-8")
            data = tomllib.loads(text) if "[definition" in text else {}
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        name = game_name_of(data, f"tables/{path.name}") if "definition" in data else None
        if isinstance(name, str) and name:
            names.append(name)
    return names
