"""The typer application and the entry point that turns expected errors into one line.

Every command module registers itself on :data:`app`; :func:`main` runs it.
Bad input is an :class:`odds.core.errors.OddsError`: printed as ``error: …`` on one
line, exit status 2 — never a traceback. Domain errors that name a position
are shown with the position's command-line flag (``--banker``). Running out of memory or
temporary disk space (:class:`~odds.core.errors.ResourceError`, a Python ``MemoryError``)
is one line too, with exit status 4: the input may be fine.
"""

import copy
import errno
import io
import os
import signal
import sys
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from odds.core.errors import NamedInputError, OddsError, ResourceError


class _Stopped(Exception):
    """Ctrl-C, SIGTERM or SIGHUP (or a closed stdout) on its way to :func:`main`.

    Typer turns a KeyboardInterrupt into a silent ``Exit(130)`` and a closed
    pipe into ``sys.exit(1)``; carried in this wrapper, they reach :func:`main`,
    which says what happened in one line and picks the exit status.
    """

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


class _Group(TyperGroup):
    """The command group: a command's Ctrl-C or closed pipe leaves Typer as :class:`_Stopped`."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (KeyboardInterrupt, BrokenPipeError) as exc:
            raise _Stopped(exc) from exc

    def _main_shell_completion(self, *args: Any, **kwargs: Any) -> None:
        """Shell completion, bash's words joined again at ``=`` (odds.cli.completion)."""
        from odds.cli.completion import use_bash_words

        use_bash_words()
        super()._main_shell_completion(*args, **kwargs)


app = typer.Typer(
    cls=_Group,
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Exact combinatorial odds for Asian live-casino games.",
)


def _plain_usage_names() -> None:
    """Show required arguments as ``GAME_OR_PAYTABLE`` in usage lines, not ``{GAME_OR_PAYTABLE}``.

    Typer marks required arguments with braces, which reads like a set of
    choices; the help below the usage line already says what is required.
    Guarded: a Typer whose ``make_metavar`` has no ``usage`` flag keeps its own notation.
    """
    import inspect

    from typer.core import TyperArgument

    braced = TyperArgument.make_metavar
    if "usage" not in inspect.signature(braced).parameters:
        return

    def make_metavar(self: TyperArgument, ctx: Any, *, usage: bool = False) -> str:
        name = braced(self, ctx, usage=usage)
        if usage and self.required and name.startswith("{"):
            name = name[1:].replace("}", "", 1)
        return name

    TyperArgument.make_metavar = make_metavar  # type: ignore[method-assign]


_plain_usage_names()


def _version(value: bool) -> None:
    if value:
        from odds.core.version import __version__

        typer.echo(f"odds {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Exact combinatorial odds for Asian live-casino games."""


def error_text(exc: OddsError) -> str:
    """The one line printed for a domain error."""
    if isinstance(exc, NamedInputError):
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


#: Exit status after Ctrl-C (128 + SIGINT, as a shell reports it).
INTERRUPTED = 130

#: The arguments of the command being run (for the header of what it writes).
_ARGUMENTS: list[str] = []


def command_line() -> str:
    """The command being run, quoted for a POSIX shell: ``odds report pok-deng --decks 6``."""
    import shlex

    return shlex.join(["odds", *_ARGUMENTS])


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, turning expected errors into one line and exit 2."""
    from odds.runtime.atomic import RECEIVED, Terminated, signals_as_interrupts
    from odds.runtime.console import protect_standard_streams
    from odds.runtime.progress import shown_on_terminal

    _stand_in_for_closed_streams()
    protect_standard_streams()
    arguments = list(sys.argv[1:] if argv is None else argv)
    _ARGUMENTS[:] = arguments
    streams = sys.stdout, sys.stderr
    try:
        with signals_as_interrupts(), shown_on_terminal(_command_text(arguments)):
            result = _for_command(arguments)(args=argv, standalone_mode=False)
            if RECEIVED:  # stopped where Typer turned it into a silent exit
                return _interrupted(Terminated(RECEIVED[-1]))
        sys.stdout.flush()
    except OddsError as exc:  # bad input: exit 2; short of memory or disk: 4 (ResourceError)
        typer.echo(f"error: {error_text(exc)}", err=True)
        return exc.EXIT_CODE if isinstance(exc, ResourceError) else 2
    except MemoryError:  # Python's own allocations (DuckDB's are ResourceErrors already)
        typer.echo("error: out of memory (the input may be fine: the machine ran short)", err=True)
        return ResourceError.EXIT_CODE
    except _Stopped as stopped:
        if isinstance(stopped.cause, BrokenPipeError):
            return _closed_pipe(streams)
        return _interrupted(stopped.cause)
    except BrokenPipeError:
        return _closed_pipe(streams)
    except SystemExit as exc:
        # Typer answers a closed pipe with ``sys.exit(1)`` and no word; ours is exit 0.
        if _is_closed_pipe(exc.__context__) or _stdout_closed_by_typer():
            return _closed_pipe(streams)
        raise
    except KeyboardInterrupt as exc:
        return _interrupted(exc)
    except OSError as exc:
        if not _is_output_error(exc):
            raise
        _silence_stdout()
        typer.echo(f"error: cannot write the output ({exc.strerror})", err=True)
        return 2
    except Exception as exc:
        code = _handled(exc)
        if code is None:
            raise
        return code
    if result == INTERRUPTED:  # typer turns Ctrl-C into Exit(130), returned as the result
        typer.echo("error: interrupted", err=True)
    return result if isinstance(result, int) else 0


def _for_command(arguments: list[str]) -> typer.Typer:
    """The app holding only the command about to run, when the first argument names one.

    Typer builds every registered command (its options from the function's signature and
    type hints) before it runs one: about 0.04 s of CPU at every start, for sixteen
    commands that are not run. The whole app is kept for its own help, ``--version``,
    shell completion and a name that matches no command (click's error then lists them).
    """
    if not arguments or arguments[0].startswith("-"):
        return app
    if any(name.endswith("_COMPLETE") for name in os.environ):  # shell completion
        return app
    from typer.main import get_command_name

    chosen = [
        c
        for c in app.registered_commands
        if (c.name or (c.callback and get_command_name(c.callback.__name__))) == arguments[0]
    ]
    if len(chosen) != 1:
        return app
    view = copy.copy(app)
    view.registered_commands = chosen
    return view


class _ClosedOutput(io.RawIOBase):
    """Standard output when the shell closed it (``odds report pok-deng >&-``): any write
    fails as writing to a closed descriptor does, so :func:`main` says so in one line."""

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def _stand_in_for_closed_streams() -> None:
    """Standard output or error closed at start (``>&-``, ``2>&-``): Python leaves ``None``.

    The descriptor is taken by the null device, so that no file the command opens gets
    descriptor 1 or 2 (and output meant for the terminal would land in it). Standard
    output then fails at the first write (one line, exit 2, as ``cat >&-`` does); a
    command that writes only a file (``--out``) runs as usual. A closed standard error
    just loses the messages.
    """
    for fd, name in ((1, "stdout"), (2, "stderr")):
        try:
            os.fstat(fd)
            if getattr(sys, name) is not None:
                continue
        except OSError:
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                if devnull != fd:
                    os.dup2(devnull, fd)
                    os.close(devnull)
            except OSError:
                pass
        if fd == 1:
            raw = io.BufferedWriter(_ClosedOutput(), buffer_size=1)
            sys.stdout = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
        else:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the run


def _command_text(argv: list[str]) -> str:
    """``odds report blackjack``: the outer spinner's label (the command and its first words)."""
    words = [w for w in argv[:3] if not w.startswith("-")]
    return " ".join(["odds", *words[:2]])


def _is_closed_pipe(exc: BaseException | None) -> bool:
    return isinstance(exc, OSError) and exc.errno == errno.EPIPE


def _closed_pipe(streams: tuple[object, object]) -> int:
    """A reader that stopped early (``odds simulate | head -1``): a quiet success, exit 0.

    As ``yes | head`` does from the shell's point of view: the reader had what
    it wanted. Every command ends this way; nothing is printed (stderr may be
    the same closed pipe).
    """
    sys.stdout, sys.stderr = streams
    _silence_stdout()
    return 0


def _interrupted(exc: BaseException) -> int:
    """One line and the shell's status for a run stopped by Ctrl-C (130), SIGTERM or SIGHUP.

    Every temporary file was removed on the way out (:mod:`odds.runtime.atomic`).
    """
    from odds.runtime.atomic import Terminated

    if isinstance(exc, Terminated) and exc.signum != signal.SIGINT:
        typer.echo(f"error: terminated ({exc})", err=True)
        return 128 + exc.signum
    typer.echo("error: interrupted", err=True)
    return 130


def _is_output_error(exc: OSError) -> bool:
    """Whether writing standard output failed (a full disk, a closed pipe), not an input."""
    return exc.errno in (errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EBADF) and exc.filename is None


def _stdout_closed_by_typer() -> bool:
    """Whether typer met a closed pipe on stdout (it wraps the streams, then exits 1)."""
    return type(sys.stdout).__name__ == "PacifyFlushWrapper"


def _silence_stdout() -> None:
    """Point stdout at the null device so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
