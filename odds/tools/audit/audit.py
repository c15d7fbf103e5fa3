"""``odds audit``: do the rounds in a log behave like the game's exact odds?

The log is read by :mod:`odds.tools.audit.reader` (DuckDB; any size), which settles
each kind of round once through the game (``Game.settle``: each bet's outcome
event, each hand's class). The counts are then tested against the exact
analysis:

* a Pearson chi-square over each bet's outcome events and over the hand classes
  of each position (expected counts from the exact probabilities; sparse cells
  merged by :data:`odds.stats.chisquare.MERGE_RULE`);
* the observed return of each bet against its exact RTP.

Their p-values are exact (binomial), Monte Carlo from the exact distribution,
or large-sample approximations only from :data:`~odds.stats.significance.ASYMPTOTIC_FROM`
rounds on; the tests are combined by Tarone's modified Bonferroni
(:mod:`odds.stats.significance`), so an honest log is flagged with probability
at most α. Rows that are impossible for the shoe (or otherwise rejected) are a
finding in themselves: the verdict is then FLAGGED whatever the statistics say.
Rounds are treated as independent deals from the full shoe, which is what the
exact odds describe; a log dealt shoe by shoe adds the shoe-level tests, and the
paytable's dealing procedure (:mod:`odds.tools.audit.procedure`: a continuous
shuffle reads the shoe column as a label) says which apply. A results-only log
(each bet's outcome, no cards;
:mod:`odds.tools.audit.results`) is tested the same way against each bet's outcome
table merged into the classes the log tells apart; the tests that need the cards
are named in the notes as not run.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, TypeVar

from odds.core.errors import OddsError
from odds.games.dealing import CONTINUOUS
from odds.games.paytable import Paytable
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet
from odds.stats.chisquare import Cell, GoodnessOfFit, goodness_of_fit
from odds.stats.significance import PValue, chi_square_p, return_p, tarone
from odds.tools.audit.counts import LogCounts, SettledGroup
from odds.tools.audit.groups import GroupAudit, drivers, evaluate_groups
from odds.tools.audit.play import Play, read_play
from odds.tools.audit.procedure import (
    INDEPENDENT,
    Dealing,
    assumed,
    continuous_notes,
    session_hint,
)
from odds.tools.audit.reader import read_log
from odds.tools.audit.shoes import MAX_ROWS, DealtShoe

if TYPE_CHECKING:
    from odds.tools.audit.shoe_study import ShoeStudy
    from odds.tools.audit.wager_test import WagerAudit

Z95 = Decimal(repr(NormalDist().inv_cdf(0.975)))
TestT = TypeVar("TestT", "FitTest", "ReturnTest")

PASS = "PASS"
FLAGGED = "FLAGGED"
INCONCLUSIVE = "INCONCLUSIVE"
#: The exit code of each verdict.
EXIT_CODES = {PASS: 0, FLAGGED: 1, INCONCLUSIVE: 3}
#: Rejected rows that are not rounds: slips of the log's own making (a blank line, a row of
#: empty fields, a round no seat played, a results row with no result). They say nothing
#: about the game's odds, so they never flag a log (an exporter's stray blank line flagged
#: honest logs, issue 33) — and never let it pass: the verdict is INCONCLUSIVE unless
#: something else flags it. Hands the shoe cannot hold, rounds whose rows contradict each
#: other and hands the game cannot settle are about the cards dealt: they flag it.
NOT_ROUNDS = ("blank", "empty", "seats", "results")


@dataclass(frozen=True)
class FitTest:
    """A chi-square test of one bet's events or one position's hand classes."""

    name: str
    fit: GoodnessOfFit
    exact: tuple[Cell, ...]  # the unmerged cells, for the detail table
    p: PValue | None  # None: fewer than two cells after merging, or an impossible event seen
    judged: bool = False

    @property
    def p_value(self) -> float | None:
        if self.fit.impossible:
            return 0.0
        return None if self.p is None else self.p.value


@dataclass(frozen=True)
class ReturnTest:
    """The observed return of one bet against its exact RTP (per unit staked)."""

    bet: str
    rounds: int
    observed: Fraction
    exact: Fraction
    sd: Decimal
    p: PValue
    judged: bool = False

    @property
    def half_width(self) -> Decimal:
        return Z95 * self.sd / Decimal(self.rounds).sqrt()

    @property
    def low(self) -> Decimal:
        return _dec(self.observed) - self.half_width

    @property
    def high(self) -> Decimal:
        return _dec(self.observed) + self.half_width

    @property
    def z(self) -> float:
        if self.sd == 0:
            return 0.0 if self.observed == self.exact else math.inf
        return float(
            (_dec(self.observed) - _dec(self.exact)) / (self.sd / Decimal(self.rounds).sqrt())
        )

    @property
    def p_value(self) -> float:
        return self.p.value


def _dec(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)


@dataclass(frozen=True)
class AuditResult:
    """Everything the audit found."""

    paytable: str
    log: str
    counts: LogCounts
    fits: tuple[FitTest, ...]
    returns: tuple[ReturnTest, ...]
    alpha: float
    k: int  # Tarone's K: the judged tests are each held to alpha / k
    notes: tuple[str, ...]
    shoes: ShoeStudy | None = None  # the shoe-level tests (a log dealt shoe by shoe)
    groups: GroupAudit | None = None  # --by (odds.tools.audit.groups); alpha is then half
    wagers: WagerAudit | None = None  # --wagers (odds.tools.audit.wager_test): α/2 each
    #: The dealing procedure the null assumes (odds.tools.audit.procedure).
    dealing: Dealing = field(default_factory=lambda: Dealing(INDEPENDENT, ""))
    #: A game with a player decision whose log records the actions (odds.tools.audit.play):
    #: the strategy they follow and the rounds played otherwise, a finding about play.
    play: Play | None = None

    @property
    def rows(self) -> int:
        return self.counts.rows

    @property
    def rounds(self) -> int:
        return self.counts.used

    @property
    def rejected(self) -> int:
        return self.counts.rejected_total

    @property
    def not_rounds(self) -> int:
        """Rejected rows that are not rounds (:data:`NOT_ROUNDS`): never evidence, never a pass."""
        kinds = self.counts.rejected_kinds
        return sum(n for kind, n in kinds.items() if kind in NOT_ROUNDS)

    @property
    def rejected_evidence(self) -> int:
        """Rejected rows that flag the log: about the cards dealt, not the log's layout."""
        return self.rejected - self.not_rounds

    @property
    def impossible(self) -> int:
        return self.counts.rejected_kinds.get("impossible", 0)

    @property
    def tests(self) -> int:
        shoe_tests = 0 if self.shoes is None else sum(t.judged for t in self.shoes.tests)
        return sum(t.judged for t in self.fits) + sum(t.judged for t in self.returns) + shoe_tests

    @property
    def threshold(self) -> float:
        return self.alpha / self.k

    def fit_fails(self, test: FitTest) -> bool:
        if test.fit.impossible:
            return True
        return test.judged and test.p is not None and test.p.value < self.threshold

    def return_fails(self, test: ReturnTest) -> bool:
        return test.judged and test.p.value < self.threshold

    @property
    def statistics_fail(self) -> bool:
        return (
            any(self.fit_fails(f) for f in self.fits)
            or any(self.return_fails(r) for r in self.returns)
            or self.shoe_tests_fail
        )

    @property
    def shoe_tests_fail(self) -> bool:
        study = self.shoes
        return study is not None and any(study.fails(t, self.threshold) for t in study.tests)

    @property
    def findings(self) -> int:
        """Problems of the log as a whole (shoe integrity), each flagging it."""
        return sum(self.counts.finding_kinds.values())

    @property
    def mis_settled(self) -> int:
        """Bets paid other than the paytable pays (the settlement audit); 0 without payouts."""
        payouts = self.counts.payouts
        return 0 if payouts is None else payouts.mis_settled

    @property
    def rounds_flagged(self) -> bool:
        """Whether the rounds themselves (not the wagers) flag the log."""
        if self.rejected_evidence or self.findings or self.mis_settled or self.statistics_fail:
            return True
        return self.groups is not None and self.groups.flagged

    @property
    def verdict(self) -> str:
        if self.rounds_flagged:
            return FLAGGED
        if self.wagers is not None and self.wagers.flagged:
            return FLAGGED
        if self.not_rounds:  # formatting slips: never evidence, never a pass
            return INCONCLUSIVE
        if self.wagers is not None and self.wagers.log.rejected_total:
            return INCONCLUSIVE  # wager rows not used: what they would show is unknown
        return PASS if self.tests or self.wagers is not None else INCONCLUSIVE

    @property
    def flagged(self) -> bool:
        return self.verdict == FLAGGED


def audit(
    paytable: Paytable,
    log: Path,
    alpha: float = 0.01,
    columns: dict[str, str] | None = None,
    by: tuple[str, ...] = (),
    paths: bool = False,
    encoding: str | None = None,
    shoe_rows: int = MAX_ROWS,
    aware_rounds: int | None = None,
    wagers: Path | None = None,
    wager_columns: dict[str, str] | None = None,
    wager_draws: int | None = None,
) -> AuditResult:
    """Read the log, settle every kind of round once and run every test.

    ``wagers`` is a wager log (``--wagers``, :mod:`odds.tools.audit.wagers`): each wager
    valued at its shoe's state and every account tested
    (:mod:`odds.tools.audit.wager_test`); the audit's α is then split, half to the tests
    of the rounds, half to the wagers', so α still bounds the whole audit.

    ``aware_rounds`` bounds the rounds the shoe-aware tests evaluate (``--aware-rounds``).

    ``columns`` maps the log's column names (``--columns``, :mod:`odds.tools.audit.layout`).
    ``by`` names the ``--by`` columns: each group is tested too
    (:mod:`odds.tools.audit.groups`), the pooled tests and the groups' each at α/2;
    ``paths`` keeps each group's cumulative nets for the control charts.
    ``shoe_rows`` bounds the shoe-level tests of a shoe-ordered log: the first
    shoes, whole, within that many rows (``--shoe-rows``; the notes name them).
    """
    if not 0 < alpha < 1:
        raise OddsError(f"--alpha must be between 0 and 1, got {alpha}")
    shoes_dealt = assumed(paytable.config, shoe_column=True).shoes_dealt
    wager_alpha = 0.0
    if wagers is not None and shoes_dealt:
        alpha = wager_alpha = alpha / 2
    whole = alpha
    if by:
        alpha = alpha / 2
    if shoe_rows < 0:
        raise OddsError(f"--shoe-rows must be 0 or more, got {shoe_rows}")
    play = read_play(paytable.game, paytable.config, log, columns, encoding)
    if play is not None:  # the dealing is tested under the strategy the actions follow
        game = paytable.game.playing(play.strategy)  # type: ignore[attr-defined]
        paytable = dataclasses.replace(paytable, game=game)
    counts = read_log(
        paytable.game, paytable.config, log, columns, by, paths, encoding, shoe_rows, shoes_dealt
    )
    if not counts.rows:
        raise OddsError(f"{log}: no rounds in the log (a header and no rows)")
    dealing = assumed(paytable.config, shoe_column="shoe" in counts.labels)
    analysis = paytable.bet_analysis()
    if counts.results is not None:  # no cards: the bets the log tells, as finely as it does
        analysis = counts.results.analysis(analysis)
    if counts.used:
        tallied = tally(counts.groups)
        fits, returns, notes = evaluate(analysis, tallied, alpha, paytable.game.positions)
    else:
        fits, returns, notes = [], [], ["no valid rounds to test: every row was rejected"]
    if counts.untested:
        notes.append(
            f"{counts.untested:,} further positions of multi-position rounds were checked but "
            "not tested: positions share the banker's hand, so only the first row of each "
            "round enters the tests (rounds must be independent)"
        )
    if counts.rejected_kinds.get("round") and "shoe" not in counts.labels:
        notes.append(
            "rows were rejected because rows with one round label hold different hands: if the "
            "log numbers its rounds within each shoe, add a shoe column (a round is then named "
            "by its shoe and its round)"
        )
    if counts.results is not None:
        notes += counts.results.notes
    elif not analysis.hand_classes:
        notes.append(f"{paytable.game.name} declares no hand classes; hand classes not tested")
    # -- the shoe-level tests (odds.tools.audit.shoe_study): in the same Tarone family
    study = None
    if dealing.name == CONTINUOUS:
        study = _round_study(paytable, counts)
        notes += continuous_notes("shoe" in counts.labels, wagers is not None, study is not None)
        wagers = None  # no shoe state to exploit: never valued on a fake shoe
    elif dealing.shoes_dealt:
        notes += session_hint(counts.finding_kinds)
    if dealing.shoes_dealt and counts.used and counts.results is None:
        from odds.tools.audit.shoe_study import study_of_shoes

        study = study_of_shoes(
            paytable.game, paytable.config, counts.shoes, counts.shoes_in_log, aware_rounds
        )
        if shoe_rows == 0:
            notes.append("shoe-level tests not run (--shoe-rows 0): rounds tested off the top only")
    shoe_floors = [] if study is None else [_shoe_floor(t) for t in study.tests]
    floors = [_floor(t) for t in fits] + [_floor(t) for t in returns] + shoe_floors
    k, judged = tarone(floors, alpha)
    ends = len(fits), len(fits) + len(returns)
    fits = [_judge(t, j) for t, j in zip(fits, judged[: ends[0]], strict=True)]
    returns = [_judge(t, j) for t, j in zip(returns, judged[ends[0] : ends[1]], strict=True)]
    if study is not None:
        study = study.judged(judged[ends[1] :])
        notes += study.notes
    group_audit = None
    if by:
        distributions = {bet.name: net_distribution(bet) for bet in analysis.bets}
        group_audit = evaluate_groups(
            distributions, counts.by_groups, whole - alpha, counts.group_paths
        )
        threshold = alpha / k
        failing = [r.bet for r in returns if r.judged and r.p.value < threshold]
        failing += [
            f.name.removeprefix("bet ").removesuffix(": outcome events")
            for f in fits
            if f.name.startswith("bet ")
            and (f.fit.impossible or (f.judged and f.p is not None and f.p.value < threshold))
        ]
        named = drivers(
            group_audit,
            list(dict.fromkeys(failing)),
            bool(counts.payouts and counts.payouts.mis_settled),
        )
        from dataclasses import replace

        group_audit = replace(group_audit, drivers=named)
    wager_audit = None
    if wagers is not None:
        wager_audit = _wager_audit(
            paytable, counts, wagers, wager_columns, encoding, wager_alpha, wager_draws
        )
    return AuditResult(
        paytable=paytable.source,
        log=str(log),
        counts=counts,
        fits=tuple(fits),
        returns=tuple(returns),
        alpha=alpha,
        k=k,
        notes=tuple(notes),
        shoes=study,
        groups=group_audit,
        wagers=wager_audit,
        dealing=dealing,
        play=play,
    )


def _first_deals(paytable: Paytable, shoes: Sequence[DealtShoe]) -> list[DealtShoe] | None:
    """Each round's first-deal cards (:meth:`odds.games.base.Game.first_deal`), or None when
    the game's deal does not go on that way or a round was not logged one row per round."""
    from dataclasses import replace

    game, config = paytable.game, paytable.config
    shoe = game.shoe(config)
    first = []
    for dealt in shoes:
        rounds = []
        for r in dealt.rounds:
            cards = game.first_deal(config, r.hands) if r.hands else None
            if cards is None:
                return None
            rounds.append(replace(r, cards=tuple(shoe.index(card) for card in cards)))
        first.append(replace(dealt, rounds=tuple(rounds)))
    return first


def _round_study(paytable: Paytable, counts: LogCounts) -> ShoeStudy | None:
    """Under a continuous shuffle, the rank and suit frequencies over independent rounds from
    the full shoe (:mod:`odds.tools.audit.round_frequencies`): in a game whose rounds never
    draw, each round a uniform sample; in a drawing game, against the exact per-round law of
    the cards it deals (:meth:`odds.games.base.Game.dealt_moments`). None for a drawing game
    whose law is not built (a note says so)."""
    from odds.tools.audit.round_frequencies import (
        drawing_frequency_tests,
        round_frequency_tests,
    )
    from odds.tools.audit.shoe_study import ShoeStudy

    read = counts.shoes
    game = paytable.game
    if read is None or not read.shoes or counts.results is not None:
        return None
    shoe = game.shoe(paytable.config)
    notes: tuple[str, ...] = ()
    moments = game.dealt_moments(paytable.config) if game.max_round_cards else None
    if moments is not None:
        tests = drawing_frequency_tests(shoe, moments, read.shoes)
    elif game.max_round_cards:
        first = _first_deals(paytable, read.shoes)
        if first is None:
            return None
        tests = round_frequency_tests(shoe, first, "first deals")
        notes = (
            "the rank and suit frequencies cover each round's first deal, a uniform sample of "
            "the full shoe; the cards a deal that goes on adds are not tested (which rounds go "
            "on, and so what they add, depends on the first deal and on the player's decision)",
        )
    else:
        tests = round_frequency_tests(shoe, read.shoes)
    if read.truncated:
        last = read.shoes[-1].rounds[-1].line
        notes += (
            f"the rank and suit frequencies cover the log's first {read.rounds:,} rounds "
            f"(to {read.unit} {last:,}; at most {read.rows:,} rows: --shoe-rows)",
        )
    return ShoeStudy(len(read.shoes), read.rounds, tuple(tests), notes, (), continuous=True)


def _wager_audit(
    paytable: Paytable,
    counts: LogCounts,
    path: Path,
    columns: dict[str, str] | None,
    encoding: str | None,
    alpha: float,
    draws: int | None,
) -> WagerAudit:
    """``--wagers``: the wager log joined to the log's shoes, valued and tested."""
    from dataclasses import replace

    from odds.tools.audit.wager_test import DRAWS, judge_wagers
    from odds.tools.audit.wagers import read_wagers

    read = counts.shoes
    if "shoe" not in counts.labels or read is None or not read.shoes:
        raise OddsError(
            "--wagers: the round log must be dealt shoe by shoe (a shoe column, every shoe "
            "dealt through) for wagers to be valued at the state of their shoe"
        )
    game, config = paytable.game, paytable.config
    seated = any(r.seats for s in read.shoes for r in s.rounds)
    bets = [b.name for b in paytable.bet_analysis().bets]
    log = read_wagers(path, read.shoes, bets, columns, encoding, seated, read.truncated)
    if log.unread:
        note = (
            f"{log.unread:,} wager(s) on shoes after the log's first {len(read.shoes):,} (the "
            "shoes read card by card, --shoe-rows) were not valued"
        )
        log = replace(log, notes=(*log.notes, note))
    return judge_wagers(game, config, read.shoes, log, alpha, DRAWS if draws is None else draws)


def _shoe_floor(test: Any) -> float:
    return 1.0 if test.p is None else test.p.floor


def _floor(test: FitTest | ReturnTest) -> float:
    """The smallest p-value a test can give; a test that cannot be computed never rejects."""
    if isinstance(test, FitTest) and test.fit.impossible:
        return 0.0
    return 1.0 if test.p is None else test.p.floor


def _judge(test: TestT, judged: bool) -> TestT:
    from dataclasses import replace

    return replace(test, judged=judged and test.p is not None)


# ---------------------------------------------------------------------------
# Counting


@dataclass
class Tally:
    """The counts the tests need, summed over settled rounds (stake 1 each)."""

    rounds: int = 0
    events: dict[str, Counter[str]] = field(default_factory=dict)
    nets: dict[str, Counter[Fraction]] = field(default_factory=dict)  # per unit staked
    classes: dict[str, Counter[str]] = field(default_factory=dict)


def tally(groups: Iterable[SettledGroup]) -> Tally:
    """Each bet's event counts and total net, each position's class counts."""
    result = Tally()
    # Rounds that settle their bets alike share one tuple of settled bets (the game keeps
    # them per round key): each tuple is counted once, by identity, with its rounds.
    rounds_of: dict[int, list[Any]] = {}
    for group in groups:
        n = group.count
        result.rounds += n
        bets = group.settlement.bets
        rounds_of.setdefault(id(bets), [bets, 0])[1] += n
        for hand in group.settlement.hands:
            result.classes.setdefault(hand.position, Counter())[hand.hand_class] += n
    # Distinct tuples still repeat their settled bets (Dragon Tiger: 3,552 settled bets in
    # 296 tuples, 34 distinct): each distinct one is counted, then its net per unit worked
    # out once (a fifth to a quarter of the tally's time), in the order the bets first come.
    settled: dict[tuple[str, str, Fraction, Fraction, Fraction], int] = {}
    for bets, n in rounds_of.values():
        for bet in bets:
            key = (bet.bet, bet.event, bet.stake, bet.debited, bet.returned)
            settled[key] = settled.get(key, 0) + n
    for (name, event, stake, debited, returned), n in settled.items():
        if name not in result.events:
            result.events[name], result.nets[name] = Counter(), Counter()
        result.events[name][event] += n
        result.nets[name][(returned - debited) / stake] += n
    return result


def evaluate(
    analysis: Analysis, counts: Tally, alpha: float, positions: Iterable[str]
) -> tuple[list[FitTest], list[ReturnTest], list[str]]:
    """Every test of the counts against the exact analysis (not yet judged)."""
    if not 0 < alpha < 1:
        raise OddsError(f"alpha must be between 0 and 1, got {alpha}")
    fits, returns, notes = [], [], []
    for bet in analysis.bets:
        observed = counts.events.get(bet.name)
        if not observed:
            notes.append(f"bet {bet.name}: the game's settlement does not report it; not tested")
            continue
        unknown = sorted(set(observed) - {o.event for o in bet.outcomes})
        if unknown:
            raise OddsError(f"bet {bet.name}: settled event {unknown[0]!r} is not in its table")
        cells = _cells([(o.event, o.ways) for o in bet.outcomes], bet.stats.total, observed)
        fits.append(_fit(f"bet {bet.name}: outcome events", cells))
        returns.append(_return_test(bet, counts.nets[bet.name]))
    if analysis.hand_classes:
        fits += _class_tests(analysis.hand_classes, counts, positions)
    return fits, returns, notes


def net_distribution(bet: Bet) -> list[tuple[Fraction, Fraction]]:
    """(net per unit staked, exact probability) for each distinct net of the bet."""
    ways: dict[Fraction, int] = {}
    for outcome in bet.outcomes:
        ways[outcome.net] = ways.get(outcome.net, 0) + outcome.ways
    return [(net, Fraction(w, bet.stats.total)) for net, w in sorted(ways.items())]


def _return_test(bet: Bet, nets: Counter[Fraction]) -> ReturnTest:
    distribution = net_distribution(bet)
    unknown = sorted(set(nets) - {net for net, _ in distribution})
    if unknown:
        raise OddsError(f"bet {bet.name}: a settled net of {unknown[0]} is not in its table")
    n = sum(nets.values())
    total = sum((net * k for net, k in nets.items()), Fraction(0))
    observed = [nets.get(net, 0) for net, _ in distribution]
    p = return_p(f"return of {bet.name}", distribution, observed)
    return ReturnTest(bet.name, n, 1 + total / n, bet.stats.rtp, bet.stats.sd, p)


def _fit(name: str, cells: tuple[Cell, ...]) -> FitTest:
    fit = goodness_of_fit(cells)
    if fit.impossible or fit.statistic is None:
        return FitTest(name, fit, cells, None)
    p = chi_square_p(
        name, [c.probability for c in fit.cells], [c.observed for c in fit.cells], fit.statistic
    )
    return FitTest(name, fit, cells, p)


def _cells(ways: list[tuple[str, int]], total: int, counts: Mapping[str, int]) -> tuple[Cell, ...]:
    """Cells in table order; labels that repeat in a table are counted once."""
    merged: dict[str, int] = {}
    for label, w in ways:
        merged[label] = merged.get(label, 0) + w
    if sum(merged.values()) != total:
        raise AssertionError("outcome ways do not add up to the total")
    return tuple(
        Cell((label,), Fraction(w, total), counts.get(label, 0)) for label, w in merged.items()
    )


def _class_tests(
    classes: Mapping[str, int], counts: Tally, positions: Iterable[str]
) -> list[FitTest]:
    total = sum(classes.values())
    tests = []
    for position in positions:
        seen = counts.classes.get(position)
        if not seen:
            continue
        unknown = sorted(set(seen) - set(classes))
        if unknown:
            raise OddsError(
                f"{position}: hand class {unknown[0]!r} is not among the analysis's hand classes"
            )
        cells = _cells(list(classes.items()), total, seen)
        tests.append(_fit(f"hand classes: {position}", cells))
    return tests
