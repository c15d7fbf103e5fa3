"""Per-state EVs and effects of removal against the full analysis of the same composition.

The full analysis (what ``odds report`` prints) of a shoe with cards removed is
the reference: the shoe-state evaluators share none of its counting.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache

import pytest

from odds.games.paytable import load
from odds.tools.shoe.eor import effects_of_removal

#: A 20-card Goa Gae deck (A 2 3 J Q K … of a few suits) keeps the full analysis quick.
GOA_GAE_SMALL = (
    "shoe.counts={"
    + ", ".join(f'"{r}{s}" = 0' for r in "456789" for s in "cdhs")
    + ', "10c" = 0, "10d" = 0, "10h" = 0, "10s" = 0}'
)


@cache
def _built(name, sets=()):
    """(paytable, evaluator), built once per test session (builds take seconds)."""
    paytable = load(name, list(sets))
    return paytable, paytable.game.shoe_state.evaluator(paytable.config)


def _removed(paytable, counts):
    """The composition as the paytable's removed-cards option (codes as the game reads them)."""
    shoe = paytable.game.shoe(paytable.config)
    out = []
    for item, full, now in zip(shoe.types, shoe.counts, counts, strict=True):
        code = item.code if hasattr(item, "rank") else str(item)
        out += [code] * (full - now)
    return out


@cache
def _eor(name, sets=()):
    return effects_of_removal(_built(name, sets)[1])


def _analysis_evs(name, sets, section, removed):
    value = "[" + ", ".join(f'"{c}"' for c in removed) + "]"
    paytable = load(name, [*sets, f"{section}.removed={value}"])
    analysis = paytable.bet_analysis()  # the bets alone (no whole table)
    return {bet.name: bet.stats.ev for bet in analysis.bets}


def _random_state(evaluator, rng, most):
    counts = list(evaluator.full)
    for _ in range(rng.randint(1, most)):
        t = rng.choices(range(len(counts)), weights=counts)[0]
        counts[t] -= 1
    return counts


CASES = [
    ("mahjong-28", (), "tiles", 24),
    ("mahjong-28-20", (), "tiles", 8),
    ("pok-deng", (), "shoe", 80),
    ("goa-gae-bonus", (GOA_GAE_SMALL, "payouts.dealer_bonus_costs_player=false"), "shoe", 8),
]


@pytest.mark.parametrize(("name", "sets", "section", "most"), CASES, ids=[c[0] for c in CASES])
def test_per_state_ev_equals_the_full_analysis(name, sets, section, most):
    paytable, evaluator = _built(name, sets)
    rng = random.Random(len(name))
    for _ in range(2):
        counts = _random_state(evaluator, rng, most)
        expected = _analysis_evs(name, sets, section, _removed(paytable, counts))
        got = evaluator.evs(counts)
        assert got == {b: expected[b] for b in got}


@pytest.mark.parametrize(
    ("name", "sets", "section", "cards"),
    [
        ("pok-deng", (), "shoe", ["5h", "Kd"]),
        ("mahjong-28-20", (), "tiles", ["T", "5"]),
        ("goa-gae", (GOA_GAE_SMALL, "payouts.bonus={triple=4, jqk=2}"), "shoe", ["Ac", "Js"]),
    ],
)
def test_effects_of_removal_are_differences_of_two_full_analyses(name, sets, section, cards):
    paytable, evaluator = _built(name, sets)
    table = _eor(name, sets)
    base = _analysis_evs(name, sets, section, [])
    shoe = evaluator.shoe
    parse = paytable.game.parse_hand
    for card in cards:
        (item,) = parse(paytable.config, card)
        t = shoe.index(item)
        after = _analysis_evs(name, sets, section, [card])
        for bet in table.bets:
            assert bet.eor_by_type[t] == after[bet.bet.name] - base[bet.bet.name]
        group = next(g for g, grp in enumerate(table.groups) if t in grp.types)
        members = table.groups[group].types
        for bet in table.bets:
            copies = sum(evaluator.full[m] for m in members)
            mean = sum(evaluator.full[m] * bet.eor_by_type[m] for m in members) / copies
            assert bet.eor[group] == mean


@pytest.mark.parametrize("name", ["pok-deng", "mahjong-28-20"])
def test_a_balanced_count_sums_to_zero_over_the_whole_shoe(name):
    _, evaluator = _built(name)
    table = _eor(name)
    counted = [b for b in table.bets if any(b.count.tags)]
    assert counted, "some bet of these games has a count"
    shoe = evaluator.shoe
    whole = [t for t, n in enumerate(shoe.counts) for _ in range(n)]
    group_of = table.group_of()
    for bet in counted:
        assert sum(bet.count.tags[group_of[t]] for t in whole) == 0
        # The count points the way the EORs do.
        assert bet.count.correlation > 0


def test_pok_deng_player_count_and_exact_eors():
    """The Player bet's EORs by rank (exact), and the five the best card to remove."""
    table = _eor("pok-deng")
    player = next(b for b in table.bets if b.bet.name == "player")
    labels = [g.label for g in table.groups]
    by_rank = dict(zip(labels, player.eor, strict=True))
    assert max(by_rank, key=by_rank.get) == "6"
    assert min(by_rank, key=by_rank.get) == "5"
    # Suits are alike for Pok Deng: every card of a rank has the same exact EOR.
    for group in table.groups:
        assert len({player.eor_by_type[t] for t in group.types}) == 1
    pair = next(b for b in table.bets if b.bet.name == "player-pair")
    assert not any(pair.eor) and not any(pair.count.tags)


def test_blackjack_state_equals_the_recursion_with_the_same_chart():
    """The evaluator's wiring (52 cards → ranks, ten-value group) on a small chart; the
    report's chart itself is what ``odds eor blackjack`` and the reports use."""
    from odds.games.blackjack.rounds import analyse_round
    from odds.games.blackjack.shoe_state import BlackjackEvaluator
    from tests.reference.blackjack_charts import simple_chart

    paytable = load("blackjack", ["shoe.decks=1"])
    evaluator = BlackjackEvaluator(paytable.config, simple_chart(False))
    rules, chart = paytable.config.house, evaluator.chart
    full = evaluator.ranks(evaluator.full)
    five = list(full)
    five[4] -= 1
    after = list(evaluator.full)
    after[[c.code for c in evaluator.shoe.types].index("5h")] -= 1
    expected = analyse_round(tuple(five), rules, chart=chart).ev
    assert evaluator.evs(after) == {"main": expected}
    eor = expected - analyse_round(full, rules, chart=chart).ev
    assert evaluator.evs(after)["main"] - evaluator.evs(evaluator.full)["main"] == eor
    assert Counter(evaluator.rank_of)[9] == 16  # ten-value cards are one rank
    assert [g.label for g in evaluator.groups()][-1] == "10"
