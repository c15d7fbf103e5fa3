"""Every command on a game with a player decision (issue 36, item 6): simulate plays the
optimal or the fixed strategy and logs the action, audit tests a log against the strategy
its actions follow and names the rounds played otherwise, solve re-optimises the strategy
at every payout, verify names the house edge per initial wager and the element of risk.

Checked against the plain Three Card Poker of ``tests/reference/three_card_poker.py`` (hand
keys, the Play net, "at least" strategies) and Casino War's rules counted by hand here;
the published strategy and figures are Wizard of Odds' (play Q-6-4 or better; house edge
3.37% per ante, element of risk 2.01%; Casino War 6 decks: 2.88% going to war, 3.70%
surrendering), as the tables' descriptions cite them.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
import sympy

from odds.games.paytable import TABLES, load
from odds.tools.solve import solve
from odds.tools.variants import variant
from tests.reference.three_card_poker import (
    HIGH,
    QUALIFIES,
    at_least,
    key,
    play_net,
)

SUITS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
WAR_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11}


def _cards(text: str) -> tuple[tuple[int, int], ...]:
    from tests.reference.three_card_poker import card

    return tuple(sorted(card(c[:-1] + SUITS[c[-1]]) for c in text.split()))


def _war_rank(card: str) -> int:
    return WAR_RANKS.get(card[:-1]) or int(card[:-1])


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _write(path: Path, rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


@pytest.fixture(scope="module")
def mimic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three Card Poker whose fixed strategy is "mimic the dealer" (Q-high or better),
    which plays 480 hands otherwise than the optimum."""
    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    published = (
        'strategy = { name = "q-6-4", label = "Play Q-6-4 or better (the published strategy)", '
        'play = { at_least = "Q 6 4" } }'
    )
    assert published in text
    text = text.replace(
        published,
        'strategy = { name = "mimic", label = "Mimic the dealer", play = { at_least = "Q 3 2" } }',
    )
    path = tmp_path_factory.mktemp("mimic") / "mimic.toml"
    path.write_text(text, encoding="utf-8")
    return path


# -- simulate ---------------------------------------------------------------


def test_simulate_logs_the_optimal_action_of_every_round(run, tmp_path: Path) -> None:
    log = tmp_path / "tcp.csv"
    assert (
        run("simulate", "three-card-poker", "--rounds", "300", "--seed", "5", "-o", str(log))[0]
        == 0
    )
    rows = _rows(log)
    assert list(rows[0]) == ["shoe", "round", "player", "dealer", "action"]
    published = at_least("Q 6 4")  # Wizard of Odds: play Q-6-4 or better
    assert [r["action"] for r in rows] == [
        "play" if published(_cards(r["player"])) else "fold" for r in rows
    ]
    assert {r["action"] for r in rows} == {"play", "fold"}


def test_simulate_logs_the_war_only_on_a_tie(run, tmp_path: Path) -> None:
    log = tmp_path / "war.csv"
    assert run("simulate", "casino-war", "--rounds", "300", "--seed", "5", "-o", str(log))[0] == 0
    rows = _rows(log)
    for row in rows:
        tie = _war_rank(row["player"].split()[0]) == _war_rank(row["dealer"].split()[0])
        assert row["action"] == ("war" if tie else "")  # war is optimal at every tie
    assert any(r["action"] for r in rows)


def test_simulate_plays_the_fixed_strategy(run, mimic: Path, tmp_path: Path) -> None:
    log = tmp_path / "mimic.csv"
    code, _, _ = run("simulate", str(mimic), "--rounds", "300", "--seed", "6",
                     "--strategy", "mimic", "-o", str(log))  # fmt: skip
    assert code == 0
    dealer_rule = at_least("Q 3 2")
    rows = _rows(log)
    assert [r["action"] for r in rows] == [
        "play" if dealer_rule(_cards(r["player"])) else "fold" for r in rows
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("three-card-poker", "--strategy", "q-6-5"), "strategies are optimal, q-6-4"),
        (("casino-war", "--strategy", "always-war"), "casino-war's strategies are optimal"),
        (("dragon-tiger", "--strategy", "optimal"), "dragon-tiger has no player decision"),
    ],
)
def test_a_strategy_the_game_has_not_is_one_line(run, args: tuple[str, ...], message: str) -> None:
    code, out, err = run("simulate", *args, "--rounds", "5")
    assert code == 2 and not out
    assert message in err and err.count("\n") == 1


# -- audit ------------------------------------------------------------------


def _audit(run, game: str, log: Path) -> tuple[int, dict]:
    code, out, _ = run("audit", game, "--log", str(log), "--format", "json")
    return code, json.loads(out)


def test_audit_tests_a_log_against_the_strategy_its_actions_follow(
    run, mimic: Path, tmp_path: Path
) -> None:
    log = tmp_path / "mimic.csv"
    run("simulate", str(mimic), "--rounds", "400", "--seed", "7", "--strategy", "mimic",
        "-o", str(log))  # fmt: skip
    code, found = _audit(run, str(mimic), log)
    assert code == 0 and found["verdict"].startswith("PASS")
    assert found["strategy"] == "mimic" and found["departures"] == 0
    optimal = at_least("Q 6 4")
    dealer_rule = at_least("Q 3 2")
    otherwise = sum(
        optimal(_cards(r["player"])) != dealer_rule(_cards(r["player"])) for r in _rows(log)
    )
    assert found["against"] == {"optimal": otherwise, "mimic": 0} and otherwise > 0
    # The outcome law is the fixed strategy's: it folds every hand below Q-3-2.
    deck = [(r, s) for r in range(2, 15) for s in range(4)]
    below = sum(key(h) < (HIGH, (12, 3, 2)) for h in combinations(deck, 3))
    fold = next(t for t in found["chi_square"] if t["test"] == "bet ante-play: outcome events")
    cell = next(c for c in fold["cells"] if c["labels"] == ["player folds"])
    assert Fraction(cell["expected"]) == 400 * Fraction(below, 22100)
    ante = next(r for r in found["returns"] if r["bet"] == "ante-play")
    assert Fraction(ante["exact_rtp"]) == 1 - Fraction(702190, 20358520)  # 3.4491% per ante


def test_a_fold_the_strategy_plays_is_a_finding_about_play(run, tmp_path: Path) -> None:
    log = tmp_path / "tcp.csv"
    run("simulate", "three-card-poker", "--rounds", "300", "--seed", "8", "-o", str(log))
    rows = _rows(log)
    folded = [r for r in rows if r["action"] == "play"][:12]
    for row in folded:
        row["action"] = "fold"
    _write(log, rows)
    code, found = _audit(run, "three-card-poker", log)
    assert code == 0 and found["verdict"].startswith("PASS")  # the dealing is not at fault
    assert found["strategy"] == "optimal" and found["departures"] == 12
    assert [n["round"] for n in found["named"]] == [
        f"shoe {r['shoe']} round {r['round']}" for r in folded[:10]
    ]
    lost = sum(-1 - play_net(_cards(r["player"]), _cards(r["dealer"])) for r in folded)
    assert Fraction(found["net"]) == lost


def test_surrendering_every_war_is_named_with_its_exact_net(run, tmp_path: Path) -> None:
    log = tmp_path / "war.csv"
    run("simulate", "casino-war", "--rounds", "400", "--seed", "9", "-o", str(log))
    rows = _rows(log)
    ties = [r for r in rows if r["action"] == "war"]
    for row in ties:
        row["action"] = "surrender"
    _write(log, rows)
    code, found = _audit(run, "casino-war", log)
    assert code == 0 and found["departures"] == len(ties) > 0
    assert found["decided"] == len(ties)

    def war_net(row: dict[str, str]) -> int:  # war 1:1, a war tie 1 (war_tie), lower: -2
        mine, theirs = (_war_rank(row[p].split()[1]) for p in ("player", "dealer"))
        return 1 if mine >= theirs else -2

    assert Fraction(found["net"]) == sum(Fraction(-1, 2) - war_net(r) for r in ties)
    code, out, _ = run("audit", "casino-war", "--log", str(log))
    assert code == 0
    assert f"Play finding (not a fault of the dealing): {len(ties)} rounds" in out


def test_a_parquet_log_is_read_with_its_actions(run, tmp_path: Path) -> None:
    log = tmp_path / "war.parquet"
    run("simulate", "casino-war", "--rounds", "300", "--seed", "9", "-o", str(log))
    code, found = _audit(run, "casino-war", log)
    assert code == 0 and found["strategy"] == "optimal"
    assert found["decided"] > 0 and found["departures"] == 0


def test_an_action_the_game_has_not_is_one_line(run, tmp_path: Path) -> None:
    log = tmp_path / "war.csv"
    run("simulate", "casino-war", "--rounds", "50", "--seed", "9", "-o", str(log))
    rows = _rows(log)
    rows[3]["action"] = "raise"
    _write(log, rows)
    code, out, err = run("audit", "casino-war", "--log", str(log))
    assert code == 2 and not out
    assert "round shoe 4 round 4: action 'raise' is not one of war, surrender" in err


# -- solve ------------------------------------------------------------------


def _rtp_by_report(run, game: str, setting: str, bet: str) -> Fraction:
    code, out, _ = run("report", game, "--set", setting, "--format", "json")
    assert code == 0
    return Fraction(next(b for b in json.loads(out)["bets"] if b["name"] == bet)["rtp"])


def test_solve_reoptimises_the_war_at_every_payout(run) -> None:
    casino_war = load("casino-war")
    target = Fraction(9631, 10000)
    solution = solve(casino_war, "main", "payouts.war_win", target)
    (root,) = solution.solutions
    value = Fraction(int(root.p), int(root.q))
    assert value == Fraction(259312513, 340032000)
    assert solution.strategy == "war whenever the deal goes on"
    assert _rtp_by_report(run, "casino-war", f"payouts.war_win={value}", "main") == target
    # Below what surrendering returns, no war payout reaches the target: the strategy found
    # at war_win = 1 (always war) would have answered 285661/425040, where surrender is
    # optimal and the bet returns 1 − 23/622 (house edge 3.70%, Wizard of Odds): half a
    # unit lost on each tie, a tie being 23/311 of six decks (24·23 of 312·311 per rank).
    low = solve(casino_war, "main", "payouts.war_win", Fraction(96, 100))
    assert not low.solutions
    assert low.strategy == "surrender whenever the deal goes on"
    assert Fraction(1, 2) * Fraction(13 * 24 * 23, 312 * 311) == Fraction(23, 622)
    assert "96.3023% at payouts.war_win = 0" in low.achievable
    frozen = f"payouts.war_win={Fraction(285661, 425040)}"
    assert _rtp_by_report(run, "casino-war", frozen, "main") == 1 - Fraction(23, 622)
    # From war_win = 0, where surrendering is optimal and the RTP is flat in the payout, the
    # solve climbs to a value where the war pays, then falls to the same answer.
    flat = variant(casino_war, {"payouts.war_win": "0"})
    high = solve(flat, "main", "payouts.war_win", Fraction(97, 100))
    assert (
        high.solutions == solve(casino_war, "main", "payouts.war_win", Fraction(97, 100)).solutions
    )
    assert high.solutions[0] == sympy.Rational(3278311, 3400320)
    code, _, err = run("solve", "casino-war", "--bet", "main", "--target-rtp", "96%",
                       "--vary", "payouts.war_win")  # fmt: skip
    assert code == 1 and "96.3023%" in err


#: A reduced deck for the solve of a decision on the deal: four ranks of four suits (no
#: straight), 560 player hands against 455 dealer hands each, walked by the plain reference.
SOLVE_RANKS = ("3", "7", "Q", "K")


def _plain_evs(deck: list[tuple[int, int]], *play_wins: Fraction) -> list[tuple[Fraction, set]]:
    """For each ``play_win``: the EV per Ante of Ante and Play with the Ante Bonus riding on it,
    the win (any hand beating a qualifying dealer) paying ``play_win`` in place of 2, each
    hand's action re-chosen by exact EV (play on a tie), and the hands played:
    tests/reference/three_card_poker.py's rules, walked once for every payout (the deals do not
    depend on it: each hand's nets at 2 and its count of such wins)."""
    hands = list(combinations(deck, 3))
    walked = []
    for player in hands:
        mine = key(player)
        rest = [c for c in deck if c not in player]
        net, wins, deals = 0, 0, 0
        for dealer in combinations(rest, 3):
            net += play_net(player, dealer)  # the Ante Bonus included
            wins += key(dealer) >= QUALIFIES and mine > key(dealer)
            deals += 1
        walked.append((player, net, wins, deals))
    found = []
    for play_win in play_wins:
        total, played = Fraction(0), set()
        for player, net, wins, deals in walked:
            # The outcome the payout names pays 2 in the published table.
            play = Fraction(net + wins * (play_win - 2), deals)
            if play >= -1:
                played.add(player)
            total += max(play, Fraction(-1))
        found.append((total / len(hands), played))
    return found


def test_solve_moves_the_three_card_poker_threshold(run, tmp_path: Path) -> None:
    """The Play win as a payout, on a reduced deck: the strategy at the solution is another
    than at the published payout, and the plain walk re-choosing every hand's action gives
    the target exactly there, as report --set does."""
    from odds.core.cards import STANDARD_DECK
    from tests.reference.three_card_poker import reduced_deck

    text = (TABLES / "three-card-poker.toml").read_text(encoding="utf-8")
    win = (
        'when = { action = "play", winner = "player", dealer = { at_least = "Q 3 2" } }, '
        "pays = 2, wagered = 2 },"
    )
    assert text.count(win) == 1
    text = text.replace(win, win.replace("pays = 2", 'pays = "play_win"'))
    text = text.replace("pair = 1\n", "pair = 1\nplay_win = 2\n", 1)
    counts = ", ".join(f'"{c.code}" = {int(c.code[:-1] in SOLVE_RANKS)}' for c in STANDARD_DECK)
    text = text.replace("[shoe]\ndecks = 1\n", f"[shoe]\ndecks = 1\ncounts = {{ {counts} }}\n", 1)
    path = tmp_path / "play-win.toml"
    path.write_text(text, encoding="utf-8")
    target = Fraction(9, 10)
    solution = solve(load(str(path)), "ante-play", "payouts.play_win", target)
    (root,) = solution.solutions
    value = Fraction(int(root.p), int(root.q))
    assert solution.strategy == "play K-Q-7 or better, fold K-Q-3 and below"
    assert _rtp_by_report(run, str(path), f"payouts.play_win={value}", "ante-play") == target
    (ev, played), (published_ev, published) = _plain_evs(
        reduced_deck(SOLVE_RANKS), value, Fraction(2)
    )
    assert 1 + ev == target
    assert 1 + published_ev == _rtp_by_report(run, str(path), "payouts.play_win=2", "ante-play")
    assert played < published  # fewer hands played: the strategy was re-optimised


# -- verify -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "claim", "basis"),
    [
        ("three-card-poker", "3.37%", "per initial wager (house edge)"),
        ("three-card-poker", "2.01%", "per total wager (element of risk)"),
        ("casino-war", "2.88%", "per initial wager (house edge)"),
    ],
)
def test_verify_names_the_house_edge_and_the_element_of_risk(
    run, game: str, claim: str, basis: str
) -> None:
    bet = "ante-play" if game == "three-card-poker" else "main"
    code, out, _ = run("verify", game, "--house-edge", claim, "--bet", bet)
    assert code == 0
    assert f"the claim MATCHES under the paytable's reading ({basis})" in out
    assert f"Note: {bet}: a decision adds stakes" in out
    assert "house edge per initial wager" in out and "element of risk (per total wager)" in out
