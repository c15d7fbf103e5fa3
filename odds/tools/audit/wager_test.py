"""Each wager valued exactly at its shoe's state, and a test of who bets when the shoe favours them.

**Valuation.** Before round ``i`` of a shoe the cards of rounds ``1 … i − 1``
are gone; the next round is dealt from the rest (the burned cards, never
shown, change nothing by exchangeability). The game's shoe-state engine
(:meth:`odds.games.features.ShoeStateFeature.evaluator`, what ``odds shoe`` and
``odds exposure`` use) gives every bet's exact EV in that state, as a
fraction; beside it stands the bet's EV off the top of the shoe. Per account
and bet: the wagers, the stake, the actual net (each round settled by the
game), the expected net off the top (what the house expects of a blind
player), the expected net at the states it chose (what it could expect given
*when* it bet: the difference is the edge it captured) and the share of its
stake placed when the bet's EV was positive.

**The test.** Did the account's choice of when and how much to bet go with
the state's EV beyond chance? The statistic is the expected net at the states
chosen beyond the top of the shoe, ``T = Σ stake × (EV(state) − EV(top))``. It
is compared with what the account's pattern of wagers would have netted on the
other shoes of the log: shoes are dealt from independent shuffles and so are
exchangeable, and a random permutation of the shoes moves each shoe's pattern
onto another. Permuting *between* shoes, not within one, is what keeps an
account that bets late in every shoe, whatever the cards, from being named:
within a shoe a late round's EV is spread wider than an early one's (fewer
cards left), so moving late wagers to early rounds changes ``T``'s spread and
names such a bettor (measured: in more than half of 100 honest logs of 10
shoes, by ``python -m tests.measure.wager_power --within-shoe``).

**The null, and how a pattern is moved.** Null hypothesis: in each shoe the
account's stake on a bet in a round is ``ρ(d)``, where ``d`` is the depth (cards
shown) at which the round starts and ``ρ`` is a function of depth fixed
independently of that shoe's cards (it may differ from shoe to shoe, and be
random, but not look at the cards), which changes at most once between two
consecutive round starts of its shoe (past its last round: its last stake or
nothing). A bettor of the last third of every shoe
is such a ``ρ`` (one change, at two thirds), and so is a flat bettor. Under this
null the permutation would be exact if ``ρ`` were known at every depth; the log
shows it only at the depths where its own shoe's rounds start, and those are
the cards' doing (a round's size is). So each round of the other shoe, starting
at depth ``d``, is given the stake that makes the moved pattern net the most
among those the null allows there: the stake of the round of the account's own
shoe being dealt at ``d`` or of the next one to start (``"bound"``). The moved
statistic is then at least what the true ``ρ`` would give, the observed one is
unchanged (its own rounds are read exactly), and the p-value is at least the
exact permutation p-value: valid, conservative only where a pattern changes
between two of its rounds. Every round of the other shoe is read at its start:
each is a stopping time, whose state has the top of the shoe's EV for mean.

Moving each wager to the round *being dealt* at its depth in the other shoe
(``"dealt"``, the test until this mapping) meets a round with more cards more
often, and a round's size goes with its state: it named the late bettor in 3
of 100 honest logs of 100 shoes, above the 0.5% a log claimed. The first round
starting at or after the depth (``"next"``, a stopping time) and the stake of
the round being dealt without the bound (``"reverse"``) did no better on the
late bettor: whichever round a pattern's edge is moved to, that choice goes
with the cards, and for an account whose pattern is the same in every shoe the
permutations differ only at those edges. Both are kept (``mapping``) for the
power study to measure.

**Who is named.** An account and bet whose test Holm rejects *and* whose
expected net at the states it chose is a gain: it bets with the shoe, and the
shoe favours it there. One that goes with the shoe beyond chance but still
expects to lose is noted, not named: it is not beating the game. That is what
keeps an account whose stakes follow its own results (a martingale
progression) from being named. It is outside the null (its results are the
cards', so its stakes go with the state, weakly, and it captures that tiny
edge: in Pok Deng, whose rounds are all of four cards and where the
permutation is exact for the null, its p-value fell below Holm's threshold in
2 of 50 logs of 10 shoes), but an edge of a few thousandths of a percent
leaves it far below break-even on every bet with a house edge. Restricting the
rejections to gains can only lower the false-alarm rate of the accounts in the
null. An account that sizes its bets by results on a bet the shoe can turn
positive would need its rule replayed on the other shoes' results: not done.

P-values are seeded Monte Carlo: ``p = (1 + #{T* ≥ T}) / (1 + draws)``,
stopped early once :data:`EXCEEDANCES` permuted statistics reach ``T``
(Besag and Clifford's sequential p-value ``h / draws so far``, as valid, and
quick for an honest account). The draws are raised so that the smallest
p-value is at most half the strictest Holm threshold. Holm's step-down across
every account and bet keeps the chance of naming any honest account at most
the wager test's α (half the audit's).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.games.base import Game
from odds.runtime.progress import track
from odds.tools.audit.shoes import DealtRound, DealtShoe
from odds.tools.audit.wagers import Wager, WagerLog

#: Default Monte Carlo draws of the permutation test (raised when Holm needs smaller p-values).
DRAWS = 1999
#: A test stops early once this many permuted statistics reach the observed one.
EXCEEDANCES = 20
#: Draws evaluated together (one matrix of permutations shared by every account and bet; the
#: chance interval of an account stopped early is read from its draws so far, at least these).
CHUNK = 250
#: The seed of the permutations: the same log always gives the same p-values.
SEED = 20_370
#: How a wager pattern is moved onto another shoe (:func:`_targets`, :func:`_moves`): the test's
#: own, and the others the power study can measure (``python -m tests.measure.wager_power
#: --mapping``).
MAPPINGS = ("bound", "dealt", "next", "reverse")
MAPPING = MAPPINGS[0]
#: Rounds a finding names as weighing most.
NAMED_ROUNDS = 3


@dataclass(frozen=True)
class ShoeValues:
    """Every round's exact EV of each bet in its state, and each bet's EV off the top."""

    bets: tuple[str, ...]
    top: dict[str, Fraction]
    evs: tuple[tuple[dict[str, Fraction] | None, ...], ...]  # shoe → round → bet (None: impossible)
    #: shoe → the cards shown before each round, then after the last (one more entry)
    depths: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True)
class AccountBet:
    """One account's wagers on one bet: what it staked, won, could expect, and the test."""

    account: str
    bet: str
    wagers: int
    shoes: int
    staked: Fraction
    actual: Fraction | None  # actual net (None: the log's rounds cannot be settled)
    top: Fraction  # expected net off the top of the shoe
    chosen: Fraction  # expected net at the states it bet in
    positive: Fraction  # stake placed when the bet's EV was positive
    p: float
    draws: int
    #: 95% range of T*/staked over the permutations: a blind bettor's edge (at its bound)
    chance: tuple[float, float]
    weighing: tuple[str, ...]  # the wagers that weigh most in the edge
    #: Holm rejects its test: its stakes go with the state's EV beyond chance
    beyond_chance: bool = False

    @property
    def named(self) -> bool:
        """Beyond chance *and* expecting to win at the states it chose (:func:`judge_wagers`)."""
        return self.beyond_chance and self.chosen > 0

    @property
    def edge(self) -> Fraction:
        """The edge captured: expected net at its states beyond off the top, per unit staked."""
        return (self.chosen - self.top) / self.staked

    @property
    def positive_share(self) -> Fraction:
        return self.positive / self.staked


@dataclass(frozen=True)
class WagerAudit:
    """The wager section of an audit: the log read, every account and bet tested, Holm's verdict."""

    log: WagerLog
    alpha: float
    results: tuple[AccountBet, ...]
    draws: int
    seed: int
    shoes: int
    notes: tuple[str, ...] = ()

    @property
    def named(self) -> tuple[AccountBet, ...]:
        return tuple(r for r in self.results if r.named)

    @property
    def losing(self) -> tuple[AccountBet, ...]:
        """Beyond chance, but expecting to lose at the states it chose: noted, not named."""
        return tuple(r for r in self.results if r.beyond_chance and not r.named)

    @property
    def flagged(self) -> bool:
        """An account named: evidence. A rejected wager row is not (it makes the audit
        inconclusive, never a pass: :attr:`odds.tools.audit.audit.AuditResult.verdict`)."""
        return bool(self.named)


def value_shoes(
    game: Game, config: Any, shoes: Sequence[DealtShoe], bets: Sequence[str]
) -> ShoeValues:
    """Each round's state (the full shoe less the cards shown before it in its shoe), valued."""
    feature = game.shoe_state
    if feature is None:
        raise OddsError(f"--wagers: {game.name} has no shoe-state engine to value wagers with")
    evaluator = feature.evaluator(config)
    known = {b.name for b in evaluator.bets}
    missing = [b for b in bets if b not in known]
    if missing:
        raise OddsError(f"--wagers: the shoe-state engine does not value bet {missing[0]!r}")
    full = evaluator.full
    top_all = evaluator.evs(full)
    top = {b: top_all[b] for b in bets}
    valued: list[tuple[dict[str, Fraction] | None, ...]] = []
    depths: list[tuple[int, ...]] = []
    for shoe in track(shoes, "valuing every round's state"):
        counts = list(full)
        rounds: list[dict[str, Fraction] | None] = []
        shown = [0]
        possible = True
        for dealt in shoe.rounds:
            shown.append(shown[-1] + len(dealt.cards))
            if possible:
                try:
                    evs = evaluator.evs(counts)
                    rounds.append({b: evs[b] for b in bets})
                except OddsError:
                    possible = False
            if not possible:
                rounds.append(None)
            for card in dealt.cards:
                counts[card] -= 1
        valued.append(tuple(rounds))
        depths.append(tuple(shown))
    return ShoeValues(tuple(bets), top, tuple(valued), tuple(depths))


def unit_nets(game: Game, config: Any, dealt: DealtRound, seat: int | None) -> dict[str, Fraction]:
    """Each bet's net per unit staked in a logged round, settled by the game ({}: cannot)."""
    if not dealt.hands:
        return {}
    hands = dict(zip(game.positions, dealt.hands, strict=True))
    if seat is not None:
        own = next(p for p in game.positions if p not in game.shared_positions)
        hands[own] = dealt.seats[seat - 1]
    try:
        settled = game.settle(config, hands, Fraction(1))
    except OddsError:
        return {}
    return {b.bet: b.net / b.stake for b in settled.bets}


def judge_wagers(
    game: Game,
    config: Any,
    shoes: Sequence[DealtShoe],
    log: WagerLog,
    alpha: float,
    draws: int = DRAWS,
    seed: int = SEED,
    values: ShoeValues | None = None,
    within: bool = False,
    mapping: str = MAPPING,
) -> WagerAudit:
    """Value every wager and test every account and bet (see the module docstring).

    ``values`` lets a caller that values the shoes once (the power study) pass them in.
    ``mapping`` says how a pattern is moved onto another shoe (:data:`MAPPINGS`; only
    :data:`MAPPING` is the test the audit runs). ``within`` permutes each wager among the
    rounds of its own shoe instead: the test this module does *not* use, kept so the power
    study can measure why (``--within-shoe``).
    """
    import numpy as np

    if draws < 1:
        raise OddsError(f"--wager-draws must be at least 1, got {draws}")
    if mapping not in MAPPINGS:
        raise OddsError(f"unknown wager mapping {mapping!r} (one of {', '.join(MAPPINGS)})")
    bets = tuple(dict.fromkeys(w.bet for w in log.wagers))
    if values is None:
        values = value_shoes(game, config, shoes, bets)
    notes = list(log.notes)
    wagers = [w for w in log.wagers if values.evs[w.shoe][w.round] is not None]
    if len(wagers) < len(log.wagers):
        notes.append(
            f"{len(log.wagers) - len(wagers):,} wager(s) in rounds whose shoe had shown more "
            "cards than it holds were not valued (the round audit names those shoes)"
        )
    groups: dict[tuple[str, str], list[Wager]] = defaultdict(list)
    for w in wagers:
        groups[(w.account, w.bet)].append(w)
    keys = sorted(groups)
    m = len(keys)
    if m:  # the smallest p-value must clear the strictest Holm threshold, with room
        draws = max(draws, math.ceil(2 * m / alpha) - 1)
    targets = {b: _targets(values, b, mapping) for b in bets}
    rounds_matrix = {b: _by_round(values, b) for b in bets} if within else {}
    n = len(shoes)
    nets: dict[tuple[int, int, int | None], dict[str, Fraction]] = {}
    rows: list[AccountBet] = []
    tests: list[_Test] = []
    for key in keys:
        group = groups[key]
        bet = key[1]
        top_ev = values.top[bet]
        staked = sum((w.stake for w in group), Fraction(0))
        evs = [_ev(values, w) for w in group]
        chosen = sum((w.stake * e for w, e in zip(group, evs, strict=True)), Fraction(0))
        positive = sum((w.stake for w, e in zip(group, evs, strict=True) if e > 0), Fraction(0))
        actual: Fraction | None = Fraction(0)
        for w in group:
            where = (w.shoe, w.round, w.seat)
            if where not in nets:
                nets[where] = unit_nets(game, config, shoes[w.shoe].rounds[w.round], w.seat)
            unit = nets[where].get(bet)
            if unit is None or actual is None:
                actual = None
            else:
                actual += w.stake * unit
        weigh = sorted(
            zip(group, evs, strict=True), key=lambda pair: -pair[0].stake * (pair[1] - top_ev)
        )[:NAMED_ROUNDS]
        weighing = tuple(
            f"{_round_name(shoes, w)} (wager {log.unit} {w.line}: stake {_money(w.stake)} "
            f"at EV {float(e):+.2%})"
            for w, e in weigh
        )
        test = _Test(
            np.array([w.shoe for w in group]),
            np.array([w.round for w in group]),
            np.array([float(w.stake) for w in group]),
            float(top_ev),
            _moves(values, group, targets[bet], mapping, n),
            rounds_matrix.get(bet),
        )
        tests.append(test)
        rows.append(
            AccountBet(
                key[0],
                bet,
                len(group),
                len({w.shoe for w in group}),
                staked,
                actual,
                staked * top_ev,
                chosen,
                positive,
                1.0,
                0,
                (0.0, 0.0),
                weighing,
            )
        )
    lengths = [len(shoe.rounds) for shoe in shoes] if within else None
    _permute(tests, n, draws, seed, lengths)
    from dataclasses import replace

    results = []
    for row, test in zip(rows, tests, strict=True):
        scale = float(row.staked)
        low, high = (
            np.quantile(np.array(test.seen), [0.025, 0.975]) if test.seen else (test.t, test.t)
        )
        results.append(replace(row, p=test.p, draws=test.done, chance=(low / scale, high / scale)))
    rejected = holm([r.p for r in results], alpha)
    results = [replace(r, beyond_chance=k) for r, k in zip(results, rejected, strict=True)]
    if n < 2 and results:
        notes.append("one shoe only: no other shoe to compare an account's pattern with")
    return WagerAudit(log, alpha, tuple(results), draws, seed, n, tuple(notes))


def holm(ps: Sequence[float], alpha: float) -> list[bool]:
    """Holm's step-down: which hypotheses are rejected at family-wise level ``alpha``."""
    order = sorted(range(len(ps)), key=ps.__getitem__)
    rejected = [False] * len(ps)
    for rank, i in enumerate(order):
        if ps[i] > alpha / (len(ps) - rank):
            break
        rejected[i] = True
    return rejected


def _ev(values: ShoeValues, w: Wager) -> Fraction:
    state = values.evs[w.shoe][w.round]
    assert state is not None
    return state[w.bet]


def _round_name(shoes: Sequence[DealtShoe], w: Wager) -> str:
    shoe = shoes[w.shoe]
    return f"shoe {shoe.label} round {shoe.rounds[w.round].label or w.round + 1}"


def _money(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _targets(values: ShoeValues, bet: str, mapping: str) -> Any:
    """Shoes × cards shown: where a wager moved to that depth of a shoe lands, as the bet's
    EV there less its top-of-shoe EV (a float: only to decide; 0 where nothing is dealt).

    ``next`` (the test): the first round starting at or after the depth, a stopping time of
    the target shoe. ``dealt`` (the mapping before, kept to measure it): the round being dealt
    when that many cards have been shown, which meets a round with more cards more often.
    ``reverse``: the matrix holds each round's EV at its start only (zero between), to be
    read by the stakes the source shoe had at each depth (:func:`_moves`).
    """
    import numpy as np

    top = values.top[bet]
    width = max((d[-1] for d in values.depths), default=0) + 1
    matrix = np.zeros((len(values.evs), width))
    for s, (rounds, shown) in enumerate(zip(values.evs, values.depths, strict=True)):
        following = 0.0  # past the last round that can be valued: the top EV, every state's mean
        end = width
        for r in range(len(rounds) - 1, -1, -1):
            state = rounds[r]
            if state is None:
                continue
            dev = float(state[bet] - top)
            if mapping == "next":
                matrix[s, shown[r] + 1 : end] = following
                matrix[s, shown[r]] = dev
                following, end = dev, shown[r]
            elif mapping == "dealt":
                matrix[s, shown[r] : shown[r + 1]] = dev
            else:  # reverse, bound: read at the round's start only
                matrix[s, shown[r]] = dev
        if mapping == "next":
            matrix[s, :end] = following
    return matrix


def _moves(values: ShoeValues, group: Sequence[Wager], targets: Any, mapping: str, n: int) -> Any:
    """Shoes × shoes: what the account's wagers in shoe ``a`` (row) would net beyond the top
    EV if moved onto shoe ``b`` (column); the diagonal is what they did.

    ``next`` and ``dealt`` move each wager to its depth in the other shoe (:func:`_targets`).
    ``reverse`` asks instead, for every round of the other shoe, what the account staked in
    the round of its own shoe that was being dealt at that round's starting depth.
    """
    import numpy as np

    width = targets.shape[1]
    stakes = np.zeros((n, width))
    if mapping not in ("reverse", "bound"):
        for w in group:
            stakes[w.shoe, values.depths[w.shoe][w.round]] += float(w.stake)
        return stakes @ targets.T
    placed: dict[tuple[int, int], float] = defaultdict(float)
    for w in group:
        placed[(w.shoe, w.round)] += float(w.stake)
    after = np.zeros((n, width))  # the stake of the next round starting at or after each depth
    for s in {w.shoe for w in group}:
        shown = values.depths[s]
        for r in range(len(shown) - 1):
            stake = placed.get((s, r), 0.0)
            stakes[s, shown[r] : shown[r + 1]] = stake
            after[s, (shown[r - 1] + 1 if r else 0) : shown[r] + 1] = stake
        stakes[s, shown[-1] :] = stakes[s, shown[-1] - 1]
    if mapping == "reverse":
        return stakes @ targets.T
    high, low = np.maximum(stakes, after), np.minimum(stakes, after)
    return high @ np.maximum(targets, 0).T + low @ np.minimum(targets, 0).T


def _by_round(values: ShoeValues, bet: str) -> Any:
    """Shoes × rounds of the bet's state EV (the top EV past a shoe's end): the within-shoe
    permutation's matrix (:func:`judge_wagers` ``within``)."""
    import numpy as np

    top = float(values.top[bet])
    width = max((len(s) for s in values.evs), default=1)
    matrix = np.full((len(values.evs), max(width, 1)), top)
    for s, rounds in enumerate(values.evs):
        for r, state in enumerate(rounds):
            if state is not None:
                matrix[s, r] = float(state[bet])
    return matrix


class _Test:
    """One account and bet in the permutation test: its moves, its running count."""

    def __init__(
        self, shoes: Any, rounds: Any, stakes: Any, top: float, moves: Any, by_round: Any
    ) -> None:
        import numpy as np

        self.shoes, self.rounds, self.stakes, self.top = shoes, rounds, stakes, top
        self.own = np.unique(shoes)  # the shoes it bet in: the other rows of ``moves`` are 0
        self.moves = moves[self.own]
        self.by_round = by_round
        self.t = float(moves[self.own, self.own].sum())
        self.tolerance = 1e-9 * max(1.0, float(abs(stakes).sum()))
        self.reached = 0
        self.done = 0
        self.stopped = False
        self.p = 1.0
        self.seen: list[float] = []


def _permute(
    tests: list[_Test], n: int, draws: int, seed: int, lengths: Sequence[int] | None = None
) -> None:
    """Run the permutations: each draw maps every shoe to another, shared by all the tests.

    With ``lengths`` (each shoe's rounds) each draw permutes the rounds within every shoe
    instead (the within-shoe test the power study measures against).
    """
    import numpy as np

    rng = np.random.default_rng(seed)
    if lengths is not None:
        width = max(lengths)
        past = np.arange(width)[None, :] >= np.array(lengths)[:, None]  # shoes × rounds
    if n < 2 and lengths is None:
        for test in tests:
            test.p, test.stopped = 1.0, True
        return
    base = np.arange(n)
    done = 0
    while done < draws and not all(t.stopped for t in tests):
        size = min(CHUNK, draws - done)
        if lengths is None:
            perms = rng.permuted(np.tile(base, (size, 1)), axis=1)
        else:
            keys = rng.random((size, n, width))
            keys[:, past] = np.inf  # rounds past a shoe's end sort last: never drawn
            orders = np.argsort(keys, axis=2)
        for test in tests:
            if test.stopped:
                continue
            if lengths is None:
                rows = np.arange(len(test.own))
                stats = test.moves[rows, perms[:, test.own]].sum(axis=1)
            else:
                moved = orders[:, test.shoes, test.rounds]
                stats = (test.by_round[test.shoes, moved] - test.top) @ test.stakes
            hits = np.cumsum(stats >= test.t - test.tolerance)
            test.seen.extend(stats.tolist())
            total = test.reached + int(hits[-1])
            if total >= EXCEEDANCES:  # Besag–Clifford: stop at the h-th, p = h / draws so far
                at = int(np.searchsorted(hits, EXCEEDANCES - test.reached)) + 1
                test.done, test.stopped = done + at, True
                test.p = EXCEEDANCES / test.done
                continue
            test.reached = total
            test.done = done + size
        done += size
    for test in tests:
        if not test.stopped:
            test.p = (test.reached + 1) / (test.done + 1)
