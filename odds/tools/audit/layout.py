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
    seats = _seats(game, canonical, label)
    hands = {h: canonical.index(h) for hs in seats.values() for h in hs}
    labels = {n: canonical.index(n) for n in LABELS if n in canonical}
    money = _money(game, names, canonical, seats, label)
    used = set(hands.values()) | set(labels.values()) | {names.index(m.column) for m in money}
    extra = {canonical[i]: i for i in range(len(names)) if i not in used}
    return Layout(tuple(names), hands, seats, labels, tuple(money), extra)


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
