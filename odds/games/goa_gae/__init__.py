"""Goa Gae (Kao Gae, "9K"): three cards each, one position against the dealer."""
