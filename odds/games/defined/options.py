"""The paytable of a defined game: the shoe, its declared options, the payouts, the dealing.

Each definition gets its own paytable schema (:func:`config_type`), made from the
options it declares (:mod:`odds.games.defined.readings`), so the paytables of a
defined game are read, overridden (``--set rules.kqj_mixed=jqk``), described,
enumerated by ``odds verify`` and solved exactly like a coded game's.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, make_dataclass
from fractions import Fraction
from typing import Any

from odds.core.caching import hash_once
from odds.core.options import build, option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import CutCardDealing
from odds.games.defined.readings import OptionDeclaration

_PAYOUTS_DOC = 'Payouts the definition\'s outcomes name (pays = "name"), to 1.'
_DIGEST_DOC = "SHA-256 of the game definition (its canonical JSON): the rules counted."


@dataclass(frozen=True)
class DefinedShoe(CardShoeOptions):
    """The shoe; its default number of decks is the definition's ``shoe.decks``."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class DefinedDealing(CutCardDealing):
    """How a shoe is dealt (``odds shoe``/``eor``/``exposure`` only; off-the-top odds ignore it).

    The shared cut-card options (14 cards behind the cut card, the turned card's
    burn, no burn per round, the round that draws the cut card the last or one more
    after it), or one round per shuffle (a one-deck game dealt
    from a freshly shuffled deck every round: the exposure is nil). ``shuffle =
    "continuous"`` (a continuous shuffling machine) deals every round from the full shoe
    too: the same procedure as ``reshuffle_every_round``, named as a table's equipment is,
    so that ``odds audit`` reads a log's ``shoe`` column as a session label, not a shoe.
    """

    cut_card: int = option(
        14,
        "Cards behind the cut card: when it comes out, the round being dealt is the shoe's "
        "last, then the shoe is reshuffled.",
        minimum=0,
    )
    burn_per_round: int = option(
        0, "Cards burned face down at the start of every round.", minimum=0, maximum=10
    )
    reshuffle_every_round: bool = option(
        False,
        "The cards are reshuffled after every round (one-deck games dealt from a fresh deck: "
        "a watching player learns nothing, the exposure is nil).",
    )
    shuffle: str = option(
        "shoe",
        "How the cards are shuffled:",
        choices={
            "shoe": "a shoe shuffled, then dealt round after round to the cut card (default; "
            "reshuffle_every_round = true: a fresh shuffle every round).",
            "continuous": "a continuous shuffling machine: every round's cards go back into "
            "it, so every round is dealt from the full shoe (what reshuffle_every_round = "
            "true deals; odds audit then ignores the log's shoe column).",
        },
    )
    last_round: str = option(
        "finish",
        "When the cut card comes out:",
        choices={
            "finish": "the round in progress is the last (default).",
            "one-more": "the round in progress is finished and one more round is dealt "
            "(baccarat's usual rule).",
        },
    )


@dataclass(frozen=True)
class DefinedConfig:
    """A defined game's paytable: the shoe, the payouts, dealing, and the definition's digest."""

    shoe: DefinedShoe = section(DefinedShoe, "The shoe.")
    payouts: dict[str, Fraction] = option({}, _PAYOUTS_DOC, minimum=0)
    dealing: DefinedDealing = section(DefinedDealing, "Dealing a shoe (shoe-state studies).")
    definition_sha256: str = option("", _DIGEST_DOC)


#: What a declared section's doc says (``odds games`` lists options, not sections).
_SECTION_DOCS = {"rules": "Rule readings.", "payouts": "Payouts.", "bets": "Bets offered.",
                 "tableau": "The drawing rules."}  # fmt: skip


def config_type(
    game: str,
    decks: int,
    digest: str,
    declarations: Sequence[OptionDeclaration],
    tiles: tuple[str, Any, Any] | None = None,
    dealing_type: type[Any] = DefinedDealing,
    dealing_defaults: Sequence[tuple[str, Any]] = (),
) -> type[Any]:
    """The paytable of one definition: its shoe (the definition's decks by default), the
    sections its options declare (in declaration order), the payouts, dealing, the digest.

    A definition that declares no ``payouts`` options keeps the free table of payouts its
    outcomes name (``pays = "two_cards"``); one that does has them as documented options.
    A tile game's set (``tiles``: its ``[tiles]`` field, odds.games.defined.tile_schema)
    takes the shoe's place, and its ``dealing_type`` deals a set. ``dealing_defaults``
    (``[definition.dealing]``) are the game's own defaults of the dealing options.
    """
    stem = "".join(part.capitalize() for part in re.split(r"[^a-zA-Z0-9]+", game)) or "Defined"
    shoe = make_dataclass(
        f"{stem}Shoe", [("decks", int, decks_option(decks))], bases=(DefinedShoe,), frozen=True
    )
    sections: dict[str, list[tuple[str, Any, Any]]] = {}
    for d in declarations:
        # a list's items are listed (odds games, their meanings) where each has a meaning
        described = all(m.strip() for m in d.choices.values())
        choices = d.choices if d.kind in ("choice", "list") and described else None
        sections.setdefault(d.section, []).append(
            (d.key, d.python_type(),
             option(d.default, d.meaning, choices=choices, minimum=d.minimum,
                    maximum=d.maximum)),
        )  # fmt: skip
    fields: list[tuple[str, Any, Any]] = [tiles or ("shoe", shoe, section(shoe, "The shoe."))]
    for name, entries in sections.items():
        cls = make_dataclass(f"{stem}{name.capitalize()}", entries, frozen=True)
        fields.append((name, cls, section(cls, _SECTION_DOCS.get(name, "Options."))))
    if "payouts" not in sections:
        fields.append(("payouts", dict[str, Fraction], option({}, _PAYOUTS_DOC, minimum=0)))
    dealing_type = _with_defaults(dealing_type, dealing_defaults, f"{stem}Dealing")
    dealing = section(dealing_type, "Dealing a shoe (shoe-state studies).")
    fields += [
        ("dealing", dealing_type, dealing),
        ("definition_sha256", str, option(digest, _DIGEST_DOC)),
    ]
    # A tile game's set is read where a card game's shoe is (``config.shoe.build()``).
    namespace = {"shoe": property(lambda config: config.tiles)} if tiles else None
    made: type[Any] = hash_once(
        make_dataclass(f"{stem}Config", fields, frozen=True, namespace=namespace)
    )
    return made


def _with_defaults(cls: type[Any], defaults: Sequence[tuple[str, Any]], name: str) -> type[Any]:
    """``cls`` with other defaults for some of its options (each value checked as a paytable's
    would be: ``definition.dealing.cut_card = -1`` is refused in one line)."""
    if not defaults:
        return cls
    checked = build(cls, dict(defaults), "definition.dealing")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    entries = []
    for key, _ in defaults:
        meta = fields[key].metadata
        default = option(getattr(checked, key), meta["doc"], choices=meta["choices"] or None,
                         minimum=meta["minimum"], maximum=meta["maximum"])  # fmt: skip
        entries.append((key, hints[key], default))
    made: type[Any] = make_dataclass(name, entries, bases=(cls,), frozen=True)
    made.__doc__ = cls.__doc__
    return made


def payout_values(config: Any) -> dict[str, Fraction]:
    """Every payout an outcome may name: numbers by name, a table's entries as ``table.key``."""
    payouts = config.payouts
    if isinstance(payouts, Mapping):
        return dict(payouts)
    found: dict[str, Fraction] = {}
    for f in dataclasses.fields(payouts):
        value = getattr(payouts, f.name)
        if isinstance(value, Fraction):
            found[f.name] = value
        elif isinstance(value, Mapping):
            found.update({f"{f.name}.{k}": v for k, v in value.items() if isinstance(v, Fraction)})
    return found
