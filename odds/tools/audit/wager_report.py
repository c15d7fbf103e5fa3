"""How the wager test reads: the ``## Wagers`` section of an audit and its JSON tables.

The table shows every account and bet with the figures the valuation gives
exactly (:mod:`odds.tools.audit.wager_test`); a finding names the account, the
bet, its wagers, the edge it captured beside what chance gives a bettor of the
same pattern, and the rounds that weigh most. Rejected wager rows are named
one by one (the first :data:`~odds.tools.audit.wagers.MAX_LISTED`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from odds.core.table import Column, Kind, Table
from odds.tools.audit.wager_test import AccountBet, WagerAudit

#: Rejected wager rows printed in the Markdown (all are in the JSON, up to MAX_LISTED).
SHOWN = 20


def method_text(audit: WagerAudit) -> str:
    return (
        "Method: each wager valued exactly at its shoe's state (the full shoe less every card "
        "shown before its round) by the game's shoe-state engine, beside its EV off the top. "
        "Whether an account's choice of when and how much to bet goes with the state's EV: "
        "a permutation test of its expected net at the states it chose, each of its shoes' "
        "wager patterns moved onto another shoe of the log by depth (shoes are exchangeable; "
        "an account betting late in every shoe keeps its timing; each round of the other shoe "
        "takes the stake, of those its own shoe allows at that depth, that nets the most: "
        "valid for any pattern of depth fixed apart from the cards), seeded Monte Carlo "
        f"(seed {audit.seed}, up to {audit.draws:,} draws, stopped early at 20 exceedances), "
        f"Holm across {len(audit.results):,} account(s) and bet(s) at α = {audit.alpha:g} "
        "(half the audit's α; the tests of the rounds have the other half). An account and bet "
        "is named when its test rejects and its expected net at the states it chose is a gain."
    )


def wager_lines(audit: WagerAudit) -> list[str]:
    """The section ``## Wagers``: the log read, the accounts' table, the verdicts, the findings."""
    from odds.output.markdown import markdown_table

    log = audit.log
    out = [
        "## Wagers",
        "",
        f"Wager log: `{log.source}`, {log.size:,} bytes, SHA-256 {log.sha256}.",
        "",
        f"Rows read: {log.rows:,}; used: {len(log.wagers):,}; rejected: {log.rejected_total:,}; "
        f"over {audit.shoes:,} shoes.",
        "",
    ]
    if log.rejected:
        out += [f"Rejected wager rows (the first {min(SHOWN, len(log.rejected))}):", ""]
        out += [f"- {log.unit} {r.line}: {r.reason}" for r in log.rejected[:SHOWN]]
        out.append("")
    out += [method_text(audit), ""]
    rows = [
        (
            r.account,
            r.bet,
            f"{r.wagers:,}",
            _money(r.staked),
            "n/a" if r.actual is None else _money(r.actual),
            _money(r.top),
            _money(r.chosen),
            f"{float(r.edge):+.2%}",
            f"{float(r.positive_share):.1%}",
            _p(r),
        )
        for r in audit.results
    ]
    headers = (
        "account",
        "bet",
        "wagers",
        "staked",
        "actual net",
        "expected net off the top",
        "expected net at its states",
        "edge captured",
        "stake at EV > 0",
        "p-value",
    )
    out += [markdown_table(headers, rows, 2), ""]
    totals = account_totals(audit)
    if any(t["bets"] > 1 for t in totals):
        out += ["Each account over all its bets:", ""]
        account_rows = [
            (
                t["account"],
                f"{t['wagers']:,}",
                _money(t["staked"]),
                "n/a" if t["actual"] is None else _money(t["actual"]),
                _money(t["top"]),
                _money(t["chosen"]),
                f"{float((t['chosen'] - t['top']) / t['staked']):+.2%}",
                f"{float(t['positive'] / t['staked']):.1%}",
            )
            for t in totals
        ]
        out += [markdown_table(("account", *headers[2:-1]), account_rows, 2), ""]
    for r in audit.named:
        out.append(f"Finding: {finding(r)}.")
    for r in audit.losing:
        out.append(
            f"Note: account {r.account} bets {r.bet} with the shoe beyond chance (edge captured "
            f"{float(r.edge):+.2%} of its stake, p = {_p(r)}) but expects to lose at the states "
            f"it chose ({_money(r.chosen)}): not beating the game, not named."
        )
    for note in audit.notes:
        out.append(f"Note: {note}")
    if log.rejected_total:
        kinds = ", ".join(f"{k}: {n:,}" for k, n in sorted(log.rejected_kinds.items()))
        out.append(
            f"Note: {log.rejected_total:,} wager row(s) rejected ({kinds}): not evidence "
            "against anyone, but an audit with rows it could not use is never a pass."
        )
    verdict = (
        f"{len(audit.named)} account(s) named"
        if audit.named
        else "no account bets with the shoe beyond chance"
    )
    out += [f"Verdict, wagers: {verdict}.", ""]
    return out


def account_totals(audit: WagerAudit) -> list[dict[str, Any]]:
    """Each account's figures summed over its bets (exact), in the table's order."""
    totals: dict[str, dict[str, Any]] = {}
    for r in audit.results:
        t = totals.setdefault(
            r.account,
            {
                "account": r.account,
                "bets": 0,
                "wagers": 0,
                "staked": Fraction(0),
                "actual": Fraction(0),
                "top": Fraction(0),
                "chosen": Fraction(0),
                "positive": Fraction(0),
            },
        )
        t["bets"] += 1
        t["wagers"] += r.wagers
        t["actual"] = None if t["actual"] is None or r.actual is None else t["actual"] + r.actual
        for key, value in (
            ("staked", r.staked),
            ("top", r.top),
            ("chosen", r.chosen),
            ("positive", r.positive),
        ):
            t[key] += value
    return list(totals.values())


def finding(r: AccountBet) -> str:
    """One named account in words: who, which bet, how many wagers, the edge, the rounds."""
    low, high = r.chance
    return (
        f"account {r.account} bets {r.bet} when the shoe favours it: {r.wagers:,} wagers, "
        f"{_money(r.staked)} staked, edge captured {float(r.edge):+.2%} of its stake over the "
        f"top-of-shoe EV (a bettor of the same pattern blind to the cards: {low:+.2%} to "
        f"{high:+.2%}, 95%), {float(r.positive_share):.0%} of its stake placed at a positive "
        f"EV, p = {_p(r)}; the rounds that weigh most: {'; '.join(r.weighing)}"
    )


def verdict_reason(audit: WagerAudit) -> list[str]:
    """What the wagers add to the one-line verdict."""
    reasons = []
    if audit.named:
        names = ", ".join(f"{r.account} ({r.bet})" for r in audit.named)
        reasons.append(f"account(s) named: {names}")
    if audit.log.rejected_total:
        reasons.append(f"{audit.log.rejected_total:,} wager row(s) rejected")
    return reasons


def wager_tables(audit: WagerAudit) -> list[Table]:
    """``--format json``: every account and bet (exact figures as fractions), the rows refused."""
    log = audit.log
    accounts = Table(
        key="wagers",
        title="Wagers by account and bet",
        columns=(
            Column("account", "account"),
            Column("bet", "bet"),
            Column("wagers", "wagers", Kind.WAYS),
            Column("shoes", "shoes", Kind.WAYS),
            Column("staked", "staked", Kind.DATA),
            Column("actual_net", "actual net", Kind.DATA, json_null=True),
            Column("expected_net_top", "expected net off the top", Kind.DATA),
            Column("expected_net_states", "expected net at its states", Kind.DATA),
            Column("edge_captured", "edge captured per unit staked", Kind.DATA),
            Column("positive_share", "share of stake at EV > 0", Kind.DATA),
            Column("chance_low", "blind bettor's edge, 2.5%", Kind.APPROXIMATE),
            Column("chance_high", "blind bettor's edge, 97.5%", Kind.APPROXIMATE),
            Column("p_value", "p-value", Kind.APPROXIMATE),
            Column("draws", "draws", Kind.WAYS),
            Column("beyond_chance", "goes with the shoe beyond chance", Kind.FLAG),
            Column("named", "named", Kind.FLAG),
            Column("rounds", "the rounds that weigh most", Kind.LIST),
        ),
        rows=tuple(
            {
                "account": r.account,
                "bet": r.bet,
                "wagers": r.wagers,
                "shoes": r.shoes,
                "staked": str(r.staked),
                "actual_net": None if r.actual is None else str(r.actual),
                "expected_net_top": str(r.top),
                "expected_net_states": str(r.chosen),
                "edge_captured": str(r.edge),
                "positive_share": str(r.positive_share),
                "chance_low": r.chance[0],
                "chance_high": r.chance[1],
                "p_value": r.p,
                "draws": r.draws,
                "beyond_chance": r.beyond_chance,
                "named": r.named,
                "rounds": list(r.weighing),
            }
            for r in audit.results
        ),
    )
    accounts_total = Table(
        key="wager_accounts",
        title="Wagers by account, over all its bets",
        columns=(
            Column("account", "account"),
            Column("bets", "bets", Kind.WAYS),
            Column("wagers", "wagers", Kind.WAYS),
            Column("staked", "staked", Kind.DATA),
            Column("actual_net", "actual net", Kind.DATA, json_null=True),
            Column("expected_net_top", "expected net off the top", Kind.DATA),
            Column("expected_net_states", "expected net at its states", Kind.DATA),
            Column("positive_stake", "stake placed at EV > 0", Kind.DATA),
        ),
        rows=tuple(
            {
                "account": t["account"],
                "bets": t["bets"],
                "wagers": t["wagers"],
                "staked": str(t["staked"]),
                "actual_net": None if t["actual"] is None else str(t["actual"]),
                "expected_net_top": str(t["top"]),
                "expected_net_states": str(t["chosen"]),
                "positive_stake": str(t["positive"]),
            }
            for t in account_totals(audit)
        ),
    )
    rejected = Table(
        key="wager_rejected",
        title="Rejected wager rows",
        columns=(Column(log.unit, log.unit, Kind.WAYS), Column("reason", "reason")),
        rows=tuple({log.unit: r.line, "reason": r.reason} for r in log.rejected),
    )
    return [accounts, accounts_total, rejected]


def _p(r: AccountBet) -> str:
    return f"{r.p:.4f}" if r.p >= 1e-4 else f"{r.p:.2e}"


def _money(value: Fraction) -> str:
    return f"{float(value):,.2f}"
