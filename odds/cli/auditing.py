"""The auditor's commands: ``verify``, ``audit``, ``simulate``, ``solve``."""

import dataclasses
import sys
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any

import typer

from odds.cli.app import app
from odds.cli.completion import complete_bet
from odds.cli.options import (
    DecksOpt,
    GameArg,
    SetOpt,
    TextFormat,
    TextFormatOpt,
    answer,
    load_checked,
    load_paytable,
    override_texts,
)
from odds.cli.output import OutputOpt, charts_folder, emit, fail_verdict, write_json
from odds.core.errors import OddsError
from odds.core.numbers import check_count, check_seed, parse_rational

#: The most rounds ``simulate`` and ``crosscheck`` deal in one run.
MAX_ROUNDS = 10**9


AuditFormat = StrEnum("AuditFormat", ["markdown", "json"])


BetOpt = Annotated[
    str | None,
    typer.Option("--bet", help="The bet's name (default: every bet).", autocompletion=complete_bet),
]


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
    format: TextFormatOpt = TextFormat.text,
    output: OutputOpt = None,
) -> None:
    """Check a published RTP or house edge against the exact value (every basis and reading).

    VERIFIED (exit 0) when one bet reproduces the figure under the paytable's own
    reading (the verdict names the bet, basis and reading); FAILED (exit 1) when
    none does, even if another variant of the rules would; AMBIGUOUS (exit 3)
    when, without --bet, several bets do.

    \b
    Example: odds verify dragon-tiger --bet tie --house-edge 32.77%
    """
    from odds.tools.verify import decide, parse_claim, verify, verify_tables, verify_text

    if (rtp is None) == (house_edge is None):
        raise OddsError("give exactly one of --rtp or --house-edge (e.g. --rtp 97.3%)")
    if rtp is not None:
        claim = parse_claim(rtp, "rtp")
    elif house_edge is not None:
        claim = parse_claim(house_edge, "house-edge")
    paytable = load_checked(game, decks, settings, output)
    checks, notes = verify(paytable, claim, bet)
    if format is TextFormat.json:
        tables = verify_tables(paytable, claim, checks, notes, bet)
        write_json(tables, output, override_texts(decks, settings))
    else:
        emit(verify_text(paytable, claim, checks, notes, bet), output)
    verdict = decide(paytable, checks, bet)
    fail_verdict(verdict.exit_code, f"{verdict.status}: {verdict.reason}")


@app.command()
def audit(
    game: GameArg,
    log: Annotated[
        Path,
        typer.Option(
            "--log",
            help=(
                "The log: .csv, .csv.gz or .parquet, one row per round and position"
                " (see docs/guides/auditor.md)."
            ),
        ),
    ],
    format: Annotated[
        AuditFormat, typer.Option("--format", help="markdown or json.")
    ] = AuditFormat.markdown,
    alpha: Annotated[
        float, typer.Option("--alpha", help="False-alarm rate of the whole audit (Tarone).")
    ] = 0.01,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    charts: Annotated[
        str | None,
        typer.Option(
            "--charts",
            metavar="DIR",
            help="Write each test's observed-against-expected chart as SVG to DIR and link it "
            "from the Markdown (as DIR/<file>).",
        ),
    ] = None,
    columns: Annotated[
        str | None,
        typer.Option(
            "--columns",
            metavar="MAP",
            help="Which log column is which: name=column pairs (round=hand_no,banker=Dealer) "
            'or a file of name = "column" lines (see docs/guides/round-logs.md).',
        ),
    ] = None,
    by: Annotated[
        str | None,
        typer.Option(
            "--by",
            metavar="COLUMNS",
            help="Test each group too: columns of the log such as table,dealer,shoe, and day "
            "(from a timestamp column); Holm across groups, the group driving a finding named, "
            "a control chart per column and bet with --charts.",
        ),
    ] = None,
    encoding: Annotated[
        str | None,
        typer.Option(
            "--encoding",
            help="The text log's encoding when it is not UTF-8: cp1252 (Excel on Windows), "
            "latin-1 … (UTF-8 with or without a BOM and UTF-16 are told by themselves).",
        ),
    ] = None,
    shoe_rows: Annotated[
        int | None,
        typer.Option(
            "--shoe-rows",
            metavar="N",
            help="A shoe-ordered log's shoe-level tests read its first shoes, whole, within "
            "this many rows (the report names the shoes tested; default 200,000); 0: none.",
        ),
    ] = None,
    aware_rounds: Annotated[
        int | None,
        typer.Option(
            "--aware-rounds",
            metavar="N",
            help="At most N rounds (whole shoes, from the first) in the shoe-aware tests "
            "(default: 20,000, fewer for a game whose per-state odds are slow; the report "
            "names the shoes left to the off-the-top tests).",
        ),
    ] = None,
    wagers: Annotated[
        Path | None,
        typer.Option(
            "--wagers",
            metavar="FILE",
            help="A wager log (shoe,round,account,bet,stake; CSV, gzip or Parquet): each wager "
            "valued at its shoe's state, and the accounts that bet when the shoe favours them "
            "named (α split half to the rounds, half to the wagers).",
        ),
    ] = None,
    wager_columns: Annotated[
        str | None,
        typer.Option(
            "--wager-columns",
            metavar="MAP",
            help="Which wager column is which: name=column pairs (account=player_id,stake=amt).",
        ),
    ] = None,
    wager_draws: Annotated[
        int | None,
        typer.Option(
            "--wager-draws",
            metavar="N",
            help="Monte Carlo draws of the wager test (default 1,999; raised when Holm needs "
            "smaller p-values).",
        ),
    ] = None,
    output: OutputOpt = None,
) -> None:
    """Test a log of dealt rounds against the exact odds (chi-square, observed return).

    Exit 0 when the log is consistent with the exact odds, 1 when it is flagged
    (a test fails, or a row is impossible or unreadable), 3 when it has too few
    rounds to test anything.

    \b
    Example: odds simulate dragon-tiger --rounds 900 -o r.csv && odds audit dragon-tiger --log r.csv
    """
    from odds.runtime.inputs import check_encoding
    from odds.tools.audit.audit import EXIT_CODES, net_distribution
    from odds.tools.audit.audit import audit as run_audit
    from odds.tools.audit.groups import parse_by
    from odds.tools.audit.layout import parse_mapping
    from odds.tools.audit.report import audit_tables, audit_text, verdict_line
    from odds.tools.audit.shoes import MAX_ROWS

    mapping = parse_mapping(columns)
    dimensions = parse_by(by)
    wager_mapping = None
    if wagers is not None:
        from odds.tools.audit.wagers import parse_wager_columns

        wager_mapping = parse_wager_columns(wager_columns)
        if wager_draws is not None:
            check_count(wager_draws, "--wager-draws", 10**7, "draws are at most 10^7")
    elif wager_columns is not None or wager_draws is not None:
        raise OddsError("--wager-columns and --wager-draws describe the --wagers log")
    encoding = check_encoding(encoding)
    if aware_rounds is not None:
        check_count(aware_rounds, "--aware-rounds", MAX_ROUNDS, "a log's rounds are at most 10^9")
    mapping_file = [Path(columns)] if columns is not None and "=" not in columns else []
    paytable = load_checked(game, decks, settings, output, [log, *mapping_file, wagers])
    folder = charts_folder(charts)
    result = run_audit(
        paytable,
        log,
        alpha,
        mapping,
        dimensions,
        paths=folder is not None,
        encoding=encoding,
        shoe_rows=MAX_ROWS if shoe_rows is None else shoe_rows,
        aware_rounds=aware_rounds,
        wagers=wagers,
        wager_columns=wager_mapping,
        wager_draws=wager_draws,
    )
    links = None
    if folder is not None:
        from odds.tools.audit.charts import write_fit_charts

        tests = [(t.name, t.exact, t.fit.n) for t in result.fits]
        links = write_fit_charts(str(log), tests, folder, [paytable.file, log])
        if result.groups is not None:  # --by: the control charts (odds.tools.audit.cusum)
            from odds.tools.audit.cusum import write_cusum_charts

            bets = {b.name: net_distribution(b) for b in paytable.analysis().bets}
            inputs = [f for f in (paytable.file, log) if f is not None]
            links |= write_cusum_charts(str(log), result.groups, bets, folder, inputs)
    texts = override_texts(decks, settings)
    answer(format, output, texts, lambda: audit_tables(result), lambda: audit_text(result, links))
    fail_verdict(EXIT_CODES[result.verdict], verdict_line(result))


LogFormat = StrEnum("LogFormat", ["csv", "json", "parquet"])


@app.command()
def simulate(
    game: GameArg,
    rounds: Annotated[int, typer.Option("--rounds", min=1, help="Rounds to deal.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the shuffle.")] = 1,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            "--output",
            "-o",
            help="Log file to write: .csv, .csv.gz or .parquet (default: CSV on stdout).",
        ),
    ] = None,
    log_format: Annotated[
        LogFormat | None,
        typer.Option("--format", help="csv, json or parquet (default: from the --out name)."),
    ] = None,
    penetration: Annotated[
        str | None,
        typer.Option(
            "--penetration",
            help="Deal through one shoe to this fraction (e.g. 75%) before reshuffling "
            "(default: a fresh shuffle every round).",
        ),
    ] = None,
    seats: Annotated[
        int,
        typer.Option(
            "--seats",
            help="Write the operator layout (shoe, round within its shoe, table, dealer, "
            "timestamp) with this many seats against the shared hand (Pok Deng: 1 to 5).",
        ),
    ] = 0,
    operator: Annotated[
        bool,
        typer.Option(
            "--operator",
            help="Write the operator layout (implied by --seats, --stakes and --results-only).",
        ),
    ] = False,
    stakes: Annotated[
        bool,
        typer.Option(
            "--stakes", help="Stake random amounts on every bet and write what each was paid."
        ),
    ] = False,
    results_only: Annotated[
        bool,
        typer.Option(
            "--results-only",
            help="Write each bet's outcome (result_<bet>, as its outcome table names it) instead "
            "of the cards, in the operator layout: a results-only log.",
        ),
    ] = False,
    mis_settle: Annotated[
        str | None,
        typer.Option(
            "--mis-settle",
            help="A fault to find: pay this share of the bets placed wrongly (e.g. 0.1%).",
        ),
    ] = None,
    extra_card: Annotated[
        list[str] | None,
        typer.Option(
            "--extra-card",
            help="A fault to find: add this card to every shoe (repeat for more; "
            "needs --penetration).",
        ),
    ] = None,
    missing_card: Annotated[
        list[str] | None,
        typer.Option(
            "--missing-card",
            help="A fault to find: take this card out of every shoe (repeat for more).",
        ),
    ] = None,
    weak_shuffle: Annotated[
        bool,
        typer.Option(
            "--weak-shuffle",
            help="A fault to find: each new shoe is the previous one's cards riffled once.",
        ),
    ] = False,
    slug: Annotated[
        int,
        typer.Option(
            "--slug", min=0, help="A fault to find: N cards of each shoe stacked by rank together."
        ),
    ] = 0,
    improve_banker: Annotated[
        str | None,
        typer.Option(
            "--improve-banker",
            help="A fault to find (baccarat): re-deal this share of the coups the Player wins.",
        ),
    ] = None,
    wagers: Annotated[
        Path | None,
        typer.Option(
            "--wagers",
            metavar="FILE",
            help="Also write a seeded wager log (shoe,round,account,bet,stake) for odds audit "
            "--wagers: four honest accounts and one counter (needs --penetration).",
        ),
    ] = None,
    counted: Annotated[
        str | None,
        typer.Option(
            "--counted",
            metavar="BET",
            autocompletion=complete_bet,
            help="The bet the counter of --wagers counts (default dragon-7: Jacobson's count, "
            "true count 4 or more; another bet: whenever its exact state EV is positive).",
        ),
    ] = None,
    counter_at_random: Annotated[
        bool,
        typer.Option(
            "--counter-at-random",
            help="The counter of --wagers places as many counted wagers in each shoe, at "
            "random rounds (blind: an honest account).",
        ),
    ] = False,
    strategy: Annotated[
        str | None,
        typer.Option(
            "--strategy",
            metavar="NAME",
            help="A game with a player decision: play this strategy (optimal, the default, or "
            "the definition's fixed one, e.g. q-6-4); the log's action column says what was "
            "played.",
        ),
    ] = None,
    decks: DecksOpt = None,
    settings: SetOpt = None,
) -> None:
    """Deal an honest round log from a seeded shuffle of the real shoe (for odds audit).

    Everything is checked before the output is opened, and a file is replaced only
    once it is complete: an error or Ctrl-C leaves an existing log as it was.

    \b
    Example: odds simulate dragon-tiger --rounds 1000 --seed 7 --out rounds.csv
    """
    from odds.runtime.atomic import check_output_path
    from odds.runtime.progress import echo, finish
    from odds.tools.audit.logs import WRITTEN_LABELS, deal_rounds, operator_log, write_log
    from odds.tools.audit.logs import log_format as format_of
    from odds.tools.audit.logs import results_only as without_cards
    from odds.tools.audit.play import ACTION_COLUMN, strategies, with_actions

    check_count(rounds, "--rounds", MAX_ROUNDS, "a log of 10^9 rounds is tens of gigabytes")
    check_seed(seed)
    paytable = load_paytable(game, decks, settings)
    decided = bool(strategies(paytable.game))
    if strategy is not None:
        if not decided:
            raise OddsError(f"--strategy {strategy}: {paytable.game.name} has no player decision")
        paytable = dataclasses.replace(paytable, game=paytable.game.playing(strategy))  # type: ignore[attr-defined]
    if out is not None:
        check_output_path(out, [paytable.file])
    depth = None
    if penetration is not None:
        depth = parse_rational(penetration, "--penetration")
        if not 0 < depth <= 1:
            raise OddsError(f"--penetration must be above 0 and at most 100%, got {penetration}")
    form = format_of(out, None if log_format is None else log_format.value)
    if out is None and sys.stdout.isatty():
        finish()  # the rows stream onto this terminal: a bar there would only break them
    wrong = Fraction(0)
    if mis_settle is not None:
        wrong = parse_rational(mis_settle, "--mis-settle")
        if not 0 <= wrong <= 1:
            raise OddsError(f"--mis-settle must be between 0 and 100%, got {mis_settle}")
        stakes = True
    faults = _faults(paytable, extra_card, missing_card, weak_shuffle, slug, improve_banker)
    bet_names = list(paytable.game.bet_names)
    if wagers is not None:
        from odds.tools.audit.wager_logs import counted_bet

        counted = counted_bet(bet_names, counted)
        if depth is None:
            raise OddsError("--wagers: wagers are valued in shoes dealt through; add --penetration")
        if seats or results_only:
            raise OddsError(
                "--wagers writes wagers beside a log of one row per round and its cards"
            )
        check_output_path(wagers, [paytable.file, *([out] if out is not None else [])])
    elif counted is not None or counter_at_random:
        raise OddsError("--counted and --counter-at-random describe the accounts of --wagers")
    rows = deal_rounds(paytable.game, paytable.config, rounds, seed, depth, seats, faults)
    fields = None
    operated = seats or operator or stakes or results_only
    if decided and not operated:  # the action taken each round, for the audit to read
        rows = with_actions(paytable.game, paytable.config, rows)
        fields = [*WRITTEN_LABELS, *paytable.game.positions, ACTION_COLUMN]
    elif strategy is not None:
        raise OddsError("--strategy writes a log of one row per round with its action")
    if operated:
        bets = bet_names if stakes else []
        fields, rows = operator_log(paytable.game, paytable.config, rows, seats, seed, bets, wrong)
        if results_only:
            fields, rows = without_cards(paytable.game, paytable.config, fields, rows, bet_names)
    written = None
    if wagers is not None:
        from odds.tools.audit.wager_logs import logged_rounds, wager_rows

        listed = list(rows)
        rows = iter(listed)
        assert counted is not None
        dealt = logged_rounds(paytable.game, paytable.config, listed)
        written = wager_rows(
            paytable.game, paytable.config, dealt, bet_names, counted, seed, counter_at_random
        )
    count = write_log(paytable.game, rows, out, form, rounds, inputs=[paytable.file], fields=fields)
    if out is not None:
        echo(f"wrote {count:,} rounds to {out}")
    if wagers is not None and written is not None:
        from odds.tools.audit.wager_logs import write_wagers

        write_wagers(written, wagers, [paytable.file])
        echo(f"wrote {len(written):,} wagers to {wagers}")


def _faults(
    paytable: Any,
    extra: list[str] | None,
    missing: list[str] | None,
    weak_shuffle: bool,
    slug: int,
    improve_banker: str | None,
) -> Any:
    """The faults ``odds simulate`` plants (:mod:`odds.tools.audit.faults`), checked."""
    from odds.tools.audit.faults import Faults

    shoe = paytable.game.shoe(paytable.config)

    def cards(texts: list[str] | None, option: str) -> tuple[int, ...]:
        found: list[int] = []
        for text in texts or ():
            items = paytable.game.parse_hand(paytable.config, text)
            for item in items:
                if item not in shoe.types:
                    raise OddsError(
                        f"{option} {text}: not a card of this shoe ({shoe.description})"
                    )
                found.append(shoe.index(item))
        return tuple(found)

    share = Fraction(0)
    if improve_banker is not None:
        share = parse_rational(improve_banker, "--improve-banker")
        if not 0 <= share <= 1:
            raise OddsError(f"--improve-banker must be between 0 and 100%, got {improve_banker}")
    if slug > shoe.size:
        raise OddsError(f"--slug {slug}: the shoe holds {shoe.size} cards")
    return Faults(
        cards(extra, "--extra-card"), cards(missing, "--missing-card"), weak_shuffle, slug, share
    )


Basis = StrEnum("Basis", ["stake", "debited"])


@app.command()
def solve(
    game: GameArg,
    bet: Annotated[str, typer.Option("--bet", help="The bet's name.", autocompletion=complete_bet)],
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
    max_exposure: Annotated[
        str | None,
        typer.Option(
            "--max-exposure",
            metavar="UNITS",
            help="Cap on the bet's exposure: a watching player's win per shoe (per set for "
            "tile games) per unit bet, as odds exposure reports it ('a watching player wins "
            "… units per shoe per unit bet'), e.g. 0.05. Over the cap at the target, the "
            "nearest value within it is searched the way the RTP falls.",
        ),
    ] = None,
    step: Annotated[
        str,
        typer.Option("--step", help="With --max-exposure: the grid of values searched."),
    ] = "1/2",
    shoes: Annotated[
        int | None,
        typer.Option(
            "--shoes",
            help="With --max-exposure: shoes simulated per value where the exposure is "
            "simulated (as odds exposure --shoes).",
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="With --max-exposure: the simulation's seed.")
    ] = 1,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", help="With --max-exposure: local worker processes (default: every core)."
        ),
    ] = None,
    simulate: Annotated[
        bool,
        typer.Option(
            "--simulate",
            help="With --max-exposure: simulate even where the exact study applies "
            "(as odds exposure --simulate).",
        ),
    ] = False,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: TextFormatOpt = TextFormat.text,
    output: OutputOpt = None,
) -> None:
    """Solve a paytable entry for a target RTP, exactly (sympy).

    Exit 0 with the solution, 1 when no value the paytable accepts reaches the target.
    With --max-exposure: exit 0 with a value whose exposure is within the cap (the
    solution, or the nearest value searched), 1 when none is.

    \b
    Example: odds solve dragon-tiger --bet tie --target-rtp 95% --vary payouts.tie
    """
    from odds.tools.solve import no_solution_line, solution_tables, solution_text
    from odds.tools.solve import solve as run_solve
    from odds.tools.verify import parse_percentage

    target = parse_percentage(target_rtp, "--target-rtp")
    cap = None
    if max_exposure is None:
        for name, given in (("--shoes", shoes), ("--workers", workers), ("--simulate", simulate)):
            if given not in (None, False):
                raise OddsError(f"{name} sets the exposure study: give --max-exposure too")
    else:
        from odds.tools import exposure_cap

        cap = exposure_cap.parse_cap(max_exposure)
        grid = exposure_cap.parse_step(step)
        if shoes is not None:
            from odds.tools.shoe.simulate import check_study

            check_study(shoes, seed)
        check_seed(seed)
        if workers is not None and workers < 1:
            raise OddsError(f"--workers must be at least 1, got {workers}")
    paytable = load_checked(game, decks, settings, output)
    if cap is not None:
        from odds.tools.shoe.questions import feature_of

        feature_of(paytable)  # a game with no exposure study is refused before solving
    solution = run_solve(paytable, bet, vary, target, basis.value)
    capped = None
    if cap is not None and solution.solutions:
        study = exposure_cap.Study(shoes, seed, workers, simulate)
        capped = exposure_cap.capped(paytable, solution, cap, study, grid)
    if format is TextFormat.json:
        tables = solution_tables(solution)
        if capped is not None:
            tables += exposure_cap.capped_tables(capped)
        write_json(tables, output, override_texts(decks, settings))
    else:
        text = solution_text(solution)
        if capped is not None:
            text += exposure_cap.capped_text(capped)
        emit(text, output)
    if not solution.solutions:
        fail_verdict(1, no_solution_line(solution))
    if capped is not None and capped.chosen is None:
        fail_verdict(1, capped.refusal)
