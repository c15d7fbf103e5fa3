"""The audit's power and false-alarm rates, measured by seeded simulation.

``python -m tests.measure.power [--reps N] [--quick]`` prints the tables
``docs/commands/audit.md`` shows (Markdown on stdout; progress with an ETA on
a terminal). Every log is dealt by :mod:`tests.measure.independent_dealer`
(not by ``odds simulate``), with the faults of :mod:`odds.tools.audit.faults`,
and judged by the audit's own test functions (the statistics the audit runs
once it has read a log; no CSV round trip, so thousands of logs take minutes).

* **Power**: for each fault, the smallest number of shoes (or rounds) on a
  grid at which the audit flags it in at least 80% of the logs. A fault is
  judged by the tests aimed at it (shoe integrity and the frequency tests for
  a doctored shoe, the shuffle tests for a shuffle, the Banker bet's tests for
  improved Banker hands), each at the audit's per-test threshold α/K with K
  the number of tests in a full audit of such a log (Tarone's K once every
  test can reach α/K, which holds from about one shoe on). The other tests
  can only add to the flags, so the figures are what the audit achieves at
  least.
* **Shoe-aware against off the top**: on the same doctored Dragon Tiger shoes,
  the share flagged by the shoe-aware tests alone and by the off-the-top tests
  alone; the same for Pok Deng (five seats against the Banker), with the
  false-alarm rate of its shoe-aware tests on honest logs of 1 to 10,000 rounds.
* **False alarms**: honest logs of 1 to 500 shoes (and 1 to 10,000 rounds for
  the shoe-aware tests); each family of tests at level α, which must flag at
  most α plus three standard deviations of the simulation; and ``--by dealer``
  on baccarat logs whose shoes 8 dealers deal in turn (the groups' family at
  α/2, as the audit runs it).

Two figures are computed rather than dealt: mis-settled rounds (the
settlement audit recomputes every payout, so one mis-settled bet flags the
log: 80% needs ``⌈ln 0.2 / ln(1 − 1/1000)⌉`` rounds, confirmed by binomial
draws) and improved Banker hands (counts drawn from the exact off-the-top law
of the fault: a share of the Player's wins re-dealt as fresh coups; the
hundreds of thousands of rounds it takes are too many to deal here).
"""

from __future__ import annotations

import argparse
import functools
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.games.paytable import TABLES, Paytable, load_file
from odds.runtime.progress import track
from odds.tools.audit.faults import Faults
from odds.tools.audit.shoes import DealtRound, DealtShoe
from tests.measure.independent_dealer import dealer_for

ALPHA = 0.01
#: The share of logs a fault must be flagged in.
TARGET = 0.8
#: The sizes (shoes) the search tries, smallest first.
SHOE_GRID = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 80, 100, 120, 150,
             200, 250, 300)  # fmt: skip
#: Rounds the search tries for the outcome faults.
ROUND_GRID = tuple(int(x) for x in (1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 1.5e5, 2e5, 3e5, 4e5,
                                    5e5, 7e5, 1e6, 1.5e6, 2e6, 3e6, 5e6))  # fmt: skip


def paytable(name: str) -> Paytable:
    return load_file(TABLES / f"{name}.toml")


def audit_tests(table: Paytable) -> int:
    """K: the tests a full audit of a shoe-ordered log of this game runs."""
    analysis = table.bet_analysis()
    classes = len(table.game.positions) if analysis.hand_classes else 0
    aware = len(analysis.bets)
    return 2 * len(analysis.bets) + classes + 4 + aware + 3


def allowed(logs: int, alpha: float = ALPHA) -> float:
    """The most flags honest logs may show: α·logs plus three standard deviations."""
    return alpha * logs + 3 * math.sqrt(alpha * (1 - alpha) * logs)


# ---------------------------------------------------------------------------
# Judging one log


def integrity_fails(shoes: Sequence[DealtShoe], holds: Sequence[int]) -> bool:
    """A card dealt from a shoe more often than the shoe holds it (shoe integrity)."""
    from collections import Counter

    for shoe in shoes:
        for card, n in Counter(shoe.cards).items():
            if n > holds[card]:
                return True
    return False


def shoe_family_fails(
    table: Paytable, shoes: Sequence[DealtShoe], threshold: float, names: Sequence[str]
) -> bool:
    """Whether any shoe-level test whose name starts with one of ``names`` fails."""
    from odds.tools.audit.frequencies import frequency_tests
    from odds.tools.audit.shuffle import shuffle_tests

    shoe = table.game.shoe(table.config)
    tests = []
    if any(n.endswith("frequencies") for n in names):
        tests += frequency_tests(shoe, shoes, "line", decide=threshold)
    if any(n.startswith("shuffle") for n in names):
        tests += shuffle_tests(shoe, shoes, "line")
    return any(
        t.p is not None and t.p.value < threshold for t in tests if t.name.startswith(tuple(names))
    )


def aware_fails(table: Paytable, shoes: Sequence[DealtShoe], threshold: float) -> bool:
    """Whether any shoe-aware test fails (the per-state engine, every bet)."""
    from odds.tools.audit.shoe_tests import aware_tests, evaluate_rounds, state_odds

    found = state_odds(table.game, table.config)
    assert found is not None
    rounds = evaluate_rounds(table.game, table.config, *found, shoes)
    return any(t.p is not None and t.p.value < threshold for t in aware_tests(rounds, "line"))


def off_the_top_fails(
    table: Paytable, shoes: Sequence[DealtShoe], threshold: float, hand_classes: bool = True
) -> bool:
    """Whether any off-the-top test (every bet's events and return, hand classes) fails.

    In a log with seats (Pok Deng) only each round's first occupied seat enters the
    tests, as in the audit (seats share the Banker's hand, and the off-the-top tests
    need independent rounds). ``hand_classes=False`` leaves the hand-class tests out:
    the bets' tests alone, the off-the-top counterpart of the shoe-aware tests.
    """
    from odds.tools.audit.audit import evaluate, tally
    from odds.tools.audit.reader import SettledGroup

    settle = _settle(table)
    counts: dict[tuple[str, ...], int] = {}
    for shoe in shoes:
        for dealt in shoe.rounds:
            for hands in seat_hands(table, dealt)[:1]:
                counts[hands] = counts.get(hands, 0) + 1
    groups = [SettledGroup(settle(hands), n) for hands, n in counts.items()]
    fits, returns, _ = evaluate(table.bet_analysis(), tally(groups), ALPHA, table.game.positions)
    if not hand_classes:
        fits = [t for t in fits if not t.name.startswith("hand classes")]
    values = [t.p_value for t in fits] + [t.p_value for t in returns]
    return any(v is not None and v < threshold for v in values)


def by_dealer_fails(
    table: Paytable,
    shoes: Sequence[DealtShoe],
    dealers: int,
    alpha: float,
    bet_nets: Callable[[tuple[str, ...]], Sequence[tuple[str, Fraction]]] | None = None,
) -> bool:
    """Whether ``--by dealer`` names any dealer: each shoe dealt by the next of ``dealers``.

    The groups' return tests, Tarone's screen and Holm's step-down are the audit's own
    (:func:`odds.tools.audit.groups.evaluate_groups`), at ``alpha`` (the audit gives the
    groups' family α/2 of its α); a round enters with its first occupied seat, as in
    :func:`off_the_top_fails`. ``bet_nets``: one :func:`_bet_nets` shared by many logs.
    """
    from collections import Counter

    from odds.tools.audit.audit import net_distribution
    from odds.tools.audit.groups import GroupCounts, evaluate_groups

    bet_nets = bet_nets or _bet_nets(table)
    dealt_hands: dict[str, Counter[tuple[str, ...]]] = {}
    for i, shoe in enumerate(shoes):
        found = dealt_hands.setdefault(f"dealer {i % dealers + 1}", Counter())
        for dealt in shoe.rounds:
            found.update(seat_hands(table, dealt)[:1])
    groups = []
    for name, found in sorted(dealt_hands.items()):
        nets: dict[str, Counter[Fraction]] = {}
        for hands, n in found.items():
            for bet, net in bet_nets(hands):
                nets.setdefault(bet, Counter())[net] += n
        if found:
            groups.append(GroupCounts("dealer", name, found.total(), 0, 0, nets))
    distributions = {bet.name: net_distribution(bet) for bet in table.bet_analysis().bets}
    return evaluate_groups(distributions, groups, alpha).flagged


def seat_hands(table: Paytable, dealt: DealtRound) -> list[tuple[str, ...]]:
    """The hands the audit settles for one round: the round, or each occupied seat's."""
    if not dealt.seats:
        return [dealt.hands]
    positions = table.game.positions
    seated = next(i for i, p in enumerate(positions) if p not in table.game.shared_positions)
    return [
        (*dealt.hands[:seated], seat, *dealt.hands[seated + 1 :]) for seat in dealt.seats if seat
    ]


def _settle(table: Paytable) -> Callable[[tuple[str, ...]], Any]:
    """The game's settlement of a round's hands, each kind settled once (for one call)."""
    positions = table.game.positions
    settled: dict[tuple[str, ...], Any] = {}

    def settle(hands: tuple[str, ...]) -> Any:
        if hands not in settled:
            settled[hands] = table.game.settle(
                table.config, dict(zip(positions, hands, strict=True)), Fraction(1)
            )
        return settled[hands]

    return settle


def _bet_nets(table: Paytable) -> Callable[[tuple[str, ...]], Sequence[tuple[str, Fraction]]]:
    """Each bet's net per unit staked for a round's hands, each kind settled once."""
    settle = _settle(table)
    found: dict[tuple[str, ...], tuple[tuple[str, Fraction], ...]] = {}

    def bet_nets(hands: tuple[str, ...]) -> tuple[tuple[str, Fraction], ...]:
        if hands not in found:
            found[hands] = tuple((bet.bet, bet.net / bet.stake) for bet in settle(hands).bets)
        return found[hands]

    return bet_nets


# ---------------------------------------------------------------------------
# Experiments


@dataclass(frozen=True)
class Experiment:
    """A fault, the tests aimed at it, and how one log of ``size`` shoes is judged."""

    fault: str
    tests: str
    game: str
    faults: Faults
    judge: Callable[[Paytable, list[DealtShoe], float], bool]


def _doctored(table: Paytable, shoes: list[DealtShoe], threshold: float) -> bool:
    holds = table.game.shoe(table.config).counts
    return integrity_fails(shoes, holds) or shoe_family_fails(
        table, shoes, threshold, ("rank frequencies", "suit frequencies")
    )


def _shuffled(table: Paytable, shoes: list[DealtShoe], threshold: float) -> bool:
    return shoe_family_fails(table, shoes, threshold, ("shuffle:",))


def _cards(table: Paytable, text: str, times: int = 1) -> tuple[int, ...]:
    shoe = table.game.shoe(table.config)
    return tuple(shoe.index(c) for c in table.game.parse_hand(table.config, text)) * times


def experiments() -> list[Experiment]:
    bac = paytable("baccarat")
    return [
        Experiment(
            f"{k} extra 9{'s' if k > 1 else ''} in every shoe (9♥ first, then 9♠, 9♦, 9♣)",
            "shoe integrity, rank and suit frequencies",
            "baccarat",
            Faults(extra=_cards(bac, " ".join(["9h", "9s", "9d", "9c"][:k]))),
            _doctored,
        )
        for k in (1, 2, 4)
    ] + [
        Experiment(
            "one card (a 9♥) missing from every shoe",
            "rank and suit frequencies",
            "baccarat",
            Faults(missing=_cards(bac, "9h")),
            _doctored,
        ),
        Experiment(
            "a weak shuffle: the previous shoe riffled once",
            "shuffle tests",
            "baccarat",
            Faults(weak_shuffle=True),
            _shuffled,
        ),
        Experiment(
            "a stacked slug: 26 cards of each shoe together by rank",
            "shuffle tests",
            "baccarat",
            Faults(slug=26),
            _shuffled,
        ),
    ]


def rejection_rate(
    experiment: Experiment, size: int, reps: int, threshold: float, seed: int
) -> float:
    table = paytable(experiment.game)
    dealer = dealer_for(table.game, table.config, experiment.faults)
    flagged = 0
    for rep in range(reps):
        shoes = dealer.shoes(size, _seed(seed, experiment.fault, size, rep))
        flagged += experiment.judge(table, shoes, threshold)
    return flagged / reps


def _seed(seed: int, *parts: object) -> int:
    import zlib

    return seed * 1_000_003 + zlib.crc32("|".join(map(str, parts)).encode())


def smallest_size(
    rate: Callable[[int], float], grid: Sequence[int]
) -> tuple[int | None, float, list[tuple[int, float]]]:
    """The first grid size whose rate reaches :data:`TARGET` (a doubling then a bisection)."""
    tried: dict[int, float] = {}

    def at(i: int) -> float:
        if grid[i] not in tried:
            tried[grid[i]] = rate(grid[i])
        return tried[grid[i]]

    low, high = -1, 0
    while at(high) < TARGET:
        low = high
        if high == len(grid) - 1:
            return None, tried[grid[high]], sorted(tried.items())
        high = min(len(grid) - 1, 2 * high + 1)
    while high - low > 1:
        middle = (low + high) // 2
        if at(middle) >= TARGET:
            high = middle
        else:
            low = middle
    return grid[high], tried[grid[high]], sorted(tried.items())


# ---------------------------------------------------------------------------
# The computed faults


def mis_settled_rounds(share: Fraction = Fraction(1, 1000)) -> int:
    """Rounds after which at least one of them is mis-settled with probability ≥ 80%."""
    return math.ceil(math.log(1 - TARGET) / math.log(1 - float(share)))


def mis_settled_check(rounds: int, reps: int, seed: int, share: float = 1e-3) -> float:
    import numpy as np

    rng = np.random.default_rng(seed)
    return float((rng.binomial(rounds, share, size=reps) > 0).mean())


def improved_banker_rate(share: Fraction, rounds: int, reps: int, seed: int, k: int) -> float:
    """The share of logs whose Banker-bet tests fail when ``share`` of Player wins are re-dealt."""
    import numpy as np

    from odds.stats.significance import chi_square_ps, return_ps
    from odds.tools.audit.audit import net_distribution

    table = paytable("baccarat")
    bet = next(b for b in table.bet_analysis().bets if b.name == "banker")
    exact = [Fraction(o.ways, bet.stats.total) for o in bet.outcomes]
    player_wins = next(i for i, o in enumerate(bet.outcomes) if o.net < 0)
    lost = exact[player_wins] * share
    fault = [p + lost * p - (lost if i == player_wins else 0) for i, p in enumerate(exact)]
    assert sum(fault) == 1
    rng = np.random.default_rng(seed)
    counts = rng.multinomial(rounds, [float(p) for p in fault], size=reps)
    threshold = ALPHA / k
    fit = chi_square_ps("bet banker: outcome events", exact, counts).values
    nets = net_distribution(bet)
    columns = np.zeros((reps, len(nets)), dtype=np.int64)
    for i, outcome in enumerate(bet.outcomes):
        columns[:, [n for n, _ in nets].index(outcome.net)] += counts[:, i]
    ret = return_ps("return of banker", nets, columns).values
    return float(((fit < threshold) | (ret < threshold)).mean())


# ---------------------------------------------------------------------------
# The document


SECTIONS = ("faults", "aware", "alarms")


def power_tables(
    reps: int, seed: int, quick: bool = False, sections: Sequence[str] = SECTIONS
) -> str:
    """The Markdown the docs show (deterministic for a seed and a number of repetitions).

    The sections are independent (their seeds depend only on what they deal), so they
    can be computed apart and put together: ``--section faults`` … in any order.
    """
    out = []
    if "faults" in sections:
        out += fault_table(reps, seed, quick)
    if "aware" in sections:
        out += aware_against_off_the_top(reps, seed, quick)
    if "alarms" in sections:
        out += false_alarms(reps, seed, quick)
    return "\n".join(out) + "\n"


def fault_table(reps: int, seed: int, quick: bool) -> list[str]:
    """Each fault: the shoes (or rounds) needed to flag it in 80% of logs."""
    from odds.output.markdown import markdown_table

    bac = paytable("baccarat")
    k = audit_tests(bac)
    threshold = ALPHA / k
    out = [
        f"Measured with `python -m tests.measure.power --reps {reps} --seed {seed}"
        f"{' --quick' if quick else ''}`: baccarat, 8 decks, cut card at 80%, α = {ALPHA:g}; "
        f"each test at α/K = {threshold:.3g} (K = {k}, the tests of a full audit).",
        "",
    ]
    rows = []
    chosen = experiments()
    if quick:
        chosen = [chosen[2], chosen[4], chosen[5]]
    for experiment in track(chosen, "power: faults in shoes", label=lambda e: e.fault):
        rate_at = functools.partial(
            _rate_at, experiment=experiment, reps=reps, threshold=threshold, seed=seed
        )
        size, _, tried = smallest_size(rate_at, SHOE_GRID)
        needed = f"> {SHOE_GRID[-1]} shoes" if size is None else f"{size:,} shoe(s)"
        curve = ", ".join(f"{n}: {r:.0%}" for n, r in tried)
        rows.append((experiment.fault, experiment.tests, needed, curve))
    share = Fraction(2, 100)
    improved = smallest_size(
        lambda n: improved_banker_rate(share, n, max(reps, 200), seed, k), ROUND_GRID
    )
    rows.append(
        (
            "2% of the coups the Player wins re-dealt (Banker hands improved)",
            "the Banker bet's events and return (computed law, see below)",
            "> 5,000,000 rounds" if improved[0] is None else f"{improved[0]:,} rounds",
            ", ".join(f"{n:,}: {r:.0%}" for n, r in improved[2]),
        )
    )
    settled = mis_settled_rounds()
    rows.append(
        (
            "1 round in 1,000 mis-settled",
            "the settlement audit (every payout recomputed)",
            f"{settled:,} rounds",
            f"{settled:,}: {mis_settled_check(settled, 10_000, seed):.0%} of 10,000 binomial logs",
        )
    )
    out.append(
        markdown_table(
            ("fault", "flagged by", "to flag it in 80% of logs", "share flagged at each size"),
            rows,
            2,
        )
    )
    out.append("")
    return out


def _rate_at(size: int, experiment: Experiment, reps: int, threshold: float, seed: int) -> float:
    return rejection_rate(experiment, size, reps, threshold, seed)


def aware_against_off_the_top(reps: int, seed: int, quick: bool) -> list[str]:
    """The doctored Dragon Tiger shoe: the shoe-aware tests' power against off the top."""
    from odds.output.markdown import markdown_table

    table = paytable("dragon-tiger")
    k = audit_tests(table)
    threshold = ALPHA / k
    extra = 8
    faults = Faults(extra=_cards(table, "7c 7d 7h 7s", 2))
    dealer = dealer_for(table.game, table.config, faults)
    sizes = (1, 2, 4) if quick else (1, 2, 4, 8, 16, 32)
    n = max(10, reps // 2)
    rows = []
    for size in track(sizes, "power: shoe-aware against off the top"):
        aware = top = 0
        for rep in range(n):
            shoes = dealer.shoes(size, _seed(seed, "aware", size, rep))
            aware += aware_fails(table, shoes, threshold)
            top += off_the_top_fails(table, shoes, threshold)
        rows.append((size, f"{top / n:.0%}", f"{aware / n:.0%}"))
    return [
        f"A doctored Dragon Tiger shoe ({extra} extra 7s, two of each suit, in every 8-deck "
        f"shoe; {n} logs per size; each test at α/K = {threshold:.3g}, K = {k}): the share of "
        "logs flagged by the off-the-top tests alone and by the shoe-aware tests alone.",
        "",
        markdown_table(("shoes", "off the top", "shoe-aware"), rows, 2),
        "",
        *pok_deng_aware(reps, seed, quick),
    ]


#: Pok Deng's doctored shoe for the power table: every 9 taken out (32 cards of 416).
POK_DENG_MISSING = ("9c 9d 9h 9s", 8)


def pok_deng_aware(reps: int, seed: int, quick: bool) -> list[str]:
    """Pok Deng, five seats: a doctored shoe's power, and false alarms on honest logs.

    Off the top is shown twice: the bets' tests alone (what the shoe-aware tests
    test, given the cards seen) and with the hand-class tests, which see a shoe's
    composition directly.
    """
    from odds.output.markdown import markdown_table

    table = paytable("pok-deng")
    k = audit_tests(table)
    threshold = ALPHA / k
    cards, times = POK_DENG_MISSING
    dealer = dealer_for(table.game, table.config, Faults(missing=_cards(table, cards, times)))
    sizes = (1, 4, 16) if quick else (1, 2, 4, 8, 16, 32)
    n = max(10, reps // 2)
    rows = []
    for size in track(sizes, "power: Pok Deng, shoe-aware against off the top"):
        aware = bets = top = 0
        for rep in range(n):
            shoes = dealer.shoes(size, _seed(seed, "aware pok-deng", size, rep))
            aware += aware_fails(table, shoes, threshold)
            bets += off_the_top_fails(table, shoes, threshold, hand_classes=False)
            top += off_the_top_fails(table, shoes, threshold)
        rows.append((size, f"{bets / n:.0%}", f"{top / n:.0%}", f"{aware / n:.0%}"))
    honest = dealer_for(table.game, table.config)
    tests = len(table.bet_analysis().bets)
    alarms = []
    round_sizes = (1, 10, 100, 1000) if quick else (1, 10, 100, 1000, 10_000)
    for rounds in track(round_sizes, "false alarms: Pok Deng shoe-aware"):
        logs = 4 * reps if rounds <= 100 else reps if rounds <= 1000 else max(20, reps // 4)
        flagged = 0
        for rep in range(logs):
            shoes = _rounds(honest, rounds, _seed(seed, "honest pok-deng", rounds, rep), 25)
            flagged += aware_fails(table, shoes, ALPHA / tests)
        alarms.append(
            _alarm_row(f"shoe-aware, Pok Deng ({tests} tests)", f"{rounds:,} rounds", logs, flagged)
        )
    return [
        f"A doctored Pok Deng shoe (every 9 taken out: {len(_cards(table, cards, times))} of "
        f"the 416 cards; the independent dealer's five seats, cut card 52 cards from the end; "
        f"{n} logs per size; each test at α/K = {threshold:.3g}, K = {k}): the share of logs "
        "flagged by the off-the-top tests of the bets alone, by those with the hand-class "
        "tests, and by the shoe-aware tests alone.",
        "",
        markdown_table(
            ("shoes", "off the top (bets)", "off the top (bets, hand classes)", "shoe-aware"),
            rows,
            2,
        ),
        "",
        "False alarms of the shoe-aware tests on honest Pok Deng logs from the independent "
        f"dealer (five seats a round; each test at α/{tests}, α = {ALPHA:g}; allowed: α·logs "
        "+ 3 SD).",
        "",
        markdown_table(("tests", "log", "logs", "flagged", "rate", "allowed"), alarms, 2),
        "",
    ]


def false_alarms(reps: int, seed: int, quick: bool) -> list[str]:
    """Honest logs: each family of tests at level α."""
    from odds.output.markdown import markdown_table

    bac = paytable("baccarat")
    dealer = dealer_for(bac.game, bac.config)
    rows = []
    families = (
        ("rank and suit frequencies (4 tests)", ("rank frequencies", "suit frequencies"), 4),
        ("shuffle tests (3 tests)", ("shuffle:",), 3),
    )
    sizes = (1, 10, 100) if quick else (1, 10, 100, 500)
    for size in track(sizes, "false alarms: shoes"):
        logs = 4 * reps if size <= 10 else reps if size <= 100 else max(20, reps // 3)
        flagged = {name: 0 for name, _, _ in families}
        for rep in range(logs):
            shoes = dealer.shoes(size, _seed(seed, "honest", size, rep))
            for name, prefixes, count in families:
                flagged[name] += shoe_family_fails(bac, shoes, ALPHA / count, prefixes)
        for name, _, _ in families:
            rows.append(_alarm_row(name, f"{size} shoe(s)", logs, flagged[name]))
    dt = paytable("dragon-tiger")
    dt_dealer = dealer_for(dt.game, dt.config)
    bets = len(dt.bet_analysis().bets)
    round_sizes = (1, 10, 100, 1000) if quick else (1, 10, 100, 1000, 10_000)
    for rounds in track(round_sizes, "false alarms: shoe-aware"):
        logs = 4 * reps if rounds <= 100 else reps if rounds <= 1000 else max(20, reps // 4)
        aware_flags = 0
        for rep in range(logs):
            shoes = _rounds(dt_dealer, rounds, _seed(seed, "honest aware", rounds, rep))
            aware_flags += aware_fails(dt, shoes, ALPHA / bets)
        rows.append(
            _alarm_row(
                f"shoe-aware, Dragon Tiger ({bets} tests)", f"{rounds:,} rounds", logs, aware_flags
            )
        )
    rows += off_the_top_alarms(reps, seed, quick)
    rows += by_dealer_alarms(reps, seed, quick)
    return [
        "False alarms on honest logs from the independent dealer: each family with its tests at "
        f"α/(tests), α = {ALPHA:g}; allowed: α·logs + 3 SD.",
        "",
        markdown_table(("tests", "log", "logs", "flagged", "rate", "allowed"), rows, 2),
        "",
    ]


def off_the_top_alarms(
    reps: int, seed: int, quick: bool
) -> list[tuple[str, str, int, int, str, str]]:
    """Honest baccarat logs of 1 to 10,000 rounds: the off-the-top family at α/(its tests).

    Every bet's event and return tests and the hand classes, as the pooled audit runs
    them; the rows' seeds depend only on the size and the log, so these rows can be
    computed apart from the rest of the table and agree with it.
    """
    bac = paytable("baccarat")
    dealer = dealer_for(bac.game, bac.config)
    analysis = bac.bet_analysis()
    tests = 2 * len(analysis.bets) + (len(bac.game.positions) if analysis.hand_classes else 0)
    rows = []
    round_sizes = (1, 10, 100, 1000) if quick else (1, 10, 100, 1000, 10_000)
    for rounds in track(round_sizes, "false alarms: off the top"):
        logs = 4 * reps if rounds <= 100 else reps if rounds <= 1000 else max(20, reps // 4)
        flags = 0
        for rep in range(logs):
            shoes = _rounds(dealer, rounds, _seed(seed, "honest top", rounds, rep))
            flags += off_the_top_fails(bac, shoes, ALPHA / tests)
        name = f"off the top, baccarat ({tests} tests)"
        rows.append(_alarm_row(name, f"{rounds:,} rounds", logs, flags))
    return rows


#: Dealers an honest ``--by dealer`` log rotates through, one shoe each in turn.
BY_DEALERS = 8


def by_dealer_alarms(
    reps: int, seed: int, quick: bool
) -> list[tuple[str, str, int, int, str, str]]:
    """Honest baccarat logs of 1,000 and 10,000 rounds, shoes dealt by 8 dealers in turn:
    how often ``--by dealer`` names one (the groups' family at α/2, as in the audit).

    Each row's allowed count is α/2 · logs plus three SD: Holm after Tarone's screen
    holds the family-wise rate at α/2 whatever the dependence between the tests. The
    groups hold up to about 1,250 rounds, so their p-values are the exact ones; settling
    every round of larger logs (each round's cards are distinct) would take minutes a log.
    """
    bac = paytable("baccarat")
    dealer = dealer_for(bac.game, bac.config)
    bets = len(bac.bet_analysis().bets)
    bet_nets = _bet_nets(bac)
    rows = []
    round_sizes = (1000,) if quick else (1000, 10_000)
    for rounds in track(round_sizes, "false alarms: --by dealer"):
        logs = 4 * reps if rounds <= 1000 else reps
        flags = 0
        for rep in range(logs):
            shoes = _rounds(dealer, rounds, _seed(seed, "honest by dealer", rounds, rep))
            flags += by_dealer_fails(bac, shoes, BY_DEALERS, ALPHA / 2, bet_nets)
        name = f"--by dealer, baccarat ({BY_DEALERS} dealers × {bets} bets, Holm at α/2)"
        bound = allowed(logs, ALPHA / 2)
        rows.append(
            (name, f"{rounds:,} rounds", logs, flags, f"{flags / logs:.1%}", f"≤ {bound:.1f}")
        )
    return rows


def _rounds(dealer: Any, rounds: int, seed: int, per_shoe: int = 150) -> list[DealtShoe]:
    """Whole shoes until ``rounds`` rounds, the last one cut short (``per_shoe``: fewest a shoe)."""
    shoes = dealer.shoes(rounds // per_shoe + 2, seed)
    out, left = [], rounds
    for shoe in shoes:
        if left <= 0:
            break
        out.append(DealtShoe(shoe.label, shoe.rounds[:left]))
        left -= len(out[-1].rounds)
    return out


def _alarm_row(
    name: str, size: str, logs: int, flagged: int
) -> tuple[str, str, int, int, str, str]:
    bound = allowed(logs)
    return (name, size, logs, flagged, f"{flagged / logs:.1%}", f"≤ {bound:.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.measure.power", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--reps", type=int, default=100, help="logs per size (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="a few faults and sizes only")
    parser.add_argument("--out", type=Path, help="write the Markdown here (default: stdout)")
    parser.add_argument(
        "--section", choices=SECTIONS, action="append", help="only these tables (repeatable)"
    )
    args = parser.parse_args(argv)
    if not 1 <= args.reps <= 10_000:
        print("error: --reps must be 1 to 10,000", file=sys.stderr)
        return 2
    from odds.runtime.progress import shown_on_terminal

    with shown_on_terminal("measuring the audit's power"):
        text = power_tables(args.reps, args.seed, args.quick, args.section or SECTIONS)
    if args.out is None:
        sys.stdout.write(text)
    else:
        from odds.runtime.atomic import atomic_path

        with atomic_path(args.out, ()) as temporary:
            temporary.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
