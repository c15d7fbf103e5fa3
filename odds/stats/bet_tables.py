r"""The tables every analysis report shows, whatever the game: one row per bet or outcome.

Columnar :class:`odds.core.table.Table`\s holding exact values, so the report's
Markdown, the JSON and the CSV come from the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from odds.core.errors import OddsError
from odds.core.options import value_text
from odds.core.table import Column, Kind, Table
from odds.core.version import __version__
from odds.stats.bets import Bet, volatility_index

if TYPE_CHECKING:
    from odds.stats.analysis import Analysis


def outcome_table(bet: Bet) -> Table:
    """Event | pays | ways | probability | return, with a total row (Wizard-of-Odds style)."""
    stats = bet.stats
    # A decision that adds a stake (Three Card Poker's Play): each outcome's total wager.
    raised = any(o.wagered != 1 for o in bet.outcomes)
    rows = []
    for outcome in bet.outcomes:
        p = Fraction(outcome.ways, stats.total)
        rows.append(
            {
                "event": outcome.event,
                "net": outcome.net,
                **({"wagered": outcome.wagered} if raised else {}),
                "ways": outcome.ways,
                "probability": p,
                "return": p * outcome.net,
            }
        )
    total = {"event": "Total", "ways": stats.total, "probability": Fraction(1), "return": stats.ev}
    if raised:
        total["wagered"] = bet.average_wager
    wagered = (Column("wagered", "wagered", Kind.NUMBER),) if raised else ()
    return Table(
        key=f"outcomes_{bet.name}",
        title=f"Bet: {bet.title} (`{bet.name}`)",
        columns=(
            Column("event", "event"),
            Column("net", "pays", Kind.NET),
            *wagered,
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
            Column("return", "return", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total=total,
    )


def summary_table(analysis: Analysis) -> Table:
    """Every bet's exact EV, house edge, RTPs, hit frequency, SD and volatility index."""
    rows = []
    for bet in staked(analysis):
        s = bet.stats
        rows.append(
            {
                "bet": bet.title,
                "ev": s.ev,
                "house_edge": s.house_edge,
                "rtp": s.rtp,
                "rtp_debited": s.rtp_debited,
                "hit_frequency": s.hit_frequency,
                "sd": s.sd,
                "volatility_index": volatility_index(s),
            }
        )
    return Table(
        key="summary",
        title="Summary",
        columns=(
            Column("bet", "bet"),
            Column("ev", "EV (exact)", Kind.EXACT),
            Column("house_edge", "house edge", Kind.PERCENT),
            Column("rtp", "RTP per stake", Kind.PERCENT),
            Column("rtp_debited", "RTP per debited", Kind.PERCENT),
            Column("hit_frequency", "hit frequency", Kind.PERCENT),
            Column("sd", "SD", Kind.APPROXIMATE),
            Column("volatility_index", "VI (90%)", Kind.APPROXIMATE),
        ),
        rows=tuple(rows),
        note=" ".join(n for n in (favours_player_note(analysis), riders_note(analysis)) if n),
    )


def staked(analysis: Analysis) -> list[Bet]:
    """The bets with a stake of their own (a bet riding on another's is in that one's row)."""
    return [bet for bet in analysis.bets if bet.rides_on is None]


def riders_note(analysis: Analysis) -> str:
    """One line naming the bets paid on another's stake ("" when none)."""
    riding = [f"{bet.title} (on {bet.rides_on})" for bet in analysis.bets if bet.rides_on]
    if not riding:
        return ""
    return (
        f"Paid on another bet's stake, with no stake of its own: {', '.join(riding)}; each is "
        "included in the row of the bet it rides on, and has its own section below."
    )


def favours_player_note(analysis: Analysis) -> str:
    """One line naming the bets whose EV is positive ("" when none): a negative house edge is
    a designer's right, but a report must not leave it to the reader to spot (issue 35, F14)."""
    favoured = [bet.title for bet in staked(analysis) if bet.stats.ev > 0]
    if not favoured:
        return ""
    names = ", ".join(favoured)
    return (
        f"Favours the player: {names} (a positive EV, so a negative house edge: the house "
        "loses on it in the long run)."
    )


def top_award_table(analysis: Analysis) -> Table:
    """Per bet: the largest win per unit staked, its ways and how rare it is ("1 in N")."""
    rows = []
    for bet in staked(analysis):
        top = bet.top_award
        ways = sum(o.ways for o in bet.outcomes if o.net == top)
        p = Fraction(ways, bet.stats.total)
        rows.append(
            {
                "bet": bet.title,
                "top_award": top,
                "ways": ways,
                "probability": p,
                "one_in": 1 / p if top > 0 else None,
            }
        )
    return Table(
        key="top_awards",
        title="Top award",
        columns=(
            Column("bet", "bet"),
            Column("top_award", "maximum win per unit staked", Kind.NET),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
            Column("one_in", "1 in", Kind.PROBABILITY, places=2),
        ),
        rows=tuple(rows),
        note="The largest net win one unit staked can bring in one round, and how often it "
        "comes: once in N rounds on average (N = 1 / probability, exact in JSON).",
    )


def rules_table(analysis: Analysis) -> Table:
    """Every option the analysis read, its value and what it means (the report's rules table)."""
    return Table(
        key="rules",
        title="Rules and readings used",
        columns=(
            Column("option", "option"),
            Column("value", "value"),
            Column("meaning", "meaning"),
        ),
        rows=tuple(
            {"option": r.key, "value": value_text(r.value), "meaning": r.meaning}
            for r in analysis.rules
        ),
    )


def about_table(analysis: Analysis, command: str | None = None) -> Table:
    """What was analysed, one fact a row: the identifiers a PAR sheet opens with.

    ``command`` is the command line that made the document, when one did.
    """
    facts = [
        ("game", analysis.game),
        ("title", analysis.title),
        ("paytable", analysis.paytable),
        ("paytable_sha256", analysis.file_sha256 or ""),
        ("options_sha256", analysis.options_sha256 or ""),
        ("shoe", analysis.shoe),
        ("deals", str(analysis.deals)),
        ("version", __version__),
    ]
    if command is not None:
        facts.append(("command", command))
    return facts_table("about", "What was analysed", facts)


def facts_table(key: str, title: str, facts: Sequence[tuple[str, str]]) -> Table:
    """Facts one a row, as a field and its value."""
    return Table(
        key=key,
        title=title,
        columns=(Column("field", "field"), Column("value", "value")),
        rows=tuple({"field": k, "value": v} for k, v in facts),
    )


#: The command-line words that choose a table, for error messages.
TABLE_HINT = "--table NAME"


def analysis_tables(analysis: Analysis) -> list[Table]:
    """Every table of an analysis, in report order, each under a key unique in the report.

    The summary, the top awards, the rules, one outcome table per bet, the
    game's tables, then the tables of the sections after the bets (keyed
    ``<section>.<table>``). Every output format reads this list.
    """
    tables = [summary_table(analysis), top_award_table(analysis), rules_table(analysis)]
    tables += [outcome_table(b) for b in analysis.bets]
    tables += analysis.tables
    for section in analysis.sections:
        tables += [replace(t, key=f"{section.key}.{t.key}") for t in section.tables]
    return tables


def choose_table(tables: Sequence[Table], name: str | None, folder_hint: str = "") -> Table:
    """The table called ``name`` (the only one, without a name); a one-line error otherwise."""
    keys = [t.key for t in tables]
    if name is None:
        if len(tables) == 1:
            return tables[0]
        more = f", or {folder_hint}" if folder_hint else ""
        raise OddsError(
            f"--format csv writes one table per file and this output has {len(tables)}: "
            f"choose one with {TABLE_HINT} ({', '.join(keys)}){more}"
        )
    for table in tables:
        if table.key == name:
            return table
    raise OddsError(f"--table {name}: no such table (the tables: {', '.join(keys)})")
