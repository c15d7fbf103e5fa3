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
from collections.abc import Mapping
from typing import Any

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.core.frozen import frozen
from odds.games.dealing import SetDealing
from odds.games.defined.game import DefinedGame
from odds.games.defined.options import config_type
from odds.games.defined.readings import check_values, reading_of
from odds.games.defined.schema import Definition, Locator, check_readings, read_definition
from odds.games.defined.tables import GAME_NAME, game_name_of, tables_folder
from odds.games.defined.tile_schema import tiles_field

#: A file name that can name a game when its paytable has no ``game`` key.


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
        check_readings(raw, source, text, default)  # every patch and option value, now
        check_rules_page(default, source, text)
        self.declarations = default.options
        key = (name, self.digest)
        made = _CONFIG_TYPES.get(key)
        if made is None:
            made = _CONFIG_TYPES[key] = _config_type_of(name, default, self.digest)
        self.config_type = made
        self.default = game_of(name, default, self)
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
            found = self._games[key] = game_of(self.name, definition, self)
        return found


def check_rules_page(definition: Definition, source: str, text: str | None) -> None:
    """A definition of ``tables/`` names its rules page (``rules``), which the report links:
    a page that does not exist is refused when the file is read (issue 35, F8). Checked in
    a checkout, where ``docs/`` is beside ``tables/``; an installed wheel carries no pages.
    A user's own file elsewhere is not checked: its report names the file as its rules."""
    page = definition.rules_page
    if not page or not source.startswith("tables/"):
        return
    root = tables_folder().resolve().parent
    if not (root / "docs").is_dir() or (root / page).is_file():
        return
    raise Locator(text, source).error(
        "definition.rules",
        f"names {page!r}, which does not exist; write the game's rules page there "
        "(docs/guides/contributor.md, How to add a game)",
        Locator(text, source).line("rules"),
    )


#: One paytable class per definition (by name and digest): a paytable of the game read from
#: any file or the API is then the same type, so equal values are equal configs.
_CONFIG_TYPES: dict[tuple[str, str], type[Any]] = {}


def _config_type_of(name: str, default: Definition, digest: str) -> type[Any]:
    if default.tiles is None:
        return config_type(
            name, default.shoe.decks, digest, default.options, dealing_defaults=default.dealing
        )
    # a tile set in the shoe's place, dealt by rounds of the whole table
    return config_type(
        name, 1, digest, default.options, tiles_field(name, default.tiles), SetDealing,
        default.dealing,
    )  # fmt: skip


def game_of(name: str, definition: Definition, family: Family) -> DefinedGame:
    """The game of one reading: a tile game when the definition is dealt from tiles."""
    if definition.tiles is not None:  # imported here: a card game's report need not (~3 ms)
        from odds.games.defined.tile_game import TileGame

        return TileGame(name, definition, family)
    return DefinedGame(name, definition, family)


def _family(name: str, raw: Mapping[str, Any], source: str, text: str | None) -> Family:
    """The family of this definition, read once: a paytable read again with other options
    (``odds verify``'s readings, ``--set``) shares the counts of each reading."""
    return _read_family(name, frozen(raw), source, text)


@cached(maxsize=32)
def _read_family(name: str, raw: Any, source: str, text: str | None) -> Family:
    return Family(name, _thawed(raw), source, text)


def _thawed(value: Any) -> Any:
    """TOML data again from its frozen (hashable) form: tables as dicts, arrays as lists."""
    if isinstance(value, Mapping):
        return {k: _thawed(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [_thawed(v) for v in value]
    return value


def defined_game(
    data: Mapping[str, Any], source: str, text: str | None = None
) -> tuple[DefinedGame, dict[str, Any]]:
    """The game a paytable's ``[definition]`` describes (its declared defaults), and the
    paytable's option sections."""
    name = game_name_of(data, source)
    if not isinstance(name, str) or not name:
        raise OddsError(f'{source}: a definition\'s paytable names its game: game = "my-game"')
    family = _family(name, data["definition"], source, text)
    sections = {
        k: v for k, v in data.items() if k not in ("game", "title", "description", "definition")
    }
    if "definition_sha256" in sections:
        raise OddsError(f"{source}: definition_sha256 is computed from the definition, not set")
    return family.default, sections


def table_game(name: str) -> DefinedGame | None:
    """The defined game ``name`` from its own file, ``tables/<name>.toml``, reading that file
    only (a report of one game need not compile every definition: 0.3 s); ``None`` when no
    file of that name holds the definition of a game so named."""
    from odds.core.numbers import read_toml

    if not GAME_NAME.fullmatch(name):
        return None
    path = tables_folder() / f"{name}.toml"
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8")
    if "[definition" not in text:
        return None
    data = read_toml(text, f"tables/{path.name}")
    if "definition" not in data or data.get("game", name) != name:
        return None
    return defined_game(data, f"tables/{path.name}", text)[0]


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
