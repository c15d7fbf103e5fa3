"""False alarms on honest logs of a continuous shuffling machine, measured.

``python -m tests.measure.csm_alarms``.

A CSM deals every round from the full shoe; its log's ``shoe`` column, when it has one,
is a session (a dealer's shift, a table's hour), not a shoe. Each simulated log deals
``--rounds`` rounds, every one from a freshly shuffled shoe (``odds simulate`` without
``--penetration``: exactly a CSM's law), and labels them in sessions of ``--session``
rounds. Every log is audited twice, as ``odds audit`` audits it: with the paytable's
``--set dealing.shuffle=continuous`` (the procedure the table uses) and without it (the
log read as shoes dealt through). The table gives, per game and procedure, how many logs
were flagged and by which test: with the option the claim is at most α of them; without
it, the contrast (a session cannot be a shoe: shoe integrity flags it).

    python -m tests.measure.csm_alarms --logs 50 --rounds 2000

``--calibrate N`` measures, besides, the rank and suit tests of a drawing game alone over
``N`` more seeded honest logs (no full audit: the rounds dealt, then tested against the
law of the cards the drawing deals, :func:`odds.tools.audit.round_frequencies.
drawing_frequency_tests`): how many p-values fall below 5% and 1%, against the ``N·5%``
and ``N·1%`` a calibrated test gives.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from pathlib import Path

#: The games measured by default: a drawing game and a game of fixed rounds.
GAMES = ("baccarat", "pok-deng")
#: The two procedures audited: the CSM's own, and the log read as shoes dealt through.
MODES = {"continuous": ("dealing.shuffle=continuous",), "shoe (no option)": ()}


def failed_tests(
    game: str, mode: str, seed: int, rounds: int, session: int, alpha: float
) -> tuple[list[str], int, list[str]]:
    """The names of the tests (and finding kinds) that flag one seeded honest CSM log, the
    audit's Tarone K, and the rank and suit frequency tests with a p-value below 5% (their
    calibration, visible in 50 logs where α/K is not)."""
    from odds.games.paytable import load
    from odds.tools.audit.audit import audit
    from odds.tools.audit.logs import deal_rounds, write_log

    base = load(game)
    paytable = load(game, MODES[mode])

    def sessions() -> Iterator[dict[str, str]]:
        for k, row in enumerate(deal_rounds(base.game, base.config, rounds, seed)):
            yield {**row, "shoe": f"session-{k // session + 1}"}

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "csm.csv"
        write_log(base.game, sessions(), path)
        result = audit(paytable, path, alpha)
    failing = [f.name for f in result.fits if result.fit_fails(f)]
    failing += [f"return of {r.bet}" for r in result.returns if result.return_fails(r)]
    if result.shoes is not None:
        failing += [t.name for t in result.shoes.tests if result.shoes.fails(t, result.threshold)]
    failing += [f"shoe integrity ({kind})" for kind in result.counts.finding_kinds]
    if result.rejected_evidence:
        failing.append("rows rejected")
    low = []
    if result.shoes is not None:
        low = [
            t.name
            for t in result.shoes.tests
            if "frequencies" in t.name and t.p is not None and t.p.value < 0.05
        ]
    return failing, result.k, low


def _one(
    job: tuple[str, str, int, int, int, float],
) -> tuple[str, str, tuple[list[str], int, list[str]]]:
    game, mode = job[0], job[1]
    return game, mode, failed_tests(*job)


def table(
    games: Sequence[str], logs: int, rounds: int, session: int, alpha: float, seed: int, jobs: int
) -> str:
    """The Markdown table: per game and procedure, logs flagged and by which test."""
    work = [
        (game, mode, seed + k, rounds, session, alpha)
        for game in games
        for mode in MODES
        for k in range(logs)
    ]
    flagged: Counter[tuple[str, str]] = Counter()
    by_test: dict[tuple[str, str], Counter[str]] = {}
    lows: dict[tuple[str, str], Counter[str]] = {}
    ks: dict[tuple[str, str], set[int]] = {}
    with Pool(jobs) as pool:
        for game, mode, (failing, k, low) in pool.imap_unordered(_one, work):
            by_test.setdefault((game, mode), Counter()).update(set(failing))
            lows.setdefault((game, mode), Counter()).update(low)
            ks.setdefault((game, mode), set()).add(k)
            flagged[game, mode] += bool(failing)
    lines = [
        "| game | procedure assumed | logs | tests judged (K) | flagged | by test (logs) "
        "| frequency tests at p < 5% (logs) |",
        "|:--|:--|--:|:--|--:|:--|:--|",
    ]
    for game in games:
        for mode in MODES:
            tests = by_test.get((game, mode), Counter())
            named = "; ".join(f"{name}: {n}" for name, n in sorted(tests.items())) or "none"
            seen = lows.get((game, mode), Counter())
            below = "; ".join(f"{name}: {n}" for name, n in sorted(seen.items())) or "none"
            sizes = sorted(ks.get((game, mode), {0}))
            span = str(sizes[0]) if sizes[0] == sizes[-1] else f"{sizes[0]}–{sizes[-1]}"
            lines.append(
                f"| {game} | {mode} | {logs} | {span} | {flagged[game, mode]} | {named} | {below} |"
            )
    return "\n".join(lines)


def calibration(game: str, logs: int, rounds: int, seed: int) -> dict[str, list[float]] | None:
    """The p-values of a drawing game's rank and suit tests over ``logs`` honest logs, by
    test: against the law of the cards the drawing deals, and (``… if uniform``) against
    the wrong null of a uniform sample of the shoe per round size; None for a game
    without a drawing law."""
    from odds.core.cards import parse_cards
    from odds.games.paytable import load
    from odds.tools.audit.logs import deal_rounds
    from odds.tools.audit.round_frequencies import drawing_frequency_tests, round_frequency_tests
    from odds.tools.audit.shoes import DealtRound, DealtShoe

    paytable = load(game)
    law = paytable.game.dealt_moments(paytable.config)
    if law is None:
        return None
    positions = paytable.game.positions
    shoe = paytable.game.shoe(paytable.config)
    index = {card: j for j, card in enumerate(shoe.types)}
    found: dict[str, list[float]] = {}
    for k in range(logs):
        rows = deal_rounds(paytable.game, paytable.config, rounds, seed + k)
        cards = (parse_cards(" ".join(row[p] for p in positions)) for row in rows)
        dealt = [
            DealtShoe(
                "log",
                tuple(
                    DealtRound(n, str(n), tuple(index[c] for c in hand))
                    for n, hand in enumerate(cards)
                ),
            )
        ]
        for test in drawing_frequency_tests(shoe, law, dealt):
            found.setdefault(test.name, []).append(test.p.value if test.p else 1.0)
        for test in round_frequency_tests(shoe, dealt):
            found.setdefault(f"{test.name}, if uniform", []).append(test.p.value if test.p else 1.0)
    return found


def calibration_lines(games: Sequence[str], logs: int, rounds: int, seed: int) -> list[str]:
    """The Markdown table of :func:`calibration` for the drawing games among ``games``."""
    lines = [
        "| game | test | logs | p < 5% (expected) | p < 1% (expected) | mean p |",
        "|:--|:--|--:|:--|:--|--:|",
    ]
    for game in games:
        found = calibration(game, logs, rounds, seed)
        for name, ps in (found or {}).items():
            below5 = sum(p < 0.05 for p in ps)
            below1 = sum(p < 0.01 for p in ps)
            lines.append(
                f"| {game} | {name} | {len(ps)} | {below5} ({len(ps) * 0.05:g}) | {below1} "
                f"({len(ps) * 0.01:g}) | {sum(ps) / len(ps):.3f} |"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES), help="games, comma-separated")
    parser.add_argument("--logs", type=int, default=50, help="seeded logs per game and procedure")
    parser.add_argument("--rounds", type=int, default=2000, help="rounds per log")
    parser.add_argument("--session", type=int, default=250, help="rounds per session label")
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1, help="the first log's seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--calibrate", type=int, default=0, help="honest logs for the drawing frequency tests alone"
    )
    args = parser.parse_args(argv)
    start = time.process_time()
    games = [g for g in args.games.split(",") if g]
    if args.calibrate:
        print(
            f"Measured with `python -m tests.measure.csm_alarms --games {args.games} "
            f"--calibrate {args.calibrate} --rounds {args.rounds} --seed {args.seed}`: the rank "
            "and suit tests of a drawing game alone, on honest CSM logs.\n"
        )
        print("\n".join(calibration_lines(games, args.calibrate, args.rounds, args.seed)))
        print(f"\n(CPU {time.process_time() - start:.1f} s)", file=sys.stderr)
        return 0
    print(
        f"Measured with `python -m tests.measure.csm_alarms --logs {args.logs} --rounds "
        f"{args.rounds} --session {args.session} --seed {args.seed}`: honest logs, every round "
        f"dealt from the full shoe, labelled in sessions of {args.session} rounds; "
        f"α = {args.alpha}.\n"
    )
    print(table(games, args.logs, args.rounds, args.session, args.alpha, args.seed, args.jobs))
    print(f"\n(parent CPU {time.process_time() - start:.1f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
