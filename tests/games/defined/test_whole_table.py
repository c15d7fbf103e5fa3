"""The whole table of a definition with seats, against the coded Pok Deng report and a brute force.

* Every exact figure of the coded reports' snapshots (tests/snapshots/coded/pok-deng.json and
  pok-deng-example9.json: the bets, the hand classes, every ``positions`` table, the Shoe
  section's effects of removal and counts) comes out of ``tables/pok-deng.toml``
  (the example-9 reading: the same definition less its 8/9 override outcome), through the
  report's JSON, as a user scripting against it reads it.
* On reduced shoes every whole-table figure equals :mod:`tests.reference.whole_table`, a
  plain enumeration of every ordered deal of the cards to every seat and the dealer in the
  rule book's order (it shares no counting with the whole table), so the exchangeability
  the counting leans on (two seats stand for any two, the dealer dealt first) is tested too.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.games.defined import seats, whole_table
from odds.games.defined.seat_simulation import RoundSampler
from odds.games.defined.whole_table import Stakes, WholeTable
from odds.games.paytable import Paytable, from_data, load
from odds.output.data import to_json_data
from odds.stats.chisquare import Cell, goodness_of_fit
from tests.games.defined.test_reexpressed import with_shoe
from tests.reference.whole_table import whole_table as reference_table

ROOT = Path(__file__).resolve().parents[3]
TABLES = ROOT / "tables"
SNAPSHOTS = ROOT / "tests" / "snapshots" / "coded"


def pok_deng(
    seats_: int = 5, override: bool = True, cards: list[str] | None = None, beats: bool = False
) -> Paytable:
    """``tables/pok-deng.toml`` at ``seats_`` seats; ``override=False`` is rule-book
    example 9's reading (the option rules.eight_nine_override off); ``cards`` a shoe of
    exactly these cards; ``beats``: an exception to the order (0 points beats 9 points, a
    made-up rule)."""
    text = (TABLES / "pok-deng.toml").read_text()
    text = text.replace("seats = 5", f"seats = {seats_}")
    if beats:
        text = text.replace(
            'label = "0 points"\npattern = { any = true }',
            'label = "0 points"\npattern = { any = true }\nbeats = ["9-points"]',
        )
        assert "beats" in text
    if not override:  # the definition's own option, as a paytable sets it
        text = text.replace("eight_nine_override = true", "eight_nine_override = false", 1)
    data = read_toml(text, "pok-deng")
    if cards is not None:
        data = with_shoe(data, cards)
    return from_data(data, "pok-deng")


def exact(value: Any) -> Any:
    """A JSON value without its decimals (the snapshot keeps exact figures only)."""
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items() if not k.endswith("_decimal")}
    if isinstance(value, list):
        return [exact(v) for v in value]
    return value


# ---------------------------------------------------------------------------
# The coded reports' every exact figure, from the definition (eight decks)


@pytest.mark.parametrize(("name", "override"), [("pok-deng", True), ("pok-deng-example9", False)])
def test_every_exact_figure_of_the_coded_report(name: str, override: bool) -> None:
    coded = json.loads((SNAPSHOTS / f"{name}.json").read_text())
    found = exact(to_json_data(pok_deng(override=override).analysis()))
    assert found["deals"] == coded["deals"]
    # (the example-9 reading is the definition less an outcome, which the coded bet lists
    # with no ways: options that switch outcomes are another step)
    assert _happening(found["bets"]) == _happening(coded["bets"])
    assert found["top_awards"] == coded["top_awards"]

    # Hand classes: the categories split where the Player bet settles hands differently
    # (the coded table's "special pattern": a flush or a pair)
    assert [(r["ways"], r["probability"]) for r in found["hand_classes"]] == [
        (r["ways"], r["probability"]) for r in coded["hand_classes"]
    ]
    assert [bool(r["features"]) for r in found["hand_classes"]] == [
        r["special_pattern"] and r["value"] in {str(v) for v in range(10)}
        for r in coded["hand_classes"]
    ]

    mine, theirs = found["positions"], coded["positions"]
    renamed = {"pair": "player-pair", "pair_net": "player-pair_net"}
    assert [{renamed.get(k, k): v for k, v in r.items()} for r in theirs["combined"]] == mine[
        "combined"
    ]
    assert mine["combined_stats"] == theirs["combined_stats"]
    assert mine["correlations"] == theirs["correlations"]
    stake = {"pair_stake": "player-pair_stake"}
    assert [{stake.get(k, k): v for k, v in r.items()} for r in theirs["several"]] == mine[
        "several"
    ]
    assert [(r["net"], r["ways"], r["probability"]) for r in mine["two_players"]] == [
        (r["net"], r["ways"], r["probability"]) for r in theirs["two_players"]
    ]
    assert [(r["wins"], r["net"], r["ways"], r["probability"]) for r in mine["hand_only"]] == [
        (r["pairs"], r["net"], r["ways"], r["probability"]) for r in theirs["pairs"]
    ]
    assert [(r["bets"], r["exact_mean"], r["exact_sd"]) for r in mine["simulation_check"]] == [
        (r["bets"], r["exact_mean"], r["exact_sd"]) for r in theirs["simulation_check"]
    ]
    # the simulated table is approximate: a seeded estimate, consistent with the exact figures
    assert all(r["consistent"] for r in mine["simulation_check"])
    assert sum(r["rounds"] for r in mine["all_players"]) == 100_000


def _happening(bets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**b, "outcomes": [o for o in b["outcomes"] if o["ways"]]} for b in bets]


def test_the_shoe_section_gives_the_coded_effects_of_removal_and_counts() -> None:
    """The Shoe section's exact figures, the seats dealt as the coded procedure deals them
    (twelve cards a round for five seats, its [dealing]: a card burned every round)."""
    from odds.tools.shoe import questions, report_tables

    coded = json.loads((SNAPSHOTS / "pok-deng.json").read_text())["shoe_state"]
    paytable = pok_deng().with_overrides(["dealing.cut_card=52", "dealing.burn_per_round=1"])
    feature = paytable.game.shoe_state
    assert feature.in_reports
    procedure = feature.procedure(paytable.config)
    assert procedure.round_cards == 12 and procedure.burn_per_round == 1
    reference = load("pok-deng")
    assert procedure.last_start == reference.game.shoe_state.procedure(reference.config).last_start
    evaluator, table = questions.eor(paytable)
    assert evaluator.round_cards == 12
    found = {
        t.key: exact(json.loads(json.dumps(t_json(t))))
        for t in (
            report_tables.eor_table(table),
            report_tables.eor_by_type_table(table, evaluator),
            report_tables.count_table(table, "deck"),
        )
    }
    for key in ("effect_of_removal", "effect_of_removal_by_type", "counts"):
        assert found[key] == coded[key], key


def t_json(table: Any) -> Any:
    from odds.core.table import json_value

    return json.loads(json.dumps(json_value(table), default=str))


# ---------------------------------------------------------------------------
# Reduced shoes against the plain enumeration of every seat and the dealer

#: Nine cards, two seats: an AK flush, an identical-card pair (a pair and a flush), a face
#: card with a 10, 8 and 9 points with a flush or pair, a Banker 0 or 6 …
NINE = ["Ac", "Kc", "5d", "5d", "Qh", "10h", "6s", "4c", "9h"]
#: Eight cards, three seats: every card dealt, two pairs of identical cards.
EIGHT = ["Ac", "Kc", "6d", "6d", "Qh", "10h", "4c", "4c"]


def _table(
    cards: list[str], seats_: int, beats: bool = False, **kwargs: Any
) -> tuple[WholeTable, dict[Any, Fraction]]:
    paytable = pok_deng(seats_, cards=cards, beats=beats)
    bets = paytable.bet_analysis().bets
    table = whole_table.whole_table(paytable.game, paytable.config, bets, **kwargs)
    shoe = paytable.config.shoe.build()
    deck = [c for c, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    return table, reference_table(paytable.game, deck)


def _probabilities(ways: dict[Any, int]) -> dict[Any, Fraction]:
    total = sum(ways.values())
    return {k: Fraction(w, total) for k, w in ways.items() if w}


def _marginal(reference: dict[Any, Fraction], pick: Any) -> dict[Any, Fraction]:
    found: Counter[Any] = Counter()
    for key, p in reference.items():
        found[pick(key)] += p
    return {k: p for k, p in found.items() if p}


@pytest.mark.parametrize(
    ("cards", "seats_", "beats"),
    [(NINE, 2, False), (EIGHT, 3, False), (NINE, 2, True)],
    ids=["9 cards", "8 cards", "9 cards, an exception to the order"],
)
def test_the_whole_table_equals_the_plain_enumeration(
    cards: list[str], seats_: int, beats: bool
) -> None:
    table, reference = _table(cards, seats_, beats)
    assert table.counts.simulation is None  # small enough: every total exact
    # one seat, every bet (seat 1, and any seat: exchangeability)
    assert _probabilities(table.counts.one) == _marginal(reference, lambda k: k[0])
    assert _probabilities(table.counts.one) == _marginal(reference, lambda k: k[-1])
    # two seats (the dealer and two seats of a table of three: the same joint)
    assert _probabilities(table.counts.two) == _marginal(reference, lambda k: (k[0], k[1]))
    bets = table.bets
    player, pair = bets

    def net(bet: Any, keys: tuple[str, ...]) -> Fraction:
        return bet.net(keys[bets.index(bet)])

    # covariances of every pair of bets, one hand or two seats
    for a in bets:
        for b in bets:
            for same in (True, False):
                expected = _covariance(
                    reference,
                    lambda k, a=a: net(a, k[0]),
                    lambda k, b=b, s=same: net(b, k[0] if s else k[1]),
                )
                assert table.moments.covariance(a.name, b.name, same) == expected
    # the Player bet on two seats, and on every seat
    assert _probabilities(table.two_seat_totals(player)) == _marginal(
        reference, lambda k: net(player, k[0]) + net(player, k[1])
    )
    only_player = Stakes(table.names, (Fraction(1), Fraction(0)))
    assert _probabilities(table.table_totals(only_player)) == _marginal(
        reference, lambda k: sum(net(player, s) for s in k)
    )
    both = Stakes(table.names, (Fraction(1), Fraction(1, 5)))
    assert _probabilities(table.table_totals(both)) == _marginal(
        reference, lambda k: sum(net(player, s) + net(pair, s) / 5 for s in k)
    )
    # the Pair bet on every seat: exact by rank, compositions merged by relabelling
    rows = table.every_seat(pair)
    assert table.counts.every_seat["player-pair"] is not None
    assert table.counts.every_seat["player-pair"].symmetric
    assert _probabilities({keys: w for keys, _, w in rows}) == _marginal(
        reference, lambda k: tuple(sorted(s[1] for s in k))
    )
    # … and its mean and variance are the two-seat joint's (as the report's note says)
    pair_only = Stakes(table.names, (Fraction(0), Fraction(1)))
    by_net: Counter[Fraction] = Counter()
    for _, net_of_row, w in rows:
        by_net[net_of_row] += w
    totals = _probabilities(dict(by_net))
    mean = sum(v * p for v, p in totals.items())
    variance = sum(v * v * p for v, p in totals.items()) - mean**2
    assert (mean, variance) == table.moments.selection([pair_only.per_position()] * seats_)
    # every seat's EV and variance from the two-seat joint equal the whole table's
    for stakes in (only_player, both):
        ev, variance = table.moments.selection([stakes.per_position()] * seats_)
        totals = _marginal(
            reference,
            lambda k, s=stakes: sum(
                a * net(b, keys) for keys in k for a, b in zip(s.amounts, bets, strict=True)
            ),
        )
        mean = sum(v * p for v, p in totals.items())
        assert (ev, variance) == (mean, sum(v * v * p for v, p in totals.items()) - mean**2)


def _covariance(reference: dict[Any, Fraction], x: Any, y: Any) -> Fraction:
    ex = sum(x(k) * p for k, p in reference.items())
    ey = sum(y(k) * p for k, p in reference.items())
    return sum(x(k) * y(k) * p for k, p in reference.items()) - ex * ey


def test_the_hand_classes_split_categories_where_the_bets_against_the_dealer_differ() -> None:
    """On the nine-card shoe: every hand class is one category, its hands settled alike
    against every dealer hand by the Player bet (and hands of two classes of one category
    are not), and the ways add up to the category table's."""
    paytable = pok_deng(2, cards=NINE)
    analysis = paytable.analysis()
    classes = analysis.table("hand_classes").rows
    categories = {r["category"]: r["ways"] for r in analysis.table("categories").rows}
    by_category: Counter[str] = Counter()
    for row in classes:
        by_category[row["category"]] += row["ways"]
    assert dict(by_category) == {k: w for k, w in categories.items() if w}
    assert any(r["features"] for r in classes)  # some category is split


def test_the_simulation_agrees_with_the_exact_totals() -> None:
    """Forced to simulate a shoe whose totals are exact, the seeded simulation's rounds fit
    the exact distribution (chi-square) and its means the exact ones (z-scores)."""
    exact_table, _ = _table(NINE, 2)
    original = seats.MAX_SEQUENTIAL_STEPS
    seats.MAX_SEQUENTIAL_STEPS = 0
    try:
        paytable = pok_deng(2, cards=NINE)
        bets = paytable.bet_analysis().bets
        simulated = whole_table.whole_table(
            paytable.game, paytable.config, bets, rounds=5_000, seed=3
        )
    finally:
        seats.MAX_SEQUENTIAL_STEPS = original
    assert simulated.counts.simulation is not None and simulated.counts.table is None
    stakes = Stakes(exact_table.names, (Fraction(1), Fraction(0)))
    probabilities = _probabilities(exact_table.table_totals(stakes))
    observed = simulated.table_totals(stakes)
    assert set(observed) <= set(probabilities)
    fit = goodness_of_fit(
        [Cell((str(v),), p, observed.get(v, 0)) for v, p in probabilities.items()]
    )
    assert fit.p_value is not None and fit.p_value > 0.001
    for _, setting in simulated.bet_sets():
        assert simulated.simulation_check(setting).consistent


def test_rounds_are_uniform_over_every_sequence_of_distinct_cards() -> None:
    """The simulation's rounds: k distinct cards, every ordered choice equally likely."""
    for n, k in ((5, 3), (416, 12), (6, 5)):  # blocks kept, and a round of most of the shoe
        rows = RoundSampler(random.Random(7), n, k).draw(30_000 if n < 100 else 2_000)
        assert all(len(set(row)) == k for row in rows.tolist())
    rows = RoundSampler(random.Random(7), 5, 3).draw(30_000).tolist()
    seen = Counter(tuple(r) for r in rows)
    assert len(seen) == 60
    fit = goodness_of_fit([Cell((str(key),), Fraction(1, 60), n) for key, n in seen.items()])
    assert fit.p_value is not None and fit.p_value > 0.001


# ---------------------------------------------------------------------------
# Stakes: ``odds report --stakes`` on any definition with seats


def test_stakes_at_the_users_ratio() -> None:
    paytable = load("pok-deng")
    stakes = paytable.game.stakes.parse("player=1,player-pair=0.2")
    table = whole_table.whole_table(
        paytable.game, paytable.config, paytable.bet_analysis().bets, stakes
    )
    assert [bet.stats.ev for bet in table.combined_bets()] == [
        Fraction(-11864185, 184489578),
        Fraction(-105446749, 2767343670),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("player=1,pair=2", "--stakes: unknown bet 'pair' (bets: player, player-pair)"),
        ("player=-1", "--stakes: the player stake must not be negative, got -1"),
        ("player=0", "--stakes: at least one stake must be positive"),
        ("player=1,player=2", "--stakes: player is given twice"),
        ("player", "--stakes: expected bet=amount pairs such as 'player=1,player-pair=0.2'"),
    ],
)
def test_stakes_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(OddsError) as info:
        Stakes.parse(text, ("player", "player-pair"))
    assert str(info.value).startswith(message)


def test_a_definition_without_seats_has_no_whole_table() -> None:
    paytable = load("dragon-tiger")
    assert paytable.game.stakes is None
    assert not [t for t in paytable.analysis().tables if t.key.startswith("positions.")]
