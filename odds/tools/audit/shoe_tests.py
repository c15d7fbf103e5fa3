"""Shoe-aware tests: each round against its exact odds given the cards its shoe has shown.

The off-the-top tests compare a log's outcome counts with the odds of a full
shoe. A live shoe is dealt through: before round ``i`` the cards of rounds
``1 … i − 1`` are gone, and (the burned cards being unseen and the shuffle
fair) round ``i`` is dealt as if from the full shoe less exactly those cards.
Every game's shoe-state feature may declare an outcome law
(:class:`odds.games.shoe_state.OutcomeLaw`: baccarat, Dragon Tiger, Pok Deng,
Goa Gae, every defined game), which gives every bet's exact event probabilities
``p_i`` for that state; this module has one code path for all of them.

Where several seats play against one shared hand (Pok Deng's five positions
against one Banker), the seats of a round are dependent given the state. The
steps are then finer than rounds: the shared hand is revealed first, then each
occupied seat in the log's order, each seat's law taken from the state less
the shared hand and the seats before it (exact: the cards of a round are
exchangeable, so any order of revealing them has the same joint law).

For each bet, with ``O`` the observed event counts, ``E = Σ p_i`` and
``V = Σ (diag p_i − p_i p_iᵀ)``, the statistic is ``Q = (O − E)ᵀ V⁻¹ (O − E)``
over all events but one (sparse events merged by the off-the-top test's
rule). ``O − E`` is a sum of martingale differences (each step's ``p_i`` is
fixed before it is dealt), so ``Q`` is χ² with (events − 1) degrees of
freedom for many rounds whatever the dependence between the rounds of a shoe;
the false-alarm rate at 1 to 10,000 rounds is measured
(:mod:`tests.measure.power`, the table in ``docs/commands/audit.md``).
An event whose exact probability in its state is 0 (a pair when the cards
seen leave none) makes the test fail outright, naming the round.

Why it is more powerful for a doctored shoe: a shoe holding extra 9s deals its
excess spread evenly over the shoe, so off the top each round differs from the
full-shoe odds by a little. Given the cards seen, the log's own 9s are
subtracted from a shoe that never held the extras, and the difference between
the real and the stated state grows as the shoe is dealt (k extras among the
last 80 cards weigh five times as much as among 416). The power of both is
measured in the same table.

The work is bounded and estimated before it starts: at most
:data:`MAX_ROUNDS` rounds are evaluated (whole shoes, from the first), fewer
when the game's law declares a cost that would take more than
:data:`WORK_SECONDS` (a defined game's three-card showdown: about a second a
state), or the bound the caller gives; the note names the shoes tested and
those left to the off-the-top tests. Each distinct state (with its shared
hand) is evaluated once, in batches, with progress and the estimate on a
terminal. The states follow the log: its shoes are dealt through (the
shoe-level tests run only then), whatever the paytable's ``[dealing]`` says.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from odds.core.errors import OddsError
from odds.games.base import Game
from odds.runtime.progress import track
from odds.stats.chisquare import MIN_EXPECTED, chi2_sf
from odds.stats.significance import CHI_SQUARE, PValue
from odds.tools.audit.shoes import DealtRound, DealtShoe, ShoeTest

#: Shoes whose cards run past what the shoe holds named in the notes (all are counted).
NAMED_IMPOSSIBLE = 3
#: At most this many rounds are evaluated by the per-state engine (whole shoes, first ones).
MAX_ROUNDS = 20_000
#: The default bound also keeps the estimated work (the law's declared cost) under this.
WORK_SECONDS = 60.0
#: States evaluated per call of a game's law (a batch; progress advances by batches).
BATCH = 256

#: Event ways of a batch of states (rows of type counts): ``{bet: (event labels, ways)}``,
#: ``ways`` an integer array (states × events) whose rows each add up to the state's total.
#: A game's :class:`odds.games.shoe_state.OutcomeLaw` is one (it also takes the hands it is
#: given: ``law(states, shared)``).
StateOdds = Callable[..., dict[str, tuple[list[str], Any]]]


def state_odds(game: Game, config: Any) -> tuple[StateOdds, int] | None:
    """The game's per-state event law and the cards a round may need, or None.

    Every game whose shoe-state feature declares an outcome law has one
    (:meth:`odds.games.features.ShoeStateFeature.outcome_law`): baccarat, Dragon
    Tiger, Pok Deng, Goa Gae and every defined game.
    """
    feature = game.shoe_state
    law = None if feature is None else feature.outcome_law(config)
    if law is None:
        return None
    return law, law.round_cards


def default_rounds(odds: StateOdds) -> int:
    """The rounds evaluated when no bound is given: :data:`MAX_ROUNDS`, within the work budget."""
    cost = float(getattr(odds, "seconds_per_round", 0.0))
    if cost <= 0:
        return MAX_ROUNDS
    return max(1, min(MAX_ROUNDS, int(WORK_SECONDS / cost)))


@dataclass(frozen=True)
class AwareRounds:
    """Every evaluated step (a round, or a seat of one): its shoe, its state's ways, its events.

    A game whose seats share a hand (Pok Deng) has one step per occupied seat,
    each against the state less the shared hand and the seats before it.
    """

    shoes: tuple[DealtShoe, ...]
    shoe_of: tuple[int, ...]  # index into shoes, per step
    lines: tuple[int, ...]  # each step's line
    ways: dict[str, tuple[list[str], Any]]  # per bet: event labels, ways (steps × events)
    events: tuple[dict[str, str], ...]
    notes: tuple[str, ...]
    impossible: tuple[str, ...]  # rounds whose state the shoe cannot reach (integrity names them)


@dataclass
class _Steps:
    """The steps gathered before any law is evaluated (so the work is known first)."""

    states: list[Any]
    shared: list[tuple[int, ...]]
    hands: list[tuple[str, ...]]
    shoe_of: list[int]
    lines: list[int]


def evaluate_rounds(
    game: Game,
    config: Any,
    odds: StateOdds,
    round_cards: int,
    shoes: Sequence[DealtShoe],
    settle: Callable[[tuple[str, ...]], dict[str, str]] | None = None,
    max_rounds: int | None = None,
) -> AwareRounds:
    """The state before every round (every seat) and its exact event ways.

    Bounded before it starts: whole shoes from the first, at most ``max_rounds``
    rounds (default :func:`default_rounds`); the note names the shoes left out.
    Each distinct state (with its shared hand) is evaluated once, in batches,
    with progress on a terminal.
    """
    import numpy as np

    full = np.array(game.shoe(config).counts, dtype=np.int64)
    cap = default_rounds(odds) if max_rounds is None else max_rounds
    if cap < 1:
        raise OddsError("the shoe-aware tests need a bound of at least one round")
    chosen: list[DealtShoe] = []
    total = 0
    for dealt in shoes:
        if total + len(dealt.rounds) > cap and chosen:
            break
        chosen.append(dealt)
        total += len(dealt.rounds)
    notes = []
    if len(chosen) < len(shoes):
        rest = shoes[len(chosen) :]
        left = sum(len(d.rounds) for d in rest)
        notes.append(
            f"the shoe-aware tests cover shoes {_labels(chosen)} ({total:,} rounds, the first "
            f"{len(chosen):,} of {len(shoes):,} shoes); shoes {_labels(rest)} ({left:,} rounds) "
            f"are tested off the top only (at most {cap:,} rounds are evaluated exactly)"
        )
    settle = settle or _settler(game, config)
    given = tuple(getattr(odds, "given", ()))
    steps = _Steps([], [], [], [], [])
    impossible: list[str] = []
    cut = 0
    split = _StepSplitter(game, config, given)
    for j, dealt in enumerate(chosen):
        taken = np.zeros((len(dealt.rounds), len(full)), dtype=np.int64)
        for i, dealt_round in enumerate(dealt.rounds[:-1]):
            np.add.at(taken[i + 1], np.array(dealt_round.cards, dtype=np.int64), 1)
        states = full - np.cumsum(taken, axis=0)
        for i, dealt_round in enumerate(dealt.rounds):
            state = states[i]
            units = None
            if state.min() >= 0 and state.sum() >= round_cards:
                units = split(dealt_round, state)
            if units is None:
                cut += 1
                if len(impossible) < NAMED_IMPOSSIBLE:
                    impossible.append(
                        f"shoe {dealt.label}: the cards shown before round "
                        f"{dealt_round.label} are more than the shoe holds; its later rounds "
                        "are not tested shoe-aware"
                    )
                break
            for unit_state, shared, hands in units:
                steps.states.append(unit_state)
                steps.shared.append(shared)
                steps.hands.append(hands)
                steps.shoe_of.append(j)
                steps.lines.append(dealt_round.line)
    if cut > len(impossible):
        impossible.append(f"… {cut - len(impossible):,} more shoes like these")
    ways = _evaluate(odds, steps, given, total)
    events = [settle(hands) for hands in steps.hands]
    if ways:
        seats = f" ({len(events):,} seats)" if given else ""
        rounds_done = len({(j, line) for j, line in zip(steps.shoe_of, steps.lines, strict=True)})
        notes.append(
            f"shoe-aware tests: {rounds_done:,} rounds{seats} evaluated exactly from the cards seen"
        )
    return AwareRounds(
        tuple(chosen),
        tuple(steps.shoe_of),
        tuple(steps.lines),
        ways,
        tuple(events),
        tuple(notes),
        tuple(impossible),
    )


def _labels(shoes: Sequence[DealtShoe]) -> str:
    first, last = shoes[0].label, shoes[-1].label
    return first if len(shoes) == 1 else f"{first} … {last}"


class _StepSplitter:
    """A round's steps: the round itself, or (shared hands) each occupied seat in turn."""

    def __init__(self, game: Game, config: Any, given: tuple[str, ...]) -> None:
        self.game, self.config, self.given = game, config, given
        self.shoe = game.shoe(config)
        self.positions = tuple(game.positions)
        seated = [p for p in self.positions if p not in game.shared_positions]
        self.seated = self.positions.index(seated[0]) if len(seated) == 1 else None
        self.known: dict[str, tuple[int, ...]] = {}

    def parse(self, text: str) -> tuple[int, ...]:
        found = self.known.get(text)
        if found is None:
            cards = self.game.parse_hand(self.config, text)
            found = self.known[text] = tuple(self.shoe.index(c) for c in cards)
        return found

    def __call__(
        self, dealt: DealtRound, state: Any
    ) -> list[tuple[Any, tuple[int, ...], tuple[str, ...]]] | None:
        """``(state, shared cards, hands)`` per step, or None when a step's state is impossible."""
        import numpy as np

        hands_list: list[tuple[str, ...]] = [dealt.hands]
        if dealt.seats:
            if self.seated is None or not self.given:
                raise OddsError(
                    f"{self.game.name}: a log with seats needs a law given the shared hand"
                )
            hands_list = []
            for seat in dealt.seats:
                if seat:
                    listed = list(dealt.hands)
                    listed[self.seated] = seat
                    hands_list.append(tuple(listed))
        if not self.given:
            return [(state, (), dealt.hands)]
        index = {p: i for i, p in enumerate(self.positions)}
        shared = tuple(c for p in self.given for c in self.parse(dealt.hands[index[p]]))
        unit = state.copy()
        np.subtract.at(unit, np.array(shared, dtype=np.int64), 1)
        steps = []
        for hands in hands_list:
            own = [c for p, h in zip(self.positions, hands, strict=True) if p not in self.given
                   for c in self.parse(h)]  # fmt: skip
            after = unit.copy()
            np.subtract.at(after, np.array(own, dtype=np.int64), 1)
            if unit.min() < 0 or after.min() < 0:
                return None
            steps.append((unit, shared, hands))
            unit = after
        return steps


def _evaluate(
    odds: StateOdds, steps: _Steps, given: tuple[str, ...], rounds: int
) -> dict[str, tuple[list[str], Any]]:
    """Every step's ways: each distinct state (and shared hand) once, in batches."""
    import numpy as np

    if not steps.states:
        return {}
    first: dict[tuple[bytes, tuple[int, ...]], int] = {}
    where = []
    distinct: list[int] = []  # the first step of each distinct state
    for i, (state, shared) in enumerate(zip(steps.states, steps.shared, strict=True)):
        key = (state.tobytes(), shared)
        if key not in first:
            first[key] = len(distinct)
            distinct.append(i)
        where.append(first[key])
    rows = np.array([steps.states[i] for i in distinct])
    shared_rows = [steps.shared[i] for i in distinct]
    cost = float(getattr(odds, "seconds_per_round", 0.0))
    per_round = max(1.0, len(steps.states) / max(1, rounds))
    estimate = cost * len(distinct) / per_round
    label = (
        f"shoe-aware tests: {len(distinct):,} distinct states of {rounds:,} rounds "
        f"(about {estimate:,.0f} s)"
    )
    batches = range(0, len(distinct), BATCH)
    parts = []
    for start in track(batches, label):
        chunk = rows[start : start + BATCH]
        if given:
            parts.append(odds(chunk, shared_rows[start : start + BATCH]))
        else:
            parts.append(odds(chunk))
    order = np.array(where, dtype=np.int64)
    ways: dict[str, tuple[list[str], Any]] = {}
    for bet, (labels, _) in parts[0].items():
        stacked = np.concatenate([part[bet][1] for part in parts])
        ways[bet] = (labels, stacked[order])
    return ways


def _settler(game: Game, config: Any) -> Callable[[tuple[str, ...]], dict[str, str]]:
    positions = game.positions
    cache: dict[tuple[str, ...], dict[str, str]] = {}

    def settle(hands: tuple[str, ...]) -> dict[str, str]:
        found = cache.get(hands)
        if found is None:
            if len(hands) != len(positions):
                raise OddsError("the shoe-aware tests need one row per round, every position")
            found = cache[hands] = game.settled_events(
                config, dict(zip(positions, hands, strict=True))
            )
        return found

    return settle


def aware_tests(rounds: AwareRounds, unit: str) -> list[ShoeTest]:
    """One shoe-aware test per bet (see the module docstring)."""
    return [_bet_test(rounds, bet, unit) for bet in rounds.ways]


def _bet_test(rounds: AwareRounds, bet: str, unit: str) -> ShoeTest:
    import numpy as np

    name = f"shoe-aware: bet {bet}"
    labels, exact = rounds.ways[bet]
    ways = exact.astype(float)
    totals = ways.sum(axis=1)
    p = ways / totals[:, None]
    index = {e: k for k, e in enumerate(labels)}
    observed = np.zeros_like(p)
    for i, settled in enumerate(rounds.events):
        event = settled.get(bet)
        if event is None or event not in index:
            raise OddsError(f"bet {bet}: settled event {event!r} is not in its state table")
        observed[i, index[event]] = 1
        if exact[i, index[event]] == 0:
            shoe = rounds.shoes[rounds.shoe_of[i]]
            text = (
                f"bet {bet}: shoe {shoe.label} shows {event} in a round where the cards "
                f"already seen leave it impossible ({unit} {rounds.lines[i]})"
            )
            return ShoeTest(name, math.inf, None, PValue(0.0, "impossible", 0.0), text, text)
    groups = _merge(p.sum(axis=0))
    if len(groups) < 2:
        return ShoeTest(name, 0.0, None, None, "not testable: fewer than two events to compare")
    pm = np.stack([p[:, g].sum(axis=1) for g in groups], axis=1)
    om = np.stack([observed[:, g].sum(axis=1) for g in groups], axis=1)
    d = (om - pm).sum(axis=0)
    v = np.diag(pm.sum(axis=0)) - pm.T @ pm
    k = len(groups) - 1
    q = float(d[:k] @ np.linalg.pinv(v[:k, :k]) @ d[:k])
    df = int(np.linalg.matrix_rank(v[:k, :k]))
    if df == 0:
        return ShoeTest(name, 0.0, None, None, "not testable: no event varies")
    z = d / np.sqrt(np.maximum(np.diag(v), 1e-300))
    worst = int(np.argmax(np.abs(z)))
    event = " + ".join(labels[i] for i in groups[worst])
    expected = pm.sum(axis=0)
    per_shoe = np.zeros(len(rounds.shoes))
    spread = np.zeros(len(rounds.shoes))
    np.add.at(per_shoe, np.array(rounds.shoe_of), om[:, worst] - pm[:, worst])
    np.add.at(spread, np.array(rounds.shoe_of), pm[:, worst] * (1 - pm[:, worst]))
    scores = np.sign(z[worst]) * per_shoe / np.sqrt(np.maximum(spread, 1e-300))
    top = int(np.argmax(scores))
    detail = (
        f"most deviant event: {event}, {int(om[:, worst].sum()):,} against "
        f"{expected[worst]:,.1f} expected given the cards seen (z = {z[worst]:+.2f})"
    )
    shoe = rounds.shoes[top]
    finding = (
        f"bet {bet}, given the cards each shoe had shown: {detail[len('most deviant event: ') :]};"
        f" most: shoe {shoe.label} ({per_shoe[top]:+.1f}, {shoe.span(unit)})"
    )
    return ShoeTest(name, q, df, PValue(chi2_sf(q, df), CHI_SQUARE, 0.0), detail, finding)


def _merge(expected: Any) -> list[list[int]]:
    """Events merged as the off-the-top tests merge cells (two smallest first, until ≥ 5)."""
    groups = [[k] for k in range(len(expected)) if expected[k] > 0]
    sizes = {tuple(g): float(expected[g[0]]) for g in groups}
    while len(groups) > 1:
        groups.sort(key=lambda g: (sizes[tuple(g)], g[0]))
        if sizes[tuple(groups[0])] >= MIN_EXPECTED:
            break
        merged = sorted(groups[0] + groups[1])
        sizes[tuple(merged)] = sizes[tuple(groups[0])] + sizes[tuple(groups[1])]
        groups = [merged, *groups[2:]]
    return sorted(groups, key=lambda g: g[0])
