"""Power and false alarms of the wager test, measured: ``python -m tests.measure.wager_power``.

Each simulated log deals ``--shoes`` shoes of the game (a seeded shuffle, dealt
to the cut card's depth, by the dealer written apart from the games:
:mod:`tests.measure.independent_dealer`; ``--dealer simulate`` for ``odds
simulate``'s) and writes the wagers of :mod:`odds.tools.audit.wager_logs`:
four honest accounts, the counter, and the same counter betting at random
(as many counted wagers in each shoe, at rounds drawn at random). Every log is
tested as ``odds audit --wagers`` tests it (:func:`odds.tools.audit.wager_test.judge_wagers`,
at half the audit's α, Holm across every account and bet), the shoes valued once
for both versions of the counter. The table gives, per account, in how many logs it
was named: for an honest account that is the false-alarm rate (at most α/2 is
the claim), for the counter the power. ``--shoes 1,10,100`` gives one row per
length (a curve). ``--p-values`` adds each account and bet's p-values (in how many logs at
or below 1%, 5%, 10%: a false-alarm rate of 0.5% cannot be seen in a few dozen logs, the
shape of the p-values can); ``--mapping`` measures the ways of moving a pattern onto
another shoe that the test does not use (:mod:`odds.tools.audit.wager_test`).

    python -m tests.measure.wager_power baccarat-ez --logs 40 --shoes 10 --p-values
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from itertools import takewhile
from typing import Any

from odds.core.errors import OddsError
from odds.tools.audit.shoes import DealtRound, DealtShoe
from odds.tools.audit.wager_logs import (
    ACCOUNTS,
    COUNTER,
    LoggedRound,
    counted_bet,
    logged_rounds,
    wager_rows,
)
from odds.tools.audit.wager_test import (
    MAPPING,
    MAPPINGS,
    ShoeValues,
    WagerAudit,
    judge_wagers,
    value_shoes,
)
from odds.tools.audit.wagers import Wager, WagerLog

#: The row of the counter betting at random in the table.
BLIND = f"{COUNTER} at random"
#: The row of the logs in which any honest account (the counter at random included) was named.
ANY_HONEST = "any honest account"


def deal_shoes(game: Any, config: Any, shoes: int, seed: int, dealer: str) -> list[LoggedRound]:
    """``shoes`` whole shoes dealt to the cut card (the procedure's depth, else 96%).

    ``dealer`` ``independent`` deals them by :mod:`tests.measure.independent_dealer`,
    written apart from the games (its own cards, shuffle and tableau: a bug in the games'
    dealing cannot hide in both the logs and the valuation); ``simulate`` as ``odds
    simulate`` does.
    """
    shoe = game.shoe(config)
    procedure = game.shoe_state.procedure(config) if game.shoe_state else None
    last = getattr(procedure, "last_start", None)
    depth = Fraction(last, shoe.size) if last else Fraction(96, 100)
    if dealer == "independent":
        from tests.measure.independent_dealer import dealer_for

        dealt = dealer_for(game, config, penetration=float(depth)).shoes(shoes, seed)
        return logged_from_shoes(game, config, dealt)
    from odds.tools.audit.logs import deal_rounds

    per_shoe = shoe.size // 4 + 1  # more rounds than any shoe holds (four cards at least)
    rows = deal_rounds(game, config, shoes * per_shoe, seed, depth)
    return logged_rounds(game, config, list(takewhile(lambda row: int(row["shoe"]) <= shoes, rows)))


def logged_from_shoes(game: Any, config: Any, shoes: Sequence[DealtShoe]) -> list[LoggedRound]:
    """Shoes dealt apart as the wager writer's rounds: each settled by the game once."""
    rounds = []
    settled: dict[tuple[str, ...], dict[str, Fraction]] = {}
    for shoe in shoes:
        for r in shoe.rounds:
            if r.hands not in settled:
                hands = dict(zip(game.positions, r.hands, strict=True))
                result = game.settle(config, hands, Fraction(1))
                settled[r.hands] = {b.bet: b.net / b.stake for b in result.bets}
            rounds.append(LoggedRound(shoe.label, r.label, r.cards, settled[r.hands]))
    return rounds


def as_shoes(rounds: Sequence[LoggedRound]) -> tuple[DealtShoe, ...]:
    """The dealt rounds as the audit's shoes (what :func:`judge_wagers` reads)."""
    found: dict[str, list[DealtRound]] = {}
    for line, r in enumerate(rounds, start=2):
        label = r.label if r.label else str(line - 1)
        found.setdefault(r.shoe, []).append(DealtRound(line, label, r.cards))
    return tuple(DealtShoe(label, tuple(rs)) for label, rs in found.items())


def as_log(rows: Sequence[dict[str, str]], shoes: Sequence[DealtShoe]) -> WagerLog:
    """Written wager rows as a read wager log (every row joins: they were written so)."""
    where = {
        (s.label, r.label): (i, j) for i, s in enumerate(shoes) for j, r in enumerate(s.rounds)
    }
    wagers = []
    for line, row in enumerate(rows, start=2):
        i, j = where[(row["shoe"], row["round"])]
        wagers.append(Wager(line, i, j, row["account"], row["bet"], Fraction(row["stake"])))
    return WagerLog("simulated", "line", len(rows), tuple(wagers), (), {})


def one_log(
    paytable: Any,
    shoes: int,
    seed: int,
    counted: str,
    alpha: float,
    draws: int,
    within: bool = False,
    dealer: str = "independent",
    mapping: str = MAPPING,
) -> tuple[WagerAudit, WagerAudit]:
    """One simulated log tested twice: with the counter counting, and betting at random."""
    game, config = paytable.game, paytable.config
    bets = [b.name for b in paytable.bet_analysis().bets]
    rounds = deal_shoes(game, config, shoes, seed, dealer)
    dealt = as_shoes(rounds)
    values: ShoeValues = value_shoes(game, config, dealt, bets)
    audits = []
    for blind in (False, True):
        rows = wager_rows(game, config, rounds, bets, counted, seed, blind)
        log = as_log(rows, dealt)
        audit = judge_wagers(
            game, config, dealt, log, alpha, draws, values=values, within=within, mapping=mapping
        )
        audits.append(audit)
    return audits[0], audits[1]


def study(
    game: str,
    logs: int,
    lengths: Sequence[int],
    alpha: float,
    draws: int,
    seed: int,
    counted: str | None = None,
    within: bool = False,
    dealer: str = "independent",
    mapping: str = MAPPING,
    p_values: dict[tuple[int, str, str], list[float]] | None = None,
) -> list[tuple[int, str, int, int, int]]:
    """Rows ``(shoes, account, named, beyond chance, logs)``: how often each account was named,
    how often its test rejected (beyond chance, named or not: an account expecting to lose at
    the states it chose is not named), and how often any honest one was named (the family's
    false-alarm rate, :data:`ANY_HONEST`).

    ``p_values``, when given, collects every test's p-value by ``(shoes, account, bet)`` (the
    blind counter as :data:`BLIND`): naming at α/2 = 0.5% a log is too rare to see in a few
    dozen logs, but a valid test's p-values of an honest account are uniform or larger
    everywhere, which 40 logs can show at 5% and 10%."""
    from odds.games.paytable import load

    paytable = load(game)
    bets = [b.name for b in paytable.bet_analysis().bets]
    bet = counted_bet(bets, counted)
    table = []
    for length in lengths:
        named = dict.fromkeys([*ACCOUNTS, BLIND, ANY_HONEST], 0)
        beyond = dict.fromkeys(named, 0)
        for i in range(logs):
            counting, blind = one_log(
                paytable, length, seed + i, bet, alpha / 2, draws, within, dealer, mapping
            )
            if p_values is not None:
                for r in counting.results:
                    p_values.setdefault((length, r.account, r.bet), []).append(r.p)
                for r in blind.results:
                    if r.account == COUNTER:
                        p_values.setdefault((length, BLIND, r.bet), []).append(r.p)
            for account in {r.account for r in counting.named}:
                named[account] += 1
            for account in {r.account for r in counting.results if r.beyond_chance}:
                beyond[account] += 1
            if any(r.account == COUNTER for r in blind.named):
                named[BLIND] += 1
            if any(r.account == COUNTER and r.beyond_chance for r in blind.results):
                beyond[BLIND] += 1
            if any(r.account != COUNTER for r in counting.named) or blind.named:
                named[ANY_HONEST] += 1
            honest = [r for r in counting.results if r.account != COUNTER] + list(blind.results)
            if any(r.beyond_chance for r in honest):
                beyond[ANY_HONEST] += 1
        print(f"{length} shoes: done", file=sys.stderr)
        table += [(length, account, n, beyond[account], logs) for account, n in named.items()]
    return table


def markdown(rows: Sequence[tuple[int, str, int, int, int]], counted: str) -> str:
    """The table as ``docs/commands/audit.md`` shows it."""
    lines = ["| shoes | account | named | rate | beyond chance |", "|---:|:---|---:|---:|---:|"]
    for shoes, account, named, beyond, logs in rows:
        what = account
        if account == COUNTER:
            what = f"{account} (counts {counted})"
        lines.append(
            f"| {shoes:,} | {what} | {named}/{logs} | {named / logs:.0%} | {beyond}/{logs} |"
        )
    return "\n".join(lines)


def p_table(p_values: dict[tuple[int, str, str], list[float]]) -> str:
    """Each account and bet: in how many logs its p-value fell at or below 1%, 5% and 10%.

    For an honest account a valid test gives at most about those shares (uniform p-values,
    or larger: a conservative test); the counter's counted bet should fall low."""
    lines = [
        "| shoes | account | bet | logs | p ≤ 0.01 | p ≤ 0.05 | p ≤ 0.1 | mean p |",
        "|---:|:---|:---|---:|---:|---:|---:|---:|",
    ]
    for (shoes, account, bet), ps in sorted(p_values.items()):
        below = [sum(p <= cut for p in ps) for cut in (0.01, 0.05, 0.1)]
        cells = " | ".join(str(b) for b in below)
        lines.append(
            f"| {shoes:,} | {account} | {bet} | {len(ps)} | {cells} | {sum(ps) / len(ps):.2f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.measure.wager_power",
        description="Power and false alarms of odds audit --wagers, on simulated logs.",
    )
    parser.add_argument("game", help="a game or paytable with a shoe-state engine (baccarat-ez)")
    parser.add_argument("--logs", type=int, default=100, help="logs per length (default 100)")
    parser.add_argument(
        "--shoes", default="10", help="shoes per log; a list gives a curve (1,10,100)"
    )
    parser.add_argument("--draws", type=int, default=1999, help="Monte Carlo draws (1999)")
    parser.add_argument("--alpha", type=float, default=0.01, help="the audit's α (0.01)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first log (1)")
    parser.add_argument("--counted", default=None, help="the counted bet (default dragon-7)")
    parser.add_argument(
        "--within-shoe",
        action="store_true",
        help="permute within each shoe instead (the test the audit does not use: its false alarms)",
    )
    parser.add_argument(
        "--dealer",
        choices=("independent", "simulate"),
        default="independent",
        help="who deals the shoes: the dealer written apart from the games (default) or "
        "odds simulate's",
    )
    parser.add_argument(
        "--mapping",
        choices=MAPPINGS,
        default=MAPPING,
        help=f"where a wager moved to another shoe lands (default {MAPPING}, the test the audit "
        "runs; the others are kept to measure why: odds.tools.audit.wager_test)",
    )
    parser.add_argument(
        "--p-values",
        action="store_true",
        help="also print each account and bet's p-values: in how many logs at or below 1%%, "
        "5%%, 10%%",
    )
    args = parser.parse_args(argv)
    try:
        lengths = [int(part) for part in args.shoes.split(",")]
        if args.logs < 1 or any(n < 1 for n in lengths):
            raise OddsError("--logs and --shoes must be at least 1")
        if not 0 < args.alpha < 1:
            raise OddsError(f"--alpha must be between 0 and 1, got {args.alpha}")
        start = time.perf_counter()
        cpu = time.process_time()
        p_values: dict[tuple[int, str, str], list[float]] | None = {} if args.p_values else None
        rows = study(
            args.game,
            args.logs,
            lengths,
            args.alpha,
            args.draws,
            args.seed,
            args.counted,
            args.within_shoe,
            args.dealer,
            args.mapping,
            p_values,
        )
    except (OddsError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    from odds.games.paytable import load

    bets = [b.name for b in load(args.game).bet_analysis().bets]
    print(markdown(rows, counted_bet(bets, args.counted)))
    if p_values is not None:
        print("\n" + p_table(p_values))
    print(
        f"\n{args.logs} logs per length, {args.dealer} dealer, mapping {args.mapping}, "
        f"α = {args.alpha:g} (the wager test at α/2), {args.draws:,} draws at least, "
        f"{time.perf_counter() - start:.0f} s ({time.process_time() - cpu:.0f} s of CPU).",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
