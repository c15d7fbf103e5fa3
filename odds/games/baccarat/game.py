"""The baccarat game: schema, analysis, one-coup settlement, dealing and bench, wired together."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from odds.core.cards import Card, hand_text
from odds.core.errors import PositionError
from odds.core.settlement import SettledHand, Settlement
from odds.games.baccarat import bench, counting
from odds.games.baccarat import rules as r
from odds.games.baccarat.bets import bet_specs, check_paytable
from odds.games.baccarat.options import SIDE_BETS, BaccaratConfig
from odds.games.baccarat.shoe_state import BaccaratShoeState
from odds.games.base import BenchCase, Game, HandKey
from odds.games.events import by_key, reason, settled_bet
from odds.stats.analysis import Analysis


class Baccarat(Game[BaccaratConfig]):
    """Punto banco: Player and Banker hands of two or three cards, drawn by the tableau."""

    name = "baccarat"
    title = "Baccarat (punto banco, 8 decks)"
    config_type = BaccaratConfig
    positions = ("player", "banker")
    bet_names = ("banker", "player", "tie", *SIDE_BETS)
    shoe_state = BaccaratShoeState()
    hand_size = 0  # two or three cards: the tableau draws
    hand_example = "two or three cards, e.g. '9d 7c'"
    log_hand_sizes = (2, 3)
    max_round_cards = counting.COUP_CARDS

    def validate(self, config: BaccaratConfig) -> None:
        check_paytable(config)
        config.shoe.build().require(counting.COUP_CARDS)

    def analyse(self, config: BaccaratConfig, paytable: str) -> Analysis:
        return counting.analyse(self, config, paytable)

    def settle(
        self, config: BaccaratConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        player = self._hand(config, hands, "player")
        banker = self._hand(config, hands, "banker")
        config.shoe.build().check_holds(player + banker, "the Player's and Banker's cards")
        dealt = r.replay_coup(player, banker, r.DrawingRules.of(config.tableau))
        coup = dealt.coup
        pairs = r.settle_pairs((player[0], player[1]), (banker[0], banker[1]), config.rules)
        settled = []
        for spec in bet_specs(config):
            key = spec.settle(coup) if spec.settle is not None else pairs[spec.name]
            event = by_key(spec.events)[key]
            settled.append(settled_bet(spec.name, event, stake, stake, reason(event)))
        return Settlement(
            hands=(
                _settled_hand("player", player, coup.player_total, dealt.player_reason),
                _settled_hand("banker", banker, coup.banker_total, dealt.banker_reason),
            ),
            bets=tuple(settled),
        )

    def _hand(
        self, config: BaccaratConfig, hands: Mapping[str, str], position: str
    ) -> tuple[Card, ...]:
        cards = self.read_hand(config, hands, position)
        if len(cards) not in self.log_hand_sizes:
            raise PositionError(
                position,
                f"{{position}} must be two or three cards, got {len(cards)}: {hands[position]!r}",
            )
        return cards

    def hand_keys(self, config: BaccaratConfig) -> Callable[[tuple[Card, ...]], HandKey]:
        """A hand as a coup's settlement sees it (``odds audit`` groups logged hands by it).

        The two-card total, the third card's value (or none), and what kind of
        pair the first two cards are (none, a pair, a same-colour pair, two
        identical cards): the tableau, every bet and the hand's class depend on
        nothing else. Order matters: the third card is the last one written.
        """

        def key(cards: tuple[Card, ...]) -> HandKey:
            total = r.hand_total([r.card_value(c.rank) for c in cards[:2]])
            third = r.card_value(cards[2].rank) if len(cards) > 2 else None
            a, b = cards[0], cards[1]
            pair = 0
            if a.rank == b.rank:
                pair = 3 if a.suit == b.suit else (2 if r.colour(a.suit) == r.colour(b.suit) else 1)
            return HandKey((total, third, pair))

        return key

    def deal_round(
        self, config: BaccaratConfig, draw: Callable[[], Card]
    ) -> dict[str, tuple[Card, ...]]:
        """One coup dealt from ``draw`` by the tableau (``odds simulate``)."""
        hands: dict[str, list[Card]] = {"player": [], "banker": []}

        def next_value(hand: str) -> int:
            card = draw()
            hands[hand].append(card)
            return r.card_value(card.rank)

        r.deal_coup(next_value, r.DrawingRules.of(config.tableau))
        return {hand: tuple(cards) for hand, cards in hands.items()}

    def bench_cases(self, config: BaccaratConfig) -> list[BenchCase]:
        return bench.bench_cases(config)


def _settled_hand(position: str, cards: tuple[Card, ...], total: int, why: str) -> SettledHand:
    return SettledHand(
        position,
        hand_text(cards),
        f"{total} ({len(cards)} cards); {why}",
        f"{len(cards)} cards, {total}",
    )
