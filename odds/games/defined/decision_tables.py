"""The report of a decision: the strategy the computation found, and the game under it.

Three tables (four with a fixed strategy), from :func:`odds.games.defined.decisions.solve`
alone (nothing of the optimum is typed in):

* **strategy** — per category of the deciding hand, strongest first, what it does: one
  action for every hand, or a threshold ("play Q-6-4 or better, fold Q-6-3 and below"),
  read back as runs of one action in the strength order; the note says whether the whole
  strategy is one threshold;
* **the bets played together** — the bets that read the action, one initial unit each:
  EV and house edge per initial unit, the average total wager (a raise adds to it), the
  element of risk (EV per unit of total wager), hit frequency, SD per initial unit, and
  how often each action is taken;
* **the fixed strategy** (when the definition gives one) — the same figures under the
  optimal strategy and under the definition's rule, the rule's exact cost per initial unit
  and the hands it plays otherwise;
* **the hands at each threshold** — the EV of every action for the strength levels where
  the action changes, exact, so the margin of each decision can be read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from odds.core.numbers import fraction_text
from odds.core.table import Column, Kind, Table
from odds.games.defined.decisions import Run, Solution, mixed_strengths, strategy_runs
from odds.games.defined.options import payout_values
from odds.games.defined.riders import stakes
from odds.games.defined.rounds import net_of
from odds.stats.bets import Bet, sqrt_decimal

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig


def decision_tables(game: DefinedGame, config: DefinedConfig, bets: Sequence[Bet]) -> list[Table]:
    """The strategy, the bets that read the action played together, the threshold hands."""
    shoe = config.shoe.build()
    solution = game.solution(config)
    texts = _HandTexts(game, shoe.types, solution)
    tables = [strategy_table(game, solution, texts), together_table(game, config, solution)]
    if solution.fixed is not None:
        tables.append(fixed_table(game, config, solution, texts))
    return [*tables, threshold_table(solution, texts)]


class _HandTexts:
    """A strength level in words: the cards of its first hand, by rank ("Q-6-4") when the
    order reads no suit, else the cards themselves."""

    def __init__(self, game: DefinedGame, types: Sequence[Any], solution: Solution) -> None:
        from odds.games.defined.counting import classifier_for, reads_suits_in_strength

        definition = game.definition
        self.definition = definition
        self.classifier = classifier_for(definition, types)
        self.by_suit = reads_suits_in_strength(definition)
        self.first: dict[int, int] = {}
        for i, r in enumerate(solution.rank.tolist()):
            self.first.setdefault(int(r), i)
        self.solution = solution

    def of_rank(self, rank: int) -> str:
        return self.of_hand(self.first[rank])

    def of_hand(self, i: int) -> str:
        cards = self.classifier.cards(self.solution.hands[i])
        order = self.definition.shoe.order
        cards.sort(key=lambda c: (order(c.rank), c.suit), reverse=True)
        if self.by_suit:
            return " ".join(str(c) for c in cards)
        return "-".join(c.rank.symbol for c in cards)

    def category(self, i: int) -> int | None:
        return self.classifier.category(self.solution.hands[i])


def describe_runs(runs: Sequence[Run], texts: _HandTexts) -> str:
    """Runs of one action in words: "play every hand"; "play Q-6-4 or better, fold Q-6-3
    and below"; or each run from its strongest to its weakest hand."""
    if len(runs) == 1:
        return f"{runs[0].action} every hand"
    if len(runs) == 2:
        high, low = runs
        return (
            f"{high.action} {texts.of_rank(high.weakest)} or better, "
            f"{low.action} {texts.of_rank(low.strongest)} and below"
        )
    return "; ".join(
        f"{run.action} {texts.of_rank(run.strongest)} down to {texts.of_rank(run.weakest)}"
        for run in runs
    )


def strategy_table(game: DefinedGame, solution: Solution, texts: _HandTexts) -> Table:
    definition = game.definition
    decision = solution.decision
    actions = decision.actions
    ways = [int(w) for w in solution.ways.tolist()]
    chosen = [int(a) for a in solution.choice.tolist()]
    groups: dict[int | None, list[int]] = {}
    for i in range(len(solution.hands)):
        groups.setdefault(texts.category(i) if definition.categories else None, []).append(i)
    order = sorted(groups, key=lambda c: -definition.level(c) if c is not None else 0)
    rows = []
    for category in order:
        members = groups[category]
        total = sum(ways[i] for i in members)
        taken: Counter[int] = Counter()
        for i in members:
            taken[chosen[i]] += ways[i]
        row: dict[str, Any] = {
            "category": definition.categories[category].label
            if category is not None
            else "every hand",
            "hands": len(members),
            "ways": total,
            "strategy": describe_runs(strategy_runs(solution, members), texts),
        }
        for a, action in enumerate(actions):
            row[f"action.{action}"] = Fraction(taken[a], total)
        rows.append(row)
    runs = strategy_runs(solution)
    single = len(runs) == len({r.action for r in runs})
    mixed = mixed_strengths(solution)
    position = decision.position
    headline = describe_runs(runs, texts)
    note = (
        f"Computed, not typed in: each {position} hand (the cards it sees, card removal "
        f"included) takes the action of greatest exact EV over every hand left to the other "
        f"position, summed over the bets that read the action; on a tie, the first action "
        f"listed ({actions[0]}). Over the whole hand order: {headline}"
        + (
            " — one threshold in the hand order."
            if single and not mixed
            else f" — not one threshold: {len(runs)} runs of one action in the hand order"
            + (f", and {mixed} strength levels whose hands differ by suit" if mixed else "")
            + "."
        )
    )
    return Table(
        key="strategy",
        title=f"Strategy: the {position}'s optimal action, by category (strongest first)",
        columns=(
            Column("category", "category"),
            Column("hands", "hands", Kind.WAYS),
            Column("ways", "ways", Kind.WAYS),
            *(
                Column(f"action.{a}", f"{a} (share of ways)", Kind.PERCENT, places=2)
                for a in actions
            ),
            Column("strategy", "strategy"),
        ),
        rows=tuple(rows),
        note=note,
    )


def together(
    game: DefinedGame, config: DefinedConfig, solution: Solution
) -> dict[tuple[Fraction, Fraction], int]:
    """Ways per (net, total wager) of the bets that read the action, played together one
    initial unit each, under the optimal strategy (every round's outcomes summed)."""
    payouts = payout_values(config)
    found: Counter[tuple[Fraction, Fraction]] = Counter()
    outcomes = {(b.name, o.key): o for b in solution.bets for o in b.outcomes}
    for key, n in solution.rounds.items():
        net, wagered = Fraction(0), Fraction(0)
        for bet in solution.bets:
            outcome = outcomes[bet.name, game.settled_outcome(bet, key)]
            net += net_of(outcome, payouts)
            wagered += outcome.wagered if bet.rides_on is None else 0  # a rider: no stake
        found[net, wagered] += n
    return dict(found)


def figures(game: DefinedGame, config: DefinedConfig, solution: Solution) -> dict[str, Any]:
    """The bets that read the action played together under the solution's choice: EV and
    house edge per initial unit, average total wager, element of risk, hit frequency, push,
    SD per initial unit, and each action's share of the ways (``action.<name>``)."""
    joint = together(game, config, solution)
    units = stakes(solution.bets)
    total = sum(joint.values())
    ev = Fraction(sum(net * n for (net, _), n in joint.items()), total * units)
    wager = Fraction(sum(w * n for (_, w), n in joint.items()), total * units)
    second = Fraction(sum(net * net * n for (net, _), n in joint.items()), total * units * units)
    shares: Counter[str] = Counter()
    position = game.definition.deal.positions.index(solution.decision.position)
    for key, n in solution.rounds.items():
        shares[dict(key[1:][position])["action"]] += n
    found: dict[str, Any] = {
        "ev": ev,
        "house_edge": -ev,
        "average_wager": wager,
        "element_of_risk": -ev / wager,
        "hit_frequency": Fraction(sum(n for (net, _), n in joint.items() if net > 0), total),
        "push": Fraction(sum(n for (net, _), n in joint.items() if net == 0), total),
        "sd": sqrt_decimal(second - ev * ev),
    }
    for action in solution.decision.actions:
        found[f"action.{action}"] = Fraction(shares[action], total)
    return found


def _figure_columns(actions: Sequence[str]) -> tuple[Column, ...]:
    return (
        Column("ev", "EV per initial unit (exact)", Kind.EXACT),
        Column("house_edge", "house edge per initial unit", Kind.PERCENT),
        Column("average_wager", "average total wager", Kind.PROBABILITY),
        Column("element_of_risk", "element of risk", Kind.PERCENT),
        Column("hit_frequency", "hit frequency", Kind.PERCENT),
        Column("push", "push", Kind.PERCENT),
        Column("sd", "SD per initial unit", Kind.APPROXIMATE),
        *(Column(f"action.{a}", a, Kind.PERCENT) for a in actions),
    )


def together_table(game: DefinedGame, config: DefinedConfig, solution: Solution) -> Table:
    units = stakes(solution.bets)
    riding = [b.title for b in solution.bets if b.rides_on is not None]
    row: dict[str, Any] = {
        "bets": " + ".join(b.title for b in solution.bets if b.rides_on is None),
        **figures(game, config, solution),
    }
    ev, wager, risk = row["ev"], row["average_wager"], -row["element_of_risk"]
    return Table(
        key="decision",
        title="The bets that read the decision, played together under the optimal strategy",
        columns=(Column("bets", "bets"), *_figure_columns(solution.decision.actions)),
        rows=(row,),
        note=(
            f"One initial unit on each bet that reads the action ({units})"
            + (
                f", and {', '.join(riding)} paid on its stake with no stake of its own (`rides_on`)"
                if riding
                else ""
            )
            + "; a decision may add stakes (an outcome's `wagered`). House edge per initial "
            "unit = −EV = "
            f"{fraction_text(-ev)}; average total wager = {fraction_text(wager)} initial "
            f"units; element of risk = house edge ÷ average total wager = "
            f"{fraction_text(-risk)} (the house's advantage per unit wagered in all). Hit "
            "frequency counts net wins; SD is of the net per initial unit. The last columns: "
            "how often each action is taken."
        ),
    )


def fixed_table(
    game: DefinedGame, config: DefinedConfig, solution: Solution, texts: _HandTexts
) -> Table:
    """The definition's fixed strategy beside the optimal one: the same figures of each,
    what the fixed one costs per initial unit, and the hands it plays differently."""
    fixed = solution.fixed
    strategy = solution.decision.strategy
    assert fixed is not None and strategy is not None
    optimal = figures(game, config, solution)
    mine = figures(game, config, fixed)
    cost = optimal["ev"] - mine["ev"]
    differ = (solution.choice != fixed.choice).tolist()
    ways = [int(w) for w in solution.ways.tolist()]
    hands = sum(differ)
    dealt = sum(w for w, d in zip(ways, differ, strict=True) if d)
    rows = (
        {"strategy": "optimal (computed)",
         "rule": describe_runs(strategy_runs(solution), texts), **optimal,
         "cost": Fraction(0), "hands": 0, "ways": 0},
        {"strategy": strategy.label, "rule": describe_runs(strategy_runs(fixed), texts), **mine,
         "cost": cost, "hands": hands, "ways": dealt},
    )  # fmt: skip
    position = solution.decision.position
    same = "it is the optimal strategy" if not hands else (
        f"it plays {hands:,} {position} hands ({fraction_text(Fraction(dealt, sum(ways)))} "
        "of the deals) otherwise than the optimum"
    )  # fmt: skip
    return Table(
        key="fixed-strategy",
        title=f"The fixed strategy ({strategy.name}) beside the optimal one",
        columns=(
            Column("strategy", "strategy"),
            Column("rule", "in the hand order"),
            *_figure_columns(solution.decision.actions),
            Column("cost", "cost per initial unit (exact)", Kind.EXACT),
            Column("hands", "hands played otherwise", Kind.WAYS),
            Column("ways", "their ways", Kind.WAYS),
        ),
        rows=rows,
        note=(
            f"The definition's strategy ({strategy.label}), played on the same per-hand "
            "counts as the optimal one: each hand's action from the strategy's rule instead "
            "of the greatest EV. Its cost = optimal EV − its EV per initial unit = "
            f"{fraction_text(cost)}; {same}. Figures as in the table above; the rule read "
            "back in the hand order, from the choices counted."
        ),
    )


def threshold_table(solution: Solution, texts: _HandTexts) -> Table:
    """The EV of every action at the strength levels where the action changes."""
    actions = solution.decision.actions
    runs = strategy_runs(solution)
    levels: list[int] = []
    for high, low in pairwise(runs):
        for rank in (high.weakest, low.strongest):
            if rank not in levels:
                levels.append(rank)
    ranks = [int(r) for r in solution.rank.tolist()]
    ways = [int(w) for w in solution.ways.tolist()]
    chosen = [int(a) for a in solution.choice.tolist()]
    rows = []
    for rank in levels:
        members = [i for i, r in enumerate(ranks) if r == rank]
        total = sum(ways[i] for i in members)
        row: dict[str, Any] = {
            "hand": texts.of_rank(rank),
            "hands": len(members),
            "action": ", ".join(sorted({actions[chosen[i]] for i in members}, key=actions.index)),
        }
        for a, action in enumerate(actions):
            row[f"ev.{action}"] = Fraction(
                sum(ways[i] * solution.hand_ev(i, a) for i in members), total
            )
        rows.append(row)
    return Table(
        key="thresholds",
        title="The hands where the action changes: the EV of each action",
        columns=(
            Column("hand", "hand"),
            Column("hands", "hands", Kind.WAYS),
            Column("action", "optimal"),
            *(Column(f"ev.{a}", f"EV if {a}", Kind.PROBABILITY, signed=True) for a in actions),
        ),
        rows=tuple(rows),
        note=(
            "Per strength level next to each change of action (its hands differ only by "
            "suit): the EV per initial unit of the bets that read the action, averaged over "
            "the level's hands, exact in JSON."
        ),
    )


def strategy_line(game: DefinedGame, config: DefinedConfig) -> str:
    """The optimal strategy under this paytable in one line, from the computation (``odds
    solve`` names the one at its solution): the hand-order runs of a decision on the deal
    ("play Q-6-4 or better, fold Q-6-3 and below"), or each action's share of the first
    deals that go on."""
    decision = game.definition.decision
    assert decision is not None
    if decision.at != "continuation":
        solution = game.solution(config)
        texts = _HandTexts(game, config.shoe.build().types, solution)
        return describe_runs(strategy_runs(solution), texts)
    from odds.games.defined.continuation import solution as continued

    choices = continued(game, config).choices
    taken: dict[int, list[str]] = {}
    for choice in choices:
        taken.setdefault(choice.action, []).append("/".join(choice.cards))
    if len(taken) == 1:
        return f"{decision.actions[next(iter(taken))]} whenever the deal goes on"
    parts = []
    for action, deals in sorted(taken.items()):
        shown = ", ".join(deals[:6]) + (", …" if len(deals) > 6 else "")
        parts.append(
            f"{decision.actions[action]} on {len(deals)} of the {len(choices)} first deals "
            f"that go on ({shown})"
        )
    return "; ".join(parts)
