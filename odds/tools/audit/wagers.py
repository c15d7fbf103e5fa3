"""Wager logs (``odds audit --wagers``): who bet what, joined to the rounds of the round log.

Operators export wagers apart from the rounds: one row per wager with
``shoe,round,account,bet,stake`` (and ``seat`` where the game seats players
against a shared hand, as Pok Deng does); other column names are mapped with
``--wager-columns``. The file is read through the same layer as the round log
(:func:`odds.tools.audit.sources.stage_table`: CSV, gzip or Parquet, the bytes
hashed, line numbers exact), so what is audited is exactly what was named.

Every row is checked before it is used, and a row that fails is rejected and
named, never used — a wager that cannot be placed in a round cannot be valued,
and a guessed value would be worse than none:

* its ``(shoe, round)`` must be a round of the round log's shoes (a round log
  without a ``round`` column numbers its rounds within each shoe from 1);
* its bet must be one the paytable names (``dragon-7``, as ``odds report`` prints it);
* its stake must be a positive number in ASCII digits (``25``, ``2.50``): a
  negative, zero, non-numeric stake or one in other digits (``٢٥``) is refused
  rather than read (a spreadsheet's locale is not a number format);
* its seat, in a seated game, must be one the round dealt a hand to.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from odds.core.errors import OddsError
from odds.runtime.inputs import InputFile
from odds.tools.audit.counts import Rejected
from odds.tools.audit.shoes import DealtShoe
from odds.tools.audit.sources import database, stage_table

#: The columns a wager log must have, and the one a seated game's log must add.
WAGER_COLUMNS = ("shoe", "round", "account", "bet", "stake")
SEAT = "seat"
#: Rejected rows listed by name (all are counted).
MAX_LISTED = 1000
#: A stake: ASCII digits, an optional decimal part (no sign, no grouping, no exponent).
STAKE = re.compile(r"[0-9]+(?:\.[0-9]+)?|\.[0-9]+", re.ASCII)


@dataclass(frozen=True)
class Wager:
    """One wager, joined to its round: which shoe and round (indices), who, what, how much."""

    line: int  # its CSV line (or Parquet row) in the wager log
    shoe: int  # index into the shoes
    round: int  # index of its round within the shoe
    account: str
    bet: str
    stake: Fraction
    seat: int | None = None  # 1-based seat, in a seated game


@dataclass(frozen=True)
class WagerLog:
    """The wager log as read: the wagers used and the rows rejected, named."""

    source: str
    unit: str
    rows: int
    wagers: tuple[Wager, ...]
    rejected: tuple[Rejected, ...]  # the first MAX_LISTED, in file order
    rejected_kinds: dict[str, int]
    size: int = 0
    sha256: str = ""
    notes: tuple[str, ...] = ()
    unread: int = 0  # wagers on shoes past the rows read shoe by shoe (--shoe-rows): not used

    @property
    def rejected_total(self) -> int:
        return sum(self.rejected_kinds.values())


def parse_wager_columns(text: str | None) -> dict[str, str]:
    """``--wager-columns``: ``ours=theirs`` pairs (``account=player_id,stake=amount``)."""
    from odds.tools.audit.layout import parse_mapping

    mapping = parse_mapping(text)
    for key in mapping:
        if key not in (*WAGER_COLUMNS, SEAT):
            raise OddsError(
                f"--wager-columns: {key!r} is not a wager column "
                f"({', '.join((*WAGER_COLUMNS, SEAT))})"
            )
    return mapping


def parse_stake(text: str) -> tuple[Fraction | None, str]:
    """The stake, or None and why it is refused (``kind: detail``).

    >>> parse_stake("2.50")
    (Fraction(5, 2), '')
    >>> parse_stake("-5")[1]
    "negative stake: '-5'"
    """
    if STAKE.fullmatch(text):
        value = Fraction(text)
        if value == 0:
            return None, f"zero stake: {text!r}"
        return value, ""
    if not text:
        return None, "no stake"
    if any(c.isdigit() and not c.isascii() for c in text):
        return None, f"stake not in ASCII digits: {text!r}"
    if text.startswith("-") and STAKE.fullmatch(text[1:]):
        return None, f"negative stake: {text!r}"
    return None, f"stake not a number: {text!r}"


def read_wagers(
    path: Path,
    shoes: Sequence[DealtShoe],
    bets: Sequence[str],
    mapping: Mapping[str, str] | None = None,
    encoding: str | None = None,
    seated: bool = False,
    truncated: bool = False,
) -> WagerLog:
    """Read the wager log and join every row to a round of ``shoes``; reject the rest, named.

    ``bets`` are the paytable's bet names; ``seated`` says the game seats players
    against a shared hand (a ``seat`` column is then required). ``truncated`` says the
    round log's shoes were read only in part (``--shoe-rows``): a wager on a shoe not read
    is then left out and counted, not rejected (it may well join a later shoe).
    """
    mapping = dict(mapping or {})
    with InputFile(path) as file, database() as db:
        staged = stage_table(db, file, encoding)
        index = _columns(staged.columns, mapping, seated, file.label)
        source, digest = staged.everything(lambda share: None)
        fields = ", ".join(f"f{i + 1}" for i in index.values())
        rows = db.con.execute(
            f"SELECT line, nf, blank, bad_quotes, {fields} FROM ({source.relation()}) ORDER BY line"
        ).fetchall()
        width = len(source.columns)
        unit = source.unit
    where = {  # a round log without a round column: rounds counted within each shoe from 1
        (shoe.label, r.label or str(i + 1)): (s, i)
        for s, shoe in enumerate(shoes)
        for i, r in enumerate(shoe.rounds)
    }
    known = set(bets)
    names = list(index)
    wagers: list[Wager] = []
    rejected: list[Rejected] = []
    kinds: Counter[str] = Counter()
    labels = {shoe.label for shoe in shoes}
    unread = 0

    def refuse(line: int, kind: str, reason: str) -> None:
        kinds[kind] += 1
        if len(rejected) < MAX_LISTED:
            rejected.append(Rejected(line, reason))

    for line, nf, blank, bad_quotes, *values in rows:
        if blank:
            refuse(line, "blank", "blank line")
            continue
        if nf != width or bad_quotes:
            refuse(line, "malformed", f"malformed row ({nf} fields, the header has {width})")
            continue
        row = dict(zip(names, (v or "" for v in values), strict=True))
        found = where.get((row["shoe"], row["round"]))
        if found is None and truncated and row["shoe"] not in labels:
            unread += 1
            continue
        if found is None:
            refuse(
                line,
                "no round",
                f"shoe {row['shoe']!r} round {row['round']!r} is not a round of the round log",
            )
            continue
        if not row["account"]:
            refuse(line, "no account", "no account")
            continue
        if row["bet"] not in known:
            refuse(
                line,
                "unknown bet",
                f"unknown bet {row['bet']!r} (the paytable's bets: {', '.join(bets)})",
            )
            continue
        stake, why = parse_stake(row["stake"])
        if stake is None:
            refuse(line, "bad stake", why)
            continue
        seat = None
        if seated:
            dealt = shoes[found[0]].rounds[found[1]].seats
            text = row.get(SEAT, "")
            if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= len(dealt):
                refuse(line, "bad seat", f"seat {text!r} is not a seat of the table")
                continue
            seat = int(text)
            if not dealt[seat - 1]:
                refuse(line, "bad seat", f"seat {seat} was dealt no hand in that round")
                continue
        wagers.append(Wager(line, found[0], found[1], row["account"], row["bet"], stake, seat))
    return WagerLog(
        str(path),
        unit,
        len(rows),
        tuple(wagers),
        tuple(rejected),
        dict(kinds),
        digest.size,
        digest.sha256,
        unread=unread,
    )


def _columns(
    columns: Sequence[str], mapping: Mapping[str, str], seated: bool, label: str
) -> dict[str, int]:
    """Each wager column's index in the header (names matched without regard to case)."""
    lower = {c.lower(): i for i, c in reversed(list(enumerate(columns)))}
    wanted = [*WAGER_COLUMNS, SEAT] if seated else list(WAGER_COLUMNS)
    index = {}
    for name in wanted:
        theirs = mapping.get(name, name)
        i = lower.get(theirs.lower())
        if i is None:
            given = f" (mapped to {theirs!r})" if name in mapping else ""
            extra = " (the game seats players: which seat each wager is at)" if name == SEAT else ""
            raise OddsError(
                f"{label}: the wager log has no {name!r} column{given}{extra}; it needs "
                f"{','.join(wanted)} (other names: --wager-columns {name}=COLUMN)"
            )
        index[name] = i
    return index
