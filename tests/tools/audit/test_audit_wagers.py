"""odds audit --wagers: each wager valued at its shoe state; who bets with the shoe is named."""

from __future__ import annotations

import contextlib
import csv
import io
import re
from fractions import Fraction
from functools import cache

import pytest

from odds.api import load
from odds.cli import main
from odds.tools.audit.shoes import dealt_shoe
from odds.tools.audit.wager_test import holm, value_shoes
from odds.tools.audit.wagers import parse_stake

GAME = "baccarat-ez"


@pytest.fixture(scope="module")
def valued():
    """Twenty EZ Baccarat shoes from the dealer written apart from the games, every round's
    state valued for every bet (the shoes of the round log below, and of the tests of the
    permutation's null): dealt and valued once for the module."""
    from tests.measure.independent_dealer import dealer_for

    paytable = load(GAME)
    game, config = paytable.game, paytable.config
    shoes = dealer_for(game, config, penetration=402 / 416).shoes(20, 11)
    bets = [b.name for b in paytable.bet_analysis().bets]
    return game, config, shoes, value_shoes(game, config, shoes, bets)


@pytest.fixture(scope="module")
def logs(tmp_path_factory, valued):
    """The round log of the 20 shoes, and its wagers: five accounts, the counter counting
    Dragon 7, and the same counter blind."""
    from odds.tools.audit.wager_logs import wager_rows, write_wagers
    from tests.measure.wager_power import logged_from_shoes

    paytable = load(GAME)
    game, config, shoes, _ = valued
    folder = tmp_path_factory.mktemp("wagers")
    rounds, counting, blind = folder / "rounds.csv", folder / "w.csv", folder / "blind.csv"
    with rounds.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["shoe", "round", *game.positions])
        for shoe in shoes:
            writer.writerows([shoe.label, r.label, *r.hands] for r in shoe.rounds)
    dealt = logged_from_shoes(game, config, shoes)
    bets = [b.name for b in paytable.bet_analysis().bets]
    for path, at_random in ((counting, False), (blind, True)):
        write_wagers(wager_rows(game, config, dealt, bets, "dragon-7", 11, at_random), path)
    return rounds, counting, blind


@pytest.fixture(scope="module")
def two_shoes(logs, tmp_path_factory):
    """The round log's first two shoes: the rounds of the wagers the tests of reading use (the
    first 300 rows of the counting wagers), valued at a tenth of the cost of all twenty."""
    rounds = logs[0]
    with rounds.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    path = tmp_path_factory.mktemp("two-shoes") / "rounds.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([rows[0], *(r for r in rows[1:] if r[0] in ("1", "2"))])
    return path


@pytest.fixture(scope="module")
def counted(logs) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of the audit of the counting wagers, run once for the tests
    that read it (the counter named; the late bettor not)."""
    rounds, counting, _ = logs
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["audit", GAME, "--log", str(rounds), "--wagers", str(counting)])
    return code, out.getvalue(), err.getvalue()


def _rows(text: str) -> dict[tuple[str, str], list[str]]:
    """The wager table's rows by (account, bet)."""
    found = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 10 and cells[0] not in ("account", "") and not cells[0].startswith(":-"):
            found[(cells[0], cells[1])] = cells
    return found


def test_the_counter_is_named_and_nobody_when_it_bets_blind(logs, counted, valued):
    """The counter through ``odds audit`` (exit code, report, the line on stderr); the same
    counter blind judged in-process at the audit's wager α (half its default 0.01), on the
    same shoes valued once, not by a second run of the whole audit (the round log read and its
    shoe study again: 4 CPU-s). The exit code of a wager audit naming nobody is that of
    :func:`test_a_parquet_wager_log_with_numeric_stakes`."""
    from odds.tools.audit.wager_report import wager_lines
    from odds.tools.audit.wager_test import DRAWS, judge_wagers
    from odds.tools.audit.wagers import read_wagers

    _, _, blind = logs
    code, out, err = counted
    assert code == 1, err
    named = re.findall(r"Finding: account (\S+) bets (\S+) when the shoe favours it", out)
    assert named == [("counter-5", "dragon-7")]
    finding = next(line for line in out.splitlines() if "account counter-5" in line)
    assert "edge captured" in finding and "the rounds that weigh most: shoe" in finding
    assert "account(s) named: counter-5 (dragon-7)" in err
    table = _rows(out)
    assert {a for a, _ in table} == {"random-1", "progression-2", "late-3", "random-4", "counter-5"}
    game, config, shoes, values = valued
    bets = [b.name for b in load(GAME).bet_analysis().bets]
    log = read_wagers(blind, shoes, bets)
    assert log.rejected_total == 0 and len(log.wagers) > 1000
    audit = judge_wagers(game, config, shoes, log, 0.01 / 2, DRAWS, values=values)
    assert audit.named == ()
    text = "\n".join(wager_lines(audit))
    assert "Finding: account" not in text
    assert "Verdict, wagers: no account bets with the shoe beyond chance." in text


def test_a_late_shoe_bettor_is_not_named(counted):
    """Betting late in every shoe, whatever the cards: shoe permutation keeps its timing."""
    _, out, _ = counted
    late = _rows(out)[("late-3", "dragon-7")]
    assert float(late[-1]) > 0.01  # its p-value
    assert "account late-3" not in out


def test_rejected_rows_are_named_never_used(run, logs, two_shoes, tmp_path):
    rounds, counting = two_shoes, logs[1]
    with counting.open(encoding="utf-8") as handle:
        good = list(csv.reader(handle))[:6]
    shoe, round_ = good[1][0], good[1][1]
    bad = [
        [shoe, "99999", "x", "banker", "10"],  # no such round
        [shoe, round_, "x", "dragon-8", "10"],  # unknown bet
        [shoe, round_, "x", "banker", "\u0662\u0665"],  # Arabic-Indic digits
        [shoe, round_, "x", "banker", "-5"],
        [shoe, round_, "x", "banker", "ten"],
        [shoe, round_, "x", "banker", "0"],
    ]
    path = tmp_path / "w.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([*good, *bad])
    code, out, err = run("audit", GAME, "--log", str(rounds), "--wagers", str(path))
    assert code == 3  # rows not used are no evidence: INCONCLUSIVE, never a pass or FLAGGED
    assert "Rows read: 11; used: 5; rejected: 6" in out
    for line, reason in [
        (7, "round '99999' is not a round of the round log"),
        (8, "unknown bet 'dragon-8'"),
        (9, "stake not in ASCII digits"),
        (10, "negative stake"),
        (11, "stake not a number"),
        (12, "zero stake"),
    ]:
        assert f"- line {line}: " in out and reason in out
    assert "6 wager row(s) rejected" in err


def test_wager_columns_map_other_names_and_a_missing_one_is_one_line(
    run, logs, two_shoes, tmp_path
):
    rounds, counting = two_shoes, logs[1]
    text = counting.read_text(encoding="utf-8").splitlines()
    path = tmp_path / "renamed.csv"
    path.write_text("\n".join(["Shoe,Round,player_id,bet,amount", *text[1:200]]) + "\n")
    code, out, _ = run(
        "audit",
        GAME,
        "--log",
        str(rounds),
        "--wagers",
        str(path),
        "--wager-columns",
        "account=player_id,stake=amount",
    )
    assert code in (0, 1) and "Rows read: 199; used: 199; rejected: 0" in out
    code, _, err = run("audit", GAME, "--log", str(rounds), "--wagers", str(path))
    assert code == 2 and "no 'account' column" in err and "Traceback" not in err


def test_a_parquet_wager_log_with_numeric_stakes(run, logs, two_shoes, tmp_path):
    import duckdb

    rounds, counting = two_shoes, logs[1]
    path = tmp_path / "w.parquet"
    con = duckdb.connect()
    con.execute(
        f"COPY (SELECT shoe::VARCHAR AS shoe, round::VARCHAR AS round, account, bet, "
        f"stake::DOUBLE AS stake FROM read_csv('{counting}', all_varchar = true) LIMIT 300) "
        f"TO '{path}' (FORMAT parquet)"
    )
    con.close()
    code, out, err = run("audit", GAME, "--log", str(rounds), "--wagers", str(path))
    # two shoes: no permutation of two can put an account beyond chance, so nobody is named
    # and the exit code of a wager audit that names nobody, on an honest round log, is 0
    assert code == 0, err
    assert "Rows read: 300; used: 300; rejected: 0" in out and "row 2" not in out
    assert "Finding: account" not in out
    assert "Verdict, wagers: no account bets with the shoe beyond chance." in out


def test_stakes_and_holm():
    assert parse_stake("25") == (Fraction(25), "")
    assert parse_stake("2.5")[0] == Fraction(5, 2)
    for text in ("-1", "1e3", "1,000", "\uff11", "", "0.00"):
        assert parse_stake(text)[0] is None
    assert holm([0.001, 0.02, 0.5], 0.05) == [True, True, False]
    assert holm([0.02, 0.02], 0.03) == [False, False]


# -- the valuation against an independent brute force -----------------------------------


def _points(rank: int) -> int:
    return rank if rank < 10 else 0


@cache
def _brute(counts: tuple[int, ...]) -> dict[str, Fraction]:
    """EZ Baccarat EVs dealt from point-value counts (0…9), by the tableau, card by card."""
    ev = {b: Fraction(0) for b in ("banker", "player", "tie", "dragon-7", "panda-8")}

    def deal(counts: list[int], weight: Fraction, need: int, cards: list[int]) -> None:
        if need == 0:
            settle(counts, weight, cards)
            return
        left = sum(counts)
        for v in range(10):
            if counts[v]:
                counts[v] -= 1
                deal(counts, weight * (counts[v] + 1) / left, need - 1, [*cards, v])
                counts[v] += 1

    def settle(counts: list[int], weight: Fraction, cards: list[int]) -> None:
        player, banker = cards[:2], cards[2:4]
        p, b = sum(player) % 10, sum(banker) % 10
        if p >= 8 or b >= 8:
            score(weight, player, banker)
            return
        if p <= 5:
            left = sum(counts)
            for v in range(10):
                if counts[v]:
                    counts[v] -= 1
                    banker_turn(counts, weight * (counts[v] + 1) / left, [*player, v], banker, v)
                    counts[v] += 1
            return
        banker_turn(counts, weight, player, banker, None)

    def banker_turn(
        counts: list[int], weight: Fraction, player: list[int], banker: list[int], third
    ) -> None:
        b = sum(banker) % 10
        if third is None:
            draws = b <= 5
        else:
            draws = b <= 2 or (
                (b == 3 and third != 8)
                or (b == 4 and 2 <= third <= 7)
                or (b == 5 and 4 <= third <= 7)
                or (b == 6 and third in (6, 7))
            )
        if not draws:
            score(weight, player, banker)
            return
        left = sum(counts)
        for v in range(10):
            if counts[v]:
                score(weight * counts[v] / left, player, [*banker, v])

    def score(weight: Fraction, player: list[int], banker: list[int]) -> None:
        p, b = sum(player) % 10, sum(banker) % 10
        dragon = b > p and b == 7 and len(banker) == 3
        panda = p > b and p == 8 and len(player) == 3
        ev["banker"] += weight * (0 if b == p or dragon else (1 if b > p else -1))
        ev["player"] += weight * (0 if b == p else (1 if p > b else -1))
        ev["tie"] += weight * (8 if b == p else -1)
        ev["dragon-7"] += weight * (40 if dragon else -1)
        ev["panda-8"] += weight * (25 if panda else -1)

    deal(list(counts), Fraction(1), 4, [])
    return ev


def test_each_round_is_valued_as_a_brute_force_deals_its_state():
    """One deck; eight rounds take 40 cards, the ninth is dealt from the 12 kept."""
    paytable = load(GAME, decks=1)
    game, config = paytable.game, paytable.config
    shoe = game.shoe(config)
    kept = {(r, s) for r, s in [(7, 0), (7, 1), (8, 0), (9, 0), (1, 0), (2, 0), (3, 0)]}
    kept |= {(4, 0), (5, 0), (6, 0), (13, 0), (12, 0)}
    texts = [(int(t.rank), int(t.suit)) for t in shoe.types]
    removed = [i for i, key in enumerate(texts) if key not in kept]
    assert len(removed) == 40
    rounds = [removed[k : k + 5] for k in range(0, 40, 5)] + [[]]
    bets = ["banker", "player", "tie", "dragon-7", "panda-8"]
    values = value_shoes(game, config, [dealt_shoe("1", rounds)], bets)
    assert values.evs[0][0] == values.top  # the first round: off the top
    state = [0] * 10
    for i in range(len(shoe.types)):
        if i not in removed:
            state[_points(texts[i][0])] += 1
    assert values.evs[0][-1] == _brute(tuple(state))
    assert values.evs[0][-1]["dragon-7"] != values.top["dragon-7"]


def test_a_log_without_shoes_is_refused_in_one_line(run, tmp_path):
    rounds = tmp_path / "r.csv"
    assert run("simulate", GAME, "--rounds", "50", "-o", str(rounds))[0] == 0
    wagers = tmp_path / "w.csv"
    wagers.write_text("shoe,round,account,bet,stake\n1,1,a,banker,10\n", encoding="utf-8")
    code, _, err = run("audit", GAME, "--log", str(rounds), "--wagers", str(wagers))
    assert code == 2 and "dealt shoe by shoe" in err and "Traceback" not in err


def test_simulate_writes_wagers_that_join_its_rounds(run, tmp_path):
    rounds, wagers = tmp_path / "r.csv", tmp_path / "w.csv.gz"
    code, _, err = run(
        "simulate",
        GAME,
        "--rounds",
        "200",
        "--penetration",
        "96%",
        "-o",
        str(rounds),
        "--wagers",
        str(wagers),
        "--counted",
        "panda-8",
    )
    assert code == 0 and "wagers to" in err
    code, out, _ = run("audit", GAME, "--log", str(rounds), "--wagers", str(wagers))
    assert "rejected: 0; over 3 shoes" in out
    assert "| counter-5     | panda-8" in out


def test_simulate_wagers_needs_shoes_dealt_through(run, tmp_path):
    code, _, err = run("simulate", GAME, "--rounds", "10", "--wagers", str(tmp_path / "w.csv"))
    assert code == 2 and "add --penetration" in err


# -- the null of the permutation: stakes fixed by depth, apart from the cards ---------------


def _depth_rule(values, rule, account: str) -> list:
    """Wagers of an account whose stake in a round is ``rule(shoe, depth at its start)``."""
    from odds.tools.audit.wagers import Wager

    wagers = []
    for s, shown in enumerate(values.depths):
        for r in range(len(shown) - 1):
            stake = rule(s, shown[r])
            if stake:
                for bet in ("banker", "dragon-7"):
                    wagers.append(Wager(len(wagers) + 2, s, r, account, bet, Fraction(stake)))
    return wagers


def test_the_bound_is_at_least_the_exact_permutation_of_a_pattern_fixed_by_depth(valued):
    """The null: a stake fixed by the depth at which a round starts, apart from the cards.
    Knowing that rule, the exact permutation test moves it onto every other shoe as it is; the
    test, which sees the rule only at its own shoe's round starts, nets at least as much in
    every permutation, so its p-value is at least the exact one (valid). Rules: late in every
    shoe from the same depth (every permutation ties: p = 1), from a depth of each shoe's own,
    and two stretches at two stakes."""
    import random

    import numpy as np

    from odds.tools.audit.wager_test import MAPPING, _moves, _permute, _targets, _Test

    _, _, shoes, values = valued
    pick = random.Random(3)
    cuts = [(pick.randrange(100, 250), pick.randrange(20, 60)) for _ in shoes]
    rules = {
        "late": lambda s, d: 10 if d >= 277 else 0,
        "later": lambda s, d: 10 if d >= 200 + 7 * s else 0,
        "stretches": lambda s, d: (
            25 if cuts[s][0] <= d < cuts[s][0] + cuts[s][1] else (5 if d > 330 else 0)
        ),
    }
    n = len(shoes)
    for name, rule in rules.items():
        for bet in ("banker", "dragon-7"):
            wagers = [w for w in _depth_rule(values, rule, name) if w.bet == bet]
            top = values.top[bet]
            exact = np.zeros((n, n))  # the rule itself, moved onto every shoe
            for a in range(n):
                for b, (evs, shown) in enumerate(zip(values.evs, values.depths, strict=True)):
                    exact[a, b] = sum(
                        rule(a, shown[r]) * float(state[bet] - top)
                        for r, state in enumerate(evs)
                        if state is not None
                    )
            arrays = (
                np.array([w.shoe for w in wagers]),
                np.array([w.round for w in wagers]),
                np.array([float(w.stake) for w in wagers]),
                float(top),
            )
            bound = _Test(
                *arrays, _moves(values, wagers, _targets(values, bet, MAPPING), MAPPING, n), None
            )
            truth = _Test(*arrays, exact, None)
            assert bound.t == pytest.approx(truth.t, abs=1e-9)
            _permute([bound, truth], n, 999, 7)
            seen = min(len(bound.seen), len(truth.seen))
            assert all(
                x >= y - 1e-9 for x, y in zip(bound.seen[:seen], truth.seen[:seen], strict=True)
            ), (name, bet)
            assert bound.p >= truth.p, (name, bet)
            if name == "late":
                assert bound.p == 1.0


def test_every_mapping_reads_an_account_in_its_own_shoe_exactly(valued):
    """The permutation's identity gives back the account's own figure whatever the mapping:
    its net beyond the top of the shoe at the states it bet in."""
    import random

    import numpy as np

    from odds.tools.audit.wager_test import MAPPINGS, _moves, _targets

    _, _, shoes, values = valued
    pick = random.Random(5)
    wagers = _depth_rule(values, lambda s, d: pick.choice((0, 0, 5, 10, 25)), "random")
    wagers = [w for w in wagers if w.bet == "dragon-7"]
    top = values.top["dragon-7"]
    own = sum(w.stake * (values.evs[w.shoe][w.round]["dragon-7"] - top) for w in wagers)
    for mapping in MAPPINGS:
        moves = _moves(values, wagers, _targets(values, "dragon-7", mapping), mapping, len(shoes))
        assert np.trace(moves) == pytest.approx(float(own), abs=1e-9), mapping


def test_an_account_that_goes_with_the_shoe_but_expects_to_lose_is_noted_not_named(valued):
    """Who is named: beyond chance *and* a gain at the states chosen. An account that bets the
    Banker every round, fifty times as much whenever the shoe has raised the Banker's EV a
    quarter of a percent above its top-of-shoe value, goes with the shoe beyond any chance (it
    reads the cards), yet at a house edge of about 1% it expects to lose at the states it
    chose: noted, never named — the case of a martingale, whose stakes follow its results and
    so, weakly, the cards. The same ramp on Dragon 7 where the shoe turns it positive expects
    to win there: named."""
    from odds.tools.audit.wager_report import wager_lines
    from odds.tools.audit.wager_test import judge_wagers
    from odds.tools.audit.wagers import Wager, WagerLog

    game, config, shoes, values = valued
    wagers = []
    for s, evs in enumerate(values.evs):
        for r, state in enumerate(evs):
            if state is None:
                continue
            for bet in ("banker", "dragon-7"):
                floor = values.top[bet] + Fraction(1, 400) if bet == "banker" else 0
                stake = 50 if state[bet] > floor else 1
                wagers.append(Wager(len(wagers) + 2, s, r, f"ramp-{bet}", bet, Fraction(stake)))
    log = WagerLog("ramp.csv", "line", len(wagers), tuple(wagers), (), {})
    audit = judge_wagers(game, config, shoes, log, 0.005, draws=499, values=values)
    by_bet = {r.bet: r for r in audit.results}
    banker, dragon = by_bet["banker"], by_bet["dragon-7"]
    assert banker.beyond_chance and banker.edge > 0 and banker.chosen < 0
    assert not banker.named and audit.losing == (banker,)
    assert dragon.beyond_chance and dragon.chosen > 0 and audit.named == (dragon,)
    text = "\n".join(wager_lines(audit))
    assert "Finding: account ramp-dragon-7 bets dragon-7" in text
    assert "Note: account ramp-banker bets banker with the shoe beyond chance" in text
    assert "not beating the game, not named." in text
