"""The report of a decision taken when the deal goes on (``at = "continuation"``).

Two tables, from :func:`odds.games.defined.continuation.solve` alone:

* **strategy** — every first deal that goes on (Casino War: each tie), its ways, the exact
  EV of each action per initial unit over every continued deal from the cards left, and the
  action taken (the greatest EV);
* **the bets played together** — the bets that read the action, one initial unit each,
  under the optimal strategy and under each action taken at every continuation: EV and
  house edge per initial unit, average total wager, element of risk, hit frequency, push,
  SD (the figures of :func:`odds.games.defined.decision_tables.figures`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.numbers import fraction_text
from odds.core.table import Column, Kind, Table
from odds.games.defined.continuation import always
from odds.games.defined.continuation import solution as continued_solution
from odds.games.defined.decision_tables import _figure_columns, figures
from odds.games.defined.schema import BetDefinition, Decision, condition_text

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig


@dataclass
class _Played:
    """Rounds played under one choice, as :func:`figures` reads a solution."""

    decision: Decision
    bets: tuple[BetDefinition, ...]
    rounds: dict[Any, int]


def continuation_tables(game: DefinedGame, config: DefinedConfig) -> list[Table]:
    solution = continued_solution(game, config)
    decision = solution.decision
    actions = decision.actions
    first, second = game.definition.deal.positions
    total = sum(c.ways for c in solution.choices)
    spreads = _spreads(game, solution)
    rows = []
    for index, choice in enumerate(solution.choices):
        row: dict[str, Any] = {
            first: choice.cards[0],
            second: choice.cards[1],
            **({"spread": _spread_text(spreads[index])} if spreads else {}),
            "ways": choice.ways,
            "share": Fraction(choice.ways, total),
            "action": actions[choice.action],
        }
        for a, ev in zip(actions, choice.ev, strict=True):
            row[f"ev.{a}"] = ev
        rows.append(row)
    margin = min(
        (c.ev[c.action] - max(e for i, e in enumerate(c.ev) if i != c.action)
         for c in solution.choices),
        default=Fraction(0),
    )  # fmt: skip
    strategy = Table(
        key="strategy",
        title=f"Strategy when the deal goes on (the {decision.position} decides)",
        columns=(
            Column(first, f"{first}'s first cards"),
            Column(second, f"{second}'s first cards"),
            *((Column("spread", "spread"),) if spreads else ()),
            Column("ways", "ways", Kind.WAYS),
            Column(
                "share",
                "share of the deals where the choice is offered"
                if decision.when is not None
                else "share of the deals that go on",
                Kind.PERCENT,
            ),
            *(Column(f"ev.{a}", f"EV if {a} (exact)", Kind.EXACT) for a in actions),
            Column("action", "optimal action"),
        ),
        rows=tuple(rows),
        note=(
            "Each first deal that goes on"
            + (f" where {condition_text(decision.when)}" if decision.when is not None else "")
            + f": the {decision.position} has seen it and chooses "
            f"{' or '.join(actions)}. EV per initial unit of the bets that read the action, "
            "one unit each, over every continued deal from the cards left (burned cards "
            "unseen: they change no probability), exact; the greatest is taken (the first "
            "listed on equal EVs), none typed in. Ways: first deals, the continuation not "
            f"counted. The smallest margin of the optimal action: {fraction_text(margin)}."
            + (
                _by_spread(spreads, [actions[c.action] for c in solution.choices])
                if spreads
                else ""
            )
        ),
    )
    played = [("optimal (computed)", solution.rounds)]
    for index, action in enumerate(actions):
        played.append((f"{action} at every continuation", solution.rounds_for(always(index))))
    together = []
    for label, rounds in played:
        found = figures(game, config, _Played(decision, solution.bets, rounds))  # type: ignore[arg-type]
        together.append({"strategy": label, **found})
    optimal = together[0]
    return [
        strategy,
        Table(
            key="decision",
            title="The bets that read the decision, played together",
            columns=(Column("strategy", "strategy"), *_figure_columns(actions)),
            rows=tuple(together),
            note=(
                f"One initial unit on each bet that reads the action "
                f"({', '.join(b.title for b in solution.bets)}); a decision may add stakes "
                "(an outcome's `wagered`). House edge per initial unit = −EV = "
                f"{fraction_text(optimal['house_edge'])} under the optimal strategy; average "
                f"total wager = {fraction_text(optimal['average_wager'])} initial units; "
                "element of risk = house edge ÷ average total wager = "
                f"{fraction_text(optimal['element_of_risk'])}. The action columns: how often "
                "each is taken, of every round (a round that does not go on takes none)."
            ),
        ),
    ]


def _spreads(game: DefinedGame, solution: Any) -> list[int | None]:
    """Each first deal's spread (the ranks strictly between its two one-card hands; None for
    a pair) when the bets that read the action read ``spread``; [] otherwise."""
    definition = game.definition
    if definition.deal.cards != 1 or not any(
        _reads_spread(o.when) for b in solution.bets for o in b.outcomes
    ):
        return []
    order = definition.shoe.order
    found: list[int | None] = []
    for choice in solution.choices:
        one, two = (order(solution.types[hand[0]].rank) for hand in choice.hands)
        found.append(abs(one - two) - 1 if one != two else None)
    return found


def _reads_spread(condition: Any) -> bool:
    if condition is None:
        return False
    return any(name == "spread" for position, name, _ in condition.every_test() if not position)


def _spread_text(spread: int | None) -> str:
    return "none (a pair)" if spread is None else str(spread)


def _by_spread(spreads: list[int | None], actions: list[str]) -> str:
    """The strategy read back by spread ("raise on spread 7–11; stand on spread 1–6"), when
    every first deal of one spread takes one action."""
    taken: dict[int | None, set[str]] = {}
    for spread, action in zip(spreads, actions, strict=True):
        taken.setdefault(spread, set()).add(action)
    if any(len(a) > 1 for a in taken.values()):
        return " The action is not one per spread: it depends on the cards, not the spread alone."
    parts = []
    for action in dict.fromkeys(actions):
        numbers = sorted(s for s, a in taken.items() if s is not None and action in a)
        runs: list[str] = []
        for n in numbers:
            if runs and int(runs[-1].split("–")[-1]) == n - 1:
                runs[-1] = f"{runs[-1].split('–')[0]}–{n}"
            else:
                runs.append(str(n))
        where = [f"spread {', '.join(runs)}"] if runs else []
        if None in taken and action in taken[None]:
            where.append("a pair")
        parts.append(f"{action} on {' and '.join(where)}")
    return " Read back by spread: " + "; ".join(sorted(parts, reverse=True)) + "."
