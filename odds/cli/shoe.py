"""``odds shoe``, ``odds eor``, ``odds exposure``: parse, ask :mod:`odds.tools.shoe.questions`,
print."""

from pathlib import Path
from typing import Annotated, Any

import typer

from odds.cli.app import app
from odds.cli.options import DecksOpt, Format, GameArg, SetOpt, load_checked, override_texts
from odds.cli.output import OutputOpt, data_written, emit
from odds.cli.report_output import CsvTableOpt, check_table_format
from odds.core.errors import OddsError
from odds.core.table import Table

FormatOpt = Annotated[Format, typer.Option("--format", help="markdown, json or csv.")]


def _markdown(table: Table) -> str:
    from odds.output.markdown import table_section

    return "\n".join(table_section(table, 6))


@app.command()
def shoe(
    game: GameArg,
    seen: Annotated[
        str | None, typer.Option("--seen", help="Cards or tiles seen so far, e.g. 'Kh 9h 5c'.")
    ] = None,
    seen_file: Annotated[
        Path | None,
        typer.Option(
            "--seen-file",
            help="A round log (odds simulate format: .csv, .csv.gz or .parquet): the cards of "
            "its last shoe (by its shoe column) are seen.",
        ),
    ] = None,
    shoe_id: Annotated[
        str | None,
        typer.Option(
            "--shoe", metavar="ID", help="With --seen-file: the shoe to read (default: the last)."
        ),
    ] = None,
    encoding: Annotated[
        str | None,
        typer.Option(
            "--encoding",
            help="With --seen-file: the text log's encoding when it is not UTF-8: cp1252 "
            "(Excel on Windows), latin-1 … (as odds audit --encoding).",
        ),
    ] = None,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: FormatOpt = Format.markdown,
    output: OutputOpt = None,
) -> None:
    """Exact EV of every bet for what is left in the shoe, beside the off-the-top value.

    \b
    Example: odds shoe baccarat --seen '9h 9d 9c 9s 8h 8d'
    """
    from odds.runtime.inputs import check_encoding
    from odds.tools.shoe import questions
    from odds.tools.shoe.seen import parse_seen_text, read_seen_file

    if shoe_id is not None and seen_file is None:
        raise OddsError("--shoe picks a shoe of the --seen-file log; give --seen-file too")
    if encoding is not None and seen_file is None:
        raise OddsError("--encoding is the --seen-file log's encoding; give --seen-file too")
    encoding = check_encoding(encoding)
    paytable = load_checked(game, decks, settings, output, [seen_file])
    questions.feature_of(paytable)
    items: list[Any] = []
    from_file = None
    if seen_file is not None:
        from_file = read_seen_file(paytable.game, paytable.config, seen_file, shoe_id, encoding)
        items += from_file.items
    if seen is not None:
        items += parse_seen_text(paytable.game, paytable.config, seen)
    result = questions.state(paytable, items)
    table = result.table()
    shoe_ = result.evaluator.shoe
    unseen = result.unseen
    texts = override_texts(decks, settings)
    if data_written(
        format, output, [table], None, lambda: result.document(paytable, from_file), texts
    ):
        return
    from odds.output.markdown import paragraph_text

    positive = [b.title for b in result.evaluator.bets if result.now[b.name] > 0]
    verdict = (
        f"Positive now: {', '.join(positive)}."
        if positive
        else "No bet is positive for this state."
    )
    source = "" if from_file is None else paragraph_text(from_file.sentence()) + "\n"
    emit(
        source
        + f"Shoe: {shoe_.description} ({shoe_.size}); seen {result.seen}, unseen {unseen}.\n\n"
        + _markdown(table)
        + f"\n{paragraph_text(verdict)}\n",
        output,
    )


@app.command()
def eor(
    game: GameArg,
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: FormatOpt = Format.markdown,
    output: OutputOpt = None,
    csv_table: CsvTableOpt = None,
) -> None:
    """Effect of removal of every card rank (or tile) on every bet, and the derived counts.

    \b
    Example: odds eor dragon-tiger
    """
    check_table_format(csv_table, format is Format.csv)
    from odds.tools.shoe import questions

    paytable = load_checked(game, decks, settings, output)
    evaluator, table = questions.eor(paytable)
    about, eor_table, by_type, counts = questions.eor_document(paytable, evaluator, table)
    found = [eor_table, by_type, counts]
    texts = override_texts(decks, settings)
    if data_written(format, output, found, csv_table, lambda: [about, *found], texts):
        return
    emit(_markdown(eor_table) + "\n" + _markdown(counts), output)


@app.command()
def exposure(
    game: GameArg,
    shoes: Annotated[
        int | None,
        typer.Option("--shoes", help="Shoes to simulate (games whose states are not enumerable)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulation.")] = 1,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Local worker processes (default: every core).")
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="Run on a Dask cluster: its scheduler's address."),
    ] = None,
    simulate: Annotated[
        bool, typer.Option("--simulate", help="Simulate even where the exact study applies.")
    ] = False,
    ruin: Annotated[
        str,
        typer.Option(
            "--ruin",
            metavar="RISK,…",
            help="Risks of ruin to give the player's bankroll for (diffusion approximation).",
        ),
    ] = "1%,5%",
    decks: DecksOpt = None,
    settings: SetOpt = None,
    format: FormatOpt = Format.markdown,
    output: OutputOpt = None,
    table: CsvTableOpt = None,
) -> None:
    """The exposure study: does any bet turn positive for a player who watches the cards?

    Ends with the player's risk: the bankroll for each risk of ruin and N0, for the
    watching player and the counter (the diffusion approximation, stated).

    \b
    Example: odds exposure mahjong-28-20
    """
    check_table_format(table, format is Format.csv)
    from odds.tools.shoe import questions
    from odds.tools.shoe.risk import parse_risks

    if workers is not None and workers < 1:
        raise OddsError(f"--workers must be at least 1, got {workers}")
    levels = parse_risks(ruin)
    paytable = load_checked(game, decks, settings, output)
    result = questions.exposure(paytable, shoes, seed, workers, scheduler, simulate)
    found = result.tables()
    risk_table = questions.player_risk(paytable, result, levels)
    if risk_table is not None:
        found.append(risk_table)
    texts = override_texts(decks, settings)
    if data_written(format, output, found, table, lambda: result.document(paytable, found), texts):
        return
    from odds.output.markdown import paragraph_text

    lines = [f"Dealing: {result.procedure.description}", ""]
    lines += [*(paragraph_text(v) for v in result.verdicts()), ""]
    flat = result.flat_sentence()
    if flat:
        lines += [paragraph_text(flat), ""]
    emit("\n".join(lines) + "".join("\n" + _markdown(t) for t in found), output)
