"""Shell completion as the shells call it (issue 34): the installed script, a real ``odds``.

``odds --install-completion`` installs the script ``_ODDS_COMPLETE=source_bash odds`` prints
(``source_zsh`` for zsh). Bash runs it with ``COMP_WORDS``/``COMP_CWORD`` (the line split
into words, and the word the cursor is in); zsh passes the line up to the cursor in
``_TYPER_COMPLETE_ARGS``. Each case here runs that: bash sources the script and calls its
completion function with the words bash would give it; zsh's call (zsh is not installed on
every machine) is the script's own ``env`` line, read from the script. A unit test with a
hand-filled context passed while real completion offered every game's bets: the game typed
reaches the completer only through the parse click does in completion mode.

Each case is one ``odds`` process (about 0.6 CPU-seconds): one case per path.
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from odds.core.options import option_specs
from odds.games import game_named, games
from tests.paths import ROOT

ODDS = Path(sys.executable).parent / "odds"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("_ODDS", "COMP_", "_TYPER"))}
    env["PATH"] = f"{ODDS.parent}{os.pathsep}{env.get('PATH', '')}"
    return {**env, **extra}


@functools.cache
def _script(shell: str) -> str:
    """The completion script ``odds --install-completion`` installs for ``shell``."""
    done = subprocess.run(
        [str(ODDS)], env=_env(_ODDS_COMPLETE=f"source_{shell}"), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def bash(line: str, cwd: Path = ROOT) -> list[str]:
    """What bash offers for ``line`` (the cursor at its end): the script's function, run.

    The words are split as bash splits them for completion: at blanks (an empty last word
    when the line ends in one) and around ``=``, one of its ``COMP_WORDBREAKS``
    (``--set rules.x=no`` is ``--set``, ``rules.x``, ``=``, ``no``; checked in an interactive
    bash).
    """
    words = [part for word in shlex.split(line) for part in re.split(r"(=)", word) if part] + (
        [""] if line.endswith(" ") else []
    )
    program = "\n".join(
        [
            _script("bash"),
            f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})",
            f"COMP_CWORD={len(words) - 1}",
            "_odds_completion odds",
            'printf "%s\\n" "${COMPREPLY[@]}"',
        ]
    )
    done = subprocess.run(
        [shutil.which("bash") or "bash", "--norc", "--noprofile", "-c", program],
        cwd=cwd,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [word for word in done.stdout.splitlines() if word]


def zsh(line: str, cwd: Path = ROOT) -> list[str] | str:
    """What zsh's completion function is given for ``line``: the candidates it hands to
    ``_arguments``, or ``"_files"`` (zsh then completes file names)."""
    call = re.search(
        r"eval \$\(env (\w+)=\"\$\{words\[1,\$CURRENT\]\}\" (\w+)=(\w+) odds\)", _script("zsh")
    )
    assert call, _script("zsh")  # the script's own call: its variable names and instruction
    words_var, complete_var, instruction = call.groups()
    done = subprocess.run(
        [str(ODDS)],
        cwd=cwd,
        env=_env(**{words_var: line, complete_var: instruction}),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and not done.stderr, done.stderr
    out = done.stdout.strip()
    if out == "_files":
        return out
    listed = re.fullmatch(r"_arguments '\*: :\(\((.*)\)\)'", out, re.S)
    assert listed, out
    return re.findall(r'"((?:[^"]|"")*)"(?::"(?:[^"]|"")*")?', listed.group(1))


def _keys(section: str, game: str | None = None) -> set[str]:
    """``SECTION.KEY=`` of one game's options, or of every game's."""
    chosen = [game_named(game)] if game else list(games().values())
    specs = [s for g in chosen for s in option_specs(g.config_type)]
    return {f"{s.key}=" for s in specs if s.key.startswith(f"{section}.")}


def test_bets_follow_the_game_typed_in_bash():
    offered = bash("odds verify mahjong-28 --bet ")
    assert offered == list(game_named("mahjong-28").bet_names)
    assert "dragon" not in offered  # Dragon Tiger's


def test_a_paytable_path_gives_its_games_bets():
    """``tables/baccarat-ez.toml`` is baccarat: its bets starting ``pa``, no other game's."""
    assert bash("odds verify tables/baccarat-ez.toml --bet pa") == ["panda-8"]


def test_payout_keys_follow_the_game_typed_in_bash():
    offered = set(bash("odds report baccarat --set payouts."))
    assert offered == _keys("payouts", "baccarat")
    assert _keys("payouts") - offered  # other games' payouts are not offered


def test_rule_keys_follow_the_game_typed_in_zsh():
    offered = zsh("odds verify mahjong-28 --rtp 97% --set rules.")
    assert set(offered) == _keys("rules", "mahjong-28")
    assert _keys("rules") - set(offered)


def test_option_values_complete_in_zsh():
    assert zsh("odds report baccarat --set rules.banker_pays=") == [
        "rules.banker_pays=commission",
        "rules.banker_pays=no-commission",
        "rules.banker_pays=ez",
    ]


def test_option_values_complete_in_bash():
    """Bash replaces only the word after ``=``: the values alone (not files, as before)."""
    assert bash("odds report baccarat --set rules.banker_pays=n") == ["no-commission"]
    assert bash("odds verify blackjack --set house.surrender=") == ["true", "false"]


def test_game_and_paytable_names_complete():
    names = [
        "baccarat", "baccarat-ez", "baccarat-no-commission", "baccarat-tie-9",
    ]  # fmt: skip
    assert bash("odds report bacc") == names
    assert bash("odds compare baccarat-ez bacc") == names  # each of compare's paytables


def test_the_names_completion_lists_are_the_games():
    """Completion names the games from their files without compiling them: the same list, in
    the same order, as the games themselves (a definition compiled or a coded game's package)."""
    from odds.games import game_names

    assert game_names() == list(games())


def test_a_path_being_typed_is_left_to_the_shell():
    """No game name starts ``tables/``: odds offers nothing, and the shell completes file
    names (bash: the script's ``complete -o default``; zsh: ``_files``)."""
    assert "complete -o default" in _script("bash")
    assert bash("odds report tables/bac") == []
    assert zsh("odds report tables/bac") == "_files"


def test_a_paytable_file_in_the_folder_completes_by_name(tmp_path):
    """``my-bet.toml`` in the folder is the game ``my-bet`` (README): its name completes, and
    its bets (a definition's) follow it."""
    (tmp_path / "my-bet.toml").write_text(
        (ROOT / "tables" / "lucky-6.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    assert zsh("odds report my-", tmp_path) == ["my-bet"]
    assert bash("odds verify my-bet --bet ", tmp_path) == ["lucky-6"]
