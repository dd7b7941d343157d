"""Finding the table of a URL's code, for every table view: counted against guessers, and
checked for what the viewer may do there. Refusals are raised (``games.views.errors``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

from games.models import Seat, Table
from games.selectors import Access, table_access, table_with_seats
from games.views.errors import (
    TABLE_CODE_FAILURES_LIMIT,
    TABLE_CODE_WINDOW,
    TableCodeLocked,
    no_such_table,
    refusal,
)
from kanagame.accounts.services import rate_count, rate_take
from kanagame.accounts.views import client_ip

# The tables this session was shown after the full access check (code -> id): the cheap poll
# reads it (games.views.board), and a code in it is no guess.
SHOWN_TABLES_KEY = "games.shown_tables"


def _code_key(request: HttpRequest) -> str:
    return f"table-code:{client_ip(request)}"


def table_lookup(code: str, request: HttpRequest, *, with_seats: bool = False) -> Any:
    """The table of ``code`` (None if there is none), with its seats by index when
    ``with_seats`` (``table_with_seats``: one query for both). An unknown code counts against
    the client's address; over the limit, ``TableCodeLocked``."""
    code = code.strip().upper()[:12]
    key = _code_key(request)
    # A table this session was shown (after the full checks) is no guess: its code is not
    # counted against the client, and a guesser learns nothing from it (they had it already).
    known = code in (request.session.get(SHOWN_TABLES_KEY) or {})
    if not known and rate_count(key=key) >= TABLE_CODE_FAILURES_LIMIT:
        raise TableCodeLocked
    if with_seats:
        found = table_with_seats(code=code)
    else:  # no ORDER BY: the code is unique (the default ordering would cost a sort)
        found = next(iter(Table.objects.filter(code=code).order_by()[:1]), None)
    if found is None:
        rate_take(key=key, limit=TABLE_CODE_FAILURES_LIMIT, window_seconds=TABLE_CODE_WINDOW)
    return found


def table_found(code: str, request: HttpRequest) -> Table:
    """The table of ``code``; 404 (``PageError``) when there is none."""
    table = table_lookup(code, request)
    if table is None:
        raise no_such_table()
    return table


@dataclass
class Loaded:
    """A table of the URL with its seats (by index, with their users' profiles), read once
    per request, and what the viewer may do there."""

    table: Table
    seats: dict[int, Seat]
    access: Access


def table_loaded(code: str, request: HttpRequest) -> Loaded:
    """The table of ``code`` with its seats, if the viewer may see it: 404 when there is
    none, the refusal (``errors.refusal``) when they may not; outsiders learn nothing of its
    state."""
    found = table_lookup(code, request, with_seats=True)
    if found is None:
        raise no_such_table()
    table, seats = found
    access = table_access(table=table, user=request.user, seats=seats.values())
    if not access.allowed:
        raise refusal(request.user, table, joining=False)
    return Loaded(table=table, seats=seats, access=access)
