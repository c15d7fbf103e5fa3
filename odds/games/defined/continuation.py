"""A deal that goes on, counted exactly with card removal (``[definition.continuation]``).

The first deal is the definition's (``deal.cards`` to each position). When the continuation's
``when`` holds on it (Casino War: the two cards tie), ``burn`` cards are burned face down and
``cards`` more are dealt to each position, a hand of their own compared as the first; a bet
reads that continued deal with ``continued`` (:mod:`odds.games.defined.continuation_schema`).

**Counting.** Every first deal is walked as a pair of hands (card types merged by value or
rank where nothing reads more, as :func:`odds.games.defined.threshold.merged_types` merges
them), each pair once with its ways; its round key is read as a bet reads it. For a first
deal that goes on, the continued deal is counted by the engine's own plans on the cards
left (:func:`odds.games.defined.counting.hand_rounds`: the definition's deal with
``continuation.cards`` per position), once per composition left. The ways of a whole round
are extended, as a tableau's, to every card the longest round takes: a first deal that
stops is extended by the continuation it never dealt, so every round has the same total,
``deals(first) · deals(continued from N − first cards) · C(N − first − continued, burn)``.

**Burns.** A burned card is unseen: the continued hands are counted on the cards left after
the first deal, and the burns are any ``burn`` of the cards left after those hands,
``C(left − continued, burn)`` ways whichever the hands are. So the burns multiply every
continued round by one number and change no probability: the law of the next cards is the
same as with no burn (tests/reference/casino_war.py deals the burns card by card and checks
it).

**A decision at the continuation** (``[definition.decision] at = "continuation"``): the
deciding position chooses when the deal goes on, having seen the first deal. Per first deal
that goes on, each action's exact EV (the bets that read the action, one initial unit each,
summed over every continued deal from the cards left) is compared and the greatest taken
(the first listed on equal EVs). Rounds that do not go on have no action (``action = …``
never holds on them).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.engine import check_total, deal_count, hands
from odds.games.defined import counting, patterns, ranking, threshold
from odds.games.defined.rounds import RoundKey, holds, needs, net_of, with_action
from odds.games.defined.schema import ACTION, BetDefinition, Condition, Decision, Definition

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig

#: The most first deals (pairs of hands, after merging card types) walked one by one:
#: estimated before starting, refused past it in one line.
MAX_FIRST_DEALS = 20_000


# ---------------------------------------------------------------------------
# What a bet reads of the continued deal


def reads_continued(condition: Condition | None) -> bool:
    """Whether a condition reads ``continued``."""
    return condition is not None and any(c.continued is not None for c in condition.walk())


def continued_needs(
    conditions: Iterable[Condition | None], definition: Definition
) -> tuple[bool, dict[str, set[str]]]:
    """The winner and the features each position's continued hand is read by."""
    continuation = definition.continuation
    assert continuation is not None
    positions = continuation.positions(definition.deal.positions)
    inner = [
        part.continued
        for condition in conditions
        if condition is not None
        for part in condition.walk()
        if isinstance(part.continued, Condition)
    ]
    return needs(inner, positions)


def decides_here(definition: Definition) -> bool:
    """Whether the definition's decision is taken when the deal goes on."""
    return definition.decision is not None and definition.decision.at == "continuation"


def counted_here(game: DefinedGame, bet: BetDefinition) -> bool:
    """Whether a bet is counted over the continued deal: it reads ``continued``, or the
    action of a decision taken at the continuation."""
    definition = game.definition
    if definition.continuation is None:
        return False
    if any(reads_continued(o.when) for o in bet.outcomes):
        return True
    from odds.games.defined.decisions import decision_bets

    return decides_here(definition) and bet in decision_bets(game)


# ---------------------------------------------------------------------------
# Counting


@dataclass(frozen=True)
class FirstDeal:
    """One first deal (a pair of hands of merged card types) and how a bet sees it."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    ways: int
    who: Any  # the winner, when read
    views: tuple[tuple[Any, ...], tuple[Any, ...]]
    goes_on: bool
    left: tuple[int, ...]  # the counts after the first deal
    #: Whether the decision at the continuation is offered (``[definition.decision] when``).
    offered: bool = True


def _sub_definition(definition: Definition) -> Definition:
    """The continued deal as a definition of its own: the same shoe, positions and
    comparison, ``continuation.cards`` to each position, no bets (kept with the
    definition's classifiers)."""
    key = ("continued-deal",)
    found = definition.classifiers.get(key)
    if found is None:
        continuation = definition.continuation
        assert continuation is not None
        deal = dataclasses.replace(
            definition.deal,
            positions=continuation.positions(definition.deal.positions),
            cards=continuation.cards,
        )
        found = dataclasses.replace(
            definition, deal=deal, bets=(), decision=None, continuation=None, classifiers={}
        )
        definition.classifiers[key] = found
    assert isinstance(found, Definition)
    return found


def extension(definition: Definition, left: int) -> int:
    """The ways of the continuation from ``left`` cards: its hands, then its burns."""
    continuation = definition.continuation
    assert continuation is not None
    k = continuation.cards
    n = len(continuation.positions(definition.deal.positions))
    hands_ = deal_count([left], [k] * n)
    return hands_ * comb(left - k * n, continuation.burn)


def round_total(definition: Definition, counts: Sequence[int]) -> int:
    """Every round extended to the whole continuation: the total of a continued bet."""
    first = deal_count(counts, [definition.deal.cards] * len(definition.deal.positions))
    left = sum(counts) - definition.deal.cards * len(definition.deal.positions)
    return first * extension(definition, left)


def merge_level(
    definition: Definition,
    winner: bool,
    reads: Mapping[str, set[str]],
    inner_winner: bool,
    inner_reads: Mapping[str, set[str]],
) -> int:
    """How much of a card the whole round reads (0 value, 1 rank, 2 the card)."""
    continuation = definition.continuation
    assert continuation is not None
    when_winner, when_reads = needs(
        [continuation.when, offered_condition(definition)], definition.deal.positions
    )
    found = 0
    for w, r in ((winner, reads), (inner_winner, inner_reads), (when_winner, when_reads)):
        plain = {p: names - {ACTION} for p, names in r.items()}
        found = max(found, threshold.detail(definition, w, plain))
    return found


def first_deals(
    definition: Definition,
    types: Sequence[Any],
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> list[FirstDeal]:
    """Every first deal with its ways, its key as ``winner``/``reads`` see it (the action
    left out), and whether the deal goes on (kept per composition and reads)."""
    continuation = definition.continuation
    assert continuation is not None
    cache_key = ("first-deals", tuple(types), tuple(counts), winner,
                 tuple(sorted((p, tuple(sorted(r))) for p, r in reads.items())))  # fmt: skip
    kept = definition.classifiers.get(cache_key)
    if kept is not None:
        return list(kept)
    positions = definition.deal.positions
    size = definition.deal.cards
    estimate = counting.estimate_hands(len(types), size) ** 2
    if estimate > MAX_FIRST_DEALS:
        raise OddsError(
            f"{definition.source}: definition.continuation (line {continuation.line}): a deal "
            f"that goes on is counted per first deal: ~{estimate:,} pairs of {size}-card hands "
            f"from {len(types)} card types, over the limit of {MAX_FIRST_DEALS:,}"
        )
    when_winner, when_reads = needs([continuation.when], positions)
    offered_when = offered_condition(definition)
    offer_winner, offer_reads = needs([offered_when], positions)
    classifier = counting.classifier_for(definition, types)
    plain = {p: reads[p] - {ACTION} for p in positions}
    found = []
    for one, w1 in hands(counts, size):
        rest = list(counts)
        for t in one:
            rest[t] -= 1
        for two, w2 in hands(rest, size):
            left = list(rest)
            for t in two:
                left[t] -= 1
            cards = (classifier.cards(one), classifier.cards(two))
            who = ranking.winner(definition, cards[0], cards[1])
            seen = (
                who if when_winner else None,
                *(
                    patterns.view(c, when_reads[p], definition)
                    for p, c in zip(positions, cards, strict=True)
                ),
            )
            goes_on = holds(continuation.when, seen, definition)
            offered = goes_on and (
                offered_when is None
                or holds(
                    offered_when,
                    (
                        who if offer_winner else None,
                        *(
                            patterns.view(c, offer_reads[p], definition)
                            for p, c in zip(positions, cards, strict=True)
                        ),
                    ),
                    definition,
                )
            )
            views = tuple(
                patterns.view(c, plain[p], definition)
                for p, c in zip(positions, cards, strict=True)
            )
            found.append(
                FirstDeal((one, two), w1 * w2, who if winner else None, views, goes_on,  # type: ignore[arg-type]
                          tuple(left), offered)
            )  # fmt: skip
    definition.classifiers[cache_key] = tuple(found)
    return found


def offered_condition(definition: Definition) -> Condition | None:
    """The condition on the first deal under which the decision at the continuation is
    offered (``[definition.decision] when``); ``None``: offered whenever the deal goes on."""
    decision = definition.decision
    if decision is None or decision.at != "continuation":
        return None
    return decision.when  # type: ignore[no-any-return]


def check_goes_on(game: DefinedGame, config: DefinedConfig) -> None:
    """On the definition's own full shoe, the deal must go on after some first deals and
    stop after others (refused in one line otherwise)."""
    definition = game.definition
    continuation = definition.continuation
    assert continuation is not None
    if not game.full_shoe(config):
        return
    shoe = config.shoe.build()
    level = merge_level(definition, False, {}, False, {})
    merged, merged_counts = _merged(definition, shoe.types, shoe.counts, level)
    went = {d.goes_on for d in first_deals(definition, merged, merged_counts, False, {
        p: set() for p in definition.deal.positions})}  # fmt: skip
    if went != {True, False}:
        raise OddsError(
            f"{definition.source}: definition.continuation (line {continuation.line}): the "
            f"deal {'never' if True not in went else 'always'} goes on: "
            f"{'no' if True not in went else 'every'} first deal from the full shoe has "
            f"{_when_text(definition)}"
        )


def continued_rounds(
    definition: Definition,
    types: Sequence[Any],
    left: tuple[int, ...],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> dict[RoundKey, int]:
    """The continued deal's ways per key from the cards ``left``, burns included (one
    factor, the same for every continued deal: see the module's docstring). Cached."""
    continuation = definition.continuation
    assert continuation is not None
    key = ("continued-rounds", tuple(types), left, winner,
           tuple(sorted((p, tuple(sorted(r))) for p, r in reads.items())))  # fmt: skip
    cache = definition.classifiers
    found = cache.get(key)
    if found is None:
        sub = _sub_definition(definition)
        size = sum(left)
        dealt = continuation.cards * len(sub.deal.positions)
        if size < dealt + continuation.burn:  # never on a whole shoe: the bounds are checked
            found = {}
        else:
            counted = counting.hand_rounds(sub, types, left, winner, dict(reads))
            burns = comb(size - dealt, continuation.burn)
            found = {k: n * burns for k, n in counted.items()}
        cache[key] = found
    assert isinstance(found, dict)
    return found


def _merged(
    definition: Definition, types: Sequence[Any], counts: Sequence[int], level: int
) -> tuple[tuple[Any, ...], tuple[int, ...]]:
    return threshold.merged_types(definition, types, counts, level)


def bet_rounds(
    game: DefinedGame, types: Sequence[Any], counts: Sequence[int], bet: BetDefinition
) -> dict[RoundKey, int]:
    """Ways per round key ``(winner, view, view, continued key or None)`` of a bet that
    reads the continued deal (no decision)."""
    definition = game.definition
    positions = definition.deal.positions
    conditions = [o.when for o in bet.outcomes]
    winner, reads = needs(conditions, positions)
    inner_winner, inner_reads = continued_needs(conditions, definition)
    level = merge_level(definition, winner, reads, inner_winner, inner_reads)
    merged, merged_counts = _merged(definition, types, counts, level)
    result: Counter[RoundKey] = Counter()
    for deal in first_deals(definition, merged, merged_counts, winner, reads):
        if deal.goes_on:
            inner = continued_rounds(definition, merged, deal.left, inner_winner, inner_reads)
            for k, n in inner.items():
                result[(deal.who, *deal.views, k)] += deal.ways * n
        else:
            result[(deal.who, *deal.views, None)] += deal.ways * extension(
                definition, sum(deal.left)
            )
    check_total(result, round_total(definition, counts), f"{definition.source}: rounds")
    return dict(result)


# ---------------------------------------------------------------------------
# The decision at the continuation


@dataclass
class Choice:
    """One first deal that goes on: its cards, ways, each action's exact EV (per initial
    unit of the bets played together), and the action taken."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    cards: tuple[str, str]
    ways: int
    ev: tuple[Fraction, ...]
    action: int


@dataclass
class ContinuedSolution:
    """The optimal action at every continuation, and the rounds it plays. ``rounds_for``
    plays any other choice (one action always, for the report)."""

    decision: Decision
    bets: tuple[BetDefinition, ...]
    choices: list[Choice]
    rounds: dict[RoundKey, int]
    level: int
    types: tuple[Any, ...]
    rounds_for: Callable[[Callable[[Choice], int]], dict[RoundKey, int]]
    fixed: None = None

    def action_of(self, held: Mapping[str, Sequence[Any]], positions: Sequence[str]) -> str:
        """The optimal action on a first deal given as cards (settle)."""
        wanted = tuple(tuple(sorted(_merge_key(c, self.level) for c in held[p])) for p in positions)
        for choice in self.choices:
            keys = tuple(
                tuple(sorted(_merge_key(self.types[t], self.level) for t in hand))
                for hand in choice.hands
            )
            if keys == wanted:
                return self.decision.actions[choice.action]
        return self.decision.actions[0]  # pragma: no cover - every continued deal is a choice


def always(action: int) -> Callable[[Choice], int]:
    """A choice that takes one action at every continuation."""

    def pick(_choice: Choice) -> int:
        return action

    return pick


def _merge_key(card: Any, level: int) -> Any:
    return card if level >= 2 else card.rank


def solve(
    game: DefinedGame,
    payouts: Mapping[str, Fraction],
    types: Sequence[Any],
    counts: Sequence[int],
) -> ContinuedSolution:
    """Each first deal that goes on takes the action of greatest exact EV over its
    continued deals (the first listed on equal EVs); every round's total asserted."""
    from odds.games.defined.decisions import decision_bets

    definition = game.definition
    decision = definition.decision
    assert decision is not None
    positions = definition.deal.positions
    deciding = positions.index(decision.position)
    bets = decision_bets(game)
    conditions = [o.when for b in bets for o in b.outcomes]
    winner, reads = needs(conditions, positions)
    inner_winner, inner_reads = continued_needs(conditions, definition)
    level = merge_level(definition, winner, reads, inner_winner, inner_reads)
    merged, merged_counts = _merged(definition, types, counts, level)
    outcomes = {(b.name, o.key): o for b in bets for o in b.outcomes}
    actions = decision.actions

    def key_of(deal: FirstDeal, action: str | None, inner: Any) -> RoundKey:
        views = list(deal.views)
        if ACTION in reads[decision.position]:
            views[deciding] = with_action(views[deciding], action)
        return (deal.who, *views, inner)

    def net(key: RoundKey) -> Fraction:
        return sum(
            (net_of(outcomes[b.name, game.settled_outcome(b, key)], payouts) for b in bets),
            Fraction(0),
        )

    deals = first_deals(definition, merged, merged_counts, winner, reads)
    choices: list[Choice] = []
    went_on: list[tuple[FirstDeal, Choice, dict[RoundKey, int]]] = []
    not_offered: list[tuple[FirstDeal, dict[RoundKey, int]]] = []
    classifier = counting.classifier_for(definition, merged)
    for deal in deals:
        if not deal.goes_on:
            continue
        inner = continued_rounds(definition, merged, deal.left, inner_winner, inner_reads)
        if not deal.offered:  # the deal goes on with no choice: no action
            not_offered.append((deal, inner))
            continue
        total = sum(inner.values())
        evs = tuple(
            Fraction(sum(net(key_of(deal, a, k)) * n for k, n in inner.items()), total * len(bets))
            for a in actions
        )
        best = 0
        for a in range(1, len(actions)):  # strictly better only: ties keep the earlier
            if evs[a] > evs[best]:
                best = a
        cards = tuple(
            " ".join(_card_text(c, level) for c in classifier.cards(hand)) for hand in deal.hands
        )
        choice = Choice(deal.hands, (cards[0], cards[1]), deal.ways, evs, best)
        choices.append(choice)
        went_on.append((deal, choice, inner))
    stopped = [d for d in deals if not d.goes_on]

    def rounds_for(pick: Callable[[Choice], int]) -> dict[RoundKey, int]:
        result: Counter[RoundKey] = Counter()
        for deal in stopped:
            extended = deal.ways * extension(definition, sum(deal.left))
            result[key_of(deal, None, None)] += extended
        for deal, choice, inner in went_on:
            action = actions[pick(choice)]
            for k, n in inner.items():
                result[key_of(deal, action, k)] += deal.ways * n
        for deal, inner in not_offered:
            for k, n in inner.items():
                result[key_of(deal, None, k)] += deal.ways * n
        check_total(result, round_total(definition, counts), "continued decision rounds")
        return dict(result)

    rounds = rounds_for(lambda choice: choice.action)
    return ContinuedSolution(decision, bets, choices, rounds, level, merged, rounds_for)


def _card_text(card: Any, level: int) -> str:
    return str(card) if level >= 2 else str(card.rank.symbol)


def solution(game: DefinedGame, config: DefinedConfig, counts: Any = None) -> ContinuedSolution:
    """The decision at the continuation solved on the paytable's shoe (or ``counts``), under
    its payouts; kept per composition."""
    from odds.games.defined.options import payout_values

    shoe = config.shoe.build()
    counts = tuple(shoe.counts if counts is None else counts)
    payouts = payout_values(config)
    key = (shoe.types, counts, tuple(sorted(payouts.items())))
    cache: dict[Any, ContinuedSolution] = game.__dict__.setdefault("_continued", {})
    found = cache.get(key)
    if found is None:
        found = solve(game, payouts, shoe.types, counts)
        if len(cache) > 8:
            cache.clear()
        cache[key] = found
    return found


def rounds(
    game: DefinedGame, config: DefinedConfig, bet: BetDefinition, counts: Any = None
) -> dict[RoundKey, int]:
    """Ways per round key of a bet counted over the continued deal."""
    from odds.games.defined.decisions import decision_bets

    if counts is None:
        check_goes_on(game, config)
    if decides_here(game.definition) and bet in decision_bets(game):
        return solution(game, config, counts).rounds
    shoe = config.shoe.build()
    counts = shoe.counts if counts is None else counts
    return bet_rounds(game, shoe.types, tuple(counts), bet)


def outcomes_played(game: DefinedGame, config: DefinedConfig, bet: BetDefinition) -> set[str]:
    """The outcomes of a bet that some strategy plays: under each action taken at every
    continuation (surrendering is never optimal in Casino War, yet its outcome happens)."""
    found = solution(game, config)
    actions = found.decision.actions
    played: set[str] = set()
    for a in range(len(actions)):
        for key, n in found.rounds_for(always(a)).items():
            if n:
                played.add(game.settled_outcome(bet, key))
    return played


def counting_text(game: DefinedGame, counts: Sequence[int]) -> str:
    """The report's counting, said of a deal that goes on ("" without one)."""
    definition = game.definition
    continuation = definition.continuation
    if continuation is None:
        return ""
    from odds.games.defined.decisions import decision_bets
    from odds.games.defined.schema import condition_text

    continued = [b.name for b in definition.bets if counted_here(game, b)]
    burns = (
        f"{continuation.burn} card{'s' * (continuation.burn != 1)} burned face down, then "
        if continuation.burn
        else ""
    )
    to = (
        f"{continuation.cards} card{'s' * (continuation.cards != 1)} to the {continuation.to}"
        if continuation.to
        else f"{continuation.cards} more to each position, compared as the first"
    )
    text = (
        f" The deal goes on when {condition_text(continuation.when)}: {burns}"
        f"{to}. The bets that "
        f"read the continued deal ({', '.join(continued)}) are counted per first deal, the "
        "continued deal counted from the cards left; each round is extended to the whole "
        f"continuation, {round_total(definition, counts):,} ways in all. Burned cards are "
        "unseen: the burns are any of the cards left after the continued hands, the same "
        "number of ways for every continued deal, so they change no probability."
    )
    decision = definition.decision
    if decides_here(definition):
        assert decision is not None
        bets = ", ".join(b.name for b in decision_bets(game))
        offer = f" (where {condition_text(decision.when)})" if decision.when is not None else ""
        text += (
            f" When the deal goes on{offer} the {decision.position} chooses "
            f"{' or '.join(decision.actions)}, having seen the first deal: for each first "
            "deal that goes on, the action of greatest exact EV over every continued deal, "
            f"summed over the bets that read the action ({bets}; the first action listed on "
            "equal EVs), is the one counted."
        )
    return text


# ---------------------------------------------------------------------------
# One round: odds settle


def hand_example(definition: Definition) -> str:
    """What a position holds, as ``settle`` asks for it."""
    continuation = definition.continuation
    assert continuation is not None
    size, more = definition.deal.cards, continuation.cards
    if continuation.to:
        return (
            f"{size} card{'s' * (size > 1)}, e.g. '5h' (the {continuation.to}: {more} "
            "when the deal goes on)"
        )
    example = " ".join(["5h", "9c", "Kd", "2s", "7h", "Ac"][: size + more])
    return (
        f"{size} card{'s' * (size > 1)}, then {more} more when the deal goes on, e.g. '{example}'"
    )


def goes_on(definition: Definition, first: Mapping[str, Sequence[Any]]) -> bool:
    """Whether the deal goes on after these first hands."""
    continuation = definition.continuation
    assert continuation is not None
    positions = definition.deal.positions
    winner, reads = needs([continuation.when], positions)
    who = ranking.winner(definition, first[positions[0]], first[positions[1]]) if winner else None
    key = (who, *(patterns.view(first[p], reads[p], definition) for p in positions))
    return holds(continuation.when, key, definition)


def _split(
    definition: Definition, held: Mapping[str, Sequence[Any]]
) -> tuple[dict[str, tuple[Any, ...]], dict[str, tuple[Any, ...]]]:
    size = definition.deal.cards
    continuation = definition.continuation
    assert continuation is not None
    if continuation.to:  # the continued cards are the new position's
        first = {p: tuple(held[p]) for p in definition.deal.positions}
        return first, {continuation.to: tuple(held.get(continuation.to, ()))}
    first = {p: tuple(cards[:size]) for p, cards in held.items()}
    more = {p: tuple(cards[size:]) for p, cards in held.items()}
    return first, more


def check_held(definition: Definition, held: Mapping[str, Sequence[Any]]) -> dict[str, str]:
    """Each position holds its first cards, and its continued ones only when the deal goes
    on (they may be left out when no bet reads them: a surrender); what happened, per
    position."""
    from odds.core.errors import PositionError

    continuation = definition.continuation
    assert continuation is not None
    size, more = definition.deal.cards, continuation.cards
    for p, cards in held.items():
        if continuation.to:
            wanted = (0, more) if p == continuation.to else (size,)
            if len(cards) not in wanted:
                raise PositionError(
                    p, f"{{position}} must be {' or '.join(map(str, wanted))} cards, got "
                    f"{len(cards)}",
                )  # fmt: skip
            continue
        if len(cards) not in (size, size + more):
            raise PositionError(
                p, f"{{position}} must be {size} or {size + more} cards, got {len(cards)}"
            )
    first, extra = _split(definition, held)
    went_on = goes_on(definition, first)
    given = [p for p in extra if extra[p]]
    if not went_on and given:
        raise PositionError(
            given[0],
            f"{{position}} holds {len(held[given[0]])} cards, but the deal does not go on "
            f"after the first (it goes on when: {_when_text(definition)})",
        )
    if went_on and given and len(given) != len(extra):
        missing = next(p for p in extra if not extra[p])
        raise PositionError(
            missing, f"{{position}} needs its {more} continued card(s) as well: the deal goes on"
        )
    if not went_on:
        return {}
    burned = f", {continuation.burn} cards burned" if continuation.burn else ""
    return {p: f"the deal goes on ({_when_text(definition)}){burned}" for p in held}


def _when_text(definition: Definition) -> str:
    from odds.games.defined.schema import condition_text

    continuation = definition.continuation
    assert continuation is not None
    return condition_text(continuation.when)


def best_action(
    game: DefinedGame, config: DefinedConfig, held: Mapping[str, Sequence[Any]]
) -> str | None:
    """The optimal action when the deal goes on after these first hands (``None``: it does
    not go on, nothing is decided)."""
    definition = game.definition
    first, _ = _split(definition, held)
    if not goes_on(definition, first) or not offered(definition, first):
        return None
    return solution(game, config).action_of(first, definition.deal.positions)


def offered(definition: Definition, first: Mapping[str, Sequence[Any]]) -> bool:
    """Whether the decision is offered on these first hands (``[definition.decision] when``)."""
    condition = offered_condition(definition)
    if condition is None:
        return True
    positions = definition.deal.positions
    winner, reads = needs([condition], positions)
    who = ranking.winner(definition, first[positions[0]], first[positions[1]]) if winner else None
    key = (who, *(patterns.view(first[p], reads[p], definition) for p in positions))
    return holds(condition, key, definition)


def round_key_of(
    game: DefinedGame, held: Mapping[str, Sequence[Any]], action: str | None
) -> Callable[[BetDefinition], RoundKey]:
    """A settled round's key per bet: the first deal's, with the continued deal's key (or
    None, or :data:`NOT_DEALT` when its cards were not given) for a bet that reads it."""
    from odds.games.defined.continuation_schema import NOT_DEALT
    from odds.games.defined.rounds import bet_needs

    definition = game.definition
    positions = definition.deal.positions
    first, more = _split(definition, held)
    went_on = goes_on(definition, first)

    def key_of(bet: BetDefinition) -> RoundKey:
        winner, reads = bet_needs(bet, positions)
        who = ranking.winner(definition, first[positions[0]], first[positions[1]])
        views = []
        for p in positions:
            view = patterns.view(first[p], reads[p] - {ACTION}, definition)
            views.append(with_action(view, action) if ACTION in reads[p] else view)
        key: RoundKey = (who if winner else None, *views)
        if not counted_here(game, bet):
            return key
        if not went_on:
            return (*key, None)
        if not all(more.values()):
            return (*key, NOT_DEALT)
        inner_winner, inner_reads = continued_needs([o.when for o in bet.outcomes], definition)
        inner_positions = tuple(more)
        inner_who = (
            ranking.winner(definition, more[positions[0]], more[positions[1]])
            if inner_winner
            else None
        )
        inner = (
            inner_who,
            *(patterns.view(more[p], inner_reads[p], definition) for p in inner_positions),
        )
        return (*key, inner)

    return key_of


def deal_round(definition: Definition, draw: Callable[[], Any]) -> dict[str, tuple[Any, ...]]:
    """One round card by card (``odds simulate``): the first hands, and when the deal goes
    on the burns (drawn and never shown) and the continued cards, every position's after
    its first (whatever a decision would choose: the log shows the cards the shoe gave)."""
    continuation = definition.continuation
    assert continuation is not None
    positions = definition.deal.positions
    first = {p: tuple(draw() for _ in range(definition.deal.cards)) for p in positions}
    if not goes_on(definition, first):
        # A continuation's own position holds nothing (a log's empty cell).
        return {**first, continuation.to: ()} if continuation.to else first
    for _ in range(continuation.burn):
        draw()
    if continuation.to:
        return {**first, continuation.to: tuple(draw() for _ in range(continuation.cards))}
    return {p: (*first[p], *(draw() for _ in range(continuation.cards))) for p in positions}
