"""Commands that analyse a paytable: ``report``, ``settle``, ``strength``, ``crosscheck``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.options import (
    DecksOpt,
    Format,
    GameArg,
    SetOpt,
    TextFormat,
    load_paytable,
    write_json,
)
from odds.errors import OddsError, PositionError
from odds.numbers import check_count, check_seed, parse_rational


@app.command()
def report(
    game: GameArg,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[
        Format, typer.Option("--format", help="markdown, json or csv.")
    ] = Format.markdown,
    digits: Annotated[
        int, typer.Option("--digits", min=2, max=30, help="Decimals for printed probabilities.")
    ] = 6,
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
            "(Pok Deng): the whole-table figures at these stakes too.",
        ),
    ] = None,
    shoe: Annotated[
        bool,
        typer.Option(
            "--shoe",
            help="End with the Shoe section of reports/ (EORs, counts, exposure; seconds more).",
        ),
    ] = False,
) -> None:
    """The full exact analysis of a game or paytable."""
    from odds.render import to_csv, to_json, to_markdown

    paytable = load_paytable(game, decks, settings)
    folder = None
    if charts is not None:
        from odds.charts.report import check_folder

        folder = check_folder(charts)
    analysis = paytable.analysis() if stakes is None else paytable.analyse(stakes)
    if shoe:
        from odds.shoe_state.api import with_shoe_section

        analysis = with_shoe_section(paytable, analysis)
    if symbolic:
        from odds.audit.solve import symbolic_table, with_symbolic

        analysis = with_symbolic(analysis, symbolic_table(paytable))
    links = None
    if folder is not None:
        from odds.charts.report import write_charts

        links = write_charts(analysis, Path(game).stem, folder, [paytable.file])
    if format is Format.json:
        sys.stdout.write(to_json(analysis))
    elif format is Format.csv:
        sys.stdout.write(to_csv(analysis))
    else:
        sys.stdout.write(to_markdown(analysis, digits, links))


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
        typer.Option(help="Blackjack: the player's actions in order, e.g. 'split, hit, stand'."),
    ] = None,
    stake: Annotated[str, typer.Option(help="Amount staked on each bet.")] = "100",
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[TextFormat, typer.Option("--format")] = TextFormat.text,
) -> None:
    """Settle one round for every bet of a position, with the reason for each result."""
    from odds.render import settlement_json, settlement_text

    paytable = load_paytable(game, decks, settings)
    amount = parse_rational(stake, "--stake", percent=False)
    if amount <= 0:
        raise OddsError(f"--stake must be positive, got {stake}")
    given = zip(HAND_OPTIONS, (banker, player, dealer, dragon, tiger, actions), strict=True)
    hands = {k: v for k, v in given if v}
    unused = sorted(set(hands) - set(paytable.game.positions))
    if unused:
        raise OddsError(
            f"{paytable.game.name} has no --{unused[0]} "
            f"(it takes {', '.join('--' + p for p in paytable.game.positions)})"
        )
    result = paytable.game.settle(paytable.config, hands, amount)
    text = settlement_json(result) if format is TextFormat.json else settlement_text(result)
    sys.stdout.write(text)


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
    format: Annotated[TextFormat, typer.Option("--format", help="text or json.")] = (
        TextFormat.text
    ),
) -> None:
    """One hand's chance of beating the dealer (or several opponents) from the rest of the shoe."""
    import json

    if trials > MAX_TRIALS:
        check_count(trials, "--trials", MAX_TRIALS, "simulated deals: minutes already")
    check_seed(seed)
    paytable = load_paytable(game, decks, settings)
    feature = paytable.game.strength
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no strength command")
    try:
        result = feature.strength(paytable.config, hand, opponents, trials, seed)
    except PositionError as exc:
        raise OddsError(exc.for_flag("HAND")) from None
    if format is TextFormat.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(result.text())


@app.command()
def crosscheck(
    game: GameArg,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play.")] = 100_000,
    seed: Annotated[int, typer.Option(help="Random seed (results are reproducible).")] = 1,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: Annotated[TextFormat, typer.Option("--format", help="text or json.")] = (
        TextFormat.text
    ),
) -> None:
    """Cross-check: simulate the analysed strategy and compare with the exact return."""
    check_count(rounds, "--rounds", 10**9, "about a day of simulation")
    check_seed(seed)
    paytable = load_paytable(game, decks, settings)
    feature = paytable.game.crosscheck
    if feature is None:
        raise OddsError(f"{paytable.game.name} has no simulation")
    result = feature.simulate(paytable.config, rounds, seed)
    exact = float(feature.exact_ev(paytable.config))
    low, high = result.interval
    inside = "inside" if result.contains(exact) else "OUTSIDE"
    if format is TextFormat.json:
        write_json(
            {
                "rounds": rounds,
                "seed": seed,
                "mean_net": result.mean,
                "interval_95": [low, high],
                "exact_ev": str(feature.exact_ev(paytable.config)),
                "inside": result.contains(exact),
                "method": "seeded simulation of the analysed strategy (floats are estimates)",
            }
        )
    else:
        typer.echo(
            f"{rounds:,} rounds (seed {seed}): mean net {result.mean:+.6f} per round, "
            f"95% interval [{low:+.6f}, {high:+.6f}]; exact EV {exact:+.6f} is {inside}"
        )
    if not result.contains(exact):
        raise typer.Exit(1)
