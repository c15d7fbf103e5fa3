"""Every command's ``--format json``: one document built from the command's tables.

A command's output is a list of :class:`odds.core.table.Table` s — the same
tables its Markdown and CSV come from — and :func:`document` is the one place
they become JSON, so every command follows the same conventions:

* each table sits under its key (dotted keys nest: ``positions.combined``), as
  :func:`odds.core.table.json_value` renders it (records, or a mapping keyed by
  the table's ``json_index``);
* a :attr:`~odds.core.table.Table.json_fields` table (a command's facts: its
  paytable, its verdict) spreads its one record at the top of the document;
* exact numbers are fraction strings, each with its nearest double beside it
  (``ev`` and ``ev_decimal``); counts are integers; approximations are floats;
* ``version`` — and, for a document made by a command, the ``command`` that
  reproduces it and its ``overrides`` — appear once: first, unless the tables
  place them (a report names them after its digests, as its header does).

Two tables that would write the same key are a bug (a ``ValueError``), never a
silently lost field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

from odds.core.table import Column, Kind, Table, fields_table, json_value
from odds.core.version import __version__
from odds.output.provenance import Provenance

#: The key of the table that says which ``odds`` made the document and how.
VERSION_KEY = "version"


def version_table(provenance: Provenance | None = None) -> Table:
    """``version``, then (a document made by a command) ``command`` and ``overrides``."""
    fields: list[tuple[Column, Any]] = [(Column("version", "version"), __version__)]
    if provenance is not None:
        fields += [
            (Column("command", "command"), provenance.command),
            (Column("overrides", "overrides", Kind.LIST, json_null=True), provenance.overrides),
        ]
    return fields_table(VERSION_KEY, "How this document was made", fields)


def document(tables: Sequence[Table], provenance: Provenance | None = None) -> dict[str, Any]:
    """The JSON document of ``tables``, in their order, with the version (and provenance) once.

    ``provenance`` is used only when no table already is the :func:`version_table`.
    """
    if not any(t.key == VERSION_KEY and t.json_fields for t in tables):
        tables = [version_table(provenance), *tables]
    data: dict[str, Any] = {}
    for table in tables:
        value = json_value(table)
        if table.json_fields:
            _merge(data, value, table.key)
        else:
            _place(data, table.key, value)
    return data


def json_text(tables: Sequence[Table], provenance: Provenance | None = None) -> str:
    """:func:`document` as text: two-space indents, UTF-8 as it is, one final newline."""
    return dumps(document(tables, provenance))


def dumps(data: Any) -> str:
    """The one way a JSON document is printed (what :func:`json_text` prints)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_records(handle: IO[str], records: Iterable[Mapping[str, Any]]) -> int:
    """A JSON array streamed to ``handle``, one record per line; the number of records.

    For data too long to hold (``odds simulate --format json``: a round log of
    millions of rows): no record is held back, and the text still parses as one array.
    """
    count = 0
    handle.write("[")
    for record in records:
        handle.write(("\n" if not count else ",\n") + json.dumps(record, ensure_ascii=False))
        count += 1
    handle.write("\n]\n")
    return count


def _place(data: dict[str, Any], key: str, value: Any) -> None:
    """``value`` under ``key``; dots nest, and two mappings at one key are merged."""
    *parents, leaf = key.split(".")
    target = data
    for part in parents:
        target = target.setdefault(part, {})
        if not isinstance(target, dict):
            raise ValueError(f"table {key}: {part!r} is already a value, not a mapping")
    if leaf in target:
        if not (isinstance(target[leaf], dict) and isinstance(value, dict)):
            raise ValueError(f"table {key}: the key {leaf!r} is already in the document")
        _merge(target[leaf], value, key)
        return
    target[leaf] = value


def _merge(target: dict[str, Any], fields: dict[str, Any], key: str) -> None:
    for name, value in fields.items():
        if name in target:
            raise ValueError(f"table {key}: the key {name!r} is already in the document")
        target[name] = value
