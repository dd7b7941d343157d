"""The board page of a table: GET shows it, POST plays a move; plus poll, join, leave, start.

One view per page handles GET and POST (django-htmx-patterns). With HTMX the response is the
board partial (``games/table.html#board``); without it a successful POST redirects back to the
page (Post/Redirect/Get) and a refused one renders the page with the message and its status.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseStopPolling

from games.boards.common import Romaji
from games.models import BotLevel, Seat, Table, TableStatus
from games.panels import table_panels
from games.selectors import Access, table_access, table_unchanged_since, table_with_seats
from games.services.play import PlayError, seats_of, table_play, table_timeouts_run
from games.services.tables import (
    TableError,
    may_start,
    seat_return,
    table_again,
    table_join,
    table_leave,
    table_start,
)
from games.views.common import TableInfo, board_for, new_token, players_of
from kanagame.accounts.services import rate_count, rate_take
from kanagame.accounts.views import client_ip
from kanagame.classes.selectors import in_class

POLL_FAST_S = 2
POLL_HIDDEN_S = 15


# Guessing table codes is slowed down like guessing join codes (docs/security.md §8): unknown
# codes per client address, counted in the shared database counter; over the limit every
# table-code URL answers 429, hits included, so a guesser cannot tell a hit from a refusal.
TABLE_CODE_FAILURES_LIMIT = 20
TABLE_CODE_WINDOW = 600


class TableCodeLocked(Exception):
    """This client tried too many unknown table codes (answered 429 by `code_limited`)."""


def _code_key(request: HttpRequest) -> str:
    return f"table-code:{client_ip(request)}"


def _table(code: str, request: HttpRequest, *, with_seats: bool = False) -> Any:
    """The table of ``code`` (None if there is none), with its seats by index when
    ``with_seats`` (``table_with_seats``: one query for both)."""
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


def code_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A 429 page for a client over the table-code limit, whatever the view was doing."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except TableCodeLocked:
            message = _("Too many unknown table codes. Wait a few minutes and try again.")
            response = _error_page(request, message, 429)
            response["Retry-After"] = str(TABLE_CODE_WINDOW)
            return response

    return wrapped


def _error_page(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return render(request, "games/error.html", {"message": message}, status=status)


# --- the cheap poll -----------------------------------------------------------------------
# A page polls its table every 2 s, and nearly every answer is "nothing changed" (204). That
# answer needs neither the user row nor the access check: the session remembers the tables it
# was shown (by code, after the full access check), and one indexed read compares the version.
# Any other case (a change, a waiting or finished table, an overdue turn, a table this session
# was never shown) takes the full path with every check. Revoked access (a pupil removed from
# a class) keeps hearing "nothing changed" until the table changes, then is refused: a 204
# reveals nothing. docs/web.md, "Polls"; docs/bench.md, "Classroom load".
SHOWN_TABLES_KEY = "games.shown_tables"
SHOWN_TABLES_KEPT = 16


def _remember_shown(request: HttpRequest, table: Table) -> None:
    shown = request.session.get(SHOWN_TABLES_KEY) or {}
    if shown.get(table.code) == table.pk:
        return  # no session write on the usual request
    shown = dict(list(shown.items())[-(SHOWN_TABLES_KEPT - 1) :])
    shown[table.code] = table.pk
    request.session[SHOWN_TABLES_KEY] = shown


def _poll_unchanged(request: HttpRequest, code: str) -> bool:
    session = request.session
    if SESSION_KEY not in session:
        return False
    table_id = (session.get(SHOWN_TABLES_KEY) or {}).get(code.strip().upper())
    tag = request.GET.get("v", "")
    if table_id is None or not tag:
        return False
    return table_unchanged_since(table_id=table_id, tag=tag, now=timezone.now())


def _context(
    request: HttpRequest,
    table: Table,
    access: Access,
    error: str = "",
    *,
    seats: dict[int, Seat] | None = None,
    state: Any = None,
    view: Any = None,
) -> dict:
    """The board page's context. ``seats`` (``seats_of``), ``state`` (the engine state at
    ``table.version``) and the viewer's ``view`` of it when the caller has them: no second
    read, parse or view."""
    seat = access.seat
    _remember_shown(request, table)
    info = TableInfo.of(table)
    context = {
        "info": info,
        "can_join": access.can_join,
        "can_start": seat is not None
        and table.status == "open"
        and may_start(table=table, user=request.user),
        "me": seat.index if seat is not None else None,
        "away": bool(seat and seat.autoplay),
        "token": new_token(),
        "error": error,
        "poll_fast": POLL_FAST_S,
        "poll_hidden": POLL_HIDDEN_S,
        "bot_levels": BotLevel.choices,
        "prompts": [],
        "table_id": table.pk,
        "prompts_next": info.url,  # table.get_absolute_url(), reversed once
        "poll_tag": poll_tag(table),
        "players": players_of(
            table, seat.index if seat is not None else None, seats.values() if seats else None
        ),
    }
    if table.status == TableStatus.OPEN:  # who is waiting shares the table: its address
        context["share_url"] = request.build_absolute_uri(info.url)
    if seat is not None and table.status != TableStatus.OPEN:
        context.update(table_panels(user=request.user, table_id=table.pk))
    # While a kana question is open, no card shows its romaji: the answer is never on screen
    # (the question's kana may be on any card, in a word, in the log); and the board names
    # none of the kana it asks about in its log, family names or listen buttons.
    romaji = None
    if context.get("prompts"):
        hidden = frozenset().union(*(getattr(p, "hides", ()) for p in context["prompts"]))
        romaji = Romaji("never", hidden)
    if table.status == TableStatus.FINISHED:
        # The questions belong to the game being played: at the result, those still open
        # would cover it (a bottom sheet on a phone); they expire unanswered, never graded.
        context["prompts"] = []
    if table.state is not None:
        context["board"] = board_for(
            table=table,
            seat=seat,
            state=state,
            view=view if state is not None else None,
            players=context["players"],
            romaji=romaji,
        )
    return context


def poll_tag(table: Table) -> str:
    """What the page shows, as the poll compares it: the version, or for a waiting table the
    number of seats taken (joins change no version)."""
    if table.status == "open":
        return f"o{table.seats.exclude(user__isnull=True, bot_level='').count()}"
    return str(table.version)


def _board_response(
    request: HttpRequest,
    table: Table,
    access: Access,
    *,
    error: str = "",
    status: int = 200,
    seats: dict[int, Seat] | None = None,
    state: Any = None,
    view: Any = None,
) -> HttpResponse:
    template = "games/table.html#board" if request.htmx else "games/table.html"
    context = _context(request, table, access, error, seats=seats, state=state, view=view)
    return render(request, template, context, status=status)


@dataclass
class _Loaded:
    """A table of the URL with its seats (by index, with their users' profiles), read once
    per request, and what the viewer may do there."""

    table: Table
    seats: dict[int, Seat]
    access: Access


def _load(request: HttpRequest, code: str) -> tuple[_Loaded | None, HttpResponse]:
    found = _table(code, request, with_seats=True)
    if found is None:
        return None, _error_page(request, _("There is no table with this code."), 404)
    table, seats = found
    access = table_access(table=table, user=request.user, seats=seats.values())
    if not access.allowed:
        return None, refusal_page(request, table, joining=False)
    return _Loaded(table=table, seats=seats, access=access), HttpResponse()


def refusal_page(request: HttpRequest, table: Table, *, joining: bool) -> HttpResponse:
    """Why ``request.user`` may not see (or join) ``table``, most fundamental reason first.

    Someone outside the table's class learns only that it belongs to another class (403), not
    whether it is under way; a classmate or a link holder learns that it has started or ended
    (409 when joining) or that they have no seat at it (403).
    """
    if table.classroom_id is not None and not (
        in_class(user=request.user, classroom_id=table.classroom_id)
    ):
        return _error_page(request, _("This table belongs to another class."), 403)
    if joining and table.status == "finished":
        return _error_page(request, _("This game is over."), 409)
    if joining and table.status != "open":
        return _error_page(request, _("This game has already started."), 409)
    if joining:
        return _error_page(request, _("You may not join this table."), 403)
    return _error_page(request, _("You are not playing at this table."), 403)


@login_required
@code_limited
@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    loaded, refusal = _load(request, code)
    if loaded is None:
        return refusal
    table, access = loaded.table, loaded.access
    if request.method == "POST":
        return _play(request, loaded)
    if access.seat is not None and not request.htmx:
        # Opening the page is coming back: a CPU stand-in stops playing for this seat.
        if access.seat.autoplay or access.seat.left_at:
            seat_return(seat=access.seat)
            table.refresh_from_db()
    return _board_response(request, table, access, seats=loaded.seats)


def _play(request: HttpRequest, loaded: _Loaded) -> HttpResponse:
    table, access = loaded.table, loaded.access
    if access.seat is None:
        return _board_response(
            request, table, access, error=_("You have no seat at this table."), status=403
        )
    try:
        result = table_play(
            table=table,
            user=request.user,
            version=request.POST.get("version"),
            token=request.POST.get("token", ""),
            key=request.POST.get("action"),
            seats=loaded.seats,
        )
    except PlayError as exc:
        table.refresh_from_db()
        seats = seats_of(table)
        access = table_access(table=table, user=request.user, seats=seats.values())
        return _board_response(
            request, table, access, error=exc.message, status=exc.status, seats=seats
        )
    if not request.htmx:
        return redirect(table.get_absolute_url(), permanent=False)
    # The table as the service saved it (the CPU replies included in eager mode); the seats
    # read for the move are still those of the table (a move changes no seat but the mover's,
    # which the service updated in place).
    view = result.views.get(access.seat.index)
    return _board_response(
        request, result.table, access, seats=loaded.seats, state=result.state, view=view
    )


@require_GET
def table_poll(request: HttpRequest, code: str) -> HttpResponse:
    """204 while the version is ``v``; the new board otherwise; 286 once the game is over."""
    if _poll_unchanged(request, code):
        return HttpResponse(status=204)
    return _table_poll(request, code)


@login_required
@code_limited
def _table_poll(request: HttpRequest, code: str) -> HttpResponse:
    loaded, refusal = _load(request, code)
    if loaded is None:
        return refusal
    table, seats, access = loaded.table, loaded.seats, loaded.access
    seen = request.GET.get("v", "")
    if not seen:
        return HttpResponse(_("The poll needs the version the page shows (?v=)."), status=400)
    if table.turn_due_at is not None and table.turn_due_at <= timezone.now():
        # Overdue turn: a CPU stand-in plays (no beat needed); seats may be away now.
        table_timeouts_run(table=table)
        seats = seats_of(table)
        access = table_access(table=table, user=request.user, seats=seats.values())
    if seen == poll_tag(table) and table.status != "finished":
        return HttpResponse(status=204)
    context = _context(request, table, access, seats=seats)
    response = render(request, "games/table.html#board", context)
    if table.status == "finished":
        return HttpResponseStopPolling(response.content)
    return response


@login_required
@code_limited
@require_POST
def table_join_view(request: HttpRequest, code: str) -> HttpResponse:
    table = _table(code, request)
    if table is None:
        return _error_page(request, _("There is no table with this code."), 404)
    access = table_access(table=table, user=request.user)
    if access.seat is None and not access.can_join:
        return refusal_page(request, table, joining=True)
    try:
        table_join(table=table, user=request.user)
    except TableError as exc:
        return _error_page(request, exc.message, exc.status)
    return redirect(table.get_absolute_url())


@login_required
@code_limited
@require_POST
def table_leave_view(request: HttpRequest, code: str) -> HttpResponse:
    table = _table(code, request)
    if table is None:
        return _error_page(request, _("There is no table with this code."), 404)
    playing_ranked = table.ranked and table.is_playing
    try:
        table_leave(table=table, user=request.user)
    except TableError as exc:
        return _error_page(request, exc.message, exc.status)
    if playing_ranked:
        messages.warning(
            request,
            _("You left a ranked game: it counts as a loss, and a CPU player plays your seat."),
        )
        return redirect("games:lobby")
    messages.success(request, _("You left the table. Your seat is kept if the game goes on."))
    return redirect("games:lobby")


@login_required
@code_limited
@require_POST
def table_again_view(request: HttpRequest, code: str) -> HttpResponse:
    """ "Play again" under a result: a new table like this one (games.services.table_again)."""
    loaded, refusal = _load(request, code)  # outsiders learn nothing of its state
    if loaded is None:
        return refusal
    try:
        table = table_again(table=loaded.table, user=request.user)
    except (TableError, ValueError) as exc:
        return _error_page(request, getattr(exc, "message", str(exc)), getattr(exc, "status", 400))
    return redirect(table.get_absolute_url())


@login_required
@code_limited
@require_POST
def table_start_view(request: HttpRequest, code: str) -> HttpResponse:
    loaded, refusal = _load(request, code)  # outsiders learn nothing of its state
    if loaded is None:
        return refusal
    table = loaded.table
    try:
        table_start(table=table, user=request.user, bot_level=request.POST.get("level", "normal"))
    except TableError as exc:
        return _error_page(request, exc.message, exc.status)
    return redirect(table.get_absolute_url())


@login_required
@code_limited
@require_POST
def table_back_view(request: HttpRequest, code: str) -> HttpResponse:
    """ "I'm back": the CPU stand-in stops playing for this seat."""
    table = _table(code, request)
    if table is None:
        return _error_page(request, _("There is no table with this code."), 404)
    seat = table.seats.filter(user=request.user).first()
    if seat is None:
        return _error_page(request, _("You have no seat at this table."), 403)
    seat_return(seat=seat)
    if request.htmx:
        table.refresh_from_db()
        return _board_response(request, table, table_access(table=table, user=request.user))
    return redirect(table.get_absolute_url())
