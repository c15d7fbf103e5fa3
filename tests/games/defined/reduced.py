"""Reduced shoes for the plain enumeration of the defined games, and the engine paths each
definition takes (:func:`paths`): a definition in ``tables/`` taking a path no enumerated one
takes fails test_defined.py until it is enumerated, one line (its shoe derived or pinned).

A paytable's shoe is the one ``reduced_shoes.toml`` pins for it, or else one derived from its
definition (:func:`derived`): the fewest cards holding a hand of every category and of every
value of every feature its bets read, chosen greedily from the game's own shoe (at most two
identical copies of a card, none when it has one), then filled out so that the positions can
tie and differ, and never past :data:`MOST_DEALS` deals. A tableau definition without an entry
takes the file's tableau shoe: its bets read card values, which nine cards cover.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from math import comb, prod
from pathlib import Path
from typing import Any

from odds.core.numbers import read_toml
from odds.games.defined import counting, first_cards, patterns, ranking
from odds.games.defined.game import DefinedGame
from odds.games.defined.rounds import bet_needs, needs
from odds.games.paytable import TABLES, load

SHOES_FILE = Path(__file__).with_name("reduced_shoes.toml")

#: The most deals (one set of cards per position) a derived shoe may give the enumeration:
#: well under a second of it (two hands of three cards from nine cards: 1,680).
MOST_DEALS = 2_000

#: Stride through the shoe's card types when filling out a derived shoe: 5 is prime to 52,
#: so consecutive fillers differ in rank and in suit (A♣, 2♦, 3♥, 4♠, 6♣ …).
STRIDE = 5


@cache
def _file() -> dict[str, Any]:
    return read_toml(SHOES_FILE.read_text(encoding="utf-8"), SHOES_FILE.name)


def pinned() -> dict[str, list[str]]:
    """The shoes ``reduced_shoes.toml`` pins, by paytable name."""
    return {name: list(cards) for name, cards in _file()["shoes"].items()}


def defined() -> list[str]:
    """Every paytable in ``tables/`` that holds a definition of its own."""
    return sorted(p.stem for p in TABLES.glob("*.toml") if "[definition" in p.read_text())


def shoe_for(name: str) -> list[str]:
    """The reduced shoe of paytable ``name``: pinned, or derived from its definition."""
    return pinned().get(name) or derived(name)


def deals(size: int, hands: int, cards: int) -> int:
    """How many deals of ``hands`` sets of ``cards`` cards a shoe of ``size`` cards has."""
    return prod(comb(size - k * cards, cards) for k in range(hands))


def derived(name: str) -> list[str]:
    """A reduced shoe for paytable ``name``, from its definition alone (card or tile codes)."""
    paytable = load(name)
    game = paytable.game
    assert isinstance(game, DefinedGame)
    definition = game.definition
    if definition.deal.tableau is not None:
        return list(_file()["tableau"]["cards"])
    full = paytable.config.shoe.build()
    types = list(full.types)
    copies = [min(2, n) for n in full.counts]
    size, hands = definition.deal.cards, len(definition.deal.positions)
    least = size * hands + 2  # two cards left over: the positions' hands can differ
    most = least
    while deals(most + 1, hands, size) <= MOST_DEALS:
        most += 1
    _, reads = needs(
        (o.when for b in definition.bets for o in b.outcomes), definition.deal.positions
    )
    # The action is the decision's, not the hand's (the enumeration solves it itself).
    names = sorted(set().union(*reads.values()) - {"_hand", "_suits", "action"})
    # Every hand of the shoe's types: its cards, and what it shows: its category, the
    # features the bets read of it, its strength under the definition's comparison.
    hands_found: list[tuple[tuple[tuple[int, int], ...], tuple[frozenset[Any], ...]]] = []
    for hand in combinations_with_replacement(range(len(types)), size):
        counted = Counter(hand)
        if any(n > copies[t] for t, n in counted.items()):
            continue
        cards = [types[t] for t in hand]
        category = patterns.category_of(cards, definition)
        shows: tuple[frozenset[Any], ...] = (
            frozenset() if category is None else frozenset({definition.categories[category].name}),
            frozenset(patterns.view(cards, names, definition)),
            frozenset() if category is None else frozenset({patterns.strength(cards, definition)}),
        )
        hands_found.append((tuple(counted.items()), shows))
    chosen: Counter[int] = Counter()
    # Every category first, then every feature value, then as many strengths as fit.
    for phase in range(3):
        wanted = set().union(*(shows[phase] for _, shows in hands_found))
        while wanted:
            best: tuple[float, int] | None = None
            room = most - sum(chosen.values())
            for index, (held, shows) in enumerate(hands_found):
                new = len(shows[phase] & wanted)
                if not new:
                    continue
                added = sum(max(0, n - chosen[t]) for t, n in held)
                if added <= room and (best is None or new / max(added, 1) > best[0]):
                    best = (new / max(added, 1), index)
            if best is None:
                break  # the rest would need more cards than the enumeration affords
            for t, n in hands_found[best[1]][0]:
                chosen[t] = max(chosen[t], n)
            # Every hand the chosen cards now make is in the shoe.
            for held, shows in hands_found:
                if all(chosen[t] >= n for t, n in held):
                    wanted -= shows[phase]
    step = 0
    while sum(chosen.values()) < least:
        t = (step * STRIDE) % len(types)
        step += 1
        if chosen[t] < copies[t] and (chosen[t] == 0 or step > len(types)):
            chosen[t] += 1
    return [types[t].code for t in sorted(chosen) for _ in range(chosen[t])]


def reduced(name: str, cards: Sequence[str], text: str | None = None) -> tuple[Any, list[Any]]:
    """The paytable ``name`` (or ``text``, a paytable's TOML, named ``name``) with a shoe of
    exactly these cards (one copy each), or for a tile game a set of exactly these tiles; and
    the cards of that shoe, one entry a copy."""
    from odds.core.cards import STANDARD_DECK
    from odds.games.paytable import from_data

    text = (TABLES / f"{name}.toml").read_text() if text is None else text
    data = read_toml(text, name)
    wanted = Counter(cards)  # a card listed twice is two identical copies
    if "tiles" in data.get("definition", {}):  # a paytable of a game has none
        data["tiles"] = dict(data.get("tiles", {}), copies=dict(wanted))
    else:
        data["shoe"] = {"decks": 1, "counts": {c.code: wanted[c.code] for c in STANDARD_DECK}}
    paytable = from_data(data, f"{name} (reduced)")
    shoe = paytable.config.shoe.build()
    dealt = [card for card, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    return paytable, dealt


def paths(name: str) -> frozenset[tuple[Any, ...]]:
    """The engine's paths paytable ``name``'s definition takes, as the branches of
    odds/games/defined/ read them: how the deal is counted (a tableau, until a match, a
    continuation, tiles, plain hands; draws, seats, a best-of hand, the positions), the
    decision and where it is made, the comparison, every category's pattern and tiebreak,
    every feature a bet reads (the winner, a tableau's first cards), every condition form
    and every outcome and bet option. Two definitions with the same paths differ only in
    their figures (which cards, which payouts), which the engine reads through the same
    code: the plain enumeration of one of them checks that code for both."""
    definition = load(name).game.definition  # type: ignore[attr-defined]
    deal = definition.deal
    found: set[tuple[Any, ...]] = set()
    kind = (
        "tableau" if deal.tableau else "until match" if deal.until_match
        else "continuation" if definition.continuation else "hands"
    )  # fmt: skip
    found |= {("deal", kind), ("positions", len(deal.positions))}
    found.add(("ties", definition.ties == "tie"))
    for flag, path in (
        (definition.tiles, "tiles"), (deal.draw_at_most, "draws"), (deal.seats > 1, "seats"),
        (deal.dealer, "dealer"), (deal.best, "best of"), (definition.category_order, "order"),
        (definition.shoe.ace_low_sequence, "ace low"),
        (not definition.shoe.ace_high_sequence, "no ace high"),
    ):  # fmt: skip
        if flag:
            found.add(("deal", path))
    decision, goes_on = definition.decision, definition.continuation
    if decision is not None:
        found |= {("decision", decision.at), ("decision", decision.strategy is not None),
                  ("decision when", decision.when is not None)}  # fmt: skip
    if goes_on is not None:
        found |= {("continuation", goes_on.to is not None), ("burn", goes_on.burn > 0)}
    found |= {("compare", c) for c in definition.compare}
    for category in definition.categories:
        found |= {("pattern", k) for k, _ in category.pattern}
        found |= {("tiebreak", t) for t in category.tiebreak}
        found |= {("beats", bool(category.beats)), ("rank order", bool(category.rank_order))}
    winner, reads = needs(
        (o.when for b in definition.bets for o in b.outcomes), definition.deal.positions
    )
    found |= {("reads", n) for names in reads.values() for n in names}
    found |= {("winner", winner)}
    if deal.tableau is not None:
        found.add(("first cards", first_cards.reads_first_cards(reads)))
    for bet in definition.bets:  # how the hands path counts the bet
        if not (deal.until_match or definition.continuation or deal.best or deal.draw_at_most):
            winner, reads = bet_needs(bet, deal.positions)
            found.add(("plan", counting.plan(definition, winner, reads)))
            if winner and ranking.has_exceptions(definition):
                found.add(("plan", "exceptions"))
            if not deal.tableau:
                names = set().union(*reads.values())
                found.add(("suit symmetries", not counting.reads_suits_in_strength(definition)
                           and not names & {"suit", "_suits", "colour_pair", "_hand"}
                           and not counting.reads_colour(definition)))  # fmt: skip
        for flag, path in (
            (bet.per_hand, "per hand"), (bet.fair_payout, "fair payout"),
            (bet.rides_on, "rides on"), (bet.withholding, "withholding"),
        ):  # fmt: skip
            if flag:
                found.add(("bet", path))
        for outcome in bet.outcomes:
            for flag, path in (
                (outcome.commission, "commission"), (outcome.optional, "optional"),
                (outcome.loses_named, "loses named"), (outcome.wagered != 1, "wagered"),
                (outcome.times != 1, "times"), (outcome.when is None, "otherwise"),
            ):  # fmt: skip
                if flag:
                    found.add(("outcome", path))
            for part in outcome.when.walk() if outcome.when is not None else ():
                for flag, path in (
                    (part.all, "all"), (part.any, "any"), (part.never, "never"),
                    (part.not_ is not None, "not"), (part.continued is not None, "continued"),
                ):  # fmt: skip
                    if flag:
                        found.add(("condition", path))
                found |= {("round", n) for p, n, _ in part.tests if not p}
    return frozenset(found)
