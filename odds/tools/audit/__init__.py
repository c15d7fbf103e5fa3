"""Auditor's toolkit: verify stated figures, audit dealt rounds, solve paytables."""
