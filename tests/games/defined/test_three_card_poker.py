"""Three Card Poker's Ante and Play (``tables/three-card-poker.toml``,
docs/rules/three-card-poker.md): a player decision solved by the engine alone.

* On a reduced deck (five ranks × four suits, 775,200 deals) every (net, total wager)'s ways,
  every player hand's best action, the EV and the element of risk equal a plain enumeration
  written from the rules page (``tests/reference/three_card_poker.py``), exactly.
* On the full deck the computation reproduces the published figures. Wizard of Odds
  ("Three Card Poker", https://wizardofodds.com/games/three-card-poker/), as quoted by John
  Grochowski: "Optimal strategy on the ante-play portion of three-card poker is to bet with
  queen-6-4 or better, and fold with less … the house edge is 3.37 percent of your ante"
  (https://www.casinocitytimes.com/john-grochowski/article/three-card-poker-and-roulette-62858),
  "3.37% of your ante or 2.01% of total action, once the play bet is taken into account", and
  Pair Plus 40-30-6-3-1 at 7.28%
  (https://www.casinocitytimes.com/john-grochowski/article/the-three-card-poker-problem-66089).
  The same article quotes the borderline hands' average loss per Ante, $1.00255 with Q-6-3 and
  $0.993378 with Q-6-4: those are the hands of three different suits (24 of the 60 suit
  patterns of each; the others differ in the fourth decimal, by card removal of the dealer's
  flushes), and the engine's exact EV of Q♥ 6♦ 4♣ and Q♥ 6♦ 3♣ gives both. The published
  percentages are rounded: the exact figures are 686689/20358520 per Ante and 686689/34084400
  per unit wagered.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from odds.core.errors import OddsError
from odds.games.defined.game import DefinedGame
from odds.games.paytable import TABLES, load, load_file
from odds.stats.analysis import Analysis
from odds.stats.bets import sqrt_decimal
from tests.games.defined.reduced import reduced
from tests.reference import three_card_poker as reference

#: Five ranks of four suits: A-2-3 straights, a pair, trips, flushes, dealer hands below
#: Q-high (5-3-2) and above it, Q-3-2 itself.
RANKS = ["2", "3", "5", "Q", "A"]


@cache
def full() -> Analysis:
    return load("three-card-poker").analysis()


@cache
def best_on_reduced_deck() -> reference.Result:
    """The plain enumeration of the reduced deck, playing optimally: counted once, read by
    every test that compares with it (it is never changed)."""
    return reference.enumerate_game(reference.reduced_deck(RANKS))


def _row(analysis: Analysis, key: str) -> dict[str, Any]:
    (row,) = analysis.report_table(key).rows
    return dict(row)


def test_a_reduced_deck_equals_the_plain_enumeration() -> None:
    codes = [f"{r}{s}" for r in RANKS for s in "cdhs"]
    paytable, _ = reduced("three-card-poker", codes)
    game = paytable.game
    assert isinstance(game, DefinedGame)
    expected = best_on_reduced_deck()
    analysis = paytable.analysis()
    assert analysis.deals == expected.deals == 1140 * 680
    bet = analysis.bet("ante-play")
    found: Counter[tuple[Fraction, int]] = Counter()
    for outcome in bet.outcomes:
        if outcome.ways:
            found[outcome.net, int(outcome.wagered)] += outcome.ways
    assert found == expected.outcomes
    assert bet.ev == expected.ev()
    assert bet.average_wager == expected.average_wager()
    assert bet.element_of_risk == -expected.ev() / expected.average_wager()
    # Every player hand's action, one by one.
    solution = game.solution(paytable.config)
    types = paytable.config.shoe.build().types
    actions = {}
    for hand in solution.hands:
        cards = tuple(sorted(reference.card(str(types[t].code)) for t in hand))
        actions[cards] = solution.action_of(hand)
    assert actions == expected.actions
    assert set(actions.values()) == {"play", "fold"}  # the deck makes both happen
    row = _row(analysis, "decision")
    assert row["ev"] == expected.ev()
    assert row["element_of_risk"] == -expected.ev() / expected.average_wager()


def test_the_full_deck_reproduces_the_published_strategy_and_edges() -> None:
    analysis = full()
    strategy = analysis.report_table("strategy")
    assert "play Q-6-4 or better, fold Q-6-3 and below — one threshold" in strategy.note
    rules = {row["category"]: row["strategy"] for row in strategy.rows}
    assert rules["High card"] == "play Q-6-4 or better, fold Q-6-3 and below"
    assert all(rules[c] == "play every hand" for c in rules if c != "High card")
    row = _row(analysis, "decision")
    assert row["house_edge"] == Fraction(686689, 20358520)
    assert round(float(row["house_edge"]), 4) == 0.0337
    assert row["element_of_risk"] == Fraction(686689, 34084400)
    assert round(float(row["element_of_risk"]), 4) == 0.0201
    assert row["average_wager"] == Fraction(370, 221)
    assert row["action.fold"] == Fraction(132652800, 407170400)
    assert analysis.bet("ante-play").ev == -Fraction(686689, 20358520)
    assert round(float(analysis.bet("ante-play").stats.hit_frequency), 4) == 0.4491
    assert analysis.bet("pair-plus").ev == Fraction(-402, 5525)  # 7.28%


@pytest.mark.parametrize(
    ("hand", "published"), [("Qh 6d 4c", "-0.993378"), ("Qh 6d 3c", "-1.00255")]
)
def test_the_borderline_hands_ev_equals_the_plain_count(hand: str, published: str) -> None:
    paytable = load("three-card-poker")
    game = paytable.game
    assert isinstance(game, DefinedGame)
    solution = game.solution(paytable.config)
    types = list(paytable.config.shoe.build().types)
    codes = hand.split()
    held = tuple(sorted(types.index(next(t for t in types if t.code == c)) for c in codes))
    engine = solution.hand_ev(solution.hands.index(held), 0)  # play
    player = tuple(reference.card(c) for c in codes)
    rest = [c for c in reference.reduced_deck(reference.RANK_OF) if c not in player]
    nets = [reference.play_net(player, dealer) for dealer in combinations(rest, 3)]
    assert engine == Fraction(sum(nets), len(nets))
    assert f"{float(engine):.{len(published) - 3}f}".rstrip("0") == published.rstrip("0")
    assert solution.action_of(held) == ("play" if "4" in hand else "fold")


def _with(tmp_path: Path, old: str, new: str) -> Path:
    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "tcp.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('at_least = "Q 3 2" } } }, pays = 1', 'at_least = "Q 3" } } }, pays = 1',
         "'Q 3' is not a hand: the hands hold 3 cards"),
        ('at_least = "Q 3 2" } } }, pays = 1', 'at_least = "Q X 2" } } }, pays = 1',
         "unknown rank 'X'"),
        ('at_least = "Q 3 2" } } }, pays = 1', 'at_least = "Qh Qh 2c" } } }, pays = 1',
         "a card twice from 1 deck"),
        ('at_least = "Q 3 2" } } }, pays = 1', 'at_least = "Qh 3 2" } } }, pays = 1',
         "give every card's suit, or none"),
        ('when = { action = "fold" }', 'when = { action = "raise" }',
         "unknown action 'raise' (known: play, fold)"),
        ('actions = ["play", "fold"]', 'actions = ["play"]', "two or more lower-case names"),
        ('position = "player"', 'position = "banker"', "position: expected one of player"),
        ("loses = 2, wagered = 2", "loses = 2", "or wagered = 2 where a raise"),
        ("pays = 1, wagered = 2", "pays = 1, wagered = 0.5", "wagered: the total stake"),
    ],
)  # fmt: skip
def test_mistakes_are_refused_in_one_line(tmp_path: Path, old: str, new: str, message: str) -> None:
    with pytest.raises(OddsError) as caught:
        load_file(_with(tmp_path, old, new)).analysis()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_every_round_and_action_is_settled_by_one_outcome(tmp_path: Path) -> None:
    """Dropping the fold outcome leaves a (round, fold) no outcome settles."""
    path = _with(
        tmp_path,
        '  { name = "fold", label = "player folds", when = { action = "fold" }, loses = 1 },\n',
        "",
    )
    with pytest.raises(OddsError, match=r"no outcome settles the round .*action fold"):
        load_file(path).analysis()


def test_settle_takes_the_optimal_action_and_debits_the_play_wager(run: Any) -> None:
    code, out, _ = run("settle", "three-card-poker", "--player", "Qh 6d 4c", "--dealer",
                       "Kh 2c 3d")  # fmt: skip
    assert code == 0
    line = next(row for row in out.splitlines() if row.startswith("| ante-play"))
    cells = [c.strip() for c in line.split("|")]
    assert cells[2:6] == ["100", "200", "0", "-200"]
    assert "player plays (the optimal action)" in line
    code, out, _ = run("settle", "three-card-poker", "--player", "Qh 6d 3c", "--dealer",
                       "Kh 2c 3d")  # fmt: skip
    assert "player folds (the optimal action)" in out


#: Both sides of the cut "at most J-10-8" ("not at least Q-3-2"): J-10-8 itself, a Q-3-2,
#: hands just below (J-10-4, J-8-4) and above (Q-J-10); 1,680 deals of two hands.
AROUND_Q_HIGH = ["Qc", "3d", "2h", "Jc", "10d", "8h", "Js", "8s", "4c"]


def test_at_most_is_the_negation_of_the_next_hand_up() -> None:
    """ "Not at least Q-3-2" is "at most J-10-8" (the strongest hand below Q-high): the same
    strategy and figures, the cut counted just above the reference hand. On nine cards either
    side of the cut (the full deck's two analyses, 0.5 s of CPU, caught nothing more: a cut
    counted at J-10-8 fails here as there)."""
    from tests.games.defined.test_defined import probabilities

    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    negated = 'not = { dealer = { at_least = "Q 3 2" } }'
    assert text.count(negated) == 1
    at_most = text.replace(negated, 'dealer = { at_most = "J 10 8" }')
    plain, _ = reduced("three-card-poker", AROUND_Q_HIGH)
    found, _ = reduced("three-card-poker", AROUND_Q_HIGH, at_most)
    assert probabilities(found) == probabilities(plain)
    assert _row(found.analysis(), "decision") == _row(plain.analysis(), "decision")


def test_the_deciding_position_may_be_dealt_second() -> None:
    """The player's hand dealt after the dealer's: the showdown is read the other way round
    (swapped), and every bet equals the plain enumeration, which solves the decision itself
    (on a reduced deck: a full deck's analysis, 0.7 s of CPU, caught nothing more)."""
    from tests.games.defined.test_defined import probabilities
    from tests.reference.defined import brute_force

    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    swapped = text.replace('positions = ["player", "dealer"]', 'positions = ["dealer", "player"]')
    assert swapped != text
    from odds.core.cards import STANDARD_DECK
    from odds.core.numbers import read_toml
    from odds.games.paytable import from_data

    data = read_toml(swapped, "tcp")
    cards = ["Ac", "Ad", "2c", "3d", "5h", "Qh", "Qs", "Kc", "9d"]
    data["shoe"] = {"counts": {c.code: int(c.code in cards) for c in STANDARD_DECK}, "decks": 1}
    paytable = from_data(data, "tcp (reduced)")
    shoe = paytable.config.shoe.build()
    dealt = [c for c, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    assert probabilities(paytable) == brute_force(paytable.game, dealt, paytable.config)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('dealer = { at_least = "Q 3 2" } }, pays = 2,',
         'dealer = { at_least = "Q 3 2", points = 5 } }, pays = 2,',
         "a decision is solved against the dealer's category and reference hands"),
        ('[definition.decision]\nposition = "player"', '[definition.deal2]\nposition = "player"',
         "unknown key 'deal2'"),
        ("seats", "seats", ""),
    ],
)  # fmt: skip
def test_what_a_decision_cannot_read_is_refused(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    if not message:
        path = _with(tmp_path, "cards = 3\n", "cards = 3\nseats = 3\n")
        message = "one seat (no tableau, draw_at_most or seats yet)"
    else:
        path = _with(tmp_path, old, new)
    with pytest.raises(OddsError) as caught:
        load_file(path).analysis()
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_an_action_without_a_decision_is_refused(tmp_path: Path) -> None:
    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    start = text.index("[definition.decision]")
    end = text.index("[[definition.categories]]")
    path = tmp_path / "tcp.toml"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(OddsError, match=r"has no \[definition.decision\]"):
        load_file(path)


def test_a_shoe_state_plays_the_paytables_strategy() -> None:
    """On a composition other than the paytable's (a shoe state of ``odds shoe``, ``eor``,
    ``exposure``), the strategy found for the paytable is played, not solved again: so
    removing one card at random changes the EV by nothing on average (the identity the
    effects of removal are checked by), exactly."""
    codes = [f"{r}{s}" for r in RANKS for s in "cdhs"]
    paytable, _ = reduced("three-card-poker", codes)
    game = paytable.game
    assert isinstance(game, DefinedGame)
    config = paytable.config
    bet = next(b for b in game.definition.bets if b.name == "ante-play")
    nets = {e.key: e.net for e in game.events(config, bet)}

    def ev(counts: Any = None) -> Fraction:
        ways = game.settle_rounds(config, bet, game.rounds(config, bet, counts), False)
        return Fraction(sum(nets[k] * n for k, n in ways.items()), sum(ways.values()))

    counts = list(config.shoe.build().counts)
    total, weighted = sum(counts), Fraction(0)
    for t, n in enumerate(counts):
        if n:
            removed = counts.copy()
            removed[t] -= 1
            weighted += n * ev(tuple(removed))
    assert weighted / total == ev()


def test_settle_takes_an_action_given_and_names_the_optimal_one(run: Any) -> None:
    code, out, _ = run("settle", "three-card-poker", "--player", "Qh 6d 3c", "--dealer",
                       "Jh 2c 3d", "--actions", "play")  # fmt: skip
    assert code == 0
    line = next(row for row in out.splitlines() if row.startswith("| ante-play"))
    assert "player plays (the optimal is to fold)" in line
    assert [c.strip() for c in line.split("|")][2:6] == ["100", "200", "300", "+100"]
    code, _, err = run("settle", "three-card-poker", "--player", "Qh 6d 3c", "--dealer",
                       "Jh 2c 3d", "--actions", "raise")  # fmt: skip
    assert code != 0 and "--actions 'raise': the player may play or fold" in err


# ---------------------------------------------------------------------------
# A fixed strategy beside the optimal one (``[definition.decision] strategy``)

PUBLISHED = 'play = { at_least = "Q 6 4" }'
PAIRS_UP = '["straight-flush", "trips", "straight", "flush", "pair"]'
#: Worse strategies: the definition's condition, the plain enumeration's function.
WORSE = {
    "mimic-the-dealer": ('play = { at_least = "Q 3 2" }', reference.at_least("Q 3 2")),
    "pair-or-better": (f"play = {{ category = {PAIRS_UP} }}", reference.pair_or_better),
}


def _fixed_rows(analysis: Analysis) -> tuple[dict[str, Any], dict[str, Any]]:
    optimal, fixed = analysis.report_table("fixed-strategy").rows
    return dict(optimal), dict(fixed)


def _figures(result: reference.Result) -> dict[str, Any]:
    """The plain enumeration's figures of the Ante and Play, per Ante."""
    ev, wager = result.ev(), result.average_wager()
    ways = sum(result.outcomes.values())
    second = Fraction(sum(net * net * n for (net, _), n in result.outcomes.items()), ways)
    wins = sum(n for (net, _), n in result.outcomes.items() if net > 0)
    return {
        "ev": ev,
        "house_edge": -ev,
        "average_wager": wager,
        "element_of_risk": -ev / wager,
        "hit_frequency": Fraction(wins, ways),
        "push": Fraction(sum(n for (net, _), n in result.outcomes.items() if net == 0), ways),
        "variance": second - ev * ev,
    }


def test_the_published_strategy_is_the_optimal_one() -> None:
    """The definition's fixed strategy (play Q-6-4 or better) plays every hand as the
    computed optimum does: the same figures, cost 0, no hand played otherwise."""
    table = full().report_table("fixed-strategy")
    optimal, fixed = _fixed_rows(full())
    assert fixed["strategy"] == "Play Q-6-4 or better (the published strategy)"
    assert fixed["rule"] == optimal["rule"] == "play Q-6-4 or better, fold Q-6-3 and below"
    assert (fixed["cost"], fixed["hands"], fixed["ways"]) == (0, 0, 0)
    for name in ("ev", "average_wager", "element_of_risk", "hit_frequency", "push", "sd"):
        assert fixed[name] == optimal[name] == _row(full(), "decision")[name]
    assert "it is the optimal strategy" in table.note


@pytest.mark.parametrize("name", sorted(WORSE))
def test_a_worse_strategy_equals_the_plain_enumeration(tmp_path: Path, name: str) -> None:
    """On the reduced deck, a worse strategy's figures, what it costs against the optimum
    and the hands it plays otherwise equal the plain enumeration playing the same rule.
    Three suits of the five ranks (15 cards, 100,100 deals, a 15th of the four suits'):
    still every category (A-2-3 straight flushes, one trips a rank, flushes, straights,
    pairs), dealer hands below and above Q-high, and hands each worse rule plays otherwise
    (asserted below); the four-suit deck is the optimal play's own test above."""
    from odds.core.cards import STANDARD_DECK
    from odds.core.numbers import read_toml
    from odds.games.paytable import from_data

    condition, plays = WORSE[name]
    data = read_toml(_with(tmp_path, PUBLISHED, condition).read_text(encoding="utf-8"), "tcp")
    codes = {f"{r}{s}" for r in RANKS for s in "cdh"}
    data["shoe"] = {"decks": 1, "counts": {c.code: int(c.code in codes) for c in STANDARD_DECK}}
    analysis = from_data(data, "tcp (reduced)").analysis()
    deck = [card for card in reference.reduced_deck(RANKS) if card[1] < 3]
    best, expected = reference.enumerate_game(deck), reference.enumerate_game(deck, plays)
    assert analysis.deals == best.deals == 455 * 220
    optimal, fixed = _fixed_rows(analysis)
    found, wanted = _figures(expected), _figures(best)
    for key in ("ev", "house_edge", "average_wager", "element_of_risk", "hit_frequency", "push"):
        assert fixed[key] == found[key], key
        assert optimal[key] == wanted[key], key
    assert fixed["sd"] == sqrt_decimal(found["variance"])  # the exact variance's root
    assert fixed["cost"] == best.ev() - expected.ev() > 0
    differ = [h for h in best.actions if best.actions[h] != expected.actions[h]]
    assert fixed["hands"] == fixed["ways"] == len(differ) > 0
    assert fixed["action.play"] == Fraction(
        sum(n for (_, w), n in expected.outcomes.items() if w == 2), expected.deals
    )


def test_mimicking_the_dealer_costs_the_published_difference(tmp_path: Path) -> None:
    """Play Q-high or better ("mimic the dealer", Lenny Frome's strategy) on the full deck:
    house edge 3.45% per Ante, against 3.37% for Q-6-4. Wizard of Odds, as quoted by John
    Grochowski: "the house edge is 3.37 percent of your ante if you bet with queen-6-4 or
    better, and 3.45 percent with the queen or better strategy"
    (https://www.casinocitytimes.com/john-grochowski/article/three-card-poker-and-roulette-62858).
    It plays otherwise the eight ranks Q-6-3 … Q-3-2 of three suits and of two (60 suit
    patterns each, the flushes being flushes): 480 hands, one way each."""
    path = _with(tmp_path, PUBLISHED, WORSE["mimic-the-dealer"][0])
    optimal, fixed = _fixed_rows(load_file(path).analysis())
    assert round(float(fixed["house_edge"]), 4) == 0.0345
    assert round(float(optimal["house_edge"]), 4) == 0.0337
    assert fixed["house_edge"] == Fraction(70219, 2035852)
    assert fixed["cost"] == Fraction(15501, 20358520) == fixed["house_edge"] - optimal["house_edge"]
    assert (fixed["hands"], fixed["ways"]) == (480, 480)
    assert fixed["rule"] == "play Q-3-2 or better, fold J-10-8 and below"


@pytest.mark.parametrize(
    ("new", "message"),
    [
        ('play = { at_least = "Q 6 4" }, raise = { category = "pair" }',
         "unknown key 'raise' (known: name, label, play, fold)"),
        ('fold = { at_most = "Q 6 3" }, play = { at_least = "Q 6 4" }',
         "give a condition for every action but one (play, fold)"),
        ('play = { winner = "player" }',
         "unknown key 'winner' (a strategy reads the player's own hand"),
        ('play = { dealer = { category = "pair" } }',
         "unknown key 'dealer' (a strategy reads the player's own hand"),
        ('play = { rank = "Q" }', "rank: asks for one card's rank; the hands hold 3 cards"),
        ('play = { at_least = "Q 6" }', "'Q 6' is not a hand: the hands hold 3 cards"),
        ('play = { category = "quads" }', "unknown category 'quads'"),
        ('play = "Q 6 4"', "expected a table such as { at_least"),
    ],
)  # fmt: skip
def test_a_strategys_mistakes_are_refused_in_one_line(
    tmp_path: Path, new: str, message: str
) -> None:
    with pytest.raises(OddsError) as caught:
        load_file(_with(tmp_path, PUBLISHED, new)).analysis()
    text = str(caught.value)
    assert message in text
    assert "definition.decision.strategy" in text and "(line 35)" in text
    assert "\n" not in text


@pytest.mark.parametrize(
    "condition",
    ['play = { not = { at_most = "Q 6 3" } }',
     'play = { any = [{ category = "pair" }, { at_least = "Q 6 4" }] }',
     'fold = { all = [{ category = "high-card" }, { at_most = "Q 6 3" }] }'],
)  # fmt: skip
def test_a_strategy_combines_its_conditions(tmp_path: Path, condition: str) -> None:
    """``all``, ``any`` and ``not`` of the deciding hand's features, and a condition given
    for the other action: each states Q-6-4 or better, the optimum, hand by hand."""
    paytable = load_file(_with(tmp_path, PUBLISHED, condition))
    game = paytable.game
    assert isinstance(game, DefinedGame)
    solution = game.solution(paytable.config)
    assert solution.fixed is not None
    assert solution.fixed.choice.tolist() == solution.choice.tolist()
    assert solution.fixed.rounds == solution.rounds


# ---------------------------------------------------------------------------
# The Ante Bonus as a bet of its own, riding on the Ante's stake (``rides_on``)

#: reports/three-card-poker.md before the Ante Bonus became its own bet (it was written
#: into sixteen Ante and Play outcomes, one per player category and result): every figure
#: must be the same.
BEFORE = {
    "ev": -Fraction(686689, 20358520),
    "average_wager": Fraction(370, 221),
    "element_of_risk": Fraction(686689, 34084400),
    "hit_frequency": "44.9127%",
    "push": "0.0612%",
    "sd": "1.639253",
    "action.play": "67.4208%",
}


def test_the_ante_bonus_riding_on_the_ante_leaves_every_figure_as_it_was() -> None:
    analysis = full()
    row = _row(analysis, "decision")
    assert row["bets"] == "Ante and Play (with the Ante Bonus)"  # the rider adds no stake
    assert row["ev"] == BEFORE["ev"] and row["average_wager"] == BEFORE["average_wager"]
    assert row["element_of_risk"] == BEFORE["element_of_risk"]
    assert f"{float(row['hit_frequency']):.4%}" == BEFORE["hit_frequency"]
    assert f"{float(row['push']):.4%}" == BEFORE["push"]
    assert f"{float(row['sd']):.6f}" == BEFORE["sd"]
    assert f"{float(row['action.play']):.4%}" == BEFORE["action.play"]
    # The carrier's own section: the Ante and Play with its bonus, as before.
    bet = analysis.bet("ante-play")
    assert (bet.ev, bet.average_wager, bet.element_of_risk) == (
        BEFORE["ev"], BEFORE["average_wager"], BEFORE["element_of_risk"])  # fmt: skip
    assert f"{float(bet.stats.sd):.6f}" == BEFORE["sd"]
    assert sum(o.ways for o in bet.outcomes) == 407170400
    # The rider's section: the bonus per Ante, every straight or better being played.
    bonus = analysis.bet("ante-bonus")
    ways = {o.event: o.ways for o in bonus.outcomes}
    assert ways["plays with a straight flush"] == 48 * 18424
    assert ways["plays with three of a kind"] == 52 * 18424
    assert ways["plays with a straight"] == 720 * 18424
    assert bonus.ev == Fraction(5 * 48 + 4 * 52 + 720, 22100) == Fraction(292, 5525)
    assert bonus.rides_on == "Ante and Play (with the Ante Bonus)"
    assert analysis.bet("pair-plus").ev == Fraction(-402, 5525)
    summary = analysis.report_table("summary")
    assert [r["bet"] for r in summary.rows] == ["Ante and Play (with the Ante Bonus)", "Pair Plus"]
    assert "Ante Bonus (on Ante and Play" in summary.note


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('rides_on = "ante-play"', 'rides_on = "ante"',
         "rides_on: 'ante' is not another bet (bets: ante-play, pair-plus)"),
        ('rides_on = "ante-play"', 'rides_on = "ante-bonus"', "'ante-bonus' is not another bet"),
        ('otherwise = true, push = true', 'otherwise = true, loses = 1',
         "outcome 'none': a bet riding on 'ante-play' has no stake of its own"),
        ('pays = 1 },\n  { name = "none"', 'pays = 1, wagered = 2 },\n  { name = "none"',
         "so it pays or pushes (no loses, no wagered)"),
        ('rides_on = "ante-play"', 'rides_on = 3', "rides_on: expected a bet's name, got 3"),
    ],
)  # fmt: skip
def test_a_riders_mistakes_are_refused_in_one_line(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    with pytest.raises(OddsError) as caught:
        load_file(_with(tmp_path, old, new))
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_rider_on_a_rider_is_refused(tmp_path: Path) -> None:
    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    path = tmp_path / "tcp.toml"
    riding = text.replace('name = "pair-plus"', 'name = "pair-plus"\nrides_on = "ante-bonus"')
    riding = riding.replace("otherwise = true, loses = 1", "otherwise = true, push = true")
    path.write_text(riding, encoding="utf-8")
    with pytest.raises(OddsError, match="'ante-bonus' itself rides on 'ante-play'"):
        load_file(path)


def test_settle_pays_the_bonus_on_the_ante_and_debits_nothing_for_it(run: Any) -> None:
    code, out, _ = run("settle", "three-card-poker", "--player", "Qh Jh Kh", "--dealer",
                       "2c 5d 9s")  # fmt: skip
    assert code == 0
    line = next(row for row in out.splitlines() if row.startswith("| ante-bonus"))
    assert [c.strip() for c in line.split("|")][2:6] == ["100", "0", "500", "+500"]


def test_a_shoe_state_values_the_ante_with_its_bonus() -> None:
    """``odds shoe``, ``eor`` and ``exposure`` value a carrier with its riders, as its report
    section does (EV is linear: the Ante and Play's plus the Ante Bonus's)."""
    from odds.games.defined.shoe_state import DefinedEvaluator

    paytable = load("three-card-poker")
    assert isinstance(paytable.game, DefinedGame)
    evs = DefinedEvaluator(paytable.game, paytable.config).evs(paytable.config.shoe.build().counts)
    assert evs["ante-play"] == BEFORE["ev"] == full().bet("ante-play").ev
    assert evs["ante-bonus"] == Fraction(292, 5525)
