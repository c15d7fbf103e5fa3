"""Shoe integrity: every shoe of a shoe-ordered log holds what a shoe can hold, once.

A log with a ``shoe`` column says which cards came out of which shoe. Three
things are then checked, each in one query over the whole log (DuckDB; no row
is held in Python), each a named :class:`Finding` that flags the audit:

* **a card more often than the shoe holds it** (a ninth A♠ from eight decks):
  the shoe, the card, how often, and the round in which the shoe ran out of it;
* **more cards than the shoe holds** (a shoe with 500 cards from 416): the
  shoe, its cards and rounds;
* **a shoe id used again** after other shoes (two shoes under one label, or a
  shoe's rows shuffled into another's): the shoe and the line where it comes back.

A round's shared hand (the Banker's) is counted once per round, each seat's
and each position row's own hand once. The cards of rows rejected for their
round labels or for an impossible hand are counted too: they are what the
log says was dealt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from odds.core.shoe import Shoe

#: Findings of one kind named in full (all are counted).
MAX_NAMED = 20


@dataclass(frozen=True)
class Finding:
    """A named problem of the log as a whole (not of one row): it flags the audit."""

    kind: str  # "card over", "shoe over", "shoe reused"
    shoe: str
    text: str


def shoe_findings(
    con: Any,
    shoe: Shoe[Any],
    cards_sql: str,
    where: Callable[[int], str],
    counts_sql: str | None = None,
    one_row_rounds: bool = False,
) -> tuple[list[Finding], dict[str, int]]:
    """The findings (the first :data:`MAX_NAMED` of each kind) and how many of each kind.

    ``cards_sql`` selects ``(line, shoe, round, items)`` — the type indices each row
    adds to its shoe; ``where(line)`` names a line for messages. ``counts_sql``, when
    given, selects the same rows as ``(line, shoe, round, n)`` with ``n = len(items)``
    computed without the lists: the per-shoe counts then read it, and the lists (a
    view, never stored) are built only for the shoes that could hold a card too often.
    ``one_row_rounds`` says that no two of those rows share a (shoe, round): a shoe's
    rounds are then its rows, counted without grouping by round first.
    """
    if counts_sql is None:
        con.execute(f"CREATE OR REPLACE TABLE shoe_cards AS {cards_sql}")
        counts_sql = "SELECT line, shoe, round, len(items) AS n FROM shoe_cards"
    else:
        con.execute(f"CREATE OR REPLACE VIEW shoe_cards AS {cards_sql}")
    con.execute(f"CREATE OR REPLACE VIEW shoe_rows AS {counts_sql}")
    counts = "[" + ", ".join(str(c) for c in shoe.counts) + "]"
    names = [str(t) for t in shoe.types]
    findings: list[Finding] = []
    totals: dict[str, int] = {}

    fewest = min((c for c in shoe.counts if c > 0), default=0)
    # Per shoe, its cards, rows and lines (plain aggregates: no lists). A shoe of one row is
    # that row's cards, which the row check has tested already (an impossible row is rejected);
    # of the others, each is sorted, so that a type dealt more often than the shoe holds it
    # (c copies) shows as a card equal to the one c places after it: a lambda per card, not a
    # hash table of every shoe's every type. Shoes with fewer repeats than the scarcest card's
    # copies cannot be over and skip even that.
    per_round = (
        "shoe_rows"
        if one_row_rounds
        else """(SELECT shoe, round, sum(n) AS n, count(*) AS row_count,
                        min(line) AS first, max(line) AS last
                 FROM shoe_rows GROUP BY shoe, round)"""
    )
    rows = "1" if one_row_rounds else "row_count"
    first, last = ("line", "line") if one_row_rounds else ("first", "last")
    con.execute(f"""
        CREATE OR REPLACE TABLE shoe_summary AS
        SELECT shoe, sum(n) AS n, sum({rows}) AS row_count, count(*) AS rounds,
               min({first}) AS first, max({last}) AS last
        FROM {per_round}
        GROUP BY shoe
    """)  # rounds counted by grouping twice: count(DISTINCT …) per group cannot spill to disk
    # A shoe whose rows fill the lines from its first to its last cannot come back after
    # another shoe; only when some shoe does not is the log walked in line order (a sort).
    (several, interleaved) = con.execute(
        "SELECT coalesce(max(row_count), 0) > 1, "
        "count(*) FILTER (WHERE last - first + 1 <> row_count) FROM shoe_summary"
    ).fetchone()
    # Only a shoe of several rows can hold a card too often (see above): a log whose every
    # round is a fresh shoe skips the three list queries (a third of a small audit's SQL).
    over = [] if not several else _cards_over(con, counts, fewest)
    for shoe_id, type_, n, round_, line, total in over:
        totals["card over"] = total
        held = shoe.counts[type_]
        findings.append(
            Finding(
                "card over",
                shoe_id,
                f"shoe {shoe_id}: {names[type_]} dealt {n} times, the shoe holds {held}; "
                f"the shoe runs out of it in {_round(round_)} ({where(line)})",
            )
        )
    size = shoe.size
    big = con.execute(f"""
        SELECT shoe, n, rounds, first, last, count(*) OVER () AS total
        FROM shoe_summary WHERE n > {size}
        ORDER BY first LIMIT {MAX_NAMED}
    """).fetchall()
    for shoe_id, n, rounds, first, last, total in big:
        totals["shoe over"] = total
        findings.append(
            Finding(
                "shoe over",
                shoe_id,
                f"shoe {shoe_id}: {n:,} cards in {rounds:,} rounds ({where(first)} to "
                f"{where(last)}), the shoe holds {size:,}",
            )
        )
    if not interleaved:
        return findings, totals
    reused = con.execute(f"""
        WITH starts AS (
            SELECT shoe, line, round,
                   shoe IS DISTINCT FROM lag(shoe) OVER (ORDER BY line) AS start
            FROM shoe_rows),
        runs AS (
            SELECT shoe, line, round, row_number() OVER (PARTITION BY shoe ORDER BY line) AS run
            FROM starts WHERE start)
        SELECT shoe, line, round, count(*) OVER () AS total FROM runs WHERE run = 2
        ORDER BY line LIMIT {MAX_NAMED}
    """).fetchall()
    for shoe_id, line, round_, total in reused:
        totals["shoe reused"] = total
        findings.append(
            Finding(
                "shoe reused",
                shoe_id,
                f"shoe {shoe_id} comes back at {where(line)} ({_round(round_)}) after other "
                "shoes: one label for two shoes, or a shoe's rows out of order",
            )
        )
    return findings, totals


def _cards_over(con: Any, counts: str, fewest: int) -> list[Any]:
    """(shoe, type, times dealt, round, line, total) for each card dealt too often in a shoe
    of several rows, first by line (the ``shoe_summary`` and ``shoe_cards`` of
    :func:`shoe_findings`; ``counts`` each type's copies as an SQL list)."""
    con.execute(f"""
        CREATE OR REPLACE TABLE shoe_flagged AS
        SELECT shoe FROM (
            SELECT shoe, list_sort(flatten(list(items))) AS sorted, sum(len(items)) AS n
            FROM shoe_cards SEMI JOIN (SELECT shoe FROM shoe_summary WHERE row_count > 1)
                 USING (shoe)
            GROUP BY shoe)
        WHERE n - len(list_distinct(sorted)) >= {fewest}
          AND list_bool_or(list_transform(sorted, lambda x, i:
                  i + {counts}[x + 1] <= n AND sorted[i + {counts}[x + 1]] = x))
    """)
    con.execute(f"""
        CREATE OR REPLACE TABLE shoe_over AS
        SELECT shoe, type, count(*) AS n FROM (
            SELECT shoe, unnest(items) AS type
            FROM shoe_cards SEMI JOIN shoe_flagged USING (shoe))
        GROUP BY shoe, type HAVING count(*) > {counts}[type + 1]
    """)
    return con.execute(f"""
        WITH running AS (
            SELECT shoe, line, round, type,
                   row_number() OVER (PARTITION BY shoe, type ORDER BY line) AS k
            FROM (SELECT c.shoe, c.line, c.round, unnest(c.items) AS type
                  FROM shoe_cards c SEMI JOIN shoe_over o USING (shoe))
            SEMI JOIN shoe_over USING (shoe, type))
        SELECT shoe, type, any_value(o.n), arg_min(round, line), min(line),
               count(*) OVER () AS total
        FROM running JOIN shoe_over o USING (shoe, type)
        WHERE k = {counts}[type + 1] + 1
        GROUP BY shoe, type ORDER BY min(line), type LIMIT {MAX_NAMED}
    """).fetchall()


def _round(round_: Any) -> str:
    return "the log's row" if round_ is None else f"round {round_}"
