"""Mahjong 2-8 tiles ("Er Ba Gang", RULES.md §1): the game, its report and settlement.

The rules (options, ranking, bet events) are in :mod:`odds.games.mahjong.rules`;
the counting is :mod:`odds.engine`'s. This module asks the engine for

* the joint distribution of (position's hand, banker's hand) with tile
  removal, settled into every bet's outcome table;
* the joint of the banker and *two* positions (``sequential_distribution``),
  which by exchangeability gives the correlation between any two positions and
  so the exact EV and SD of the same bet on every position;

and lays the results out as report tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from odds.analysis import Analysis
from odds.bruteforce import brute_force, ordering_factor
from odds.engine import (
    Hand,
    class_distribution,
    deal_count,
    joint_class_distribution,
    sequential_distribution,
    settle_distribution,
)
from odds.engine import hands as engine_hands
from odds.errors import OddsError
from odds.games.base import BenchCase, Game
from odds.games.mahjong.rules import (
    BetRule,
    HandInfo,
    MahjongConfig,
    MahjongRules,
    Ranking,
    Result,
    bet_rules,
    check_config,
    points_text,
    result,
    showdown,
)
from odds.games.mahjong.shoe_state import MahjongShoeState
from odds.numbers import fraction_text, payout_ratio, percent
from odds.settlement import SettledBet, SettledHand, Settlement
from odds.shoe import Shoe
from odds.stats import Bet, BetStats, Outcome, sqrt_decimal
from odds.table import legacy_table as Table
from odds.tiles import Tile, parse_tiles, tiles_text


class Mahjong28(Game[MahjongConfig]):
    """Mahjong 2-8 tiles: two tiles each, every position against the banker on its own."""

    name = "mahjong-28"
    title = "Mahjong 2-8 tiles"
    config_type = MahjongConfig
    positions = ("banker", "player")
    bet_names = ("player-wins", "player-loses", "tie", "pair", "banker")
    hand_size = 2
    hand_example = "two tiles, e.g. '4 2' or 'W 9'"
    decks_path = None
    no_decks_reason = (
        "is played with tiles and has no decks: the tile set is [tiles] copies "
        "(e.g. --set 'tiles.copies={W = 0}')"
    )
    shoe_state = MahjongShoeState()

    def validate(self, config: MahjongConfig) -> None:
        check_config(config)

    def shoe(self, config: MahjongConfig) -> Shoe[Tile]:
        """The tile set (the ``[tiles]`` section), for tools that deal or read rounds."""
        return config.tiles.build()

    def parse_hand(self, config: MahjongConfig, text: str) -> tuple[Tile, ...]:
        """Tiles as written in a log (``4 2``, ``W9``, ``🀆 🀡``)."""
        return parse_tiles(text, config.tiles.build())

    # -- counting ---------------------------------------------------------

    @staticmethod
    def hand_infos(config: MahjongConfig, shoe: Shoe[Tile]) -> dict[Hand, HandInfo]:
        """Every two-tile hand of the set (type indices) with its value."""
        ranking = Ranking(config.tiles, config.rules, shoe)
        types = shoe.types
        return {
            (i, j): ranking.hand(types[i], types[j])
            for i in range(len(types))
            for j in range(i, len(types))
        }

    def event_ways(self, config: MahjongConfig, shoe: Shoe[Tile]) -> dict[str, dict[str, int]]:
        """Exact ways per bet and event key: the position's hand, then the banker's.

        Every bet is counted over the same deals (position and banker), so all
        outcome tables share one total.
        """
        infos = self.hand_infos(config, shoe)
        # Classes are the hands' positions in ``infos`` (small integers hash fast).
        index = {hand: i for i, hand in enumerate(infos)}
        values = list(infos.values())
        joint = joint_class_distribution(shoe.counts, 2, index.__getitem__)
        outcomes = settle_distribution(
            joint, lambda pb: result(values[pb[0]], values[pb[1]], config.rules)
        )
        return {bet.name: settle_distribution(outcomes, bet.settle) for bet in bet_rules(config)}

    def brute_event_ways(
        self, config: MahjongConfig, shoe: Shoe[Tile]
    ) -> dict[str, dict[str, int]]:
        """The same table by the plain enumerator (ordered tiles), scaled to unordered ways."""
        ranking = Ranking(config.tiles, config.rules, shoe)
        types = shoe.types
        bets = bet_rules(config)

        def settle(deal: tuple[Hand, ...]) -> dict[str, str]:
            player = ranking.hand(types[deal[0][0]], types[deal[0][1]])
            banker = ranking.hand(types[deal[1][0]], types[deal[1][1]])
            outcome = result(player, banker, config.rules)
            return {bet.name: bet.settle(outcome) for bet in bets}

        factor = ordering_factor((2, 2))
        found = brute_force(shoe.counts, (2, 2), settle)
        return {bet: {e: w // factor for e, w in ev.items()} for bet, ev in found.items()}

    def pair_results(
        self, config: MahjongConfig, shoe: Shoe[Tile]
    ) -> dict[tuple[Result, ...], int]:
        """Ways per (sorted) pair of position results: the banker and two positions.

        Counted by :func:`odds.engine.sequential_distribution` (banker first,
        then two positions, tiles removed as they are dealt).
        """
        infos = self.hand_infos(config, shoe)
        hands_ = list(infos)
        index = {hand: i for i, hand in enumerate(hands_)}
        # Results interned as small integers: the fold runs ~10^5 times.
        distinct: dict[Result, int] = {}
        table = [
            [
                distinct.setdefault(result(infos[p], infos[b], config.rules), len(distinct))
                for b in hands_
            ]
            for p in hands_
        ]

        def fold(state: Any, hand: int) -> Any:
            if state is None:
                return (hand,)
            if len(state) == 1:
                return (state[0], table[hand][state[0]])
            return tuple(sorted((state[1], table[hand][state[0]])))

        ways = sequential_distribution(shoe.counts, 2, 3, index.__getitem__, fold, None)
        named = list(distinct)
        found: dict[tuple[Result, ...], int] = {}
        for (a, b), w in ways.items():
            key = tuple(sorted((named[a], named[b])))
            found[key] = found.get(key, 0) + w
        return found

    def brute_pair_results(
        self, config: MahjongConfig, shoe: Shoe[Tile]
    ) -> dict[tuple[Result, ...], int]:
        """The banker-and-two-positions table by the plain enumerator."""
        ranking = Ranking(config.tiles, config.rules, shoe)
        types = shoe.types

        def settle(deal: tuple[Hand, ...]) -> dict[str, Any]:
            banker, one, two = (ranking.hand(types[h[0]], types[h[1]]) for h in deal)
            results = sorted((result(one, banker, config.rules), result(two, banker, config.rules)))
            return {"pair": tuple(results)}

        factor = ordering_factor((2, 2, 2))
        found = brute_force(shoe.counts, (2, 2, 2), settle)["pair"]
        return {key: ways // factor for key, ways in found.items()}

    # -- analysis ---------------------------------------------------------

    def analyse(self, config: MahjongConfig, paytable: str) -> Analysis:
        shoe = check_config(config)
        rules_ = bet_rules(config)
        ways = self.event_ways(config, shoe)
        bets = tuple(_bet(rule, ways[rule.name], config) for rule in rules_)
        deals = deal_count(shoe.counts, (2, 2))
        infos = self.hand_infos(config, shoe)
        labels = class_distribution(shoe.counts, 2, lambda h: infos[h].label)
        tables = [
            _hierarchy_table(shoe, infos, config.rules),
            _fair_table(rules_, bets),
        ]
        if shoe.size >= 6:  # a banker and two positions can be dealt
            positions = _positions_table(
                self.pair_results(config, shoe), rules_, bets, config.rules.positions
            )
            tables.append(positions)
        ordered = [info.label for info in sorted(set(infos.values()), key=_order_key)]
        hand_classes = {label: labels[label] for label in dict.fromkeys(ordered) if label in labels}
        hands = deal_count(shoe.counts, (2,))
        return self.new_analysis(
            config,
            paytable,
            shoe=shoe.description,
            deals=deals,
            counting=(
                "Unordered hands dealt one after the other with tile removal: a position's "
                f"two tiles, then the banker's, from {shoe.size} tiles: C({shoe.size},2) × "
                f"C({shoe.size - 2},2) = {deals:,} deals; every bet is counted over these "
                f"deals. The hierarchy table counts one hand: C({shoe.size},2) = {hands:,}. "
                "Other positions' tiles are unseen, so by exchangeability they change "
                "nothing for one position; the several-positions table deals the banker "
                "and two positions together."
            ),
            bets=bets,
            tables=tuple(tables),
            hand_classes=hand_classes,
        )

    # -- one round --------------------------------------------------------

    def settle(
        self, config: MahjongConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        shoe = check_config(config)
        banker_tiles = _two_tiles(hands, "banker", shoe)
        player_tiles = _two_tiles(hands, "player", shoe)
        shoe.check_holds(banker_tiles + player_tiles, "the banker's and player's tiles")
        ranking = Ranking(config.tiles, config.rules, shoe)
        banker, player = ranking.hand(*banker_tiles), ranking.hand(*player_tiles)
        outcome = result(player, banker, config.rules)
        why = explain(player, banker, config.rules)
        settled = []
        for rule in bet_rules(config):
            event = rule.event(rule.settle(outcome))
            debited = stake * _debited(rule, config)
            if rule.name == "tie":
                same = "identical" if outcome.identical else "different"
                reason = f"banker {banker.text} and player {player.text}: {same} tiles"
            elif rule.name == "pair":
                reason = f"player {player.text} is {'a pair' if player.is_pair else 'not a pair'}"
            else:
                reason = f"{why} ({event.label})"
            paid = payout_ratio(event.net)
            if 0 < event.net != rule.payout:
                paid += f" ({points_text(rule.payout)}:1 less commission)"
            settled.append(
                SettledBet(
                    rule.name,
                    stake,
                    debited,
                    debited + event.net * stake,
                    f"{reason}: {paid}",
                    event.label,
                )
            )
        return Settlement(
            hands=(
                SettledHand("banker", tiles_text(banker_tiles), banker.description, banker.label),
                SettledHand("player", tiles_text(player_tiles), player.description, player.label),
            ),
            bets=tuple(settled),
        )

    def bench_cases(self, config: MahjongConfig) -> list[BenchCase]:
        shoe = check_config(config)
        return [
            BenchCase(
                f"Mahjong 2-8, one position, every bet, {shoe.size} tiles",
                lambda: _probabilities(self.event_ways(config, shoe)),
                lambda: _probabilities(self.brute_event_ways(config, shoe)),
            ),
            BenchCase(
                f"Mahjong 2-8, banker and two positions, {shoe.size} tiles",
                lambda: _probabilities({"pairs": self.pair_results(config, shoe)}),
                lambda: _probabilities({"pairs": self.brute_pair_results(config, shoe)}),
            ),
        ]


# ---------------------------------------------------------------------------
# Helpers


def explain(player: HandInfo, banker: HandInfo, rules: MahjongRules) -> str:
    """Why the showdown went as it did, in the rule book's words."""
    outcome = showdown(player, banker, rules)
    if outcome in ("win", "lose"):
        who, winner, loser = (
            ("player", player, banker) if outcome == "win" else ("banker", banker, player)
        )
        if winner.category != loser.category:
            return f"{who}'s {winner.description} outranks {loser.description}"
        if winner.category == "pair":
            return f"{who}'s pair {winner.text} outranks pair {loser.text} (pair order)"
        if winner.points != loser.points:
            return f"{who}'s {winner.description} beats {loser.description}"
        which = 0 if winner.tiles[0] != loser.tiles[0] else 1
        tile = "higher tile" if which == 0 else "higher second tile"
        return (
            f"both {winner.label}; {who}'s {winner.text} holds the {tile} "
            f"({winner.tiles[which]} over {loser.tiles[which]})"
        )
    if player.tiles == banker.tiles:
        text = f"identical tiles {player.text}: a tie"
        if rules.exact_tie_to_banker:
            return text + ", and exact ties go to the banker"
    else:
        text = f"both 0 points ({player.text}, {banker.text}) and all 0-point hands are equal"
    if outcome == "tie-banker":
        return text + ", and ties between 0-point hands go to the banker"
    return text


def _order_key(info: HandInfo) -> tuple[Any, ...]:
    """Strongest first; within equal strength by tiles (deterministic)."""
    return (_neg(info.strength), info.tiles)


def _neg(strength: tuple[object, ...]) -> tuple[object, ...]:
    return tuple(-x for x in strength)  # type: ignore[operator]


def _debited(rule: BetRule, config: MahjongConfig) -> Fraction:
    """Per unit: the banker's side risks the Player wins payout; other bets risk 1."""
    if rule.name == "banker":
        return max(Fraction(1), config.payouts.player_wins)
    return Fraction(1)


def _bet(rule: BetRule, ways: Mapping[str, int], config: MahjongConfig) -> Bet:
    outcomes = tuple(Outcome(e.label, e.net, ways.get(e.key, 0)) for e in rule.events)
    return Bet(
        rule.name,
        rule.title,
        rule.description,
        outcomes,
        withholding=_debited(rule, config) - 1,
    )


def _hierarchy_table(
    shoe: Shoe[Tile], infos: Mapping[Hand, HandInfo], rules: MahjongRules
) -> Table:
    """The tile hierarchy: every hand, its rank (1 = highest), ways and probability."""
    total = deal_count(shoe.counts, (2,))
    weights = dict(engine_hands(shoe.counts, 2))
    present = sorted(
        ((infos[hand], w) for hand, w in weights.items() if w), key=lambda iw: _order_key(iw[0])
    )
    rows, json_rows = [], []
    rank, previous = 0, None
    for info, w in present:
        if info.strength != previous:
            rank, previous = rank + 1, info.strength
        shown = points_text(info.points) if info.category == "points" else ""
        rows.append((rank, info.text, info.label, shown, w, Fraction(w, total)))
        json_rows.append(
            {
                "rank": rank,
                "hand": info.text,
                "class": info.label,
                "category": info.category,
                "points": fraction_text(info.points),
                "ways": w,
                "probability": fraction_text(Fraction(w, total)),
            }
        )
    rows.append(("", "Total", "", "", total, Fraction(1)))
    zero = "all equal" if rules.zero_points == "equal" else "ranked by the higher tile"
    return Table(
        key="hierarchy",
        title="Tile hierarchy (one two-tile hand)",
        headers=("rank", "hand", "class", "points", "ways", "probability"),
        rows=tuple(rows),
        note=(
            "Rank 1 is the highest hand; equal ranks are equal hands. Pairs beat every "
            f"non-pair{', then the 2-8 Kong' if rules.two_eight_special else ''}, then "
            f"points; 0-point hands are {zero}. Ways are per one hand of two tiles."
        ),
        json=json_rows,
    )


def _fair_table(rules_: tuple[BetRule, ...], bets: tuple[Bet, ...]) -> Table:
    """For Tie and Pair: the payout that would make the bet's EV zero."""
    rows, json_rows = [], []
    for rule, bet in zip(rules_, bets, strict=True):
        if bet.name not in ("tie", "pair"):
            continue
        win = bet.outcomes[0]
        p = Fraction(win.ways, bet.stats.total)
        # Commission scales the win: the fair stated payout keeps the same share.
        share = win.net / rule.payout
        fair = (1 - p) / (p * share)
        rows.append(
            (
                bet.title,
                f"{points_text(rule.payout)}:1",
                p,
                fraction_text(fair),
                fair,
                percent(bet.stats.house_edge, 4),
            )
        )
        json_rows.append(
            {
                "bet": bet.name,
                "pays": fraction_text(rule.payout),
                "win_probability": fraction_text(p),
                "fair_payout": fraction_text(fair),
                "house_edge": fraction_text(bet.stats.house_edge),
            }
        )
    return Table(
        key="fair_payouts",
        title="Fair payouts (Tie and Pair)",
        headers=(
            "bet",
            "pays",
            "win probability",
            "fair payout (to 1, exact)",
            "fair payout",
            "house edge",
        ),
        rows=tuple(rows),
        note="The fair payout makes the bet's EV exactly 0 (before commission, when the bet "
        "pays one): fair = (1 − p) / (p · (1 − commission)).",
        json=json_rows,
    )


def _positions_table(
    pairs: Mapping[tuple[Result, ...], int],
    rules_: tuple[BetRule, ...],
    bets: tuple[Bet, ...],
    k: int,
) -> Table:
    """Correlation between two positions and the same bet on all ``k`` positions."""
    total = sum(pairs.values())
    rows, json_rows = [], []
    for rule, bet in zip(rules_, bets, strict=True):
        net = {e.key: e.net for e in rule.events}

        def value(r: Result, rule: BetRule = rule, net: dict = net) -> Fraction:
            return net[rule.settle(r)]

        mean = Fraction(sum(w * (value(a) + value(b)) for (a, b), w in pairs.items()), 2 * total)
        stats: BetStats = bet.stats
        if mean != stats.ev:
            raise AssertionError(f"{bet.name}: positions' marginal EV differs from the bet's")
        product = Fraction(sum(w * value(a) * value(b) for (a, b), w in pairs.items()), total)
        covariance = product - mean * mean
        correlation = covariance / stats.variance if stats.variance else Fraction(0)
        variance_k = k * stats.variance + k * (k - 1) * covariance
        rows.append(
            (
                bet.title,
                correlation,
                k * stats.ev,
                Fraction(sqrt_decimal(variance_k)),
                Fraction(sqrt_decimal(k * stats.variance)),
            )
        )
        json_rows.append(
            {
                "bet": bet.name,
                "positions": k,
                "covariance": fraction_text(covariance),
                "correlation": fraction_text(correlation),
                "ev_all_positions": fraction_text(k * stats.ev),
                "variance_all_positions": fraction_text(variance_k),
            }
        )
    return Table(
        key="positions",
        title=f"Several positions ({k} player positions, one banker)",
        headers=(
            "bet",
            "correlation between two positions",
            f"EV, same bet on all {k}",
            f"SD, same bet on all {k}",
            "SD if independent",
        ),
        rows=tuple(rows),
        note=(
            "Positions share the banker's hand and the tiles, so their results are "
            "correlated. The banker and two positions are dealt together with tile removal "
            f"(C·C·C = {total:,} deals); by exchangeability every pair of positions has this "
            f"joint, so with stake 1 on each of {k} positions the total has EV k·EV and "
            "variance k·Var + k(k−1)·Cov exactly. The banker's side is the banker against "
            "every position staking 1 on Player wins."
        ),
        json=json_rows,
    )


def _two_tiles(hands: Mapping[str, str], position: str, shoe: Shoe[Tile]) -> tuple[Tile, Tile]:
    text = hands.get(position)
    if not text:
        raise OddsError(f"missing --{position} (two tiles, e.g. '4 2' or 'W 9')")
    tiles = parse_tiles(text, shoe)
    if len(tiles) != 2:
        raise OddsError(f"--{position} must be two tiles, got {len(tiles)}: {text!r}")
    return tiles[0], tiles[1]


def _probabilities(ways: Mapping[str, Mapping[Any, int]]) -> dict[str, dict[Any, Fraction]]:
    result_: dict[str, dict[Any, Fraction]] = {}
    for bet, events in ways.items():
        total = sum(events.values())
        result_[bet] = {event: Fraction(w, total) for event, w in events.items() if w}
    return result_
