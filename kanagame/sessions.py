"""The session store: Django's database sessions, read without the ORM's query compiler.

Every request of a signed-in user reads its session first; the cheap poll (two queries, most
of the traffic) spent about a third of its CPU on building that one query. This store reads
the row with SQL built from the ``Session`` model's fields (``accounts.rows``) and is otherwise
Django's ``db`` store: same table, same keys, same expiry, same writes.

    SESSION_ENGINE = "kanagame.sessions"
"""

from __future__ import annotations

from functools import cache

from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.utils import timezone

from kanagame.accounts.rows import Columns, column, sql_once, table_name
from kanagame.accounts.rows import fetch as rows_fetch


@cache
def _session_columns() -> Columns:
    return Columns(Session, "s")


@sql_once
def _session_sql() -> str:
    return (
        f"SELECT {_session_columns().sql()} FROM {table_name(Session)} s "
        f"WHERE s.{column(Session, 'session_key')} = %s "
        f"AND s.{column(Session, 'expire_date')} > %s"
    )


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        """Django's ``_get_session_from_db``: the unexpired row of the key, else None (and
        the key is dropped)."""
        columns = _session_columns()
        now = columns.param("expire_date", timezone.now())
        rows = rows_fetch(_session_sql(), [self.session_key, now], [columns])
        if not rows:
            self._session_key = None
            return None
        return rows[0][0]
