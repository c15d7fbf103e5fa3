"""Rank and suit frequencies of a drawing game under a continuous shuffling machine.

A baccarat coup's cards are not a uniform sample of the shoe (how many cards it takes
depends on their values), so the frequency null is the exact per-round law of the cards
the tableau deals: its mean and covariance, from the engine's ordered-deal polynomial
(values), split into cards hypergeometrically. Both are checked against plain
enumerators (tests/reference/baccarat.py), and the test over rounds passes an honest CSM
log and flags one whose machine lost 0-valued cards.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from odds.core.cards import parse_card
from odds.engine import dealt_moments, falling
from odds.games.defined.counting import tableau_polynomial, value_counts
from odds.games.paytable import load
from tests.reference import baccarat as plain

CSM = "dealing.shuffle=continuous"
RANK = "rank frequencies, pooled over drawing rounds"
SUIT = "suit frequencies, pooled over drawing rounds"


def test_the_value_law_of_eight_decks_is_every_coup_enumerated():
    """The ten values' per-coup mean and covariance, from the polynomial, against a plain
    recursion over every coup of eight decks (tests/reference/baccarat.py's value_coups)."""
    paytable = load("baccarat")
    definition = paytable.game.definition
    shoe = paytable.game.shoe(paytable.config)
    counts = value_counts(definition, shoe.types, shoe.counts)
    assert counts == (128, *[32] * 9)
    law = dealt_moments(tableau_polynomial(definition.deal.tableau), counts)
    whole = falling(416, 6)
    by_multiset: dict[tuple[int, ...], int] = {}
    for (player, banker), ways in plain.value_coups(list(counts)).items():
        dealt = tuple(sorted(player + banker))
        by_multiset[dealt] = by_multiset.get(dealt, 0) + ways
    first = [0] * 10
    second = [[0] * 10 for _ in range(10)]
    total = 0
    for dealt, ways in by_multiset.items():
        held = [dealt.count(v) for v in range(10)]
        total += ways
        for a in range(10):
            first[a] += ways * held[a]
            for b in range(10):
                second[a][b] += ways * held[a] * held[b]
    assert total == whole
    mean = [Fraction(x, whole) for x in first]
    assert list(law.mean) == mean
    for a in range(10):
        for b in range(10):
            assert law.covariance[a][b] == Fraction(second[a][b], whole) - mean[a] * mean[b]
    # 4.938819 cards a coup (4 + P(five cards) + 2·P(six cards)); the cards dealt are not
    # the shoe's composition: per card dealt, 0s are rarer and 7, 8, 9 commoner than the
    # shoe holds them (a natural stops the deal; small totals draw)
    cards = sum(law.mean)
    assert f"{float(cards):.6f}" == "4.938819"
    share = [law.mean[v] / cards for v in range(10)]
    assert share[0] < Fraction(128, 416)
    assert all(share[v] > Fraction(32, 416) for v in (7, 8, 9))


#: The reduced shoe of the card-level check: nine cards of four values (0, 1, 4, 6) in
#: unequal copies, 10 and K and Q sharing the value 0 and the suits spread unevenly.
REDUCED = {
    (1, 0): 2,
    (1, 2): 1,
    (4, 0): 2,
    (4, 2): 1,
    (6, 1): 2,
    (10, 0): 1,
    (10, 3): 2,
    (13, 1): 1,
    (12, 2): 1,
}


def test_the_card_law_on_a_reduced_shoe_is_every_ordered_deal_of_cards():
    """Each card's mean and every pair's covariance, from the game (values, then the split
    into ranks and suits within a value), against every ordered deal of the cards."""
    ranks = {1: "A", 4: "4", 6: "6", 10: "T", 12: "Q", 13: "K"}
    written = [f"{r}{s}" for r in "A23456789TJQK" for s in "cdhs"]
    copies = dict.fromkeys(written, 0)
    for (rank, suit), n in REDUCED.items():
        card = next(c for c in written if c[0] == ranks[rank] and parse_card(c).suit.value == suit)
        copies[card] = n
    text = ", ".join(f"{card} = {n}" for card, n in copies.items())
    paytable = load("baccarat", [f"shoe.counts={{{text}}}"])
    shoe = paytable.game.shoe(paytable.config)
    law = paytable.game.dealt_moments(paytable.config)
    assert law is not None
    mean, covariance = plain.dealt_card_moments(REDUCED)
    key = [(c.rank.value, c.suit.value) for c in shoe.types]
    for j, a in enumerate(key):
        assert law.mean[j] == mean.get(a, 0), a
        for k, b in enumerate(key):
            assert law.covariance[j][k] == covariance.get((a, b), 0), (a, b)
    assert sum(shoe.counts) == 13


def _rows(overrides: list[str], rounds: int, seed: int):
    """Rounds of baccarat, each from a fresh shoe of the (overridden) paytable: a CSM."""
    from odds.tools.audit.logs import deal_rounds

    dealer = load("baccarat", overrides)
    return deal_rounds(dealer.game, dealer.config, rounds, seed)


def test_an_honest_csm_log_passes_its_drawing_frequencies(run, tmp_path):
    from odds.tools.audit.logs import write_log

    paytable = load("baccarat")
    rows = ({**row, "shoe": f"session-{k // 250 + 1}"} for k, row in enumerate(_rows([], 1500, 11)))
    log = tmp_path / "honest.csv"
    write_log(paytable.game, rows, log)
    code, out, _ = run("audit", "baccarat", "--log", str(log), "--set", CSM)
    assert code == 0, out
    assert "## Rank and suit frequencies, round by round" in out
    assert "how many cards a round takes depends on their values" in out
    assert "rank and suit frequencies not tested" not in out
    assert f"Verdict, {RANK}: pass" in out
    assert f"Verdict, {SUIT}: pass" in out
    assert "on 13 df against the cards the drawing deals" in out
    assert "on 4 df against the cards the drawing deals" in out


def test_a_machine_short_of_zeros_is_flagged():
    """The machine lost two decks' 0-valued cards (6 copies of each 10, J, Q, K, not 8):
    its rounds, tested against the full shoe's drawing law, show the 0s too rare."""
    from odds.core.cards import parse_cards
    from odds.tools.audit.round_frequencies import drawing_frequency_tests
    from odds.tools.audit.shoes import DealtRound, DealtShoe

    paytable = load("baccarat")
    shoe = paytable.game.shoe(paytable.config)
    law = paytable.game.dealt_moments(paytable.config)
    assert law is not None
    index = {card: j for j, card in enumerate(shoe.types)}

    def tested(overrides: list[str]) -> dict[str, Any]:
        rounds = tuple(
            DealtRound(
                k, str(k), tuple(index[c] for c in parse_cards(f"{r['player']} {r['banker']}"))
            )
            for k, r in enumerate(_rows(overrides, 1500, 11))
        )
        return {t.name: t for t in drawing_frequency_tests(shoe, law, [DealtShoe("s", rounds)])}

    honest = tested([])
    assert honest[RANK].p is not None and honest[RANK].p.value > 0.01
    zeros = ", ".join(f"{r}{s} = 6" for r in "TJQK" for s in "cdhs")
    short = tested([f"shoe.counts={{{zeros}}}"])
    assert short[RANK].p is not None and short[RANK].p.value < 1e-6
    assert short[RANK].df == 13
    assert "less common" in short[RANK].finding
    assert short[RANK].finding.split("most deviant: rank ")[1][0] in "TJQK"
    assert short[SUIT].p is not None and short[SUIT].p.value > 1e-6  # every suit lost alike


def test_too_few_rounds_are_not_tested():
    from odds.tools.audit.round_frequencies import MIN_ROUNDS, drawing_frequency_tests
    from odds.tools.audit.shoes import DealtRound, DealtShoe

    paytable = load("baccarat")
    law = paytable.game.dealt_moments(paytable.config)
    assert law is not None
    rounds = tuple(DealtRound(k, str(k), (0, 4, 8, 12)) for k in range(MIN_ROUNDS - 1))
    shoe = paytable.game.shoe(paytable.config)
    (ranks, _) = drawing_frequency_tests(shoe, law, [DealtShoe("s", rounds)])
    assert ranks.p is None
    assert f"not enough rounds ({MIN_ROUNDS - 1}; at least {MIN_ROUNDS}" in ranks.detail


def test_the_calibration_command_measures_the_drawing_tests_and_the_uniform_null():
    from tests.measure.csm_alarms import calibration, calibration_lines

    found = calibration("baccarat", 2, 200, seed=5)
    assert found is not None
    assert set(found) == {
        RANK,
        SUIT,
        "rank frequencies, pooled over rounds, if uniform",
        "suit frequencies, pooled over rounds, if uniform",
    }
    assert all(len(ps) == 2 and all(0 <= p <= 1 for p in ps) for ps in found.values())
    assert calibration("pok-deng", 1, 10, seed=5) is None  # never draws: no drawing law
    assert len(calibration_lines(["pok-deng"], 1, 10, seed=5)) == 2  # the header alone


#: A threshold draw (``draw_at_most``): two cards each, the player draws on 3 or fewer, the
#: dealer on 4 or fewer (the definition of tests/games/defined/test_reexpressed.py, one bet).
THRESHOLD = """game = "third-card"
[payouts]
win = 1
[definition]
[definition.shoe]
decks = 1
values = { A = 1, "10" = 0, J = 0, Q = 0, K = 0 }
[definition.deal]
positions = ["player", "dealer"]
cards = 2
draw_at_most = { player = 3, dealer = 4 }
[[definition.categories]]
name = "points"
pattern = { any = true }
tiebreak = ["points"]
[[definition.bets]]
name = "player"
outcomes = [
  { when = { winner = "player" }, pays = "win" },
  { when = { winner = "tie" }, push = true },
  { when = { winner = "dealer" }, loses = 1 },
]
"""


def test_a_threshold_draws_card_law_is_every_ordered_deal_of_cards():
    """draw_at_most: the law from its own ordered-deal polynomial, split into cards, against
    every ordered deal of the reduced shoe's cards with the plain threshold rule."""
    from odds.core.cards import STANDARD_DECK
    from odds.core.numbers import read_toml
    from odds.games.paytable import from_data

    data = read_toml(THRESHOLD, "t")
    copies = {c.code: 0 for c in STANDARD_DECK}
    for (rank, suit), n in REDUCED.items():
        card = next(c for c in STANDARD_DECK if (c.rank.value, c.suit.value) == (rank, suit))
        copies[card.code] = n
    data["shoe"] = {"decks": 1, "counts": copies}
    paytable = from_data(data, "t")
    law = paytable.game.dealt_moments(paytable.config)
    assert law is not None
    mean, covariance = plain.dealt_card_moments(REDUCED, plain.threshold((3, 4)))
    shoe = paytable.game.shoe(paytable.config)
    key = [(c.rank.value, c.suit.value) for c in shoe.types]
    for j, a in enumerate(key):
        assert law.mean[j] == mean.get(a, 0), a
        for k, b in enumerate(key):
            assert law.covariance[j][k] == covariance.get((a, b), 0), (a, b)
    assert 4 < sum(law.mean) < 6


def _war_log(path, overrides: list[str], rounds: int, seed: int) -> None:
    """Casino War from a CSM (every round from a fresh shoe of the overridden paytable), in
    sessions of 500 rounds, its decisions the optimal strategy's."""
    from odds.tools.audit.logs import deal_rounds, write_log

    dealer = load("casino-war", overrides)
    rows = deal_rounds(dealer.game, dealer.config, rounds, seed)
    sessions = ({**row, "shoe": f"session-{k // 500 + 1}"} for k, row in enumerate(rows))
    write_log(load("casino-war").game, sessions, path)


def test_a_war_is_tested_on_its_first_deals_under_a_csm(run, tmp_path):
    """A deal that goes on (Casino War's war) shows more cards on a tie, so a round's cards
    are not a uniform sample of the shoe; its first deal is (dealt before the rules read a
    card): the frequencies test the first deals, and say that the war cards are not tested.
    An honest machine passes; one short of 8s (two of each 8 in six decks, where six are due)
    is named by the rank test, the 8s less common."""
    first = "rank frequencies, pooled over first deals"
    honest = tmp_path / "honest.csv"
    _war_log(honest, [], 2000, 5)
    code, out, _ = run("audit", "casino-war", "--log", str(honest), "--set", CSM)
    assert code == 0, out
    assert f"Verdict, {first}: pass" in out
    assert "Verdict, suit frequencies, pooled over first deals: pass" in out
    assert "cover each round's first deal, a uniform sample of the full shoe" in out
    assert "rank and suit frequencies not tested" not in out
    short = tmp_path / "short.csv"
    eights = ", ".join(f"8{s} = 2" for s in "cdhs")
    _war_log(short, [f"shoe.counts={{{eights}}}"], 2000, 5)
    code, out, _ = run("audit", "casino-war", "--log", str(short), "--set", CSM)
    assert code == 1, out
    verdict = next(line for line in out.splitlines() if line.startswith(f"Verdict, {first}:"))
    assert verdict.startswith(f"Verdict, {first}: FAIL"), verdict
    assert "Finding: rank 8 is less common than the full shoe holds it" in out
