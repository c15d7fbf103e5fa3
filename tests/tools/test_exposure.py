"""Exposure studies: the exact enumeration against brute force, simulations against it,
reproducibility across workers and a Dask cluster, dealing procedures, and bad input."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations

import pytest

from odds.engine import deal_count
from odds.games.paytable import load
from odds.tools.shoe import questions
from odds.tools.shoe.exact import QUANTILES, exact_exposure
from odds.tools.shoe.simulate import SimulationSpec, run, shuffled

#: 12 tiles (1–6, two of each), one position against the banker, three rounds of 4 tiles.
SMALL_SET = (
    "tiles.copies={1 = 2, 2 = 2, 3 = 2, 4 = 2, 5 = 2, 6 = 2}",
    "rules.positions=1",
    "dealing.rounds=3",
)


def _brute_force_rounds(paytable):
    """Every subset of physical tiles seen before each round, each state's EVs by the full
    analysis of the tiles left (a paytable of that set: the report's counting, not the
    shoe-state evaluator's)."""
    game, config = paytable.game, paytable.config
    shoe = game.shoe(config)
    tiles = [t for t, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]

    @cache
    def evs(counts):
        left = ", ".join(f"{t.code} = {n}" for t, n in zip(shoe.types, counts, strict=True))
        state = paytable.with_overrides([f"tiles.copies={{{left}}}"])
        return {bet.name: bet.stats.ev for bet in state.bet_analysis().bets}

    rounds = []
    for seen in (0, 4, 8):
        values: dict[str, list[Fraction]] = {b.name: [] for b in paytable.bet_analysis().bets}
        for subset in combinations(range(len(tiles)), seen):
            counts = list(shoe.counts)
            for i in subset:
                counts[shoe.index(tiles[i])] -= 1
            for bet, value in evs(tuple(counts)).items():
                values[bet].append(value)
        rounds.append(values)
    return rounds


def test_exact_exposure_equals_brute_force_on_a_small_set():
    paytable = load("mahjong-28", list(SMALL_SET))
    evaluator = paytable.game.shoe_state.evaluator(paytable.config)
    procedure = paytable.game.shoe_state.procedure(paytable.config)
    assert procedure.fixed_seen() == (0, 4, 8)
    exact = exact_exposure(evaluator, procedure.fixed_seen())
    for found, brute in zip(exact.rounds, _brute_force_rounds(paytable), strict=True):
        for bet, values in brute.items():
            n = len(values)
            d = found.bets[bet]
            assert d.p_positive == Fraction(sum(v > 0 for v in values), n)
            assert d.gain == sum((v for v in values if v > 0), Fraction(0)) / n
            assert d.mean == sum(values, Fraction(0)) / n
            ordered = sorted(values)
            assert (d.minimum, d.maximum) == (ordered[0], ordered[-1])
            for q, value in zip(QUANTILES, d.quantiles, strict=True):
                # The smallest value whose cumulative share reaches q.
                index = next(i for i in range(n) if (i + 1) >= q * n)
                assert value == ordered[index]
        assert found.compositions <= deal_count([2] * 6, (found.seen,))


def test_seeded_simulation_lies_within_its_interval_of_the_exact_value():
    paytable = load("mahjong-28")
    exact = questions.exposure(paytable)
    simulated = questions.exposure(paytable, shoes=1500, seed=3, workers=1, simulate=True)
    assert exact.exact is not None and simulated.simulated is not None
    for bet in simulated.simulated.bets:
        watcher = simulated.simulated.bets[
            [b.name for b in simulated.simulated.bets].index(bet.name)
        ]
        assert watcher.watcher.contains(float(exact.exact.per_set_gain(bet.name))), bet.name
    tie = next(b for b in simulated.simulated.bets if b.name == "tie")
    assert tie.watcher.mean > 0.2  # the Tie's round-5 exposure is large


def _mahjong_spec(seed=9):
    paytable = load("mahjong-28-20")
    _, table = questions.eor(paytable)
    from odds.tools.shoe.eor import tags_by_type

    return SimulationSpec(
        paytable.data,
        paytable.source,
        seed,
        tuple(b.count for b in table.bets),
        tuple(tags_by_type(table, b) for b in table.bets),
    )


def test_simulation_is_identical_for_one_and_two_workers_and_a_dask_cluster():
    from distributed import LocalCluster

    spec = _mahjong_spec()
    one = run(spec, 40, workers=1)
    two = run(spec, 40, workers=2)
    assert one == two
    assert [r.index for r in one] == list(range(40))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster:
        dask = run(spec, 40, scheduler=cluster.scheduler_address)
    assert dask == one


def test_each_shoe_has_its_own_reproducible_shuffle():
    full = (2, 3, 1)
    assert shuffled(full, 5, 0) == shuffled(full, 5, 0)
    assert sorted(shuffled(full, 5, 1)) == [0, 0, 1, 1, 1, 2]
    orders = {tuple(shuffled(full, 5, i)) for i in range(20)}
    assert len(orders) > 5


def test_pok_deng_procedure_burns_by_the_first_card_and_stops_at_the_cut_card():
    paytable = load("pok-deng")
    procedure = paytable.game.shoe_state.procedure(paytable.config)
    shoe = paytable.config.shoe.build()
    ten = shoe.index(next(c for c in shoe.types if c.code == "Kh"))
    three = shoe.index(next(c for c in shoe.types if c.code == "3c"))
    # 416 cards, cut card 52 from the end: rounds start at 1 + burn + 13k ≤ 364.
    assert procedure.rounds_after_first(ten, 416) == (364 - 11) // 13 + 1
    assert procedure.rounds_after_first(three, 416) == (364 - 4) // 13 + 1
    order = [ten] + [t for t, n in enumerate(shoe.counts) for _ in range(n - (t == ten))]
    states = procedure.states(order, shoe.counts)
    assert len(states) == procedure.rounds_after_first(ten, 416)
    # The turned card is seen; the ten burned cards are not: 415 unseen before round 1.
    assert sum(states[0]) == 415 and sum(states[1]) == 415 - 12
    assert procedure.rounds_depend_on_values()
    unburned = paytable.with_overrides(["dealing.burn_first_card=false"])
    assert not unburned.game.shoe_state.procedure(unburned.config).rounds_depend_on_values()


def test_pok_deng_flat_bettor_is_exact_and_follows_the_burn():
    # With the cut card 52 cards from the end, any burn (1–10) leaves 28 rounds: exact equality.
    paytable = load("pok-deng")
    procedure = paytable.game.shoe_state.procedure(paytable.config)
    assert {procedure.rounds_after_first(t, 416) for t in range(52)} == {28}
    # 60 cards behind the cut card: 27 or 28 rounds by the first card, so the return moves.
    moved = questions.exposure(
        load("pok-deng", ["dealing.cut_card=60"]), shoes=30, seed=1, workers=1
    )
    assert moved.exact_flat is not None and moved.exact_flat.rounds == (27, 28)
    player = moved.exact_flat.per_round["player"]
    assert player != moved.top["player"]
    assert abs(player - moved.top["player"]) < Fraction(1, 10**5)
    for b in moved.simulated.bets:
        assert b.flat_per_round.contains(float(moved.exact_flat.per_round[b.name]))


def test_goa_gae_reshuffled_every_round_has_no_exposure():
    result = questions.exposure(load("goa-gae"))
    assert result.nil
    assert "nil" in result.verdicts()[0]


BAD = [
    (("shoe", "pok-deng", "--seen", "Kh Zz"), "unknown card 'Zz'"),
    (("shoe", "mahjong-28", "--seen", "1 1 1 1 1"), "seen 5 × 1, but the shoe"),
    (
        (
            "shoe",
            "mahjong-28",
            "--seen",
            "1 1 1 1 2 2 2 2 3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7 7 7 7 8 8 8 8 9",
        ),
        "a round needs 8",
    ),
    (("exposure", "pok-deng", "--shoes", "0"), "--shoes must be at least 1"),
    (("exposure", "pok-deng", "--shoes", "2", "--scheduler", "nowhere"), "not a scheduler address"),
    (("exposure", "mahjong-28", "--workers", "0"), "--workers must be at least 1"),
    (("exposure", "pok-deng", "--set", "dealing.cut_card=5"), "cannot complete the last round"),
    (("exposure", "mahjong-28-36", "--set", "dealing.rounds=5"), "at most 4 rounds"),
]


@pytest.mark.parametrize(("args", "message"), BAD, ids=[" ".join(a[:2]) for a, _ in BAD])
def test_bad_input_is_one_line_and_exit_2(run, args, message):
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert message in err


def test_an_unreachable_scheduler_is_one_line(run):
    code, _, err = run(
        "exposure",
        "mahjong-28-20",
        "--simulate",
        "--shoes",
        "1",
        "--scheduler",
        "tcp://127.0.0.1:9",
    )
    assert code == 2
    assert err.startswith("error: cannot connect to the Dask scheduler") and err.count("\n") == 1


def test_shoe_command_reads_a_round_log(run, tmp_path):
    log = tmp_path / "rounds.csv"
    log.write_text("round,banker,player\n1,9 9,9 9\n2,W W,8 8\n", encoding="utf-8")
    code, out, _ = run("shoe", "mahjong-28", "--seen-file", str(log), "--format", "json")
    assert code == 0
    import json

    data = json.loads(out)
    assert data["seen"] == 8 and data["unseen"] == 32
    assert data["unseen_counts"]["9"] == 0 and data["unseen_counts"]["W"] == 2


@pytest.mark.parametrize("command", ["shoe", "eor", "exposure"])
def test_every_shoe_command_speaks_json_and_csv(run, command):
    args = (command, "mahjong-28-20") + (("--seen", "T 9"),) * (command == "shoe")
    flat = [a for part in args for a in (part if isinstance(part, tuple) else (part,))]
    code, out, err = run(*flat, "--format", "json")
    assert code == 0, err
    import json

    data = json.loads(out)
    assert data["game"] == "mahjong-28"
    code, out, err = run(*flat, "--format", "csv")
    if command != "shoe":  # several tables: one is chosen (the error lists them)
        assert code == 2 and "--table NAME" in err, err
        name = err.split("(", 1)[1].split(",")[0].strip(" )")
        code, out, err = run(*flat, "--format", "csv", "--table", name)
    assert code == 0, err
    import csv
    import io

    rows = list(csv.reader(io.StringIO(out)))
    assert len(rows) > 1 and len({len(row) for row in rows}) == 1  # one tidy table
    assert not out.startswith("#")
