"""``odds bench blackjack``: how long one rule set, a resplit and the whole report take.

"Cold" runs start without any table of the shoe: the dealer's outcome
numerators and every player pass are computed again. Layouts that do not
depend on the shoe (the dealer's draw sequences, the inclusion–exclusion
layout of :mod:`.dealer_batches`, the hands of every context) are kept once per
process, and on disk between processes (:mod:`.kept_layouts`); the "first in a
process" case reads those too, as a fresh ``odds report`` does. "Warm" runs
keep a shoe's tables, as a process analysing several rule sets on one shoe
does, and redo every player pass. Targets
(issue 14, one core) are in the labels. The "whole process" cases time a fresh
interpreter's CPU (:func:`whole_process_cases`) beside Farmer's C++ analyzer's on
the same rules (:data:`CA_SECONDS`, issue 25). There is no brute-force enumerator at
these sizes: the dealer probabilities are compared with one, the split values
with an enumeration of the split tree on small shoes (tests), the EVs with a
seeded simulation (``odds crosscheck``).
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from odds.core.caching import cached, clear_caches
from odds.core.errors import OddsError
from odds.core.frozen import FrozenMap
from odds.core.numbers import percent
from odds.engine.bruteforce import brute_force_drawing
from odds.games.base import BenchCase
from odds.games.blackjack.dealer import (
    OUTCOMES,
    RANK_NAMES,
    RANKS,
    dealer_stands,
    longest_draw,
    outcome_index,
    total_of,
)
from odds.games.blackjack.dealer_batches import dealer_outcomes
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.shoes import family, forget_shoes

DECKS = range(1, 9)


def bench_cases(
    game: Any, config: Any, counts_of: Callable[[Any], tuple[int, ...]]
) -> list[BenchCase]:
    """The blackjack bench: every deck count, one split and resplits, warm, the report."""
    rules = config.house
    resplit = dataclasses.replace(rules, split_hands=4)
    cases = []
    for decks in DECKS:
        shoe = dataclasses.replace(config.shoe, decks=decks, removed=(), counts=FrozenMap())
        counts = counts_of(shoe)
        for label, house, target in (
            ("one split", rules, " (target ≤ 0.5 s)"),
            ("resplit to 4 hands", resplit, " (target ≤ 2 s)"),
        ):
            cases.append(
                BenchCase(
                    f"Blackjack rule set, {decks} deck{'s' if decks > 1 else ''}, {label}, cold"
                    + (target if decks == max(DECKS) else ""),
                    cold(counts, house),
                    None,
                    note="house edge; cold: the shoe's tables built afresh",
                )
            )
    full = counts_of(config.shoe)
    cases.append(
        BenchCase(
            "Blackjack rule set, 8 decks, one split, first in a process",
            first(counts_of(dataclasses.replace(config.shoe, decks=8)), rules),
            None,
            note="every shoe-independent layout loaded too (kept on disk), as in a fresh process",
        )
    )
    other = dataclasses.replace(rules, double_after_split=not rules.double_after_split)
    cases.append(
        BenchCase(
            "Blackjack another rule set on the paytable's shoe, warm",
            warm(full, rules, other),
            None,
            note="the shoe's dealer tables kept, every player pass redone",
        )
    )
    cases.append(
        BenchCase(
            "Blackjack full report (every table, every rule option), cold (target ≤ 3 s)",
            report(game, config),
            None,
            note="what `odds report blackjack` computes",
        )
    )
    cases += whole_process_cases()
    cases.append(simulation_case(counts_of(dataclasses.replace(config.shoe, decks=8)), rules))
    cases.append(
        BenchCase(
            "Blackjack dealer probabilities, every up card, full shoe",
            lambda: dealer_fast(full, rules.dealer_hits_soft_17),
            lambda: dealer_brute(full, rules.dealer_hits_soft_17),
        )
    )
    return cases


#: Eric Farmer's combinatorial analyzer (CA, C++), compiled on this machine and timed as a
#: whole process (CPU: user and system) on the same rules as :data:`CA_RULES`: 8 decks, S17,
#: double any two, double after split, peek, CDP1 (issue 25's measurements), by the most hands.
CA_SECONDS = {2: 0.12, 4: 0.62}
CA_SOURCE = "Farmer's C++ CA (compiled here; CPU, whole process; issue 25)"
#: The rules both programs were timed on (with ``split_hands`` 2 or 4).
CA_RULES = BlackjackRules(
    dealer_hits_soft_17=False,
    double="any-two",
    double_after_split=True,
    hole_card="peek",
    split_strategy="CDP1",
)
#: One rule set's exact round EV in a fresh interpreter: what a script does.
_ONE_RULE_SET = (
    "import ast, sys\n"
    "from odds.games.blackjack import BlackjackRules, analyse_round, shoe_counts\n"
    "rules = BlackjackRules(**ast.literal_eval(sys.argv[1]))\n"
    "print(analyse_round(shoe_counts(8), rules).ev)\n"
)


def whole_process_cases() -> list[BenchCase]:
    """Our whole process beside Farmer's CA's, same rules: split once, resplit to 4, the report.

    CPU time of a fresh Python process (imports, the shoe-independent layouts read from the
    user's cache folder, the exact EV; nothing of the shoe kept), so a loaded machine adds
    little. The report is ``odds report blackjack`` from the same fresh start.
    """
    cases = []
    for hands, label in ((2, "split once"), (4, "resplit to 4 hands")):
        rules = dataclasses.replace(CA_RULES, split_hands=hands)
        cases.append(
            BenchCase(
                f"Blackjack 8 decks S17 DA2 DAS peek CDP1, {label}: whole process, CPU",
                whole_process(rules),
                None,
                note="a fresh interpreter: imports, kept layouts, the exact round EV (house edge)",
                clock="child-cpu",
                reference=(CA_SECONDS[hands], CA_SOURCE),
            )
        )
    cases.append(
        BenchCase(
            "Blackjack `odds report blackjack`: whole process, CPU (target ≤ 1.5 s)",
            whole_report,
            None,
            note="the command as a user runs it, output discarded",
            clock="child-cpu",
        )
    )
    return cases


@cached
def _bytecode_folder() -> str:
    """Where the timed interpreters keep their compiled bytecode (removed at exit).

    An installed package runs from compiled bytecode; a shell that sets
    ``PYTHONDONTWRITEBYTECODE`` (as some containers do) would make every timed process
    compile every module again (about 0.06 s here), which is no part of the analysis.
    So the children write and read their bytecode in a folder of their own, never
    beside the package; the first run compiles, the best of several does not.
    """
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="odds-bench-bytecode-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


def _child(arguments: list[str]) -> str:
    """Run ``python arguments…`` and return its output; a failure is a one-line error."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = _bytecode_folder()
    done = subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, check=False, env=env
    )
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise OddsError(f"the timed process failed: {last}")
    return done.stdout


def whole_process(rules: BlackjackRules) -> Callable[[], str]:
    """One rule set's exact house edge, computed by a fresh interpreter."""
    settings = repr(dataclasses.asdict(rules))  # a literal of booleans, numbers and words

    def run() -> str:
        return percent(-Fraction(_child(["-c", _ONE_RULE_SET, settings]).strip()), 6)

    return run


def whole_report() -> str:
    """``odds report blackjack`` in a fresh interpreter (its Markdown discarded)."""
    return f"{len(_child(['-m', 'odds', 'report', 'blackjack']).splitlines())} lines"


def first(counts: tuple[int, ...], rules: BlackjackRules) -> Callable[[], str]:
    """The optimal house edge in a process that has built nothing yet."""

    def run() -> str:
        clear_caches()
        return percent(-analyse_round(counts, rules).ev, 6)

    return run


def cold(counts: tuple[int, ...], rules: BlackjackRules) -> Callable[[], str]:
    """The optimal house edge with no table of the shoe kept."""

    def run() -> str:
        forget_shoes()
        return percent(-analyse_round(counts, rules).ev, 6)

    return run


def warm(
    counts: tuple[int, ...], first: BlackjackRules, rules: BlackjackRules
) -> Callable[[], str]:
    """A rule set on a shoe whose dealer tables are kept (its player passes are not)."""

    def run() -> str:
        fam = family(counts, rules.dealer_hits_soft_17)
        if not fam.ready:
            analyse_round(counts, first)
        fam.forget_passes()
        return percent(-analyse_round(counts, rules).ev, 6)

    return run


def report(game: Any, config: Any) -> Callable[[], str]:
    """The whole report's analysis, from no table of any shoe."""

    def run() -> str:
        forget_shoes()
        analysis = game.analyse(config, "bench")
        return f"{len(analysis.tables)} tables"

    return run


#: The seeded simulation's rounds a timing plays (``odds crosscheck``'s default is 100,000).
SIMULATED_ROUNDS = 100_000
#: CPU per round of the dedicated simulation loop that :func:`.play.play` replaced
#: (``simulate.py`` before commit 2f1bbf7), 8 decks, the paytable's rules: 6 µs in issue
#: 25's brief; measured again here beside the play-based loop, 5.5 to 6.5 µs as the load went.
OLD_LOOP_SECONDS_PER_ROUND = 6e-6
OLD_LOOP_SOURCE = "the dedicated loop before play (simulate.py before 2f1bbf7; 6 µs a round)"


def simulation_case(
    counts: tuple[int, ...], rules: BlackjackRules, rounds: int = SIMULATED_ROUNDS
) -> BenchCase:
    """The seeded simulation (``odds crosscheck blackjack``) through :func:`.play.play`.

    The analysis is made here, before any clock, so the time is the rounds' alone;
    the old dedicated loop's time for as many rounds is beside it.
    """
    from odds.games.blackjack.simulate import simulate

    analysis = analyse_round(counts, rules)
    decks = sum(counts) // 52

    def run() -> str:
        start = time.process_time()
        result = simulate(analysis, rounds, 1)
        per_round = (time.process_time() - start) / rounds
        return f"{per_round * 1e6:.2f} µs a round (CPU), mean net {result.mean:+.6f}"

    return BenchCase(
        f"Blackjack seeded simulation through play, {decks} deck{'s' if decks > 1 else ''}, "
        f"{rounds:,} rounds (target ≤ 6 µs a round)",
        run,
        None,
        note="odds crosscheck's rounds, the analysis made before the clock; the old loop beside",
        reference=(OLD_LOOP_SECONDS_PER_ROUND * rounds, OLD_LOOP_SOURCE),
    )


def dealer_fast(counts: tuple[int, ...], h17: bool) -> dict[str, dict[str, Fraction]]:
    result = {}
    for u in range(RANKS):
        after = list(counts)
        after[u] -= 1
        result[RANK_NAMES[u]] = dealer_outcomes(tuple(after), u, h17).probabilities
    return result


def dealer_brute(counts: tuple[int, ...], h17: bool) -> dict[str, dict[str, Fraction]]:
    """Every ordered dealer draw, walked by the engine's plain enumerator."""
    result = {}
    for u in range(RANKS):
        after = tuple(c - (r == u) for r, c in enumerate(counts))

        def dealer_hand(draw: Callable[[], int], up: int = u) -> dict[str, int]:
            hard, ace, cards = up + 1, up == 0, 1
            while True:
                total, soft = total_of(hard, ace)
                if cards >= 2 and (total > 21 or dealer_stands(total, soft, h17)):
                    return {"dealer": outcome_index(total, cards)}
                r = draw()
                hard, ace, cards = hard + r + 1, ace or r == 0, cards + 1

        ways = brute_force_drawing(after, dealer_hand, longest_draw(after, u, h17))["dealer"]
        total = sum(ways.values())
        result[RANK_NAMES[u]] = {o: Fraction(ways.get(i, 0), total) for i, o in enumerate(OUTCOMES)}
    return result
