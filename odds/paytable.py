"""Finding, reading and validating paytables (``tables/*.toml``).

A paytable names its game, gives a title, and sets the game's option sections.
Anything it leaves out takes the game's documented default, so the name of a
game alone (``pok-deng``) means ``tables/pok-deng.toml`` when it exists and
the built-in defaults otherwise.
"""

from __future__ import annotations

import copy
import dataclasses
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odds.analysis import Analysis
from odds.config import build, merge, parse_override
from odds.errors import OddsError
from odds.games import GAMES, game_named
from odds.games.base import Game

#: The repository's paytable folder (next to the package in a source checkout).
TABLES = Path(__file__).resolve().parent.parent / "tables"
#: Where generated reports go.
REPORTS = TABLES.parent / "reports"

_TOP_LEVEL = ("game", "title", "description")


@dataclass(frozen=True)
class Paytable:
    """A loaded, validated paytable."""

    game: Game
    title: str
    description: str
    source: str
    config: Any
    data: dict[str, Any]

    def analysis(self) -> Analysis:
        """The game's exact analysis of this paytable, titled as the paytable is."""
        result = self.game.analyse(self.config, self.source)
        notes = (self.description,) if self.description else ()
        return dataclasses.replace(result, title=self.title, notes=notes + result.notes)

    def with_overrides(self, overrides: Iterable[str]) -> Paytable:
        """The same paytable with ``section.key=value`` overrides applied."""
        data = copy.deepcopy(self.data)
        changed = False
        for text in overrides:
            keys, value = parse_override(text)
            merge(data, keys, value)
            changed = True
        if not changed:
            return self
        return from_data(data, self.source + " (with overrides)")


def from_data(data: dict[str, Any], source: str) -> Paytable:
    """Validate parsed TOML data into a :class:`Paytable`."""
    if "game" not in data:
        raise OddsError(f"{source}: missing 'game = \"…\"' (one of {', '.join(GAMES)})")
    name = data["game"]
    if not isinstance(name, str):
        raise OddsError(
            f"{source}: game must be a game's name in quotes (one of {', '.join(GAMES)}), "
            f"got {name!r}"
        )
    game = game_named(name)
    title = data.get("title", game.title)
    description = data.get("description", "")
    for key, value in (("title", title), ("description", description)):
        if not isinstance(value, str):
            raise OddsError(f"{source}: {key} must be a string")
    sections = {k: v for k, v in data.items() if k not in _TOP_LEVEL}
    config = build(game.config_type, sections, "")
    game.validate(config)
    return Paytable(game, title, description, source, config, data)


def load_file(path: Path) -> Paytable:
    """Read one paytable file; every problem is a one-line error naming the file."""
    label = _label(path)
    text = read_text(path, label)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise OddsError(f"{label}: not valid TOML ({exc})") from None
    try:
        return from_data(data, label)
    except OddsError as exc:
        message = str(exc)
        raise OddsError(message if message.startswith(label) else f"{label}: {message}") from None


def read_text(path: Path, label: str) -> str:
    """A text file's contents; unreadable or non-UTF-8 files are one-line errors."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OddsError(f"{label}: cannot read ({exc.strerror})") from None
    return decode_utf8(data, label)


def decode_utf8(data: bytes, label: str) -> str:
    """UTF-8 text (a BOM allowed); UTF-16 and binary data are named, with the line.

    >>> decode_utf8(b"game = 1\\n\\xff", "x.toml")
    Traceback (most recent call last):
    odds.errors.OddsError: x.toml: not UTF-8 text (byte 0xff on line 2); save it as UTF-8
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise OddsError(f"{label}: UTF-16 text; save it as UTF-8")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise OddsError(
            f"{label}: not UTF-8 text (byte 0x{data[exc.start]:02x} on line {line}); "
            "save it as UTF-8"
        ) from None
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + 1
        raise OddsError(f"{label}: binary data (a NUL byte on line {line}), not a text file")
    return text


def _looks_like_path(text: str) -> bool:
    """Whether an argument names a file rather than a game: a folder part or ``.toml``."""
    return text.endswith(".toml") or "/" in text or "\\" in text


def load(game_or_path: str, overrides: Iterable[str] = ()) -> Paytable:
    """A game name or a paytable path, with optional ``--set`` overrides.

    A game or paytable name (``blackjack``, ``mahjong-28-20``) wins over a file or
    folder of that name in the working directory; write ``./blackjack`` for the file.
    """
    path = Path(game_or_path)
    named = game_or_path in GAMES or (TABLES / f"{game_or_path}.toml").exists()
    if _looks_like_path(game_or_path) or (path.exists() and not named):
        if not path.exists():
            raise OddsError(f"no paytable file {game_or_path!r}")
        if path.is_dir():
            raise OddsError(f"{game_or_path}: is a folder, not a paytable .toml file")
        paytable = load_file(path)
    elif (TABLES / f"{game_or_path}.toml").exists():
        paytable = load_file(TABLES / f"{game_or_path}.toml")
    elif game_or_path in GAMES:
        game = GAMES[game_or_path]
        paytable = from_data({"game": game.name}, f"{game.name} (built-in defaults)")
    else:
        raise OddsError(
            f"unknown game or paytable {game_or_path!r} (games: {', '.join(GAMES)}; "
            "or give a path to a .toml paytable)"
        )
    return paytable.with_overrides(overrides)


def table_files() -> list[Path]:
    """Every paytable in ``tables/``, sorted by name."""
    return sorted(TABLES.glob("*.toml"))


def _label(path: Path) -> str:
    """A paytable's name in messages and reports: repository-relative when it can be.

    Reports print it, so it must not depend on the directory the command ran in.
    """
    try:
        return str(path.resolve().relative_to(TABLES.parent))
    except ValueError:
        return str(path)
