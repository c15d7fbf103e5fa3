"""Seeded samples without replacement, the standard library's, drawn in bulk.

A seeded simulation promises the same rounds for the same seed, and the rounds
it has always dealt are :meth:`random.Random.sample` of ``range(n)``. Called
once per round that method costs a Python call per random number (about 15
per round of twelve cards from 416): most of a whole-table simulation's time.
:class:`Sampler` gives the very same samples from the very same generator
(CPython's algorithm: rejection of ``getrandbits`` for ``randbelow``, a set of
chosen indices for a large population, a shrinking pool for a small one), but
reads the generator's 32-bit words in bulk — ``getrandbits(32·m)`` is ``m``
successive words, the first least significant — and takes them with a few
array operations (numpy).

It checks itself: the first samples are compared with the standard library's
from a copy of the generator, and on any difference (another Python's
algorithm) it falls back to calling :meth:`random.Random.sample`. Either way
the samples are the standard library's; only the speed differs.
"""

from __future__ import annotations

import random
from math import ceil, log
from typing import Any

#: Samples compared with the standard library's before bulk drawing is trusted.
PROBE = 8
#: 32-bit words read from the generator at a time.
WORDS = 1 << 15


class Sampler:
    """``rng.sample(range(n), k)``, again and again: the same samples, in bulk.

    The sampler owns ``rng`` from now on: it reads words ahead, so the
    generator's state after :meth:`draw` is not the one the standard
    library's calls would have left.
    """

    def __init__(self, rng: random.Random, n: int, k: int) -> None:
        if not 0 <= k <= n:
            raise ValueError(f"a sample of {k} from {n}")
        self.rng, self.n, self.k = rng, n, k
        setsize = 21  # CPython's random.sample: a list beats a set of this size
        if k > 5:
            setsize += 4 ** ceil(log(k * 3, 4))
        self.pooled = n <= setsize
        self._reset()
        self.bulk = self._agrees()

    def _reset(self) -> None:
        self._words: list[int] = []  # pool path: words read and not yet used
        self._at = 0  # the first unused word (pool path) or value (set path)
        self._values: Any = None  # set path: the words' values below n, in order
        self._slack = 4 * self.k  # set path: values read past the samples' expected need

    def _agrees(self) -> bool:
        """Whether bulk drawing gives the standard library's first samples."""
        state = self.rng.getstate()
        expected = [self.rng.sample(range(self.n), self.k) for _ in range(PROBE)]
        self.rng.setstate(state)
        same: bool = self._bulk(PROBE).tolist() == expected
        self.rng.setstate(state)
        self._reset()
        return same

    def draw(self, count: int) -> Any:
        """The next ``count`` samples: an int64 array of ``count`` rows of ``k`` distinct indices
        below ``n``, in the order the standard library draws them."""
        import numpy as np

        if not self.bulk:
            rows = [self.rng.sample(range(self.n), self.k) for _ in range(count)]
            return np.array(rows, dtype=np.int64).reshape(count, self.k)
        return self._bulk(count)

    def _bulk(self, count: int) -> Any:
        return self._pooled(count) if self.pooled else self._set(count)

    def _read(self) -> Any:
        """The generator's next :data:`WORDS` 32-bit outputs, in the order it makes them."""
        import numpy as np

        raw = self.rng.getrandbits(32 * WORDS).to_bytes(4 * WORDS, "little")
        return np.frombuffer(raw, dtype="<u4").astype(np.int64)

    def _set(self, count: int) -> Any:
        """The set path: ``randbelow(n)`` until unchosen, ``k`` times.

        Both rejections (a value ``≥ n``, an index already chosen) skip one
        word, so the accepted values are the words below ``n`` in order, and a
        sample is the next ``k`` of them skipping repeats within the sample:
        the next ``k`` exactly when they hold no repeat (most samples; found
        for every start at once), else read one by one.
        """
        import numpy as np
        from numpy.lib.stride_tricks import sliding_window_view

        n, k = self.n, self.k
        result = np.empty((count, k), dtype=np.int64)
        if k == 0:
            return result
        shift = 32 - n.bit_length()
        done = 0
        while done < count:
            need = (count - done) * k * 9 // 8 + self._slack  # repeats are rare
            values = self._values
            while values is None or len(values) - self._at < need:
                words = self._read() >> shift
                fresh = words[words < n]
                values = fresh if values is None else np.concatenate((values[self._at :], fresh))
                self._at = 0
            self._values = values
            at = self._at
            ahead = values[at : at + need]
            ordered = np.sort(sliding_window_view(ahead, k), axis=1)
            clean = (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)
            following = _next_false(clean, k)
            listed = ahead.tolist()
            starts: list[int] = []  # where each clean sample starts in ahead
            rows: list[int] = []  # the result rows they fill
            p, last = 0, len(clean) - 1
            while done < count and p <= last:
                # The clean samples from p on, one after another, up to the next repeat.
                run = min((following[p] - p) // k, count - done)
                if run:
                    rows.extend(range(done, done + run))
                    starts.extend(range(p, p + run * k, k))
                    done, p = done + run, p + run * k
                if done == count or p > last:
                    break
                chosen: list[int] = []
                i, end = p, len(listed)
                while i < end:
                    value = listed[i]
                    i += 1
                    if value not in chosen:
                        chosen.append(value)
                        if len(chosen) == k:
                            break
                if len(chosen) < k:  # ran past the values read: read more, then again
                    self._slack *= 2
                    break
                result[done] = chosen
                p = i
                done += 1
            if starts:
                result[rows] = ahead[np.array(starts)[:, None] + np.arange(k)]
            self._at = at + p
        return result

    def _pooled(self, count: int) -> Any:
        """The pool path: ``randbelow(n − i)`` into a shrinking pool, ``k`` times.

        The words decide every ``randbelow`` in turn (a word is taken, or rejected when its
        value is not below ``n − i``); the pools are then played for every sample at once.
        """
        import numpy as np

        n, k = self.n, self.k
        shifts = [32 - (n - i).bit_length() for i in range(k)]
        sizes = [n - i for i in range(k)]
        words, at = self._words, self._at
        picks: list[int] = []
        need, i = count * k, 0
        while len(picks) < need:
            if at == len(words):
                words, at = self._read().tolist(), 0
            j = words[at] >> shifts[i]
            at += 1
            if j < sizes[i]:
                picks.append(j)
                i = i + 1 if i + 1 < k else 0
        self._words, self._at = words, at
        chosen = np.array(picks, dtype=np.int64).reshape(count, k)
        pool = np.tile(np.arange(n, dtype=np.int64), (count, 1))
        rows = np.arange(count)
        result = np.empty((count, k), dtype=np.int64)
        for i in range(k):
            column = chosen[:, i]
            result[:, i] = pool[rows, column]
            pool[rows, column] = pool[:, n - i - 1]  # the last unchosen fills the vacancy
        return result


def _next_false(flags: Any, step: int) -> list[int]:
    """For every index ``p``: the first ``q ≥ p`` with ``q ≡ p (mod step)`` and ``flags[q]``
    false, or the first such ``q`` past the end."""
    import numpy as np

    size = len(flags)
    found = np.empty(size, dtype=np.int64)
    for residue in range(min(step, size)):
        chain = np.arange(residue, size, step)
        # Each false flag marks itself, the end marks past it; then the nearest ahead of each.
        marks = np.where(flags[chain], chain[-1] + step, chain)
        found[chain] = np.minimum.accumulate(marks[::-1])[::-1]
    return list(found.tolist())
