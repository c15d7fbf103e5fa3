"""odds audit under a continuous shuffling machine (``[dealing] shuffle = "continuous"``).

A CSM deals every round from the full shoe: its log's ``shoe`` column is a session label.
With the option the audit tests rounds as independent deals from the full shoe (and names
that procedure); without it the same log is read as shoes dealt through, flagged by shoe
integrity, and a note names the option.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from odds.core.errors import OddsError
from odds.games.paytable import load

CSM = "dealing.shuffle=continuous"


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> Path:
    """An honest CSM log of Pok Deng: 400 rounds, each from a fresh shoe, in 4 sessions."""
    from odds.tools.audit.logs import deal_rounds, write_log

    paytable = load("pok-deng")
    rows = (
        {**row, "shoe": f"session-{k // 100 + 1}"}
        for k, row in enumerate(deal_rounds(paytable.game, paytable.config, 400, seed=7))
    )
    path = tmp_path_factory.mktemp("csm") / "csm.csv"
    write_log(paytable.game, rows, path)
    return path


def test_an_honest_csm_log_passes_with_the_option_and_names_its_procedure(run, sessions):
    code, out, _ = run("audit", "pok-deng", "--log", str(sessions), "--set", CSM)
    assert code == 0, out
    assert 'Dealing procedure assumed: continuous (dealing.shuffle = "continuous")' in out
    assert "shoe-aware and shuffle tests not run: no shoe state to exploit" in out
    assert "## Shoe by shoe" not in out
    code, out, _ = run(
        "audit", "pok-deng", "--log", str(sessions), "--set", CSM, "--format", "json"
    )
    document = json.loads(out)
    assert (code, document["dealing"]) == (0, "continuous")


def test_without_the_option_sessions_are_shoes_flagged_and_the_option_is_named(run, sessions):
    code, out, err = run("audit", "pok-deng", "--log", str(sessions))
    assert code == 1
    assert "Dealing procedure assumed: shoe" in out
    assert "card over" in err
    assert "audit it with --set dealing.shuffle=continuous" in out


def test_a_round_the_full_shoe_cannot_hold_is_still_impossible(run, tmp_path):
    log = tmp_path / "one-deck.csv"
    rows = [["shoe", "round", "banker", "player"]]
    rows += [["s1", str(k), "2♣ 3♣", "4♦ 5♦"] for k in range(1, 4)]  # three rounds: fine
    rows.append(["s1", "4", "A♠ 2♠", "A♠ 3♠"])  # two A♠ in one round of one deck
    with log.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    code, out, _ = run(
        "audit", "pok-deng", "--log", str(log), "--set", CSM, "--set", "shoe.decks=1"
    )
    assert code == 1
    assert "hands the shoe cannot hold" in out
    assert "shoe integrity" not in out.lower().replace("shoe integrity is checked", "")


def test_wagers_under_a_csm_are_not_tested_and_nobody_is_named(run, sessions, tmp_path):
    wagers = tmp_path / "wagers.csv"
    wagers.write_text(
        "shoe,round,account,bet,stake\n"
        + "".join(f"session-1,{k},a,player,10\n" for k in range(1, 50)),
        encoding="utf-8",
    )
    code, out, _ = run(
        "audit", "pok-deng", "--log", str(sessions), "--set", CSM, "--wagers", str(wagers)
    )
    assert code == 0, out
    assert "wagers not tested: every round is dealt from the full shoe" in out


def test_a_contradictory_shuffle_is_one_line():
    with pytest.raises(OddsError) as caught:
        load("baccarat", [CSM, "dealing.reshuffle_every_round=false"])
    message = str(caught.value)
    assert "\n" not in message
    assert 'dealing.shuffle = "continuous"' in message
    assert "reshuffle_every_round = false" in message
    # implied, not contradicted, when left unwritten; the shoe-state studies then reshuffle
    paytable = load("baccarat", [CSM])
    assert paytable.game.shoe_state is not None
    assert not paytable.game.shoe_state.procedure(paytable.config).multi_round


def test_rounds_that_never_draw_get_their_rank_and_suit_frequencies(run, sessions, tmp_path):
    """Pok Deng's rounds never draw: each is a uniform sample of the full shoe, tested pooled
    over rounds; extra aces dealt round after round are found there."""
    code, out, _ = run(
        "audit", "pok-deng", "--log", str(sessions), "--set", CSM, "--format", "json"
    )
    tests = {t["test"]: t for t in json.loads(out)["shoe_tests"]}
    assert set(tests) == {
        "rank frequencies, pooled over rounds",
        "suit frequencies, pooled over rounds",
    }
    assert all(t["pass"] and t["judged"] for t in tests.values())
    rows = list(csv.reader(sessions.open(encoding="utf-8")))
    banker = rows[0].index("banker")
    for row in rows[1::3]:  # an ace for the Banker's first card in every third round
        row[banker] = "A♠ " + row[banker].split()[1]
    doctored = tmp_path / "aces.csv"
    with doctored.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(rows)
    code, out, _ = run(
        "audit", "pok-deng", "--log", str(doctored), "--set", CSM, "--format", "json"
    )
    tests = {t["test"]: t for t in json.loads(out)["shoe_tests"]}
    assert code == 1
    assert not tests["rank frequencies, pooled over rounds"]["pass"]
    assert (
        "rank A is more common than the full shoe holds it"
        in (tests["rank frequencies, pooled over rounds"]["finding"])
    )


def test_the_pooled_law_is_the_convolution_of_each_rounds_hypergeometric_law():
    from collections import Counter
    from fractions import Fraction

    from odds.tools.audit.round_frequencies import _hypergeometric, _pooled_law

    sizes = Counter({2: 3, 3: 1})  # three rounds of 2 cards, one of 3, from 10 holding 4
    law, mean, sd = _pooled_law(10, 4, sizes)
    exact = {0: Fraction(1)}
    for n, rounds in sizes.items():
        for _ in range(rounds):
            step: dict[int, Fraction] = {}
            for a, pa in exact.items():
                for b, pb in enumerate(_hypergeometric(10, 4, n)):
                    step[a + b] = step.get(a + b, Fraction(0)) + pa * pb
            exact = step
    assert max(abs(float(exact.get(s, 0)) - law[s]) for s in range(len(law))) < 1e-12
    assert mean == pytest.approx(float(sum(s * p for s, p in exact.items())), abs=1e-12)
    variance = sum((s - Fraction(18, 5)) ** 2 * p for s, p in exact.items())
    assert sd == pytest.approx(float(variance) ** 0.5, rel=1e-12)
