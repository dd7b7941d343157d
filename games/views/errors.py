"""One way for the game pages to answer a refusal: the error page, with the right status.

A view (or what it calls) raises; ``table_errors`` turns the exception into the page:

- ``PageError(message, status)``: raised by the views' own checks (no such table, no seat,
  not your class's table: ``refusal``);
- the services' ``TableError`` and ``PlayError`` (their ``message`` and ``status``);
- ``TableCodeLocked``: this client tried too many unknown table codes: 429 with
  ``Retry-After``, whatever the view was doing (docs/security.md §8).

Every table view is wrapped in it (board, poll, join, leave, start, again, back, replay, the
lobby's join by code), so none builds an error page by hand. A refused move is the exception:
the board answers it with the fresh board and the message (``games.views.board``), as
ARCHITECTURE §3 asks of a stale version.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from games.models import Table
from games.services.play import PlayError
from games.services.tables import TableError
from kanagame.classes.selectors import in_class

# Guessing table codes is slowed down like guessing join codes (docs/security.md §8): unknown
# codes per client address, counted in the shared database counter; over the limit every
# table-code URL answers 429, hits included, so a guesser cannot tell a hit from a refusal.
TABLE_CODE_FAILURES_LIMIT = 20
TABLE_CODE_WINDOW = 600


class PageError(Exception):
    """A request the page refuses: ``message`` shown on the error page, HTTP ``status``."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class TableCodeLocked(Exception):
    """This client tried too many unknown table codes (answered 429 by ``table_errors``)."""


def error_page(request: HttpRequest, message: str, status: int) -> HttpResponse:
    """The games' error page (a full page; with HTMX too: the error replaces the target)."""
    return render(request, "games/error.html", {"message": message}, status=status)


def table_errors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Answer the refusals ``view`` raises with the error page and their status."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except TableCodeLocked:
            message = _("Too many unknown table codes. Wait a few minutes and try again.")
            response = error_page(request, message, 429)
            response["Retry-After"] = str(TABLE_CODE_WINDOW)
            return response
        except (PageError, TableError, PlayError) as exc:
            return error_page(request, exc.message, exc.status)

    wrapped.maps_table_errors = True  # tests/test_web_layer.py finds it on every table view
    return wrapped


def no_such_table() -> PageError:
    return PageError(_("There is no table with this code."), 404)


def refusal(user, table: Table, *, joining: bool) -> PageError:
    """Why ``user`` may not see (or join) ``table``, most fundamental reason first.

    Someone outside the table's class learns only that it belongs to another class (403), not
    whether it is under way; a classmate or a link holder learns that it has started or ended
    (409 when joining) or that they have no seat at it (403).
    """
    if table.classroom_id is not None and not in_class(user=user, classroom_id=table.classroom_id):
        return PageError(_("This table belongs to another class."), 403)
    if joining and table.status == "finished":
        return PageError(_("This game is over."), 409)
    if joining and table.status != "open":
        return PageError(_("This game has already started."), 409)
    if joining:
        return PageError(_("You may not join this table."), 403)
    return PageError(_("You are not playing at this table."), 403)
