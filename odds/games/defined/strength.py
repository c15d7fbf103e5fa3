"""``odds strength`` for any definition that ranks two hands by categories.

One hand's chance against one hand of the second position dealt from the rest of the
shoe, or against several opponents (the best of them): one or two opponents are
counted exactly, three to five estimated by a seeded simulation that says so.

Every opponent hand is first put in one of three places against the given hand —
beaten by it (0), equal (1), or stronger (2), exceptions (``beats``) included — so
"win" is every opponent in place 0, "tie" none in place 2 and one in place 1. Two
opponents are then the engine's showdown of those places
(:func:`odds.engine.showdown.count_showdown`: the second opponent dealt from what
the first left, card removal exact), never a loop over pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, sqrt
from random import Random
from typing import TYPE_CHECKING, Any

from odds.core.cards import Card, hand_text
from odds.core.errors import ParameterError
from odds.core.table import Column, Kind, Table, fields_table
from odds.engine import deal_count, hands
from odds.engine.showdown import count_showdown
from odds.games.defined.counting import HandClassifier, classifier_for
from odds.games.defined.options import DefinedConfig
from odds.games.defined.showdown_tables import hand_description
from odds.games.features import StrengthFeature

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame

#: Opponents counted exactly; more are simulated, up to :data:`MAX_OPPONENTS`.
MAX_EXACT_OPPONENTS = 2
MAX_OPPONENTS = 5
#: The normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class StrengthResult:
    """A hand's chance of beating ``opponents`` hands dealt from the rest of the shoe.

    Exact results carry ways; estimates carry the simulation's counts, seed and
    95% intervals (Wilson score).
    """

    game: str
    against: str
    hand: str
    hand_class: str
    shoe: str
    opponents: int
    exact: bool
    win: int
    tie: int
    lose: int
    total: int
    trials: int = 0
    seed: int = 0

    def probability(self, ways: int) -> Fraction:
        """``ways`` as a share of every deal (or every simulated deal)."""
        return Fraction(ways, self.total)

    def interval(self, ways: int) -> tuple[float, float]:
        """The 95% Wilson score interval of an estimated probability."""
        n, z = self.total, Z_95
        p = ways / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def tables(self) -> list[Table]:
        """``--format json``: exact shares as fractions, the ways or counts behind them."""
        outcomes = ("win", "tie", "lose")
        method = "exact" if self.exact else "seeded simulation (estimate)"
        fields: list[tuple[Column, Any]] = [
            (Column("game", "game"), self.game),
            (Column("hand", "hand"), self.hand),
            (Column("hand_class", "hand class"), self.hand_class),
            (Column("shoe", "shoe"), self.shoe),
            (Column("opponents", "opponents", Kind.WAYS), self.opponents),
            (Column("exact", "exact", Kind.FLAG), self.exact),
            (Column("method", "method"), method),
        ]
        fields += [
            (Column(name, name, Kind.PROBABILITY), self.probability(getattr(self, name)))
            for name in outcomes
        ]
        counted = "ways" if self.exact else "counts"
        fields += [
            (Column(f"{counted}.{name}", name, Kind.WAYS), getattr(self, name))
            for name in (*outcomes, "total")
        ]
        if not self.exact:
            fields += [
                (Column("trials", "trials", Kind.WAYS), self.trials),
                (Column("seed", "seed", Kind.WAYS), self.seed),
            ]
            fields += [
                (
                    Column(f"interval_95.{name}", name, Kind.DATA),
                    [round(x, 6) for x in self.interval(getattr(self, name))],
                )
                for name in outcomes
            ]
        return [fields_table("strength", "Hand strength", fields)]

    def text(self) -> str:
        """For a terminal: an estimate is labelled as one, with its intervals."""
        against = self.against if self.opponents == 1 else f"{self.opponents} opponents"
        lines = [
            f"{self.hand}: {self.hand_class}, against {against} from the rest of the shoe "
            f"({self.shoe})",
        ]
        if self.exact:
            lines.append(f"exact, {self.total:,} equally likely deals:")
        else:
            lines.append(
                f"ESTIMATE from a seeded simulation ({self.trials:,} deals, seed {self.seed}); "
                "not exact:"
            )
        several = self.opponents > 1
        verbs = (
            ("win", "beats all" if several else "win"),
            ("tie", "ties the best" if several else "tie"),
            ("lose", "loses to one or more" if several else "lose"),
        )
        for name, verb in verbs:
            ways = getattr(self, name)
            p = self.probability(ways)
            if self.exact:
                lines.append(f"  {verb:<22} {float(p):.6f}  ({ways:,} ways, {p})")
            else:
                low, high = self.interval(ways)
                lines.append(f"  {verb:<22} {float(p):.4f}  (95% interval {low:.4f} – {high:.4f})")
        return "\n".join(lines) + "\n"


def check_request(opponents: int, trials: int) -> None:
    """Refuse an opponent count or a trial count the feature cannot serve."""
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise ParameterError(
            "opponents", f"{{position}} must be 1 to {MAX_OPPONENTS}, got {opponents}"
        )
    if trials < 1:
        raise ParameterError("trials", f"{{position}} must be positive, got {trials}")


#: An opponent hand's place against the given hand: beaten by it, equal, stronger.
BEATEN, EQUAL, STRONGER = 0, 1, 2


def hand_strength(
    game: DefinedGame,
    config: DefinedConfig,
    cards: Sequence[Card],
    opponents: int = 1,
    trials: int = 100_000,
    seed: int = 1,
) -> StrengthResult:
    """Win/tie/lose of one hand against ``opponents`` hands from the rest of the shoe.

    Against several opponents "win" is beating every one, "tie" is no one stronger but
    someone equal, "lose" is anyone stronger.
    """
    check_request(opponents, trials)
    definition = game.definition
    size = definition.deal.cards
    shoe = config.shoe.build()
    rest = shoe.without(cards, hand_text(tuple(cards)))
    rest.require(size * opponents)
    classifier = classifier_for(definition, shoe.types)
    mine = tuple(sorted(shoe.index(c) for c in cards))
    place = placer(classifier, mine)
    exact = opponents <= MAX_EXACT_OPPONENTS
    if opponents == 1:
        win = tie = total = 0
        for hand, weight in hands(rest.counts, size):
            where = place(hand)
            total += weight
            win += weight * (where == BEATEN)
            tie += weight * (where == EQUAL)
    elif exact:
        win, tie, total = against_two(rest.counts, size, place)
    else:
        win, tie, total = simulate(rest.counts, size, place, opponents, trials, seed)
    index = classifier.category(mine)
    assert index is not None  # the definition's check: every hand has a category
    return StrengthResult(
        game=game.name,
        against=f"one {definition.deal.positions[1]} hand",
        hand=hand_text(tuple(cards)),
        hand_class=hand_description(definition, index, cards),
        shoe=rest.description,
        opponents=opponents,
        exact=exact,
        win=win,
        tie=tie,
        lose=total - win - tie,
        total=total,
        trials=0 if exact else trials,
        seed=0 if exact else seed,
    )


def placer(classifier: HandClassifier, mine: tuple[int, ...]) -> Callable[[tuple[int, ...]], int]:
    """An opponent hand's place against ``mine``: the order, or an exception (``beats``)."""
    definition = classifier.definition
    key = classifier.strength(mine)
    own = classifier.category(mine)
    beats: set[int] = set()
    beaten_by: set[int] = set()
    if own is not None:
        names = [c.name for c in definition.categories]
        beats = {names.index(b) for b in definition.categories[own].beats}
        beaten_by = {i for i, c in enumerate(definition.categories) if names[own] in c.beats}

    def place(hand: tuple[int, ...]) -> int:
        if beats or beaten_by:
            other = classifier.category(hand)
            if other in beats:
                return BEATEN
            if other in beaten_by:
                return STRONGER
        theirs = classifier.strength(hand)
        return BEATEN if theirs < key else EQUAL if theirs == key else STRONGER

    return place


def against_two(
    counts: Sequence[int], size: int, place: Callable[[tuple[int, ...]], int]
) -> tuple[int, int, int]:
    """(win, tie, total) ways against two hands, the second dealt from what the first left.

    The engine's showdown of the opponents' places: for a first opponent beaten by
    the hand, the second's ways below place 1 after its removal; "both at most
    equal" less the wins is a tie.
    """
    count = count_showdown(counts, size, place, cuts=(EQUAL, STRONGER))
    left = sum(counts) - size
    after = comb(left, size)
    win = tie_or_win = 0
    places = [count.keys[r] for r in count.rank.tolist()]
    columns = (places, count.ways.tolist(), count.at_least.tolist())
    for where, ways, at_least in zip(*columns, strict=True):
        if where == BEATEN:
            win += ways * (after - at_least[0])
        if where != STRONGER:
            tie_or_win += ways * (after - at_least[1])
    return win, tie_or_win - win, deal_count(counts, (size, size))


def simulate(
    counts: Sequence[int],
    size: int,
    place: Callable[[tuple[int, ...]], int],
    opponents: int,
    trials: int,
    seed: int,
) -> tuple[int, int, int]:
    """(win, tie, trials): deal ``opponents`` hands ``trials`` times from ``counts`` (seeded)."""
    from more_itertools import chunked

    cards = [t for t, n in enumerate(counts) for _ in range(n)]
    rng = Random(seed)
    places: dict[tuple[int, ...], int] = {}
    win = tie = 0
    for _ in range(trials):
        dealt = rng.sample(cards, size * opponents)
        best = BEATEN
        for hand in chunked(dealt, size):
            key = tuple(sorted(hand))
            where = places.get(key)
            if where is None:
                where = places[key] = place(key)
            best = max(best, where)
        if best == BEATEN:
            win += 1
        elif best == EQUAL:
            tie += 1
    return win, tie, trials


class DefinedStrength(StrengthFeature[DefinedConfig]):
    """``odds strength``: see :func:`hand_strength`; the hand is read as the game reads it."""

    def __init__(self, game: DefinedGame) -> None:
        self.game = game

    def check(self, opponents: int, trials: int) -> None:
        check_request(opponents, trials)

    def strength(
        self, config: DefinedConfig, hand: tuple[Any, ...], opponents: int, trials: int, seed: int
    ) -> StrengthResult:
        return hand_strength(self.game, config, hand, opponents, trials, seed)
