"""``odds bench``: each game's per-state evaluation beside the full analysis of the same state.

One composition per game (the paytable's shoe less a seeded third of its
cards), every bet: the evaluator (built once beforehand, its build time in the
note) is timed against the game's full analysis of that composition — what
``odds report`` with the cards listed as removed computes — and the two must
give the same EVs exactly.
"""

from __future__ import annotations

import random
import time
from typing import Any

from odds.games.base import BenchCase

#: Share of the shoe dealt before the benchmark's state, and its seed.
DEALT, SEED = 1 / 3, 1


def state_of(full: tuple[int, ...], keep: int, seed: int = SEED, dealt: float = DEALT) -> list[int]:
    """The full shoe less a seeded random ``dealt`` share of its cards (``keep`` left at least)."""
    rng = random.Random(seed)
    cards = [t for t, n in enumerate(full) for _ in range(n)]
    counts = list(full)
    for t in rng.sample(cards, max(0, min(int(len(cards) * dealt), len(cards) - keep))):
        counts[t] -= 1
    return counts


def bench_cases(paytable: Any) -> list[BenchCase]:
    """Per-state timing cases for a paytable whose game has shoe states (else none)."""
    feature = paytable.game.shoe_state
    if feature is None:
        return []
    start = time.perf_counter()
    evaluator = feature.evaluator(paytable.config)
    built = time.perf_counter() - start
    counts = state_of(evaluator.full, evaluator.round_cards)
    unseen = sum(counts)
    cases = [
        BenchCase(
            f"{paytable.game.name}: per-state EV, every bet, one state ({unseen} unseen)",
            lambda: (evaluator.forget(), evaluator.evs(counts))[1],
            lambda: feature.reference_evs(paytable, evaluator, counts),
            note=(
                f"evaluator built once in {built:.2f} s; brute-force column: the full analysis "
                "of the same composition (what `odds report` computes), compared exactly"
            ),
        )
    ]
    if evaluator.fast_path:
        cases.append(
            BenchCase(
                f"{paytable.game.name}: per-state EV in double precision (simulations)",
                lambda: {k: round(v, 12) for k, (v, _) in evaluator.approximate(counts).items()},
                None,
                note="with a rigorous error bound; a sign in doubt is decided exactly",
            )
        )
    return cases
