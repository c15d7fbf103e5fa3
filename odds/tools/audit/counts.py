"""What reading a round log found: its rows, the rejected ones, and the rounds settled alike.

Both readers fill it — :mod:`odds.tools.audit.reader` (a log of cards, each kind of
round settled once by the game) and :mod:`odds.tools.audit.results` (a results-only
log: each bet's outcome as the operator logged it, no cards) — and the audit
(:mod:`odds.tools.audit.audit`) tests it, whichever read it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from odds.core.settlement import Settlement
from odds.tools.audit.groups import GroupCounts, GroupPath
from odds.tools.audit.integrity import Finding
from odds.tools.audit.outcomes import ResultsLog
from odds.tools.audit.payouts import SettlementAudit
from odds.tools.audit.shoes import ShoeLog


@dataclass(frozen=True)
class Rejected:
    """A row that was read but not used, with why (``line``: CSV line or Parquet row)."""

    line: int
    reason: str


@dataclass(frozen=True)
class SettledGroup:
    """Rounds that settle alike: one example settled with a stake of 1, and how many."""

    settlement: Settlement
    count: int


@dataclass(frozen=True)
class LogCounts:
    """What reading a log found: rows, rejections, and the settled groups."""

    source: str
    unit: str  # "line" (CSV) or "row" (Parquet)
    rows: int
    used: int
    untested: int  # further positions of a round: checked, not tested (see _check_rounds)
    rejected: tuple[Rejected, ...]  # the first MAX_LISTED, in file order
    rejected_kinds: dict[str, int]
    groups: tuple[SettledGroup, ...]
    labels: tuple[str, ...] = ()  # the label columns the log has (shoe, round, position)
    size: int = 0  # bytes read from the file (as stored: compressed for a gzipped log)
    sha256: str = ""  # their SHA-256, hex: exactly the bytes audited
    payouts: SettlementAudit | None = None  # the settlement audit, when the log has payouts
    findings: tuple[Finding, ...] = ()  # problems of the log as a whole (shoe integrity)
    finding_kinds: dict[str, int] = dataclasses.field(default_factory=dict)  # all, by kind
    by_groups: tuple[GroupCounts, ...] = ()  # --by: each group's counts (odds.tools.audit.groups)
    group_paths: tuple[GroupPath, ...] = ()  # --by with --charts: each group's cumulative nets
    results: ResultsLog | None = None  # a results-only log: what it tells (no cards)
    shoes: ShoeLog | None = None  # a shoe-ordered log's shoes, card by card (shoe-level tests)
    shoes_in_log: int = 0  # how many shoes the whole log has (the shoe-level tests may read fewer)

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected_kinds.values())
