"""Finding, reading and validating paytables (``tables/*.toml``).

A paytable names its game, gives a title, and sets the game's option sections.
Anything it leaves out takes the game's documented default, so the name of a
game alone (``pok-deng``) means ``tables/pok-deng.toml`` when it exists and
the built-in defaults otherwise. Overrides (:mod:`odds.core.overrides`) are merged
into the data before it is validated, once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.core.options import build, to_plain
from odds.core.overrides import Override, keyword_overrides, merged
from odds.games import game_named, game_names
from odds.games.base import Game
from odds.stats.analysis import Analysis

_PACKAGE = Path(__file__).resolve().parents[1]  # the odds package
#: A source checkout's root (where ``pyproject.toml`` is), or ``None`` for an installed copy.
CHECKOUT: Path | None = _PACKAGE.parent if (_PACKAGE.parent / "pyproject.toml").is_file() else None


def _tables_folder() -> Path:
    """The paytables: ``odds/tables`` (a link to the checkout's ``tables/``, and real files in
    an installed wheel); the checkout's folder itself where the link did not survive a clone."""
    inside = _PACKAGE / "tables"
    if inside.is_dir() or CHECKOUT is None:
        return inside
    return CHECKOUT / "tables"


#: The paytable folder the names ``pok-deng``, ``mahjong-28-20`` … refer to.
TABLES = _tables_folder()
#: Where generated reports go: only a source checkout has them.
REPORTS: Path | None = CHECKOUT / "reports" if CHECKOUT is not None else None

_TOP_LEVEL = ("game", "title", "description")


@dataclass(frozen=True)
class Paytable:
    """A loaded, validated paytable.

    ``data`` is the TOML data it was built from (overrides included), so a
    variant is the same data with more overrides, validated again.
    """

    game: Game[Any]
    title: str
    description: str
    source: str
    config: Any
    data: dict[str, Any]
    #: SHA-256 of the paytable file's bytes (``sha256sum`` checks it); ``None`` when the
    #: options did not all come from one file (built-in defaults, overrides).
    file_sha256: str | None = None
    #: The paytable file read (overrides or not), so an output never replaces it.
    file: Path | None = None

    @property
    def options_sha256(self) -> str:
        """SHA-256 of every option's effective value (canonical JSON): the rules analysed.

        Independent of comments, layout and defaults written out or left implicit,
        so two files that say the same thing have the same digest.
        """
        import hashlib
        import json

        canonical = json.dumps(
            {"game": self.game.name, "options": to_plain(self.config)},
            sort_keys=True,
            separators=(",", ":"),
            ensure_ascii=True,
        )
        return hashlib.sha256(canonical.encode("ascii")).hexdigest()

    def analysis(self) -> Analysis:
        """The game's exact analysis of this paytable, titled as the paytable is."""
        return self._titled(self.game.analyse(self.config, self.source), charts=True)

    def infinite_analysis(self) -> Analysis:
        """The analysis from an infinite shoe (``odds report --decks infinite``): every card
        dealt with replacement, for a game that offers it."""
        feature = self.game.infinite_shoe
        if feature is None:
            raise OddsError(
                f"{self.game.name} has no infinite-shoe analysis (--decks infinite: blackjack's "
                "report only)"
            )
        return self._titled(feature.analyse(self.game, self.config, self.source), charts=True)

    def bet_analysis(self) -> Analysis:
        """The bets' analysis alone (:meth:`odds.games.base.Game.analyse_bets`: no costly game
        tables, no charts), computed once per paytable object: what audits, claim checks and
        solvers read."""
        cached: Analysis | None = self.__dict__.get("_bet_analysis")
        if cached is None:
            found = self.game.analyse_bets(self.config, self.source)
            cached = self._titled(found, charts=False)
            object.__setattr__(self, "_bet_analysis", cached)
        return cached

    def _titled(self, result: Analysis, charts: bool) -> Analysis:
        """An analysis with this paytable's title, description, digests and (``charts``) charts."""
        notes = (self.description,) if self.description else ()
        result = dataclasses.replace(
            result,
            title=self.title,
            notes=notes + result.notes,
            file_sha256=self.file_sha256,
            options_sha256=self.options_sha256,
        )
        if self.game.charts is None or not charts:
            return result
        return dataclasses.replace(result, charts=tuple(self.game.charts.charts(result)))

    def analyse(self, stakes: str | None = None) -> Analysis:
        """The exact analysis (computed once per paytable object).

        ``stakes``: for a game whose bets are played together (Pok Deng), the
        whole-table figures at these stakes per position as well as the
        paytable's, ``"player=1,player-pair=0.2"`` (``odds report --stakes``).
        They are validated before anything is computed.
        """
        if stakes is not None:
            feature = self.game.stakes
            if feature is None:
                raise OddsError(
                    f"{self.game.name} has no stakes to combine (--stakes is for games whose "
                    "bets are played together, e.g. pok-deng)"
                )
            chosen = feature.parse(stakes)
            return feature.with_stakes(self.config, self.analyse(), chosen)
        cached: Analysis | None = self.__dict__.get("_analysis")
        if cached is None:
            cached = self.analysis()
            object.__setattr__(self, "_analysis", cached)
        return cached

    def replace(
        self,
        *,
        decks: int | None = None,
        overrides: Iterable[Override | str] = (),
        **sections: Mapping[str, Any],
    ) -> Paytable:
        """A what-if: this paytable with options changed, validated again.

        >>> from odds.games.paytable import load
        >>> load("pok-deng").replace(payouts={"pair": 12}).config.payouts.pair
        Fraction(12, 1)
        """
        return self.with_overrides(keyword_overrides(decks, overrides, sections))

    def __repr__(self) -> str:
        return f"Paytable({self.source!r}, game={self.game.name!r}, title={self.title!r})"

    def with_overrides(
        self, overrides: Iterable[Override | str], source: str | None = None
    ) -> Paytable:
        """The same paytable with more overrides, validated again (a what-if)."""
        overrides = game_overrides(self.game, overrides)
        if not overrides:
            return self
        return from_data(merged(self.data, overrides), source or self.source)


def from_data(data: Mapping[str, Any], source: str, text: str | None = None) -> Paytable:
    """Validate parsed TOML data into a :class:`Paytable`.

    Data holding a ``[definition]`` is a defined game (:mod:`odds.games.defined`);
    ``text``, the file's text, lets its errors name lines.
    """
    from odds.games.dealing import check_shuffle

    check_shuffle(data, source)
    game: Game[Any]
    if "definition" in data:
        from odds.games.defined.registry import defined_game

        game, sections = defined_game(data, source, text)
    else:
        name = data.get("game")
        if name is None:
            raise OddsError(f"{source}: missing 'game = \"…\"' (one of {', '.join(game_names())})")
        if not isinstance(name, str):
            raise OddsError(f"{source}: game must be a string naming a game, got {name!r}")
        game = game_named(name)
        sections = {k: v for k, v in data.items() if k not in _TOP_LEVEL}
    title = data.get("title", game.title)
    description = data.get("description", "")
    for key, value in (("title", title), ("description", description)):
        if not isinstance(value, str):
            raise OddsError(f"{source}: {key} must be a string")
    config = build(game.config_type, sections, "")
    game = game.for_config(config)  # a defined game: the game of this reading of its options
    game.validate(config)
    return Paytable(game, title, description, source, config, dict(data))


def as_overrides(items: Iterable[Override | str]) -> list[Override]:
    """Overrides given as :class:`Override` s or as ``"section.key=value"`` text."""
    return [item if isinstance(item, Override) else Override.parse(item) for item in items]


def game_overrides(game: Game[Any], overrides: Iterable[Override | str]) -> list[Override]:
    """Overrides as the game's options name them.

    ``decks`` is a convenience every command offers; a game keeps its decks at
    :attr:`Game.decks_path` (``shoe.decks``), and a game without decks (a tile
    game) refuses it with a sentence saying what to set instead.
    """
    result = []
    for override in as_overrides(overrides):
        if override.path == ("decks",):
            if game.decks_path is None:
                raise OddsError(f"{override.source}: {game.name} {game.no_decks_reason}")
            override = Override(game.decks_path, override.value, override.source)
        result.append(override)
    return result


def read_file(path: Path) -> tuple[dict[str, Any], str]:
    """A paytable file's TOML data and its label; every problem one line naming the file."""
    data, label, _, _ = _read(path)
    return data, label


def _read(path: Path) -> tuple[dict[str, Any], str, str, str]:
    """Data, label, the SHA-256 of the file's bytes, and its text."""
    import hashlib

    from odds.runtime.inputs import PAYTABLE_BYTES, read_regular

    label = _label(path)
    raw = read_regular(path, label, PAYTABLE_BYTES, "paytable .toml file")
    text = decode_utf8(raw, label)
    return read_toml(text, label), label, hashlib.sha256(raw).hexdigest(), text


def load_file(path: Path, overrides: Iterable[Override | str] = ()) -> Paytable:
    """Read one paytable file, apply overrides, validate once."""
    data, label, digest, text = _read(path)
    paytable = _validated(data, label, overrides, text)
    if paytable.source != label:  # overrides changed it: no longer the file's options
        return dataclasses.replace(paytable, file=path)
    return dataclasses.replace(paytable, file_sha256=digest, file=path)


def _validated(
    data: dict[str, Any], label: str, overrides: Iterable[Override | str], text: str | None = None
) -> Paytable:
    overrides = as_overrides(overrides)
    try:
        if overrides:
            name = data.get("game")
            game: Game[Any] | None = None
            if "definition" in data:
                from odds.games.defined.registry import defined_game

                game = defined_game(data, label, text)[0]
            elif isinstance(name, str):
                game = game_named(name)
            if game is not None:
                data = merged(data, game_overrides(game, overrides))
            label += " (with overrides)"
        return from_data(data, label, text)
    except OddsError as exc:
        message = str(exc)
        raise OddsError(message if message.startswith(label) else f"{label}: {message}") from None


def decode_utf8(data: bytes, label: str) -> str:
    """UTF-8 text (a BOM allowed); UTF-16 and binary data are named, with the line.

    >>> decode_utf8(b"game = 1\\n\\xff", "x.toml")
    Traceback (most recent call last):
    odds.OddsError: x.toml: not UTF-8 text (byte 0xff on line 2); save it as UTF-8
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


def looks_like_path(text: str) -> bool:
    """Whether a GAME_OR_PAYTABLE argument is written as a path (``x.toml``, ``./pok-deng``)."""
    return text.endswith(".toml") or "/" in text or "\\" in text or text.startswith(".")


def load(game_or_path: str, overrides: Iterable[Override | str] = ()) -> Paytable:
    """A game name, a paytable name, or a paytable path, with overrides.

    An argument written as a path (``x.toml``, ``./blackjack``, ``dir/x``) is that file.
    A name is looked up in this order (:func:`paytable_file`):

    1. a packaged paytable, ``tables/<name>.toml``;
    2. a game's built-in defaults;
    3. a paytable file in the working folder: ``NAME`` as written, else ``NAME.toml``
       (a designer's ``my-bet.toml`` is the game ``my-bet``).

    When a file in the working folder is read by name, or a packaged name hides a
    ``NAME.toml`` there, one line on standard error says which file was used.
    """
    if looks_like_path(game_or_path):
        path = Path(game_or_path)
        if not path.exists():
            raise OddsError(f"no paytable file {game_or_path!r}")
        if path.is_dir():
            raise OddsError(f"{game_or_path}: is a folder, not a paytable .toml file")
        return load_file(path, overrides)
    packaged = TABLES / f"{game_or_path}.toml"
    shadowed = Path(f"{game_or_path}.toml")
    if packaged.is_file() or game_or_path in game_names():
        what = (
            f"the packaged paytable tables/{packaged.name}"
            if packaged.is_file()
            else "the game's built-in defaults"
        )
        if shadowed.is_file():
            _note(
                f"{game_or_path} is {what}, not ./{shadowed} in this folder "
                f"(give ./{shadowed} to read that one)"
            )
        if packaged.is_file():
            return load_file(packaged, overrides)
        game = game_named(game_or_path)
        return _validated({"game": game.name}, f"{game.name} (built-in defaults)", overrides)
    local = _local_file(game_or_path)
    if local is None:
        raise OddsError(
            f"unknown game or paytable {game_or_path!r} (games: {', '.join(game_names())}; "
            f"or a paytable file: ./{game_or_path}.toml or a path)"
        )
    _note(
        f"{game_or_path}: the paytable file ./{local} in this folder "
        "(no packaged game or paytable has that name)"
    )
    return load_file(local, overrides)


def _local_file(name: str) -> Path | None:
    """A file in the working folder a name reads: ``NAME`` as written, else ``NAME.toml``."""
    return next((p for p in (Path(name), Path(f"{name}.toml")) if p.is_file()), None)


def paytable_file(name: str) -> Path | None:
    """The file a game or paytable *name* reads, in :func:`load`'s order; ``None`` for a
    game's built-in defaults or an unknown name. Quiet: shell completion asks it too."""
    packaged = TABLES / f"{name}.toml"
    if packaged.is_file():
        return packaged
    return None if name in game_names() else _local_file(name)


def _note(text: str) -> None:
    """One line on standard error: which file a name was read from (never standard output,
    which holds the document)."""
    import sys

    sys.stderr.write(f"note: {text}\n")


def table_files() -> list[Path]:
    """Every paytable in ``tables/``, sorted by name."""
    return sorted(TABLES.glob("*.toml"))


def _label(path: Path) -> str:
    """A paytable's name in messages and reports: ``tables/<name>.toml`` for the built-in ones.

    Reports print it, so it must not depend on the directory the command ran
    in, nor on where the package is installed.
    """
    resolved = path.resolve()
    if resolved.parent == TABLES.resolve():
        return f"tables/{resolved.name}"
    if CHECKOUT is not None and resolved.is_relative_to(CHECKOUT):
        return str(resolved.relative_to(CHECKOUT))
    return str(path)
