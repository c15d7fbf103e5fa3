"""Every coded game's event keys are members of its event enum, and settle into them.

An :class:`odds.games.events.Event` key of a coded game is a member of the game's
``StrEnum`` (declared beside its events in ``rules.py``), so a misspelt key is an
error where it is written, not a row of zero ways. As ``StrEnum`` s they print as
the bare strings did: the committed reports stay byte-identical (``odds reports
--check``) and the JSON keys below are the plain strings.
"""

from __future__ import annotations

import json
from enum import StrEnum

import pytest

from odds.api import load
from odds.games.baccarat import rules as baccarat
from odds.games.baccarat.bets import bet_specs as baccarat_specs
from odds.games.dragon_tiger import rules as dragon_tiger
from odds.games.dragon_tiger.counting import bet_specs as dragon_tiger_specs
from odds.games.goa_gae import rules as goa_gae
from odds.games.mahjong import rules as mahjong
from odds.games.pok_deng import rules as pok_deng

PAYTABLES = {
    "baccarat": baccarat.BaccaratEvent,
    "baccarat-ez": baccarat.BaccaratEvent,
    "baccarat-no-commission": baccarat.BaccaratEvent,
    "dragon-tiger": dragon_tiger.DragonTigerEvent,
    "mahjong-28": mahjong.MahjongEvent,
    "mahjong-28-36": mahjong.MahjongEvent,
    "goa-gae": goa_gae.GoaGaeEvent,
    "goa-gae-bonus": goa_gae.GoaGaeEvent,
}


def _declared(name: str) -> list[str]:
    config = load(name).config
    if name.startswith("baccarat"):
        return [e.key for s in baccarat_specs(config) for e in s.events]
    if name == "dragon-tiger":
        return [e.key for s in dragon_tiger_specs(config) for e in s.events]
    if name.startswith("mahjong"):
        return [e.key for b in mahjong.bet_rules(config) for e in b.events]
    return [e.key for e in goa_gae.player_events(config)]


@pytest.mark.parametrize("name", sorted(PAYTABLES))
def test_every_declared_event_is_a_member_of_the_games_enum(name):
    enum = PAYTABLES[name]
    keys = _declared(name)
    assert keys
    assert all(isinstance(key, enum) for key in keys), [k for k in keys if not isinstance(k, enum)]


def test_pok_deng_events_and_settlement_are_members():
    config = load("pok-deng").config
    events = pok_deng.player_events(config.payouts) + pok_deng.pair_events(config.payouts)
    assert all(isinstance(e.key, pok_deng.PokDengEvent) for e in events)
    assert {e.key for e in events} == set(pok_deng.PokDengEvent)


def test_goa_gae_has_a_win_and_a_loss_for_every_bonus_category():
    for category in goa_gae.SPECIALS:
        assert goa_gae.GoaGaeEvent.win_with(category) == f"win-{category}"
        assert goa_gae.GoaGaeEvent.loss_to(category) == f"lose-{category}"
    with pytest.raises(ValueError):
        goa_gae.GoaGaeEvent.win_with("points")  # not a bonus category


def test_baccarat_has_every_dragon_bonus_margin():
    for margin in range(1, 10):
        assert baccarat.BaccaratEvent(f"win-by-{margin}").value == f"win-by-{margin}"


@pytest.mark.parametrize("enum", sorted(set(PAYTABLES.values()), key=lambda e: e.__name__))
def test_event_keys_print_as_their_strings(enum: type[StrEnum]):
    for member in enum:
        assert str(member) == f"{member}" == member.value
        assert json.dumps({member: member}) == json.dumps({member.value: member.value})
