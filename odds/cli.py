"""The ``odds`` command line (typer).

Every command turns bad input into one line on stderr (``error: …``) and a
non-zero exit; tracebacks are for bugs only.
"""

from __future__ import annotations

import os
import sys
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from odds.errors import OddsError
from odds.numbers import parse_rational
from odds.shoe_state.commands import register as register_shoe_state

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Exact combinatorial odds for Asian live-casino games.",
)


class Format(StrEnum):
    markdown = "markdown"
    json = "json"


class SettleFormat(StrEnum):
    text = "text"
    json = "json"


GameArg = Annotated[
    str,
    typer.Argument(
        metavar="GAME_OR_PAYTABLE",
        help="A game name (pok-deng …) or the path of a paytable .toml file.",
    ),
]
DecksOpt = Annotated[
    int | None, typer.Option("--decks", help="Override the number of decks in the shoe.")
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        help="Override any paytable option, e.g. --set rules.eight_nine_override=false "
        "(repeatable).",
    ),
]


def _overrides(decks: int | None, settings: list[str] | None) -> list[str]:
    result = list(settings or [])
    if decks is not None:
        result.insert(0, f"shoe.decks={decks}")
    return result


def load_paytable(game: str, decks: int | None = None, settings: list[str] | None = None) -> Any:
    """Resolve a game or paytable path with the CLI's overrides applied."""
    from odds.paytable import load

    return load(game, _overrides(decks, settings))


@app.command()
def report(
    game: GameArg,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[Format, typer.Option("--format", help="markdown or json.")] = Format.markdown,
    digits: Annotated[
        int, typer.Option("--digits", min=2, max=30, help="Decimals for printed probabilities.")
    ] = 6,
    symbolic: Annotated[
        bool,
        typer.Option("--symbolic", help="Add each bet's EV as a formula of its paytable entries."),
    ] = False,
) -> None:
    """The full exact analysis of a game or paytable."""
    from odds.render import to_json, to_json_data, to_markdown

    paytable = load_paytable(game, decks, settings)
    analysis = paytable.analysis()
    if symbolic:
        from odds.audit.solve import formula_text, symbolic_ev, symbolic_lines

    if format is Format.json:
        if symbolic:
            import json

            data = to_json_data(analysis)
            data["symbolic_ev"] = {b: formula_text(e) for b, e in symbolic_ev(paytable).items()}
            sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        else:
            sys.stdout.write(to_json(analysis))
    else:
        text = to_markdown(analysis, digits)
        if symbolic:
            text += "\n" + "\n".join(symbolic_lines(paytable)).rstrip() + "\n"
        sys.stdout.write(text)


@app.command()
def settle(
    game: GameArg,
    banker: Annotated[str | None, typer.Option(help="The banker's cards, e.g. '9d 7c'.")] = None,
    player: Annotated[str | None, typer.Option(help="The player's cards, e.g. 'Kh 9h'.")] = None,
    dealer: Annotated[str | None, typer.Option(help="The dealer's cards (dealer games).")] = None,
    actions: Annotated[
        str | None,
        typer.Option(help="Blackjack: the player's actions in order, e.g. 'split, hit, stand'."),
    ] = None,
    stake: Annotated[str, typer.Option(help="Amount staked on each bet.")] = "100",
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[SettleFormat, typer.Option("--format")] = SettleFormat.text,
) -> None:
    """Settle one round for every bet of a position, with the reason for each result."""
    from odds.render import settlement_json, settlement_text

    paytable = load_paytable(game, decks, settings)
    amount = parse_rational(stake, "--stake")
    if amount <= 0:
        raise OddsError(f"--stake must be positive, got {stake}")
    given = (("banker", banker), ("player", player), ("dealer", dealer), ("actions", actions))
    hands = {k: v for k, v in given if v}
    unused = sorted(set(hands) - set(paytable.game.positions))
    if unused:
        raise OddsError(
            f"{paytable.game.name} has no --{unused[0]} "
            f"(it takes {', '.join('--' + p for p in paytable.game.positions)})"
        )
    result = paytable.game.settle(paytable.config, hands, amount)
    text = settlement_json(result) if format is SettleFormat.json else settlement_text(result)
    sys.stdout.write(text)


@app.command()
def strength(
    game: GameArg,
    hand: Annotated[str, typer.Argument(help="The hand, e.g. 'As Ks 8s'.")],
    opponents: Annotated[
        int, typer.Option("--opponents", help="Hands to beat (1 = the dealer; 2-5 vying).")
    ] = 1,
    trials: Annotated[
        int, typer.Option("--trials", help="Simulated deals when no exact count is available.")
    ] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of that simulation.")] = 1,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[SettleFormat, typer.Option("--format", help="text or json.")] = (
        SettleFormat.text
    ),
) -> None:
    """One hand's chance of beating the dealer (or several opponents) from the rest of the shoe."""
    import json

    paytable = load_paytable(game, decks, settings)
    feature = paytable.game.strength
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no strength command")
    result = feature.strength(paytable.config, hand, opponents, trials, seed)
    if format is SettleFormat.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.text())


def _report_text(path: Path) -> str:
    """The Markdown report of one paytable file (run in a worker process)."""
    from odds.paytable import load_file
    from odds.render import to_markdown

    return to_markdown(load_file(path).analysis())


@app.command()
def reports(
    check: Annotated[
        bool, typer.Option("--check", help="Exit 1 when a committed report is stale or missing.")
    ] = False,
) -> None:
    """Regenerate reports/*.md from tables/*.toml (or check that they are fresh)."""
    from concurrent.futures import ProcessPoolExecutor

    from odds.paytable import REPORTS, table_files

    paths = table_files()
    # Reports are independent; the slowest (blackjack) dominates, so use every core.
    workers = max(1, min(len(paths), os.cpu_count() or 1))
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            texts = list(pool.map(_report_text, paths))
    else:
        texts = [_report_text(path) for path in paths]
    stale = []
    for path, text in zip(paths, texts, strict=True):
        target = REPORTS / f"{path.stem}.md"
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == text:
            continue
        stale.append(target)
        if not check:
            REPORTS.mkdir(exist_ok=True)
            target.write_text(text, encoding="utf-8")
            typer.echo(f"wrote {target.relative_to(REPORTS.parent)}")
    if check and stale:
        names = ", ".join(str(p.relative_to(REPORTS.parent)) for p in stale)
        typer.echo(f"error: stale reports (run `odds reports`): {names}", err=True)
        raise typer.Exit(1)
    if check:
        typer.echo(f"{len(table_files())} reports are fresh")


@app.command()
def bench(
    games: Annotated[
        list[str] | None, typer.Argument(help="Games or paytables to time (default: every game).")
    ] = None,
    repeat: Annotated[int, typer.Option(help="Engine runs; the best time is reported.")] = 5,
) -> None:
    """Time the exact engine against the independent brute-force enumerator."""
    from odds.games import GAMES
    from odds.render import markdown_table

    rows = []
    all_agree = True
    for name in games or list(GAMES):
        paytable = load_paytable(name)
        for case in paytable.game.bench_cases(paytable.config):
            engine_times = []
            for _ in range(max(1, repeat)):
                start = time.perf_counter()
                fast = case.engine()
                engine_times.append(time.perf_counter() - start)
            engine_time = min(engine_times)
            if case.brute is None:  # timing only: nothing to compare with
                rows.append((case.label, f"{engine_time:.4f} s", "—", "—", f"({fast})"))
                typer.echo(f"{case.label}: engine {engine_time:.4f} s → {fast}")
                if case.note:
                    typer.echo(f"  {case.note}")
                continue
            start = time.perf_counter()
            slow = case.brute()
            brute_time = time.perf_counter() - start
            if case.view is not None:
                fast = case.view(fast)
            agree = fast == slow
            all_agree &= agree
            rows.append(
                (
                    case.label,
                    f"{engine_time:.4f} s",
                    f"{brute_time:.2f} s",
                    f"{brute_time / engine_time:,.0f}×",
                    "yes" if agree else "NO",
                )
            )
            typer.echo(f"{case.label}: engine {engine_time:.4f} s, brute force {brute_time:.2f} s")
            if case.note:
                typer.echo(f"  {case.note}")
    typer.echo("")
    typer.echo(
        markdown_table(("analysis", "engine (best)", "brute force", "ratio", "equal"), rows, 2)
    )
    if not all_agree:
        typer.echo("error: the engine and the brute-force enumerator disagree", err=True)
        raise typer.Exit(1)


@app.command()
def crosscheck(
    game: GameArg,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play.")] = 100_000,
    seed: Annotated[int, typer.Option(help="Random seed (results are reproducible).")] = 1,
    decks: DecksOpt = None,
    settings: SetOpt = None,
) -> None:
    """Cross-check: simulate the analysed strategy and compare with the exact return."""
    paytable = load_paytable(game, decks, settings)
    feature = paytable.game.crosscheck
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no simulation")
    result = feature.simulate(paytable.config, rounds, seed)
    exact = float(feature.exact_ev(paytable.config))
    low, high = result.interval
    inside = "inside" if result.contains(exact) else "OUTSIDE"
    typer.echo(
        f"{rounds:,} rounds (seed {seed}): mean net {result.mean:+.6f} per round, "
        f"95% interval [{low:+.6f}, {high:+.6f}]; exact EV {exact:+.6f} is {inside}"
    )
    if not result.contains(exact):
        raise typer.Exit(1)


BetOpt = Annotated[str | None, typer.Option("--bet", help="The bet's name (default: every bet).")]


@app.command()
def verify(
    game: GameArg,
    bet: BetOpt = None,
    rtp: Annotated[str | None, typer.Option("--rtp", help="The stated RTP, e.g. 97.3%.")] = None,
    house_edge: Annotated[
        str | None, typer.Option("--house-edge", help="The stated house edge, e.g. 2.5%.")
    ] = None,
    decks: DecksOpt = None,
    settings: SetOpt = None,
) -> None:
    """Check a published RTP or house edge against the exact value (every basis and reading).

    Exit 0 when some basis and reading reproduce the stated figure, 1 when none does.
    """
    from odds.audit.verify import parse_claim, verify, verify_text

    if (rtp is None) == (house_edge is None):
        raise OddsError("give exactly one of --rtp or --house-edge (e.g. --rtp 97.3%)")
    claim = parse_claim(rtp, "rtp") if rtp is not None else parse_claim(house_edge, "house-edge")
    paytable = load_paytable(game, decks, settings)
    checks, notes = verify(paytable, claim, bet)
    sys.stdout.write(verify_text(paytable, claim, checks, notes))
    if not any(c.match for c in checks):
        raise typer.Exit(1)


@app.command()
def audit(
    game: GameArg,
    log: Annotated[
        Path, typer.Option("--log", help="CSV: one row per round and position (see README).")
    ],
    format: Annotated[Format, typer.Option("--format", help="markdown or json.")] = Format.markdown,
    alpha: Annotated[
        float, typer.Option("--alpha", help="False-alarm rate of the whole audit (Bonferroni).")
    ] = 0.01,
    decks: DecksOpt = None,
    settings: SetOpt = None,
) -> None:
    """Test a log of dealt rounds against the exact odds (chi-square, observed return).

    Exit 0 when the log is consistent with the exact odds, 1 when it is flagged.
    """
    import json

    from odds.audit.audit import audit as run_audit
    from odds.audit.audit import audit_json, audit_text

    paytable = load_paytable(game, decks, settings)
    result = run_audit(paytable, log, alpha)
    if format is Format.json:
        sys.stdout.write(json.dumps(audit_json(result), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(audit_text(result))
    if result.flagged:
        raise typer.Exit(1)


@app.command()
def simulate(
    game: GameArg,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds to deal.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the shuffle.")] = 1,
    out: Annotated[
        Path | None, typer.Option("--out", help="CSV file to write (default: stdout).")
    ] = None,
    penetration: Annotated[
        str | None,
        typer.Option(
            "--penetration",
            help="Deal through one shoe to this fraction (e.g. 75%) before reshuffling "
            "(default: a fresh shuffle every round).",
        ),
    ] = None,
    decks: DecksOpt = None,
    settings: SetOpt = None,
) -> None:
    """Deal an honest round log from a seeded shuffle of the real shoe (for odds audit)."""
    from odds.audit.logs import deal_rounds, write_log

    paytable = load_paytable(game, decks, settings)
    depth = None
    if penetration is not None:
        depth = parse_rational(penetration, "--penetration")
        if not 0 < depth <= 1:
            raise OddsError(f"--penetration must be above 0 and at most 100%, got {penetration}")
    rows = deal_rounds(paytable.game, paytable.config, rounds, seed, depth)
    count = write_log(paytable.game, rows, out)
    if out is not None:
        typer.echo(f"wrote {count:,} rounds to {out}", err=True)


class Basis(StrEnum):
    stake = "stake"
    debited = "debited"


@app.command()
def solve(
    game: GameArg,
    bet: Annotated[str, typer.Option("--bet", help="The bet's name.")],
    target_rtp: Annotated[
        str, typer.Option("--target-rtp", help="The RTP to reach, e.g. 96% or 95.5%.")
    ],
    vary: Annotated[
        str,
        typer.Option("--vary", help="The paytable entry to solve for, e.g. payouts.pair."),
    ],
    basis: Annotated[
        Basis, typer.Option("--basis", help="RTP per unit staked or per unit debited.")
    ] = Basis.stake,
    decks: DecksOpt = None,
    settings: SetOpt = None,
) -> None:
    """Solve a paytable entry for a target RTP, exactly (sympy)."""
    from odds.audit.solve import solution_text
    from odds.audit.solve import solve as run_solve
    from odds.audit.verify import parse_percentage

    target = parse_percentage(target_rtp, "--target-rtp")
    paytable = load_paytable(game, decks, settings)
    sys.stdout.write(solution_text(run_solve(paytable, bet, vary, target, basis.value)))


register_shoe_state(app)


def _handled(exc: Exception) -> int | None:
    """Exit code for click/typer's own exceptions (usage errors, --help, exits), else None.

    Typer may vendor click or use the real package, so the exceptions are
    recognised by shape rather than by class.
    """
    kind = type(exc).__name__
    if kind == "Exit" and hasattr(exc, "exit_code"):
        return int(exc.exit_code)
    if kind == "Abort":
        typer.echo("error: aborted", err=True)
        return 1
    if kind == "NoArgsIsHelpError" and getattr(exc, "ctx", None) is not None:
        typer.echo(exc.ctx.get_help())
        return 0
    if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
        message = " ".join(exc.format_message().split())
        typer.echo(f"error: {message}", err=True)
        return int(exc.exit_code)
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning expected errors into one line and exit 2."""
    try:
        result = app(args=argv, standalone_mode=False)
    except OddsError as exc:
        typer.echo(f"error: {exc}", err=True)
        return 2
    except BrokenPipeError:
        return 0
    except Exception as exc:
        code = _handled(exc)
        if code is None:
            raise
        return code
    return result if isinstance(result, int) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
