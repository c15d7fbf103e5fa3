"""Defined games: compiled from a paytable's ``[definition]``, and found in ``tables/``.

A paytable whose file holds a ``[definition]`` table is its own game: ``game``
names it (by default the file's name, when that is lower-case letters, digits and
hyphens), the definition says how it is dealt and settled. The registry
(:func:`odds.games.games`) lists every such paytable of ``tables/`` beside the
coded games; a definition elsewhere is read from its file (``odds report my-bet.toml``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.games.defined.game import DefinedGame
from odds.games.defined.schema import read_definition
from odds.games.defined.tables import tables_folder
from odds.games.defined.tile_game import paytable_sections, tile_game

#: A file name that can name a game when its paytable has no ``game`` key.
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def definition_digest(definition: Mapping[str, Any]) -> str:
    """SHA-256 of the definition's canonical JSON (independent of layout and comments)."""
    canonical = json.dumps(definition, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def defined_game(
    data: Mapping[str, Any], source: str, text: str | None = None
) -> tuple[DefinedGame, dict[str, Any]]:
    """The game a paytable's ``[definition]`` describes, and the paytable's option sections.

    The sections get the definition's defaults (its number of decks) and its digest.
    """
    name = data.get("game")
    if name is None:  # a designer's my-bet.toml is the game my-bet
        stem = PurePath(source).stem
        name = stem if GAME_NAME.fullmatch(stem) else None
    if not isinstance(name, str) or not name:
        raise OddsError(f'{source}: a definition\'s paytable names its game: game = "my-game"')
    raw = data["definition"]
    digest = definition_digest(raw)
    definition = read_definition(raw, source, text)
    game = (
        DefinedGame(name, definition) if definition.tiles is None else tile_game(name, definition)
    )
    sections = {
        k: v for k, v in data.items() if k not in ("game", "title", "description", "definition")
    }
    if "definition_sha256" in sections:
        raise OddsError(f"{source}: definition_sha256 is computed from the definition, not set")
    sections["definition_sha256"] = digest
    if definition.tiles is not None:  # a tile set, not a shoe: [tiles] from the definition's
        return game, paytable_sections(definition, sections)
    shoe = (
        dict(sections.get("shoe", {}))
        if isinstance(sections.get("shoe", {}), Mapping)
        else sections["shoe"]
    )
    if isinstance(shoe, dict):
        shoe.setdefault("decks", game.definition.shoe.decks)
        sections["shoe"] = shoe
    return game, sections


@cached
def table_games() -> tuple[DefinedGame, ...]:
    """Every defined game in ``tables/`` (a file holding ``[definition]``), by file name."""
    from odds.core.numbers import read_toml

    found = []
    for path in sorted(tables_folder().glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        if "[definition" not in text:
            continue
        source = f"tables/{path.name}"
        data = read_toml(text, source)
        if "definition" in data:
            found.append(defined_game(data, source, text)[0])
    return tuple(found)
