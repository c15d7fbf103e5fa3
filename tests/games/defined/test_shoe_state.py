"""Shoe states of defined games: the definition's per-state EVs against independent counts.

Dragon Tiger defined as data against the coded Dragon Tiger's own state values (a separate
implementation), and a baccarat side bet's state against the full analysis of the paytable
with those cards removed (``reference_evs``, what ``odds bench`` times the evaluator against).
"""

from __future__ import annotations

from odds.games.paytable import load


def test_dragon_tiger_state_equals_the_coded_game() -> None:
    coded = load("dragon-tiger")
    defined = load("dragon-tiger-defined")
    evaluator = defined.game.shoe_state.evaluator(defined.config)
    reference = coded.game.shoe_state.evaluator(coded.config)
    counts = list(evaluator.full)
    for t in (0, 0, 5, 12, 13, 30, 51):  # cards out of the shoe, some twice
        counts[t] -= 1
    assert evaluator.shoe.types == reference.shoe.types
    assert evaluator.evs(counts) == reference.evs(counts)


def test_a_defined_side_bet_state_equals_its_analysis_with_the_cards_removed() -> None:
    paytable = load("lucky-6")
    feature = paytable.game.shoe_state
    evaluator = feature.evaluator(paytable.config)
    counts = list(evaluator.full)
    for t in (5, 18, 31, 44, 8, 9):  # four sixes and two nines seen
        counts[t] -= 1
    assert evaluator.evs(counts) == feature.reference_evs(paytable, evaluator, counts)
    assert evaluator.evs(counts) != evaluator.evs(evaluator.full)


def test_one_deck_games_are_reshuffled_every_round() -> None:
    for name in ("teen-patti-2020", "pair-plus", "win-three-cards", "san-gong"):
        paytable = load(name)
        procedure = paytable.game.shoe_state.procedure(paytable.config)
        assert procedure.reshuffled_each_round, name


def test_defined_reports_leave_the_shoe_section_out() -> None:
    from odds.tools.shoe.questions import report_section

    assert report_section(load("lucky-6")) is None


def test_two_hands_of_one_or_two_cards_are_one_polynomial_equal_to_the_counting() -> None:
    """Dragon Tiger, its side bets and Pok Deng as data are evaluated by one polynomial
    (``odds exposure`` used to recount every state's rounds: ~2 s a Dragon Tiger shoe, ~20 s
    a Pok Deng one); on states with cards of several ranks and suits removed, every bet's EV
    equals the definition's counting of that composition (``DefinedEvaluator``, checked
    against the plain enumeration in test_defined.py)."""
    from odds.games.defined.shoe_state import DefinedEvaluator
    from odds.games.shoe_state import PolynomialEvaluator

    for name, removed in (
        ("dragon-tiger-defined", (0, 0, 5, 12, 13, 30, 51)),
        ("dragon-tiger-side-bets", (1, 2, 3, 7, 7, 7, 40)),
        ("pok-deng-defined", (0, 4, 8, 8, 9, 21, 33, 47)),
    ):
        paytable = load(name)
        evaluator = paytable.game.shoe_state.evaluator(paytable.config)
        assert isinstance(evaluator, PolynomialEvaluator), name
        counting = DefinedEvaluator(paytable.game, paytable.config)
        counts = list(evaluator.full)
        for t in removed:
            counts[t] -= 1
        for state in (evaluator.full, tuple(counts)):
            assert evaluator.evs(state) == counting.evs(state), name


def test_other_deals_are_counted_per_state() -> None:
    """A tableau (Lucky 6) and three-card hands (San Gong) keep the per-state counting."""
    from odds.games.defined.shoe_state import DefinedEvaluator

    for name in ("lucky-6", "san-gong"):
        paytable = load(name)
        evaluator = paytable.game.shoe_state.evaluator(paytable.config)
        assert isinstance(evaluator, DefinedEvaluator), name
