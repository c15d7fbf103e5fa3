"""A game definition read from TOML data: the shoe, the deal, the hand classes, the bets.

The definition is data, never code: every key is checked against the vocabulary
below (docs/reference/definitions.md describes each with an example), and an
unknown key, a wrong type or a contradiction is a one-line :class:`OddsError`
naming the key and, when the file's text is known, its line.

Nothing here counts; :mod:`odds.games.defined.counting` does, and the checks that
need counts (a category that never occurs, a round no outcome settles) are made
there, on the exact distribution.
"""

from __future__ import annotations

import dataclasses
import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from itertools import combinations, product
from math import prod
from typing import Any, ClassVar

from odds.core.cards import Rank, Suit
from odds.core.errors import OddsError
from odds.core.numbers import parse_rational, short_number
from odds.games.defined.best_of_schema import check_definition as check_best
from odds.games.defined.best_of_schema import read_best
from odds.games.defined.continuation_schema import (
    AGAINST_FIRST,
    CONTINUED,
    DECISION_AT,
    Continuation,
    read_continuation,
)
from odds.games.defined.readings import (
    OptionDeclaration,
    Reading,
    apply_patches,
    bind,
    bound_names,
    patches_applying,
    read_declarations,
)
from odds.games.defined.tile_schema import TileRules, check_vocabulary, read_tiles, tile_codes

RANK_SYMBOLS: dict[str, Rank] = {rank.symbol: rank for rank in Rank}
RANK_SYMBOLS.update({"T": Rank.TEN, "1": Rank.ACE})
SUIT_LETTERS: dict[str, Suit] = {"c": Suit.CLUBS, "d": Suit.DIAMONDS, "h": Suit.HEARTS,
                                 "s": Suit.SPADES}  # fmt: skip

#: Hand patterns a category may combine (every key must hold).
PATTERN_KEYS = (
    "same_rank", "sequence", "flush", "faces", "faces_at_least", "points", "ranks",
    "pair_rank", "suited", "cards", "any", "same_colour", "not", "tiles", "rank_counts",
    "subset_points", "value_total", "value_max",
)  # fmt: skip
#: Tie-breaks within a category, and keys of a comparison (``top_cards`` and
#: ``sequence_suits``: odds.games.defined.orders).
TIEBREAKS = ("points", "ranks", "high", "suits", "top_card", "faces", "cards", "equal",
             "top_cards", "sequence_suits", "pair_order", "single_order")  # fmt: skip
#: Tie-breaks that read which suit a card has (no suit symmetry in the counting).
SUIT_TIEBREAKS = frozenset({"suits", "top_card", "top_cards", "sequence_suits"})
#: Features a bet's condition may ask of one position.
POSITION_FEATURES = (
    "category", "points", "cards", "natural", "pair", "suited_pair", "faces", "rank", "suit",
    "flush", "colour_pair", "same_rank", "two_card_points", "third_value", "highest_value",
)  # fmt: skip
#: Features of a tableau position read from the cards its drawing dealt, by card value: the
#: points of its first two cards, its third card's value (none when it stood) and its
#: highest card's value (the tableau polynomial carries them: odds.games.defined.counting).
DRAWN_FEATURES = ("two_card_points", "third_value", "highest_value")
#: Features of a tableau position read from its first two cards (ranks and suits; a bet
#: reading them is counted by odds.games.defined.first_cards).
FIRST_CARD_FEATURES = ("pair", "suited_pair", "colour_pair")
#: ``withholding = "cover"``: the bet debits what its largest loss needs beyond the stake
#: (the banker's side covers a position's win at any payout: max(1, player_wins) in all).
COVER = "cover"
#: Conditions on the whole round.
ROUND_FEATURES = (
    "winner", "margin", "total_points", "total_cards", "same_suit", "identical", "highest_value",
    "dealt", "spread",
)  # fmt: skip
#: What the card turned up first, and the match, may be: the class of cards that end an
#: until-match deal (``[definition.deal.until_match] match``).
MATCHES = ("rank", "suit", "colour")
#: Position features that compare the hand with a reference hand by the definition's
#: strength order (a dealer "qualifies with Q-high": ``at_least = "Q 3 2"``). Each is read as
#: a feature named ``"<key>:<reference>"`` holding true or false, so the showdown plan counts
#: it as one more strength cut (odds.games.defined.counting).
CUT_FEATURES = ("at_least", "at_most")
#: The condition key that reads the deciding position's action (``[definition.decision]``);
#: kept as a feature of the deciding position, whose hand alone decides it.
ACTION = "action"


def cut_feature(name: str) -> tuple[str, str] | None:
    """``("at_least", "Q 3 2")`` for a cut feature's name, ``None`` for any other feature."""
    key, _, reference = name.partition(":")
    return (key, reference) if reference and key in CUT_FEATURES else None


#: Where a key may start (after one of these characters, or at the start of a line) and end
#: (before ``=`` or ``]``, spaces allowed, on the same line): :meth:`Locator.line`.
_KEY_START = re.compile(r"[\s{,\[.]")
_KEY_END = re.compile(r"[^\S\n]*[=\]]")


class Locator:
    """Finds the line of a key in the definition's text, for one-line errors.

    TOML readers do not keep positions, so the key is looked up in the text: the
    first line at or after an anchor line where ``key =`` (or a ``[section]``
    header) appears. Without the text (API data) messages name the key only.
    """

    #: Each text's index, shared by its Locators (a definition is read under up to a dozen
    #: readings, each with its own): the lines joined by newlines (no other line break is left
    #: in them), where each line starts in it (a key is found with ``str.find``, not by a
    #: pattern per line), and the lines each key asked appears on, found once per key (a
    #: definition asks about 900 times, for some 60 distinct keys: indexing every stretch of
    #: every line that could be a key cost 0.06 s for baccarat.toml, a tenth of `odds report`).
    _indexes: ClassVar[dict[str, tuple[str, list[int], dict[str, list[int]]]]] = {}

    def __init__(self, text: str | None, source: str) -> None:
        self.source = source
        index = Locator._indexes.get(text or "")
        if index is None:
            lines = (text or "").splitlines()
            starts = [0]
            for line in lines[:-1]:
                starts.append(starts[-1] + len(line) + 1)
            if len(Locator._indexes) >= 64:
                Locator._indexes.clear()
            index = Locator._indexes[text or ""] = ("\n".join(lines), starts, {})
        self._text, self._starts, self._lines_of = index

    def _find(self, key: str) -> list[int]:
        """The lines (1-based, ascending) where ``key`` stands as a key: at the start of a line
        or after a space, ``{``, ``,``, ``[`` or ``.``, and followed on its line by optional
        spaces and ``=`` or ``]`` (a key or a ``[section]`` header)."""
        text = self._text
        found: list[int] = []
        at = text.find(key) if key else -1
        while at >= 0:
            number = bisect_right(self._starts, at)
            starts_key = at == self._starts[number - 1] or _KEY_START.match(text, at - 1)
            new_line = not found or found[-1] != number
            if new_line and starts_key and _KEY_END.match(text, at + len(key)):
                found.append(number)
            at = text.find(key, at + 1)
        return found

    def line(self, key: str, after: int = 0) -> int:
        """The line of ``key`` at or after ``after`` (0: not found)."""
        return self.nth(key, 0, after - 1)

    def at(self, key: str, after: int) -> int:
        """The line of ``key`` after ``after``, else ``after`` itself (the table's line)."""
        return self.line(key, after) or after

    def nth(self, key: str, n: int, after: int = 0) -> int:
        """The line of the ``n``-th occurrence (0-based) of ``key`` after ``after``."""
        found = self._lines_of.get(key)
        if found is None:
            found = self._lines_of[key] = self._find(key)
        at = bisect_left(found, max(after + 1, 1)) + n
        return found[at] if at < len(found) else 0

    def error(self, where: str, message: str, line: int = 0) -> OddsError:
        at = f" (line {line})" if line else ""
        return OddsError(f"{self.source}: {where}{at}: {message}")

    def known(
        self,
        table: Mapping[str, Any],
        known: Sequence[str],
        where: str,
        after: int,
        by_key: bool = True,
    ) -> None:
        """Refuse the first key of ``table`` not in ``known``, at its own line after ``after``
        (``by_key`` false: at ``after``, the table's line)."""
        for key in table:
            if key not in known:
                line = self.line(key, after) if by_key else after
                raise self.error(where, f"unknown key {key!r} (known: {', '.join(known)})", line)


@dataclass(frozen=True)
class ShoeRules:
    """What the definition says of the cards: values, rank order, sequences, suit order."""

    decks: int
    values: dict[Rank, int]
    #: Rank strength, lowest first (a rank's index is its order).
    rank_order: tuple[Rank, ...]
    ace_low_sequence: bool
    ace_high_sequence: bool
    suit_order: tuple[Suit, ...]
    #: Each rank's order, found once (hands are ranked by the hundred thousand).
    _orders: dict[Rank, int] = field(default_factory=dict, compare=False, repr=False, init=False)

    def order(self, rank: Rank) -> int:
        found = self._orders.get(rank)
        if found is None:
            found = self._orders[rank] = self.rank_order.index(rank)
        return found


@dataclass(frozen=True)
class Category:
    """A hand class: its pattern (every key must hold) and its tie-breaks."""

    name: str
    label: str
    pattern: tuple[tuple[str, Any], ...]
    tiebreak: tuple[str, ...]
    line: int = field(default=0, compare=False)
    #: The rank order this category's tie-breaks use, lowest first (``()``: the shoe's);
    #: Goa Gae's triples rank 2, 4, 5, …, K, A, 3.
    rank_order: tuple[Rank, ...] = ()
    #: Categories this one beats whatever the order (odds.games.defined.ranking).
    beats: tuple[str, ...] = ()
    #: A tile category's name for each of its hands, ``{tiles}`` and ``{points}`` filled in
    #: (``"pair {tiles}"``: ``pair W-W``); empty: the label (odds.games.defined.tile_patterns).
    hand_class: str = ""


def pattern_keys(pattern: tuple[tuple[str, Any], ...]) -> set[str]:
    """Every key a pattern reads, those of a negated part (``not``) included."""
    found = set()
    for key, value in pattern:
        found |= pattern_keys(value) if key == "not" else {key}
    return found


@dataclass(frozen=True)
class Tableau:
    """A points deal with drawing (baccarat's): two positions, the first draws first."""

    naturals: frozenset[int]
    first_draws: frozenset[int]
    second_draws_first_stood: frozenset[int]
    #: Second position's total → the first's third-card values on which it draws.
    second_draws: tuple[tuple[int, frozenset[int]], ...]

    def second_draws_on(self, total: int, first_third: int) -> bool:
        """Whether the second position draws on ``total`` after the first's third card."""
        return first_third in dict(self.second_draws).get(total, frozenset())


@dataclass(frozen=True)
class Deal:
    """Named positions and how they receive cards."""

    positions: tuple[str, ...]
    cards: int
    tableau: Tableau | None
    #: Seats of the first position, each settled against the second (a dealer against
    #: players, Pok Deng's five); one seat against the dealer is counted (exchangeability).
    seats: int = 1
    #: A threshold draw: position → k; a position whose first ``cards`` cards have k
    #: points or fewer draws one card more (odds.games.defined.threshold counts it).
    draw_at_most: tuple[tuple[str, int], ...] = ()
    #: Whether ``seats`` was given: the second position is a dealer that every seat meets
    #: (a log seats players against it; commands list it first, as the dealer's hand is
    #: dealt to the table once).
    dealer: bool = False
    #: ``until_match``: one card turned up, then cards dealt alternately to the two piles
    #: until one matches it (odds.games.defined.until_match); ``positions`` is then the
    #: card's name and the two piles, in dealing order.
    until_match: UntilMatch | None = None
    #: ``best = k``: the hand is read by the best k of its cards (0: all of them;
    #: odds.games.defined.best_of counts it by classes).
    best: int = 0

    def draws(self, position: str, points: int) -> bool:
        """Whether ``position`` draws a card on its first cards' ``points``."""
        limit = dict(self.draw_at_most).get(position)
        return limit is not None and points <= limit


@dataclass(frozen=True)
class UntilMatch:
    """``[definition.deal.until_match]``: a card turned up (``card``), then cards dealt to
    the two piles in turn until one matches it by ``match``; the pile receiving it wins.

    ``first`` is the pile dealt first: one pile, or per colour of the turned card
    (``(("black", "andar"), ("red", "bahar"))``).
    """

    card: str
    match: str
    first: str | tuple[tuple[str, str], ...]
    piles: tuple[str, str]

    def first_pile(self, colour: str) -> str:
        """The pile dealt first when the turned card is of this colour."""
        return self.first if isinstance(self.first, str) else dict(self.first)[colour]


@dataclass(frozen=True)
class Decision:
    """``[definition.decision]``: one position chooses an action seeing its own hand alone.

    The engine finds the optimal action per hand (odds.games.defined.decisions): the one
    of greatest exact EV summed over the bets that read ``action``, the first listed on a tie.
    """

    position: str
    actions: tuple[str, ...]
    line: int = field(default=0, compare=False)
    #: ``strategy``: a fixed (house or published) strategy, reported beside the optimal one.
    strategy: FixedStrategy | None = None
    #: ``at = "continuation"``: the choice is made when the deal goes on, the first deal seen
    #: (odds.games.defined.continuation); ``"deal"``: on the position's own hand.
    at: str = "deal"
    #: ``when``: with ``at = "continuation"``, a condition on the first deal: the choice is
    #: offered only where it holds (Red Dog: no raise on a pair); ``None``: at every one.
    when: Any = None


@dataclass(frozen=True)
class FixedStrategy:
    """``[definition.decision] strategy``: a rule on the deciding position's own hand.

    ``rules`` give an action per condition (on the deciding hand alone), in the order of
    the decision's actions; a hand takes the first action whose condition holds, and
    ``otherwise`` when none does (the one action given no condition).
    """

    name: str
    label: str
    rules: tuple[tuple[str, Condition | bool], ...]
    otherwise: str
    line: int = field(default=0, compare=False)

    def action(self, holds: Any) -> str:
        """The action of a hand, ``holds(condition)`` telling whether a condition holds."""
        for action, condition in self.rules:
            if condition is True or (condition is not False and holds(condition)):
                return action
        return self.otherwise


@dataclass(frozen=True)
class Outcome:
    """One outcome of a bet: its condition (``None``: every round no other outcome takes)."""

    key: str
    label: str
    when: Any  # a condition tree (see Condition), or None for ``otherwise``
    net: Fraction | str  # a number, or the name of a [payouts] entry
    commission: Fraction | str  # a share of a win, or the name of a [payouts] entry
    line: int = field(default=0, compare=False)
    #: ``loses = "name"``: the named payout is lost (net −payouts[name]), not won.
    loses_named: bool = False
    #: ``optional = true``: the outcome may never happen with the shoe (a tie of two
    #: hands from one deck) and is then reported with no ways, not refused.
    optional: bool = False
    #: ``wagered = k``: the total stake at risk in this outcome, in units of the bet's initial
    #: stake (a raise after a decision: Three Card Poker's Play makes it 2); ``net`` is then
    #: the net result per initial unit, and a loss may reach ``wagered``.
    wagered: Fraction = Fraction(1)
    #: ``times = k``: the settlement is k times the amount ``pays``/``loses`` gives (a win
    #: paid on a raised stake: Red Dog's ``pays = "spread_1", times = 2, wagered = 2``).
    times: Fraction = Fraction(1)


@dataclass(frozen=True)
class BetDefinition:
    name: str
    title: str
    description: str
    outcomes: tuple[Outcome, ...]
    line: int = field(default=0, compare=False)
    #: Debited on top of the stake and returned unless lost (Pok Deng's Player bet): a
    #: number, or the name of a [payouts] entry. A loss may then exceed the stake.
    withholding: Fraction | str = Fraction(0)
    #: ``per_hand = true``: a bet reading one position is counted over that position's
    #: hands alone (Pok Deng's Pair: C(416,2) = 86,320), not over whole deals.
    per_hand: bool = False
    #: ``fair_payout = true``: the report gives the payout of its one paying outcome that
    #: makes the bet even (odds.games.defined.fair).
    fair_payout: bool = False
    #: ``rides_on = "ante-play"``: paid on that bet's stake whatever that bet's result (Three
    #: Card Poker's Ante Bonus), with no stake of its own (odds.games.defined.riders).
    rides_on: str | None = None


@dataclass(frozen=True)
class Condition:
    """A condition: every ``tests`` entry must hold, and every ``all``; one of ``any``."""

    tests: tuple[tuple[str, str, Any], ...]  # (position or "", feature, accepted values)
    all: tuple[Condition, ...] = ()
    any: tuple[Condition, ...] = ()
    not_: Condition | None = None
    #: Never holds: an ``optional`` outcome whose option test is false under this reading
    #: (reported with no ways, as a coded paytable lists it).
    never: bool = False
    #: ``continued``: ``True``/``False`` (the deal went on or not), or a condition on the
    #: continued deal (odds.games.defined.continuation); ``None``: not read.
    continued: Any = None

    def walk(self) -> Iterator[Condition]:
        """This condition and every one inside its ``all``, ``any`` and ``not`` (not the
        continued deal's: that is a condition of another deal)."""
        yield self
        for part in (*self.all, *self.any, *(() if self.not_ is None else (self.not_,))):
            yield from part.walk()

    def every_test(self) -> Iterator[tuple[str, str, Any]]:
        """The ``tests`` of every condition :meth:`walk` visits."""
        for part in self.walk():
            yield from part.tests


@dataclass(frozen=True)
class Definition:
    title: str
    shoe: ShoeRules
    deal: Deal
    categories: tuple[Category, ...]
    compare: tuple[str, ...]
    ties: str  # "tie" or a position that wins equal hands
    bets: tuple[BetDefinition, ...]
    rules_page: str
    source: str = field(default="", compare=False)
    #: Hands classified for this definition, per card set (odds.games.defined.counting).
    classifiers: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    #: The categories' strength order, strongest first (empty: the list's order).
    category_order: tuple[str, ...] = ()
    #: The paytable options the definition declares (odds.games.defined.readings), and
    #: the values this definition was read under.
    options: tuple[OptionDeclaration, ...] = ()
    reading: Reading = field(default_factory=Reading, compare=False)
    #: ``[definition.tiles]``: the game is dealt from a tile set (odds.games.defined.tile_schema).
    tiles: TileRules | None = None
    #: ``[definition.dealing]``: the game's own defaults of the paytable's ``[dealing]``
    #: (baccarat deals one more round after the cut card), for every paytable of the game;
    #: checked against the dealing options when the paytable's schema is made.
    dealing: tuple[tuple[str, Any], ...] = ()
    #: ``[definition.decision]``: the action a position chooses, solved exactly.
    decision: Decision | None = None
    #: ``[definition.continuation]``: the deal goes on after a condition (burns, new cards).
    continuation: Continuation | None = None

    def strongest_first(self) -> list[int]:
        """Category indices, strongest first (the strength order)."""
        return sorted(range(len(self.categories)), key=lambda i: -self.level(i))

    def label_of(self, name: str) -> str:
        """The label of the category named ``name``."""
        return next(c.label for c in self.categories if c.name == name)

    def level(self, index: int) -> int:
        """The strength of category ``index`` (greater is stronger; the last is 1)."""
        if not self.category_order:
            return len(self.categories) - index
        return len(self.categories) - self.category_order.index(self.categories[index].name)

    @property
    def round_cards(self) -> int:
        """The most cards a counted round takes (every drawing position drawing)."""
        if self.deal.tableau:
            return 6
        if self.deal.until_match is not None:  # the card turned up and at least one more
            return 2
        if self.deal.draw_at_most:  # every hand extended by the card it may draw
            return (self.deal.cards + 1) * len(self.deal.positions)
        more = self.continuation.dealt(len(self.deal.positions)) if self.continuation else 0
        return self.deal.cards * len(self.deal.positions) + more


# ---------------------------------------------------------------------------
# Reading


_TOP = ("base", "title", "rules", "shoe", "deal", "categories", "compare", "bets",
        "options", "patches", "tiles", "dealing", "decision", "continuation")  # fmt: skip
#: The most categories a definition may list: the work of counting grows with the square of
#: their number (100 took 2.9 s, 3,000 took 67 s before this bound), so more is refused when
#: the definition is read, before any hand is classified; the largest shipped game has 24.
MAX_CATEGORIES = 256
#: Condition keys on the whole round, and the combinators: no position may take these names.
_RESERVED_POSITIONS = ("tie", "all", "any", "not", "if", *ROUND_FEATURES)


def read_definition(
    data: Mapping[str, Any],
    source: str,
    text: str | None,
    values: Mapping[str, Any] | None = None,
    force: Collection[int] = (),
) -> Definition:
    """The definition in ``data`` (the ``[definition]`` table), validated, read under the
    option ``values`` of one paytable (by ``section.key``; ``None``: the declared defaults);
    the patches numbered in ``force`` are merged whatever their ``when``."""
    where = Locator(text, source)
    if not isinstance(data, Mapping):
        raise where.error("definition", "expected a table", where.line("definition"))
    base = data.get("base")
    own_title = data.get("title")
    own_bets = data.get("bets")
    if base is not None:
        data = _with_base(base, data, where)
    if "reproduces" in data:  # the coded games it named are definitions now
        raise where.error(
            "definition.reproduces",
            "no longer read: the games it named (pok-deng, baccarat …) are definitions "
            "themselves now; remove the key",
            where.line("reproduces"),
        )
    where.known(data, _TOP, "definition", where.line("[definition"))
    declarations = read_declarations(data.get("options"), where)
    reading = (
        Reading.defaults(declarations)
        if values is None
        else Reading(declarations, {d.name: values[d.name] for d in declarations})
    )
    try:
        return _read(bind(apply_patches(data, reading, where, force), reading), reading, where,
                     base, own_title, own_bets)  # fmt: skip
    except OddsError as exc:
        message = str(exc)
        for path, key in bound_names(reading).items():  # name what the paytable wrote
            message = message.replace(f"{path}.", f"{key}.").replace(f"{path}:", f"{key}:")
            message = message.replace(f"{path} ", f"{key} ")
        raise OddsError(message) from None


#: The most readings :func:`check_readings` reads every combination of; past it, each option
#: value alone and a reading for each patch (reading one takes 1 to 10 ms, and every command
#: that loads the game pays it: Goa Gae's and Mahjong's 32 combinations took 0.2 to 0.35 s).
MAX_READINGS = 8


def check_readings(
    data: Mapping[str, Any], source: str, text: str | None, default: Definition
) -> None:
    """Read the definition under its other readings too, so that a mistake inside a patch or
    under an option's value is refused when the file is read, whatever the paytable selects
    (a typo in a patch passed silently under the default reading: issue 35, F3).

    The readings are every combination of the choice and yes/no options (at most
    :data:`MAX_READINGS`; past it, each value alone, then for each patch not yet merged the
    first reading of one or two changes under which its ``when`` holds); a patch no such
    reading merges (its ``when`` reads a number or a table) is merged by force into the
    default reading. A refusal names the patch and its line, and the reading.
    """
    where = Locator(text, source)
    merged = _with_base(data["base"], data, where) if data.get("base") is not None else data
    found = merged.get("patches")
    patches: list[Any] = found if isinstance(found, list) else []
    defaults = dict(default.reading.values)
    finite = [d for d in default.options if d.kind in ("choice", "yes/no")]
    others = {d.name: [v for v in _option_values(d) if v != defaults[d.name]] for d in finite}
    changes: list[dict[str, Any]] = []
    every = prod(1 + len(v) for v in others.values()) <= MAX_READINGS
    if every:
        names = list(others)
        for combo in product(*([defaults[n], *others[n]] for n in names)):
            changes.append({n: v for n, v in zip(names, combo, strict=True) if v != defaults[n]})
    else:
        changes = [{}, *({n: v} for n in others for v in others[n])]
    applying = {}
    for change in changes:
        reading = Reading(default.reading.declarations, {**defaults, **change})
        applying[tuple(change.items())] = set(patches_applying(merged, reading, where))
    merged_once = set().union(*applying.values())
    for i in range(len(patches)):
        if i in merged_once or every:
            continue
        for change in _two_changes(others):  # past MAX_READINGS: one reading for this patch
            reading = Reading(default.reading.declarations, {**defaults, **change})
            hits = set(patches_applying(merged, reading, where))
            if i in hits:
                applying[tuple(change.items())] = hits
                merged_once |= hits
                break
    first = applying.get((), set())
    for key, applied in applying.items():
        if key:
            _check_reading(data, text, where, default, dict(key), sorted(applied - first))
    for i in range(len(patches)):
        if i not in merged_once:
            _check_reading(data, text, where, default, {}, [i], forced=True)


def _option_values(option: OptionDeclaration) -> list[Any]:
    return list(option.choices) if option.kind == "choice" else [False, True]


def _two_changes(others: Mapping[str, Sequence[Any]]) -> Iterator[dict[str, Any]]:
    """Readings that change one option, then two, from the defaults."""
    names = list(others)
    for n in names:
        for v in others[n]:
            yield {n: v}
    for a, b in combinations(names, 2):
        for va in others[a]:
            for vb in others[b]:
                yield {a: va, b: vb}


def _check_reading(
    data: Mapping[str, Any],
    text: str | None,
    where: Locator,
    default: Definition,
    change: Mapping[str, Any],
    extra: Sequence[int],
    forced: bool = False,
) -> None:
    """Read the definition under ``change``; a refusal names the patch to blame: the first of
    ``extra`` (patches merged there and not by default) refused alone, else all of them."""
    values = {**default.reading.values, **change}
    source = where.source
    try:
        read_definition(data, source, text, values, force=extra if forced else ())
        return
    except OddsError as exc:
        message = str(exc).removeprefix(f"{source}: ")
    blamed = list(extra)
    for i in extra:
        try:
            read_definition(data, source, text, default.reading.values, force=[i])
        except OddsError as exc:
            blamed, message = [i], str(exc).removeprefix(f"{source}: ")
            break
    if blamed:  # the line of the key the patch changed is the original's, not the patch's
        message = re.sub(r" \(line \d+\)", "", message, count=1)
    shown = ", ".join(f"{k} = {_shown(v)}" for k, v in change.items())
    under = "with its when taken as true" if forced else f"read under {shown}"
    if not blamed:
        raise OddsError(f"{source}: {under}: {message}")
    lines = [where.nth("[[definition.patches", i) for i in blamed]
    names = " and ".join(f"definition.patches[{i + 1}]" for i in blamed)
    at = ", ".join(f"line {n}" for n in lines if n)
    raise OddsError(f"{source}: {names}{f' ({at})' if at else ''}, {under}: {message}")


def _shown(value: Any) -> str:
    """An option value as TOML writes it: ``"top-card"``, ``true``."""
    return ("true" if value else "false") if isinstance(value, bool) else f'"{value}"'


def _read(
    data: Mapping[str, Any],
    reading: Reading,
    where: Locator,
    base: Any,
    own_title: Any,
    own_bets: Any,
) -> Definition:
    shoe = _shoe(data.get("shoe", {}), where)
    deal = _deal(data.get("deal"), where, reading)
    every = _category_names(data.get("categories", []))
    categories = _categories(data.get("categories", []), where, reading)
    compare, ties, order = _compare(data.get("compare", {}), deal, categories, where)
    if deal.until_match is not None:
        for key in ("categories", "decision", "tiles"):
            if data.get(key):
                raise where.error(
                    f"definition.{key}",
                    "an until-match deal has no hands to class or decide on (its bets read "
                    "the winning pile, the cards dealt and the turned card)",
                    where.line(f"[[definition.{key}" if key == "categories" else key),
                )
    decision = _decision(data.get("decision"), deal, where) if "decision" in data else None
    context = _Context(deal, categories, every, reading, shoe, decision, "continuation" in data)
    continuation = None
    if "continuation" in data:
        first = dataclasses.replace(
            context,
            decision=None,
            continues=False,
            no_action="the deal goes on or not by the first deal's cards; an action is "
            "chosen after, and is read by a bet's outcomes",
        )
        continuation = read_continuation(
            data["continuation"],
            deal,
            where,
            lambda raw, at: _condition(raw, at, first, where, where.line("when")),
            lambda value, at, low, high, line: _int(value, at, where, low, high, line),
        )
    if decision is not None and continuation is not None and "when" in data["decision"]:
        offered = _condition(
            data["decision"]["when"],
            "definition.decision.when",
            dataclasses.replace(
                context,
                decision=None,
                continues=False,
                no_action="the choice is offered or not by the first deal's cards",
            ),
            where,
            where.at("when", decision.line),
        )
        if offered is False:
            raise where.error(
                "definition.decision.when",
                "the condition is never true under this reading: the choice is never offered",
                decision.line,
            )
        decision = dataclasses.replace(decision, when=None if offered is True else offered)
    if continuation is not None:  # a condition on the continued deal reads its positions
        context = dataclasses.replace(
            context,
            continued_deal=dataclasses.replace(
                deal,
                positions=continuation.positions(deal.positions),
                cards=continuation.cards,
            ),
        )
    if decision is not None and decision.at == "continuation" and continuation is None:
        raise where.error(
            "definition.decision",
            'at = "continuation": the deal never goes on; add [definition.continuation]',
            decision.line,
        )
    bets = _bets(data.get("bets"), context, where)
    if decision is not None:
        _check_decided(decision, bets, where)
        raw = data["decision"].get("strategy")
        if raw is not None:
            decision = dataclasses.replace(
                decision, strategy=_strategy(raw, decision, context, where)
            )
    title = _text(data.get("title", ""), "definition.title", where)
    if base is not None and own_title is None:
        title = _side_bet_title(str(base), bets[len(bets) - _count(own_bets) :])
    rules = _text(data.get("rules", ""), "definition.rules", where)
    tiles = read_tiles(data["tiles"], where) if "tiles" in data else None
    dealing = data.get("dealing", {})
    if not isinstance(dealing, Mapping):
        raise where.error("definition.dealing", "expected a table", where.line("dealing"))
    definition = Definition(
        title, shoe, deal, categories, compare, ties, bets, rules, where.source,
        category_order=order, options=reading.declarations, reading=reading, tiles=tiles,
        dealing=tuple(dealing.items()), decision=decision, continuation=continuation,
    )  # fmt: skip
    check_vocabulary(definition, where)
    if deal.best:
        check_best(definition, where, SUIT_TIEBREAKS, pattern_keys)
    return definition


@dataclass(frozen=True)
class _Context:
    """What reading a condition needs: the deal, the categories present and declared, the
    paytable's reading of the options."""

    deal: Deal
    categories: tuple[Category, ...]
    every_category: tuple[str, ...]
    reading: Reading
    shoe: ShoeRules | None = None
    decision: Decision | None = None
    #: ``[definition.continuation]`` is given: conditions may read ``continued``.
    continues: bool = False
    #: Why no action may be read here (the continuation's ``when``, a continued deal).
    no_action: str = ""
    #: The continued deal's positions and cards (``continuation.to``: one new position).
    continued_deal: Deal | None = None
    #: The first deal, in a condition on the continued deal: its cards may be read against
    #: the first deal's (``between``, ``matches``).
    first_deal: Deal | None = None


def _decision(table: Any, deal: Deal, loc: Locator) -> Decision:
    """``[definition.decision]``: the deciding position and its actions (two or more)."""
    line = loc.line("[definition.decision")
    where_ = "definition.decision"
    if not isinstance(table, Mapping):
        raise loc.error(where_, 'expected a table: position = "player", actions = [...]', line)
    loc.known(table, ("position", "actions", "strategy", "at", "when"), where_, line)
    position = table.get("position")
    if position not in deal.positions:
        raise loc.error(
            where_,
            f"position: expected one of {', '.join(deal.positions)}, got {position!r}",
            loc.at("position", line),
        )
    actions = table.get("actions")
    if (
        not isinstance(actions, list)
        or len(actions) < 2
        or not all(isinstance(a, str) and re.fullmatch(r"[a-z][a-z0-9-]*", a) for a in actions)
        or len(set(actions)) != len(actions)
    ):
        raise loc.error(
            where_,
            f'actions: expected two or more lower-case names, e.g. ["play", "fold"], got '
            f"{actions!r}",
            loc.at("actions", line),
        )
    if deal.tableau is not None or deal.draw_at_most or deal.seats > 1 or len(deal.positions) != 2:
        raise loc.error(
            where_,
            "a decision is solved for two positions of fixed-size hands, one seat (no "
            "tableau, draw_at_most or seats yet)",
            line,
        )
    at = table.get("at", "deal")
    if at not in DECISION_AT:
        raise loc.error(
            where_,
            f'at: expected "deal" (on the own hand) or "continuation" (when the deal goes '
            f"on), got {at!r}",
            loc.at("at", line),
        )
    if "when" in table and at != "continuation":
        raise loc.error(
            where_,
            "when: the choice is offered on a condition of the first deal, with at = "
            '"continuation" (on the own hand every hand chooses)',
            loc.at("when", line),
        )
    if at == "continuation" and "strategy" in table:
        raise loc.error(
            where_,
            'a fixed strategy is read on the own hand; at = "continuation" takes none yet',
            line,
        )
    return Decision(str(position), tuple(actions), line, at=str(at))


def _strategy(raw: Any, decision: Decision, context: _Context, loc: Locator) -> FixedStrategy:
    """``strategy = { name, label, <action> = <condition on the deciding hand>, … }``: a
    condition for every action but one, which takes every other hand (with two actions,
    one condition). The conditions read the deciding position's own hand: its features
    (``category``, ``at_least``, ``at_most``, …) and ``all``/``any``/``not`` of them."""
    where_ = "definition.decision.strategy"
    line = loc.at("strategy", decision.line)
    actions = decision.actions
    example = f'{{ name = "house", {actions[0]} = {{ at_least = "…" }} }}'
    if not isinstance(raw, Mapping):
        raise loc.error(where_, f"expected a table such as {example}", line)
    loc.known(raw, ("name", "label", *actions), where_, line)
    name = raw.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", name):
        raise loc.error(where_, f"name: expected a lower-case name, got {name!r}", line)
    label = raw.get("label", name)
    if not isinstance(label, str):
        raise loc.error(where_, f"label: expected text in quotes, got {label!r}", line)
    given = [a for a in actions if a in raw]
    if len(given) != len(actions) - 1:
        raise loc.error(
            where_,
            f"give a condition for every action but one ({', '.join(actions)}): the one left "
            f"takes every other hand, e.g. {example}",
            line,
        )
    rules = []
    for action in given:
        own = _own_hand(raw[action], decision.position, f"{where_}.{action}", loc, line)
        found = _condition(own, f"{where_}.{action}", context, loc, line)
        rules.append((action, found if isinstance(found, Condition) else bool(found)))
    otherwise = next(a for a in actions if a not in raw)
    return FixedStrategy(name, label, tuple(rules), otherwise, line)


def _own_hand(raw: Any, position: str, where_: str, loc: Locator, line: int) -> Any:
    """A strategy's condition on the deciding hand as a condition of the deal: each feature
    read of ``position``; ``all``/``any``/``not`` kept; anything else refused."""
    if not isinstance(raw, Mapping) or not raw:
        raise loc.error(where_, 'expected a table such as { at_least = "Q 6 4" }', line)
    found: dict[str, Any] = {}
    own: dict[str, Any] = {}
    for key, value in raw.items():
        if key in ("all", "any"):
            if not isinstance(value, list) or not value:
                raise loc.error(f"{where_}.{key}", "expected a list of conditions", line)
            found[key] = [
                _own_hand(v, position, f"{where_}.{key}[{i + 1}]", loc, line)
                for i, v in enumerate(value)
            ]
        elif key == "not":
            found[key] = _own_hand(value, position, f"{where_}.not", loc, line)
        elif key in (*POSITION_FEATURES, *CUT_FEATURES):
            own[key] = value
        else:
            raise loc.error(
                where_,
                f"unknown key {key!r} (a strategy reads the {position}'s own hand: "
                f"{', '.join((*POSITION_FEATURES, *CUT_FEATURES))}, all, any, not)",
                line,
            )
    if own:
        found[position] = own
    return found


def _check_decided(decision: Decision, bets: Sequence[BetDefinition], loc: Locator) -> None:
    """At least one bet reads the action (else nothing decides it)."""
    for bet in bets:
        for outcome in bet.outcomes:
            if outcome.when is not None and _reads_action(outcome.when):
                return
    raise loc.error(
        "definition.decision",
        'no bet reads the action: settle a bet by it, e.g. { when = { action = "fold" }, '
        "loses = 1 }",
        decision.line,
    )


def _reads_action(condition: Condition) -> bool:
    return any(name == ACTION for _, name, _ in condition.every_test())


def _category_names(items: Any) -> tuple[str, ...]:
    """Every category's name, present under this reading or not (conditions may name any)."""
    if not isinstance(items, list):
        return ()
    return tuple(str(i["name"]) for i in items if isinstance(i, Mapping) and "name" in i)


def _count(items: Any) -> int:
    return len(items) if isinstance(items, list) else 0


def _side_bet_title(base: str, bets: Sequence[BetDefinition]) -> str:
    """The title of bets added to a base that names none of its own: "Lucky 6 (baccarat side
    bet)", never the base's "Baccarat (punto banco)" (``odds games`` listed Lucky 6 so)."""
    if not bets:
        return f"{base} (defined)"
    plural = "s" * (len(bets) > 1)
    return f"{' / '.join(b.title for b in bets)} ({base} side bet{plural})"


def _with_base(base: Any, data: Mapping[str, Any], where: Locator) -> dict[str, Any]:
    """A built-in definition (``odds/games/defined/bases/<name>.toml``) with this one's keys.

    Keys given here replace the base's, except ``bets``, which are added to its bets.
    """
    from odds.games.defined.bases import base_definition

    if not isinstance(base, str):
        raise where.error("definition.base", "expected the name of a base", where.line("base"))
    found = base_definition(base)
    if found is None:
        from odds.games.defined.bases import base_names

        raise where.error(
            "definition.base",
            f"unknown base {base!r} (bases: {', '.join(base_names())})",
            where.line("base"),
        )
    for key in ("deal", "compare", "categories"):
        if key in data:
            raise where.error(
                f"definition.{key}",
                f"the base {base!r} is the game: its {key} cannot be changed (copy its "
                f"definition, odds/games/defined/bases/{base}.toml, to make another game)",
                where.line(key),
            )
    shoe = data.get("shoe", {})
    changed = sorted(set(shoe) - {"decks"}) if isinstance(shoe, Mapping) else []
    if changed:
        raise where.error(
            f"definition.shoe.{changed[0]}",
            f"the base {base!r} fixes its cards (values, orders); a definition on it may set "
            "shoe.decks only (copy the base's definition to make another game)",
            where.line(changed[0]),
        )
    merged = {k: v for k, v in found.items()}
    for key, value in data.items():
        if key == "base":
            continue
        if key == "bets" and isinstance(value, list):
            merged["bets"] = list(found.get("bets", [])) + value
        elif key in ("shoe", "dealing") and isinstance(value, Mapping):
            merged[key] = {**found.get(key, {}), **value}
        elif key == "patches" and isinstance(value, list):
            merged["patches"] = list(found.get("patches", [])) + value
        elif key == "options" and isinstance(value, Mapping):
            merged["options"] = _merged_options(found.get("options", {}), value)
        else:
            merged[key] = value
    return merged


def _merged_options(base: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """The base's declared options with this definition's added, section by section."""
    merged = {k: dict(v) for k, v in base.items() if isinstance(v, Mapping)}
    for section, table in own.items():
        if isinstance(table, Mapping):
            merged[section] = {**merged.get(section, {}), **table}
        else:
            merged[section] = table
    return merged


def _text(value: Any, where_: str, loc: Locator) -> str:
    if not isinstance(value, str):
        raise loc.error(
            where_, f"expected text in quotes, got {value!r}", loc.line(where_.split(".")[-1])
        )
    return value


def _int(value: Any, where_: str, loc: Locator, low: int, high: int, line: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise loc.error(where_, f"expected a whole number, got {value!r}", line)
    if not low <= value <= high:
        raise loc.error(where_, f"{value} is outside {low}–{high}", line)
    return value


def _bool(value: Any, where_: str, loc: Locator, line: int, key: str = "") -> bool:
    """``value`` if it is true or false, else one line (``key``: named first)."""
    if not isinstance(value, bool):
        named = f"{key}: " if key else ""
        raise loc.error(where_, f"{named}expected true or false, got {value!r}", line)
    return value


def _rank(text: Any, where_: str, loc: Locator, line: int = 0) -> Rank:
    key = str(text).upper() if not isinstance(text, int) else str(text)
    if isinstance(text, bool) or key not in RANK_SYMBOLS:
        raise loc.error(where_, f"unknown rank {text!r} (A 2 3 4 5 6 7 8 9 10 J Q K)", line)
    return RANK_SYMBOLS[key]


def _shoe(table: Any, loc: Locator) -> ShoeRules:
    after = loc.line("[definition.shoe")
    if not isinstance(table, Mapping):
        raise loc.error("definition.shoe", "expected a table", after)
    known = ("decks", "values", "rank_order", "ace_low_sequence", "ace_high_sequence",
             "suit_order")  # fmt: skip
    loc.known(table, known, "definition.shoe", after)
    decks = _int(
        table.get("decks", 1), "definition.shoe.decks", loc, 1, 8, loc.line("decks", after)
    )
    values = {rank: (min(int(rank), 10) if rank != Rank.ACE else 1) for rank in Rank}
    raw_values = table.get("values", {})
    if not isinstance(raw_values, Mapping):
        raise loc.error("definition.shoe.values", "expected a table of rank = value", after)
    for key, value in raw_values.items():
        line = loc.line("values", after)
        rank = _rank(key, "definition.shoe.values", loc, line)
        values[rank] = _int(value, f"definition.shoe.values.{key}", loc, 0, 100, line)
    order = _rank_order(
        table.get("rank_order", "ace-low"),
        "definition.shoe.rank_order",
        loc,
        loc.line("rank_order", after),
    )
    suits_spec = table.get("suit_order", ["c", "d", "h", "s"])
    line = loc.line("suit_order", after)
    if not isinstance(suits_spec, list) or sorted(map(str, suits_spec)) != ["c", "d", "h", "s"]:
        raise loc.error(
            "definition.shoe.suit_order",
            'expected the four suits, lowest first, e.g. ["d", "c", "h", "s"]',
            line,
        )
    suits = tuple(SUIT_LETTERS[s] for s in suits_spec)
    flags = [
        _bool(table.get(key, True), f"definition.shoe.{key}", loc, loc.line(key, after))
        for key in ("ace_low_sequence", "ace_high_sequence")
    ]
    return ShoeRules(decks, values, order, flags[0], flags[1], suits)


def _rank_order(spec: Any, where_: str, loc: Locator, line: int) -> tuple[Rank, ...]:
    """``"ace-low"``, ``"ace-high"`` or a list of the 13 ranks, lowest first."""
    if spec == "ace-low":
        return tuple(Rank)
    if spec == "ace-high":
        return (*tuple(Rank)[1:], Rank.ACE)
    if isinstance(spec, list):
        order = tuple(_rank(r, where_, loc, line) for r in spec)
        if sorted(order) != sorted(Rank):
            raise loc.error(where_, "must list each of the 13 ranks once, lowest first", line)
        return order
    raise loc.error(
        where_, f'expected "ace-low", "ace-high" or a list of ranks, got {spec!r}', line
    )


def _deal(table: Any, loc: Locator, reading: Reading) -> Deal:
    after = loc.line("[definition.deal")
    if not isinstance(table, Mapping):
        raise loc.error(
            "definition.deal",
            'missing: the positions and their cards, e.g. positions = ["dragon", "tiger"] '
            "and cards = 1",
            after,
        )
    loc.known(
        table,
        ("positions", "cards", "tableau", "seats", "draw_at_most", "until_match", "best"),
        "definition.deal",
        after,
    )
    positions = table.get("positions")
    line = loc.line("positions", after)
    if (
        not isinstance(positions, list)
        or not positions
        or not all(isinstance(p, str) and re.fullmatch(r"[a-z][a-z0-9-]*", p) for p in positions)
    ):
        raise loc.error(
            "definition.deal.positions",
            "expected a list of position names (lower-case words)",
            line,
        )
    if len(set(positions)) != len(positions):
        raise loc.error("definition.deal.positions", "a position is named twice", line)
    for name in positions:
        if name in _RESERVED_POSITIONS or name in reading.sections:
            what = (
                "a paytable section the conditions read"
                if name in reading.sections
                else "a tied round"
                if name == "tie"
                else "a condition's own key"
            )
            raise loc.error(
                "definition.deal.positions",
                f"{name!r} names {what}; call the position something else",
                line,
            )
    if len(positions) > 2:
        raise loc.error(
            "definition.deal.positions",
            f"{len(positions)} positions: definitions count one or two positions for now",
            line,
        )
    if "best" in table and ("until_match" in table or "tableau" in table):
        raise loc.error(
            "definition.deal.best",
            "a best-of hand is dealt by cards, not by a tableau or until_match",
            loc.line("best", after),
        )
    if "until_match" in table:
        return _until_match(table, tuple(positions), loc, after)
    tableau = None
    if "tableau" in table:
        if "draw_at_most" in table:
            raise loc.error(
                "definition.deal.draw_at_most",
                "a tableau draws by its own table; give draw_at_most or a tableau",
                loc.line("draw_at_most", after),
            )
        if "seats" in table:
            raise loc.error("definition.deal.seats", "a tableau deals two hands, not seats", after)
        tableau = _tableau(table["tableau"], loc, loc.line("tableau", after))
        if len(positions) != 2:
            raise loc.error("definition.deal.tableau", "a tableau deals two positions", line)
        if "cards" in table and table["cards"] != 2:
            raise loc.error(
                "definition.deal.cards",
                "a tableau deals two cards to each position first",
                loc.line("cards", after),
            )
        return Deal(tuple(positions), 2, tableau)
    cards = _int(table.get("cards"), "definition.deal.cards", loc, 1, 26, loc.line("cards", after))
    seats = _seats(table, positions, cards, loc, after)
    draws = _draw_at_most(table, positions, loc, after)
    best = read_best(table, positions, cards, loc, after)  # odds.games.defined.best_of
    return Deal(tuple(positions), cards, None, seats, draws, dealer="seats" in table, best=best)


def _until_match(
    table: Mapping[str, Any], piles: tuple[str, ...], loc: Locator, after: int
) -> Deal:
    """``until_match = { card = "joker", match = "rank", first = "andar" }``: the deal of
    Andar Bahar (odds.games.defined.until_match counts it)."""
    where_ = "definition.deal.until_match"
    line = loc.line("until_match", after)
    for key in ("cards", "tableau", "seats", "draw_at_most"):
        if key in table:
            raise loc.error(
                f"definition.deal.{key}",
                "an until-match deal deals one card, then cards in turn until one matches it; "
                f"remove {key}",
                loc.line(key, after),
            )
    raw = table["until_match"]
    if not isinstance(raw, Mapping):
        raise loc.error(
            where_, 'expected a table such as { card = "joker", match = "rank", first = '
            f'"{piles[0]}" }}', line,
        )  # fmt: skip
    loc.known(raw, ("card", "match", "first"), where_, line)
    if len(piles) != 2:
        raise loc.error("definition.deal.positions", "an until-match deal deals to two piles", line)
    card = raw.get("card", "")
    if not isinstance(card, str) or not re.fullmatch(r"[a-z][a-z0-9-]*", card):
        raise loc.error(f"{where_}.card", 'expected the turned card\'s name, e.g. "joker"', line)
    if card in piles or card in _RESERVED_POSITIONS:
        raise loc.error(f"{where_}.card", f"{card!r} names a pile or a condition's key", line)
    match = raw.get("match", "rank")
    if match not in MATCHES:
        raise loc.error(f"{where_}.match", f"{match!r} is not one of {', '.join(MATCHES)}", line)
    first = raw.get("first")
    chosen: str | tuple[tuple[str, str], ...]
    if isinstance(first, str) and first in piles:
        chosen = first
    elif (
        isinstance(first, Mapping)
        and set(first) == {"black", "red"}
        and all(v in piles for v in first.values())
    ):
        chosen = (("black", first["black"]), ("red", first["red"]))
    else:
        raise loc.error(
            f"{where_}.first",
            f"expected the pile dealt first ({' or '.join(piles)}), or one per colour of the "
            f'{card}: {{ black = "{piles[0]}", red = "{piles[1]}" }}; got {first!r}',
            line,
        )
    deal = UntilMatch(card, match, chosen, (piles[0], piles[1]))
    return Deal((card, *piles), 1, None, until_match=deal)


def _draw_at_most(
    table: Mapping[str, Any], positions: Sequence[str], loc: Locator, after: int
) -> tuple[tuple[str, int], ...]:
    """``draw_at_most = { player = 3 }``: that position draws one card on 3 points or fewer."""
    if "draw_at_most" not in table:
        return ()
    raw = table["draw_at_most"]
    line = loc.line("draw_at_most", after)
    where_ = "definition.deal.draw_at_most"
    if not isinstance(raw, Mapping) or not raw:
        raise loc.error(where_, "expected a table of position = points, e.g. { player = 3 }", line)
    found = []
    for position, limit in raw.items():
        if position not in positions:
            raise loc.error(
                where_, f"unknown position {position!r} (known: {', '.join(positions)})", line
            )
        found.append((position, _int(limit, f"{where_}.{position}", loc, 0, 9, line)))
    return tuple(found)


def _seats(table: Mapping[str, Any], positions: Sequence[str], cards: int, loc: Locator,
           after: int) -> int:  # fmt: skip
    """``seats = n``: the first position at n seats against the second, the dealer.

    Each seat is settled against the dealer alone and the other seats' cards are unseen
    when the bets are placed, so one seat against the dealer gives every seat's odds; the
    whole table (n + 1 hands) must still fit in a 52-card deck's multiple.
    """
    if "seats" not in table:
        return 1
    line = loc.line("seats", after)
    seats = _int(table["seats"], "definition.deal.seats", loc, 1, 10, line)
    if len(positions) != 2:
        raise loc.error(
            "definition.deal.seats",
            "seats deal the first position several times against the second (the dealer): "
            "give two positions",
            line,
        )
    if (seats + 1) * cards > 52 * 8:
        raise loc.error(
            "definition.deal.seats",
            f"{seats} seats and the dealer take {(seats + 1) * cards} cards, more than 8 decks",
            line,
        )
    return seats


def _values_set(value: Any, where_: str, loc: Locator, line: int) -> frozenset[int]:
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 9 for v in value
    ):
        raise loc.error(where_, f"expected a list of totals 0–9, got {value!r}", line)
    if len(set(value)) != len(value):
        raise loc.error(where_, "a value is listed twice", line)
    return frozenset(value)


def _tableau(table: Any, loc: Locator, after: int) -> Tableau:
    if not isinstance(table, Mapping):
        raise loc.error("definition.deal.tableau", "expected a table", after)
    known = ("naturals", "first_draws", "second_draws_first_stood", "second_draws")
    loc.known(table, known, "definition.deal.tableau", after)
    for key in known:
        if key not in table:
            raise loc.error("definition.deal.tableau", f"missing {key}", after)
    sets = {
        key: _values_set(table[key], f"definition.deal.tableau.{key}", loc, loc.line(key, after))
        for key in known[:3]
    }
    draws_raw = table["second_draws"]
    line = loc.line("second_draws", after)
    if not isinstance(draws_raw, Mapping):
        raise loc.error(
            "definition.deal.tableau.second_draws",
            "expected a table: total = [third-card values]",
            line,
        )
    draws = {}
    for key, value in draws_raw.items():
        if not (key.isdigit() and 0 <= int(key) <= 9):
            raise loc.error(
                "definition.deal.tableau.second_draws", f"unknown total {key!r} (0–9)", line
            )
        if int(key) in sets["naturals"]:
            raise loc.error(
                "definition.deal.tableau.second_draws",
                f"row {key} is a natural (the second position never acts on it)",
                line,
            )
        draws[int(key)] = _values_set(
            value, f"definition.deal.tableau.second_draws.{key}", loc, line
        )
    for key in ("first_draws", "second_draws_first_stood"):
        clash = sorted(sets[key] & sets["naturals"])
        if clash:
            raise loc.error(
                f"definition.deal.tableau.{key}",
                f"{clash[0]} is a natural (the deal ends before any draw)",
                loc.line(key, after),
            )
    open_totals = [t for t in range(10) if t not in sets["naturals"]]
    missing = [t for t in open_totals if t not in draws]
    if missing:
        raise loc.error(
            "definition.deal.tableau.second_draws",
            f"the row for total {missing[0]} is missing (one row per non-natural total: "
            f"{', '.join(map(str, open_totals))})",
            line,
        )
    return Tableau(
        sets["naturals"],
        sets["first_draws"],
        sets["second_draws_first_stood"],
        tuple(sorted(draws.items())),
    )


def _categories(items: Any, loc: Locator, reading: Reading) -> tuple[Category, ...]:
    if not isinstance(items, list):
        raise loc.error(
            "definition.categories",
            "expected a list of [[definition.categories]]",
            loc.line("categories"),
        )
    if len(items) > MAX_CATEGORIES:  # estimated before any hand is classified
        raise loc.error(
            "definition.categories",
            f"{len(items):,} categories: comparing hands costs the square of their number "
            f"({len(items) ** 2:,} category pairs, against at most {MAX_CATEGORIES**2:,} "
            f"for {MAX_CATEGORIES}); group them, or order hands by points or a key",
            loc.line("categories"),
        )
    found = []
    absent: list[str] = []  # categories whose ``if`` is false under this reading
    for i, item in enumerate(items):
        line = loc.nth("[[definition.categories", i)
        where_ = f"definition.categories[{i + 1}]"
        if not isinstance(item, Mapping):
            raise loc.error(where_, "expected a table", line)
        loc.known(
            item,
            ("name", "label", "pattern", "tiebreak", "rank_order", "beats", "if", "class"),
            where_,
            line,
        )
        name = item.get("name")
        if not isinstance(name, str) or not name:
            raise loc.error(where_, "missing name", line)
        where_ = f"definition.categories.{name}"
        if "if" in item and not reading.condition(item["if"], f"{where_}.if", loc, line):
            absent.append(name)
            continue
        pattern = item.get("pattern", {"any": True})
        pline = loc.at("pattern", line)
        checked = _pattern(pattern, f"{where_}.pattern", loc, pline)
        tiebreak = item.get("tiebreak", ["equal"])
        if not isinstance(tiebreak, list) or not all(t in TIEBREAKS for t in tiebreak):
            raise loc.error(
                f"{where_}.tiebreak",
                f"expected a list of {', '.join(TIEBREAKS)}, got {tiebreak!r}",
                loc.at("tiebreak", line),
            )
        label = item.get("label", name)
        order: tuple[Rank, ...] = ()
        if "rank_order" in item:
            order = _rank_order(
                item["rank_order"], f"{where_}.rank_order", loc, loc.at("rank_order", line)
            )
        beats = item.get("beats", [])
        if not isinstance(beats, list) or not all(isinstance(b, str) for b in beats):
            raise loc.error(
                f"{where_}.beats",
                f'expected a list of category names, e.g. ["trips"], got {beats!r}',
                loc.at("beats", line),
            )
        hand_class = _text(item.get("class", ""), f"{where_}.class", loc)
        found.append(
            Category(
                name,
                str(label),
                checked,
                tuple(tiebreak),
                line,
                rank_order=order,
                beats=tuple(beats),
                hand_class=hand_class,
            )
        )
    names = [c.name for c in found]
    for name in names:
        if names.count(name) > 1 or name in absent:
            raise loc.error(
                "definition.categories",
                f"category {name!r} is named twice",
                loc.nth("[[definition.categories", names.index(name), 0),
            )
    for category in found:
        where_ = f"definition.categories.{category.name}.beats"
        line = loc.at("beats", category.line)
        for beaten in category.beats:
            if beaten == category.name:
                raise loc.error(where_, f"{beaten!r} cannot beat itself", line)
            if beaten not in names and beaten not in absent:
                raise loc.error(
                    where_,
                    f"unknown category {beaten!r} (known: "
                    f"{', '.join(n for n in names if n != category.name)})",
                    line,
                )
    found = [dataclasses.replace(c, beats=tuple(b for b in c.beats if b in names)) for c in found]
    for category in found:
        for beaten in category.beats:
            if category.name in found[names.index(beaten)].beats:
                raise loc.error(
                    f"definition.categories.{category.name}.beats",
                    f"{category.name!r} and {beaten!r} each beat the other",
                    loc.at("beats", category.line),
                )
    return tuple(found)


def _pattern_value(key: str, value: Any, where_: str, loc: Locator, line: int) -> Any:
    if key in ("sequence", "flush", "suited", "any", "same_colour"):
        return _bool(value, where_, loc, line)
    if key in ("same_rank", "faces", "faces_at_least", "cards"):
        return _int(value, where_, loc, 0, 26, line)
    if key in ("points", "value_total"):  # value_total: the values' sum itself, not mod 10
        return _points(value, where_, loc, line)
    if key == "value_max":  # every card's value at most this
        return _int(value, where_, loc, 0, 99, line)
    if key == "subset_points":  # some k of the cards have these points (a Bull: 3 cards, 0)
        if not isinstance(value, Mapping) or set(value) != {"cards", "points"}:
            raise loc.error(
                where_, f"expected {{ cards = k, points = … }} (e.g. a Bull: {{ cards = 3, "
                f"points = 0 }}), got {value!r}", line)  # fmt: skip
        return (
            _int(value["cards"], f"{where_}.cards", loc, 1, 26, line),
            _points(value["points"], f"{where_}.points", loc, line),
        )
    if key == "tiles":
        return tile_codes(value, where_, loc, line)
    if key in ("ranks", "pair_rank"):
        if not isinstance(value, list) or not value:
            raise loc.error(where_, f"expected a list of ranks, got {value!r}", line)
        return tuple(_rank(r, where_, loc, line) for r in value)
    if key == "not":  # a hand that does not have every key of this pattern
        return _pattern(value, where_, loc, line)
    if key == "rank_counts":  # the cards of each rank, most first: [3, 2] a full house
        if (
            not isinstance(value, list)
            or not value
            or not all(
                isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 26 for n in value
            )
        ):
            raise loc.error(
                where_,
                f"expected the cards of each rank, most first (e.g. [3, 2]), got {value!r}",
                line,
            )
        return tuple(sorted(value, reverse=True))
    raise AssertionError(key)  # pragma: no cover


def _pattern(pattern: Any, where_: str, loc: Locator, line: int) -> tuple[tuple[str, Any], ...]:
    """A pattern: every key must hold (``not``: a pattern the hand must not have)."""
    if not isinstance(pattern, Mapping) or not pattern:
        raise loc.error(where_, "expected a table such as { same_rank = 2 }", line)
    checked = []
    for key, value in pattern.items():
        if key not in PATTERN_KEYS:
            raise loc.error(where_, f"unknown key {key!r} (known: {', '.join(PATTERN_KEYS)})",
                            line)  # fmt: skip
        checked.append((key, _pattern_value(key, value, f"{where_}.{key}", loc, line)))
    return tuple(checked)


def _points(value: Any, where_: str, loc: Locator, line: int) -> frozenset[int | Fraction]:
    """Points as a set: a number, a list, or ``{ min = a, max = b }`` (whole numbers). A tile's
    points may be halves (``9.5``, ``"19/2"``), so a number may be one."""
    if isinstance(value, (int, Decimal, str)) and not isinstance(value, bool):
        value = [value]
    if isinstance(value, Mapping) and set(value) <= {"min", "max"}:
        low = _int(value.get("min", 0), where_, loc, 0, 99, line)
        high = _int(value.get("max", 9), where_, loc, 0, 99, line)
        value = list(range(low, high + 1))
    if not isinstance(value, list) or not all(_is_points(v) for v in value):
        raise loc.error(
            where_,
            f"expected a number, a list of numbers or {{ min = a, max = b }}, got {value!r}",
            line,
        )
    found = [Fraction(str(v)) for v in value]
    for v in found:
        if not 0 <= v <= 99:
            raise loc.error(where_, f"{short_number(v)} is outside 0–99", line)
    return frozenset(int(v) if v.denominator == 1 else v for v in found)


def _is_points(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (
        isinstance(value, (Decimal, str)) and _is_number_text(str(value))
    )


def _compare(
    table: Any, deal: Deal, categories: Sequence[Category], loc: Locator
) -> tuple[tuple[str, ...], str, tuple[str, ...]]:
    after = loc.line("[definition.compare")
    if not isinstance(table, Mapping):
        raise loc.error("definition.compare", "expected a table", after)
    loc.known(table, ("by", "ties", "order"), "definition.compare", after)
    default = ["points"] if deal.tableau else (["category"] if categories else ["ranks"])
    by = table.get("by", default)
    line = loc.line("by", after)
    if not isinstance(by, list) or not all(b in (*TIEBREAKS, "category") for b in by):
        raise loc.error(
            "definition.compare.by",
            f"expected a list of category, {', '.join(TIEBREAKS)}; got {by!r}",
            line,
        )
    if "category" in by and not categories:
        raise loc.error(
            "definition.compare.by",
            "compares by category, but the definition has no categories",
            line,
        )
    ties = table.get("ties", "tie")
    if ties != "tie" and ties not in deal.positions:
        raise loc.error(
            "definition.compare.ties",
            f'expected "tie" or a position ({", ".join(deal.positions)}), got {ties!r}',
            loc.line("ties", after),
        )
    return tuple(by), ties, _order(table.get("order"), categories, loc, after)


def _order(order: Any, categories: Sequence[Category], loc: Locator, after: int) -> tuple[str, ...]:
    """``compare.order``: every category once, strongest first (odds.games.defined.ranking)."""
    names = [c.name for c in categories]
    line = loc.line("order", after)
    if order is None:
        return ()
    if (
        not isinstance(order, list)
        or sorted(map(str, order)) != sorted(names)
        or len(set(order)) != len(order)
    ):
        raise loc.error(
            "definition.compare.order",
            f"expected every category once, strongest first ({', '.join(names)}); got {order!r}",
            line,
        )
    return tuple(order)


def _bets(items: Any, context: _Context, loc: Locator) -> tuple[BetDefinition, ...]:
    if not isinstance(items, list) or not items:
        raise loc.error(
            "definition.bets", "no bets: add [[definition.bets]] with outcomes", loc.line("bets")
        )
    found: list[BetDefinition] = []
    names: list[str] = []
    for i, item in enumerate(items):
        line = loc.nth("[[definition.bets", i)
        where_ = f"definition.bets[{i + 1}]"
        if not isinstance(item, Mapping):
            raise loc.error(where_, "expected a table", line)
        known = ("name", "title", "description", "outcomes", "withholding", "per_hand", "if",
                 "fair_payout", "rides_on")  # fmt: skip
        loc.known(item, known, where_, line)
        name = item.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
            raise loc.error(
                where_, f'name: expected a lower-case name such as "lucky-6", got {name!r}', line
            )
        if name in names:
            raise loc.error(where_, f"bet {name!r} is defined twice", line)
        names.append(name)
        where_ = f"definition.bets.{name}"
        if "if" in item and not context.reading.condition(item["if"], f"{where_}.if", loc, line):
            continue  # not offered under this reading
        found.append(_bet(item, name, where_, context, loc, line))
    if not found:
        raise loc.error("definition.bets", "no bet is offered under this paytable's options",
                        loc.line("bets"))  # fmt: skip
    _check_riders(found, loc)
    return tuple(found)


def _check_riders(bets: Sequence[BetDefinition], loc: Locator) -> None:
    """Each ``rides_on`` names another bet offered, not itself a rider; a rider has no stake
    (no ``loses``, ``wagered``, ``withholding`` or ``per_hand``), and a carrier is counted
    over whole deals (no ``per_hand``). One line each, naming the key's line."""
    names = {b.name: b for b in bets}
    for bet in bets:
        if bet.rides_on is None:
            continue
        where = f"definition.bets.{bet.name}"
        line = loc.at("rides_on", bet.line)
        carrier = names.get(bet.rides_on)
        if carrier is None or carrier is bet:
            others = ", ".join(n for n in names if n != bet.name) or "none"
            raise loc.error(
                where, f"rides_on: {bet.rides_on!r} is not another bet (bets: {others})", line
            )
        if carrier.rides_on is not None:
            raise loc.error(
                where,
                f"rides_on: {carrier.name!r} itself rides on {carrier.rides_on!r}; a bonus "
                "rides on a bet with a stake",
                line,
            )
        if carrier.per_hand:
            raise loc.error(where, f"rides_on: {carrier.name!r} is counted per_hand", line)
        if bet.per_hand or bet.withholding != 0:
            raise loc.error(where, "rides_on: a rider has no per_hand or withholding", line)
        for outcome in bet.outcomes:
            loses = outcome.loses_named or (isinstance(outcome.net, Fraction) and outcome.net < 0)
            if loses or outcome.wagered != 1:
                raise loc.error(
                    where,
                    f"outcome {outcome.key!r}: a bet riding on {carrier.name!r} has no stake of "
                    "its own, so it pays or pushes (no loses, no wagered)",
                    outcome.line,
                )


def _bet(
    item: Mapping[str, Any], name: str, where_: str, context: _Context, loc: Locator, line: int
) -> BetDefinition:
    outcomes_raw = item.get("outcomes")
    if not isinstance(outcomes_raw, list) or not outcomes_raw:
        raise loc.error(
            where_, "outcomes: expected a list of { when = …, pays = … }", loc.at("outcomes", line)
        )
    outcomes = []
    keys: list[str] = []
    for j, raw in enumerate(outcomes_raw):
        oline = (
            loc.nth("when", j, line)
            if isinstance(raw, Mapping) and "when" in raw
            else loc.line("otherwise", line)
        )
        outcome = _outcome(raw, f"{where_}.outcomes[{j + 1}]", j, context, loc, oline or line)
        if outcome.key in keys:
            raise loc.error(where_, f"outcome {outcome.key!r} is named twice", line)
        keys.append(outcome.key)
        if outcome.when is not False:
            outcomes.append(outcome)
    if sum(o.when is None for o in outcomes) > 1:
        raise loc.error(where_, "more than one 'otherwise' outcome", line)
    if any(o.when is None for o in outcomes[:-1]):
        raise loc.error(where_, "the 'otherwise' outcome must come last", line)
    if not outcomes:
        raise loc.error(where_, "no outcome is present under this paytable's options", line)
    title = str(item.get("title", name.replace("-", " ").title()))
    description = str(item.get("description", ""))
    wline = loc.at("withholding", line)
    withholding = _withholding(item.get("withholding", 0), where_, loc, wline)
    if isinstance(withholding, str) and withholding != COVER and context.reading.declares_payouts:
        context.reading.payout(withholding, f"{where_}.withholding", loc, wline)
    _check_losses(outcomes, withholding, where_, loc)
    per_hand = _bool(item.get("per_hand", False), where_, loc, line, "per_hand")
    fair = item.get("fair_payout", False)
    paying = [o for o in outcomes if isinstance(o.net, str) and not o.loses_named]
    paying += [o for o in outcomes if isinstance(o.net, Fraction) and o.net > 0]
    if not isinstance(fair, bool) or (fair and len(paying) != 1):
        raise loc.error(
            where_,
            "fair_payout: true for a bet with exactly one paying outcome, got "
            f"{fair!r} with {len(paying)}",
            loc.at("fair_payout", line),
        )
    rides_on = item.get("rides_on")
    if rides_on is not None and not isinstance(rides_on, str):
        raise loc.error(where_, f"rides_on: expected a bet's name, got {rides_on!r}", line)
    return BetDefinition(
        name, title, description, tuple(outcomes), line, withholding, per_hand, fair, rides_on
    )


def _withholding(value: Any, where_: str, loc: Locator, line: int) -> Fraction | str:
    """A bet's withholding: a number ≥ 0, or a [payouts] name."""
    if isinstance(value, str):
        return _payout_name(value, f"{where_}.withholding", loc, line)
    number = _number(value, f"{where_}.withholding", loc, line)
    if number < 0:
        raise loc.error(where_, f"withholding: expected a number ≥ 0, got {value!r}", line)
    return number


def _payout_name(value: str, where_: str, loc: Locator, line: int) -> str:
    """A string names a payout (``"two_cards"``, a table's entry ``"dragon_bonus.9"``), never a
    number: ``"1e13"`` and ``"3/2"`` are refused with how to write a number."""
    if re.fullmatch(r"[a-z0-9_]+(\.[a-z0-9_-]+)?", value) and not _is_number_text(value):
        return value
    hint = (
        "; a number is written without quotes"
        if _is_number_text(value)
        else " (lower-case, digits, _)"
    )
    raise loc.error(where_, f"{value!r} is not a payout name{hint}", line)


def _check_losses(
    outcomes: Sequence[Outcome], withholding: Fraction | str, where_: str, loc: Locator
) -> None:
    """A numbered loss beyond the stake needs a numbered withholding that covers it.

    Named losses and withholdings are checked against the paytable's payouts
    (:meth:`odds.games.defined.game.DefinedGame.validate`).
    """
    if isinstance(withholding, str):
        return
    for outcome in outcomes:
        stake = outcome.wagered
        lost = -outcome.net * outcome.times if isinstance(outcome.net, Fraction) else 0
        if lost > stake + withholding:
            raise loc.error(
                where_,
                f"loses {lost}: a bet cannot lose more than its stake plus its "
                f"withholding ({stake + withholding}); add withholding = "
                f"{lost - stake}, or wagered = {lost} where a raise puts "
                "more at risk",
                outcome.line,
            )


def _outcome(
    raw: Any, where_: str, index: int, context: _Context, loc: Locator, line: int
) -> Outcome:
    """One outcome; its ``when`` is ``False`` when it is absent under this reading (an option
    test false, a table entry it pays not in the paytable's table)."""
    if not isinstance(raw, Mapping):
        raise loc.error(
            where_, 'expected a table such as { when = { winner = "banker" }, pays = 1 }', line
        )
    loc.known(
        raw,
        (
            "name",
            "label",
            "when",
            "otherwise",
            "pays",
            "push",
            "loses",
            "commission",
            "optional",
            "wagered",
            "times",
        ),
        where_,
        line,
    )
    if ("when" in raw) == bool(raw.get("otherwise")):
        raise loc.error(where_, "give either when = { … } or otherwise = true", line)
    optional = _bool(raw.get("optional", False), where_, loc, line, "optional")
    when: Any = None
    if "when" in raw:
        when = _condition(raw["when"], f"{where_}.when", context, loc, line)
        if when is True:
            when = Condition(())
        elif when is False and optional:
            when = Condition((), never=True)
    settlements = [k for k in ("pays", "push", "loses") if k in raw]
    if len(settlements) != 1:
        raise loc.error(where_, "settle with exactly one of pays = k, push = true, loses = k", line)
    kind = settlements[0]
    net: Fraction | str
    paid = True  # whether a table entry it names is in the paytable's table
    if kind == "push":
        if raw["push"] is not True:
            raise loc.error(where_, "push: expected true", line)
        net = Fraction(0)
    else:
        value = raw[kind]
        if isinstance(value, str):
            net = _payout_name(value, f"{where_}.{kind}", loc, line)
            if context.reading.declares_payouts:
                paid = context.reading.payout(net, f"{where_}.{kind}", loc, line)
        else:
            number = _number(value, f"{where_}.{kind}", loc, line)
            if number < 0:
                raise loc.error(where_, f"{kind}: expected a number ≥ 0, got {value!r}", line)
            net = number if kind == "pays" else -number
    commission = _commission(raw.get("commission", 0), kind, where_, context, loc, line)
    key = raw.get("name", f"o{index + 1}" if "when" in raw else "otherwise")
    if not isinstance(key, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]*", key):
        raise loc.error(where_, f"name: expected a lower-case name, got {key!r}", line)
    if not paid:
        when = Condition((), never=True) if optional else False
    label = raw.get("label")
    if label is None:
        label = condition_text(when) if isinstance(when, Condition) else "otherwise"
    elif not isinstance(label, str):
        raise loc.error(where_, f"label: expected text in quotes, got {label!r}", line)
    elif isinstance(when, Condition):
        label = _filled(label, when, f"{where_}.label", loc, line)
    named_loss = kind == "loses" and isinstance(net, str)
    wagered = Fraction(1)
    if "wagered" in raw:
        wagered = _number(raw["wagered"], f"{where_}.wagered", loc, line)
        if wagered < 1:
            raise loc.error(
                where_,
                f"wagered: the total stake at risk in initial units, at least 1, got "
                f"{raw['wagered']!r}",
                line,
            )
    times = Fraction(1)
    if "times" in raw:
        times = _number(raw["times"], f"{where_}.times", loc, line)
        if times <= 0 or kind == "push":
            raise loc.error(
                where_,
                f"times: a number > 0 that multiplies pays or loses, got {raw['times']!r}",
                line,
            )
    return Outcome(key, label, when, net, commission, line, named_loss, optional, wagered, times)


def _commission(
    value: Any, kind: str, where_: str, context: _Context, loc: Locator, line: int
) -> Fraction | str:
    """A win's commission: a fraction 0 ≤ c < 1, or a [payouts] name (``"commission"``)."""
    if isinstance(value, str):
        name = _payout_name(value, f"{where_}.commission", loc, line)
        if context.reading.declares_payouts:
            context.reading.payout(name, f"{where_}.commission", loc, line)
        commission: Fraction | str = name
    else:
        commission = _number(value, f"{where_}.commission", loc, line)
        if not 0 <= commission < 1:
            raise loc.error(where_, "commission: a fraction of a win, 0 ≤ c < 1, with pays", line)
    if commission and kind != "pays":
        raise loc.error(where_, "commission: a fraction of a win, 0 ≤ c < 1, with pays", line)
    return commission


def _filled(label: str, condition: Condition, where_: str, loc: Locator, line: int) -> str:
    """``"Player wins by {margin}"``: each ``{feature}`` is the values the condition's test of
    that feature accepts under this reading ("1–3"), so a label follows the paytable."""

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        for position, feature, wanted in condition.tests:
            if f"{position}.{feature}".lstrip(".") == name and not isinstance(wanted, bool):
                return _listed(sorted(wanted, key=lambda v: (str(type(v)), v)))
        raise loc.error(
            where_, f"{{{name}}} names no test of the outcome's condition (e.g. {{margin}})", line
        )

    return re.sub(r"\{([a-z_.-]+)\}", value, label)


def _listed(values: Sequence[Any]) -> str:
    """``1–3`` (three or more consecutive numbers), else ``4, 6``."""
    texts = [getattr(v, "symbol", str(v)) for v in values]
    if len(values) > 2 and all(isinstance(v, int) for v in values) and _contiguous(values):
        return f"{texts[0]}–{texts[-1]}"
    return ", ".join(texts)


def _is_number_text(value: str) -> bool:
    """``"3/2"``, ``"0.5"``, ``"1e13"``: a number written as text (not a payout name)."""
    try:
        Fraction(value.strip())
    except ValueError:
        return False
    return True


def _number(value: Any, where_: str, loc: Locator, line: int) -> Fraction:
    """A number of a definition, within the paytable's documented limits (at most 10^12 in
    size, 30 decimals), read exactly; anything else one line naming the key."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise loc.error(where_, f"expected a number, got {value!r}", line)
    try:
        return parse_rational(value, where_, percent=False)
    except OddsError as exc:
        raise loc.error(where_, str(exc).removeprefix(f"{where_}: "), line) from None


def _condition(
    raw: Any, where_: str, context: _Context, loc: Locator, line: int
) -> Condition | bool:
    """A condition; a constant (``True``/``False``) where its option tests decide it under this
    reading (a test of options only, or one that can never hold)."""
    if not isinstance(raw, Mapping) or not raw:
        raise loc.error(where_, 'expected a table such as { winner = "banker" }', line)
    deal, reading = context.deal, context.reading
    tests: list[tuple[str, str, Any]] = []
    all_: list[Condition] = []
    any_: list[Condition] = []
    not_: Condition | None = None
    continued: Any = None
    constant = True  # the conjunction of what the options decide
    for key, value in raw.items():
        if key in ("all", "any"):
            if not isinstance(value, list) or not value:
                raise loc.error(f"{where_}.{key}", "expected a list of conditions", line)
            parts = [
                _condition(v, f"{where_}.{key}[{i + 1}]", context, loc, line)
                for i, v in enumerate(value)
            ]
            if key == "all":
                constant = constant and all(p is not False for p in parts)
                all_.extend(p for p in parts if isinstance(p, Condition))
            elif any(p is True for p in parts):
                continue  # one alternative always holds
            else:
                kept = [p for p in parts if isinstance(p, Condition)]
                if not kept:
                    constant = False
                elif len(kept) == 1:
                    all_.append(kept[0])
                else:
                    any_.extend(kept)
        elif key == "not":
            inner = _condition(value, f"{where_}.not", context, loc, line)
            if inner is True:
                constant = False
            elif isinstance(inner, Condition):
                not_ = inner
        elif key in reading.sections:
            constant = reading.holds(key, value, f"{where_}.{key}", loc, line) and constant
        elif key == ACTION:
            tests.append(_action_test(value, f"{where_}.{key}", context, loc, line))
        elif key == CONTINUED and context.continues:
            continued = _continued(value, f"{where_}.{key}", context, loc, line)
            if continued is None:  # a continued deal the reading makes impossible
                constant = False
        elif key in ROUND_FEATURES:
            _check_round_key(key, value, deal, f"{where_}.{key}", loc, line)
            wanted = _feature_value("", key, value, f"{where_}.{key}", context, loc, line)
            constant = constant and not _emptied(key, value, wanted)
            tests.append(("", key, wanted))
        elif key in deal.positions:
            if not isinstance(value, Mapping) or not value:
                raise loc.error(f"{where_}.{key}", "expected a table such as { points = 6 }", line)
            for feature, wanted in value.items():
                if feature in CUT_FEATURES:
                    reference = _reference(wanted, f"{where_}.{key}.{feature}", context, loc, line)
                    tests.append((key, f"{feature}:{reference}", True))
                    continue
                if deal.until_match is not None:
                    _check_pile_feature(key, feature, deal.until_match, f"{where_}.{key}", loc,
                                        line)  # fmt: skip
                if feature in AGAINST_FIRST:
                    tests.append((key, feature, _against_first(feature, wanted, context,
                                                               f"{where_}.{key}.{feature}", loc,
                                                               line)))  # fmt: skip
                    continue
                if feature not in POSITION_FEATURES:
                    raise loc.error(
                        f"{where_}.{key}",
                        f"unknown key {feature!r} (known: "
                        f"{', '.join((*POSITION_FEATURES, *CUT_FEATURES))})",
                        line,
                    )
                accepted = _feature_value(
                    key, feature, wanted, f"{where_}.{key}.{feature}", context, loc, line
                )
                constant = constant and not _emptied(feature, wanted, accepted)
                tests.append((key, feature, accepted))
        else:
            known = (*ROUND_FEATURES, *deal.positions, *reading.sections, "all", "any", "not")
            known += (ACTION,) if context.decision is not None else ()
            known += (CONTINUED,) if context.continues else ()
            raise loc.error(where_, f"unknown key {key!r} (known: {', '.join(known)})", line)
    if not constant:
        return False
    if not (tests or all_ or any_ or not_ or continued is not None):
        return True
    return Condition(tuple(tests), tuple(all_), tuple(any_), not_, continued=continued)


def _continued(value: Any, where_: str, context: _Context, loc: Locator, line: int) -> Any:
    """``continued = true``/``false``, or a condition on the continued deal (its winner and
    its positions' new hands; no action); ``None`` when the condition can never hold under
    this reading."""
    if isinstance(value, bool):
        return value
    inner = dataclasses.replace(
        context,
        deal=context.continued_deal or context.deal,
        first_deal=context.deal,
        decision=None,
        continues=False,
        no_action="a condition on the continued deal reads its cards; put action = … beside "
        "continued",
    )
    found = _condition(value, where_, inner, loc, line)
    return True if found is True else None if found is False else found


def _against_first(
    feature: str, value: Any, context: _Context, where_: str, loc: Locator, line: int
) -> bool:
    """``between``/``matches``: a continued one-card hand read against the first deal's
    one-card hands (Red Dog's third card)."""
    first = context.first_deal
    if first is None or first.cards != 1 or context.deal.cards != 1:
        raise loc.error(
            where_,
            f"{feature}: reads a continued deal's card against the first deal's cards, one "
            "card each (inside continued = { … })",
            line,
        )
    return _bool(value, where_, loc, line)


def _check_round_key(
    key: str, value: Any, deal: Deal, where_: str, loc: Locator, line: int
) -> None:
    """What a round condition may read of an until-match deal (the winning pile and the cards
    dealt), ``dealt`` on no other deal, ``spread`` of two one-card hands, ``winner`` of two
    positions."""
    if key == "spread" and (
        deal.cards != 1 or len(deal.positions) != 2 or deal.tableau or deal.until_match
    ):
        raise loc.error(
            where_, "spread: the ranks strictly between two positions' one-card hands", line
        )
    if key == "winner" and len(deal.positions) == 1:
        raise loc.error(where_, f"winner: the deal has one position ({deal.positions[0]})", line)
    until = deal.until_match
    if until is None:
        if key == "dealt":
            raise loc.error(
                where_, "dealt: the cards dealt after the turned card of an until-match deal "
                "(this deal deals fixed hands: read total_cards)", line,
            )  # fmt: skip
        return
    if key not in ("winner", "dealt"):
        raise loc.error(
            where_,
            f"{key}: an until-match deal's round reads winner and dealt (and each pile's "
            f"cards, the {until.card}'s rank and suit)",
            line,
        )
    if key == "winner":
        for name in value if isinstance(value, list) else [value]:
            if name not in until.piles:
                raise loc.error(
                    where_,
                    f"unknown winner {name!r}: the pile that receives the match wins "
                    f"({' or '.join(until.piles)}; there are no ties)",
                    line,
                )


def _check_pile_feature(
    position: str, feature: str, until: UntilMatch, where_: str, loc: Locator, line: int
) -> None:
    """A pile of an until-match deal is read by its cards' number, the turned card by its
    rank and suit."""
    allowed = ("rank", "suit") if position == until.card else ("cards",)
    if feature not in allowed:
        what = f"the {until.card} is read by" if position == until.card else "a pile is read by"
        raise loc.error(where_, f"unknown key {feature!r}: {what} {' and '.join(allowed)}", line)


def _action_test(
    value: Any, where_: str, context: _Context, loc: Locator, line: int
) -> tuple[str, str, frozenset[str]]:
    """``action = "play"`` (or a list): a test of the deciding position's chosen action."""
    decision = context.decision
    if context.no_action:
        raise loc.error(where_, context.no_action, line)
    if decision is None:
        raise loc.error(
            where_,
            "the definition has no [definition.decision]: add one with the deciding position "
            "and its actions",
            line,
        )
    names = value if isinstance(value, list) else [value]
    unknown = [n for n in names if n not in decision.actions]
    if not names or unknown:
        raise loc.error(
            where_,
            f"unknown action {unknown[0] if unknown else value!r} (known: "
            f"{', '.join(decision.actions)})",
            line,
        )
    return (decision.position, ACTION, frozenset(names))


def _reference(value: Any, where_: str, context: _Context, loc: Locator, line: int) -> str:
    """A reference hand of ``at_least``/``at_most``, checked and written canonically: cards
    by rank (``"Q 3 2"``; the counting gives them the suits of the weakest such hand) or
    every card with its suit (``"Qh 3d 2c"``)."""
    deal, shoe = context.deal, context.shoe
    example = " ".join(["Q", "3", "2", "4", "5"][: max(deal.cards, 1)])
    if not isinstance(value, str):
        raise loc.error(where_, f'expected a hand such as "{example}", got {value!r}', line)
    if deal.tableau is not None or deal.draw_at_most:
        raise loc.error(where_, "compares hands of a fixed size (no tableau or draws yet)", line)
    tokens = value.replace(",", " ").split()
    if len(tokens) != deal.cards:
        raise loc.error(
            where_,
            f'{value!r} is not a hand: the hands hold {deal.cards} cards (e.g. "{example}")',
            line,
        )
    cards: list[tuple[Rank, Suit | None]] = []
    for token in tokens:
        suit = SUIT_LETTERS.get(token[-1:].lower()) if len(token) > 1 else None
        rank_text = token[:-1] if suit is not None and token[:-1] else token
        if suit is not None and rank_text.upper() not in RANK_SYMBOLS:
            suit, rank_text = None, token
        cards.append((_rank(rank_text, where_, loc, line), suit))
    suited = [s is not None for _, s in cards]
    if any(suited) and not all(suited):
        raise loc.error(where_, f"{value!r}: give every card's suit, or none", line)
    decks = shoe.decks if shoe is not None else 1
    for rank in {r for r, _ in cards}:
        if sum(r == rank for r, _ in cards) > 4 * decks:
            raise loc.error(where_, f"{value!r} is not a hand: too many {rank.symbol}s", line)
    if all(suited) and any(cards.count(c) > decks for c in cards):
        raise loc.error(where_, f"{value!r} is not a hand: a card twice from {decks} deck", line)
    letter = {suit: text for text, suit in SUIT_LETTERS.items()}
    return " ".join(r.symbol + (letter[s] if s is not None else "") for r, s in cards)


def _emptied(feature: str, written: Any, accepted: Any) -> bool:
    """Whether the options left a test nothing to accept (so it never holds under this
    reading): categories absent here, or a set read from a table. A set written empty
    stays a test, and the outcome is refused as never happening."""
    if accepted != frozenset():
        return False
    if feature == "category":
        return written not in ([], "")
    return isinstance(written, Mapping) and bool(set(written) & {"keys_of", "except_keys_of"})


#: What a test may not ask of a deal: (features, whether this deal refuses them, why).
_FEATURE_LIMITS: tuple[tuple[Collection[str], Callable[[Deal], bool], str], ...] = (
    (
        ("natural",),
        lambda deal: deal.tableau is None,
        "natural is a tableau deal's feature (two-card totals)",
    ),
    (
        DRAWN_FEATURES,
        lambda deal: deal.tableau is None,
        "{feature} reads a tableau deal's drawing (card values); this deal has no tableau",
    ),
    (
        ("category", "faces", "rank", "suit", "flush", "same_suit", "same_rank"),
        lambda deal: deal.tableau is not None,
        "{feature}: a tableau deal is counted by card values only; it cannot ask for {feature} yet",
    ),
    (
        ("rank", "suit"),
        lambda deal: deal.cards != 1,
        "{feature}: asks for one card's {feature}; the hands hold {cards} cards",
    ),
    (FIRST_CARD_FEATURES, lambda deal: deal.cards < 2, "{feature}: the hands hold one card"),
)


def _feature_value(
    position: str,
    feature: str,
    value: Any,
    where_: str,
    context: _Context,
    loc: Locator,
    line: int,
) -> Any:
    """The accepted values of one test, as a frozenset (or a bool)."""
    deal = context.deal
    for features, refused, why in _FEATURE_LIMITS:
        if feature in features and refused(deal):
            raise loc.error(where_, why.format(feature=feature, cards=deal.cards), line)
    if feature in ("natural", *FIRST_CARD_FEATURES, "same_suit", "flush", "identical"):
        return _bool(value, where_, loc, line)
    if feature == "spread" and isinstance(value, Mapping) and "max" not in value:
        value = {**value, "max": 12}  # at most the 11 ranks between a 2 and an ace
    if feature == "winner":
        names = value if isinstance(value, list) else [value]
        for name in names:
            if name not in (*deal.positions, "tie"):
                raise loc.error(
                    where_,
                    f"unknown winner {name!r} (known: {', '.join((*deal.positions, 'tie'))})",
                    line,
                )
        return frozenset(names)
    if feature == "category":
        known = context.every_category
        if isinstance(value, Mapping):  # { keys_of = "payouts.bonus" }
            names = list(_referenced(value, None, where_, context, loc, line))
        else:
            names = value if isinstance(value, list) else [value]
        for name in names:
            if name not in known:
                raise loc.error(
                    where_, f"unknown category {name!r} (known: {', '.join(known) or 'none'})", line
                )
        present = {c.name for c in context.categories}
        return frozenset(n for n in names if n in present)  # absent categories hold no hand
    if feature == "rank":
        names = value if isinstance(value, list) else [value]
        return frozenset(_rank(n, where_, loc, line) for n in names)
    if feature == "same_rank":  # the most cards of the hand that share one rank
        most = deal.cards + (1 if deal.draw_at_most else 0)
        counts = value if isinstance(value, list) else [value]
        if not counts or not all(
            isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= most for n in counts
        ):
            raise loc.error(
                where_,
                f"expected a number of cards from 1 to {most} (or a list of them), got {value!r}",
                line,
            )
        return frozenset(counts)
    if feature == "suit":
        names = value if isinstance(value, list) else [value]
        if not all(n in SUIT_LETTERS for n in names):
            raise loc.error(where_, f"expected suits c d h s, got {value!r}", line)
        return frozenset(SUIT_LETTERS[n] for n in names)
    if isinstance(value, Mapping) and set(value) & {"keys_of", "except_keys_of"}:
        base = None
        if set(value) & {"min", "max"}:
            base = _points({k: v for k, v in value.items() if k in ("min", "max")}, where_, loc,
                           line)  # fmt: skip
        return frozenset(_referenced(value, base, where_, context, loc, line))
    return _points(value, where_, loc, line)


def _referenced(
    value: Mapping[str, Any],
    base: frozenset[int | Fraction] | None,
    where_: str,
    context: _Context,
    loc: Locator,
    line: int,
) -> set[Any]:
    """A set given by an option: ``keys_of`` (a table's keys or a list's items), less
    ``except_keys_of``, within ``min``–``max`` where given. Numbers are read from keys that
    are numbers (a margin table's ``"9"``); other keys (``"natural"``) are not numbers."""
    unknown = set(value) - {"keys_of", "except_keys_of", "min", "max"}
    if unknown:
        raise loc.error(
            where_, f"unknown key {sorted(unknown)[0]!r} (known: keys_of, except_keys_of, min, "
            "max)", line,
        )  # fmt: skip
    numbers = base is not None or "keys_of" not in value

    def keys(name: str) -> set[Any]:
        found = context.reading.keys_of(value[name], f"{where_}.{name}", loc, line)
        if not numbers:
            return set(found)
        return {int(k) for k in found if k.isdigit()}

    if "keys_of" in value:
        chosen = keys("keys_of")
        if base is not None:
            chosen &= base
    elif base is not None:
        chosen = set(base)
    else:
        raise loc.error(where_, "except_keys_of takes away from keys_of or from min and max", line)
    if "except_keys_of" in value:
        chosen -= keys("except_keys_of")
    return chosen


def condition_text(condition: Condition) -> str:
    """A condition in words, for an outcome's default label."""
    if condition.never:
        return "never (not under this paytable's options)"
    parts = []
    for position, feature, value in condition.tests:
        shown: str
        cut = cut_feature(feature)
        if cut is not None:  # at_least:Q 3 2 -> "dealer at least Q-3-2"
            no = "" if value else "not "
            parts.append(f"{position} {no}{cut[0].replace('_', ' ')} {cut[1].replace(' ', '-')}")
            continue
        if isinstance(value, bool):
            shown = "" if value else "no "
            parts.append(
                f"{position + ' ' if position else ''}{shown}{feature.replace('_', ' ')}".strip()
            )
            continue
        items = sorted(value, key=lambda v: (str(type(v)), v))
        texts = [
            v.symbol
            if isinstance(v, (Rank, Suit))
            else short_number(v)
            if isinstance(v, Fraction)
            else str(v)
            for v in items
        ]
        shown = (
            " or ".join(texts)
            if len(texts) <= 3
            else f"{texts[0]}–{texts[-1]}"
            if _contiguous(items)
            else ", ".join(texts)
        )
        if feature == "winner":
            parts.append("tie" if shown == "tie" else f"{shown} wins")
        elif feature == "same_rank":
            parts.append(f"{position} {shown} cards of one rank")
        else:
            parts.append(f"{position + ' ' if position else ''}{feature.replace('_', ' ')} {shown}")
    parts += [condition_text(c) for c in condition.all]
    if condition.any:
        parts.append("(" + " or ".join(condition_text(c) for c in condition.any) + ")")
    if condition.not_ is not None:
        parts.append(f"not ({condition_text(condition.not_)})")
    if condition.continued is not None:
        parts.append(
            "the deal goes on"
            if condition.continued is True
            else "the deal does not go on"
            if condition.continued is False
            else f"the deal goes on: {condition_text(condition.continued)}"
        )
    return ", ".join(parts) or "always"


def _contiguous(items: Sequence[Any]) -> bool:
    """Whether the items are consecutive whole numbers (names never are: a category list)."""
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in items):
        return False
    numbers = [int(v) for v in items]
    return numbers == list(range(numbers[0], numbers[0] + len(numbers)))
