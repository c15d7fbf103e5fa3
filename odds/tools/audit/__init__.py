"""``odds audit``: the rounds of a log against the exact odds, read at any size with DuckDB."""
