"""The shoe-state questions as Python calls (the CLI and the reports only format them).

* :func:`state` — every bet's exact EV for what a watching player has not seen.
* :func:`eor` — effects of removal and the counts derived from them.
* :func:`exposure` — the exposure study: exact where every state can be
  enumerated (tile sets), else a seeded simulation of whole shoes.
* :func:`report_section` — the Shoe section every report ends with.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.core.table import Column, Kind, Table, fields_table
from odds.games.dealing import Procedure
from odds.games.shoe_state import StateEvaluator
from odds.runtime.progress import phase
from odds.stats.analysis import Analysis, Section
from odds.tools.shoe import report_tables
from odds.tools.shoe.eor import EORTable, effects_of_removal, tags_by_type
from odds.tools.shoe.exact import ExactExposure, exact_exposure
from odds.tools.shoe.seen import SeenFile, unseen_counts
from odds.tools.shoe.simulate import (
    FlatReturn,
    SimulatedExposure,
    SimulationSpec,
    check_address,
    check_study,
    flat_return_exact,
    prime,
    run,
    summarise,
)

#: The Shoe section's key in a report's JSON and CSV (``shoe_state.counts``): not
#: ``shoe``, the report's own field naming the shoe analysed.
SECTION_KEY = "shoe_state"

#: Reports simulate the feature's ``report_shoes`` shoes with this seed (quick, reproducible).
REPORT_SEED = 2024


def feature_of(paytable: Any) -> Any:
    """The game's shoe-state feature, or a one-line error."""
    feature = paytable.game.shoe_state
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no shoe-state analysis")
    return feature


@dataclass(frozen=True)
class State:
    """One state: the seen cards, the unseen counts and every bet's EV now and off the top."""

    evaluator: StateEvaluator
    seen: int
    counts: tuple[int, ...]
    now: dict[str, Fraction]
    top: dict[str, Fraction]

    def table(self) -> Table:
        return report_tables.state_table(self.evaluator, self.top, self.now)

    @property
    def unseen(self) -> int:
        return sum(self.counts)

    def document(self, paytable: Any, seen_file: SeenFile | None = None) -> list[Table]:
        """``odds shoe --format json``: what was seen and left, then every bet (:meth:`table`)."""
        shoe = self.evaluator.shoe
        fields: list[tuple[Column, Any]] = [
            *_paytable_fields(paytable),
            (Column("shoe", "shoe"), shoe.description),
            (Column("seen", "seen", Kind.WAYS), self.seen),
            *(() if seen_file is None else seen_file.fields()),
            (Column("unseen", "unseen", Kind.WAYS), self.unseen),
            (
                Column("unseen_counts", "unseen by type", Kind.DATA),
                {str(t): n for t, n in zip(shoe.types, self.counts, strict=True)},
            ),
        ]
        return [fields_table("state_of", "The shoe", fields), self.table()]


def _paytable_fields(paytable: Any) -> list[tuple[Column, Any]]:
    """The game and paytable a shoe-state document is about."""
    return [
        (Column("game", "game"), paytable.game.name),
        (Column("paytable", "paytable"), paytable.source),
    ]


def eor_document(paytable: Any, evaluator: StateEvaluator, table: EORTable) -> list[Table]:
    """``odds eor``: the effects of removal (by rank, by type) and the derived counts."""
    unit = "deck" if evaluator.unit == 52 else "set"
    about = fields_table(
        "eor_of",
        "The shoe",
        [*_paytable_fields(paytable), (Column("shoe", "shoe"), evaluator.shoe.description)],
    )
    return [
        about,
        report_tables.eor_table(table),
        report_tables.eor_by_type_table(table, evaluator),
        report_tables.count_table(table, unit),
    ]


def state(paytable: Any, seen: Sequence[Any]) -> State:
    """Every bet's exact EV after ``seen`` (cards or tiles as the game parses them)."""
    evaluator = feature_of(paytable).evaluator(paytable.config)
    counts = unseen_counts(evaluator.shoe, seen, evaluator.round_cards)
    return State(evaluator, len(seen), counts, evaluator.evs(counts), evaluator.evs(evaluator.full))


def eor(paytable: Any) -> tuple[StateEvaluator, EORTable]:
    """The evaluator and its effects of removal (with the derived counts)."""
    evaluator = feature_of(paytable).evaluator(paytable.config)
    return evaluator, effects_of_removal(evaluator)


@dataclass(frozen=True)
class Exposure:
    """The exposure study of one paytable."""

    evaluator: StateEvaluator | None  # None when the exposure is nil (nothing to evaluate)
    procedure: Procedure
    top: dict[str, Fraction]
    exact: ExactExposure | None = None
    simulated: SimulatedExposure | None = None
    exact_flat: FlatReturn | None = None

    @property
    def nil(self) -> bool:
        """Reshuffled after every round: a watcher sees nothing before the next round."""
        return not self.procedure.multi_round

    def tables(self) -> list[Table]:
        if self.evaluator is None:
            return []
        if self.exact is not None:
            return [
                report_tables.exact_round_table(self.exact, self.evaluator),
                report_tables.exact_summary_table(self.exact, self.evaluator),
            ]
        if self.simulated is not None:
            return [
                report_tables.simulated_summary_table(self.simulated, self.top, self.exact_flat),
                report_tables.depth_table(self.simulated, self.evaluator),
            ]
        return []

    def verdicts(self) -> list[str]:
        if self.nil:
            return [
                "Exposure: nil. The cards are reshuffled after every round, so every round is "
                "dealt from the full shoe whatever a player has seen."
            ]
        if self.exact is not None and self.evaluator is not None:
            return report_tables.exact_verdicts(self.exact, self.evaluator)
        if self.simulated is not None:
            return report_tables.simulated_verdicts(self.simulated)
        return []

    def flat_sentence(self) -> str:
        if self.nil or self.evaluator is None:
            return ""
        titles = [(b.name, b.title) for b in self.evaluator.bets]
        return report_tables.flat_sentence(
            self.procedure, self.top, self.exact_flat, self.simulated, titles
        )

    @property
    def method(self) -> str:
        """``exact``, ``simulated`` or ``nil`` (reshuffled every round: nothing to study)."""
        if self.exact is not None:
            return "exact"
        return "simulated" if self.simulated is not None else "nil"

    def document(self, paytable: Any, tables: Sequence[Table]) -> list[Table]:
        """``odds exposure --format json``: the dealing, method and verdicts, then ``tables``."""
        about = fields_table(
            "exposure_of",
            "The study",
            [
                *_paytable_fields(paytable),
                (Column("dealing", "dealing"), self.procedure.description),
                (Column("method", "method"), self.method),
                (Column("verdicts", "verdicts", Kind.LIST), self.verdicts()),
                (Column("flat_bettor", "flat bettor"), self.flat_sentence()),
            ],
        )
        return [about, *tables]


def exposure(
    paytable: Any,
    shoes: int | None = None,
    seed: int = 1,
    workers: int | None = None,
    scheduler: str | None = None,
    simulate: bool = False,
    evaluator: StateEvaluator | None = None,
    table: EORTable | None = None,
) -> Exposure:
    """The exposure study: exact when every state can be enumerated, unless ``simulate``.

    ``evaluator`` and ``table`` (its effects of removal) may be passed when
    already built; the simulation's counters need the table.
    """
    feature = feature_of(paytable)
    # Everything that can be refused is checked before the seconds of building.
    procedure = feature.procedure(paytable.config)
    if shoes is not None:
        check_study(shoes, seed)
    if workers is not None and scheduler is None:
        from odds.runtime.pool import local_workers

        local_workers(workers, 1, warn=False)  # refused now, not after the build
    if scheduler is not None:
        check_address(scheduler)
    if not procedure.multi_round:
        return Exposure(None, procedure, {})
    if evaluator is None:
        with phase(f"{paytable.game.name}: building the shoe-state layouts"):
            evaluator = feature.evaluator(paytable.config)
    with phase(f"{paytable.game.name}: off-the-top values"):
        result = Exposure(evaluator, procedure, evaluator.evs(evaluator.full))
    fixed = procedure.fixed_seen()
    if fixed is not None and evaluator.batch() is not None and not simulate:
        return dataclasses.replace(result, exact=exact_exposure(evaluator, fixed))
    if shoes is None:
        raise OddsError("this game's exposure is simulated: give --shoes N (and --seed S)")
    if table is None:
        with phase(f"{paytable.game.name}: effects of removal"):
            table = effects_of_removal(evaluator)
    spec = SimulationSpec(
        paytable.data,
        paytable.source,
        seed,
        tuple(b.count for b in table.bets),
        tuple(tags_by_type(table, b) for b in table.bets),
    )
    with phase(f"{paytable.game.name}: preparing the simulation"):
        prime(spec, evaluator, procedure)
    records = run(spec, shoes, workers, scheduler, label=f"{paytable.game.name} shoes")
    simulated = summarise(records, evaluator.bets, seed)
    exact_flat = flat_return_exact(evaluator, procedure, lambda t: _after(evaluator, t))
    return dataclasses.replace(result, simulated=simulated, exact_flat=exact_flat)


def _after(evaluator: StateEvaluator, t: int) -> dict[str, Fraction]:
    counts = list(evaluator.full)
    counts[t] -= 1
    return evaluator.evs(counts)


def report_section(paytable: Any) -> Section | None:
    """The report's Shoe section: dealing, EORs and counts, and the exposure where there is one.

    Simulated exposures use the feature's ``report_shoes`` shoes and :data:`REPORT_SEED`
    in one process (reports are deterministic and quick); ``odds exposure``
    runs as many as asked.
    """
    if paytable.game.shoe_state is None or not paytable.game.shoe_state.in_reports:
        return None
    evaluator, table = eor(paytable)
    shoes = paytable.game.shoe_state.report_shoes
    unit = "deck" if evaluator.unit == 52 else "set"
    try:
        result = exposure(paytable, shoes, REPORT_SEED, workers=1, evaluator=evaluator, table=table)
    except OddsError as exc:  # a [dealing] this shoe cannot follow: the rest still stands
        return Section(
            SECTION_KEY,
            "Shoe",
            (f"Exposure not studied: {exc} (the `[dealing]` section sets how a shoe is dealt).",),
            (
                report_tables.eor_table(table),
                report_tables.eor_by_type_table(table, evaluator),
                report_tables.count_table(table, unit),
            ),
        )
    paragraphs = [f"How the shoe is dealt (`[dealing]`): {result.procedure.description}"]
    paragraphs += result.verdicts()
    flat = result.flat_sentence()
    if flat:
        paragraphs.append(flat)
    if result.simulated is not None:
        name = Path(paytable.source.split(" ")[0]).stem
        paragraphs.append(
            f"Simulated with {shoes} shoes (seed {REPORT_SEED}) to keep reports quick: "
            f"`odds exposure {name} --shoes 1000` runs more, on every core."
        )
    return Section(
        SECTION_KEY,
        "Shoe",
        tuple(paragraphs),
        (
            report_tables.eor_table(table),
            report_tables.eor_by_type_table(table, evaluator),
            report_tables.count_table(table, unit),
            *result.tables(),
        ),
    )


def with_shoe_section(paytable: Any, analysis: Analysis) -> Analysis:
    """The analysis with the report's Shoe section (when the game has shoe states)."""
    section = report_section(paytable)
    if section is None:
        return analysis
    return dataclasses.replace(analysis, sections=(*analysis.sections, section))


def player_risk(paytable: Any, result: Exposure, levels: Sequence[Fraction] = ()) -> Table | None:
    """The player's risk (bankroll for a risk of ruin, N0) from the exposure's per-shoe results.

    ``None`` when there is nothing to risk (a nil exposure). The variance of one
    round's result is each bet's off the top (:mod:`odds.tools.shoe.risk`): the bets'
    analysis alone gives it (a game's own report tables, Pok Deng's whole table, are
    not needed).
    """
    from odds.tools.shoe import risk

    if result.evaluator is None or (result.exact is None and result.simulated is None):
        return None
    variances = {b.name: b.stats.variance for b in paytable.bet_analysis().bets}
    chosen = tuple(levels) or risk.RISKS
    if result.exact is not None:
        titles = [(b.name, b.title) for b in result.evaluator.bets]
        found = risk.exact_risks(result.exact, titles, variances)
        return risk.risk_table(found, "set", chosen, spread=False)
    return risk.risk_table(risk.simulated_risks(result.simulated, variances), "shoe", chosen)
