"""``odds verify``: does an operator's published figure match the exact value?

A stated figure is taken at the precision in which it is stated: "98.7%"
claims that the exact value, rounded half-up to one decimal of a percent, is
98.7 — i.e. that it lies in [98.65%, 98.75%). The claim is tried against
every basis the bet has (per unit staked; per unit debited when something is
withheld) and every combination of the rule book's readings
(:func:`odds.tools.variants.readings`), because operators rarely say which
basis or reading they used.

The verdict (:func:`decide`) is strict, and says exactly what matched:

* **VERIFIED** — the claim is reproduced by one bet under the paytable's own
  reading (the ``[rules]`` as the file and the overrides set them), on the
  basis named; without ``--bet``, only if exactly one bet reproduces it.
* **AMBIGUOUS** — without ``--bet``, several bets reproduce it under the
  paytable's reading: the figure does not say which bet it is for.
* **FAILED** — no bet reproduces it under the paytable's reading. A match
  under *another* reading (a no-commission Banker on a commission table) is
  named, but never verifies: it is a different game, and the paytable to check
  is that one (``--set rules.…`` or its own file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError, shortened
from odds.core.numbers import MAX_DECIMALS, percent
from odds.core.table import Column, Kind, Table, fields_table
from odds.games.paytable import Paytable
from odds.runtime.progress import track
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet
from odds.tools.variants import reading_text, readings, variant

_PERCENT = re.compile(r"^\s*([+-]?)([0-9]+)(?:\.([0-9]+))?\s*%\s*$")  # ASCII digits only


@dataclass(frozen=True)
class Claim:
    """A stated percentage: ``kind`` is ``rtp`` or ``house-edge``."""

    kind: str
    text: str
    value: Fraction
    decimals: int

    @property
    def half_unit(self) -> Fraction:
        """Half a unit in the last stated digit, as a fraction of 1."""
        return Fraction(1, 2 * 10**self.decimals * 100)

    @property
    def low(self) -> Fraction:
        return self.value - self.half_unit

    @property
    def high(self) -> Fraction:
        return self.value + self.half_unit

    def matches(self, exact: Fraction) -> bool:
        """Whether ``exact`` rounds (half-up) to the stated figure."""
        return self.low <= exact < self.high

    def interval_text(self) -> str:
        digits = self.decimals + 1
        return f"[{percent(self.low, digits)}, {percent(self.high, digits)})"


def parse_percentage(text: str, option: str) -> Fraction:
    """An exact percentage (``96%`` → 24/25); anything else is a one-line error."""
    return parse_claim(text, "rtp", option).value


#: Digits a stated percentage may have before its point (up to 999,999%).
MAX_PERCENT_DIGITS = 6


def parse_claim(text: str, kind: str, option: str | None = None) -> Claim:
    """Read ``97.3%``; anything that is not a percentage is a one-line error."""
    match = _PERCENT.match(text)
    option = option or ("--rtp" if kind == "rtp" else "--house-edge")
    if not match:
        raise OddsError(f"{option} {text!r} is not a percentage (write it as stated, e.g. 97.3%)")
    sign, whole, decimals = match.groups()
    if len(whole.lstrip("0")) > MAX_PERCENT_DIGITS or len(decimals or "") > MAX_DECIMALS:
        raise OddsError(
            f"{option} {shortened(text.strip())}: out of range (at most "
            f"{MAX_PERCENT_DIGITS} digits before the point and {MAX_DECIMALS} after)"
        )
    number = Decimal(f"{sign}{whole}.{decimals or '0'}")
    return Claim(kind, text.strip(), Fraction(number) / 100, len(decimals or ""))


@dataclass(frozen=True)
class Check:
    """One bet, basis and reading, with its exact value and whether the claim matches."""

    bet: str
    basis: str
    reading: dict[str, Any]
    is_paytable_reading: bool
    exact: Fraction
    match: bool
    #: The bet is dealt and paid exactly as under a reading checked before (the same net
    #: results with the same ways, the same debit): a reading that does not change this bet.
    repeats: bool = False


def bet_value(bet: Bet, basis: str, kind: str) -> Fraction:
    """The bet's RTP or house edge on a basis (``stake``, ``debited``, or ``wagered``: per
    unit of the total stake at risk, where a decision adds a stake, the element of risk)."""
    stats = bet.stats
    if basis == "wagered":
        rtp = 1 - bet.element_of_risk
    else:
        rtp = stats.rtp if basis in ("stake", "initial") else stats.rtp_debited
    return rtp if kind == "rtp" else 1 - rtp


BASES = {
    "stake": "per unit staked",
    "debited": "per unit debited",
    # A decision adds stakes (a Play wager, a raise): the house edge is per initial wager,
    # the element of risk per unit of everything wagered; both named, as published.
    "initial": "per initial wager (house edge)",
    "wagered": "per total wager (element of risk)",
}


def verify(paytable: Paytable, claim: Claim, bet_name: str | None) -> tuple[list[Check], list[str]]:
    """Every check of the claim, and notes; a reading the game refuses is a one-line error
    (the claim cannot be verified while one reading of the rules cannot be counted)."""
    own = paytable.bet_analysis()
    if bet_name is not None:
        own.bet(bet_name)  # an unknown bet is a one-line error before any work
    checks: list[Check] = []
    notes: list[str] = []
    every = list(readings(paytable.config))
    seen: dict[str, set[object]] = {}
    for index, reading in enumerate(track(every, "rule readings", label=reading_text)):
        try:
            analysis: Analysis = own if index == 0 else variant(paytable, reading).bet_analysis()
        except OddsError as exc:
            # A reading that cannot be counted is a defect of the definition, never a
            # reading to pass over: VERIFIED would hide it (issue 35, F3).
            raise OddsError(f"reading {reading_text(reading)}: {exc}") from None
        for bet in analysis.bets:
            if bet_name is not None and bet.name != bet_name:
                continue
            dealt = (tuple(bet.distribution().items()), bet.debited)
            repeats = dealt in seen.setdefault(bet.name, set())
            seen[bet.name].add(dealt)
            raised = bet.average_wager != 1  # a decision adds stakes
            first = "initial" if raised else "stake"
            bases: tuple[str, ...] = (first, "debited") if bet.withholding else (first,)
            bases += ("wagered",) if raised else ()
            if raised and index == 0:
                notes.append(decided_note(bet))
            for basis in bases:
                exact = bet_value(bet, basis, claim.kind)
                checks.append(
                    Check(
                        bet.name, basis, reading, index == 0, exact, claim.matches(exact), repeats
                    )
                )
    return checks, notes


def decided_note(bet: Bet) -> str:
    """A bet whose decision adds stakes: its house edge per initial wager and its element of
    risk, both named (a published figure may be either)."""
    return (
        f"{bet.name}: a decision adds stakes (average total wager "
        f"{float(bet.average_wager):.6f} initial units): house edge per initial wager "
        f"{percent(1 - bet.stats.rtp, 4)}, element of risk (per total wager) "
        f"{percent(bet.element_of_risk, 4)}; a published figure may state either"
    )


#: Exit status of ``odds verify`` for each verdict.
EXIT_CODES = {"VERIFIED": 0, "FAILED": 1, "AMBIGUOUS": 3}


@dataclass(frozen=True)
class Verdict:
    """The outcome, the sentence explaining it, and the checks that decide it."""

    status: str
    reason: str
    matched: tuple[Check, ...]

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.status]


def _ways(checks: list[Check]) -> str:
    """``per unit debited`` or ``per unit staked and per unit debited``."""
    return " and ".join(dict.fromkeys(BASES[c.basis] for c in checks))


def decide(paytable: Paytable, checks: list[Check], bet_name: str | None) -> Verdict:
    """The verdict of the checks (rules in the module docstring)."""
    own = [c for c in checks if c.match and c.is_paytable_reading]
    other = [c for c in checks if c.match and not c.is_paytable_reading and not c.repeats]
    own_reading = next((c.reading for c in checks if c.is_paytable_reading), {})
    reading = reading_text(own_reading)
    bets = list(dict.fromkeys(c.bet for c in own))
    if len(bets) > 1:
        listed = "; ".join(f"{bet} ({_ways([c for c in own if c.bet == bet])})" for bet in bets)
        return Verdict(
            "AMBIGUOUS",
            f"under {paytable.source} as read ({reading}) the claim fits {len(bets)} bets: "
            f"{listed}; give --bet to say which bet the figure is for.",
            tuple(own),
        )
    if bets:
        bet = bets[0]
        alone = "" if bet_name is not None else " (the only bet whose figure matches)"
        return Verdict(
            "VERIFIED",
            f"bet {bet}{alone}, {_ways(own)}, {paytable.source} as read ({reading}).",
            tuple(own),
        )
    if other:
        found = "; ".join(
            f"{c.bet}, {BASES[c.basis]}, {reading_text(c.reading)}" for c in other[:6]
        )
        more = f" and {len(other) - 6} more" if len(other) > 6 else ""
        return Verdict(
            "FAILED",
            f"no bet matches under {paytable.source} as read ({reading}); the claim fits only "
            f"another variant of the rules ({found}{more}), which is not this paytable: check "
            "that variant's paytable (or --set its rules) if that is the game dealt.",
            tuple(other),
        )
    return Verdict("FAILED", "no bet, basis or reading reproduces the stated figure.", ())


def best_bet(paytable: Paytable) -> Bet:
    """The bet with the highest RTP per unit staked under the paytable's own reading."""
    return max(paytable.bet_analysis().bets, key=lambda b: b.stats.rtp)


def verify_text(
    paytable: Paytable,
    claim: Claim,
    checks: list[Check],
    notes: list[str],
    bet_name: str | None = None,
) -> str:
    """The verification table and a verdict line per bet, for the terminal.

    A row whose reading does not change its bet (:attr:`Check.repeats`) is left out and
    counted: every bet crossed with every reading buried the few readings that matter
    (84 rows for baccarat, 17 of them different bets).
    """
    from odds.output.markdown import inline_text, markdown_table

    what = "RTP" if claim.kind == "rtp" else "house edge"
    digits = claim.decimals + 4
    verdict = decide(paytable, checks, bet_name)
    left_out = sum(c.repeats for c in checks)
    checks = [c for c in checks if not c.repeats]
    order = {bet: i for i, bet in enumerate(dict.fromkeys(c.bet for c in checks))}
    checks = sorted(checks, key=lambda c: order[c.bet])  # stable: readings keep their order
    lines = [
        f"Claim: {what} {claim.text} ({inline_text(paytable.source)}). Stated to {claim.decimals} "
        f"decimal(s): correct if the exact value is in {claim.interval_text()}.",
        "",
    ]
    rows = [
        (
            c.bet,
            BASES[c.basis],
            reading_text(c.reading) + (" (paytable)" if c.is_paytable_reading else ""),
            percent(c.exact, digits),
            "MATCH" if c.match else "no",
        )
        for c in checks
    ]
    lines.append(markdown_table(("bet", "basis", "reading", f"exact {what}", "match"), rows, 2))
    lines.append("")
    if left_out:
        lines.append(
            f"Left out: {left_out} row(s) whose reading does not change the bet (dealt and paid "
            "exactly as under a reading above); --format json lists every row."
        )
    lines += [f"Note: {n}" for n in notes]
    for bet in dict.fromkeys(c.bet for c in checks):
        found = [c for c in checks if c.bet == bet and c.match]
        own = [c for c in found if c.is_paytable_reading]
        if own:
            lines.append(f"{bet}: the claim MATCHES under the paytable's reading ({_ways(own)}).")
        elif found:
            ways = "; ".join(f"{BASES[c.basis]}, {reading_text(c.reading)}" for c in found)
            lines.append(f"{bet}: the claim matches only another reading ({ways}).")
        else:
            lines.append(f"{bet}: the claim does not match any basis or reading.")
    if len({c.bet for c in checks}) > 1:
        best = best_bet(paytable)
        hit = any(c.match and c.bet == best.name for c in checks)
        lines.append(
            f"Best bet (highest RTP per unit staked, paytable reading): {best.name}, "
            f"RTP {percent(best.stats.rtp, digits)}; a 'maximum RTP' claim "
            + ("matches it." if hit else "does not match it.")
        )
    lines.append(f"Verdict: {verdict.status}: {inline_text(verdict.reason)}")  # names the file
    return "\n".join(lines) + "\n"


def verify_tables(
    paytable: Paytable,
    claim: Claim,
    checks: list[Check],
    notes: list[str],
    bet_name: str | None = None,
) -> list[Table]:
    """``odds verify --format json``: the claim, every check (exact values), the verdict."""
    verdict = decide(paytable, checks, bet_name)
    claim_fields = fields_table(
        "claim",
        "The claim",
        [
            (Column("paytable", "paytable"), paytable.source),
            (Column("bet", "bet", json_null=True), bet_name),
            (Column("claim.kind", "kind"), claim.kind),
            (Column("claim.text", "as stated"), claim.text),
            (Column("claim.low", "lowest value it states", Kind.EXACT), claim.low),
            (Column("claim.high", "value it states below", Kind.EXACT), claim.high),
        ],
    )
    table = Table(
        key="checks",
        title="Every bet, basis and reading",
        columns=(
            Column("bet", "bet"),
            Column("basis", "basis"),
            Column("reading", "reading", Kind.DATA),
            Column("paytable_reading", "the paytable's reading", Kind.FLAG),
            Column("exact", f"exact {claim.kind}", Kind.EXACT),
            Column("match", "match", Kind.FLAG),
        ),
        rows=tuple(
            {
                "bet": c.bet,
                "basis": c.basis,
                "reading": c.reading,
                "paytable_reading": c.is_paytable_reading,
                "exact": c.exact,
                "match": c.match,
            }
            for c in checks
        ),
    )
    matched = [{"bet": c.bet, "basis": c.basis, "reading": c.reading} for c in verdict.matched]
    verdict_fields = fields_table(
        "verdict",
        "The verdict",
        [
            (Column("notes", "notes", Kind.LIST), notes),
            (Column("verdict", "verdict"), verdict.status),
            (Column("reason", "reason"), verdict.reason),
            (Column("matched", "what matched", Kind.DATA), matched),
            (Column("verified", "verified", Kind.FLAG), verdict.status == "VERIFIED"),
        ],
    )
    return [claim_fields, table, verdict_fields]
