"""The games and bets of issue 22 item 4 defined as data: published figures (sources cited),
the non-transitive exception counted, one round settled, and one-line errors for ``beats``."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from odds.core.errors import OddsError
from odds.games.defined import ranking
from odds.games.paytable import TABLES, load, load_file
from tests.games.defined.reduced import reduced
from tests.games.defined.test_defined import SHOES, probabilities
from tests.paths import ROOT
from tests.reference.defined import brute_force

BACCARAT_DEALS = 4_998_398_275_503_360


def house_edge(game: str, bet: str) -> float:
    return round(float(-load(game).analysis().bet(bet).ev) * 100, 2)


# -- Win Three Cards: the unsuited 2-3-5 ------------------------------------------------


def test_win_three_cards_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "Win Three Cards" (wizardofodds.com/games/win-three-cards/): Dragon and
    Phoenix pay 0.95 to 1, ties push; house edge 2.50%."""
    analysis = load("win-three-cards").analysis()
    assert analysis.deals == 407_170_400
    ways = {o.event: o.ways for o in analysis.bet("dragon").outcomes}
    assert ways["tie (push)"] == 450_528  # the same ranks in both hands
    assert ways["Dragon wins"] == ways["Phoenix wins"]
    assert house_edge("win-three-cards", "dragon") == 2.50


def test_the_exception_is_counted_not_just_settled() -> None:
    """Without the correction of the 2-3-5 against three-of-a-kind pairs the counts differ
    from the deal-by-deal enumeration: the reduced shoe holds both hands."""
    paytable, cards = reduced("win-three-cards", SHOES["win-three-cards"])
    reference = brute_force(paytable.game, cards)
    assert probabilities(paytable) == reference
    original = ranking.correct_exceptions
    try:
        ranking.correct_exceptions = lambda classifier, counts, result, reads: dict(result)  # type: ignore[assignment]
        paytable.game.__dict__.pop("_rounds_cache", None)
        assert probabilities(paytable) != reference
    finally:
        ranking.correct_exceptions = original
        paytable.game.__dict__.pop("_rounds_cache", None)


@pytest.mark.parametrize(
    ("dragon", "phoenix", "winner"),
    [
        ("2c 3d 5h", "7c 7d 7h", "dragon"),  # the 2-3-5 beats three of a kind
        ("2c 3d 5h", "Kc Qd 9h", "phoenix"),  # and loses to everything else
        ("2c 3c 5c", "Kc Qd 9h", "dragon"),  # a suited 2-3-5 is a flush
        ("Ah Kh Qh", "7c 7d 7h", "phoenix"),  # three of a kind above a straight flush
    ],
)
def test_settle_win_three_cards(dragon: str, phoenix: str, winner: str) -> None:
    paytable = load("win-three-cards")
    settled = paytable.game.settle(
        paytable.config, {"dragon": dragon, "phoenix": phoenix}, Fraction(1)
    )
    by_bet = {b.bet: b.returned for b in settled.bets}
    assert by_bet["dragon"] == (Fraction(39, 20) if winner == "dragon" else 0)


def definition_with(tmp_path: Path, old: str, new: str) -> str:
    text = (TABLES / "win-three-cards.toml").read_text().replace(old, new, 1)
    path = tmp_path / "w3.toml"
    path.write_text(text)
    with pytest.raises(OddsError) as info:
        load_file(path).analysis()
    message = str(info.value)
    assert "\n" not in message
    return message


def test_beats_an_unknown_category(tmp_path: Path) -> None:
    message = definition_with(tmp_path, 'beats = ["trips"]', 'beats = ["quads"]')
    assert "definition.categories.two-three-five.beats" in message
    assert "unknown category 'quads'" in message and "(line " in message


def test_two_categories_beating_each_other(tmp_path: Path) -> None:
    text = 'pattern = { same_rank = 3 }\ntiebreak = ["ranks"]'
    message = definition_with(tmp_path, text, text + '\nbeats = ["two-three-five"]')
    assert "each beat the other" in message


def test_an_order_missing_a_category(tmp_path: Path) -> None:
    message = definition_with(tmp_path, '"high-card",\n', "\n")
    assert "definition.compare.order" in message and "every category once" in message


# -- San Gong ------------------------------------------------------------------------------


def test_san_gong_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "San Gong" (wizardofodds.com/games/san-gong/): one deck, the winning
    hand bets pay 0.94 to 1, "everything has a house edge near 3% except the bets on a pair
    at 67" (the copy we could read stops there). With the top card's suit deciding, hands
    never tie, so Dragon and Phoenix lose exactly 3%.

    The exact EVs are read from the committed report, which ``odds reports`` counted from
    these very sources (``reports/SHA256SUMS``: ``tests/cli/test_cli.py::
    test_committed_reports_are_those_generated_from_these_sources`` checks every digest)."""
    ev = _report_evs("san-gong")
    assert ev["Dragon"] == ev["Phoenix"] == Fraction(-3, 100)
    for bet in ("Dragon Odd", "Dragon Even", "Phoenix Odd", "Phoenix Even"):
        assert 2.5 < float(-ev[bet]) * 100 < 3.5
    assert round(float(-ev["Dragon Pair"]) * 100) == 67


def _report_evs(name: str) -> dict[str, Fraction]:
    """The exact EV column of a committed report's summary, by bet title."""
    text = (ROOT / "reports" / f"{name}.md").read_text(encoding="utf-8")
    summary = text[text.index("## Summary") :]
    evs = {}
    for line in summary.splitlines()[4:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        evs[cells[0]] = Fraction(cells[1])
    return evs


def test_san_gong_settles_by_the_top_card_and_its_suit() -> None:
    paytable = load("san-gong")
    # Both 9 points; the Phoenix's king of spades beats the Dragon's king of hearts.
    settled = paytable.game.settle(
        paytable.config, {"dragon": "Kh 4c 5d", "phoenix": "Ks 2c 7d"}, Fraction(1)
    )
    by_bet = {b.bet: b.returned for b in settled.bets}
    assert by_bet["phoenix"] == Fraction(194, 100)
    assert by_bet["total-9"] == 5  # the winner's total is 9: 4 to 1


# -- Baccarat side bets --------------------------------------------------------------------


def test_small_and_big_6_match_the_published_edges() -> None:
    """Macau Daily Times, "Casinos embrace new baccarat side bet" (17 July 2024): Small 6
    (Small Tiger, 22 to 1 on a two-card winning Banker 6) 14.33%, Big 6 (Big Tiger, 50 to 1
    on a three-card one) 15.25%. The ways are Wizard of Odds' Lucky 6 events
    (wizardofodds.com/games/baccarat/side-bets/lucky-6/)."""
    analysis = load("small-big-6").analysis()
    assert analysis.deals == BACCARAT_DEALS
    assert analysis.bet("small-6").outcomes[0].ways == 186_173_936_904_192
    assert analysis.bet("big-6").outcomes[0].ways == 83_058_367_551_488
    assert house_edge("small-big-6", "small-6") == 14.33
    assert house_edge("small-big-6", "big-6") == 15.25


def test_natural_8_and_9_match_wizard_of_odds() -> None:
    """Wizard of Odds, "Natural Hand Side Bets" (wizardofodds.com/games/baccarat/side-bets/
    natural/; read in a copy at jndiario.com): Natural 8 wins 472,508,456,071,680 of
    4,998,398,275,503,360, 5.47% at 9 to 1; Natural 9 wins 474,361,430,409,216, 5.10%; the same
    on either side."""
    analysis = load("natural-8-9").analysis()
    for side in ("player", "banker"):
        assert analysis.bet(f"{side}-natural-8").outcomes[0].ways == 472_508_456_071_680
        assert analysis.bet(f"{side}-natural-9").outcomes[0].ways == 474_361_430_409_216
    assert house_edge("natural-8-9", "player-natural-8") == 5.47
    assert house_edge("natural-8-9", "banker-natural-9") == 5.10


def test_lucky_7_pays_a_winning_player_7() -> None:
    paytable = load("lucky-7")
    settled = paytable.game.settle(
        paytable.config, {"player": "4h 3d", "banker": "Kc 5s 9d"}, Fraction(1)
    )
    assert settled.bets[0].returned == 7  # a two-card 7 over a three-card 4: 6 to 1


def test_super_lucky_7_three_cards_against_three() -> None:
    paytable = load("super-lucky-7")
    settled = paytable.game.settle(
        paytable.config, {"player": "Kh 2d 5c", "banker": "Qc 3s 3d"}, Fraction(1)
    )
    assert settled.bets[0].returned == 101


def test_dragon_tiger_suited_tie_matches_wizard_of_odds() -> None:
    """Wizard of Odds, "Dragon Tiger" (wizardofodds.com/games/dragon-tiger/): Suited Tie
    1,456 of 86,320 (0.016867), 50 to 1, house edge 13.98%."""
    bet = load("dragon-tiger-side-bets").analysis().bet("suited-tie")
    assert Fraction(bet.outcomes[0].ways, sum(o.ways for o in bet.outcomes)) == Fraction(
        1456, 86320
    )
    assert round(float(-bet.ev) * 100, 2) == 13.98


def test_exceptions_meeting_too_many_hand_pairs_are_refused_before_the_work() -> None:
    """Issue 35: a ``beats`` against a catch-all category of six decks walked 17,792,320 hand
    pairs (2.5 CPU minutes, no estimate). The cost is counted first and refused past the
    bound, in one line saying what to write instead; Win Three Cards' 6,240 pairs pass."""
    from collections import Counter

    from odds.engine import hands
    from odds.games.defined import patterns
    from odds.games.defined.game import DefinedGame

    paytable = load("win-three-cards")
    game = paytable.game
    assert isinstance(game, DefinedGame)
    definition = game.definition
    shoe = paytable.config.shoe.build()
    sizes: Counter[int] = Counter()
    for hand, _ in hands(list(shoe.counts), definition.deal.cards):
        index = patterns.category_of([shoe.types[t] for t in hand], definition)
        assert index is not None
        sizes[index] += 1
    ranking.check_exception_cost(definition, sizes)  # the default bound
    ranking.check_exception_cost(definition, sizes, limit=6_240)
    with pytest.raises(OddsError) as info:
        ranking.check_exception_cost(definition, sizes, limit=6_239)
    message = str(info.value)
    assert "\n" not in message and ".beats (line " in message
    assert "meet 6,240 hand pairs" in message and "over the limit of 6,239" in message
    assert "{ player = { same_rank = 3 } }" in message
