"""odds audit / odds simulate: chi-square against exact odds, honest vs doctored logs."""

from __future__ import annotations

import csv
import json
import random
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest

from odds.cli import main
from odds.core.errors import OddsError
from odds.stats.chisquare import Cell, chi2_sf, gamma_q, goodness_of_fit, merge_sparse
from odds.tools.audit.logs import log_hand_sizes

# -- the chi-square tail ------------------------------------------------------


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 10, 23, 50, 120])
@pytest.mark.parametrize("x", [0.001, 0.3, 1.0, 2.5, 6.0, 11.0, 25.0, 60.0, 150.0, 400.0])
def test_chi2_sf_matches_mpmath_regularized_gamma(df, x):
    reference = float(
        mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(x) / 2, mpmath.inf, regularized=True)
    )
    assert chi2_sf(x, df) == pytest.approx(reference, rel=1e-11, abs=1e-300)


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    # Critical values from printed chi-square tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4).
    [
        (3.841, 1, 0.05),
        (6.635, 1, 0.01),
        (5.991, 2, 0.05),
        (11.070, 5, 0.05),
        (18.307, 10, 0.05),
        (23.209, 10, 0.01),
        (35.172, 23, 0.05),
        (2.706, 1, 0.10),
    ],
)
def test_chi2_sf_reproduces_table_critical_values(statistic, df, p):
    assert chi2_sf(statistic, df) == pytest.approx(p, abs=5e-5)


def test_gamma_q_closed_forms():
    # Q(1, x) = e^-x; chi-square with 2 df has tail e^(-x/2).
    assert gamma_q(1.0, 3.0) == pytest.approx(mpmath.e**-3, rel=1e-14)
    assert chi2_sf(10.0, 2) == pytest.approx(float(mpmath.e**-5), rel=1e-14)
    assert chi2_sf(0.0, 4) == 1.0


def test_statistic_is_pearsons_from_exact_expected_counts():
    cells = [
        Cell(("a",), Fraction(1, 2), 60),
        Cell(("b",), Fraction(1, 3), 25),
        Cell(("c",), Fraction(1, 6), 15),
    ]
    fit = goodness_of_fit(cells)
    # E = 50, 100/3, 50/3
    expected = (
        Fraction(10**2, 50)
        + Fraction(25 - Fraction(100, 3)) ** 2 / Fraction(100, 3)
        + (15 - Fraction(50, 3)) ** 2 / Fraction(50, 3)
    )
    assert fit.statistic == expected and fit.df == 2


def test_sparse_cells_merge_smallest_first_until_five_expected():
    cells = [
        Cell(("big",), Fraction(90, 100), 90),
        Cell(("x",), Fraction(2, 100), 2),
        Cell(("y",), Fraction(3, 100), 3),
        Cell(("z",), Fraction(5, 100), 5),
    ]
    merged = merge_sparse(cells, 100)
    # x (2) + y (3) = 5 ≥ 5: two groups of small cells are not needed.
    assert [c.labels for c in merged] == [("big",), ("x", "y"), ("z",)]
    assert all(c.expected(100) >= 5 for c in merged)
    assert [c.labels for c in merge_sparse(cells, 60)] == [("big",), ("x", "y", "z")]
    # With 40 rounds even x + y + z expects only 4: everything merges, nothing to test.
    assert [c.labels for c in merge_sparse(cells, 40)] == [("big", "x", "y", "z")]


def test_observed_impossible_event_fails_outright():
    cells = [Cell(("a",), Fraction(1), 10), Cell(("never",), Fraction(0), 1)]
    fit = goodness_of_fit(cells)
    assert fit.impossible == ("never",) and fit.p_value == 0.0


# -- logs ---------------------------------------------------------------------


def _simulate(path: Path, rounds: int, seed: int, *extra: str) -> None:
    assert (
        main(
            [
                "simulate",
                "pok-deng",
                "--rounds",
                str(rounds),
                "--seed",
                str(seed),
                "--out",
                str(path),
                *extra,
            ]
        )
        == 0
    )


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _write(path: Path, rows: list[dict[str, str]], fields: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def test_simulation_is_seeded_and_deals_from_the_shoe(tmp_path):
    a, b, c = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv"
    _simulate(a, 50, 3)
    _simulate(b, 50, 3)
    _simulate(c, 50, 4)
    assert a.read_text() == b.read_text() != c.read_text()
    rows = _read(a)
    assert list(rows[0]) == ["shoe", "round", "banker", "player"]
    assert all(len(r["banker"].split()) == 2 == len(r["player"].split()) for r in rows)
    # a fresh shuffle every round: every round is its own shoe
    assert [r["shoe"] for r in rows] == [r["round"] for r in rows] == [str(i) for i in range(1, 51)]


def test_a_simulated_shoe_is_numbered_until_its_reshuffle(tmp_path):
    """Issue 20: the log names each round's shoe (--penetration 75%: 416 × 0.75 / 4 cards)."""
    path = tmp_path / "shoe.csv"
    _simulate(path, 200, 7, "--penetration", "75%")
    rows = _read(path)
    shoes = [int(r["shoe"]) for r in rows]
    assert shoes == sorted(shoes) and shoes[0] == 1
    sizes = [shoes.count(s) for s in sorted(set(shoes))]
    assert sizes[:-1] == [78] * (len(sizes) - 1)  # 312 cards dealt of 416, 4 per round
    for shoe in set(shoes):  # no card is dealt twice within a shoe's 312 cards
        cards = [
            c
            for r in rows
            if int(r["shoe"]) == shoe
            for h in ("banker", "player")
            for c in r[h].split()
        ]
        assert max(cards.count(c) for c in cards) <= 8


@pytest.fixture(scope="module")
def honest_log(tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "honest.csv"
    _simulate(path, 3000, 2024)
    return path


def _audit_json(capsys, log: Path, *extra: str) -> tuple[int, dict]:
    code = main(["audit", "pok-deng", "--log", str(log), "--format", "json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_honest_log_passes(capsys, honest_log):
    code, result = _audit_json(capsys, honest_log)
    assert code == 0 and result["flagged"] is False
    assert result["rounds"] == 3000 and result["rejected"] == []
    names = [t["test"] for t in result["chi_square"]]
    assert names == [
        "bet player: outcome events",
        "bet player-pair: outcome events",
        "hand classes: banker",
        "hand classes: player",
    ]
    assert all(t["pass"] for t in result["chi_square"] + result["returns"])


def test_honest_log_dealt_through_a_shoe_passes(capsys, tmp_path):
    path = tmp_path / "shoe.csv"
    _simulate(path, 3000, 99, "--penetration", "75%")
    code, result = _audit_json(capsys, path)
    assert code == 0 and not result["flagged"]


def _doctor_pairs(rows: list[dict[str, str]], seed: int) -> None:
    """Deal the player a pair at twice the exact rate 6448/86320 (by rewriting non-pairs)."""
    rate = Fraction(6448, 86320)
    rewrite = float(rate / (1 - rate))
    rng = random.Random(seed)
    for row in rows:
        first, second = row["player"].split()
        if first[:-1] != second[:-1] and rng.random() < rewrite:
            suit = "♣" if first[-1] != "♣" else "♦"
            row["player"] = f"{first} {first[:-1]}{suit}"


def test_doctored_log_with_pairs_at_twice_their_rate_is_flagged(capsys, honest_log, tmp_path):
    rows = _read(honest_log)
    _doctor_pairs(rows, 5)
    doctored = tmp_path / "doctored.csv"
    _write(doctored, rows, ["shoe", "round", "banker", "player"])
    code, result = _audit_json(capsys, doctored)
    assert code == 1 and result["flagged"] is True
    verdicts = {t["test"]: t["pass"] for t in result["chi_square"]}
    assert verdicts["bet player-pair: outcome events"] is False
    assert verdicts["hand classes: player"] is False
    assert verdicts["hand classes: banker"] is True  # the banker's hands were not touched


def test_markdown_audit_has_a_verdict_per_test(capsys, honest_log):
    assert main(["audit", "pok-deng", "--log", str(honest_log)]) == 0
    out = capsys.readouterr().out
    assert out.count(": pass — χ²") == 4
    assert out.count("Verdict, return of") == 2
    assert "Overall verdict: PASS" in out


def test_rows_the_shoe_cannot_hold_are_rejected_with_line_numbers(capsys, tmp_path):
    log = tmp_path / "one-deck.csv"
    log.write_text(
        "banker,player,position\n"
        "9d 7c,Kh 9h,1\n"
        "5c 2d,5c 5c,2\n"  # one deck has one 5♣: rejected
        "Qs Js,As Ad,3\n",
        encoding="utf-8",
    )
    assert main(["audit", "pok-deng", "--log", str(log), "--decks", "1", "--format", "json"]) in (
        0,
        1,
    )
    result = json.loads(capsys.readouterr().out)
    assert result["rounds"] == 2 and result["rows"] == 3
    assert [r["line"] for r in result["rejected"]] == [3]
    assert "cannot hold" in result["rejected"][0]["reason"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        # issue 23: other columns are kept (for --by), so a misnamed hand is a missing one
        ("banker,hand\n9d 7c,Kh 9h\n", "missing column 'player'"),
        ("banker,player,player_1\n9d 7c,Kh 9h,Kh 9h\n", "both 'player' and seat columns"),
        ("banker,player_1,stake_player_1\n9d 7c,Kh 9h,1\n", "has no paid_player_1 beside it"),
        ("banker,player,stake_jackpot,paid_jackpot\n9d 7c,Kh 9h,1,1\n", "no bet 'jackpot'"),
        ("banker\n9d 7c\n", "missing column 'player'"),
        ("banker,player\n9d 7c,Kh 9h\n9d 7c,Kh 1x\n", "line 3, column player: unknown card '1x'"),
        ("banker,player\n9d 7c 2c,Kh 9h\n", "line 2, column banker: 3 cards"),
        ("banker,player\n9d 7c,Kh 9h,Qs\n", "line 2: wrong number of fields"),
        ("", "empty log"),
    ],
)
def test_malformed_logs_are_one_line_errors(capsys, tmp_path, text, needle):
    log = tmp_path / "bad.csv"
    log.write_text(text, encoding="utf-8")
    assert main(["audit", "pok-deng", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_rows_using_a_card_removed_from_the_shoe_are_all_rejected(capsys, tmp_path):
    log = tmp_path / "custom.csv"
    log.write_text("banker,player\n9d 7c,Kh 9h\n", encoding="utf-8")
    # A shoe with no 9♥ left cannot hold the row: it is rejected, and the log is flagged.
    code = main(["audit", "pok-deng", "--log", str(log), "--set", 'shoe.counts={"9h"=0}'])
    out = capsys.readouterr().out
    assert code == 1 and "no valid rounds to test" in out
    assert "rejected line 2: the shoe" in out and "Overall verdict: FLAGGED" in out


def test_missing_log_file(capsys, tmp_path):
    assert main(["audit", "pok-deng", "--log", str(tmp_path / "nope.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_drawing_games_are_refused():
    class Drawing:
        name = "blackjack"
        hand_size = 0

    with pytest.raises(OddsError, match="blackjack is a drawing game"):
        log_hand_sizes(Drawing())  # type: ignore[arg-type]
