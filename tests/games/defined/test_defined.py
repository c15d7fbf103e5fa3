"""Defined games: every bet against a plain enumeration on reduced shoes, published figures,
one round settled, and one-line errors for bad definitions."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from odds.core.errors import OddsError
from odds.games import games
from odds.games.defined import patterns
from odds.games.defined.game import DefinedGame
from odds.games.paytable import TABLES, from_data, load, load_file
from tests.games.defined.reduced import defined, derived, paths, pinned, reduced
from tests.paths import ROOT
from tests.reference.defined import brute_force

DEFINED = defined()

#: Shoes chosen by hand (reduced_shoes.toml); every other definition's is derived from it.
SHOES = pinned()


@cache
def derived_once(name: str) -> tuple[str, ...]:
    """A definition's derived shoe, derived once for the tests that read it (the derivation
    reads every hand of the full shoe: seconds for a game of three-card hands)."""
    return tuple(derived(name))


def shoe_of(name: str) -> list[str]:
    """The shoe `reduced.shoe_for` gives, with the derivation shared among the tests."""
    return SHOES.get(name) or list(derived_once(name))


def probabilities(paytable: Any) -> dict[str, dict[str, Fraction]]:
    game = paytable.game
    assert isinstance(game, DefinedGame)
    config = paytable.config
    found = {}
    for bet in game.definition.bets:
        ways = game.settle_rounds(config, bet, game.rounds(config, bet), full_shoe=False)
        total = sum(ways.values())
        found[bet.name] = {k: Fraction(n, total) for k, n in ways.items() if n}
    return found


@cache
def plain(name: str) -> dict[str, dict[str, Fraction]]:
    """The plain enumeration of paytable ``name`` on its reduced shoe, counted once (the
    changed-rule test below compares with Lucky 6's; it is never changed)."""
    paytable, cards = reduced(name, shoe_of(name))
    return brute_force(paytable.game, cards, paytable.config)


#: The definitions enumerated: one for each engine path (:func:`reduced.paths`), each for the
#: paths no other one here takes; every other definition in tables/ takes only paths these
#: take (test_every_definition_takes_paths_that_are_enumerated), and differs from them in its
#: figures alone, which the engine reads through the same code. Enumerating all 29 cost ~4.8
#: CPU-s, these ~2.4: Bài Cào's shoe alone took 0.9 s to derive (every three-card hand of
#: the deck), Baccarat's side bets each built their tableau polynomial again.
ENUMERATED = (
    "3-giving-8",  # a tableau's drawn cards: the third card's value, two-card points
    "andar-bahar",  # a deal until a match, three positions, the cards dealt
    "baccarat",  # a tableau's first cards (pairs, suited pairs), naturals, margin, cards
    "bull-bull",  # five-card patterns: a subset's points, the values' total and highest
    "casino-war-tie-bonus",  # a continuation to each position, burning cards
    "dragon-tiger-side-bets",  # suits read, the same suit
    "goa-gae-bonus",  # tiebreaks by top cards, suits, a sequence's suits; a rank order
    "lucky-6",  # a tableau's points (its count is the changed-rule test's, shared)
    "mahjong-28",  # tiles: tile patterns, pair and single orders, identical hands, seats
    "perfect-pairs",  # colours
    "pok-deng",  # a bet per hand, conjunctions, flushes
    "red-dog",  # a continuation to a position of its own, a decision when it goes on, spread
    "san-gong",  # no ace-high sequence, the top card's tiebreak
    "six-card-bonus",  # the best five of six cards, rank counts
    "three-card-poker",  # a decision at the deal, a fixed strategy, a bet riding on another
    "tie-max",  # a tableau's coup highest card
    "win-three-cards",  # a category that beats another, a category order
)


@pytest.mark.parametrize("name", ENUMERATED)
def test_every_bet_equals_the_plain_enumeration(name: str) -> None:
    """One definition per engine path, on its pinned shoe or one derived from the definition."""
    paytable, _ = reduced(name, shoe_of(name))
    assert probabilities(paytable) == plain(name)


def test_every_definition_takes_paths_that_are_enumerated() -> None:
    """A definition that takes a path no enumerated one takes (a new deal, feature, pattern,
    condition form) fails here, naming the path: add it to ENUMERATED (its reduced shoe is
    derived, or pinned in reduced_shoes.toml). And each enumerated definition still takes a
    path no other one does, or it is not worth its count (Lucky 6's is shared)."""
    taken = {name: paths(name) for name in sorted({*DEFINED, *SHOES})}
    enumerated = set().union(*(taken[name] for name in ENUMERATED))
    missing = {name: sorted(map(str, p - enumerated)) for name, p in taken.items()}
    assert not {name: p for name, p in missing.items() if p}
    for name in set(ENUMERATED) - {"lucky-6"}:
        others = set().union(*(taken[n] for n in ENUMERATED if n != name))
        assert taken[name] - others, name


def test_pinned_shoes_name_paytables_that_exist() -> None:
    assert not [name for name in SHOES if not (TABLES / f"{name}.toml").is_file()]


@pytest.mark.parametrize("name", ["pok-deng", "bai-cao", "three-card-poker", "teen-patti"])
def test_a_derived_shoe_holds_every_category(name: str) -> None:
    """The derivation finds a hand of each category, and of each feature value a bet reads
    (the flush bets: a flush and a hand that is not one), in a few cards. Pok Deng's shoe is
    derived here (its own is pinned): a derivation that lost a category fails on it, in
    0.04 s of CPU (two-card hands; a game of three-card hands reads 22,100 hands of the
    deck, ~1 s). Bài Cào's, Three Card Poker's and Teen Patti's shoes are the derivation's,
    pinned (reduced_shoes.toml): a category either definition gains fails here."""
    game = load(name).game
    assert isinstance(game, DefinedGame)
    definition = game.definition
    _, cards = reduced(name, derived_once(name) if name == "pok-deng" else shoe_of(name))
    size = definition.deal.cards
    assert len(cards) <= 10
    hands = [list(h) for h in combinations(cards, size)]
    found = {patterns.category_of(h, definition) for h in hands}
    assert found == set(range(len(definition.categories)))
    flushes = {patterns.feature(h, "flush", definition) for h in hands}
    assert flushes == {True, False}


def test_plain_enumeration_catches_a_changed_rule() -> None:
    """The harness can fail: a tableau with another drawing rule counts differently."""
    other, _ = reduced("lucky-6", SHOES["lucky-6"])
    data = dict(other.data)
    tableau = {
        "naturals": [9],
        "first_draws": [0, 1, 2, 3, 4, 5],
        "second_draws_first_stood": [0, 1, 2],
        "second_draws": {str(t): [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] for t in range(9)},
    }
    deal = {"positions": ["player", "banker"], "tableau": tableau}
    from odds.games.defined.bases import base_definition

    own = {k: v for k, v in data["definition"].items() if k != "base"}
    whole = dict(base_definition("baccarat") or {}, deal=deal)  # a base's deal is fixed
    data["definition"] = dict(whole, bets=own["bets"])
    changed = from_data(data, "changed")
    assert probabilities(changed) != plain("lucky-6")  # no decision: the config is not read


def test_registry_finds_defined_games() -> None:
    registry = games()  # read once: it loads every table
    for name in DEFINED:
        assert name in registry
        assert isinstance(registry[name], DefinedGame)


# -- Published figures ----------------------------------------------------------


def test_teen_patti_2020_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "Teen Patti 20-20" (wizardofodds.com/games/teen-patti-20-20/): ties
    450,528 ways; Player A/B return −0.024972 (house edge 2.50%). (The page's win count,
    203,134,672, and total, 406,719,872, leave the ties out of the total once more: its
    total is C(52,3)·C(49,3) = 407,170,400 less the 450,528 ties.)"""
    analysis = load("teen-patti-2020").analysis()
    assert analysis.deals == 407_170_400
    a = analysis.bet("player-a")
    ways = {o.event: o.ways for o in a.outcomes}
    assert ways["tie (push)"] == 450_528
    assert ways["A wins"] == ways["B wins"] == (407_170_400 - 450_528) // 2
    assert round(float(a.ev), 6) == -0.024972


def test_lucky_6_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "Lucky 6" (wizardofodds.com/games/baccarat/side-bets/lucky-6/), Macau
    pay table: 2-card winning Banker 6 186,173,936,904,192; 3-card 83,058,367,551,488; of
    4,998,398,275,503,360; house edge 16.68%."""
    bet = load("lucky-6").analysis().bet("lucky-6")
    assert [o.ways for o in bet.outcomes] == [
        186_173_936_904_192,
        83_058_367_551_488,
        4_729_165_971_047_680,
    ]
    assert round(float(-bet.ev), 6) == 0.166836


def test_lucky_6_definition_is_ten_lines() -> None:
    """The README shows the bet whole in ten lines: its payouts and its definition."""
    text = (TABLES / "lucky-6.toml").read_text()
    lines = [
        line
        for line in text.splitlines()
        if line.strip() and not line.startswith(("#", "game =", "title =", "description ="))
    ]
    assert len(lines) <= 10
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "```toml\n" + "\n".join(lines) + "\n```" in readme


def test_a_side_bet_on_a_base_is_titled_by_its_bets_never_by_the_base(run, tmp_path) -> None:
    """``odds games`` listed Lucky 6 (no title of its own) as "Baccarat (punto banco)", the
    base's title: a definition on a base without a title is named after the bets it adds."""
    from odds.games.defined.bases import base_definition

    based = [p for p in TABLES.glob("*.toml") if 'base = "baccarat"' in p.read_text()]
    assert len(based) >= 5
    base = base_definition("baccarat")
    assert base is not None
    base_title = base["title"]
    for path in based:
        assert load_file(path).game.title != base_title, path.name
    code, out, _ = run("games")
    row = next(line for line in out.splitlines() if line.startswith("| lucky-6 "))
    assert code == 0 and "| Lucky 6 (baccarat side bet) " in row
    # Two bets without a title of their own: both named, in the plural; an own title is kept.
    lines = (TABLES / "lucky-6.toml").read_text().splitlines()
    two = [line for line in lines if not line.startswith(("game =", "title ="))]
    bet = two.index("[[definition.bets]]")
    two += [line.replace('"lucky-6"', '"lucky-6-again"') for line in two[bet:]]
    (tmp_path / "two.toml").write_text("\n".join(two) + "\n")
    assert load_file(tmp_path / "two.toml").game.title == (
        "Lucky 6 / Lucky 6 Again (baccarat side bets)"
    )
    titled = [*two[:bet], 'title = "Mine"', *two[bet:]]
    (tmp_path / "mine.toml").write_text("\n".join(titled) + "\n")
    assert load_file(tmp_path / "mine.toml").game.title == "Mine"


def test_a_definition_without_a_game_is_named_by_its_file(tmp_path: Path) -> None:
    text = (TABLES / "lucky-6.toml").read_text()
    bet = tmp_path / "my-bet.toml"
    bet.write_text("\n".join(line for line in text.splitlines() if not line.startswith("game =")))
    assert load(str(bet)).game.name == "my-bet"
    odd = tmp_path / "My Bet.toml"
    odd.write_text(bet.read_text())
    with pytest.raises(OddsError, match="names its game"):
        load(str(odd))


# -- One round --------------------------------------------------------------------


def test_settle_teen_patti_round() -> None:
    paytable = load("teen-patti-2020")
    settled = paytable.game.settle(paytable.config, {"a": "Ah Ad Ac", "b": "Kh Qh Jh"}, Fraction(1))
    by_bet = {b.bet: b for b in settled.bets}
    assert by_bet["player-a"].returned == Fraction(39, 20)  # 0.95 to 1
    assert by_bet["pair-plus-a"].returned == 51
    assert by_bet["pair-plus-b"].returned == 31  # straight flush
    assert by_bet["tie"].returned == 0


def test_settle_tableau_round_checks_the_draws() -> None:
    paytable = load("lucky-6")
    # The Player draws on 5; a two-card Player is refused.
    with pytest.raises(OddsError, match="must have a third card"):
        paytable.game.settle(paytable.config, {"player": "Kh 5d", "banker": "3c 3d"}, Fraction(1))


def test_settle_lucky_6_win() -> None:
    paytable = load("lucky-6")
    settled = paytable.game.settle(
        paytable.config, {"player": "Kh 2d 2c", "banker": "3c 3d"}, Fraction(1)
    )
    assert settled.bets[0].returned == 13  # the Banker stands on 6 after a third card 2


# -- Bad definitions: one line each -------------------------------------------------


def definition_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bet.toml"
    path.write_text(text)
    return path


LUCKY = """game = "my-bet"
[payouts]
two = 12
[definition]
base = "baccarat"
[[definition.bets]]
name = "my-bet"
outcomes = [
  { when = { winner = "banker", banker = { points = 6, cards = 2 } }, pays = "two" },
  { otherwise = true, loses = 1 },
]
"""


def refusal(tmp_path: Path, text: str) -> str:
    with pytest.raises(OddsError) as info:
        load_file(definition_file(tmp_path, text)).analysis()
    message = str(info.value)
    assert "\n" not in message
    return message


def test_unknown_key_names_its_line(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace('name = "my-bet"', 'name = "my-bet"\ncolour = 1'))
    assert "unknown key 'colour'" in message and "(line 8)" in message


def test_outcome_that_never_happens(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace("points = 6, cards = 2", "points = 6, cards = 4"))
    assert "never happens" in message and "line 9" in message


def test_round_settled_by_two_outcomes(tmp_path: Path) -> None:
    text = LUCKY.replace(
        "  { otherwise = true, loses = 1 },",
        "  { when = { banker = { points = 6 } }, loses = 1 },\n  { otherwise = true, loses = 1 },",
    )
    message = refusal(tmp_path, text)
    assert "settled by two outcomes (lines 9 and 10)" in message


def test_round_settled_by_no_outcome(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace("  { otherwise = true, loses = 1 },\n", ""))
    assert "no outcome settles the round" in message


def test_pattern_that_never_occurs(tmp_path: Path) -> None:
    text = (
        (TABLES / "teen-patti-2020.toml")
        .read_text()
        .replace(
            "pattern = { sequence = true, flush = true }",
            "pattern = { same_rank = 3, flush = true }",
        )
    )
    message = refusal(tmp_path, text)
    assert "definition.categories.straight-flush" in message and "never occurs" in message


def test_more_cards_than_the_shoe(tmp_path: Path) -> None:
    text = (TABLES / "teen-patti-2020.toml").read_text().replace("cards = 3", "cards = 26", 1)
    text = text.replace("[shoe]\ndecks = 1", '[shoe]\ndecks = 1\nremoved = ["Ah"]')
    message = refusal(tmp_path, text)
    assert "a round deals 52 cards but the shoe holds 51" in message


def test_enumeration_too_large_is_estimated(tmp_path: Path) -> None:
    text = (TABLES / "teen-patti-2020.toml").read_text().replace("cards = 3", "cards = 7", 1)
    message = refusal(tmp_path, text)
    assert "distinct hands, over the limit" in message and "~" in message


def test_unknown_payout_name(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace('pays = "two"', 'pays = "three"'))
    assert "pays 'three', but [payouts] has no three" in message


def test_unknown_base(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace('base = "baccarat"', 'base = "roulette"'))
    assert "unknown base 'roulette' (bases: baccarat)" in message and "(line 5)" in message


def test_tableau_cannot_read_suits(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace("points = 6, cards = 2", "flush = true"))
    assert "counted by card values only" in message


def test_tableau_bet_cannot_read_first_cards_and_the_coup(tmp_path: Path) -> None:
    message = refusal(tmp_path, LUCKY.replace("points = 6, cards = 2", "pair = true"))
    assert "reads the first two cards' ranks or suits" in message
    assert "and the coup (winner) together" in message


def test_dragon_bonus_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "Baccarat Side Bets", Dragon Bonus — Player, eight decks
    (wizardofodds.com/games/baccarat/side-bets/): win by 9 18,409,431,764,992; natural win
    812,685,054,124,032; natural tie 89,325,908,267,520; house edge 2.65%."""
    bet = load("baccarat").analysis().bet("dragon-bonus-player")
    ways = {o.event: o.ways for o in bet.outcomes}
    assert ways["Player wins by 9, no natural"] == 18_409_431_764_992
    assert ways["Player wins with a natural"] == 812_685_054_124_032
    assert ways["natural tie (push)"] == 89_325_908_267_520
    assert round(float(-bet.ev), 4) == 0.0265


def test_pair_plus_matches_published_counts() -> None:
    """John Grochowski, "Three Card Poker and Pair Plus" (casinocitytimes.com, 8 July 2021):
    of 22,100 hands, 48 straight flushes, 52 threes of a kind, 720 straights, 1,096 flushes,
    3,744 pairs, 16,440 losing hands; 40-30-6-3-1 has a 7.28% house edge."""
    bet = load("pair-plus").analysis().bet("pair-plus")
    assert [o.ways for o in bet.outcomes] == [48, 52, 720, 1_096, 3_744, 16_440]
    assert round(float(-bet.ev) * 100, 2) == 7.28


def test_solve_finds_a_payout_on_a_defined_side_bet() -> None:
    """The designer's loop: Lucky 6's three-card pay for a 95% RTP (odds solve)."""
    from odds.tools.solve import solve

    solution = solve(load("lucky-6"), "lucky-6", "payouts.three_cards", Fraction(95, 100))
    # 0.037247·13 + 0.016617·(x + 1) = 0.95 per unit: x ≈ 27.03
    assert 27 < float(solution.solutions[0]) < 27.1


def test_a_settled_hand_of_one_point_reads_in_the_singular() -> None:
    paytable = load("goa-gae")
    hands = {"dealer": "Ah 10h Qh", "player": "9c Kd Qs"}
    settled = paytable.game.settle(paytable.config, hands, Fraction(1))
    described = {hand.position: hand.description for hand in settled.hands}
    assert described["dealer"] == "Flush, 1 point"
    assert described["player"] == "Points, 9 points"
