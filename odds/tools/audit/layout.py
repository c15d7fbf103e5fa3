"""What each column of a round log holds: hands, seats, round labels, stakes, payouts, the rest.

Operators export their logs in their own shapes. The layout the docs lead with
is one row per round, every seat on it:

    shoe;round;table;dealer;timestamp;banker;player_1;player_2;player_3;player_4;player_5

and the older one, one row per round *and position*, is still read:
``shoe,round,banker,player`` (optionally ``position``). A header is read into a
:class:`Layout`:

* **hands**: one column per game position (``banker``, ``player``); in a game
  whose positions share one hand (Pok Deng's Banker), the other position may
  instead be spread over numbered **seats** ``player_1`` … ``player_N`` (also
  written ``player1``, ``Player 1``), each seat's hand played against the
  shared one; an empty seat is a seat nobody played;
* **labels**: ``shoe``, ``round`` (numbered within its shoe when there is a
  shoe column), ``position``;
* **money**: ``stake_<bet>`` / ``paid_<bet>`` (a game without seats) or
  ``stake_<bet>_<seat>`` / ``paid_<bet>_<seat>`` (``<seat>`` its number or its
  column, e.g. ``stake_player-pair_3``), ``-`` and ``_`` alike in bet names;
* **extra**: every other column (``table``, ``dealer``, ``timestamp`` …), kept
  and usable for grouping, never an error.

A log with no hand column at all is a **results-only** log (each round's outcome
per bet, as operators export them, no cards) when it has **result** columns
(:class:`ResultColumn`):

* ``winner`` (also ``result`` or ``outcome``): the side that won — a game
  position (``Banker``, ``Dragon``) or ``Tie``;
* ``result_<bet>`` / ``result_<bet>_<seat>``: that bet's outcome, named as in
  the paytable's outcome table or as ``win``/``lose``/``push`` with its
  multiplier; ``result_<seat>``: the seat's result on the game's first bet;
* ``multiplier_<bet>`` / ``multiplier_<seat>`` …: the multiplier of the result
  column of the same bet and seat;
* ``<bet>`` / ``<bet>_<seat>`` (``player_pair``, ``banker_pair``): a yes/no
  flag, whether a bet that either wins or loses won.

What those values mean for each bet is :mod:`odds.tools.audit.outcomes`; reading
such a log is :mod:`odds.tools.audit.results`.

Names are matched without regard to case or surrounding spaces. ``--columns``
maps the operator's names onto these (``round=hand_no,banker=dealer_cards``,
or a file of ``name = "column"`` lines): :func:`parse_mapping`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from odds.core.errors import OddsError
from odds.games.base import Game

#: Columns that label a row without being a hand.
LABELS = ("shoe", "round", "position")
#: Money columns: what was staked on a bet, and what was paid back (stake included; 0 on a loss).
MONEY = ("stake", "paid")
#: The most seats a log row may have per position.
MAX_SEATS = 9


@dataclass(frozen=True)
class Money:
    """One stake or payout column: its kind, its bet, its seat ('' in a game without seats)."""

    kind: str  # "stake" or "paid"
    bet: str
    seat: str
    column: str


#: The names of a results-only log's winner column.
WINNER_NAMES = ("winner", "result", "outcome")
#: The kinds of result column (see the module docstring).
RESULT_KINDS = ("winner", "result", "multiplier", "flag")


@dataclass(frozen=True)
class ResultColumn:
    """One result column of a results-only log: its kind, its bet ('' for the winner), its seat."""

    kind: str  # one of RESULT_KINDS
    bet: str
    seat: str
    column: str


@dataclass(frozen=True)
class Layout:
    """What each column of a log holds (names are the canonical ones; ``columns`` as in the file).

    ``hands`` maps every hand column's canonical name (``banker``, ``player_1``)
    to its index in the header; ``seats`` maps each game position to its hand
    columns (``player`` → ``player_1`` … ``player_5``; ``banker`` → ``banker``).
    """

    columns: tuple[str, ...]
    hands: Mapping[str, int]
    seats: Mapping[str, tuple[str, ...]]
    labels: Mapping[str, int]
    money: tuple[Money, ...]
    extra: Mapping[str, int]
    #: A results-only log's result columns (then ``hands`` is empty); () for a log of cards.
    results: tuple[ResultColumn, ...] = ()

    @property
    def seated(self) -> bool:
        """One row per round with numbered seats (rather than one row per position)."""
        return any(len(hands) > 1 or hands[0] != p for p, hands in self.seats.items())

    @property
    def seat_names(self) -> tuple[str, ...]:
        """The seats bets are placed at: the numbered seat columns, or ('',) without seats."""
        for position, hands in self.seats.items():
            if len(hands) > 1 or hands[0] != position:
                return hands
        return ("",)

    def index(self, name: str) -> int:
        """The header index of a canonical column name (a hand, a label or an extra column)."""
        for table in (self.hands, self.labels, self.extra):
            if name in table:
                return table[name]
        raise KeyError(name)

    def money_fields(self) -> list[tuple[int, str]]:
        """(index in ``money``, staged field ``f1`` …) of every money column."""
        return [(k, f"f{self.columns.index(m.column) + 1}") for k, m in enumerate(self.money)]


def _canonical(name: str) -> str:
    return re.sub(r"\s+", "_", name.strip().lower())


def _bet_key(name: str) -> str:
    return name.replace("_", "-")


def parse_mapping(text: str | None) -> dict[str, str]:
    """``--columns``: ``ours=theirs`` pairs, or the name of a file of ``ours = "theirs"`` lines.

    >>> parse_mapping("round=hand_no, banker=Dealer Cards")
    {'round': 'hand_no', 'banker': 'Dealer Cards'}
    """
    if text is None:
        return {}
    if "=" not in text:
        path = Path(text)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise OddsError(
                f"--columns: {text!r} is neither name=column pairs nor a mapping file"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise OddsError(f"--columns: cannot read {text} ({exc})") from None
        except tomllib.TOMLDecodeError as exc:
            raise OddsError(f'--columns {text}: expected lines name = "column" ({exc})') from None
        pairs = []
        for key, value in data.items():
            if not isinstance(value, str):
                raise OddsError(f"--columns {text}: {key} must name a column in quotes")
            pairs.append((key, value))
    else:
        pairs = []
        for part in text.split(","):
            ours, sep, theirs = part.partition("=")
            if not sep or not ours.strip() or not theirs.strip():
                raise OddsError(
                    f"--columns: expected name=column pairs such as 'round=hand_no', got {part!r}"
                )
            pairs.append((ours.strip(), theirs.strip()))
    mapping: dict[str, str] = {}
    for ours, theirs in pairs:
        key = _canonical(ours)
        if key in mapping:
            raise OddsError(f"--columns: {ours} is mapped twice")
        mapping[key] = theirs
    return mapping


def read_layout(
    game: Game, header: Sequence[str], label: str, mapping: Mapping[str, str] | None = None
) -> Layout:
    """The header's layout; a one-line error naming the column for a header that cannot be read."""
    names = [c.strip() for c in header]
    if not any(names):
        raise OddsError(f"{label}: empty log (expected a header: {', '.join(game.positions)})")
    canonical = [_canonical(n) for n in names]
    for ours, theirs in (mapping or {}).items():
        found = [i for i, n in enumerate(names) if _canonical(n) == _canonical(theirs)]
        if not found:
            raise OddsError(f"{label}: --columns {ours}={theirs}: the log has no column {theirs!r}")
        for i, name in enumerate(canonical):
            if name == ours and i not in found:
                canonical[i] = f"{name} (as in the file)"
        canonical[found[0]] = ours
    for i, name in enumerate(canonical):
        if canonical.index(name) != i:
            raise OddsError(f"{label}: the column {names[i]!r} appears twice")
    if not _has_hands(game, canonical):
        results = _results(game, names, canonical, label)
        if results:
            return _results_layout(game, names, canonical, results, label)
    seats = _seats(game, canonical, label)
    hands = {h: canonical.index(h) for hs in seats.values() for h in hs}
    labels = {n: canonical.index(n) for n in LABELS if n in canonical}
    money = _money(game, names, canonical, seats, label)
    used = set(hands.values()) | set(labels.values()) | {names.index(m.column) for m in money}
    extra = {canonical[i]: i for i in range(len(names)) if i not in used}
    return Layout(tuple(names), hands, seats, labels, tuple(money), extra)


def _has_hands(game: Game, canonical: Sequence[str]) -> bool:
    """Whether some column holds a position's hand (``banker``, or a seat ``player_3``)."""
    for position in game.positions:
        if position in canonical:
            return True
        pattern = re.compile(rf"{re.escape(position)}_?\d+")
        if game.shared_positions and any(pattern.fullmatch(name) for name in canonical):
            return True
    return False


def _own_position(game: Game) -> str:
    """The position a game with a shared hand spreads over seats (Pok Deng's player), or ''."""
    if not game.shared_positions:
        return ""
    return next((p for p in game.positions if p not in game.shared_positions), "")


def _bet_and_seat(game: Game, rest: str) -> tuple[str | None, str]:
    """``player-pair_3`` → (player-pair, player_3); ``3`` → (the first bet, player_3).

    The bet is None when ``rest`` names none of the game's bets. Seats exist only in a
    game whose positions share a hand.
    """
    bets = {_bet_key(b): b for b in game.bet_names}
    own = _own_position(game)
    if own:
        if rest.isdigit():
            return game.bet_names[0], f"{own}_{int(rest)}"
        match = re.fullmatch(r"(.+?)_?(\d+)", rest)
        if match and _bet_key(match.group(1)) in bets:
            return bets[_bet_key(match.group(1))], f"{own}_{int(match.group(2))}"
    return bets.get(_bet_key(rest)), ""


def _results(
    game: Game, names: Sequence[str], canonical: Sequence[str], label: str
) -> list[ResultColumn]:
    """The result columns of a header without hands (none: it is not a results-only log)."""
    found: list[ResultColumn] = []
    for i, name in enumerate(canonical):
        if name in WINNER_NAMES:
            found.append(ResultColumn("winner", "", "", names[i]))
            continue
        kind, sep, rest = name.partition("_")
        if kind in ("result", "multiplier") and sep:
            bet, seat = _bet_and_seat(game, rest)
            if bet is None:
                raise OddsError(
                    f"{label}: column {names[i]!r}: {game.name} has no bet {rest!r} "
                    f"(bets: {', '.join(game.bet_names)})"
                )
            found.append(ResultColumn(kind, bet, seat, names[i]))
            continue
        bet, seat = _bet_and_seat(game, name)
        if bet is not None:
            found.append(ResultColumn("flag", bet, seat, names[i]))
    if not any(r.kind != "multiplier" for r in found):
        return []
    winners = [r.column for r in found if r.kind == "winner"]
    if len(winners) > 1:
        raise OddsError(f"{label}: two winner columns ({', '.join(map(repr, winners))}): give one")
    keys = [(r.kind == "multiplier", r.bet, r.seat) for r in found if r.kind != "winner"]
    for r in found:
        if r.kind == "winner":
            continue
        where = f" at {r.seat}" if r.seat else ""
        if keys.count((r.kind == "multiplier", r.bet, r.seat)) > 1:
            raise OddsError(f"{label}: two result columns for {r.bet}{where} (one is {r.column!r})")
        if r.kind == "multiplier" and (False, r.bet, r.seat) not in keys:
            raise OddsError(
                f"{label}: column {r.column!r} has no result column of {r.bet}{where} beside it "
                "(a multiplier says how much a result won or lost)"
            )
    return found


def _results_layout(
    game: Game,
    names: list[str],
    canonical: list[str],
    results: list[ResultColumn],
    label: str,
) -> Layout:
    """A results-only log's layout: labels, results, money (seats from the result columns)."""
    own = _own_position(game)
    numbered = sorted({r.seat for r in results if r.seat}, key=lambda s: int(s.rsplit("_", 1)[1]))
    if numbered and any(not r.seat and r.kind != "winner" for r in results):
        raise OddsError(
            f"{label}: result columns with and without a seat number "
            f"({next(r.column for r in results if not r.seat and r.kind != 'winner')!r}): "
            "give every result its seat"
        )
    seats: dict[str, tuple[str, ...]] = {p: (p,) for p in game.positions}
    if numbered:
        seats[own] = tuple(numbered)
    labels = {n: canonical.index(n) for n in LABELS if n in canonical}
    money = _money(game, names, canonical, seats, label)
    used = set(labels.values()) | {names.index(m.column) for m in money}
    used |= {names.index(r.column) for r in results}
    extra = {canonical[i]: i for i in range(len(names)) if i not in used}
    return Layout(tuple(names), {}, seats, labels, tuple(money), extra, tuple(results))


def _seats(game: Game, canonical: list[str], label: str) -> dict[str, tuple[str, ...]]:
    seats: dict[str, tuple[str, ...]] = {}
    for position in game.positions:
        pattern = re.compile(rf"{re.escape(position)}_?(\d+)")
        numbered = sorted(
            (int(m.group(1)), name)
            for name in canonical
            if (m := pattern.fullmatch(name)) and game.shared_positions
        )
        if position in canonical:
            if numbered:
                raise OddsError(
                    f"{label}: both {position!r} and seat columns ({numbered[0][1]!r} …): "
                    f"give one {position} column, or one per seat"
                )
            seats[position] = (position,)
            continue
        if not numbered or position in game.shared_positions:
            raise OddsError(f"{label}: missing column {position!r} (one per hand)")
        numbers = [n for n, _ in numbered]
        if len(set(numbers)) != len(numbers) or not 1 <= numbers[0] <= numbers[-1] <= MAX_SEATS:
            raise OddsError(
                f"{label}: seat columns {', '.join(n for _, n in numbered)}: expected "
                f"{position}_1 … {position}_N, each once, N at most {MAX_SEATS}"
            )
        for i, (number, name) in enumerate(numbered):
            canonical[canonical.index(name)] = f"{position}_{number}"
            numbered[i] = (number, f"{position}_{number}")
        seats[position] = tuple(name for _, name in numbered)
    return seats


def _money(
    game: Game,
    names: list[str],
    canonical: list[str],
    seats: Mapping[str, tuple[str, ...]],
    label: str,
) -> list[Money]:
    bets = {_bet_key(b): b for b in game.bet_names}
    seated = next((hs for p, hs in seats.items() if len(hs) > 1 or hs[0] != p), ())
    found: list[Money] = []
    for i, name in enumerate(canonical):
        kind, sep, rest = name.partition("_")
        if kind not in MONEY or not sep:
            continue
        seat = ""
        if seated:
            position = seated[0].rsplit("_", 1)[0]
            match = re.fullmatch(r"(.+?)_?(\d+)", rest)
            if not match:
                raise OddsError(
                    f"{label}: column {names[i]!r}: a {kind} column of a log with seats is "
                    f"{kind}_<bet>_<seat>, e.g. {kind}_{game.bet_names[0]}_1"
                )
            rest, seat = match.group(1), f"{position}_{int(match.group(2))}"
            if _bet_key(rest) not in bets and rest.endswith(f"_{position}"):
                rest = rest.removesuffix(f"_{position}")
            if seat not in seated:
                raise OddsError(
                    f"{label}: column {names[i]!r}: no seat {seat} in the log "
                    f"(seats: {', '.join(seated)})"
                )
        bet = bets.get(_bet_key(rest))
        if bet is None:
            raise OddsError(
                f"{label}: column {names[i]!r}: {game.name} has no bet {rest!r} "
                f"(bets: {', '.join(game.bet_names)})"
            )
        found.append(Money(kind, bet, seat, names[i]))
    keys = [(m.kind, m.bet, m.seat) for m in found]
    for m in found:
        if keys.count((m.kind, m.bet, m.seat)) > 1:
            raise OddsError(f"{label}: two {m.kind} columns for {m.bet} {m.seat}".rstrip())
    for m in found:
        twin = "paid" if m.kind == "stake" else "stake"
        if (twin, m.bet, m.seat) not in keys:
            where = f"_{m.seat.rsplit('_', 1)[-1]}" if m.seat else ""
            raise OddsError(
                f"{label}: column {m.column!r} has no {twin}_{m.bet}{where} beside it "
                "(stakes and payouts come in pairs)"
            )
    return found
