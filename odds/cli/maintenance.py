"""Commands that keep the project honest: ``reports`` (regenerate, check) and ``bench``."""

from typing import Annotated

import typer

from odds.cli.app import app
from odds.cli.completion import complete_game
from odds.cli.options import Format, load_paytable
from odds.cli.output import OutputOpt, check_output, data_written, emit
from odds.core.errors import OddsError
from odds.runtime.progress import echo, finish, track


@app.command()
def reports(
    check: Annotated[
        bool,
        typer.Option(
            "--check", help="Exit 1 when a committed report or chart is stale, missing or orphaned."
        ),
    ] = False,
) -> None:
    """Regenerate reports/*.md and reports/charts/*.svg from tables/*.toml (or check them).

    reports/SHA256SUMS names every file they were generated from and every file generated.

    \b
    Example: odds reports --check
    """
    from odds.tools.regenerate import (
        orphan_charts,
        orphans,
        reports_folder,
        statuses,
        sums_status,
        write,
    )

    root = reports_folder().parent
    found = statuses()
    if not found:
        raise OddsError("no paytables found in tables/: nothing to generate or check")
    stale = [f for status in found for f in status.files() if not f.fresh]
    sums = sums_status(found)
    if not sums.fresh:  # written last: it names what the files above hold
        stale.append(sums)
    extra = [(p, "no paytable") for p in orphans()]
    extra += [(p, "no report draws it") for p in orphan_charts(found)]
    finish()
    if check:
        problems = [
            f"{f.target.relative_to(root)}{' (missing)' if f.missing else ''}" for f in stale
        ]
        problems += [f"{p.relative_to(root)} ({why})" for p, why in extra]
        if problems:
            typer.echo(
                f"error: stale reports (run `odds reports`): {', '.join(problems)}", err=True
            )
            raise typer.Exit(1)
        charts = sum(len(status.charts) for status in found)
        typer.echo(f"{charts} charts and {len(found)} reports are fresh")
        return
    for status in stale:
        write(status)
        typer.echo(f"wrote {status.target.relative_to(root)}")
    for path, why in extra:
        typer.echo(f"note: {path.relative_to(root)}: {why} (not removed)")


@app.command()
def bench(
    games: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="GAME_OR_PAYTABLE",
            help="What to time (default: every game).",
            autocompletion=complete_game,
        ),
    ] = None,
    repeat: Annotated[
        int, typer.Option(min=1, max=1000, help="Engine runs; the best time is reported.")
    ] = 5,
    format: Annotated[
        Format, typer.Option("--format", help="markdown (with progress lines), json or csv.")
    ] = Format.markdown,
    output: OutputOpt = None,
) -> None:
    """Time the exact engine against the independent brute-force enumerator.

    In Markdown each case's line is printed as soon as it is timed (on standard
    output, or on standard error with --output), then the table.

    \b
    Example: odds bench dragon-tiger --repeat 1
    """
    from odds.games import games as all_games
    from odds.output.markdown import table_markdown
    from odds.tools.benchmark import BenchRow, bench_table, run
    from odds.tools.shoe.bench import bench_cases as shoe_state_cases

    check_output(output)
    names = games or list(all_games())
    paytables = [load_paytable(name) for name in names]  # every name checked before any timing

    def show(row: BenchRow) -> None:
        if format is not Format.markdown:
            return
        brute = "" if row.brute_seconds is None else f", brute force {row.brute_seconds:.2f} s"
        result = f" → {row.result}" if row.result else ""
        other = "" if row.reference is None else f"; {row.reference[1]}: {row.reference[0]:.2f} s"
        echo(
            f"{row.label}: engine {row.engine_seconds:.4f} s{brute}{result}{other}",
            err=output is not None,
        )
        if row.note:
            echo(f"  {row.note}", err=output is not None)

    rows = []
    for paytable in track(paytables, "bench", label=lambda p: p.game.name):
        rows += run(paytable.game.bench_cases(paytable.config), repeat, show)
        rows += run(shoe_state_cases(paytable), repeat, show)
    table = bench_table(rows)
    if not data_written(format, output, [table]):
        emit(("" if output is not None else "\n") + table_markdown(table, 4) + "\n", output)
    if any(row.agree is False for row in rows):
        typer.echo("error: the engine and the brute-force enumerator disagree", err=True)
        raise typer.Exit(1)
