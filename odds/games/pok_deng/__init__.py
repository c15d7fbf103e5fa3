"""Pok Deng (live dealer, 8 decks): two cards each, every position against the Banker."""
