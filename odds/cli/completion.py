"""Shell completion (``odds --install-completion``): games, paytables, bets and ``--set`` keys.

Each function is a typer ``autocompletion`` callback: given what has been
typed so far (and, for bets and keys, the game already on the command line)
it returns the candidates. They read only declarations (game classes, the
paytable files' ``game =`` lines, option declarations), never run an analysis,
and never raise: a completion that fails offers nothing instead of a traceback
in the user's shell.

The game already typed is read from the context click builds in completion mode
(:func:`game_on_line`). There the option being completed (``--bet`` with no value
yet) stops click's parse before it assigns positional arguments, so the game is
not in ``ctx.params`` but among the words left over (``ctx.args``). The tests
call ``odds`` as the installed bash and zsh scripts do (tests/cli/test_completion.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer


def game_names() -> list[str]:
    """Every game name and paytable name the commands accept, games first (named from the
    files, nothing compiled: a Tab must answer at once)."""
    from odds.games import game_names as games
    from odds.games.defined.tables import tables_folder

    names = games()
    stems = [p.stem for p in sorted(tables_folder().glob("*.toml"))]
    return names + [stem for stem in stems if stem not in names]


def complete_game(incomplete: str) -> list[str]:
    """Games and paytables starting with what was typed, then the paytable files of the
    working folder by name (``my-bet.toml`` is ``my-bet``) that no packaged name hides."""
    names = game_names()
    local = [p.stem for p in sorted(Path().glob("*.toml")) if p.stem not in names]
    return [name for name in names + local if name.startswith(incomplete)]


def _game_of(given: str) -> Any:
    """The game a ``GAME_OR_PAYTABLE`` names (``None`` when it names none yet)."""
    from odds.games import game_named, game_names, packaged_game
    from odds.games.paytable import looks_like_path, paytable_file, read_file

    if not given:
        return None
    try:
        return game_named(given)
    except Exception:
        pass
    try:
        path = Path(given) if looks_like_path(given) else paytable_file(given)
        if path is None:
            return None
        data, label = read_file(path)
        if "definition" in data:
            from odds.games.defined.registry import defined_game

            return defined_game(data, label)[0]
    except Exception:
        return None
    name = data.get("game")
    return packaged_game(name) if isinstance(name, str) and name in game_names() else None


def _games_of(given: str) -> list[Any]:
    """That game, or every game when it is not known."""
    from odds.games import games

    found = _game_of(given)
    return [found] if found is not None else list(games().values())


def bet_names(game: str) -> list[str]:
    """The bets of a game or paytable (every game's when it is not known)."""
    return list(dict.fromkeys(name for g in _games_of(game) for name in g.bet_names))


def game_on_line(ctx: typer.Context) -> str:
    """The game or paytable already typed ("" when none is).

    A parsed ``GAME_OR_PAYTABLE`` (``game``; ``odds compare``'s first paytable), else the
    first word left over that is not an option: when the word being completed is an
    option's value, click's resilient parse stops at that option and leaves the
    positional arguments unassigned, in ``ctx.args``.
    """
    given = ctx.params.get("game") or ctx.params.get("paytables")
    if isinstance(given, (list, tuple)):
        given = given[0] if given else None
    if isinstance(given, str) and given:
        return given
    return next((word for word in ctx.args if not word.startswith("-")), "")


def complete_bet(ctx: typer.Context, incomplete: str) -> list[str]:
    """The bets of the game already given."""
    return [b for b in bet_names(game_on_line(ctx)) if b.startswith(incomplete)]


def setting_keys(game: str) -> list[str]:
    """``SECTION.KEY=`` for every option of the game (every game's when it is not known)."""
    from odds.core.options import option_specs

    keys = (spec.key for g in _games_of(game) for spec in option_specs(g.config_type))
    return [f"{key}=" for key in dict.fromkeys(keys)]


def setting_values(game: str, key: str) -> list[str]:
    """The values an option takes, when it has a fixed set (choices, yes/no)."""
    from odds.core.options import option_specs

    for g in _games_of(game):
        for spec in option_specs(g.config_type):
            if spec.key != key:
                continue
            if spec.choices:
                return list(spec.choices)
            if spec.kind == "yes/no":
                return ["true", "false"]
    return []


def complete_setting(ctx: typer.Context, incomplete: str) -> list[str]:
    """``--set`` keys of the game already given, then a key's values after ``=``."""
    game = game_on_line(ctx)
    if "=" in incomplete:
        key, _, typed = incomplete.partition("=")
        return [f"{key}={v}" for v in setting_values(game, key) if v.startswith(typed)]
    return [k for k in setting_keys(game) if k.startswith(incomplete)]


def bash_word(words: list[str], current: int) -> tuple[list[str], str, str]:
    """The arguments, the word being completed, and the part of it bash does not replace.

    Bash splits the line at its ``COMP_WORDBREAKS``, ``=`` among them: ``--set
    rules.banker_pays=no`` reaches the script as ``--set``, ``rules.banker_pays``, ``=``,
    ``no``, and bash replaces only ``no`` (only ``=``'s empty right-hand side when the
    cursor follows the ``=``). The words are joined again around each ``=`` so the
    completer sees ``rules.banker_pays=no``; what bash keeps (``rules.banker_pays=``)
    is cut from each candidate.

    >>> bash_word(["odds", "report", "baccarat", "--set", "rules.banker_pays", "="], 5)
    (['report', 'baccarat', '--set'], 'rules.banker_pays=', 'rules.banker_pays=')
    >>> bash_word(["odds", "report", "x", "--set", "rules.a", "=", "no"], 6)
    (['report', 'x', '--set'], 'rules.a=no', 'rules.a=')
    >>> bash_word(["odds", "report", "x", "--set", "=", "rules.a", "=", "no"], 7)
    (['report', 'x'], '--set=rules.a=no', 'rules.a=')
    """
    typed = [*words[: current + 1], *([""] * (current + 1 - len(words)))]
    joined: list[str] = []
    glue = False
    for word in typed:
        if word == "=" and joined:
            joined[-1] += word
            glue = True
        elif glue:
            joined[-1] += word
            glue = False
        else:
            joined.append(word)
    last = typed[-1]
    kept = joined[-1] if last == "=" else joined[-1][: len(joined[-1]) - len(last)]
    if joined[-1].startswith("-"):  # --set=KEY: click completes the option's value alone
        kept = kept.partition("=")[2]
    return joined[1:-1], joined[-1], kept


def use_bash_words() -> None:
    """Make the bash completion join words at ``=`` (:func:`bash_word`).

    Called just before a completion is answered: typer registers its own bash class
    each time it builds the command line. A typer without these classes keeps its own.
    """
    try:
        from typer._completion_classes import BashComplete
        from typer._completion_classes import add_completion_class as register
    except ImportError:  # pragma: no cover - another typer: its own bash completion
        return

    class JoinedBashComplete(BashComplete):
        kept = ""

        def get_completion_args(self) -> tuple[list[str], str]:
            import os

            from typer._completion_classes import click_split_arg_string

            words = click_split_arg_string(os.environ["COMP_WORDS"])
            args, incomplete, self.kept = bash_word(words, int(os.environ["COMP_CWORD"]))
            return args, incomplete

        def format_completion(self, item: Any) -> str:
            return str(item.value).removeprefix(self.kept)

    register(JoinedBashComplete, "bash")
