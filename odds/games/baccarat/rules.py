"""Baccarat (punto banco) rules: card values, the drawing tableau, the coup, and every bet.

Rules only (docs/rules/baccarat.md): no loops over a shoe, no formatting of
figures. :mod:`odds.games.baccarat.counting` asks the engine to count; this
module says what happens to the cards of one coup.

A *coup* is dealt Player, Banker, Player, Banker; a natural (by default a
two-card 8 or 9) on either side ends it; otherwise the Player draws or
stands, then the Banker acts, by the tableau. Every bet is settled from the
coup's :class:`Coup` summary (totals and numbers of cards) except the pair
bets, which look at the first two cards of each hand.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from odds.core.cards import Card, Rank, Suit
from odds.core.errors import OddsError, PositionError
from odds.core.frozen import FrozenMap
from odds.games.baccarat.options import BaccaratPayouts, BaccaratRules, Tableau
from odds.games.events import Event


class BaccaratEvent(StrEnum):
    """A baccarat bet's event keys (what the ``settle_*`` functions return).

    A :class:`enum.StrEnum`: each prints, compares and serialises as its key, so tables and
    JSON read as before; :class:`odds.games.events.Event` keys are these members.
    """

    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    WIN_6 = "win-6"
    WIN_3_CARD_7 = "win-3-card-7"
    WIN_2 = "win-2"
    WIN_3 = "win-3"
    NATURAL_WIN = "natural-win"
    NATURAL_TIE = "natural-tie"
    WIN_BY_1 = "win-by-1"
    WIN_BY_2 = "win-by-2"
    WIN_BY_3 = "win-by-3"
    WIN_BY_4 = "win-by-4"
    WIN_BY_5 = "win-by-5"
    WIN_BY_6 = "win-by-6"
    WIN_BY_7 = "win-by-7"
    WIN_BY_8 = "win-by-8"
    WIN_BY_9 = "win-by-9"
    WIN_SMALL = "win-small"
    BOTH = "both"
    ONE = "one"


def card_value(rank: Rank) -> int:
    """A card's points: A = 1, 2–9 face value, 10 J Q K = 0."""
    return rank.baccarat_points


def hand_total(values: Sequence[int]) -> int:
    """A hand's total: the sum of its values with the tens digit dropped."""
    return sum(values) % 10


# ---------------------------------------------------------------------------
# The tableau


@dataclass(frozen=True)
class DrawingRules:
    """The tableau, read once from the paytable into sets for quick questions (a hashable
    value: equal tableaus, however written, share one counting table)."""

    naturals: frozenset[int]
    player_draws: frozenset[int]
    banker_draws_player_stood: frozenset[int]
    banker_draws: FrozenMap[int, frozenset[int]]

    @classmethod
    def of(cls, tableau: Tableau) -> DrawingRules:
        """Validate the ``[tableau]`` section and read it; a one-line error names what is wrong."""
        naturals = _values(tableau.naturals, "tableau.naturals")
        open_totals = [t for t in range(10) if t not in naturals]
        player = _values(tableau.player_draws, "tableau.player_draws")
        stood = _values(tableau.banker_draws_player_stood, "tableau.banker_draws_player_stood")
        for name, totals in (("player_draws", player), ("banker_draws_player_stood", stood)):
            clash = sorted(totals & naturals)
            if clash:
                raise OddsError(
                    f"tableau.{name}: {clash[0]} is a natural (the deal ends before any draw)"
                )
        rows: dict[int, frozenset[int]] = {}
        for key, row in tableau.banker_draws.items():
            if key not in {str(t) for t in range(10)}:
                raise OddsError(f"tableau.banker_draws: {key!r} is not a Banker total 0-9")
            if int(key) in naturals:
                raise OddsError(
                    f"tableau.banker_draws: row {key} is a natural (the Banker never acts on it)"
                )
            rows[int(key)] = _values(row, f"tableau.banker_draws.{key}")
        missing = [t for t in open_totals if t not in rows]
        if missing:
            raise OddsError(
                f"tableau.banker_draws: the row for Banker total {missing[0]} is missing "
                f"(one row per non-natural total: {', '.join(map(str, open_totals))})"
            )
        return cls(naturals, player, stood, FrozenMap(rows))

    def is_natural(self, two_card_total: int) -> bool:
        return two_card_total in self.naturals

    def player_draws_on(self, total: int) -> bool:
        """Whether the Player, with no natural on the table, draws on this two-card total."""
        return total in self.player_draws

    def banker_draws_on(self, banker_total: int, player_third: int | None) -> bool:
        """Whether the Banker draws on a two-card total (``player_third`` None: Player stood)."""
        if player_third is None:
            return banker_total in self.banker_draws_player_stood
        return player_third in self.banker_draws[banker_total]


def _values(items: Sequence[int], where: str) -> frozenset[int]:
    for value in items:
        if not 0 <= value <= 9:
            raise OddsError(f"{where}: {value} is not a total or card value 0-9")
    if len(set(items)) != len(items):
        raise OddsError(f"{where}: a value is listed twice")
    return frozenset(items)


# ---------------------------------------------------------------------------
# The coup


@dataclass(frozen=True, order=True)
class Coup:
    """What the bets need to know about a finished coup.

    Totals 0–9 and the number of cards of each hand (2 or 3). Every bet except
    the pair bets is settled from this alone.
    """

    player_total: int
    banker_total: int
    player_cards: int
    banker_cards: int

    @property
    def winner(self) -> str:
        """``"player"``, ``"banker"`` or ``"tie"``."""
        if self.player_total == self.banker_total:
            return "tie"
        return "player" if self.player_total > self.banker_total else "banker"

    @property
    def margin(self) -> int:
        return abs(self.player_total - self.banker_total)

    @property
    def cards(self) -> int:
        """Cards dealt in the coup: 4, 5 or 6."""
        return self.player_cards + self.banker_cards

    def natural(self, side: str, rules: DrawingRules) -> bool:
        """Whether ``side`` holds a natural (a two-card total the tableau calls natural)."""
        cards = self.player_cards if side == "player" else self.banker_cards
        total = self.player_total if side == "player" else self.banker_total
        return cards == 2 and rules.is_natural(total)


@dataclass(frozen=True)
class DealtCoup:
    """A coup dealt card by card, with the tableau's reason for each hand's draw or stand."""

    coup: Coup
    player_reason: str
    banker_reason: str


#: A card source: ``draw("player")`` or ``draw("banker")`` returns the value of the
#: next card that hand receives (the brute force ignores the hand; settle checks it).
CardSource = Callable[[str], int]


def deal_coup(draw: CardSource, rules: DrawingRules) -> DealtCoup:
    """Deal one coup in dealing order by the tableau, from a source of card values.

    Player, Banker, Player, Banker; then, unless either side has a natural,
    the Player's third card if the Player draws, and the Banker's if the
    tableau says so. Returns the totals, and the reasons a person reads
    ("Banker draws: 5 against a Player third card 6").
    """
    first = [draw(hand) for hand in ("player", "banker", "player", "banker")]
    player, banker = [first[0], first[2]], [first[1], first[3]]
    pt, bt = hand_total(player), hand_total(banker)
    if rules.is_natural(pt) or rules.is_natural(bt):
        who = " and ".join(
            f"{side} {total}"
            for side, total in (("Player", pt), ("Banker", bt))
            if rules.is_natural(total)
        )
        reason = f"natural ({who}): no third cards"
        return DealtCoup(Coup(pt, bt, 2, 2), reason, reason)
    third: int | None = None
    if rules.player_draws_on(pt):
        player_reason = f"Player draws on {pt}"
        third = draw("player")
        player.append(third)
    else:
        player_reason = f"Player stands on {pt}"
    if rules.banker_draws_on(bt, third):
        banker_reason = banker_reason_text(True, bt, third)
        banker.append(draw("banker"))
    else:
        banker_reason = banker_reason_text(False, bt, third)
    coup = Coup(hand_total(player), hand_total(banker), len(player), len(banker))
    return DealtCoup(coup, player_reason, banker_reason)


def replay_coup(player: Sequence[Card], banker: Sequence[Card], rules: DrawingRules) -> DealtCoup:
    """Deal given hands in dealing order by the tableau; refuse hands it could not produce.

    A hand with a third card the tableau does not give, or without one it
    does, is a :class:`PositionError` naming the hand and the tableau's reason.
    """
    given = {"player": list(player), "banker": list(banker)}
    used = {"player": 0, "banker": 0}

    def draw(hand: str) -> int:
        if used[hand] == len(given[hand]):
            raise _MissingCard(hand)
        used[hand] += 1
        return card_value(given[hand][used[hand] - 1].rank)

    try:
        dealt = deal_coup(draw, rules)
    except _MissingCard as missing:
        raise PositionError(
            missing.hand,
            f"{{position}} must have a third card ({_draw_reason(player, banker, missing.hand)}), "
            "but has two",
        ) from None
    for hand in ("player", "banker"):
        if used[hand] < len(given[hand]):
            reason = dealt.player_reason if hand == "player" else dealt.banker_reason
            raise PositionError(
                hand, f"{{position}} cannot have a third card ({given[hand][-1]}): {reason}"
            )
    return dealt


class _MissingCard(Exception):
    """The tableau asked for a card the given hand does not have."""

    def __init__(self, hand: str) -> None:
        super().__init__(hand)
        self.hand = hand


def _draw_reason(player: Sequence[Card], banker: Sequence[Card], hand: str) -> str:
    """Why ``hand`` must draw, for the error message."""
    pt = hand_total([card_value(c.rank) for c in player[:2]])
    if hand == "player":
        return f"Player draws on {pt}"
    bt = hand_total([card_value(c.rank) for c in banker[:2]])
    third = card_value(player[2].rank) if len(player) == 3 else None
    return banker_reason_text(True, bt, third)


def banker_reason_text(draws: bool, banker_total: int, player_third: int | None) -> str:
    """``Banker draws: 5 against a Player third card 6``; ``Banker stands on 6 (Player stood)``."""
    verb = "draws" if draws else "stands"
    if player_third is None:
        return f"Banker {verb} on {banker_total} (the Player stood)"
    return f"Banker {verb}: {banker_total} against a Player third card {player_third}"


# ---------------------------------------------------------------------------
# Bets: each bet's events (key, label, net payout) and how a coup settles it

_LOSE = Fraction(-1)
_PUSH = Fraction(0)


def banker_events(rules: BaccaratRules, p: BaccaratPayouts) -> tuple[Event, ...]:
    """The Banker bet's events under the chosen reading of how it is paid."""
    if rules.banker_pays == "commission":
        wins: tuple[Event, ...] = (
            Event(
                BaccaratEvent.WIN, "Banker wins (less commission)", p.banker * (1 - p.commission)
            ),
        )
    elif rules.banker_pays == "no-commission":
        wins = (
            Event(BaccaratEvent.WIN_6, "Banker wins with 6", p.banker_six),
            Event(BaccaratEvent.WIN, "Banker wins, not with 6", p.banker),
        )
    else:
        wins = (
            Event(BaccaratEvent.WIN_3_CARD_7, "Banker wins with a three-card 7 (push)", _PUSH),
            Event(BaccaratEvent.WIN, "Banker wins otherwise", p.banker),
        )
    return (
        *wins,
        Event(BaccaratEvent.TIE, "tie (push)", _PUSH),
        Event(BaccaratEvent.LOSE, "Player wins", _LOSE),
    )


def settle_banker(coup: Coup, rules: BaccaratRules) -> BaccaratEvent:
    if coup.winner == "tie":
        return BaccaratEvent.TIE
    if coup.winner == "player":
        return BaccaratEvent.LOSE
    if rules.banker_pays == "no-commission" and coup.banker_total == 6:
        return BaccaratEvent.WIN_6
    if rules.banker_pays == "ez" and coup.banker_total == 7 and coup.banker_cards == 3:
        return BaccaratEvent.WIN_3_CARD_7
    return BaccaratEvent.WIN


def player_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.WIN, "Player wins", p.player),
        Event(BaccaratEvent.TIE, "tie (push)", _PUSH),
        Event(BaccaratEvent.LOSE, "Banker wins", _LOSE),
    )


def settle_player(coup: Coup) -> BaccaratEvent:
    return _PLAYER_BET[coup.winner]


_PLAYER_BET = {"player": BaccaratEvent.WIN, "tie": BaccaratEvent.TIE, "banker": BaccaratEvent.LOSE}


def tie_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (Event(BaccaratEvent.WIN, "tie", p.tie), Event(BaccaratEvent.LOSE, "no tie", _LOSE))


def settle_tie(coup: Coup) -> BaccaratEvent:
    return BaccaratEvent.WIN if coup.winner == "tie" else BaccaratEvent.LOSE


def dragon_7_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.WIN, "Banker wins with a three-card 7", p.dragon_7),
        Event(BaccaratEvent.LOSE, "no Banker win with a three-card 7", _LOSE),
    )


def settle_dragon_7(coup: Coup) -> BaccaratEvent:
    banker_seven = coup.banker_cards == 3 and coup.banker_total == 7
    return BaccaratEvent.WIN if coup.winner == "banker" and banker_seven else BaccaratEvent.LOSE


def panda_8_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.WIN, "Player wins with a three-card 8", p.panda_8),
        Event(BaccaratEvent.LOSE, "no Player win with a three-card 8", _LOSE),
    )


def settle_panda_8(coup: Coup) -> BaccaratEvent:
    player_eight = coup.player_cards == 3 and coup.player_total == 8
    return BaccaratEvent.WIN if coup.winner == "player" and player_eight else BaccaratEvent.LOSE


def super_6_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.WIN_2, "Banker wins with a two-card 6", p.super_6_two_cards),
        Event(BaccaratEvent.WIN_3, "Banker wins with a three-card 6", p.super_6_three_cards),
        Event(BaccaratEvent.LOSE, "no Banker win with 6", _LOSE),
    )


def settle_super_6(coup: Coup) -> BaccaratEvent:
    if coup.winner == "banker" and coup.banker_total == 6:
        return BaccaratEvent(f"win-{coup.banker_cards}")
    return BaccaratEvent.LOSE


def big_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.WIN, "five or six cards dealt", p.big),
        Event(BaccaratEvent.LOSE, "four cards dealt", _LOSE),
    )


def small_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.WIN, "four cards dealt", p.small),
        Event(BaccaratEvent.LOSE, "five or six cards dealt", _LOSE),
    )


def settle_big(coup: Coup) -> BaccaratEvent:
    return BaccaratEvent.WIN if coup.cards >= 5 else BaccaratEvent.LOSE


def settle_small(coup: Coup) -> BaccaratEvent:
    return BaccaratEvent.WIN if coup.cards == 4 else BaccaratEvent.LOSE


# -- Dragon Bonus -----------------------------------------------------------


def dragon_bonus_margins(payouts: BaccaratPayouts) -> tuple[int, ...]:
    """The non-natural winning margins the paytable pays, largest first."""
    return tuple(sorted((int(k) for k in payouts.dragon_bonus if k != "natural"), reverse=True))


def dragon_bonus_events(side: str, p: BaccaratPayouts) -> tuple[Event, ...]:
    """Dragon Bonus events for ``side``: natural win and tie, each paid margin, then losses."""
    name = side.capitalize()
    events = [
        Event(BaccaratEvent.NATURAL_WIN, f"{name} wins with a natural", p.dragon_bonus["natural"]),
        Event(BaccaratEvent.NATURAL_TIE, "natural tie (push)", _PUSH),
    ]
    for margin in dragon_bonus_margins(p):
        events.append(
            Event(
                BaccaratEvent(f"win-by-{margin}"),
                f"{name} wins by {margin}, no natural",
                p.dragon_bonus[str(margin)],
            )
        )
    paid = set(dragon_bonus_margins(p))
    unpaid = [m for m in range(1, 10) if m not in paid]
    if unpaid:
        events.append(
            Event(BaccaratEvent.WIN_SMALL, f"{name} wins by {_listed(unpaid)}, no natural", _LOSE)
        )
    events += [
        Event(BaccaratEvent.TIE, "tie, no natural", _LOSE),
        Event(BaccaratEvent.LOSE, f"{name} loses", _LOSE),
    ]
    return tuple(events)


def _listed(margins: list[int]) -> str:
    if margins == list(range(margins[0], margins[-1] + 1)) and len(margins) > 2:
        return f"{margins[0]}–{margins[-1]}"
    return ", ".join(map(str, margins))


def settle_dragon_bonus(
    side: str, coup: Coup, drawing: DrawingRules, payouts: BaccaratPayouts
) -> BaccaratEvent:
    """The Dragon Bonus event for a bet on ``side``."""
    natural = coup.natural(side, drawing)
    if coup.winner == "tie":
        return BaccaratEvent.NATURAL_TIE if natural else BaccaratEvent.TIE
    if coup.winner != side:
        return BaccaratEvent.LOSE
    if natural:
        return BaccaratEvent.NATURAL_WIN
    margin = coup.margin
    return (
        BaccaratEvent(f"win-by-{margin}")
        if str(margin) in payouts.dragon_bonus
        else BaccaratEvent.WIN_SMALL
    )


# -- Pairs (the first two cards of each hand) --------------------------------


def pair_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (Event(BaccaratEvent.WIN, "pair", p.pair), Event(BaccaratEvent.LOSE, "no pair", _LOSE))


def either_pair_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.BOTH, "both hands pair", p.either_pair),
        Event(BaccaratEvent.ONE, "one hand pairs", p.either_pair),
        Event(BaccaratEvent.LOSE, "neither hand pairs", _LOSE),
    )


def perfect_pair_events(p: BaccaratPayouts) -> tuple[Event, ...]:
    return (
        Event(BaccaratEvent.BOTH, "both hands perfect pairs", p.perfect_pair_both),
        Event(BaccaratEvent.ONE, "one hand a perfect pair", p.perfect_pair),
        Event(BaccaratEvent.LOSE, "no perfect pair", _LOSE),
    )


def is_pair(a: Card, b: Card) -> bool:
    """Two cards of one rank (K K is a pair; K Q is not, though both count 0)."""
    return a.rank == b.rank


def is_perfect_pair(a: Card, b: Card, rules: BaccaratRules) -> bool:
    """A perfect pair under the chosen reading: identical cards, or same rank and colour."""
    if a.rank != b.rank:
        return False
    if rules.perfect_pair == "identical":
        return a.suit == b.suit
    return colour(a.suit) == colour(b.suit)


def colour(suit: Suit) -> str:
    return "red" if suit in (Suit.DIAMONDS, Suit.HEARTS) else "black"


def settle_pairs(
    player: tuple[Card, Card], banker: tuple[Card, Card], rules: BaccaratRules
) -> dict[str, str]:
    """Events of the four pair bets from the first two cards of each hand."""
    p, b = is_pair(*player), is_pair(*banker)
    pp, bp = is_perfect_pair(*player, rules), is_perfect_pair(*banker, rules)
    return {
        "player-pair": BaccaratEvent.WIN if p else BaccaratEvent.LOSE,
        "banker-pair": BaccaratEvent.WIN if b else BaccaratEvent.LOSE,
        "either-pair": BaccaratEvent.BOTH
        if p and b
        else (BaccaratEvent.ONE if p or b else BaccaratEvent.LOSE),
        "perfect-pair": BaccaratEvent.BOTH
        if pp and bp
        else (BaccaratEvent.ONE if pp or bp else BaccaratEvent.LOSE),
    }
