"""``JSONField``: Django's, encoding and decoding with ``orjson`` (docs/architecture.md,
"JSON columns").

Every move writes the table's state (its whole log) and every request that draws a table reads
it: with the standard library's ``json`` that was ~11 % of a move's instructions in a long
game (docs/bench.md, "Session 25"). ``orjson`` does the same work several times faster. What is
stored is the same JSON document: the keys in the same order, the same numbers, strings and
nesting; only its text differs (kana are written as UTF-8 instead of ``\\u`` escapes, and no
spaces). Both encodings decode to equal values, so rows written before are read as before.

What ``orjson`` does not take is left to ``json``, so a value is stored and read exactly as
Django's own field would: integers beyond 64 bits, and ``NaN`` or ``Infinity`` in old rows.
Dates, times and dataclasses are refused, as ``json`` refuses them (``orjson`` alone would
write them as strings, and they would come back as strings). One difference is kept: a float
``NaN`` is written as ``null`` (``json`` wrote ``NaN``, which is not JSON and which PostgreSQL
refuses). A field with its own ``encoder`` or ``decoder`` uses Django's path unchanged.

The field deconstructs as ``django.db.models.JSONField``: the column and what migrations know
of it are Django's (no migration, no table rebuild on SQLite).
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform
from psycopg.types.json import Jsonb

_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)


def _refuse(value: Any) -> Any:
    """``orjson``'s ``default``: what it cannot encode goes to ``json`` (see ``dumps``)."""
    raise TypeError


def dumps(value: Any) -> str:
    """``value`` as JSON text: ``json.dumps(value)``'s document (see the module's note)."""
    try:
        return orjson.dumps(value, default=_refuse, option=_OPTIONS).decode()
    except TypeError:  # orjson.JSONEncodeError: a big integer, a date... json decides
        return json.dumps(value)


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``'s value; ``json`` reads what ``orjson`` refuses (``NaN``, big
    integers) and raises ``json.JSONDecodeError`` on text that is not JSON."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


class JSONField(models.JSONField):
    """``models.JSONField`` through ``dumps`` and ``loads`` (see the module's note)."""

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            return Jsonb(value, dumps=dumps)  # what the backend's adapt_json_value builds
        if connection.vendor == "sqlite":
            return dumps(value)
        return super().get_db_prep_value(value, connection, prepared=True)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or self.decoder is not None:
            return super().from_db_value(value, expression, connection)
        # SQLite extracts a key's non-string values in their SQL types (as Django's field)
        if isinstance(expression, KeyTransform) and not isinstance(value, str):
            return value
        try:
            return loads(value)
        except json.JSONDecodeError:
            return value

    def deconstruct(self) -> tuple[str, str, list, dict]:
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.JSONField", args, kwargs
