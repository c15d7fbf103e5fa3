"""Configs are values: hashable, and equal configs hash equal however they were made.

A table option (``[payouts.bonus]``, ``[shoe.counts]``, ``[tableau.banker_draws]``,
``[tiles.copies]``) used to be a ``dict``, so no config could be hashed and every
cache keyed by identity or a hand-made key. These tests fail on that: a config
from a file, from ``--set`` overrides and from the API must hash, and two that
say the same thing must be equal with equal hashes.
"""

from __future__ import annotations

import pickle

import pytest

from odds.api import load
from odds.core.frozen import FrozenMap, frozen
from odds.core.options import to_plain, value_text
from odds.core.overrides import Override
from odds.games import games
from odds.games.paytable import from_data
from odds.games.paytable import load as load_paytable
from tests.paths import ROOT

PAYTABLES = sorted(p.stem for p in (ROOT / "odds" / "tables").glob("*.toml"))


@pytest.mark.parametrize("name", PAYTABLES)
def test_every_shipped_paytable_hashes_and_equals_a_second_load(name):
    first, second = load(name).config, load(name).config
    assert first is not second
    assert first == second
    assert hash(first) == hash(second)
    assert {first: 1}[second] == 1


@pytest.mark.parametrize("game", sorted(games()))
def test_every_game_default_config_hashes(game):
    config = games()[game].config_type()
    assert hash(config) == hash(games()[game].config_type())


def test_a_table_option_from_toml_and_from_overrides_hash_equal(tmp_path):
    """The same bonus table written in the file, with --set, and with the API."""
    path = tmp_path / "bonus.toml"
    path.write_text(
        'game = "goa-gae"\n[payouts.bonus]\nflush = 3\ntriple = "5"\n', encoding="utf-8"
    )
    from_file = load_paytable(str(path), ()).config
    from_set = load_paytable(
        "goa-gae", [Override.parse("payouts.bonus={triple = 5, flush = 3}")]
    ).config
    from_api = load("goa-gae", payouts={"bonus": {"flush": 3, "triple": "5"}}).config
    assert isinstance(from_file.payouts.bonus, FrozenMap)
    assert from_file == from_set == from_api
    assert len({from_file, from_set, from_api}) == 1
    different = load("goa-gae", payouts={"bonus": {"flush": 4, "triple": 5}}).config
    assert different != from_file and hash(different) != hash(from_file)


def test_decks_and_counts_overrides_hash_like_the_file():
    six = load("baccarat", decks=6).config
    assert six == load_paytable("baccarat", [Override.parse("shoe.decks=6")]).config
    assert hash(six) == hash(load("baccarat", decks=6).config)
    assert six != load("baccarat").config
    custom = load_paytable("baccarat", [Override.parse('shoe.counts={"9h" = 2}')]).config
    assert custom.shoe.counts == {"9h": 2}
    assert hash(custom) == hash(load("baccarat", shoe={"counts": {"9h": 2}}).config)


def test_a_table_option_reads_exactly_as_before():
    """Reports, JSON and ``odds games`` print the FrozenMap as they printed the dict."""
    config = load("baccarat").config
    bonus = config.payouts.dragon_bonus
    as_dict = dict(bonus)
    assert value_text(bonus) == value_text(as_dict)
    assert to_plain(bonus) == to_plain(as_dict) == {k: str(v) for k, v in as_dict.items()}
    assert list(bonus) == ["natural", "9", "8", "7", "6", "5", "4"]  # declaration order kept
    draws = config.tableau.banker_draws
    assert value_text(draws) == value_text(dict(draws))
    assert from_data(to_plain_data(config), "again").config == config


def to_plain_data(config):
    data = to_plain(config)
    data["game"] = "baccarat"
    return data


def test_frozen_map_cannot_change_and_pickles():
    bonus = FrozenMap({"flush": 3})
    with pytest.raises(TypeError):
        bonus["flush"] = 4  # type: ignore[index]
    with pytest.raises(AttributeError):
        bonus._items = {}  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(bonus)) == bonus
    config = load("blackjack").config  # a defined game's config is rebuilt from its paytable
    assert pickle.loads(pickle.dumps(config)) == config
    assert hash(pickle.loads(pickle.dumps(config))) == hash(config)


def test_frozen_map_equality_ignores_order_like_a_dict():
    assert FrozenMap(a=1, b=2) == FrozenMap(b=2, a=1) == {"b": 2, "a": 1}
    assert hash(FrozenMap(a=1, b=2)) == hash(FrozenMap(b=2, a=1))
    assert FrozenMap(a=1) != FrozenMap(a=2)
    assert FrozenMap(a=1) != [("a", 1)]
    assert frozen({"a": [1, {"b": [2]}]}) == FrozenMap(a=(1, FrozenMap(b=(2,))))
    hash(frozen({"a": [1, {"b": [2]}]}))
