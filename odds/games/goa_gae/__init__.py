"""Goa Gae (Kao Gae, "9K"): three cards each, one position against the dealer."""

from odds.games.goa_gae.game import GoaGae

GAME = GoaGae()
