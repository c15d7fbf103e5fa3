"""The version of odds (its own module, so it can be read before or without the package body)."""

__version__ = "0.1.0"
