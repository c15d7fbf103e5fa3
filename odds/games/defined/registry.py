"""Defined games: compiled from a paytable's ``[definition]``, and found in ``tables/``.

A paytable whose file holds a ``[definition]`` table is its own game: ``game``
names it (by default the file's name, when that is lower-case letters, digits and
hyphens), the definition says how it is dealt and settled. The registry
(:func:`odds.games.games`) lists every such paytable of ``tables/`` beside the
coded games; a definition elsewhere is read from its file (``odds report my-bet.toml``).
A paytable with ``game = "X"`` and no ``[definition]``, X a defined game, is a paytable
of that game: its sections are X's options, and :class:`Family` gives the game of
its reading.
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
from odds.games.defined.options import config_type
from odds.games.defined.readings import check_values, reading_of
from odds.games.defined.schema import read_definition
from odds.games.defined.tables import tables_folder

#: A file name that can name a game when its paytable has no ``game`` key.
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


def definition_digest(definition: Mapping[str, Any]) -> str:
    """SHA-256 of the definition's canonical JSON (independent of layout and comments)."""
    canonical = json.dumps(definition, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class Family:
    """One definition and its paytable schema: a game per reading of its options.

    The definition is read once per reading (the values of the options that change
    what is counted: readings, bets offered, bound tables), and the game of each
    reading is kept, so paytables that share a reading share its counts.
    """

    def __init__(self, name: str, raw: Mapping[str, Any], source: str, text: str | None) -> None:
        self.name = name
        self.raw = raw
        self.source = source
        self.text = text
        self.digest = definition_digest(raw)
        default = read_definition(raw, source, text)
        self.declarations = default.options
        self.config_type = config_type(name, default.shoe.decks, self.digest, self.declarations)
        self.default = DefinedGame(name, default, self)
        self._games: dict[Any, DefinedGame] = {default.reading.key(): self.default}

    def game(self, config: Any) -> DefinedGame:
        """The game of this paytable's reading (its declared options checked)."""
        if config.definition_sha256 != self.digest:
            raise OddsError(
                f"{self.source}: definition_sha256 is computed from the definition, not set"
            )
        reading = reading_of(config, self.declarations)
        check_values(reading)
        key = reading.key()
        found = self._games.get(key)
        if found is None:
            definition = read_definition(self.raw, self.source, self.text, reading.values)
            found = self._games[key] = DefinedGame(self.name, definition, self)
        return found


def defined_game(
    data: Mapping[str, Any], source: str, text: str | None = None
) -> tuple[DefinedGame, dict[str, Any]]:
    """The game a paytable's ``[definition]`` describes (its declared defaults), and the
    paytable's option sections."""
    name = data.get("game")
    if name is None:  # a designer's my-bet.toml is the game my-bet
        stem = PurePath(source).stem
        name = stem if GAME_NAME.fullmatch(stem) else None
    if not isinstance(name, str) or not name:
        raise OddsError(f'{source}: a definition\'s paytable names its game: game = "my-game"')
    family = Family(name, data["definition"], source, text)
    sections = {
        k: v for k, v in data.items() if k not in ("game", "title", "description", "definition")
    }
    if "definition_sha256" in sections:
        raise OddsError(f"{source}: definition_sha256 is computed from the definition, not set")
    return family.default, sections


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
