"""The report tables a definition's deal calls for, beside its bets (any definition, no game's own).

* a tableau deal: the drawing tableau, the coups by winner and cards dealt, the final
  totals (:mod:`odds.games.defined.tableau_tables`);
* two positions of fixed-size hands ranked by categories: the hand order used, the
  showdown of one hand against the other by category, and each hand class's exact
  chance of beating one hand (:mod:`odds.games.defined.showdown_tables`).

The category table every definition with categories has stays in
:mod:`odds.games.defined.game` (it is the definition's check that every category occurs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from odds.core.table import Table

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig


def analysis_tables(game: DefinedGame, config: DefinedConfig, shoe: Any) -> list[Table]:
    """The tables of the definition's deal, for the paytable's shoe (none for other deals)."""
    definition = game.definition
    if definition.deal.tableau is not None:
        from odds.games.defined.tableau_tables import tableau_tables

        return list(tableau_tables(definition, shoe.types, shoe.counts))
    if definition.deal.until_match is not None:
        from odds.games.defined.until_match import law_table

        return [law_table(definition, shoe.types, shoe.counts)]
    from odds.games.defined import showdown_tables

    if showdown_tables.applies(definition):
        return list(showdown_tables.showdown_report_tables(definition, shoe, game.name))
    return []


def defined_strength(game: DefinedGame) -> Any:
    """``odds strength`` for a definition that ranks two hands by categories, else ``None``."""
    from odds.games.defined import showdown_tables

    if not showdown_tables.applies(game.definition):
        return None
    from odds.games.defined.strength import DefinedStrength

    return DefinedStrength(game)
