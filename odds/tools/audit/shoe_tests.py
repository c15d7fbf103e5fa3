"""Shoe-aware tests: each round against its exact odds given the cards its shoe has shown.

The off-the-top tests compare a log's outcome counts with the odds of a full
shoe. A live shoe is dealt through: before round ``i`` the cards of rounds
``1 … i − 1`` are gone, and (the burned cards being unseen and the shuffle
fair) round ``i`` is dealt as if from the full shoe less exactly those cards.
The per-state engine (:mod:`odds.games.shoe_state`; baccarat's and Dragon
Tiger's event tables evaluated for a composition) gives every bet's exact
event probabilities ``p_i`` for that state.

For each bet, with ``O`` the observed event counts, ``E = Σ p_i`` and
``V = Σ (diag p_i − p_i p_iᵀ)``, the statistic is ``Q = (O − E)ᵀ V⁻¹ (O − E)``
over all events but one (sparse events merged by the off-the-top test's
rule). ``O − E`` is a sum of martingale differences (each round's ``p_i`` is
fixed before it is dealt), so ``Q`` is χ² with (events − 1) degrees of
freedom for many rounds whatever the dependence between the rounds of a shoe;
the false-alarm rate at 1 to 10,000 rounds is measured
(:mod:`odds.tools.audit.power`, the table in ``docs/commands/audit.md``).
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
:data:`MAX_ROUNDS` rounds are evaluated (whole shoes, from the first), about
2 to 3 ms each for baccarat; the estimate is in the result, progress (with an
ETA) on a terminal.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from odds.core.errors import OddsError
from odds.games.base import Game
from odds.runtime.progress import track
from odds.stats.chisquare import MIN_EXPECTED, chi2_sf
from odds.stats.significance import CHI_SQUARE, PValue
from odds.tools.audit.shoes import DealtShoe, ShoeTest

#: Shoes whose cards run past what the shoe holds named in the notes (all are counted).
NAMED_IMPOSSIBLE = 3
#: At most this many rounds are evaluated by the per-state engine (whole shoes, first ones).
MAX_ROUNDS = 20_000

#: Event ways of a batch of states (rows of type counts): ``{bet: (event labels, ways)}``,
#: ``ways`` an integer array (states × events) whose rows each add up to the state's total.
StateOdds = Callable[[Any], dict[str, tuple[list[str], Any]]]


def state_odds(game: Game, config: Any) -> tuple[StateOdds, int] | None:
    """The per-state event table of a game and the cards a round may need, or None.

    Baccarat (every coup bet and the pair bets, state by state) and Dragon Tiger
    (its event polynomial over a batch of states at once) have one.
    """
    from odds.games.baccarat.options import BaccaratConfig
    from odds.games.dragon_tiger.options import DragonTigerConfig

    if isinstance(config, BaccaratConfig):
        from odds.games.baccarat.bets import bet_specs
        from odds.games.baccarat.counting import COUP_CARDS
        from odds.games.baccarat.state_values import state_event_ways

        names = _event_labels(bet_specs(config))

        def baccarat(states: Any) -> dict[str, tuple[list[str], Any]]:
            return _stacked([state_event_ways(config, list(s)) for s in states.tolist()], names)

        return baccarat, COUP_CARDS
    if isinstance(config, DragonTigerConfig):
        from odds.games.dragon_tiger.counting import ROUND_CARDS, event_polynomial
        from odds.games.dragon_tiger.counting import bet_specs as dragon_specs

        specs = dragon_specs(config)
        polynomial = event_polynomial(config, config.shoe.build().types)
        column = {key: i for i, key in enumerate(polynomial.keys)}

        def dragon_tiger(states: Any) -> dict[str, tuple[list[str], Any]]:
            import numpy as np

            numerators = np.asarray(polynomial.numerators(states), dtype=np.int64)
            found = {}
            for spec in specs:
                labels = list(dict.fromkeys(e.label for e in spec.events))
                ways = np.zeros((len(states), len(labels)), dtype=np.int64)
                for event in spec.events:
                    index = column.get((spec.name, event.key))
                    if index is not None:
                        ways[:, labels.index(event.label)] += numerators[:, index]
                found[spec.name] = (labels, ways)
            return found

        return dragon_tiger, ROUND_CARDS
    del game
    return None


def _event_labels(specs: Sequence[Any]) -> dict[str, dict[str, str]]:
    """Each bet's event keys to the labels its settlement (and outcome table) uses."""
    return {s.name: {str(e.key): e.label for e in s.events} for s in specs}


def _stacked(
    states: list[dict[str, dict[Any, int]]], names: dict[str, dict[str, str]]
) -> dict[str, tuple[list[str], Any]]:
    """State-by-state ways as one array per bet, by event label (shared labels added up)."""
    import numpy as np

    found = {}
    for bet, events in states[0].items():
        labels = list(dict.fromkeys(names[bet][str(k)] for k in events))
        ways = np.zeros((len(states), len(labels)), dtype=object)
        for i, state in enumerate(states):
            for key, w in state[bet].items():
                ways[i, labels.index(names[bet][str(key)])] += w
        found[bet] = (labels, ways)
    return found


@dataclass(frozen=True)
class AwareRounds:
    """Every evaluated round: its shoe, its state's event ways per bet and its settled events."""

    shoes: tuple[DealtShoe, ...]
    shoe_of: tuple[int, ...]  # index into shoes, per round
    lines: tuple[int, ...]  # each round's line
    ways: dict[str, tuple[list[str], Any]]  # per bet: event labels, ways (rounds × events)
    events: tuple[dict[str, str], ...]
    notes: tuple[str, ...]
    impossible: tuple[str, ...]  # rounds whose state the shoe cannot reach (integrity names them)


def evaluate_rounds(
    game: Game,
    config: Any,
    odds: StateOdds,
    round_cards: int,
    shoes: Sequence[DealtShoe],
    settle: Callable[[tuple[str, ...]], dict[str, str]] | None = None,
) -> AwareRounds:
    """The state before every round and its exact event ways (bounded, with progress)."""
    import numpy as np

    full = np.array(game.shoe(config).counts, dtype=np.int64)
    chosen: list[DealtShoe] = []
    total = 0
    for dealt in shoes:
        if total + len(dealt.rounds) > MAX_ROUNDS and chosen:
            break
        chosen.append(dealt)
        total += len(dealt.rounds)
    notes = []
    if len(chosen) < len(shoes):
        notes.append(
            f"the shoe-aware tests cover the first {len(chosen):,} of {len(shoes):,} shoes "
            f"({total:,} rounds; at most {MAX_ROUNDS:,} rounds are evaluated exactly)"
        )
    settle = settle or _settler(game, config)
    parts: list[dict[str, tuple[list[str], Any]]] = []
    events: list[dict[str, str]] = []
    shoe_of: list[int] = []
    lines: list[int] = []
    impossible: list[str] = []
    # The work is known before it starts: one exact evaluation per round (progress and ETA
    # by shoe on a terminal; the rounds are counted above and capped at MAX_ROUNDS).
    label = f"shoe-aware tests: the exact odds of {total:,} rounds, shoe by shoe"
    for j, dealt in enumerate(track(chosen, label)):
        taken = np.zeros((len(dealt.rounds), len(full)), dtype=np.int64)
        for i, dealt_round in enumerate(dealt.rounds[:-1]):
            np.add.at(taken[i + 1], np.array(dealt_round.cards, dtype=np.int64), 1)
        states = full - np.cumsum(taken, axis=0)
        valid = (states.min(axis=1) >= 0) & (states.sum(axis=1) >= round_cards)
        usable = len(dealt.rounds) if valid.all() else int(np.argmin(valid))
        if usable < len(dealt.rounds) and len(impossible) < NAMED_IMPOSSIBLE:
            impossible.append(
                f"shoe {dealt.label}: the cards shown before round "
                f"{dealt.rounds[usable].label} are more than the shoe holds; its later rounds "
                "are not tested shoe-aware"
            )
        if not usable:
            continue
        parts.append(odds(states[:usable]))
        for dealt_round in dealt.rounds[:usable]:
            events.append(settle(dealt_round.hands))
            shoe_of.append(j)
            lines.append(dealt_round.line)
    tested = Counter(shoe_of)
    cut = sum(1 for j, d in enumerate(chosen) if tested[j] < len(d.rounds))
    if cut > len(impossible):
        impossible.append(f"… {cut - len(impossible):,} more shoes like these")
    ways: dict[str, tuple[list[str], Any]] = {}
    if parts:
        for bet, (labels, _) in parts[0].items():
            ways[bet] = (labels, np.concatenate([part[bet][1] for part in parts]))
        notes.append(
            f"shoe-aware tests: {len(events):,} rounds evaluated exactly from the cards seen"
        )
    return AwareRounds(
        tuple(chosen),
        tuple(shoe_of),
        tuple(lines),
        ways,
        tuple(events),
        tuple(notes),
        tuple(impossible),
    )


def _settler(game: Game, config: Any) -> Callable[[tuple[str, ...]], dict[str, str]]:
    from fractions import Fraction

    positions = game.positions
    cache: dict[tuple[str, ...], dict[str, str]] = {}

    def settle(hands: tuple[str, ...]) -> dict[str, str]:
        found = cache.get(hands)
        if found is None:
            if len(hands) != len(positions):
                raise OddsError("the shoe-aware tests need one row per round, every position")
            settlement = game.settle(config, dict(zip(positions, hands, strict=True)), Fraction(1))
            found = cache[hands] = {b.bet: b.event for b in settlement.bets}
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
