"""The shoe-level tests of an audit, run together on a shoe-ordered log.

When a log has a ``shoe`` column and its shoes are dealt through (at least
:data:`~odds.tools.audit.shoes.MIN_ROUNDS_PER_SHOE` rounds a shoe on average,
as at a live table), the audit reads each shoe card by card
(:mod:`~odds.tools.audit.shoes`) and adds three families of tests to its
Tarone family (:func:`odds.stats.significance.tarone`, so α still holds for
the whole audit):

* rank and suit frequencies against the hypergeometric law
  (:mod:`~odds.tools.audit.frequencies`);
* shoe-aware tests of every bet's events given the cards already seen
  (:mod:`~odds.tools.audit.shoe_tests`; every game whose shoe-state feature
  declares an outcome law: baccarat, Dragon Tiger, Pok Deng, Goa Gae, the
  defined games);
* shuffle quality: serial correlation, runs, the previous shoe's order kept
  (:mod:`~odds.tools.audit.shuffle`).

A failing test's finding names the shoe(s) and rounds driving it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from odds.games.base import Game
from odds.tools.audit.frequencies import frequency_tests
from odds.tools.audit.shoe_tests import aware_tests, evaluate_rounds, state_odds
from odds.tools.audit.shoes import (
    MIN_ROUNDS_PER_SHOE,
    DealtShoe,
    ShoeLog,
    ShoeTest,
)
from odds.tools.audit.shuffle import shuffle_tests


@dataclass(frozen=True)
class ShoeStudy:
    """The shoe-level tests of one log (not yet judged: the audit sets ``judged``)."""

    shoes: int
    rounds: int
    tests: tuple[ShoeTest, ...]
    notes: tuple[str, ...]
    impossible: tuple[str, ...]  # shoes whose cards run past what the shoe holds
    #: A continuous shuffle: only the rank and suit frequencies, over independent rounds
    #: (:mod:`odds.tools.audit.round_frequencies`); ``shoes`` counts the log's labels.
    continuous: bool = False

    def judged(self, flags: list[bool]) -> ShoeStudy:
        tests = tuple(
            replace(t, judged=f and t.p is not None) for t, f in zip(self.tests, flags, strict=True)
        )
        return replace(self, tests=tests)

    def fails(self, test: ShoeTest, threshold: float) -> bool:
        if test.p is not None and test.p.value == 0.0:
            return True
        return test.judged and test.p is not None and test.p.value < threshold


def study_of_shoes(
    game: Game,
    config: Any,
    read: ShoeLog | None,
    shoes_in_log: int = 0,
    aware_rounds: int | None = None,
) -> ShoeStudy | None:
    """Every shoe-level test of shoes already read (the audit's one pass), or None.

    None when the log has no shoes dealt through. When the reading stopped at its
    limit (``--shoe-rows``), a note names the shoes tested and those left to the
    off-the-top tests: the first shoes, whole, and the lines they span.
    """
    if read is None or not read.shoes:
        return None
    if read.rounds < MIN_ROUNDS_PER_SHOE * len(read.shoes):
        return None
    notes = []
    if read.truncated:
        first, last = read.shoes[0], read.shoes[-1]
        untested = max(shoes_in_log - len(read.shoes), 0)
        notes.append(
            f"the shoe-level tests cover the log's first {len(read.shoes):,} shoes, whole "
            f"(shoe {first.label} first, shoe {last.label} last: {read.unit}s "
            f"{first.rounds[0].line:,}–{last.rounds[-1].line:,}); its other {untested:,} "
            f"shoes, after {read.unit} {last.rounds[-1].line:,}, are tested off the top "
            f"only (at most {read.rows:,} rows are read shoe by shoe: --shoe-rows)"
        )
    return run_tests(game, config, read.shoes, read.unit, tuple(notes), aware_rounds=aware_rounds)


def run_tests(
    game: Game,
    config: Any,
    shoes: tuple[DealtShoe, ...],
    unit: str = "line",
    notes: tuple[str, ...] = (),
    aware: bool = True,
    aware_rounds: int | None = None,
) -> ShoeStudy:
    """The three families on shoes already read (what simulations call directly).

    ``aware=False`` leaves out the shoe-aware tests (the slow ones).
    """
    shoe = game.shoe(config)
    tests = frequency_tests(shoe, shoes, unit)
    impossible: tuple[str, ...] = ()
    found = state_odds(game, config) if aware else None
    all_notes = list(notes)
    if found is not None and all(r.hands for s in shoes for r in s.rounds):
        odds, round_cards = found
        rounds = evaluate_rounds(game, config, odds, round_cards, shoes, max_rounds=aware_rounds)
        tests += aware_tests(rounds, unit)
        all_notes += rounds.notes
        impossible = rounds.impossible
    elif aware:
        all_notes.append(
            f"shoe-aware tests: {game.name} has no per-state outcome law (its shoe-state "
            "feature declares none); its rounds are tested off the top only"
        )
    tests += shuffle_tests(shoe, shoes, unit)
    rounds_total = sum(len(s.rounds) for s in shoes)
    return ShoeStudy(len(shoes), rounds_total, tuple(tests), tuple(all_notes), impossible)
