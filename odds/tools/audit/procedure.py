"""The dealing procedure an audit's null assumes: shoes dealt through, or every round fresh.

Every test of :mod:`odds.tools.audit.audit` is a null law of the cards, and the law
depends on how the table deals. Three procedures, each named in the audit's text and
JSON (``method.dealing``):

* ``shoe`` — a log with a ``shoe`` column, its shoes dealt through to the cut card:
  the off-the-top tests, and, shoe by shoe, shoe integrity, the rank and suit
  frequencies (hypergeometric), the shoe-aware tests, the shuffle tests and the
  wager test (:mod:`odds.tools.audit.shoe_study`, :mod:`odds.tools.audit.wager_test`).
* ``continuous`` — the paytable's ``[dealing] shuffle = "continuous"`` (a continuous
  shuffling machine) or ``reshuffle_every_round = true`` (the same procedure): every
  round is dealt from the full shoe, whatever the log's ``shoe`` column says (a
  session, a table's day). Rounds are independent deals from the full shoe, which is
  exactly the law of the off-the-top tests; one round must still be possible (the
  reader rejects a round showing more of a card than the full shoe holds). No test
  that needs a shoe runs on a fake one: shoe integrity is not a per-shoe check, and
  the shoe-aware, shuffle and wager tests have no shoe state to exploit — nothing to
  find — so they are not run and a note says so in one line.
* ``independent`` — a log without a ``shoe`` column: rounds are read as independent
  deals from the full shoe (the off-the-top tests), as they always were.

Under ``continuous`` the per-shoe frequency tests become tests over rounds
(:mod:`odds.tools.audit.round_frequencies`): in a game whose rounds never draw each round
is a uniform sample of the full shoe; in a drawing game (baccarat's third cards) the cards
one round deals are not distributed like the shoe's composition — a round with a third
card holds more small cards — so the pooled count of ``R`` rounds is tested against mean
``R·E[x]`` and covariance ``R·Cov(x)``, the exact per-round moments of the dealt cards
(:meth:`odds.games.base.Game.dealt_moments`: a tableau's, a threshold draw's). A deal that
goes on (a continuation: :meth:`odds.games.base.Game.first_deal`) tests each round's first
deal, a uniform sample of the full shoe; the cards it goes on with are not tested (a note
says so). A drawing deal with neither is never tested against the shoe's composition, a
wrong null an honest CSM fails: its frequencies are skipped with a note.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from odds.games.dealing import CONTINUOUS, every_round_from_full_shoe

SHOE = "shoe"
INDEPENDENT = "independent"


@dataclass(frozen=True)
class Dealing:
    """The procedure assumed: its name (``shoe``, ``continuous``, ``independent``) and why."""

    name: str
    text: str

    @property
    def shoes_dealt(self) -> bool:
        """Whether the log's ``shoe`` column names shoes dealt through (tested as shoes)."""
        return self.name == SHOE


def assumed(config: Any, shoe_column: bool) -> Dealing:
    """The procedure the audit assumes for a paytable's dealing and a log's columns."""
    dealing = getattr(config, "dealing", None)
    if dealing is not None and every_round_from_full_shoe(dealing):
        option = (
            'dealing.shuffle = "continuous"'
            if getattr(dealing, "shuffle", "") == CONTINUOUS
            else "dealing.reshuffle_every_round = true"
        )
        column = ", whatever the log's shoe column says" if shoe_column else ""
        return Dealing(
            CONTINUOUS,
            f"continuous ({option}): every round is dealt from the full shoe{column}; "
            "rounds are independent",
        )
    if shoe_column:
        return Dealing(SHOE, "shoe: the log's shoe column names shoes dealt through")
    return Dealing(
        INDEPENDENT, "independent: no shoe column; rounds are independent deals from the full shoe"
    )


def continuous_notes(shoe_column: bool, wagers: bool, frequencies: bool = False) -> list[str]:
    """What a continuous shuffle leaves out, each in one line (``frequencies``: the rank and
    suit frequencies were tested over rounds, :mod:`odds.tools.audit.round_frequencies`)."""
    notes = []
    if shoe_column:
        notes.append(
            "continuous shuffle: shoe integrity is checked round by round (a round holding more "
            "of a card than the full shoe is rejected), not shoe by shoe: the shoe column is a "
            "label"
        )
        if not frequencies:
            notes.append(
                "continuous shuffle: rank and suit frequencies not tested: their null is the law "
                "of the cards one round deals (in a drawing game not the shoe's composition: a "
                "round with a third card holds more small cards), not built yet for this deal"
            )
        notes.append(
            "continuous shuffle: the shoe-aware and shuffle tests not run: no shoe state to "
            "exploit, nothing to find"
        )
    if wagers:
        notes.append(
            "continuous shuffle: wagers not tested: every round is dealt from the full shoe, so "
            "no wager can exploit a shoe state; nothing to find, no account named"
        )
    return notes


def session_hint(finding_kinds: dict[str, int]) -> list[str]:
    """Under ``shoe``, a shoe showing more of a card, or more cards, than a shoe holds is a
    finding (it flags the log), and it is also what a CSM's session looks like: the note
    names the option that reads the column as a session, never assuming it."""
    over = finding_kinds.get("shoe over", 0) + finding_kinds.get("card over", 0)
    if not over:
        return []
    return [
        f"shoe integrity: {over:,} finding(s) of a card or of cards beyond what a shoe holds; "
        "if the table deals from a continuous shuffling machine, its shoe column names "
        "sessions, not shoes: audit it with --set dealing.shuffle=continuous"
    ]
