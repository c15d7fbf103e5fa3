"""odds verify: stated figures at their stated precision, every basis and reading."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from odds.cli import main
from odds.core.numbers import decimal
from odds.tools.variants import reading_options, readings
from odds.tools.verify import parse_claim, verify


def _stated(value: Fraction, decimals: int) -> str:
    """The exact value as an operator would print it: rounded half-up to `decimals`."""
    from decimal import ROUND_HALF_UP, Decimal

    exact = Decimal(value.numerator * 100) / Decimal(value.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)) + "%"


def test_claim_interval_is_half_a_unit_of_the_last_digit():
    claim = parse_claim("98.7%", "rtp")
    assert claim.low == Fraction(9865, 10000) and claim.high == Fraction(9875, 10000)
    assert claim.matches(Fraction(9865, 10000))  # 98.65 rounds half-up to 98.7
    assert not claim.matches(Fraction(9875, 10000))  # 98.75 rounds to 98.8
    assert parse_claim("97%", "rtp").decimals == 0
    assert parse_claim("-0.25%", "house-edge").value == Fraction(-1, 400)


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 4])
def test_correctly_rounded_statement_matches_and_one_unit_off_does_not(
    pok_deng, pok_deng_analysis, decimals
):
    exact = pok_deng_analysis.bet("player").stats.rtp_debited
    stated = _stated(exact, decimals)
    checks, _ = verify(pok_deng, parse_claim(stated, "rtp"), "player")
    hits = [c for c in checks if c.match]
    assert any(c.basis == "debited" and c.is_paytable_reading for c in hits)
    unit = Fraction(1, 10**decimals)
    for delta in (unit, -unit):
        off = Fraction(stated[:-1]) + delta
        text = f"{decimal(off, decimals)}%"
        checks, _ = verify(pok_deng, parse_claim(text, "rtp"), "player")
        assert not any(c.match and c.basis == "debited" and c.is_paytable_reading for c in checks)


def test_every_reading_combination_is_tried(pok_deng):
    options = dict(reading_options(pok_deng.config))
    assert set(options) == {"rules.banker_zero_or_six", "rules.eight_nine_override"}
    combos = list(readings(pok_deng.config))
    assert len(combos) == 4 and len({tuple(c.items()) for c in combos}) == 4
    assert combos[0] == {"rules.banker_zero_or_six": "ordinary", "rules.eight_nine_override": True}


def test_claim_found_only_under_another_reading(pok_deng):
    # Example-9 arithmetic (override off): RTP per stake 96.771508%.
    checks, _ = verify(pok_deng, parse_claim("96.77%", "rtp"), "player")
    hits = [c for c in checks if c.match]
    assert len(hits) == 1
    assert hits[0].basis == "stake"
    assert hits[0].reading["rules.eight_nine_override"] is False
    assert hits[0].reading["rules.banker_zero_or_six"] == "ordinary"


def test_cli_exit_codes_and_every_bet(capsys):
    assert main(["verify", "pok-deng", "--house-edge", "2.5%", "--bet", "player"]) == 0
    assert "MATCH" in capsys.readouterr().out
    assert main(["verify", "pok-deng", "--rtp", "89.64%"]) == 0
    out = capsys.readouterr().out
    assert "player-pair: the claim MATCHES" in out
    assert "player: the claim does not match" in out
    assert main(["verify", "pok-deng", "--rtp", "97.6%"]) == 1
    assert "Verdict: FAILED" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--rtp", "97.3"], "'97.3' is not a percentage"),
        (["--rtp", "ninety%"], "is not a percentage"),
        (["--house-edge", "2,5%"], "is not a percentage"),
        (["--rtp", "97%", "--house-edge", "3%"], "exactly one of"),
        (["--rtp", "97%", "--bet", "banker"], "unknown bet 'banker'"),
    ],
)
def test_bad_input_is_one_line(capsys, argv, needle):
    assert main(["verify", "pok-deng", *argv]) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1 and err.startswith("error: ")


# Issue 19, item 5: a verdict names the paytable, bet, basis and reading that matched, and a
# figure that only another variant of the rules reproduces never verifies. Figures: Wizard of
# Odds, "Baccarat" (house edge of the Banker bet 1.06% with 5% commission; 1.46% when a Banker
# win on 6 pays 1:2 without commission); 1.057906% and 1.458104% exactly here.


def test_a_figure_of_another_variant_fails(capsys):
    assert main(["verify", "baccarat", "--bet", "banker", "--house-edge", "1.46%"]) == 1
    out = capsys.readouterr().out
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith("Verdict: FAILED: no bet matches under tables/baccarat.toml")
    assert "banker_pays=commission" in verdict  # the paytable's reading, named
    assert "banker, per unit staked, banker_pays=no-commission" in verdict  # what did match
    assert "not this paytable" in verdict
    assert "banker: the claim matches only another reading" in out


def test_the_same_figure_verifies_on_its_own_paytable(capsys):
    table = "tables/baccarat-no-commission.toml"
    assert main(["verify", table, "--bet", "banker", "--house-edge", "1.46%"]) == 0
    verdict = capsys.readouterr().out.strip().splitlines()[-1]
    assert verdict.startswith(
        "Verdict: VERIFIED: bet banker, per unit staked, tables/baccarat-no-commission.toml"
    )
    assert "banker_pays=no-commission" in verdict


def test_the_commission_figure_verifies_on_the_commission_table(capsys):
    assert main(["verify", "baccarat", "--bet", "banker", "--house-edge", "1.06%"]) == 0
    verdict = capsys.readouterr().out.strip().splitlines()[-1]
    assert "bet banker, per unit staked, tables/baccarat.toml as read (banker_pays=commission" in (
        verdict
    )


def test_without_bet_several_matching_bets_are_ambiguous(capsys):
    # Player Pair and Banker Pair pay alike: both 10.361446% (exit 3, neither verified).
    assert main(["verify", "baccarat", "--house-edge", "10.36%"]) == 3
    verdict = capsys.readouterr().out.strip().splitlines()[-1]
    assert verdict.startswith("Verdict: AMBIGUOUS:")
    assert "player-pair" in verdict and "banker-pair" in verdict and "--bet" in verdict


def test_without_bet_one_matching_bet_is_named(capsys):
    assert main(["verify", "baccarat", "--house-edge", "1.24%", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "VERIFIED" and data["verified"] is True
    assert {m["bet"] for m in data["matched"]} == {"player"}
    assert all(m["reading"]["rules.banker_pays"] == "commission" for m in data["matched"])
    assert "bet player (the only bet whose figure matches)" in data["reason"]


def test_json_of_a_failed_variant_match(capsys):
    argv = ["verify", "baccarat", "--bet", "banker", "--house-edge", "1.46%", "--format", "json"]
    assert main(argv) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["verdict"] == "FAILED" and data["verified"] is False and data["bet"] == "banker"
    assert {m["reading"]["rules.banker_pays"] for m in data["matched"]} == {"no-commission"}


# Issue 34, item 11: without --bet, baccarat printed 84 rows (14 bets x 6 readings), most of
# them readings that cannot change their bet (perfect_pair for the Banker bet).


def test_only_readings_that_change_a_bet_are_shown(capsys):
    assert main(["verify", "baccarat", "--house-edge", "1.06%"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| ") and "%" in line]
    banker = [row.split("|")[3].strip() for row in rows if row.startswith("| banker ")]
    assert banker == [  # the three ways a Banker win is paid; perfect_pair never changes it
        "banker_pays=commission, perfect_pair=identical (paytable)",
        "banker_pays=no-commission, perfect_pair=identical",
        "banker_pays=ez, perfect_pair=identical",
    ]
    perfect = [row.split("|")[3].strip() for row in rows if row.startswith("| perfect-pair ")]
    assert perfect == [
        "banker_pays=commission, perfect_pair=identical (paytable)",
        "banker_pays=commission, perfect_pair=same-colour",
    ]
    assert len(rows) == 17
    assert f"Left out: {84 - 17} row(s) whose reading does not change the bet" in out
    assert main(["verify", "baccarat", "--house-edge", "1.06%", "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["checks"]) == 84  # JSON: every row


def test_a_reading_left_out_is_not_listed_again_in_the_verdict(capsys):
    assert main(["verify", "baccarat", "--bet", "banker", "--house-edge", "1.46%"]) == 1
    verdict = capsys.readouterr().out.strip().splitlines()[-1]
    assert "perfect_pair=same-colour" not in verdict  # the same Banker bet as identical's


def test_a_reading_the_game_refuses_fails_the_verification(capsys, tmp_path):
    """Issue 35, F3: a reading that could not be counted was noted as "skipped" and the claim
    still VERIFIED (exit 0). Bài Cào from one deck without ``optional`` on its push: under
    ``ties = top-card`` the push never happens, so that reading is refused."""
    from tests.paths import ROOT

    text = (ROOT / "tables" / "bai-cao.toml").read_text(encoding="utf-8")
    text = text.replace("decks = 6", "decks = 1").replace(
        ", push = true, optional = true", ", push = true"
    )
    path = tmp_path / "bai-cao-one-deck.toml"
    path.write_text(text, encoding="utf-8")
    argv = ["verify", str(path), "--bet", "player", "--house-edge", "2.2549%"]
    assert main(argv) == 2  # VERIFIED before: the default reading matches the claim
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: reading ties=top-card: ")
    assert "the outcome 'tie' never happens" in err and "(line 0)" not in err
