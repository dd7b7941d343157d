"""The board page of a table: GET shows it, POST plays a move; plus poll, join, leave, start.

One view per page handles GET and POST (django-htmx-patterns). With HTMX the response is the
board partial (``games/table.html#board``); without it a successful POST redirects back to the
page (Post/Redirect/Get) and a refused one renders the page with the message and its status.
"""

from __future__ import annotations

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
from games.selectors import Access, table_access, table_unchanged_since
from games.services.play import PlayError, seats_of, table_play, table_timeouts_run
from games.services.tables import (
    may_start,
    seat_return,
    table_again,
    table_join,
    table_leave,
    table_start,
)
from games.views.common import TableInfo, board_for, new_token, players_of
from games.views.errors import (
    TABLE_CODE_FAILURES_LIMIT,  # noqa: F401 - read here by tests
    PageError,
    refusal,
    table_errors,
)
from games.views.lookup import SHOWN_TABLES_KEY, Loaded, table_found, table_loaded

POLL_FAST_S = 2
POLL_HIDDEN_S = 15


# --- the cheap poll -----------------------------------------------------------------------
# A page polls its table every 2 s, and nearly every answer is "nothing changed" (204). That
# answer needs neither the user row nor the access check: the session remembers the tables it
# was shown (by code, after the full access check), and one indexed read compares the version.
# Any other case (a change, a waiting or finished table, an overdue turn, a table this session
# was never shown) takes the full path with every check. Revoked access (a pupil removed from
# a class) keeps hearing "nothing changed" until the table changes, then is refused: a 204
# reveals nothing. docs/web.md, "Polls"; docs/bench.md, "Classroom load".
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
    handover: dict | None = None,
) -> dict:
    """The board page's context. ``seats`` (``seats_of``), ``state`` (the engine state at
    ``table.version``) and the viewer's ``view`` of it when the caller has them: no second
    read, parse or view; ``handover``: what the learning hook of this request's move read
    (``PlayResult.handover``), for the panels."""
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
        context.update(table_panels(user=request.user, table_id=table.pk, handover=handover))
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
    returning: bool = False,
    handover: dict | None = None,
) -> HttpResponse:
    template = "games/table.html#board" if request.htmx else "games/table.html"
    context = _context(
        request, table, access, error, seats=seats, state=state, view=view, handover=handover
    )
    seat = access.seat
    # Opening the page is coming back (a CPU stand-in stops playing for this seat), but a GET
    # changes nothing: the page posts "I'm back" as it loads (docs/web.md, "GETs never write").
    context["returning"] = (
        returning and not request.htmx and seat is not None and bool(seat.autoplay or seat.left_at)
    )
    return render(request, template, context, status=status)


@login_required
@table_errors
@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    loaded = table_loaded(code, request)
    table, access = loaded.table, loaded.access
    if request.method == "POST":
        return _play(request, loaded)
    return _board_response(request, table, access, seats=loaded.seats, returning=True)


def _play(request: HttpRequest, loaded: Loaded) -> HttpResponse:
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
        request,
        result.table,
        access,
        seats=loaded.seats,
        state=result.state,
        view=view,
        handover=result.handover,
    )


@table_errors
@require_GET
def table_poll(request: HttpRequest, code: str) -> HttpResponse:
    """204 while the version is ``v``; the new board otherwise; 286 once the game is over."""
    if _poll_unchanged(request, code):
        return HttpResponse(status=204)
    return _table_poll(request, code)


@login_required
def _table_poll(request: HttpRequest, code: str) -> HttpResponse:
    loaded = table_loaded(code, request)
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
@table_errors
@require_POST
def table_join_view(request: HttpRequest, code: str) -> HttpResponse:
    table = table_found(code, request)
    access = table_access(table=table, user=request.user)
    if access.seat is None and not access.can_join:
        raise refusal(request.user, table, joining=True)
    table_join(table=table, user=request.user)
    return redirect(table.get_absolute_url())


@login_required
@table_errors
@require_POST
def table_leave_view(request: HttpRequest, code: str) -> HttpResponse:
    table = table_found(code, request)
    playing_ranked = table.ranked and table.is_playing
    table_leave(table=table, user=request.user)
    if playing_ranked:
        messages.warning(
            request,
            _("You left a ranked game: it counts as a loss, and a CPU player plays your seat."),
        )
        return redirect("games:lobby")
    messages.success(request, _("You left the table. Your seat is kept if the game goes on."))
    return redirect("games:lobby")


@login_required
@table_errors
@require_POST
def table_again_view(request: HttpRequest, code: str) -> HttpResponse:
    """ "Play again" under a result: a new table like this one (games.services.table_again)."""
    loaded = table_loaded(code, request)  # outsiders learn nothing of its state
    try:
        table = table_again(table=loaded.table, user=request.user)
    except ValueError as exc:  # the options no longer valid for the engine
        raise PageError(str(exc), 400) from exc
    return redirect(table.get_absolute_url())


@login_required
@table_errors
@require_POST
def table_start_view(request: HttpRequest, code: str) -> HttpResponse:
    table = table_loaded(code, request).table  # outsiders learn nothing of its state
    table_start(table=table, user=request.user, bot_level=request.POST.get("level", "normal"))
    return redirect(table.get_absolute_url())


@login_required
@table_errors
@require_POST
def table_back_view(request: HttpRequest, code: str) -> HttpResponse:
    """ "I'm back": the CPU stand-in stops playing for this seat."""
    table = table_found(code, request)
    seat = table.seats.filter(user=request.user).first()
    if seat is None:
        raise PageError(_("You have no seat at this table."), 403)
    seat_return(seat=seat)
    if request.htmx:
        table.refresh_from_db()
        return _board_response(request, table, table_access(table=table, user=request.user))
    return redirect(table.get_absolute_url())
