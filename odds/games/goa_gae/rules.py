"""Goa Gae's rules (docs/rules/goa-gae.md): the six categories, their tie-breaks, settlement.

Rules only: what a three-card hand is, how two hands compare under the chosen
readings, the Player bet's events and how a round settles into them. No loops
over the shoe (the counting is :mod:`odds.games.goa_gae.counting`'s) and no
number formatting.

Every hand is reduced to a *strength key*, a tuple that sorts weakest to
strongest (equal keys tie), so the exact showdown is plain key comparison
(:func:`odds.engine.showdown`). The key is ``(position of the category in the
chosen order, tie-break)``. The categories are declared as data
(:data:`CATEGORIES`): who qualifies and how hands within a category compare.
Where several decks let two hands share a top card, the next card decides, and
identical hands tie, which the tie-breaks do by listing the cards from the top
down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, NamedTuple

from odds.core.cards import STANDARD_DECK, Card, Rank, Suit
from odds.core.errors import OddsError
from odds.games.events import Event
from odds.games.goa_gae.options import GoaGaeConfig, GoaGaePayouts, GoaGaeRules


class GoaGaeEvent(StrEnum):
    """The Player bet's event keys: a win, a push, a loss, and a win (or a loss) with each
    bonus category (``payouts.bonus``), named ``win-<category>`` (``lose-<category>``).

    A :class:`enum.StrEnum`: each prints, compares and serialises as its key, so tables and
    JSON read as before; :class:`odds.games.events.Event` keys are these members.
    """

    WIN = "win"
    PUSH = "push"
    LOSE = "lose"
    WIN_FLUSH = "win-flush"
    WIN_STRAIGHT = "win-straight"
    WIN_JQK = "win-jqk"
    WIN_STRAIGHT_FLUSH = "win-straight-flush"
    WIN_TRIPLE = "win-triple"
    LOSE_FLUSH = "lose-flush"
    LOSE_STRAIGHT = "lose-straight"
    LOSE_JQK = "lose-jqk"
    LOSE_STRAIGHT_FLUSH = "lose-straight-flush"
    LOSE_TRIPLE = "lose-triple"

    @classmethod
    def win_with(cls, category: str) -> GoaGaeEvent:
        """A win with the bonus category ``category`` (a key of :data:`SPECIALS`)."""
        return cls(f"win-{category}")

    @classmethod
    def loss_to(cls, category: str) -> GoaGaeEvent:
        """A loss to a dealer holding the bonus category ``category``."""
        return cls(f"lose-{category}")


#: Cards in a hand.
HAND_SIZE = 3

#: A hand's strength key: ``(category position, tie-break …)``; larger is stronger.
StrengthKey = tuple[Any, ...]
#: A card's place in the single-card order: (rank value, suit); larger is higher.
CardPlace = tuple[int, Suit]

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

    >>> hand_facts((Rank.ACE, Rank.QUEEN, Rank.KING), False).sequence
    11
    >>> hand_facts((Rank.ACE, Rank.TWO, Rank.KING), False).sequence is None
    True
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
        top: tuple[CardPlace, ...],
    ) -> None:
        self.cards = cards
        self.facts = facts
        self.rules = rules
        #: The cards' places in the single-card order, (rank value, suit), top down.
        self.top = top

    def top_cards(self) -> tuple[CardPlace, ...]:
        """The cards' single-card places from the top down (suit breaks rank ties)."""
        return self.top

    def sequence_suits(self) -> tuple[Suit, ...]:
        """A sequence's suits from its top card down (Q-K-A's top is the A, A-2-3's the 3)."""
        high_ace = self.facts.sequence == 11

        def place(card: Card) -> int:
            return 14 if high_ace and card.rank == Rank.ACE else int(card.rank)

        return tuple(card.suit for card in sorted(self.cards, key=place, reverse=True))


_ACE_HIGH: dict[Card, CardPlace] = {
    card: (14 if card.rank == Rank.ACE else int(card.rank), card.suit) for card in STANDARD_DECK
}
_KING_HIGH: dict[Card, CardPlace] = {card: (int(card.rank), card.suit) for card in STANDARD_DECK}


# ---------------------------------------------------------------------------
# The categories, declared as data


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
    tiebreak: Callable[[Shape], tuple[Any, ...]]


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


#: The categories in the rule book's order, weakest first.
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
#: The categories a paytable may pay a bonus on (every one but points).
SPECIALS: tuple[str, ...] = tuple(c.key for c in CATEGORIES if c.key != "points")


def category_named(key: str) -> Category:
    """The category whose paytable key is ``key`` (``"straight-flush"``)."""
    return _BY_KEY[key]


def category_order(rules: GoaGaeRules) -> tuple[Category, ...]:
    """The categories weakest first under the chosen readings.

    >>> [c.key for c in category_order(GoaGaeRules(straight_above_jqk=True))][2:4]
    ['jqk', 'straight']
    """
    order = [c.key for c in CATEGORIES]

    def swap(a: str, b: str) -> None:
        i, j = order.index(a), order.index(b)
        order[i], order[j] = order[j], order[i]

    if rules.straight_above_jqk:
        swap("straight", "jqk")
    if rules.straight_flush_above_triple:
        swap("straight-flush", "triple")
    return tuple(_BY_KEY[k] for k in order)


def points_label(points: int) -> str:
    """``1 point``, ``7 points``: a points hand's class label."""
    return f"{points} point" if points == 1 else f"{points} points"


class GoaGaeHand(NamedTuple):
    """A ranked hand: ``strength`` orders hands (equal strengths tie)."""

    strength: StrengthKey
    category: str

    @property
    def points(self) -> int | None:
        """The card points of a points or flush hand (their tie-break's first item)."""
        if self.category in ("points", "flush"):
            points: int = self.strength[1][0]
            return points
        return None

    @property
    def category_name(self) -> str:
        """The category as reports name it (``Straight flush``)."""
        return _BY_KEY[self.category].name

    @property
    def label(self) -> str:
        """The hand-class label: a category name, or ``N points`` for a points hand."""
        if self.category == "points":
            return points_label(self.points or 0)
        return self.category_name


# ---------------------------------------------------------------------------
# The hand order of one set of readings


class Ranking:
    """The hand order of one set of readings, declared by :data:`CATEGORIES`."""

    def __init__(self, rules: GoaGaeRules) -> None:
        self.rules = rules
        self.order = category_order(rules)
        self.position = {c.key: i for i, c in enumerate(self.order)}
        #: Each card's place in the single-card order, (rank value, suit).
        self.places = _ACE_HIGH if rules.single_card_order == "ace-high" else _KING_HIGH
        self._by_ranks: dict[tuple[int, int, int, bool], tuple[int, Category, Facts]] = {}

    def strength(self, cards: Sequence[Card]) -> StrengthKey:
        """The hand's strength key: ``(category position, tie-break)``; equal keys tie.

        The category depends on the ranks and on "all one suit" only, so it is
        found once per such signature and cached; the tie-break reads the cards.
        """
        places = self.places
        a, b, c = cards
        top = tuple(sorted((places[a], places[b], places[c]), reverse=True))
        one_suit = a.suit == b.suit == c.suit
        signature = (top[0][0], top[1][0], top[2][0], one_suit)
        found = self._by_ranks.get(signature)
        if found is None:
            facts = hand_facts(sorted((a.rank, b.rank, c.rank)), one_suit)
            shape = Shape(cards, facts, self.rules, top)
            category = next(c for c in reversed(self.order) if c.qualifies(shape))
            found = self._by_ranks[signature] = (self.position[category.key], category, facts)
        position, category, facts = found
        return position, category.tiebreak(Shape(cards, facts, self.rules, top))

    def hand(self, strength: StrengthKey) -> GoaGaeHand:
        """The ranked hand of a strength key."""
        return GoaGaeHand(strength, self.order[strength[0]].key)

    def rank(self, cards: Sequence[Card]) -> GoaGaeHand:
        """The hand's category and strength key.

        >>> from odds.core.cards import parse_cards
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


def player_events(config: GoaGaeConfig) -> tuple[Event, ...]:
    """The Player bet's events in table order: wins (bonus categories first), push, losses."""
    p = config.payouts
    order = list(reversed(category_order(config.rules)))
    events = [
        Event(GoaGaeEvent.win_with(c.key), f"player wins with a {c.name} (bonus)", p.bonus[c.key])
        for c in order
        if c.key in p.bonus
    ]
    plain = "player wins" if not p.bonus else "player wins, no bonus category"
    events += [
        Event(GoaGaeEvent.WIN, plain, p.win),
        Event(GoaGaeEvent.PUSH, "tie (equal hands): push", Fraction(0)),
    ]
    if p.dealer_bonus_costs_player:
        events += [
            Event(
                GoaGaeEvent.loss_to(c.key), f"dealer wins with a {c.name} (bonus)", -p.bonus[c.key]
            )
            for c in order
            if c.key in p.bonus
        ]
    lose = "dealer wins" if not events[-1].key.startswith("lose-") else "dealer wins, other"
    events.append(Event(GoaGaeEvent.LOSE, lose, Fraction(-1)))
    return tuple(events)


def settle_player(player: GoaGaeHand, dealer: GoaGaeHand, payouts: GoaGaePayouts) -> GoaGaeEvent:
    """The Player bet's event key: the higher strength wins, equal strengths push."""
    if player.strength > dealer.strength:
        if player.category in payouts.bonus:
            return GoaGaeEvent.win_with(player.category)
        return GoaGaeEvent.WIN
    if player.strength == dealer.strength:
        return GoaGaeEvent.PUSH
    if payouts.dealer_bonus_costs_player and dealer.category in payouts.bonus:
        return GoaGaeEvent.loss_to(dealer.category)
    return GoaGaeEvent.LOSE


def check_paytable(config: GoaGaeConfig) -> None:
    """Refuse unknown bonus categories and a loss the withholding does not cover."""
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


# ---------------------------------------------------------------------------
# Why one hand beats another (the reasons ``odds settle`` prints)


_CARD_NAMES = ("top card", "second card", "third card")


def explain_showdown(ranking: Ranking, player: GoaGaeHand, dealer: GoaGaeHand) -> str:
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


def _deciding(winner: GoaGaeHand, loser: GoaGaeHand) -> str:
    """The first tie-break item that separates two hands of one category.

    Reads the tie-break as :data:`CATEGORIES` builds it: a triple's position;
    a straight flush's (suit, sequence); a straight's (sequence, suits top
    down); points and flush (points, card places top down); JQK card places.
    """
    category = winner.category
    w, lo = winner.strength[1], loser.strength[1]
    if category == "triple":
        return "higher triple (3 highest, then A, K, Q, …, 4, 2)"
    if category == "straight-flush":
        if w[0] != lo[0]:
            return f"higher suit ({_over(w[0], lo[0])})"
        return "higher sequence"
    if category == "straight":
        if w[0] != lo[0]:
            return "higher sequence"
        i = _first_difference(w[1], lo[1])
        return f"{_CARD_NAMES[i]}'s suit ({_over(w[1][i], lo[1][i])})"
    if category in ("points", "flush"):
        if w[0] != lo[0]:
            return "more points"
        w, lo = w[1], lo[1]
    i = _first_difference(w, lo)
    (rank_w, suit_w), (rank_l, suit_l) = w[i], lo[i]
    if rank_w != rank_l:
        return f"higher {_CARD_NAMES[i]}"
    return f"{_CARD_NAMES[i]}'s suit ({_over(suit_w, suit_l)})"


def _first_difference(a: Sequence[Any], b: Sequence[Any]) -> int:
    return next(i for i in range(len(a)) if a[i] != b[i])


def _over(higher: int, lower: int) -> str:
    """``♥ over ♦``."""
    return f"{Suit(higher).symbol} over {Suit(lower).symbol}"
