"""Casino War (``tables/casino-war.toml``, docs/rules/casino-war.md): a deal that goes on
after a tie, with burned cards, and the player's choice on a tie solved by the engine.

* On a reduced shoe (two decks of four ranks, 32 cards) every outcome's ways of the Main bet
  and the Tie bet, and the action on each tie, equal a plain walk of every card written from
  the rules page, each burned card drawn explicitly (``tests/reference/casino_war.py``): the
  engine's ways times 3! (the reference orders the three burned cards, the engine counts
  them as a set). The same with the tie bonus, and with payouts under which surrendering is
  better (the engine then finds surrender: the choice is computed, not typed in).
* Burned cards change no probability: the reference's law of the two war cards after each
  tie is the same with three burned cards drawn first as with none, and the engine's Main
  bet is the same with ``burn = 0``.
* On the full six-deck shoe the computation reproduces the published figures. Wizard of
  Odds' Casino War tables, as reproduced at
  http://www.i-online-casinos.com/games/casino-war-odds.php: going to war without the
  bonus, win 0.502735, lose the original bet 0.463023, lose after war 0.034242, total
  −0.028771; with the bonus for a tie after a tie, that tie 0.005471 returning 0.010942,
  total −0.023301; and by decks, 1 to 8, the house edge with the bonus, without it,
  surrendering, and of the Tie bet (six decks: 2.33%, 2.88%, 3.70%, 18.65%). Ask the Wizard
  #17 (https://wizardofodds.com/ask-the-wizard/17/): the bonus "decreases the house edge from
  2.88% to 2.33%"; the Wizard of Macau (https://wizardofmacau.com/en/games/war): "The house
  edge on the tie bet is 18.65%", "The correct choice is to go to war".
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from odds.core.cards import STANDARD_DECK
from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.games.defined.game import DefinedGame
from odds.games.paytable import TABLES, from_data, load, load_file
from odds.stats.analysis import Analysis
from tests.reference import casino_war as reference

#: Four ranks, ace high: 2 < 7 < K < A (the reference's strengths 0 < 1 < 2 < 3).
RANKS = ["2", "7", "K", "A"]
#: Two decks of them: each card twice.
DECKS = 2


def _paytable(name: str = "casino-war", **changes: Any) -> Any:
    """The paytable on the reduced shoe; ``changes``: payouts, or ``burn``."""
    data = read_toml((TABLES / f"{name}.toml").read_text(), name)
    wanted = {f"{r}{s}" for r in RANKS for s in "cdhs"}
    data["shoe"] = {"decks": 1, "counts": {c.code: DECKS * (c.code in wanted)
                                           for c in STANDARD_DECK}}  # fmt: skip
    if "burn" in changes:
        data["definition"]["continuation"]["burn"] = changes.pop("burn")
    data["payouts"] = {**data.get("payouts", {}), **changes}
    return from_data(data, f"{name} (reduced)")


def _ways(paytable: Any, bet: str) -> dict[str, int]:
    game = paytable.game
    assert isinstance(game, DefinedGame)
    found = next(b for b in game.definition.bets if b.name == bet)
    rounds = game.rounds(paytable.config, found)
    return {k: n for k, n in game.settle_rounds(paytable.config, found, rounds, False).items() if n}


def _counts() -> dict[int, int]:
    return {strength: 4 * DECKS for strength in range(len(RANKS))}


def _actions(paytable: Any) -> dict[str, str]:
    """The engine's action on each tie, by the tied rank."""
    from odds.games.defined.continuation import solution

    found = solution(paytable.game, paytable.config)
    actions = found.decision.actions
    return {c.cards[0]: actions[c.action] for c in found.choices}


def _by_rank(actions: dict[int, str]) -> dict[str, str]:
    """The reference's actions (by strength) by rank."""
    return {RANKS[strength]: action for strength, action in actions.items()}


def test_a_reduced_shoe_equals_the_plain_walk_of_every_card() -> None:
    paytable = _paytable()
    ways, actions = reference.main_bet(_counts())
    assert {k: n * 6 for k, n in _ways(paytable, "main").items()} == dict(ways)
    assert _ways(paytable, "tie") == dict(reference.tie_bet(_counts()))
    assert _actions(paytable) == _by_rank(actions) == dict.fromkeys(RANKS, "war")
    # The whole round: the rounds that stop, extended by the war's five cards, and the wars.
    assert sum(_ways(paytable, "main").values()) == 32 * 31 * 30 * 29 * comb_3(28)


def comb_3(n: int) -> int:
    return n * (n - 1) * (n - 2) // 6


def test_the_tie_bonus_equals_the_plain_walk() -> None:
    paytable = _paytable("casino-war-tie-bonus")
    ways, _ = reference.main_bet(_counts(), war_tie=Fraction(2))
    assert {k: n * 6 for k, n in _ways(paytable, "main").items()} == dict(ways)
    edge, risk = reference.figures(_counts(), "optimal", war_tie=Fraction(2))
    main = paytable.analysis().bet("main")
    assert (main.house_edge, main.element_of_risk) == (edge, risk)


def test_the_choice_is_computed_surrender_when_war_pays_nothing() -> None:
    """War paying nothing on a win (the raise only pushes): surrendering loses less, and the
    engine finds it on every tie, as the plain walk does."""
    paytable = _paytable(war_win=0, war_tie=0)
    ways, actions = reference.main_bet(_counts(), war_win=Fraction(0), war_tie=Fraction(0))
    assert set(actions.values()) == {"surrender"}
    assert _actions(paytable) == _by_rank(actions)
    assert {k: n * 6 for k, n in _ways(paytable, "main").items()} == dict(ways)


def test_burned_cards_change_no_probability() -> None:
    """The reference draws each burned card explicitly: the war cards' law after a tie is the
    same with three burns as with none; the engine's Main bet too."""
    counts = _counts()
    for rank in counts:
        assert reference.war_law(counts, rank, 3) == reference.war_law(counts, rank, 0)
    burned, unburned = _ways(_paytable(), "main"), _ways(_paytable(burn=0), "main")
    total, other = sum(burned.values()), sum(unburned.values())
    assert total != other  # the ways differ (the burns are counted) ...
    assert {k: Fraction(n, total) for k, n in burned.items()} == {
        k: Fraction(n, other) for k, n in unburned.items()
    }  # ... the probabilities do not


@cache
def _full(name: str = "casino-war", decks: int = 6) -> Analysis:
    return load(name, [f"shoe.decks={decks}"]).analysis()


def _decision(analysis: Analysis) -> dict[str, dict[str, Any]]:
    return {row["strategy"]: dict(row) for row in analysis.report_table("decision").rows}


def test_six_decks_reproduce_the_published_figures() -> None:
    analysis = _full()
    main = analysis.bet("main")
    p = {o.event: Fraction(o.ways, sum(x.ways for x in main.outcomes)) for o in main.outcomes}
    assert main.ev == Fraction(-142853, 4965115)
    assert round(float(p["player's card higher"]), 6) == 0.463023
    assert round(float(p["dealer's card higher"]), 6) == 0.463023
    assert round(float(p["tie, war, dealer's war card higher"]), 6) == 0.034242
    assert round(float(p["tie, war, war cards tie"]), 6) == 0.005471
    assert round(float(main.stats.hit_frequency), 6) == 0.502735
    assert round(float(main.ev), 6) == -0.028771
    assert p["tie, surrenders (loses half)"] == 0  # never optimal
    assert round(float(main.element_of_risk), 4) == 0.0268  # per unit wagered: 334/311
    rows = _decision(analysis)
    assert rows["optimal (computed)"]["ev"] == rows["war at every continuation"]["ev"]
    assert rows["surrender at every continuation"]["ev"] == Fraction(-23, 622)
    bonus = _full("casino-war-tie-bonus").bet("main")
    assert round(float(bonus.ev), 6) == -0.023301
    assert analysis.bet("tie").ev == Fraction(-58, 311)


#: decks: house edge with the bonus, without it, surrendering, Tie bet 10:1 (the source's %).
PUBLISHED = {
    1: ("2.06", "2.42", "2.94", "35.29"),
    2: ("2.24", "2.70", "3.40", "25.24"),
    3: ("2.29", "2.79", "3.55", "21.94"),
    4: ("2.31", "2.84", "3.62", "20.29"),
    5: ("2.32", "2.86", "3.67", "19.31"),
    6: ("2.33", "2.88", "3.70", "18.65"),
    7: ("2.34", "2.89", "3.72", "18.18"),
    8: ("2.34", "2.90", "3.73", "17.83"),
}


@pytest.mark.parametrize("decks", sorted(PUBLISHED))
def test_the_house_edge_by_decks_is_the_published_one(decks: int) -> None:
    plain = _full(decks=decks)
    bonus = _full("casino-war-tie-bonus", decks)
    rows = _decision(plain)
    found = (
        bonus.bet("main").house_edge,
        plain.bet("main").house_edge,
        rows["surrender at every continuation"]["house_edge"],
        plain.bet("tie").house_edge,
    )
    assert tuple(f"{float(x) * 100:.2f}" for x in found) == PUBLISHED[decks]
    assert set(_actions(load("casino-war", [f"shoe.decks={decks}"])).values()) == {"war"}


def test_settle_plays_the_war() -> None:
    paytable = load("casino-war")
    settled = paytable.game.settle(
        paytable.config, {"player": "5h 9c", "dealer": "5s 3d"}, Fraction(100)
    )
    bets = {b.bet: b for b in settled.bets}
    assert (bets["main"].debited, bets["main"].returned) == (200, 300)
    assert (bets["tie"].debited, bets["tie"].returned) == (100, 1100)
    surrendered = paytable.game.settle(
        paytable.config, {"player": "5h", "dealer": "5s", "actions": "surrender"}, Fraction(100)
    )
    main = next(b for b in surrendered.bets if b.bet == "main")
    assert (main.debited, main.returned) == (100, 50)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ({"player": "5h", "dealer": "5s"}, "give each position 2 cards"),
        ({"player": "5h 2c", "dealer": "9s 3d"}, "the deal does not go on"),
        ({"player": "5h 2c", "dealer": "5s"}, "needs its 1 continued card"),
        ({"player": "5h", "dealer": "6s", "actions": "war"}, "decides nothing"),
    ],
)
def test_settle_refuses_a_round_the_deal_cannot_give(hands: dict[str, str], message: str) -> None:
    paytable = load("casino-war")
    with pytest.raises(OddsError) as error:
        paytable.game.settle(paytable.config, hands, Fraction(100))
    assert message in str(error.value) and "\n" not in str(error.value)


TEXT = (TABLES / "casino-war.toml").read_text()
WHEN = 'when = { winner = "tie" }'


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # A continued deal the shoe or the first deal cannot give.
        (WHEN, 'when = { winner = "tie", player = { rank = "A" }, dealer = { rank = "K" } }',
         "the deal never goes on"),
        (WHEN, 'when = { winner = ["tie", "player", "dealer"] }', "the deal always goes on"),
        ("burn = 3", "burn = 52", "a round deals 56 cards but the shoe holds"),
        ("burn = 3", "burn = 60", "definition.continuation.burn (line"),
        ("burn = 3\ncards = 1", "burn = 3\ncards = 0",
         "definition.continuation.cards (line"),
        # Contradictions: a war no outcome settles, keys where they cannot be read.
        ('continued = { winner = "tie" }',
         'continued = { winner = "tie", player = { rank = "A" }, dealer = { rank = "K" } }',
         "no outcome settles the round tie; player action war; the deal goes on"),
        (WHEN, 'when = { winner = "tie", continued = true }', "unknown key 'continued'"),
        (WHEN, 'when = { action = "war" }', "an action is chosen after"),
        ('continued = { winner = "player" }', 'continued = { action = "war" }',
         "put action = … beside continued"),
        ('at = "continuation"', 'at = "later"', 'at: expected "deal"'),
        ("burn = 3", "burn = 3\nburns = 2", "unknown key 'burns'"),
        ('[definition.continuation]\nwhen = { winner = "tie" }\nburn = 3\ncards = 1\n', "",
         'at = "continuation": the deal never goes on'),
        ("cards = 1\n\n[definition.compare]", "cards = 1\nseats = 2\n\n[definition.compare]",
         "seats"),
        # Work estimated before it starts: three-card hands by rank, ~207,025 first deals.
        ("cards = 1\n\n[definition.compare]", "cards = 3\n\n[definition.compare]",
         "~207,025 pairs of 3-card hands from 13 card types, over the limit of 20,000"),
    ],
)  # fmt: skip
def test_a_continuation_it_cannot_deal_is_one_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in TEXT
    text = TEXT.replace(old, new, 1).replace('rules = "docs/rules/casino-war.md"', "")
    if "decks = 6" in text and "burn = 52" in text:
        text = text.replace("decks = 6", "decks = 1")
    path = tmp_path / "war.toml"
    path.write_text(text)
    with pytest.raises(OddsError) as error:
        load_file(path).analysis()
    assert message in str(error.value), error.value
    assert "\n" not in str(error.value)


def test_a_bet_cannot_read_a_deal_that_never_goes_on(tmp_path: Path) -> None:
    text = (TABLES / "dragon-tiger.toml").read_text()
    text = text.replace('when = { winner = "tie" }, pays = "tie"',
                        'when = { winner = "tie", continued = true }, pays = "tie"')  # fmt: skip
    path = tmp_path / "dt.toml"
    path.write_text(text.replace('rules = "docs/rules/dragon-tiger.md"', ""))
    with pytest.raises(OddsError, match="unknown key 'continued'"):
        load_file(path)


def test_the_published_reading_counts_every_round_once() -> None:
    """Every round of the full shoe settles the Main bet once, under either action."""
    analysis = _full()
    ways = Counter({o.event: o.ways for o in analysis.bet("main").outcomes})
    first = 312 * 311
    assert sum(ways.values()) == first * 310 * 309 * comb_3(308)
