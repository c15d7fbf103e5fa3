"""``odds split``: one pair against one up card, every splitting convention and the optimum."""

from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.options import (
    DecksOpt,
    GameArg,
    SetOpt,
    TextFormat,
    TextFormatOpt,
    load_checked,
    override_texts,
)
from odds.cli.output import OutputOpt, emit, write_json
from odds.core.errors import OddsError


@app.command()
def split(
    game: GameArg,
    pair: Annotated[str, typer.Option("--pair", help="The pair's rank: A, 2 … 10 (T, J, Q, K).")],
    up: Annotated[str, typer.Option("--up", help="The dealer's up card: A, 2 … 10.")],
    decks: DecksOpt = None,
    settings: SetOpt = None,
    always_resplit: Annotated[
        bool,
        typer.Option(
            "--always-resplit",
            help="The optimum resplits every pair card it may (as the conventions' values per "
            "hand limit), instead of only when that pays.",
        ),
    ] = False,
    format: TextFormatOpt = TextFormat.text,
    output: OutputOpt = None,
) -> None:
    """Blackjack: split values by convention (CDZ-, CDP1, CDP, CDPN) and the optimal split.

    The optimal split decides every card on all the cards the round has shown: exact,
    and an upper bound on every convention. Tractable on small shoes and one deck
    split to two hands (seconds to a minute); refused with one line beyond that.

    \b
    Example: odds split blackjack --decks 1 --pair A --up 10 --set house.hole_card=peek
    """
    from odds.games.blackjack.counting import rank_counts
    from odds.games.blackjack.optimal_split import parse_rank, split_values_table
    from odds.games.blackjack.options import BlackjackConfig

    pair_rank, up_rank = parse_rank(pair, "--pair"), parse_rank(up, "--up")
    paytable = load_checked(game, decks, settings, output)
    config = paytable.config
    if not isinstance(config, BlackjackConfig):
        raise OddsError(f"odds split is for blackjack, not {paytable.game.name}")
    counts = rank_counts(config.shoe.build())
    table = split_values_table(counts, pair_rank, up_rank, config.house, always_resplit)
    if format is TextFormat.json:
        write_json([table], output, override_texts(decks, settings))
        return
    from odds.output.markdown import table_markdown

    emit(f"{table.title}\n\n{table_markdown(table, 6)}\n\n{table.note}\n", output)
