"""Seeded wager logs beside a dealt round log (``odds simulate --wagers``): honest and counting.

What the wager test (:mod:`odds.tools.audit.wager_test`) must tell apart, at
one table, the same shoes:

* ``random-1`` — bets the main bets at random rounds, now and then the counted bet;
* ``progression-2`` — the first main bet every round, doubling after a loss
  (a martingale, capped), and the counted bet at random rounds, doubling too:
  its stakes follow its results, not the cards it has seen;
* ``late-3`` — the counted bet and the first main bet on every round once two
  thirds of the shoe are dealt, whatever the cards (the bettor a within-shoe
  permutation would falsely name);
* ``random-4`` — any bet of the paytable at random rounds, random stakes;
* ``counter-5`` — covers with the first main bet at random, and bets the
  counted bet when the count says: for Dragon 7, Eliot Jacobson's count
  (4, 5, 6, 7 count −1; 8, 9 count +2; the rest 0) at a true count (running
  count per deck unseen) of +4 or more; for another bet, whenever its exact
  state EV is positive (a perfect counter, the engine's own valuation).
  With ``at_random`` it places as many counted wagers, at rounds drawn at
  random from the whole log: the same account, blind. (As many *in each shoe*
  would not be blind: how often a shoe's count rises is itself the cards'
  doing, and the test rightly notices an account that bets more in the shoes
  that favour it — 5 of 100 logs measured.)

Everything is seeded apart from the deal (the same round log with another
``seed`` of wagers is another set of players). Rounds and shoes are named as
the round log names them, so the two logs join.
"""

from __future__ import annotations

import csv
import gzip
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from odds.core.errors import OddsError
from odds.games.base import Game
from odds.runtime.atomic import Inputs, atomic_path

#: The accounts written, in order; the last one counts.
ACCOUNTS = ("random-1", "progression-2", "late-3", "random-4", "counter-5")
COUNTER = ACCOUNTS[-1]
#: Jacobson's Dragon 7 count: tags by rank value (ace 1 … king 13), and when to bet.
DRAGON_7 = "dragon-7"
JACOBSON_TAGS = {4: -1, 5: -1, 6: -1, 7: -1, 8: 2, 9: 2}
JACOBSON_TRUE_COUNT = 4
#: The columns of a wager log written here.
FIELDS = ("shoe", "round", "account", "bet", "stake")


@dataclass(frozen=True)
class LoggedRound:
    """A round of the round log as the wager writer sees it: its labels, cards and unit nets."""

    shoe: str
    label: str
    cards: tuple[int, ...]
    nets: dict[str, Fraction]  # each bet's net per unit staked


def counted_bet(bets: Sequence[str], counted: str | None) -> str:
    """The bet the counter counts: as given (checked), else Dragon 7 where the paytable has it."""
    if counted is not None:
        if counted not in bets:
            raise OddsError(f"--counted {counted}: not a bet of the paytable ({', '.join(bets)})")
        return counted
    if DRAGON_7 in bets:
        return DRAGON_7
    raise OddsError(f"--wagers: name the bet the counter counts with --counted ({', '.join(bets)})")


def logged_rounds(game: Game, config: Any, rows: Sequence[dict[str, str]]) -> list[LoggedRound]:
    """The round log's rows (one per round, ``shoe`` and ``round`` labelled) as rounds."""
    shoe = game.shoe(config)
    positions = [p for p in game.positions if p in rows[0]] if rows else []
    if rows and len(positions) != len(game.positions):
        raise OddsError("--wagers needs a log with one row per round (every hand in its row)")
    rounds = []
    texts: dict[tuple[str, ...], tuple[tuple[int, ...], dict[str, Fraction]]] = {}
    for row in rows:
        hands = tuple(row[p] for p in positions)
        if hands not in texts:
            cards = tuple(
                shoe.index(item) for text in hands for item in game.parse_hand(config, text) if text
            )
            settled = game.settle(config, dict(zip(positions, hands, strict=True)), Fraction(1))
            texts[hands] = (cards, {b.bet: b.net / b.stake for b in settled.bets})
        cards, nets = texts[hands]
        rounds.append(LoggedRound(str(row["shoe"]), str(row["round"]), cards, nets))
    return rounds


def wager_rows(
    game: Game,
    config: Any,
    rounds: Sequence[LoggedRound],
    bets: Sequence[str],
    counted: str,
    seed: int,
    at_random: bool = False,
) -> list[dict[str, str]]:
    """Every account's wagers, round by round (see the module docstring)."""
    shoe = game.shoe(config)
    size = shoe.size
    unit = 52
    rank = _rank_values(shoe.types)
    evaluator = None
    if counted != DRAGON_7 or rank is None:
        feature = game.shoe_state
        if feature is None:
            raise OddsError(f"--wagers: {game.name} has no shoe-state engine for the counter")
        evaluator = feature.evaluator(config)
        unit = evaluator.unit
    rng = random.Random(f"wagers-{seed}")
    main = [b for b in bets if b != counted][:2] or [counted]
    shoes: dict[str, list[LoggedRound]] = {}
    for r in rounds:
        shoes.setdefault(r.shoe, []).append(r)
    out: list[dict[str, str]] = []

    def bet(account: str, name: str, stake: int) -> None:
        out.append(
            {"shoe": r.shoe, "round": r.label, "account": account, "bet": name, "stake": str(stake)}
        )

    progression = {"main": 10, "counted": 5}
    counting = [_counting(dealt, shoe, rank, evaluator, counted, unit) for dealt in shoes.values()]
    if at_random:  # as many counted wagers, at rounds drawn from the whole log: blind
        places = [(s, i) for s, flags in enumerate(counting) for i in range(len(flags))]
        drawn = set(random.Random(f"blind-{seed}").sample(places, sum(map(sum, counting))))
        counting = [[(s, i) in drawn for i in range(len(f))] for s, f in enumerate(counting)]
    for dealt, flags in zip(shoes.values(), counting, strict=True):
        seen = 0
        for i, r in enumerate(dealt):
            if rng.random() < 0.4:
                bet("random-1", rng.choice(main), rng.choice((5, 10, 25)))
            if rng.random() < 0.08:
                bet("random-1", counted, 5)
            # progression-2: its stakes follow its own results
            bet("progression-2", main[0], progression["main"])
            won = r.nets.get(main[0], Fraction(0))
            progression["main"] = 10 if won > 0 else min(progression["main"] * 2, 160)
            if rng.random() < 0.15:
                bet("progression-2", counted, progression["counted"])
                won = r.nets.get(counted, Fraction(0))
                progression["counted"] = 5 if won > 0 else min(progression["counted"] * 2, 40)
            if 3 * seen >= 2 * size:
                bet("late-3", counted, 10)
                bet("late-3", main[0], 10)
            if rng.random() < 0.25:
                bet("random-4", rng.choice(list(bets)), rng.choice((5, 10, 20, 50)))
            if rng.random() < 0.5:
                bet(COUNTER, main[0], 10)
            if flags[i]:
                bet(COUNTER, counted, 25)
            seen += len(r.cards)
    return out


def _counting(
    dealt: Sequence[LoggedRound],
    shoe: Any,
    rank: list[int] | None,
    evaluator: Any,
    counted: str,
    unit: int,
) -> list[bool]:
    """Whether the counter bets each round of a shoe: the count (or the exact EV) before it."""
    counts = list(shoe.counts)
    running = 0
    seen = 0
    flags = []
    for r in dealt:
        if evaluator is None:
            decks = (shoe.size - seen) / unit
            flags.append(decks > 0 and running / decks >= JACOBSON_TRUE_COUNT)
        else:
            flags.append(evaluator.evs(counts)[counted] > 0)
        for card in r.cards:
            counts[card] -= 1
            if rank is not None:
                running += JACOBSON_TAGS.get(rank[card], 0)
        seen += len(r.cards)
    return flags


def _rank_values(types: Sequence[Any]) -> list[int] | None:
    """Each type's rank value (ace 1 … king 13) when the shoe is of cards, else None."""
    if types and all(hasattr(t, "rank") for t in types):
        return [int(t.rank) for t in types]
    return None


def write_wagers(rows: Sequence[dict[str, str]], path: Path, inputs: Inputs = ()) -> None:
    """The wager log as CSV (gzip-compressed when the name ends in ``.gz``), written whole."""
    with atomic_path(path, inputs) as temporary:
        opener: Any = gzip.open if path.name.lower().endswith(".gz") else open
        with opener(temporary, "wt", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, FIELDS, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
