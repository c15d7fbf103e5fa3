"""Red Dog (``tables/red-dog.toml``, docs/rules/red-dog.md): the spread of two cards (a round
condition), a third card dealt to a position of its own and read against the first two
(``between``, ``matches``), and the raise solved by the engine at the continuation.

* On a reduced shoe (two decks of six ranks, 2 3 5 8 J A: spreads 0 to 10 by the full rank
  order) every outcome's ways, and the action on every pair of first cards, equal a plain
  walk of every card written from the rules page (``tests/reference/red_dog.py``); the same
  under another paytable (the raise threshold moves, and the engine finds it).
* On full shoes the engine raises on a spread of 7 or more and on no other, for 1 to 8 decks
  (computed, never typed in), and reproduces the published figures: Wizard of Odds' Red Dog
  page (http://wizardofodds.com/reddog), six decks, the probability of winning by spread
  (spread 7: 0.541935, player's edge raising 0.083871; spread 6: 0.464516, −0.070968) and
  "only raise on spreads of 7 or more, which is true regardless of the number of decks";
  the house edge by decks as OddsShark gives it
  (http://www.oddsshark.com/betting-101/casino/red-dog-odds): "With one deck, the house edge
  is 3.15%. Two decks gives them an edge of 3.077%, four decks provides 2.88%, six decks
  means a 2.80% edge for the house, and games with eight decks in play give the house a
  2.75% edge"; the online-betting-guide's "3.155% for one deck"
  (http://casino.online-betting-guide.co.uk/Red+Dog.htm; its "2.571% for eight decks" is
  not these rules' figure: 2.7509%, the engine and the reference agree). The element of
  risk (per unit wagered in all, the raise included) is the reference's.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from odds.core.cards import STANDARD_DECK
from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.games.defined.continuation import solution
from odds.games.defined.game import DefinedGame
from odds.games.paytable import TABLES, from_data, load, load_file
from tests.reference import red_dog as reference

ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
#: Six ranks, two decks: 48 cards.
RANKS = ["2", "3", "5", "8", "J", "A"]
DECKS = 2


def _paytable(**payouts: Any) -> Any:
    data = read_toml((TABLES / "red-dog.toml").read_text(), "red-dog")
    wanted = {f"{r}{s}" for r in RANKS for s in "cdhs"}
    data["shoe"] = {"decks": 1, "counts": {c.code: DECKS * (c.code in wanted)
                                           for c in STANDARD_DECK}}  # fmt: skip
    data["payouts"] = {**data["payouts"], **payouts}
    return from_data(data, "red-dog (reduced)")


def _ways(paytable: Any) -> dict[str, int]:
    game = paytable.game
    assert isinstance(game, DefinedGame)
    bet = game.definition.bets[0]
    rounds = game.rounds(paytable.config, bet)
    return {k: n for k, n in game.settle_rounds(paytable.config, bet, rounds, False).items() if n}


def _actions(paytable: Any) -> dict[tuple[int, int], str]:
    """The engine's action on each pair of first cards (not a pair), by rank order."""
    found = solution(paytable.game, paytable.config)
    actions = found.decision.actions
    return {
        (ORDER.index(c.cards[0]), ORDER.index(c.cards[1])): actions[c.action]
        for c in found.choices
        if c.cards[0] != c.cards[1]
    }


def _counts() -> dict[int, int]:
    return {ORDER.index(r): 4 * DECKS for r in RANKS}


@pytest.mark.parametrize(
    ("payouts", "pays"),
    [({}, reference.PAYS), ({"spread_4": 2, "spread_3": 3}, (5, 4, 3, 2))],
)
def test_a_reduced_shoe_equals_the_plain_walk_of_every_card(
    payouts: dict[str, int], pays: tuple[int, ...]
) -> None:
    paytable = _paytable(**payouts)
    ways, actions = reference.rounds(_counts(), pays)
    assert _ways(paytable) == {k: n for k, n in ways.items() if n}
    assert _actions(paytable) == actions
    assert sum(ways.values()) == 48 * 47 * 46
    edge, risk = reference.figures(_counts(), pays)
    bet = paytable.analysis().bet("red-dog")
    assert (bet.house_edge, bet.element_of_risk) == (edge, risk)


@cache
def _full(decks: int) -> Any:
    return load("red-dog", [f"shoe.decks={decks}"])


@pytest.mark.parametrize("decks", [1, 2, 4, 6, 8])
def test_the_engine_raises_on_a_spread_of_seven_or_more(decks: int) -> None:
    actions = _actions(_full(decks))
    assert len(actions) == 13 * 12 - 24  # every pair of ranks but the consecutive ones
    assert {pair: a for pair, a in actions.items()} == {
        pair: "raise" if abs(pair[0] - pair[1]) - 1 >= 7 else "stand" for pair in actions
    }
    note = _full(decks).analysis().report_table("strategy").note
    assert "Read back by spread: stand on spread 1–6; raise on spread 7–11." in note


#: decks: the house edge per initial unit (exact, as computed), and as published.
FIGURES = {
    1: (Fraction(523, 16575), "3.155"),
    2: (Fraction(2101, 68289), "3.077"),
    4: (Fraction(7993, 277173), "2.88"),
    6: (Fraction(17533, 626665), "2.80"),
    8: (Fraction(30721, 1116765), "2.75"),
}


@pytest.mark.parametrize("decks", sorted(FIGURES))
def test_the_house_edge_is_the_published_one(decks: int) -> None:
    exact, published = FIGURES[decks]
    bet = _full(decks).analysis().bet("red-dog")
    assert bet.house_edge == exact
    digits = len(published.split(".")[1])
    assert f"{float(bet.house_edge) * 100:.{digits}f}" == published
    assert (bet.house_edge, bet.element_of_risk) == reference.figures(reference.full(decks))


def test_six_decks_edge_by_spread_is_the_published_one() -> None:
    """Wizard of Odds' six-deck table, "Expected Gain by Raising": the player's edge per unit
    by spread (the third card between pays the spread's payout, else the unit is lost): the
    engine's EV of standing, and of raising (twice it)."""
    published = {1: -0.535484, 2: -0.225806, 3: -0.303226, 4: -0.380645, 5: -0.225806,
                 6: -0.070968, 7: 0.083871, 8: 0.238710, 9: 0.393548}  # fmt: skip
    six = _full(6)
    found = solution(six.game, six.config)
    for choice in found.choices:
        first, second = (ORDER.index(c) for c in choice.cards)
        spread = abs(first - second) - 1
        if spread in published:
            stand, raise_ = choice.ev
            assert round(float(stand), 6) == published[spread]
            assert raise_ == 2 * stand


def test_settle_plays_the_raise() -> None:
    paytable = load("red-dog")
    settle = paytable.game.settle
    raised = settle(
        paytable.config, {"first": "3h", "second": "Jc", "third": "7d"}, Fraction(100)
    ).bets[0]
    assert (raised.debited, raised.returned) == (200, 400)  # spread 7: raise, win 1:1 on both
    stood = settle(
        paytable.config, {"first": "3h", "second": "9c", "third": "Kd"}, Fraction(100)
    ).bets[0]
    assert (stood.debited, stood.returned) == (100, 0)  # spread 5: stand, lose
    pushed = settle(paytable.config, {"first": "3h", "second": "4c"}, Fraction(100)).bets[0]
    assert (pushed.debited, pushed.returned) == (100, 100)
    trips = settle(
        paytable.config, {"first": "9h", "second": "9c", "third": "9s"}, Fraction(100)
    ).bets[0]
    assert trips.returned == 1200


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ({"first": "3h", "second": "4c", "third": "9d"}, "the deal does not go on"),
        ({"first": "3h", "second": "Jc"}, "give the third its 1 card"),
        ({"first": "3h 5h", "second": "Jc", "third": "7d"}, "must be 1 cards"),
        (
            {"first": "9h", "second": "9c", "third": "4s", "actions": "raise"},
            "the choice is not offered here",
        ),
    ],
)
def test_settle_refuses_a_round_the_deal_cannot_give(hands: dict[str, str], message: str) -> None:
    paytable = load("red-dog")
    with pytest.raises(OddsError) as error:
        paytable.game.settle(paytable.config, hands, Fraction(100))
    assert message in str(error.value) and "\n" not in str(error.value)


TEXT = (TABLES / "red-dog.toml").read_text()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('to = "third"', 'to = "second"', "expected the name of a new position"),
        ("when = { spread = 0 }, push", "when = { spread = 0, first = { between = true } }, push",
         "between: reads a continued deal's card against the first deal's cards"),
        ("cards = 1\n\n[definition.compare]", "cards = 2\n\n[definition.compare]",
         "spread: the ranks strictly between two positions' one-card hands"),
        ('times = 2, wagered = 2 },\n  { name = "raise-win-2"',
         'times = 0, wagered = 2 },\n  { name = "raise-win-2"', "times: a number > 0"),
        ("continued = { third = { matches = true } }",
         'continued = { winner = "third", third = { matches = true } }',
         "winner: the deal has one position (third)"),
        ('at = "continuation"\n', 'at = "deal"\n', "when: the choice is offered on a condition"),
        ('when = { not = { winner = "tie" } }', 'when = { action = "raise" }',
         "the choice is offered or not by the first deal's cards"),
        # A raised loss of 2 without the raise at risk.
        ("loses = 2, wagered = 2", "loses = 1, times = 2", "a bet cannot lose more than its stake"),
    ],
)  # fmt: skip
def test_what_red_dog_adds_is_refused_in_one_line_where_it_cannot_be_read(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in TEXT
    path = tmp_path / "dog.toml"
    path.write_text(TEXT.replace(old, new, 1).replace('rules = "docs/rules/red-dog.md"', ""))
    with pytest.raises(OddsError) as error:
        load_file(path).analysis()
    assert message in str(error.value), error.value
    assert "\n" not in str(error.value)


def test_a_simulated_log_audits_as_the_exact_odds(run: Any, tmp_path: Path) -> None:
    """``odds simulate`` deals the third card only when the deal goes on (an empty cell
    otherwise), and ``odds audit`` reads such a log against the optimal strategy's law."""
    log = tmp_path / "dog.csv"
    code, _, err = run("simulate", "red-dog", "--rounds", "400", "--seed", "5", "--output",
                       str(log))  # fmt: skip
    assert code == 0, err
    rows = log.read_text().splitlines()
    assert rows[0] == "shoe,round,first,second,third,action"  # the action taken, if any
    cells = [row.split(",") for row in rows[1:]]
    assert any(not third for *_, third, _ in cells)  # a consecutive round: no third card
    assert {action for *_, action in cells} <= {"", "raise", "stand"}
    code, out, err = run("audit", "red-dog", "--log", str(log))
    assert code == 0, err
    assert "Overall verdict: PASS" in out
