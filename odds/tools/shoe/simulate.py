"""Seeded whole-shoe simulations: exact per-state EVs at every round of many shoes.

Where the states cannot be enumerated (52 card types), shoes are dealt by the
game's procedure and every bet's exact EV is evaluated before every round, as
an observer who saw every face-up card. Three players are followed per bet:

* the *flat bettor* stakes 1 every round (the whole-shoe return);
* the *watching player* stakes 1 only when the exact EV is positive;
* the *counter* stakes 1 when the bet's balanced count (:mod:`~odds.tools.shoe.eor`)
  has a true count at or past its break-even index.

Reproducibility: shoe ``i`` is shuffled by its own generator,
``numpy.random.SeedSequence(seed, spawn_key=(i,))``, and results are combined
in shoe order, so 1 worker, 16 workers and a Dask cluster give identical output.
Progress shows on a terminal (:mod:`odds.runtime.progress`: a bar after a short delay,
nothing in a pipe).
Work is cut into chunks of consecutive shoes and run on local processes
(:class:`concurrent.futures.ProcessPoolExecutor`) or on a Dask cluster
(``Client.get_executor()``): one code path, two executors.

Per-state EVs are exact; their sums are accumulated as floats, because what is
reported are estimates with 95% intervals over shoes (studentized bootstrap,
:mod:`odds.stats.intervals`: honest on rare events), never exact figures.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any

from odds.core.errors import OddsError
from odds.core.numbers import check_seed
from odds.runtime.progress import task
from odds.stats.intervals import Estimate, mean_interval, normal_interval, ratio_interval
from odds.tools.shoe.eor import Count


@dataclass(frozen=True)
class SimulationSpec:
    """Everything a worker needs, picklable: the paytable as data, the seed, the counts."""

    data: dict[str, Any]
    source: str
    seed: int
    counts: tuple[Count, ...]  # per bet, in the evaluator's bet order
    tags: tuple[tuple[int, ...], ...]  # per bet, per type

    def key(self) -> str:
        return json.dumps([self.data, self.source], sort_keys=True, default=str)


@dataclass(frozen=True)
class ShoeRecord:
    """One simulated shoe: per round, per bet, the exact EV (as a float) and who bet."""

    index: int
    evs: tuple[tuple[float, ...], ...]  # rounds × bets
    positive: tuple[tuple[bool, ...], ...]
    counted: tuple[tuple[bool, ...], ...]  # the counter bets


_CONTEXTS: dict[str, Any] = {}


def _context(spec: SimulationSpec) -> tuple[Any, Any]:
    """(evaluator, procedure) for the spec's paytable, built once per process."""
    key = spec.key()
    found = _CONTEXTS.get(key)
    if found is None:
        from odds.games.paytable import from_data

        paytable = from_data(spec.data, spec.source)
        feature = paytable.game.shoe_state
        if feature is None:
            raise OddsError(f"{paytable.game.name} has no shoe states")
        found = (feature.evaluator(paytable.config), feature.procedure(paytable.config))
        _CONTEXTS.clear()
        _CONTEXTS[key] = found
    return found


def prime(spec: SimulationSpec, evaluator: Any, procedure: Any) -> None:
    """Hand this process's built evaluator to the workers it forks (they skip the build)."""
    _CONTEXTS.clear()
    _CONTEXTS[spec.key()] = (evaluator, procedure)


def shuffled(full: Sequence[int], seed: int, index: int) -> list[int]:
    """Shoe ``index``'s card order (type indices), from its own seeded generator."""
    import numpy as np

    deck = np.repeat(np.arange(len(full)), full)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index,)))
    return rng.permutation(deck).tolist()


def simulate_chunk(spec: SimulationSpec, indices: Sequence[int]) -> list[ShoeRecord]:
    """Deal and evaluate the shoes ``indices`` (a worker's unit of work)."""
    import numpy as np

    evaluator, procedure = _context(spec)
    full = evaluator.full
    names = [bet.name for bet in evaluator.bets]
    batch = _exact_batch(evaluator)
    tags = np.array(spec.tags, dtype=np.int64).reshape(len(spec.tags), len(full))
    # Each count's bet at a true count, as integer comparisons (Count.bets_at_ratio).
    tests = [count.ratio_test() for count in spec.counts]
    unit = evaluator.unit
    records = []
    for index in indices:
        states = list(procedure.states(shuffled(full, spec.seed, index), full))
        evs, positive, counted = [], [], []
        values = _batch_values(batch, states, names) if batch is not None else None
        for i, state in enumerate(states):
            if values is not None:
                ev, signs = values[i]
            else:
                ev, signs = _values(evaluator, state, names)
            evs.append(ev)
            positive.append(signs)
        if states:  # every count's running count of every state at once (exact integers)
            seen = np.asarray(full, dtype=np.int64)[None, :] - np.asarray(states, dtype=np.int64)
            running = (seen @ tags.T).tolist()
            for state, row in zip(states, running, strict=True):
                unseen = sum(state)
                counted.append(
                    tuple(
                        False
                        if test is None
                        else (r * unit * test[0] >= test[1] * unseen)
                        if test[2]
                        else (r * unit * test[0] <= test[1] * unseen)
                        for test, r in zip(tests, row, strict=True)
                    )
                )
        records.append(ShoeRecord(index, tuple(evs), tuple(positive), tuple(counted)))
    return records


def _values(
    evaluator: Any, state: Sequence[int], names: list[str]
) -> tuple[tuple[float, ...], tuple[bool, ...]]:
    """One state's EVs (floats) and which are positive, the sign decided exactly."""
    found = evaluator.approximate(state)
    if any(abs(value) <= bound for value, bound in found.values()):
        exact = evaluator.evs(state)  # a sign in doubt: decide it exactly
        return tuple(float(exact[n]) for n in names), tuple(exact[n] > 0 for n in names)
    return tuple(found[n][0] for n in names), tuple(found[n][0] > 0 for n in names)


def _exact_batch(evaluator: Any) -> Any:
    """The evaluator's batch of exact numerators, where its simulation values are the exact
    EVs anyway (no floating-point path of its own): a shoe's states are then one batch
    (measured: a Dragon Tiger shoe's 80 states 13 ms, against 40 ms one by one)."""
    from odds.games.shoe_state import StateEvaluator

    if type(evaluator).approximate is not StateEvaluator.approximate:
        return None
    return evaluator.batch()


def _batch_values(
    batch: Any, states: list[tuple[int, ...]], names: list[str]
) -> list[tuple[tuple[float, ...], tuple[bool, ...]]]:
    """Every state's exact EVs as floats (an integer quotient is correctly rounded, as
    ``float(Fraction)`` is) and their signs, from one batch of integer numerators."""
    import numpy as np

    if not states:
        return []
    column = [list(batch.bets).index(n) for n in names]
    numerators = batch.numerators(states)
    denominators = [batch.denominator(n) for n in np.sum(states, axis=1).tolist()]
    if numerators.dtype == np.int64 and max(denominators) < 2**53:
        picked = numerators[:, column]
        if not len(picked) or int(np.abs(picked).max()) < 2**53:
            # Integers below 2^53 are doubles exactly: one division rounds once, as the
            # quotient of two Python integers does.
            values = picked / np.array(denominators, dtype=np.float64)[:, None]
            signs = (picked > 0).tolist()
            return [(tuple(v), tuple(b)) for v, b in zip(values.tolist(), signs, strict=True)]
    found = []
    for denominator, row in zip(denominators, numerators.tolist(), strict=True):
        values = [int(row[c]) for c in column]
        found.append(
            (tuple(v / denominator if v else 0.0 for v in values), tuple(v > 0 for v in values))
        )
    return found


#: The most shoes one study deals: every shoe's rounds are kept for the summary
#: (~100 kB a shoe for 8 decks), so 20,000 shoes is already ~2 GB.
MAX_SHOES = 20_000
#: The most work a study starts, estimated from its first shoe: a day of CPU.
MAX_SECONDS = 24 * 3600


def check_study(shoes: int, seed: int) -> None:
    """``--shoes`` and ``--seed`` in range: one-line errors before anything is built."""
    if shoes < 1:
        raise OddsError(f"--shoes must be at least 1, got {shoes}")
    if shoes > MAX_SHOES:
        raise OddsError(
            f"--shoes {shoes}: at most {MAX_SHOES:,} shoes in one study (every shoe's rounds "
            "are kept for the summary); run several seeds for more"
        )
    check_seed(seed)


def run(
    spec: SimulationSpec,
    shoes: int,
    workers: int | None = None,
    scheduler: str | None = None,
    label: str = "shoes",
) -> list[ShoeRecord]:
    """Simulate ``shoes`` shoes; records in shoe order whatever runs them.

    The first shoe is dealt here first: its time gives the whole study's
    estimate, refused over :data:`MAX_SECONDS` before any worker starts.
    Chunks are ranges made as they are queued (never a list of every chunk).
    """
    import time

    check_study(shoes, spec.seed)
    from odds.runtime.pool import local_workers

    chunks_of_one = max(1, shoes - 1)
    if scheduler is None:
        workers = local_workers(workers, chunks_of_one)
    elif workers is not None and workers < 1:
        raise OddsError(f"--workers must be at least 1, got {workers}")
    workers = workers or 1
    started = time.perf_counter()
    first = simulate_chunk(spec, range(1))
    seconds = (time.perf_counter() - started) * (shoes - 1) / workers
    if seconds > MAX_SECONDS:
        raise OddsError(
            f"--shoes {shoes}: about {seconds / 3600:,.0f} hours of work on {workers} "
            f"worker(s) (one shoe took {time.perf_counter() - started:.2f} s); "
            f"at most {MAX_SECONDS // 3600} hours is started"
        )
    size = max(1, min(25, (shoes - 1) // (4 * workers) or 1))
    chunks = (range(a, min(a + size, shoes)) for a in range(1, shoes, size))
    results: list[ShoeRecord] = list(first)
    with task(label, shoes) as update:
        update(1)
        if scheduler is None and workers == 1:
            found: Generator[list[ShoeRecord], None, None] = (
                simulate_chunk(spec, c) for c in chunks
            )
        elif scheduler is None:
            from odds.runtime.pool import in_order

            found = in_order(partial(simulate_chunk, spec), chunks, workers)
        else:
            found = _on_cluster(spec, chunks, scheduler)
        with contextlib.closing(found):
            for records in found:
                results += records
                update(len(results))
    return results


def _on_cluster(
    spec: SimulationSpec, chunks: Iterator[range], scheduler: str
) -> Generator[list[ShoeRecord], None, None]:
    """Every chunk on a Dask cluster, results in chunk order."""
    with _executor(1, scheduler) as executor:
        futures = [executor.submit(simulate_chunk, spec, chunk) for chunk in chunks]
        for future in futures:
            yield future.result()


class _executor:
    """A local process pool, or a Dask cluster's concurrent.futures executor."""

    def __init__(self, workers: int, scheduler: str | None) -> None:
        self.workers, self.scheduler = workers, scheduler
        self.client: Any = None
        self.pool: Executor | None = None

    def __enter__(self) -> Executor:
        if self.scheduler is None:
            from odds.runtime.pool import pool

            self.pool = pool(self.workers)
            return self.pool
        self.client = connect(self.scheduler)
        return self.client.get_executor()

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        if self.client is not None:
            self.client.close()


def check_address(address: str) -> None:
    """A one-line error unless ``address`` looks like a scheduler's (``tcp://host:port``)."""
    if ":" not in address or address.rstrip("/").endswith(":"):
        raise OddsError(
            f"--scheduler {address!r}: not a scheduler address (e.g. tcp://10.0.0.5:8786)"
        )


def connect(address: str) -> Any:
    """A Dask client for ``address``; a one-line error when it cannot be reached in 3 s."""
    check_address(address)
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - dask is a declared dependency
        message = "--scheduler needs dask.distributed (pip install dask[distributed])"
        raise OddsError(message) from None
    import threading

    # Dask's own timeout covers the TCP connect, not the handshake: a peer that
    # accepts and never speaks (a wrong port, a proxy) hung forever. The client is
    # made in a daemon thread and waited for, for at most HANDSHAKE_SECONDS.
    made: dict[str, Any] = {}

    def make() -> None:
        try:
            made["client"] = Client(address, timeout="3s", set_as_default=False)
        except Exception as exc:  # any failure to connect: the address is wrong or down
            made["error"] = exc

    maker = threading.Thread(target=make, name="dask-connect", daemon=True)
    maker.start()
    maker.join(HANDSHAKE_SECONDS)
    if maker.is_alive():
        raise OddsError(
            f"cannot connect to the Dask scheduler at {address!r}: it accepted the connection "
            f"but did not answer within {HANDSHAKE_SECONDS:g} s (is it a Dask scheduler?)"
        )
    if "error" in made:
        exc = made["error"]
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise OddsError(f"cannot connect to the Dask scheduler at {address!r}: {reason}") from None
    return made["client"]


#: How long a scheduler may take to answer, connection and handshake together.
HANDSHAKE_SECONDS = 10.0


# ---------------------------------------------------------------------------
# Summaries


@dataclass(frozen=True)
class DepthRow:
    """One round depth over all shoes that reached it, per bet."""

    number: int
    shoes: int
    positive: tuple[int, ...]
    positive_ev: tuple[float, ...]  # Σ EV over positive states
    mean_ev: tuple[float, ...]
    counted: tuple[int, ...]


@dataclass(frozen=True)
class BetSummary:
    """One bet over every simulated shoe."""

    name: str
    title: str
    positive_rounds: Estimate  # per shoe (its mean is what is shown)
    watcher: Estimate  # units won per shoe, betting 1 when positive (bootstrap-t)
    counter_rounds: Estimate  # its mean is what is shown
    counter: Estimate  # units won per shoe by the counter (bootstrap-t)
    flat_per_round: Estimate  # the flat bettor's mean EV per round (bootstrap-t of a ratio)


@dataclass(frozen=True)
class SimulatedExposure:
    """The simulation's results: per depth, per bet, and the run's parameters."""

    shoes: int
    seed: int
    rounds: Estimate  # rounds per shoe
    depths: tuple[DepthRow, ...]
    bets: tuple[BetSummary, ...]
    extra: dict[str, Any] = field(default_factory=dict)


#: The spawn key of the bootstrap's generator (shoe i is dealt by spawn key i < MAX_SHOES).
RESAMPLING_STREAM = 2**32


def summarise(records: Sequence[ShoeRecord], bets: Sequence[Any], seed: int) -> SimulatedExposure:
    """Per-depth rows and per-bet estimates from the shoe records (in shoe order)."""
    nbets = len(bets)
    deepest = max((len(r.evs) for r in records), default=0)
    depths = []
    for k in range(deepest):
        rows = [r for r in records if len(r.evs) > k]
        depths.append(
            DepthRow(
                k + 1,
                len(rows),
                tuple(sum(r.positive[k][b] for r in rows) for b in range(nbets)),
                tuple(sum(r.evs[k][b] for r in rows if r.positive[k][b]) for b in range(nbets)),
                tuple(sum(r.evs[k][b] for r in rows) / len(rows) for b in range(nbets)),
                tuple(sum(r.counted[k][b] for r in rows) for b in range(nbets)),
            )
        )
    lengths = [float(len(r.evs)) for r in records]
    if not sum(lengths):
        raise OddsError(
            f"the [dealing] leaves no round to deal before the cut card in any of the "
            f"{len(records)} shoes (move dealing.cut_card back)"
        )
    summaries = []
    for b, bet in enumerate(bets):
        # One resampling stream for every figure (the same resampled sets of shoes, fixed
        # by the seed): two bets with the same shoe values get the same interval.
        tag = RESAMPLING_STREAM

        def played(r: ShoeRecord, who: tuple[tuple[bool, ...], ...], b: int = b) -> float:
            return sum(e[b] for e, p in zip(r.evs, who, strict=True) if p[b])

        summaries.append(
            BetSummary(
                bet.name,
                bet.title,
                normal_interval([float(sum(p[b] for p in r.positive)) for r in records]),
                mean_interval([played(r, r.positive) for r in records], seed, tag),
                normal_interval([float(sum(c[b] for c in r.counted)) for r in records]),
                mean_interval([played(r, r.counted) for r in records], seed, tag),
                ratio_interval([sum(e[b] for e in r.evs) for r in records], lengths, seed, tag),
            )
        )
    return SimulatedExposure(
        len(records), seed, normal_interval(lengths), tuple(depths), tuple(summaries)
    )


@dataclass(frozen=True)
class FlatReturn:
    """The flat bettor's exact mean EV per round, and the rounds a shoe can deal."""

    per_round: dict[str, Fraction]
    rounds: tuple[int, ...]  # the distinct numbers of rounds, by first card


def flat_return_exact(
    evaluator: Any, procedure: Any, after_first: Callable[[int], dict[str, Fraction]]
) -> FlatReturn | None:
    """The flat bettor's exact mean EV per round when the number of rounds depends only on
    the first card (a first-card burn, fixed cards per round); ``None`` otherwise.

    Given the first card (type ``t``), every later round is dealt from the shoe
    less that card, uniformly (exchangeability), and the shoe deals
    ``R(t)`` rounds; so the mean per round is Σ_t C_t R(t) EV(C − e_t) / Σ_t C_t R(t).
    ``after_first(t)`` gives EV(C − e_t).
    """
    if procedure.first_burn is None or procedure.deal_round is not None:
        return None
    full = evaluator.full
    size = sum(full)
    rounds = {t: procedure.rounds_after_first(t, size) for t, n in enumerate(full) if n}
    if len(set(rounds.values())) == 1:  # the burn never changes the number of rounds
        top = evaluator.evs(full)
        return FlatReturn(top, tuple(set(rounds.values())))
    total = sum(full[t] * r for t, r in rounds.items())
    result: dict[str, Fraction] = {bet.name: Fraction(0) for bet in evaluator.bets}
    for t, r in rounds.items():
        evs = after_first(t)
        for name in result:
            result[name] += full[t] * r * evs[name]
    per_round = {name: value / total for name, value in result.items()}
    return FlatReturn(per_round, tuple(sorted(set(rounds.values()))))
