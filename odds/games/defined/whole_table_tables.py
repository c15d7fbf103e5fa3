"""The report tables of a definition with seats: hand classes and the "Whole table" tables.

Each table is built from the definition's words only (its bets' titles and outcome
labels, its positions' names), in a stable order: hand classes; every bet on one hand
(ways, then statistics); two bets on one seat or two; the same bets on 1 to n seats;
each bet against the dealer on two seats; each hand-only bet on every seat; the bets
against the dealer on every seat (exact, or simulated and then checked). JSON keys
sit under ``positions`` (``positions.combined`` …), the coded Pok Deng report's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.core.numbers import short_number
from odds.core.table import Column, Kind, Table
from odds.engine import class_distribution, hands
from odds.games.defined import seats
from odds.games.defined.seat_simulation import Z_LIMIT
from odds.games.defined.seats import SeatClasses
from odds.games.defined.whole_table import SeatBet, Stakes, WholeTable, whole_table
from odds.games.defined.words import in_words
from odds.games.features import StakesFeature
from odds.stats.bets import Bet, sqrt_decimal, volatility_index
from odds.stats.chisquare import MERGE_RULE, Cell, goodness_of_fit

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig
    from odds.stats.analysis import Analysis

#: The report's tables sit under this JSON key (``positions.combined`` …).
JSON_KEY = "positions"


def tables(table: WholeTable) -> tuple[Table, ...]:
    """The hand classes, then every "Whole table" table."""
    return (hand_class_table(table), *positions(table))


def positions(table: WholeTable) -> tuple[Table, ...]:
    """The "Whole table" tables (JSON under ``positions``), at every stake setting."""
    found: list[Table] = []
    if len(table.bets) > 1:
        found += [combined_table(table), combined_stats_table(table)]
    found += [correlation_table(table), several_seats_table(table)]
    against = [b for b in table.bets if not b.hand_only]
    if against:
        found.append(two_seats_table(table, against))
    hand_only = [b for b in table.bets if b.hand_only]
    if hand_only:
        found.append(hand_only_table(table, hand_only))
    if against:
        found.append(every_seat_table(table))
    if table.counts.simulation is not None:
        found.append(simulation_table(table))
    return tuple(found)


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _seat_words(table: WholeTable) -> str:
    """How the tables name two seats: "N and M are two different seats", when titles say N."""
    if any(b.other_seat.endswith("(another seat)") for b in table.bets):
        return '"another seat" is a second seat at the table'
    return "N and M are two different seats"


# ---------------------------------------------------------------------------
# Hand classes


def hand_class_table(table: WholeTable) -> Table:
    """Ways per hand class of one hand from the full shoe: the categories, each split where
    the bets against the dealer settle its hands differently (by the features they read)."""
    game, config = table.game, table.config
    definition = game.definition
    shoe = config.shoe.build()
    size = definition.deal.cards
    classes = SeatClasses(game, config, shoe.types)
    ways = class_distribution(shoe.counts, size, classes)
    counts = table.counts
    index = {c: i for i, c in enumerate(counts.classes)}
    against = [i for i, b in enumerate(table.bets) if not b.hand_only]
    seat = definition.deal.positions[0]
    read: set[str] = set()
    for i in against:
        read |= classes.needs[i][1][seat]
    read.discard("category")
    read &= classes.names
    by_category = {c.name: i for i, c in enumerate(definition.categories)}

    def category_of(cls: Any) -> int | None:
        view = dict(cls[1])
        name = view.get("category")
        if name is None:
            from odds.games.defined import patterns

            hand = next(h for h, _ in hands(shoe.counts, size) if classes(h) == cls)
            return patterns.category_of(classes.classifier.cards(hand), definition)
        return by_category[name]

    groups: dict[tuple[int | None, tuple[Any, ...]], dict[tuple[Any, ...], int]] = {}
    for cls, n in ways.items():
        s = index[cls]
        signature = tuple(tuple(row[i] for i in against) for row in counts.settled[s])
        features = tuple((name, value) for name, value in cls[1] if name in read)
        group = groups.setdefault((category_of(cls), signature), {})
        group[features] = group.get(features, 0) + n
    total = sum(ways.values())
    order = {i: -definition.level(i) for i in range(len(definition.categories))}
    rows = []
    categories = sorted(
        {c for c, _ in groups}, key=lambda c: order.get(c, 0) if c is not None else 1
    )
    for category in categories:
        mine = [g for (c, _), g in groups.items() if c == category]
        label = definition.categories[category].label if category is not None else "no category"
        texts = _group_texts(mine)
        listed = sorted(zip(texts, mine, strict=True), key=lambda tg: (tg[0] == "", tg[0]))
        for text, group in listed:
            n = sum(group.values())
            text = text if len(mine) > 1 else ""  # one class: nothing tells its hands apart
            rows.append(
                {
                    "name": f"{label}, {text}" if text else label,
                    "category": label,
                    "features": text,
                    "ways": n,
                    "probability": Fraction(n, total),
                }
            )
    what = _and(sorted(read)) if read else ""
    note = "Strongest first."
    if any(len([g for (c, _), g in groups.items() if c == cat]) > 1 for cat in categories):
        note = (
            f"Strongest first; a category is split where the bets against the "
            f"{definition.deal.positions[1]} settle its hands differently (here by {what})."
        )
    return Table(
        key="hand_classes",
        title=f"Hand classes (one hand of {in_words(size)} from the full shoe)",
        columns=(
            Column("name", "hand"),
            Column("category", "category", markdown=False),
            Column("features", "features", markdown=False),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"name": "Total", "ways": total, "probability": Fraction(1)},
        note=note,
    )


def _group_texts(groups: Sequence[dict[tuple[Any, ...], int]]) -> list[str]:
    """A short description of each group of one category: "" for the plain hands (no
    feature true), else its smallest sets of true features ("flush or pair")."""
    texts = []
    for group in groups:
        sets = [frozenset(_true(features)) for features in group]
        if frozenset() in sets:
            texts.append("")
            continue
        minimal = {s for s in sets if not any(o < s for o in sets)}
        texts.append(" or ".join(sorted(" and ".join(sorted(s)) for s in minimal)))
    if len(set(texts)) < len(texts):  # two groups read alike: every assignment in full
        texts = [
            "; ".join(sorted(", ".join(_true(f)) or "none" for f in group)) for group in groups
        ]
    return texts


def _true(features: tuple[tuple[str, Any], ...]) -> list[str]:
    """The features a hand has: true flags by name, other values as ``name value``."""
    found = []
    for name, value in features:
        if value is True:
            found.append(name)
        elif value is not False and value is not None:
            found.append(f"{name} {value}")
    return found


# ---------------------------------------------------------------------------
# Every bet on one hand


def combined_table(table: WholeTable) -> Table:
    """Ways per tuple of the bets' outcomes on one hand, with the round's net at each stakes."""
    rows = table.combined
    total = sum(row.ways for row in rows)
    records = []
    for row in rows:
        record: dict[str, Any] = {"ways": row.ways, "probability": Fraction(row.ways, total)}
        for bet, event in zip(table.bets, row.events, strict=True):
            record[bet.name] = event.label
            record[f"{bet.name}_net"] = event.net
        for stakes in table.stakes:
            record[f"shown.{stakes.key}"] = short_number(row.net(stakes))
            record[f"net.{stakes.key}"] = row.net(stakes)
        records.append(record)
    totals: dict[str, Any] = {
        table.bets[0].name: "Total",
        "ways": total,
        "probability": Fraction(1),
    }
    for stakes, combined in zip(table.stakes, table.combined_bets(), strict=True):
        totals[f"shown.{stakes.key}"] = short_number(combined.stats.ev * stakes.staked)
    columns = [Column(b.name, b.title) for b in table.bets]
    columns += [Column(f"{b.name}_net", f"{b.title} pays", Kind.NET) for b in table.bets]
    columns += [
        Column("ways", "ways", Kind.WAYS),
        Column("probability", "probability", Kind.PROBABILITY),
    ]
    for stakes in table.stakes:
        columns.append(Column(f"shown.{stakes.key}", f"net, {stakes.text}", json=False))
        columns.append(Column(f"net.{stakes.key}", stakes.key, Kind.EXACT, markdown=False))
    example = ",".join(f"{b}={1 if i == 0 else '0.2'}" for i, b in enumerate(table.names))
    return Table(
        key="positions.combined",
        title=f"Whole table: {table.combined_title()} on one hand",
        columns=tuple(columns),
        rows=tuple(records),
        total=totals,
        note=(
            f"Every bet on the same hand, against the {table.dealer}'s: the deals of the "
            f"single-bet tables ({total:,}). A net column is the round's net for the stakes "
            "shown (per seat); its total is the EV per round, exactly the stakes times each "
            "bet's EV added up. The paytable's stakes are one unit on each bet; "
            f"`odds report {table.game.name} --stakes {example}` adds another ratio."
        ),
    )


def combined_stats_table(table: WholeTable) -> Table:
    """EV, house edge, SD, hit frequency and VI of every bet on one hand, per stake setting."""
    records = []
    moments = table.moments
    for stakes, bet in zip(table.stakes, table.combined_bets(), strict=True):
        s = bet.stats
        per_round = sum((stakes.of(name) * moments.mean[name] for name in table.names), Fraction(0))
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
    withholding = [b.title for b in table.bets if b.withholding]
    debited = (
        f"the debited amount includes the withholding of {_and(withholding)}"
        if withholding
        else "nothing is withheld, so the debited amount is the stake"
    )
    return Table(
        key="positions.combined_stats",
        title=f"Whole table: {table.combined_title()} together, statistics",
        columns=(
            Column("stakes", "stakes (one seat)"),
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
            f"unit staked; house edge, SD and VI are per unit staked, {debited}. A hit is a "
            "round with a net win on the bets together. The SD is exact (the square root of "
            "an exact variance)."
        ),
    )


# ---------------------------------------------------------------------------
# Two seats


def correlation_table(table: WholeTable) -> Table:
    """Covariance and correlation of two bets on one hand or on two seats."""
    moments = table.moments
    bets = table.bets
    pairs: list[tuple[str, str, SeatBet, SeatBet, bool]] = [
        (b.title, b.other_seat, b, b, False) for b in bets
    ]
    for i, a in enumerate(bets):
        for b in bets[i + 1 :]:
            pairs += [(a.title, b.title, a, b, True), (a.title, b.other_seat, a, b, False)]
    records = [
        {
            "first": first,
            "second": second,
            "first_bet": a.name,
            "second_bet": b.name,
            "same_hand": same,
            "covariance": moments.covariance(a.name, b.name, same),
            "correlation": moments.correlation(a.name, b.name, same),
        }
        for first, second, a, b, same in pairs
    ]
    counts = table.counts
    deals = sum(counts.two.values())
    n, k = counts.shoe_size, counts.seat_counts.size
    return Table(
        key="positions.correlations",
        title="Whole table: two bets on one hand or on two seats",
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
            f"{_seat_words(table)}. The {table.dealer} and two seats are dealt together with "
            f"card removal: C({n},{k}) × C({n - k},{k}) × C({n - 2 * k},{k}) = {deals:,} deals, "
            "counted exactly by the engine's three-hand joint; each seat's marginal equals "
            "the single-bet tables exactly (asserted). By exchangeability every pair of seats "
            "has this joint, whatever the dealing order, so it gives the exact EV and "
            "variance of any set of bets on any set of seats. Covariances are exact (JSON: "
            "fractions), per unit on each bet."
        ),
    )


def several_seats_table(table: WholeTable) -> Table:
    """The same bets on 1 … n seats: exact EV and SD, and the SD if they were independent."""
    records = []
    for chosen in table.selections():
        record: dict[str, Any] = {"bets": chosen.label, "positions": chosen.positions}
        for name in table.names:
            record[f"{name}_stake"] = chosen.stakes.of(name)
        record |= {
            "ev": chosen.ev,
            "variance": chosen.variance,
            "sd": sqrt_decimal(chosen.variance),
            "sd_independent": sqrt_decimal(chosen.variance_if_independent),
        }
        records.append(record)
    moments = table.moments
    sentences = []
    for bet in table.bets:
        cov = moments.covariance(bet.name, bet.name, False)
        if cov:
            sign, risk = ("positively", "riskier") if cov > 0 else ("negatively", "less risky")
            sentences.append(
                f"Sharing the {table.dealer} and the shoe makes {bet.title} on two seats "
                f"{sign} correlated: betting {table.seats} seats is {risk} than "
                f"{table.seats} independent bets."
            )
    return Table(
        key="positions.several",
        title=f"Whole table: the same bets on 1 to {table.seats} seats",
        columns=(
            Column("bets", "bets on each seat"),
            Column("positions", "seats", Kind.WAYS),
            *(
                Column(f"{b.name}_stake", f"{b.title} stake", Kind.EXACT, markdown=False)
                for b in table.bets
            ),
            Column("ev", "EV per round (exact)", Kind.EXACT),
            Column("variance", "variance per round", Kind.EXACT, markdown=False),
            Column("sd", "SD per round", Kind.APPROXIMATE),
            Column("sd_independent", "SD if independent", Kind.APPROXIMATE),
        ),
        rows=tuple(records),
        note=" ".join(
            [
                "Per round, for the stakes named on each of k seats. EV = k times one seat's "
                "EV; Var = Σ Var + 2 Σ Cov over every pair of bets (same hand or two seats), "
                "all from the two-seat joint above, so both are exact.",
                *sentences,
            ]
        ),
    )


def two_seats_table(table: WholeTable, bets: Sequence[SeatBet]) -> Table:
    """Ways per total net of each bet against the dealer on two seats (exact)."""
    records = []
    for bet in bets:
        ways = table.two_seat_totals(bet)
        total = sum(ways.values())
        records += [
            {
                "bet": bet.name,
                "title": bet.title,
                "net": net,
                "ways": w,
                "probability": Fraction(w, total),
            }
            for net, w in ways.items()
        ]
    several = len(bets) > 1
    total = sum(table.counts.two.values())
    names = _and([f"{b.title} and {b.other_seat}" for b in bets])
    return Table(
        key="positions.two_players",
        title=(
            f"Whole table: {bets[0].title} on two seats, total net (exact)"
            if not several
            else "Whole table: each bet against the dealer on two seats, total net (exact)"
        ),
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", markdown=several),
            Column("net", "total net", Kind.EXACT),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(records),
        total=None if several else {"net": "Total", "ways": total, "probability": Fraction(1)},
        note=f"Stake 1 on {names} against one {table.dealer} (the three-hand deals, {total:,}).",
    )


# ---------------------------------------------------------------------------
# Every seat


_LEVEL = {0: "card value", 1: "rank", 2: "card"}


def hand_only_table(table: WholeTable, bets: Sequence[SeatBet]) -> Table:
    """Ways per total net of each hand-only bet on every seat (exact), beside the simulation."""
    n = table.seats
    sim = table.counts.simulation
    records: list[dict[str, Any]] = []
    fits = []
    notes = []
    for bet in bets:
        counted = table.counts.every_seat.get(bet.name)
        rows = table.every_seat(bet)
        if counted is None or not rows:
            notes.append(
                f"{bet.title}: not counted (the {n} hands' count is out of bounds on this shoe)."
            )
            continue
        total = sum(w for _, _, w in rows)
        observed = table.simulated_every_seat(bet) if sim is not None else {}
        wins = [e.key for e in bet.events if e.net > 0]
        cells = []
        for keys, net, ways in rows:
            record: dict[str, Any] = {
                "bet": bet.name,
                "title": bet.title,
                "wins": sum(keys.count(k) for k in wins),
                "net": net,
                "ways": ways,
                "probability": Fraction(ways, total),
            }
            if sim is not None:
                seen = observed.get(keys, 0)
                record["simulated"] = seen
                record["simulated_frequency"] = Fraction(seen, sim.rounds)
                cells.append(Cell((str(len(records)),), record["probability"], seen))
            records.append(record)
        if cells:
            fits.append((bet, goodness_of_fit(cells)))
        merged = ", compositions that differ by a relabelling merged" if counted.symmetric else ""
        notes.append(
            f"Stake 1 on {bet.title} at all {n} seats. The bet reads only the seat's own hand, "
            f"so the {n} hands are counted by {_LEVEL[counted.level]} with card removal{merged} "
            f"(the {table.dealer}'s hand is unseen by it). Exact; its mean and SD equal the "
            "two-seat figures (tested)."
        )
    columns = [
        Column("bet", "bet", markdown=False),
        Column("title", "bet", markdown=len(bets) > 1),
        Column("wins", "seats won", Kind.WAYS),
        Column("net", "total net", Kind.EXACT),
        Column("ways", "ways", Kind.WAYS),
        Column("probability", "probability", Kind.PROBABILITY),
    ]
    if sim is not None:
        columns += [
            Column("simulated", "simulated rounds", Kind.WAYS),
            Column("simulated_frequency", "simulated frequency", Kind.APPROXIMATE),
        ]
        for bet, fit in fits:
            p = "untestable" if fit.p_value is None else f"p = {fit.p_value:.4f}"
            notes.append(
                f"{bet.title}: the simulated rounds against the exact probabilities, "
                f"chi-square {p}; {MERGE_RULE}."
            )
    single = len(bets) == 1 and records
    return Table(
        key="positions.hand_only",
        title=(
            f"Whole table: {bets[0].title} on all {n} seats (exact)"
            if len(bets) == 1
            else f"Whole table: the hand-only bets on all {n} seats (exact)"
        ),
        columns=tuple(columns),
        rows=tuple(records),
        total=(
            {"wins": "Total", "ways": sum(r["ways"] for r in records), "probability": Fraction(1)}
            if single
            else None
        ),
        note=" ".join(notes),
    )


def every_seat_table(table: WholeTable) -> Table:
    """The total net of every seat's bets against the dealer: exact when reachable, else the
    simulation's."""
    n = table.seats
    against = [b for b in table.bets if not b.hand_only]
    stakes = Stakes(table.names, tuple(Fraction(not b.hand_only) for b in table.bets))
    counts = table.table_totals(stakes)
    total = sum(counts.values())
    sim = table.counts.simulation
    what = f"{_and([b.title for b in against])} on all {n} seats"
    deal = table.game.definition.deal
    exact = sim is None
    ways, share = ("ways", "probability") if exact else ("rounds", "frequency")
    columns = (
        Column("net", "total net", Kind.EXACT),
        Column(ways, "ways" if exact else "simulated rounds", Kind.WAYS),
        Column(
            share,
            "probability" if exact else "simulated frequency",
            Kind.PROBABILITY if exact else Kind.APPROXIMATE,
        ),
    )
    rows = tuple({"net": net, ways: w, share: Fraction(w, total)} for net, w in counts.items())
    if sim is None:
        title = f"Whole table: {what}, total net (exact)"
        note = (
            f"Stake 1 on each. Exact: the {table.dealer} and every seat dealt one after another "
            "with card removal (this shoe is small enough)."
        )
    else:
        title = f"Whole table: {what}, total net (simulated, approximate)"
        order = " ".join(
            [
                f"one card at a time to seat 1 … {n} and the {table.dealer},",
                "twice" if deal.cards == 2 else f"{deal.cards} times",
            ]
        )
        note = (
            f"APPROXIMATE: {sim.rounds:,} rounds of a seeded simulation (seed {sim.seed}), "
            f"each from a fresh shuffle of the shoe, dealt {order}. Stake 1 on each. Not "
            f"exact because, given the {table.dealer}'s hand, the seats still share the shoe "
            "(each seat's cards leave the next seat's): the total is no sum over the "
            f"{table.dealer}'s hands of products of one seat's distribution but a count of "
            f"{n + 1} hands with card removal, about {_magnitude(table.counts.steps)} steps "
            "(compositions left after each hand, times the hands each deals) on this shoe, "
            "past the engine's bound. Its mean and SD are exact (above) and the simulation is "
            "checked against them (below)."
        )
    return Table(
        key="positions.all_players",
        title=title,
        columns=columns,
        rows=rows,
        total={"net": "Total", ways: total, share: Fraction(1)},
        note=note,
    )


def _magnitude(steps: int) -> str:
    return f"10^{len(str(steps)) - 1}"


def simulation_table(table: WholeTable) -> Table:
    """The simulated mean and SD of every seat's total against the exact ones."""
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
            Column("bets", f"bets on all {table.seats} seats"),
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


# ---------------------------------------------------------------------------
# The report's hook and ``--stakes``


def report_parts(
    game: DefinedGame, config: DefinedConfig, bets: Sequence[Bet]
) -> tuple[tuple[Table, ...], tuple[str, ...]]:
    """The hand classes and the "Whole table" tables of a definition with seats (else none),
    and a note when the shoe cannot hold a whole table. ``bets``: the bets' analysis."""
    definition = game.definition
    if not seats.has_whole_table(definition):
        return (), ()
    deal = definition.deal
    needed = deal.cards * (deal.seats + 1)
    shoe = config.shoe.build()
    if shoe.size < needed:
        return (), (
            f"Whole table: not analysed; the shoe has {shoe.size} cards and the "
            f"{deal.positions[1]} with {deal.seats} seats needs {needed}.",
        )
    try:  # estimated before anything is counted
        seats.check_three_hands(definition, len(shoe.types), deal.cards)
    except OddsError as refused:
        return (), (f"Whole table: not analysed; {refused}.",)
    return tables(whole_table(game, config, bets)), ()


class DefinedStakes(StakesFeature["DefinedConfig"]):
    """The whole table at the stakes the user gives (``player=1,player-pair=0.2``)."""

    def __init__(self, game: DefinedGame) -> None:
        self.game = game
        self.bets = tuple(b.name for b in game.definition.bets)

    def parse(self, text: str) -> Stakes:
        return Stakes.parse(text, self.bets)

    def with_stakes(self, config: DefinedConfig, analysis: Analysis, stakes: Any) -> Analysis:
        table = whole_table(self.game, config, analysis.bets, stakes)
        kept = tuple(t for t in analysis.tables if not t.key.startswith(f"{JSON_KEY}."))
        return dataclasses.replace(analysis, tables=kept + positions(table))


def stakes_feature(game: DefinedGame) -> DefinedStakes | None:
    """``odds report --stakes`` for a definition with seats."""
    if not seats.has_whole_table(game.definition):
        return None
    return DefinedStakes(game)
