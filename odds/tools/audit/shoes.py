"""The shoes of a shoe-ordered log, card by card: what the shoe-level tests read.

The pooled tests of :mod:`odds.tools.audit.audit` need only counts; the
shoe-level tests (:mod:`~odds.tools.audit.frequencies`,
:mod:`~odds.tools.audit.shoe_tests`, :mod:`~odds.tools.audit.shuffle`) need
each shoe's cards in the order the log shows them, round by round. This
module turns the rows of the reader's one pass (:mod:`odds.tools.audit.reader`),
in line order, into :class:`DealtShoe` objects (type
indices of the game's shoe, a few bytes a card), and defines what every
shoe-level test returns (:class:`ShoeTest`).

A round's cards are its hands in the header's column order, each hand's cards
as written; a hand every position shares (Pok Deng's banker) is taken once per
round. Rows the main reader rejects (an unreadable or impossible hand, a blank
line, a row of empty fields) are left out here: the audit names them. A shoe label that comes
back after other shoes is a second shoe (shoe integrity names it).

The work is bounded before it starts: at most :data:`MAX_ROWS` rows are read
(a note says when a log is longer), with progress on a terminal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from odds.core.errors import OddsError
from odds.core.shoe import Shoe
from odds.games.base import Game
from odds.runtime.progress import track
from odds.stats.significance import PValue

#: The shoe-level tests read at most this many rows, whole shoes from the first (a longer log:
#: the notes name the shoes tested; ``odds audit --shoe-rows``). About 3,000 baccarat shoes,
#: ten times the 300 the hardest shoe fault of the power table needs (one card missing), in
#: about 20 s and 200 MB; the shoes of 2,000,000 rows took minutes and more than a gigabyte.
MAX_ROWS = 200_000
#: The shoe-level tests run when the log's shoes hold at least this many rounds on average
#: (a shoe dealt through, as at a live table; a log reshuffled every round has nothing to show).
MIN_ROUNDS_PER_SHOE = 10


@dataclass(frozen=True)
class DealtRound:
    """One round of a shoe: where it is in the log, and the cards it showed."""

    line: int  # the CSV line (or Parquet row) of its first row
    label: str  # its round label ("" without a round column)
    cards: tuple[int, ...]  # type indices of the shoe, in the log's order
    hands: tuple[str, ...] = ()  # its hand text per game position (one-row-per-round logs)
    #: A log with numbered seats (Pok Deng's ``player_1`` … ``player_5``): each seat's hand
    #: ('' for an empty seat); the seated position's entry in ``hands`` is then ''.
    seats: tuple[str, ...] = ()


@dataclass(frozen=True)
class DealtShoe:
    """One shoe's rounds, in the order dealt."""

    label: str
    rounds: tuple[DealtRound, ...]

    @property
    def cards(self) -> list[int]:
        return [c for r in self.rounds for c in r.cards]

    def span(self, unit: str = "line") -> str:
        """Its rounds and lines in words: ``rounds 1–78 (lines 2–79)``."""
        first, last = self.rounds[0], self.rounds[-1]
        names = (first.label or "1", last.label or str(len(self.rounds)))
        rounds = f"round {names[0]}" if len(self.rounds) == 1 else f"rounds {names[0]}–{names[1]}"
        return f"{rounds} ({unit}s {first.line}–{last.line})"


@dataclass(frozen=True)
class ShoeLog:
    """The dealt shoes of a log and what reading them left out."""

    shoes: tuple[DealtShoe, ...]
    unit: str
    rows: int
    truncated: bool = False

    @property
    def rounds(self) -> int:
        return sum(len(s.rounds) for s in self.shoes)


@dataclass(frozen=True)
class ShoeTest:
    """A shoe-level test: its statistic, p-value (with its floor) and what it points at.

    ``finding`` says what drives the statistic (the shoe, its rounds, the rank or
    event), printed when the test fails; ``detail`` is printed either way.
    """

    name: str
    statistic: float
    df: int | None
    p: PValue | None  # None: not enough cards or rounds to test
    detail: str
    finding: str = ""
    judged: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def p_value(self) -> float | None:
        return None if self.p is None else self.p.value


def hand_columns(layout: Any) -> list[str]:
    """The hand columns in the header's order: a round's cards are read in this order."""
    return sorted(layout.hands, key=layout.hands.__getitem__)


def shoes_from_rows(
    game: Game,
    config: Any,
    layout: Any,
    rows: Iterable[tuple[Any, ...]],
    unit: str,
    limit: int = MAX_ROWS,
    total: int | None = None,
) -> ShoeLog:
    """The shoes of rows ``(line, shoe, round, *hand texts)`` in line order, at most ``limit``.

    The hand texts are in :func:`hand_columns` order (``""``: no hand). This is
    where every reading of a log's shoes ends: the audit's reader
    (:mod:`odds.tools.audit.reader`, the rows of its one pass) and the tests' second
    reading of the file (``tests/reference/shoes.py``), so both give the same shoes.
    ``total``, the rows to read when known, gives the progress bar its end (and its
    estimate of the time left).
    """
    shoe = game.shoe(config)
    hand_names = hand_columns(layout)
    shared = set(game.shared_positions)
    positions = game.positions
    one_row = sorted(hand_names) == sorted(positions)
    seated = next((p for p, hs in layout.seats.items() if len(hs) > 1 or hs[0] != p), None)
    parsed = _Parser(game, config, shoe)
    shoes: list[DealtShoe] = []
    current: list[DealtRound] = []
    label: str | None = None
    seen_labels: dict[str, int] = {}
    last_round = None
    count = 0
    truncated = False
    for row in track(rows, "reading the shoes", total):
        count += 1
        if count > limit:
            truncated = True
            if row[1] == label and shoes:  # its shoe goes on past the limit: left out whole
                current = []
            break
        line, shoe_label, round_label, *texts = row
        if shoe_label != label:
            if label is not None and current:
                shoes.append(DealtShoe(_shoe_name(label, seen_labels), tuple(current)))
            label, current, last_round = shoe_label, [], None
        same_round = bool(round_label) and round_label == last_round
        cards: list[int] = []
        readable = True
        for name, text in zip(hand_names, texts, strict=True):
            if not text or (same_round and _position_of(name, layout) in shared):
                continue
            items = parsed(text)
            if items is None:
                readable = False
                break
            cards.extend(items)
        if not readable:
            continue
        if same_round and current:
            previous = current[-1]
            current[-1] = DealtRound(previous.line, previous.label, previous.cards + tuple(cards))
        else:
            by_name = dict(zip(hand_names, texts, strict=True))
            hands = tuple(by_name[p] for p in positions) if one_row else ()
            seats: tuple[str, ...] = ()
            if seated is not None:
                hands = tuple(by_name.get(p, "") or "" for p in positions)
                seats = tuple(by_name[h] or "" for h in layout.seats[seated])
            current.append(DealtRound(int(line), str(round_label), tuple(cards), hands, seats))
        last_round = round_label
    if label is not None and current:
        shoes.append(DealtShoe(_shoe_name(label, seen_labels), tuple(current)))
    return ShoeLog(tuple(shoes), unit, min(count, limit), truncated)


def _position_of(hand: str, layout: Any) -> str:
    for position, hands in layout.seats.items():
        if hand in hands:
            return str(position)
    return hand


def _shoe_name(label: str, seen: dict[str, int]) -> str:
    """The label, or ``label (again, #2)`` when the log uses it for a second shoe."""
    seen[label] = seen.get(label, 0) + 1
    return label if seen[label] == 1 else f"{label} (again, #{seen[label]})"


class _Parser:
    """Hand texts to type indices, each distinct text parsed once (None: unreadable)."""

    def __init__(self, game: Game, config: Any, shoe: Shoe[Any]) -> None:
        self.game, self.config, self.shoe = game, config, shoe
        self.known: dict[str, tuple[int, ...] | None] = {}

    def __call__(self, text: str) -> tuple[int, ...] | None:
        if text in self.known:
            return self.known[text]
        try:
            items: tuple[int, ...] | None = tuple(
                self.shoe.index(item) for item in self.game.parse_hand(self.config, text)
            )
        except (OddsError, KeyError, ValueError):
            items = None
        self.known[text] = items
        return items


def dealt_shoe(label: str, rounds: Sequence[Sequence[int]]) -> DealtShoe:
    """A shoe from its rounds' cards (rounds labelled 1, 2, …): what simulations build."""
    return DealtShoe(
        label,
        tuple(DealtRound(i, str(i), tuple(cards)) for i, cards in enumerate(rounds, start=1)),
    )
