"""A plain second count of a defined game: every ordered deal of a small shoe, one at a time.

It shares no counting with :mod:`odds.games.defined.counting` (no engine call, no
plan, no showdown cuts, no tableau polynomial): it walks every deal of the *cards*
(each copy distinct) as the definition says (each hand's set of cards in turn, the
threshold draws card by card, or the tableau's draws decided card by card), classifies
each finished hand by the pattern vocabulary and settles every bet by its conditions.
What it shares is the vocabulary itself (:mod:`odds.games.defined.patterns` and the conditions of
:mod:`odds.games.defined.rounds`); published figures check that part.

Ways are ordered: for hand deals, the engine's unordered ways times ``∏ size!`` (each
hand's set weighted by its orders, which no hand feature reads);
for tableau deals, ordered ways of the cards a round uses, extended to six cards. A deal that
goes on (``[definition.continuation]``) deals its burns and continued cards one by one, each
burned card explicitly, and a first deal that stops is extended by as many unseen cards.
Probabilities are compared, exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import factorial
from typing import Any

from odds.core.cards import Card, Suit
from odds.games.defined import patterns, ranking
from odds.games.defined.game import DefinedGame
from odds.games.defined.rounds import bet_needs, holds, needs
from odds.games.defined.schema import Condition


def _round_key(
    game: DefinedGame,
    hands: dict[str, list[Card]],
    bet: Any,
    action: str | None = None,
    memo: dict[str, Any] | None = None,
) -> tuple[Any, ...]:
    """``memo``: what one deal shows whatever the bet (a tableau position's features), kept
    for the deal's other bets (a dict per deal, empty at first)."""
    memo = {} if memo is None else memo
    definition = game.definition
    positions = definition.deal.positions
    winner, reads = bet_needs(bet, positions)
    who = None
    if winner:
        if definition.deal.tableau is not None:
            keys = [patterns.points(hands[p], definition.shoe) for p in positions]
            if keys[0] > keys[1]:
                who = positions[0]
            elif keys[1] > keys[0]:
                who = positions[1]
            else:
                who = definition.ties
        else:
            # The comparison of two hands, exceptions (``beats``) first: the
            # vocabulary's rule, applied deal by deal (no correction of counts).
            who = ranking.winner(definition, hands[positions[0]], hands[positions[1]])
    if definition.deal.until_match is not None:  # the pile holding the last card wins
        until = definition.deal.until_match
        dealt = sum(len(hands[p]) for p in until.piles)
        first = _first_pile(until, hands[until.card][0])
        second = next(p for p in until.piles if p != first)
        who = (first if dealt % 2 else second) if winner else None
    views = []
    for p in positions:
        if definition.deal.until_match is not None:
            found: dict[str, Any] = {"cards": len(hands[p])}
            if p == definition.deal.until_match.card:
                found |= {"rank": hands[p][0].rank, "suit": hands[p][0].suit}
            views.append(tuple((n, found[n]) for n in sorted(reads[p])))
        elif definition.deal.tableau is not None and p in memo:
            views.append(tuple((n, memo[p][n]) for n in sorted(reads[p])))
        elif definition.deal.tableau is not None:
            cards = hands[p]
            two = patterns.points(cards[:2], definition.shoe)
            found = {
                "points": patterns.points(cards, definition.shoe),
                "cards": len(cards),
                "natural": len(cards) == 2 and two in definition.deal.tableau.naturals,
            }
            # The drawn cards, by value: the first two's points, the third card (or none),
            # the position's highest card and the coup's.
            values = [definition.shoe.values[c.rank] % 10 for c in cards]
            found["two_card_points"] = sum(values[:2]) % 10
            found["third_value"] = values[2] if len(values) > 2 else None
            found["highest_value"] = max(values)
            found["_highest_value"] = max(
                definition.shoe.values[c.rank] % 10 for hand in hands.values() for c in hand
            )
            # Ranks and suits are read from the first two cards only.
            found["pair"] = cards[0].rank == cards[1].rank
            found["suited_pair"] = cards[0] == cards[1]
            found["colour_pair"] = cards[0].rank == cards[1].rank and (
                (cards[0].suit in (Suit.DIAMONDS, Suit.HEARTS))
                == (cards[1].suit in (Suit.DIAMONDS, Suit.HEARTS))
            )
            memo[p] = found
            views.append(tuple((n, found[n]) for n in sorted(reads[p])))
        elif "action" in reads[p]:  # the deciding position's view carries its action
            view = patterns.view(hands[p], reads[p] - {"action"}, definition)
            views.append(tuple(sorted([*view, ("action", action)])))
        else:
            views.append(patterns.view(hands[p], reads[p], definition))
    return (who, *views)


def _first_pile(until: Any, joker: Card) -> str:
    """The pile dealt first: the one named, or the one named for the joker's colour."""
    if isinstance(until.first, str):
        return str(until.first)
    black = joker.suit in (Suit.CLUBS, Suit.SPADES)
    return str(dict(until.first)["black" if black else "red"])


#: Each bet's outcome per round key, by the definition and bet (held here, so their ids
#: stay theirs): a bet's conditions are a function of the key, which a reduced shoe's deals
#: repeat thousands of times (baccarat: 130,000 settlements, a few hundred keys).
_OUTCOMES: dict[tuple[int, int], tuple[Any, Any, dict[tuple[Any, ...], Any]]] = {}


def _outcome(game: DefinedGame, bet: Any, key: tuple[Any, ...], hands: Any) -> Any:
    definition = game.definition
    held = _OUTCOMES.get((id(definition), id(bet)))
    if held is None or held[0] is not definition or held[1] is not bet:
        held = _OUTCOMES[id(definition), id(bet)] = (definition, bet, {})
    known = held[2]
    if key in known:
        return known[key]
    hits = [o for o in bet.outcomes if o.when is not None and holds(o.when, key, definition)]
    assert len(hits) <= 1, (bet.name, hands)
    outcome = hits[0] if hits else bet.outcomes[-1]
    assert hits or outcome.when is None, (bet.name, hands)
    known[key] = outcome
    return outcome


def _reads_action(game: DefinedGame, bet: Any) -> bool:
    return any("action" in r for r in bet_needs(bet, game.definition.deal.positions)[1].values())


#: Per deciding hand (its cards), per action, per bet and outcome: the ways, kept until the
#: walk is over and the hand's best action is known.
Pending = dict[tuple[str, ...], dict[str, Counter[tuple[str, str]]]]


def _inner_conditions(condition: Condition | None) -> list[Condition]:
    """The conditions a condition puts on the continued deal (``continued = {…}``)."""
    if condition is None:
        return []
    found = [condition.continued] if isinstance(condition.continued, Condition) else []
    for part in (*condition.all, *condition.any):
        found += _inner_conditions(part)
    return found + _inner_conditions(condition.not_)


def _reads_continued(condition: Condition | None) -> bool:
    if condition is None:
        return False
    return (
        condition.continued is not None
        or any(_reads_continued(c) for c in (*condition.all, *condition.any))
        or _reads_continued(condition.not_)
    )


def _key_of(
    game: DefinedGame,
    hands: dict[str, list[Card]],
    winner: bool,
    reads: Any,
    positions: Sequence[str] | None = None,
) -> Any:
    """``positions``: the continued deal's (a continuation ``to`` a position of its own)."""
    definition = game.definition
    positions = positions or definition.deal.positions
    who = ranking.winner(definition, hands[positions[0]], hands[positions[1]]) if winner else None
    return (who, *(patterns.view(hands[p], reads[p], definition) for p in positions))


def _settle(
    game: DefinedGame,
    hands: dict[str, list[Card]],
    result: dict[str, Counter[str]],
    ways: int,
    pending: Pending | None = None,
    more: Any = (),
) -> None:
    """``more``: a deal that may go on: the continued hands, or ``None`` when it stopped."""
    definition = game.definition
    decision = definition.decision
    positions = definition.deal.positions
    at_continuation = decision is not None and decision.at == "continuation"
    memo: dict[str, Any] = {}  # the deal's features, whatever the bet
    for bet in definition.bets:
        conditions = [o.when for o in bet.outcomes]
        continued = more != () and (
            any(_reads_continued(c) for c in conditions)
            or (at_continuation and _reads_action(game, bet))
        )

        inner = [c for o in conditions for c in _inner_conditions(o)]

        def key(
            action: str | None = None,
            bet: Any = bet,
            continued: bool = continued,
            inner: Any = inner,
        ) -> Any:
            found = _round_key(game, hands, bet, action, memo)
            if not continued:
                return found
            if more is None:
                return (*found, None)
            assert definition.continuation is not None
            inner_positions = definition.continuation.positions(positions)
            return (*found, _key_of(game, more, *needs(inner, inner_positions), inner_positions))

        decides = decision is not None and _reads_action(game, bet)
        offered = True  # [definition.decision] when: the choice offered on the first deal
        if at_continuation and decision is not None and decision.when is not None:
            offered = holds(
                decision.when, _key_of(game, hands, *needs([decision.when], positions)), definition
            )
        if decides and offered and not (at_continuation and more is None):
            assert pending is not None and decision is not None
            seen = (
                tuple((p, tuple(sorted(str(c) for c in hands[p]))) for p in positions)
                if at_continuation
                else tuple(sorted(str(c) for c in hands[decision.position]))
            )
            for action in decision.actions:
                outcome = _outcome(game, bet, key(action), hands)
                pending.setdefault(seen, {}).setdefault(action, Counter())[  # type: ignore[arg-type]
                    bet.name, outcome.key
                ] += ways
            continue
        outcome = _outcome(game, bet, key(), hands)
        result[bet.name][outcome.key] += ways


def _decide(
    game: DefinedGame, config: Any, pending: Pending, result: dict[str, Counter[str]]
) -> None:
    """Each deciding hand's best action by exact EV (ties: the first action listed), its
    rounds then settled."""
    from odds.games.defined.options import payout_values
    from odds.games.defined.rounds import net_of

    decision = game.definition.decision
    assert decision is not None
    payouts = payout_values(config)
    outcomes = {(b.name, o.key): o for b in game.definition.bets for o in b.outcomes}
    for by_action in pending.values():
        evs = [
            sum(net_of(outcomes[k], payouts) * n for k, n in by_action[a].items())
            for a in decision.actions
        ]
        best = decision.actions[evs.index(max(evs))]
        for (bet, outcome), n in by_action[best].items():
            result[bet][outcome] += n


def brute_force(
    game: DefinedGame, cards: Sequence[Card], config: Any = None
) -> dict[str, dict[str, Fraction]]:
    """Probability per bet and outcome key, from every ordered deal of ``cards``.

    A definition with a decision is walked once with every action settled per deal; each
    deciding hand then takes its best action by exact EV (``config``'s payouts).
    """
    definition = game.definition
    positions = definition.deal.positions
    result: dict[str, Counter[str]] = {b.name: Counter() for b in definition.bets}
    pending: Pending = {}
    left = list(range(len(cards)))
    tableau = definition.deal.tableau

    size = definition.deal.cards
    # A hand's cards are a set: every order of them is the same hand (a definition reads
    # ``rank`` and ``suit`` only of one-card hands), so each set stands for size! orders.
    orders = factorial(size) ** len(positions)

    def deal_hands(dealt: list[tuple[int, ...]]) -> None:
        if len(dealt) == len(positions):
            hands = {p: [cards[i] for i in hand] for p, hand in zip(positions, dealt, strict=True)}
            if definition.deal.draw_at_most:
                drawing = [
                    p
                    for p in positions
                    if definition.deal.draws(p, patterns.points(hands[p], definition.shoe))
                ]
                return draw_thirds(hands, drawing, size * len(positions))
            if definition.continuation is not None:
                return go_on(hands)
            _settle(game, hands, result, orders, pending)
            return
        for hand in combinations(list(left), size):
            for i in hand:
                left.remove(i)
            dealt.append(hand)
            deal_hands(dealt)
            dealt.pop()
            left.extend(hand)
            left.sort()

    def go_on(hands: dict[str, list[Card]]) -> None:
        """The first deal stops (extended by as many unseen cards as the continuation
        deals), or goes on: each burned card, then each continued card, dealt one by one."""
        continuation = definition.continuation
        assert continuation is not None
        dealt = continuation.dealt(len(positions))
        when_winner, when_reads = needs([continuation.when], positions)
        if not holds(continuation.when, _key_of(game, hands, when_winner, when_reads), definition):
            ways = orders
            for k in range(dealt):
                ways *= len(left) - k
            _settle(game, hands, result, ways, pending, more=None)
            return
        sequence: list[int] = []

        def deal_next() -> None:
            if len(sequence) == dealt:
                after = sequence[continuation.burn :]  # the burned cards are never read
                k = continuation.cards
                more = {p: [cards[i] for i in after[j * k : (j + 1) * k]]
                        for j, p in enumerate(continuation.positions(positions))}  # fmt: skip
                _settle(game, hands, result, orders, pending, more=more)
                return
            for i in list(left):
                left.remove(i)
                sequence.append(i)
                deal_next()
                sequence.pop()
                left.append(i)
                left.sort()

        deal_next()

    def draw_thirds(hands: dict[str, list[Card]], drawing: list[str], used: int) -> None:
        """The threshold draws, one card to each drawing position in dealing order; every
        deal extended by unseen cards to the most a round can take."""
        if not drawing:
            ways = orders
            for k in range(definition.round_cards - used):
                ways *= len(cards) - used - k
            _settle(game, hands, result, ways)
            return
        position, rest = drawing[0], drawing[1:]
        for i in list(left):
            left.remove(i)
            drawn = {**hands, position: [*hands[position], cards[i]]}
            draw_thirds(drawn, rest, used + 1)
            left.append(i)
            left.sort()

    def value(card: Card) -> int:
        return definition.shoe.values[card.rank] % 10

    def finish(first: list[Card], second: list[Card]) -> None:
        # Every deal is extended by unseen cards to six: weight the ways to pick them.
        used = len(first) + len(second)
        ways = 1
        for k in range(6 - used):
            ways *= len(cards) - used - k
        _settle(game, {positions[0]: first, positions[1]: second}, result, ways)

    def deal_tableau(dealt: list[int]) -> None:
        assert tableau is not None
        hand = [cards[i] for i in dealt]
        first = [hand[0], hand[2], *hand[4:5]] if len(hand) >= 4 else []
        if len(hand) == 4:
            ft = (value(hand[0]) + value(hand[2])) % 10
            st = (value(hand[1]) + value(hand[3])) % 10
            if ft in tableau.naturals or st in tableau.naturals:
                return finish(first, [hand[1], hand[3]])
            if ft not in tableau.first_draws and st not in tableau.second_draws_first_stood:
                return finish(first, [hand[1], hand[3]])
        if len(hand) == 5:
            ft = (value(hand[0]) + value(hand[2])) % 10
            st = (value(hand[1]) + value(hand[3])) % 10
            if ft not in tableau.first_draws:  # the first stood: the fifth card is the second's
                return finish([hand[0], hand[2]], [hand[1], hand[3], hand[4]])
            if not tableau.second_draws_on(st, value(hand[4])):
                return finish(first, [hand[1], hand[3]])
        if len(hand) == 6:
            return finish(first, [hand[1], hand[3], hand[5]])
        for i in list(left):
            left.remove(i)
            dealt.append(i)
            deal_tableau(dealt)
            dealt.pop()
            left.append(i)
            left.sort()

    def deal_until_match() -> None:
        """Every ordering of the cards: the first turned up, then the piles in turn from the
        one the definition names (by the turned card's colour, when it says so) until a
        card of the turned card's rank, suit or colour; each finished deal weighted by the
        orders of the cards left undealt."""
        until = definition.deal.until_match
        assert until is not None

        def same(a: Card, b: Card) -> bool:
            if until.match == "rank":
                return a.rank == b.rank
            red = (Suit.HEARTS, Suit.DIAMONDS)
            return a.suit == b.suit if until.match == "suit" else (a.suit in red) == (b.suit in red)

        def walk(
            joker: Card, order: list[str], piles: dict[str, list[Card]], left: list[int]
        ) -> None:
            dealt = sum(len(c) for c in piles.values())
            for i in left:
                card = cards[i]
                pile = order[dealt % 2]
                grown = {**piles, pile: [*piles[pile], card]}
                others = [x for x in left if x != i]
                if same(card, joker):
                    hands = {until.card: [joker], **grown}
                    _settle(game, hands, result, factorial(len(others)))
                else:
                    walk(joker, order, grown, others)

        for j, joker in enumerate(cards):
            first = _first_pile(until, joker)
            order = [first, next(p for p in until.piles if p != first)]
            walk(
                joker, order, {p: [] for p in until.piles}, [i for i in range(len(cards)) if i != j]
            )

    if definition.deal.until_match is not None:
        deal_until_match()
    elif tableau is not None:
        deal_tableau([])
    else:
        deal_hands([])
    if pending:
        _decide(game, config, pending, result)
    found = {}
    for bet, events in result.items():
        total = sum(events.values())
        found[bet] = {k: Fraction(n, total) for k, n in events.items() if n}
    return found
