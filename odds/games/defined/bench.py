"""``odds bench``: a definition's count beside the coded game it re-expresses.

The coded game's paytable (``tables/<name>.toml``) is read and analysed by the
coded counting, timed in the brute-force column; both must give the same
(net, ways) for every bet the definition declares. The coded game is found by its
name in the registry at run time (``mahjong-28`` is the package ``mahjong``):
definitions know no game's code.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.core.options import build, to_plain
from odds.games.base import BenchCase, Game
from odds.games.defined import counting
from odds.games.defined.tables import tables_folder

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig


def _figures(analysis: Any, names: set[str]) -> dict[str, list[tuple[Any, int]]]:
    return {
        bet.name: [(o.net, o.ways) for o in bet.outcomes]
        for bet in analysis.bets
        if bet.name in names
    }


def beside_coded(game: DefinedGame, config: DefinedConfig, coded: str) -> BenchCase:
    """``coded`` names a coded game or paytable (``tables/<coded>.toml``, its ``game`` the
    package). A definition that declares the coded game's options is compared under this
    paytable's own options (its shoe and declared sections, the coded game's keys); one that
    declares none, with the coded paytable's file."""
    path = tables_folder() / f"{coded}.toml"
    data: dict[str, Any] = {"game": coded}
    if path.is_file():
        data = read_toml(path.read_text(encoding="utf-8"), f"tables/{path.name}")
    # The registry, looked up at run time as the coded package is (it lists the definitions:
    # a static import would be a cycle).
    registry = importlib.import_module("odds.games")
    coded_game: Game[Any] = registry.game_named(str(data.get("game", coded)))
    names = {bet.name for bet in game.definition.bets}
    missing = sorted(names - set(coded_game.bet_names))
    if coded_game.bet_names and missing:
        raise OddsError(
            f"{game.definition.source}: reproduces {coded!r}, whose bets "
            f"({', '.join(coded_game.bet_names)}) are not {missing[0]!r}"
        )
    sections = {k: v for k, v in data.items() if k not in ("game", "title", "description")}
    declared = {d.section for d in game.definition.options}
    source = f"tables/{path.name}"
    if declared:
        plain = to_plain(config)
        sections = {k: plain[k] for k in ("shoe", *declared)}
        source = "this paytable's options"
    coded_config = build(coded_game.config_type, sections, "")

    def defined() -> dict[str, list[tuple[Any, int]]]:
        game.__dict__.pop("_rounds_cache", None)
        counting.clear_caches(game.definition)
        return _figures(game.analyse(config, "bench"), names)

    def by_code() -> dict[str, list[tuple[Any, int]]]:
        return _figures(coded_game.analyse(coded_config, "bench"), names)

    return BenchCase(
        f"{game.name} (definition) beside {coded_game.name} (coded), {len(names)} bets",
        defined,
        by_code,
        note="engine column: the definition counted from scratch; brute-force column: the "
        f"coded {coded_game.name} analysis of {source}; agree: every bet's (net, ways)",
    )
