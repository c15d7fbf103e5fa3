"""Pok Deng's report tables (beside the bets' outcome tables every report has)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from odds.core.numbers import fraction_text, short_number
from odds.core.table import Column, Kind, Table
from odds.games.pok_deng.options import PokDengPayouts
from odds.games.pok_deng.positions import WholeTable, event_net
from odds.games.pok_deng.rules import PokDengHand, class_label
from odds.games.pok_deng.simulate import Z_LIMIT
from odds.games.pok_deng.stakes import PAIR, PLAYER, Stakes
from odds.games.pok_deng.table_hands import TABLE_POSITIONS
from odds.stats.bets import sqrt_decimal, volatility_index
from odds.stats.chisquare import MERGE_RULE, Cell, goodness_of_fit


def hand_class_table(distribution: Mapping[PokDengHand, int], payouts: PokDengPayouts) -> Table:
    """Ways per hand value and special pattern of one two-card hand, strongest first."""
    total = sum(distribution.values())
    merged: dict[tuple[int, bool], int] = {}
    for hand, ways in distribution.items():
        key = (hand.tenths, hand.special)
        merged[key] = merged.get(key, 0) + ways
    rows = []
    for (tenths, special), ways in sorted(merged.items(), reverse=True):
        sample = PokDengHand(tenths, 0, special, False)
        rows.append(
            {
                "name": class_label(sample),
                "value": sample.value_text,
                "special_pattern": special,
                "ways": ways,
                "probability": Fraction(ways, total),
            }
        )
    return Table(
        key="hand_classes",
        title="Hand classes (one two-card hand)",
        columns=(
            Column("name", "hand"),
            Column("value", "value"),
            Column("special_pattern", "special pattern", Kind.FLAG),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"name": "Total", "ways": total, "probability": Fraction(1)},
        note="Special pattern: a flush, a pair, or a 7.1–7.5 combination (pays "
        f"{short_number(payouts.player_win_special)}:1 when it wins, costs "
        f"{short_number(payouts.player_lose_special)} when the Banker holds it).",
    )


def withheld(amount: Fraction) -> str:
    """What a bet debits beyond the stake: ``1 more withheld (debited 2)``."""
    if not amount:
        return "nothing more withheld"
    return f"{short_number(amount)} more withheld (debited {short_number(1 + amount)})"


# ---------------------------------------------------------------------------
# The whole table: five positions and the Pair on the same hand


def whole_table_tables(table: WholeTable) -> tuple[Table, ...]:
    """The report's "Whole table" tables, JSON under ``positions``."""
    tables = [
        combined_table(table),
        combined_stats_table(table),
        correlation_table(table),
        several_positions_table(table),
        two_player_totals_table(table),
        pairs_table(table),
        five_player_totals_table(table),
    ]
    if table.counts.simulation is not None:
        tables.append(simulation_table(table))
    return tuple(tables)


def _stakes_key(stakes: Stakes) -> str:
    return f"player={fraction_text(stakes.player)},player-pair={fraction_text(stakes.pair)}"


def combined_table(table: WholeTable) -> Table:
    """Ways per (Player event, Pair event) of one hand, with the round's net at each stakes."""
    rows = table.combined
    total = sum(row.ways for row in rows)
    records = []
    for row in rows:
        record: dict[str, Any] = {
            "player": row.player.label,
            "pair": row.pair.label,
            "player_net": row.player.net,
            "pair_net": row.pair.net,
            "ways": row.ways,
            "probability": Fraction(row.ways, total),
        }
        for stakes in table.stakes:
            record[f"shown.{_stakes_key(stakes)}"] = short_number(row.net(stakes))
            record[f"net.{_stakes_key(stakes)}"] = row.net(stakes)
        records.append(record)
    totals: dict[str, Any] = {"player": "Total", "ways": total, "probability": Fraction(1)}
    for stakes, bet in zip(table.stakes, table.combined_bets(), strict=True):
        totals[f"shown.{_stakes_key(stakes)}"] = short_number(bet.stats.ev * stakes.staked)
    columns = [
        Column("player", "Player N"),
        Column("pair", "Player N Pair"),
        Column("player_net", "Player pays", Kind.NET),
        Column("pair_net", "Pair pays", Kind.NET),
        Column("ways", "ways", Kind.WAYS),
        Column("probability", "probability", Kind.PROBABILITY),
    ]
    for stakes in table.stakes:
        key = _stakes_key(stakes)
        columns.append(Column(f"shown.{key}", f"net, {stakes.text}", json=False))
        columns.append(Column(f"net.{key}", key, Kind.EXACT, markdown=False))
    return Table(
        key="positions.combined",
        title="Whole table: Player N and Player N Pair on one hand",
        columns=tuple(columns),
        rows=tuple(records),
        total=totals,
        note=(
            "Both bets on the same two cards, against the Banker's: the deals of the "
            f"single-bet tables ({total:,}). A net column is the round's net for the stakes "
            "shown (per position); its total is the EV per round, exactly the stakes times "
            "each bet's EV added up. The paytable's stakes are one unit on each bet; "
            "`odds report pok-deng --stakes player=1,player-pair=0.2` adds another ratio."
        ),
    )


def combined_stats_table(table: WholeTable) -> Table:
    """EV, house edge, SD, hit frequency and VI of Player N + Player N Pair, per stake setting."""
    records = []
    moments = table.moments
    for stakes, bet in zip(table.stakes, table.combined_bets(), strict=True):
        s = bet.stats
        per_round = stakes.player * moments.mean[PLAYER] + stakes.pair * moments.mean[PAIR]
        if s.ev * stakes.staked != per_round:
            raise AssertionError("the combined bet's EV is not the sum of the bets' EVs")
        records.append(
            {
                "stakes": stakes.text,
                "staked": stakes.staked,
                "debited": stakes.staked * bet.debited,
                "ev_per_round": s.ev * stakes.staked,
                "ev": s.ev,
                "house_edge": s.house_edge,
                "rtp_debited": s.rtp_debited,
                "hit_frequency": s.hit_frequency,
                "push_probability": s.push_probability,
                "variance": s.variance,
                "sd": s.sd,
                "volatility_index": volatility_index(s),
            }
        )
    return Table(
        key="positions.combined_stats",
        title="Whole table: Player N and Player N Pair together, statistics",
        columns=(
            Column("stakes", "stakes (one position)"),
            Column("staked", "staked", Kind.NUMBER),
            Column("debited", "debited", Kind.NUMBER),
            Column("ev_per_round", "EV per round (exact)", Kind.EXACT),
            Column("ev", "EV per unit staked", Kind.EXACT, markdown=False),
            Column("house_edge", "house edge", Kind.PERCENT),
            Column("rtp_debited", "RTP per debited", Kind.PERCENT),
            Column("hit_frequency", "hit frequency", Kind.PERCENT),
            Column("push_probability", "push", Kind.PERCENT, markdown=False),
            Column("variance", "variance per unit staked", Kind.EXACT, markdown=False),
            Column("sd", "SD per unit staked", Kind.APPROXIMATE),
            Column("volatility_index", "VI (90%)", Kind.APPROXIMATE),
        ),
        rows=tuple(records),
        note=(
            "One round's net divided by the total staked is the combined bet's result per "
            "unit staked; house edge, SD and VI are per unit staked, the debited amount "
            "includes the Player bet's withholding. A hit is a round with a net win on the "
            "two bets together. The SD is exact (the square root of an exact variance)."
        ),
    )


_PAIRS_OF_BETS = (
    ("Player N", "Player M", PLAYER, PLAYER, False),
    ("Player N Pair", "Player M Pair", PAIR, PAIR, False),
    ("Player N", "Player N Pair", PLAYER, PAIR, True),
    ("Player N", "Player M Pair", PLAYER, PAIR, False),
)


def correlation_table(table: WholeTable) -> Table:
    """Covariance and correlation of two bets on one hand or on two positions."""
    moments = table.moments
    records = [
        {
            "first": first,
            "second": second,
            "first_bet": a,
            "second_bet": b,
            "same_hand": same,
            "covariance": moments.covariance(a, b, same),
            "correlation": moments.correlation(a, b, same),
        }
        for first, second, a, b, same in _PAIRS_OF_BETS
    ]
    deals = sum(table.counts.two_positions.values())
    n = table.shoe.size
    return Table(
        key="positions.correlations",
        title="Whole table: two bets on one hand or on two positions",
        columns=(
            Column("first", "bet"),
            Column("second", "with bet"),
            Column("first_bet", "first", markdown=False),
            Column("second_bet", "second", markdown=False),
            Column("same_hand", "same hand", Kind.FLAG),
            Column("covariance", "covariance", Kind.PROBABILITY, places=9),
            Column("correlation", "correlation", Kind.APPROXIMATE, places=9),
        ),
        rows=tuple(records),
        note=(
            "N and M are two different positions. The Banker and two positions are dealt "
            f"together with card removal: C({n},2) × C({n - 2},2) × C({n - 4},2) = "
            f"{deals:,} deals, counted exactly by the engine's three-hand joint; each "
            "position's marginal equals the single-bet table exactly (asserted). By "
            "exchangeability every pair of positions has this joint, whatever the dealing "
            "order, so it gives the exact EV and variance of any set of bets on any set of "
            "positions. Covariances are exact (JSON: fractions), per unit on each bet."
        ),
    )


def several_positions_table(table: WholeTable) -> Table:
    """The same bets on 1 … 5 positions: exact EV and SD, and the SD if they were independent."""
    records = [
        {
            "bets": chosen.label,
            "positions": chosen.positions,
            "player_stake": chosen.stakes.player,
            "pair_stake": chosen.stakes.pair,
            "ev": chosen.ev,
            "variance": chosen.variance,
            "sd": sqrt_decimal(chosen.variance),
            "sd_independent": sqrt_decimal(chosen.variance_if_independent),
        }
        for chosen in table.selections()
    ]
    return Table(
        key="positions.several",
        title="Whole table: the same bets on 1 to 5 positions",
        columns=(
            Column("bets", "bets on each position"),
            Column("positions", "positions", Kind.WAYS),
            Column("player_stake", "Player stake", Kind.EXACT, markdown=False),
            Column("pair_stake", "Pair stake", Kind.EXACT, markdown=False),
            Column("ev", "EV per round (exact)", Kind.EXACT),
            Column("variance", "variance per round", Kind.EXACT, markdown=False),
            Column("sd", "SD per round", Kind.APPROXIMATE),
            Column("sd_independent", "SD if independent", Kind.APPROXIMATE),
        ),
        rows=tuple(records),
        note=(
            "Per round, for the stakes named on each of k positions. EV = k times one "
            "position's EV; Var = Σ Var + 2 Σ Cov over every pair of bets (same hand or two "
            "positions), all from the two-position joint above, so both are exact. Sharing "
            "the Banker makes the Player bets positively correlated: betting five positions "
            "is riskier than five independent bets."
        ),
    )


def two_player_totals_table(table: WholeTable) -> Table:
    """Ways per total net of the Player bet on two positions (exact)."""
    ways = table.two_player_totals()
    total = sum(ways.values())
    return Table(
        key="positions.two_players",
        title="Whole table: Player bets on two positions, total net (exact)",
        columns=(
            Column("net", "total net", Kind.EXACT),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(
            {"net": net, "ways": w, "probability": Fraction(w, total)} for net, w in ways.items()
        ),
        total={"net": "Total", "ways": total, "probability": Fraction(1)},
        note="Stake 1 on Player N and on Player M against one Banker (the three-hand deals).",
    )


def pairs_table(table: WholeTable) -> Table:
    """Ways per number of pairs among five positions (exact), beside the simulation's rounds."""
    ways = table.counts.pair_counts
    total = sum(ways.values())
    win, lose = event_net("pair", table.config), event_net("no-pair", table.config)
    sim = table.counts.simulation
    observed = _simulated_pairs(table) if sim is not None else {}
    records = []
    for pairs, w in sorted(ways.items()):
        record: dict[str, Any] = {
            "pairs": pairs,
            "net": pairs * win + (TABLE_POSITIONS - pairs) * lose,
            "ways": w,
            "probability": Fraction(w, total),
        }
        if sim is not None:
            record["simulated"] = observed.get(pairs, 0)
            record["simulated_frequency"] = Fraction(observed.get(pairs, 0), sim.rounds)
        records.append(record)
    columns = [
        Column("pairs", "pairs", Kind.WAYS),
        Column("net", "total net", Kind.EXACT),
        Column("ways", "ways", Kind.WAYS),
        Column("probability", "probability", Kind.PROBABILITY),
    ]
    note = (
        f"Stake 1 on the Pair bet of all {TABLE_POSITIONS} positions. Only ranks decide a "
        f"pair, so the {TABLE_POSITIONS} hands are counted by rank with card removal, "
        "compositions that differ by a relabelling of ranks merged (the Banker's hand is "
        "unseen by these bets). Exact; its mean and SD equal the two-position figures "
        "(tested)."
    )
    if sim is not None:
        columns += [
            Column("simulated", "simulated rounds", Kind.WAYS),
            Column("simulated_frequency", "simulated frequency", Kind.APPROXIMATE),
        ]
        fit = goodness_of_fit(
            [Cell((str(r["pairs"]),), r["probability"], r["simulated"]) for r in records]
        )
        p = "untestable" if fit.p_value is None else f"p = {fit.p_value:.4f}"
        note += (
            f" The simulated rounds against the exact probabilities: chi-square {p}; {MERGE_RULE}."
        )
    return Table(
        key="positions.pairs",
        title=f"Whole table: Pair bets on all {TABLE_POSITIONS} positions (exact)",
        columns=tuple(columns),
        rows=tuple(records),
        total={"pairs": "Total", "ways": total, "probability": Fraction(1)},
        note=note,
    )


def _simulated_pairs(table: WholeTable) -> dict[int, int]:
    """Simulated rounds per number of pairs among the five positions."""
    found: dict[int, int] = {}
    for (_, pairs), n in table.counts.five.items():
        found[pairs] = found.get(pairs, 0) + n
    return found


def five_player_totals_table(table: WholeTable) -> Table:
    """The total net of all five Player bets: exact when reachable, else the simulation's."""
    counts = table.five_totals(Stakes(Fraction(1), Fraction(0)))
    total = sum(counts.values())
    sim = table.counts.simulation
    if sim is None:
        columns = (
            Column("net", "total net", Kind.EXACT),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        )
        rows = tuple(
            {"net": net, "ways": n, "probability": Fraction(n, total)} for net, n in counts.items()
        )
        title = f"Whole table: Player bets on all {TABLE_POSITIONS} positions, total net (exact)"
        note = (
            "Exact: the Banker and every position dealt one after another with card removal "
            "(this shoe is small enough)."
        )
        total_row = {"net": "Total", "ways": total, "probability": Fraction(1)}
    else:
        columns = (
            Column("net", "total net", Kind.EXACT),
            Column("rounds", "simulated rounds", Kind.WAYS),
            Column("frequency", "simulated frequency", Kind.APPROXIMATE),
        )
        rows = tuple(
            {"net": net, "rounds": n, "frequency": Fraction(n, total)} for net, n in counts.items()
        )
        title = (
            f"Whole table: Player bets on all {TABLE_POSITIONS} positions, total net "
            "(simulated, approximate)"
        )
        note = (
            f"APPROXIMATE: {sim.rounds:,} rounds of a seeded simulation (seed {sim.seed}), "
            "each from a fresh shuffle of the shoe, dealt as the rule book deals (one card at "
            "a time to Player 1 … 5 and the Banker, twice). The exact distribution is a "
            "six-hand count the engine cannot reach (the compositions left after the Banker "
            "and four positions number about 10^12); its mean and SD are exact (table above) "
            "and the simulation is checked against them (table below)."
        )
        total_row = {"net": "Total", "rounds": total, "frequency": Fraction(1)}
    return Table(
        key="positions.five_players",
        title=title,
        columns=columns,
        rows=rows,
        total=total_row,
        note=note,
    )


def simulation_table(table: WholeTable) -> Table:
    """The simulated mean and SD of five-position totals against the exact ones."""
    sim = table.counts.simulation
    assert sim is not None
    records = []
    for label, stakes in table.bet_sets():
        check = table.simulation_check(stakes)
        records.append(
            {
                "bets": label,
                "simulated_mean": check.mean,
                "exact_mean": check.exact_mean,
                "z_mean": check.z_mean,
                "simulated_sd": check.sd,
                "exact_sd": check.exact_sd,
                "z_variance": check.z_variance,
                "consistent": check.consistent,
            }
        )
    return Table(
        key="positions.simulation_check",
        title="Whole table: the simulation against the exact mean and SD",
        columns=(
            Column("bets", "bets on all five positions"),
            Column("simulated_mean", "simulated mean", Kind.APPROXIMATE),
            Column("exact_mean", "exact mean", Kind.PROBABILITY),
            Column("z_mean", "z", Kind.APPROXIMATE, places=2),
            Column("simulated_sd", "simulated SD", Kind.APPROXIMATE),
            Column("exact_sd", "exact SD", Kind.APPROXIMATE),
            Column("z_variance", "z (variance)", Kind.APPROXIMATE, places=2),
            Column("consistent", f"consistent (z within ±{Z_LIMIT})", Kind.FLAG),
        ),
        rows=tuple(records),
        note=(
            f"{sim.rounds:,} simulated rounds (seed {sim.seed}). z for the mean: (simulated − "
            "exact) / (exact SD / √rounds); z for the variance: (sample variance − exact "
            "variance) / its standard error, from the sample's fourth moment. |z| above "
            f"{Z_LIMIT} (two-sided 0.1%) would flag the simulation."
        ),
    )
