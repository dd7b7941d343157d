"""Django's SQLite backend, whose cursor keeps each statement's ``%s`` → ``?`` conversion.

Django's ``SQLiteCursorWrapper`` rewrites every statement's ``%s`` placeholders into SQLite's
``?`` with a regular expression over the whole text, on every ``execute``: 2.6 % of a move's
instructions (docs/bench.md, "Counting instructions"), while the product runs the same few
statement texts again and again. The conversion is a pure function of the text, so it is kept
per text (``functools.lru_cache``, bounded): a process that has not seen a text converts it as
Django does. Statements with named parameters (``%(name)s``) go through Django's own code.
PostgreSQL is untouched (psycopg reads ``%s`` itself).
"""

from __future__ import annotations

from functools import lru_cache

from django.db.backends.sqlite3 import base

CONVERTED_KEPT = 512  # distinct statement texts; the product runs a few dozen


@lru_cache(maxsize=CONVERTED_KEPT)
def format_to_qmark(query: str) -> str:
    """``query`` in SQLite's "qmark" style, as Django's ``convert_query`` makes it."""
    return base.FORMAT_QMARK_REGEX.sub("?", query).replace("%%", "%")


class SQLiteCursorWrapper(base.SQLiteCursorWrapper):
    def convert_query(self, query, *, param_names=None):
        if param_names is None:
            return format_to_qmark(query)
        return super().convert_query(query, param_names=param_names)


class DatabaseWrapper(base.DatabaseWrapper):
    def create_cursor(self, name=None):
        return self.connection.cursor(factory=SQLiteCursorWrapper)
