"""Options in definitions (docs/reference/definitions.md, "Options: rule readings as data").

The declarations and their one-line refusals, conditions and patches read under a reading,
table payouts and labels that follow them, negated patterns, a paytable of a defined game,
and that a definition's paytable keys are the coded game's (what users write stays valid).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from odds.core.cards import parse_cards
from odds.core.errors import OddsError
from odds.core.numbers import read_toml
from odds.core.options import option_specs
from odds.games import games
from odds.games.defined import patterns
from odds.games.paytable import from_data, load, load_file
from odds.tools.variants import reading_options

#: A small game to read options on: one card each, the higher rank wins.
SMALL = """game = "high-card"
[payouts]
win = 1
[definition]
[definition.options.rules.ties]
default = "push"
meaning = "What a tie does to the bet:"
choices = { push = "the stake comes back (default).", lose = "the bet loses." }
[definition.shoe]
decks = 1
[definition.deal]
positions = ["player", "dealer"]
cards = 1
[definition.compare]
by = ["ranks"]
[[definition.bets]]
name = "player"
[[definition.bets.outcomes]]
name = "win"
label = "player wins"
when = { winner = "player" }
pays = "win"
[[definition.bets.outcomes]]
name = "push"
label = "tie: push"
when = { winner = "tie", rules = { ties = "push" } }
push = true
[[definition.bets.outcomes]]
name = "tie-lose"
label = "tie: loses"
when = { winner = "tie", rules = { ties = "lose" } }
loses = 1
[[definition.bets.outcomes]]
name = "lose"
label = "dealer wins"
when = { winner = "dealer" }
loses = 1
"""


def refused(tmp_path: Path, text: str, *overrides: str) -> str:
    path = tmp_path / "game.toml"
    path.write_text(text)
    with pytest.raises(OddsError) as info:
        load_file(path, list(overrides)).analysis()
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def outcomes(paytable: Any, bet: str) -> dict[str, int]:
    return {o.event: o.ways for o in paytable.bet_analysis().bet(bet).outcomes}


def small(tmp_path: Path, *overrides: str, text: str = SMALL) -> Any:
    path = tmp_path / "game.toml"
    path.write_text(text)
    return load_file(path, list(overrides))


# -- conditions read options ----------------------------------------------------------


def test_an_outcome_is_absent_where_its_option_test_is_false(tmp_path: Path) -> None:
    default = outcomes(small(tmp_path), "player")
    lose = outcomes(small(tmp_path, "rules.ties=lose"), "player")
    assert list(default) == ["player wins", "tie: push", "dealer wins"]
    assert list(lose) == ["player wins", "tie: loses", "dealer wins"]
    assert default["tie: push"] == lose["tie: loses"] == 52 * 3
    ev = small(tmp_path, "rules.ties=lose").bet_analysis().bet("player").ev
    assert ev == Fraction(-3, 51)  # 4 ranks' ties of 3 each in 51


def test_an_optional_outcome_stays_with_no_ways(tmp_path: Path) -> None:
    text = SMALL.replace("push = true\n", "push = true\noptional = true\n")
    found = outcomes(small(tmp_path, "rules.ties=lose", text=text), "player")
    assert found["tie: push"] == 0 and found["tie: loses"] == 156


def test_the_options_are_the_paytable_s(tmp_path: Path) -> None:
    paytable = small(tmp_path)
    specs = {s.key: s for s in option_specs(paytable.game.config_type)}
    assert specs["rules.ties"].choices == {
        "push": "the stake comes back (default).",
        "lose": "the bet loses.",
    }
    assert reading_options(paytable.config) == [("rules.ties", ("push", "lose"))]
    rows = {line.key: line for line in paytable.analysis().rules}
    meaning = "What a tie does to the bet: the stake comes back (default)."
    assert rows["rules.ties"].meaning == meaning


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('default = "push"\n', ""), "missing default"),
        (('meaning = "What a tie does to the bet:"\n', ""), "missing meaning"),
        (("choices = {", 'kind = "choice"\nx = {'), "unknown key 'x'"),
        (('default = "push"', 'default = "push"\nkind = "colour"'), "kind: expected one of"),
        (("[definition.options.rules.ties]", "[definition.options.shoe.ties]"), "'shoe' cannot"),
        (('default = "push"', 'default = "draw"'), "'draw' is not one of 'push', 'lose'"),
        (('default = "push"', 'default = "push"\nbinds = "bets.x"'), "binds: a definition path"),
        (('rules = { ties = "push" }', 'rules = { ties = "pushes" }'), "'pushes' is not one of"),
        (('rules = { ties = "push" }', 'rules = { tie = "push" }'), "rules.tie (line 26): unknown"),
        (('positions = ["player", "dealer"]', 'positions = ["player", "rules"]'), "'rules' names"),
    ],
)
def test_a_declaration_or_a_test_is_refused_in_one_line(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    old, new = change
    assert old in SMALL
    assert message in refused(tmp_path, SMALL.replace(old, new, 1))


def test_a_value_is_refused_naming_what_is_accepted(tmp_path: Path) -> None:
    message = refused(tmp_path, SMALL, "rules.ties=split")
    assert message.endswith("rules.ties: 'split' is not one of 'push', 'lose'")


# -- patches, presence, labels ----------------------------------------------------------


PATCHED = (
    SMALL
    + """
[[definition.patches]]
when = { rules = { ties = "lose" } }
bets = [{ name = "player", outcomes = [{ name = "lose", label = "dealer wins or ties" }] }]
"""
)


def test_a_patch_merges_by_name_under_its_reading(tmp_path: Path) -> None:
    assert "dealer wins" in outcomes(small(tmp_path, text=PATCHED), "player")
    patched = small(tmp_path, "rules.ties=lose", text=PATCHED)
    assert "dealer wins or ties" in outcomes(patched, "player")


def test_a_patch_naming_nothing_is_refused(tmp_path: Path) -> None:
    text = PATCHED.replace('"lose", label = "dealer wins or', '"loss", label = "x')
    assert "names no 'loss' (known: win, push, tie-lose, lose)" in refused(tmp_path, text)
    text = PATCHED.replace("when = { rules", "when = { payouts")
    assert "a condition here reads options only" in refused(tmp_path, text)


def test_a_mistake_in_a_patch_is_refused_whatever_the_reading(tmp_path: Path) -> None:
    """Issue 35, F3: a typo inside a patch passed under the default reading (the patch was
    read only under its own); every patch is read when the file is, naming its line."""
    text = PATCHED.replace('label = "dealer wins or ties"', 'label = "x", colour = "red"')
    message = refused(tmp_path, text)  # the paytable's reading is the default, ties = push
    assert message.startswith(str(tmp_path / "game.toml") + ": definition.patches[1] (line 39)")
    assert 'read under rules.ties = "lose"' in message and "unknown key 'colour'" in message
    assert message.count("(line ") == 1  # not the patched outcome's own line: the patch is at fault


def test_a_patch_only_a_table_option_selects_is_read_too(tmp_path: Path) -> None:
    """A ``when`` that reads a number or a table has no reading to try: the patch is merged
    into the default reading by force, so its contents are read all the same."""
    extra = """[definition.options.rules.extras]
default = {}
meaning = "Extras."
kind = "table"
values = "number"
"""
    text = PATCHED.replace("[definition.shoe]", extra + "[definition.shoe]").replace(
        'when = { rules = { ties = "lose" } }', 'when = { rules = { extras = "big" } }'
    )
    assert "dealer wins" in outcomes(small(tmp_path, text=text), "player")
    bad = text.replace('label = "dealer wins or ties"', 'label = "x", pays = "nothing"')
    message = refused(tmp_path, bad)
    assert "definition.patches[1] (line 44), with its when taken as true" in message
    assert "settle with exactly one of pays" in message


def test_a_bet_is_offered_where_its_if_holds(tmp_path: Path) -> None:
    text = SMALL.replace(
        "[[definition.bets]]",
        '[definition.options.bets.side_bets]\ndefault = []\nchoices = ["tie"]\n'
        'meaning = "Side bets offered."\n'
        '[[definition.bets]]\nname = "tie"\nif = { bets = { side_bets = "tie" } }\n'
        'outcomes = [{ when = { winner = "tie" }, pays = 10 }, { otherwise = true, loses = 1 }]\n'
        "[[definition.bets]]",
    )
    assert [b.name for b in small(tmp_path, text=text).bet_analysis().bets] == ["player"]
    offered = small(tmp_path, 'bets.side_bets=["tie"]', text=text)
    assert [b.name for b in offered.bet_analysis().bets] == ["tie", "player"]
    assert "'x' is not one of 'tie'" in refused(tmp_path, text, 'bets.side_bets=["x"]')


def test_a_table_s_entries_are_paid_and_its_unpaid_keys_labelled() -> None:
    """Dragon Bonus without its 4-8 entries: those wins join the losing margins, and the label
    says which (the ways add up, a check that can fail)."""
    default = outcomes(load("baccarat"), "dragon-bonus-player")
    fewer = load("baccarat", ["payouts.dragon_bonus={natural = 1, 9 = 30}"])
    found = outcomes(fewer, "dragon-bonus-player")
    moved = sum(default[f"Player wins by {m}, no natural"] for m in range(4, 9))
    small_wins = default["Player wins by 1–3, no natural"]
    assert found["Player wins by 1–8, no natural"] == small_wins + moved
    assert "Player wins by 8, no natural" not in found
    assert found["Player wins by 9, no natural"] == default["Player wins by 9, no natural"]
    with pytest.raises(OddsError, match="the 'natural' entry is missing"):
        load("baccarat", ["payouts.dragon_bonus={9 = 30}"])


def test_a_named_commission_is_the_paytable_s() -> None:
    paytable = load("baccarat", ["payouts.commission=4%"])
    nets = {o.event: o.net for o in paytable.bet_analysis().bet("banker").outcomes}
    assert nets["Banker wins (less commission)"] == Fraction(24, 25)


# -- patterns, bases ---------------------------------------------------------------------


def test_a_negated_pattern() -> None:
    from odds.games.defined.schema import Category

    shoe = games()["goa-gae"].definition.shoe
    pattern = (("sequence", True), ("not", (("ranks", tuple(parse_cards("Jc Qc Kc")[i].rank
                                                            for i in range(3))),)))  # fmt: skip
    category = Category("straight-not-kqj", "x", pattern, ("equal",))
    assert patterns.matches(parse_cards("4c 5d 6h"), category, shoe)
    assert not patterns.matches(parse_cards("Jc Qd Kh"), category, shoe)
    assert not patterns.matches(parse_cards("4c 5d 9h"), category, shoe)


# -- a paytable of a defined game --------------------------------------------------------


def test_a_paytable_of_a_defined_game_reads_its_options() -> None:
    data = read_toml('game = "pok-deng"\n[rules]\neight_nine_override = false\n', "p")
    paytable = from_data(data, "p")
    same = load("pok-deng", ["rules.eight_nine_override=false"])
    assert paytable.game.name == "pok-deng"
    assert paytable.bet_analysis().bets == same.bet_analysis().bets
    other = from_data(dict(data, title="another"), "q")
    assert paytable.game is other.game  # one game per reading, its counts shared


@pytest.mark.parametrize(
    "name", ["pok-deng", "baccarat", "baccarat-ez", "dragon-tiger", "goa-gae", "goa-gae-bonus"]
)
def test_the_paytable_keeps_the_coded_paytable_s_keys_and_values(name: str) -> None:
    """Every key the coded game's paytable had (``dealing`` included), with its value, as the
    snapshot taken from the coded game recorded it (tests/snapshots/README.md): a user's
    paytable and ``--set`` keep working."""
    import json

    from odds.core.options import to_plain
    from tests.paths import ROOT

    snapshot = json.loads((ROOT / "tests" / "snapshots" / "coded" / f"{name}.json").read_text())
    theirs = snapshot["rules"]
    ours = to_plain(load(name).config)

    def flat(table: Any, prefix: str = "") -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key, value in table.items():
            if isinstance(value, dict) and key in ("shoe", "dealing", "rules", "payouts", "bets"):
                found.update(flat(value, f"{prefix}{key}."))
            else:
                found[f"{prefix}{key}"] = value
        return found

    mine = flat(ours)
    for key, value in flat(theirs).items():
        if key == "dealing.positions":  # the coded Goa Gae's seats: now the log's --seats
            continue
        assert key in mine, key
        assert str(mine[key]) == str(value) or mine[key] == value, key


# -- numbers and names in a definition (issue 33, items 6 and 8) -------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('pays = "win"', "pays = 1e13", "1E+13 is out of range (at most 10^12"),
        ('pays = "win"', "pays = 1e300", "1E+300 is out of range"),
        ('pays = "win"', "pays = 1e-5000", "1E-5000 is out of range"),
        ('pays = "win"', 'pays = "1e13"', "'1e13' is not a payout name; a number is written"),
        ('pays = "win"', 'pays = "3/2"', "'3/2' is not a payout name; a number is written"),
        ('pays = "win"', 'pays = "win"\ncommission = 1e-40', "1E-40 is out of range"),
        ('name = "player"', 'name = "player"\nwithholding = 1e13', "1E+13 is out of range"),
    ],
)
def test_a_number_beyond_the_limits_is_refused(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in SMALL
    assert message in refused(tmp_path, SMALL.replace(old, new, 1))


def test_a_label_names_many_categories() -> None:
    from odds.games.defined.schema import Condition, condition_text

    names = frozenset({"fives", "fours", "threes", "twos"})
    assert condition_text(Condition((("player", "category", names),))) == (
        "player category fives, fours, threes, twos"
    )
    numbers = frozenset({1, 2, 3, 4})
    assert condition_text(Condition((("", "margin", numbers),))) == "margin 1–4"
