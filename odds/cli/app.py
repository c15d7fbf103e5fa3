"""The typer application and the entry point that turns expected errors into one line.

Every command module registers itself on :data:`app`; :func:`main` runs it.
Bad input is an :class:`odds.errors.OddsError`: printed as ``error: …`` on one
line, exit status 2 — never a traceback. Domain errors that name a position
are shown with the position's command-line flag (``--banker``).
"""

from __future__ import annotations

import sys

import typer

from odds.errors import OddsError, PositionError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    help="Exact combinatorial odds for Asian live-casino games.",
)


def error_text(exc: OddsError) -> str:
    """The one line printed for a domain error."""
    if isinstance(exc, PositionError):
        return exc.for_flag(f"--{exc.position}")
    return str(exc)


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
        typer.echo(exc.ctx.get_help())  # type: ignore[attr-defined]
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
        typer.echo(f"error: {error_text(exc)}", err=True)
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
