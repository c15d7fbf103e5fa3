"""odds.core.sampling: bulk draws are the standard library's samples, exactly.

A seeded simulation's rounds are ``random.Random(seed).sample(range(n), k)`` one after
another (reports are reproducible from the seed); the sampler must give the very same
samples on both of CPython's paths (a set of chosen indices for a large population, a
shrinking pool for a small one), across the batches it reads its words in.
"""

from __future__ import annotations

import itertools
import random

import pytest

from odds.core.sampling import WORDS, Sampler


@pytest.mark.parametrize(
    ("n", "k", "rounds"),
    [
        (416, 12, 4_000),  # eight decks, the Banker and five positions: the set path
        (52, 12, 2_000),  # one deck: the pool path
        (85, 12, 500),  # the last population on the pool path for k = 12 …
        (86, 12, 3_000),  # … and the first on the set path: many samples with a repeat
        (12, 12, 300),  # the whole population
        (100_000, 3, 300),
        (30, 2, 300),
        (200, 40, 300),
        (7, 0, 5),
        (1, 1, 5),
    ],
)
def test_samples_equal_the_standard_librarys(n, k, rounds):
    expected_rng = random.Random(11)
    expected = [expected_rng.sample(range(n), k) for _ in range(rounds)]
    sampler = Sampler(random.Random(11), n, k)
    assert sampler.bulk  # CPython's algorithm recognised: the fast path is the one tested
    found: list[list[int]] = []
    for size in itertools.cycle([997, 1, 5, 2_000]):  # batches of every size, and across them
        if len(found) == rounds:
            break
        batch = sampler.draw(min(size, rounds - len(found)))
        assert batch.shape == (min(size, rounds - len(found)), k)
        found += batch.tolist()
    assert found == expected


def test_samples_run_across_the_words_read():
    """More samples than one read of words holds: the refills keep the sequence."""
    n, k = 416, 12
    rounds = 3 * WORDS // k
    expected_rng = random.Random(5)
    expected = [expected_rng.sample(range(n), k) for _ in range(rounds)]
    assert Sampler(random.Random(5), n, k).draw(rounds).tolist() == expected


def test_another_algorithm_falls_back_to_the_standard_library(monkeypatch):
    """Were the standard library's algorithm different, its own samples are used."""

    def reversed_sample(self, population, k):
        return list(reversed(original(self, population, k)))

    original = random.Random.sample
    monkeypatch.setattr(random.Random, "sample", reversed_sample)
    sampler = Sampler(random.Random(3), 416, 12)
    assert not sampler.bulk
    expected_rng = random.Random(3)
    expected = [expected_rng.sample(range(416), 12) for _ in range(50)]
    assert sampler.draw(50).tolist() == expected
