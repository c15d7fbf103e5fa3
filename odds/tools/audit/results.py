"""Reading a results-only log: each round's outcome per bet, no cards, with DuckDB.

Operators often export only what each bet did (baccarat's ``winner`` and pair
flags, Pok Deng's per-seat win/lose and multiplier), not the cards. The tests
that need only outcomes still run on such a log: each bet's outcome
frequencies and return against the exact odds, ``--by`` groups with their
holds and control charts, and the settlement audit (``paid`` against what the
paytable pays for the logged outcome and stake). The tests that need the cards
— hand classes, shoe integrity, rank frequencies, shuffle, shoe-aware — are
named in the audit's notes as not run (:data:`odds.tools.audit.outcomes.NEEDS_CARDS`).

The log is read as :mod:`odds.tools.audit.reader` reads one of cards, with the
same relation (:mod:`odds.tools.audit.sources`) and the same tables the
statistics, groups and payouts query (``log``, ``final``): the distinct values
of each result column (a handful) are read once in Python into
:class:`~odds.tools.audit.outcomes.Cell`\\ s of the bets' outcome tables
(:mod:`odds.tools.audit.outcomes`); an unknown value is a one-line error naming
its line and column; every row is then joined to those cells in the database
and counted per combination, so no row reaches Python. A round's tested result
per bet is its first seat's that has one (seats share the banker: only one is
independent, as in a log of cards). Blank and empty rows, rows with no result,
and a round label repeated are rejected rows, a finding.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.core.settlement import SettledBet, Settlement
from odds.games.base import Game
from odds.tools.audit.counts import LogCounts, Rejected, SettledGroup
from odds.tools.audit.groups import Dimension, GroupCounts, GroupPath, check_groups, count_groups
from odds.tools.audit.layout import Layout, ResultColumn
from odds.tools.audit.outcomes import NEEDS_CARDS, Cell, ResultsLog, Vocabulary
from odds.tools.audit.payouts import (
    AMOUNT_PATTERN,
    AMOUNT_RULE,
    TOLERANCE,
    BetColumns,
    SettlementAudit,
    audit_payouts,
    bets_sql,
    money_columns,
    round_label_sql,
)
from odds.tools.audit.sources import StagedLog, malformed, small_side_built, sql_text

#: The empty text, as SQL.
EMPTY = "''"
#: Rejected rows named in the result (all are counted).
MAX_LISTED = 1000
#: Why a row is rejected: its code here, and its kind (the keys of the reader's KINDS).
CODES = {"blank": 1, "empty": 2, "round": 3, "results": 4}


@dataclass(frozen=True)
class Source:
    """Where one (bet, seat)'s result is read: its column, and how it is worded."""

    bet: str
    seat: str
    kind: str  # "result", "winner" or "flag"
    field: str  # f1 … of the relation
    column: str  # as in the file
    multiplier: str | None = None  # the multiplier's field, for a result column


def read_results(
    con: Any,
    game: Game,
    config: Any,
    staged: StagedLog,
    label: str,
    dims: Sequence[Dimension],
    paths: bool,
    update: Callable[[float], None],
) -> LogCounts:
    """Read a results-only log (the module docstring): the counts the audit tests.

    ``staged`` is the log with its header read (:func:`odds.tools.audit.sources.stage_log`),
    ``label`` its name in messages, ``dims`` the ``--by`` groups, ``paths`` whether their
    cumulative nets are drawn, ``update`` the progress bar (0 to 100).
    """
    bets = game.analyse_bets(config, label).bets
    vocabulary = Vocabulary(bets, game.positions)
    layout = staged.layout
    sources, notes = _sources(layout, vocabulary, label)
    source, digest = staged.everything(lambda share: update(30 * share))
    con.execute(f"CREATE OR REPLACE TEMP VIEW rows AS {source.relation()}")
    log = _ResultsLog(con, label, source.unit, len(source.columns), layout, sources, vocabulary)
    counts = log.counts(dims, paths, update)
    return dataclasses.replace(
        counts,
        size=digest.size,
        sha256=digest.sha256,
        results=dataclasses.replace(counts.results, notes=tuple(notes)) if counts.results else None,
    )


def _sources(layout: Layout, vocabulary: Vocabulary, label: str) -> tuple[list[Source], list[str]]:
    """Each (bet, seat)'s source: its own result or flag column, else the winner column."""
    field = {name: f"f{i + 1}" for i, name in enumerate(layout.columns)}
    results: list[ResultColumn] = list(layout.results)
    multipliers = {(r.bet, r.seat): field[r.column] for r in results if r.kind == "multiplier"}
    sources: list[Source] = []
    for r in results:
        if r.kind == "flag":
            why = vocabulary.check_flag(r.bet)
            if why is not None:
                raise OddsError(f"{label}: column {r.column!r}: {why}")
        if r.kind in ("result", "flag"):
            multiplier = multipliers.get((r.bet, r.seat)) if r.kind == "result" else None
            sources.append(Source(r.bet, r.seat, r.kind, field[r.column], r.column, multiplier))
    winner = next((r for r in results if r.kind == "winner"), None)
    notes = [
        "a results-only log (each bet's outcome, no cards): not run, because they need the "
        f"cards: {', '.join(NEEDS_CARDS)}"
    ]
    if winner is not None:
        told = [b for b in vocabulary.by_winner if not any(s.bet == b for s in sources)]
        if not told and not vocabulary.by_winner:
            raise OddsError(
                f"{label}: column {winner.column!r}: the winner tells no bet's outcome in this "
                "game; give result_<bet> columns"
            )
        seats = sorted({s.seat for s in sources}) or [""]
        for bet in told:
            for seat in seats:
                sources.append(Source(bet, seat, "winner", field[winner.column], winner.column))
    order = {b: i for i, b in enumerate(vocabulary.bets)}
    sources.sort(key=lambda s: (order[s.bet], _seat_number(s.seat)))
    untold = [b for b in vocabulary.bets if not any(s.bet == b for s in sources)]
    if untold:
        notes.append(f"bets the log gives no result for, not tested: {', '.join(untold)}")
    told_money = {(s.bet, s.seat) for s in sources}
    unchecked = sorted({m.bet for m in layout.money if (m.bet, m.seat) not in told_money})
    if unchecked:
        notes.append(
            f"stakes and payouts of bets without a result cannot be checked: {', '.join(unchecked)}"
        )
    return sources, notes


def _field_or_empty(field: str | None) -> str:
    """SQL: a row's field, or the empty text when the source has none."""
    return f"r.{field}" if field else "''"


def _seat_number(seat: str) -> int:
    return int(seat.rsplit("_", 1)[1]) if seat else 0


class _ResultsLog:
    """One open results-only log (the view ``rows``): the queries that read it."""

    def __init__(
        self,
        con: Any,
        label: str,
        unit: str,
        width: int,
        layout: Layout,
        sources: Sequence[Source],
        vocabulary: Vocabulary,
    ) -> None:
        self.con, self.label, self.unit, self.width, self.layout = con, label, unit, width, layout
        self.sources, self.vocabulary = list(sources), vocabulary
        self.dims: tuple[Dimension, ...] = ()
        self.col = {
            name: f"f{i + 1}"
            for table in (layout.labels, layout.extra)
            for name, i in table.items()
        }
        self.labels = tuple(name for name in ("shoe", "round", "position") if name in self.col)
        self.cells: list[Cell] = []
        self.bets = list(dict.fromkeys(s.bet for s in self.sources))
        self.bet_columns: list[BetColumns] = []

    def counts(
        self, dims: Sequence[Dimension], paths: bool, update: Callable[[float], None]
    ) -> LogCounts:
        """Every count the audit tests (``dims``: the ``--by`` groups; ``update``: progress)."""
        self.dims = tuple(dims)
        self._check_fields()
        update(40)
        self._read_values()
        update(55)
        self._materialize()
        self._check_stakes()
        if self.dims:
            check_groups(self.con, self.dims, f"{self.label} {self.unit}")
        self._final()
        update(75)
        results = ResultsLog({b: tuple(c for c in self.cells if c.bet == b) for b in self.bets}, ())
        groups, settled = self._groups(results)
        rows, kinds = self._summary()
        payouts = self._check_payouts()
        update(90)
        by_groups: list[GroupCounts] = []
        group_paths: list[GroupPath] = []
        if self.dims:
            money = bets_sql(self.bet_columns, TOLERANCE, rows) if self.bet_columns else None
            by_groups, group_paths = count_groups(self.con, self.dims, settled, money, paths)
        update(100)
        return LogCounts(
            source=self.label,
            unit=self.unit,
            rows=rows,
            used=sum(g.count for g in groups),
            untested=0,
            rejected=tuple(self._listed()),
            rejected_kinds={k: n for k, n in kinds.items() if n},
            groups=tuple(groups),
            labels=self.labels,
            payouts=payouts,
            by_groups=tuple(by_groups),
            group_paths=tuple(group_paths),
            results=results,
        )

    # -- reading ------------------------------------------------------------------------

    def _ok(self) -> str:
        """SQL: a row with the header's fields, well quoted, not blank."""
        return f"NOT blank AND nf = {self.width} AND NOT bad_quotes"

    def _check_fields(self) -> None:
        """The first row with the wrong number of fields or bad quoting: a one-line error."""
        found = self.con.execute(
            "SELECT line, nf, bad_quotes, open_quote FROM rows "
            f"WHERE NOT blank AND NOT ({self._ok()}) ORDER BY line LIMIT 1"
        ).fetchall()
        if not found:
            return
        line, nf, bad_quotes, open_quote = found[0]
        raise malformed(f"{self.label} {self.unit} {line}", nf, self.width, bad_quotes, open_quote)

    def _read_values(self) -> None:
        """Each source's distinct values, read once into cells; an unknown one names its line."""
        import numpy as np

        rows: list[tuple[int, str, str, int]] = []
        known: dict[Cell, int] = {}
        values = ", ".join(  # every source's (value, multiplier) in one scan of the log
            "{" + f"'k': {k}, 't': {s.field}, 'm': {s.multiplier or EMPTY}" + "}"
            for k, s in enumerate(self.sources)
        )
        found = self.con.execute(
            f"SELECT DISTINCT v.k, v.t, v.m FROM (SELECT unnest([{values}]) AS v FROM rows "
            f"WHERE {self._ok()}) WHERE v.t <> '' OR v.m <> '' ORDER BY ALL"
        ).fetchall()
        for k, text, times in found:
            source = self.sources[k]
            try:
                if not text:
                    raise OddsError(f"a multiplier ({times!r}) but no result")
                cell = self._cell(source, text, times)
            except OddsError as exc:
                raise self._named(source, text, times, exc) from None
            number = known.setdefault(cell, len(known))
            rows.append((k, text, times, number))
        self.cells = list(known)
        value_cells = {  # noqa: F841 - read by DuckDB's replacement scan below
            "source": np.array([r[0] for r in rows], dtype=np.int64),
            "text": np.array([r[1] for r in rows], dtype=object),
            "times": np.array([r[2] for r in rows], dtype=object),
            "cell": np.array([r[3] for r in rows], dtype=np.int64),
        }
        self.con.execute(
            "CREATE OR REPLACE TABLE value_cells AS SELECT source, text::VARCHAR AS text, "
            "times::VARCHAR AS times, cell FROM value_cells"
        )

    def _cell(self, source: Source, text: str, times: str) -> Cell:
        if source.kind == "winner":
            return self.vocabulary.winner(source.bet, text)
        if source.kind == "flag":
            return self.vocabulary.flag(source.bet, text)
        return self.vocabulary.result(source.bet, text, times)

    def _named(self, source: Source, text: str, times: str, exc: OddsError) -> OddsError:
        """The error of a value, at the first line that has it."""
        multiplier = source.multiplier or "''"
        (line,) = self.con.execute(
            f"SELECT min(line) FROM rows WHERE {self._ok()} AND {source.field} = ? "
            f"AND {multiplier} = ?",
            [text, times],
        ).fetchone()
        return OddsError(f"{self.label} {self.unit} {line}, column {source.column}: {exc}")

    def _check_money_texts(self) -> None:
        """A money field that is not an amount: a one-line error naming its line and column."""
        fields = self.layout.money_fields()
        if not fields:
            return
        texts = ", ".join(f for _, f in fields)
        found = self.con.execute(  # the distinct amounts (a few hundred), in one scan
            f"SELECT DISTINCT t FROM (SELECT unnest([{texts}]) AS t FROM rows WHERE {self._ok()}) "
            "WHERE t <> ''"
        ).fetchall()
        bad = sorted(t for (t,) in found if not re.fullmatch(AMOUNT_PATTERN, t))
        if not bad:
            return
        listed = ", ".join(sql_text(t) for t in bad)
        wrong = " OR ".join(f"{f} IN ({listed})" for _, f in fields)
        ((line, *amounts),) = self.con.execute(  # the first line with one, and its column
            f"SELECT line, {texts} FROM rows WHERE {self._ok()} AND ({wrong}) ORDER BY line LIMIT 1"
        ).fetchall()
        k, text = next((k, t) for (k, _), t in zip(fields, amounts, strict=True) if t in bad)
        raise OddsError(
            f"{self.label} {self.unit} {line}, column {self.layout.money[k].column}: "
            f"{text!r} is not an amount ({AMOUNT_RULE})"
        )

    def _materialize(self) -> None:
        """``log``: one row per log row — line, why rejected, each source's cell, labels, money."""
        self._check_money_texts()
        joins = " ".join(
            f"LEFT JOIN value_cells v{k} ON v{k}.source = {k} AND v{k}.text = r.{s.field} "
            f"AND v{k}.times = {_field_or_empty(s.multiplier)}"
            for k, s in enumerate(self.sources)
        )
        cells = "".join(f", v{k}.cell AS c{k}" for k in range(len(self.sources)))
        labels = "".join(f", r.{self.col[name]} AS {name}" for name in self.labels)
        labels += "".join(f", {dim.sql} AS g{k}" for k, dim in enumerate(self.dims))
        money = money_columns(self.layout)
        empty = " AND ".join(f"r.f{i} = ''" for i in range(1, self.width + 1))
        none = " AND ".join(f"v{k}.cell IS NULL" for k in range(len(self.sources))) or "true"
        with small_side_built(self.con):  # the value table is built, the log probes it
            self.con.execute(f"""
                CREATE OR REPLACE TABLE log AS
                SELECT r.line,
                       CASE WHEN r.blank THEN {CODES["blank"]}
                            WHEN {empty} THEN {CODES["empty"]}
                            WHEN {none} THEN {CODES["results"]}
                       END::UTINYINT AS why
                       {cells}{labels}{money}
                FROM rows r {joins}
            """)

    def _check_stakes(self) -> None:
        """A stake placed on a bet whose result the row does not give: a one-line error."""
        where = {(s.bet, s.seat): k for k, s in enumerate(self.sources)}
        for k, m in enumerate(self.layout.money):
            if m.kind != "stake" or (m.bet, m.seat) not in where:
                continue
            c = where[m.bet, m.seat]
            found = self.con.execute(
                f"SELECT line FROM log WHERE why IS NULL AND coalesce(m{k}, 0) <> 0 "
                f"AND c{c} IS NULL ORDER BY line LIMIT 1"
            ).fetchall()
            if found:
                at = f" at {m.seat}" if m.seat else ""
                raise OddsError(
                    f"{self.label} {self.unit} {found[0][0]}: a stake on {m.bet}{at} "
                    f"({m.column}) but no result for it: the payout cannot be checked"
                )

    def _final(self) -> None:
        """``final``: each row's kind (NULL: tested) and its combination of tested cells."""
        pooled = []
        for bet in self.bets:
            ks = [k for k, s in enumerate(self.sources) if s.bet == bet]
            pooled.append(
                f"coalesce({', '.join(f'c{k}' for k in ks)})" if len(ks) > 1 else f"c{ks[0]}"
            )
        key = [name for name in ("shoe", "round") if name in self.col]
        repeated = "NULL"
        if "round" in self.col:
            names = ", ".join(key)
            repeated = (
                f"CASE WHEN why IS NULL AND round <> '' AND "
                f"count(*) OVER (PARTITION BY why IS NULL, {names}) > 1 THEN {CODES['round']} END"
            )
        self.con.execute(f"""
            CREATE OR REPLACE TABLE keyed AS
            SELECT *, [{", ".join(pooled)}] AS cells, coalesce(why, {repeated}) AS kind,
                   false AS extra
            FROM log
        """)
        self.con.execute("""
            CREATE OR REPLACE TABLE combos AS
            SELECT cells, (row_number() OVER (ORDER BY cells) - 1)::BIGINT AS combo
            FROM (SELECT DISTINCT cells FROM keyed WHERE kind IS NULL)
        """)
        self.con.execute("""
            CREATE OR REPLACE TABLE final AS
            SELECT k.*, c.combo FROM keyed k LEFT JOIN combos c
                ON k.kind IS NULL AND k.cells IS NOT DISTINCT FROM c.cells
            ORDER BY k.line
        """)

    # -- counting -----------------------------------------------------------------------

    def _settled_bet(self, results: ResultsLog, cell: Cell) -> SettledBet:
        bet = self.vocabulary.bets[cell.bet]
        debited = bet.debited
        event = results.label(bet, cell.events)
        return SettledBet(cell.bet, Fraction(1), debited, debited + cell.net, "as logged", event)

    def _groups(self, results: ResultsLog) -> tuple[list[SettledGroup], dict[int, Settlement]]:
        groups, settled = [], {}
        for combo, cells, count in self.con.execute(
            "SELECT combo, any_value(cells), count(*) FROM final WHERE kind IS NULL "
            "GROUP BY combo ORDER BY combo"
        ).fetchall():
            bets = tuple(self._settled_bet(results, self.cells[c]) for c in cells if c is not None)
            settlement = Settlement((), bets, ("as logged: no cards",))
            groups.append(SettledGroup(settlement, count))
            settled[combo] = settlement
        return groups, settled

    def _summary(self) -> tuple[int, dict[str, int]]:
        counts = ", ".join(f"count(*) FILTER (WHERE kind = {code})" for code in CODES.values())
        (row,) = self.con.execute(f"SELECT count(*), {counts} FROM final").fetchall()
        return row[0], dict(zip(CODES, row[1:], strict=True))

    def _listed(self) -> list[Rejected]:
        names = {code: kind for kind, code in CODES.items()}
        labels = ", ".join(name if name in self.col else "NULL" for name in ("shoe", "round"))
        found = []
        for line, kind, shoe, round_ in self.con.execute(
            f"SELECT line, kind, {labels} FROM final WHERE kind IS NOT NULL "
            f"ORDER BY line LIMIT {MAX_LISTED}"
        ).fetchall():
            reason = {
                "blank": "blank line",
                "empty": "empty row (every field empty)",
                "results": "no bet has a result",
            }.get(names[kind])
            if reason is None:
                where = f"shoe {shoe}, round {round_}" if "shoe" in self.col else f"round {round_}"
                reason = f"{where}: the round is on more than one row: a round number repeated"
            found.append(Rejected(line, reason))
        return found

    # -- the settlement audit ------------------------------------------------------------

    def _check_payouts(self) -> SettlementAudit | None:
        """Each bet's paid amount against its stake times the paytable's return for its result."""
        where = {(m.kind, m.bet, m.seat): f"m{k}" for k, m in enumerate(self.layout.money)}
        told = {(s.bet, s.seat): f"c{k}" for k, s in enumerate(self.sources)}
        self.bet_columns = [
            BetColumns(seat, bet, stake, where["paid", bet, seat], told[bet, seat], ("line",))
            for (kind, bet, seat), stake in where.items()
            if kind == "stake" and (bet, seat) in told
        ]
        if not self.bet_columns:
            return None
        labels = round_label_sql(self.col, self.unit)
        results = ResultsLog({}, ())

        def unit_returns(
            examples: list[tuple[int, tuple[int, ...]]],
        ) -> dict[int, dict[str, Fraction]]:
            found = {}
            for cell_id, _ in examples:
                settled = self._settled_bet(results, self.cells[cell_id])
                found[cell_id] = {settled.bet: settled.returned}
            return found

        return audit_payouts(self.con, self.bet_columns, labels, unit_returns)
