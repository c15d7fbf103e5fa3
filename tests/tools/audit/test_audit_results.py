"""Issue 23, item 1: results-only logs — each round's outcome per bet, no cards.

The references: the same dealt rounds written with their cards (``odds
simulate --operator``), audited by the reader of cards, which settles each
hand itself — a results-only log of those rounds must give the very same
counts, tests and mis-settled bets; hand-written rows in the operators' words
(``winner`` Banker/Player/Tie and pair flags, Pok Deng's win/lose and
multiplier) counted by hand; and the rule books' payouts (docs/rules/baccarat.md:
the Tie pays 8 to 1, a pair 11 to 1; docs/rules/pok-deng.md: a two-deng win pays
twice the stake, and twice the stake is withheld).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from odds.cli import main
from odds.games.paytable import load
from odds.tools.audit.audit import audit
from odds.tools.audit.layout import parse_mapping


def _counted(
    game: str, log: Path, columns: dict[str, str] | None = None
) -> dict[str, list[tuple[str, int]]]:
    """Each bet's outcome cells as the audit counted them (before sparse cells are merged)."""
    result = audit(load(game, []), log, columns=columns)
    return {
        t.name.removeprefix("bet ").removesuffix(": outcome events"): [
            (" / ".join(c.labels), c.observed) for c in t.exact
        ]
        for t in result.fits
    }


def _audit(capsys, game: str, log: Path, *extra: str) -> tuple[int, dict, str]:
    code = main(["audit", game, "--log", str(log), "--format", "json", *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out else {}), err


def _simulate(capsys, game: str, path: Path, *extra: str) -> Path:
    assert main(["simulate", game, "--seed", "5", "--out", str(path), *extra]) == 0
    capsys.readouterr()
    return path


def _tests(result: dict) -> dict:
    """What the statistics found: each bet's chi-square cells and p-value, and its return."""
    fits = {
        t["test"]: ([(c["labels"], c["observed"]) for c in t["cells"]], t["p_value"])
        for t in result["chi_square"]
        if t["test"].startswith("bet ")
    }
    returns = {r["bet"]: (r["observed_rtp"], r["p_value"]) for r in result["returns"]}
    return {"fits": fits, "returns": returns}


def test_a_results_only_log_audits_as_the_same_rounds_with_their_cards(capsys, tmp_path):
    """No options: the layout is told by its columns; every figure equals the card log's.

    300 rounds (600 before: 4.1 s): every bet's chi-square is testable (at 200 Dragon 7's is
    "too few rounds"), and 21 of 3,374 bets are mis-settled, so a result read into a wrong
    outcome, a wrong payout or a wrong group still changes a figure compared here."""
    args = ("--rounds", "300", "--stakes", "--mis-settle", "0.5%")
    cards = _simulate(capsys, "baccarat", tmp_path / "cards.csv", *args)
    results = _simulate(capsys, "baccarat", tmp_path / "results.csv", *args, "--results-only")
    header = results.read_text(encoding="utf-8").splitlines()[0]
    assert "result_banker" in header and "player" not in header.split(",")
    code_cards, with_cards, _ = _audit(capsys, "baccarat", cards, "--by", "dealer")
    code, without, err = _audit(capsys, "baccarat", results, "--by", "dealer")
    assert code == code_cards == 1, err
    assert without["rows"] == without["rounds"] == 300 and without["rejected_total"] == 0
    assert _tests(without) == _tests(with_cards)
    for key in ("mis_settled", "overpaid", "underpaid", "mis_settled_bets", "slices"):
        assert without["settlement"][key] == with_cards["settlement"][key], key
    assert without["settlement"]["mis_settled"] > 0
    assert without["groups"] == with_cards["groups"]
    assert without["drivers"] == with_cards["drivers"]
    assert "shoe_tests" not in without
    (note,) = [n for n in without["notes"] if "results-only" in n]
    for test in ("hand classes", "shoe integrity", "rank and suit frequencies", "shuffle"):
        assert test in note


def test_pok_deng_seats_and_parquet_round_trip(capsys, tmp_path):
    """Five seats against the banker: each seat's bets paid again; the first seat tested."""
    # 200 rounds: 25 of 1,590 bets mis-settled (21-25 with seeds 5-8), the four chi-square tests
    args = ("--rounds", "200", "--seats", "5", "--stakes", "--mis-settle", "1%")
    cards = _simulate(capsys, "pok-deng", tmp_path / "cards.csv", *args)
    results = _simulate(capsys, "pok-deng", tmp_path / "r.csv", *args, "--results-only")
    parquet = _simulate(capsys, "pok-deng", tmp_path / "r.parquet", *args, "--results-only")
    code_cards, with_cards, _ = _audit(capsys, "pok-deng", cards)
    code, without, err = _audit(capsys, "pok-deng", results)
    assert code == code_cards == 1, err
    assert _tests(without) == _tests(with_cards)
    assert without["settlement"] == with_cards["settlement"]
    assert without["settlement"]["mis_settled"] > 0
    code, from_parquet, err = _audit(capsys, "pok-deng", parquet)
    assert code == 1, err
    assert _tests(from_parquet) == _tests(without)
    assert from_parquet["settlement"]["mis_settled"] == without["settlement"]["mis_settled"]


BACCARAT = """shoe;round;table;dealer;winner;player_pair;banker_pair;stake_tie;paid_tie
S1;1;T1;D1;Banker;no;no;10;0
S1;2;T1;D1;Player;yes;no;10;0
S1;3;T1;D1;Tie;no;no;10;90
S1;4;T1;D2;B;no;yes;;
S1;5;T1;D2;p;N;Y;10;0
S1;6;T1;D2;Tie;;no;;
"""


def test_the_operators_words_winner_and_pair_flags(capsys, tmp_path):
    """Counted by hand: 2 Banker, 2 Player, 2 Ties; one Player pair in 5, two Banker pairs in 6."""
    log = tmp_path / "b.csv"
    log.write_text(BACCARAT, encoding="utf-8")
    code, result, err = _audit(capsys, "baccarat", log)
    assert code in (0, 3), err
    found = _counted("baccarat", log)
    assert found["banker"] == [
        ("Banker wins (less commission)", 2),
        ("tie (push)", 2),
        ("Player wins", 2),
    ]
    assert found["tie"] == [("tie", 2), ("no tie", 4)]
    assert found["player-pair"] == [("pair", 1), ("no pair", 4)]  # line 7 gives no flag
    assert found["banker-pair"] == [("pair", 2), ("no pair", 4)]
    assert "either-pair" not in found
    assert any("no result for, not tested: either-pair" in n for n in result["notes"])
    # the Tie paid 8 to 1 on the tie, lost elsewhere: every payout right
    assert result["settlement"]["mis_settled"] == 0 and result["settlement"]["bets"] == 4


def test_dragon_tiger_tie_loses_half_of_a_dragon_bet(capsys, tmp_path):
    log = tmp_path / "dt.csv"
    log.write_text(
        "round,winner,stake_dragon,paid_dragon,stake_tie,paid_tie\n"
        "1,Dragon,10,20,10,0\n2,Tie,10,5,10,90\n3,Tiger,10,0,,\n",
        encoding="utf-8",
    )
    code, result, err = _audit(capsys, "dragon-tiger", log)
    assert code in (0, 3), err
    found = _counted("dragon-tiger", log)
    assert found["dragon"] == [
        ("Dragon ranks higher", 1),
        ("tie (loses half)", 1),
        ("Tiger ranks higher", 1),
    ]
    assert found["tie"] == [("same rank", 1), ("different ranks", 2)]
    assert result["settlement"]["mis_settled"] == 0


def test_pok_deng_win_lose_and_the_multiplier(capsys, tmp_path):
    """A seat's result and multiplier; outcomes of one net merged; twice the stake withheld."""
    log = tmp_path / "pd.csv"
    log.write_text(
        "shoe;round;result_1;multiplier_1;result_2;player_pair_1;stake_player_1;paid_player_1\n"
        "S1;1;win;2;lose x2;yes;10;40\n"  # two deng: 10 withheld twice, 20 won → 40 back
        "S1;2;push;;;no;10;20\n"
        "S1;3;Win 1;;lose 1;no;10;25\n",  # due 30: underpaid
        encoding="utf-8",
    )
    code, result, err = _audit(capsys, "pok-deng", log)
    assert code == 1, err
    cells = dict(_counted("pok-deng", log)["player"])
    assert cells == {
        "player wins with a special pattern or player wins with 8 or 9 and a flush or pair, "
        "banker has 0 or 6": 1,
        "player wins with a special pattern, banker has 0 or 6 (paid as an ordinary win) or "
        "player wins, no special pattern": 1,
        "push (equal values)": 1,
        "banker wins, no special pattern": 0,
        "banker wins with a special pattern": 0,
    }
    (wrong,) = result["settlement"]["mis_settled_bets"]
    assert (wrong["line"], wrong["paid"], wrong["due"]) == (4, "25.00", "30")


def test_a_tampered_results_only_log_is_flagged(capsys, tmp_path):
    """Payouts changed, and outcomes changed in the house's favour: both found.

    1,000 rounds (3,000 before: the audit's cost): 130 of its ~460 Dragon wins turned are still
    many standard deviations off both returns (about 8), the honest log passes as before, and
    the one Tie bet handed back must be the only bet named."""
    log = _simulate(
        capsys, "dragon-tiger", tmp_path / "r.csv", "--rounds", "1000", "--stakes",
        "--results-only",
    )  # fmt: skip
    code, result, err = _audit(capsys, "dragon-tiger", log)
    assert code == 0 and result["verdict"] == "PASS", err
    rows = list(csv.DictReader(io.StringIO(log.read_text(encoding="utf-8"))))
    fields = list(rows[0])
    turned = 0
    for row in rows:  # 130 Dragon wins (of about 460) become Tiger wins
        if row["result_dragon"] == "Dragon ranks higher" and turned < 130:
            row["result_dragon"], row["result_tiger"] = "Tiger ranks higher", "Tiger ranks higher"
            row["stake_dragon"] = row["paid_dragon"] = row["stake_tiger"] = row["paid_tiger"] = ""
            turned += 1
    paid = next(
        k for k, r in enumerate(rows) if r["stake_tie"] and r["result_tie"] == "different ranks"
    )
    rows[paid]["paid_tie"] = rows[paid]["stake_tie"]  # a lost Tie bet handed back
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    tampered = tmp_path / "tampered.csv"
    tampered.write_text(out.getvalue(), encoding="utf-8")
    code, result, err = _audit(capsys, "dragon-tiger", tampered)
    assert code == 1 and result["verdict"] == "FLAGGED"
    assert err.startswith("FLAGGED: ") and err.count("\n") == 1
    lines = [b["line"] for b in result["settlement"]["mis_settled_bets"]]
    assert lines == [paid + 2]
    failing = {r["bet"] for r in result["returns"] if r["p_value"] < result["threshold_per_test"]}
    assert {"dragon", "tiger"} <= failing


def test_an_unknown_winner_is_one_line_naming_the_line(capsys, tmp_path):
    log = tmp_path / "b.csv"
    log.write_text("round,winner\n1,Banker\n2,Bankr\n", encoding="utf-8")
    code, _, err = _audit(capsys, "baccarat", log)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "line 3, column winner: 'Bankr' is not a winner (winners: player, banker, tie)" in err


@pytest.mark.parametrize(
    ("header", "row", "message"),
    [
        ("result_banker", "Banker wins big", "line 2, column result_banker: 'Banker wins big' is"),
        ("result_dragon", "lose", "line 2, column result_dragon: 'lose' does not say which"),
        ("result_tie", "win 9", "line 2, column result_tie: 'win 9': no outcome of tie is a win 9"),
        ("player_pair", "maybe", "line 2, column player_pair: 'maybe' is not yes or no"),
        ("dragon_bonus_player", "yes", "column 'dragon_bonus_player': a yes/no column needs"),
        ("result_banker,multiplier_tie", "win,2", "'multiplier_tie' has no result column of tie"),
        ("result_lucky", "win", "column 'result_lucky': baccarat has no bet 'lucky'"),
        (
            "winner,stake_tie,paid_tie",
            "Tie,10,9O",
            "line 2, column paid_tie: '9O' is not an amount",
        ),
        ("result_tie,multiplier_tie", ",2", "line 2, column result_tie: a multiplier ('2') but no"),
        (
            "winner,player_pair,stake_player_pair,paid_player_pair",
            "Tie,,10,0",
            "line 2: a stake on player-pair (stake_player_pair) but no result for it",
        ),
    ],
)
def test_bad_results_are_one_line_errors(capsys, tmp_path, header, row, message):
    game = "dragon-tiger" if header == "result_dragon" else "baccarat"
    log = tmp_path / "b.csv"
    log.write_text(f"{header}\n{row}\n", encoding="utf-8")
    code, _, err = _audit(capsys, game, log)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert message in err, err


def test_a_winner_that_does_not_decide_a_bet_leaves_it_untested(capsys, tmp_path):
    """EZ Baccarat's Banker wins two ways (a three-card 7 pushes): 'Banker' does not say which."""
    log = tmp_path / "ez.csv"
    log.write_text("winner\nBanker\nPlayer\n", encoding="utf-8")
    code, result, err = _audit(capsys, "baccarat-ez", log)
    assert code in (0, 3), err
    assert "return of banker" not in json.dumps(result["returns"])
    assert any("no result for, not tested: banker" in n for n in result["notes"])


def test_a_repeated_round_and_an_empty_row_are_rejected(capsys, tmp_path):
    log = tmp_path / "r.csv"
    log.write_text("shoe,round,winner\n1,1,Dragon\n1,2,Tiger\n1,2,Tie\n1,3,\n", encoding="utf-8")
    code, result, err = _audit(capsys, "dragon-tiger", log)
    assert code == 1 and result["verdict"] == "FLAGGED", err
    assert result["rejected_kinds"] == {"round": 2, "results": 1}
    reasons = {r["line"]: r["reason"] for r in result["rejected"]}
    assert "a round number repeated" in reasons[3] and reasons[5] == "no bet has a result"


def test_columns_maps_an_operators_names_onto_the_results_vocabulary(capsys, tmp_path):
    """--columns names the winner and a flag column in another language."""
    log = tmp_path / "b.csv"
    log.write_text("Coup;Gagnant;Paire joueur\n1;Banker;non\n2;Player;yes\n", encoding="utf-8")
    mapping = "round=Coup,winner=Gagnant,player_pair=Paire joueur"
    code, _, err = _audit(capsys, "baccarat", log, "--columns", mapping)
    assert code == 2 and "line 2, column Paire joueur: 'non' is not yes or no" in err
    log.write_text("Coup;Gagnant;Paire joueur\n1;Banker;no\n2;Player;yes\n", encoding="utf-8")
    code, _, err = _audit(capsys, "baccarat", log, "--columns", mapping)
    assert code in (0, 3), err
    found = _counted("baccarat", log, parse_mapping(mapping))
    assert found["banker"] == [
        ("Banker wins (less commission)", 1),
        ("tie (push)", 0),
        ("Player wins", 1),
    ]
    assert found["player-pair"] == [("pair", 1), ("no pair", 1)]
    code, _, err = _audit(capsys, "baccarat", log)  # without the mapping: no result columns
    assert code == 2 and "missing column 'player'" in err


def test_the_seen_file_says_a_results_only_log_has_no_cards(capsys, tmp_path):
    log = tmp_path / "r.csv"
    log.write_text("shoe,round,winner\n1,1,Dragon\n", encoding="utf-8")
    assert main(["shoe", "dragon-tiger", "--seen-file", str(log)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a results-only log (each bet's outcome, no cards)" in err
