"""Baccarat (punto banco) as a :class:`odds.games.base.Game`: analysis, settle, bench.

The rules are in :mod:`.rules` (docs/rules/baccarat.md), the paytable in
:mod:`.options`, the counting in :mod:`.analysis`, the report tables in
:mod:`.tables`, the per-state EV in :mod:`.state`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction

from odds.analysis import Analysis
from odds.cards import Card, hand_text, parse_cards
from odds.drawing import group_counts
from odds.errors import OddsError
from odds.games.baccarat import analysis as a
from odds.games.baccarat import rules as r
from odds.games.baccarat import tables as t
from odds.games.baccarat.options import SIDE_BETS, BaccaratConfig
from odds.games.base import BenchCase, Game, SettledBet, SettledHand, Settlement
from odds.numbers import payout_ratio
from odds.stats import Bet, Outcome

_MARGINS = {"natural", *(str(m) for m in range(1, 10))}


class Baccarat(Game[BaccaratConfig]):
    """Punto banco: Player and Banker hands of two or three cards, drawn by the tableau."""

    name = "baccarat"
    title = "Baccarat (punto banco, 8 decks)"
    config_type = BaccaratConfig
    positions = ("player", "banker")
    hand_size = 0  # hands of two or three cards (a drawing game)
    log_hand_sizes = (2, 3)
    max_round_cards = a.COUP_CARDS

    def validate(self, config: BaccaratConfig) -> None:
        r.DrawingRules.of(config.tableau)
        offered = config.bets.side_bets
        for bet in offered:
            if bet not in SIDE_BETS:
                raise OddsError(
                    f"bets.side_bets: unknown side bet {bet!r} (known: {', '.join(SIDE_BETS)})"
                )
        if len(set(offered)) != len(offered):
            raise OddsError("bets.side_bets: a side bet is listed twice")
        keys = set(config.payouts.dragon_bonus)
        unknown = sorted(keys - _MARGINS)
        if unknown:
            raise OddsError(
                f"payouts.dragon_bonus: {unknown[0]!r} is not 'natural' or a margin 1-9"
            )
        if "natural" not in keys:
            raise OddsError("payouts.dragon_bonus: the 'natural' entry (a natural win) is missing")
        config.shoe.build().require(a.COUP_CARDS)

    # -- analysis ---------------------------------------------------------

    def event_ways(self, config: BaccaratConfig) -> dict[str, dict[str, int]]:
        """Ordered ways (extended to six cards) of every event of every offered bet."""
        shoe = config.shoe.build()
        groups = a.TypeGroups.of(shoe.types, config.rules.perfect_pair)
        return a.coup_event_ways(config, shoe.counts, groups)

    def analyse(self, config: BaccaratConfig, paytable: str) -> Analysis:
        shoe = config.shoe.build()
        shoe.require(a.COUP_CARDS)
        drawing = r.DrawingRules.of(config.tableau)
        ways = self.event_ways(config)
        bets = tuple(_bet(spec, ways[spec.name], config) for spec in a.bet_specs(config))
        groups = a.TypeGroups.of(shoe.types, config.rules.perfect_pair)
        coups = a.coup_polynomial(drawing).ways(group_counts(shoe.counts, groups.value, a.VALUES))
        total = bets[0].stats.total
        return self.new_analysis(
            config,
            paytable,
            shoe=f"{shoe.description} ({shoe.size} cards)",
            deals=total,
            counting=_counting_text(shoe.size, total),
            bets=bets,
            tables=(t.tableau_table(drawing), t.results_table(coups), t.totals_table(coups)),
        )

    # -- one coup ---------------------------------------------------------

    def settle(
        self, config: BaccaratConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        player = _hand(hands, "player")
        banker = _hand(hands, "banker")
        config.shoe.build().check_holds(player + banker, "the Player's and Banker's cards")
        drawing = r.DrawingRules.of(config.tableau)
        dealt = replay_coup(player, banker, drawing)
        coup = dealt.coup
        events = settle_events(config, coup, player, banker)
        nets = a.event_nets(config)
        settled = []
        for spec in a.bet_specs(config):
            key = events[spec.name]
            event = next(e for e in spec.events if e.key == key)
            net = nets[spec.name][key]
            settled.append(
                SettledBet(
                    spec.name,
                    stake,
                    stake,
                    stake + net * stake,
                    f"{event.label}: {payout_ratio(net)}",
                    event.label,
                )
            )
        return Settlement(
            hands=(
                SettledHand(
                    "player",
                    hand_text(player),
                    f"{coup.player_total} ({coup.player_cards} cards); {dealt.player_reason}",
                    f"{coup.player_cards} cards, {coup.player_total}",
                ),
                SettledHand(
                    "banker",
                    hand_text(banker),
                    f"{coup.banker_total} ({coup.banker_cards} cards); {dealt.banker_reason}",
                    f"{coup.banker_cards} cards, {coup.banker_total}",
                ),
            ),
            bets=tuple(settled),
        )

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
        from odds.games.baccarat.bench import bench_cases

        return bench_cases(config)


def _bet(spec: a.BetSpec, ways: Mapping[str, int], config: BaccaratConfig) -> Bet:
    outcomes = tuple(
        Outcome(e.label, Fraction(e.net(config.payouts)), ways.get(e.key, 0)) for e in spec.events
    )
    return Bet(spec.name, spec.title, spec.description, outcomes)


def _counting_text(size: int, total: int) -> str:
    factors = " × ".join(str(size - i) for i in range(a.COUP_CARDS))
    return (
        "Ordered deals in dealing order (Player, Banker, Player, Banker, then the third cards "
        "the tableau calls for), with card removal. A coup takes four to six cards; each is "
        "extended by the next unseen cards to six, so every bet counts the same ordered "
        f"six-card sequences: {factors} = {total:,} (the convention of the published "
        "baccarat tables). The coup bets look only at card values (10, J, Q, K count 0); "
        "they are counted once per tableau as a polynomial in the ten value counts and "
        "evaluated for this shoe. The pair bets look only at the first two cards of each "
        "hand: by rank, and by rank and suit (or colour) for the perfect pair."
    )


def _hand(hands: Mapping[str, str], position: str) -> tuple[Card, ...]:
    text = hands.get(position)
    if not text:
        raise OddsError(f"missing the {position.capitalize()}'s cards (two or three, e.g. '9d 7c')")
    cards = parse_cards(text)
    if len(cards) not in (2, 3):
        raise OddsError(
            f"the {position.capitalize()}'s hand must be two or three cards, got {len(cards)}: "
            f"{text!r}"
        )
    return cards


def replay_coup(
    player: tuple[Card, ...], banker: tuple[Card, ...], drawing: r.DrawingRules
) -> r.DealtCoup:
    """Deal the given hands in dealing order by the tableau; refuse hands it could not produce."""
    given = {"player": list(player), "banker": list(banker)}
    used = {"player": 0, "banker": 0}

    def draw(hand: str) -> int:
        if used[hand] == len(given[hand]):
            raise _MissingCard(hand)
        used[hand] += 1
        return r.card_value(given[hand][used[hand] - 1].rank)

    try:
        dealt = r.deal_coup(draw, drawing)
    except _MissingCard as missing:
        hand = missing.hand
        name = hand.capitalize()
        raise OddsError(
            f"the {name} must have a third card ({_draw_reason(player, banker, hand)}), "
            f"but the {name}'s hand has two cards"
        ) from None
    for hand in ("player", "banker"):
        if used[hand] < len(given[hand]):
            reason = dealt.player_reason if hand == "player" else dealt.banker_reason
            raise OddsError(
                f"the {hand.capitalize()} cannot have a third card ({given[hand][-1]}): {reason}"
            )
    return dealt


class _MissingCard(Exception):
    """The tableau asked for a card the given hand does not have."""

    def __init__(self, hand: str) -> None:
        super().__init__(hand)
        self.hand = hand


def _draw_reason(player: tuple[Card, ...], banker: tuple[Card, ...], hand: str) -> str:
    """Why ``hand`` must draw, for the error message."""
    pt = r.hand_total([r.card_value(c.rank) for c in player[:2]])
    bt = r.hand_total([r.card_value(c.rank) for c in banker[:2]])
    if hand == "player":
        return f"Player draws on {pt}"
    third = r.card_value(player[2].rank) if len(player) == 3 else None
    return r.banker_reason_text(True, bt, third)


def settle_events(
    config: BaccaratConfig, coup: r.Coup, player: tuple[Card, ...], banker: tuple[Card, ...]
) -> dict[str, str]:
    """The event key of every offered bet for one dealt coup."""
    specs = a.bet_specs(config)
    pairs = r.settle_pairs((player[0], player[1]), (banker[0], banker[1]), config.rules)
    return {
        spec.name: spec.settle(coup) if spec.settle is not None else pairs[spec.name]
        for spec in specs
    }
