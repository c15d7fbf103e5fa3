"""Goa Gae (Kao Gae, "9K"), three cards against the dealer (RULES.md §3).

Rules only: the six hand categories, their tie-breaks and the readings
RULES.md lists as options, and how the Player bet settles. Every hand is
reduced to a *strength key*, a tuple that sorts weakest to strongest (equal
keys tie); the exact showdown is :func:`odds.engine.showdown`'s.

The key is ``(position of the category in the chosen order, tie-break)``.
The tie-breaks are those of RULES.md §3; where several decks let two hands
share a top card, the next card decides, and identical hands tie, which the
keys below do by listing the cards from the top down.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from random import Random
from typing import Any, NamedTuple

from odds.analysis import Analysis
from odds.bruteforce import brute_force, ordering_factor
from odds.cards import STANDARD_DECK, Card, Rank, Suit, hand_text, parse_cards
from odds.config import option, section
from odds.engine import Hand, HandShowdown, StrengthIndex, deal_count, hands, showdown
from odds.errors import OddsError
from odds.games.base import BenchCase, Game
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.features import StrengthFeature
from odds.games.goa_gae.shoe_state import GoaGaeShoeState
from odds.numbers import fraction_text, payout_ratio
from odds.settlement import SettledBet, SettledHand, Settlement
from odds.shoe import Shoe
from odds.shoe_state.dealing import RoundDealing
from odds.stats import Bet, Outcome
from odds.table import legacy_table as Table

HAND_SIZE = 3

# ---------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class GoaGaeShoe(CardShoeOptions):
    """One deck by default."""

    decks: int = decks_option(1)


@dataclass(frozen=True)
class GoaGaeRules:
    """The readings RULES.md §3 lists as alternatives (defaults: the rule text)."""

    straight_above_jqk: bool = option(
        False,
        "Rank Straight above JQK (several Thai sources); no = JQK above Straight (default).",
    )
    kqj_mixed: str = option(
        "straight",
        "K-Q-J of mixed suits:",
        choices={
            "straight": "a Straight, second only to Q-K-A (default).",
            "jqk": "the JQK hand (its top card the K), not a Straight.",
        },
    )
    single_card_order: str = option(
        "ace-high",
        "Single-card order for the top-card tie-breaks:",
        choices={
            "ace-high": "A > K > Q > J > 10 > … > 2 (default).",
            "king-high": "K > Q > J > 10 > … > 2 > A (ace low).",
        },
    )
    straight_flush_above_triple: bool = option(
        False, "A Straight flush outranks a Triple; no = Triple highest (default)."
    )


@dataclass(frozen=True)
class GoaGaePayouts:
    """The Player bet: stake 1 against the dealer."""

    win: Fraction = option(Fraction(1), "A winning position is paid this to 1.", minimum=0)
    bonus: dict[str, Fraction] = option(
        {},
        "A win with a category listed here pays its multiple to 1 instead "
        "(categories: flush, straight, jqk, straight-flush, triple).",
        minimum=0,
    )
    dealer_bonus_costs_player: bool = option(
        False,
        "A loss to a dealer holding a bonus category costs that category's multiple "
        "(no = every loss costs 1).",
    )
    withholding: Fraction = option(
        Fraction(0),
        "Debited on top of the stake, returned unless lost (a loss may cost up to 1 + this).",
        minimum=0,
    )


@dataclass(frozen=True)
class GoaGaeConfig:
    """A Goa Gae paytable."""

    shoe: GoaGaeShoe = section(GoaGaeShoe, "The shoe.")
    rules: GoaGaeRules = section(GoaGaeRules, "Rule readings.")
    payouts: GoaGaePayouts = section(GoaGaePayouts, "Payouts.")
    dealing: RoundDealing = section(RoundDealing, "How rounds are dealt (shoe states only).")


# ---------------------------------------------------------------------------
# What a three-card hand looks like


#: Triple order, weakest first: 2, 4, 5, …, K, A, and triple 3 the highest.
TRIPLE_ORDER: tuple[Rank, ...] = (
    Rank.TWO,
    *(Rank(r) for r in range(4, 14)),
    Rank.ACE,
    Rank.THREE,
)
_TRIPLE_POSITION = {rank: i for i, rank in enumerate(TRIPLE_ORDER)}
_FACES = frozenset((Rank.JACK, Rank.QUEEN, Rank.KING))


class Facts(NamedTuple):
    """What the categories read: functions of the ranks and of "all one suit" only.

    Being independent of the particular suits, they are worked out once per
    rank multiset (a few hundred) rather than once per hand.
    """

    points: int
    one_suit: bool
    one_rank: bool
    all_faces: bool
    is_kqj: bool
    #: 0 for A-2-3 … 10 for J-Q-K, 11 for Q-K-A; ``None`` if not a sequence.
    sequence: int | None


def hand_facts(ranks: Sequence[Rank], one_suit: bool) -> Facts:
    """The facts of a hand with these (sorted) ranks.

    A is low in A-2-3 and high in Q-K-A; K-A-2 is no sequence.
    """
    a, b, c = ranks
    if (a, b, c) == (Rank.ACE, Rank.QUEEN, Rank.KING):
        sequence: int | None = 11
    elif b == a + 1 and c == b + 1:
        sequence = a - 1
    else:
        sequence = None
    return Facts(
        points=(a.baccarat_points + b.baccarat_points + c.baccarat_points) % 10,
        one_suit=one_suit,
        one_rank=a == c,
        all_faces=a >= Rank.JACK,
        is_kqj=(a, b, c) == (Rank.JACK, Rank.QUEEN, Rank.KING),
        sequence=sequence,
    )


class Shape:
    """Three cards with their facts: what the categories and tie-breaks read.

    A plain slotted class: every hand of the shoe is ranked once per analysis,
    so this is on the hot path.
    """

    __slots__ = ("cards", "facts", "rules", "top")

    def __init__(
        self,
        cards: Sequence[Card],
        facts: Facts,
        rules: GoaGaeRules,
        top: tuple[tuple[int, Suit], ...],
    ) -> None:
        self.cards = cards
        self.facts = facts
        self.rules = rules
        #: The cards' places in the single-card order, (rank value, suit), top down.
        self.top = top

    def top_cards(self) -> tuple[tuple[int, Suit], ...]:
        """The cards' single-card places from the top down (suit breaks rank ties)."""
        return self.top

    def sequence_suits(self) -> tuple[Suit, ...]:
        """A sequence's suits from its top card down (Q-K-A's top is the A, A-2-3's the 3)."""
        high_ace = self.facts.sequence == 11

        def place(card: Card) -> int:
            return 14 if high_ace and card.rank == Rank.ACE else int(card.rank)

        return tuple(card.suit for card in sorted(self.cards, key=place, reverse=True))


_ACE_HIGH = {
    card: (14 if card.rank == Rank.ACE else int(card.rank), card.suit) for card in STANDARD_DECK
}
_KING_HIGH = {card: (int(card.rank), card.suit) for card in STANDARD_DECK}


@dataclass(frozen=True)
class Category:
    """One hand category: its paytable name, its label, who qualifies, and its tie-break.

    ``qualifies`` says whether the hand meets the category's description,
    reading only the hand's :class:`Facts` (the ranks and whether the suits are
    all one), so the ranking works it out once per rank multiset. A hand
    belongs to the *highest* category it qualifies for (with two decks,
    J♠ J♠ Q♠ is a flush and a JQK hand, and counts as JQK).
    ``tiebreak`` orders hands within the category (larger is stronger).
    """

    key: str
    name: str
    description: str
    qualifies: Callable[[Shape], bool]
    tiebreak: Callable[[Shape], tuple]


def _is_straight(s: Shape) -> bool:
    f = s.facts
    if f.sequence is None or f.one_suit:
        return False
    return not (f.is_kqj and s.rules.kqj_mixed == "jqk")


def _is_jqk(s: Shape) -> bool:
    f = s.facts
    if not f.all_faces or f.one_rank:
        return False
    return not f.is_kqj or s.rules.kqj_mixed == "jqk"


#: The categories in the rule book's order, weakest first (RULES.md §3).
CATEGORIES: tuple[Category, ...] = (
    Category(
        "points",
        "Points",
        "none of the below; more points wins, then the higher top card, then its suit",
        lambda s: True,
        lambda s: (s.facts.points, s.top_cards()),
    ),
    Category(
        "flush",
        "Flush",
        "three cards of one suit, not in sequence; points, then top card, then its suit",
        lambda s: s.facts.one_suit and s.facts.sequence is None,
        lambda s: (s.facts.points, s.top_cards()),
    ),
    Category(
        "straight",
        "Straight",
        "three consecutive ranks, not one suit; the higher sequence, then the top card's suit",
        _is_straight,
        lambda s: (s.facts.sequence, s.sequence_suits()),
    ),
    Category(
        "jqk",
        "JQK",
        "three picture cards, no triple and no J-Q-K sequence; top card, then its suit",
        _is_jqk,
        Shape.top_cards,
    ),
    Category(
        "straight-flush",
        "Straight flush",
        "three consecutive ranks of one suit; the higher suit, then the higher sequence",
        lambda s: s.facts.one_suit and s.facts.sequence is not None,
        lambda s: (s.cards[0].suit, s.facts.sequence),
    ),
    Category(
        "triple",
        "Triple",
        "three cards of one rank; 3 highest, then A, K, Q, …, 4, 2; suits never compared",
        lambda s: s.facts.one_rank,
        lambda s: (_TRIPLE_POSITION[s.cards[0].rank],),
    ),
)
_BY_KEY = {c.key: c for c in CATEGORIES}
SPECIALS: tuple[str, ...] = tuple(c.key for c in CATEGORIES if c.key != "points")


def category_order(rules: GoaGaeRules) -> tuple[Category, ...]:
    """The categories weakest first under the chosen readings."""
    order = [c.key for c in CATEGORIES]

    def swap(a: str, b: str) -> None:
        i, j = order.index(a), order.index(b)
        order[i], order[j] = order[j], order[i]

    if rules.straight_above_jqk:
        swap("straight", "jqk")
    if rules.straight_flush_above_triple:
        swap("straight-flush", "triple")
    return tuple(_BY_KEY[k] for k in order)


class GoaGaeHand(NamedTuple):
    """A ranked hand: ``strength`` orders hands (equal strengths tie)."""

    strength: tuple
    category: str

    @property
    def points(self) -> int | None:
        """The card points of a points or flush hand (their tie-break's first item)."""
        return self.strength[1][0] if self.category in ("points", "flush") else None

    @property
    def category_name(self) -> str:
        return _BY_KEY[self.category].name

    @property
    def label(self) -> str:
        """The hand-class label: a category name, or ``N points`` for a points hand."""
        if self.category == "points":
            return points_label(self.points or 0)
        return self.category_name


def points_label(points: int) -> str:
    return f"{points} point" if points == 1 else f"{points} points"


class Ranking:
    """The hand order of one set of readings, declared by :data:`CATEGORIES`."""

    def __init__(self, rules: GoaGaeRules) -> None:
        self.rules = rules
        self.order = category_order(rules)
        self.position = {c.key: i for i, c in enumerate(self.order)}
        #: Each card's place in the single-card order, (rank value, suit).
        self.places = _ACE_HIGH if rules.single_card_order == "ace-high" else _KING_HIGH
        self._by_ranks: dict[tuple, tuple[int, Category, Facts]] = {}

    def strength(self, cards: Sequence[Card]) -> tuple:
        """The hand's strength key: ``(category position, tie-break)``; equal keys tie."""
        places = self.places
        a, b, c = cards
        top = sorted((places[a], places[b], places[c]), reverse=True)
        one_suit = a.suit == b.suit == c.suit
        signature = (top[0][0], top[1][0], top[2][0], one_suit)
        found = self._by_ranks.get(signature)
        if found is None:
            facts = hand_facts(sorted((a.rank, b.rank, c.rank)), one_suit)
            shape = Shape(cards, facts, self.rules, tuple(top))
            category = next(c for c in reversed(self.order) if c.qualifies(shape))
            found = self._by_ranks[signature] = (self.position[category.key], category, facts)
        position, category, facts = found
        return position, category.tiebreak(Shape(cards, facts, self.rules, tuple(top)))

    def hand(self, strength: tuple) -> GoaGaeHand:
        """The ranked hand of a strength key."""
        return GoaGaeHand(strength, self.order[strength[0]].key)

    def rank(self, cards: Sequence[Card]) -> GoaGaeHand:
        """The hand's category and strength key.

        >>> from odds.cards import parse_cards
        >>> Ranking(GoaGaeRules()).rank(parse_cards("Js Qs Ks")).category
        'straight-flush'
        """
        if len(cards) != HAND_SIZE:
            raise OddsError(f"a Goa Gae hand has three cards, got {len(cards)}")
        return self.hand(self.strength(cards))

    def category_cuts(self) -> tuple[tuple[int], ...]:
        """The lowest key of each category above the weakest (for band counts)."""
        return tuple((i,) for i in range(1, len(self.order)))

    def describe(self, hand: GoaGaeHand) -> str:
        """A hand as a reason reads it: ``Straight``, ``Flush, 7 points``, ``5 points``."""
        if hand.category == "flush":
            return f"Flush, {points_label(hand.points or 0)}"
        return hand.label


# ---------------------------------------------------------------------------
# The Player bet


@dataclass(frozen=True)
class Event:
    """A Player-bet event: key, the label reports print, and its net per unit staked."""

    key: str
    label: str
    net: Fraction


def player_events(config: GoaGaeConfig) -> tuple[Event, ...]:
    """The Player bet's events in table order: wins (bonus categories first), push, losses."""
    p = config.payouts
    order = list(reversed(category_order(config.rules)))
    events = [
        Event(f"win-{c.key}", f"player wins with a {c.name} (bonus)", p.bonus[c.key])
        for c in order
        if c.key in p.bonus
    ]
    plain = "player wins" if not p.bonus else "player wins, no bonus category"
    events += [Event("win", plain, p.win), Event("push", "tie (equal hands): push", Fraction(0))]
    if p.dealer_bonus_costs_player:
        events += [
            Event(f"lose-{c.key}", f"dealer wins with a {c.name} (bonus)", -p.bonus[c.key])
            for c in order
            if c.key in p.bonus
        ]
    lose = "dealer wins" if not events[-1].key.startswith("lose-") else "dealer wins, other"
    events.append(Event("lose", lose, Fraction(-1)))
    return tuple(events)


def settle_player(player: GoaGaeHand, dealer: GoaGaeHand, payouts: GoaGaePayouts) -> str:
    """The Player bet's event key."""
    if player.strength > dealer.strength:
        return f"win-{player.category}" if player.category in payouts.bonus else "win"
    if player.strength == dealer.strength:
        return "push"
    if payouts.dealer_bonus_costs_player and dealer.category in payouts.bonus:
        return f"lose-{dealer.category}"
    return "lose"


# ---------------------------------------------------------------------------
# Counting


@dataclass(frozen=True)
class ShowdownTable:
    """The exact showdown of one position against the dealer, per player hand."""

    shoe: Shoe[Card]
    ranking: Ranking
    index: StrengthIndex
    rows: list[HandShowdown]

    def cards(self, hand: Hand) -> tuple[Card, ...]:
        return tuple(self.shoe.types[t] for t in hand)

    def hand(self, row: HandShowdown) -> GoaGaeHand:
        """The ranked player hand of a row."""
        return self.ranking.hand(self.index.keys[row.rank])


def compute_showdown(config: GoaGaeConfig, shoe: Shoe[Card], cuts: bool = False) -> ShowdownTable:
    """Every player hand's win/tie/lose ways against one dealer hand from what it left."""
    ranking = Ranking(config.rules)
    types = shoe.types

    def strength(hand: Hand) -> tuple:
        return ranking.strength([types[t] for t in hand])

    index = StrengthIndex(shoe.counts, HAND_SIZE, strength)
    rows = showdown(
        shoe.counts, HAND_SIZE, strength, ranking.category_cuts() if cuts else (), index=index
    )
    return ShowdownTable(shoe, ranking, index, rows)


def event_ways(config: GoaGaeConfig, table: ShowdownTable) -> dict[str, int]:
    """The Player bet's ways per event, from the per-hand showdown.

    Wins are keyed by the player's category. A loss keyed by the dealer's
    category needs the dealer's stronger hands split into categories: the
    showdown's cuts at each category's lowest key give them.
    """
    payouts = config.payouts
    ranking = table.ranking
    split_losses = payouts.dealer_bonus_costs_player and bool(payouts.bonus)
    ways: dict[str, int] = {}

    def add(key: str, n: int) -> None:
        ways[key] = ways.get(key, 0) + n

    n_categories = len(ranking.order)
    for row in table.rows:
        hand = table.hand(row)
        add(
            f"win-{hand.category}" if hand.category in payouts.bonus else "win",
            row.ways * row.weaker,
        )
        add("push", row.ways * row.equal)
        if not split_losses:
            add("lose", row.ways * row.stronger)
            continue
        # at_least[i - 1]: dealer hands in category position ≥ i.
        at_least = (*row.at_least, 0)
        mine = ranking.position[hand.category]
        for i in range(mine, n_categories):
            above_next = at_least[i]  # category position ≥ i + 1
            band = row.stronger - above_next if i == mine else at_least[i - 1] - above_next
            key = ranking.order[i].key
            add(f"lose-{key}" if key in payouts.bonus else "lose", row.ways * band)
    return ways


def brute_event_ways(config: GoaGaeConfig, shoe: Shoe[Card]) -> dict[str, int]:
    """The same table by the plain ordered enumerator, scaled to unordered ways."""
    ranking = Ranking(config.rules)
    types = shoe.types
    cache: dict[Hand, GoaGaeHand] = {}

    def ranked(hand: Hand) -> GoaGaeHand:
        found = cache.get(hand)
        if found is None:
            found = cache[hand] = ranking.rank([types[t] for t in hand])
        return found

    def settle(deal: tuple[Hand, ...]) -> dict[str, str]:
        return {"player": settle_player(ranked(deal[0]), ranked(deal[1]), config.payouts)}

    found = brute_force(shoe.counts, (HAND_SIZE, HAND_SIZE), settle)["player"]
    factor = ordering_factor((HAND_SIZE, HAND_SIZE))
    return {str(event): w // factor for event, w in found.items()}


# ---------------------------------------------------------------------------
# One hand's strength (``odds strength``)


@dataclass(frozen=True)
class StrengthResult:
    """A hand's chance of beating ``opponents`` hands dealt from the rest of the shoe.

    Exact results carry ways; estimates carry the simulation's counts, seed and
    95% intervals (Wilson score).
    """

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
        return Fraction(ways, self.total)

    def interval(self, ways: int) -> tuple[float, float]:
        """The 95% Wilson score interval of an estimated probability."""
        n, z = self.total, 1.959963984540054
        p = ways / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "goa-gae",
            "hand": self.hand,
            "hand_class": self.hand_class,
            "shoe": self.shoe,
            "opponents": self.opponents,
            "exact": self.exact,
            "method": "exact" if self.exact else "seeded simulation (estimate)",
        }
        for name in ("win", "tie", "lose"):
            data[name] = fraction_text(self.probability(getattr(self, name)))
        data["ways" if self.exact else "counts"] = {
            "win": self.win,
            "tie": self.tie,
            "lose": self.lose,
            "total": self.total,
        }
        if not self.exact:
            data["trials"] = self.trials
            data["seed"] = self.seed
            data["interval_95"] = {
                name: [round(x, 6) for x in self.interval(getattr(self, name))]
                for name in ("win", "tie", "lose")
            }
        return data

    def text(self) -> str:
        against = "one dealer hand" if self.opponents == 1 else f"{self.opponents} opponents"
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
        verbs = (
            ("win", "beats all" if self.opponents > 1 else "win"),
            ("tie", "ties the best" if self.opponents > 1 else "tie"),
            ("lose", "loses to one or more" if self.opponents > 1 else "lose"),
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


def hand_strength(
    config: GoaGaeConfig, text: str, opponents: int = 1, trials: int = 100_000, seed: int = 1
) -> StrengthResult:
    """Win/tie/lose of one hand against ``opponents`` hands from the rest of the shoe.

    One or two opponents: exact (two by :class:`odds.engine.StrengthIndex` on the
    shoe less the hand: every first opponent hand, then the second's ways below
    the threshold after its removal). Three to five: a seeded simulation.
    Against several opponents "win" is beating every one, "tie" is no one
    stronger but someone equal, "lose" is anyone stronger.
    """
    if not 1 <= opponents <= 5:
        raise OddsError(f"--opponents must be 1 to 5, got {opponents}")
    if trials < 1:
        raise OddsError(f"--trials must be positive, got {trials}")
    shoe = config.shoe.build()
    cards = three_cards(text, "hand")
    rest = shoe.without(cards, hand_text(cards))
    rest.require(HAND_SIZE * opponents)
    ranking = Ranking(config.rules)
    mine = ranking.rank(cards)
    types = shoe.types
    label = f"{hand_text(cards)}"
    base = dict(hand=label, hand_class=ranking.describe(mine), shoe=rest.description)

    def strength(hand: Hand) -> tuple:
        return ranking.strength([types[t] for t in hand])

    if opponents == 1:
        win = tie = lose = 0
        for hand, weight in hands(rest.counts, HAND_SIZE):
            key = strength(hand)
            if key < mine.strength:
                win += weight
            elif key == mine.strength:
                tie += weight
            else:
                lose += weight
        return StrengthResult(
            **base, opponents=1, exact=True, win=win, tie=tie, lose=lose, total=win + tie + lose
        )
    index = StrengthIndex(rest.counts, HAND_SIZE, strength)
    if opponents == 2:
        below = index.threshold(mine.strength)
        not_above = index.threshold(mine.strength, inclusive=True)

        def both_below(threshold: int) -> int:
            ways = 0
            for hand, weight, r in zip(index.hands, index.weights, index.ranks, strict=True):
                if r >= threshold:
                    break
                ways += weight * index.below(index.removal_terms(hand), threshold)
            return ways

        total = deal_count(rest.counts, (HAND_SIZE, HAND_SIZE))
        win = both_below(below)
        tie = both_below(not_above) - win
        return StrengthResult(
            **base, opponents=2, exact=True, win=win, tie=tie, lose=total - win - tie, total=total
        )
    return _simulate(base, index, rest, mine.strength, opponents, trials, seed)


def _simulate(
    base: dict[str, str],
    index: StrengthIndex,
    rest: Shoe[Card],
    key: tuple,
    opponents: int,
    trials: int,
    seed: int,
) -> StrengthResult:
    """Deal ``opponents`` hands ``trials`` times from ``rest`` (seeded) and count."""
    below = index.threshold(key)
    not_above = index.threshold(key, inclusive=True)
    cards = [t for t, n in enumerate(rest.counts) for _ in range(n)]
    rng = Random(seed)
    rank = index.rank
    win = tie = 0
    for _ in range(trials):
        dealt = rng.sample(cards, HAND_SIZE * opponents)
        best = max(
            rank[tuple(sorted(dealt[i : i + HAND_SIZE]))] for i in range(0, len(dealt), HAND_SIZE)
        )
        if best < below:
            win += 1
        elif best < not_above:
            tie += 1
    return StrengthResult(
        **base,
        opponents=opponents,
        exact=False,
        win=win,
        tie=tie,
        lose=trials - win - tie,
        total=trials,
        trials=trials,
        seed=seed,
    )


def three_cards(text: str | None, position: str) -> tuple[Card, ...]:
    """Parse a three-card hand; one-line errors for a missing hand or a wrong count."""
    if not text:
        raise OddsError(f"missing --{position} (three cards, e.g. 'As Ks 8s')")
    cards = parse_cards(text)
    if len(cards) != HAND_SIZE:
        raise OddsError(f"{position} must be three cards, got {len(cards)}: {text!r}")
    return cards


# ---------------------------------------------------------------------------
# The game


class GoaGaeStrength(StrengthFeature[GoaGaeConfig]):
    """``odds strength``: see :func:`hand_strength`."""

    def strength(
        self, config: GoaGaeConfig, hand: str, opponents: int, trials: int, seed: int
    ) -> StrengthResult:
        return hand_strength(config, hand, opponents, trials, seed)


class GoaGae(Game[GoaGaeConfig]):
    """Goa Gae: three cards each, one position against the dealer."""

    name = "goa-gae"
    title = "Goa Gae (Kao Gae, 9K), three cards"
    config_type = GoaGaeConfig
    positions = ("dealer", "player")
    bet_names = ("player",)
    hand_size = HAND_SIZE
    strength = GoaGaeStrength()
    shoe_state = GoaGaeShoeState()

    def validate(self, config: GoaGaeConfig) -> None:
        p = config.payouts
        for key in p.bonus:
            if key not in SPECIALS:
                raise OddsError(
                    f"[payouts] bonus: unknown category {key!r} (categories: {', '.join(SPECIALS)})"
                )
        worst = max((*p.bonus.values(), Fraction(1))) if p.dealer_bonus_costs_player else 1
        if worst > 1 + p.withholding:
            raise OddsError(
                f"[payouts] a loss can cost {worst} per unit staked but only "
                f"{1 + p.withholding} is debited: raise withholding to {worst - 1}"
            )
        config.shoe.build().require(2 * HAND_SIZE)

    # -- analysis ---------------------------------------------------------

    def analyse(self, config: GoaGaeConfig, paytable: str) -> Analysis:
        shoe = config.shoe.build()
        shoe.require(2 * HAND_SIZE)
        split = config.payouts.dealer_bonus_costs_player and bool(config.payouts.bonus)
        table = compute_showdown(config, shoe, cuts=split)
        ways = event_ways(config, table)
        events = player_events(config)
        p = config.payouts
        bet = Bet(
            "player",
            "Player",
            _bet_description(config),
            tuple(Outcome(e.label, e.net, ways.get(e.key, 0)) for e in events),
            withholding=p.withholding,
        )
        deals = deal_count(shoe.counts, (HAND_SIZE, HAND_SIZE))
        hand_ways = deal_count(shoe.counts, (HAND_SIZE,))
        category_table = _category_table(table, hand_ways)
        strength_table = _strength_table(table)
        classes = {
            row["hand class"]: row["ways"]
            for row in strength_table.rows
            if row["hand class"] != "Total"
        }
        return self.new_analysis(
            config,
            paytable,
            shoe=f"{shoe.description} ({shoe.size} cards)",
            deals=deals,
            counting=(
                "Unordered hands, dealt one after the other with card removal: the player's "
                f"three cards, then the dealer's, from {shoe.size} cards: C({shoe.size},3) × "
                f"C({shoe.size - 3},3) = {deals:,} deals. Other positions' cards are unseen, "
                "so by exchangeability they change nothing. The showdown is exact for every "
                "player hand (sorted prefix sums with inclusion–exclusion over the player's "
                "cards, no all-pairs loop); no suit symmetry is used, because the tie-breaks "
                "compare suits."
            ),
            bets=(bet,),
            tables=(
                category_table,
                _order_table(table.ranking),
                _showdown_table(table),
                strength_table,
            ),
            hand_classes=classes,
        )

    # -- one round --------------------------------------------------------

    def settle(self, config: GoaGaeConfig, hands: Mapping[str, str], stake: Fraction) -> Settlement:
        shoe = config.shoe.build()
        dealer = three_cards(hands.get("dealer"), "dealer")
        player = three_cards(hands.get("player"), "player")
        shoe.check_holds(dealer + player, "the dealer's and player's cards")
        ranking = Ranking(config.rules)
        d, p = ranking.rank(dealer), ranking.rank(player)
        events = {e.key: e for e in player_events(config)}
        event = events[settle_player(p, d, config.payouts)]
        debited = stake * (1 + config.payouts.withholding)
        return Settlement(
            hands=(
                SettledHand("dealer", hand_text(dealer), ranking.describe(d), d.label),
                SettledHand("player", hand_text(player), ranking.describe(p), p.label),
            ),
            bets=(
                SettledBet(
                    "player",
                    stake,
                    debited,
                    debited + event.net * stake,
                    f"{_why(ranking, p, d)}; {event.label}"
                    + (f": {payout_ratio(event.net)}" if event.net else ""),
                    event.label,
                ),
            ),
        )

    def bench_cases(self, config: GoaGaeConfig) -> list[BenchCase]:
        return bench_cases(config)


def _why(ranking: Ranking, player: GoaGaeHand, dealer: GoaGaeHand) -> str:
    """Why one hand beats the other: a higher category, or what the tie-break decided."""
    p, d = ranking.describe(player), ranking.describe(dealer)
    if player.strength == dealer.strength:
        return f"player's {p} equals dealer's {d}: identical strength"
    if player.strength > dealer.strength:
        who, high, low, winner, loser = "player", p, d, player, dealer
    else:
        who, high, low, winner, loser = "dealer", d, p, dealer, player
    if winner.category != loser.category:
        return f"{who}'s {high} outranks {low}"
    return f"{who}'s {high} beats {low}: {_deciding(winner, loser)}"


_CARD_NAMES = ("top card", "second card", "third card")


def _deciding(winner: GoaGaeHand, loser: GoaGaeHand) -> str:
    """The first tie-break item that separates two hands of one category."""
    category = winner.category
    w, lo = winner.strength[1], loser.strength[1]
    if category == "triple":
        return "higher triple (3 highest, then A, K, Q, …, 4, 2)"
    if category == "straight-flush":
        if w[0] != lo[0]:
            return f"higher suit ({Suit(w[0]).symbol} over {Suit(lo[0]).symbol})"
        return "higher sequence"
    if category == "straight":
        if w[0] != lo[0]:
            return "higher sequence"
        i = next(i for i in range(len(w[1])) if w[1][i] != lo[1][i])
        return f"{_CARD_NAMES[i]}'s suit ({Suit(w[1][i]).symbol} over {Suit(lo[1][i]).symbol})"
    cards_w, cards_l = (w[1], lo[1]) if category in ("points", "flush") else (w, lo)
    if category in ("points", "flush") and w[0] != lo[0]:
        return "more points"
    i = next(i for i in range(len(cards_w)) if cards_w[i] != cards_l[i])
    (rank_w, suit_w), (rank_l, suit_l) = cards_w[i], cards_l[i]
    if rank_w != rank_l:
        return f"higher {_CARD_NAMES[i]}"
    return f"{_CARD_NAMES[i]}'s suit ({Suit(suit_w).symbol} over {Suit(suit_l).symbol})"


def _bet_description(config: GoaGaeConfig) -> str:
    p = config.payouts
    text = f"Stake 1 against the dealer; a win pays {p.win}:1, a tie pushes"
    if p.bonus:
        listed = ", ".join(f"{_BY_KEY[k].name} {m}:1" for k, m in p.bonus.items())
        text += f"; a win with a bonus category pays {listed}"
        if p.dealer_bonus_costs_player:
            text += "; a loss to a dealer holding a bonus category costs that multiple"
    if p.withholding:
        text += f"; {p.withholding} more is withheld (debited {1 + p.withholding})"
    return text + "."


# ---------------------------------------------------------------------------
# Report tables


def _category_table(table: ShowdownTable, hand_ways: int) -> Table:
    ways: dict[str, int] = {}
    for row in table.rows:
        category = table.hand(row).category
        ways[category] = ways.get(category, 0) + row.ways
    body, json_rows = [], []
    for category in reversed(table.ranking.order):
        n = ways.get(category.key, 0)
        body.append((category.name, n, Fraction(n, hand_ways)))
        json_rows.append(
            {
                "name": category.name,
                "key": category.key,
                "ways": n,
                "probability": fraction_text(Fraction(n, hand_ways)),
            }
        )
    body.append(("Total", hand_ways, Fraction(1)))
    return Table(
        key="hand_categories",
        title="Hand categories (one three-card hand)",
        headers=("category", "ways", "probability"),
        rows=tuple(body),
        note="Strongest first under the readings used. A hand belongs to the highest "
        "category it qualifies for.",
        json=json_rows,
    )


def _order_table(ranking: Ranking) -> Table:
    rows = tuple((c.name, c.description) for c in reversed(ranking.order))
    return Table(
        key="hand_order",
        title="Hand order used (strongest first)",
        headers=("category", "qualifies, and the tie-break within it"),
        rows=rows,
        note="With several decks, identical top cards compare the next card, and so on; "
        "identical hands tie.",
    )


def _showdown_table(table: ShowdownTable) -> Table:
    merged: dict[str, list[int]] = {}
    for row in table.rows:
        category = table.hand(row).category
        acc = merged.setdefault(category, [0, 0, 0])
        acc[0] += row.ways * row.weaker
        acc[1] += row.ways * row.equal
        acc[2] += row.ways * row.stronger
    body, json_rows = [], []
    totals = [0, 0, 0]
    for category in reversed(table.ranking.order):
        win, tie, lose = merged.get(category.key, [0, 0, 0])
        totals = [totals[0] + win, totals[1] + tie, totals[2] + lose]
        body.append(_showdown_row(category.name, win, tie, lose))
        json_rows.append(_showdown_json(category.name, win, tie, lose))
    body.append(_showdown_row("Total", *totals))
    json_rows.append(_showdown_json("Total", *totals))
    return Table(
        key="showdown",
        title="Showdown: one position against the dealer, by the player's category",
        headers=("player's category", "win ways", "tie ways", "lose ways", "win", "tie", "lose"),
        rows=tuple(body),
        note="Ways count (player hand, dealer hand) deals; win, tie and lose are conditional "
        "on the player holding that category (the Total row: over all deals). The player wins "
        "exactly as often as the dealer does: the two hands are dealt alike.",
        json=json_rows,
    )


def _showdown_row(name: str, win: int, tie: int, lose: int) -> tuple:
    total = win + tie + lose
    if not total:
        return (name, 0, 0, 0, "", "", "")
    return (name, win, tie, lose, Fraction(win, total), Fraction(tie, total), Fraction(lose, total))


def _showdown_json(name: str, win: int, tie: int, lose: int) -> dict[str, Any]:
    total = win + tie + lose
    data: dict[str, Any] = {"name": name, "win_ways": win, "tie_ways": tie, "lose_ways": lose}
    if total:
        for key, n in (("win", win), ("tie", tie), ("lose", lose)):
            data[key] = fraction_text(Fraction(n, total))
    return data


def _strength_table(table: ShowdownTable) -> Table:
    """Per hand class: ways, exact P(beat one dealer hand), the weakest and strongest hands."""
    groups: dict[str, list[HandShowdown]] = {}
    for row in table.rows:
        groups.setdefault(table.hand(row).label, []).append(row)
    labels = [c.name for c in reversed(table.ranking.order) if c.key != "points"]
    labels += [points_label(p) for p in range(9, -1, -1)]
    labels = [label for label in labels if label in groups]
    labels.sort(key=lambda label: table.hand(groups[label][-1]).strength, reverse=True)
    body, json_rows = [], []
    for label in labels:
        rows = groups[label]  # rows come weakest first
        ways = sum(r.ways for r in rows)
        deals = sum(r.ways * (r.weaker + r.equal + r.stronger) for r in rows)
        win = sum(r.ways * r.weaker for r in rows)
        tie = sum(r.ways * r.equal for r in rows)
        weakest, strongest = rows[0], rows[-1]
        body.append(
            (
                label,
                ways,
                Fraction(win, deals),
                Fraction(tie, deals),
                hand_text(table.cards(weakest.hand)),
                _beat(weakest),
                hand_text(table.cards(strongest.hand)),
                _beat(strongest),
            )
        )
        json_rows.append(
            {
                "name": label,
                "ways": ways,
                "win": fraction_text(Fraction(win, deals)),
                "tie": fraction_text(Fraction(tie, deals)),
                "lose": fraction_text(Fraction(deals - win - tie, deals)),
                "weakest": {
                    "hand": hand_text(table.cards(weakest.hand)),
                    "win": fraction_text(_beat(weakest)),
                },
                "strongest": {
                    "hand": hand_text(table.cards(strongest.hand)),
                    "win": fraction_text(_beat(strongest)),
                },
            }
        )
    total = sum(r.ways for r in table.rows)
    body.append(("Total", total, "", "", "", "", "", ""))
    return Table(
        key="hand_strength",
        title="Hand strength: the exact chance of beating one dealer hand",
        headers=(
            "hand class",
            "ways",
            "P(win)",
            "P(tie)",
            "weakest hand",
            "its P(win)",
            "strongest hand",
            "its P(win)",
        ),
        rows=tuple(body),
        note="P(win) and P(tie) average over the class's hands, the dealer's hand drawn from "
        "what the player's left. The weakest and strongest hands are the class's lowest and "
        "highest strength keys (one of them when several share it). `odds strength goa-gae "
        '"As Ks 8s"` gives any one hand.',
        json=json_rows,
    )


def _beat(row: HandShowdown) -> Fraction:
    return Fraction(row.weaker, row.weaker + row.equal + row.stronger)


# ---------------------------------------------------------------------------
# Bench


#: The reduced deck the brute force can finish on: 3 suits × ranks A 2 J Q K (15 cards,
#: 3.6 million ordered six-card sequences). Every category occurs: triples, straight
#: flushes and straights (J-Q-K, Q-K-A), JQK hands, flushes, points (K-A-2 is none).
BENCH_RANKS = (Rank.ACE, Rank.TWO, Rank.JACK, Rank.QUEEN, Rank.KING)
BENCH_SUITS = (Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
SPOT_CHECK_HANDS = 12


def reduced_shoe(shoe: Shoe[Card], ranks=BENCH_RANKS, suits=BENCH_SUITS) -> Shoe[Card]:
    """A sub-shoe of some ranks and suits (for brute-force comparisons)."""
    label = (
        f"{shoe.description}, reduced to {len(suits)} suits ({''.join(s.symbol for s in suits)}) "
        f"× ranks {' '.join(r.symbol for r in ranks)}"
    )
    return shoe.restricted(lambda c: c.rank in ranks and c.suit in suits, label)


def _probabilities(ways: Mapping[str, int]) -> dict[str, Fraction]:
    total = sum(ways.values())
    return {event: Fraction(w, total) for event, w in sorted(ways.items()) if w}


def _spot_hands(shoe: Shoe[Card]) -> list[Hand]:
    """A few player hands spread over the hand list, for the partial brute force."""
    all_hands = hands(shoe.counts, HAND_SIZE)
    step = max(1, len(all_hands) // SPOT_CHECK_HANDS)
    return [hand for hand, _ in all_hands[::step]][:SPOT_CHECK_HANDS]


def _spot_view(rows: Sequence[HandShowdown], chosen: Sequence[Hand]) -> dict[Hand, tuple]:
    """The engine's win/tie/lose ways of the chosen hands (applied after timing)."""
    by_hand = {row.hand: (row.weaker, row.equal, row.stronger) for row in rows}
    return {hand: by_hand[hand] for hand in chosen}


def _spot_check(
    config: GoaGaeConfig, shoe: Shoe[Card], chosen: Sequence[Hand]
) -> dict[Hand, tuple]:
    """Win/tie/lose of the chosen player hands by enumerating every dealer hand."""
    ranking = Ranking(config.rules)
    types = shoe.types
    result = {}
    for hand in chosen:
        mine = ranking.rank([types[t] for t in hand]).strength
        counts = list(shoe.counts)
        for t in hand:
            counts[t] -= 1
        tally = [0, 0, 0]
        for other, weight in hands(counts, HAND_SIZE):
            key = ranking.rank([types[t] for t in other]).strength
            tally[0 if key < mine else 1 if key == mine else 2] += weight
        result[hand] = tuple(tally)
    return result


def bench_cases(config: GoaGaeConfig) -> list[BenchCase]:
    """Reduced deck against the full brute force; full decks against a spot check."""
    shoe = config.shoe.build()
    small = reduced_shoe(shoe)
    cases = [
        BenchCase(
            f"Goa Gae Player bet, {small.description}",
            lambda: _probabilities(event_ways(config, compute_showdown(config, small, True))),
            lambda: _probabilities(brute_event_ways(config, small)),
            note="brute force: every ordered sequence of the six cards (plain enumerator)",
        )
    ]
    for decks in (1, 2):
        full = Shoe.of_decks(shoe.types, decks) if not config.shoe.counts else shoe
        n = deal_count(full.counts, (HAND_SIZE, HAND_SIZE))
        chosen = _spot_hands(full)
        cases.append(
            BenchCase(
                f"Goa Gae showdown, every hand, {full.description} "
                f"(brute: {SPOT_CHECK_HANDS} hands only)",
                lambda full=full: compute_showdown(config, full).rows,
                lambda full=full, chosen=chosen: _spot_check(config, full, chosen),
                note=(
                    f"engine: every player hand against every dealer hand ({n:,} deals); "
                    f"the brute force of all deals is out of reach, so the brute column "
                    f"enumerates every dealer hand for {SPOT_CHECK_HANDS} spread-out player "
                    "hands only and compares those hands' exact counts (its time is not a "
                    "full brute force; the ratio is not a speed-up)"
                ),
                view=lambda rows, chosen=chosen: _spot_view(rows, chosen),
            )
        )
    return cases
