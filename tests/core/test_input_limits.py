"""Issue 20: numbers read exactly and bounded; odd input files refused in one line.

Each test failed before its fix: TOML floats went through a binary double, deep
nesting and 5,000-digit integers were tracebacks, a FIFO paytable blocked forever,
200,000 tile types took minutes to refuse.
"""

from __future__ import annotations

import os
import threading
import time
from decimal import Decimal
from fractions import Fraction

import pytest

from odds.core.errors import OddsError
from odds.core.numbers import parse_rational, read_toml
from odds.core.overrides import Override
from odds.core.tiles import tile_shoe
from odds.games.paytable import load

NINES = "0." + "9" * 250 + "%"
LONG = "11.123456789012345678901234567890"  # 30 decimals: inside the documented limit


def test_a_toml_float_in_set_keeps_every_decimal():
    paytable = load("pok-deng", [f"payouts.pair={LONG}"])
    assert paytable.config.payouts.pair == Fraction(LONG)
    assert paytable.config.payouts.pair != Fraction(5561728394506173, 500000000000000)


def test_a_toml_float_in_a_file_keeps_every_decimal(tmp_path):
    table = tmp_path / "x.toml"
    table.write_text(f'game = "pok-deng"\n[payouts]\npair = {LONG}\n')
    assert load(str(table)).config.payouts.pair == Fraction(LONG)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("11.1234567890123456789012345678901", "30 decimals"),  # 31 decimals
        ("1e13", "10^12"),
        ("1.0e13", "10^12"),
        ("nan", "finite"),
        ("inf", "finite"),
        ("9" * 5000, "4,300 digits"),
        ("[" * 1000 + "]" * 1000, "nested too deeply"),
    ],
)
def test_a_set_value_beyond_the_limits_is_one_line(run, value, message):
    code, out, err = run("report", "pok-deng", "--set", f"payouts.pair={value}")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and len(err) < 300, err


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("x = " + "[" * 1000 + "]" * 1000, "nested too deeply"),
        ("[payouts]\npair = " + "9" * 5000, "4,300 digits"),
        ("[payouts]\npair = 1e400", "10^12"),
    ],
)
def test_a_paytable_file_beyond_the_limits_is_one_line(run, tmp_path, body, message):
    table = tmp_path / "x.toml"
    table.write_text(f'game = "pok-deng"\n{body}\n')
    code, _, err = run("report", str(table))
    assert code == 2 and err.count("\n") == 1 and message in err and len(err) < 300, err


def test_a_huge_integer_through_the_api_is_refused_without_printing_it():
    with pytest.raises(OddsError, match="beyond 10\\^12"):
        parse_rational(10**5000, "payouts.pair")


def test_read_toml_gives_decimals():
    assert read_toml("x = 0.1", "t")["x"] == Decimal("0.1")
    assert Override.parse("payouts.pair=0.1").value == Decimal("0.1")
    assert Override.parse("rules.x=raw-total").value == "raw-total"


@pytest.mark.parametrize(
    ("arguments", "option"),
    [
        (["verify", "pok-deng", "--rtp", "9" * 250 + "%"], "--rtp"),
        (["verify", "pok-deng", "--house-edge", "0." + "1" * 250 + "%"], "--house-edge"),
        (
            ["solve", "pok-deng", "--bet", "pair", "--vary", "payouts.pair", "--target-rtp", NINES],
            "--target-rtp",
        ),
    ],
)
def test_a_stated_percentage_with_hundreds_of_digits_is_one_line(run, arguments, option):
    code, _, err = run(*arguments)
    assert code == 2 and err.startswith(f"error: {option}") and err.count("\n") == 1
    assert "out of range" in err and len(err) < 200


def test_stakes_and_stake_read_a_percentage_alike(run):
    for arguments in (
        ["report", "pok-deng", "--stakes", "player=10%"],
        ["settle", "pok-deng", "--banker", "9d 7c", "--player", "Kh 9h", "--stake", "10%"],
    ):
        code, _, err = run(*arguments)
        assert code == 2 and "not a percentage" in err


def test_a_fifo_paytable_is_refused_without_blocking(run, tmp_path):
    fifo = tmp_path / "p.toml"
    os.mkfifo(fifo)
    result: list[tuple[int, str, str]] = []
    worker = threading.Thread(target=lambda: result.append(run("report", str(fifo))))
    worker.start()
    worker.join(10)
    if worker.is_alive():  # unblock the reader so the test run can end
        with open(fifo, "w") as writer:
            writer.write("")
        worker.join()
        pytest.fail("reading a FIFO paytable blocked")
    code, _, err = result[0]
    assert code == 2 and "not a regular file (a FIFO)" in err


def test_a_device_paytable_is_refused(run):
    code, _, err = run("report", "/dev/zero")
    assert code == 2 and "/dev/zero: not a regular file (a character device)" in err


def test_a_paytable_over_a_megabyte_is_refused(run, tmp_path):
    table = tmp_path / "x.toml"
    table.write_text('game = "pok-deng"\n' + "# padding\n" * 200_000)
    code, _, err = run("report", str(table))
    assert code == 2 and "too large for a paytable" in err


def test_two_hundred_thousand_tile_types_are_refused_at_once():
    copies = {f"T{i}": 4 for i in range(200_000)}
    points = {code: Fraction(1) for code in copies}
    started = time.perf_counter()
    with pytest.raises(OddsError, match="200,000 tile types; at most 64"):
        tile_shoe(copies, points)
    assert time.perf_counter() - started < 0.5  # refused before any per-type work
