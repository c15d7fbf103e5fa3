"""Commands that analyse a paytable: ``report``, ``settle``, ``strength``, ``crosscheck``."""

from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from odds.cli.app import app, command_line
from odds.cli.options import (
    DecksOpt,
    GameArg,
    SetOpt,
    TextFormat,
    TextFormatOpt,
    answer,
    is_infinite,
    load_checked,
    load_paytable,
    override_texts,
)
from odds.cli.output import (
    DigitsOpt,
    OutputOpt,
    charts_folder,
    fail_verdict,
    paytable_inputs,
    printed_digits,
)
from odds.cli.report_output import ReportFormat
from odds.core.errors import OddsError, PositionError
from odds.core.numbers import check_count, check_seed, parse_rational

if TYPE_CHECKING:
    from odds.core.table import Table
    from odds.games.features import SimulationResult


@app.command()
def report(
    game: GameArg,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[
        ReportFormat,
        typer.Option(
            "--format",
            help="markdown, json, csv (one table: --table; all: --output DIR/), "
            "xlsx (an Excel PAR sheet of formulas) or pdf (the typeset PAR sheet).",
        ),
    ] = ReportFormat.markdown,
    digits: DigitsOpt = None,
    symbolic: Annotated[
        bool,
        typer.Option("--symbolic", help="Add each bet's EV as a formula of its paytable entries."),
    ] = False,
    charts: Annotated[
        str | None,
        typer.Option(
            "--charts",
            metavar="DIR",
            help="Write the report's charts as SVG files to DIR and link them from the Markdown "
            "(as DIR/<file>: give DIR relative to where the Markdown will be read).",
        ),
    ] = None,
    stakes: Annotated[
        str | None,
        typer.Option(
            "--stakes",
            metavar="BET=STAKE,…",
            help="Bets played together on one position, e.g. player=1,player-pair=0.2 "
            "(Pok Deng, any definition with seats): the whole-table figures at these stakes too.",
        ),
    ] = None,
    shoe: Annotated[
        bool,
        typer.Option(
            "--shoe",
            help="End with the Shoe section of reports/ (EORs, counts, exposure; seconds more).",
        ),
    ] = False,
    table: Annotated[
        str | None,
        typer.Option(
            "--table",
            metavar="NAME",
            help="--format csv: the one table to write (summary, outcomes_BET …; "
            "an unknown name lists them). Default to standard output: summary.",
        ),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            metavar="FILE",
            help="Write to FILE (replaced whole, only once complete) instead of standard "
            "output; --format csv without --table: a folder, one CSV per table and index.csv.",
        ),
    ] = None,
    shift: Annotated[
        str | None,
        typer.Option(
            "--shift",
            metavar="ROUNDS,…",
            help="End with the operator's risk over shifts of these lengths, e.g. "
            "100,1000,10000: P(the house loses), the hold's 5-95% band, the maximum liability.",
        ),
    ] = None,
    table_max: Annotated[
        str | None,
        typer.Option(
            "--table-max",
            metavar="AMOUNT",
            help="With --shift: the table maximum per bet, for the maximum liability (default 1).",
        ),
    ] = None,
) -> None:
    """The full exact analysis of a game or paytable.

    The header names the paytable, every override and the command that
    reproduces the report.

    \b
    Example: odds report dragon-tiger --decks 6 --set payouts.tie=11 -o dt.md
    """
    from odds.cli.report_output import (
        check_report_output,
        own_rules,
        report_command,
        write_report,
    )
    from odds.output.provenance import Provenance

    rounds, limit = _shift_options(shift, table_max)
    infinite = is_infinite(decks)
    if infinite and (stakes or rounds or shoe or symbolic):
        raise OddsError("--decks infinite: no --stakes, --shift, --shoe or --symbolic with it")
    paytable = load_paytable(game, None if infinite else decks, settings)
    inputs = tuple(paytable_inputs(game)) + tuple(
        p for p in (Path(paytable.source),) if p.is_file()
    )
    check_report_output(format, output, table, inputs)
    texts = ("--decks infinite",) * infinite + override_texts(None if infinite else decks, settings)
    provenance = Provenance(command_line(), texts, own_rules(paytable))
    folder = charts_folder(charts)
    if infinite:
        analysis = paytable.infinite_analysis()
    else:
        analysis = paytable.analysis() if stakes is None else paytable.analyse(stakes)
    if rounds:
        from odds.tools.shift import with_shift_section

        analysis = with_shift_section(paytable, analysis, rounds, limit)
    if shoe:
        from odds.tools.shoe.questions import with_shoe_section

        analysis = with_shoe_section(paytable, analysis)
    if symbolic:
        from odds.tools.solve import symbolic_table, with_symbolic

        analysis = with_symbolic(analysis, symbolic_table(paytable))
    links = None
    if folder is not None:
        from odds.output.charts.report_charts import write_charts

        links = write_charts(analysis, Path(game).stem, folder, [paytable.file])
    command = report_command(
        game,
        decks,
        settings,
        stakes=stakes,
        shoe=shoe,
        symbolic=symbolic,
        digits=digits,
        format=format,
        table=table,
        output=output,
        shift=shift,
        table_max=table_max,
    )
    write_report(
        analysis,
        format,
        output,
        table=table,
        digits=printed_digits(digits),
        links=links,
        command=command,
        provenance=provenance,
    )


def _shift_options(shift: str | None, table_max: str | None) -> tuple[tuple[int, ...], Fraction]:
    """``--shift`` and ``--table-max`` read and checked before any work."""
    if shift is None:
        if table_max is not None:
            raise OddsError("--table-max is for the shift section: give --shift too")
        return (), Fraction(1)
    from odds.tools.shift import parse_shifts

    limit = Fraction(1)
    if table_max is not None:
        limit = parse_rational(table_max, "--table-max", percent=False)
        if limit <= 0:
            raise OddsError(f"--table-max must be positive, got {table_max}")
    return parse_shifts(shift), limit


#: The most simulated deals ``strength`` makes.
MAX_TRIALS = 10**8

HAND_OPTIONS = ("banker", "player", "dealer", "dragon", "tiger", "actions")


@app.command()
def settle(
    game: GameArg,
    banker: Annotated[str | None, typer.Option(help="The banker's cards, e.g. '9d 7c'.")] = None,
    player: Annotated[str | None, typer.Option(help="The player's cards, e.g. 'Kh 9h'.")] = None,
    dealer: Annotated[str | None, typer.Option(help="The dealer's cards (dealer games).")] = None,
    dragon: Annotated[str | None, typer.Option(help="Dragon Tiger: the Dragon's card.")] = None,
    tiger: Annotated[str | None, typer.Option(help="Dragon Tiger: the Tiger's card.")] = None,
    actions: Annotated[
        str | None,
        typer.Option(
            help="Blackjack: the player's actions in order, e.g. 'split, hit, stand'; a "
            "definition with a decision: the action taken, e.g. 'fold' (default: the optimal)."
        ),
    ] = None,
    hand: Annotated[
        list[str] | None,
        typer.Option(
            "--hand",
            metavar="POSITION=CARDS",
            help="Any position's cards, e.g. --hand 'a=Ah Ad Ac' (a defined game names its "
            "own positions; repeatable).",
        ),
    ] = None,
    stake: Annotated[str, typer.Option(help="Amount staked on each bet.")] = "100",
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: TextFormatOpt = TextFormat.text,
    output: OutputOpt = None,
) -> None:
    """Settle one round for every bet of a position, with the reason for each result.

    \b
    Example: odds settle pok-deng --banker '9d 7c' --player 'Kh 9h'
    """
    from odds.output.settlement_text import settlement_tables, settlement_text

    paytable = load_checked(game, decks, settings, output)
    amount = parse_rational(stake, "--stake", percent=False)
    if amount <= 0:
        raise OddsError(f"--stake must be positive, got {stake}")
    given = zip(HAND_OPTIONS, (banker, player, dealer, dragon, tiger, actions), strict=True)
    hands = {k: v for k, v in given if v}
    named = _named_hands(hand or [], paytable.game.positions, hands)
    hands.update(named)
    definition = getattr(paytable.game, "definition", None)
    decides = {"actions"} if getattr(definition, "decision", None) is not None else set()
    unused = sorted(set(hands) - set(paytable.game.positions) - decides)
    if unused:
        raise OddsError(
            f"{paytable.game.name} has no --{unused[0]} "
            f"(it takes {', '.join('--' + p for p in paytable.game.positions)})"
        )
    try:
        result = paytable.game.settle(paytable.config, hands, amount)
    except PositionError as exc:
        if exc.position in named or exc.position not in HAND_OPTIONS:
            raise OddsError(exc.for_flag(f"--hand {exc.position}=…")) from None
        raise
    texts = override_texts(decks, settings)
    answer(
        format, output, texts, lambda: settlement_tables(result), lambda: settlement_text(result)
    )


def _named_hands(
    items: list[str], positions: tuple[str, ...], given: dict[str, str]
) -> dict[str, str]:
    """``--hand position=cards`` values by position, each position once."""
    found: dict[str, str] = {}
    for item in items:
        position, sep, cards = item.partition("=")
        position = position.strip()
        if not sep or not position:
            raise OddsError(f"--hand {item!r}: write POSITION=CARDS, e.g. --hand 'a=Ah Ad Ac'")
        if position not in positions:
            raise OddsError(
                f"--hand {position}: no such position (positions: {', '.join(positions)})"
            )
        if position in found or position in given:
            raise OddsError(f"--hand {position}: the position's cards are given twice")
        found[position] = cards
    return found


@app.command()
def strength(
    game: GameArg,
    hand: Annotated[str, typer.Argument(metavar="HAND", help="The hand, e.g. 'As Ks 8s'.")],
    opponents: Annotated[
        int, typer.Option("--opponents", help="Hands to beat (1 = the dealer; 2-5 vying).")
    ] = 1,
    trials: Annotated[
        int, typer.Option("--trials", help="Simulated deals when no exact count is available.")
    ] = 100_000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of that simulation.")] = 1,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: TextFormatOpt = TextFormat.text,
    output: OutputOpt = None,
) -> None:
    """One hand's chance of beating the dealer (or several opponents) from the rest of the shoe.

    \b
    Example: odds strength goa-gae 'As Ks 8s'
    """
    if trials > MAX_TRIALS:
        check_count(trials, "--trials", MAX_TRIALS, "simulated deals: minutes already")
    check_seed(seed)
    paytable = load_checked(game, decks, settings, output)
    feature = paytable.game.strength
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no strength command")
    try:
        feature.check(opponents, trials)
        cards = paytable.game.read_hand(paytable.config, {"hand": hand}, "hand")
        result = feature.strength(paytable.config, cards, opponents, trials, seed)
    except PositionError as exc:
        raise OddsError(exc.for_flag("HAND")) from None
    answer(format, output, override_texts(decks, settings), result.tables, result.text)


@app.command()
def crosscheck(
    game: GameArg,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play.")] = 100_000,
    seed: Annotated[int, typer.Option(help="Random seed (results are reproducible).")] = 1,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: TextFormatOpt = TextFormat.text,
    output: OutputOpt = None,
) -> None:
    """Cross-check: simulate the analysed strategy and compare with the exact return.

    Exit 0 when the exact EV is inside the simulation's 95% interval, 1 when outside.

    \b
    Example: odds crosscheck blackjack --rounds 2000
    """
    check_count(rounds, "--rounds", 10**9, "about a day of simulation")
    check_seed(seed)
    paytable = load_checked(game, decks, settings, output)
    feature = paytable.game.crosscheck
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no simulation")
    result = feature.simulate(paytable.config, rounds, seed)
    exact_ev = feature.exact_ev(paytable.config)
    exact = float(exact_ev)
    low, high = result.interval
    inside = "inside" if result.contains(exact) else "OUTSIDE"
    answer(
        format,
        output,
        override_texts(decks, settings),
        lambda: [_crosscheck_table(rounds, seed, result, exact_ev)],
        lambda: (
            f"{rounds:,} rounds (seed {seed}): mean net {result.mean:+.6f} per round, "
            f"95% interval [{low:+.6f}, {high:+.6f}]; exact EV {exact:+.6f} is {inside}\n"
        ),
    )
    if not result.contains(exact):
        fail_verdict(
            1,
            f"OUTSIDE: the exact EV {exact:+.6f} is outside the simulation's 95% interval "
            f"[{low:+.6f}, {high:+.6f}] ({rounds:,} rounds, seed {seed})",
        )


def _crosscheck_table(
    rounds: int, seed: int, result: "SimulationResult", exact_ev: Fraction
) -> "Table":
    """``odds crosscheck --format json``: the simulation's estimate beside the exact EV."""
    from odds.core.table import Column, Kind, fields_table

    approximate = Kind.APPROXIMATE
    return fields_table(
        "crosscheck",
        "Cross-check",
        [
            (Column("rounds", "rounds", Kind.WAYS), rounds),
            (Column("seed", "seed", Kind.WAYS), seed),
            (Column("mean_net", "mean net per round", approximate), result.mean),
            (Column("interval_95", "95% interval", Kind.DATA), list(result.interval)),
            (Column("exact_ev", "exact EV", Kind.EXACT), exact_ev),
            (Column("inside", "inside", Kind.FLAG), result.contains(float(exact_ev))),
            (
                Column("method", "method"),
                "seeded simulation of the analysed strategy (floats are estimates)",
            ),
        ],
    )
