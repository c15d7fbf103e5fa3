"""Dealer probabilities: the one dealer call (its batched numerators) against a plain recursion
over every draw (tests/reference/blackjack_nhc.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from odds.games.blackjack.dealer import (
    OUTCOMES,
    RANKS,
    dealer_table,
    plan,
)
from odds.games.blackjack.dealer_batches import dealer_outcomes, up_card_numerators
from tests.reference.blackjack_nhc import dealer_probabilities as dealer_probabilities_reference


def dealer_probabilities(
    counts: tuple[int, ...], up: int, hits_soft_17: bool, removed: tuple[int, ...] = (0,) * RANKS
) -> dict[str, Fraction]:
    return dealer_outcomes(counts, up, hits_soft_17, removed).probabilities


def one_deck(decks: int = 1) -> tuple[int, ...]:
    return (4 * decks,) * 9 + (16 * decks,)


@pytest.mark.parametrize("hits_soft_17", [False, True])
@pytest.mark.parametrize("up", range(RANKS))
def test_fast_equals_every_draw_sequence(up: int, hits_soft_17: bool) -> None:
    counts = list(one_deck())
    counts[up] -= 1
    every_ace = (counts[0],) + (0,) * (RANKS - 1)  # a rank used up: still one up card's shoe
    for removed in [
        (0,) * RANKS,
        (1, 0, 0, 0, 1, 0, 0, 0, 0, 2),
        (0, 2, 1, 1, 0, 0, 0, 0, 0, 0),
        every_ace,
    ]:
        left = tuple(c - r for c, r in zip(counts, removed, strict=True))
        reference = dealer_probabilities_reference(left, up, hits_soft_17)
        fast = dealer_probabilities(tuple(counts), up, hits_soft_17, removed)
        assert fast == reference
        assert sum(fast.values()) == 1


def test_a_lopsided_shoe() -> None:
    """A shoe rich in small cards makes long dealer hands; still exact."""
    counts = (6, 6, 6, 6, 1, 1, 1, 1, 1, 8)
    for up in (0, 1, 5):
        after = list(counts)
        after[up] -= 1
        assert dealer_probabilities(tuple(after), up, True) == dealer_probabilities_reference(
            tuple(after), up, True
        )


def test_many_compositions_at_once_match_one_at_a_time() -> None:
    counts = list(one_deck(2))
    counts[9] -= 1
    dp = plan(tuple(counts), 9, False)
    removed = [(0,) * RANKS, (0, 0, 0, 0, 0, 0, 0, 0, 1, 1), (2, 0, 0, 0, 0, 0, 0, 0, 0, 1)]
    packed = up_card_numerators(dp, removed)
    for r in removed:
        lanes = dp.unpack(packed[r])
        denominator = dp.denominator(sum(r))
        left = tuple(c - x for c, x in zip(counts, r, strict=True))
        reference = dealer_probabilities_reference(left, 9, False)
        assert {o: Fraction(c, denominator) for o, c in zip(OUTCOMES, lanes, strict=True)} == (
            reference
        )


def test_soft_17_only_matters_against_small_up_cards() -> None:
    for up in range(6, RANKS):
        assert dealer_table(up, True) == dealer_table(up, False)
    assert dealer_table(5, True) != dealer_table(5, False)
    assert dealer_table(0, True) != dealer_table(0, False)


def test_blackjack_only_against_ace_or_ten() -> None:
    counts = list(one_deck())
    for up in range(RANKS):
        after = list(counts)
        after[up] -= 1
        p = dealer_probabilities(tuple(after), up, False)["blackjack"]
        if up == 0:
            assert p == Fraction(16, 51)
        elif up == 9:
            assert p == Fraction(4, 51)
        else:
            assert p == 0
