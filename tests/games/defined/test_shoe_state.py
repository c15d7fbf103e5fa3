"""Shoe states of defined games: the definition's per-state EVs against independent counts.

Dragon Tiger's and a baccarat side bet's state against the full analysis of the paytable with
those cards removed (``reference_evs``, what ``odds bench`` times the evaluator against).
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest

from odds.core.table import json_value
from odds.games.paytable import load
from tests.paths import ROOT


def test_dragon_tiger_state_equals_its_analysis_with_the_cards_removed() -> None:
    paytable = load("dragon-tiger")
    feature = paytable.game.shoe_state
    evaluator = feature.evaluator(paytable.config)
    counts = list(evaluator.full)
    for t in (0, 0, 5, 12, 13, 30, 51):  # cards out of the shoe, some twice
        counts[t] -= 1
    assert evaluator.evs(counts) == feature.reference_evs(paytable, evaluator, counts)


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


def test_reports_leave_the_shoe_section_out_where_states_are_recounted() -> None:
    from odds.tools.shoe.questions import report_section

    assert report_section(load("win-three-cards")) is None  # exceptions: recounted


def test_two_hands_of_one_or_two_cards_are_one_polynomial_equal_to_the_counting() -> None:
    """Dragon Tiger, its side bets and Pok Deng as data are evaluated by one polynomial
    (``odds exposure`` used to recount every state's rounds: ~2 s a Dragon Tiger shoe, ~20 s
    a Pok Deng one); on states with cards of several ranks and suits removed, every bet's EV
    equals the definition's counting of that composition (``DefinedEvaluator``, checked
    against the plain enumeration in test_defined.py)."""
    from odds.games.defined.shoe_state import DefinedEvaluator
    from odds.games.shoe_state import PolynomialEvaluator

    for name, removed in (
        ("dragon-tiger", (0, 0, 5, 12, 13, 30, 51)),
        ("dragon-tiger-side-bets", (1, 2, 3, 7, 7, 7, 40)),
        ("pok-deng", (0, 4, 8, 8, 9, 21, 33, 47)),
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


def test_the_audit_s_law_of_two_small_hands_is_one_polynomial_equal_to_the_counting() -> None:
    """The shoe-aware audit's law of Dragon Tiger and its side bets is one polynomial per
    event (a 2,000-round log used to recount its 1,950 states one by one: 30 s of CPU); on
    states with cards of several ranks and suits removed, each event's probability equals
    the definition's counting of that composition."""
    import numpy as np

    from odds.games.defined.shoe_state import PolynomialLaw, counting_law

    for name, removed in (
        ("dragon-tiger", (0, 0, 5, 12, 13, 30, 51)),
        ("dragon-tiger-side-bets", (1, 2, 3, 7, 7, 7, 40)),
    ):
        paytable = load(name)
        law = paytable.game.shoe_state.outcome_law(paytable.config)
        assert isinstance(law, PolynomialLaw), name
        full = np.array(paytable.config.shoe.build().counts)
        reduced = full.copy()
        for t in removed:
            reduced[t] -= 1
        states = np.array([full, reduced])
        fast, counted = law(states), counting_law(paytable.game, paytable.config)(states)
        assert fast.keys() == counted.keys()
        for bet, (labels, ways) in counted.items():
            fast_labels, fast_ways = fast[bet]
            for row in range(len(states)):
                laws = [
                    {
                        label: Fraction(int(w[row, i]), int(w[row].sum()))
                        for i, label in enumerate(names)
                        if w[row, i]
                    }
                    for names, w in ((labels, ways), (fast_labels, fast_ways))
                ]
                assert laws[0] == laws[1], (name, bet, row)
                assert sum(laws[0].values()) == 1


def test_tableau_and_showdown_states_equal_the_counting() -> None:
    """A tableau's states (Lucky 6; baccarat as data, its coup bets and pair bets) and a
    showdown paying by the winning hand (Goa Gae with bonuses, on a 32-card deck) are laid
    out once; on states with cards removed every bet's EV equals the definition's counting
    of that composition (``DefinedEvaluator``, checked against the plain enumeration in
    test_defined.py), and the floating-point path of simulations is within its bound."""
    from odds.games.defined.shoe_state import (
        DefinedEvaluator,
        ShowdownEvaluator,
        TableauEvaluator,
    )

    small = 'shoe.removed=["6c","6d","6h","6s","7c","7d","7h","7s","8c","8d","8h","8s",' + (
        '"9c","9d","9h","9s","Tc","Td","Th","Ts"]'
    )
    for name, overrides, removed, kind in (
        ("lucky-6", (), (5, 18, 31, 44, 8, 9), TableauEvaluator),
        ("baccarat", (), (0, 0, 1, 4, 4, 4, 20, 51, 51), TableauEvaluator),
        ("goa-gae-bonus", (small,), (0, 5, 9, 40, 50), ShowdownEvaluator),
    ):
        paytable = load(name, overrides)
        evaluator = paytable.game.shoe_state.evaluator(paytable.config)
        assert isinstance(evaluator, kind), name
        counting = DefinedEvaluator(paytable.game, paytable.config)
        counts = list(evaluator.full)
        for t in removed:
            counts[t] -= 1
        for state in (evaluator.full, tuple(counts)):
            exact = evaluator.evs(state)
            assert exact == counting.evs(state), name
            for bet, (value, bound) in evaluator.approximate(state).items():
                assert abs(value - float(exact[bet])) <= bound + 1e-15, (name, bet)


def test_other_deals_are_counted_per_state() -> None:
    """Three-card hands whose bets read more than the winning hand (San Gong's totals), or
    with exceptions (Win Three Cards), keep the per-state counting."""
    from odds.games.defined.shoe_state import DefinedEvaluator

    for name in ("san-gong", "win-three-cards"):
        paytable = load(name)
        evaluator = paytable.game.shoe_state.evaluator(paytable.config)
        assert isinstance(evaluator, DefinedEvaluator), name


# -- The coded games' shoe states, from the definitions ----------------------------------


def _snapshot(game: str) -> dict[str, Any]:
    path = ROOT / "tests" / "snapshots" / "coded" / f"{game}.json"
    return json.loads(path.read_text(encoding="utf-8"))["shoe_state"]  # type: ignore[no-any-return]


def _exact(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _exact(v) for k, v in value.items() if not k.endswith("_decimal")}
    if isinstance(value, list):
        return [_exact(v) for v in value]
    return value


def test_every_effect_of_removal_of_baccarat_comes_out_of_the_definition() -> None:
    """Each of the 52 cards' effect on each of the 14 bets, exactly the coded baccarat's."""
    paytable = load("baccarat")
    evaluator = paytable.game.shoe_state.evaluator(paytable.config)
    base = evaluator.evs(evaluator.full)
    coded = _snapshot("baccarat")["effect_of_removal_by_type"]
    assert [str(t) for t in evaluator.shoe.types] == [row["type"] for row in coded]
    for t, row in enumerate(coded):
        counts = list(evaluator.full)
        counts[t] -= 1
        after = evaluator.evs(counts)
        found = {bet: str(after[bet] - base[bet]) for bet in row["eor"]}
        assert found == row["eor"], row["type"]


@pytest.mark.parametrize(
    ("defined", "coded", "bets"),
    [
        ("baccarat", "baccarat", ("banker", "dragon-bonus-player", "perfect-pair")),
        ("dragon-tiger", "dragon-tiger", ()),
        ("goa-gae-bonus", "goa-gae-bonus", ()),
    ],
)
def test_effects_of_removal_and_counts_are_the_coded_games(
    defined: str, coded: str, bets: tuple[str, ...]
) -> None:
    """The Shoe section's effects of removal (by rank and by card) and the counts derived from
    them, exactly the coded game's (baccarat: three of its bets, each count takes a while)."""
    from odds.tools.shoe.eor import effects_of_removal
    from odds.tools.shoe.report_tables import count_table, eor_by_type_table, eor_table

    paytable = load(defined)
    evaluator = copy.copy(paytable.game.shoe_state.evaluator(paytable.config))
    if bets:
        evaluator.bets = tuple(b for b in evaluator.bets if b.name in bets)
    table = effects_of_removal(evaluator)
    names = {b.name for b in evaluator.bets}
    snapshot = _snapshot(coded)
    found = {
        "effect_of_removal": json_value(eor_table(table)),
        "effect_of_removal_by_type": json_value(eor_by_type_table(table, evaluator)),
        "counts": json_value(count_table(table, "deck")),
    }
    for key, rows in found.items():
        want = snapshot[key]
        if key == "counts":
            assert _exact(rows) == [r for r in want if r["bet"] in names], key
        else:
            kept = [dict(r, eor={b: v for b, v in r["eor"].items() if b in names}) for r in want]
            assert _exact(rows) == kept, key
