"""odds: exact combinatorial odds for Asian live-casino games.

Integers count ways, :class:`fractions.Fraction` carries probabilities, floats
appear only when printing.
"""

__version__ = "0.1.0"
