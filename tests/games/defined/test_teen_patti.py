"""Teen Patti's Ante and Play (``tables/teen-patti.toml``, docs/rules/teen-patti.md): a dealer
who must qualify, a decision solved by the engine, the Ante Bonus riding on the Ante.

The rules are Super Spade Games' Teen Patti as Wizard of Odds gives them
(https://wizardofodds.com/games/teen-patti/): "Teen Patti is almost the same thing as Three
Card Poker. The only differences are a change in the hand order and the addition of special
pays for three aces"; "The dealer needs a queen high or better to qualify"; the order
"Three of a kind, Straight flush, Straight, Flush, Pair, All other"; "If the player made the
Ante bet and has a straight or higher then the player will receive an Ante Bonus, regardless
of the value of the dealer's hand". The page's Ante Bonus table was not available to us: the
paytable's pays are examples (Three Card Poker's 1-4-5, three aces paid as three of a kind),
and no published house edge is compared.

* On a reduced deck every (net, total wager)'s ways, every player hand's action, the EV and
  the element of risk equal the plain enumeration (``tests/reference/three_card_poker.py``
  with Teen Patti's order), three aces paid apart (10 to 1) so that its outcome is tested.
* On the full deck the optimal strategy is computed (play Q-6-4 or better), the borderline
  hands' exact EVs equal the plain count, and the house edge per Ante equals Three Card
  Poker's exactly: swapping three of a kind and the straight flush moves as many ways from a
  win to a loss as back (a player straight flush against a dealer three of a kind is the
  same number of deals as the reverse), and the bonus reads the category, not the order. The
  SD differs (the bonus falls on other results).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from odds.games.defined.game import DefinedGame
from odds.games.paytable import TABLES, load
from odds.stats.analysis import Analysis
from tests.reference import three_card_poker as reference

#: Five ranks: A-2-3 and 2-3-4 straights and straight flushes, three aces and other threes,
#: dealer hands below Q-high and above it.
RANKS = ["2", "3", "4", "Q", "A"]


@cache
def full() -> Analysis:
    return load("teen-patti").analysis()


def _row(analysis: Analysis, key: str) -> dict[str, Any]:
    (row,) = analysis.report_table(key).rows
    return dict(row)


def test_a_reduced_deck_equals_the_plain_enumeration() -> None:
    from odds.core.cards import STANDARD_DECK
    from odds.core.numbers import read_toml
    from odds.games.paytable import TABLES, from_data

    data = read_toml((TABLES / "teen-patti.toml").read_text(encoding="utf-8"), "teen-patti")
    codes = {f"{r}{s}" for r in RANKS for s in "cdhs"}
    data["shoe"] = {"decks": 1, "counts": {c.code: int(c.code in codes) for c in STANDARD_DECK}}
    data["payouts"]["three_aces"] = 10
    paytable = from_data(data, "teen-patti (reduced)")
    game = paytable.game
    assert isinstance(game, DefinedGame)
    rules = reference.Rules(trips_over_straight_flush=True, three_aces=10)
    expected = reference.enumerate_game(reference.reduced_deck(RANKS), rules=rules)
    analysis = paytable.analysis()
    assert analysis.deals == expected.deals == 1140 * 680
    bet = analysis.bet("ante-play")  # the Ante and Play with the bonus riding on it
    found: Counter[tuple[Fraction, int]] = Counter()
    for outcome in bet.outcomes:
        if outcome.ways:
            found[outcome.net, int(outcome.wagered)] += outcome.ways
    assert found == expected.outcomes
    assert bet.ev == expected.ev()
    assert bet.element_of_risk == -expected.ev() / expected.average_wager()
    assert any(net == 12 for net, _ in found)  # three aces beat a qualifying dealer: 2 + 10
    solution = game.solution(paytable.config)
    types = paytable.config.shoe.build().types
    actions = {
        tuple(sorted(reference.card(str(types[t].code)) for t in hand)): solution.action_of(hand)
        for hand in solution.hands
    }
    assert actions == expected.actions
    assert set(actions.values()) == {"play", "fold"}
    row = _row(analysis, "decision")
    assert row["ev"] == expected.ev()
    assert row["average_wager"] == expected.average_wager()
    # The order matters on this deck: Three Card Poker's order counts other ways.
    assert reference.enumerate_game(reference.reduced_deck(RANKS)).outcomes != found


def test_the_full_deck_strategy_and_edges() -> None:
    analysis = full()
    strategy = analysis.report_table("strategy")
    assert "play Q-6-4 or better, fold Q-6-3 and below — one threshold" in strategy.note
    rules = {row["category"]: row["strategy"] for row in strategy.rows}
    assert rules["High card"] == "play Q-6-4 or better, fold Q-6-3 and below"
    assert list(rules)[:3] == ["Three aces", "Three of a kind", "Straight flush"]
    row = _row(analysis, "decision")
    assert row["bets"] == "Ante and Play (with the Ante Bonus)"
    # Three Card Poker's exact figures (tests/games/defined/test_three_card_poker.py).
    assert row["house_edge"] == Fraction(686689, 20358520)
    assert row["element_of_risk"] == Fraction(686689, 34084400)
    assert row["average_wager"] == Fraction(370, 221)
    assert f"{float(row['sd']):.6f}" == "1.639240"  # Three Card Poker's: 1.639253
    bonus = analysis.bet("ante-bonus")
    assert bonus.ev == Fraction(4 * 4 + 4 * 48 + 5 * 48 + 720, 22100)  # every straight+ played


@pytest.mark.parametrize(("hand", "action"), [("Qh 6d 4c", "play"), ("Qh 6d 3c", "fold")])
def test_the_borderline_hands_ev_equals_the_plain_count(hand: str, action: str) -> None:
    paytable = load("teen-patti")
    game = paytable.game
    assert isinstance(game, DefinedGame)
    solution = game.solution(paytable.config)
    types = list(paytable.config.shoe.build().types)
    codes = hand.split()
    held = tuple(sorted(types.index(next(t for t in types if t.code == c)) for c in codes))
    player = tuple(reference.card(c) for c in codes)
    rest = [c for c in reference.reduced_deck(list(reference.RANK_OF)) if c not in player]
    nets = [reference.play_net(player, d, reference.TEEN_PATTI) for d in combinations(rest, 3)]
    assert solution.hand_ev(solution.hands.index(held), 0) == Fraction(sum(nets), len(nets))
    assert solution.action_of(held) == action


def test_settle_pays_three_aces_the_bonus_whatever_the_dealer_holds(run: Any) -> None:
    code, out, _ = run("settle", "teen-patti", "--player", "Ah Ad Ac", "--dealer", "2h 3h 4h",
                       "--set", "payouts.three_aces=10")  # fmt: skip
    assert code == 0
    rows = {r.split("|")[1].strip(): r for r in out.splitlines() if r.startswith("| ante")}
    # Three of a kind beats a straight flush in Teen Patti: both win, and the bonus 10.
    assert [c.strip() for c in rows["ante-play"].split("|")][2:6] == ["100", "200", "400", "+200"]
    assert [c.strip() for c in rows["ante-bonus"].split("|")][2:6] == ["100", "0", "1000", "+1000"]


def test_a_rider_without_a_decision_adds_its_pays_to_its_carrier() -> None:
    """Teen Patti 20-20's Player A with a bonus of 2 on A's three of a kind riding on it: the
    carrier's section is Player A's outcomes split by the bonus, its EV Player A's plus the
    bonus's, its wager Player A's alone; counted from the rounds both read (no decision).
    On the reduced shoe of test_defined.py, three aces and five others: A holds the only
    three of a kind 1 time in C(8, 3) = 56, the bonus's EV 2/56 (the full deck's two
    analyses, 0.6 s of CPU, checked the same sums: 2 × 52 / 22,100)."""
    from tests.games.defined.reduced import pinned, reduced

    text = (TABLES / "teen-patti-2020.toml").read_text(encoding="utf-8")
    text += (
        '\n[[definition.bets]]\nname = "a-bonus"\nrides_on = "player-a"\noutcomes = [\n'
        '  { name = "trips", when = { a = { category = ["three-aces", "trips"] } }, pays = 2 },\n'
        '  { name = "none", otherwise = true, push = true },\n]\n'
    )
    cards = pinned()["teen-patti-2020"]
    assert sorted(Counter(c[:-1] for c in cards).values()) == [1, 1, 1, 1, 1, 3]  # A A A
    analysis = reduced("teen-patti-2020", cards, text)[0].analysis()
    plain = reduced("teen-patti-2020", cards)[0].analysis().bet("player-a")
    carrier, bonus = analysis.bet("player-a"), analysis.bet("a-bonus")
    assert bonus.ev == Fraction(2, 56) and bonus.rides_on == "Player A"
    assert carrier.ev == plain.ev + bonus.ev
    assert carrier.average_wager == 1 and carrier.stats.total == plain.stats.total
    with_bonus = sum(o.ways for o in carrier.outcomes if "; A Bonus: " in o.event)
    assert with_bonus == next(o.ways for o in bonus.outcomes if o.net == 2)
    assert [r["bet"] for r in analysis.report_table("summary").rows][:2] == ["Player A", "Player B"]


def test_a_rider_with_seats_is_refused_in_one_line(tmp_path: Path) -> None:
    from odds.core.errors import OddsError
    from odds.games.paytable import TABLES, load_file

    text = (TABLES / "teen-patti-2020.toml").read_text(encoding="utf-8")
    text = text.replace("cards = 3\n", "cards = 3\nseats = 2\n", 1)
    text += (
        '\n[[definition.bets]]\nname = "a-bonus"\nrides_on = "player-a"\noutcomes = [\n'
        '  { name = "trips", when = { b = { category = "trips" } }, pays = 2 },\n'
        '  { name = "none", otherwise = true, push = true },\n]\n'
    )
    path = tmp_path / "tp.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OddsError) as caught:
        load_file(path).analysis()
    assert "not counted with a continuation or seats yet" in str(caught.value)
    assert "\n" not in str(caught.value)
