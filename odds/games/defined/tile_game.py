"""A defined game dealt from a tile set: the tiles read and written, every hand ranked, set dealing.

A definition with ``[definition.tiles]`` (docs/reference/definitions.md, "Tiles") is
counted exactly as a card definition is — the engine sees a composition of tile
types, the counting's classifier reads tile hands through
:mod:`~odds.games.defined.tile_patterns` — and this game adds what tiles change for the
user:

* its paytable section is ``[tiles]`` (:class:`~odds.games.defined.tile_schema.TileSetOptions`),
  hands are typed as tiles (``4 2``, ``W9``, ``🀆 🀡``) and have no decks;
* a tile set has a few dozen hands, so the report ranks every one of them (the
  hierarchy table) and the hand classes are the categories' labels with their
  ``{tiles}`` and ``{points}`` filled in (``pair W-W``, ``7 points``);
* with ``seats``, the whole table must fit in the set, and the set is dealt by
  rounds of the whole table, every tile face up (``[dealing] rounds``): the states
  before each round are enumerated exactly (:class:`TileShoeState`).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.core.shoe import Shoe
from odds.core.table import Column, Kind, Row, Table
from odds.core.tiles import Tile, parse_tiles
from odds.engine import class_distribution, deal_count, hands
from odds.games.dealing import Procedure, SetDealing, set_procedure
from odds.games.defined import counting, tile_patterns
from odds.games.defined.game import MEMO_KEPT, DefinedGame
from odds.games.defined.options import DefinedConfig
from odds.games.defined.schema import Definition
from odds.games.defined.shoe_state import DefinedEvaluator, DefinedShoeState, hands_polynomial
from odds.games.defined.tile_schema import TileDefinedConfig, TileSetOptions
from odds.games.defined.words import in_words
from odds.games.shoe_state import PolynomialEvaluator, StateBet, StateByStateLaw, StateEvaluator
from odds.stats.analysis import Analysis

if typing.TYPE_CHECKING:
    from odds.games.defined.registry import Family


class TileGame(DefinedGame):
    """A defined game whose hands are tiles from the paytable's ``[tiles]`` set."""

    def __init__(self, name: str, definition: Definition, family: Family | None = None) -> None:
        super().__init__(name, definition, family)
        deal = definition.deal
        tiles = f"{in_words(deal.cards)} tile{'s' * (deal.cards > 1)}"
        example = ("'W'", "'4 2' or 'W 9'", "'4 2 W'")[min(deal.cards, 3) - 1]
        self.__dict__.update(
            config_type=family.config_type if family is not None else TileDefinedConfig,
            shoe_state=TileShoeState(self),
            decks_path=None,
            no_decks_reason=(
                "is played with tiles and has no decks: the tile set is [tiles] copies "
                "(e.g. --set 'tiles.copies={W = 0}')"
            ),
            hand_example=f"{tiles}, e.g. {example}",
        )

    # -- the set -----------------------------------------------------------

    def table_tiles(self) -> int:
        """Tiles one round of the whole table takes: every seat and the dealer."""
        deal = self.definition.deal
        return self.definition.round_cards + (deal.seats - 1) * deal.cards

    def validate(self, config: DefinedConfig) -> None:
        super().validate(config)
        shoe = tile_set(config)
        need, deal = self.table_tiles(), self.definition.deal
        if shoe.size < need:
            first, *rest = deal.positions
            who = (
                f"the {rest[0]} and {deal.seats} {first} seat{'s' * (deal.seats > 1)}"
                if rest
                else f"the {first}"
            )
            raise OddsError(
                f"impossible composition: the tile set ({shoe.description}) has {shoe.size} "
                f"tiles, {who} need {need}"
            )

    def full_shoe(self, config: DefinedConfig) -> bool:
        """Whether the set is the definition's own, whole: a category or outcome it never deals
        is then refused. A paytable's own set (no 2 or no 8: no 2-8 Kong) is a composition,
        as a card game's ``shoe.counts`` is, and is analysed as it is."""
        assert self.definition.tiles is not None
        tiles = tile_options(config)
        return not tiles.removed and tiles.copies == self.definition.tiles.copies()

    def parse_hand(self, config: DefinedConfig, text: str) -> tuple[Any, ...]:
        """Tiles as written (``4 2``, ``W9``, ``🀆 🀡``, a declared name such as ``ten``): kept
        per set and text (an audit reads each hand text again to settle its rounds)."""
        parsed: dict[Any, tuple[Any, ...]] = self.__dict__.setdefault("_parsed_tiles", {})
        found = parsed.get((config, text))
        if found is None:
            found = parse_tiles(text, tile_set(config))
            if len(parsed) < MEMO_KEPT:
                parsed[config, text] = found
        return found

    # -- the analysis --------------------------------------------------------

    def _analyse(self, config: DefinedConfig, paytable: str, whole_table: bool) -> Analysis:
        # the bets-only analysis (audits, claim checks) reads these hand classes too
        found = super()._analyse(config, paytable, whole_table)
        shoe = tile_set(config)
        size = self.definition.deal.cards
        tables = (hierarchy_table(self.definition, shoe, size), *found.tables)
        return dataclasses.replace(
            found,
            shoe=shoe.description,
            tables=tables,
            hand_classes=hand_classes(self.definition, shoe, size),
        )

    def counting_text(self, shoe: Any) -> str:
        deal = self.definition.deal
        total = self.deal_total(shoe.counts)
        tiles = f"{in_words(deal.cards)} tile{'s' * (deal.cards > 1)}"
        hands_ = " and ".join(f"{tiles} to the {p}" for p in deal.positions)
        one = deal_count(shoe.counts, (deal.cards,))
        return (
            f"Counted from the definition (data), with tile removal: {hands_}, from "
            f"{shoe.size} tiles, hands unordered within, in dealing order between: "
            f"{total:,} deals. Each bet is counted by the classes it reads. The hierarchy "
            f"table counts one hand: {one:,}." + self._seats_text().replace("cards", "tiles")
        )

    def _describe_hand(self, cards: tuple[Any, ...]) -> str:
        return tile_patterns.description(cards, self.definition)

    def _label(self, cards: tuple[Any, ...]) -> str:
        return tile_patterns.label(cards, self.definition)


def tile_classifier(definition: Definition, shoe: Shoe[Tile]) -> counting.HandClassifier:
    """The definition's classifier of this set's types (shared with the counting; its hands'
    "cards" are tiles, read by the tile vocabulary)."""
    return counting.classifier_for(definition, typing.cast(Any, shoe.types))


def _tiles(classifier: counting.HandClassifier, hand: tuple[int, ...]) -> list[Tile]:
    """A hand's tiles."""
    return typing.cast(list[Tile], classifier.cards(hand))


def _strongest_first(
    definition: Definition, shoe: Shoe[Tile], found: Sequence[tuple[int, ...]]
) -> list[tuple[tuple[int, ...], Any]]:
    """Hands with their strength, strongest first; equal hands by their tiles (a fixed order)."""
    classifier = tile_classifier(definition, shoe)
    keyed = [(hand, classifier.strength(hand)) for hand in found]
    keyed.sort(key=lambda hs: _codes(_tiles(classifier, hs[0])))
    keyed.sort(key=lambda hs: hs[1], reverse=True)
    return keyed


def _codes(tiles: Sequence[Tile]) -> tuple[str, ...]:
    return tuple(t.code for t in tile_patterns.by_single_order(tiles))


def hand_classes(definition: Definition, shoe: Shoe[Tile], size: int) -> dict[str, int]:
    """Ways per hand class (the category's label, filled in) of one hand, strongest first."""
    classifier = tile_classifier(definition, shoe)
    labels = class_distribution(
        shoe.counts, size, lambda hand: tile_patterns.label(_tiles(classifier, hand), definition)
    )
    present = [hand for hand, ways in hands(shoe.counts, size) if ways]
    ordered = [
        tile_patterns.label(_tiles(classifier, h), definition)
        for h, _ in _strongest_first(definition, shoe, present)
    ]
    return {label: labels[label] for label in dict.fromkeys(ordered)}


def hierarchy_table(definition: Definition, shoe: Shoe[Tile], size: int) -> Table:
    """Every hand one deal can give, ranked (1 = highest; equal hands share a rank), with its ways.

    A tile set has a few dozen hands of two (55 from ten tile types), so the order of
    the whole game is one table: what a player checks a table's rule card against.
    """
    weights = dict(hands(shoe.counts, size))
    total = sum(weights.values())
    classifier = tile_classifier(definition, shoe)
    rows: list[Row] = []
    rank, previous = 0, None
    for hand, strength in _strongest_first(definition, shoe, [h for h, w in weights.items() if w]):
        tiles = _tiles(classifier, hand)
        if strength != previous:
            rank, previous = rank + 1, strength
        index = classifier.category(hand)
        assert index is not None  # the analysis refused a hand without a category
        category = definition.categories[index]
        points = tile_patterns.points(tiles)
        reads_points = "{points}" in category.hand_class or "points" in category.tiebreak
        rows.append(
            {
                "rank": rank,
                "hand": tile_patterns.hand_text(tiles),
                "class": tile_patterns.label(tiles, definition),
                "category": category.name,
                "points": points,
                "points_shown": points if reads_points else None,
                "ways": weights[hand],
                "probability": Fraction(weights[hand], total),
            }
        )
    order = definition.strongest_first()
    named = ", ".join(definition.categories[i].label for i in order)
    return Table(
        key="hierarchy",
        title=f"Tile hierarchy (one {in_words(size)}-tile hand)",
        columns=(
            Column("rank", "rank", Kind.WAYS),
            Column("hand", "hand"),
            Column("class", "class"),
            Column("category", "category", markdown=False),
            Column("points", "points", Kind.EXACT, markdown=False),
            Column("points_shown", "points", Kind.NUMBER, json=False),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"hand": "Total", "ways": total, "probability": Fraction(1)},
        note=(
            "Rank 1 is the highest hand; equal ranks are equal hands. The categories, "
            f"strongest first: {named}; each ordered by its tie-breaks. Ways are per one "
            f"hand of {in_words(size)} tiles."
        ),
    )


# ---------------------------------------------------------------------------
# Shoe states: a set dealt by rounds of the whole table


class TileShoeState(DefinedShoeState):
    """Per-state EVs of every bet, and the set dealt by rounds of the whole table, all face up.

    Every tile is shown, so the states before each round are the set less a
    uniformly random handful of a fixed size: ``odds exposure`` enumerates them
    exactly. A true count is per set (the unit is the set's size).
    """

    in_reports = True
    removed_option = "tiles.removed"

    def __init__(self, game: TileGame) -> None:
        super().__init__(game)
        self.tile_game = game

    def evaluator(self, config: DefinedConfig) -> StateEvaluator:
        shoe = tile_set(config)
        round_tiles = self.tile_game.table_tiles()
        polynomial = hands_polynomial(self.game, config)
        if polynomial is None:
            evaluator: StateEvaluator = DefinedEvaluator(self.game, config)
            evaluator.round_cards, evaluator.unit = round_tiles, shoe.size
            return evaluator
        bets = [StateBet(b.name, b.title) for b in self.game.definition.bets]
        return PolynomialEvaluator(shoe, bets, round_tiles, shoe.size, polynomial)

    def outcome_law(self, config: DefinedConfig) -> StateByStateLaw | None:
        """No shoe-aware audit tests for a tile game: a round's seats share the dealer's hand
        (a law per seat given the dealer is not built)."""
        del config
        return None

    def procedure(self, config: DefinedConfig) -> Procedure:
        deal = self.game.definition.deal
        shoe = tile_set(config)
        dealing = typing.cast(SetDealing, config.dealing)
        tiles = f"{in_words(deal.cards)} tile{'s' * (deal.cards > 1)}"
        if len(deal.positions) == 1:
            what = f"{tiles} to the {deal.positions[0]}"
        else:
            first, dealer = deal.positions
            seats = f"{deal.seats} {first} position{'s' * (deal.seats > 1)}"
            what = f"{tiles} each to the {dealer} and {seats}"
        return set_procedure(dealing, shoe.size, self.tile_game.table_tiles(), what)


def tile_options(config: DefinedConfig) -> TileSetOptions:
    """A tile game's ``[tiles]`` section (its config is a :class:`TileDefinedConfig`, read by
    the definition's code where a card game's is)."""
    return typing.cast(TileDefinedConfig, config).tiles


def tile_set(config: DefinedConfig) -> Shoe[Tile]:
    """A tile game's set, as the paytable gives it."""
    return tile_options(config).build()
