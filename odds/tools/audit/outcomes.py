"""What a results-only log's words mean: each logged result as outcomes of a bet's own table.

A results-only log (:mod:`odds.tools.audit.layout`) says for each round what
each bet did, not which cards were dealt. Its vocabulary is the paytable's:
every bet's outcome table (``odds report``; :class:`odds.stats.bets.Outcome`)
names its outcomes (``Banker wins (less commission)``, ``tie (push)``,
``Player wins``) and gives each its net per unit staked. A logged value is read
as the set of outcomes it may be, a :class:`Cell`:

* an **outcome's name**, as the table writes it (case, spaces and dashes
  aside): that outcome;
* ``win`` / ``lose`` / ``push`` (``won``, ``lost``, ``loss``), optionally with
  the **multiplier** (``win 2``, ``lose x0.5``, or in a ``multiplier_…``
  column): the outcomes whose net has that sign and size. When they differ in
  net the value is refused (the return would be unknown) with the remedy:
  the multiplier, or the outcome's name;
* a **winner** (``Banker``, ``Player``, ``Tie``; ``Dragon``, ``Tiger``): for
  a bet named after a position, or the ``tie`` bet, the outcome whose name
  begins with the winner (``Banker wins …`` when Banker won), else the bet's
  one winning outcome when the winner is the bet itself (the Tie bet on a
  tie), else its one losing outcome; a bet this does not decide for every
  winner (EZ Baccarat's Banker: two ways to win) is not told by the winner;
* a **yes/no flag** (``yes``, ``no``, ``true``, ``false``, ``1``, ``0``, ``y``,
  ``n``, ``x``) for a bet that either wins or loses (``player_pair``): its
  winning outcomes, or its losing ones.

Outcomes a log cannot tell apart (``win 2`` for two special patterns of Pok
Deng) are tested together: each bet's outcome table is merged into the
coarsest cells the log's values distinguish (:meth:`ResultsLog.analysis`),
with the same ways, so the frequency and return tests stay exact. Nothing here
reads a file.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.core.errors import OddsError
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet, Outcome

#: The tests a results-only log cannot run: each needs the cards.
NEEDS_CARDS = (
    "hand classes",
    "shoe integrity",
    "rank and suit frequencies",
    "shuffle",
    "shoe-aware tests",
)
#: Words that mean a bet won, lost or pushed, and the sign of its net.
SIGNS = {"win": 1, "won": 1, "lose": -1, "lost": -1, "loss": -1, "push": 0}
#: A yes/no flag's words.
YES = ("yes", "y", "true", "t", "1", "x")
NO = ("no", "n", "false", "f", "0")
#: The winner value that is not a position.
TIE = "tie"

#: A multiplier as a log writes it, in the ASCII digits alone: ``Fraction`` (and ``\d``) would
#: also read Arabic-Indic and full-width digits and ``1_0`` (issue 33: an amount is read as
#: written or refused, never read as another number).
MULTIPLIER = r"[0-9]+(?:\.[0-9]+)?|[0-9]+/[0-9]+"
_RESULT = re.compile(rf"(win|won|lose|lost|loss|push)(?:\s*[x×*]?\s*({MULTIPLIER}))?")


def normal(text: str) -> str:
    """Text compared as words: case, runs of spaces and the kind of dash aside.

    >>> normal("  Player WINS by 1–3,  no natural")
    'player wins by 1-3, no natural'
    """
    return " ".join(text.replace("–", "-").replace("—", "-").casefold().split())


@dataclass(frozen=True)
class Cell:
    """What one logged value says of one bet: the outcomes it may be, all of one net."""

    bet: str
    events: frozenset[str]
    net: Fraction


class Vocabulary:
    """Reads logged values as :class:`Cell`\\ s of the bets' own outcome tables."""

    def __init__(self, bets: Sequence[Bet], positions: Sequence[str]) -> None:
        self.bets = {b.name: b for b in bets}
        values = [*positions, TIE]
        self.winner_values = {normal(v): v for v in values}
        letters = [normal(v)[0] for v in values]
        if len(set(letters)) == len(letters):  # B/P/T; not D/T/T
            self.winner_values |= {letter: v for letter, v in zip(letters, values, strict=True)}
        self.by_winner = {
            name: table for name in self.bets if (table := self._winner_table(name)) is not None
        }

    # -- one bet's outcomes ------------------------------------------------------------

    def _outcomes(self, bet: str) -> list[Outcome]:
        """The bet's outcomes, each label once (a label repeated in a table is one outcome)."""
        seen: dict[str, Outcome] = {}
        for outcome in self.bets[bet].outcomes:
            seen.setdefault(outcome.event, outcome)
        return list(seen.values())

    def _cell(self, bet: str, outcomes: Sequence[Outcome], text: str) -> Cell:
        nets = sorted({o.net for o in outcomes})
        if len(nets) > 1:
            listed = "; ".join(f"{o.event} (net {o.net})" for o in outcomes)
            raise OddsError(
                f"{text!r} does not say which outcome of {bet} it was ({listed}): give the "
                "multiplier (win 2) or the outcome's name"
            )
        return Cell(bet, frozenset(o.event for o in outcomes), nets[0])

    def _names(self, bet: str) -> str:
        return "; ".join(o.event for o in self._outcomes(bet))

    def result(self, bet: str, text: str, multiplier: str = "") -> Cell:
        """A ``result_<bet>`` value (with its ``multiplier_<bet>`` value, '' if none)."""
        wanted = normal(text)
        outcomes = self._outcomes(bet)
        named = [o for o in outcomes if normal(o.event) == wanted]
        if named:
            if multiplier:
                raise OddsError(
                    f"{text!r} names an outcome of {bet}, which says its net: no multiplier "
                    f"({multiplier!r})"
                )
            return self._cell(bet, named, text)
        found = _RESULT.fullmatch(wanted)
        if found is None:
            raise OddsError(
                f"{text!r} is not a result of {bet} (its outcomes: {self._names(bet)}; or win, "
                "lose, push with a multiplier)"
            )
        sign = SIGNS[found.group(1)]
        size = found.group(2) or normal(multiplier)
        if found.group(2) and multiplier:
            raise OddsError(
                f"{text!r} has its multiplier; the multiplier column says {multiplier!r}"
            )
        amount = None
        if size:
            number = size.lstrip("x×*").strip()
            try:
                if not re.fullmatch(MULTIPLIER, number):
                    raise ValueError(number)
                amount = Fraction(number)
            except (ValueError, ZeroDivisionError):
                raise OddsError(
                    f"multiplier {size!r} is not a number such as 2 or 0.95 (digits 0-9)"
                ) from None
        chosen = [
            o
            for o in outcomes
            if (o.net > 0) - (o.net < 0) == sign and (amount is None or abs(o.net) == amount)
        ]
        if not chosen:
            how = "" if amount is None else f" {amount}"
            raise OddsError(
                f"{text!r}: no outcome of {bet} is a {found.group(1)}{how} (its outcomes: "
                f"{'; '.join(f'{o.event} (net {o.net})' for o in outcomes)})"
            )
        return self._cell(bet, chosen, text)

    def flag(self, bet: str, text: str) -> Cell:
        """A yes/no column's value for a bet that either wins or loses."""
        wanted = normal(text)
        if wanted not in YES and wanted not in NO:
            raise OddsError(f"{text!r} is not yes or no (a {bet} column: {', '.join(YES + NO)})")
        won = wanted in YES
        return self._cell(bet, [o for o in self._outcomes(bet) if (o.net > 0) == won], text)

    def check_flag(self, bet: str) -> str | None:
        """Why ``bet`` cannot be a yes/no column (None: it can)."""
        outcomes = self._outcomes(bet)
        wins = {o.net for o in outcomes if o.net > 0}
        others = {o.net for o in outcomes if o.net <= 0}
        if len(wins) == 1 and len(others) == 1 and min(others) < 0:
            return None
        return (
            f"a yes/no column needs a bet that either wins one amount or loses ({bet}'s outcomes: "
            f"{self._names(bet)}); give result_{bet} with the outcome"
        )

    # -- the winner --------------------------------------------------------------------

    def _winner_table(self, bet: str) -> dict[str, str] | None:
        """The outcome of ``bet`` for each winner, or None when some winner does not decide it."""
        if normal(bet) not in self.winner_values:
            return None
        outcomes = self._outcomes(bet)
        table = {}
        for winner in dict.fromkeys(self.winner_values.values()):
            word = normal(winner)
            named = [o for o in outcomes if normal(o.event).split()[0] == word]
            if not named:
                wins = normal(bet) == word
                named = [o for o in outcomes if (o.net > 0 if wins else o.net < 0)]
            if len(named) != 1:
                return None
            table[winner] = named[0].event
        return table

    def winner(self, bet: str, text: str) -> Cell:
        """A winner column's value, read for one of the bets it decides."""
        value = self.winner_values.get(normal(text))
        if value is None:
            known = ", ".join(dict.fromkeys(self.winner_values.values()))
            raise OddsError(f"{text!r} is not a winner (winners: {known})")
        event = self.by_winner[bet][value]
        return self._cell(bet, [o for o in self._outcomes(bet) if o.event == event], text)


@dataclass(frozen=True)
class ResultsLog:
    """What a results-only log tells, for the audit: the cells seen and what is not tested."""

    #: Every cell the log's values were read as, by bet.
    cells: Mapping[str, tuple[Cell, ...]]
    #: The notes the audit prints (what is not tested, and why).
    notes: tuple[str, ...]

    def merged(self, bet: str) -> list[frozenset[str]]:
        """The bet's outcomes in the coarsest classes the log tells apart, in table order.

        Two cells that share an outcome are one class (the union, closed under
        sharing); an outcome no cell names is a class of its own.
        """
        classes: list[set[str]] = []
        for cell in self.cells.get(bet, ()):
            joined = set(cell.events)
            for existing in [c for c in classes if c & joined]:
                joined |= existing
                classes.remove(existing)
            classes.append(joined)
        return [frozenset(c) for c in classes]

    def label(self, bet: Bet, events: frozenset[str]) -> str:
        """A class's label: its outcomes' names in table order, joined by ' or '."""
        for group in self.merged(bet.name):
            if events <= group:
                events = group
                break
        return " or ".join(dict.fromkeys(o.event for o in bet.outcomes if o.event in events))

    def coarsened(self, bet: Bet) -> Bet:
        """The bet with its outcome table merged into the classes the log tells apart."""
        merged: dict[str, Outcome] = {}
        for outcome in bet.outcomes:
            label = self.label(bet, frozenset({outcome.event}))
            if label in merged:
                kept = merged[label]
                merged[label] = Outcome(label, kept.net, kept.ways + outcome.ways)
            else:
                merged[label] = Outcome(label, outcome.net, outcome.ways)
        return dataclasses.replace(bet, outcomes=tuple(merged.values()))

    def analysis(self, analysis: Analysis) -> Analysis:
        """The analysis the audit tests the log against: its bets only, coarsened, no classes."""
        bets = tuple(self.coarsened(b) for b in analysis.bets if b.name in self.cells)
        return dataclasses.replace(analysis, bets=bets, hand_classes={})
