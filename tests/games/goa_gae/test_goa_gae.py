"""Goa Gae: every ranking rule and reading, category counts, bets, CLI errors.

The rules are docs/rules/goa-gae.md.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import pairwise
from math import comb

import pytest

from odds.cli import main
from odds.core.cards import parse_cards
from odds.core.options import build
from odds.engine import hands
from odds.games.goa_gae.counting import compute_showdown, event_ways
from odds.games.goa_gae.options import GoaGaeConfig, GoaGaeRules
from odds.games.goa_gae.rules import Ranking
from odds.games.goa_gae.strength import hand_strength
from odds.games.paytable import load

DEFAULT = GoaGaeRules()


def ranking(**readings: object) -> Ranking:
    return Ranking(GoaGaeRules(**readings))


def hand(text: str, rules: Ranking | None = None):
    return (rules or Ranking(DEFAULT)).rank(parse_cards(text))


def beats(a: str, b: str, rules: Ranking | None = None) -> bool:
    return hand(a, rules).strength > hand(b, rules).strength


def ties(a: str, b: str, rules: Ranking | None = None) -> bool:
    return hand(a, rules).strength == hand(b, rules).strength


# ---------------------------------------------------------------------------
# Categories


@pytest.mark.parametrize(
    ("cards", "category"),
    [
        ("3c 3d 3h", "triple"),
        ("Js Qs Ks", "straight-flush"),
        ("Qh Kh Ah", "straight-flush"),
        ("Ad 2d 3d", "straight-flush"),
        ("Jc Jd Qh", "jqk"),
        ("Kc Kd Qh", "jqk"),
        ("Qc Qd Kh", "jqk"),
        ("Jc Qd Kh", "straight"),  # the J-Q-K sequence is no JQK hand (default)
        ("Qc Kd Ah", "straight"),  # A high in Q-K-A
        ("Ac 2d 3h", "straight"),  # A low in A-2-3
        ("Kc Ad 2h", "points"),  # K-A-2 is no sequence
        ("2s 7s 9s", "flush"),
        ("Js Js Qs", "jqk"),  # two decks: a flush and a JQK hand counts as JQK
        ("10c Jd Qh", "straight"),
        ("Jc Qc 10c", "straight-flush"),
        ("Jc Jd Jh", "triple"),  # three faces of one rank are a triple, not JQK
        ("4c 4d 9h", "points"),
    ],
)
def test_categories(cards: str, category: str) -> None:
    assert hand(cards).category == category


def test_category_order_default() -> None:
    # Points < Flush < Straight < JQK < Straight flush < Triple
    ladder = ["9c 9d Ah", "2s 3s 5s", "Qc Kd Ah", "Jc Jd Qh", "Ad 2d 3d", "2c 2d 2h"]
    for low, high in pairwise(ladder):
        assert beats(high, low), (high, low)


def test_triple_order() -> None:
    assert beats("3c 3d 3h", "Ac Ad Ah")  # triple 3 is the highest
    assert beats("Ac Ad Ah", "Kc Kd Kh")
    assert beats("4c 4d 4h", "2c 2d 2s")  # 2 lowest
    assert beats("10c 10d 10h", "9c 9d 9h")


def test_triple_suits_never_compared() -> None:
    two = ranking()
    assert ties("7s 7s 7h", "7c 7d 7h", two)


def test_points_more_points_then_top_card_then_suit() -> None:
    assert beats("2c 3d 4h", "Ac Kd 7h")  # 9 points beat 8 points
    assert beats("Ac 4d 4h", "Kc 5d 4h")  # 9 points: A top card beats K (ace high)
    assert beats("Ks 5d 4h", "Kh 6d 3c")  # 9 points, top K: ♠ over ♥


def test_flush_points_then_top_card() -> None:
    assert hand("2s 3s 5s").category == "flush"
    assert beats("Ah 3h 5h", "2s 3s 5s")  # 9 points beat 0 points
    assert beats("As 8s Ks", "Ah 8h Kh")  # equal points and top card rank: suit


def test_straight_sequence_then_top_suit() -> None:
    assert beats("Qc Kd Ah", "Jc Qd Kh")  # Q-K-A highest
    assert beats("2c 3d 4h", "Ac 2d 3h")  # A-2-3 lowest
    assert beats("4d 5c 6h", "4c 5d 6d")  # same sequence: 6♥ over 6♦
    assert beats("Qc Kd As", "Qs Kh Ah")  # Q-K-A's top card is the A: A♠ over A♥


def test_jqk_top_card_then_suit() -> None:
    assert beats("Kc Qd Qs", "Jc Jd Qh")  # K top beats Q top
    assert beats("Qc Qd Ks", "Kh Kd Qs")  # both K top: K♠ over K♥
    assert beats("Jc Jd Qs", "Qh Jh Js")  # Q♠ over Q♥


def test_straight_flush_suit_before_sequence() -> None:
    assert beats("2s 3s 4s", "Qh Kh Ah")
    assert beats("Js Qs Ks", "10s Js Qs")  # same suit: higher sequence


def test_several_decks_next_card_then_identical_tie() -> None:
    assert beats("Ac 8c Kh", "Ac 8d Kc")  # identical top A♣, next K♥ over K♣
    assert beats("As 9h 9c", "As 9d 9c")  # second card: 9♥ over 9♦
    assert beats("As 9h 9d", "As 9h 9c")  # third card: 9♦ over 9♣
    assert ties("Ac 8d Kc", "Ac 8d Kc")
    assert beats("Qs Qs Ks", "Ks Qh Qh")  # JQK: identical top K♠ … next Q♠ over Q♥


# ---------------------------------------------------------------------------
# Readings (rule options), each decided by a case


def test_option_straight_above_jqk() -> None:
    assert beats("Jc Jd Qh", "Qc Kd Ah")
    assert beats("Qc Kd Ah", "Jc Jd Qh", ranking(straight_above_jqk=True))


def test_option_kqj_mixed_as_jqk() -> None:
    assert hand("Jc Qd Kh").category == "straight"
    jqk = ranking(kqj_mixed="jqk")
    assert hand("Jc Qd Kh", jqk).category == "jqk"
    assert hand("Jc Qc Kc", jqk).category == "straight-flush"  # suited stays a straight flush
    # As a straight it loses to Q-K-A and to every JQK hand (JQK ranks above Straight) …
    assert beats("Qc Kd Ah", "Jc Qd Kh")
    assert beats("Kc Kd Qs", "Jc Kh Qd")
    # … as the JQK hand it beats every straight and meets K-K-Q on the top card.
    assert beats("Jc Qd Kh", "Qc Kd Ah", jqk)
    assert beats("Jc Qd Ks", "Kc Kd Qh", jqk)  # top K♠ over K♦
    assert beats("Kc Ks Qd", "Jc Qd Kh", jqk)  # top K♠ over K♥


def test_option_king_high_single_cards() -> None:
    assert beats("Ac 4d 4h", "Kc 5d 4h")  # default: A top beats K top
    assert beats("Kc 5d 4h", "Ac 4d 4h", ranking(single_card_order="king-high"))


def test_option_straight_flush_above_triple() -> None:
    assert beats("3c 3d 3h", "Qs Ks As")
    assert beats("2s 3s 4s", "3c 3d 3h", ranking(straight_flush_above_triple=True))


def test_unknown_reading_is_one_line_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["report", "goa-gae", "--set", "rules.kqj_mixed=sometimes"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("error:") and "kqj_mixed" in err and "\n" not in err


# ---------------------------------------------------------------------------
# Category counts


def plain_category(cards) -> str:
    """A second reading of the categories, from docs/rules/goa-gae.md §Hand categories."""
    ranks = sorted(c.rank.value for c in cards)
    suits = {c.suit for c in cards}
    run = ranks == [1, 12, 13] or (ranks[1] == ranks[0] + 1 and ranks[2] == ranks[1] + 1)
    if len(set(ranks)) == 1:
        return "triple"
    if run and len(suits) == 1:
        return "straight-flush"
    if all(r >= 11 for r in ranks) and ranks != [11, 12, 13]:
        return "jqk"
    if run:
        return "straight"
    if len(suits) == 1:
        return "flush"
    return "points"


@pytest.mark.parametrize("decks", [1, 2])
def test_category_counts(decks: int) -> None:
    config = build(GoaGaeConfig, {"shoe": {"decks": decks}}, "")
    shoe = config.shoe.build()
    table = compute_showdown(config, shoe)
    found: dict[str, int] = {}
    for row in table.rows:
        key = table.hand(row).category
        found[key] = found.get(key, 0) + row.ways
    expected: dict[str, int] = {}
    for h, weight in hands(shoe.counts, 3):
        key = plain_category([shoe.types[t] for t in h])
        expected[key] = expected.get(key, 0) + weight
    assert found == expected
    assert sum(found.values()) == comb(52 * decks, 3)
    if decks == 1:
        assert found == {
            "triple": 52,
            "straight-flush": 48,
            "straight": 720,
            "jqk": 144,
            "flush": 1096,
            "points": 20040,
        }


def test_report_json_has_hand_categories(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "goa-gae", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ways = {row["name"]: row["ways"] for row in data["hand_categories"]}
    assert ways == {
        "Triple": 52,
        "Straight flush": 48,
        "JQK": 144,
        "Straight": 720,
        "Flush": 1096,
        "Points": 20040,
    }
    strength = {row["name"]: row for row in data["hand_strength"]}
    assert set(strength) >= {f"{p} points" for p in (0, 2, 9)} | {"1 point", "Triple"}
    assert data["bets"][0]["ev"] == "0"  # 1:1 both ways, the hands dealt alike


# ---------------------------------------------------------------------------
# Bets


def test_bonus_paytable_outcomes_and_symmetry() -> None:
    paytable = load("goa-gae-bonus")
    bet = paytable.analysis().bet("player")
    # Bonuses paid both ways: the player and the dealer are dealt alike, so EV is 0.
    assert bet.stats.ev == 0
    events = {o.event: o for o in bet.outcomes}
    wins = events["player wins with a Triple (bonus)"]
    losses = events["dealer wins with a Triple (bonus)"]
    assert wins.net == 5 and losses.net == -5 and wins.ways == losses.ways == 956_800
    one_sided = load("goa-gae-bonus", ["payouts.dealer_bonus_costs_player=false"])
    assert one_sided.analysis().bet("player").stats.ev > 0


def test_bonus_table_against_brute_force() -> None:
    """Bet events (dealer bonus split by category) equal the plain enumerator's."""
    from odds.games.goa_gae.bench import brute_event_ways, reduced_shoe

    config = load("goa-gae-bonus").config
    from odds.core.cards import Rank, Suit

    small = reduced_shoe(
        config.shoe.build(),
        ranks=(Rank.ACE, Rank.JACK, Rank.QUEEN, Rank.KING),
        suits=(Suit.CLUBS, Suit.HEARTS, Suit.SPADES),
    )
    fast = event_ways(config, compute_showdown(config, small, cuts=True))
    slow = brute_event_ways(config, small)
    assert {k: v for k, v in fast.items() if v} == slow


def test_settle_reasons_and_labels(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["settle", "goa-gae-bonus", "--dealer", "Kh Qd Js", "--player", "9c 8d Ah",
         "--format", "json"]
    )  # fmt: skip
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    bet = data["bets"][0]
    assert bet["event"] == "dealer wins with a Straight (bonus)"
    assert bet["net"] == "-200" and bet["debited"] == "500"
    assert "outranks" in bet["reason"]
    assert [h["hand_class"] for h in data["hands"]] == ["Straight", "8 points"]
    analysis = load("goa-gae-bonus").analysis()
    assert bet["event"] in {o.event for o in analysis.bet("player").outcomes}
    assert {"Straight", "8 points"} <= set(analysis.hand_classes)
    assert sum(analysis.hand_classes.values()) == 22_100


def test_settle_tie_break_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["settle", "goa-gae", "--dealer", "4c 5d 6d", "--player", "4d 5c 6h"]) == 0
    out = capsys.readouterr().out
    assert "top card's suit (♥ over ♦)" in out and "player wins" in out


# ---------------------------------------------------------------------------
# odds strength


def test_strength_matches_showdown_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["strength", "goa-gae", "As Ks 8s", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True
    assert data["win"] == "17613/18424" and data["tie"] == "0" and data["lose"] == "811/18424"
    config = load("goa-gae").config
    table = compute_showdown(config, config.shoe.build())
    types = table.shoe.types
    target = tuple(sorted(types.index(c) for c in parse_cards("As Ks 8s")))
    row = next(r for r in table.rows if r.hand == target)
    assert (row.weaker, row.equal, row.stronger) == (17613, 0, 811)


def _small_config(keep: str) -> GoaGaeConfig:
    kept = set(parse_cards(keep))
    from odds.core.cards import STANDARD_DECK

    removed = [c.code for c in STANDARD_DECK if c not in kept]
    return build(GoaGaeConfig, {"shoe": {"removed": removed}}, "")


def test_strength_two_opponents_exact_against_enumeration() -> None:
    from itertools import combinations

    keep = "Ac 2c 3c 4c Jc Qc Kc Ah 2h 3h Jh Qh Kh"
    config = _small_config(keep)
    mine = "Ac 2h 3c"
    result = hand_strength(config, parse_cards(mine), opponents=2)
    assert result.exact
    rules = Ranking(DEFAULT)
    key = rules.rank(parse_cards(mine)).strength
    rest = [c for c in parse_cards(keep) if c not in parse_cards(mine)]
    counts = {"win": 0, "tie": 0, "lose": 0}
    for first in combinations(range(len(rest)), 3):
        left = [i for i in range(len(rest)) if i not in first]
        for second in combinations(left, 3):
            best = max(rules.rank([rest[i] for i in h]).strength for h in (first, second))
            counts["win" if best < key else "tie" if best == key else "lose"] += 1
    assert (result.win, result.tie, result.lose) == (counts["win"], counts["tie"], counts["lose"])


def test_strength_simulation_is_labelled_and_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["strength", "goa-gae", "As Ks 8s", "--opponents", "3", "--trials", "2000"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "ESTIMATE" in text and "95% interval" in text
    assert main([*args, "--format", "json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*args, "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == first  # seeded: reproducible
    assert first["exact"] is False and "estimate" in first["method"]
    low, high = first["interval_95"]["win"]
    assert low <= float(Fraction(first["win"])) <= high


# ---------------------------------------------------------------------------
# Bad input through the CLI: one line, exit 2


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["strength", "goa-gae", "As Ks 8s 7s"], "three cards, got 4"),
        (["strength", "goa-gae", "As As 8s"], "cannot hold"),
        (["strength", "goa-gae", "As Ks 8s", "--opponents", "6"], "--opponents"),
        (["strength", "goa-gae", "As Kx 8s"], "unknown card"),
        (["settle", "goa-gae", "--dealer", "Kh Qd Js 2c", "--player", "9c 9d 9h"], "three cards"),
        (["settle", "goa-gae", "--dealer", "Kh Qd Js", "--player", "Kh 9d 9h"], "cannot hold"),
        (["settle", "goa-gae", "--dealer", "Kh Qd Js"], "missing --player"),
        (["settle", "goa-gae", "--dealer", "Kh Qd", "--player", "9c 9d 9h"], "--dealer must be"),
        (["strength", "goa-gae", ""], "missing HAND (three cards"),  # no --hand option exists
        (["settle", "goa-gae", "--banker", "Kh Qd Js", "--player", "9c 9d 9h"], "no --banker"),
    ],
)
def test_bad_input(argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and needle in err and err.count("\n") == 1


def test_unknown_bonus_category(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('game = "goa-gae"\n[payouts]\nbonus = { quads = 10 }\n', encoding="utf-8")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err
    assert "unknown category 'quads'" in err and err.count("\n") == 1


def test_loss_larger_than_debit_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", "goa-gae-bonus", "--set", "payouts.withholding=1"]
    assert main(argv) == 2
    assert "withholding" in capsys.readouterr().err
