"""Player expectations: invariants, and an independent Fraction recursion on one deck."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from odds.core.errors import OddsError
from odds.core.table import json_value
from odds.games.blackjack.actions import DOUBLE, HIT, SPLIT, STAND
from odds.games.blackjack.dealer import RANKS, total_of
from odds.games.blackjack.nodes import STEP, key_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.report_tables import hand_json, hand_table
from odds.games.blackjack.rounds import analyse_round
from tests.reference.blackjack_nhc import dealer_probabilities

ONE_DECK = (4,) * 9 + (16,)
EIGHT_DECKS = (32,) * 9 + (128,)


@pytest.fixture(scope="module")
def one_deck():
    return analyse_round(ONE_DECK, BlackjackRules())


@pytest.fixture(scope="module")
def one_deck_peek():
    return analyse_round(ONE_DECK, BlackjackRules(hole_card="peek", double_after_split=True))


@pytest.fixture(scope="module")
def eight_decks():
    return analyse_round(EIGHT_DECKS, BlackjackRules())


def test_best_is_at_least_every_action(one_deck, one_deck_peek, eight_decks) -> None:
    for analysis in (one_deck, one_deck_peek, eight_decks):
        for hand in analysis.hands:
            assert all(hand.ev >= value for value in hand.values.values())


def test_probabilities_add_up(one_deck, eight_decks) -> None:
    for analysis in (one_deck, eight_decks):
        assert sum(h.probability for h in analysis.hands) == 1


def test_hit_beats_stand_below_12(one_deck, one_deck_peek, eight_decks) -> None:
    """Every hand (two cards or more) with a hard total under 12, against every up card."""
    for analysis in (one_deck, one_deck_peek, eight_decks):
        for up, play in analysis.plays.items():
            play.context(-1)
            checked = 0
            for entry in play.u.prepared(-1):
                key, s, total, soft, *_ = entry
                if total < 12 and not soft:
                    assert play.hit_values[-1][key] >= play.stand(key, s, total), (up, key)
                    checked += 1
            assert checked > 20
        for hand in analysis.hands:
            if sum(hand.cards) + 2 < 12 and 0 not in hand.cards:
                assert hand.values[HIT] >= hand.values[STAND]


def test_splitting_aces_beats_hitting_them_with_a_peek(one_deck_peek) -> None:
    eight = analyse_round(EIGHT_DECKS, BlackjackRules(hole_card="peek"))
    for analysis in (one_deck_peek, eight):
        for up in range(RANKS):
            aces = analysis.hand(0, 0, up)
            assert aces.values[SPLIT] >= aces.values[HIT], up


def test_known_eight_deck_figures(eight_decks) -> None:
    """Regression: the report's house edges (8 decks, S17, 3:2, DOA, no DAS, ENHC)."""
    assert f"{float(-eight_decks.ev):.6%}" == "0.715447%"


# -- an independent, plain recursion in Fractions (one deck) -------------------


def _independent(up: int, peek: bool):
    """Best hit/stand EV of a hand by direct recursion with the reference dealer."""

    @cache
    def stand(removed: tuple[int, ...], total: int) -> Fraction:
        left = list(ONE_DECK)
        left[up] -= 1
        left = [c - r for c, r in zip(left, removed, strict=True)]
        p = dealer_probabilities(tuple(left), up, False)
        value = p["bust"] - (0 if peek else p["blackjack"])
        for d in range(17, 22):
            value += p[str(d)] * ((total > d) - (total < d))
        return value

    def no_bj(removed) -> Fraction:
        left = list(ONE_DECK)
        left[up] -= 1
        left = [c - r for c, r in zip(left, removed, strict=True)]
        bj = {0: 9, 9: 0}.get(up)
        if bj is None or not peek:
            return Fraction(1)
        return 1 - Fraction(left[bj], sum(left))

    @cache
    def best(removed: tuple[int, ...], hard: int, aces: int) -> Fraction:
        total, _ = total_of(hard, aces > 0)
        s = stand(removed, total)
        if total >= 21:
            return s
        return max(s, hit(removed, hard, aces))

    def hit(removed, hard, aces) -> Fraction:
        left = list(ONE_DECK)
        left[up] -= 1
        left = [c - r for c, r in zip(left, removed, strict=True)]
        n = sum(left)
        value = Fraction(0)
        for r in range(RANKS):
            if not left[r]:
                continue
            child = list(removed)
            child[r] += 1
            if hard + r + 1 > 21:
                value += Fraction(left[r], n) * -no_bj(child)
            else:
                value += Fraction(left[r], n) * best(tuple(child), hard + r + 1, aces + (r == 0))
        return value

    return stand, hit, best


@pytest.mark.parametrize("peek", [False, True])
def test_hit_stand_double_match_an_independent_recursion(peek: bool) -> None:
    rules = BlackjackRules(hole_card="peek" if peek else "none")
    analysis = analyse_round(ONE_DECK, rules)
    for (a, b), up in (((9, 5), 9), ((5, 6), 4), ((1, 7), 0), ((0, 5), 8)):
        stand, hit, _ = _independent(up, peek)
        removed = [0] * RANKS
        removed[a] += 1
        removed[b] += 1
        hand = analysis.hand(a, b, up)
        total, _ = total_of(a + b + 2, 0 in (a, b))
        adjust = -hand.p_dealer_blackjack if peek else 0
        assert hand.values[STAND] == stand(tuple(removed), total) + adjust
        assert hand.values[HIT] == hit(tuple(removed), a + b + 2, (a == 0) + (b == 0)) + adjust
        # Double: one card, then stand, twice the stake.
        double = Fraction(0)
        left = list(ONE_DECK)
        left[up] -= 1
        left = [c - r for c, r in zip(left, removed, strict=True)]
        for r in range(RANKS):
            child = list(removed)
            child[r] += 1
            t, _ = total_of(a + b + r + 3, 0 in (a, b, r))
            value = -1 if t > 21 else stand(tuple(child), t)
            if t > 21 and peek and up in (0, 9):
                value = -(
                    1
                    - Fraction(
                        left[9 if up == 0 else 0] - (r == (9 if up == 0 else 0)), sum(left) - 1
                    )
                )
            double += Fraction(left[r], sum(left)) * 2 * value
        assert hand.values[DOUBLE] == double + adjust


def test_split_matches_an_independent_recursion() -> None:
    """8-8 against a ten, one split: twice one hand played with the pair removed."""
    analysis = analyse_round(ONE_DECK, BlackjackRules())
    up, x = 9, 7
    stand, _hit, best = _independent(up, False)
    left = list(ONE_DECK)
    left[up] -= 1
    left[x] -= 2
    one_hand = Fraction(0)
    for y in range(RANKS):
        removed = [0] * RANKS
        removed[x] = 2
        removed[y] += 1
        hard = x + y + 2
        total, _ = total_of(hard, y == 0)
        value = max(stand(tuple(removed), total), best(tuple(removed), hard, y == 0))
        one_hand += Fraction(left[y], sum(left)) * value
    assert analysis.hand(x, x, up).values[SPLIT] == 2 * one_hand


def test_composition_keys_are_additive() -> None:
    assert key_of((1, 0, 0, 0, 0, 0, 0, 0, 0, 2)) == STEP[0] + 2 * STEP[9]


def test_values_given_no_dealer_blackjack() -> None:
    """The published convention under a peek: surrender is exactly −½, nothing is worse."""
    rules = BlackjackRules(hole_card="peek", surrender=True, double_after_split=True)
    analysis = analyse_round(ONE_DECK, rules)
    checked = 0
    for hand in analysis.hands:
        given = hand.values_given_no_dealer_blackjack
        assert given is not None
        p = hand.p_dealer_blackjack
        if "BJ" in given:
            assert given["BJ"] == rules.blackjack_payout
            continue
        assert given["R"] == Fraction(-1, 2)
        assert given[hand.best] >= Fraction(-1, 2)
        for action, value in hand.values.items():
            assert value == given[action] * (1 - p) - p  # the unconditional value back
        checked += p > 0
    assert checked == 2 * 54  # against A and 10, every hand but the natural
    # The report: both values in the JSON, the published one in the per-hand table.
    sixteen = analysis.hand(5, 9, 0)
    data = hand_json(sixteen)
    assert Fraction(data["ev_given_no_dealer_blackjack"]["surrender"]) == Fraction(-1, 2)
    assert Fraction(data["ev_unconditional"]["surrender"]) == sixteen.values["R"]
    table = hand_table(analysis)
    assert table.note.startswith("Given that the dealer has no blackjack")
    best = sixteen.values_given_no_dealer_blackjack[sixteen.best]
    assert Fraction(json_value(table)["6-10"]["A"]["ev"]) == best
    assert (
        analyse_round(ONE_DECK, BlackjackRules()).hands[0].values_given_no_dealer_blackjack is None
    )


def test_an_infinite_shoe(eight_decks) -> None:
    """Dealing with replacement: the published dealer figures, and the limit of more decks."""
    from math import inf

    from odds.games.blackjack.dealer_batches import dealer_outcomes
    from odds.games.blackjack.rounds import analyse_decks

    def busts(up: int) -> str:
        return f"{float(dealer_outcomes(inf, up, False).probabilities['bust']):.4f}"

    assert busts(5) == "0.4232"  # dealer 6 busts, S17
    assert busts(1) == "0.3536"  # dealer 2 busts
    assert sum(dealer_outcomes(inf, 0, True).probabilities.values()) == 1
    infinite = analyse_decks(inf)
    assert sum(h.probability for h in infinite.hands) == 1
    # The house edge grows with the decks, by about c/decks: 8 decks are 0.0854% short.
    assert 0 < eight_decks.ev - infinite.ev < Fraction(1, 1000)
    with pytest.raises(OddsError, match="whole number"):
        analyse_decks(2.5)
